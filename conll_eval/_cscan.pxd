# The string table of the compiled scan, shared with the validator's screen (conll_eval._cvalidate).
from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t, uint8_t

cdef struct Slot:
    uint32_t check  # the hash's high 32 bits (its low bits are the slot's place)
    int32_t id      # -1 = empty


cimport cython


@cython.final
cdef class StringTable:
    cdef Slot* slots
    cdef Py_ssize_t n_slots
    cdef uint8_t* data
    cdef Py_ssize_t data_size, data_capacity
    cdef int64_t* offset       # per id: start in data; offset[count] = data_size
    cdef Py_ssize_t count, id_capacity
    cdef bint failed

    cdef bint _grow_slots(self) noexcept nogil
    cdef int64_t intern(self, const uint8_t* p, Py_ssize_t n, const uint8_t* limit) noexcept nogil

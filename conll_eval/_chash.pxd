# The keyed hash of byte strings behind the compiled cores' open-addressing tables: the scan's
# and the validator's string tables (_cscan.StringTable) and the DEPS parser's table of paths
# (_cenhanced.PathTable).  Each module draws its own random key at import (new_hash_key): with
# an unkeyed hash a file can be made offline of strings that all take one slot chain, which
# every later string then walks (quadratic).  Codes never depend on the hash (they are handed
# out in order of first appearance; every hit is compared byte for byte).
#
# The hash is wyhash's and foldhash's construction (Go's runtime hashes map keys so where it
# has no AES instructions): 16 bytes at a time, the state folded through a 64x64 -> 128-bit
# multiplication of the bytes and the state, each xored with a secret word (the high half xor
# the low half).  A difference in the bytes is multiplied by a factor the file's author does
# not know, which spreads it over the whole product: no known pair of strings collides
# whatever the key.  A key only in the start of a hash whose steps multiply by a constant can
# leave such pairs: in the scan's old hash (x = (x ^ word) * C, x ^= x >> 29), flipping bit 62
# of a word changes the state after its step by one fixed difference for half of all states,
# which the next word cancels (two 16-byte blocks colliding for half of all keys).
from libc.stdint cimport uint64_t, uint8_t

cdef extern from *:
    """
    #ifndef CE_FOLD_MULTIPLY
    #define CE_FOLD_MULTIPLY
    #include <stdint.h>
    #include <string.h>
    /* 8 bytes as a little-endian word on any machine (a masked load of a string's tail and
       the byte-by-byte reading near a buffer's end must give the same word) */
    static inline uint64_t ce_load_le64(const uint8_t* p) {
        uint64_t w;
        memcpy(&w, p, 8);
    #if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        w = __builtin_bswap64(w);
    #endif
        return w;
    }
    #if defined(__SIZEOF_INT128__)
    static inline uint64_t ce_fold_multiply(uint64_t a, uint64_t b) {
        unsigned __int128 product = (unsigned __int128)a * b;
        return (uint64_t)product ^ (uint64_t)(product >> 64);
    }
    #elif defined(_MSC_VER) && defined(_M_X64)
    #include <intrin.h>
    static inline uint64_t ce_fold_multiply(uint64_t a, uint64_t b) {
        uint64_t high, low = _umul128(a, b, &high);
        return low ^ high;
    }
    #else  /* the same 128-bit product from 32-bit halves */
    static inline uint64_t ce_fold_multiply(uint64_t a, uint64_t b) {
        uint64_t a0 = (uint32_t)a, a1 = a >> 32, b0 = (uint32_t)b, b1 = b >> 32;
        uint64_t low = a0 * b0, mid1 = a0 * b1, mid2 = a1 * b0, high = a1 * b1;
        uint64_t mid = (low >> 32) + (uint32_t)mid1 + (uint32_t)mid2;
        low = (low & 0xFFFFFFFFu) | (mid << 32);
        high += (mid1 >> 32) + (mid2 >> 32) + (mid >> 32);
        return low ^ high;
    }
    #endif
    #endif
    """
    uint64_t ce_fold_multiply(uint64_t a, uint64_t b) noexcept nogil
    uint64_t ce_load_le64(const uint8_t* p) noexcept nogil


cdef struct HashKey:
    uint64_t seed   # the state's start (with the length)
    uint64_t data   # xored with the first 8 bytes of each 16
    uint64_t last   # xored with the state before the last fold


cdef inline HashKey new_hash_key(bytes secret):
    """A key from 24 random bytes (``os.urandom(24)``)."""
    cdef HashKey key
    key.seed = int.from_bytes(secret[0:8], "little")
    key.data = int.from_bytes(secret[8:16], "little")
    key.last = int.from_bytes(secret[16:24], "little")
    return key


cdef inline uint64_t _load_tail(const uint8_t* p, Py_ssize_t n, const uint8_t* limit) noexcept nogil:
    """``p[:n]`` (``0 < n <= 8``) as a little-endian word: one 8-byte load, masked, when bytes
    up to ``p + 8`` may be read (``<= limit``), else byte by byte."""
    cdef uint64_t w = 0
    cdef Py_ssize_t j
    if p + 8 <= limit:
        w = ce_load_le64(p)
        if n < 8:
            w &= (1ULL << (8 * n)) - 1
    else:
        for j in range(n):
            w |= (<uint64_t>p[j]) << (8 * j)
    return w


cdef inline uint64_t keyed_hash(const uint8_t* p, Py_ssize_t n, const uint8_t* limit,
                                const HashKey* key) noexcept nogil:
    """The hash of ``p[:n]`` under ``key``; bytes up to ``limit`` (``>= p + n``) may be read
    (the tail is then one load).  Every output bit depends on every input bit and the key
    (through the last fold's high half), so the low bits can pick the slot."""
    cdef uint64_t state = key.seed ^ <uint64_t>n, a = 0, b = 0
    cdef Py_ssize_t i = 0
    while i + 16 < n:
        a = ce_load_le64(p + i)
        b = ce_load_le64(p + i + 8)
        state = ce_fold_multiply(a ^ key.data, b ^ state)
        i += 16
    # the last 1-16 bytes (none for the empty string)
    if n - i > 8:
        a = ce_load_le64(p + i)
        b = _load_tail(p + i + 8, n - i - 8, limit)
    elif n > i:
        a = _load_tail(p + i, n - i, limit)
    state = ce_fold_multiply(a ^ key.data, b ^ state)
    return ce_fold_multiply(state ^ key.last, <uint64_t>n ^ 0x9E3779B97F4A7C15ULL)

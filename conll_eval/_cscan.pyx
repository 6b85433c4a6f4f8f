# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled twin of :func:`conll_eval.scan._scan_piece`: one pass over a piece's bytes, without
the GIL, that decides regularity exactly as the numpy scan does and returns the same columns.

String fields are interned into a per-file :class:`StringTable` (local ids, in order of first
appearance); the caller maps new local ids to the shared vocabulary once per piece.  Also a
strict UTF-8 check (Python's decoder's rules).  The numpy scan stays the reference: the tests
compare the two on every shared treebank, on generated files and on the fuzz corpus.
"""
from cpython.unicode cimport PyUnicode_DecodeUTF8
from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memcmp, memcpy, memchr
from libc.stdint cimport int32_t, int64_t, uint16_t, uint32_t, uint64_t, uint8_t

import os

cimport cython
import numpy as np
cimport numpy as cnp

from conll_eval._chash cimport HashKey, keyed_hash, new_hash_key

cdef extern from *:
    """
    #include <stdint.h>
    /* The offset of the first (lowest-address) byte of a word memcpy'd from memory whose
       high bit is set in ``marks`` (not 0): the lowest byte of the integer on little-endian
       machines, the highest on big-endian ones. */
    static inline int ce_first_marked_byte(uint64_t marks) {
    #if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        return __builtin_clzll(marks) >> 3;
    #else
        return __builtin_ctzll(marks) >> 3;
    #endif
    }
    """
    int ce_first_marked_byte(uint64_t marks) nogil

cdef extern from *:
    """
    #if defined(__SSE2__)
    #include <emmintrin.h>
    #endif
    /* The characters (bytes other than UTF-8 continuation bytes) and the largest byte of
       p[:n]: 16 bytes a step with SSE2 (the compiler does not vectorise the loop at -O2). */
    static void ce_utf8_census(const uint8_t* p, Py_ssize_t n, Py_ssize_t* count,
                               uint8_t* largest) {
        Py_ssize_t i = 0, c = 0;
        uint8_t m = 0;
    #if defined(__SSE2__)
        const __m128i top2 = _mm_set1_epi8((char)0xC0), continuation = _mm_set1_epi8((char)0x80);
        __m128i widest = _mm_setzero_si128();
        for (; i + 16 <= n; i += 16) {
            __m128i v = _mm_loadu_si128((const __m128i*)(p + i));
            unsigned cont = (unsigned)_mm_movemask_epi8(
                _mm_cmpeq_epi8(_mm_and_si128(v, top2), continuation));
            c += 16 - __builtin_popcount(cont);
            widest = _mm_max_epu8(widest, v);
        }
        uint8_t lanes[16];
        _mm_storeu_si128((__m128i*)lanes, widest);
        for (int k = 0; k < 16; k++) m = lanes[k] > m ? lanes[k] : m;
    #endif
        for (; i < n; i++) {
            c += (p[i] & 0xC0) != 0x80;
            m = p[i] > m ? p[i] : m;
        }
        *count = c;
        *largest = m;
    }
    #if defined(__SSE2__)
    /* 16 ASCII bytes widened into 16 characters of 1, 2 or 4 bytes. */
    static inline void ce_widen_1(uint8_t* out, __m128i v) { _mm_storeu_si128((__m128i*)out, v); }
    static inline void ce_widen_2(uint16_t* out, __m128i v) {
        const __m128i zero = _mm_setzero_si128();
        _mm_storeu_si128((__m128i*)out, _mm_unpacklo_epi8(v, zero));
        _mm_storeu_si128((__m128i*)(out + 8), _mm_unpackhi_epi8(v, zero));
    }
    static inline void ce_widen_4(uint32_t* out, __m128i v) {
        const __m128i zero = _mm_setzero_si128();
        __m128i low = _mm_unpacklo_epi8(v, zero), high = _mm_unpackhi_epi8(v, zero);
        _mm_storeu_si128((__m128i*)out, _mm_unpacklo_epi16(low, zero));
        _mm_storeu_si128((__m128i*)(out + 4), _mm_unpackhi_epi16(low, zero));
        _mm_storeu_si128((__m128i*)(out + 8), _mm_unpacklo_epi16(high, zero));
        _mm_storeu_si128((__m128i*)(out + 12), _mm_unpackhi_epi16(high, zero));
    }
    /* ASCII runs 16 bytes a step (SSE2), while the bytes and the room last; a step that
       meets a byte that is not ASCII takes the ASCII before it. */
    #define CE_ASCII_RUN(WIDEN) \
        while (i + 16 <= n && j + 16 <= capacity) { \
            __m128i v = _mm_loadu_si128((const __m128i*)(p + i)); \
            unsigned high = (unsigned)_mm_movemask_epi8(v); \
            if (high) { \
                for (k = __builtin_ctz(high); k > 0; k--) out[j++] = p[i++]; \
                break; \
            } \
            WIDEN(out + j, v); \
            i += 16; j += 16; \
        } \
        if (i >= n) break; \
        c = p[i];
    #else
    #define CE_ASCII_RUN(WIDEN)
    #endif
    /* UTF-8 p[:n] decoded into out[:capacity], characters of T (uint8/16/32) up to limit;
       the number written, -1 for a malformed sequence or one past limit or capacity. */
    #define CE_DECODE_UTF8(NAME, T, WIDEN) \
    static Py_ssize_t NAME(const uint8_t* p, Py_ssize_t n, T* out, Py_ssize_t capacity, \
                           uint32_t limit, uint32_t* widest) { \
        Py_ssize_t i = 0, j = 0, k, size; \
        uint32_t cp, top = 0; \
        while (i < n) { \
            uint8_t c = p[i]; \
            if (c < 0x80) { \
                CE_ASCII_RUN(WIDEN) \
                if (c < 0x80) { \
                    if (j >= capacity) return -1; \
                    out[j++] = c; i++; \
                    continue; \
                } \
            } \
            if (c < 0xC2) return -1; \
            if (c < 0xE0) { cp = c & 0x1F; size = 2; } \
            else if (c < 0xF0) { cp = c & 0x0F; size = 3; } \
            else { cp = c & 0x07; size = 4; } \
            if (i + size > n || j >= capacity) return -1; \
            for (k = 1; k < size; k++) { \
                if ((p[i + k] & 0xC0) != 0x80) return -1; \
                cp = (cp << 6) | (p[i + k] & 0x3F); \
            } \
            if (cp > limit) return -1; \
            top = cp > top ? cp : top; \
            out[j++] = (T)cp; \
            i += size; \
        } \
        *widest = top; \
        return j; \
    }
    CE_DECODE_UTF8(ce_decode_utf8_1, uint8_t, ce_widen_1)
    CE_DECODE_UTF8(ce_decode_utf8_2, uint16_t, ce_widen_2)
    CE_DECODE_UTF8(ce_decode_utf8_4, uint32_t, ce_widen_4)
    static Py_ssize_t ce_decode_utf8(const uint8_t* p, Py_ssize_t n, void* out,
                                     Py_ssize_t capacity, uint32_t limit, uint32_t* widest) {
        if (limit <= 0xFF) return ce_decode_utf8_1(p, n, (uint8_t*)out, capacity, limit, widest);
        if (limit <= 0xFFFF) return ce_decode_utf8_2(p, n, (uint16_t*)out, capacity, limit, widest);
        return ce_decode_utf8_4(p, n, (uint32_t*)out, capacity, limit, widest);
    }
    """
    void ce_utf8_census(const uint8_t* p, Py_ssize_t n, Py_ssize_t* count, uint8_t* largest) nogil
    Py_ssize_t ce_decode_utf8(const uint8_t* p, Py_ssize_t n, void* out, Py_ssize_t capacity,
                              uint32_t limit, uint32_t* widest) nogil

cdef extern from "Python.h":
    object PyUnicode_New(Py_ssize_t size, Py_UCS4 maxchar)
    void* PyUnicode_DATA(object text)

cdef extern from *:
    """
    #include <stdint.h>
    #include <string.h>
    /* The newlines in p[:n]: 64 bytes a step with GCC/Clang vector types (SSE2, NEON, ...:
       whatever the target has), a byte at a time elsewhere. */
    static Py_ssize_t ce_count_newlines(const uint8_t* p, Py_ssize_t n) {
        Py_ssize_t i = 0, count = 0;
    #if defined(__GNUC__) || defined(__clang__)
        typedef uint8_t v16 __attribute__((vector_size(16)));
        const v16 nl = {10,10,10,10,10,10,10,10,10,10,10,10,10,10,10,10};
        while (i + 64 <= n) {
            v16 acc = {0}, v;
            int steps = 0;
            /* a lane counts at most 4 a step (true is -1: subtracted): flush before 255 */
            while (i + 64 <= n && steps < 63) {
                memcpy(&v, p + i, 16); acc -= (v16)(v == nl);
                memcpy(&v, p + i + 16, 16); acc -= (v16)(v == nl);
                memcpy(&v, p + i + 32, 16); acc -= (v16)(v == nl);
                memcpy(&v, p + i + 48, 16); acc -= (v16)(v == nl);
                i += 64;
                steps++;
            }
            for (int k = 0; k < 16; k++) count += acc[k];
        }
    #endif
        for (; i < n; i++) count += p[i] == 10;
        return count;
    }
    """
    Py_ssize_t ce_count_newlines(const uint8_t* p, Py_ssize_t n) nogil

cdef extern from *:
    """
    #include <stdint.h>
    #include <string.h>
    #if defined(__SSE2__)
    #include <emmintrin.h>
    #endif
    /* The index of the newline ending the line that starts at a[i], and the line's TABs:
       the first nine positions into tab[], how many there are into *n_tabs.  a[:size] may
       be read, and a newline comes before size.  SSE2 (every x86-64): 16 bytes a step,
       TABs and the newline found in one pass; elsewhere memchr, then the TABs. */
    static inline Py_ssize_t ce_line_tabs(const uint8_t* a, Py_ssize_t i, Py_ssize_t size,
                                          Py_ssize_t* tab, Py_ssize_t* n_tabs) {
        Py_ssize_t count = 0, end;
    #if defined(__SSE2__)
        const __m128i tabs = _mm_set1_epi8(9), newlines = _mm_set1_epi8(10);
        while (i + 16 <= size) {
            __m128i v = _mm_loadu_si128((const __m128i*)(a + i));
            unsigned nl = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, newlines));
            unsigned tb = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, tabs));
            if (nl) tb &= (nl & (0u - nl)) - 1;  /* the TABs before the newline */
            while (tb) {
                if (count < 9) tab[count] = i + __builtin_ctz(tb);
                count++;
                tb &= tb - 1;
            }
            if (nl) {
                *n_tabs = count;
                return i + __builtin_ctz(nl);
            }
            i += 16;
        }
    #endif
        end = (const uint8_t*)memchr(a + i, 10, size - i) - a;
        for (; i < end; i++) {
            if (a[i] == 9) {
                if (count < 9) tab[count] = i;
                count++;
            }
        }
        *n_tabs = count;
        return end;
    }
    /* The index of the first byte of p[i:n] that is not ASCII, n if none: 16 bytes a step
       with SSE2, 8 elsewhere. */
    static inline Py_ssize_t ce_skip_ascii(const uint8_t* p, Py_ssize_t i, Py_ssize_t n) {
    #if defined(__SSE2__)
        while (i + 16 <= n) {
            unsigned high = (unsigned)_mm_movemask_epi8(_mm_loadu_si128((const __m128i*)(p + i)));
            if (high) return i + __builtin_ctz(high);
            i += 16;
        }
    #else
        uint64_t word;
        while (i + 8 <= n) {
            memcpy(&word, p + i, 8);
            word &= 0x8080808080808080ULL;
            if (word) return i + ce_first_marked_byte(word);
            i += 8;
        }
    #endif
        while (i < n && p[i] < 0x80) i++;
        return i;
    }
    /* For a FORM p[0:n] (n <= 16; 16 bytes readable at p): when none of its bytes may start
       a space separator (' ', and with ``unicode`` the lead bytes C2, E1, E2, E3 of the
       other Zs characters), its 16 bytes copied to out (which has room for them) and its
       characters returned; else -1 and nothing written (the caller goes byte by byte).
       SSE2 only (-1 elsewhere). */
    static inline Py_ssize_t ce_copy_plain_form(const uint8_t* p, Py_ssize_t n, uint8_t* out,
                                                int unicode) {
    #if defined(__SSE2__)
        const __m128i v = _mm_loadu_si128((const __m128i*)p);
        const unsigned form = (1u << n) - 1;
        unsigned high = (unsigned)_mm_movemask_epi8(v) & form;
        __m128i maybe_space = _mm_cmpeq_epi8(v, _mm_set1_epi8(0x20));
        if (high && unicode) {
            maybe_space = _mm_or_si128(maybe_space, _mm_cmpeq_epi8(v, _mm_set1_epi8((char)0xC2)));
            maybe_space = _mm_or_si128(maybe_space, _mm_cmpeq_epi8(v, _mm_set1_epi8((char)0xE1)));
            maybe_space = _mm_or_si128(maybe_space, _mm_cmpeq_epi8(v, _mm_set1_epi8((char)0xE2)));
            maybe_space = _mm_or_si128(maybe_space, _mm_cmpeq_epi8(v, _mm_set1_epi8((char)0xE3)));
        }
        if ((unsigned)_mm_movemask_epi8(maybe_space) & form) return -1;
        _mm_storeu_si128((__m128i*)out, v);
        if (!high) return n;
        /* characters: the bytes that are not UTF-8 continuation bytes (10xxxxxx) */
        unsigned continuation = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(
            _mm_and_si128(v, _mm_set1_epi8((char)0xC0)), _mm_set1_epi8((char)0x80))) & form;
        return n - __builtin_popcount(continuation);
    #else
        (void)p; (void)n; (void)out; (void)unicode;
        return -1;
    #endif
    }
    """
    Py_ssize_t ce_line_tabs(const uint8_t* a, Py_ssize_t i, Py_ssize_t size, Py_ssize_t* tab,
                            Py_ssize_t* n_tabs) nogil
    Py_ssize_t ce_skip_ascii(const uint8_t* p, Py_ssize_t i, Py_ssize_t n) nogil
    Py_ssize_t ce_copy_plain_form(const uint8_t* p, Py_ssize_t n, uint8_t* out, int unicode) nogil

cnp.import_array()

cdef enum:
    TAB = 9
    NEWLINE = 10
    HASH = 35
    DASH = 45
    DOT = 46
    ID_WIDTH_MAX = 16
    UINT_DIGITS_MAX = 9
    N_WORD_COLUMNS = 5
    N_EMPTY_COLUMNS = 9
    HASH_READ_SLACK = 8  # bytes a string table's data keeps after its strings (_hash_bytes reads 8 at once)

# per word: the interned string columns, in this order
WORD_COLUMNS = ("lemma", "upos", "xpos", "feats", "deprel")
# per empty node: its columns (CoNLL-U index), in this order
EMPTY_COLUMNS = ("id", "form", "lemma", "upos", "xpos", "feats", "deprel", "deps", "misc")
cdef int[9] EMPTY_FIELD = [0, 1, 2, 3, 4, 5, 7, 8, 9]


#: this process's key of the string tables' hash (see _chash.pxd): a file cannot be made of
#: strings that share one slot chain (quadratic interning) without knowing it
cdef HashKey _HASH_KEY = new_hash_key(os.urandom(24))


cdef inline uint64_t _hash_bytes(const uint8_t* p, Py_ssize_t n, const uint8_t* limit) noexcept nogil:
    """The keyed hash of ``p[:n]`` (:func:`keyed_hash`; hits are verified byte for byte, ids
    handed out in order of first appearance, so no output depends on it).  Bytes up to
    ``limit`` may be read: a short tail is then one 8-byte load, masked."""
    return keyed_hash(p, n, limit, &_HASH_KEY)


def string_hash(const uint8_t[::1] data not None):
    """This process's hash of ``data``'s bytes, as the string tables compute it (a diagnostic:
    the tests check that it depends on the process's key and spreads strings that collided
    under the old unkeyed hash)."""
    cdef const uint8_t* p = &data[0] if data.shape[0] else NULL
    return _hash_bytes(p, data.shape[0], p + data.shape[0] if p != NULL else NULL)


cdef inline bint _same_bytes(const uint8_t* x, const uint8_t* y, Py_ssize_t n) noexcept nogil:
    """``memcmp(x, y, n) == 0``, without a call for the short strings most fields are."""
    cdef Py_ssize_t i
    if n <= 16:
        for i in range(n):
            if x[i] != y[i]:
                return False
        return True
    return memcmp(x, y, n) == 0


# Slot and StringTable's attributes are declared in _cscan.pxd (the validator's screen uses the
# table too); final there: direct calls of its cdef methods (the scan calls them per field).
cdef class StringTable:
    """Distinct byte strings of one file's column, each with a local id (0, 1, ... in order
    of first appearance); open addressing, every hit checked byte for byte.  One table per
    column keeps the small ones (UPOS, DEPREL) in the fastest cache."""

    def __cinit__(self):
        self.n_slots = 1 << 6
        self.slots = <Slot*>malloc(self.n_slots * sizeof(Slot))
        self.data_capacity = 1 << 16
        self.data = <uint8_t*>malloc(self.data_capacity)
        self.id_capacity = 1 << 10
        self.offset = <int64_t*>malloc((self.id_capacity + 1) * sizeof(int64_t))
        if not self.slots or not self.data or not self.offset:
            raise MemoryError()
        cdef Py_ssize_t i
        for i in range(self.n_slots):
            self.slots[i].id = -1
        self.offset[0] = 0
        self.count = 0
        self.data_size = 0
        self.failed = False

    def __dealloc__(self):
        free(self.slots)
        free(self.data)
        free(self.offset)

    def __len__(self):
        return self.count

    cdef bint _grow_slots(self) noexcept nogil:
        """Twice the slots, every string placed again by its hash (computed again from its
        bytes: a slot keeps only 32 bits of it)."""
        cdef Py_ssize_t new_n = self.n_slots * 2, i, j, start
        cdef uint64_t h
        cdef Slot* grown = <Slot*>malloc(new_n * sizeof(Slot))
        if not grown:
            return False
        for i in range(new_n):
            grown[i].id = -1
        for i in range(self.count):
            start = self.offset[i]
            # the data buffer keeps HASH_READ_SLACK bytes after its strings (see intern)
            h = _hash_bytes(self.data + start, self.offset[i + 1] - start,
                            self.data + self.data_capacity)
            j = <Py_ssize_t>(h & <uint64_t>(new_n - 1))
            while grown[j].id >= 0:
                j = (j + 1) & (new_n - 1)
            grown[j].check = <uint32_t>(h >> 32)
            grown[j].id = <int32_t>i
        free(self.slots)
        self.slots, self.n_slots = grown, new_n
        return True

    cdef int64_t intern(self, const uint8_t* p, Py_ssize_t n, const uint8_t* limit) noexcept nogil:
        """The local id of ``p[:n]`` (added if new); -1 when memory ran out.  Bytes up to
        ``limit`` may be read (see :func:`_hash_bytes`)."""
        cdef uint64_t h = _hash_bytes(p, n, limit)
        cdef uint32_t check = <uint32_t>(h >> 32)
        cdef Py_ssize_t mask = self.n_slots - 1
        cdef Py_ssize_t j = <Py_ssize_t>(h & <uint64_t>mask)
        cdef int64_t found, start
        cdef void* grown
        while True:
            found = self.slots[j].id
            if found < 0:
                break
            if self.slots[j].check == check:
                start = self.offset[found]
                if self.offset[found + 1] - start == n and _same_bytes(self.data + start, p, n):
                    return found
            j = (j + 1) & mask
        # new string (ids are int32: a table of 2**31 strings is out of memory anyway)
        if self.count >= 0x7FFFFFFF:
            self.failed = True
            return -1
        if self.data_size + n + HASH_READ_SLACK > self.data_capacity:
            while self.data_size + n + HASH_READ_SLACK > self.data_capacity:
                self.data_capacity *= 2
            grown = realloc(self.data, self.data_capacity)
            if not grown:
                self.failed = True
                return -1
            self.data = <uint8_t*>grown
        if self.count + 1 > self.id_capacity:
            self.id_capacity *= 2
            grown = realloc(self.offset, (self.id_capacity + 1) * sizeof(int64_t))
            if not grown:
                self.failed = True
                return -1
            self.offset = <int64_t*>grown
        memcpy(self.data + self.data_size, p, n)
        self.data_size += n
        found = self.count
        self.count += 1
        self.offset[self.count] = self.data_size
        self.slots[j].id = <int32_t>found
        self.slots[j].check = check
        if self.count * 2 > self.n_slots:  # at most half full: short probe runs
            if not self._grow_slots():
                self.failed = True
                return -1
        return found

    def longest_probe(self):
        """The farthest any string sits from the slot its hash picks (0: each in its own):
        the longest walk of a lookup that finds it.  A diagnostic of the hash's spread (the
        tests read it): strings whose hashes pick one slot queue up after it."""
        cdef Py_ssize_t j, home, mask = self.n_slots - 1, longest = 0
        cdef int64_t start, found
        for j in range(self.n_slots):
            found = self.slots[j].id
            if found >= 0:
                start = self.offset[found]
                home = <Py_ssize_t>(_hash_bytes(self.data + start, self.offset[found + 1] - start,
                                                self.data + self.data_capacity) & <uint64_t>mask)
                longest = max(longest, (j - home) & mask)
        return longest

    def decoded(self, Py_ssize_t since=0):
        """The strings of local ids ``since`` .. ``len(self) - 1`` as ``str`` (the scan reads
        valid UTF-8 only: the file is checked first)."""
        cdef Py_ssize_t i
        return [PyUnicode_DecodeUTF8(<char*>self.data + self.offset[i],
                                     self.offset[i + 1] - self.offset[i], NULL)
                for i in range(since, self.count)]



def encode_strings(StringTable table not None, Py_ssize_t since, dict index not None, list strings not None):
    """Vocabulary codes (int32) of ``table``'s strings from local id ``since`` on, decoded as
    ``str`` (valid UTF-8: the file was checked), in the vocabulary whose ``index`` (str ->
    code) and ``strings`` (code -> str) are given: each looked up once and, when new,
    interned at the end, as :meth:`conll_eval.treebank.Vocab.encode` does with distinct
    strings, without a Python loop."""
    cdef Py_ssize_t n = max(table.count - since, 0), i, start
    codes_a = np.empty(n, dtype=np.int32)
    cdef int32_t[::1] codes = codes_a
    cdef object text, code
    for i in range(n):
        start = table.offset[since + i]
        text = PyUnicode_DecodeUTF8(<char*>table.data + start, table.offset[since + i + 1] - start,
                                    NULL)
        code = index.get(text)
        if code is None:
            code = len(strings)
            index[text] = code
            strings.append(text)
        codes[i] = code
    return codes_a


@cython.final
cdef class TagCombos:
    """The UPOS, XPOS and FEATS fields of a word line are one span (``UPOS\tXPOS\tFEATS``),
    and a treebank has few distinct ones: each distinct span is interned once and keeps the
    ids its three fields got in their own tables, so a word costs one lookup instead of
    three.  The ids are those the fields would get alone (a new field value comes with a new
    span, where its fields are interned in order)."""
    cdef StringTable spans
    cdef int32_t* ids          # 3 per span: UPOS, XPOS, FEATS
    cdef Py_ssize_t n_spans, capacity
    cdef bint failed

    def __cinit__(self):
        self.spans = StringTable()
        self.capacity = 1 << 10
        self.ids = <int32_t*>malloc(3 * self.capacity * sizeof(int32_t))
        if not self.ids:
            raise MemoryError()
        self.n_spans = 0
        self.failed = False

    def __dealloc__(self):
        free(self.ids)

    cdef inline bint lookup(self, const uint8_t* p, Py_ssize_t n, int32_t* out,
                            StringTable upos, StringTable xpos, StringTable feats,
                            Py_ssize_t tab_upos, Py_ssize_t tab_xpos,
                            const uint8_t* limit) noexcept nogil:
        """The ids of the span ``p[:n]`` into ``out[0:3]``; its UPOS ends at ``p[tab_upos]``
        and its XPOS at ``p[tab_xpos]`` (the TABs).  False when memory ran out.  Bytes up to
        ``limit`` may be read."""
        cdef int64_t span = self.spans.intern(p, n, limit)
        cdef int64_t u, x, f
        cdef void* grown
        if span < 0 or span > self.n_spans:  # out of memory (now or in an earlier scan)
            self.failed = True
            return False
        if span == self.n_spans:  # a new span: its fields in their tables, in order
            u = upos.intern(p, tab_upos, limit)
            x = xpos.intern(p + tab_upos + 1, tab_xpos - tab_upos - 1, limit)
            f = feats.intern(p + tab_xpos + 1, n - tab_xpos - 1, limit)
            if u < 0 or x < 0 or f < 0:
                self.failed = True
                return False
            if self.n_spans == self.capacity:
                grown = realloc(self.ids, 6 * self.capacity * sizeof(int32_t))
                if not grown:
                    self.failed = True
                    return False
                self.ids = <int32_t*>grown
                self.capacity *= 2
            self.ids[3 * span] = <int32_t>u
            self.ids[3 * span + 1] = <int32_t>x
            self.ids[3 * span + 2] = <int32_t>f
            self.n_spans += 1
        out[0] = self.ids[3 * span]
        out[1] = self.ids[3 * span + 1]
        out[2] = self.ids[3 * span + 2]
        return True


cdef inline int64_t _parse_uint(const uint8_t* a, Py_ssize_t start, Py_ssize_t end) noexcept nogil:
    """A non-empty field of at most 9 ASCII digits as its value, else -1."""
    cdef Py_ssize_t n = end - start, i
    cdef int64_t value = 0
    cdef uint8_t c
    if n < 1 or n > UINT_DIGITS_MAX:
        return -1
    for i in range(start, end):
        c = a[i]
        if c < 48 or c > 57:
            return -1
        value = value * 10 + (c - 48)
    return value


cdef bint _sentence_ok(int32_t* head, Py_ssize_t first, Py_ssize_t last,
                       uint8_t* state) noexcept nogil:
    """Words ``first .. last - 1`` of a sentence (HEADs 0 = root, else 1-based): every HEAD
    within the sentence, exactly one root, no cycle.  ``state``: scratch, one byte a word."""
    cdef Py_ssize_t n = last - first, i, j, k
    cdef Py_ssize_t roots = 0
    cdef int32_t h
    for i in range(first, last):
        h = head[i]
        if h > n:
            return False
        if h == 0:
            roots += 1
    if roots != 1:
        return False
    for i in range(n):
        state[i] = 0  # 0 unseen, 1 on the current path, 2 reaches the root
    for i in range(n):
        j = i
        while state[j] == 0:
            state[j] = 1
            h = head[first + j]
            if h == 0:
                break
            j = <Py_ssize_t>(h - 1)
        if state[j] == 1 and not (head[first + j] == 0):
            return False  # came back to the current path: a cycle
        # mark the path as reaching the root
        k = i
        while state[k] == 1:
            state[k] = 2
            h = head[first + k]
            if h == 0:
                break
            k = <Py_ssize_t>(h - 1)
    return True


cdef inline Py_ssize_t _space_at(const uint8_t* p, Py_ssize_t i, Py_ssize_t end,
                                 bint unicode) noexcept nogil:
    """Length in bytes of the space separator at ``p[i]`` (valid UTF-8 up to ``end``), 0 if
    none: ASCII space only, or with ``unicode`` every character of category Zs (U+0020,
    U+00A0, U+1680, U+2000-U+200A, U+202F, U+205F, U+3000; a test checks the set against the
    regex module's ``\\p{Zs}``)."""
    cdef uint8_t c = p[i], d, e
    if c == 0x20:
        return 1
    if not unicode or c < 0xC2 or i + 1 >= end:
        return 0
    d = p[i + 1]
    if c == 0xC2:
        return 2 if d == 0xA0 else 0
    if i + 2 >= end:
        return 0
    e = p[i + 2]
    if c == 0xE1:
        return 3 if d == 0x9A and e == 0x80 else 0
    if c == 0xE2:
        return 3 if (d == 0x80 and (e <= 0x8A or e == 0xAF)) or (d == 0x81 and e == 0x9F) else 0
    if c == 0xE3:
        return 3 if d == 0x80 and e == 0x80 else 0
    return 0


cdef extern from *:
    """
    #include <stdint.h>
    #include <string.h>
    /* Strict UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF, no
       truncated sequence) checked 16 bytes a step with SSSE3's byte shuffles, where the CPU
       has them (x86 with GCC or Clang; chosen at run time).  Each byte is classified with its
       predecessor by three 16-entry tables (the high and low nibble of the byte before, the
       high nibble of this one); the AND of the three classes is an error unless it is "two
       continuations" where a lead byte two or three places back asks for one (after Keiser
       and Lemire, "Validating UTF-8 in less than one instruction per byte", 2021).  A block
       of ASCII after three ASCII bytes is skipped; the input ends with a block of zeros, so
       a truncated last sequence is "too short". */
    #if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
    #include <tmmintrin.h>
    enum {
        CE_TOO_SHORT = 1 << 0,    /* a lead or ASCII, then a lead or ASCII after a lead */
        CE_TOO_LONG = 1 << 1,     /* ASCII, then a continuation */
        CE_OVERLONG_3 = 1 << 2,   /* E0 then 80-9F */
        CE_TOO_LARGE = 1 << 3,    /* F4 then 90-BF, or F5-FF then 90-BF */
        CE_SURROGATE = 1 << 4,    /* ED then A0-BF */
        CE_OVERLONG_2 = 1 << 5,   /* C0 or C1, then a continuation */
        CE_TOO_LARGE_1000 = 1 << 6,  /* F5-FF then 80-8F */
        CE_OVERLONG_4 = 1 << 6,   /* F0 then 80-8F */
        CE_TWO_CONTS = 1 << 7,    /* a continuation, then a continuation */
        CE_CARRY = CE_TOO_SHORT | CE_TOO_LONG | CE_TWO_CONTS
    };
    __attribute__((target("ssse3")))
    static int ce_utf8_valid_ssse3(const uint8_t* p, Py_ssize_t n) {
        const __m128i by_first_high = _mm_setr_epi8(
            CE_TOO_LONG, CE_TOO_LONG, CE_TOO_LONG, CE_TOO_LONG,
            CE_TOO_LONG, CE_TOO_LONG, CE_TOO_LONG, CE_TOO_LONG,
            (char)CE_TWO_CONTS, (char)CE_TWO_CONTS, (char)CE_TWO_CONTS, (char)CE_TWO_CONTS,
            CE_TOO_SHORT | CE_OVERLONG_2, CE_TOO_SHORT,
            CE_TOO_SHORT | CE_OVERLONG_3 | CE_SURROGATE,
            CE_TOO_SHORT | CE_TOO_LARGE | CE_TOO_LARGE_1000 | CE_OVERLONG_4);
        const __m128i by_first_low = _mm_setr_epi8(
            (char)(CE_CARRY | CE_OVERLONG_3 | CE_OVERLONG_2 | CE_OVERLONG_4),
            (char)(CE_CARRY | CE_OVERLONG_2), (char)CE_CARRY, (char)CE_CARRY,
            (char)(CE_CARRY | CE_TOO_LARGE),
            (char)(CE_CARRY | CE_TOO_LARGE | CE_TOO_LARGE_1000),
            (char)(CE_CARRY | CE_TOO_LARGE | CE_TOO_LARGE_1000),
            (char)(CE_CARRY | CE_TOO_LARGE | CE_TOO_LARGE_1000),
            (char)(CE_CARRY | CE_TOO_LARGE | CE_TOO_LARGE_1000),
            (char)(CE_CARRY | CE_TOO_LARGE | CE_TOO_LARGE_1000),
            (char)(CE_CARRY | CE_TOO_LARGE | CE_TOO_LARGE_1000),
            (char)(CE_CARRY | CE_TOO_LARGE | CE_TOO_LARGE_1000),
            (char)(CE_CARRY | CE_TOO_LARGE | CE_TOO_LARGE_1000),
            (char)(CE_CARRY | CE_TOO_LARGE | CE_TOO_LARGE_1000 | CE_SURROGATE),
            (char)(CE_CARRY | CE_TOO_LARGE | CE_TOO_LARGE_1000),
            (char)(CE_CARRY | CE_TOO_LARGE | CE_TOO_LARGE_1000));
        const __m128i by_second_high = _mm_setr_epi8(
            CE_TOO_SHORT, CE_TOO_SHORT, CE_TOO_SHORT, CE_TOO_SHORT,
            CE_TOO_SHORT, CE_TOO_SHORT, CE_TOO_SHORT, CE_TOO_SHORT,
            (char)(CE_TOO_LONG | CE_OVERLONG_2 | CE_TWO_CONTS | CE_OVERLONG_3 |
                   CE_TOO_LARGE_1000 | CE_OVERLONG_4),
            (char)(CE_TOO_LONG | CE_OVERLONG_2 | CE_TWO_CONTS | CE_OVERLONG_3 | CE_TOO_LARGE),
            (char)(CE_TOO_LONG | CE_OVERLONG_2 | CE_TWO_CONTS | CE_SURROGATE | CE_TOO_LARGE),
            (char)(CE_TOO_LONG | CE_OVERLONG_2 | CE_TWO_CONTS | CE_SURROGATE | CE_TOO_LARGE),
            CE_TOO_SHORT, CE_TOO_SHORT, CE_TOO_SHORT, CE_TOO_SHORT);
        const __m128i nibble = _mm_set1_epi8(0x0F);
        __m128i before = _mm_setzero_si128(), error = _mm_setzero_si128(), v;
        unsigned high, high_before = 0;
        uint8_t last[16];
        Py_ssize_t i = 0;
        int end = 0;
        while (!end) {
            if (i + 16 <= n) {
                v = _mm_loadu_si128((const __m128i*)(p + i));
            } else {  /* the last bytes, then zeros: a truncated sequence is too short */
                memset(last, 0, 16);
                memcpy(last, p + i, (size_t)(n - i));
                v = _mm_loadu_si128((const __m128i*)last);
                end = 1;
            }
            high = (unsigned)_mm_movemask_epi8(v);
            if (high || (high_before & 0xE000)) {
                __m128i prev1 = _mm_alignr_epi8(v, before, 15);
                __m128i prev2 = _mm_alignr_epi8(v, before, 14);
                __m128i prev3 = _mm_alignr_epi8(v, before, 13);
                __m128i classes = _mm_and_si128(_mm_and_si128(
                    _mm_shuffle_epi8(by_first_high, _mm_and_si128(_mm_srli_epi16(prev1, 4), nibble)),
                    _mm_shuffle_epi8(by_first_low, _mm_and_si128(prev1, nibble))),
                    _mm_shuffle_epi8(by_second_high, _mm_and_si128(_mm_srli_epi16(v, 4), nibble)));
                /* 0x80 where a lead two (E0-FF) or three (F0-FF) bytes back wants a continuation */
                __m128i wanted = _mm_and_si128(_mm_or_si128(
                    _mm_subs_epu8(prev2, _mm_set1_epi8((char)(0xE0 - 0x80))),
                    _mm_subs_epu8(prev3, _mm_set1_epi8((char)(0xF0 - 0x80)))),
                    _mm_set1_epi8((char)0x80));
                error = _mm_or_si128(error, _mm_xor_si128(wanted, classes));
            }
            before = v;
            high_before = high;
            i += 16;
        }
        return _mm_movemask_epi8(_mm_cmpeq_epi8(error, _mm_setzero_si128())) == 0xFFFF;
    }
    static int ce_have_ssse3(void) {
        return __builtin_cpu_supports("ssse3");
    }
    #else
    static int ce_utf8_valid_ssse3(const uint8_t* p, Py_ssize_t n) { (void)p; (void)n; return -1; }
    static int ce_have_ssse3(void) { return 0; }
    #endif
    """
    int ce_utf8_valid_ssse3(const uint8_t* p, Py_ssize_t n) nogil
    int ce_have_ssse3() nogil

cdef bint _HAVE_SSSE3 = ce_have_ssse3()
#: whether :func:`utf8_valid` checks 16 bytes a step here (for the tests)
UTF8_VECTORS = bool(_HAVE_SSSE3)


def space_length(bytes text not None, bint unicode):
    """The length of the space separator :func:`scan_piece` sees at the start of ``text``
    (for the tests)."""
    return _space_at(<const uint8_t*>text, 0, len(text), unicode) if text else 0


def utf8_valid(const uint8_t[::1] data not None, bint vectors=True):
    """Whether ``data`` is valid UTF-8 as Python's strict decoder decides (no overlongs, no
    surrogates, nothing above U+10FFFF, no truncated sequence).  With SSSE3 (and
    ``vectors``) 16 bytes a step, else a sequence at a time (the tests compare the two)."""
    cdef Py_ssize_t i = 0, n = data.shape[0]
    cdef uint8_t c, d
    cdef bint ok = True
    if _HAVE_SSSE3 and vectors and n:
        with nogil:
            ok = ce_utf8_valid_ssse3(&data[0], n)
        return ok
    with nogil:
        while i < n:
            c = data[i]
            if c < 0x80:  # ASCII runs (most of a CoNLL-U file) many bytes at a time
                i = ce_skip_ascii(&data[0], i, n)
                continue
            if c < 0xC2 or c > 0xF4:
                ok = False
                break
            if c < 0xE0:
                if i + 1 >= n or (data[i + 1] & 0xC0) != 0x80:
                    ok = False
                    break
                i += 2
                continue
            if c < 0xF0:
                if i + 2 >= n or (data[i + 1] & 0xC0) != 0x80 or (data[i + 2] & 0xC0) != 0x80:
                    ok = False
                    break
                d = data[i + 1]
                if (c == 0xE0 and d < 0xA0) or (c == 0xED and d > 0x9F):
                    ok = False
                    break
                i += 3
                continue
            if (i + 3 >= n or (data[i + 1] & 0xC0) != 0x80 or (data[i + 2] & 0xC0) != 0x80
                    or (data[i + 3] & 0xC0) != 0x80):
                ok = False
                break
            d = data[i + 1]
            if (c == 0xF0 and d < 0x90) or (c == 0xF4 and d > 0x8F):
                ok = False
                break
            i += 4
    return ok


def decode_utf8(const uint8_t[::1] data not None):
    """``data`` (valid UTF-8) as a ``str`` written once into its final size, or None when
    ``data`` proves not to be valid UTF-8 (the caller then decodes it the usual way, which
    says why).  Python's decoder widens its buffer at the first character wider than
    what it holds (up to three buffers at once: about 3x the text's bytes for a text with
    CJK in it); the widest character is known from the largest lead byte."""
    cdef Py_ssize_t n = data.shape[0], count = 0, written
    cdef uint8_t largest = 0
    cdef uint32_t limit, widest = 0
    if n == 0:
        return ""
    cdef const uint8_t* p = &data[0]
    with nogil:
        ce_utf8_census(p, n, &count, &largest)
    if largest < 0x80:
        return PyUnicode_DecodeUTF8(<const char*>p, n, NULL)  # ASCII: one buffer anyway
    if largest < 0xC2 or largest > 0xF4:  # no lead byte, or one UTF-8 never has
        return None
    # the widest character's bound: leads C2-C3 start U+0080-U+00FF, C4-DF U+0100-U+07FF,
    # E0-EF U+0800-U+FFFF, F0-F4 beyond
    limit = 0xFF if largest < 0xC4 else 0xFFFF if largest < 0xF0 else 0x10FFFF
    text = PyUnicode_New(count, limit)
    cdef void* out = PyUnicode_DATA(text)
    with nogil:
        written = ce_decode_utf8(p, n, out, count, limit, &widest)
    # a str must be of the narrowest kind its characters allow (equal strings compare equal)
    if written != count or widest <= (0x7F if limit == 0xFF else 0xFF if limit == 0xFFFF else 0xFFFF):
        return None
    return text


def count_newlines(const uint8_t[::1] data not None):
    """The number of newline bytes in ``data`` (what :func:`scan_piece` sizes its arrays by)."""
    cdef Py_ssize_t found = 0
    if data.shape[0]:
        with nogil:
            found = ce_count_newlines(&data[0], data.shape[0])
    return found


def word_tail_starts(const uint8_t[::1] data not None):
    """Where the DEPS field of every word line of a regular CoNLL-U text starts, in order
    (int64): word lines are those neither blank nor comments whose ID (before the first TAB)
    has no '-' (a multi-word token's range) and no '.' (an empty node).  A regular line has
    exactly nine TABs, so DEPS starts after the last TAB but one, found from the line's end
    (DEPS and MISC are short, FORM to DEPREL are not); -1 for a line with fewer than two TABs
    after its ID."""
    cdef Py_ssize_t n = data.shape[0], at = 0, end, k, id_end, tabs, found = 0
    cdef bint word
    cdef const void* hit
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    cdef const uint8_t* p = &data[0]
    cdef Py_ssize_t n_lines
    with nogil:
        n_lines = ce_count_newlines(p, n) + 1
    starts_a = np.empty(n_lines, dtype=np.int64)
    cdef int64_t[::1] starts = starts_a
    with nogil:
        while at < n:
            hit = memchr(p + at, NEWLINE, n - at)
            end = n if hit == NULL else <const uint8_t*>hit - p
            if end > at and p[at] != HASH:  # not blank, not a comment
                word = True
                id_end = at
                while id_end < end and p[id_end] != TAB:
                    if p[id_end] == DASH or p[id_end] == DOT:
                        word = False
                    id_end += 1
                if word:
                    tabs = 0
                    k = end - 1
                    while k > id_end:
                        if p[k] == TAB:
                            tabs += 1
                            if tabs == 2:
                                break
                        k -= 1
                    starts[found] = k + 1 if tabs == 2 else -1
                    found += 1
            at = end + 1
    return starts_a[:found].copy()


def line_ends(const uint8_t[::1] data not None, starts):
    """The position of the first newline at or after each of ``starts`` (int32 or int64
    positions in ``data``), or ``len(data)`` where there is none: where a field that runs to
    the end of its line ends."""
    starts_a = np.ascontiguousarray(starts, dtype=np.int64)
    cdef const int64_t[::1] at = starts_a
    ends_a = np.empty(len(starts_a), dtype=np.int64)
    cdef int64_t[::1] ends = ends_a
    cdef Py_ssize_t i, n = data.shape[0], start
    cdef const void* hit
    if n == 0:
        ends_a.fill(0)
        return ends_a
    cdef const uint8_t* p = &data[0]
    with nogil:
        for i in range(at.shape[0]):
            start = at[i]
            if start < 0 or start >= n:
                ends[i] = n
                continue
            hit = memchr(p + start, NEWLINE, n - start)
            ends[i] = n if hit == NULL else <const uint8_t*>hit - p
    return ends_a


def remap_in_place(int32_t[::1] codes not None, const int32_t[::1] table not None):
    """``codes[i] = table[codes[i]]`` where the codes are (-1 stays -1: no string); False,
    with ``codes`` untouched, when a code is outside ``table``."""
    cdef Py_ssize_t i, n = codes.shape[0], size = table.shape[0]
    cdef int32_t code
    cdef bint inside = True
    with nogil:
        for i in range(n):
            if codes[i] < -1 or codes[i] >= size:
                inside = False
                break
        if inside:
            for i in range(n):
                code = codes[i]
                if code >= 0:
                    codes[i] = table[code]
    return inside


#: the tables :func:`scan_piece` interns into, in this order: the word columns, the FORMs of
#: words inside multi-word tokens, every column of the empty nodes, the FORMs (as written) of
#: tokens that lost space characters
TABLES = WORD_COLUMNS + ("mwt_form", "empty", "spaced_tok_form")
#: the per-token and per-word columns :func:`scan_piece` can write straight into its file's
#: (``into``), in this order; then the word columns' ids (:data:`WORD_COLUMNS`)
INTO_COLUMNS = ("tok_len", "tok_line", "tok_is_mwt", "word_tok", "word_is_mwt", "word_line",
                "word_sent", "head", "mwt_form")


#: the fewest bytes of a content line the scan takes (nine TABs and a newline)
MIN_CONTENT_LINE_BYTES = 10


def content_lines_bound(Py_ssize_t n_bytes, Py_ssize_t n_lines):
    """The most content lines (words, ranges, empty nodes) ``n_bytes`` of ``n_lines`` lines
    can hold: the room :func:`scan_piece` needs per word, token, sentence or empty node."""
    return min(n_lines, n_bytes // MIN_CONTENT_LINE_BYTES + 1)


def scratch_array(dict scratch not None, str name not None, shape, dtype):
    """An array of at least ``shape`` from ``scratch`` (reused by the pieces of a file, so
    that only what a piece keeps is allocated per piece: less heap fragmentation)."""
    if isinstance(shape, tuple):
        rows, width = shape
        array = scratch.get(name)
        if array is None or array.shape[0] != rows or array.shape[1] < width:
            array = scratch[name] = np.empty((rows, max(width, 1024)), dtype=dtype)
        return array
    array = scratch.get(name)
    if array is None or array.shape[0] < shape:
        array = scratch[name] = np.empty(max(shape, 1024), dtype=dtype)
    return array


cdef inline object _kept(object view, bint own):
    """``view`` (of a scratch array) copied when the piece is to own its arrays."""
    return view.copy() if own else view


def scan_piece(const uint8_t[::1] arr not None, Py_ssize_t lo, Py_ssize_t hi, Py_ssize_t line_offset,
               tuple tables not None, bint unicode_spaces, dict scratch=None, TagCombos combos=None,
               bint own=True, tuple into=None, int32_t word_shift=0, int32_t tok_shift=0,
               int32_t sent_shift=0, Py_ssize_t newlines=-1):
    """Scan ``arr[lo:hi]`` (whole sentences, ending with a blank line); None when it is not
    regular (the numpy scan's rules, see :func:`conll_eval.scan.scan`), else a dict of arrays
    (positions absolute in ``arr``, lines numbered from ``line_offset + 1``, strings as local
    ids of the ``tables``, one per name of :data:`TABLES`; ``scratch`` holds the working
    arrays its file's pieces share, and with ``own`` False the arrays returned are views of
    them, good until the next scan with the same ``scratch``, else the piece's own copies;
    HEADs as word indices in the piece, -1 for the root).  ``into``: arrays the columns of
    :data:`INTO_COLUMNS` and then the word columns' ids are written into from their start
    (each as long as :func:`content_lines_bound` of the piece at least; their dtypes as the scratch's), the word,
    token and sentence indices in them shifted by ``word_shift``, ``tok_shift`` and
    ``sent_shift`` (a file's columns, the pieces before filling them); returned as views.
    ``newlines``: the piece's newlines if the caller counted them (:func:`count_newlines`).
    The tokens' text loses its space characters: every Unicode space separator with
    ``unicode_spaces`` (conll18's ``\\p{Zs}``), else ASCII spaces (conll17)."""
    cdef const uint8_t* a = &arr[0] if arr.shape[0] else NULL
    cdef const uint8_t* limit = a + arr.shape[0]  # hashing may read up to here
    cdef Py_ssize_t n_lines = 0, i
    cdef const void* hit
    if a == NULL or hi <= lo:
        return None
    scratch = {} if scratch is None else scratch
    # upper bound of every per-line array: the number of lines
    if newlines >= 0:
        n_lines = newlines
    else:
        with nogil:
            n_lines = ce_count_newlines(a + lo, hi - lo)
    if n_lines == 0:
        return None
    # comments: at most one a line; everything else at most one a content line, which has
    # nine TABs and its newline (so a piece of blank lines or comments needs no room for words)
    cap = n_lines
    content_cap = content_lines_bound(hi - lo, n_lines)
    # tokens and words: into the file's columns, or the scratch arrays (copied if ``own``)
    cdef bint copied = own and into is None
    if into is None:
        into = tuple(scratch_array(scratch, name, content_cap,
                                   np.bool_ if name.endswith("is_mwt") else np.int32)
                     for name in INTO_COLUMNS + WORD_COLUMNS)
    elif len(into) != len(INTO_COLUMNS) + N_WORD_COLUMNS or \
            any(len(column) < content_cap for column in into):
        raise ValueError("scan_piece: into is one array per column, as long as "
                         "content_lines_bound of the piece")
    tok_len_a, tok_line_a, tok_is_mwt_a, word_tok_a, word_is_mwt_a, word_line_a, word_sent_a, \
        head_a, mwt_form_a = into[:len(INTO_COLUMNS)]
    word_cols_a = into[len(INTO_COLUMNS):]
    tok_form_start_a = scratch_array(scratch, "tok_form_start_a", content_cap, np.int64)
    tok_form_end_a = scratch_array(scratch, "tok_form_end_a", content_cap, np.int64)
    tail_start_a = scratch_array(scratch, "tail_start_a", content_cap, np.int64)
    tail_end_a = scratch_array(scratch, "tail_end_a", content_cap, np.int64)
    # sentences (each has a content line)
    sent_word_start_a = scratch_array(scratch, "sent_word_start_a", content_cap + 1, np.int64)
    sent_first_line_a = scratch_array(scratch, "sent_first_line_a", content_cap, np.int32)
    sent_end_line_a = scratch_array(scratch, "sent_end_line_a", content_cap, np.int32)
    sent_first_tok_a = scratch_array(scratch, "sent_first_tok_a", content_cap, np.int64)
    # empty nodes
    empty_sent_a = scratch_array(scratch, "empty_sent_a", content_cap, np.int32)
    empty_after_a = scratch_array(scratch, "empty_after_a", content_cap, np.int64)
    empty_line_a = scratch_array(scratch, "empty_line_a", content_cap, np.int32)
    empty_cols_a = scratch_array(scratch, "empty_cols_a", (N_EMPTY_COLUMNS, content_cap), np.int32)
    # comments
    comment_start_a = scratch_array(scratch, "comment_start_a", cap, np.int64)
    comment_end_a = scratch_array(scratch, "comment_end_a", cap, np.int64)
    comment_sent_a = scratch_array(scratch, "comment_sent_a", cap, np.int64)
    state_a = scratch_array(scratch, "state_a", content_cap, np.uint8)  # one byte a word

    cdef int32_t[::1] tok_line = tok_line_a
    cdef cnp.npy_bool[::1] tok_is_mwt = tok_is_mwt_a
    cdef int64_t[::1] tok_form_start = tok_form_start_a
    cdef int64_t[::1] tok_form_end = tok_form_end_a
    cdef int32_t[::1] tok_char_len = tok_len_a
    cdef int32_t[::1] word_tok = word_tok_a
    cdef cnp.npy_bool[::1] word_is_mwt = word_is_mwt_a
    cdef int32_t[::1] word_line = word_line_a
    cdef int32_t[::1] word_sent = word_sent_a
    cdef int32_t[::1] head = head_a
    cdef int32_t[::1] mwt_form = mwt_form_a
    cdef int32_t[::1] lemma_ids = word_cols_a[0]
    cdef int32_t[::1] upos_ids = word_cols_a[1]
    cdef int32_t[::1] xpos_ids = word_cols_a[2]
    cdef int32_t[::1] feats_ids = word_cols_a[3]
    cdef int32_t[::1] deprel_ids = word_cols_a[4]
    cdef int64_t[::1] tail_start = tail_start_a
    cdef int64_t[::1] tail_end = tail_end_a
    cdef int64_t[::1] sent_word_start = sent_word_start_a
    cdef int32_t[::1] sent_first_line = sent_first_line_a
    cdef int32_t[::1] sent_end_line = sent_end_line_a
    cdef int64_t[::1] sent_first_tok = sent_first_tok_a
    cdef int32_t[::1] empty_sent = empty_sent_a
    cdef int64_t[::1] empty_after = empty_after_a
    cdef int32_t[::1] empty_line = empty_line_a
    cdef int32_t[:, ::1] empty_cols = empty_cols_a
    cdef int64_t[::1] comment_start = comment_start_a
    cdef int64_t[::1] comment_end = comment_end_a
    cdef int64_t[::1] comment_sent = comment_sent_a
    cdef uint8_t[::1] state = state_a

    cdef Py_ssize_t n_tok = 0, n_word = 0, n_sent = 0, n_empty = 0, n_comment = 0, n_body = 0
    cdef Py_ssize_t line = 0, start, end, k, tab_count
    cdef Py_ssize_t[9] tab
    cdef Py_ssize_t id_end, dash_at, n_dash, position = 0, sent_first_word = 0
    cdef Py_ssize_t pending = 0, f_start, f_end, form_total = 0
    cdef int64_t first_id, last_id, value, local
    cdef bint has_dot, ok = True, previous_content = False, block_has_content = False
    cdef bint is_mwt_word
    cdef int column
    cdef StringTable lemma_table = tables[0], upos_table = tables[1], xpos_table = tables[2]
    cdef StringTable feats_table = tables[3], deprel_table = tables[4]
    cdef StringTable mwt_table = tables[5], empty_table = tables[6], spaced_table = tables[7]
    if combos is None:  # ``combos`` go with ``tables``: the ids they keep are of those tables
        combos = TagCombos()
    cdef int32_t[3] tag_ids

    sent_word_start[0] = 0
    with nogil:
        start = lo
        while start < hi:
            line += 1
            if a[start] == NEWLINE:  # blank line: closes the sentence of the content line before it
                end = start
                if not previous_content or pending > 0:
                    ok = False
                    break
                if not _sentence_ok(&head[0], sent_first_word, n_word, &state[0]):
                    ok = False
                    break
                for k in range(sent_first_word, n_word):  # HEADs as word indices, -1: root
                    head[k] = head[k] - 1 + <int32_t>sent_first_word + word_shift if head[k] > 0 else -1
                sent_end_line[n_sent] = <int32_t>(line + line_offset)
                n_sent += 1
                sent_word_start[n_sent] = n_word
                sent_first_word = n_word
                position = 0
                previous_content = False
                block_has_content = False
                start = end + 1
                continue
            if a[start] == HASH:
                if block_has_content:  # a '#' line after a word line: not a comment
                    ok = False
                    break
                hit = memchr(a + start, NEWLINE, hi - start)
                end = <const uint8_t*>hit - a  # the piece ends with a newline: always found
                comment_start[n_comment] = start
                comment_end[n_comment] = end
                comment_sent[n_comment] = n_sent
                n_comment += 1
                previous_content = False
                start = end + 1
                continue
            # a content line: exactly 9 tabs (found with its end; the piece ends with a
            # newline, and the bytes up to the end of ``arr`` may be read)
            end = ce_line_tabs(a, start, arr.shape[0], tab, &tab_count)
            if tab_count != 9:
                ok = False
                break
            if not block_has_content:
                sent_first_line[n_sent] = <int32_t>(line + line_offset)
                sent_first_tok[n_sent] = n_tok
            block_has_content = True
            previous_content = True
            n_body += 1
            id_end = tab[0]
            if id_end - start > ID_WIDTH_MAX:
                ok = False
                break
            has_dot = False
            n_dash = 0
            dash_at = -1
            for k in range(start, id_end):
                if a[k] == DOT:
                    has_dot = True
                elif a[k] == DASH:
                    if n_dash == 0:
                        dash_at = k
                    n_dash += 1
            if has_dot:  # an empty node
                if pending > 0:
                    ok = False
                    break
                empty_sent[n_empty] = <int32_t>n_sent
                empty_after[n_empty] = n_word
                empty_line[n_empty] = <int32_t>(line + line_offset)
                for column in range(N_EMPTY_COLUMNS):
                    k = EMPTY_FIELD[column]
                    f_start = start if k == 0 else tab[k - 1] + 1
                    f_end = end if k == 9 else tab[k]
                    local = empty_table.intern(a + f_start, f_end - f_start, limit)
                    if local < 0:
                        ok = False
                        break
                    empty_cols[column, n_empty] = <int32_t>local
                if not ok:
                    break
                n_empty += 1
                start = end + 1
                continue
            if n_dash > 0:  # a multi-word token range a-b
                if n_dash != 1 or pending > 0:
                    ok = False
                    break
                first_id = _parse_uint(a, start, dash_at)
                last_id = _parse_uint(a, dash_at + 1, id_end)
                if first_id < 0 or last_id < 0 or last_id - first_id + 1 <= 0:
                    ok = False
                    break
                pending = <Py_ssize_t>(last_id - first_id + 1)
                if tab[0] + 1 == tab[1]:  # empty FORM
                    ok = False
                    break
                tok_line[n_tok] = <int32_t>(line + line_offset)
                tok_is_mwt[n_tok] = True
                tok_form_start[n_tok] = tab[0] + 1
                tok_form_end[n_tok] = tab[1]
                form_total += tab[1] - tab[0] - 1
                n_tok += 1
                start = end + 1
                continue
            # a word
            position += 1
            is_mwt_word = pending > 0
            if is_mwt_word:
                pending -= 1
                local = mwt_table.intern(a + tab[0] + 1, tab[1] - tab[0] - 1, limit)
                if local < 0:
                    ok = False
                    break
                mwt_form[n_word] = <int32_t>local
            else:
                if _parse_uint(a, start, id_end) != position:
                    ok = False
                    break
                if tab[0] + 1 == tab[1]:
                    ok = False
                    break
                mwt_form[n_word] = -1
                tok_line[n_tok] = <int32_t>(line + line_offset)
                tok_is_mwt[n_tok] = False
                tok_form_start[n_tok] = tab[0] + 1
                tok_form_end[n_tok] = tab[1]
                form_total += tab[1] - tab[0] - 1
                n_tok += 1
            value = _parse_uint(a, tab[5] + 1, tab[6])
            if value < 0:
                ok = False
                break
            head[n_word] = <int32_t>value
            word_tok[n_word] = <int32_t>(n_tok - 1) + tok_shift
            word_is_mwt[n_word] = is_mwt_word
            word_line[n_word] = <int32_t>(line + line_offset)
            word_sent[n_word] = <int32_t>n_sent + sent_shift
            lemma_ids[n_word] = <int32_t>lemma_table.intern(a + tab[1] + 1, tab[2] - tab[1] - 1, limit)
            if not combos.lookup(a + tab[2] + 1, tab[5] - tab[2] - 1, tag_ids, upos_table,
                                 xpos_table, feats_table, tab[3] - tab[2] - 1,
                                 tab[4] - tab[2] - 1, limit):
                ok = False
                break
            upos_ids[n_word] = tag_ids[0]
            xpos_ids[n_word] = tag_ids[1]
            feats_ids[n_word] = tag_ids[2]
            deprel_ids[n_word] = <int32_t>deprel_table.intern(a + tab[6] + 1, tab[7] - tab[6] - 1, limit)
            tail_start[n_word] = tab[7] + 1
            tail_end[n_word] = end
            n_word += 1
            start = end + 1
        if ok and (previous_content or block_has_content or n_body == 0 or n_word == 0):
            ok = False  # the piece must end with a blank line closing a sentence
    if combos.failed or combos.spans.failed:
        raise MemoryError("conll_eval: out of memory while interning strings")
    for table in tables:
        if (<StringTable>table).failed:
            raise MemoryError("conll_eval: out of memory while interning strings")
    if not ok:
        return None
    # the tokens' FORMs joined without their space characters: the text (and room for the
    # 16 bytes a short FORM's copy writes)
    text_a = np.empty(form_total + 16, dtype=np.uint8)
    spaced_a = np.empty(n_tok, dtype=np.int32)
    spaced_form_a = np.empty(n_tok, dtype=np.int32)
    cdef uint8_t[::1] text = text_a
    cdef int32_t[::1] spaced = spaced_a
    cdef int32_t[::1] spaced_form = spaced_form_a
    cdef Py_ssize_t text_at = 0, n_spaced = 0, removed, skip, token_start, continuation, plain
    cdef Py_ssize_t size = arr.shape[0]
    # each sentence's first character (in the piece's text): the characters before it
    sent_char_start_a = np.empty(n_sent, dtype=np.int64)
    cdef int64_t[::1] sent_char_start = sent_char_start_a
    cdef int64_t n_chars = 0
    cdef Py_ssize_t sent = 0, next_first = sent_first_tok[0] if n_sent else -1
    cdef uint8_t c
    with nogil:
        for i in range(n_tok):
            if i == next_first:  # a sentence's first token (each has one at least)
                sent_char_start[sent] = n_chars
                sent += 1
                next_first = sent_first_tok[sent] if sent < n_sent else -1
            f_start, f_end = tok_form_start[i], tok_form_end[i]
            if f_end - f_start <= 16 and f_start + 16 <= size:  # most FORMs: one copy
                plain = ce_copy_plain_form(a + f_start, f_end - f_start, &text[text_at],
                                           unicode_spaces)
                if plain >= 0:
                    tok_char_len[i] = <int32_t>plain
                    n_chars += plain
                    text_at += f_end - f_start
                    continue
            removed = 0
            continuation = 0  # UTF-8 continuation bytes kept: not characters
            token_start = text_at
            k = f_start
            while k < f_end:
                c = a[k]
                if c < 0x80 and c != 0x20:  # most bytes: ASCII, not a space
                    text[text_at] = c
                    text_at += 1
                    k += 1
                    continue
                skip = _space_at(a, k, f_end, unicode_spaces)
                if skip:
                    removed += 1
                    k += skip
                else:
                    continuation += (c & 0xC0) == 0x80
                    text[text_at] = c
                    text_at += 1
                    k += 1
            tok_char_len[i] = <int32_t>((text_at - token_start) - continuation)
            n_chars += tok_char_len[i]
            if removed:
                if tok_char_len[i] == 0:  # a FORM of spaces only
                    ok = False
                    break
                spaced[n_spaced] = <int32_t>i
                spaced_form[n_spaced] = <int32_t>spaced_table.intern(a + f_start, f_end - f_start, limit)
                n_spaced += 1
    if not ok:
        return None
    return {
        "n_chars": n_chars, "sent_char_start": sent_char_start_a,
        "text": text_a[:text_at], "spaced_tok": spaced_a[:n_spaced],
        "spaced_tok_form": spaced_form_a[:n_spaced],
        "n_lines": line, "n_sent": n_sent, "n_words": n_word, "n_tokens": n_tok,
        "tok_line": _kept(tok_line_a[:n_tok], copied), "tok_is_mwt": _kept(tok_is_mwt_a[:n_tok], copied),
        "tok_char_len": _kept(tok_len_a[:n_tok], copied),
        "word_tok": _kept(word_tok_a[:n_word], copied), "word_is_mwt": _kept(word_is_mwt_a[:n_word], copied),
        "word_line": _kept(word_line_a[:n_word], copied), "word_sent": _kept(word_sent_a[:n_word], copied),
        "head": _kept(head_a[:n_word], copied), "mwt_form": _kept(mwt_form_a[:n_word], copied),
        "word_cols": tuple(_kept(ids[:n_word], copied) for ids in word_cols_a),
        "tail_start": _kept(tail_start_a[:n_word], own),
        "tail_end": _kept(tail_end_a[:n_word], own),
        "sent_word_start": _kept(sent_word_start_a[:n_sent + 1], own),
        "sent_first_line": _kept(sent_first_line_a[:n_sent], own), "sent_end_line": _kept(sent_end_line_a[:n_sent], own),
        "empty_sent": _kept(empty_sent_a[:n_empty], own), "empty_after": _kept(empty_after_a[:n_empty], own),
        "empty_line": _kept(empty_line_a[:n_empty], own), "empty_cols": _kept(empty_cols_a[:, :n_empty], own),
        "comment_start": _kept(comment_start_a[:n_comment], own), "comment_end": _kept(comment_end_a[:n_comment], own),
        "comment_sent": _kept(comment_sent_a[:n_comment], own),
    }


def field_bounds(const uint8_t[::1] data not None):
    """The end of every field (the position of its TAB or newline) of a CoNLL-U text, and
    the number of lines: the least work any reader does.  The benchmark's compiled floor."""
    cdef Py_ssize_t n = data.shape[0], i, n_fields = 0, n_lines = 0
    ends_a = np.empty(n // 2 + 1, dtype=np.int64)
    cdef int64_t[::1] ends = ends_a
    cdef uint8_t c
    with nogil:
        for i in range(n):
            c = data[i]
            if c == TAB or c == NEWLINE:
                ends[n_fields] = i
                n_fields += 1
                n_lines += c == NEWLINE
    return ends_a[:n_fields], n_lines

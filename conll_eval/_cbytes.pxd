# Byte-level predicates of CoNLL-U fields for the validator's compiled screen (_cvalidate.pyx):
# numbers, spaces, the characters udtools treats as whitespace or invalid, MISC's SpaceAfter.
# Inline C functions, without the GIL, over valid UTF-8 bytes.
from libc.stdint cimport int64_t, uint8_t
from libc.string cimport memchr, memcmp

cdef enum:
    TAB = 9
    SPACE = 32
    DIGITS_MAX = 9


cdef inline bint _starts(const uint8_t* p, Py_ssize_t n, const char* word, Py_ssize_t k) noexcept nogil:
    return n >= k and memcmp(p, word, k) == 0


cdef inline bint _is_digit(uint8_t c) noexcept nogil:
    return 48 <= c <= 57


cdef inline int64_t _number(const uint8_t* p, Py_ssize_t n) noexcept nogil:
    """``[1-9][0-9]*`` (at most 9 digits) as its value, else -1."""
    cdef int64_t value = 0
    cdef Py_ssize_t i
    if n < 1 or n > DIGITS_MAX or p[0] == 48:
        return -1
    for i in range(n):
        if not _is_digit(p[i]):
            return -1
        value = value * 10 + (p[i] - 48)
    return value


cdef inline int64_t _head(const uint8_t* p, Py_ssize_t n) noexcept nogil:
    """``0|[1-9][0-9]*`` as its value, else -1."""
    if n == 1 and p[0] == 48:
        return 0
    return _number(p, n)


cdef inline bint _bad_bytes(const uint8_t* p, Py_ssize_t n, bint tabs) noexcept nogil:
    """A control character (TAB allowed when ``tabs``), DEL, a non-ASCII space (the ones of
    udtools' \\s and str.isspace beyond ASCII) or U+FFFD (invalid-utf) in ``p[:n]`` (valid
    UTF-8)."""
    cdef Py_ssize_t i
    cdef uint8_t c, d
    for i in range(n):
        c = p[i]
        if c < 32:
            if not (tabs and c == TAB):
                return True
        elif c == 127:
            return True
        elif c >= 0xC2 and c <= 0xEF and i + 1 < n:
            d = p[i + 1]
            if c == 0xC2 and (d == 0x85 or d == 0xA0):
                return True
            if i + 2 < n:
                if c == 0xE1 and d == 0x9A and p[i + 2] == 0x80:
                    return True
                if c == 0xE2 and d == 0x80 and (p[i + 2] <= 0x8A or p[i + 2] == 0xA8
                                                or p[i + 2] == 0xA9 or p[i + 2] == 0xAF):
                    return True
                if c == 0xE2 and d == 0x81 and p[i + 2] == 0x9F:
                    return True
                if c == 0xE3 and d == 0x80 and p[i + 2] == 0x80:
                    return True
                if c == 0xEF and d == 0xBF and p[i + 2] == 0xBD:
                    return True
    return False


cdef inline bint _has_space(const uint8_t* p, Py_ssize_t n) noexcept nogil:
    return memchr(p, SPACE, n) != NULL


cdef inline bint _spaces_ok(const uint8_t* p, Py_ssize_t n) noexcept nogil:
    """Spaces inside a word's FORM or LEMMA: none leading, trailing or repeated."""
    cdef Py_ssize_t i
    if p[0] == SPACE or p[n - 1] == SPACE:
        return False
    for i in range(1, n):
        if p[i] == SPACE and p[i - 1] == SPACE:
            return False
    return True


cdef inline bint _contains(const uint8_t* p, Py_ssize_t n, const char* word, Py_ssize_t k) noexcept nogil:
    cdef Py_ssize_t i
    for i in range(n - k + 1):
        if p[i] == <uint8_t>word[0] and memcmp(p + i, word, k) == 0:
            return True
    return False


cdef inline int _misc_spaceafter(const uint8_t* p, Py_ssize_t n) noexcept nogil:
    """-1 when the MISC value needs the line-by-line text checks (NoSpaceAfter=Yes, or a
    SpaceAfter= item other than SpaceAfter=No); else 1 when an item is SpaceAfter=No, 0
    otherwise."""
    cdef Py_ssize_t start = 0, end
    cdef int found = 0
    if _contains(p, n, "NoSpaceAfter=Yes", 16):
        return -1
    while start <= n:
        end = start
        while end < n and p[end] != 124:  # '|'
            end += 1
        if _starts(p + start, end - start, "SpaceAfter=", 11):
            if end - start == 13 and p[start + 11] == 78 and p[start + 12] == 111:  # "No"
                found = 1
            else:
                return -1
        start = end + 1
    return found

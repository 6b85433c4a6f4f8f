# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True
"""Enhanced graphs, compiled: the DEPS column parsed into edge arrays in one pass over the
words' ``DEPS<TAB>MISC`` byte ranges (:class:`conll_eval.scan.FieldBytes`) without a Python
object per word or edge, and the official nested count of ELAS/EULAS (in O(E log E): each
large word pair's edges sorted and merged, see :func:`official_counts`).

The reference is :func:`conll_eval.enhanced._parse_deps` applied to each distinct DEPS string
(the tests require identical graphs).  Only regular items are parsed here: ``HEAD:PATH`` with a
head of 1-9 ASCII digits (or containing a ``.``: an empty node) and a path with no empty step.
A word with any other item is returned in ``irregular``, for the reference parser to judge (an
error, or edges that ``int()`` accepts, such as ``+2``).
"""
import os

import numpy as np

cimport numpy as cnp
from libc.stdint cimport int32_t, int64_t, uint8_t, uint64_t
from libc.stdlib cimport qsort
from libc.string cimport memcmp

from conll_eval._chash cimport HashKey, keyed_hash, new_hash_key

cnp.import_array()

#: a DEPS head naming an empty node (enhanced.EMPTY_REF)
cdef int64_t EMPTY_REF = -4


#: this process's key of the path table's hash (see _chash.pxd): a file cannot be made of paths
#: whose slots collide (a chain that every later path walks: quadratic) without knowing it;
#: numbers never depend on it
cdef HashKey _HASH_KEY = new_hash_key(os.urandom(24))


cdef class PathTable:
    """Distinct byte strings of a buffer, numbered in order of appearance (open addressing on
    this process's keyed hash, :func:`keyed_hash`; a hit needs the same length and bytes)."""
    cdef const uint8_t *buf
    cdef const uint8_t *limit  # the buffer's end (the hash may read up to it)
    cdef object slots_a, start_a, end_a, hash_a
    cdef int64_t[::1] slots, start, end
    cdef uint64_t[::1] hashes
    cdef int64_t n, capacity

    def __cinit__(self):
        self.n = 0
        self.capacity = 1024
        self.slots_a = np.full(2 * self.capacity, -1, dtype=np.int64)
        self.start_a = np.empty(self.capacity, dtype=np.int64)
        self.end_a = np.empty(self.capacity, dtype=np.int64)
        self.hash_a = np.empty(self.capacity, dtype=np.uint64)
        self._views()

    def __init__(self):
        pass

    cdef void _views(self):
        self.slots, self.start, self.end, self.hashes = \
            self.slots_a, self.start_a, self.end_a, self.hash_a

    cdef int32_t find(self, Py_ssize_t a, Py_ssize_t b):
        cdef uint64_t h = keyed_hash(self.buf + a, b - a, self.limit, &_HASH_KEY)
        cdef int64_t mask = self.slots.shape[0] - 1
        cdef int64_t at = <int64_t>(h & <uint64_t>mask), d
        while True:
            d = self.slots[at]
            if d < 0:
                break
            if self.hashes[d] == h and self.end[d] - self.start[d] == b - a and \
                    memcmp(self.buf + self.start[d], self.buf + a, b - a) == 0:
                return <int32_t>d
            at = (at + 1) & mask
        if self.n == self.capacity:
            self._grow()
            return self.find(a, b)
        d = self.n
        self.n += 1
        self.start[d], self.end[d], self.hashes[d] = a, b, h
        self.slots[at] = d
        return <int32_t>d

    cdef void _grow(self):
        cdef int64_t d, at, mask
        self.capacity *= 2
        self.start_a = np.resize(self.start_a, self.capacity)
        self.end_a = np.resize(self.end_a, self.capacity)
        self.hash_a = np.resize(self.hash_a, self.capacity)
        self.slots_a = np.full(2 * self.capacity, -1, dtype=np.int64)
        self._views()
        mask = self.slots.shape[0] - 1
        for d in range(self.n):
            at = <int64_t>(self.hashes[d] & <uint64_t>mask)
            while self.slots[at] >= 0:
                at = (at + 1) & mask
            self.slots[at] = d

    def ranges(self):
        """(start, end) of each distinct string, in number order."""
        return self.start_a[:self.n].copy(), self.end_a[:self.n].copy()


cdef PathTable _path_table(const uint8_t *buf, Py_ssize_t size):
    cdef PathTable table = PathTable()
    table.buf = buf
    table.limit = buf + size if buf != NULL else NULL
    return table


def parse_deps(const uint8_t[::1] buf not None, const int64_t[::1] field_start not None,
               const int64_t[::1] field_end not None):
    """(word, head, path, paths, irregular, underscores) of the DEPS of each word ``w``, the
    start of its ``DEPS<TAB>MISC`` field ``buf[field_start[w]:field_end[w]]``: per edge, in
    file order, its word, its head as written (0 = root; EMPTY_REF for an empty node) and its
    path as a number into ``paths``, the (start, end) byte ranges in ``buf`` of the distinct
    paths (an exact hash table: every hit is compared byte for byte); ``irregular`` lists
    (word, start, end) of the DEPS fields left to the reference parser (their edges are not
    in the arrays); ``underscores`` counts the words whose DEPS are ``_``."""
    cdef Py_ssize_t n_words = field_start.shape[0], i, end, item_start, colon, j, m, stop
    cdef int64_t bound = 0, w, k = 0, head, count, underscores = 0
    cdef bint ok, has_dot, empty_step
    cdef PathTable table = _path_table(&buf[0] if buf.shape[0] else NULL, buf.shape[0])
    # an upper bound on the edges: one per word plus one per '|' in DEPS
    for w in range(n_words):
        i = field_start[w]
        while i < field_end[w] and buf[i] != 9:
            if buf[i] == 124:
                bound += 1
            i += 1
    bound += n_words
    word_a = np.empty(bound, dtype=np.int64)
    head_a = np.empty(bound, dtype=np.int64)
    path_a = np.empty(bound, dtype=np.int32)
    irregular = []   # rare: a Python list is fine
    cdef int64_t[::1] word_v = word_a, head_v = head_a
    cdef int32_t[::1] path_v = path_a
    for w in range(n_words):
        # the DEPS field: up to the first TAB of the word's DEPS<TAB>MISC
        i = field_start[w]
        stop = field_end[w]
        end = i
        while end < stop and buf[end] != 9:
            end += 1
        count = k
        ok = True
        if end == i + 1 and buf[i] == 95:
            underscores += 1
        if not (end == i or (end == i + 1 and buf[i] == 95)):   # "" and "_": no edges
            item_start = i
            while item_start <= end and ok:
                # one item [item_start, j) with j at '|' or the field's end
                colon = -1
                has_dot = False
                j = item_start
                while j < end and buf[j] != 124:
                    if colon < 0:
                        if buf[j] == 58:
                            colon = j
                        elif buf[j] == 46:
                            has_dot = True
                    j += 1
                if colon <= item_start:   # no ':' or an empty head: the reference's error
                    ok = False
                    break
                # the path (colon, j): no empty step
                empty_step = colon + 1 >= j or buf[colon + 1] == 62 or buf[j - 1] == 62
                if not empty_step:
                    for m in range(colon + 1, j - 1):
                        if buf[m] == 62 and buf[m + 1] == 62:
                            empty_step = True
                            break
                if empty_step:
                    ok = False
                    break
                if has_dot:
                    head = EMPTY_REF
                else:
                    if colon - item_start > 9:
                        ok = False
                        break
                    head = 0
                    for m in range(item_start, colon):
                        if buf[m] < 48 or buf[m] > 57:
                            ok = False
                            break
                        head = head * 10 + (buf[m] - 48)
                    if not ok:
                        break
                word_v[k] = w
                head_v[k] = head
                path_v[k] = table.find(colon + 1, j)
                k += 1
                item_start = j + 1
        if not ok:
            k = count   # drop what this word had: the reference parses it whole
            irregular.append((w, i, end))
    return word_a[:k], head_a[:k], path_a[:k], table.ranges(), irregular, underscores


def all_underscore(const uint8_t[::1] buf not None, const int64_t[::1] field_start not None,
                   const int64_t[::1] field_end not None):
    """Whether every word's DEPS (see :func:`parse_deps`) is ``_`` (False for no words);
    stops at the first other one (usually the first word's)."""
    cdef Py_ssize_t w, i, n_words = field_start.shape[0]
    if n_words == 0:
        return False
    for w in range(n_words):
        i = field_start[w]
        if i >= field_end[w] or buf[i] != 95 or (i + 1 < field_end[w] and buf[i + 1] != 9):
            return False
    return True


cdef cnp.ndarray _word_offsets(const int64_t[::1] word, int64_t n_words):
    """Edges ``offsets[w]:offsets[w+1]`` belong to word ``w`` (``word`` ascending)."""
    offsets_a = np.zeros(n_words + 1, dtype=np.int64)
    cdef int64_t[::1] offsets = offsets_a
    cdef Py_ssize_t i, n = word.shape[0]
    for i in range(n):
        if word[i] < 0 or word[i] >= n_words or (i and word[i] < word[i - 1]):
            raise ValueError("enhanced edges out of word order")
        offsets[word[i] + 1] += 1
    for i in range(n_words):
        offsets[i + 1] += offsets[i]
    return offsets_a


#: a word pair with at most this many edges on one side is counted by the nested loop (at most
#: this many comparisons per edge of the other side); larger pairs are sorted and merged
NESTED_AT_MOST = 8


cdef struct EdgeKey:
    int64_t head
    int64_t label


cdef int _compare_keys(const void *a, const void *b) noexcept nogil:
    cdef const EdgeKey *x = <const EdgeKey *>a
    cdef const EdgeKey *y = <const EdgeKey *>b
    if x.head != y.head:
        return -1 if x.head < y.head else 1
    if x.label != y.label:
        return -1 if x.label < y.label else 1
    return 0


cdef inline int64_t _mapped_head(int64_t head, const int64_t *sys_to_gold, int64_t root,
                                 int64_t unmatched) noexcept nogil:
    """A system edge's head in gold word indices (``root`` stays; a head without partner or
    another negative head becomes ``unmatched``)."""
    if head >= 0:
        head = sys_to_gold[head]
        return head if head >= 0 else unmatched
    return head if head == root else unmatched


cdef int64_t _matching_pairs(const int64_t *g_head, const int64_t *g_label,
                             Py_ssize_t g_from, Py_ssize_t g_to,
                             const int64_t *s_head, const int64_t *s_label,
                             Py_ssize_t s_from, Py_ssize_t s_to,
                             const int64_t *sys_to_gold, int64_t root, int64_t unmatched,
                             EdgeKey *gold_keys, EdgeKey *sys_keys) noexcept nogil:
    """The pairs (gold edge, system edge) of one aligned word pair with equal head and label:
    each side's (head, label) keys sorted, and every key found on both sides counts the product
    of its multiplicities -- what comparing every gold edge with every system edge counts, in
    O(k log k) for k edges.  ``gold_keys`` and ``sys_keys`` are scratch room for each side."""
    cdef Py_ssize_t n_gold = g_to - g_from, n_sys = s_to - s_from, i = 0, j = 0, i_end, j_end
    cdef int64_t pairs = 0
    cdef int order
    for i in range(n_gold):
        gold_keys[i].head = g_head[g_from + i]
        gold_keys[i].label = g_label[g_from + i]
    for j in range(n_sys):
        sys_keys[j].head = _mapped_head(s_head[s_from + j], sys_to_gold, root, unmatched)
        sys_keys[j].label = s_label[s_from + j]
    qsort(gold_keys, n_gold, sizeof(EdgeKey), _compare_keys)
    qsort(sys_keys, n_sys, sizeof(EdgeKey), _compare_keys)
    i = j = 0
    while i < n_gold and j < n_sys:
        order = _compare_keys(&gold_keys[i], &sys_keys[j])
        if order < 0:
            i += 1
        elif order > 0:
            j += 1
        else:  # a run of equal keys on each side
            i_end, j_end = i + 1, j + 1
            while i_end < n_gold and _compare_keys(&gold_keys[i_end], &gold_keys[i]) == 0:
                i_end += 1
            while j_end < n_sys and _compare_keys(&sys_keys[j_end], &sys_keys[j]) == 0:
                j_end += 1
            pairs += <int64_t>(i_end - i) * (j_end - j)
            i, j = i_end, j_end
    return pairs


def official_counts(const int64_t[::1] g_word not None, const int64_t[::1] g_head not None,
                    const int64_t[::1] g_label not None, int64_t n_gold,
                    const int64_t[::1] s_word not None, const int64_t[::1] s_head not None,
                    const int64_t[::1] s_label not None, int64_t n_system,
                    const int64_t[::1] sys_to_gold not None, const int64_t[::1] gold_word_sent not None,
                    const int64_t[::1] sys_word_sent not None, int64_t n_sentences,
                    int64_t root, int64_t unmatched):
    """Per gold sentence (rows) the official nested count of enhanced edges: (correct, gold,
    system, 0).  For each aligned system word, every edge of its gold partner against every
    one of its own edges; an edge pair is correct when the labels are equal and the system
    head, mapped to gold (``root`` stays, a word without a partner or another negative head
    becomes ``unmatched``), equals the gold head.  Each word pair costs O(k log k) for its k
    edges (the nested loop only while one side has at most :data:`NESTED_AT_MOST` edges), so
    the whole count is O(E log E) when ``sys_to_gold`` is one-to-one (an alignment)."""
    out_a = np.zeros((n_sentences, 4), dtype=np.int64)
    cdef int64_t[:, ::1] out = out_a
    cdef int64_t[::1] g_at = _word_offsets(g_word, n_gold)
    cdef int64_t[::1] s_at = _word_offsets(s_word, n_system)
    cdef Py_ssize_t w, g, i, j, n_g, n_s
    cdef int64_t head, sentence, correct
    # raw pointers: a memoryview passed to a function is reference-counted at each call
    cdef const int64_t *to_gold = &sys_to_gold[0] if sys_to_gold.shape[0] else NULL
    cdef const int64_t *gh = &g_head[0] if g_head.shape[0] else NULL
    cdef const int64_t *gl = &g_label[0] if g_label.shape[0] else NULL
    cdef const int64_t *sh = &s_head[0] if s_head.shape[0] else NULL
    cdef const int64_t *sl = &s_label[0] if s_label.shape[0] else NULL
    # scratch room for the sorted keys of a large word pair (both sides), grown by doubling
    cdef Py_ssize_t room = 0
    cdef int64_t[::1] scratch
    cdef EdgeKey *keys = NULL
    for w in range(n_gold):
        out[gold_word_sent[w], 1] += g_at[w + 1] - g_at[w]
    for w in range(n_system):
        sentence = sys_word_sent[w]
        out[sentence, 2] += s_at[w + 1] - s_at[w]
        g = sys_to_gold[w]
        if g < 0:
            continue
        n_g, n_s = g_at[g + 1] - g_at[g], s_at[w + 1] - s_at[w]
        if n_g > NESTED_AT_MOST and n_s > NESTED_AT_MOST:
            if n_g + n_s > room:
                room = max(2 * room, n_g + n_s)
                scratch = np.empty(2 * room, dtype=np.int64)   # EdgeKey: two int64 each
                keys = <EdgeKey *>&scratch[0]
            correct = _matching_pairs(gh, gl, g_at[g], g_at[g + 1], sh, sl, s_at[w], s_at[w + 1],
                                      to_gold, root, unmatched, keys, keys + n_g)
        else:
            correct = 0
            for j in range(s_at[w], s_at[w + 1]):
                head = _mapped_head(sh[j], to_gold, root, unmatched)
                for i in range(g_at[g], g_at[g + 1]):
                    if gh[i] == head and gl[i] == sl[j]:
                        correct += 1
        out[gold_word_sent[g], 0] += correct
    return out_a

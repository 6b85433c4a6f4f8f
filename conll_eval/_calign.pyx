# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""Compiled twin of the official word-alignment cursor walk (:class:`conll_eval.align._Walk`):
plain words align when their character spans are identical; at a multi-word token the walk
finds the minimal multiword span, which it returns for the caller to align by LCS.

The walk is the official loop step for step, without the GIL; so is the LCS inside the
multiword spans, on integer ids of the lowercased FORMs (the caller makes them).
"""
from libc.stdint cimport int32_t, int64_t, uint8_t
from libc.stdlib cimport free, malloc

import numpy as np

#: character offsets: int32, or int64 for a text of 2**31 characters or more
ctypedef fused offset_t:
    int32_t
    int64_t


def walk(const offset_t[::1] g_tok_start not None, const offset_t[::1] g_tok_end not None,
         const int32_t[::1] g_word_tok not None, const uint8_t[::1] gm not None,
         const offset_t[::1] s_tok_start not None, const offset_t[::1] s_tok_end not None,
         const int32_t[::1] s_word_tok not None, const uint8_t[::1] sm not None):
    """``(gold, system, spans)``: the pairs of plain words aligned by identical spans (in
    walk order), and the multiword spans ``(g0, g1, s0, s1)`` (words ``g0:g1`` against
    ``s0:s1``, both non-empty) to align by LCS.  Arguments, gold then system: the tokens'
    character starts and ends, each word's token and multi-word-token flag (a word's span
    is its token's: looked up here, so that no per-word span arrays are made; the four
    offset arrays of one type, int32 or int64).  The pairs are int32: fewer than 2**31
    words on each side (the caller's business)."""
    cdef Py_ssize_t n_g = g_word_tok.shape[0], n_s = s_word_tok.shape[0]
    # short names: the span of gold word gi is gts[gwt[gi]]:gte[gwt[gi]] (system: s...)
    cdef const offset_t[::1] gts = g_tok_start, gte = g_tok_end, sts = s_tok_start, ste = s_tok_end
    cdef const int32_t[::1] gwt = g_word_tok, swt = s_word_tok
    cdef Py_ssize_t n_mwt = 0, i
    for i in range(n_g):
        n_mwt += gm[i]
    for i in range(n_s):
        n_mwt += sm[i]
    pair_g_a = np.empty(min(n_g, n_s), dtype=np.int32)
    pair_s_a = np.empty(min(n_g, n_s), dtype=np.int32)
    spans_a = np.empty((n_mwt + 1, 4), dtype=np.int64)
    cdef int32_t[::1] pair_g = pair_g_a
    cdef int32_t[::1] pair_s = pair_s_a
    cdef int64_t[:, ::1] spans = spans_a
    cdef Py_ssize_t gi = 0, si = 0, n_pairs = 0, n_spans = 0, g0, s0
    cdef int64_t span_end
    cdef bint g_beyond, s_beyond
    with nogil:
        while gi < n_g and si < n_s:
            if not gm[gi] and not sm[si]:  # two plain words: same span or the earlier one moves
                if gts[gwt[gi]] == sts[swt[si]] and gte[gwt[gi]] == ste[swt[si]]:
                    pair_g[n_pairs] = <int32_t>gi
                    pair_s[n_pairs] = <int32_t>si
                    n_pairs += 1
                    gi += 1
                    si += 1
                elif gts[gwt[gi]] <= sts[swt[si]]:
                    gi += 1
                else:
                    si += 1
                continue
            # a multi-word token on either side: the minimal multiword span
            if gm[gi]:
                span_end = gte[gwt[gi]]
                if not sm[si] and sts[swt[si]] < gts[gwt[gi]]:
                    si += 1
            else:
                span_end = ste[swt[si]]
                if gts[gwt[gi]] < sts[swt[si]]:
                    gi += 1
            g0, s0 = gi, si
            while True:
                g_beyond = gi >= n_g or (gts[gwt[gi]] >= span_end if gm[gi] else gte[gwt[gi]] > span_end)
                s_beyond = si >= n_s or (sts[swt[si]] >= span_end if sm[si] else ste[swt[si]] > span_end)
                if g_beyond and s_beyond:
                    break
                if gi < n_g and (si >= n_s or gts[gwt[gi]] <= sts[swt[si]]):
                    if gm[gi] and gte[gwt[gi]] > span_end:
                        span_end = gte[gwt[gi]]
                    gi += 1
                else:
                    if sm[si] and ste[swt[si]] > span_end:
                        span_end = ste[swt[si]]
                    si += 1
            if gi > g0 and si > s0:
                spans[n_spans, 0] = g0
                spans[n_spans, 1] = gi
                spans[n_spans, 2] = s0
                spans[n_spans, 3] = si
                n_spans += 1
    return pair_g_a[:n_pairs], pair_s_a[:n_pairs], spans_a[:n_spans]


cdef Py_ssize_t _span_lcs(Py_ssize_t g0, Py_ssize_t ng, Py_ssize_t s0, Py_ssize_t ns,
                          const int32_t[::1] gold_ids, const int32_t[::1] sys_ids,
                          int* table, int32_t[::1] pair_g, int32_t[::1] pair_s,
                          Py_ssize_t n_pairs) noexcept nogil:
    """The official LCS of one multiword span (``table``: room for (ng+1)*(ns+1) ints),
    its pairs appended at ``n_pairs``; returns the new count."""
    cdef Py_ssize_t g, s, width = ns + 1
    for s in range(ns + 1):
        table[ng * width + s] = 0
    for g in range(ng - 1, -1, -1):
        table[g * width + ns] = 0
        for s in range(ns - 1, -1, -1):
            if gold_ids[g0 + g] == sys_ids[s0 + s]:
                table[g * width + s] = 1 + table[(g + 1) * width + s + 1]
            elif table[(g + 1) * width + s] > table[g * width + s + 1]:
                table[g * width + s] = table[(g + 1) * width + s]
            else:
                table[g * width + s] = table[g * width + s + 1]
    g = s = 0
    while g < ng and s < ns:
        if gold_ids[g0 + g] == sys_ids[s0 + s]:
            pair_g[n_pairs] = <int32_t>(g0 + g)
            pair_s[n_pairs] = <int32_t>(s0 + s)
            n_pairs += 1
            g += 1
            s += 1
        elif table[g * width + s] == table[(g + 1) * width + s]:
            g += 1
        else:
            s += 1
    return n_pairs


def lcs_pairs(const int64_t[:, ::1] spans not None, const int32_t[::1] gold_ids not None,
              const int32_t[::1] sys_ids not None):
    """The pairs the official LCS aligns inside each multiword span ``(g0, g1, s0, s1)``:
    words are equal when their ids (lowercased FORMs) are; the table is filled from the back
    and walked forwards, ties going to the gold side's next word, as the official scorer."""
    cdef Py_ssize_t n_spans = spans.shape[0], k, ng, ns, n_pairs = 0, capacity = 0
    cdef int* table = NULL
    cdef Py_ssize_t table_size = 0
    cdef bint failed = False
    for k in range(n_spans):
        capacity += min(spans[k, 1] - spans[k, 0], spans[k, 3] - spans[k, 2])
    pair_g_a = np.empty(capacity, dtype=np.int32)
    pair_s_a = np.empty(capacity, dtype=np.int32)
    cdef int32_t[::1] pair_g = pair_g_a
    cdef int32_t[::1] pair_s = pair_s_a
    with nogil:
        for k in range(n_spans):
            ng, ns = spans[k, 1] - spans[k, 0], spans[k, 3] - spans[k, 2]
            if (ng + 1) * (ns + 1) > table_size:
                free(table)
                table_size = (ng + 1) * (ns + 1)
                table = <int*>malloc(table_size * sizeof(int))
                if table == NULL:
                    failed = True
                    break
            n_pairs = _span_lcs(spans[k, 0], ng, spans[k, 2], ns, gold_ids, sys_ids, table,
                                pair_g, pair_s, n_pairs)
        free(table)
    if failed:
        raise MemoryError("conll_eval: out of memory in a multiword span's LCS")
    return pair_g_a[:n_pairs], pair_s_a[:n_pairs]


def merge_pairs(const int32_t[::1] plain_g not None, const int32_t[::1] plain_s not None,
                const int32_t[::1] span_g not None, const int32_t[::1] span_s not None):
    """Two lists of pairs, each in walk order (gold index increasing), merged in that
    order (no gold index is in both)."""
    cdef Py_ssize_t n = plain_g.shape[0], m = span_g.shape[0], i = 0, j = 0, k = 0
    out_g_a = np.empty(n + m, dtype=np.int32)
    out_s_a = np.empty(n + m, dtype=np.int32)
    cdef int32_t[::1] out_g = out_g_a
    cdef int32_t[::1] out_s = out_s_a
    with nogil:
        while i < n or j < m:
            if j >= m or (i < n and plain_g[i] < span_g[j]):
                out_g[k] = plain_g[i]
                out_s[k] = plain_s[i]
                i += 1
            else:
                out_g[k] = span_g[j]
                out_s[k] = span_s[j]
                j += 1
            k += 1
    return out_g_a, out_s_a


def sorted_bins(const offset_t[::1] starts not None, const offset_t[::1] values not None):
    """``searchsorted(starts, values, side="right") - 1`` clipped at 0, for ascending
    ``values``, by one merge (the sentence of each character offset; both arrays of one
    type)."""
    cdef Py_ssize_t n = starts.shape[0], m = values.shape[0], i, j = 0
    out_a = np.empty(m, dtype=np.int32)
    cdef int32_t[::1] out = out_a
    with nogil:
        for i in range(m):
            while j < n and starts[j] <= values[i]:
                j += 1
            out[i] = <int32_t>(j - 1 if j > 0 else 0)
    return out_a

# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True
"""The per-sentence counts of the metrics over aligned words, compiled: one pass marks which
checks each aligned pair passes (a bit each), a second counts every metric at once.

The numpy metrics (:func:`conll_eval.metrics.compute_counts`) are the reference: the tests
require identical counts.  Nothing per word is kept: codes are mapped through per-code
tables (universal features, compared relation, content/functional/CLAS17 flags) as read.
"""
import numpy as np

cimport numpy as cnp
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint16_t

cnp.import_array()

ctypedef cnp.npy_intp intp

# one bit per check (the same numbers as CHECKS below)
cdef enum:
    C_UPOS = 1
    C_XPOS = 2
    C_FEATS = 4
    C_UFEATS = 8
    C_LEMMA = 16
    C_LEMMA18 = 32
    C_UDEPREL = 64
    C_HEAD = 128
    C_FCHILDREN = 256

#: derived column (as MetricSpec.columns names it, or "head", "functional_children") -> bit
CHECKS = {"upos": C_UPOS, "xpos": C_XPOS, "feats": C_FEATS, "ufeats": C_UFEATS,
          "lemma": C_LEMMA, "lemma18": C_LEMMA18, "udeprel": C_UDEPREL, "head": C_HEAD,
          "functional_children": C_FCHILDREN}

#: bits of the per-relation flag table: which words a filter keeps
FLAG_CONTENT = 1
FLAG_CLAS17 = 2
#: filter of a metric -> its number in :func:`tally` (0 keeps every word)
FILTERS = {None: 0, "content": 1, "clas17": 2}


def distinct_codes(const int32_t[::1] a not None, const int32_t[::1] b not None):
    """The distinct values of ``a`` and ``b`` (non-negative codes), ascending, as int64: two
    passes, no sort and no count."""
    cdef Py_ssize_t i
    cdef int32_t top = -1, bottom = 0
    with nogil:
        for i in range(a.shape[0]):
            top = a[i] if a[i] > top else top
            bottom = a[i] if a[i] < bottom else bottom
        for i in range(b.shape[0]):
            top = b[i] if b[i] > top else top
            bottom = b[i] if b[i] < bottom else bottom
    if bottom < 0:
        raise ValueError("codes must be non-negative")
    present_a = np.zeros(top + 1, dtype=np.uint8)
    cdef uint8_t[::1] present = present_a
    with nogil:
        for i in range(a.shape[0]):
            present[a[i]] = 1
        for i in range(b.shape[0]):
            present[b[i]] = 1
    return np.flatnonzero(present_a)


def functional_children(const int32_t[::1] head not None, const int32_t[::1] deprel not None,
                        const int8_t[::1] functional_of not None):
    """CSR lists (offsets, children) of each word's children whose relation is functional
    (``functional_of[deprel code]``), children in word order."""
    cdef Py_ssize_t n = head.shape[0], w, total = 0
    cdef int32_t functional
    offsets_a = np.zeros(n + 1, dtype=np.int32)
    cdef int32_t[::1] offsets = offsets_a
    # without branches (whether a relation is functional is not predictable): a root
    # (head -1) adds 0 at index 0, a word that is not a functional child adds 0
    with nogil:
        for w in range(n):
            offsets[head[w] + 1] += (head[w] >= 0) & (functional_of[deprel[w]] != 0)
        for w in range(n):
            offsets[w + 1] += offsets[w]
        total = offsets[n]
    # cursor[h + 1]: where head h's next child goes; the other words (and the roots, at
    # cursor[0]) are written to the slot after the children, which is dropped
    children_a = np.empty(total + 1, dtype=np.int32)
    cursor_a = np.empty(n + 1, dtype=np.int32)
    cdef int32_t[::1] children = children_a
    cdef int32_t[::1] cursor = cursor_a
    cdef int32_t at
    with nogil:
        cursor[0] = <int32_t>total
        for w in range(n):
            cursor[w + 1] = offsets[w]
        for w in range(n):
            functional = (head[w] >= 0) & (functional_of[deprel[w]] != 0)
            at = cursor[head[w] + 1]
            children[at if functional else total] = <int32_t>w
            cursor[head[w] + 1] = at + functional
    return offsets_a, children_a[:total]


#: word indices of an alignment: int32, or int64 for huge files
ctypedef fused index_t:
    int32_t
    int64_t


def pair_checks(const index_t[::1] ga not None, const index_t[::1] sa not None, const index_t[::1] sys_to_gold not None,
                const int32_t[::1] g_upos not None, const int32_t[::1] s_upos not None,
                const int32_t[::1] g_xpos not None, const int32_t[::1] s_xpos not None,
                const int32_t[::1] g_feats not None, const int32_t[::1] s_feats not None,
                const int32_t[::1] g_lemma not None, const int32_t[::1] s_lemma not None,
                const int32_t[::1] g_deprel not None, const int32_t[::1] s_deprel not None,
                const int32_t[::1] g_head not None, const int32_t[::1] s_head not None,
                const int32_t[::1] ufeats_of not None, const int32_t[::1] compared_of not None,
                int32_t underscore, children=None):
    """Per aligned pair ``ga[k]`` <-> ``sa[k]``: the bits of :data:`CHECKS` it passes.

    ``ufeats_of`` / ``compared_of`` map a FEATS / DEPREL code to the code compared (universal
    features; the relation as ``--deprel`` compares it); ``underscore`` is the code of ``_``
    (a gold ``_`` lemma passes LEMMA18); heads agree when both are roots or the system head's
    partner is the gold head.  ``children``: ``(gold offsets, gold children, system offsets,
    system children)`` of :func:`functional_children`, for C_FCHILDREN (MLAS: the lists agree
    element-wise in partner, compared relation, UPOS and universal features)."""
    cdef Py_ssize_t n = ga.shape[0], k, j, g, s, gc, sc, count
    cdef int32_t gf, sf, gl, sl, gh, sh
    cdef uint16_t bits
    cdef bint with_children = children is not None, same
    mask_a = np.empty(n, dtype=np.uint16)
    cdef uint16_t[::1] mask = mask_a
    empty = np.zeros(1, dtype=np.int32)
    cdef const int32_t[::1] g_off = children[0] if with_children else empty
    cdef const int32_t[::1] g_child = children[1] if with_children else empty
    cdef const int32_t[::1] s_off = children[2] if with_children else empty
    cdef const int32_t[::1] s_child = children[3] if with_children else empty
    with nogil:
        for k in range(n):
            g = ga[k]
            s = sa[k]
            bits = 0
            if g_upos[g] == s_upos[s]:
                bits |= C_UPOS
            if g_xpos[g] == s_xpos[s]:
                bits |= C_XPOS
            gf = g_feats[g]
            sf = s_feats[s]
            if gf == sf:
                bits |= C_FEATS | C_UFEATS
            elif ufeats_of[gf] == ufeats_of[sf]:
                bits |= C_UFEATS
            gl = g_lemma[g]
            sl = s_lemma[s]
            if gl == sl:
                bits |= C_LEMMA | C_LEMMA18
            elif gl == underscore:
                bits |= C_LEMMA18
            if compared_of[g_deprel[g]] == compared_of[s_deprel[s]]:
                bits |= C_UDEPREL
            gh = g_head[g]
            sh = s_head[s]
            if (gh < 0 and sh < 0) or (gh >= 0 and sh >= 0 and sys_to_gold[sh] == gh):
                bits |= C_HEAD
            if with_children:
                count = g_off[g + 1] - g_off[g]
                if count == s_off[s + 1] - s_off[s]:
                    same = True
                    for j in range(count):
                        gc = g_child[g_off[g] + j]
                        sc = s_child[s_off[s] + j]
                        if sys_to_gold[sc] != gc or \
                                compared_of[g_deprel[gc]] != compared_of[s_deprel[sc]] or \
                                g_upos[gc] != s_upos[sc] or \
                                ufeats_of[g_feats[gc]] != ufeats_of[s_feats[sc]]:
                            same = False
                            break
                    if same:
                        bits |= C_FCHILDREN
            mask[k] = bits
    return mask_a


def tally(const uint16_t[::1] mask not None, const index_t[::1] ga not None, const int32_t[::1] g_sent not None,
          const int32_t[::1] s_sent not None, const int32_t[::1] g_deprel not None, const int32_t[::1] s_deprel not None,
          const uint8_t[::1] flags_of not None, const uint16_t[::1] required not None, const uint8_t[::1] filters not None,
          Py_ssize_t n_sent):
    """Per metric m and gold sentence: (correct, gold, system, aligned) as int32 (a
    sentence's counts are small: half the memory of int64), an array (metrics, sentences,
    4); and their totals over the sentences as int64, (metrics, 4).  Metric m keeps the words its filter keeps (``filters[m]``: 0
    every word, 1 content relations, 2 relations of CLAS17 weight 1; ``flags_of[deprel
    code]`` has a bit per filter: FLAG_CONTENT, FLAG_CLAS17); a kept aligned pair (kept by
    its gold word) is correct when its ``mask`` has every bit of ``required[m]``.  Gold words
    count in ``g_sent``, system words in ``s_sent`` (the gold sentence of their first
    character).  :func:`tally_part` and :func:`tally_totals` do the same in parts."""
    out_a, per_filter_a = tally_arrays(required.shape[0], n_sent)
    tally_part(out_a, per_filter_a, mask, ga, g_sent, s_sent, g_deprel, s_deprel, flags_of,
               required, filters, 0, mask.shape[0], 0, g_sent.shape[0], 0, s_sent.shape[0],
               0, n_sent)
    return out_a, tally_totals(out_a, per_filter_a, filters)


def tally_arrays(Py_ssize_t n_metrics, Py_ssize_t n_sent):
    """The zeroed arrays :func:`tally_part` adds to: (metrics, sentences, 4) and the words
    per side, filter and sentence (2, 3, sentences)."""
    return (np.zeros((n_metrics, n_sent, 4), dtype=np.int32),
            np.zeros((2, 3, n_sent), dtype=np.int32))


def tally_part(int32_t[:, :, ::1] out not None, int32_t[:, :, ::1] per_filter not None,
               const uint16_t[::1] mask not None, const index_t[::1] ga not None, const int32_t[::1] g_sent not None,
               const int32_t[::1] s_sent not None, const int32_t[::1] g_deprel not None, const int32_t[::1] s_deprel not None,
               const uint8_t[::1] flags_of not None, const uint16_t[::1] required not None, const uint8_t[::1] filters not None,
               Py_ssize_t pair_lo, Py_ssize_t pair_hi, Py_ssize_t gold_lo, Py_ssize_t gold_hi,
               Py_ssize_t sys_lo, Py_ssize_t sys_hi, Py_ssize_t sent_lo, Py_ssize_t sent_hi):
    """:func:`tally`'s counting for the aligned pairs ``pair_lo:pair_hi``, gold words
    ``gold_lo:gold_hi`` and system words ``sys_lo:sys_hi``, added to ``out`` and
    ``per_filter`` (see :func:`tally_arrays`) without the GIL.  Two parts whose words all
    fall in disjoint sentence ranges ``sent_lo:sent_hi`` write disjoint rows and may run at
    once; False (nothing counted past that point) when a word falls outside its range."""
    cdef Py_ssize_t n_metrics = required.shape[0], k, m, w, sent
    cdef Py_ssize_t metric_stride = out.shape[1] * 4
    cdef uint8_t keep, kept
    cdef uint16_t bits, need
    cdef int32_t* row
    cdef bint inside = True
    if n_metrics == 0 or out.shape[1] == 0:
        return True
    with nogil:
        for w in range(gold_lo, gold_hi):
            sent = g_sent[w]
            if sent < sent_lo or sent >= sent_hi:
                inside = False
                break
            keep = 1 | (flags_of[g_deprel[w]] << 1)
            per_filter[0, 0, sent] += 1
            per_filter[0, 1, sent] += (keep >> 1) & 1
            per_filter[0, 2, sent] += (keep >> 2) & 1
        for w in range(sys_lo, sys_hi if inside else sys_lo):
            sent = s_sent[w]
            if sent < sent_lo or sent >= sent_hi:
                inside = False
                break
            keep = 1 | (flags_of[s_deprel[w]] << 1)
            per_filter[1, 0, sent] += 1
            per_filter[1, 1, sent] += (keep >> 1) & 1
            per_filter[1, 2, sent] += (keep >> 2) & 1
        for k in range(pair_lo, pair_hi if inside else pair_lo):  # without branches: which pairs pass is unpredictable
            w = ga[k]
            sent = g_sent[w]
            if sent < sent_lo or sent >= sent_hi:
                inside = False
                break
            keep = 1 | (flags_of[g_deprel[w]] << 1)
            bits = mask[k]
            row = &out[0, sent, 0]
            for m in range(n_metrics):
                kept = (keep >> filters[m]) & 1
                need = required[m]
                row[3] += kept
                row[0] += kept & ((bits & need) == need)
                row += metric_stride
    return inside


def tally_totals(int32_t[:, :, ::1] out not None, const int32_t[:, :, ::1] per_filter not None,
                 const uint8_t[::1] filters not None, Py_ssize_t sent_lo=0, Py_ssize_t sent_hi=-1):
    """Completes ``out`` of :func:`tally_part` (each metric's gold and system words from
    ``per_filter``) for the sentences ``sent_lo:sent_hi`` (-1: to the last) and returns
    their totals, int64 (metrics, 4); two disjoint ranges may be done at once."""
    cdef Py_ssize_t n_metrics = out.shape[0], m, sent, k
    cdef Py_ssize_t n_sent = out.shape[1] if sent_hi < 0 else min(sent_hi, out.shape[1])
    totals_a = np.zeros((n_metrics, 4), dtype=np.int64)
    cdef int64_t[:, ::1] totals = totals_a
    with nogil:
        for m in range(n_metrics):
            for sent in range(sent_lo, n_sent):
                out[m, sent, 1] = per_filter[0, filters[m], sent]
                out[m, sent, 2] = per_filter[1, filters[m], sent]
                for k in range(4):
                    totals[m, k] += out[m, sent, k]
    return totals_a


#: character offsets: int32, or int64 for a text of 2**31 characters or more
ctypedef fused offset_t:
    int32_t
    int64_t


def span_counts(const offset_t[::1] g_start not None, const offset_t[::1] g_end not None,
                const offset_t[::1] s_start not None, const offset_t[::1] s_end not None,
                const offset_t[::1] sent_start not None):
    """Per gold sentence: (gold spans whose span a system span has too, gold spans, system
    spans, 0) as int64, an array (sentences, 4): the Tokens metric.  Spans are ascending
    (tokens: non-empty, in order); each belongs to the gold sentence holding its first
    character (the last one starting at or before it; the first one for a span before every
    sentence), as :meth:`conll_eval.treebank.Treebank.sentence_of_chars` says.  The five
    offset arrays are of one type, int32 or int64."""
    cdef Py_ssize_t n_g = g_start.shape[0], n_s = s_start.shape[0]
    cdef Py_ssize_t n_sent = sent_start.shape[0], i, j = 0, k = 0, sent
    out_a = np.zeros((n_sent, 4), dtype=np.int64)
    cdef int64_t[:, ::1] out = out_a
    if n_sent == 0:
        raise ValueError("span_counts needs the gold sentences")
    with nogil:
        for i in range(n_g):
            while j < n_sent and sent_start[j] <= g_start[i]:
                j += 1
            sent = j - 1 if j > 0 else 0
            out[sent, 1] += 1
            while k < n_s and s_start[k] < g_start[i]:
                k += 1
            if k < n_s and s_start[k] == g_start[i] and s_end[k] == g_end[i]:
                out[sent, 0] += 1
        j = 0
        for i in range(n_s):
            while j < n_sent and sent_start[j] <= s_start[i]:
                j += 1
            out[j - 1 if j > 0 else 0, 2] += 1
    return out_a

# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled screen of the validator (:mod:`conll_eval.validate.screen`): one pass over a block
of whole sentences that proves most sentences free of level 1-2 incidents, so that only the
others go through the line-by-line checks.

The screen is one-sided: a sentence it passes ("clean") gets no level 1-2 incident from
:class:`conll_eval.validate.backbone.Validator` once the caller has also accepted its field
values (interned here, judged once per distinct value by the Python checks) and its run state
(sent_id uniqueness and the other cross-sentence rules); any doubt marks the sentence unclean,
and the line-by-line checks decide.  A block the screen cannot split into sentences the way the
line-by-line reader does (a line that is neither a comment, a token line nor empty: perhaps a
line of spaces, which ends a sentence) is refused whole (None); the caller keeps blocks with a
CR, invalid UTF-8 or text not in NFC from it.  Byte predicates: ``_cbytes.pxd``; the tree and
graph checks: ``_ctree.pxd``.
"""
from libc.stdint cimport int32_t, int64_t, uint8_t
from libc.string cimport memchr, memcmp, memset

cimport cython
import numpy as np
cimport numpy as cnp

from conll_eval._cbytes cimport (SPACE, TAB, _bad_bytes, _contains, _has_space, _head, _is_digit,
                                 _misc_spaceafter, _number, _spaces_ok, _starts)
from conll_eval._cscan cimport StringTable
from conll_eval._cscan import scratch_array
from conll_eval._ctree cimport _graph_connected, _is_tree, _projective

cnp.import_array()

# sentence flags (see screen_block)
cdef enum:
    UNCLEAN = 1
    HAS_FEATS = 2        # some word's FEATS is not '_'
    HAS_DEPS = 4         # some word's DEPS is not '_'
    ENHANCED = 8         # some word's DEPS is not HEAD:DEPREL
    NEWDOC_NEWPAR = 16   # a comment that may be newdoc or newpar
    SPACEAFTER_NO = 32   # the last token of the text check has SpaceAfter=No
    NONPROJECTIVE = 64   # (clean sentences) a subtree of the basic tree is not contiguous

# token flags
cdef enum:
    SPACED = 1           # the FORM or the LEMMA has a space

cdef enum:
    NEWLINE = 10
    HASH = 35

SENTENCE_FLAGS = {"unclean": UNCLEAN, "has_feats": HAS_FEATS, "has_deps": HAS_DEPS,
                  "enhanced": ENHANCED, "newdoc_newpar": NEWDOC_NEWPAR,
                  "spaceafter_no": SPACEAFTER_NO, "nonprojective": NONPROJECTIVE}
TOKEN_FLAGS = {"spaced": SPACED}
#: the interned columns of a token line, in this order (-1 where a line has none)
CODE_COLUMNS = ("upos", "feats", "deprel", "deps", "misc", "lemma")
cdef enum:
    N_CODES = 6


cdef struct Sentence:
    # what the screen knows of the sentence being read
    uint8_t flags
    bint tokens                  # a token line was read
    Py_ssize_t n_words, last_range_end, skip_until  # skip_until: last word of the current MWT
    Py_ssize_t n_sid, n_text, n_newdoc, n_newpar
    Py_ssize_t sid_start, sid_end
    Py_ssize_t n_parallel, parallel_start, parallel_end   # the parallel_id comment line
    Py_ssize_t text, text_end    # the text attribute's bytes not yet matched by FORMs
    Py_ssize_t n_edges
    int32_t feats_line, enhanced_line


cdef void _comment(const uint8_t* a, Py_ssize_t pos, Py_ssize_t ln, Sentence* st) noexcept nogil:
    """A comment line before the tokens: sent_id, text, newdoc/newpar, parallel_id."""
    cdef const uint8_t* p = a + pos
    cdef Py_ssize_t q = 1, k
    if _bad_bytes(p, ln, False):
        st.flags |= UNCLEAN
        return
    while q < ln and p[q] == SPACE:
        q += 1
    if _starts(p + q, ln - q, "sent_id", 7):
        k = q + 7
        while k < ln and p[k] == SPACE:
            k += 1
        if k < ln and p[k] == 61:  # '='
            k += 1
            while k < ln and p[k] == SPACE:
                k += 1
            if k < ln and not _has_space(p + k, ln - k):
                st.n_sid += 1
                st.sid_start, st.sid_end = pos + k, pos + ln
                return
        st.flags |= UNCLEAN
    elif _starts(p + q, ln - q, "parallel_id", 11):  # judged by the caller (its run state)
        st.n_parallel += 1
        st.parallel_start, st.parallel_end = pos, pos + ln
    elif _starts(p + q, ln - q, "text", 4):
        k = q + 4
        while k < ln and p[k] == SPACE:
            k += 1
        if k < ln and p[k] == 61:
            k += 1
            while k < ln and p[k] == SPACE:
                k += 1
            st.n_text += 1
            st.text, st.text_end = pos + k, pos + ln
    elif _starts(p + q, ln - q, "newdoc", 6):
        st.n_newdoc += 1
        st.flags |= NEWDOC_NEWPAR
    elif _starts(p + q, ln - q, "newpar", 6):
        st.n_newpar += 1
        st.flags |= NEWDOC_NEWPAR


cdef bint _text_token(const uint8_t* a, const uint8_t* form, Py_ssize_t form_n,
                      const uint8_t* misc, Py_ssize_t misc_n, bint member,
                      Sentence* st) noexcept nogil:
    """The text check of one token line (udtools' order); False when it may find something."""
    cdef int spaceafter = _misc_spaceafter(misc, misc_n)
    if spaceafter < 0:
        return False
    if member:  # a word of a multiword token: its FORM is not in the text
        return not _contains(misc, misc_n, "SpaceAfter=No", 13)
    if st.text_end - st.text < form_n or memcmp(a + st.text, form, form_n) != 0:
        return False
    st.text += form_n
    if spaceafter:
        st.flags |= SPACEAFTER_NO
        return True
    st.flags &= ~SPACEAFTER_NO
    if st.text < st.text_end and a[st.text] != SPACE:
        return False
    while st.text < st.text_end and a[st.text] == SPACE:
        st.text += 1
    return True


cdef bint _deps_edges(const uint8_t* p, Py_ssize_t n, int32_t word, int32_t* edge_head,
                      int32_t* edge_dep, Sentence* st) noexcept nogil:
    """The edges of a DEPS value other than '_' (plain word heads only; their range is checked
    at the sentence's end); False when an item is not ``head:relation``."""
    cdef Py_ssize_t start = 0, end, colon
    cdef int64_t h
    while start <= n:
        end = start
        colon = -1
        while end < n and p[end] != 124:
            if colon < 0 and p[end] == 58:  # ':'
                colon = end
            end += 1
        if colon < 0:
            return False
        h = _head(p + start, colon - start)
        if h < 0 or h == word:
            return False
        edge_head[st.n_edges] = <int32_t>h
        edge_dep[st.n_edges] = word
        st.n_edges += 1
        start = end + 1
    return True



cdef struct Work:
    # the per-token outputs and the working arrays of one block
    int32_t* codes               # N_CODES rows of ``stride``
    Py_ssize_t stride
    int32_t* position            # per token: its word number, 0 for a multiword token
    int32_t* parent              # per token: its parent's token, -1 the root, -2 none/unknown
    uint8_t* token_flags
    int32_t* head                # per word of the sentence (1-based): its HEAD
    int32_t* word_token          # per word of the sentence: its token
    int32_t* mark
    int32_t* edge_head
    int32_t* edge_dep
    int32_t* start
    int32_t* children
    int32_t* queue
    int32_t* lo                  # per word: its subtree's first and last word and size
    int32_t* hi
    int32_t* size


cdef struct Tables:
    # the StringTables, as borrowed pointers (the caller holds them)
    void* upos
    void* feats
    void* deprel
    void* deps
    void* misc
    void* lemma


cdef inline int32_t _intern(void* table, const uint8_t* p, Py_ssize_t n,
                            const uint8_t* limit) noexcept nogil:
    return <int32_t>(<StringTable>table).intern(p, n, limit)


cdef void _token_line(const uint8_t* a, const uint8_t* limit, Py_ssize_t pos, Py_ssize_t ln,
                      int32_t line, Py_ssize_t tok, Sentence* st, Tables* t,
                      Work* w) noexcept nogil:
    """One token line of a sentence still clean: marks it unclean on any doubt."""
    cdef const uint8_t* p = a + pos
    cdef Py_ssize_t f[11]        # field k is p[f[k] : f[k + 1] - 1]
    cdef Py_ssize_t size[10]
    cdef Py_ssize_t k = 0, i, dash, stride = w.stride
    cdef int64_t first, last, word, h
    cdef const void* found
    cdef int32_t* codes = w.codes + tok
    if _bad_bytes(p, ln, True):
        st.flags |= UNCLEAN
        return
    f[0] = 0
    for i in range(ln):
        if p[i] == TAB:
            k += 1
            if k > 9:
                st.flags |= UNCLEAN
                return
            f[k] = i + 1
    if k != 9:
        st.flags |= UNCLEAN
        return
    f[10] = ln + 1
    for k in range(10):
        size[k] = f[k + 1] - 1 - f[k]
        if size[k] == 0 or (k != 1 and k != 2 and _has_space(p + f[k], size[k])):
            st.flags |= UNCLEAN
            return
    if memchr(p, 46, size[0]) != NULL:  # '.': an empty node
        st.flags |= UNCLEAN
        return
    found = memchr(p, 45, size[0])  # '-': a multiword token
    if found != NULL:
        dash = <const uint8_t*>found - p
        first, last = _number(p, dash), _number(p + dash + 1, size[0] - dash - 1)
        if (first < 0 or last <= first or first != st.n_words + 1 or first <= st.last_range_end
                or _has_space(p + f[1], size[1]) or _has_space(p + f[2], size[2])):
            st.flags |= UNCLEAN
            return
        for k in range(2, 9):
            if size[k] != 1 or p[f[k]] != 95:  # '_'
                st.flags |= UNCLEAN
                return
        if not _text_token(a, p + f[1], size[1], p + f[9], size[9], False, st):
            st.flags |= UNCLEAN
            return
        st.last_range_end = st.skip_until = last
        codes[4 * stride] = _intern(t.misc, p + f[9], size[9], limit)
        return
    word = _number(p, size[0])
    h = _head(p + f[6], size[6])
    if (word != st.n_words + 1 or h < 0 or h == word or not _spaces_ok(p + f[1], size[1])
            or not _spaces_ok(p + f[2], size[2])):
        st.flags |= UNCLEAN
        return
    st.n_words = word
    w.head[word] = <int32_t>h
    w.word_token[word] = <int32_t>tok
    w.position[tok] = <int32_t>word
    if _has_space(p + f[1], size[1]) or _has_space(p + f[2], size[2]):
        w.token_flags[tok] = SPACED
    codes[0] = _intern(t.upos, p + f[3], size[3], limit)
    codes[stride] = _intern(t.feats, p + f[5], size[5], limit)
    codes[2 * stride] = _intern(t.deprel, p + f[7], size[7], limit)
    codes[3 * stride] = _intern(t.deps, p + f[8], size[8], limit)
    codes[4 * stride] = _intern(t.misc, p + f[9], size[9], limit)
    codes[5 * stride] = _intern(t.lemma, p + f[2], size[2], limit)
    if size[5] != 1 or p[f[5]] != 95:
        st.flags |= HAS_FEATS
        if st.feats_line < 0:
            st.feats_line = line
    if size[8] != 1 or p[f[8]] != 95:
        st.flags |= HAS_DEPS
        # DEPS == HEAD ":" DEPREL: the enhanced graph repeats the basic tree here
        if not (size[8] == size[6] + 1 + size[7] and memcmp(p + f[8], p + f[6], size[6]) == 0
                and p[f[8] + size[6]] == 58
                and memcmp(p + f[8] + size[6] + 1, p + f[7], size[7]) == 0):
            st.flags |= ENHANCED
            st.enhanced_line = line
        if not _deps_edges(p + f[8], size[8], <int32_t>word, w.edge_head, w.edge_dep, st):
            st.flags |= UNCLEAN
            return
    if not _text_token(a, p + f[1], size[1], p + f[9], size[9], word <= st.skip_until, st):
        st.flags |= UNCLEAN


cdef void _sentence_end(Sentence* st, Work* w) noexcept nogil:
    """The checks of a whole sentence: counts of the comments, the text used up, the tree, the
    enhanced graph's connectivity; for a clean one, each word's parent token and whether the
    tree is projective."""
    cdef Py_ssize_t k, n = st.n_words
    if (not st.tokens or st.n_sid != 1 or st.n_text != 1 or st.n_newdoc > 1 or st.n_newpar > 1
            or st.n_parallel > 1
            or n == 0 or st.last_range_end > n or st.text != st.text_end):
        st.flags |= UNCLEAN
    if st.flags & UNCLEAN:
        return
    for k in range(1, n + 1):
        if w.head[k] > n:
            st.flags |= UNCLEAN
            return
    if not _is_tree(w.head, n, w.mark):
        st.flags |= UNCLEAN
        return
    if st.flags & HAS_DEPS:
        for k in range(st.n_edges):
            if w.edge_head[k] > n:
                st.flags |= UNCLEAN
                return
        if not _graph_connected(w.edge_head, w.edge_dep, st.n_edges, n, w.start, w.children,
                                w.queue):
            st.flags |= UNCLEAN
            return
    for k in range(1, n + 1):
        w.parent[w.word_token[k]] = w.word_token[w.head[k]] if w.head[k] else -1
    if not _projective(w.head, n, w.lo, w.hi, w.size, w.queue):
        st.flags |= NONPROJECTIVE


cdef bint _screen(const uint8_t* a, Py_ssize_t n, Tables* t, Work* w, int64_t* s_start,
                  int64_t* s_end, int32_t* s_line, int32_t* s_ncom, uint8_t* s_flags,
                  int64_t* s_sid0, int64_t* s_sid1, int64_t* s_par0, int64_t* s_par1,
                  int32_t* s_feats, int32_t* s_enh,
                  int32_t* t_sent, Py_ssize_t* n_sent_out, Py_ssize_t* n_tok_out) noexcept nogil:
    """The sentences of ``a[:n]`` (see :func:`screen_block`); False: the block is refused."""
    cdef Py_ssize_t pos = 0, ln, s, tok, k, n_sent = 0, n_tok = 0
    cdef int32_t line = 0
    cdef const uint8_t* limit = a + n
    cdef const uint8_t* eol
    cdef Sentence st
    while pos < n:
        s = n_sent
        n_sent += 1
        memset(&st, 0, sizeof(Sentence))
        st.sid_start = st.sid_end = st.parallel_start = st.parallel_end = -1
        st.feats_line = st.enhanced_line = -1
        s_start[s], s_line[s], s_ncom[s] = pos, line, 0
        while True:
            eol = <const uint8_t*>memchr(a + pos, NEWLINE, n - pos)
            ln = eol - (a + pos)
            if ln == 0:
                pos += 1
                line += 1
                break
            if a[pos] == HASH:
                if st.tokens:
                    st.flags |= UNCLEAN  # a comment after the tokens
                else:
                    s_ncom[s] += 1
                    if not st.flags & UNCLEAN:
                        _comment(a, pos, ln, &st)
            elif _is_digit(a[pos]):
                tok = n_tok
                n_tok += 1
                t_sent[tok] = <int32_t>s
                for k in range(N_CODES):
                    w.codes[k * w.stride + tok] = -1
                w.position[tok], w.parent[tok], w.token_flags[tok] = 0, -2, 0
                if not st.tokens:
                    st.tokens = True
                    if (st.n_text != 1 or st.text == st.text_end
                            or a[st.text_end - 1] == SPACE):
                        st.flags |= UNCLEAN
                if not st.flags & UNCLEAN:
                    _token_line(a, limit, pos, ln, line, tok, &st, t, w)
            else:
                return False  # perhaps a line of spaces, which ends a sentence: not here
            pos += ln + 1
            line += 1
        _sentence_end(&st, w)
        s_end[s], s_flags[s] = pos, st.flags
        s_sid0[s], s_sid1[s] = st.sid_start, st.sid_end
        s_par0[s], s_par1[s] = st.parallel_start, st.parallel_end
        s_feats[s], s_enh[s] = st.feats_line, st.enhanced_line
    n_sent_out[0], n_tok_out[0] = n_sent, n_tok
    return True


cdef int32_t* _ptr32(arr):
    cdef int32_t[::1] view = arr.reshape(-1)
    return &view[0]


def screen_block(const uint8_t[::1] buf not None, tuple tables not None, dict scratch not None):
    """Screen ``buf`` (whole sentences, each ending with an empty line; LF only, valid UTF-8
    in NFC: the caller checks that).  None when the block cannot be screened (see the module
    docstring); else a dict of arrays:

    per sentence (``n_sentences`` of them): ``start``/``end`` (byte offsets; ``end`` after the
    empty line's LF), ``first_line`` (0-based line of the block), ``n_comments``, ``flags``
    (:data:`SENTENCE_FLAGS`), ``sid_start``/``sid_end`` (the sent_id's bytes, -1 without),
    ``parallel_start``/``parallel_end`` (the bytes of the parallel_id comment line, -1
    without), ``feats_line`` (the first word line with FEATS, block line, -1 without),
    ``enhanced_line`` (the last word line whose DEPS is not HEAD:DEPREL, -1 without);
    per token line (``n_tokens``): ``token_sentence``, ``codes`` (a row per
    :data:`CODE_COLUMNS`: local ids in ``tables``, six :class:`StringTable`, -1 where the
    line has no such field or its sentence is unclean), ``position`` (word number, 0 for a
    multiword token), ``parent`` (the token of the word's HEAD, -1 for the root; -2 for a
    multiword token and in unclean sentences) and ``token_flags`` (:data:`TOKEN_FLAGS`).
    """
    cdef const uint8_t* a = &buf[0] if buf.shape[0] else NULL
    cdef Py_ssize_t n = buf.shape[0]
    if a == NULL or a[n - 1] != NEWLINE:
        return None
    cdef Py_ssize_t cap = 1, i
    for i in range(n):
        if a[i] == NEWLINE:
            cap += 1
    cdef StringTable t_upos = tables[0], t_feats = tables[1], t_deprel = tables[2]
    cdef StringTable t_deps = tables[3], t_misc = tables[4], t_lemma = tables[5]
    cdef Tables t
    t.upos, t.feats, t.deprel = <void*>t_upos, <void*>t_feats, <void*>t_deprel
    t.deps, t.misc, t.lemma = <void*>t_deps, <void*>t_misc, <void*>t_lemma
    sentence_arrays = {name: scratch_array(scratch, name, cap, dtype) for name, dtype in (
        ("start", np.int64), ("end", np.int64), ("first_line", np.int32),
        ("n_comments", np.int32), ("flags", np.uint8), ("sid_start", np.int64),
        ("sid_end", np.int64), ("parallel_start", np.int64), ("parallel_end", np.int64),
        ("feats_line", np.int32), ("enhanced_line", np.int32))}
    token_arrays = {name: scratch_array(scratch, name, cap, dtype) for name, dtype in (
        ("token_sentence", np.int32), ("position", np.int32), ("parent", np.int32),
        ("token_flags", np.uint8))}
    codes_a = scratch_array(scratch, "codes", (N_CODES, cap), np.int32)
    edge_cap = n // 2 + 2
    cdef Work w
    w.codes, w.stride = _ptr32(codes_a), codes_a.shape[1]
    w.position, w.parent = _ptr32(token_arrays["position"]), _ptr32(token_arrays["parent"])
    cdef uint8_t[::1] token_flags = token_arrays["token_flags"]
    w.token_flags = &token_flags[0]
    for name, size in (("head", cap + 2), ("word_token", cap + 2), ("mark", cap + 2),
                       ("graph_start", cap + 2), ("queue", 2 * cap + 4), ("lo", cap + 2),
                       ("hi", cap + 2), ("size", cap + 2), ("edge_head", edge_cap),
                       ("edge_dep", edge_cap), ("children", edge_cap)):
        scratch_array(scratch, name, size, np.int32)
    w.head, w.word_token = _ptr32(scratch["head"]), _ptr32(scratch["word_token"])
    w.mark, w.start, w.queue = (_ptr32(scratch["mark"]), _ptr32(scratch["graph_start"]),
                                _ptr32(scratch["queue"]))
    w.lo, w.hi, w.size = _ptr32(scratch["lo"]), _ptr32(scratch["hi"]), _ptr32(scratch["size"])
    w.edge_head, w.edge_dep = _ptr32(scratch["edge_head"]), _ptr32(scratch["edge_dep"])
    w.children = _ptr32(scratch["children"])
    cdef int64_t[::1] s_start = sentence_arrays["start"], s_end = sentence_arrays["end"]
    cdef int64_t[::1] s_sid0 = sentence_arrays["sid_start"], s_sid1 = sentence_arrays["sid_end"]
    cdef int64_t[::1] s_par0 = sentence_arrays["parallel_start"]
    cdef int64_t[::1] s_par1 = sentence_arrays["parallel_end"]
    cdef int32_t[::1] s_line = sentence_arrays["first_line"]
    cdef int32_t[::1] s_ncom = sentence_arrays["n_comments"]
    cdef int32_t[::1] s_feats = sentence_arrays["feats_line"]
    cdef int32_t[::1] s_enh = sentence_arrays["enhanced_line"]
    cdef uint8_t[::1] s_flags = sentence_arrays["flags"]
    cdef int32_t[::1] t_sent = token_arrays["token_sentence"]
    cdef Py_ssize_t n_sent = 0, n_tok = 0
    cdef bint refused = False
    with nogil:
        refused = not _screen(a, n, &t, &w, &s_start[0], &s_end[0], &s_line[0], &s_ncom[0],
                              &s_flags[0], &s_sid0[0], &s_sid1[0], &s_par0[0], &s_par1[0],
                              &s_feats[0], &s_enh[0],
                              &t_sent[0], &n_sent, &n_tok)
    if refused:
        return None
    if (t_upos.failed or t_feats.failed or t_deprel.failed or t_deps.failed or t_misc.failed
            or t_lemma.failed):
        raise MemoryError()
    found = {name: arr[:n_sent] for name, arr in sentence_arrays.items()}
    found.update({name: arr[:n_tok] for name, arr in token_arrays.items()})
    found.update({"n_sentences": n_sent, "n_tokens": n_tok, "codes": codes_a[:, :n_tok]})
    return found

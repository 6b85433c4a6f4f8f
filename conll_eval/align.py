"""Character check, span scores and word alignment, as the official CoNLL 2017/2018 scorers do.

Gold and system must contain the same characters (FORMs with spaces removed, sentence
boundaries ignored).  Words are aligned by identical character spans; inside a
*multiword span* (a stretch touched by a multi-word token on either side) by an LCS over
lowercased FORMs with the official tie-breaking.  The common case (no multi-word tokens on
either side) is fully vectorised.
"""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import cached_property
from typing import Dict, List, Tuple

import numpy as np

from .compiled import calign as _calign  # None: the numpy path (not built, or CONLL_EVAL_PURE)
from .errors import AlignmentError, EmptyFileError, Location, printable
from .treebank import Treebank, same_offset_type

__all__ = ["Alignment", "check_characters", "align_words", "span_matches"]


@dataclass(frozen=True, eq=False)
class Alignment:
    """Aligned word pairs: ``gold_idx[k]`` <-> ``sys_idx[k]`` (both increasing, one-to-one),
    between ``n_gold`` gold and ``n_sys`` system words.

    ``sys_to_gold`` / ``gold_to_sys`` give the partner of each word, -1 where unaligned
    (made when first asked for, then kept; :meth:`partners` makes one without keeping it).
    """

    gold_idx: np.ndarray
    sys_idx: np.ndarray
    n_gold: int
    n_sys: int

    @classmethod
    def from_pairs(cls, gold_idx: np.ndarray, sys_idx: np.ndarray, n_gold: int, n_sys: int) -> "Alignment":
        # int32 unless the files are huge: half the memory of intp, and the compiled
        # counters take them as they are (a numpy index of int32 is cast where it is used)
        index = np.int32 if max(n_gold, n_sys) < 2 ** 31 else np.intp
        return cls(np.asarray(gold_idx, dtype=index), np.asarray(sys_idx, dtype=index),
                   n_gold, n_sys)

    def partners(self, side: str) -> np.ndarray:
        """A new array: the partner of each word of ``side`` ("gold" or "system"), -1 where
        unaligned."""
        mine, theirs, n = ((self.gold_idx, self.sys_idx, self.n_gold) if side == "gold"
                           else (self.sys_idx, self.gold_idx, self.n_sys))
        partner = np.full(n, -1, dtype=self.gold_idx.dtype)
        partner[mine] = theirs
        return partner

    @cached_property
    def sys_to_gold(self) -> np.ndarray:
        return self.partners("system")

    @cached_property
    def gold_to_sys(self) -> np.ndarray:
        return self.partners("gold")

    def __len__(self) -> int:
        return len(self.gold_idx)


# ---------------------------------------------------------------------------------------------
# Character check

def _first_difference(a: str, b: str) -> int:
    """Index of the first differing character (len of the shorter if one is a prefix)."""
    n = min(len(a), len(b))
    lo = 0
    step = 1 << 16
    while lo < n:  # compare in chunks with C string equality, then narrow down
        hi = min(n, lo + step)
        if a[lo:hi] != b[lo:hi]:
            for k in range(lo, hi):
                if a[k] != b[k]:
                    return k
        lo = hi
    return n


def _context(tb: Treebank, char: int, width: int = 6) -> Tuple[int, str]:
    """(line, text) around the token holding ``char``: previous tokens [>>token<<] next tokens
    (``tb`` has characters, so tokens: :func:`check_characters` asks only then)."""
    tok = int(np.searchsorted(tb.tok_end, char, side="right"))
    tok = min(tok, tb.n_tokens - 1)
    first = max(0, tok - width)
    forms = tb.token_forms(first, tok + 1 + width)  # (a slice: it ends at the last token)
    forms[tok - first] = f">>{forms[tok - first]}<<"
    return int(tb.tok_line[tok]), " ".join(forms)


#: characters after the first difference that a normalisation must reconcile to explain it
_HINT_WINDOW = 64
#: ... and how many of them (fewer when a text ends sooner)
_HINT_AGREE = 8

_PTB_ESCAPES = (("-LRB-", "("), ("-RRB-", ")"), ("-LSB-", "["), ("-RSB-", "]"),
                ("-LCB-", "{"), ("-RCB-", "}"), ("``", '"'), ("''", '"'))


def _nfc(text: str) -> str:
    return unicodedata.normalize("NFC", text)


def _without(category: str):
    def strip(text: str) -> str:
        return "".join(c for c in text if unicodedata.category(c) != category)
    return strip


def _visible(text: str) -> str:
    """``text`` without spaces (Zs) and invisible format characters (Cf)."""
    return "".join(c for c in text if unicodedata.category(c) not in ("Zs", "Cf"))


def _unescape_ptb(text: str) -> str:
    for escape, char in _PTB_ESCAPES:
        text = text.replace(escape, char)
    return text


def _explains(transform, gold: str, system: str, k: int) -> bool:
    """Whether ``transform`` (a normalisation) makes the texts agree at their first difference
    ``k`` and for a few characters after it.

    Compares the transformed *rest of the texts* from a little before ``k`` (windows of
    :data:`_HINT_WINDOW` characters, starting at a character that combines with nothing
    before it), not two fixed character windows: a normalisation may change lengths (NFD
    is longer than NFC), so equal texts need not line up character by character.
    """
    start = k  # (both texts have a character at k: see _hints)
    while start > 0 and (unicodedata.combining(gold[start]) or unicodedata.combining(system[start])):
        start -= 1
    start = max(0, start - 1)  # one shared character before: NFC may compose across k
    stop = k + _HINT_WINDOW
    g, s = transform(gold[start:stop]), transform(system[start:stop])
    before = len(transform(gold[start:k]))
    # a window cut inside the text may end in half a character sequence: ignore its last two
    g_len = len(g) - (2 if stop < len(gold) else 0)
    s_len = len(s) - (2 if stop < len(system) else 0)
    n = min(g_len, s_len)
    if n <= before:
        return False
    need = before + min(_HINT_AGREE, n - before)
    return g[:need] == s[:need]


def _describe(char: str) -> str:
    """``U+00E7 'ç' (LATIN SMALL LETTER C WITH CEDILLA)``; invisible characters without quotes."""
    name = unicodedata.name(char, "unnamed")
    # (format characters, Cf, are not printable; marks are, but show nothing alone)
    shown = f" {char!r}" if char.isprintable() and not char.isspace() and \
        unicodedata.category(char) not in ("Mn", "Me") else ""
    return f"U+{ord(char):04X}{shown} ({name})"


def _sequence(text: str, k: int) -> str:
    """The character at ``k`` with the combining characters after it, described."""
    end = k + 1
    while end < len(text) and unicodedata.combining(text[end]):
        end += 1
    return " + ".join(_describe(c) for c in text[k:end])


def _hints(gold: str, system: str, k: int) -> List[str]:
    """The usual causes that explain the first difference ``k`` (at least one text has
    characters after ``k``; both have characters)."""
    if k == len(system) or k == len(gold):
        shorter = "system" if k == len(system) else "gold"
        return [f"the {shorter} file ends early: one file is a prefix of the other (truncated output?)"]
    hints = []
    if _explains(_nfc, gold, system, k):
        g_nfc = unicodedata.is_normalized("NFC", gold[max(0, k - 1):k + _HINT_WINDOW])
        decomposed, composed = ("system", "gold") if g_nfc else ("gold", "system")
        d_text, c_text = (system, gold) if g_nfc else (gold, system)
        hints.append(f"Unicode normalisation differs: the {decomposed} file has decomposed characters "
                     f"(NFD), e.g. {_sequence(d_text, k)} where the {composed} file has "
                     f"{_sequence(c_text, k)}; normalise both files to NFC")
    if _explains(str.casefold, gold, system, k):
        hints.append(f"the texts differ in letter case here (gold {gold[k]!r}, system {system[k]!r}): "
                     "the parser must not change FORMs")
    if _explains(_without("Cf"), gold, system, k):
        side, text = ("gold", gold) if unicodedata.category(gold[k]) == "Cf" else ("system", system)
        hints.append(f"an invisible character {_describe(text[k])} inside a FORM of the {side} file"
                     + (" (a byte-order mark)" if text[k] == "\ufeff" else "") + "; remove it")
    if _explains(_without("Zs"), gold, system, k):
        side, text = ("gold", gold) if unicodedata.category(gold[k]) == "Zs" else ("system", system)
        hints.append(f"a space character {_describe(text[k])} inside a FORM of the {side} file: the "
                     "conll17 profile removes only U+0020 from FORMs, conll18 every Unicode space")
    if _explains(_unescape_ptb, gold, system, k):
        hints.append("Penn Treebank escapes (-LRB-, -RRB-, ``, '') instead of the original brackets "
                     "and quotes: the parser must keep the FORMs of its input")
    return hints


def _text_comment_hint(tb: Treebank, char: int, side: str) -> str:
    """A hint when the sentence holding ``char`` has a ``# text`` that disagrees with its FORMs."""
    if tb.n_sentences == 0:
        return ""
    sent = int(np.searchsorted(tb.sent_char_start, char, side="right")) - 1
    sent = min(max(sent, 0), tb.n_sentences - 1)
    comment = tb.sent_texts[sent]
    if comment is None:
        return ""
    forms = tb.text[tb.sent_char_start[sent]:tb.sent_char_end[sent]]
    if _visible(comment) == _visible(forms):  # spaces and invisible characters: other hints
        return ""
    where = f"{tb.path}:{int(tb.sent_first_line[sent])}"
    return (f"in the {side} file the sentence at {where} has a `# text` that disagrees with its "
            f"FORMs; a parser that tokenized `# text` produces a different text")


def check_characters(gold: Treebank, system: Treebank) -> None:
    """Raise AlignmentError unless gold and system have the same non-space characters.

    A file without words (empty, or only comments) facing one with words raises
    :class:`EmptyFileError` (code ``empty-file``); two files without words pass (the
    official scorers give 0 everywhere).
    """
    if gold.text == system.text:
        return
    k = _first_difference(gold.text, system.text)
    official = ("The concatenation of tokens in gold file and in system file differ!\n"
                f"First 20 differing characters in gold file: '{gold.text[k:k + 20]}' "
                f"and system file: '{system.text[k:k + 20]}'")
    if not gold.text or not system.text:
        raise EmptyFileError("gold" if not gold.text else "system", Location(gold.path),
                             Location(system.path), official=official)
    g_line, g_ctx = _context(gold, k)
    s_line, s_ctx = _context(system, k)
    lines = [
        f"the texts of gold and system differ at character {k} "
        f"(gold has {len(gold.text)} non-space characters, system {len(system.text)})",
        f"  gold   {Location(gold.path, g_line)}: {printable(g_ctx)}",
        f"  system {Location(system.path, s_line)}: {printable(s_ctx)}",
        f"  first differing characters: gold {gold.text[k:k + 20]!r} vs system {system.text[k:k + 20]!r}",
    ]
    if k < len(gold.text) and k < len(system.text):
        lines.append(f"  first differing character: gold {_describe(gold.text[k])}, "
                     f"system {_describe(system.text[k])}")
    hints = _hints(gold.text, system.text, k)
    hints += [h for h in (_text_comment_hint(gold, k, "gold"), _text_comment_hint(system, k, "system")) if h]
    if not hints:
        hints.append("the system was probably run on a different text (e.g. `# text` lines that "
                     "disagree with the gold FORMs, or a different version of the treebank)")
    lines += [f"  hint: {h}" for h in hints]
    raise AlignmentError(Location(gold.path, g_line), Location(system.path, s_line),
                         "\n".join(lines), official=official)


# ---------------------------------------------------------------------------------------------
# Span scores

def span_matches(gold_start: np.ndarray, gold_end: np.ndarray,
                 sys_start: np.ndarray, sys_end: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
    """Indices (gold, system) of spans with identical (start, end).

    Starts are strictly increasing on each side (every token has at least one character,
    every sentence at least one token), so the official two-pointer walk matches exactly the
    spans whose starts coincide and whose ends are equal.
    """
    if len(gold_start) == 0 or len(sys_start) == 0:
        return np.zeros(0, dtype=np.intp), np.zeros(0, dtype=np.intp)
    # both sides sorted: a binary search per gold start instead of a sort of both
    at = np.minimum(np.searchsorted(sys_start, gold_start), len(sys_start) - 1)
    gi = np.flatnonzero((sys_start[at] == gold_start) & (sys_end[at] == gold_end))
    return gi, at[gi]


# ---------------------------------------------------------------------------------------------
# Word alignment

def lower_forms(tb: Treebank, start: int, stop: int) -> List[str]:
    """Lowercased FORMs of words ``start:stop``, as the official LCS compares them."""
    return [form.lower() for form in tb.word_forms(np.arange(start, stop))]


def align_words(gold: Treebank, system: Treebank) -> Alignment:
    """Align words like the official ``align_words`` (spans, LCS inside multiword spans)."""
    if not gold.word_is_mwt.any() and not system.word_is_mwt.any():
        gi, si = span_matches(gold.word_start, gold.word_end, system.word_start, system.word_end)
        return Alignment.from_pairs(gi, si, gold.n_words, system.n_words)
    if _calign is not None and max(gold.n_words, system.n_words) < 2 ** 31:  # int32 pairs
        pairs_g, pairs_s = _compiled_walk(gold, system)
    else:
        spans = (gold.word_start, gold.word_end, system.word_start, system.word_end)
        pairs_g, pairs_s = _Walk(gold, system, spans).run()
    return Alignment.from_pairs(pairs_g, pairs_s, gold.n_words, system.n_words)


def _compiled_walk(gold: Treebank, system: Treebank) -> Tuple[np.ndarray, np.ndarray]:
    """:meth:`_Walk.run`'s pairs from the compiled walk and LCS: the walk gives the plain
    pairs and the multiword spans; the words of the spans get ids of their lowercased FORMs
    here, and the LCS of each span is compiled too."""
    g_start, g_end, s_start, s_end = same_offset_type(gold.tok_start, gold.tok_end,
                                                      system.tok_start, system.tok_end)
    plain_g, plain_s, multiword = _calign.walk(
        g_start, g_end, np.ascontiguousarray(gold.word_tok, dtype=np.int32),
        gold.word_is_mwt.view(np.uint8), s_start, s_end,
        np.ascontiguousarray(system.word_tok, dtype=np.int32), system.word_is_mwt.view(np.uint8))
    del g_start, g_end, s_start, s_end
    if len(multiword) == 0:
        return plain_g, plain_s
    lowered: Dict[str, int] = {}  # lowercased FORM -> id, shared by both sides
    gold_ids = _lower_form_ids(gold, multiword[:, 0], multiword[:, 1], lowered)
    sys_ids = _lower_form_ids(system, multiword[:, 2], multiword[:, 3], lowered)
    span_g, span_s = _calign.lcs_pairs(multiword, gold_ids, sys_ids)
    del gold_ids, sys_ids
    return _calign.merge_pairs(plain_g, plain_s, span_g, span_s)  # in the walk's order


def _lower_form_ids(tb: Treebank, first: np.ndarray, last: np.ndarray,
                    lowered: Dict[str, int]) -> np.ndarray:
    """Per word (-1 outside the ranges ``first[k]:last[k]``): the id in ``lowered`` of its
    lowercased FORM, as :func:`lower_forms` reads it (a multi-word token's word by its code,
    once per distinct code; other words from the text)."""
    counts = last - first
    words = np.repeat(first - np.cumsum(counts) + counts, counts) + np.arange(int(counts.sum()))
    ids = np.full(tb.n_words, -1, dtype=np.int32)
    codes = tb.mwt_form[words]
    in_mwt = codes >= 0
    if in_mwt.any():
        mwt_words, mwt_codes = words[in_mwt], codes[in_mwt]
        ordered = np.sort(mwt_codes)  # sort + mask: np.unique would import numpy.ma
        distinct = ordered[np.concatenate(([True], ordered[1:] != ordered[:-1]))]
        strings = tb.vocab.strings
        table = np.zeros(int(distinct[-1]) + 1, dtype=np.int32)
        table[distinct] = [lowered.setdefault(strings[c].lower(), len(lowered))
                           for c in distinct.tolist()]
        ids[mwt_words] = table[mwt_codes]
    plain = words[~in_mwt]
    if len(plain):
        text, tok = tb.text, tb.word_tok[plain]
        ids[plain] = [lowered.setdefault(text[a:b].lower(), len(lowered))
                      for a, b in zip(tb.tok_start[tok].tolist(), tb.tok_end[tok].tolist())]
    return ids


def _form_reader(tb: Treebank, starts: memoryview, ends: memoryview):
    """``forms(a, b)``: lowercased FORMs of words ``a:b`` (see :func:`lower_forms`), cheaply."""
    mwt_form = memoryview(tb.mwt_form)
    strings, text = tb.vocab.strings, tb.text

    def forms(a: int, b: int) -> List[str]:
        return [(text[starts[i]:ends[i]] if mwt_form[i] < 0 else strings[mwt_form[i]]).lower()
                for i in range(a, b)]
    return forms


def _next_true(flags: np.ndarray) -> np.ndarray:
    """``out[i]`` = smallest ``j >= i`` with ``flags[j]``, else ``len(flags)``."""
    n = len(flags)
    index = np.where(flags, np.arange(n), n)
    return np.minimum.accumulate(index[::-1])[::-1] if n else index


def _multiword_tokens(tb: Treebank) -> Tuple[np.ndarray, np.ndarray]:
    """First word and number of words of each multi-word token."""
    words = np.flatnonzero(tb.word_is_mwt)
    if len(words) == 0:
        return words, words
    tok = tb.word_tok[words]
    first = np.ones(len(words), dtype=bool)
    first[1:] = tok[1:] != tok[:-1]
    return words[first], np.diff(np.append(np.flatnonzero(first), len(words)))


Tokens = Tuple[np.ndarray, np.ndarray]  # what _multiword_tokens returns


def _identical_multiword_tokens(gold: Treebank, system: Treebank, g_mwt: Tokens, s_mwt: Tokens,
                                spans: Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]
                                ) -> Dict[int, Tuple[int, int]]:
    """``{first gold word: (first system word, n words)}`` for multi-word tokens with the same
    character span on both sides, the same number of words and equal lowercased FORMs.

    When the official walk enters such a pair at its first words, the multiword span is
    exactly the two tokens (neighbouring tokens start at or after their end, so the span
    never grows) and the LCS of two equal sequences aligns word i with word i.  Both sides
    must share one Vocab (codes compare strings).  ``g_mwt``/``s_mwt``: see
    :func:`_multiword_tokens`; ``spans``: word starts and ends of gold, then system.
    """
    (g_first, g_count), (s_first, s_count) = g_mwt, s_mwt
    if len(g_first) == 0 or len(s_first) == 0 or gold.vocab is not system.vocab:
        return {}
    gs, ge, ss, se = spans
    gi, si = span_matches(gs[g_first], ge[g_first], ss[s_first], se[s_first])
    same_n = g_count[gi] == s_count[si]
    gi, si = gi[same_n], si[same_n]
    if len(gi) == 0:
        return {}
    n = g_count[gi]
    offsets = np.cumsum(n) - n
    within = np.arange(int(n.sum())) - np.repeat(offsets, n)
    g_words = np.repeat(g_first[gi], n) + within
    s_words = np.repeat(s_first[si], n) + within
    g_codes, s_codes = gold.mwt_form[g_words], system.mwt_form[s_words]
    # sort + mask, not np.unique: numpy 2's plain unique imports numpy.ma (~20 ms, once)
    codes = np.sort(np.concatenate([g_codes, s_codes]))
    distinct = codes[np.concatenate(([True], codes[1:] != codes[:-1]))]
    strings = gold.vocab.strings
    lowered: Dict[str, int] = {}
    lower_id = np.zeros(int(distinct[-1]) + 1, dtype=np.int64)
    lower_id[distinct] = [lowered.setdefault(strings[c].lower(), len(lowered))
                          for c in distinct.tolist()]
    differs = (lower_id[g_codes] != lower_id[s_codes]).astype(np.int64)
    identical = np.add.reduceat(differs, offsets) == 0
    return dict(zip(g_first[gi[identical]].tolist(),
                    zip(s_first[si[identical]].tolist(), n[identical].tolist())))


def _multiword_vs_plain(gold: Treebank, system: Treebank, g_mwt: Tokens, s_mwt: Tokens,
                        forms_g, forms_s, spans: Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]
                        ) -> Dict[int, Tuple[int, int, int, int]]:
    """``{first gold word: (first system word, gold words, system words, aligned offset)}``
    for a multi-word token on one side whose span is exactly one plain token on the other
    (a token the parser did not split, or split where gold does not).

    Entered at their first words, the official walk's multiword span is exactly these words
    (as for identical tokens), and the LCS of one word against n aligns the single word with
    the first of the n whose lowercased FORM equals its own, if any: the aligned offset is
    that position among the n (-1: none aligns).  ``g_mwt``/``s_mwt``: see
    :func:`_multiword_tokens`; ``forms_g``/``forms_s``: see :func:`_form_reader`; ``spans``:
    word starts and ends of gold, then system.
    """
    out: Dict[int, Tuple[int, int, int, int]] = {}
    gs, ge, ss, se = spans
    for plain, (m_first, m_count), multi_is_gold in ((system, g_mwt, True),
                                                     (gold, s_mwt, False)):
        if len(m_first) == 0:
            continue
        (m_start, m_end), (p_start, p_end) = ((gs, ge), (ss, se)) if multi_is_gold else \
            ((ss, se), (gs, ge))
        p_words = np.flatnonzero(~plain.word_is_mwt)
        mi, pi = span_matches(m_start[m_first], m_end[m_first], p_start[p_words], p_end[p_words])
        m_forms, p_forms = (forms_g, forms_s) if multi_is_gold else (forms_s, forms_g)
        for m0, n, p0 in zip(m_first[mi].tolist(), m_count[mi].tolist(), p_words[pi].tolist()):
            single = p_forms(p0, p0 + 1)[0]
            many = m_forms(m0, m0 + n)
            at = many.index(single) if single in many else -1
            if multi_is_gold:
                out[m0] = (p0, n, 1, at)
            else:
                out[p0] = (m0, 1, n, at)
    return out


class _Walk:
    """The official cursor walk, with stretches of plain words on both sides done in bulk.

    In the official loop two plain words align iff their spans are identical, so a stretch of
    plain words is a span intersection; only multiword spans are walked word by word.
    The stretch ends where the first cursor reaches a multi-word token word (see
    :meth:`_plain_stretch`), which is exactly where the official loop switches branches.
    """

    #: shorter plain stretches are walked word by word (cheaper than numpy calls)
    BULK_MIN_WORDS = 96

    def __init__(self, gold: Treebank, system: Treebank,
                 spans: Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]):
        """``spans``: word starts and ends of gold, then system."""
        self.gold, self.system = gold, system
        gs, ge, ss, se = self.arrays = spans
        self.gold_next_mwt = _next_true(gold.word_is_mwt)
        self.sys_next_mwt = _next_true(system.word_is_mwt)
        # memoryviews index to Python ints cheaply in the word-by-word parts
        self.gs, self.ge = memoryview(gs), memoryview(ge)
        self.ss, self.se = memoryview(ss), memoryview(se)
        self.gm, self.sm = gold.word_is_mwt.tolist(), system.word_is_mwt.tolist()
        self._gold_forms = _form_reader(gold, self.gs, self.ge)
        self._sys_forms = _form_reader(system, self.ss, self.se)
        g_mwt, s_mwt = _multiword_tokens(gold), _multiword_tokens(system)
        self.identical = _identical_multiword_tokens(gold, system, g_mwt, s_mwt, spans)
        self.one_to_many = _multiword_vs_plain(gold, system, g_mwt, s_mwt, self._gold_forms,
                                               self._sys_forms, spans)
        self.out_g: List[np.ndarray] = []
        self.out_s: List[np.ndarray] = []
        self.single_g: List[int] = []
        self.single_s: List[int] = []

    def run(self) -> Tuple[np.ndarray, np.ndarray]:
        n_g, n_s = len(self.gm), len(self.sm)
        gm, sm = self.gm, self.sm
        gi = si = 0
        identical, one_to_many = self.identical, self.one_to_many
        while gi < n_g and si < n_s:
            if gm[gi] or sm[si]:
                hit = identical.get(gi)
                if hit is not None and hit[0] == si:  # same token, same words: one to one
                    n = hit[1]
                    self.single_g.extend(range(gi, gi + n))  # (_flush replaces the lists)
                    self.single_s.extend(range(si, si + n))
                    gi += n
                    si += n
                    continue
                hit = one_to_many.get(gi)
                if hit is not None and hit[0] == si:  # one plain token = one multi-word token
                    width_g, width_s, at = hit[1], hit[2], hit[3]
                    if at >= 0:
                        self.single_g.append(gi + (at if width_g > 1 else 0))
                        self.single_s.append(si + (at if width_s > 1 else 0))
                    gi += width_g
                    si += width_s
                    continue
                gi, si = self._multiword_span(gi, si)
            else:
                gi, si = self._plain_stretch(gi, si)
        self._flush()
        if not self.out_g:
            return np.zeros(0, np.int64), np.zeros(0, np.int64)
        return np.concatenate(self.out_g), np.concatenate(self.out_s)

    def _flush(self) -> None:
        if self.single_g:
            self.out_g.append(np.array(self.single_g, dtype=np.int64))
            self.out_s.append(np.array(self.single_s, dtype=np.int64))
            self.single_g, self.single_s = [], []

    def _plain_stretch(self, gi: int, si: int) -> Tuple[int, int]:
        """Both current words are plain: advance to where the official loop leaves branch B."""
        g_stop = int(self.gold_next_mwt[gi])  # first MWT word (or the end) on each side
        s_stop = int(self.sys_next_mwt[si])
        if g_stop - gi + s_stop - si < self.BULK_MIN_WORDS:
            return self._plain_words(gi, si, g_stop, s_stop)
        gs, ge, ss, se = self.arrays
        # The loop processes words by start, gold first on ties; it leaves the branch right
        # after the last plain word of one side.  Which side gets there first?
        xg, xs = int(gs[g_stop - 1]), int(ss[s_stop - 1])
        same_last = xg == xs and int(ge[g_stop - 1]) == int(se[s_stop - 1])
        if same_last:
            g_new, s_new = g_stop, s_stop
        elif xg <= xs:  # gold finishes first: system words up to start xg are processed
            g_new = g_stop
            s_new = si + int(np.searchsorted(ss[si:s_stop], xg, side="left"))
            if s_new < s_stop and int(ss[s_new]) == xg and int(se[s_new]) == int(ge[g_stop - 1]):
                s_new += 1  # matched with gold's last word, advanced together
        else:  # system finishes first: gold words with start <= xs are processed
            s_new = s_stop
            g_new = gi + int(np.searchsorted(gs[gi:g_stop], xs, side="right"))
        a, b = span_matches(gs[gi:g_new], ge[gi:g_new], ss[si:s_new], se[si:s_new])
        if len(a):
            self._flush()
            self.out_g.append(a + gi)
            self.out_s.append(b + si)
        return g_new, s_new

    def _plain_words(self, gi: int, si: int, g_stop: int, s_stop: int) -> Tuple[int, int]:
        """Branch B of the official loop, word by word, until a cursor reaches its stop."""
        gs, ge, ss, se = self.gs, self.ge, self.ss, self.se
        out_g, out_s = self.single_g, self.single_s
        while gi < g_stop and si < s_stop:
            if gs[gi] == ss[si] and ge[gi] == se[si]:
                out_g.append(gi)
                out_s.append(si)
                gi += 1
                si += 1
            elif gs[gi] <= ss[si]:
                gi += 1
            else:
                si += 1
        return gi, si

    def _multiword_span(self, gi: int, si: int) -> Tuple[int, int]:
        """Branch A of the official loop: find the minimal multiword span, align it by LCS."""
        gs, ge, gm, ss, se, sm = self.gs, self.ge, self.gm, self.ss, self.se, self.sm
        n_g, n_s = len(gm), len(sm)
        if gm[gi]:
            span_end = ge[gi]
            if not sm[si] and ss[si] < gs[gi]:
                si += 1
        else:
            span_end = se[si]
            if not gm[gi] and gs[gi] < ss[si]:
                gi += 1
        g0, s0 = gi, si
        while True:
            g_beyond = gi >= n_g or (gs[gi] >= span_end if gm[gi] else ge[gi] > span_end)
            s_beyond = si >= n_s or (ss[si] >= span_end if sm[si] else se[si] > span_end)
            if g_beyond and s_beyond:
                break
            if gi < n_g and (si >= n_s or gs[gi] <= ss[si]):
                if gm[gi] and ge[gi] > span_end:
                    span_end = ge[gi]
                gi += 1
            else:
                if sm[si] and se[si] > span_end:
                    span_end = se[si]
                si += 1
        if gi > g0 and si > s0:
            _lcs_align(self._gold_forms(g0, gi), self._sys_forms(s0, si), g0, s0,
                       self.single_g, self.single_s)
        return gi, si


def _lcs_align(gf: List[str], sf: List[str], g0: int, s0: int, out_g: List[int], out_s: List[int]) -> None:
    """LCS over lowercased FORMs, table filled from the back, official forward walk."""
    ng, ns = len(gf), len(sf)
    lcs = [[0] * (ns + 1) for _ in range(ng + 1)]
    for g in range(ng - 1, -1, -1):
        row, below = lcs[g], lcs[g + 1]
        fg = gf[g]
        for s in range(ns - 1, -1, -1):
            if fg == sf[s]:
                row[s] = 1 + below[s + 1]
            else:
                row[s] = below[s] if below[s] > row[s + 1] else row[s + 1]
    g = s = 0
    while g < ng and s < ns:
        if gf[g] == sf[s]:
            out_g.append(g0 + g)
            out_s.append(s0 + s)
            g += 1
            s += 1
        elif lcs[g][s] == lcs[g + 1][s]:
            g += 1
        else:
            s += 1

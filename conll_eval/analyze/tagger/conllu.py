"""Tagger evaluation on CoNLL-U files: UPOS, XPOS, FEATS (whole and per feature), LEMMA and
MISC keys compared on the words the CoNLL 2018 alignment pairs, so that tokenization and
sentence splits may differ.

Where mooteval assumes one token per line on both sides and compares line by line, this
counts a gold or system word the alignment leaves alone as a token mismatch; a column's score
is the official scorer's (precision over system words, recall over gold words, accuracy over
aligned words), and every mismatching word can be listed with ``file:line`` and its context.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

from ...align import Alignment, align_words, check_characters
from ...errors import UsageError
from ...stats import Score
from ...treebank import Treebank
from . import DEFAULT_COLUMNS  # compared when --columns is not given

__all__ = ["DEFAULT_COLUMNS", "COLUMN_FLAGS", "ColumnScore", "WordMismatch", "TaggerEvaluation",
           "parse_columns", "evaluate_tagging"]

#: the CoNLL-U column behind each name, and its letter in a mismatch status
_COLUMN_FIELDS = {"UPOS": "upos", "XPOS": "xpos", "FEATS": "feats", "LEMMA": "lemma"}
COLUMN_FLAGS = {"UPOS": "u", "XPOS": "x", "FEATS": "f", "LEMMA": "l", "MISC": "m"}
#: a column value that is not there (no such feature, no such MISC key)
ABSENT = -1


def parse_columns(text: Optional[str]) -> Tuple[str, ...]:
    """``UPOS,XPOS,FEATS,LEMMA,MISC:SpaceAfter`` -> the column names; a usage error for an
    unknown name or a MISC without its key."""
    if not text:
        return DEFAULT_COLUMNS
    names = []
    for item in (part.strip() for part in text.split(",")):
        upper = item.upper()
        if upper in _COLUMN_FIELDS:
            names.append(upper)
        elif upper.startswith("MISC:") and item[5:]:
            names.append("MISC:" + item[5:])
        else:
            raise UsageError(f"conll_eval tagger: --columns: unknown column {item!r} (choose from "
                             f"{', '.join(_COLUMN_FIELDS)}, MISC:KEY)")
    if len(set(names)) != len(names):
        raise UsageError("conll_eval tagger: --columns: a column is named twice")
    return tuple(names)


@dataclass(frozen=True)
class ColumnScore:
    """One compared column (``UPOS``, ``FEATS``, ``FEATS:Case``, ``MISC:SpaceAfter``).

    ``gold``/``system``: words of that file having a value (every word for a whole column;
    for a feature or a MISC key the words that have it); ``aligned``: aligned words whose
    gold word has a value; ``correct``: aligned words with equal values.  ``known`` and
    ``unknown`` (with a training file): (correct, aligned) over aligned words whose gold FORM
    is / is not in the training file.  ``annotated`` is False for a whole column that is
    ``_`` on every gold word (as the scorer's note says: its scores would read 100.00).

    The scores are None where they mean nothing (n/a): all four for a column the gold does
    not annotate; precision without system words, recall without gold words, F1 without
    either, accuracy without aligned words (a feature or MISC key only one file has).
    """

    name: str
    correct: int
    gold: int
    system: int
    aligned: int
    known: Optional[Tuple[int, int]] = None
    unknown: Optional[Tuple[int, int]] = None
    annotated: bool = True

    @property
    def score(self) -> Score:
        """The official scorer's precision, recall and F1 of these counts (0 for n/a)."""
        return Score(self.correct, self.gold, self.system, self.aligned)

    def _ratio(self, total: int) -> Optional[float]:
        return self.correct / total if total and self.annotated else None

    @property
    def precision(self) -> Optional[float]:
        return self._ratio(self.system)

    @property
    def recall(self) -> Optional[float]:
        return self._ratio(self.gold)

    @property
    def f1(self) -> Optional[float]:
        total = self.gold + self.system
        return 2 * self.correct / total if total and self.annotated else None

    @property
    def accuracy(self) -> Optional[float]:
        """Correct over aligned words (mooteval's 'Tags Equal' on identical tokenization)."""
        return self._ratio(self.aligned)


@dataclass(frozen=True)
class WordMismatch:
    """A listed word: gold and system word indices (-1 for none), the status string (``t``
    for a token mismatch, then a letter per compared column that differs, ``-`` otherwise)
    and the differing columns' (name, gold value, system value)."""

    gold: int
    system: int
    status: str
    differences: Tuple[Tuple[str, str, str], ...]


@dataclass(frozen=True)
class TaggerEvaluation:
    """A gold/system pair compared column by column on the word alignment."""

    gold: Treebank
    system: Treebank
    alignment: Alignment
    columns: Tuple[str, ...]
    scores: Tuple[ColumnScore, ...]
    forms_equal: int
    #: per whole column: Counter of (gold value, system value) over aligned mismatching words
    confusion: Dict[str, Counter] = field(default_factory=dict)
    #: per compared column: per aligned pair, whether the values are equal (for the listing)
    equal: Dict[str, np.ndarray] = field(default_factory=dict)
    #: per compared column: gold and system value codes of the aligned pairs
    values: Dict[str, Tuple[np.ndarray, np.ndarray]] = field(default_factory=dict)

    def mismatches(self, every_word: bool = False) -> List[WordMismatch]:
        """Words to list in gold order, system-only words where they fall: each aligned word
        with a differing column (``every_word``: every aligned word) and every unaligned word
        of either file."""
        a = self.alignment
        flags = np.zeros(len(a), dtype=bool)
        for name in self.columns:
            flags |= ~self.equal[name]
        form_differs = self.gold.column("form")[a.gold_idx] != self.system.column("form")[a.sys_idx]
        flags |= form_differs
        listed = np.arange(len(a)) if every_word else np.flatnonzero(flags)
        out: List[Tuple[int, int, WordMismatch]] = []
        strings = self.gold.vocab.strings
        for k in listed.tolist():
            status, differences = ["t" if form_differs[k] else "-"], []
            for name in self.columns:
                if self.equal[name][k]:
                    status.append("-")
                    continue
                status.append(COLUMN_FLAGS[name.split(":")[0]])
                gold_code, sys_code = (int(v[k]) for v in self.values[name])
                differences.append((name, _text(strings, gold_code), _text(strings, sys_code)))
            out.append((int(a.gold_idx[k]), 0, WordMismatch(int(a.gold_idx[k]), int(a.sys_idx[k]),
                                                          "".join(status), tuple(differences))))
        unaligned_status = "t" + "-" * len(self.columns)
        for g in np.flatnonzero(a.gold_to_sys < 0).tolist():
            out.append((g, 0, WordMismatch(g, -1, unaligned_status, ())))
        # a system-only word goes after the gold words starting before it
        sys_alone = np.flatnonzero(a.sys_to_gold < 0)
        gold_position = np.searchsorted(self.gold.word_start, self.system.word_start[sys_alone],
                                        side="right") - 1
        for s, g in zip(sys_alone.tolist(), gold_position.tolist()):
            out.append((g, 1, WordMismatch(-1, s, unaligned_status, ())))
        out.sort(key=lambda item: (item[0], item[1], item[2].system))
        return [item[2] for item in out]


def _text(strings: Sequence[str], code: int) -> str:
    return "(none)" if code == ABSENT else strings[code]


def _key_values(vocab_strings: Sequence[str], codes: np.ndarray, key: Optional[str],
                vocab) -> Dict[str, np.ndarray]:
    """Per key of ``Key=Value|...`` columns (FEATS, MISC): each word's value code, ABSENT
    where the word lacks the key; only the keys asked for (``key``) or all of them."""
    distinct, inverse = np.unique(codes, return_inverse=True)
    per_key: Dict[str, np.ndarray] = {}
    for position, code in enumerate(distinct.tolist()):
        text = vocab_strings[code]
        if text == "_":
            continue
        for item in text.split("|"):
            name, sep, value = item.partition("=")
            if not sep or (key is not None and name != key):
                continue
            table = per_key.get(name)
            if table is None:
                table = per_key[name] = np.full(len(distinct), ABSENT, dtype=np.int64)
            table[position] = vocab.code(value)
    return {name: table[inverse] for name, table in per_key.items()}


def _score(name: str, gold_values: np.ndarray, sys_values: np.ndarray, alignment: Alignment,
           known: Optional[np.ndarray]) -> Tuple[ColumnScore, np.ndarray, Tuple[np.ndarray, np.ndarray]]:
    g = gold_values[alignment.gold_idx]
    s = sys_values[alignment.sys_idx]
    equal = g == s
    has_gold = g != ABSENT
    right = equal & has_gold
    split = {}
    if known is not None:
        for label, mask in (("known", known & has_gold), ("unknown", ~known & has_gold)):
            split[label] = (int(np.count_nonzero(right & mask)), int(np.count_nonzero(mask)))
    score = ColumnScore(name, int(np.count_nonzero(right)), int(np.count_nonzero(gold_values != ABSENT)),
                        int(np.count_nonzero(sys_values != ABSENT)), int(np.count_nonzero(has_gold)),
                        split.get("known"), split.get("unknown"))
    return score, equal, (g, s)


def evaluate_tagging(gold: Treebank, system: Treebank, columns: Sequence[str] = DEFAULT_COLUMNS,
                     training_forms: Optional[set] = None, features: bool = True) -> TaggerEvaluation:
    """Compare ``columns`` of ``system`` with ``gold`` (read with one Vocab) on the conll18
    word alignment (an :class:`~conll_eval.errors.AlignmentError` when the texts differ).
    FEATS adds a ``FEATS:<name>`` score per feature of either file (with ``features``);
    ``training_forms``: the FORMs of a training file, to split accuracy into known and
    unknown words."""
    check_characters(gold, system)
    alignment = align_words(gold, system)
    strings = gold.vocab.strings  # grows in place as lazy columns add codes
    underscore = gold.vocab.find("_")  # -1 (no word) when no file has a "_"
    known = None
    if training_forms is not None:
        gold_forms = gold.column("form")[alignment.gold_idx]  # may add codes: first
        in_training = np.array([s in training_forms for s in strings], dtype=bool)
        known = in_training[gold_forms]
    scores, equal, values, confusion = [], {}, {}, {}
    for name in columns:
        if name in _COLUMN_FIELDS:
            field_name = _COLUMN_FIELDS[name]
            gold_codes = gold.column(field_name).astype(np.int64)
            sys_codes = system.column(field_name).astype(np.int64)
            score, equal[name], values[name] = _score(name, gold_codes, sys_codes, alignment, known)
            if gold.n_words and not np.any(gold_codes != underscore):
                score = replace(score, annotated=False)
            scores.append(score)
            wrong = ~equal[name]
            pairs = zip(values[name][0][wrong].tolist(), values[name][1][wrong].tolist())
            confusion[name] = Counter((strings[a], strings[b]) for a, b in pairs)
            if name == "FEATS" and features:
                scores += _feature_scores(gold, system, alignment, known)
        else:
            key = name.split(":", 1)[1]
            gold_key = _misc_values(gold, key)
            sys_key = _misc_values(system, key)
            score, equal[name], values[name] = _score(name, gold_key, sys_key, alignment, known)
            scores.append(score)
    forms_equal = int(np.count_nonzero(gold.column("form")[alignment.gold_idx]
                                       == system.column("form")[alignment.sys_idx]))
    return TaggerEvaluation(gold, system, alignment, tuple(columns), tuple(scores), forms_equal,
                            confusion, equal, values)


def _misc_values(treebank: Treebank, key: str) -> np.ndarray:
    """Each word's value code of MISC ``key`` (ABSENT where the word has none)."""
    found = _key_values(treebank.vocab.strings, treebank.column("misc"), key, treebank.vocab)
    return found.get(key, np.full(treebank.n_words, ABSENT, dtype=np.int64))


def _feature_scores(gold: Treebank, system: Treebank, alignment: Alignment,
                    known: Optional[np.ndarray]) -> List[ColumnScore]:
    """A ``FEATS:<name>`` score per feature name of either file, names sorted."""
    strings, vocab = gold.vocab.strings, gold.vocab
    gold_features = _key_values(strings, gold.column("feats"), None, vocab)
    sys_features = _key_values(strings, system.column("feats"), None, vocab)
    out = []
    for name in sorted(set(gold_features) | set(sys_features), key=str.lower):
        g = gold_features.get(name, np.full(gold.n_words, ABSENT, dtype=np.int64))
        s = sys_features.get(name, np.full(system.n_words, ABSENT, dtype=np.int64))
        out.append(_score(f"FEATS:{name}", g, s, alignment, known)[0])
    return out

"""Drop-in replacement for the official scorers' module API (``conll18_ud_eval``).

Training loops written against ``conll18_ud_eval`` (stanza, UDPipe, Trankit style) switch
by changing one import::

    from conll_eval import compat as ud_eval
    gold = ud_eval.load_conllu_file("gold.conllu")
    system = ud_eval.load_conllu_file("system.conllu")
    evaluation = ud_eval.evaluate(gold, system)
    print(evaluation["LAS"].f1)

The module has the official public names: the column indices ``ID`` ... ``MISC``,
``UNIVERSAL_FEATURES``, ``CONTENT_DEPRELS``, ``FUNCTIONAL_DEPRELS`` (frozensets here),
``UDError``, ``load_conllu``, ``load_conllu_file``, ``evaluate``, ``evaluate_wrapper``,
``build_evaluation_table`` (stanza's addition) and ``main`` (``python -m conll_eval.compat
[-v] [-c] gold system`` prints what ``conll18_ud_eval.py`` prints; on an invalid or missing
file the last line of its traceback, ``UDError: <official message>``, and exit 1, without the
traceback unless ``--debug``; a reader that leaves early, ``| head``, is no error).

A :class:`UDRepresentation` wraps conll_eval's columnar
:class:`~conll_eval.treebank.Treebank`; its official attributes ``characters``, ``tokens``,
``words`` and ``sentences`` (lists of characters, :class:`UDSpan` and :class:`UDWord`) are
built from the columns on first access only.  :func:`evaluate` never builds them: it scores
the columns, so it is as fast as ``conll_eval`` itself, and editing the objects does not
change the scores.

Errors are raised as :class:`UDError` carrying the official message text (``str(e)``);
the underlying conll_eval error, with file, line and code, is its ``__cause__`` and
``e.error``.  A file that cannot be opened raises the ``OSError`` that ``open()`` raises,
as officially.  ``profile`` selects ``conll18`` (default), ``conll17`` or ``iwpt`` behaviour.
"""
from __future__ import annotations

import argparse
import io
import os
import sys
from functools import cached_property
from typing import Dict, List, Optional, Sequence, TextIO, Union

import numpy as np

from .errors import AlignmentError, ConllEvalError, InputError, UsageError, printable
from .evaluate import Settings, evaluate as _evaluate
from .metrics import CONTENT_DEPRELS, FUNCTIONAL_DEPRELS, UNIVERSAL_FEATURES
from .report.official import counts_table, default_lines, verbose_table
from .reader import load as _load
from .stats import Score
from .treebank import Treebank, Vocab

__all__ = ["ID", "FORM", "LEMMA", "UPOS", "XPOS", "FEATS", "HEAD", "DEPREL", "DEPS", "MISC",
           "CONTENT_DEPRELS", "FUNCTIONAL_DEPRELS", "UNIVERSAL_FEATURES",
           "UDError", "UDRepresentation", "UDSpan", "UDWord", "Score", "load_conllu",
           "load_conllu_file", "evaluate", "evaluate_wrapper", "build_evaluation_table", "main"]

# Indices of the ten CoNLL-U fields in UDWord.columns.
ID = 0
FORM = 1
LEMMA = 2
UPOS = 3
XPOS = 4
FEATS = 5
HEAD = 6
DEPREL = 7
DEPS = 8
MISC = 9

# One vocabulary for every file loaded through this module, so any two of them can be compared.
_VOCAB = Vocab()

#: error codes of files that cannot be opened or read (officially ``open()`` raises OSError)
_FILE_CODES = ("file-not-found", "not-a-file", "unreadable")


class UDError(Exception):
    """The official scorers' error; ``str()`` is the official message text."""

    def __init__(self, message: str, error: Optional[ConllEvalError] = None):
        super().__init__(message)
        self.error = error


class UDSpan:
    """Characters ``start:end`` of :attr:`UDRepresentation.characters` (``end`` exclusive)."""

    __slots__ = ("start", "end")

    def __init__(self, start: int, end: int):
        self.start = start
        self.end = end

    def __repr__(self) -> str:
        return f"UDSpan({self.start}, {self.end})"


class UDWord:
    """One word (empty nodes excluded), with the official attributes.

    ``span``: the UDSpan of its token (the very object in ``tokens``; for a word of a
    multi-word token the span of the whole token); ``columns``: the ten fields as strings,
    with FORM space-stripped for plain words (as written inside a multi-word token), FEATS
    reduced to the sorted universal features (raw in the conll17 profile), DEPREL without
    its subtype, ID and HEAD as numbers within the sentence (``"0"`` for the root);
    ``is_multiword``; ``parent`` (the head's UDWord, None for the root);
    ``functional_children`` (the words attached to it by a relation in
    ``FUNCTIONAL_DEPRELS``, in file order); ``is_content_deprel``, ``is_functional_deprel``.
    """

    __slots__ = ("span", "columns", "is_multiword", "parent", "functional_children",
                 "is_content_deprel", "is_functional_deprel")

    def __init__(self, span: UDSpan, columns: List[str], is_multiword: bool):
        self.span = span
        self.columns = columns
        self.is_multiword = is_multiword
        self.parent: Optional[UDWord] = None
        self.functional_children: List[UDWord] = []
        self.is_content_deprel = columns[DEPREL] in CONTENT_DEPRELS
        self.is_functional_deprel = columns[DEPREL] in FUNCTIONAL_DEPRELS

    def __repr__(self) -> str:
        return f"UDWord({self.columns[ID]} {self.columns[FORM]!r}, span={self.span!r})"


class UDRepresentation:
    """A loaded file: the columnar :class:`~conll_eval.treebank.Treebank` (``.treebank``) and,
    built on first access, the official attributes ``characters`` (list of one-character
    strings, spaces removed from FORMs as the profile says), ``tokens`` (UDSpans),
    ``words`` (UDWords) and ``sentences`` (UDSpans)."""

    def __init__(self, treebank: Treebank, profile: str):
        self.treebank = treebank
        self.profile = profile

    @cached_property
    def characters(self) -> List[str]:
        return list(self.treebank.text)

    @cached_property
    def tokens(self) -> List[UDSpan]:
        tb = self.treebank
        return [UDSpan(a, b) for a, b in zip(tb.tok_start.tolist(), tb.tok_end.tolist())]

    @cached_property
    def sentences(self) -> List[UDSpan]:
        tb = self.treebank
        return [UDSpan(a, b) for a, b in zip(tb.sent_char_start.tolist(), tb.sent_char_end.tolist())]

    @cached_property
    def words(self) -> List[UDWord]:
        return _build_words(self.treebank, self.profile, self.tokens)

    def __len__(self) -> int:
        return self.treebank.n_words

    def __repr__(self) -> str:
        tb = self.treebank
        return (f"<UDRepresentation {tb.path!r}: {tb.n_sentences} sentences, {tb.n_tokens} tokens, "
                f"{tb.n_words} words>")


def _mapped(strings: Sequence[str], function) -> List[str]:
    """``function`` applied to each string, once per distinct value."""
    cache: Dict[str, str] = {}
    out = []
    for string in strings:
        value = cache.get(string)
        if value is None:
            value = cache[string] = function(string)
        out.append(value)
    return out


def _universal_features(feats: str) -> str:
    kept = [feature for feature in feats.split("|") if feature.partition("=")[0] in UNIVERSAL_FEATURES]
    return "|".join(sorted(kept))


def _universal_deprel(deprel: str) -> str:
    return deprel.partition(":")[0]


def _build_words(tb: Treebank, profile: str, tokens: List[UDSpan]) -> List[UDWord]:
    """The UDWord objects of a treebank, with parents and functional children linked."""
    n = tb.n_words
    if n == 0:
        return []
    index = np.arange(n, dtype=np.int64)
    first = tb.sent_word_start[tb.word_sent].astype(np.int64)  # first word of each word's sentence
    head = tb.head.astype(np.int64)
    ids = [str(i) for i in (index - first + 1).tolist()]
    heads = [str(h) for h in np.where(head >= 0, head - first + 1, 0).tolist()]
    feats = tb.strings("feats")
    if profile != "conll17":
        feats = _mapped(feats, _universal_features)
    fields = zip(ids, tb.word_forms(index), tb.strings("lemma"), tb.strings("upos"),
                 tb.strings("xpos"), feats, heads, _mapped(tb.strings("deprel"), _universal_deprel),
                 tb.strings("deps"), tb.strings("misc"))
    words = [UDWord(tokens[token], list(columns), multiword)
             for token, multiword, columns in zip(tb.word_tok.tolist(), tb.word_is_mwt.tolist(), fields)]
    for word, h in zip(words, head.tolist()):
        if h >= 0:
            word.parent = words[h]
    for word in words:
        if word.parent is not None and word.is_functional_deprel:
            word.parent.functional_children.append(word)
    return words


def _official(error: ConllEvalError) -> str:
    text = getattr(error, "official", None)
    return text if text else getattr(error, "message", str(error))


def _os_error(error: InputError) -> OSError:
    """The OSError ``open()`` raised for a file conll_eval could not read."""
    cause = error.__cause__
    if isinstance(cause, OSError) and cause.errno is not None:
        return OSError(cause.errno, cause.strerror, cause.filename)  # the errno's subclass
    return OSError(str(error))


def load_conllu(file: Union[TextIO, io.BufferedIOBase], profile: str = "conll18") -> UDRepresentation:
    """Load from an open file (text or binary), like the official ``load_conllu``."""
    try:
        if isinstance(file, io.TextIOBase) or hasattr(file, "encoding"):
            data = file.read()
            stream = io.BytesIO(data.encode("utf-8") if isinstance(data, str) else data)
            stream.name = getattr(file, "name", "<stream>")
            treebank = _load(stream, profile, _VOCAB)
        else:
            treebank = _load(file, profile, _VOCAB)
    except InputError as exc:
        raise UDError(_official(exc), exc) from exc
    return UDRepresentation(treebank, profile)


def load_conllu_file(path: str, profile: str = "conll18") -> UDRepresentation:
    """Load a file by path, like the official ``load_conllu_file``."""
    try:
        treebank = _load(path, profile, _VOCAB)
    except InputError as exc:
        if exc.code in _FILE_CODES:
            raise _os_error(exc) from exc  # officially open() raises
        raise UDError(_official(exc), exc) from exc
    return UDRepresentation(treebank, profile)


def evaluate(gold_ud: UDRepresentation, system_ud: UDRepresentation,
             deprel_weights: Optional[Dict[str, float]] = None) -> Dict[str, Score]:
    """Metric name -> Score (``precision``, ``recall``, ``f1``, ``aligned_accuracy`` and the counts
    ``correct``, ``gold_total``, ``system_total``, ``aligned_total``), in the official order.

    Scores the columnar treebanks; the per-word objects of the representations are not built.
    """
    try:
        result = _evaluate(gold_ud.treebank, system_ud.treebank, Settings(gold_ud.profile),
                           weights=deprel_weights)
    except AlignmentError as exc:
        raise UDError(_official(exc), exc) from exc
    return dict(result.scores)


def evaluate_wrapper(args) -> Dict[str, Score]:
    """Like the official ``evaluate_wrapper``: ``args.gold_file``, ``args.system_file``."""
    profile = getattr(args, "profile", "conll18")
    gold = load_conllu_file(args.gold_file, profile)
    system = load_conllu_file(args.system_file, profile)
    return evaluate(gold, system)


def build_evaluation_table(evaluation: Dict[str, Score], verbose: bool, counts: bool,
                           enhanced: Union[bool, str] = False, profile: Optional[str] = None) -> str:
    """The text the official script prints (``-c`` table, else ``-v`` table, else the default
    lines), without the final newline, like stanza's ``build_evaluation_table``.

    ``profile`` (default: ``conll17`` if the evaluation has ``Feats`` rather than ``UFeats``,
    else ``conll18``) picks the layout; a string in ``enhanced``'s place is taken as the
    profile.  The enhanced-dependency metrics (ELAS, EULAS) are not computed by conll_eval,
    so ``enhanced=True`` raises :class:`~conll_eval.errors.UsageError`.
    """
    if isinstance(enhanced, str):
        profile, enhanced = enhanced, False
    if enhanced:
        raise UsageError("conll_eval does not compute the enhanced-dependency metrics (ELAS, EULAS); "
                         "pass enhanced=False")
    if profile is None:
        profile = "conll17" if "Feats" in evaluation and "UFeats" not in evaluation else "conll18"
    if counts:
        text = counts_table(evaluation)
    elif verbose:
        text = verbose_table(evaluation, profile)
    else:
        text = default_lines(evaluation, profile)
    return text[:-1] if text.endswith("\n") else text


def main(argv: Optional[Sequence[str]] = None) -> None:
    """The official script's command line (``gold_file system_file [-v] [-c]``), scored by
    conll_eval; prints what ``conll18_ud_eval.py`` prints.  Errors propagate as officially
    (:class:`UDError`, ``OSError``); ``python -m conll_eval.compat`` (:func:`command_line`)
    reports them without a traceback."""
    parser = _parser()
    args = parser.parse_args(argv)
    evaluation = evaluate_wrapper(args)
    print(build_evaluation_table(evaluation, args.verbose, args.counts, profile="conll18"))


def command_line(argv: Optional[Sequence[str]] = None) -> int:
    """``python -m conll_eval.compat``: :func:`main`, and the exit status; an error's
    traceback is left out (``--debug`` keeps it) but its last line, the one the official
    script's traceback ends with (``UDError: The CoNLL-U line does not contain ...``), is
    printed on stderr with the official status 1.  A reader that left (``| head``) ends the
    output quietly (status 0, as ``conll_eval``)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in argv
    try:
        main([a for a in argv if a != "--debug"])
        sys.stdout.flush()
    except BrokenPipeError:
        # the rest goes nowhere: Python's own flush at exit would fail again
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except (UDError, OSError) as exc:
        if debug:
            raise
        # the official text, with what a terminal would act on spelt out (\x1b, ...)
        sys.stderr.write(printable(f"{type(exc).__name__}: {exc}", keep_newlines=True) + "\n")
        return 1
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        description="Score a CoNLL-U system file against a gold file with conll_eval, with the "
                    "command line and output of the official CoNLL 2018 scorer.")
    parser.add_argument("gold_file", type=str, help="the gold CoNLL-U file")
    parser.add_argument("system_file", type=str, help="the system CoNLL-U file")
    parser.add_argument("--verbose", "-v", default=False, action="store_true",
                        help="print the table of every metric")
    parser.add_argument("--counts", "-c", default=False, action="store_true",
                        help="print the raw counts (correct, gold, predicted, aligned) of every metric")
    parser.epilog = ("An invalid file prints the official message (UDError: ...) and exits 1; "
                     "--debug adds the traceback.")
    return parser


if __name__ == "__main__":
    sys.exit(command_line())

"""Drop-in replacement for the official scorers' module API.

Training loops written against ``conll18_ud_eval`` (stanza, UDPipe, Trankit style) switch
by changing one import::

    from conll_eval import compat as ud_eval
    gold = ud_eval.load_conllu_file("gold.conllu")
    system = ud_eval.load_conllu_file("system.conllu")
    evaluation = ud_eval.evaluate(gold, system)
    print(evaluation["LAS"].f1)

Errors are raised as :class:`UDError` carrying the official message text (``str(e)``);
the underlying conll_eval error, with file, line and code, is its ``__cause__`` and
``e.error``.  ``profile`` selects ``conll18`` (default), ``conll17`` or ``iwpt`` behaviour.
"""
from __future__ import annotations

import io
from typing import Dict, Optional, TextIO, Union

from .errors import AlignmentError, ConllEvalError, InputError
from .evaluate import Settings, evaluate as _evaluate
from .report.official import counts_table, default_lines, verbose_table
from .reader import load as _load
from .stats import Score
from .treebank import Treebank, Vocab

__all__ = ["UDError", "UDRepresentation", "Score", "load_conllu", "load_conllu_file", "evaluate",
           "evaluate_wrapper", "build_evaluation_table"]

# One vocabulary for every file loaded through this module, so any two of them can be compared.
_VOCAB = Vocab()


class UDError(Exception):
    """The official scorers' error; ``str()`` is the official message text."""

    def __init__(self, message: str, error: Optional[ConllEvalError] = None):
        super().__init__(message)
        self.error = error


class UDRepresentation:
    """A loaded file (wraps a :class:`~conll_eval.treebank.Treebank`)."""

    def __init__(self, treebank: Treebank, profile: str):
        self.treebank = treebank
        self.profile = profile

    @property
    def characters(self) -> str:
        return self.treebank.text

    def __len__(self) -> int:
        return self.treebank.n_words


def _official(error: ConllEvalError) -> str:
    text = getattr(error, "official", None)
    return text if text else getattr(error, "message", str(error))


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
        if exc.code in ("file-not-found", "not-a-file", "unreadable"):
            raise  # the official script lets open() raise here
        raise UDError(_official(exc), exc) from exc
    return UDRepresentation(treebank, profile)


def evaluate(gold_ud: UDRepresentation, system_ud: UDRepresentation,
             deprel_weights: Optional[Dict[str, float]] = None) -> Dict[str, Score]:
    """Metric name -> Score (``precision``, ``recall``, ``f1``, ``aligned_accuracy`` and the counts
    ``correct``, ``gold_total``, ``system_total``, ``aligned_total``)."""
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
                           profile: str = "conll18") -> str:
    """The text the official script prints (``-v``, ``-c`` or the default lines)."""
    if counts:
        return counts_table(evaluation)
    if verbose:
        return verbose_table(evaluation, profile)
    return default_lines(evaluation, profile)

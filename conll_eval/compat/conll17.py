"""Drop-in for the CoNLL 2017 scorer's module API (``conll17_ud_eval`` v1.3): ``load_conllu(file)``,
``load_conllu_file(path)``, ``evaluate(gold_ud, system_ud, deprel_weights=None)`` with the 2017
metrics (``Feats``, ``CLAS`` by ``CLAS_weights``, ``WeightedLAS``), ``load_deprel_weights``,
``evaluate_wrapper`` and ``main`` (``-v``, ``-w weights_file``), scored by conll_eval.

Change ``import conll17_ud_eval as ud_eval`` to ``from conll_eval.compat import conll17 as
ud_eval``; ``CLAS_weights`` is the module global the 2017 script reads when it evaluates."""
from __future__ import annotations
from __future__ import division, print_function  # the official module's names (import *)

import argparse
import io
import sys
import unittest
from typing import Dict, Optional, Sequence

from .. import limits
from ..report.official import default_lines, verbose_table
from ..stats import Score
from ._base import (DEPREL, DEPS, FEATS, FORM, HEAD, ID, LEMMA, MISC, ORDERS, UPOS, XPOS, UDError,
                    UDRepresentation, argv_or_sys, command_line as _command_line, invoked_prog,
                    load_path, load_stream, score)

__all__ = ["ID", "FORM", "LEMMA", "UPOS", "XPOS", "FEATS", "HEAD", "DEPREL", "DEPS", "MISC",
           "CLAS_weights", "UDError", "load_conllu", "load_conllu_file", "evaluate",
           "load_deprel_weights", "evaluate_wrapper", "main",
           "argparse", "io", "sys", "unittest", "division", "print_function"]

#: the relations CLAS weighs 0 (function words and punctuation), as in the 2017 script; it is
#: read when :func:`evaluate` runs, so a client's change counts
CLAS_weights = {"aux": 0.0, "case": 0.0, "cc": 0.0, "clf": 0.0, "cop": 0.0, "det": 0.0,
                "mark": 0.0, "punct": 0.0}
_DEFAULT_CLAS_WEIGHTS = dict(CLAS_weights)


def load_conllu(file) -> UDRepresentation:
    """Load from an open file (text or binary), like the 2017 ``load_conllu(file)`` (FEATS
    compared as written; only ASCII spaces removed from FORMs)."""
    return load_stream(file, "conll17")


def load_conllu_file(path: str) -> UDRepresentation:
    """Load a file by path, like the 2017 ``load_conllu_file(path)``."""
    return load_path(path, "conll17")


def evaluate(gold_ud: UDRepresentation, system_ud: UDRepresentation,
             deprel_weights: Optional[Dict[str, float]] = None) -> Dict[str, Score]:
    """Metric name -> Score, the 2017 metrics in the 2017 order (``Tokens`` ... ``LAS``,
    ``CLAS``; ``WeightedLAS`` when ``deprel_weights`` is given: each universal relation
    weighs its weight, 1.0 if it has none)."""
    scores = score(gold_ud, system_ud, ORDERS["conll17"], deprel_weights)
    if CLAS_weights != _DEFAULT_CLAS_WEIGHTS:  # a client's weights: CLAS is LAS weighted by them
        scores["CLAS"] = score(gold_ud, system_ud, ("LAS",), dict(CLAS_weights))["WeightedLAS"]
    return scores


def load_deprel_weights(weights_file) -> Optional[Dict[str, float]]:
    """``relation weight`` lines of an open file -> dict (``#`` comments and blank lines
    skipped); None for None.  A line without two columns raises ValueError with the 2017
    text, a weight that is no number float()'s ValueError.  A file's lines are read with
    ``readline`` bounded by MAX_LINE_BYTES: a longer line raises ValueError (conll_eval's
    limit; ``-w /dev/zero`` ends) after reading at most that much of it."""
    if weights_file is None:
        return None
    limit = limits.MAX_LINE_BYTES
    readline = getattr(weights_file, "readline", None)
    lines = iter(lambda: readline(limit + 2), "") if callable(readline) else iter(weights_file)
    weights: Dict[str, float] = {}
    for number, line in enumerate(lines, 1):
        if len(line.rstrip("\r\n")) > limit:
            raise ValueError(f"Line {number} of the UD Relations weights file is longer than "
                             f"{limit:,} characters, conll_eval's limit (raise "
                             f"CONLL_EVAL_MAX_LINE_BYTES to read it)")
        if line.startswith("#") or not line.strip():
            continue
        columns = line.rstrip("\r\n").split()
        if len(columns) != 2:
            raise ValueError(f"Expected two columns in the UD Relations weights file on line '{line}'")
        weights[columns[0]] = float(columns[1])
    return weights


def evaluate_wrapper(args) -> Dict[str, Score]:
    """Like the 2017 ``evaluate_wrapper``: ``args.gold_file``, ``args.system_file`` and
    ``args.weights`` (an open weights file, or None)."""
    gold = load_conllu_file(args.gold_file)
    system = load_conllu_file(args.system_file)
    return evaluate(gold, system, load_deprel_weights(getattr(args, "weights", None)))


def main(argv: Optional[Sequence[str]] = None) -> None:
    """The 2017 command line (``gold_file system_file [-v] [-w weights_file]``; ``-w``
    implies ``-v`` and adds WeightedLAS), printing what ``conll17_ud_eval.py`` prints."""
    parser = argparse.ArgumentParser(
        prog=invoked_prog(),
        description="Score a CoNLL-U system file against a gold file with conll_eval, with the "
                    "command line and output of the CoNLL 2017 scorer.")
    parser.add_argument("gold_file", type=str, help="Name of the CoNLL-U file with the gold data.")
    parser.add_argument("system_file", type=str, help="Name of the CoNLL-U file with the predicted data.")
    parser.add_argument("--weights", "-w", type=argparse.FileType("r"), default=None,
                        metavar="deprel_weights_file",
                        help="Compute WeightedLAS using given weights for Universal Dependency Relations.")
    parser.add_argument("--verbose", "-v", default=0, action="count", help="Print all metrics.")
    args = parser.parse_args(argv_or_sys(argv))
    if args.weights is not None and not args.verbose:
        args.verbose = 1
    evaluation = evaluate_wrapper(args)
    text = verbose_table(evaluation, "conll17") if args.verbose else default_lines(evaluation, "conll17")
    print(text, end="")


def command_line(argv: Optional[Sequence[str]] = None) -> int:
    """``python -m conll_eval.compat.conll17``: :func:`main` and the exit status, errors as the
    last line of the official traceback (status 1); ``--debug`` keeps the traceback."""
    return _command_line(main, argv)


if __name__ == "__main__":
    sys.exit(command_line())

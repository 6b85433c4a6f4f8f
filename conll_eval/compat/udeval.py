"""Drop-in for udtools' scorer module ``udtools.udeval`` (the UD scorer, ``udeval`` command):
``load_conllu(file, path, treebank_type)``, ``load_conllu_file(path, treebank_type=None)``,
``evaluate`` with ELAS and EULAS and udeval's longer text-mismatch message,
``evaluate_wrapper``, ``build_evaluation_table(evaluation, verbose=True, counts=False,
enhanced=False)``, and ``main`` (the ``udeval`` command: udtools' ``main_eval``).

Change ``from udtools import udeval`` to ``from conll_eval.compat import udeval`` (stanza
calls ``udeval.load_conllu(f, '', {})``); ``path`` names the file in the mismatch message."""
from __future__ import annotations
from __future__ import division, print_function  # the official module's names (import *)

import io
import sys
import unicodedata
import unittest
from typing import Dict, Mapping, Optional, Sequence

from ..stats import Score
from . import _enhanced_api
from ._enhanced_api import process_enhanced_deps
from ._base import (DEFAULT_SETS, DEPREL, DEPS, FEATS, FORM, HEAD, ID, LEMMA, MISC, ORDERS, UPOS,
                    XPOS, UDError, UDRepresentation, argv_or_sys, command_line as _command_line,
                    load_path, load_stream, mismatch_udeval, module_sets, score)

__all__ = ["ID", "FORM", "LEMMA", "UPOS", "XPOS", "FEATS", "HEAD", "DEPREL", "DEPS", "MISC",
           "CONTENT_DEPRELS", "FUNCTIONAL_DEPRELS", "UNIVERSAL_FEATURES", "CASE_DEPRELS",
           "UNIVERSAL_DEPREL_EXTENSIONS", "process_enhanced_deps", "UDError", "load_conllu", "load_conllu_file", "evaluate",
           "evaluate_wrapper", "build_evaluation_table", "main",
           "io", "sys", "unicodedata", "unittest", "division", "print_function"]

# The official sets: plain sets a client may extend (read when a file is loaded).
CONTENT_DEPRELS = set(DEFAULT_SETS[0])
FUNCTIONAL_DEPRELS = set(DEFAULT_SETS[1])
UNIVERSAL_FEATURES = set(DEFAULT_SETS[2])
#: the relations whose case subtype ``--enhancements 6`` removes, and the subtypes it keeps
#: (udeval's names; conll_eval applies its own copy of the rule)
CASE_DEPRELS = {"obl", "nmod", "conj", "advcl"}
UNIVERSAL_DEPREL_EXTENSIONS = {"pass", "relcl", "xsubj"}

PROFILE = "udeval"


def load_conllu(file, path: str, treebank_type: Mapping) -> UDRepresentation:
    """Load from an open file (text or binary), like udeval's ``load_conllu(file, path,
    treebank_type)``: ``path`` names the file in messages, ``treebank_type`` is a dict of
    switches (``{}``: none)."""
    return load_stream(file, PROFILE, treebank_type, path, module_sets(globals()))


def load_conllu_file(path: str, treebank_type: Optional[Mapping] = None) -> UDRepresentation:
    """Load a file by path, like udeval's ``load_conllu_file(path, treebank_type=None)``."""
    return load_path(path, PROFILE, treebank_type, module_sets(globals()))


def evaluate(gold_ud: UDRepresentation, system_ud: UDRepresentation) -> Dict[str, Score]:
    """Metric name -> Score in udeval's order (ELAS and EULAS after LAS); texts that differ
    raise UDError with udeval's message (both files' last token reproduced in the other,
    its line, the tokens around it)."""
    return score(gold_ud, system_ud, ORDERS[PROFILE], mismatch=mismatch_udeval)


def evaluate_wrapper(args) -> Dict[str, Score]:
    """Like udeval's ``evaluate_wrapper``: the files of ``args`` loaded with the
    ``treebank_type`` its options make."""
    treebank_type = _enhanced_api.treebank_type_of(args)
    return evaluate(load_conllu_file(args.gold_file, treebank_type),
                    load_conllu_file(args.system_file, treebank_type))


def build_evaluation_table(evaluation: Dict[str, Score], verbose=True, counts=False,
                           enhanced=False) -> str:
    """The text udeval prints, without the final newline (udeval's defaults: the verbose
    table, without ELAS and EULAS)."""
    return _enhanced_api.enhanced_table(evaluation, verbose, counts, enhanced, PROFILE)


def main(argv: Optional[Sequence[str]] = None) -> int:
    """The ``udeval`` command (udtools' ``main_eval`` with its ``parse_args_scorer``
    options); prints what it prints and returns 0 as it does."""
    args = _enhanced_api.parser("Score a CoNLL-U system file against a gold file with conll_eval, "
                                "with the command line and output of udtools' udeval.",
                                argv_or_sys(argv))
    evaluation = evaluate_wrapper(args)
    print(build_evaluation_table(evaluation, args.verbose, args.counts, args.enhanced))
    return 0


def command_line(argv: Optional[Sequence[str]] = None) -> int:
    """``python -m conll_eval.compat.udeval``: :func:`main` and the exit status, errors as the
    last line of the official traceback (status 1); ``--debug`` keeps the traceback."""
    return _command_line(main, argv)


if __name__ == "__main__":
    sys.exit(command_line())

"""Drop-in replacements for the official scorers' module APIs; this package itself is the
``conll18_ud_eval`` drop-in, and ``conll17``, ``iwpt20`` and ``udeval`` are the others.

Training loops written against ``conll18_ud_eval`` (stanza, UDPipe, Trankit style) switch
by changing one import::

    from conll_eval import compat as ud_eval
    gold = ud_eval.load_conllu_file("gold.conllu")
    system = ud_eval.load_conllu_file("system.conllu")
    evaluation = ud_eval.evaluate(gold, system)
    print(evaluation["LAS"].f1)

The module has the official public names: the column indices ``ID`` ... ``MISC``,
``UNIVERSAL_FEATURES``, ``CONTENT_DEPRELS``, ``FUNCTIONAL_DEPRELS`` (plain sets, read when a
file is loaded, as officially: a client's additions count for the files loaded after them),
``UDError``, ``load_conllu``, ``load_conllu_file``, ``evaluate``, ``evaluate_wrapper``,
``build_evaluation_table`` (stanza's addition) and ``main`` (``python -m conll_eval.compat
[-v] [-c] gold system`` prints what ``conll18_ud_eval.py`` prints; on an invalid or missing
file the last line of its traceback, ``UDError: <official message>``, and exit 1, without the
traceback unless ``--debug``; a reader that leaves early, ``| head``, is no error).
``from conll_eval.compat import *`` gives what the official module's ``import *`` gives
(``io``, ``sys``, ``unittest``, ... too), except its unit tests.

``load_conllu`` takes what real callers pass: ``(file)``; stanza's ``(file, path,
treebank_type)`` (its vendored copies and udtools' udeval); the IWPT scorer's ``(file,
treebank_type)``.  A ``treebank_type`` dict's ``multiple_roots_okay`` and ``no_empty_nodes``
are honoured (the enhancement switches change only ELAS/EULAS, which conll18 does not
score); ``profile=`` (``conll18`` default, ``conll17``, ``iwpt``, ``udeval``) picks another
scorer's rules.  File objects may be text or binary (or anything with ``readline``); a lone
surrogate in a text stream is a character, as officially.

A :class:`UDRepresentation` wraps conll_eval's columnar
:class:`~conll_eval.treebank.Treebank`; its official attributes ``characters``, ``tokens``,
``words`` and ``sentences`` are built from the columns on first access only.
:func:`evaluate` never builds them: it scores the columns, so it is as fast as
``conll_eval`` itself, and editing the objects does not change the scores.

Errors are raised as :class:`UDError` carrying the official message text (``str(e)``);
the underlying conll_eval error, with file, line and code, is its ``__cause__`` and
``e.error``.  A file that cannot be opened raises the ``OSError`` that ``open()`` raises,
as officially.
"""
from __future__ import annotations
from __future__ import division, print_function  # the official module's names (import *)

import argparse
import io
import sys
import unicodedata
import unittest
from typing import Dict, Mapping, Optional, Sequence, Union, cast

from ..errors import UsageError
from ..io.profiles import PROFILE_NAMES
from ..report.official import counts_table, default_lines, verbose_table
from ..stats import Score
from ._base import (DEFAULT_SETS, DEPREL, DEPS, FEATS, FORM, HEAD, ID, LEMMA, MISC, ORDERS, UPOS,
                    XPOS, UDError, UDRepresentation, UDSpan, UDWord, argv_or_sys, command_line as
                    _command_line, invoked_prog, load_path, load_stream, mismatch_udeval, module_sets,
                    score)

__all__ = ["ID", "FORM", "LEMMA", "UPOS", "XPOS", "FEATS", "HEAD", "DEPREL", "DEPS", "MISC",
           "CONTENT_DEPRELS", "FUNCTIONAL_DEPRELS", "UNIVERSAL_FEATURES",
           "UDError", "UDRepresentation", "UDSpan", "UDWord", "Score", "load_conllu",
           "load_conllu_file", "evaluate", "evaluate_wrapper", "build_evaluation_table", "main",
           # what the official module's ``import *`` gives besides its API
           "argparse", "io", "sys", "unicodedata", "unittest", "division", "print_function"]

# The official sets: plain sets a client may extend (read when a file is loaded).
CONTENT_DEPRELS = set(DEFAULT_SETS[0])
FUNCTIONAL_DEPRELS = set(DEFAULT_SETS[1])
UNIVERSAL_FEATURES = set(DEFAULT_SETS[2])

_NOT_GIVEN = object()


def _profile_of(profile: Optional[str]) -> str:
    if profile is None:
        return "conll18"
    if profile not in PROFILE_NAMES:
        raise UsageError(f"unknown profile {profile!r}; choose one of {', '.join(PROFILE_NAMES)}")
    return profile


def load_conllu(file, path_or_type=_NOT_GIVEN, treebank_type=_NOT_GIVEN, *,
                profile: Optional[str] = None) -> UDRepresentation:
    """Load from an open file (text or binary), like the official ``load_conllu(file)``.

    Also takes what vendored copies are called with: ``(file, path, treebank_type)``
    (stanza, udtools' udeval: ``path`` names the file in messages) and ``(file,
    treebank_type)`` (the IWPT scorer); a profile name in the second place is taken as
    ``profile`` (conll_eval's earlier signature)."""
    path = ""
    if treebank_type is not _NOT_GIVEN:
        path = path_or_type
    elif path_or_type is _NOT_GIVEN:
        treebank_type = None
    elif isinstance(path_or_type, str) and path_or_type in PROFILE_NAMES and profile is None:
        profile, treebank_type = path_or_type, None
    else:
        treebank_type = path_or_type
    return load_stream(file, _profile_of(profile), treebank_type, path or "", module_sets(globals()))


def load_conllu_file(path: str, treebank_type: Union[None, Mapping, str] = None, *,
                     profile: Optional[str] = None) -> UDRepresentation:
    """Load a file by path, like the official ``load_conllu_file(path)`` (the IWPT scorer's
    and udeval's ``treebank_type`` is taken too; a profile name there is ``profile``)."""
    if isinstance(treebank_type, str) and profile is None:
        profile, treebank_type = treebank_type, None
    return load_path(path, _profile_of(profile), cast(Optional[Mapping], treebank_type),
                     module_sets(globals()))


def evaluate(gold_ud: UDRepresentation, system_ud: UDRepresentation,
             deprel_weights: Optional[Dict[str, float]] = None) -> Dict[str, Score]:
    """Metric name -> Score (``precision``, ``recall``, ``f1``, ``aligned_accuracy`` and the counts
    ``correct``, ``gold_total``, ``system_total``, ``aligned_total``), in the official order
    of the files' profile.

    Scores the columnar treebanks; the per-word objects of the representations are not built.
    """
    profile = gold_ud.profile
    return score(gold_ud, system_ud, ORDERS[profile], deprel_weights,
                 mismatch_udeval if profile == "udeval" else None)


def evaluate_wrapper(args) -> Dict[str, Score]:
    """Like the official ``evaluate_wrapper``: ``args.gold_file``, ``args.system_file``."""
    profile = getattr(args, "profile", None)
    gold = load_conllu_file(args.gold_file, profile=profile)
    system = load_conllu_file(args.system_file, profile=profile)
    return evaluate(gold, system)


def build_evaluation_table(evaluation: Dict[str, Score], verbose: bool, counts: bool,
                           enhanced: Union[bool, str] = False, profile: Optional[str] = None) -> str:
    """The text the official script prints (``-c`` table, else ``-v`` table, else the default
    lines), without the final newline, like stanza's ``build_evaluation_table``.

    ``profile`` (default: ``conll17`` if the evaluation has ``Feats`` rather than ``UFeats``,
    else ``conll18``) picks the layout; a string in ``enhanced``'s place is taken as the
    profile.  ``enhanced=True`` adds ELAS and EULAS (as the IWPT scorer and udeval print them),
    which an evaluation of the iwpt or udeval profile holds; else it raises
    :class:`~conll_eval.errors.UsageError`.
    """
    if isinstance(enhanced, str):
        profile, enhanced = enhanced, False
    if enhanced and "ELAS" not in evaluation:
        raise UsageError("no enhanced-dependency metrics (ELAS, EULAS) in this evaluation: load the "
                         "files with profile='iwpt' or 'udeval', or use conll_eval.compat.iwpt20 / .udeval")
    if profile is None:
        profile = "conll17" if "Feats" in evaluation and "UFeats" not in evaluation else \
            ("iwpt" if enhanced else "conll18")
    return table(evaluation, verbose, counts, profile, enhanced)


def table(evaluation: Dict[str, Score], verbose: bool, counts: bool, profile: str,
          enhanced: bool = False) -> str:
    """The official text of ``profile`` for these flags, rows in the official order (ELAS and
    EULAS last, only when ``enhanced``), without the final newline."""
    rows = [name for name in ORDERS[profile] if name not in ("ELAS", "EULAS")]
    if enhanced:
        rows += ["ELAS", "EULAS"]
    if "WeightedLAS" in evaluation:
        rows.append("WeightedLAS")
    scores = {name: evaluation[name] for name in rows}
    if counts:
        text = counts_table(scores)
    elif verbose:
        text = verbose_table(scores, profile)
    else:
        text = default_lines(scores, profile)
    return text[:-1] if text.endswith("\n") else text


def main(argv: Optional[Sequence[str]] = None) -> None:
    """The official script's command line (``gold_file system_file [-v] [-c]``), scored by
    conll_eval; prints what ``conll18_ud_eval.py`` prints.  Errors propagate as officially
    (:class:`UDError`, ``OSError``); ``python -m conll_eval.compat`` (:func:`command_line`)
    reports them without a traceback."""
    args = _parser().parse_args(argv_or_sys(argv))
    evaluation = evaluate_wrapper(args)
    print(build_evaluation_table(evaluation, args.verbose, args.counts, profile="conll18"))


def command_line(argv: Optional[Sequence[str]] = None) -> int:
    """``python -m conll_eval.compat``: :func:`main` and the exit status, errors as the last
    line of the official traceback (``UDError: ...``, status 1); ``--debug`` keeps the traceback."""
    return _command_line(main, argv)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=invoked_prog(),
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

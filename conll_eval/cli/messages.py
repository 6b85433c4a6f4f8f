"""The one form of every line conll_eval writes to stderr about a problem, and the function
that puts a usage error into it.

A problem line is ``conll_eval: error [code] message`` (or ``conll_eval <command>: ...``;
``warning:`` and ``note:`` instead of ``error [code]``), or a located input error
``path:line: error [code] message``.  The drop-in outputs (MaltEval's ``Evaluation aborted``,
mooteval's messages, the ``--tira`` and official texts) keep their peers' words instead.
"""
from __future__ import annotations

import re
from typing import Dict

from ..errors import printable

__all__ = ["PROBLEM_LINE", "problem_line", "invoked_as", "program_name", "DROP_IN_NAMES"]

#: the console scripts that run a subcommand under their own name (setup.cfg): their lines,
#: usage and help name them, as the tool they stand in for names itself
DROP_IN_NAMES = {"malteval": "analyze", "mooteval": "tagger", "conll-eval-udvalidate": "validate",
                 "conll-eval-validate": "validate"}

#: the house form of a problem line (tests check stderr against it)
PROBLEM_LINE = re.compile(r"((?:conll_eval(?: [a-z]+)?|" + "|".join(map(re.escape, DROP_IN_NAMES))
                          + r"): (?:error \[[a-z0-9-]+\] |warning: |note: )"
                          r"|\S.*?: (?:error|warning) \[[^\]\n]+\] )")

#: subcommand -> the drop-in name this process runs it under (set by :mod:`.dropins`)
_INVOKED_AS: Dict[str, str] = {}


def invoked_as(command: str, name: str) -> None:
    """Name ``command`` ``name`` in every line, usage and help of this process: the drop-in
    ``mooteval`` runs ``tagger`` and speaks as ``mooteval``."""
    _INVOKED_AS[command] = name


def program_name(command: str) -> str:
    """Who speaks for ``command``: ``conll_eval <command>`` (``conll_eval`` for ``""``,
    scoring a pair), or the drop-in name it was invoked under (:func:`invoked_as`)."""
    return _INVOKED_AS.get(command) or "conll_eval" + (f" {command}" if command else "")

#: who speaks at the head of a message raised with its own prefix: ``conll_eval suite: ``,
#: argparse's ``conll_eval suite: error: `` (or a drop-in's prog: ``mooteval: error: ``)
_SPEAKER = re.compile(r"(conll_eval(?: [a-z]+)?|" + "|".join(map(re.escape, DROP_IN_NAMES))
                      + r"): (?:error: )?")


def problem_line(command: str, message: str, code: str) -> str:
    """``message`` (a usage error's text, with or without its own ``conll_eval <command>: ``
    or argparse's ``... error: `` in front) as one problem line of ``command`` (``""`` for
    scoring a pair): ``conll_eval suite: error [usage] --jobs must be at least 1`` and a
    newline, spoken by :func:`program_name` (``mooteval: error [usage] ...`` in the drop-in);
    input text in it is spelt out (:func:`conll_eval.errors.printable`)."""
    head = _SPEAKER.match(message)
    if head is not None:
        speaker, message = head.group(1), message[head.end():]
        command = DROP_IN_NAMES.get(speaker) or speaker.partition(" ")[2]
    if command and message.startswith(f"{command}: "):  # "analyze: ..." raised inside analyze
        message = message[len(command) + 2:]
    return printable(f"{program_name(command)}: error [{code}] {message}", keep_newlines=True) + "\n"

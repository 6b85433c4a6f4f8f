"""The one form of every line conll_eval writes to stderr about a problem, and the function
that puts a usage error into it.

A problem line is ``conll_eval: error [code] message`` (or ``conll_eval <command>: ...``;
``warning:`` and ``note:`` instead of ``error [code]``), or a located input error
``path:line: error [code] message``.  The drop-in outputs (MaltEval's ``Evaluation aborted``,
mooteval's messages, the ``--tira`` and official texts) keep their peers' words instead.
"""
from __future__ import annotations

import re

from ..errors import printable

__all__ = ["PROBLEM_LINE", "problem_line"]

#: the house form of a problem line (tests check stderr against it)
PROBLEM_LINE = re.compile(r"(conll_eval(?: [a-z]+)?: (?:error \[[a-z0-9-]+\] |warning: |note: )"
                          r"|\S.*?: (?:error|warning) \[[^\]\n]+\] )")

#: who speaks at the head of a message raised with its own prefix: ``conll_eval suite: ``,
#: argparse's ``conll_eval suite: error: ``
_SPEAKER = re.compile(r"(conll_eval(?: [a-z]+)?): (?:error: )?")


def problem_line(command: str, message: str, code: str) -> str:
    """``message`` (a usage error's text, with or without its own ``conll_eval <command>: ``
    or argparse's ``... error: `` in front) as one problem line of ``command`` (``""`` for
    scoring a pair): ``conll_eval suite: error [usage] --jobs must be at least 1`` and a
    newline; input text in it is spelt out (:func:`conll_eval.errors.printable`)."""
    speaker = "conll_eval" + (f" {command}" if command else "")
    head = _SPEAKER.match(message)
    if head is not None:
        speaker, message = head.group(1), message[head.end():]
    name = speaker.partition(" ")[2]
    if name and message.startswith(f"{name}: "):  # "analyze: ..." raised inside analyze
        message = message[len(name) + 2:]
    return printable(f"{speaker}: error [{code}] {message}", keep_newlines=True) + "\n"

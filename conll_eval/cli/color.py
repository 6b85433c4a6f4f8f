"""Colour on a terminal: failed treebanks and missed ``--fail-under`` bars in red.

``--color auto`` (the default) colours a stream only when it is a terminal, ``TERM`` is not
``dumb`` and ``NO_COLOR`` is unset or empty (https://no-color.org); ``always`` colours
whatever the stream is, ``NO_COLOR`` too (a command-line option overrides the variable, as
no-color.org asks); ``never`` never does.  Each stream decides for itself (the table on
stdout, the bar lines on stderr).  Only the text a command prints gets colour: never JSON,
TSV, CSV, Markdown, LaTeX or HTML, never a file written with ``-o``.
"""
from __future__ import annotations

import os
import re
from typing import Mapping, Optional, TextIO

from .common import is_terminal

__all__ = ["COLOR_CHOICES", "RED", "RESET", "wants_color", "red", "red_failures"]

#: the values of ``--color``
COLOR_CHOICES = ("auto", "always", "never")
#: SGR sequences: red foreground, and back to the terminal's default
RED, RESET = "\x1b[31m", "\x1b[0m"

#: a failed treebank in a suite's text tables: the status cell ending a one-system row
#: (``FAILED [cycle]``), a leaderboard's score cell marked ``!`` (``0.00!``, two spaces or
#: more before it as between columns), and the line that heads the failures' list
_FAILED = re.compile(r"FAILED \[[a-z0-9-]+\]$|(?<=  )\d+\.\d\d!(?= |$)|^(?:.*: )?Failed treebanks, .*$",
                     re.MULTILINE)


def wants_color(choice: str, stream: Optional[TextIO],
                environ: Optional[Mapping[str, str]] = None) -> bool:
    """Whether text written to ``stream`` gets colour under ``--color choice`` (see the
    module's docstring); ``environ`` defaults to the process's environment."""
    if choice == "never":
        return False
    if choice == "always":
        return True
    environ = os.environ if environ is None else environ
    if environ.get("NO_COLOR") or environ.get("TERM") == "dumb":
        return False
    return is_terminal(stream)


def red(line: str, color: bool) -> str:
    """``line`` in red when ``color`` (a line without its newline: the reset comes before it)."""
    return f"{RED}{line}{RESET}" if color else line


def red_failures(text: str, color: bool) -> str:
    """A suite's text output with its failed treebanks in red when ``color``: the status
    cells ``FAILED [code]``, the leaderboards' ``0.00!`` cells and the ``Failed treebanks``
    line; column widths are kept (the sequences take no room on a terminal)."""
    return _FAILED.sub(lambda found: red(found.group(0), True), text) if color else text

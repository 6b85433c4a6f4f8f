"""How the validator reads a byte stream: pieces cut where its two paths can take them, in work
linear in the stream whatever its shape (no piece is searched or copied more than a few times),
and lines held to :data:`conll_eval.limits.MAX_LINE_BYTES`.

:class:`Cutter` turns the stream's chunks (of any size) into ``(kind, bytes)`` pieces, in order,
which together are the stream up to its end or up to a line longer than the limit:

* :data:`WHOLE`: ends with an empty line (``\\n\\n``, whose first LF may end the piece
  before), so the next piece starts a sentence;
* :data:`PARTIAL`: a long stretch without an empty line, cut after a line end (LF, or a CR
  that is not half of a CRLF), for the line-by-line path, which carries the sentence over.
  A stretch of mostly word lines (one huge sentence) is held for a whole piece, which the
  screen takes at a fraction of the line-by-line path's time and memory, up to
  ``sentence_bytes``; past that, or when most of its lines are comments, it is cut;
* :data:`TAIL`: the stream's last bytes after its last empty line (the end of the file);
* :data:`TOO_LONG`: the bytes before a line longer than the limit (which start at a line
  start), found after reading at most the limit and a chunk of it; nothing follows, so an
  endless line (``/dev/zero``) ends.  The line's bytes are never kept.

Lines are split as the validator splits them (Python's universal newlines: LF, CRLF, CR), so a
file with CR line ends has short lines, and a line's length counts its bytes without its end.
"""
from __future__ import annotations

from typing import Iterable, Iterator, List, Tuple

import numpy as np

from .. import limits
from ..io.lines import comment_counts, mostly_comments

#: kinds of piece (see the module docstring)
WHOLE, PARTIAL, TAIL, TOO_LONG = "whole", "partial", "tail", "too-long"
#: a chunk of the stream is looked at in steps of at most this many bytes (an in-memory file
#: too), which bounds the line check's scratch memory
STEP_BYTES = 1 << 20
LF, CR = 10, 13
#: comment lines of a held sentence that do not count against it (see Cutter._holding)
COMMENTS_LET_THROUGH = 16


def _first_end(data: bytes) -> int:
    """The first CR or LF of ``data`` (-1: none)."""
    lf, cr = data.find(b"\n"), data.find(b"\r")
    return lf if cr < 0 else cr if lf < 0 else min(lf, cr)


def _last_end(data: bytes) -> int:
    """The last CR or LF of ``data`` (-1: none)."""
    return max(data.rfind(b"\n"), data.rfind(b"\r"))


def _safe_cut(data: bytes) -> int:
    """Where ``data`` may be cut after a whole line end: after its last LF, or after a later
    CR that is not its last byte (a last CR may be half of a CRLF); 0 when nowhere."""
    return max(data.rfind(b"\n"), data.rfind(b"\r", 0, len(data) - 1)) + 1


def _long_line_inside(data: bytes, first: int, last: int, limit: int) -> int:
    """The start of the first line longer than ``limit`` between ``data``'s line ends
    ``first`` and ``last`` (-1: none).  Needed only when the limit is below a step's size."""
    view = np.frombuffer(data, np.uint8, count=last + 1 - first, offset=first)
    ends = np.flatnonzero((view == LF) | (view == CR))
    over = np.flatnonzero(np.diff(ends) - 1 > limit)
    return -1 if not over.size else first + int(ends[over[0]]) + 1


class Cutter:
    """The pieces of a byte stream (see the module docstring); ``block_bytes``: how much is
    gathered before a cut (the screen's block size); ``sentence_bytes``: how much of one
    sentence of mostly word lines is held for a whole piece.  A too-long line's number is one
    more than the lines before it, which the reader of the pieces counts."""

    def __init__(self, block_bytes: int, sentence_bytes: int = 0):
        self.block_bytes = block_bytes
        self.sentence_bytes = sentence_bytes
        self.open_lines = (0, 0)  # (comment lines, lines) after the last empty line
        self.cut_open = False  # the sentence after the last empty line was cut already
        self.limit = limits.MAX_LINE_BYTES  # read now: tests lower it
        self.parts: List[bytes] = []  # the bytes not cut yet, in order
        self.size = 0  # their length
        self.line = 0  # the bytes of the unfinished line at their end
        self.sentence_end = 0  # after the last empty line in them (0: none)
        self.line_end = 0  # where they may be cut after a line end (0: nowhere)
        self.last_byte = -1  # their last byte (-1: none)

    def pieces(self, chunks: Iterable[bytes]) -> Iterator[Tuple[str, bytes]]:
        for chunk in chunks:
            steps = ([chunk] if len(chunk) <= STEP_BYTES else
                     (chunk[at:at + STEP_BYTES] for at in range(0, len(chunk), STEP_BYTES)))
            for step in steps:
                if not step:
                    continue
                long_line = self._long_line(step)
                if long_line is not None:
                    yield TOO_LONG, self._before(step, long_line)
                    return
                self._add(step)
                if self.size >= self.block_bytes and (self.sentence_end or
                                                      (self.line_end and not self._holding())):
                    yield self._cut()
        pending = b"".join(self.parts)
        if self.sentence_end:
            yield WHOLE, pending[:self.sentence_end]
            pending = pending[self.sentence_end:]
        if pending:
            yield TAIL, pending

    def _long_line(self, step: bytes):
        """Where in ``step`` a line longer than the limit starts (negative: in the bytes
        before it), or None; keeps the length of the unfinished line."""
        first = _first_end(step)
        if first < 0:
            self.line += len(step)
            return -(self.line - len(step)) if self.line > self.limit else None
        if self.line + first > self.limit:
            return -self.line
        last = _last_end(step)
        if last - first - 1 > self.limit:
            inside = _long_line_inside(step, first, last, self.limit)
            if inside >= 0:
                return inside
        self.line = len(step) - last - 1
        if self.line > self.limit:
            return last + 1
        return None

    def _before(self, step: bytes, start: int) -> bytes:
        """The bytes before a long line starting at ``start`` of ``step`` (see _long_line)."""
        if start >= 0:
            self.parts.append(step[:start])
            return b"".join(self.parts)
        pending = b"".join(self.parts)
        return pending[:len(pending) + start]

    def _holding(self) -> bool:
        """Whether the sentence after the last empty line is held for a whole piece: not cut
        before, under ``sentence_bytes``, and most of its lines are no comments (a few are
        always let through: a sentence's first lines are its comments, ``# text`` may be
        long)."""
        return (not self.cut_open and self.size - self.sentence_end < self.sentence_bytes
                and not mostly_comments(self.open_lines, COMMENTS_LET_THROUGH))

    def _add(self, step: bytes) -> None:
        base = self.size
        found = step.rfind(b"\n\n")
        if found >= 0:
            self.sentence_end = base + found + 2
        elif self.last_byte == LF and step[0] == LF:
            self.sentence_end = base + 1
        if found >= 0 or self.sentence_end == base + 1:  # a new sentence starts in this step
            self.open_lines, self.cut_open = comment_counts(step, self.sentence_end - base), False
        else:
            counts = comment_counts(step)
            self.open_lines = (self.open_lines[0] + counts[0], self.open_lines[1] + counts[1])
        cut = _safe_cut(step)
        if cut:
            self.line_end = base + cut
        elif self.last_byte == CR and step[0] != LF:  # the last step's CR was a whole line end
            self.line_end = base
        self.parts.append(step)
        self.size += len(step)
        self.last_byte = step[-1]

    def _cut(self) -> Tuple[str, bytes]:
        """A piece cut after the last empty line, else after the last line end."""
        pending = b"".join(self.parts)
        kind, at = (WHOLE, self.sentence_end) if self.sentence_end else (PARTIAL, self.line_end)
        self.cut_open = self.cut_open or kind == PARTIAL
        rest = pending[at:]
        self.parts = [rest] if rest else []
        self.size = len(rest)
        self.sentence_end = 0
        self.line_end = max(self.line_end - at, 0)
        return kind, pending[:at]

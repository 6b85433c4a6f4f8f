"""Readers of word-alignment files (the NAACL 2003/2005 workshop format and Pharaoh /
fast_align ``i-j`` lines) and of tokenised sentence files, into link arrays with 1-based
positions and the line each link came from.

Every problem names ``file:line`` and a stable code (:class:`LinkFileError`); repeated links
are merged with a warning (:class:`~conll_eval.errors.Incident`), never silently.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np

from ...errors import Incident, InputError, Location
from ...io.formats import LINKS, PHARAOH_LINK, is_natural
from ...io.formats import detect_format as detect_file_format
from ...io.lines import read_checked
from .choices import INPUT_FORMATS  # --input-format's choices

__all__ = ["INPUT_FORMATS", "LinkFileError", "LinkFile", "read_links", "read_lines",
           "detect_format", "read_token_counts", "check_positions"]

_NAACL_SHAPE = "'sentence source target [S|P] [confidence]'"
_PHARAOH_SHAPE = "'i-j' (sure), 'i?j' or 'ipj' (possible)"


class LinkFileError(InputError):
    """A word-alignment or tokenised-sentence file is malformed, or does not fit the gold
    alignment or the sentences (``path:line: error [code] message``)."""


@dataclass(frozen=True)
class LinkFile:
    """The links of one alignment file, one array element per distinct link.

    Positions are 1-based whatever the file's format (Pharaoh's 0-based ones are shifted),
    0 being NAACL's NULL word; ``sentence`` is the NAACL sentence number or the Pharaoh
    line number (1-based), so both formats name the same sentence alike.  ``sure`` is the
    S/P marker (a link marked both ways is sure).  ``lines`` is the file's line count (a
    Pharaoh file has one sentence per line); ``possible_marks`` says whether any link was
    marked possible; ``warnings`` holds the merged repetitions.
    """

    path: str
    format: str
    sentence: np.ndarray
    source: np.ndarray
    target: np.ndarray
    sure: np.ndarray
    line: np.ndarray
    lines: int
    possible_marks: bool
    warnings: Tuple[Incident, ...] = ()

    def __len__(self) -> int:
        return len(self.sentence)

    def shown(self, position: int) -> int:
        """A stored position as the file writes it (Pharaoh: 0-based)."""
        return position - 1 if self.format == "pharaoh" else position

    def without_null(self) -> "LinkFile":
        """The links that join two words (NAACL links to the NULL word, position 0, left out)."""
        keep = (self.source > 0) & (self.target > 0)
        return LinkFile(self.path, self.format, self.sentence[keep], self.source[keep],
                        self.target[keep], self.sure[keep], self.line[keep], self.lines,
                        self.possible_marks, self.warnings)


def read_lines(path: str, what: str = "an alignment file") -> List[str]:
    """The lines of a UTF-8 text file without their line ends (a final newline makes no extra
    empty line); unreadable files and invalid UTF-8 raise :class:`LinkFileError`, a line
    longer than MAX_LINE_BYTES ``line-too-long`` after reading at most that much of it (the
    file is read in bounded chunks: ``/dev/zero`` ends; ``what``: the kind of file)."""
    try:
        with open(path, "rb") as handle:
            data = read_checked(handle.read, path, universal=False, what=what)
    except OSError as exc:
        raise _os_error(path, exc) from exc
    if data.startswith(b"\xef\xbb\xbf"):  # a byte-order mark is no token
        data = data[3:]
    raw = data.split(b"\n")
    if raw and raw[-1] == b"":
        raw.pop()
    lines = []
    for number, chunk in enumerate(raw, 1):
        try:
            lines.append(chunk.decode("utf-8").rstrip("\r"))
        except UnicodeDecodeError:
            raise LinkFileError(Location(path, number), "invalid-utf8",
                                "the line is not valid UTF-8") from None
    return lines


def _os_error(path: str, exc: OSError) -> LinkFileError:
    location = Location(path)
    if isinstance(exc, FileNotFoundError):
        return LinkFileError(location, "file-not-found", "no such file or directory")
    if isinstance(exc, IsADirectoryError):
        return LinkFileError(location, "not-a-file", "is a directory, not a file")
    if isinstance(exc, PermissionError):
        return LinkFileError(location, "unreadable", "permission denied")
    return LinkFileError(location, "unreadable", f"cannot read: {exc.strerror or exc}")


def detect_format(path: str, lines: Sequence[str]) -> Optional[str]:
    """``naacl`` or ``pharaoh`` from the first non-blank line, told by the input layer
    (:func:`conll_eval.io.formats.detect_format`); None for a file without one (it reads the
    same either way but for its sentence count).  A line that is neither raises
    ``unknown-format``."""
    told = detect_file_format(path, LINKS, lines=lines)
    if told.line is not None:
        raise LinkFileError(Location(path, told.line), "unknown-format",
                            f"neither a NAACL link line ({_NAACL_SHAPE}) nor a Pharaoh line of "
                            f"links ({_PHARAOH_SHAPE}); name the format with --input-format")
    return told.name


class _Collector:
    """Links in reading order, a repeated one merged into the first (sure if either is)."""

    def __init__(self, path: str, file_format: str):
        self.path, self.format = path, file_format
        self.first: Dict[Tuple[int, int, int], int] = {}
        self.rows: List[List[int]] = []  # sentence, source, target, sure, line
        self.warnings: List[Incident] = []
        self.possible_marks = False

    def add(self, number: int, sentence: int, source: int, target: int, sure: bool,
            written: str) -> None:
        self.possible_marks |= not sure
        key = (sentence, source, target)
        index = self.first.get(key)
        if index is None:
            self.first[key] = len(self.rows)
            self.rows.append([sentence, source, target, int(sure), number])
            return
        earlier = self.rows[index]
        earlier[3] |= int(sure)
        self.warnings.append(Incident(
            Location(self.path, number), "duplicate-link",
            f"link {written} of sentence {sentence} repeats line {earlier[4]}; counted once"
            + (" (sure: marked S on one of them)" if earlier[3] and not sure else ""),
            severity="warning"))

    def result(self, lines: int) -> LinkFile:
        table = np.array(self.rows, dtype=np.int64).reshape(-1, 5)
        return LinkFile(self.path, self.format, table[:, 0], table[:, 1], table[:, 2],
                        table[:, 3].astype(bool), table[:, 4], lines, self.possible_marks,
                        tuple(self.warnings))


def read_links(path: str, input_format: str = "auto", empty_format: str = "pharaoh") -> LinkFile:
    """Read an alignment file in ``input_format`` (``auto``: detected; a file without any
    link line takes ``empty_format``).

    NAACL: one link per line, ``sentence source target [S|P] [confidence]`` (1-based
    positions, 0 = NULL; no marker means S; the marker and the confidence may come in
    either order, as the workshop's ``wa_eval_align.pl`` reads them; blank lines are
    skipped).  Pharaoh: line k holds sentence k's links, ``i-j`` sure, ``i?j`` / ``ipj``
    possible (0-based).
    """
    if input_format not in INPUT_FORMATS:
        raise ValueError(f"input_format must be one of {', '.join(INPUT_FORMATS)}")
    lines = read_lines(path)
    file_format = input_format
    if file_format == "auto":
        file_format = detect_format(path, lines) or empty_format
    collector = _Collector(path, file_format)
    parse = _parse_pharaoh if file_format == "pharaoh" else _parse_naacl
    for number, text in enumerate(lines, 1):
        parse(collector, number, text)
    return collector.result(len(lines))


def _parse_pharaoh(collector: _Collector, number: int, text: str) -> None:
    for field in text.split():
        match = PHARAOH_LINK.match(field)
        if match is None:
            raise LinkFileError(Location(collector.path, number), "bad-link",
                                f"{field!r} is not a Pharaoh link {_PHARAOH_SHAPE}")
        source, mark, target = match.groups()
        collector.add(number, number, int(source) + 1, int(target) + 1, mark == "-", field)


def _parse_naacl(collector: _Collector, number: int, text: str) -> None:
    fields = text.split()
    if not fields:
        return
    location = Location(collector.path, number)
    if not 3 <= len(fields) <= 5:
        raise LinkFileError(location, "bad-field-count",
                            f"expected {_NAACL_SHAPE}, got {len(fields)} field(s)")
    for field, what in zip(fields[:3], ("sentence number", "source position",
                                        "target position")):
        if not is_natural(field):
            raise LinkFileError(location, "bad-number",
                                f"the {what} {field!r} is not a non-negative integer")
    marks = [f for f in fields[3:] if f in ("S", "P")]
    confidences = [f for f in fields[3:] if f not in ("S", "P")]
    for field in confidences:
        if not _is_number(field):
            raise LinkFileError(location, "bad-link-mark",
                                f"{field!r} is neither S, P nor a confidence (a number)")
    if len(marks) > 1 or len(confidences) > 1:
        raise LinkFileError(location, "bad-link-mark",
                            f"expected at most one S/P marker and one confidence, got "
                            f"{' '.join(fields[3:])!r}")
    sentence, source, target = (int(f) for f in fields[:3])
    collector.add(number, sentence, source, target, marks != ["P"], f"{source} {target}")


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return text.isascii()


def read_token_counts(path: str) -> np.ndarray:
    """Tokens per line of a tokenised file (one sentence per line, tokens separated by
    spaces or tabs); line k of the file is sentence k."""
    return np.array([len([t for t in re.split(r"[ \t]+", line) if t])
                     for line in read_lines(path, "a sentence file")], dtype=np.int64)


def check_positions(links: LinkFile, side: str, lengths: np.ndarray, tokens_path: str) -> None:
    """Raise :class:`LinkFileError` at the first link (in file order) whose sentence is not a
    line of ``tokens_path`` or whose ``side`` (``source`` / ``target``) position is not a
    token of that line (NAACL's 0, the NULL word, is always in range)."""
    positions = getattr(links, side)
    known = (links.sentence >= 1) & (links.sentence <= len(lengths))
    length = np.zeros(len(links), dtype=np.int64)
    length[known] = lengths[links.sentence[known] - 1]
    bad = ~known | (positions > length)
    if not bad.any():
        return
    k = int(np.flatnonzero(bad)[np.argmin(links.line[bad])])
    sentence, location = int(links.sentence[k]), Location(links.path, int(links.line[k]))
    if not known[k]:
        raise LinkFileError(location, "sentence-out-of-range",
                            f"sentence {sentence} is not in {tokens_path}, which has "
                            f"{len(lengths)} line(s) (sentences are numbered from 1)")
    has = (f"{length[k]} token(s), positions {links.shown(1)}-{links.shown(int(length[k]))}"
           if length[k] else "no tokens")
    raise LinkFileError(location, "position-out-of-range",
                        f"{side} position {links.shown(int(positions[k]))} is out of range: "
                        f"sentence {sentence} ({tokens_path}:{sentence}) has {has}")

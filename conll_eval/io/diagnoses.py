"""The "not CoNLL-U" diagnoses: what a rejected file looks like (another encoding, an archive, HTML, ...).

Only asked once a file has failed: :func:`explain_error` turns the reader's error into one that
says what the file is, at the same place and with the same official text.
"""
from __future__ import annotations

import codecs
from typing import List, Optional, Tuple

from ..errors import FormatError, InputError, Location
from .profiles import LazyRegex

__all__ = ["SNIFF_BYTES", "describe_non_conllu", "explain_error"]

#: bytes looked at to tell what a rejected file is
SNIFF_BYTES = 4096

_UTF16_32 = ((b"\xff\xfe\x00\x00", "UTF-32", "UTF-32"), (b"\x00\x00\xfe\xff", "UTF-32", "UTF-32"),
             (b"\xff\xfe", "UTF-16", "UTF-16"), (b"\xfe\xff", "UTF-16", "UTF-16"))
#: (magic number, offset, code, message) of formats we do not read
_FOREIGN = (
    (b"PK\x03\x04", 0, "compressed-file", "a zip archive, not a CoNLL-U file: extract it first (unzip)"),
    (b"PK\x05\x06", 0, "compressed-file", "an (empty) zip archive, not a CoNLL-U file"),
    (b"\x28\xb5\x2f\xfd", 0, "compressed-file", "zstd-compressed file: decompress it first (zstd -d)"),
    (b"7z\xbc\xaf\x27\x1c", 0, "compressed-file", "a 7-Zip archive, not a CoNLL-U file: extract it first (7z x)"),
    (b"ustar", 257, "compressed-file", "a tar archive, not a CoNLL-U file: extract it first (tar -xf)"),
    (b"%PDF-", 0, "not-conllu", "a PDF file, not a CoNLL-U file"),
)


def _nul_pattern(head: bytes) -> Optional[Tuple[str, str]]:
    """(encoding, iconv name) when NUL bytes sit where UTF-16/UTF-32 text without a
    byte-order mark has them (the high bytes of Latin characters)."""
    n = min(len(head), 512) // 4 * 4
    if n < 8:
        return None
    share = [head[r:n:4].count(0) / (n // 4) for r in range(4)]
    high = [x >= 0.5 for x in share]
    low = [x <= 0.1 for x in share]
    for pattern, encoding in (((0, 1, 1, 1), "UTF-32LE"), ((1, 1, 1, 0), "UTF-32BE"),
                              ((0, 1, 0, 1), "UTF-16LE"), ((1, 0, 1, 0), "UTF-16BE")):
        if all(high[r] if nul else low[r] for r, nul in enumerate(pattern)):
            return encoding[:6], encoding
    return None


_ID_LIKE = LazyRegex(r"[0-9]+(?:[-.][0-9]+)?")


def describe_non_conllu(head: bytes, whole: bool = False) -> Optional[Tuple[str, str, Optional[int]]]:
    """What a file that is obviously not CoNLL-U looks like, from its first bytes ``head``
    (``whole``: they are the whole file): ``(code, message, line)``, where ``line`` is the
    line the message is about (None: the whole file), or None when nothing stands out.

    * another encoding: UTF-16/UTF-32 with or without byte-order mark (``wrong-encoding``);
    * an archive or compressed format this package does not read (``compressed-file``):
      zip, zstd, 7-Zip, tar;
    * text whose first line that is neither blank nor a comment has no tab (``not-conllu``),
      with a guess: HTML, XML, JSON, Markdown or plain text.  A line of space-separated
      columns that starts with a word ID is left alone (the columns error says "spaces
      instead of tabs?").

    A UTF-8 byte-order mark is not reported here (the reader's ``bom`` error names it).
    """
    for bom, name, iconv in _UTF16_32:
        if head.startswith(bom):
            return ("wrong-encoding", f"{name} text (with a byte-order mark): CoNLL-U must be UTF-8; "
                    f"convert with iconv -f {iconv} -t UTF-8", None)
    for magic, offset, code, message in _FOREIGN:
        if head[offset:offset + len(magic)] == magic:
            return code, message, None
    nul = _nul_pattern(head)
    if nul is not None:
        name, iconv = nul
        return ("wrong-encoding", f"{name} text: CoNLL-U must be UTF-8; convert with "
                f"iconv -f {iconv} -t UTF-8", None)
    if head.startswith(codecs.BOM_UTF8):
        return None
    lines = head.decode("utf-8", "replace").split("\n")
    if not whole:
        lines.pop()  # may be cut short
    for number, line in enumerate(lines, 1):
        line = line.rstrip("\r")
        if not line or line.startswith("#"):
            continue
        fields = line.split()
        if "\t" in line or (len(fields) >= 6 and _ID_LIKE.fullmatch(fields[0])):
            return None
        return ("not-conllu", f"does not look like CoNLL-U: line {number} has no tab-separated "
                f"columns ({_guess_format(lines)})", number)
    return None


def _guess_format(lines: List[str]) -> str:
    text = "\n".join(lines).lstrip("\ufeff \t\r\n")
    lower = text[:200].lower()
    if lower.startswith(("<!doctype html", "<html")) or "<html" in lower:
        return "an HTML file?"
    if lower.startswith("<?xml"):
        return "an XML file?"
    if lower.startswith("<"):
        return "an HTML or XML file?"
    if lower.startswith(("{", "[")):
        return "a JSON file?"
    if any(line.startswith(("# ", "## ", "```", "- ", "* ", "| ", "> ")) or line.startswith("===")
           for line in lines):
        return "a Markdown file?"
    return "plain text?"


def explain_error(error: InputError, head: bytes, whole: bool = False) -> Optional[InputError]:
    """``error`` (raised for a file whose first bytes are ``head``) said the way the file is
    wrong when it is obviously not CoNLL-U (see :func:`describe_non_conllu`), at the line the
    description is about (line 1 for the whole file), with the same official text; None when
    the file does not stand out or the error comes after that line (it then has a cause of
    its own)."""
    found = describe_non_conllu(head, whole)
    if found is None or error.code == "bom":
        return None
    code, message, line = found
    if line is not None and error.location.line is not None and error.location.line > line:
        return None
    return FormatError(Location(error.location.path, line or 1), code, message, error.official)


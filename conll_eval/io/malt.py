"""MaltEval's other input formats read and checked as MaltEval 1.0's own readers check them: CoNLL-X
(ten columns a line), MaltTab and MaltXML, the last two converted to CoNLL-X text so that the
CoNLL-U reader builds the Treebank.

A rejected file raises :class:`~conll_eval.errors.InputError` naming ``file:line`` (``official``:
MaltEval's message, where known); :func:`relocate` points the CoNLL-U reader's errors in a
converted text back at the original file and line.
"""
from __future__ import annotations

import codecs
import os
import re
import sys
from dataclasses import dataclass, replace
from typing import Callable, Dict, FrozenSet, List, Optional, Tuple, Union

import numpy as np

from ..errors import InputError, Location
from .byte_input import open_input
from .formats import CONLLX, MALTTAB, MALTXML, malteval_format
from .lines import read_checked
from .safexml import parse

__all__ = ["Conversion", "convert", "to_conll_text", "load_analysis_pair_texts", "relocate",
           "check_conllx", "CONLLX_COLUMNS", "CHARSET_UNDECODABLE", "utf8_bytes", "conllu_to_conllx"]

PathLike = Union[str, "os.PathLike[str]"]

#: the code of a CoNLL-X line short of columns (:func:`check_conllx`)
CONLLX_COLUMNS = "conllx-missing-column"
#: CoNLL-X has 10 tab-separated columns
_CONLLX_COLUMN_COUNT = 10
#: Java's BufferedReader.readLine ends a line at \n, \r or \r\n (and at nothing else)
_LINE_END = re.compile(r"\r\n|\r|\n")
#: Java's Integer.parseInt: an optional sign and decimal digits (any Unicode Nd digit)
_JAVA_INT = re.compile(r"[+-]?\d+")
_INT_MIN, _INT_MAX = -(1 << 31), (1 << 31) - 1
#: Java's Double.parseDouble after trimming: decimal, hexadecimal, NaN and Infinity spellings
_JAVA_DOUBLE = re.compile(
    r"[+-]?(?:NaN|Infinity"
    r"|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?[fFdD]?"
    r"|0[xX](?:[0-9a-fA-F]+\.?|[0-9a-fA-F]*\.[0-9a-fA-F]+)[pP][+-]?[0-9]+[fFdD]?)")
#: characters a CoNLL column cannot hold
_UNREPRESENTABLE = re.compile(r"[\t\n\r]")


@dataclass(frozen=True)
class Conversion:
    """One input file as CoNLL-X text.

    ``source_lines[i]`` is the line of the original file that line ``i + 1`` of ``text`` comes
    from (for :func:`relocate`).  ``null_columns`` names the Treebank columns (``lemma``,
    ``upos``, ``xpos``, ``feats``, ``misc``) where MaltEval holds a null for some word and the
    text holds ``_``: MaltEval's groupings by such a column abort with a NullPointerException.
    """

    path: str
    format: str
    text: str
    source_lines: Tuple[int, ...]
    null_columns: FrozenSet[str]


def to_conll_text(path: PathLike, charset: Optional[str] = None) -> str:
    """The 10-column CoNLL-X text of a .tab or .xml file (a CoNLL-X file: its text as read).

    ``charset`` is MaltEval's ``--charset`` (MaltTab and CoNLL-X; MaltXML says its own
    encoding).  Raises :class:`InputError` where MaltEval's reader rejects the file."""
    return convert(path, charset).text


def load_analysis_pair_texts(gold_path: PathLike, system_path: PathLike,
                             charset: Optional[str] = None) -> Tuple[str, str]:
    """(gold text, system text) in CoNLL-X, gold read first as MaltEval does (so a pair with
    two bad files reports the gold one)."""
    return to_conll_text(gold_path, charset), to_conll_text(system_path, charset)


def convert(path: PathLike, charset: Optional[str] = None, format: Optional[str] = None) -> Conversion:
    """Read ``path`` in ``format`` (by default :func:`~conll_eval.io.formats.malteval_format`'s
    choice: :data:`MALTXML`, :data:`MALTTAB` or :data:`CONLLX`) and convert it; raises
    :class:`InputError` naming ``file:line`` (``official``: MaltEval's message, where known).

    Deliberate differences from MaltEval: DOCTYPE and ENTITY declarations are refused; invalid
    UTF-8 (or text ``charset`` cannot decode) is an error, not U+FFFD; an empty MaltXML sentence
    is refused (like a double blank line in CoNLL-X); a value CoNLL cannot hold (empty, or with
    a tab or line break) is refused; a MaltXML sentence's ``id`` is not kept (the text numbers
    sentences 1, 2, ...; MaltEval keys its Token and Sentence groups by that id); where MaltEval
    holds a null (:attr:`Conversion.null_columns`) the text holds ``_``, so groupings by Lemma,
    Postag or Feats give a ``_`` group where MaltEval crashes."""
    name = os.fspath(path)
    fmt = malteval_format(name) if format is None else format
    data = _read(name, _FORMAT_NAMES[fmt])
    if fmt == MALTXML:
        return _convert_xml(data, name)
    text = _decode(data, name, charset)
    if fmt == MALTTAB:
        return _convert_tab(text, name)
    return Conversion(name, CONLLX, text, tuple(range(1, text.count("\n") + 2)), frozenset())


def relocate(error: InputError, conversion: Conversion) -> InputError:
    """``error`` (raised by the CoNLL reader on ``conversion.text``) pointing at the original
    file and line instead; errors without a line, or of a class with its own constructor, are
    given back unchanged."""
    line = error.location.line
    if (conversion.format == CONLLX or line is None or not 1 <= line <= len(conversion.source_lines)
            or type(error).__init__ is not InputError.__init__):
        return error
    location = replace(error.location, path=conversion.path, line=conversion.source_lines[line - 1])
    return type(error)(location, error.code, error.message, error.official)


# ---- reading ----------------------------------------------------------------------------------

def check_conllx(path: str) -> None:
    """MaltEval reads CoNLL-X only: a non-blank line with fewer than 10 tab-separated columns
    (a CoNLL-U comment, for one) raises :data:`CONLLX_COLUMNS` at its line, ``official``
    being MaltEval's reader's message and the line."""
    with open(path, "rb") as handle:
        data = read_checked(handle.read, path, universal=False, what=_FORMAT_NAMES[CONLLX])
    raw = np.frombuffer(data, dtype=np.uint8)
    newlines = np.flatnonzero(raw == 10)
    starts = np.concatenate([[0], newlines + 1])
    ends = np.append(newlines, len(data))
    tabs = np.flatnonzero(raw == 9)
    tab_counts = np.searchsorted(tabs, ends) - np.searchsorted(tabs, starts)
    # only lines short of tabs need a look: blank lines (fine) and the faulty ones
    for k in np.flatnonzero(tab_counts < _CONLLX_COLUMN_COUNT - 1).tolist():
        line = data[starts[k]:ends[k]].rstrip(b"\r\n")
        if line.strip():
            number = k + 1
            text = line.decode("utf-8", errors="replace")
            raise InputError(Location(path, number), CONLLX_COLUMNS,
                             "a CoNLL-X line has 10 tab-separated columns; name a CoNLL-U file *.conllu",
                             f"Error at  line {number}: an attribute is missing\n{text}")


#: the code of a file that ``--charset`` cannot decode (:func:`utf8_bytes`)
CHARSET_UNDECODABLE = "charset-undecodable"


def utf8_bytes(path: str, charset: Optional[str]) -> bytes:
    """A CoNLL file as UTF-8 bytes: decompressed, decoded from ``charset`` when another one
    is given (raises :data:`CHARSET_UNDECODABLE`, naming the file and the byte), read in
    bounded chunks (:func:`~conll_eval.io.lines.read_checked`: a line longer than
    MAX_LINE_BYTES, in UTF-8, raises ``line-too-long``)."""
    stream, _ = open_input(path)
    with stream:
        read: Callable[[int], bytes] = stream.read
        if charset and codecs.lookup(charset).name != "utf-8":
            read = _Transcoded(read, charset, path).read
        return read_checked(read, path)


class _Transcoded:
    """``read(size)`` of the UTF-8 encoding of the stream ``read``'s text in ``charset``
    (at most ``size`` bytes a call, as a bounded reader needs), decoded a chunk at a time as
    ``bytes.decode`` decodes the whole; text ``charset`` cannot decode raises
    :data:`CHARSET_UNDECODABLE` naming the byte's offset in the stream."""

    def __init__(self, read: Callable[[int], bytes], charset: str, path: str):
        self.read_raw, self.charset, self.path = read, charset, path
        self.decoder: Optional[codecs.IncrementalDecoder] = None  # chosen on the first bytes
        self.head = b""  # the first bytes, until there are enough to choose
        self.fed = 0  # bytes given to the decoder
        self.out = b""  # encoded, not given out yet
        self.at = 0
        self.ended = False

    def read(self, size: int) -> bytes:
        while self.at >= len(self.out) and not self.ended:
            raw = self.read_raw(size)
            self.ended = not raw
            self.out, self.at = self._decode(raw).encode("utf-8"), 0
        data = self.out[self.at:self.at + size]
        self.at += len(data)
        return data

    def _decode(self, raw: bytes) -> str:
        final = not raw
        if self.decoder is None:
            self.head += raw
            if raw and len(self.head) < 4:
                return ""
            self.decoder = _incremental_decoder(self.charset, self.head)
            raw, self.head = self.head, b""
        pending = len(self.decoder.getstate()[0])  # bytes held from the call before
        try:
            text = self.decoder.decode(raw, final=final)
        except UnicodeError as exc:  # exc.start counts from the bytes held
            where = (f" at byte {self.fed - pending + exc.start}"
                     if isinstance(exc, UnicodeDecodeError) else "")
            reason = exc.reason if isinstance(exc, UnicodeDecodeError) else str(exc)
            raise InputError(Location(self.path), CHARSET_UNDECODABLE,
                             f"not readable as {self.charset}: {reason}{where}") from None
        self.fed += len(raw)
        return text


def _incremental_decoder(charset: str, head: bytes) -> codecs.IncrementalDecoder:
    """An incremental decoder of ``charset`` for a stream starting with ``head``: UTF-16 and
    UTF-32 without a byte-order mark are the machine's order, as ``bytes.decode`` reads them
    (their incremental decoders refuse such a stream)."""
    name = codecs.lookup(charset).name
    if name in ("utf-16", "utf-32"):
        marks = ((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE) if name == "utf-16"
                 else (codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE))
        if not head.startswith(marks):
            name += "-le" if sys.byteorder == "little" else "-be"
    return codecs.getincrementaldecoder(name)()


#: formats as a message names them
_FORMAT_NAMES = {CONLLX: "a CoNLL-X file", MALTTAB: "a MaltTab file", MALTXML: "a MaltXML file"}


def _read(path: str, what: str) -> bytes:
    """The file's bytes (not decompressed, as MaltEval reads them), in bounded chunks
    (:func:`~conll_eval.io.lines.read_checked`: ``line-too-long``; ``what``: the kind of file)."""
    try:
        with open(path, "rb") as handle:
            return read_checked(handle.read, path, what=what)
    except OSError as exc:
        # MaltEval's message is FileNotFoundException's: "<path> (No such file or directory)"
        raise InputError(Location(path), "missing-file", f"cannot read the file: {exc.strerror}",
                         f"{path} ({exc.strerror})") from exc


def _decode(data: bytes, path: str, charset: Optional[str]) -> str:
    """The file's text; a BOM is kept (Java's decoder keeps it, so it starts the first FORM)."""
    encoding = charset or "utf-8"
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise InputError(Location(path, line), "invalid-utf8" if encoding == "utf-8" else "invalid-encoding",
                         f"byte 0x{data[exc.start]:02x} (offset {exc.start}) is not valid "
                         f"{encoding}") from exc


def _java_int(text: str) -> Optional[int]:
    """Java's Integer.parseInt, or None where it throws NumberFormatException."""
    if not _JAVA_INT.fullmatch(text):
        return None
    value = int(text)
    return value if _INT_MIN <= value <= _INT_MAX else None


def _java_double_ok(text: str) -> bool:
    """Whether Java's Double.parseDouble accepts ``text`` (it first trims chars <= U+0020)."""
    trimmed = text.strip("".join(chr(c) for c in range(0x21)))
    return _JAVA_DOUBLE.fullmatch(trimmed) is not None


def _word_line(index: int, form: str, lemma: Optional[str], cpostag: Optional[str],
               postag: Optional[str], feats: Optional[str], head: int, deprel: str,
               pdeprel: Optional[str]) -> str:
    columns = (str(index), form, lemma, cpostag, postag, feats, str(head), deprel, None, pdeprel)
    return "\t".join("_" if value is None else value for value in columns)


# ---- MaltTab ----------------------------------------------------------------------------------

def _convert_tab(text: str, path: str) -> Conversion:
    """MaltTab -> CoNLL-X, line for line (a missing final blank line is added).

    MaltTab is one word a line, ``FORM POSTAG HEAD DEPREL`` split on tabs (a run of tabs counts
    as one, further fields are ignored); an empty line ends a sentence and the last sentence
    needs none.  MaltEval stores the tag as the *coarse* tag, so it goes to CPOSTAG; LEMMA,
    POSTAG, FEATS and PDEPREL are null in MaltEval and ``_`` here."""
    lines = _LINE_END.split(text)
    if lines and lines[-1] == "":
        lines.pop()  # the terminator of the last line, not a line
    out: List[str] = []
    index = 0
    for number, line in enumerate(lines, 1):
        if line == "":
            out.append("")
            index = 0
            continue
        index += 1
        out.append(_tab_word(line, number, path, index))
    source_lines = list(range(1, len(out) + 1))
    if out and out[-1] != "":
        out.append("")
        source_lines.append(len(lines))
    body = "\n".join(out) + "\n" if out else ""
    return Conversion(path, MALTTAB, body, tuple(source_lines),
                      frozenset({"lemma", "xpos", "feats", "misc"}) if out else frozenset())


def _tab_word(line: str, number: int, path: str, index: int) -> str:
    """One MaltTab word line in MaltEval's order of checks: FORM, POSTAG, HEAD (an int >= 0),
    DEPREL."""
    fields = [field for field in line.split("\t") if field]  # StringTokenizer skips empty fields
    where = Location(path, number)

    def missing() -> InputError:
        official = f"Error at  line {number}: an attribute is missing"
        return InputError(where, "malttab-missing-field",
                          f"a MaltTab line has FORM, POSTAG, HEAD and DEPREL; found {len(fields)} "
                          f"field(s)", official)

    if len(fields) < 3:
        raise missing()
    form, postag, head_text = fields[:3]
    head = _java_int(head_text)
    if head is None:
        raise InputError(where, "malttab-bad-head", f"HEAD {head_text!r} is not an integer",
                         f'For input string: "{head_text}"')
    if head < 0:
        raise InputError(where, "malttab-bad-head", f"HEAD {head} is negative",
                         f"Head error at line {number}, word {form}. Head value {head} not valid.")
    if len(fields) < 4:
        raise missing()
    return _word_line(index, form, None, postag, None, None, head, fields[3], None)


# ---- MaltXML ----------------------------------------------------------------------------------

class _MaltXMLHandler:
    """MaltEval's SAX handler as a state machine over expat events: each element may only
    appear where MaltEval allows it; words are checked against the declared tag and label sets."""

    def __init__(self, path: str, line):
        self.path = path
        self.line = line  # the parser's current line
        # -1 not seen, 0 open, 1 closed (MaltEval's status variables)
        self.status: Dict[str, int] = dict.fromkeys(
            ("treebank", "head", "annotation", "attribute", "value", "body", "sentence", "word"), -1)
        self.attribute_name = ""
        self.declared: Dict[str, set] = {"postag": set(), "deprel": set()}
        self.lines: List[str] = []
        self.source_lines: List[int] = []
        self.words_in_sentence = 0
        self.sentence_line = 0
        self.null_columns: set = set()

    def fail(self, message: str, code: str) -> InputError:
        return InputError(Location(self.path, self.line()), code, message, message)

    def misplaced(self, name: str) -> InputError:
        # MaltEval misspells "annotation" in this one message
        shown = "annoation" if name == "annotation" else name
        return self.fail(f"{shown} element at the wrong place", "maltxml-misplaced-element")

    def start(self, name: str, attrs: Dict[str, str]) -> None:
        status = self.status
        if name == "treebank":
            allowed = status["treebank"] == -1
        elif name == "head":
            allowed = status["treebank"] == 0 and status["head"] == -1 and status["body"] == -1
        elif name == "annotation":
            allowed = status["head"] == 0 and status["annotation"] == -1
        elif name == "attribute":
            allowed = status["annotation"] == 0 and status["attribute"] != 0
        elif name == "value":
            allowed = status["attribute"] == 0 and status["value"] != 0
        elif name == "body":
            allowed = status["treebank"] == 0 and status["head"] == 1 and status["body"] == -1
        elif name == "sentence":
            allowed = status["body"] == 0 and status["sentence"] != 0
        elif name == "word":
            allowed = status["sentence"] == 0 and status["word"] != 0
        else:
            # sic: MaltEval calls an unknown element an attribute
            raise self.fail(f'attribute "{name}" is not part of MALT XML', "maltxml-unknown-element")
        if not allowed:
            raise self.misplaced(name)
        if name == "attribute":
            if "name" not in attrs:
                raise self.fail('attribute "name" is missing', "maltxml-missing-attribute")
            self.attribute_name = attrs["name"]
        elif name == "value":
            if "name" not in attrs:
                raise self.fail('attribute "name" is missing', "maltxml-missing-attribute")
            if self.attribute_name in self.declared:
                self.declared[self.attribute_name].add(attrs["name"])
        elif name == "sentence":
            for number in ("score", "time"):
                if number in attrs and not _java_double_ok(attrs[number]):
                    raise self.fail(f'attribute "{number}" could not be interpreted as floating value',
                                    "maltxml-bad-number")
            self.words_in_sentence = 0
            self.sentence_line = self.line()
        elif name == "word":
            self.word(attrs)
        status[name] = 0

    def end(self, name: str) -> None:
        if name not in self.status:
            return  # an unknown element has already failed at its start
        if self.status[name] != 0:
            raise self.misplaced(name)
        self.status[name] = 1
        if name == "sentence":
            if self.words_in_sentence == 0:
                raise InputError(Location(self.path, self.sentence_line), "empty-sentence",
                                 "empty sentence: a sentence element without words")
            self.lines.append("")
            self.source_lines.append(self.line())

    def word(self, attrs: Dict[str, str]) -> None:
        """Check one word in MaltEval's order and add its CoNLL line."""
        if "form" not in attrs:
            raise self.fail('attribute "form" is missing', "maltxml-missing-attribute")
        if "postag" not in attrs:
            raise self.fail('attribute "postag" is missing', "maltxml-missing-attribute")
        if attrs["postag"] not in self.declared["postag"]:
            raise self.fail("postag not in postag set", "maltxml-undeclared-postag")
        if "head" not in attrs:
            raise self.fail('attribute "head" is missing', "maltxml-missing-attribute")
        head = _java_int(attrs["head"])
        if head is None:
            raise self.fail('attribute "head" could not be interpreted', "maltxml-bad-head")
        if head < 0:
            raise self.fail('attribute "head" is not correct', "maltxml-bad-head")
        deprel = attrs.get("deprel", "")  # MaltEval: a missing deprel is ""
        if deprel not in self.declared["deprel"]:
            raise self.fail("deprel not in deprel set", "maltxml-undeclared-deprel")
        phead = attrs.get("phead", "_")
        if phead != "_":
            value = _java_int(phead)
            if value is None:
                raise self.fail('attribute "phead" could not be interpreted', "maltxml-bad-phead")
            if value < 0:
                raise self.fail('attribute "phead" is not correct', "maltxml-bad-phead")
        for column, attribute in (("lemma", "lemma"), ("upos", "cpostag"), ("feats", "feats"),
                                  ("misc", "pdeprel")):
            if attribute not in attrs:
                self.null_columns.add(column)
        for attribute in ("form", "lemma", "cpostag", "postag", "feats", "deprel", "pdeprel"):
            text = deprel if attribute == "deprel" else attrs.get(attribute)
            if text is not None and (text == "" or _UNREPRESENTABLE.search(text)):
                raise InputError(Location(self.path, self.line()),
                                 "maltxml-unrepresentable",
                                 f'attribute "{attribute}" is empty or holds a tab or line break, '
                                 f"which a CoNLL column cannot hold")
        self.words_in_sentence += 1
        self.lines.append(_word_line(self.words_in_sentence, attrs["form"], attrs.get("lemma"),
                                     attrs.get("cpostag"), attrs["postag"], attrs.get("feats"),
                                     head, deprel, attrs.get("pdeprel")))
        self.source_lines.append(self.line())


def _convert_xml(data: bytes, path: str) -> Conversion:
    """MaltXML -> CoNLL-X, refusing DOCTYPE/ENTITY declarations before and while parsing
    (:mod:`conll_eval.io.safexml`; a syntax error gives expat's message, as Xerces' cannot be reproduced).

    ``treebank > head > annotation > attribute[name] > value[name]`` declares the tag set
    (``attribute name="postag"``) and the label set (``name="deprel"``); then
    ``treebank > body > sentence > word``.  A word has ``form``, ``postag`` and ``head``
    (required), ``lemma``, ``cpostag``, ``feats``, ``deprel``, ``phead`` and ``pdeprel``
    (optional); words are numbered in document order and PDEPREL goes to column 10 (where
    ExcludePdeprels looks).  The encoding is the XML declaration's."""
    handler: Optional[_MaltXMLHandler] = None

    def handlers(line):
        nonlocal handler
        handler = _MaltXMLHandler(path, line)
        return {"StartElementHandler": handler.start, "EndElementHandler": handler.end}

    parse(data, path, InputError, "a MaltXML file", handlers)
    assert handler is not None  # parse() asks for the handlers before it reads
    text = "\n".join(handler.lines) + "\n" if handler.lines else ""
    return Conversion(path, MALTXML, text, tuple(handler.source_lines), frozenset(handler.null_columns))


def conllu_to_conllx(text: str) -> str:
    """CoNLL-U -> CoNLL-X (what MaltEval and ``eval.pl`` read): no comments, multi-word token
    lines or empty nodes; DEPS and MISC (PHEAD, PDEPREL) ``_``; a space inside FORM or LEMMA
    written ``_`` (CoNLL-X fields hold none: ``eval.pl`` splits lines on whitespace)."""
    out = []
    for line in text.split("\n"):
        if not line:
            out.append("")
            continue
        if line.startswith("#"):
            continue
        columns = line.split("\t")
        if "-" in columns[0] or "." in columns[0]:
            continue
        columns[1], columns[2] = columns[1].replace(" ", "_"), columns[2].replace(" ", "_")
        out.append("\t".join(columns[:8] + ["_", "_"]))
    return "\n".join(out)

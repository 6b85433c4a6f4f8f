"""The one door for reading a treebank: :func:`read_treebank` gives a Treebank for a file in any
treebank format (CoNLL-U, CoNLL-X, MaltTab, MaltXML), its format told once (:mod:`.formats`).

CoNLL-U and CoNLL-X files go to the CoNLL-U reader (:mod:`.conllu`); MaltTab and MaltXML are
converted to CoNLL-X text first (:mod:`.malt`), their errors pointing at the original file and line.
"""
from __future__ import annotations

import codecs
import os
from typing import BinaryIO, Optional, Sequence, Union

from ..errors import InputError
from ..treebank import Treebank, Vocab
from .conllu import load_source, parse_bytes
from .formats import CONLLU, CONLLX, TREEBANK, TREEBANK_FORMATS, InputFormat, detect_format

__all__ = ["read_treebank", "read_concatenated", "precheck", "treebank_format"]

Source = Union[str, "os.PathLike[str]", BinaryIO]


def treebank_format(source: Source, format: Union[str, InputFormat] = "auto") -> InputFormat:
    """The format ``source`` is read in: ``format`` itself when it was told already (an
    :class:`InputFormat`), else :func:`~conll_eval.io.formats.detect_format`'s answer (``auto``:
    by the name; standard input and a stream are CoNLL-U)."""
    if isinstance(format, InputFormat):
        return format
    if format != "auto" and format not in TREEBANK_FORMATS:
        raise ValueError(f"format must be auto or one of {', '.join(TREEBANK_FORMATS)}, not {format!r}")
    if not isinstance(source, (str, os.PathLike)):
        name = getattr(source, "name", "<stream>")
        return InputFormat(name if isinstance(name, str) else "<stream>", CONLLU, "a stream")
    if os.fspath(source) == "-" and format == "auto":
        return InputFormat("-", CONLLU, "standard input")
    return detect_format(source, TREEBANK, format)


def read_treebank(source: Source, format: Union[str, InputFormat] = "auto", charset: Optional[str] = None,
                  profile: str = "conll18", vocab: Optional[Vocab] = None, *, trees: bool = True,
                  multiple_roots: bool = False, collapse: bool = False) -> Treebank:
    """Read one treebank: a path (``-`` for standard input) or a binary stream.

    ``format``: ``auto`` (told by the name as MaltEval tells it: ``.xml`` MaltXML, ``.tab``
    MaltTab, ``*.conllu`` CoNLL-U, anything else CoNLL-X), one of ``conllu``, ``conllx``,
    ``malttab``, ``maltxml``, or the :class:`InputFormat` told before.  The scoring commands
    ask for ``conllu`` whatever the name, as the official scorers read every file.  A CoNLL-X
    file must have 10 columns on every line (:func:`precheck`); MaltTab and MaltXML are
    converted to CoNLL-X text and read as such.  ``charset``: the file's encoding (CoNLL and
    MaltTab; MaltXML says its own), UTF-8 by default.

    ``profile``, ``vocab``, ``trees``, ``multiple_roots`` and ``collapse``
    (``--collapse-empty-nodes``, CoNLL-U and CoNLL-X in UTF-8 only) are the CoNLL-U reader's
    (:func:`conll_eval.io.conllu.load`).  Raises :class:`~conll_eval.errors.InputError` with
    ``path:line`` and a stable code, and gzip, bzip2 and xz files are read decompressed."""
    told = treebank_format(source, format)
    precheck(told)
    if told.name in (CONLLU, CONLLX) and _plain(charset):
        return load_source(source, profile, vocab, trees=trees, multiple_roots=multiple_roots,
                           collapse=collapse)
    data = _checked_bytes(told, charset, profile, vocab)
    return parse_bytes(data.rstrip(b"\r\n") + b"\n\n", told.path, profile, vocab, trees, multiple_roots)


def read_concatenated(sources: Sequence[InputFormat], name: str, charset: Optional[str] = None,
                      profile: str = "conll18", vocab: Optional[Vocab] = None) -> Treebank:
    """One treebank named ``name`` from several files read one after the other (MaltEval's
    ``--micro-average 1`` over cross-validation folds): every file is checked first
    (:func:`precheck`), then each is read on its own, so an error names its file and line,
    and the concatenation is read with its sentences numbered on."""
    for told in sources:
        precheck(told)
    parts = [_checked_bytes(told, charset, profile, vocab).rstrip(b"\r\n") + b"\n\n" for told in sources]
    return parse_bytes(b"".join(parts), name, profile, vocab)


def precheck(told: InputFormat) -> None:
    """The checks that need no reader: a CoNLL-X file has 10 tab-separated columns on every
    non-blank line (:func:`conll_eval.io.malt.check_conllx`); nothing for the other formats."""
    if told.name == CONLLX:
        # here: only MaltEval's formats need their readers (start-up time of scoring)
        from .malt import check_conllx
        check_conllx(told.path)


def _plain(charset: Optional[str]) -> bool:
    return not charset or codecs.lookup(charset).name == "utf-8"


def _checked_bytes(told: InputFormat, charset: Optional[str], profile: str, vocab: Optional[Vocab]) -> bytes:
    """The file as CoNLL text in UTF-8 (MaltTab and MaltXML converted), read once by the CoNLL-U
    reader so that its errors name the original file and line."""
    # here: only MaltEval's formats and --charset need these readers (start-up time of scoring)
    from .malt import convert, relocate, utf8_bytes
    if told.name in (CONLLU, CONLLX):
        data = utf8_bytes(told.path, charset)
        parse_bytes(data, told.path, profile, vocab)
        return data
    conversion = convert(told.path, charset, told.name)
    data = conversion.text.encode("utf-8")
    try:
        parse_bytes(data, told.path, profile, vocab)
    except InputError as exc:
        raise relocate(exc, conversion) from None
    return data

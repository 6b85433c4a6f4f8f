"""Untrusted XML (``-e`` evaluation files, MaltXML treebanks) parsed with expat and nothing
that could expand or fetch: DOCTYPE and ENTITY declarations are refused before parsing (in any
UTF-8/16/32 spelling) and while parsing, and every error names ``file:line``.

:func:`parse` gives the handlers a ``line()`` function (the parser's current line) and raises
the caller's error class (an :class:`~conll_eval.errors.InputError`) with a stable code.
"""
from __future__ import annotations

from typing import Callable, Dict, Type

from ..errors import InputError, Location

__all__ = ["DECLARATIONS", "refuse_declarations", "parse"]

DECLARATIONS = ("<!DOCTYPE", "<!ENTITY")


def refuse_declarations(data: bytes, path: str, error: Type[InputError], what: str) -> None:
    """Raise ``error`` (code ``xml-declaration-refused``) at the first DOCTYPE or ENTITY
    declaration in any encoding expat reads (UTF-8 and its ASCII subsets, Latin-1, UTF-16,
    UTF-32), before any XML parser sees the file; ``what`` names the kind of file."""
    for encoding in ("utf-8", "utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"):
        text = data.decode(encoding, errors="ignore").upper()
        for declaration in DECLARATIONS:
            at = text.find(declaration)
            if at != -1:
                line = text.count("\n", 0, at) + 1
                raise error(Location(path, line), "xml-declaration-refused",
                            f"{declaration[2:]} declarations are not allowed in {what} "
                            f"(entity expansion and external entities are refused)")


def parse(data: bytes, path: str, error: Type[InputError], what: str,
          handlers: Callable[[Callable[[], int]], Dict[str, Callable]]) -> None:
    """Parse ``data`` with expat.  ``handlers(line)`` returns expat handler attributes
    (``StartElementHandler``...) by name; ``line()`` is the current line.  Declarations are
    refused (:func:`refuse_declarations`, and expat's declaration handlers), parameter entities
    are never parsed, and a syntax error raises ``error`` (code ``xml-syntax``)."""
    import xml.parsers.expat as expat  # here: only an XML file needs the parser

    refuse_declarations(data, path, error, what)
    parser = expat.ParserCreate()
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)

    def line() -> int:
        return parser.CurrentLineNumber

    def refuse(*_args):
        raise error(Location(path, line()), "xml-declaration-refused",
                    f"DOCTYPE/ENTITY declarations are not allowed in {what}")

    for name in ("StartDoctypeDeclHandler", "EntityDeclHandler", "UnparsedEntityDeclHandler",
                 "ExternalEntityRefHandler"):
        setattr(parser, name, refuse)
    for name, handler in handlers(line).items():
        setattr(parser, name, handler)
    try:
        parser.Parse(data, True)
    except expat.ExpatError as exc:
        raise error(Location(path, exc.lineno), "xml-syntax",
                    f"not well-formed XML: {expat.ErrorString(exc.code)} "
                    f"(column {exc.offset + 1})") from None

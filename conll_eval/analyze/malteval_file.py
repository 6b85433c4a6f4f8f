"""MaltEval's evaluation files (``-e file.xml``): parameters read from untrusted XML, with line numbers.

DOCTYPE and ENTITY declarations are refused before and while parsing
(:mod:`conll_eval.io.safexml`); a wrong file is an
:class:`~conll_eval.analyze.malteval_names.EvaluationFileError` at its line.
"""
from __future__ import annotations

import os
from typing import Dict, List, Tuple, Union

from ..errors import Location
from ..io.safexml import parse, refuse_declarations
from .malteval_names import PARAMETER_NAMES, EvaluationFileError, MaltEvalUsageError, _java_trim
from .malteval_settings import Parameter, _set_formatting

# ----------------------------------------------------------------------------------------------
# the -e evaluation file

_MAX_XML_BYTES = 1 << 20


class _Node:
    __slots__ = ("name", "attrs", "line", "children")

    def __init__(self, name: str, attrs: Dict[str, str], line: int):
        self.name = name
        self.attrs = attrs
        self.line = line
        self.children: List[Union[_Node, Tuple[str, str, int]]] = []  # nodes, (kind, text, line)


def _refuse_declarations(data: bytes, path: str) -> None:
    """Refuse DOCTYPE/ENTITY declarations in an evaluation file (:mod:`conll_eval.io.safexml`)."""
    refuse_declarations(data, path, EvaluationFileError, "an evaluation file")


def _read_xml(path: str) -> _Node:
    """Parse ``path`` into a small DOM with line numbers, refusing DOCTYPE and ENTITY
    declarations before parsing (any UTF-8/16/32 spelling) and while parsing."""
    location = Location(path)
    try:
        with open(path, "rb") as handle:
            data = handle.read(_MAX_XML_BYTES + 1)
    except OSError as exc:
        raise EvaluationFileError(location, "missing-file",
                                  f"-e: cannot read the evaluation file: {exc.strerror}",
                                  f"Error: I/O exception. File {path} might be missing:\n"
                                  f"java.io.FileNotFoundException: {os.path.abspath(path)} "
                                  f"({exc.strerror})") from exc
    if len(data) > _MAX_XML_BYTES:
        raise EvaluationFileError(location, "evaluation-file-too-large",
                                  f"the evaluation file is larger than {_MAX_XML_BYTES} bytes")
    root_holder = _Node("#document", {}, 0)
    stack = [root_holder]

    def handlers(line):
        def start(name, attrs):
            node = _Node(name, attrs, line())
            stack[-1].children.append(node)
            stack.append(node)

        def end(_name):
            stack.pop()

        def chars(text):
            children = stack[-1].children
            if children and isinstance(children[-1], tuple) and children[-1][0] == "#text":
                children[-1] = ("#text", children[-1][1] + text, children[-1][2])
            else:
                children.append(("#text", text, line()))

        def comment(text):
            stack[-1].children.append(("#comment", text, line()))

        def instruction(target, _data):
            stack[-1].children.append((target, "", line()))

        return {"StartElementHandler": start, "EndElementHandler": end,
                "CharacterDataHandler": chars, "CommentHandler": comment,
                "ProcessingInstructionHandler": instruction}

    parse(data, path, EvaluationFileError, "an evaluation file", handlers)
    roots = [c for c in root_holder.children if isinstance(c, _Node)]
    return roots[0]


def _significant(node: _Node) -> List[Union[_Node, Tuple[str, str, int]]]:
    """The children minus whitespace-only text (MaltEval's removeEmptyNodes)."""
    return [c for c in node.children
            if not (isinstance(c, tuple) and c[0] == "#text" and _java_trim(c[1]) == "")]


def _read_evaluation_file(path: str, params: Dict[str, Parameter],
                          formatting: Dict[str, object]) -> None:
    root = _read_xml(path)

    def fail(line: int, message: str, code: str = "bad-evaluation-file") -> EvaluationFileError:
        return EvaluationFileError(Location(path, line), code, message, message)

    if root.name != "evaluation":
        raise fail(root.line, f'Incorrect element name. Found "{root.name}", expected element '
                              f'node: "evaluations"')
    for child in _significant(root):
        if isinstance(child, tuple):
            if child[0] == "#comment":
                continue
            raise fail(child[2], f'Incorrect element name. Found "{child[0]}", expected element '
                                 f'node: "parameter"')
        line = child.line
        if child.name == "parameter":
            if "name" not in child.attrs:
                raise EvaluationFileError(
                    Location(path, line), "bad-evaluation-file",
                    "<parameter> without a name attribute",
                    f"Error when reading the file {path}: incorrect file content:\n"
                    f"java.lang.NullPointerException")
            name = _java_trim(child.attrs["name"])
            values: Dict[str, str] = {}
            for item in _significant(child):
                if isinstance(item, tuple) or item.name != "value":
                    found = item[0] if isinstance(item, tuple) else item.name
                    raise fail(item[2] if isinstance(item, tuple) else item.line,
                               f'Incorrect element name. Found "{found}", expected element '
                               f'node: "value"')
                content = _significant(item)
                if len(content) == 1 and isinstance(content[0], tuple) and content[0][0] == "#text":
                    values[_java_trim(content[0][1])] = _java_trim(item.attrs.get("format", ""))
                else:
                    values[""] = ""
            if name not in PARAMETER_NAMES:
                raise fail(line, f'"{name}" is not a valid evaluation parameter name')
            params[name] = Parameter(name, tuple(values.items()), Location(path, line))
        elif child.name == "formatting":
            if "argument" not in child.attrs or "format" not in child.attrs:
                raise EvaluationFileError(
                    Location(path, line), "bad-evaluation-file",
                    "<formatting> needs the attributes argument and format",
                    f"Error when reading the file {path}: incorrect file content:\n"
                    f"java.lang.NullPointerException")
            argument = "--" + _java_trim(child.attrs["argument"])
            try:
                _set_formatting(formatting, argument, _java_trim(child.attrs["format"]))
            except MaltEvalUsageError as error:
                raise EvaluationFileError(Location(path, line), "bad-evaluation-file",
                                          error.message, error.malteval_message) from None
        else:
            raise fail(line, f'Incorrect element name. Found "{child.name}", expected element '
                             f'node: "parameter"')



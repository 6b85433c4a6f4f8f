"""How text from the inputs (file and directory names, paths, treebank codes, messages that
quote them) is shown in each output: one rule, :func:`conll_eval.errors.printable`, then
what the output's own syntax needs.  Formatting only.

* plain text, TSV/CSV, the official and TIRA layouts: :func:`printable` (control characters,
  bidi overrides, line breaks and undecodable bytes spelt out: ``\\n``, ``\\x1b``,
  ``\\u202e``, ``\\xff``), so a name is one line and can never be a workflow command
  (``::add-mask::``) or drive a terminal;
* Markdown (pull-request comments, ``$GITHUB_STEP_SUMMARY``): :func:`markdown_text`, the
  same and then every character Markdown or HTML would act on escaped;
* LaTeX (``--format latex``, a tabular to ``\\input`` into a paper): :func:`latex_text` in
  the cells, the same and then every character TeX would act on as a command; comment lines
  (headings, notes, the signature) are spelt out only: TeX skips a comment to its line's end;
* HTML: :func:`html_text`; JSON: :func:`json_text` (every string spelt out); where a JSON
  output quotes the input on purpose (the validator's messages, the report's FORMs) the
  names are spelt out and the quoted text kept as read, JSON-escaped (:func:`kept`,
  :func:`valid_json_text`: valid UTF-8 whatever it holds).

>>> markdown_text("<img src=x>|[a](b)")
'&lt;img src=x&gt;\\\\|\\\\[a\\\\](b)'
"""
from __future__ import annotations

import re
from typing import Any

from ..errors import printable

__all__ = ["printable", "markdown_text", "latex_text", "html_text", "spelt_out", "json_text", "kept",
           "valid_json_text"]

# The patterns are compiled on first use (re's cache): importing this module costs no
# start-up time of the commands that print no Markdown or JSON.

#: Markdown's inline syntax (code, emphasis, links and images, table cells, strikethrough,
#: GitHub's math) and the escape character itself: escaped wherever they stand
_MARKDOWN_INLINE = r"[\\`*\[\]|~$]"
#: ``_`` emphasises unless it stands between two letters or digits (``en_ewt`` stays as is)
_LOOSE_UNDERSCORE = r"(?<![^\W_])_|_(?![^\W_])"
#: what starts a block at the head of a line (a heading, a list, a quote: ``>`` is an entity
#: by then) or a setext underline; escaped there only (``75.00`` is no list item: ``1.``
#: starts one only before a space)
_BLOCK_START = r"^(\s*(?:\d+)?)([#+\-=]|(?<=\d)[.)](?=\s|$))"
_HTML = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}
#: :func:`html.escape` with ``quote=True`` (that module costs start-up time: html.entities)
_HTML_QUOTED = str.maketrans({**_HTML, '"': "&quot;", "'": "&#x27;"})


def markdown_text(text: str) -> str:
    """``text`` as literal GitHub Markdown, safe in a table cell, a list item or a paragraph:
    spelt out by :func:`printable` (one line, no control characters), ``&``, ``<`` and ``>``
    as HTML entities (no tag, no autolink), and a backslash before every character that
    would start Markdown syntax (`` ` ``, ``*``, ``_`` but between letters, ``[``, ``]``,
    ``|``, ``~``, ``$``, ``\\``; ``#``, ``+``, ``-``, ``=`` and ``1. `` at the start).

    No code span holds input text: a backtick fence can be outrun, escapes cannot.
    """
    text = re.sub(_MARKDOWN_INLINE, r"\\\g<0>", printable(text))
    text = re.sub(_LOOSE_UNDERSCORE, r"\\_", text)
    text = "".join(_HTML.get(char, char) for char in text) if re.search("[&<>]", text) else text
    return re.sub(_BLOCK_START, lambda m: m.group(1) + "\\" + m.group(2), text, count=1)


#: what TeX would act on in text, as LaTeX prints it literally: its ten special characters,
#: the brackets (``\\\\`` and booktabs' rules read an optional ``[...]`` after them) and ``< >
#: |`` (other glyphs in the default OT1 font encoding)
_LATEX = str.maketrans({"\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "$": r"\$",
                        "&": r"\&", "#": r"\#", "^": r"\textasciicircum{}", "_": r"\_",
                        "~": r"\textasciitilde{}", "%": r"\%", "[": "{[}", "]": "{]}",
                        "<": r"\textless{}", ">": r"\textgreater{}", "|": r"\textbar{}"})


def latex_text(value: object) -> str:
    """``value`` as literal LaTeX text, safe in a tabular cell: spelt out by :func:`printable`
    (one line, no control characters: ``\\x1b`` then prints as such), then each of ``\\ {
    } $ & # ^ _ ~ %`` and ``[ ] < > |`` as the command or group that prints it.  Other
    characters (non-ASCII letters) stay UTF-8, LaTeX's input encoding since 2018.

    >>> latex_text("en_ewt & 50%")
    'en\\\\_ewt \\\\& 50\\\\%'
    """
    return printable(str(value)).translate(_LATEX)


def html_text(value: object) -> str:
    """``value`` as HTML text or a quoted attribute value: spelt out by :func:`printable`,
    then ``& < > " '`` as entities (as :func:`html.escape`)."""
    return printable(str(value)).translate(_HTML_QUOTED)


def spelt_out(value: Any) -> Any:
    """``value`` (JSON data: dicts, lists, strings, numbers) with every string, keys too,
    through :func:`printable`."""
    if isinstance(value, str):
        return printable(value)
    if isinstance(value, dict):
        return {spelt_out(key): spelt_out(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [spelt_out(item) for item in value]
    return value


#: in a JSON text, what :func:`printable` would spell out: such a character raw (DEL, C1,
#: bidi controls, line separators, lone surrogates), or JSON's escape of one (``\\n``,
#: ``\\u001b``; with ``ensure_ascii`` also ``\\u0085``, ``\\u202e``, ``\\udcff``, and astral
#: characters' pairs, which only cost a second look) after an even run of backslashes
_SPELLABLE_IN_JSON = (
    "[\x7f-\x9f\u202a-\u202e\u2066-\u2069\u2028\u2029\ud800-\udfff]"
    r"|(?<!\\)(?:\\\\)*\\(?:[bfnrt]|u(?:00[01]|007f|00[89]|202[89a-e]|206[6-9]|d[89a-f]))")

_SPELLABLE_CHARACTER = re.compile(_SPELLABLE_IN_JSON.split("|", 1)[0])


def json_text(document: Any, ensure_ascii: bool = False, **options: Any) -> str:
    """``json.dumps(document, ensure_ascii=ensure_ascii, **options)`` with every string of the
    document spelt out (:func:`spelt_out`): a name holds no control character, not even
    JSON-escaped, and the text is valid UTF-8 (an undecodable byte reads ``\\xff``).  The
    usual document has nothing to spell out: one scan of its text tells."""
    import json  # here: only the JSON outputs need it (start-up time of every other call)
    text = json.dumps(document, ensure_ascii=ensure_ascii, **options)
    # without a backslash only the characters can match: one scan of a character class,
    # 7x quicker than the whole pattern (0.12 s against 0.8 s on rank's 24 MB of JSON)
    if ("\\" not in text and _SPELLABLE_CHARACTER.search(text) is None) \
            or re.search(_SPELLABLE_IN_JSON, text, re.IGNORECASE) is None:
        return text
    return json.dumps(spelt_out(document), ensure_ascii=ensure_ascii, **options)


#: a lone surrogate: an undecodable byte read with ``surrogateescape``, which no UTF-8 text
#: (and no JSON text written as UTF-8) can hold
_SURROGATE = "[\ud800-\udfff]"


def kept(text: str) -> str:
    """Quoted input text (a FORM, a line) as a JSON output keeps it: as read, JSON-escaped by
    the encoder, but an undecodable byte spelt out (:func:`printable`), so the output stays
    valid UTF-8."""
    return text if re.search(_SURROGATE, text) is None else printable(text)


def valid_json_text(document: Any, **options: Any) -> str:
    """``json.dumps(document, ensure_ascii=False, **options)`` for a large document whose
    strings quote the input on purpose (FORMs, kept as read) and whose names were spelt out
    where it was built: valid UTF-8 all the same, as when a string holds an undecodable
    byte every string is spelt out.  One scan of the text in the usual case."""
    import json  # here: only the JSON outputs need it (start-up time of every other call)
    text = json.dumps(document, ensure_ascii=False, **options)
    if re.search(_SURROGATE, text) is None:
        return text
    return json.dumps(spelt_out(document), ensure_ascii=False, **options)

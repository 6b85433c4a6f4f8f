"""Assembles the self-contained HTML page: the static summary, the data as escaped JSON in a
``<script type="application/json">`` element, and the stylesheet and browser script
(package data in ``assets/``) inlined.

A Content-Security-Policy allows only the page's own script (by its hash) and nothing from
the network, so the report works offline and even a string that escaped escaping could not
run; nothing is fetched (no fonts, scripts or trackers).  Names and paths are spelt out
(:func:`~conll_eval.errors.printable`) in the page's text and in its data, as in every output.
"""
from __future__ import annotations

import base64
import hashlib
from importlib import resources
from typing import Mapping, Optional, Sequence

from ..escape import html_text, printable, spelt_out, valid_json_text
from .summary import macro_table, suite_treebank_table, treebank_summary

__all__ = ["render_page", "embedded_json", "asset"]


def asset(name: str) -> str:
    """The text of a file in ``assets/`` (the page's CSS and JavaScript)."""
    return resources.files(__package__).joinpath("assets", name).read_text(encoding="utf-8")


def embedded_json(document: object) -> str:
    """Compact JSON safe inside ``<script>``: ``<``, ``>``, ``&`` and the line separators
    as ``\\u`` escapes, so no input string can close the element or start markup; valid
    UTF-8 whatever the strings hold (:func:`~conll_eval.report.escape.valid_json_text`)."""
    text = valid_json_text(document, separators=(",", ":"), allow_nan=False)
    return (text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def _script_hash(script: str) -> str:
    digest = hashlib.sha256(script.encode("utf-8")).digest()
    return "sha256-" + base64.b64encode(digest).decode("ascii")


def _names_spelt_out(record: dict) -> dict:
    """A treebank record (:func:`.data.treebank_data`) with what it names spelt out: the
    treebank, the systems, the files, the significance tests' systems, the enhanced note.
    Its FORMs and labels stay as read (the embedded JSON's net makes them valid UTF-8)."""
    record = dict(record, name=printable(record["name"]),
                  systems=[printable(name) for name in record["systems"]],
                  gold=dict(record["gold"], path=printable(record["gold"]["path"])),
                  runs=[dict(run, path=printable(run["path"])) for run in record["runs"]])
    for key in ("significance", "enhanced_note"):
        if key in record:
            record[key] = spelt_out(record[key])
    return record


def render_page(title: str, treebanks: Sequence[dict], signature: str,
                macro: Optional[Mapping] = None, generator: str = "conll_eval") -> str:
    """The whole page. ``treebanks``: records of :func:`.data.treebank_data`; ``macro``
    (suites): ``{"systems", "metrics", "averages": [per system {metric: Average.as_dict()}],
    "failures": [[line, ...] per system]}``."""
    treebanks = [_names_spelt_out(tb) for tb in treebanks]
    macro = spelt_out(macro) if macro is not None else None  # names and failure messages
    title = printable(title)
    script = asset("report.js")
    style = asset("report.css")
    csp = (f"default-src 'none'; script-src '{_script_hash(script)}'; style-src 'unsafe-inline'; "
           "img-src data:; base-uri 'none'; form-action 'none'")
    nav = ('<a href="#macro">Macro-average</a><a href="#per-treebank">Per treebank</a>'
           if macro is not None else "")
    nav += "".join(f'<a href="#tb-{i}">{html_text(tb["name"])}</a>' for i, tb in enumerate(treebanks))
    sections = []
    if macro is not None:
        sections.append('<section id="macro"><h2>Macro-average over the treebanks</h2>'
                        '<p class="note">The mean of per-treebank scores, a failed treebank '
                        'counting 0 (as <code>conll_eval suite</code>).</p>'
                        + macro_table(macro["averages"], macro["systems"], macro["metrics"],
                                      macro.get("failures", ())) + "</section>")
        if macro.get("treebanks"):
            sections.append('<section id="per-treebank"><h2>Per treebank</h2><p class="note">F1 '
                            'of each system; a score opens the treebank\'s sentences, a name its '
                            'section.</p>' + suite_treebank_table(macro["treebanks"], macro["systems"],
                                                                   macro["metrics"]) + "</section>")
    sections += [treebank_summary(tb, i, signature) for i, tb in enumerate(treebanks)]
    # each treebank in an element of its own: the browser parses one when it shows it
    data = {"v": 2, "signature": signature,
            "treebanks": [{"name": tb["name"], "data": f"report-tb-{i}"} for i, tb in enumerate(treebanks)]}
    if macro is not None:
        data["macro"] = macro
    blocks = "".join(f'<script type="application/json" id="report-tb-{i}">{embedded_json(tb)}</script>'
                     for i, tb in enumerate(treebanks))
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{csp}">'  # ours: no & < > "'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<meta name="generator" content="{html_text(generator)}">'
        '<link rel="icon" href="data:,">'
        f"<title>{html_text(title)}</title><style>{style}</style></head><body>"
        f'<header><h1>{html_text(title)}</h1><p class="sig">{html_text(signature)}</p>'
        f'<nav>{nav}<a href="#browser">Sentences</a></nav></header><main>'
        + "".join(sections) +
        '<section id="browser"><h2>Sentences</h2><noscript><p>The sentence browser needs '
        'JavaScript; the tables above do not.</p></noscript><div id="browser-root"></div>'
        '</section></main>'
        f'<script type="application/json" id="report-data">{embedded_json(data)}</script>'
        + blocks +
        f"<script>{script}</script></body></html>\n")

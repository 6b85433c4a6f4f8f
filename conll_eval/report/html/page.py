"""Assembles the self-contained HTML page: the static summary, the data as escaped JSON in a
``<script type="application/json">`` element, and the stylesheet and browser script
(package data in ``assets/``) inlined.

A Content-Security-Policy allows only the page's own script (by its hash) and nothing from
the network, so the report works offline and even a string that escaped escaping could not
run; nothing is fetched (no fonts, scripts or trackers).
"""
from __future__ import annotations

import base64
import hashlib
import json
from html import escape
from importlib import resources
from typing import Mapping, Optional, Sequence

from .summary import macro_table, suite_treebank_table, treebank_summary

__all__ = ["render_page", "embedded_json", "asset"]


def asset(name: str) -> str:
    """The text of a file in ``assets/`` (the page's CSS and JavaScript)."""
    return resources.files(__package__).joinpath("assets", name).read_text(encoding="utf-8")


def embedded_json(document: object) -> str:
    """Compact JSON safe inside ``<script>``: ``<``, ``>``, ``&`` and the line separators
    as ``\\u`` escapes, so no input string can close the element or start markup."""
    text = json.dumps(document, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return (text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def _script_hash(script: str) -> str:
    digest = hashlib.sha256(script.encode("utf-8")).digest()
    return "sha256-" + base64.b64encode(digest).decode("ascii")


def render_page(title: str, treebanks: Sequence[dict], signature: str,
                macro: Optional[Mapping] = None, generator: str = "conll_eval") -> str:
    """The whole page. ``treebanks``: records of :func:`.data.treebank_data`; ``macro``
    (suites): ``{"systems", "metrics", "averages": [per system {metric: Average.as_dict()}],
    "failures": [[line, ...] per system]}``."""
    script = asset("report.js")
    style = asset("report.css")
    csp = (f"default-src 'none'; script-src '{_script_hash(script)}'; style-src 'unsafe-inline'; "
           "img-src data:; base-uri 'none'; form-action 'none'")
    nav = ('<a href="#macro">Macro-average</a><a href="#per-treebank">Per treebank</a>'
           if macro is not None else "")
    nav += "".join(f'<a href="#tb-{i}">{escape(tb["name"])}</a>' for i, tb in enumerate(treebanks))
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
        f'<meta http-equiv="Content-Security-Policy" content="{escape(csp, quote=False)}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<meta name="generator" content="{escape(generator)}">'
        '<link rel="icon" href="data:,">'
        f"<title>{escape(title)}</title><style>{style}</style></head><body>"
        f'<header><h1>{escape(title)}</h1><p class="sig">{escape(signature)}</p>'
        f'<nav>{nav}<a href="#browser">Sentences</a></nav></header><main>'
        + "".join(sections) +
        '<section id="browser"><h2>Sentences</h2><noscript><p>The sentence browser needs '
        'JavaScript; the tables above do not.</p></noscript><div id="browser-root"></div>'
        '</section></main>'
        f'<script type="application/json" id="report-data">{embedded_json(data)}</script>'
        + blocks +
        f"<script>{script}</script></body></html>\n")

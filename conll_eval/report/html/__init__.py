"""The self-contained HTML report (``conll_eval report``, ``suite --html``, ``analyze -v 1``):
static summary tables and SVG charts, and a sentence browser drawing gold and system trees.

:func:`treebank_data` turns scored pairs into the embedded record (:mod:`.data`);
:func:`render_page` assembles the page (:mod:`.page`, :mod:`.summary`, ``assets/``).
"""
from .data import treebank_data
from .page import embedded_json, render_page

__all__ = ["treebank_data", "render_page", "embedded_json"]

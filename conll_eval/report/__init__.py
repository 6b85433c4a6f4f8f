"""Formatters: they turn evaluations into text and never compute scores themselves.

The score formatters below load on first use (PEP 562): their modules import the scoring stack
(numpy), which the light modules here (:mod:`.escape`, :mod:`.tables`) must not bring into the
command line's help, completion and man pages (start-up time).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_names

if TYPE_CHECKING:  # the lazy names as type checkers see them
    from .machine import to_delimited, to_json, to_markdown, to_tsv
    from .official import counts_table, default_lines, verbose_table

__all__ = ["verbose_table", "counts_table", "default_lines", "to_json", "to_tsv", "to_delimited",
           "to_markdown"]

#: public name -> the module of this package that defines it
_LAZY_NAMES = {"verbose_table": "official", "counts_table": "official", "default_lines": "official",
               "to_json": "machine", "to_tsv": "machine", "to_delimited": "machine",
               "to_markdown": "machine"}


__getattr__, __dir__ = lazy_names(__name__, _LAZY_NAMES, globals())

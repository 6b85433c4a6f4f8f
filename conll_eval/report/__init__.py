"""Formatters: they turn evaluations into text and never compute scores themselves."""
from .official import counts_table, default_lines, verbose_table
from .machine import to_delimited, to_json, to_markdown, to_tsv

__all__ = ["verbose_table", "counts_table", "default_lines", "to_json", "to_tsv", "to_delimited",
           "to_markdown"]

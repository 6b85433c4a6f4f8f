"""Vectorised CoNLL-U reading for regular files: numpy (or the compiled core) over the raw bytes.

:func:`scan` finds newlines and tabs, parses IDs and HEADs digit by digit as arrays, and
interns each string column through exact integer keys read from the bytes, so no Python
object per field is created except the distinct strings.  Files are scanned in pieces cut
after blank lines (:func:`scan_stream` reads them from disk one at a time, so the whole file
is never in memory); DEPS, MISC and the comments, which scoring does not need, are kept as
byte ranges and read on first use.  Only *regular* files are accepted; for anything else it
returns None and the exact parser decides, including every error message.

The parts live in :mod:`conll_eval.io`: ``scan_pieces`` (the pieces and the whole file),
``scan_numpy`` (the numpy scan of a piece), ``scan_compiled`` (the compiled scan's glue),
``lazy_fields`` (lazy columns and metadata), ``utf8`` and ``columns``.  This module keeps
their public names importable from here.
"""
from __future__ import annotations

from .io.columns import COLUMN_INDEX, EMPTY_COLUMN_INDEX, LAZY_COLUMNS, NEWLINE, Columns, metadata
from .io.lazy_fields import FieldBytes, LazyCodes, file_identity, read_unchanged
from .io.scan_numpy import WORD_FIELD_MAX, is_forest_acyclic
from .io.scan_pieces import SCAN_PIECE_BYTES, scan, scan_stream
from .io.utf8 import utf8_valid, utf8_valid_numpy

__all__ = ["Columns", "LazyCodes", "FieldBytes", "scan", "scan_stream", "file_identity",
           "utf8_valid", "metadata", "utf8_valid_numpy", "is_forest_acyclic", "NEWLINE", "COLUMN_INDEX",
           "EMPTY_COLUMN_INDEX", "LAZY_COLUMNS", "WORD_FIELD_MAX", "SCAN_PIECE_BYTES"]

# the name older code imported (the package itself imports from conll_eval.io)
_read_unchanged = read_unchanged

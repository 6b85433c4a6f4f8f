"""The CoNLL-U reader's public names, kept importable from here (the reader lives in :mod:`conll_eval.io`).

:func:`load` and its kin are :mod:`conll_eval.io.conllu`'s (CoNLL-U with the official scorers'
rules), the byte input, diagnoses and profiles their own modules'.  The package reads every
treebank format through :func:`conll_eval.io.read.read_treebank`; the validator, which reads lines
itself, takes its byte input and diagnoses from :mod:`conll_eval.io` directly.
"""
from __future__ import annotations

from .io.byte_input import (check_utf8, compression_of, decompress, open_input, os_error, read_bytes,
                            read_lines, read_stdin, stdin_binary)
from .io.conllu import build_treebank, load, load_collapsed, load_source, load_text, parse_bytes
from .io.diagnoses import SNIFF_BYTES, describe_non_conllu, explain_error
from .io.exact_parser import ExactParser
from .io.profiles import PROFILE_NAMES, LazyRegex, check_profile, official_message, space_pattern

__all__ = ["PROFILE_NAMES", "load", "load_source", "load_text", "read_lines", "official_message", "open_input",
           "stdin_binary", "read_stdin", "read_bytes", "compression_of", "decompress",
           "describe_non_conllu", "explain_error", "SNIFF_BYTES", "LazyRegex", "os_error", "parse_bytes",
           "load_collapsed"]

# the names of tests and of older code (the parts moved to conll_eval.io)
_ExactParser = ExactParser
_space_pattern = space_pattern
_check_profile = check_profile
_check_utf8 = check_utf8
_build = build_treebank

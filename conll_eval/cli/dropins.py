"""The command names of the tools conll_eval stands in for, so that scripts written against
them run unchanged: ``malteval`` (MaltEval 1.0's command line, ``conll_eval analyze``),
``mooteval`` (``conll_eval tagger``), ``conll18_ud_eval``, ``conll17_ud_eval``,
``iwpt20_ud_eval`` (the official scorers' command lines, :mod:`conll_eval.compat`) and
``conll-eval-udvalidate`` (udtools' ``udvalidate``: its options, its output, all on stderr).

Each is a console script of the package (setup.cfg) and exits like the tool it replaces.
``conll-eval-validate`` is no drop-in: it is ``conll_eval validate`` (conll_eval's output),
the meaning the pre-commit hook of that name has (.pre-commit-hooks.yaml).
"""
from __future__ import annotations

import importlib
import os
import sys
from typing import Callable, List, NoReturn, Optional

from . import main
from .messages import invoked_as

__all__ = ["malteval", "mooteval", "conll18_ud_eval", "conll17_ud_eval", "iwpt20_ud_eval",
           "udvalidate", "validate"]


def _exit(status: int) -> NoReturn:
    """Flush and leave at once, as ``conll_eval`` does (:func:`conll_eval.cli.main_entry`)."""
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except OSError:
            pass  # main() reported it, or a reader left
    os._exit(status)


def _subcommand(name: str, argv: Optional[List[str]], invoked: str) -> int:
    """``conll_eval name argv...`` speaking as ``invoked`` (its usage, help and lines)."""
    invoked_as(name, invoked)
    return main([name, *(sys.argv[1:] if argv is None else argv)])


def malteval(argv: Optional[List[str]] = None) -> NoReturn:
    """``malteval -s SYSTEM -g GOLD ...``: ``java -jar MaltEval.jar`` as ``conll_eval analyze``."""
    _exit(_subcommand("analyze", argv, "malteval"))


def mooteval(argv: Optional[List[str]] = None) -> NoReturn:
    """``mooteval [OPTIONS] GOLD SYSTEM``: moot's ``mooteval`` as ``conll_eval tagger``."""
    _exit(_subcommand("tagger", argv, "mooteval"))


def udvalidate(argv: Optional[List[str]] = None) -> NoReturn:
    """``conll-eval-udvalidate [--level N] [--lang L] FILE...``: udtools' ``udvalidate`` as
    ``conll_eval validate --format udtools``, every line on stderr as udvalidate writes them."""
    args = sys.argv[1:] if argv is None else argv
    invoked_as("validate", "conll-eval-udvalidate")
    _exit(main(["validate", "--format", "udtools", *args], sys.stderr, sys.stderr))


def validate(argv: Optional[List[str]] = None) -> NoReturn:
    """``conll-eval-validate [OPTIONS] FILE...``: ``conll_eval validate`` under the pre-commit
    hook's name, with its meaning (conll_eval's output; the hook adds ``--per-file``)."""
    _exit(_subcommand("validate", argv, "conll-eval-validate"))


def _scorer(module: str) -> Callable[[Optional[List[str]]], NoReturn]:
    def run(argv: Optional[List[str]] = None) -> NoReturn:
        command_line = importlib.import_module(module).command_line
        _exit(command_line(sys.argv[1:] if argv is None else argv))
    run.__name__ = module.rsplit(".", 1)[-1]
    run.__doc__ = f"The official scorer's command line, scored by :mod:`{module}`."
    return run


conll18_ud_eval = _scorer("conll_eval.compat")
conll17_ud_eval = _scorer("conll_eval.compat.conll17")
iwpt20_ud_eval = _scorer("conll_eval.compat.iwpt20")

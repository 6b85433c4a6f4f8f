"""``python -m conll_eval.compat``: the ``conll18_ud_eval.py`` command line, scored by conll_eval.

It runs :func:`conll_eval.compat.command_line` (the official output; errors as the last line of
the official traceback, exit 1); ``python -m conll_eval.compat.conll17`` etc. run the others."""
import sys

from . import command_line

sys.exit(command_line())

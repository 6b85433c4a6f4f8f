"""The analysis pillar: MaltEval-compatible analyses (``conll_eval analyze``) on top of the
reader, the word alignment and the counts.

Modules, bottom up: :mod:`.java` (the Java library behaviours MaltEval's output depends on),
:mod:`.options` (argv and ``-e`` files -> settings: :mod:`.malteval_names`,
:mod:`.malteval_settings`, :mod:`.malteval_file`, :mod:`.malteval_argv`), :mod:`.groupings` (the grouping registry, plugins),
:mod:`.counting` (metrics and built-in groupings as arrays), :mod:`.positional` and
:mod:`.complex` (more groupings), :mod:`.tables` (evaluations -> table data),
:mod:`.confusion` and :mod:`.significance` (confusion tables, McNemar), :mod:`.run` (one
command from settings to output items; its files, in any treebank format, are read through
:func:`conll_eval.io.read.read_treebank`).  Text and JSON are :mod:`conll_eval.report.malteval`'s;
only :mod:`conll_eval.cli.analyze` prints.  Significance: :mod:`.resampling` and
:mod:`.comparison`, with their defaults in :mod:`.defaults` (which the command line's help
reads without importing them).  This package imports nothing at start-up.
"""

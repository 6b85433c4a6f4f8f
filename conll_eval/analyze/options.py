"""MaltEval 1.0 command lines (and ``-e`` evaluation files) -> one frozen :class:`Settings`.

:func:`parse_args` reads what follows ``java -jar MaltEval.jar`` with MaltEval's argument rules
and checks everything that needs no data; the only I/O is reading the ``-e`` XML file (and
listing a directory given to ``-s``/``-g``).  :func:`echo_arguments` is MaltEval's first line:

>>> echo_arguments(["-s", "sys.conll", "-g", "gold.conll", "--Metric", "LAS;UAS"])
'Evaluation arguments: -s sys.conll -g gold.conll --Metric "LAS;UAS"'
>>> s = parse_args(["-s", "sys.conll", "-g", "gold.conll", "--Metric", "LA",
...                 "--GroupBy", "Deprel:all|recall-10"])
>>> [(p.name, p.values) for p in s.parameters]
[('Metric', (('LA', ''),)), ('GroupBy', (('Deprel', 'all|recall-10'),))]
>>> e = s.evaluations()[0]
>>> e.metric, e.grouping.name, e.columns.names, e.columns.sort_by, e.columns.cut
('LA', 'Deprel', ('precision', 'recall', 'fscore', 'parsercounter', 'treebankcounter', 'correctcounter'), 'recall', 10)

Parameter names and each parameter's values keep the order in which Java's ``Hashtable`` and
``HashMap`` receive them (``Metric`` and ``GroupBy`` first on the command-line path, because
MaltEval puts its defaults in before reading the flags).  :meth:`Settings.evaluations` gives the
evaluations in that input order or, with ``order="java"``, in MaltEval's hash order
(:mod:`conll_eval.analyze.java`).

Errors: :class:`MaltEvalUsageError` (a :class:`~conll_eval.errors.UsageError`, exit 2) for the
command line, :class:`EvaluationFileError` (an :class:`~conll_eval.errors.InputError`, exit 1,
``file:line``) for the ``-e`` file.  Both carry ``malteval_message``: the text MaltEval prints
after ``Evaluation aborted: `` (``None`` where MaltEval would not abort or its text is not
reproducible, e.g. a Java XML parser message).

Deliberate differences from MaltEval (listed in :data:`DIFFERENCES`; where MaltEval would crash
the settings record its message in :attr:`Settings.malteval_crash`):

- an ``-e`` file without ``Metric``: MaltEval throws a NullPointerException (case 148); here
  Metric is ``LAS`` (its own feature default) and no ``Metric->`` line is given;
- ``:all`` (or a format of only ``|``) on a complex grouping with several offsets and no
  Wordform: MaltEval throws a NullPointerException (073); here the columns are
  ``accuracy counter correctcounter``, the set of every complex grouping;
- ``--Metric self`` with a complex grouping (or ``Postag@0``): NullPointerException in
  MaltEval; here ``BothRight``, the self metric of every grouping a complex one is made of;
- DOCTYPE and ENTITY declarations in the ``-e`` file are refused (Java's parser expands them);
- a directory given to ``-s``/``-g`` is joined with ``os.path.join`` (MaltEval concatenates,
  so ``-s dir`` without a trailing slash finds no file), and must hold a file;
- ``-s``/``-g`` followed directly by another flag, an empty value list (``--Metric ";"``), a
  negative cut other than ``-1`` (``accuracy+-5``) and a DecimalFormat pattern in scientific
  notation are rejected, and a complex grouping is never a Metric value (MaltEval accepts one
  that an earlier evaluation of the run registered);
- the help/usage modes (no arguments, ``--help``, ``--examples``) and ``-e eval07.pl`` are not
  supported.

The parts: :mod:`.malteval_names` (MaltEval's names, column sets, errors, Java string rules),
:mod:`.malteval_settings` (the settings and their evaluations), :mod:`.malteval_file` (the
``-e`` XML file) and :mod:`.malteval_argv` (the command line); this module keeps their public
names importable from here.
"""
from __future__ import annotations

from .grouping_facts import BUILTIN_GROUPINGS, GroupingInfo
from .malteval_argv import parse_args
from .malteval_names import (ACCURACY_COLUMNS, COMPLEX_COMPONENTS, DEFAULT_PATTERN, DIFFERENCES,
                             EXCLUDE_PARAMETERS, FORMATTING_FLAGS, GROUPING_NAMES, METRIC_NAMES,
                             OUTPUT_FORMATS, PARAMETER_NAMES, PARSER_TREEBANK_COLUMNS,
                             PRECISION_RECALL_COLUMNS, REMOVE_VALUES, SENTENCE_COLUMNS,
                             EvaluationFileError, MaltEvalUsageError)
from .malteval_settings import (Columns, Evaluation, Formatting, Grouping, Parameter, Settings,
                                column_sets, echo_arguments, parse_columns, parse_grouping, self_metric,
                                validate_evaluations)

__all__ = [
    "METRIC_NAMES", "GROUPING_NAMES", "BUILTIN_GROUPINGS", "GroupingInfo", "COMPLEX_COMPONENTS",
    "PARAMETER_NAMES", "EXCLUDE_PARAMETERS", "FORMATTING_FLAGS", "REMOVE_VALUES",
    "ACCURACY_COLUMNS", "PRECISION_RECALL_COLUMNS", "PARSER_TREEBANK_COLUMNS", "SENTENCE_COLUMNS",
    "DEFAULT_PATTERN", "DIFFERENCES", "column_sets", "self_metric",
    "MaltEvalUsageError", "EvaluationFileError", "Parameter", "Formatting", "Grouping",
    "Columns", "Evaluation", "Settings", "parse_args", "parse_grouping", "parse_columns",
    "validate_evaluations", "echo_arguments", "OUTPUT_FORMATS",
]

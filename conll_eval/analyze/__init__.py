"""The analysis pillar: MaltEval-compatible analyses (groupings, selections, tables, significance).

Each module can be explained in two sentences; :mod:`conll_eval.analyze.java` holds the Java
library behaviours (DecimalFormat, hash iteration orders, ``String.compareTo``, character types)
that MaltEval's output depends on.  This package imports nothing at start-up.
"""

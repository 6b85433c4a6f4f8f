"""The input layer: CoNLL-U bytes from files, standard input or compressed streams, parsed the official way.

Its modules are leaves that :mod:`conll_eval.reader` puts together (``load``, ``parse_bytes``);
this package imports none of them itself, so ``import conll_eval.io.profiles`` loads only that.
"""

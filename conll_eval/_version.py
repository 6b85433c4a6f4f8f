"""The version of conll_eval, in a module of its own: the package, the signature
(:mod:`conll_eval.evaluate`) and the build (setup.cfg) read it without importing each other."""
__version__ = "0.1.0"

"""Defaults of the significance tests: resamples, seed and the p-value corrections offered.
A module of their own so that the command line can show them in its help without importing
the resampling code (start-up time); :mod:`.resampling` and :mod:`.comparison` use them."""

__all__ = ["DEFAULT_RESAMPLES", "DEFAULT_SEED", "CORRECTIONS"]

DEFAULT_RESAMPLES = 1000
DEFAULT_SEED = 12345
#: p-value corrections over the pairs of systems tested
CORRECTIONS = ("holm", "bonferroni", "none")

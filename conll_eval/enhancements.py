"""The ``--enhancements`` switches of the IWPT scorer and udtools' ``udeval``: which digit
turns off which enhancement type, and the options an enhanced graph is built with.

Kept apart from :mod:`conll_eval.metrics` (which registers ELAS and EULAS) and
:mod:`conll_eval.enhanced` (which builds and counts the graphs) so that both can use them.
"""
from __future__ import annotations

from dataclasses import dataclass

__all__ = ["ENHANCEMENT_DIGITS", "EnhancedOptions"]

#: ``--enhancements`` digits: the enhancement type each one turns off (conll_eval.enhanced
#: applies them as the scripts do)
ENHANCEMENT_DIGITS = {"1": "gapping", "2": "shared parents in coordination",
                      "3": "shared dependents in coordination", "4": "control",
                      "5": "external arguments of relative clauses", "6": "case information"}


@dataclass(frozen=True)
class EnhancedOptions:
    """The enhanced switches: ``enhancements`` (digits of :data:`ENHANCEMENT_DIGITS`; ``0`` or
    other characters change nothing, as in the scripts) and ``no_empty_nodes``."""

    enhancements: str = "0"
    no_empty_nodes: bool = False

    def off(self, digit: str) -> bool:
        return digit in self.enhancements

"""The parallel treebank score (PTS) of joint parsing and alignment: a weighted mean of the
source parse's UAS, the target parse's UAS and 1 - AER of the alignment between them.

The UAS come from conll_eval's own scorer with a punctuation policy; the default, ``unicode``
(words whose FORM is only punctuation left out), is what the CoNLL-07 ``eval07.pl`` the
chapter evaluates with does.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Tuple

from ...errors import UsageError
from ...evaluate import Settings, evaluate, load_pair

__all__ = ["DEFAULT_WEIGHTS", "DEFAULT_PUNCT", "PTSWeights", "PTSResult", "parse_weights",
           "parse_score", "parallel_treebank_score"]

PTSWeights = Tuple[Fraction, Fraction, Fraction]
#: alpha_source, alpha_target, alpha_alignment: the chapter's 1/3 each
DEFAULT_WEIGHTS: PTSWeights = (Fraction(1, 3), Fraction(1, 3), Fraction(1, 3))
#: eval07.pl leaves out tokens whose FORM is all Unicode punctuation
DEFAULT_PUNCT = "unicode"


def parse_weights(text: str) -> PTSWeights:
    """``"0.5,0.25,0.25"`` or ``"1/2,1/4,1/4"`` -> three exact non-negative weights summing
    to 1 (read as fractions, so ``0.2,0.3,0.5`` sums to exactly 1); a
    :class:`~conll_eval.errors.UsageError` otherwise."""
    parts = [part.strip() for part in text.split(",")]
    if len(parts) != 3:
        raise UsageError(f"--pts-weights: expected three weights a,b,c (source UAS, target "
                         f"UAS, 1 - AER), got {text!r}")
    try:
        weights = tuple(Fraction(part) for part in parts)
    except (ValueError, ZeroDivisionError):
        raise UsageError(f"--pts-weights: {text!r} is not three numbers such as 0.5,0.25,0.25 "
                         "or 1/2,1/4,1/4") from None
    if any(w < 0 for w in weights):
        raise UsageError(f"--pts-weights: {text!r}: a weight is negative")
    if sum(weights) != 1:
        raise UsageError(f"--pts-weights: the weights must sum to 1, {text!r} sums to "
                         f"{float(sum(weights)):g}")
    return weights  # type: ignore[return-value]


@dataclass(frozen=True)
class PTSResult:
    """PTS = w_s UAS_source + w_t UAS_target + w_a (1 - AER), every term a fraction."""

    weights: PTSWeights
    uas_source: float
    uas_target: float
    aer: float
    punct: str

    @property
    def value(self) -> float:
        w_source, w_target, w_alignment = (float(w) for w in self.weights)
        return (w_source * self.uas_source + w_target * self.uas_target
                + w_alignment * (1.0 - self.aer))


def parse_score(gold_path: str, system_path: str, punct: str = DEFAULT_PUNCT,
                profile: str = "conll18") -> float:
    """UAS (F1 on the CoNLL 2018 word alignment; the accuracy when both files have the same
    words) of a CoNLL-U pair, with the punctuation policy ``punct``."""
    gold, system = load_pair(gold_path, system_path, profile)
    return evaluate(gold, system, Settings(profile, punct=punct)).scores["UAS"].f1


def parallel_treebank_score(source_gold: str, source_system: str, target_gold: str,
                            target_system: str, aer: float,
                            weights: PTSWeights = DEFAULT_WEIGHTS,
                            punct: str = DEFAULT_PUNCT) -> PTSResult:
    """The PTS of two parsed CoNLL-U files (with their gold files) and the AER of the
    alignment between them; input errors of the CoNLL-U files raise as in scoring."""
    return PTSResult(weights, parse_score(source_gold, source_system, punct),
                     parse_score(target_gold, target_system, punct), aer, punct)

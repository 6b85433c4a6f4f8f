"""One call from file names to scores: read the gold alignment and every system's, check
them against the tokenised sentences when given, count per sentence and score.

The warnings (merged repeated links) and notes (ignored system markers, undefined ratios,
missing sentences) are collected for the caller to show; nothing here prints.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import List, Optional, Sequence, Tuple

import numpy as np

from ...errors import Incident, Location
from .links import LinkFile, LinkFileError, check_positions, read_links, read_token_counts
from .choices import NULL_POLICIES  # --null's choices
from .scoring import AlignmentScores, SentenceCounts, count_links, gold_sentences

__all__ = ["NULL_POLICIES", "SystemAlignment", "AlignmentEvaluation", "evaluate_alignments"]



@dataclass(frozen=True)
class SystemAlignment:
    """One system's links, per-sentence counts, total scores and notes."""

    name: str
    links: LinkFile
    counts: SentenceCounts
    notes: Tuple[str, ...]

    @property
    def scores(self) -> AlignmentScores:
        return self.counts.total()


@dataclass(frozen=True)
class AlignmentEvaluation:
    """The gold alignment and every system scored against it on the same ``sentences``;
    ``warnings``: the merged repeated links of every file, in reading order."""

    gold: LinkFile
    sentences: np.ndarray
    systems: Tuple[SystemAlignment, ...]
    null: str
    checked: Tuple[str, ...]
    warnings: Tuple[Incident, ...]

    @property
    def notes(self) -> Tuple[str, ...]:
        """What the numbers do not say by themselves: the gold file's, then each system's."""
        gold = []
        if not self.gold.sure.any():
            gold.append(f"{self.gold.path}: no gold sure links: recall is undefined and "
                        "reported as 0")
        return (*gold, *(note for system in self.systems for note in system.notes))

    @property
    def formats(self) -> Tuple[str, ...]:
        """The formats read: the gold file's, then each system's."""
        return (self.gold.format, *(s.links.format for s in self.systems))


def _declared_sentences(source: Optional[str], target: Optional[str]
                        ) -> Tuple[Optional[np.ndarray], Optional[np.ndarray], Optional[int]]:
    """Tokens per sentence of ``--source`` and ``--target`` and the sentence count they agree on."""
    source_lengths = read_token_counts(source) if source is not None else None
    target_lengths = read_token_counts(target) if target is not None else None
    if source_lengths is not None and target_lengths is not None \
            and len(source_lengths) != len(target_lengths):
        raise LinkFileError(Location(target), "sentence-count-mismatch",
                            f"{len(target_lengths)} line(s) (sentences), but {source} has "
                            f"{len(source_lengths)}")
    declared = next((len(x) for x in (source_lengths, target_lengths) if x is not None), None)
    return source_lengths, target_lengths, declared


def _system_notes(system: LinkFile, counts: SentenceCounts) -> List[str]:
    notes = []
    if system.possible_marks:
        notes.append(f"{system.path}: the system's S/P markers are ignored: every system link "
                     "is in A (sure scores compare all of them with the gold sure links)")
    if system.format == "pharaoh" and system.lines < counts.sentences.max(initial=0):
        notes.append(f"{system.path}: {system.lines} line(s) for {len(counts.sentences)} gold "
                     "sentence(s): the sentences after its last line have no system links")
    total = counts.total()
    if total.system == 0:
        notes.append(f"{system.path}: no system links: precision is undefined and reported as "
                     "0" + (", AER is 1" if total.sure else ""))
    return notes


def evaluate_alignments(gold_path: str, system_paths: Sequence[str],
                        names: Optional[Sequence[str]] = None, input_format: str = "auto",
                        null: str = "keep", source: Optional[str] = None,
                        target: Optional[str] = None) -> AlignmentEvaluation:
    """Score each file of ``system_paths`` against ``gold_path``.

    ``input_format``: ``auto`` (each file detected on its own; a file without links takes
    the gold file's format), ``naacl`` or ``pharaoh``.  ``null``: ``keep`` scores NAACL links
    to the NULL word like any link (as ``wa_eval_align.pl``), ``drop`` leaves them out of
    every file.  ``source`` / ``target``: tokenised sentences (one a line); every link's
    position must then be a token of its sentence, and their lines are the gold sentences.
    Input problems raise :class:`~conll_eval.analyze.word_alignment.links.LinkFileError`.
    """
    if null not in NULL_POLICIES:
        raise ValueError(f"null must be one of {', '.join(NULL_POLICIES)}")
    names = list(names) if names is not None else list(system_paths)
    if len(names) != len(system_paths):
        raise ValueError("give one name per system file")
    gold = read_links(gold_path, input_format)
    systems = [read_links(path, input_format, empty_format=gold.format) for path in system_paths]
    source_lengths, target_lengths, declared = _declared_sentences(source, target)
    for links in (gold, *systems):
        for side, lengths, path in (("source", source_lengths, source),
                                    ("target", target_lengths, target)):
            if lengths is not None:
                check_positions(links, side, lengths, path)
    sentences = gold_sentences(gold, declared)  # before NULL links go: their sentences stay
    if null == "drop":
        gold, systems = gold.without_null(), [s.without_null() for s in systems]
    scored = []
    for name, links in zip(names, systems):
        counts = count_links(gold, links, sentences)
        scored.append(SystemAlignment(name, links, counts, tuple(_system_notes(links, counts))))
    warnings = tuple(w for links in (gold, *systems) for w in links.warnings)
    checked = tuple(side for side, path in (("source", source), ("target", target)) if path)
    return AlignmentEvaluation(gold, sentences, tuple(scored), null, checked, warnings)

"""The output of ``conll_eval alignment``, formatting only: the link counts and scores of
every system against the gold alignment, per-sentence counts, the parallel treebank score and
the significance tests, as a text report, Markdown, TSV/CSV or a JSON record.

Percentages with 2 decimals in text; fractions in [0, 1] in JSON, as the scorer's JSON.
Paths and system names are input text: spelt out (:mod:`.escape`) in every format,
Markdown-escaped in Markdown.
"""
from __future__ import annotations

from typing import List, Tuple

from ..analyze.word_alignment import LOWER_IS_BETTER
from .comparison import comparison_delimited, small_sample_warning
from .escape import markdown_text, printable
from .tables import Num, delimited, fixed, markdown_table, percent, text_table

__all__ = ["SCORE_ROWS", "alignment_text", "alignment_markdown", "alignment_delimited",
           "alignment_record"]

#: (label, attribute of AlignmentScores, definition) in the order printed
COUNT_ROWS = (
    ("|A|", "system", "system links"),
    ("|S&A|", "sure_hits", "of them sure gold links"),
    ("|P&A|", "possible_hits", "of them gold links (sure or possible)"),
)
SCORE_ROWS = (
    ("Precision", "precision", "|P&A| / |A|"),
    ("Recall", "recall", "|S&A| / |S|"),
    ("AER", "aer", "1 - (|P&A| + |S&A|) / (|A| + |S|)"),
    ("Sure P", "sure_precision", "|S&A| / |A|"),
    ("Sure R", "sure_recall", "|S&A| / |S|"),
    ("Sure F1", "sure_f1", "2 |S&A| / (|A| + |S|)"),
    ("Possible P", "possible_precision", "|P&A| / |A|"),
    ("Possible R", "possible_recall", "|P&A| / |P|"),
    ("Possible F1", "possible_f1", "2 |P&A| / (|A| + |P|)"),
)
#: JSON keys of the scores, grouped as the chapter reports them
_SCORE_GROUPS = {
    "och_ney": (("precision", "precision"), ("recall", "recall"), ("aer", "aer")),
    "sure": (("precision", "sure_precision"), ("recall", "sure_recall"), ("f1", "sure_f1")),
    "possible": (("precision", "possible_precision"), ("recall", "possible_recall"),
                 ("f1", "possible_f1")),
}


def _weight(value) -> str:
    return str(value) if value.denominator != 1 else f"{value.numerator}"


def _p_text(p: float) -> str:
    return f"{p:.4f}" if p >= 0.0001 else "<0.0001"


#: one section of the report: (heading, header, rows, left-aligned columns, rules before)
Section = Tuple[str, List, List[List], Tuple[int, ...], Tuple[int, ...]]


def _scores_section(evaluation) -> Section:
    systems = evaluation.systems
    totals = [s.scores for s in systems]
    gold = totals[0]
    header = ["", "definition", *(s.name for s in systems)]
    rows = [[label, what, *(Num(str(getattr(t, attr))) for t in totals)]
            for label, attr, what in COUNT_ROWS]
    rows += [[label, what, *(Num(percent(getattr(t, attr))) for t in totals)]
             for label, attr, what in SCORE_ROWS]
    heading = (f"Word alignment against {evaluation.gold.path}: {len(evaluation.sentences)} "
               f"sentence(s), |S| = {gold.sure} sure links, |P| = {gold.possible} possible "
               f"links (sure ones included); scores in %")
    return heading, header, rows, (0, 1), (len(COUNT_ROWS), len(COUNT_ROWS) + 3)


def _sentence_section(system) -> Section:
    counts = system.counts
    rows = []
    for k, number in enumerate(counts.sentences):
        scores = counts.sentence(k)
        rows.append([Num(str(number)), *(Num(str(v)) for v in (
            scores.sure, scores.possible, scores.system, scores.sure_hits, scores.possible_hits)),
            Num(percent(scores.aer))])
    return (f"Per sentence: {system.name}",
            ["sentence", "|S|", "|P|", "|A|", "|S&A|", "|P&A|", "AER"], rows, (), ())


def _pts_section(pts, system_name: str) -> Section:
    w_source, w_target, w_alignment = pts.weights
    rows = [["UAS source", Num(percent(pts.uas_source)), Num(_weight(w_source))],
            ["UAS target", Num(percent(pts.uas_target)), Num(_weight(w_target))],
            ["1 - AER", Num(percent(1 - pts.aer)), Num(_weight(w_alignment))],
            ["PTS", Num(percent(pts.value)), Num("")]]
    return (f"Parallel treebank score of {system_name} (UAS with --punct {pts.punct}), in %",
            ["part", "score", "weight"], rows, (0,), (3,))


def _significance_sections(comparison) -> List[Section]:
    level = round(100 * (1 - comparison.alpha))
    scores = list(comparison.intervals)
    intervals = [[score, *(Num(f"{percent(i.value)} [{percent(i.low)}, {percent(i.high)}]")
                           for i in comparison.intervals[score])] for score in scores]
    rows = []
    for score in scores:
        for r in comparison.pairs[score]:
            d = r.difference
            pair = f"{comparison.systems[r.first]} - {comparison.systems[r.second]}"
            significant = all(p < comparison.alpha for p in r.corrected.values())
            rows.append([pair, score, Num(fixed(100 * d.value, signed=True)),
                         Num(f"[{fixed(100 * d.low, signed=True)}, "
                             f"{fixed(100 * d.high, signed=True)}]"),
                         Num(_p_text(r.corrected["bootstrap"])),
                         Num(_p_text(r.corrected["randomization"])),
                         "yes" if significant else "no"])
    lower = ", ".join(sorted(LOWER_IS_BETTER))
    return [(f"Scores in % with {level} % bootstrap intervals ({comparison.resamples} paired "
             f"resamples of the gold sentences)", ["score", *comparison.systems], intervals,
             (0,), ()),
            (f"Differences (first - second; lower is better for {lower}), p-values "
             f"corrected ({comparison.correction}) over the pairs: paired bootstrap and "
             f"approximate randomization (sentences shuffled between the systems)",
             ["pair", "score", "difference", "interval", "bootstrap", "randomization",
              f"significant (p < {comparison.alpha:g} in both)"], rows, (0, 1, 6), ())]


def _sections(evaluation, pts, comparison, per_sentence: bool) -> List[Section]:
    sections = [_scores_section(evaluation)]
    if per_sentence:
        sections += [_sentence_section(system) for system in evaluation.systems]
    if pts is not None:
        sections.append(_pts_section(pts, evaluation.systems[0].name))
    if comparison is not None:
        sections += _significance_sections(comparison)
    return sections


def alignment_text(evaluation, signature: str, pts=None, comparison=None,
                   per_sentence: bool = False) -> str:
    """The text report: scores of every system, then (when asked) per-sentence counts, the
    PTS of the first system, the significance tests (after a warning when the sentences are
    too few for them); the signature last."""
    lines: List[str] = []
    for heading, header, rows, left, rules in _sections(evaluation, pts, comparison,
                                                         per_sentence):
        if comparison is not None and heading.startswith("Scores in %"):
            warning = small_sample_warning(comparison)
            lines += ["", warning] if warning else []
        lines += ([""] if lines else []) + [printable(heading)] + text_table(
            header, rows, left=left, rules_before=rules)
    return "\n".join([*lines, "", signature]) + "\n"


def alignment_markdown(evaluation, signature: str, pts=None, comparison=None,
                       per_sentence: bool = False) -> str:
    """The sections of the text report as GitHub Markdown tables, the signature last."""
    lines: List[str] = []
    for heading, header, rows, left, _ in _sections(evaluation, pts, comparison, per_sentence):
        if comparison is not None and heading.startswith("Scores in %"):
            warning = small_sample_warning(comparison)
            lines += ["", f"> **{markdown_text(warning)}**"] if warning else []
        lines += ([""] if lines else []) + [f"**{markdown_text(heading)}**", ""]
        lines += markdown_table(header, rows, left=left)
    return "\n".join([*lines, "", f"`{signature}`"]) + "\n"


#: the columns of the delimited table after ``system``: counts, then scores in percent
DELIMITED_COLUMNS = tuple(label for label, _, _ in COUNT_ROWS + SCORE_ROWS) + ("PTS",)


def alignment_delimited(evaluation, signature: str, delimiter: str, pts=None, comparison=None,
                        comment: bool = True) -> str:
    """TSV or CSV: a row per system (its counts, its scores in percent as the text prints
    them, PTS for the first system with --pts); with ``comparison`` instead the significance
    tests' long table, as ``conll_eval compare`` prints it.  TSV carries the signature as a
    ``#`` line (``comment``)."""
    if comparison is not None:
        return comparison_delimited(comparison, signature, delimiter, comment)
    rows = []
    for k, system in enumerate(evaluation.systems):
        scores = system.scores
        rows.append([system.name, *(str(getattr(scores, attr)) for _, attr, _ in COUNT_ROWS),
                     *(percent(getattr(scores, attr)) for _, attr, _ in SCORE_ROWS),
                     percent(pts.value) if pts is not None and k == 0 else ""])
    return delimited(["system", *DELIMITED_COLUMNS], rows, delimiter,
                     signature if comment else None)


def _scores_record(scores) -> dict:
    record = {"counts": {"sure": scores.sure, "possible": scores.possible,
                         "system": scores.system, "sure_hits": scores.sure_hits,
                         "possible_hits": scores.possible_hits}}
    for group, keys in _SCORE_GROUPS.items():
        record[group] = {key: getattr(scores, attr) for key, attr in keys}
    return record


def _system_record(system, per_sentence: bool) -> dict:
    record = {"name": system.name, "path": system.links.path, "format": system.links.format,
              **_scores_record(system.scores)}
    if per_sentence:
        counts = system.counts
        record["sentences"] = [{"sentence": int(number), **_scores_record(counts.sentence(k))}
                               for k, number in enumerate(counts.sentences)]
    return record


def _pts_record(pts) -> dict:
    return {"weights": {"source": str(pts.weights[0]), "target": str(pts.weights[1]),
                        "alignment": str(pts.weights[2])},
            "uas_source": pts.uas_source, "uas_target": pts.uas_target,
            "one_minus_aer": 1 - pts.aer, "punct": pts.punct, "pts": pts.value}


def _significance_record(comparison) -> dict:

    def interval(i) -> dict:  # + 0.0: no negative zero (a difference of nothing)
        return {"value": i.value + 0.0, "low": i.low + 0.0, "high": i.high + 0.0}

    return {
        "resamples": comparison.resamples, "seed": comparison.seed, "alpha": comparison.alpha,
        "correction": comparison.correction, "sentences": sum(comparison.sentences),
        "small_sample_warning": small_sample_warning(comparison),
        "scores": {score: {
            "lower_is_better": score in LOWER_IS_BETTER,
            "systems": [{"name": name, **interval(i)}
                        for name, i in zip(comparison.systems, comparison.intervals[score])],
            "pairs": [{"first": comparison.systems[r.first],
                       "second": comparison.systems[r.second],
                       "difference": interval(r.difference), "p": dict(r.p),
                       "corrected": dict(r.corrected),
                       "significant": all(p < comparison.alpha for p in r.corrected.values())}
                      for r in comparison.pairs[score]]}
            for score in comparison.intervals},
    }


def alignment_record(evaluation, signature: str, pts=None, comparison=None,
                     per_sentence: bool = False) -> dict:
    """The JSON record: ``gold``, ``systems`` (counts and scores as fractions; per sentence
    with ``per_sentence``), ``pts`` and ``significance`` (None when not asked for),
    ``warnings``, ``notes`` and ``signature``."""
    gold = evaluation.systems[0].scores
    return {
        "gold": {"path": evaluation.gold.path, "format": evaluation.gold.format,
                 "sentences": len(evaluation.sentences), "sure": gold.sure,
                 "possible": gold.possible},
        "systems": [_system_record(s, per_sentence) for s in evaluation.systems],
        "pts": _pts_record(pts) if pts is not None else None,
        "significance": _significance_record(comparison) if comparison is not None else None,
        "warnings": [str(w) for w in evaluation.warnings],
        "notes": list(evaluation.notes),
        "signature": signature,
    }

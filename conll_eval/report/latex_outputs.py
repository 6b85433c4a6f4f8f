"""``--format latex`` of the commands beyond scoring one pair: suite and leaderboard tables,
significance tests (``compare``, ``suite --significance``), breakdown, tagger and
word-alignment scores.  Each lays out the tables of the command's text output as booktabs
tabulars (:mod:`.latex`), with its headings and notes as comment lines.  Formatting only.
"""
from __future__ import annotations

from typing import List, Sequence

from . import comparison as comparison_module
from . import relations as relations_module
from . import suite as suite_module
from . import tagger as tagger_module
from . import word_alignment as alignment_module
from .latex import latex_comments, latex_output, latex_table
from .tables import Num

__all__ = ["suite_latex", "comparison_latex", "relations_latex", "errors_latex",
           "tagger_latex", "alignment_latex"]


def suite_latex(suites, metrics: Sequence[str], rank_by: str, micro: bool = False,
                by_language: bool = False, coarse: bool = False) -> str:
    """One system: a row per treebank (F1 in %, ``n/a`` where the gold file lacks the tag,
    its status), the averages under a rule.  Several: the ranking, then a table per metric
    (``!`` after a failed treebank's number).  The notes of the text table as comments."""
    first = suites[0][1]
    blocks: List[List[str]] = []
    if len(suites) == 1:
        blocks.append(latex_table(["Treebank", *metrics, "Status"],
                                  suite_module._treebank_rows(first, metrics, micro, by_language,
                                                              coarse=coarse),
                                  left=(0, len(metrics) + 1), rules_before=[len(first.results)]))
        notes = suite_module._notes(first, metrics)
    else:
        blocks.append(latex_comments([f"Ranked by macro {rank_by} F1 over "
                                      f"{suite_module._treebanks(len(first.results))}"])
                      + latex_table(*suite_module._ranking(suites, metrics), left=(1,)))
        for metric in suite_module._per_treebank_metrics(metrics, rank_by):
            rows = suite_module._leaderboard_rows(suites, metric, micro, by_language, coarse=coarse)
            blocks.append(latex_comments([f"{metric} F1 per treebank"]) + latex_table(
                ["Treebank", *(suite.system_name for _, suite in suites)], rows,
                rules_before=[len(first.results)]))
        notes = ["(! = the treebank failed and scores 0)"] * any(
            not r.ok for _, suite in suites for r in suite.results)
        for _, suite in suites:
            notes += suite_module._notes(suite, metrics, prefix=f"{suite.system_name}: ")
    blocks.append(latex_comments(notes))
    return latex_output(blocks, first.signature)


def comparison_latex(comparison, signature: str) -> str:
    """Each table of the comparison (intervals, clusters, matrices, pairs) after its heading
    as a comment; the small-sample warning first, as a comment too."""
    warning = comparison_module.small_sample_warning(comparison)
    blocks = [latex_comments([warning])] if warning else []
    blocks += [latex_comments([heading]) + latex_table(header, rows, left=left)
               for heading, header, rows, left in comparison_module._sections(comparison)]
    return latex_output(blocks, signature)


def relations_latex(rows, tables: Sequence, signature: str) -> str:
    """Breakdown's relation tables (``-`` where a column means nothing), the average under a
    rule, the treebanks not scored as comments."""
    blocks = []
    for number in tables:
        title, columns, header = relations_module.TABLES[number]
        body = [[c[0]] + [Num(x) for x in c[1:]] for c in relations_module._cells(rows, columns)]
        blocks.append(latex_comments([title]) + latex_table(
            ["treebank", *header], body, rules_before=[len(rows)] if len(rows) > 1 else [])
            + latex_comments(relations_module._average_note(rows, columns)))
    blocks.append(latex_comments(relations_module._failures(rows)))
    return latex_output(blocks, signature)


def errors_latex(rows, signature: str) -> str:
    """Breakdown's ``--errors`` table: per treebank the gold and system words' kinds."""
    header, body = relations_module.errors_rows(rows)
    return latex_output([latex_table(header, [[b[0], b[1]] + [Num(c) for c in b[2:]] for b in body],
                                     left=(0, 1))], signature)


def tagger_latex(evaluation, signature: str, confusion: bool = False) -> str:
    """The tagger summary: its head lines as comments, the per-column table (``n/a`` where
    the gold does not annotate a column), the confusion tables if asked."""
    header, rows = tagger_module._table(evaluation, tagger_module.NA_DELIMITED)
    blocks = [latex_comments(tagger_module._head_lines(evaluation))
              + latex_table(header, [[row[0], *map(Num, row[1:])] for row in rows])
              + latex_comments(tagger_module._not_annotated(evaluation))]
    if confusion:
        pending: List[str] = []
        for line in tagger_module._confusion_blocks(evaluation, _tagged_table):
            if isinstance(line, _Table):
                blocks.append(latex_comments(pending) + list(line))
                pending = []
            else:
                pending.append(line)
        blocks.append(latex_comments(pending))
    return latex_output(blocks, signature)


class _Table(tuple):
    """The lines of one tabular, kept whole among the text lines of a block."""


def _tagged_table(header, rows, left=(0,)) -> List[_Table]:
    return [_Table(latex_table(header, rows, left=left))]


def alignment_latex(evaluation, signature: str, pts=None, comparison=None,
                    per_sentence: bool = False) -> str:
    """The sections of the word-alignment report (scores, per-sentence counts, PTS,
    significance) after their headings as comments; the small-sample warning before the
    significance tables."""
    blocks: List[List[str]] = []
    for heading, header, rows, left, rules in alignment_module._sections(evaluation, pts, comparison,
                                                                          per_sentence):
        if comparison is not None and heading.startswith("Scores in %"):
            warning = comparison_module.small_sample_warning(comparison)
            blocks += [latex_comments([warning])] if warning else []
        blocks.append(latex_comments([heading]) + latex_table(header, rows, left=left,
                                                              rules_before=rules))
    return latex_output(blocks, signature)

"""``--format latex``: booktabs tables for papers.  Formatting only.

The output is a snippet to ``\\input`` into a document that loads ``booktabs``: one bare
``tabular`` per table (no ``table`` float, so the paper chooses the caption, the placement
and the size), tables a blank line apart (one paragraph each, so they stack), and the
headings, notes and signature as ``%`` comment lines::

    \\begin{tabular}{lrrrr}
    \\toprule
    Metric & Precision & Recall & F1 Score & AligndAcc \\\\
    \\midrule
    LAS & 80.00 & 80.00 & 80.00 & 80.00 \\\\
    \\bottomrule
    \\end{tabular}
    % conll_eval:0.1|profile:conll18|...

Numbers are right-aligned (``r`` columns), text columns left-aligned, a score that means
nothing reads ``n/a``.  Every cell is escaped (:func:`~conll_eval.report.escape.latex_text`);
a comment line is spelt out (:func:`~conll_eval.report.escape.printable`): TeX skips the rest
of a comment line, whatever it holds.
"""
from __future__ import annotations

from typing import Collection, Iterable, List, Mapping, Optional, Sequence

from ..stats import Score
from .escape import latex_text, printable
from .machine import score_rows
from .tables import Cell, Num

__all__ = ["latex_table", "latex_comments", "latex_output", "score_latex"]

#: a row's end; what follows it must not start with ``*`` or ``[`` (an optional argument)
ROW_END = " \\\\"


def _cell(cell: Cell) -> str:
    """A cell's LaTeX: a number's text and mark, or text, escaped."""
    if isinstance(cell, Num):
        return latex_text(cell.text + cell.mark)
    return latex_text(str(cell))


def _row(cells: Sequence[Cell]) -> str:
    """One row; a first cell starting with ``*`` gets an empty group before it (``\\\\*``
    after the row before would take it; ``[`` is escaped already)."""
    texts = [_cell(cell) for cell in cells]
    if texts and texts[0].startswith("*"):
        texts[0] = "{}" + texts[0]
    return " & ".join(texts) + ROW_END


def latex_table(header: Sequence[Cell], rows: Sequence[Sequence[Cell]], left: Collection[int] = (0,),
                rules_before: Collection[int] = ()) -> List[str]:
    """A booktabs ``tabular``: the ``left`` columns ``l``, the others ``r`` (numbers), the
    header between ``\\toprule`` and ``\\midrule``, a ``\\midrule`` before each row numbered
    in ``rules_before`` (an average under the treebanks), ``\\bottomrule`` last; every cell
    escaped."""
    spec = "".join("l" if k in left else "r" for k in range(len(header)))
    lines = [f"\\begin{{tabular}}{{{spec}}}", "\\toprule", _row(header), "\\midrule"]
    for k, row in enumerate(rows):
        if k in rules_before and k:
            lines.append("\\midrule")
        lines.append(_row(row))
    return lines + ["\\bottomrule", "\\end{tabular}"]


def latex_comments(lines: Iterable[str]) -> List[str]:
    """Text lines (headings, notes; input text in them) as ``%`` comment lines, spelt out;
    empty lines dropped (a blank line would part the snippet's paragraphs)."""
    return [f"% {printable(line).strip()}" for line in lines if line.strip()]


def latex_output(blocks: Sequence[Sequence[str]], signature: Optional[str]) -> str:
    """The blocks (each comment lines and a table, :func:`latex_table`) a blank line apart,
    the signature as the last comment line."""
    text = "\n\n".join("\n".join(block) for block in blocks if block)
    if signature is not None:
        text += ("\n" if text else "") + f"% {printable(signature)}"
    return text + "\n"


def score_latex(scores: Mapping[str, Score], signature: str,
                notes: Optional[Mapping[str, str]] = None) -> str:
    """The ``-v`` table (as the Markdown one): per metric precision, recall, F1 and aligned
    accuracy in percent, ``n/a`` for a tag the gold file does not annotate."""
    _, table = score_rows(scores, notes)  # metric, 4 counts, then the 4 percentages
    rows = [[row[0], *(Num(cell) if cell else "" for cell in row[5:])] for row in table]
    return latex_output([latex_table(["Metric", "Precision", "Recall", "F1 Score", "AligndAcc"], rows)],
                        signature)

"""``conll_eval tagger`` on CoNLL-U files, formatting only: the word listing (mismatching or
all words with ``file:line``, sentence id and context), the per-column table and the
confusion tables as text, Markdown, TSV/CSV rows, and all of it as JSON.  A score that means
nothing (see :class:`~conll_eval.analyze.tagger.conllu.ColumnScore`) is ``-`` in text and
Markdown, ``n/a`` in TSV/CSV and ``null`` in JSON.  Paths, FORMs and tags are input text:
spelt out (:mod:`.escape`) in the text, Markdown-escaped in Markdown; JSON spells out the
paths and keeps FORMs and tags as read (JSON-escaped, valid UTF-8: :func:`~.escape.kept`)."""
from __future__ import annotations

from typing import List, Optional

import numpy as np

from .escape import kept, markdown_text, printable
from .tables import Num, markdown_table, percent, text_table

__all__ = ["tagger_listing", "tagger_text", "tagger_markdown", "tagger_rows", "tagger_record"]

#: words of context on each side of a listed word
CONTEXT = 3
#: rows of a confusion table
CONFUSION_ROWS = 20


def _context(treebank, word: int) -> str:
    """Up to CONTEXT words either side in the word's sentence, the word in brackets."""
    sentence = int(treebank.word_sent[word])
    first = int(treebank.sent_word_start[sentence])
    stop = int(treebank.sent_word_start[sentence + 1]) if sentence + 1 < treebank.n_sentences \
        else treebank.n_words
    start, end = max(first, word - CONTEXT), min(stop, word + CONTEXT + 1)
    forms = treebank.word_forms(np.arange(start, end))
    return " ".join(f"[{f}]" if start + k == word else f for k, f in enumerate(forms))


def _place(treebank, word: int) -> str:
    return f"{treebank.path}:{int(treebank.word_line[word])}" if word >= 0 else "-"


def _sent_id(treebank, word: int) -> str:
    sent_id = treebank.sent_ids[int(treebank.word_sent[word])]
    return sent_id if sent_id is not None else f"#{int(treebank.word_sent[word]) + 1}"


def _listing_row(evaluation, item) -> List[str]:
    gold, system = evaluation.gold, evaluation.system
    anchor, word = (gold, item.gold) if item.gold >= 0 else (system, item.system)
    status = item.status[0] + ":" + item.status[1:]
    if item.gold < 0:
        what = "system word not aligned to a gold word"
    elif item.system < 0:
        what = "gold word not aligned to a system word"
    else:
        what = "; ".join(f"{name} {g}>{s}" for name, g, s in item.differences) or "="
    return [status, _place(gold, item.gold), _place(system, item.system), _sent_id(anchor, word),
            anchor.word_forms([word])[0], what, _context(anchor, word)]


def tagger_listing(evaluation, every_word: bool = False) -> str:
    """One TAB-separated line per listed word: status (``t`` a token mismatch, then a letter
    per differing column: u x f l m), gold and system ``file:line``, sentence id, FORM, the
    differences (``UPOS NOUN>VERB``), context."""
    rows = [_listing_row(evaluation, item) for item in evaluation.mismatches(every_word)]
    return "".join("\t".join(map(printable, row)) + "\n" for row in rows)  # one line each


#: an n/a cell of the text and Markdown tables, and of TSV/CSV
NA_TEXT, NA_DELIMITED = "-", "n/a"


def _ratio(pair, annotated: bool = True) -> Optional[float]:
    correct, total = pair
    return correct / total if total and annotated else None


def _cell(value: Optional[float], na: str = NA_TEXT) -> str:
    return na if value is None else percent(value)


def _table(evaluation, na: str = NA_TEXT) -> tuple:
    """Header and rows (strings) of the per-column table; FEATS:<name> rows indented in
    text (``na`` = NA_TEXT), named in full otherwise."""
    split = any(s.known is not None for s in evaluation.scores)
    header = ["Column", "Correct", "Gold", "System", "Aligned", "Precision", "Recall", "F1",
              "Accuracy"] + (["Known acc", "Unknown acc", "Unknown"] if split else [])
    rows = []
    for s in evaluation.scores:
        name = s.name
        if na == NA_TEXT and name.startswith("FEATS:"):
            name = "  " + name.split(":", 1)[1]
        row = [name, str(s.correct), str(s.gold), str(s.system), str(s.aligned),
               _cell(s.precision, na), _cell(s.recall, na), _cell(s.f1, na),
               _cell(s.accuracy, na)]
        if split:
            row += [_cell(_ratio(s.known, s.annotated), na),
                    _cell(_ratio(s.unknown, s.annotated), na), str(s.unknown[1])]
        rows.append(row)
    return header, rows


def _head_lines(evaluation) -> List[str]:
    gold, system, a = evaluation.gold, evaluation.system, evaluation.alignment
    return [f"Tagger evaluation: {printable(gold.path)} (gold) vs {printable(system.path)}, "
            "on the word alignment",
            f"Words: gold {gold.n_words}, system {system.n_words}, aligned {len(a)} "
            f"({percent(len(a) / gold.n_words) if gold.n_words else '-'} % of gold), "
            f"FORM equal {evaluation.forms_equal}",
            f"Sentences: gold {gold.n_sentences}, system {system.n_sentences}"]


def _not_annotated(evaluation) -> List[str]:
    names = [s.name for s in evaluation.scores if not s.annotated]
    if not names:
        return []
    return [f"Not annotated in the gold file (every value is _), so n/a: "
            f"{printable(', '.join(names))}"]


def _confusion_blocks(evaluation, table) -> List[str]:
    """Per whole column its most frequent confusions, with ``table(header, rows, left)``."""
    lines: List[str] = []
    for name, counter in evaluation.confusion.items():
        errors = sum(counter.values())
        lines += ["", f"{printable(name)} confusions (gold > system): {len(counter)} pairs, {errors} "
                      f"errors" + (f", the {CONFUSION_ROWS} most frequent"
                                   if len(counter) > CONFUSION_ROWS else "")]
        if counter:
            lines += [""] * (table is markdown_table) + table(
                ["gold", "system", "count", "% of errors"],
                [[g, s, Num(str(n)), Num(percent(n / errors))]
                 for (g, s), n in _most_common(counter, CONFUSION_ROWS)], left=(0, 1))
    return lines


def tagger_text(evaluation, signature: Optional[str] = None, confusion: bool = False) -> str:
    """The summary: words and sentences, the per-column table, the columns the gold does not
    annotate, the confusion tables (``confusion``) and the ``signature`` line if given."""
    header, rows = _table(evaluation)
    lines = _head_lines(evaluation) + [""]
    lines += text_table(header, [[row[0], *map(Num, row[1:])] for row in rows])
    lines += _not_annotated(evaluation)
    if confusion:
        lines += _confusion_blocks(evaluation, text_table)
    if signature is not None:
        lines += ["", signature]
    return "\n".join(lines) + "\n"


def tagger_markdown(evaluation, signature: str, confusion: bool = False) -> str:
    """The summary as GitHub Markdown (the lines before the table as a paragraph), the
    signature below as the scorer's Markdown has it."""
    header, rows = _table(evaluation)
    head = _head_lines(evaluation)
    head = [markdown_text(line) for line in head]
    lines = [head[0] + "  ", head[1] + "  ", head[2], ""]  # two spaces: a line break
    lines += markdown_table(header, [[row[0], *map(Num, row[1:])] for row in rows])
    notes = _not_annotated(evaluation)
    lines += [""] * bool(notes) + [markdown_text(note) for note in notes]
    if confusion:
        lines += [markdown_text(line) if line and not line.startswith("|") else line
                  for line in _confusion_blocks(evaluation, markdown_table)]
    lines += ["", f"<sub>`{signature}`</sub>"]
    return "\n".join(lines) + "\n"


def tagger_rows(evaluation) -> tuple:
    """Header and rows of the per-column table for TSV/CSV: percent with 2 decimals as the
    tables print them, ``n/a`` where a score means nothing, feature rows as ``FEATS:Case``."""
    header, rows = _table(evaluation, NA_DELIMITED)
    return [name.lower().replace(" ", "_") for name in header], rows


def _most_common(counter, limit: Optional[int]):
    """By count, ties by the strings (reproducible, unlike insertion order)."""
    ordered = sorted(counter.items(), key=lambda item: (-item[1], item[0]))
    return ordered if limit is None else ordered[:limit]


def tagger_record(evaluation, signature: str, listed: Optional[bool] = None) -> dict:
    """Everything as data; ``listed`` (False: mismatching words, True: every word, as
    verbosity 3 and 4) adds the listed words.  Paths spelt out, FORMs and tags kept as read
    (:func:`~.escape.kept`)."""
    gold, system, a = evaluation.gold, evaluation.system, evaluation.alignment

    def score(s) -> dict:
        record = {"correct": s.correct, "gold": s.gold, "system": s.system, "aligned": s.aligned,
                  "precision": s.precision, "recall": s.recall, "f1": s.f1,
                  "accuracy": s.accuracy}
        if not s.annotated:
            record["annotated"] = False
        if s.known is not None:
            record["known"] = {"correct": s.known[0], "aligned": s.known[1],
                               "accuracy": _ratio(s.known, s.annotated)}
            record["unknown"] = {"correct": s.unknown[0], "aligned": s.unknown[1],
                                 "accuracy": _ratio(s.unknown, s.annotated)}
        return record
    record = {
        "gold": printable(gold.path), "system": printable(system.path),
        "words": {"gold": gold.n_words, "system": system.n_words, "aligned": len(a),
                  "form_equal": evaluation.forms_equal},
        "sentences": {"gold": gold.n_sentences, "system": system.n_sentences},
        "columns": {kept(s.name): score(s) for s in evaluation.scores},
        "confusion": {kept(name): [{"gold": kept(g), "system": kept(s), "count": n}
                             for (g, s), n in _most_common(counter, None)]
                      for name, counter in evaluation.confusion.items()},
        "signature": signature,
    }
    if listed is not None:
        keys = ("status", "gold", "system", "sent_id", "form", "differences", "context")
        named = ("gold", "system")  # file:line
        record["words_listed"] = [{key: printable(value) if key in named else kept(value)
                                   for key, value in zip(keys, _listing_row(evaluation, item))}
                                  for item in evaluation.mismatches(listed)]
    return record

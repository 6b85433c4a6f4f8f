"""``conll_eval tagger`` on CoNLL-U files, formatting only: the word listing (mismatching or
all words with ``file:line``, sentence id and context), the per-column table, the confusion
tables, and the same as JSON."""
from __future__ import annotations

from typing import List, Optional

import numpy as np

from .tables import Num, percent, text_table

__all__ = ["tagger_listing", "tagger_text", "tagger_record"]

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
    return "".join("\t".join(row) + "\n" for row in rows)


def _acc(pair) -> Num:
    correct, total = pair
    return Num(percent(correct / total) if total else "-")


def tagger_text(evaluation, signature: str, confusion: bool = False) -> str:
    gold, system, a = evaluation.gold, evaluation.system, evaluation.alignment
    lines = [f"Tagger evaluation: {gold.path} (gold) vs {system.path}, on the word alignment",
             f"Words: gold {gold.n_words}, system {system.n_words}, aligned {len(a)} "
             f"({percent(len(a) / gold.n_words) if gold.n_words else '-'} % of gold), "
             f"FORM equal {evaluation.forms_equal}",
             f"Sentences: gold {gold.n_sentences}, system {system.n_sentences}", ""]
    split = any(s.known is not None for s in evaluation.scores)
    header = ["Column", "Correct", "Gold", "System", "Aligned", "Precision", "Recall", "F1",
              "Accuracy"] + (["Known acc", "Unknown acc", "Unknown"] if split else [])
    rows = []
    for s in evaluation.scores:
        name = "  " + s.name.split(":", 1)[1] if s.name.startswith("FEATS:") else s.name
        row = [name, Num(str(s.correct)), Num(str(s.gold)), Num(str(s.system)),
               Num(str(s.aligned)), Num(percent(s.precision)), Num(percent(s.recall)),
               Num(percent(s.f1)), Num(percent(s.accuracy))]
        if split:
            row += [_acc(s.known), _acc(s.unknown), Num(str(s.unknown[1]))]
        rows.append(row)
    lines += text_table(header, rows)
    if confusion:
        for name, counter in evaluation.confusion.items():
            errors = sum(counter.values())
            lines += ["", f"{name} confusions (gold > system): {len(counter)} pairs, {errors} "
                          f"errors" + (f", the {CONFUSION_ROWS} most frequent"
                                       if len(counter) > CONFUSION_ROWS else "")]
            if counter:
                lines += text_table(
                    ["gold", "system", "count", "% of errors"],
                    [[g, s, Num(str(n)), Num(percent(n / errors))]
                     for (g, s), n in _most_common(counter, CONFUSION_ROWS)], left=(0, 1))
    lines += ["", signature]
    return "\n".join(lines) + "\n"


def _most_common(counter, limit: Optional[int]):
    """By count, ties by the strings (reproducible, unlike insertion order)."""
    ordered = sorted(counter.items(), key=lambda item: (-item[1], item[0]))
    return ordered if limit is None else ordered[:limit]


def tagger_record(evaluation, signature: str, listed: Optional[bool] = None) -> dict:
    """Everything as data; ``listed`` (False: mismatching words, True: every word, as
    verbosity 3 and 4) adds the listed words."""
    gold, system, a = evaluation.gold, evaluation.system, evaluation.alignment

    def score(s) -> dict:
        record = {"correct": s.correct, "gold": s.gold, "system": s.system, "aligned": s.aligned,
                  "precision": s.precision, "recall": s.recall, "f1": s.f1,
                  "accuracy": s.accuracy}
        if s.known is not None:
            record["known"] = {"correct": s.known[0], "aligned": s.known[1]}
            record["unknown"] = {"correct": s.unknown[0], "aligned": s.unknown[1]}
        return record
    record = {
        "gold": gold.path, "system": system.path,
        "words": {"gold": gold.n_words, "system": system.n_words, "aligned": len(a),
                  "form_equal": evaluation.forms_equal},
        "sentences": {"gold": gold.n_sentences, "system": system.n_sentences},
        "columns": {s.name: score(s) for s in evaluation.scores},
        "confusion": {name: [{"gold": g, "system": s, "count": n}
                             for (g, s), n in _most_common(counter, None)]
                      for name, counter in evaluation.confusion.items()},
        "signature": signature,
    }
    if listed is not None:
        keys = ("status", "gold", "system", "sent_id", "form", "differences", "context")
        record["words_listed"] = [dict(zip(keys, _listing_row(evaluation, item)))
                                  for item in evaluation.mismatches(listed)]
    return record

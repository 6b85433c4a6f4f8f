"""The data the HTML report embeds, built from the columns of scored pairs: per treebank the
gold words and each system's words as flat integer arrays (string tables, sentence offsets,
alignment, per-word error status) plus the summary numbers (official metrics, per-relation
and per-UPOS counts, confusions, the error decomposition).

Everything is arrays in, plain lists out (no per-word Python object); the numbers are the
ones the JSON outputs print (:func:`conll_eval.report.machine.score_record`,
:mod:`conll_eval.analyze.decomposition`), so the page and ``--format json`` agree.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Sequence

import numpy as np

from ...analyze.counting import AnalysisPair, word_correctness
from ...analyze.decomposition import KIND_NAMES, KINDS, decompose
from ...analyze.viewer import (STATUS_NAMES, enhanced_arcs, gold_status, label_confusion,
                               label_rows, local_heads, sentence_offsets, system_placement)
from ...enhanced import deps_all_underscore, enhanced_graph
from ...errors import ConllEvalError
from ..machine import score_record

__all__ = ["StringTable", "treebank_data", "STATUS_NAMES", "PER_SENTENCE_METRICS"]

#: metrics whose per-sentence counts the browser shows (registry names)
PER_SENTENCE_METRICS = ("LAS", "UAS", "UPOS")


class StringTable:
    """Page-wide interning of strings: several Vocabs' codes -> one list of strings."""

    def __init__(self) -> None:
        self.strings: List[str] = []
        self._index: Dict[str, int] = {}

    def codes(self, vocab, codes: np.ndarray) -> np.ndarray:
        """Page codes of ``vocab`` codes (one dictionary lookup per distinct string)."""
        codes = np.asarray(codes, dtype=np.int64)
        if not len(codes):
            return np.zeros(0, dtype=np.int64)
        distinct, inverse = np.unique(codes, return_inverse=True)
        table = vocab.strings
        mapped = np.fromiter((self._code(table[c]) for c in distinct.tolist()), dtype=np.int64,
                             count=len(distinct))
        return mapped[inverse.reshape(-1)]

    def _code(self, string: str) -> int:
        code = self._index.get(string)
        if code is None:
            code = self._index[string] = len(self.strings)
            self.strings.append(string)
        return code


def _rows_to_names(rows: List[list], vocab, names: StringTable) -> List[list]:
    if not rows:
        return rows
    codes = names.codes(vocab, np.array([r[0] for r in rows]))
    return [[int(c), *r[1:]] for c, r in zip(codes.tolist(), rows)]


def _system_words(evaluation, names: StringTable, labels: StringTable, upos: StringTable,
                  gold_starts: np.ndarray, placed: dict) -> dict:
    """One system's words grouped by the gold sentence holding their first character."""
    system = evaluation.system
    return {
        "start": placed["start"].tolist(),
        "f": names.codes(system.vocab, system.column("written_form")).tolist(),
        "u": upos.codes(system.vocab, system.column("upos")).tolist(),
        "d": labels.codes(system.vocab, system.column("deprel")).tolist(),
        "h": placed["head"].tolist(),
        "a": placed["align"].tolist(),
        "b": placed["breaks"].tolist(),  # system words that begin a system sentence
    }


def _arcs(arcs: dict, vocab, labels: StringTable) -> dict:
    """The page's form of :func:`enhanced_arcs`' arrays (labels as page codes)."""
    out = {"o": arcs["offsets"].tolist(), "h": arcs["head"].tolist(),
           "d": labels.codes(vocab, arcs["label"]).tolist()}
    if "right" in arcs:
        out["k"] = arcs["right"].astype(np.int8).tolist()
    return out


def _sentence_texts(gold) -> List[str]:
    """Per gold sentence its ``# text``, else its characters without spaces (what the page
    searches, besides the FORMs: "don't" or "博物館" span several words)."""
    texts = gold.sent_texts
    if all(t is not None for t in texts):
        return list(texts)
    starts, ends = np.asarray(gold.sent_char_start).tolist(), np.asarray(gold.sent_char_end).tolist()
    return [t if t is not None else gold.text[a:b] for t, a, b in zip(texts, starts, ends)]


def _graphs(evaluations: Sequence):
    """(gold graph, system graphs) for the viewer's enhanced arcs, or (None, reason): a gold
    file without DEPS has none; DEPS the scorer did not read may be malformed."""
    first = evaluations[0]
    if deps_all_underscore(first.gold):
        return None, None
    options = first.settings.enhanced_options
    try:
        gold = enhanced_graph(first.gold, options)
        if not len(gold.word):
            return None, None
        return gold, [enhanced_graph(e.system, options) for e in evaluations]
    except ConllEvalError as exc:
        return None, f"the enhanced graphs are not drawn: {str(exc).splitlines()[0]}"


def treebank_data(name: str, evaluations: Sequence, system_names: Sequence[str],
                  significance: Optional[dict] = None) -> dict:
    """The embedded record of one treebank scored by several systems (the evaluations share
    one gold file; the first one's gold treebank is drawn)."""
    gold = evaluations[0].gold
    forms, labels, upos = StringTable(), StringTable(), StringTable()
    gold_starts = sentence_offsets(gold)
    gold_sent = np.asarray(gold.word_sent, dtype=np.int64)
    ids = gold.sent_ids
    record = {
        "name": name,
        "systems": list(system_names),
        "signature": evaluations[0].settings.signature(),
        "gold": {
            "path": gold.path,
            "start": gold_starts.tolist(),
            "id": [i if i is not None else "" for i in ids],
            "line": np.asarray(gold.sent_first_line).tolist(),
            "x": _sentence_texts(gold),
            "f": forms.codes(gold.vocab, gold.column("written_form")).tolist(),
            "u": upos.codes(gold.vocab, gold.column("upos")).tolist(),
            "d": labels.codes(gold.vocab, gold.column("deprel")).tolist(),
            "h": local_heads(np.asarray(gold.head, dtype=np.int64), gold_sent,
                              gold_starts).tolist(),
            "m": np.flatnonzero(np.asarray(gold.word_is_mwt)).tolist(),
        },
        "runs": [],
    }
    relation_names, tag_names = StringTable(), StringTable()
    gold_graph, system_graphs = _graphs(evaluations)
    if gold_graph is None and system_graphs:  # the reason why not
        record["enhanced_note"] = system_graphs
    for position, evaluation in enumerate(evaluations):
        pair = AnalysisPair.from_treebanks(evaluation.gold, evaluation.system,
                                           evaluation.alignment,
                                           universal_deprel=evaluation.settings.deprel != "full")
        vocab = evaluation.gold.vocab
        g_upos = np.asarray(evaluation.gold.column("upos"))
        s_upos = np.asarray(evaluation.system.column("upos"))
        status = gold_status(pair, g_upos, s_upos)
        per_sentence = {}
        for metric in PER_SENTENCE_METRICS:
            counts = evaluation.counts[metric].by_sentence
            per_sentence[metric] = [counts[:, k].astype(np.int64).tolist() for k in range(3)]
        sentences_ok = evaluation.counts["Sentences"].by_sentence[:, 0].astype(np.int64)
        decomposition = decompose(evaluation.gold, evaluation.system, evaluation.alignment)
        ga, sa = evaluation.alignment.gold_idx, evaluation.alignment.sys_idx
        rel_g, rel_s = pair.gold.string_column("deprel"), pair.system.string_column("deprel")
        relations = label_rows(pair, "Deprel", lambda keys: word_correctness("LAS", pair))
        tags = label_rows(pair, "Cpostag", lambda keys: word_correctness("self", pair, keys))
        rel_conf = label_confusion(relation_names.codes(vocab, rel_g[ga]),
                              relation_names.codes(vocab, rel_s[sa]))
        tag_conf = label_confusion(tag_names.codes(vocab, g_upos[ga]), tag_names.codes(vocab, s_upos[sa]))
        unannotated = [m for m, why in evaluation.unannotated().items()
                       if why.startswith("not annotated")]
        placed = system_placement(evaluation, gold_starts)
        run = {
            "path": evaluation.system.path,
            "metrics": {m: score_record(s, m not in unannotated)  # n/a tags: null, as JSON
                        for m, s in evaluation.scores.items()},
            "words": _system_words(evaluation, forms, labels, upos, gold_starts, placed),
            "status": status.tolist(),
            "sentences": per_sentence,
            "split_ok": sentences_ok.tolist(),
            "relations": _rows_to_names(relations, vocab, relation_names),
            "upos": _rows_to_names(tags, vocab, tag_names),
            "relation_confusion": rel_conf,
            "upos_confusion": tag_conf,
            "decomposition": {"gold": decomposition.gold_counts,
                              "system": decomposition.system_counts},
        }
        if gold_graph is not None:
            gold_arcs, system_arcs = enhanced_arcs(evaluation, gold_graph, system_graphs[position],
                                                   gold_starts, placed)
            if position == 0:
                record["gold"]["e"] = _arcs(gold_arcs, vocab, labels)
            run["words"]["e"] = _arcs(system_arcs, evaluation.system.vocab, labels)
        record["runs"].append(run)
    record["forms"] = forms.strings
    record["labels"] = labels.strings
    record["tags"] = upos.strings
    record["relation_names"] = relation_names.strings
    record["upos_names"] = tag_names.strings
    record["kinds"] = [[k, KIND_NAMES[k]] for k in KINDS]
    if significance is not None:
        record["significance"] = significance
    return record

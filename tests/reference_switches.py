"""A slow, obviously-correct reference of the ``--enhancements`` switches (a test oracle of
our own): the IWPT scorer's per-word rules over Python lists, which
:func:`conll_eval.enhanced._switch_off` must reproduce with its passes over edge arrays.
"""
import numpy as np

from conll_eval.enhanced import NO_PARENT, EnhancedGraph, _no_case, _universal_path


def switch_off_reference(tb, graph, options):
    """The scripts' ``--enhancements`` rules restated word by word over Python lists, in
    their order (1, 2, 4, 5, 6); returns an EnhancedGraph."""
    vocab = tb.vocab
    strings = vocab.strings
    udeprel = [strings[c].split(":")[0] for c in tb.deprel.tolist()]
    basic = tb.head.tolist()
    sent_start = tb.sent_word_start.tolist()
    word_sent = tb.word_sent.tolist()
    words, heads, paths = [], [], []
    bounds = np.flatnonzero(np.diff(graph.word)) + 1
    starts = [0, *bounds.tolist()]
    ends = [*bounds.tolist(), len(graph.word)]
    g_word, g_head, g_label = graph.word.tolist(), graph.head.tolist(), graph.label.tolist()
    for a, b in zip(starts, ends):
        if a == b:
            continue
        w = g_word[a]
        parent = basic[w] if basic[w] >= 0 else NO_PARENT
        edges = [(g_head[i], strings[g_label[i]].split(">")) for i in range(a, b)]
        if options.off("1"):
            kept: list = []
            for h, steps in edges:
                if len(steps) > 1:
                    kept.append((parent, [udeprel[w]]))
                elif (h, steps) not in kept:
                    kept.append((h, steps))
            edges = kept
        if options.off("2"):
            for h, steps in list(edges):
                if len(steps) == 1 and steps[0].startswith("conj"):
                    edges = [(h, steps)]
        if options.off("4"):
            edges = [(h, steps) for h, steps in edges
                     if not (h >= 0 and udeprel[h] == "xcomp" and any(s.startswith("nsubj") for s in steps))]
        if options.off("5"):
            position = w - sent_start[word_sent[w]]
            kept = []
            for h, steps in edges:
                if steps[0] == "ref":
                    kept.append((parent, [udeprel[w]]))
                elif h >= 0 and udeprel[h].startswith("acl") and \
                        (basic[h] - sent_start[word_sent[h]] + 1 if basic[h] >= 0 else 0) == position:
                    continue
                else:
                    kept.append((h, steps))
            edges = kept
        if options.off("6"):
            edges = [(h, [_no_case(s) for s in steps]) for h, steps in edges]
        for h, steps in edges:
            words.append(w)
            heads.append(h)
            paths.append(">".join(steps))
    label = vocab.encode(paths).astype(np.int64) if paths else np.zeros(0, np.int64)
    ulabel = (vocab.encode([_universal_path(p) for p in paths]).astype(np.int64)
              if paths else np.zeros(0, np.int64))
    return EnhancedGraph(np.array(words, dtype=np.int64), np.array(heads, dtype=np.int64), label, ulabel)

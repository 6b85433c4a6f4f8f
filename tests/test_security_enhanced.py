"""Issue 40 point 7: ELAS/EULAS's official count in O(E log E) however many DEPS edges one word
has.  The official scorers compare every gold edge of an aligned word with every system edge of
its partner, so an edge repeated k times in gold and m times in the system counts k * m; the
compiled core sorts and merges a large word pair's keys, the numpy path multiplies each common
key's multiplicities.  Both must count what the plain nested loop (:func:`nested_reference`,
written here) counts, and print what the IWPT 2020 scorer and udtools' udeval print.

The growth with the edges is checked by ``bench/scaling/enhanced.py`` (not a timed test here).
"""
from __future__ import annotations

import io
import random
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import List, Optional

import numpy as np
import pytest

import oracles
from conll_eval import empty_nodes, enhanced
from conll_eval.cli import main
from conll_eval.enhanced import NO_PARENT, ROOT, UNMATCHED, EnhancedGraph

#: labels are vocabulary codes; few of them, so that edges repeat and match often
N_LABELS = 4


def nested_reference(gold_graph, system_graph, sys_to_gold, gold_word_sent, sys_word_sent,
                     n_sentences, universal):
    """(correct, gold, system) per gold sentence, as the scripts count: for every aligned
    system word, every edge of its gold partner against every one of its own edges."""
    out = np.zeros((n_sentences, 3), dtype=np.int64)
    g_label = gold_graph.ulabel if universal else gold_graph.label
    s_label = system_graph.ulabel if universal else system_graph.label
    gold_edges = {}
    for w, head, label in zip(gold_graph.word.tolist(), gold_graph.head.tolist(), g_label.tolist()):
        gold_edges.setdefault(w, []).append((head, label))
        out[gold_word_sent[w], 1] += 1
    for w, head, label in zip(system_graph.word.tolist(), system_graph.head.tolist(),
                              s_label.tolist()):
        out[sys_word_sent[w], 2] += 1
        partner = int(sys_to_gold[w])
        if partner < 0:
            continue
        if head >= 0:
            head = int(sys_to_gold[head]) if sys_to_gold[head] >= 0 else UNMATCHED
        elif head != ROOT:
            head = UNMATCHED
        for gold_head, gold_label in gold_edges.get(partner, []):
            if gold_head == head and gold_label == label:
                out[gold_word_sent[partner], 0] += 1
    return out


def _graph(r: random.Random, n_words: int, big_words) -> EnhancedGraph:
    """Edges in word order: most words have 0-3, the ``big_words`` 9-60 (many of them
    repeats); heads are words, the root, or no parent (the switches' root replacement)."""
    word, head, label = [], [], []
    for w in range(n_words):
        count = r.randint(9, 60) if w in big_words else r.randint(0, 3)
        pool = [(r.choice([ROOT, NO_PARENT] + list(range(n_words))), r.randrange(N_LABELS))
                for _ in range(max(1, count // 3))]
        for _ in range(count):
            h, lab = r.choice(pool)
            word.append(w)
            head.append(h)
            label.append(lab)
    as_array = lambda a: np.array(a, dtype=np.int64)  # noqa: E731
    labels = as_array(label)
    return EnhancedGraph(as_array(word), as_array(head), labels, labels // 2)


def _alignment(r: random.Random, n_gold: int, n_system: int) -> np.ndarray:
    """A one-to-one partial sys_to_gold, increasing as the scorers' alignment is."""
    pairs = min(n_gold, n_system) - r.randint(0, 2)
    gold = sorted(r.sample(range(n_gold), pairs))
    system = sorted(r.sample(range(n_system), pairs))
    sys_to_gold = np.full(n_system, -1, dtype=np.int64)
    sys_to_gold[system] = gold
    return sys_to_gold


def _case(seed: int):
    """Random graphs of a gold and a system side and their alignment; 1-3 aligned word pairs
    have many edges on both sides (the compiled core sorts those), one more word on each side
    has many edges (unaligned or with a small partner)."""
    r = random.Random(seed)
    n_gold, n_system = r.randint(3, 30), r.randint(3, 30)
    sys_to_gold = _alignment(r, n_gold, n_system)
    aligned = [w for w in range(n_system) if sys_to_gold[w] >= 0]
    big_pairs = r.sample(aligned, min(len(aligned), r.randint(1, 3)))
    gold_graph = _graph(r, n_gold, {int(sys_to_gold[w]) for w in big_pairs} | {r.randrange(n_gold)})
    system_graph = _graph(r, n_system, set(big_pairs) | {r.randrange(n_system)})
    n_sentences = r.randint(1, 3)
    gold_word_sent = np.sort(np.array([r.randrange(n_sentences) for _ in range(n_gold)]))
    sys_word_sent = np.sort(np.array([r.randrange(n_sentences) for _ in range(n_system)]))
    gold = SimpleNamespace(n_sentences=n_sentences, n_words=n_gold, word_sent=gold_word_sent,
                           vocab=range(N_LABELS))
    system = SimpleNamespace(n_words=n_system)
    return gold, system, gold_graph, system_graph, sys_to_gold, sys_word_sent


PATHS = ["compiled", "numpy"]


@pytest.fixture(params=PATHS)
def counting_path(request, monkeypatch):
    if request.param == "numpy":
        monkeypatch.setattr(enhanced, "_cenhanced", None)
    elif enhanced._cenhanced is None:
        pytest.skip("the compiled core is not built here")
    return request.param


@pytest.mark.parametrize("universal", [False, True])
@pytest.mark.parametrize("seed", range(60))
def test_official_count_is_the_nested_count(counting_path, seed, universal):
    gold, system, gold_graph, system_graph, sys_to_gold, sys_word_sent = _case(seed)
    counts = enhanced.enhanced_counts(universal, gold, system, gold_graph, system_graph,
                                      sys_to_gold, sys_word_sent, "official")
    expected = nested_reference(gold_graph, system_graph, sys_to_gold, gold.word_sent,
                                sys_word_sent, gold.n_sentences, universal)
    assert counts.by_sentence[:, :3].tolist() == expected.tolist()
    assert counts.total[:3] == tuple(expected.sum(axis=0).tolist())
    assert counts.total[3] is None and not counts.has_aligned_accuracy


def test_repeated_edges_count_the_product_of_their_multiplicities(counting_path):
    """One edge 300 times in gold and 200 times in the system: 60,000 correct pairs, as the
    scripts count them (a word pair large enough for the compiled sort); the 50 system edges
    without parent match nothing, not even the gold edge to the word itself."""
    gold_graph = EnhancedGraph(np.zeros(301, np.int64), np.array([ROOT] * 300 + [0], np.int64),
                               np.array([1] * 300 + [1], np.int64), np.zeros(301, np.int64))
    system_graph = EnhancedGraph(np.zeros(250, np.int64),
                                 np.array([ROOT] * 200 + [NO_PARENT] * 50, np.int64),
                                 np.array([1] * 200 + [1] * 50, np.int64), np.zeros(250, np.int64))
    gold = SimpleNamespace(n_sentences=1, n_words=1, word_sent=np.zeros(1, np.int64), vocab=range(2))
    system = SimpleNamespace(n_words=1)
    sys_to_gold = np.zeros(1, np.int64)
    for universal in (False, True):
        counts = enhanced.enhanced_counts(universal, gold, system, gold_graph, system_graph,
                                          sys_to_gold, np.zeros(1, np.int64), "official")
        assert counts.total[:3] == (60_000, 301, 250)


# ------------------------------------------------------------------ against the official scorers
def _big_word_pair(seed: int, n: int):
    """Gold and system CoNLL-U of one 12-word sentence whose word 2 has ``n`` DEPS edges (heads
    over the sentence, the root and the empty node 3.1; labels with case parts and paths;
    repeats on both sides, the system's shuffled and partly changed)."""
    r = random.Random(seed)
    labels = ["nmod:in", "conj:and", "obl:on_top_of", "nsubj", "conj:and>obl:in", "obj"]
    pool = [f"{r.choice(['3.1'] + [str(h) for h in range(13)])}:{r.choice(labels)}"
            for _ in range(n // 4)]
    gold_items = [r.choice(pool) for _ in range(n)]
    system_items = [r.choice(pool) if r.random() < 0.3 else item for item in gold_items]
    system_items += [r.choice(gold_items) for _ in range(n // 5)]
    r.shuffle(system_items)

    def text(items):
        lines = []
        for i in range(1, 13):
            head, deprel = (0, "root") if i == 1 else (1, "dep")
            deps = "|".join(items) if i == 2 else f"{head}:{deprel}"
            lines.append(f"{i}\tw{i}\tw\tX\t_\t_\t{head}\t{deprel}\t{deps}\t_")
            if i == 3:
                lines.append("3.1\te\te\tX\t_\t_\t_\t_\t2:orphan\t_")
        return "\n".join(lines) + "\n\n"

    return text(gold_items), text(system_items)


def _official_command(profile: str):
    directory = oracles.oracle_dir()
    if directory is None:
        pytest.skip("the official scorers are not installed (make oracles)")
    script = (directory / "iwpt20_ud_eval.py" if profile == "iwpt"
              else directory / "venv" / "bin" / "udeval")
    if not script.exists():
        pytest.skip(f"{script} is not installed")
    return [sys.executable, str(script)] if profile == "iwpt" else [str(script)]


@pytest.mark.parametrize("profile", ["iwpt", "udeval"])
@pytest.mark.parametrize("seed,n", [(1, 40), (2, 400), (3, 1200)])
def test_a_word_with_many_repeated_edges_scores_as_the_official_scorer(
        counting_path, tmp_path: Path, profile, seed, n):
    gold_text, system_text = _big_word_pair(seed, n)
    gold, system = tmp_path / "gold.conllu", tmp_path / "system.conllu"
    gold.write_text(gold_text, encoding="utf-8")
    system.write_text(system_text, encoding="utf-8")
    for options in (["-v"], ["-c"], ["--enhancements", "12", "-c"]):
        official = subprocess.run(_official_command(profile) + [*options, str(gold), str(system)],
                                  capture_output=True, text=True, cwd=tmp_path)
        assert official.returncode == 0, official.stderr[-500:]
        out, err = io.StringIO(), io.StringIO()
        status = main(["--profile", profile, *options, str(gold), str(system)], out, err)
        assert (status, out.getvalue()) == (0, official.stdout), (options, err.getvalue())
        assert "ELAS" in out.getvalue()


# ------------------------------------------------------------------------------------ validate
def _validate(path: Path, *options):
    out, err = io.StringIO(), io.StringIO()
    status = main(["validate", *options, str(path)], out, err)
    return status, out.getvalue() + err.getvalue()


def _two_words(deps: str) -> str:
    return ("# sent_id = 1\n# text = a b\n1\ta\ta\tX\t_\t_\t0\troot\t0:root\t_\n"
            f"2\tb\tb\tX\t_\t_\t1\tdep\t{deps}\t_\n\n")


def test_a_long_deps_is_quoted_cut_in_each_of_its_items_messages(tmp_path: Path):
    """3,000 invalid relations (and 1,500 out of order) in one DEPS: each message quotes the
    DEPS cut to QUOTED_DEPS_CHARS, not whole (that was quadratic: 50,000 such items took
    24 GB); a short DEPS is quoted whole, as udtools does."""
    items = "|".join("1:nmod:in" if k % 2 else "1:BAD" for k in range(3000))  # BAD < nmod
    path = tmp_path / "long.conllu"
    path.write_text(_two_words(items), encoding="utf-8")
    status, text = _validate(path, "--level", "2", "--max-err", "0")
    lines = [line for line in text.splitlines() if "invalid-edeprel" in line or "unsorted-deps-2" in line]
    assert status == 1 and text.count("invalid-edeprel]") == 1500 and text.count("unsorted-deps-2]") == 1499
    assert max(len(line) for line in lines) < 2000  # the DEPS has 23,999 characters
    assert all("more characters]'." in line for line in lines)
    path.write_text(_two_words("1:BAD|1:b"), encoding="utf-8")
    status, text = _validate(path, "--level", "2")
    assert "Invalid enhanced relation type: '1:BAD|1:b'." in text


@pytest.mark.parametrize("level", ["1", "2", "3"])
def test_a_deps_head_past_int_s_digit_limit_is_an_error_not_a_crash(tmp_path: Path, level):
    """A head of 5,000 digits (int() refuses more than 4,300): unknown-ehead from level 2, no
    internal error (exit 3) at any level."""
    path = tmp_path / "head.conllu"
    path.write_text(_two_words(f"1:dep|{'1' * 5000}:dep"), encoding="utf-8")
    status, text = _validate(path, "--level", level)
    assert "internal" not in text
    assert (status, "unknown-ehead" in text) == ((0, False) if level == "1" else (1, True))


def test_head_keys_order_and_match_as_udtools_node_tuples():
    """validate's _id_key orders and equals heads and IDs as int tuples do (udtools'
    nodeid2tuple), leading zeros of empty-node IDs included."""
    from conll_eval.validate.tree import _id_key  # the private key the DEPS checks use

    r = random.Random(7)
    ids = [f"{r.choice(['', '0', '00'])}{r.randint(0, 120)}" + r.choice(["", f".{r.randint(1, 12)}"])
           for _ in range(400)]
    as_ints = lambda s: tuple(int(p) for p in (s.split(".") + ["0"])[:2])  # noqa: E731
    assert sorted(ids, key=_id_key) == sorted(ids, key=lambda s: (as_ints(s), _id_key(s)))
    for a, b in zip(ids, reversed(ids)):
        assert (_id_key(a) == _id_key(b)) == (as_ints(a) == as_ints(b))


# ------------------------------------------------------------------------ --collapse-empty-nodes
def _script_collapsed_edges(sentence):
    """The paths the UD script adds, found as it finds them (every path into an empty node
    scanned for each path out of one): the reference of ``_Sentence.collapsed_edges``."""
    empty = empty_nodes._EMPTY_IN_PATH.fullmatch
    edges = []
    for node_id in sorted(sentence.nodes, key=lambda i: tuple(int(p) for p in (i.split(b".") + [b"0"])[:2])):
        edges += [(head, relation, node_id) for head, relation in sentence.nodes[node_id].deps]
    ok = [e for e in edges if not empty(e[0]) and not empty(e[-1])]
    queue = [e for e in edges if empty(e[0])]
    into_empty = [e for e in edges if empty(e[-1])]
    first_into_empty = set(into_empty)
    position = 0
    while position < len(queue):
        out_path = queue[position]
        position += 1
        for in_path in [e for e in into_empty if e[-1] == out_path[0]]:
            path = in_path[:-1] + out_path
            if not empty(path[0]) and not empty(path[-1]):
                ok.append(path)
            elif len(set(path[::2])) == len(path[::2]):
                if empty(path[0]) and path not in queue:
                    queue.append(path)
                if empty(path[-1]) and path not in first_into_empty:
                    into_empty.append(path)
    added = {}
    for path in ok:
        if len(path) > 3:
            label = empty_nodes._ID_IN_LABEL.sub(b">", b">".join(path[1:-1]))
            added.setdefault(path[-1], []).append((path[0], label))
    return added


def _sentence_with_empty_nodes(r: random.Random) -> List[bytes]:
    """Words 1..n and empty nodes after some of them; every node's DEPS names words, the root
    and empty nodes (empty nodes only point at empty nodes before them: no cycle of them)."""
    n = r.randint(2, 12)
    empties = [f"{w}.{k}" for w in range(0, n + 1) for k in range(1, r.choice([1, 1, 2, 4]))
               if r.random() < 0.5]
    def deps(own_empty: Optional[str]) -> str:
        heads = [str(h) for h in range(n + 1)]
        earlier = empties[:empties.index(own_empty)] if own_empty else empties
        items = {f"{r.choice(heads + earlier * 3) if earlier else r.choice(heads)}:"
                 f"{r.choice(['obj', 'conj', 'nsubj', 'obl:in'])}" for _ in range(r.randint(1, 6))}
        return "|".join(sorted(items))
    lines = []
    for w in range(0, n + 1):
        if w:
            lines.append(f"{w}\tw\tw\tX\t_\t_\t{0 if w == 1 else 1}\tdep\t{deps(None)}\t_\n")
        for e in empties:
            if e.split(".")[0] == str(w):
                lines.append(f"{e}\te\te\tX\t_\t_\t_\t_\t{deps(e)}\t_\n")
    return [line.encode() for line in lines]


@pytest.mark.parametrize("seed", range(150))
def test_collapsed_paths_are_the_scripts(seed):
    """The paths through empty nodes, each path into an empty node looked up by its end
    instead of scanned for (quadratic in the empty nodes' edges), are the script's, in order."""
    sentence = empty_nodes._Sentence(_sentence_with_empty_nodes(random.Random(seed)), 1, "x")
    sentence.read()
    assert sentence.collapsed_edges() == _script_collapsed_edges(sentence)


def test_a_huge_word_id_beside_an_empty_node_is_an_error_not_a_crash(tmp_path: Path):
    """IDs are ordered by their digits (int() refuses more than 4,300 of them)."""
    path = tmp_path / "id.conllu"
    path.write_text("1\ta\ta\tX\t_\t_\t0\troot\t0:root\t_\n1.1\te\te\tX\t_\t_\t_\t_\t1:dep\t_\n"
                    f"{'1' * 5000}\tb\tb\tX\t_\t_\t1\tdep\t1.1:dep\t_\n\n", encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    status = main(["--profile", "iwpt", "--collapse-empty-nodes", str(path), str(path)], out, err)
    assert status == 1 and "internal" not in err.getvalue() and "[invalid-word-id]" in err.getvalue()

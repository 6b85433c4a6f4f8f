"""Mutation testing (``make mutation``): hand-worked cases for what the mutants of
``conll_eval/enhanced.py`` showed no selected test pinned: the messages of a malformed DEPS
item and of an empty node under ``--no-empty-nodes`` (ours and the scripts'), the edge-key
helpers the enhanced breakdown counts with (a repeated edge counts once; both key forms), and
``--enhancements 5``'s relative-clause rule in a sentence that does not start the file."""
import numpy as np
import pytest

from conll_eval import enhanced, evaluate_files
from conll_eval.enhanced import edge_keys, first_occurrences, key_in
from conll_eval.errors import FormatError
from conll_eval.evaluate import Settings
from conll_eval.treebank import Vocab

from helpers import row


def _write(tmp_path, text):
    path = tmp_path / "gold.conllu"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_a_deps_item_without_a_relation_names_the_item_and_its_line(tmp_path):
    path = _write(tmp_path, "\n".join([row("1", "a", "0", "root", deps="0:root"),
                                       row("2", "b", "1", "obj", deps="1:")]) + "\n\n")
    with pytest.raises(FormatError) as caught:
        evaluate_files(path, path, profile="iwpt")
    assert str(caught.value) == f"{path}:2: error [invalid-deps] DEPS item '1:' has an empty relation"
    assert caught.value.official is None


def test_an_empty_node_under_no_empty_nodes_gives_both_messages(tmp_path):
    empty = row("1.1", "x", deps="1:dep")
    path = _write(tmp_path, "\n".join([row("1", "a", "0", "root", deps="0:root"), empty,
                                       row("2", "b", "1", "obj", deps="1:obj")]) + "\n\n")
    with pytest.raises(FormatError) as caught:
        evaluate_files(path, path, settings=Settings(no_empty_nodes=True))
    assert str(caught.value) == (f"{path}:2: error [empty-node] an empty node, though "
                                 "--no-empty-nodes says they are collapsed")
    assert caught.value.official == \
        f"The collapsed CoNLL-U line still contains empty nodes at line 2: {empty}"


@pytest.mark.parametrize("n_words", [10, 2 ** 40])  # small: one int64 per edge; huge: rows
def test_edge_keys_find_shared_edges_and_count_a_repeated_one_once(n_words):
    """Edges (word, head, label): gold (1, 0, 2), (3, 1, 0), (1, 0, 2) again, (2, 1, 1);
    the system has (2, 1, 1) and (1, 0, 2)."""
    gold = edge_keys(np.array([1, 3, 1, 2]), np.array([0, 1, 0, 1]), np.array([2, 0, 2, 1]),
                     n_words, 2 ** 30)
    system = edge_keys(np.array([2, 1]), np.array([1, 0]), np.array([1, 2]), n_words, 2 ** 30)
    assert gold.ndim == (1 if n_words == 10 else 2)
    assert key_in(gold, system).tolist() == [True, False, True, True]
    assert first_occurrences(gold).tolist() == [True, True, False, True]
    assert first_occurrences(gold[:0]).tolist() == []


def _graph_sentence(*words):
    """A sentence of (id, form, head, deprel, deps) words."""
    return "\n".join(row(i, f, h, d, deps=deps) for i, f, h, d, deps in words) + "\n\n"


def test_rule_5_drops_an_edge_from_an_acl_parent_whose_head_is_the_word_s_position(tmp_path):
    """Sentence 2: C (acl, HEAD 1) -> B, the word at 0-based position 1: the scripts drop
    that edge with 5 switched off (a quirk they have), leaving 2 gold edges of 3.  Sentence
    3: the root word D is an acl (HEAD 0), and E at position 0 depends on it: dropped too."""
    text = (_graph_sentence(("1", "Z", "0", "root", "0:root"))
            + _graph_sentence(("1", "A", "0", "root", "0:root"), ("2", "B", "3", "nsubj", "3:nsubj"),
                              ("3", "C", "1", "acl", "1:acl"))
            + _graph_sentence(("1", "E", "2", "nsubj", "2:nsubj"), ("2", "D", "0", "acl", "0:root")))
    path = _write(tmp_path, text)
    kept = evaluate_files(path, path, profile="iwpt").scores["ELAS"]
    off = evaluate_files(path, path, settings=Settings("iwpt", enhancements="5")).scores["ELAS"]
    assert (kept.gold, off.gold) == (6, 4)


def test_rule_4_drops_an_edge_from_an_xcomp_parent_with_nsubj_in_any_step(tmp_path):
    """B's only enhanced edge comes from C (an xcomp) with the path label conj>nsubj: its
    second step is an nsubj, so 4 switched off drops it (3 gold edges, then 2)."""
    path = _write(tmp_path, _graph_sentence(("1", "A", "0", "root", "0:root"),
                                            ("2", "B", "3", "nsubj", "3:conj>nsubj"),
                                            ("3", "C", "1", "xcomp", "1:xcomp")))
    kept = evaluate_files(path, path, profile="iwpt").scores["ELAS"]
    off = evaluate_files(path, path, settings=Settings("iwpt", enhancements="4")).scores["ELAS"]
    assert (kept.gold, off.gold) == (3, 2)


def test_first_occurrences_is_a_boolean_mask():
    keys = edge_keys(np.array([1, 1, 2]), np.array([0, 0, 1]), np.array([2, 2, 1]), 10, 8)
    found = first_occurrences(keys)
    assert found.dtype == np.bool_ and found.tolist() == [True, False, True]
    assert first_occurrences(keys[:0]).dtype == np.bool_


def test_rule_5_drops_an_edge_from_the_file_s_first_word(tmp_path):
    """A, the file's first word (index 0), is an acl with HEAD 2; C at 0-based position 2
    has an enhanced edge from A: dropped with 5 switched off (4 gold edges, then 3), which a
    rule that took index 0 for "no head" would keep."""
    path = _write(tmp_path, _graph_sentence(("1", "A", "2", "acl", "2:acl"),
                                            ("2", "B", "0", "root", "0:root"),
                                            ("3", "C", "2", "obj", "1:nsubj|2:obj")))
    kept = evaluate_files(path, path, profile="iwpt").scores["ELAS"]
    off = evaluate_files(path, path, settings=Settings("iwpt", enhancements="5")).scores["ELAS"]
    assert (kept.gold, off.gold) == (4, 3)


@pytest.mark.parametrize("n_words", [10, 2 ** 40])  # small: one int64 key per edge; huge: rows
def test_rule_1_keeps_a_path_edge_and_drops_the_one_step_edge_it_repeats(n_words):
    """Word 0 (basic parent 1, nsubj) has (head 2, conj>nsubj), then (head 1, nsubj): the path
    edge becomes (1, nsubj), so the one-step edge repeats it and goes; word 1's two distinct
    edges and word 2's repeated edge (the second goes) show the first-occurrence rule."""
    vocab = Vocab()
    nsubj, path, obj, root = vocab.encode(["nsubj", "conj>nsubj", "obj", "root"]).tolist()
    word = np.array([0, 0, 1, 1, 2, 2])
    head = np.array([2, 1, -1, 2, 0, 0])
    label = np.array([path, nsubj, root, obj, obj, obj])
    parent = np.array([1, -1, 0])
    udeprel = np.array([nsubj, root, obj])
    kept = enhanced._no_gapping(vocab, word, head, label, parent, udeprel, n_words)
    assert [a.tolist() for a in kept] == [[0, 1, 1, 2], [1, -1, 2, 0], [nsubj, root, obj, obj]]


@pytest.mark.parametrize("text, code, message", [
    ("2:nsubj|4obj", "invalid-deps",
     "DEPS item '4obj' has no ':' between head and relation (the official scripts crash here)"),
    ("4:conj>", "invalid-deps", "DEPS item '4:conj>' has an empty relation"),
    ("x:obj", "invalid-deps-head", "DEPS head 'x' is not a word ID (the official scripts crash here)"),
    ("2147483648:obj", "deps-head-out-of-range",
     "DEPS head '2147483648' points outside the sentence (the official scripts crash here)"),
    ("-1:obj", "deps-head-out-of-range",
     "DEPS head '-1' is negative (the official scripts take a word of another sentence)"),
])
def test_malformed_deps_items_are_named_with_their_code(text, code, message):
    with pytest.raises(enhanced._BadDeps) as caught:
        enhanced._parse_deps(text)
    assert (caught.value.code, caught.value.message, str(caught.value)) == (code, message, message)


def test_deps_heads_up_to_2_31_minus_1_parse_and_paths_keep_their_steps():
    """The parser takes any head below 2**31 (the sentence length is checked later)."""
    assert enhanced._parse_deps("2147483647:obj|62:conj:en>obl:voor") == \
        [(2 ** 31 - 1, "obj"), (62, "conj:en>obl:voor")]
    assert enhanced._universal_path("conj:en>obl:voor") == "conj>obl"


def test_a_deps_head_outside_a_later_sentence_names_the_head_and_the_length(tmp_path):
    """Sentence 2 has 2 words; its second word's DEPS head 4 is outside it (though word 4 of
    the file exists), and that edge is not the file's first."""
    path = _write(tmp_path, _graph_sentence(("1", "A", "0", "root", "0:root"),
                                            ("2", "B", "1", "obj", "1:obj"))
                  + _graph_sentence(("1", "C", "0", "root", "0:root"), ("2", "D", "1", "obj", "4:obj")))
    with pytest.raises(FormatError) as caught:
        evaluate_files(path, path, profile="iwpt")
    assert str(caught.value) == (f"{path}:5: error [deps-head-out-of-range] DEPS head 4 points "
                                 "outside the sentence of 2 words (the official scripts crash here)")
    assert caught.value.official is None


def test_a_deps_reference_to_an_empty_node_under_no_empty_nodes_names_its_sentence(tmp_path):
    """No empty node line, but sentence 2's DEPS name ``1.1``: the error is at the line ending
    that sentence (the scripts' message has the line and nothing after it)."""
    path = _write(tmp_path, _graph_sentence(("1", "A", "0", "root", "0:root"))
                  + _graph_sentence(("1", "C", "0", "root", "0:root"), ("2", "D", "1", "obj", "1.1:obj")))
    with pytest.raises(FormatError) as caught:
        evaluate_files(path, path, settings=Settings("iwpt", no_empty_nodes=True))
    assert str(caught.value) == (f"{path}:5: error [empty-node-reference] DEPS of this sentence "
                                 "name an empty node though --no-empty-nodes says they are collapsed")
    assert caught.value.official == \
        "The collapsed CoNLL-U file still contains references to empty nodes at line 5: "


@pytest.mark.parametrize("rule", ["2", "4", "5"])
def test_a_rule_switched_off_on_a_one_word_file_without_its_edges_changes_nothing(tmp_path, rule):
    """One word, one root edge: no conj edge (rule 2), no edge with a word head (rules 4, 5)."""
    path = _write(tmp_path, _graph_sentence(("1", "A", "0", "root", "0:root")))
    score = evaluate_files(path, path, settings=Settings("iwpt", enhancements=rule)).scores["ELAS"]
    assert (score.correct, score.gold, score.system) == (1, 1, 1)


def test_rule_4_drops_an_nsubj_edge_from_the_file_s_first_word(tmp_path):
    """A, the file's first word (index 0), is an xcomp; C's nsubj edge from it goes with 4
    switched off (4 gold edges, then 3), which a rule taking index 0 for "no head" keeps."""
    path = _write(tmp_path, _graph_sentence(("1", "A", "2", "xcomp", "2:xcomp"),
                                            ("2", "B", "0", "root", "0:root"),
                                            ("3", "C", "2", "nsubj", "1:nsubj|2:nsubj")))
    kept = evaluate_files(path, path, profile="iwpt").scores["ELAS"]
    off = evaluate_files(path, path, settings=Settings("iwpt", enhancements="4")).scores["ELAS"]
    assert (kept.gold, off.gold) == (4, 3)


def test_edge_keys_use_the_int64_bound_and_ignore_the_input_dtype():
    """Rows from (n_words + 1) * (n_words + 4) * labels = 2**62 on (n_words 0: 1 * 4 * 2**60);
    int32 inputs (alignment indices) give the keys int64 inputs give, without wrapping."""
    word, head, label = np.array([0, 0]), np.array([-1, -1]), np.array([0, 2 ** 60 - 2])
    below = edge_keys(word, head, label, 0, 2 ** 60 - 1)
    assert below.ndim == 1 and len(set(below.tolist())) == 2
    assert edge_keys(word, head, label, 0, 2 ** 60).ndim == 2
    word, head, label = np.array([70000, 3]), np.array([69999, -1]), np.array([5, 9])
    as32 = edge_keys(*(a.astype(np.int32) for a in (word, head, label)), 100000, 40)
    assert as32.dtype == np.int64 and as32.tolist() == edge_keys(word, head, label, 100000, 40).tolist()


@pytest.mark.parametrize("n_words", [10, 2 ** 40])
def test_unique_and_intersect_give_counts_and_indices_of_keys_and_rows(n_words):
    a = edge_keys(np.array([3, 1, 3, 2]), np.array([0, 0, 0, 1]), np.array([1, 2, 1, 0]), n_words, 8)
    distinct, first, count = enhanced._unique(a)
    assert sorted(zip(first.tolist(), count.tolist())) == [(0, 2), (1, 1), (3, 1)]
    b = edge_keys(np.array([2, 5, 3]), np.array([1, 0, 0]), np.array([0, 0, 1]), n_words, 8)
    common, at_a, at_b = enhanced._intersect(distinct, b)
    assert len(common) == 2
    assert sorted(zip(first[at_a].tolist(), at_b.tolist())) == [(0, 2), (3, 0)]


def test_partner_edges_of_an_empty_graph_are_integer_indices():
    empty = np.zeros(0, np.int64)
    partner, mapped = enhanced.partner_edges(enhanced.EnhancedGraph(empty, empty, empty, empty),
                                             np.zeros(3, np.int64))
    assert partner.dtype == mapped.dtype == np.int64 and len(partner) == len(mapped) == 0


class _Side:
    """What enhanced_counts reads of a treebank."""

    def __init__(self, n_words, word_sent, n_sentences=2, labels=8):
        self.n_words, self.word_sent, self.n_sentences = n_words, np.array(word_sent), n_sentences
        self.vocab = [None] * labels


@pytest.mark.parametrize("n_words", [5, 2 ** 40])  # small: one int64 key per edge; huge: rows
def test_the_numpy_official_count_multiplies_repeated_edges(n_words, monkeypatch):
    """Gold sentence 0 (words 0, 1): (0, root, 1), (1, 0, 2) twice; sentence 1 (word 2):
    (2, root, 1).  The system (words 0-3; word 3 has no partner) repeats (1, 0, 2) too,
    labels word 2's root edge 3, and gives word 1 an edge from word 3 (no partner: matches
    nothing): sentence 0 has 1 + 2 * 2 = 5 correct of 3 gold, 4 system edges; sentence 1 none
    of 1 gold, 2 system edges (word 3's counts there).  No aligned count."""
    monkeypatch.setattr(enhanced, "_cenhanced", None)
    gold = enhanced.EnhancedGraph(*(np.array(a) for a in (
        [0, 1, 1, 2], [-1, 0, 0, -1], [1, 2, 2, 1], [1, 2, 2, 1])))
    system = enhanced.EnhancedGraph(*(np.array(a) for a in (
        [0, 1, 1, 1, 2, 3], [-1, 0, 0, 3, -1, 2], [1, 2, 2, 2, 3, 1], [1, 2, 2, 2, 3, 1])))
    counts = enhanced.enhanced_counts(False, _Side(n_words, [0, 0, 1]), _Side(4, [0, 0, 1, 1]),
                                      gold, system, np.array([0, 1, 2, -1]), np.array([0, 0, 1, 1]))
    assert counts.by_sentence[:, :3].tolist() == [[5, 3, 4], [0, 1, 2]]
    assert counts.total == (5, 4, 6, None)
    assert counts.score_of(np.array([0])).aligned is None

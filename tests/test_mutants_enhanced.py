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

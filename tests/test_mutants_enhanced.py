"""Mutation testing (``make mutation``): hand-worked cases for what the mutants of
``conll_eval/enhanced.py`` showed no selected test pinned: the messages of a malformed DEPS
item and of an empty node under ``--no-empty-nodes`` (ours and the scripts'), and the edge-key
helpers the enhanced breakdown counts with (a repeated edge counts once; both key forms)."""
import numpy as np
import pytest

from conll_eval import evaluate_files
from conll_eval.enhanced import edge_keys, first_occurrences, key_in
from conll_eval.errors import FormatError
from conll_eval.evaluate import Settings

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

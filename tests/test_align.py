"""Word alignment: the official regression cases and the alignment invariants."""
import numpy as np
import pytest

from conll_eval import AlignmentError, evaluate_files
from conll_eval.align import align_words
from conll_eval.reader import load_text
from conll_eval.treebank import Vocab

from helpers import ALIGNMENT_CASES as REGRESSION, tokens_to_conllu



def _pair(gold_entries, system_entries):
    vocab = Vocab()
    gold = load_text(tokens_to_conllu(gold_entries), path="gold", vocab=vocab)
    system = load_text(tokens_to_conllu(system_entries), path="system", vocab=vocab)
    return gold, system


@pytest.mark.parametrize("gold_entries,system_entries,expected", REGRESSION,
                         ids=[" | ".join(g) + " vs " + " | ".join(s) for g, s, _ in REGRESSION])
def test_official_regression_cases(gold_entries, system_entries, expected, tmp_path):
    gold_path, system_path = tmp_path / "g.conllu", tmp_path / "s.conllu"
    gold_path.write_text(tokens_to_conllu(gold_entries), encoding="utf-8")
    system_path.write_text(tokens_to_conllu(system_entries), encoding="utf-8")
    evaluation = evaluate_files(str(gold_path), str(system_path))
    assert evaluation.scores["Words"].correct == expected
    # alignment is one-to-one and monotone
    alignment = evaluation.alignment
    assert np.all(np.diff(alignment.gold_idx) > 0) and np.all(np.diff(alignment.sys_idx) > 0)


def test_different_text_is_rejected_with_both_locations(tmp_path):
    gold_path, system_path = tmp_path / "g.conllu", tmp_path / "s.conllu"
    gold_path.write_text(tokens_to_conllu(["a"]), encoding="utf-8")
    system_path.write_text(tokens_to_conllu(["b"]), encoding="utf-8")
    with pytest.raises(AlignmentError) as info:
        evaluate_files(str(gold_path), str(system_path))
    message = str(info.value)
    assert "text-mismatch" in message and str(gold_path) in message and str(system_path) in message
    assert info.value.official.startswith("The concatenation of tokens in gold file and in system file differ!")
    assert "First 20 differing characters in gold file: 'a' and system file: 'b'" in info.value.official


def test_prefix_text_gives_truncation_hint(tmp_path):
    gold_path, system_path = tmp_path / "g.conllu", tmp_path / "s.conllu"
    gold_path.write_text(tokens_to_conllu(["ab", "c"]), encoding="utf-8")
    system_path.write_text(tokens_to_conllu(["ab"]), encoding="utf-8")
    with pytest.raises(AlignmentError) as info:
        evaluate_files(str(gold_path), str(system_path))
    assert "ends early" in str(info.value)
    assert info.value.official.endswith("in gold file: 'c' and system file: ''")


def test_outside_multiword_spans_only_identical_spans_align():
    gold, system = _pair(["abc"], ["a", "b", "c"])
    assert len(align_words(gold, system)) == 0


def test_case_insensitive_only_inside_multiword_spans():
    gold, system = _pair(["ab A b"], ["a", "b"])
    alignment = align_words(gold, system)
    assert alignment.gold_idx.tolist() == [0, 1] and alignment.sys_idx.tolist() == [0, 1]

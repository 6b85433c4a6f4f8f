"""Hand-worked cases for the mutants of the scoring core found by hand (issue 41, part 2): each
test fails on its mutant, whichever path (compiled or numpy) runs, with no random input.

- ``universal_deprel`` taking ``rsplit(":", 1)[0]`` instead of ``split(":")[0]``;
- the LCS walk's tie rule (advance in gold when the LCS below is as long);
- the single-root check (two roots are already too many).
(The ELAS nested count, gold x system multiplicity, is pinned by
``tests/test_security_enhanced.py`` against a plain nested loop.)"""
import pytest

from conll_eval import evaluate_files
from conll_eval.align import _lcs_align
from conll_eval.errors import InputError
from conll_eval.metrics import universal_deprel

from helpers import document, row, sentence


def _pair(tmp_path, gold: str, system: str):
    paths = []
    for name, text in (("gold.conllu", gold), ("system.conllu", system)):
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        paths.append(str(path))
    return paths


def test_the_universal_relation_is_the_part_before_the_first_colon():
    assert universal_deprel("obl:tmod:x") == "obl"
    assert universal_deprel("nmod:poss") == "nmod"
    assert universal_deprel("root") == "root"


def test_a_relation_with_two_subtypes_scores_as_its_universal_part(tmp_path):
    """LAS compares universal relations: gold ``obl:a:b`` against system ``obl`` and
    ``obl:c`` is right both times (``obl:a`` would not match either)."""
    gold = document(sentence("1 Hello 0 root", "2 there 1 obl:a:b", "3 now 1 obl:a:b"))
    system = document(sentence("1 Hello 0 root", "2 there 1 obl", "3 now 1 obl:c"))
    scores = evaluate_files(*_pair(tmp_path, gold, system)).scores
    assert (scores["LAS"].correct, scores["LAS"].gold) == (3, 3)


def test_the_lcs_walk_moves_on_in_gold_on_a_tie():
    """[a, b] against [b, a]: the LCS is one word either way; the official walk, at a tie
    (the LCS from the next gold word is as long), moves on in gold, so gold ``b`` is aligned
    with system ``b``, not ``a`` with ``a``."""
    gold, system = [], []
    _lcs_align(["a", "b"], ["b", "a"], 10, 20, gold, system)
    assert (gold, system) == ([11], [20])


def test_the_lcs_tie_decides_which_words_are_scored_together(tmp_path):
    """The same tie inside a multi-word token, through the whole pipeline (the compiled LCS
    where it is built): gold ``b``/VERB is compared with system ``b``/ADJ (UPOS wrong), not
    gold ``a``/NOUN with system ``a``/NOUN (which would be right)."""
    gold = document("\n".join([row("1-2", "ab"), row("1", "a", "0", "root", upos="NOUN"),
                               row("2", "b", "1", "dep", upos="VERB")]) + "\n\n")
    system = document("\n".join([row("1-2", "ab"), row("1", "b", "0", "root", upos="ADJ"),
                                 row("2", "a", "1", "dep", upos="NOUN")]) + "\n\n")
    scores = evaluate_files(*_pair(tmp_path, gold, system)).scores
    assert scores["Words"].correct == 1
    assert scores["UPOS"].correct == 0


@pytest.mark.parametrize("roots", [2, 3])
def test_two_roots_are_already_too_many(tmp_path, roots):
    words = [f"{i} w{i} {0 if i <= roots else 1} {'root' if i <= roots else 'dep'}"
             for i in range(1, 5)]
    one_root = document(sentence("1 w1 0 root", "2 w2 1 dep", "3 w3 1 dep", "4 w4 1 dep"))
    gold, system = _pair(tmp_path, one_root, document(sentence(*words)))
    with pytest.raises(InputError) as raised:
        evaluate_files(gold, system)
    assert raised.value.code == "multiple-roots"

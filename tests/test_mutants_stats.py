"""Mutation testing (``make mutation``): hand-worked cases for what the mutants of
``conll_eval/stats.py`` showed no test pinned: a score's dictionary (the JSON outputs' fields),
the exact-match count and the score of a subset of sentences (the resamples' unit)."""
import numpy as np
import pytest

from conll_eval import evaluate_files

from helpers import document, row, sentence

# three gold sentences: the first right everywhere; the second with one wrong relation;
# the third a multi-word token "ab" that the system splits into one word more (a, b, c)
GOLD = document(
    sentence("1 a 0 root NOUN", "2 b 1 obj VERB"),
    sentence("1 c 0 root NOUN", "2 d 1 obj VERB"),
    "\n".join([row("1-2", "ab"), row("1", "a", "0", "root", upos="NOUN"),
               row("2", "b", "1", "obj", upos="VERB")]) + "\n\n")
SYSTEM = document(
    sentence("1 a 0 root NOUN", "2 b 1 obj VERB"),
    sentence("1 c 0 root NOUN", "2 d 1 nsubj VERB"),
    "\n".join([row("1-3", "ab"), row("1", "a", "0", "root", upos="NOUN"),
               row("2", "b", "1", "obj", upos="VERB"), row("3", "c", "1", "dep", upos="X")]) + "\n\n")


@pytest.fixture
def evaluation(tmp_path):
    gold, system = tmp_path / "gold.conllu", tmp_path / "system.conllu"
    gold.write_text(GOLD, encoding="utf-8")
    system.write_text(SYSTEM, encoding="utf-8")
    return evaluate_files(str(gold), str(system))


def test_a_score_as_a_dictionary_has_every_field_by_its_name(evaluation):
    """UPOS: the six gold words are aligned and tagged right; the system has seven words."""
    assert evaluation.scores["UPOS"].as_dict() == {
        "correct": 6, "gold": 6, "system": 7, "aligned": 6, "precision": pytest.approx(6 / 7),
        "recall": 1.0, "f1": pytest.approx(12 / 13), "aligned_accuracy": 1.0}
    # Words: the aligned words are its correct count, and it has no aligned accuracy
    words = evaluation.scores["Words"].as_dict()
    assert (words["correct"], words["gold"], words["system"], words["aligned_accuracy"]) == \
        (6, 6, 7, None)


def test_exact_match_needs_every_gold_word_right_and_no_extra_system_word(evaluation):
    """UPOS: sentences 1 and 2 (sentence 3 has the extra system word c); LAS: sentence 1
    only (sentence 2 has a wrong relation)."""
    exact = evaluation.exact_match()
    assert exact["UPOS"] == (2, 3)
    assert exact["LAS"] == (1, 3)


def test_the_score_of_a_resample_sums_its_sentences_with_repetitions(evaluation):
    """Sentences 1, 1 and 3: UPOS 2 + 2 + 2 correct of 6 gold words, 2 + 2 + 3 system words,
    6 aligned; LAS 2 + 2 + 2 correct (sentence 3's gold words are right)."""
    upos = evaluation.counts["UPOS"].score_of(np.array([0, 0, 2]))
    assert (upos.correct, upos.gold, upos.system, upos.aligned) == (6, 6, 7, 6)
    las = evaluation.counts["LAS"].score_of(np.array([1]))
    assert (las.correct, las.gold, las.system, las.aligned) == (1, 2, 2, 2)
    assert las.aligned_accuracy == 0.5
    tokens = evaluation.counts["Tokens"].score_of(np.array([2]))
    assert tokens.aligned is None and tokens.aligned_accuracy is None
    words = evaluation.counts["Words"].score_of(np.array([2]))  # aligned, but no accuracy
    assert (words.correct, words.aligned, words.aligned_accuracy) == (2, 2, None)

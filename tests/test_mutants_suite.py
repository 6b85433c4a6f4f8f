"""Mutation testing (``make mutation``): the suite's mean over languages, hand-worked, which
the mutants of ``conll_eval/suite.py``'s ``_mean_of`` showed no in-process test pinned (the
JSON tests that read it run the command line in a subprocess)."""
import pytest

from conll_eval.evaluate import Settings
from conll_eval.pairing import SuiteEntry
from conll_eval.stats import Score
from conll_eval.suite import SuiteEvaluation, TreebankResult

TOKENS = Score(4, 4, 4)  # no aligned accuracy: the official scorer leaves its cell blank


def _result(name, language, las, upos, unannotated=()):
    entry = SuiteEntry(name, f"{name}.conllu", f"{name}.conllu", language)
    return TreebankResult(entry, {"LAS": las, "UPOS": upos, "Tokens": TOKENS},
                          unannotated=unannotated)


@pytest.fixture
def suite():
    """en: two treebanks, the second without UPOS in its gold file; de and fr: one each,
    fr without UPOS (so no UPOS average for fr)."""
    results = (
        _result("en_a", "en", Score(3, 4, 4, 4), Score(4, 4, 4, 4)),        # LAS P R F1 .75, AA .75
        _result("en_b", "en", Score(1, 4, 2, 2), Score(4, 4, 4, 4), ("UPOS",)),  # .5 .25 1/3, .5
        _result("de_a", "de", Score(2, 2, 4, 2), Score(1, 2, 2, 2)),        # .5 1 2/3, AA 1
        _result("fr_a", "fr", Score(0, 2, 2, 2), Score(2, 2, 2, 2), ("UPOS",)),  # 0 0 0, AA 0
    )
    return SuiteEvaluation("system", results, Settings(), metrics=("LAS", "UPOS", "Tokens"))


def test_each_language_averages_its_treebanks(suite):
    en = suite.by_language()["en"]["LAS"]
    assert (en.precision, en.recall, en.f1, en.aligned_accuracy, en.count) == \
        pytest.approx((0.625, 0.5, 13 / 24, 0.625, 2))


def test_the_mean_over_languages_of_each_field(suite):
    """LAS: en (.625, .5, 13/24, .625), de (.5, 1, 2/3, 1), fr (0, 0, 0, 0): an aligned
    accuracy of 0 counts as 0."""
    las = suite.language_macro()["LAS"]
    assert (las.precision, las.recall, las.f1, las.aligned_accuracy, las.count) == \
        pytest.approx((0.375, 0.5, 29 / 72, 1.625 / 3, 3))


def test_a_language_without_the_tag_is_left_out_of_the_mean(suite):
    """UPOS: en (en_a alone: 1.0) and de (0.5); fr annotates no UPOS."""
    upos = suite.language_macro()["UPOS"]
    assert (upos.precision, upos.recall, upos.f1, upos.aligned_accuracy, upos.count) == \
        pytest.approx((0.75, 0.75, 0.75, 0.75, 2))


def test_no_aligned_accuracy_anywhere_stays_none(suite):
    tokens = suite.language_macro()["Tokens"]
    assert tokens.f1 == 1.0 and tokens.count == 3
    assert tokens.aligned_accuracy is None

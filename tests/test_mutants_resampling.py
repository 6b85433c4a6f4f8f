"""Mutation testing (``make mutation``): hand-worked cases for what the mutants of
``conll_eval/analyze/resampling.py`` showed no test pinned: rows that carry a fourth
(aligned) column, a stratum without sentences, empty inputs, the bootstrap p-value's
formula, the default confidence level and the caps of the corrections."""
import numpy as np
import pytest

from conll_eval.analyze.resampling import (bonferroni, bootstrap_scores, difference_test, holm,
                                           paired_bootstrap, randomization_p)

# one score; sentences (correct, gold, system, aligned): F1 = 2 * 3 / (4 + 4) = 0.75
ROWS = np.array([[[2, 2, 2, 2]], [[1, 2, 2, 2]]])


def test_the_aligned_column_of_count_rows_is_not_scored():
    with_aligned = bootstrap_scores([ROWS], resamples=20, seed=3)
    without = bootstrap_scores([ROWS[..., :3]], resamples=20, seed=3)
    assert with_aligned.observed == pytest.approx([0.75])
    assert np.array_equal(with_aligned.samples, without.samples)


def test_a_stratum_without_sentences_scores_0_in_the_mean():
    """A failed treebank (no sentences) beside one at F1 0.75: the mean is 0.375, and every
    resample is half the other treebank's (the same draws: the empty one draws nothing)."""
    alone = bootstrap_scores([ROWS], resamples=20, seed=5)
    with_empty = bootstrap_scores([np.zeros((0, 1, 3)), ROWS], resamples=20, seed=5)
    assert with_empty.observed == pytest.approx([0.375])
    assert np.allclose(with_empty.samples, alone.samples / 2)


def test_empty_inputs_give_empty_results():
    nothing = bootstrap_scores([], resamples=3)
    assert nothing.observed.shape == (0,) and nothing.samples.shape == (3, 0)
    assert bootstrap_scores([ROWS], resamples=0).samples.shape == (0, 1)
    assert randomization_p([], [], resamples=3).shape == (0,)


def test_included_must_have_one_row_per_stratum():
    with pytest.raises(ValueError, match="^included must have one row per stratum and one column per score$"):
        bootstrap_scores([ROWS], resamples=2, included=np.ones((2, 1), dtype=bool))


def test_the_bootstrap_p_value_counts_the_samples_as_far_from_d_as_d_from_0():
    """d = 0.1; |sample - d| = 0, .15, .15, .2, 0: three are >= 0.1, p = (3 + 1) / (5 + 1)."""
    interval, p = difference_test(0.1, np.array([0.1, 0.25, -0.05, 0.3, 0.1]), 0.05)
    assert p == pytest.approx(4 / 6)
    assert interval.value == 0.1


def test_the_default_interval_is_the_95_percent_one():
    first = np.array([[2, 2, 2], [1, 2, 2], [0, 1, 1], [3, 3, 3]])
    second = np.array([[1, 2, 2], [1, 2, 2], [1, 1, 1], [2, 3, 3]])
    assert paired_bootstrap([first, second], resamples=50) == \
        paired_bootstrap([first, second], resamples=50, alpha=0.05)
    interval = paired_bootstrap([first, second], resamples=50).systems[0]
    assert interval.low <= interval.high


def test_corrected_p_values_stop_at_1():
    assert bonferroni([0.6, 0.01]) == pytest.approx([1.0, 0.02])
    assert holm([0.6, 0.01]) == pytest.approx([0.6, 0.02])
    assert holm([0.6, 0.7]) == pytest.approx([1.0, 1.0])

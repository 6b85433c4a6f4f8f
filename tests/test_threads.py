"""Work run beside the main thread: :class:`conll_eval.workers.InBackground`, and the compiled
counter's alignment-free half running while the words are aligned (large pairs)."""
import random
import threading

import numpy as np
import pytest

from conll_eval import compiled_counts as counting
from conll_eval.compiled import ccount
from conll_eval.evaluate import Settings, evaluate
from conll_eval.reader import parse_bytes
from conll_eval.treebank import Vocab
from conll_eval.workers import InBackground

from strategies import generate_pair


def test_in_background_gives_the_value_and_leaves_no_thread():
    before = threading.active_count()
    job = InBackground(lambda a, b=0: a * 10 + b, 4, b=2)
    assert job.result() == 42
    assert job.result() == 42  # asked again: the same value
    assert threading.active_count() == before


def test_in_background_as_a_block_waits_also_when_the_block_fails():
    finished = []

    def slow():
        threading.Event().wait(0.05)
        finished.append(True)

    with pytest.raises(KeyError):
        with InBackground(slow):
            raise KeyError("the block's own error goes up")
    assert finished == [True]  # the thread had ended when the error left the block


def test_in_background_raises_its_exception_in_the_caller():
    def fails():
        raise ValueError("read failed")

    job = InBackground(fails)
    job.wait()  # waits without raising
    with pytest.raises(ValueError, match="read failed"):
        job.result()


def _counts(gold: bytes, system: bytes, profile: str):
    vocab = Vocab()
    g = parse_bytes(gold, "gold", profile, vocab)
    s = parse_bytes(system, "system", profile, vocab)
    evaluation = evaluate(g, s, Settings(profile))
    return {name: (c.total, c.by_sentence.tolist()) for name, c in evaluation.counts.items()}


@pytest.mark.skipif(ccount is None, reason="the compiled counter is not built (or CONLL_EVAL_PURE)")
@pytest.mark.parametrize("profile", ["conll18", "conll17"])
def test_counts_beside_the_alignment_equal_counts_after_it(monkeypatch, profile):
    threads = []
    original = InBackground.__init__

    def counted(self, function, *args, **kwargs):
        threads.append(function)
        original(self, function, *args, **kwargs)

    for seed in range(6):
        gold, system = (t.encode("utf-8") for t in generate_pair(random.Random(seed), profile))
        monkeypatch.setattr(counting, "THREAD_MIN_WORDS", 10 ** 12)
        inline = _counts(gold, system, profile)
        monkeypatch.setattr(counting, "THREAD_MIN_WORDS", 0)
        monkeypatch.setattr(InBackground, "__init__", counted)
        beside = _counts(gold, system, profile)
        monkeypatch.setattr(InBackground, "__init__", original)
        assert beside == inline
    assert threads, "the alignment-free half never ran in a thread"
    assert counting._tally_range in threads, "the tally never ran in two parts"


@pytest.mark.skipif(ccount is None, reason="the compiled counter is not built (or CONLL_EVAL_PURE)")
def test_a_tally_part_refuses_words_outside_its_sentences():
    """A part given a word of a sentence outside its range counts no further and says so
    (the counter then tallies in one pass): two parts never add to one row."""
    out, per_filter = ccount.tally_arrays(1, 4)
    one = np.ones(3, dtype=np.uint16)
    sentences = np.array([0, 1, 3], dtype=np.int32)  # the last word is in sentence 3
    index = np.arange(3, dtype=np.int32)
    deprel = np.zeros(3, dtype=np.int32)
    args = (one, index, sentences, sentences, deprel, deprel, np.zeros(1, dtype=np.uint8),
            np.ones(1, dtype=np.uint16), np.zeros(1, dtype=np.uint8))
    assert not ccount.tally_part(out, per_filter, *args, 0, 3, 0, 3, 0, 3, 0, 2)
    assert ccount.tally_part(out, per_filter, *args, 0, 3, 0, 3, 0, 3, 0, 4)


@pytest.mark.skipif(ccount is None, reason="the compiled counter is not built (or CONLL_EVAL_PURE)")
def test_totals_of_two_sentence_ranges_are_the_whole_s():
    """Each tally thread totals its own sentences: the two ranges' totals add up to the
    totals of all of them, and the rows they complete are the one-pass tally's."""
    rng = np.random.default_rng(7)
    n = 40
    sentences = np.sort(rng.integers(0, 6, n)).astype(np.int32)
    args = (rng.integers(0, 4, n).astype(np.uint16), np.arange(n, dtype=np.int32), sentences,
            sentences, rng.integers(0, 3, n).astype(np.int32), rng.integers(0, 3, n).astype(np.int32),
            np.array([0, 1, 3], dtype=np.uint8), np.array([1, 3], dtype=np.uint16),
            np.array([0, 1], dtype=np.uint8))
    whole_rows, whole_totals = ccount.tally(*args, 6)
    out, per_filter = ccount.tally_arrays(2, 6)
    assert ccount.tally_part(out, per_filter, *args, 0, n, 0, n, 0, n, 0, 6)
    parts = ccount.tally_totals(out, per_filter, args[-1], 0, 3) + \
        ccount.tally_totals(out, per_filter, args[-1], 3, 6)
    assert parts.tolist() == whole_totals.tolist()
    assert out.tolist() == whole_rows.tolist()

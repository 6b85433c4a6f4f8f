"""Fuzzing: any bytes either score or raise a ConllEvalError, never anything else.

The quick tests run in the default run; ``-m slow`` runs 100,000 examples.
"""
import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from conll_eval import ConllEvalError, evaluate
from conll_eval.reader import parse_bytes
from conll_eval.treebank import Vocab

from helpers import document, sentence

SEED_FILE = document(
    sentence("1-2 Zum", "1 zu 3 case ADP", "2 dem 3 det DET", "3 Haus 0 root NOUN",
             comments=["# sent_id = a", "# text = Zum Haus"]),
    sentence("1 Er 2 nsubj PRON", "2 geht 0 root VERB", "2.1 x _ _", "3 . 2 punct PUNCT"),
).encode("utf-8")

#: bytes that matter to the format, weighted into the mutations
INTERESTING = [b"\t", b"\n", b"\r", b"#", b"-", b".", b"0", b"1", b"9", b"_", b" ", b"\xc2\xa0",
               b"\xef\xbb\xbf", b"\x00", b"\xff", b"\xe2\x80", b":", b"=", b"|", b"\n\n", b"10"]


def _score_or_error(gold: bytes, system: bytes, profile: str) -> None:
    vocab = Vocab()
    try:
        g = parse_bytes(gold, "gold", profile, vocab)
        s = parse_bytes(system, "system", profile, vocab)
        evaluation = evaluate(g, s)
        for score in evaluation.scores.values():
            assert 0 <= score.f1 <= 1
    except ConllEvalError:
        pass


def _mutate(data: bytes, rng: random.Random, steps: int) -> bytes:
    buf = bytearray(data)
    for _ in range(steps):
        op = rng.randrange(5)
        at = rng.randrange(len(buf) + 1)
        if op == 0 and buf:  # delete a run
            del buf[at:at + rng.randint(1, 6)]
        elif op == 1:  # insert something meaningful
            buf[at:at] = rng.choice(INTERESTING)
        elif op == 2 and buf:  # overwrite a byte
            buf[min(at, len(buf) - 1)] = rng.randrange(256)
        elif op == 3 and buf:  # duplicate a line
            lines = bytes(buf).split(b"\n")
            k = rng.randrange(len(lines))
            lines.insert(k, lines[k])
            buf = bytearray(b"\n".join(lines))
        elif buf:  # swap two lines
            lines = bytes(buf).split(b"\n")
            a, b = rng.randrange(len(lines)), rng.randrange(len(lines))
            lines[a], lines[b] = lines[b], lines[a]
            buf = bytearray(b"\n".join(lines))
    return bytes(buf)


FAST = settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
SLOW = settings(max_examples=50_000, deadline=None, suppress_health_check=list(HealthCheck))


def _random_bytes_case(data, profile):
    _score_or_error(data, data, profile)
    _score_or_error(SEED_FILE, data, profile)


def _mutation_case(seed, steps, profile):
    rng = random.Random(seed)
    mutated = _mutate(SEED_FILE, rng, steps)
    _score_or_error(mutated, mutated, profile)      # same text: exercises alignment too
    _score_or_error(SEED_FILE, mutated, profile)
    _score_or_error(mutated, _mutate(mutated, rng, 1), profile)


@FAST
@given(st.binary(max_size=400), st.sampled_from(["conll17", "conll18", "iwpt"]))
def test_random_bytes(data, profile):
    _random_bytes_case(data, profile)


@FAST
@given(st.integers(0, 2 ** 32), st.integers(1, 8), st.sampled_from(["conll17", "conll18"]))
def test_mutated_files(seed, steps, profile):
    _mutation_case(seed, steps, profile)


@pytest.mark.slow
@SLOW
@given(st.binary(max_size=600), st.sampled_from(["conll17", "conll18", "iwpt"]))
def test_random_bytes_slow(data, profile):
    _random_bytes_case(data, profile)


@pytest.mark.slow
@SLOW
@given(st.integers(0, 2 ** 32), st.integers(1, 12), st.sampled_from(["conll17", "conll18"]))
def test_mutated_files_slow(seed, steps, profile):
    _mutation_case(seed, steps, profile)


def test_mutation_helper_changes_the_file():
    rng = random.Random(1)
    assert any(_mutate(SEED_FILE, rng, 3) != SEED_FILE for _ in range(5))

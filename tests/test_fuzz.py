"""Fuzzing: any bytes either score or raise a ConllEvalError, never anything else; the
validator reports incidents (never raises) on any bytes, fed in any chunking, and a file it
passes at level 2 is always read by the scorer.

The quick tests run in the default run; ``-m slow`` runs 100,000 examples of the scorer and
100,000 of the validator.
"""
import io
import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from conll_eval import ConllEvalError, evaluate
from conll_eval.reader import parse_bytes
from conll_eval.treebank import Vocab
from conll_eval.validate import IMPLEMENTED_IDS, ValidationIncident, validate_lines

from helpers import document, sentence

SEED_FILE = document(
    sentence("1-2 Zum", "1 zu 3 case ADP", "2 dem 3 det DET", "3 Haus 0 root NOUN",
             comments=["# sent_id = a", "# text = Zum Haus"]),
    sentence("1 Er 2 nsubj PRON", "2 geht 0 root VERB", "2.1 x _ _", "3 . 2 punct PUNCT"),
).encode("utf-8")
#: a file valid at level 2 (the validator needs sent_id and text), as a mutation seed
VALID_FILE = (
    "# newdoc id = d\n# sent_id = a\n# text = Zum Haus.\n"
    "1-2\tZum\t_\t_\t_\t_\t_\t_\t_\t_\n"
    "1\tzu\tzu\tADP\t_\t_\t3\tcase\t3:case\t_\n"
    "2\tdem\tder\tDET\t_\tCase=Dat\t3\tdet\t3:det\t_\n"
    "3\tHaus\tHaus\tNOUN\t_\t_\t0\troot\t0:root\tSpaceAfter=No\n"
    "4\t.\t.\tPUNCT\t_\t_\t3\tpunct\t3:punct\t_\n\n"
    "# sent_id = b\n# text = Er geht\n"
    "1\tEr\ter\tPRON\t_\t_\t2\tnsubj\t2:nsubj|2.1:nsubj\t_\n"
    "2\tgeht\tgehen\tVERB\t_\t_\t0\troot\t0:root\t_\n"
    "2.1\tgeht\tgehen\tVERB\t_\t_\t_\t_\t2:conj\t_\n\n").encode("utf-8")

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


def _validate_or_report(data: bytes, rng: random.Random) -> None:
    """The validator never raises; its incidents are well formed; level-2-clean files score."""
    text = data.decode("utf-8", "replace")
    cuts = sorted(rng.randrange(len(text) + 1) for _ in range(rng.randrange(4)))
    chunks = [text[a:b] for a, b in zip([0] + cuts, cuts + [len(text)])]
    n_lines = len(io.StringIO(text, newline=None).readlines()) + 1
    for level in (1, 2):
        incidents = list(validate_lines(chunks, "f", level))
        for inc in incidents:
            assert isinstance(inc, ValidationIncident)
            assert inc.testid in IMPLEMENTED_IDS and inc.level <= level
            assert inc.line is None or 1 <= inc.line <= n_lines, (inc, n_lines)
        if level == 2 and not any(i.severity == "error" for i in incidents):
            for profile in ("conll17", "conll18", "iwpt"):
                parse_bytes(data, "f", profile)  # must not raise
    # the chunking does not matter
    assert list(validate_lines([text], "f")) == list(validate_lines(chunks, "f"))


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


def _validator_case(seed, steps):
    rng = random.Random(seed)
    _validate_or_report(_mutate(VALID_FILE, rng, steps), rng)


@FAST
@given(st.binary(max_size=400), st.integers(0, 2 ** 32))
def test_validator_on_random_bytes(data, seed):
    _validate_or_report(data, random.Random(seed))


@FAST
@given(st.integers(0, 2 ** 32), st.integers(0, 8))
def test_validator_on_mutated_files(seed, steps):
    _validator_case(seed, steps)


@pytest.mark.slow
@SLOW
@given(st.binary(max_size=600), st.integers(0, 2 ** 32))
def test_validator_on_random_bytes_slow(data, seed):
    _validate_or_report(data, random.Random(seed))


@pytest.mark.slow
@SLOW
@given(st.integers(0, 2 ** 32), st.integers(0, 12))
def test_validator_on_mutated_files_slow(seed, steps):
    _validator_case(seed, steps)


def test_the_validator_seed_is_valid():
    assert [i for i in validate_lines([VALID_FILE.decode()], "f") if i.severity == "error"] == []


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

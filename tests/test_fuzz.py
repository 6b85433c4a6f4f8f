"""Fuzzing: any bytes either score or raise a ConllEvalError, never anything else; the
validator reports incidents (never raises) on any bytes, fed in any chunking, and a file it
passes at level 2 is always read by the scorer.  A file that scores, scored against itself,
has every count pair equal and F1 1.0 in every row where the metric is defined (n/a stays n/a).

The quick tests run in the default run; ``-m slow`` runs 100,000 examples of the scorer and
100,000 of the validator.
"""
import io
import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from conll_eval import ConllEvalError, evaluate
from conll_eval.evaluate import Settings
from conll_eval.reader import parse_bytes
from conll_eval.treebank import Vocab
from conll_eval.validate import IMPLEMENTED_IDS, ValidationIncident, validate_lines

import strategies as S
from helpers import document, sentence
from strategies_enhanced import enhanced_pairs

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


def _repeated_enhanced_edges(data: bytes) -> dict:
    """{"ELAS": some word's DEPS repeats an edge, "EULAS": some word's DEPS repeats a head}."""
    labelled = unlabelled = False
    for line in data.decode("utf-8", "replace").split("\n"):  # the reader's lines: not NEL, VT
        columns = line.rstrip("\r").split("\t")
        if len(columns) != 10 or line.startswith("#") or columns[8] == "_":
            continue
        edges = columns[8].split("|")
        heads = [edge.split(":", 1)[0] for edge in edges]
        labelled = labelled or len(set(edges)) < len(edges)
        unlabelled = unlabelled or len(set(heads)) < len(heads)
    return {"ELAS": labelled, "EULAS": unlabelled}


def _self_score_or_error(data: bytes, profile: str):
    """A file scored against itself, with every row of its profile (ELAS and EULAS in iwpt):
    either an error, or every count pair equal (correct = gold = system, and the aligned
    words all correct) and F1 1.0 wherever the metric is defined (a gold count above 0).
    Where it is not (no gold word, or DEPS unannotated: the n/a of ELAS and EULAS) the counts
    are all 0 and no 1.0 is asserted; a column ``_`` throughout still scores 1.0, as the
    official scorer prints 100.00 for it.  One official quirk stays: the IWPT 2020 scorer (and
    udeval) count an enhanced edge a word's DEPS repeats once per pair of copies (166.67 for
    ``2:flat|2:flat``), so ELAS (EULAS: a repeated head) has correct >= gold there.
    Returns the evaluation, or None on an error."""
    vocab = Vocab()
    try:
        gold = parse_bytes(data, "gold", profile, vocab)
        system = parse_bytes(data, "system", profile, vocab)
        evaluation = evaluate(gold, system, Settings(profile))
    except ConllEvalError:
        return None
    if profile == "iwpt":
        assert {"ELAS", "EULAS"} <= set(evaluation.scores)
    repeated = _repeated_enhanced_edges(data)
    for name, score in evaluation.scores.items():
        if repeated.get(name):
            assert score.correct >= score.gold == score.system, (name, score)
            continue
        assert score.correct == score.gold == score.system, (name, score)
        assert score.aligned is None or score.aligned == score.correct, (name, score)
        if score.gold:
            assert score.f1 == 1.0, (name, score)
    return evaluation


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
    _self_score_or_error(data, profile)
    _score_or_error(SEED_FILE, data, profile)


def _mutation_case(seed, steps, profile):
    rng = random.Random(seed)
    mutated = _mutate(SEED_FILE, rng, steps)
    _self_score_or_error(mutated, profile)          # same text: exercises alignment too
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
@pytest.mark.ci_stage2(examples=10_000)
@SLOW
@given(st.binary(max_size=600), st.integers(0, 2 ** 32))
def test_validator_on_random_bytes_slow(data, seed):
    _validate_or_report(data, random.Random(seed))


@pytest.mark.slow
@pytest.mark.ci_stage2(examples=10_000)
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
@pytest.mark.ci_stage2(examples=10_000)
@SLOW
@given(st.binary(max_size=600), st.sampled_from(["conll17", "conll18", "iwpt"]))
def test_random_bytes_slow(data, profile):
    _random_bytes_case(data, profile)


@pytest.mark.slow
@pytest.mark.ci_stage2(examples=10_000)
@SLOW
@given(st.integers(0, 2 ** 32), st.integers(1, 12), st.sampled_from(["conll17", "conll18"]))
def test_mutated_files_slow(seed, steps, profile):
    _mutation_case(seed, steps, profile)


@pytest.mark.parametrize("profile", ["conll17", "conll18", "iwpt"])
def test_the_seeds_score_perfectly_against_themselves(profile):
    """The self-score check on its seeds: both score, every defined row 1.0; ELAS is n/a
    (counts 0) on the seed without DEPS and 1.0 on the one with them."""
    without_deps = _self_score_or_error(SEED_FILE, profile)
    with_deps = _self_score_or_error(VALID_FILE, profile)
    assert without_deps is not None and with_deps is not None
    assert without_deps.scores["LAS"].f1 == with_deps.scores["CLAS"].f1 == 1.0
    if profile == "iwpt":
        assert without_deps.scores["ELAS"].gold == 0 and "ELAS" in without_deps.unannotated()
        assert with_deps.scores["ELAS"].f1 == with_deps.scores["EULAS"].f1 == 1.0


@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data(), profile=st.sampled_from(["conll17", "conll18"]))
def test_generated_files_score_perfectly_against_themselves(data, profile):
    """Generated valid files (multiword tokens, empty nodes, every column): both files of a
    pair score against themselves, every count pair equal, every defined F1 1.0."""
    for text in data.draw(S.conllu_pairs(profile)):
        assert _self_score_or_error(text.encode("utf-8"), profile) is not None


@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(pair=enhanced_pairs())
def test_generated_enhanced_files_score_perfectly_against_themselves(pair):
    """The same with DEPS in the iwpt profile (ELAS, EULAS): n/a (counts 0) where a file has
    no DEPS, 1.0 where it has them."""
    for text in pair:
        evaluation = _self_score_or_error(text.encode("utf-8"), "iwpt")
        assert evaluation is not None
        if "ELAS" in evaluation.unannotated():
            assert evaluation.scores["ELAS"].gold == evaluation.scores["EULAS"].gold == 0


def test_mutation_helper_changes_the_file():
    rng = random.Random(1)
    assert any(_mutate(SEED_FILE, rng, 3) != SEED_FILE for _ in range(5))

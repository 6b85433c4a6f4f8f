"""Differential tests: conll_eval against the official CoNLL 2017/2018 scorers.

The official scripts are loaded as modules from outside the project (``tests/oracles.py``);
every test skips with the reason when they are unavailable.  Random gold/system pairs come
from ``tests/strategies.py``.  For every pair the oracle accepts, every count must be identical
and precision/recall/F1/aligned accuracy equal as floats; every file the oracle rejects with
``UDError`` must make conll_eval raise ``InputError`` (``AlignmentError`` for the text check).

The quick tests (a few hundred examples in total) run by default; ``-m slow`` runs the same
properties with thousands of examples.

Oracle caveats: conll18_ud_eval.py is the trankit copy of v1.2 (no line numbers; one changed
line makes it accept a sentence without words, which the released script rejects: the
``oracle18`` fixture reverts that line in memory, see ``oracles.load_conll18_released``);
conll17_ud_eval.py is v1.0 (no CLAS, so conll_eval's 2017 CLAS is not checked here; its Score
keeps no counts, which ``oracles.score17`` recovers).  Every file written for the last run of
a test sits in ``<pytest tmp>/official0/<test>/`` and its path is in the failure report.
"""
from __future__ import annotations

import bisect
import os
import re

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import note as _note
from hypothesis.errors import InvalidArgument
from hypothesis import strategies as st

try:
    from tests import oracles
    from tests import strategies as S
except ImportError:  # tests/ is not a package: pytest put it on sys.path
    import oracles
    import strategies as S

conll_eval = pytest.importorskip("conll_eval")
from conll_eval.errors import AlignmentError, ConllEvalError, InputError  # noqa: E402

try:
    from conll_eval import compat
except ImportError:  # the drop-in module API is optional
    compat = None

COMMON = dict(deadline=None, print_blob=True,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
QUICK = dict(COMMON)
SLOW = dict(COMMON)

METRICS18 = ["Tokens", "Sentences", "Words", "UPOS", "XPOS", "UFeats", "AllTags", "Lemmas", "UAS",
             "LAS", "CLAS", "MLAS", "BLEX"]
METRICS17 = ["Tokens", "Sentences", "Words", "UPOS", "XPOS", "Feats", "AllTags", "Lemmas", "UAS",
             "LAS"]


# ------------------------------------------------------------------------------ helpers
def note(text):
    """hypothesis.note, also usable from plain (non-hypothesis) tests."""
    try:
        _note(text)
    except InvalidArgument:
        pass


@pytest.fixture(scope="module")
def oracle18():
    # the trankit copy with its one-line change reverted: rejects sentences without words
    return oracles.require_oracle("conll18_released")


@pytest.fixture(scope="module")
def oracle17():
    return oracles.require_oracle("conll17_ud_eval")


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    return tmp_path_factory.mktemp("official")


def write_pair(directory, gold_text, system_text, weights=None, tag=None):
    """Write the texts byte for byte (no newline translation); returns the paths as str.

    Files are overwritten by the next example of the same test; hypothesis replays the
    minimal failing example last, so after a failure the files noted are the failing ones.
    """
    if tag is None:
        tag = os.environ.get("PYTEST_CURRENT_TEST", "pair").split("::")[-1].split(" ")[0]
    directory = directory / re.sub(r"[^\w.-]", "_", tag)
    directory.mkdir(exist_ok=True)
    gold = directory / "gold.conllu"
    system = directory / "system.conllu"
    # surrogateescape: a lone "\udcff" becomes the invalid UTF-8 byte 0xFF
    gold.write_bytes(gold_text.encode("utf-8", "surrogateescape"))
    system.write_bytes(system_text.encode("utf-8", "surrogateescape"))
    note(f"gold file {gold}:\n{gold_text!r}")
    note(f"system file {system}:\n{system_text!r}")
    paths = [str(gold), str(system)]
    if weights is not None:
        wfile = directory / "weights.txt"
        lines = ["# deprel weight", ""] + [f"{label} {value}" for label, value in weights]
        wfile.write_text("\n".join(lines) + "\n", encoding="utf-8")
        note(f"weights file {wfile}: {weights!r}")
        paths.append(str(wfile))
    return paths


def oracle_load(oracle, path):
    """``oracle.load_conllu_file`` (but closing the file), made strict like the real conll18.

    trankit changed one line of conll18_ud_eval.py so that a sentence without words (a double
    blank line, a blank line right after comments or at the start, only empty nodes, only an
    MWT with a reversed range like ``1-0``) passes; the released script raises "There are 0
    roots in a sentence" while loading that sentence.  ``oracles.load_conll18_released``
    reverts the change; should that fail, the check is emulated after loading (then the
    message of an earlier error may differ: a sentence has no words iff no word span starts
    inside its character span).
    """
    with open(path, mode="r", encoding="utf-8") as f:
        ud = oracle.load_conllu(f)
    if oracle.__name__.endswith("conll18_ud_eval"):  # unpatched trankit module
        starts = sorted({w.span.start for w in ud.words})
        for sentence in ud.sentences:
            i = bisect.bisect_left(starts, sentence.start)
            if i == len(starts) or starts[i] >= sentence.end:
                raise oracle.UDError("There are 0 roots in a sentence")
    return ud


def oracle_counts(oracle, gold_path, system_path, profile, weights_path=None):
    """{metric: (correct, gold, system, aligned, score)} of the official script."""
    gold_ud = oracle_load(oracle, gold_path)
    system_ud = oracle_load(oracle, system_path)
    if profile == "conll17":
        weights = None
        if weights_path is not None:
            with open(weights_path, encoding="utf-8") as f:
                weights = oracle.load_deprel_weights(f)
        return oracles.score17(oracle, gold_ud, system_ud, weights)
    result = oracle.evaluate(gold_ud, system_ud)
    return {m: (s.correct, s.gold_total, s.system_total, s.aligned_total, s) for m, s in result.items()}


def assert_same_scores(evaluation, expected, expected_metrics):
    assert set(expected_metrics) <= set(expected), sorted(expected)
    problems = []
    for metric in expected:
        correct, gold, system, aligned, score = expected[metric]
        ours = evaluation.scores.get(metric)
        if ours is None:
            problems.append(f"{metric}: missing from conll_eval's scores {sorted(evaluation.scores)}")
            continue
        want_aligned = correct if metric == "Words" else aligned
        got = (ours.correct, ours.gold, ours.system, ours.aligned)
        want = (correct, gold, system, want_aligned)
        if got != want:
            problems.append(f"{metric}: (correct, gold, system, aligned) conll_eval {got} != official {want}")
            continue
        for attr in ("precision", "recall", "f1", "aligned_accuracy"):
            if getattr(ours, attr) != getattr(score, attr):
                problems.append(f"{metric}.{attr}: conll_eval {getattr(ours, attr)!r} "
                                f"!= official {getattr(score, attr)!r}")
    assert not problems, "\n".join(problems)


def ours_outcome(gold_path, system_path, profile, weights_path=None):
    try:
        return "ok", conll_eval.evaluate_files(gold_path, system_path, profile=profile, weights=weights_path)
    except AlignmentError as exc:
        return "text", exc
    except InputError as exc:
        return "input", exc
    # anything else (including other ConllEvalErrors) propagates and fails the test


def oracle_outcome(oracle, gold_path, system_path, profile):
    try:
        return "ok", oracle_counts(oracle, gold_path, system_path, profile)
    except oracle.UDError as exc:
        return "reject", exc
    except RecursionError as exc:  # deep head chains; our generators avoid them
        return "crash", exc
    except Exception as exc:  # noqa: BLE001 - ValueError (non-integer HEAD in an MWT), IndexError
        return "crash", exc


def normalise_official(message: str) -> str:
    """Reduce the official messages of every version to the trankit-conll18 / conll17 text."""
    message = re.sub(r" at line \d+", "", message)
    message = re.sub(r"There are \d+ roots in a sentence", "There are multiple roots in a sentence", message)
    return message


# ------------------------------------------------------------------------------ conll18
def check_conll18(oracle, workdir, pair):
    gold_text, system_text = pair
    gold, system = write_pair(workdir, gold_text, system_text)
    expected = oracle_counts(oracle, gold, system, "conll18")
    evaluation = conll_eval.evaluate_files(gold, system, profile="conll18")
    assert_same_scores(evaluation, expected, METRICS18)


@settings(max_examples=80, **QUICK)
@given(pair=S.conllu_pairs("conll18"))
def test_conll18_counts(oracle18, workdir, pair):
    check_conll18(oracle18, workdir, pair)


@pytest.mark.slow
@pytest.mark.ci_stage2(examples=400)
@pytest.mark.ci_pure(examples=400)
@settings(max_examples=4000, **SLOW)
@given(pair=S.conllu_pairs("conll18"))
def test_conll18_counts_slow(oracle18, workdir, pair):
    check_conll18(oracle18, workdir, pair)


# ------------------------------------------------------------------------------ conll17
def check_conll17(oracle, workdir, pair, weights):
    gold_text, system_text = pair
    paths = write_pair(workdir, gold_text, system_text, weights)
    gold, system = paths[:2]
    weights_path = paths[2] if weights is not None else None
    expected = oracle_counts(oracle, gold, system, "conll17", weights_path)
    evaluation = conll_eval.evaluate_files(gold, system, profile="conll17", weights=weights_path)
    assert_same_scores(evaluation, expected,
                       METRICS17 + (["WeightedLAS"] if weights is not None else []))


@settings(max_examples=60, **QUICK)
@given(pair=S.conllu_pairs("conll17"), weights=st.none() | S.weights_tables())
def test_conll17_counts(oracle17, workdir, pair, weights):
    check_conll17(oracle17, workdir, pair, weights)


@pytest.mark.slow
@pytest.mark.ci_stage2(examples=300)
@pytest.mark.ci_pure(examples=300)
@settings(max_examples=3000, **SLOW)
@given(pair=S.conllu_pairs("conll17"), weights=st.none() | S.weights_tables())
def test_conll17_counts_slow(oracle17, workdir, pair, weights):
    check_conll17(oracle17, workdir, pair, weights)


# ------------------------------------------------------------------------------ accept / reject
def check_parity(oracle, workdir, case, profile):
    gold_text, system_text, description = case
    note(f"mutation: {description}")
    gold, system = write_pair(workdir, gold_text, system_text)
    theirs, result = oracle_outcome(oracle, gold, system, profile)
    ours, evaluation = ours_outcome(gold, system, profile)
    note(f"official: {theirs} {result!r}" if theirs != "ok" else "official: ok")
    note(f"conll_eval: {ours} {evaluation!s}" if ours != "ok" else "conll_eval: ok")
    crash = f" {type(result).__name__}" if theirs == "crash" else ""
    event(f"official {theirs}{crash} -> conll_eval {ours}")
    event(f"mutation {description.split(', ')[0]}")
    if theirs == "ok":
        assert ours == "ok", f"official scorer accepts ({description}); conll_eval raised {evaluation}"
        assert_same_scores(evaluation, result, METRICS18 if profile == "conll18" else METRICS17)
    elif theirs == "reject":
        if str(result).startswith("The concatenation of tokens"):
            assert ours == "text", f"official: {result}; conll_eval: {ours} {evaluation}"
        else:
            assert ours == "input", f"official rejects ({result}); conll_eval: {ours}"
            official = getattr(evaluation, "official", None)
            if isinstance(official, str):
                assert normalise_official(official) == normalise_official(str(result)), \
                    f"official message {str(result)!r}; conll_eval's compat text {official!r}"
    else:
        # The official script crashes instead of raising UDError:
        # * ValueError: a non-integer HEAD of a word inside an MWT (int() at sentence end);
        #   conll_eval raises InputError (cannot-parse-head) there;
        # * IndexError (conll17 v1.0 only): one text is a strict prefix of the other while
        #   building the mismatch message; conll_eval raises AlignmentError;
        # * RecursionError: head chains of thousands of words (not generated here).
        # conll_eval may raise InputError/AlignmentError or score; ``ours_outcome`` lets any
        # other exception fail the test.
        assert ours in ("input", "text", "ok")


@settings(max_examples=70, **QUICK)
@given(case=S.invalid_pairs("conll18"))
def test_conll18_reject_parity(oracle18, workdir, case):
    check_parity(oracle18, workdir, case, "conll18")


@settings(max_examples=50, **QUICK)
@given(case=S.invalid_pairs("conll17"))
def test_conll17_reject_parity(oracle17, workdir, case):
    check_parity(oracle17, workdir, case, "conll17")


@pytest.mark.slow
@pytest.mark.ci_stage2(examples=400)
@pytest.mark.ci_pure(examples=400)
@settings(max_examples=4000, **SLOW)
@given(case=S.invalid_pairs("conll18"))
def test_conll18_reject_parity_slow(oracle18, workdir, case):
    check_parity(oracle18, workdir, case, "conll18")


@pytest.mark.slow
@pytest.mark.ci_stage2(examples=300)
@pytest.mark.ci_pure(examples=300)
@settings(max_examples=3000, **SLOW)
@given(case=S.invalid_pairs("conll17"))
def test_conll17_reject_parity_slow(oracle17, workdir, case):
    check_parity(oracle17, workdir, case, "conll17")


# ------------------------------------------------------------------------------ regression cases
from helpers import ALIGNMENT_CASES  # noqa: E402  (shared with test_align.py)


def _n_words(entries):
    return sum(max(1, len(entry.split(" ")) - 1) for entry in entries)


@pytest.mark.parametrize("profile", ["conll18", "conll17"])
@pytest.mark.parametrize("gold,system,aligned", ALIGNMENT_CASES,
                         ids=[f"{'|'.join(g)}-vs-{'|'.join(s)}" for g, s, _ in ALIGNMENT_CASES])
def test_official_alignment_cases(tmp_path, gold, system, aligned, profile):
    gold_path, system_path = tmp_path / "gold.conllu", tmp_path / "system.conllu"
    gold_path.write_text(S.words_to_conllu(gold), encoding="utf-8")
    system_path.write_text(S.words_to_conllu(system), encoding="utf-8")
    words = conll_eval.evaluate_files(str(gold_path), str(system_path), profile=profile).scores["Words"]
    gold_words, system_words = _n_words(gold), _n_words(system)
    assert (words.correct, words.gold, words.system) == (aligned, gold_words, system_words)
    assert (words.precision, words.recall, words.f1) == (
        aligned / system_words, aligned / gold_words, 2 * aligned / (gold_words + system_words))


@pytest.mark.parametrize("profile", ["conll18", "conll17"])
def test_official_alignment_text_mismatch(tmp_path, profile):
    gold_path, system_path = tmp_path / "gold.conllu", tmp_path / "system.conllu"
    gold_path.write_text(S.words_to_conllu(["a"]), encoding="utf-8")
    system_path.write_text(S.words_to_conllu(["b"]), encoding="utf-8")
    with pytest.raises(ConllEvalError):
        conll_eval.evaluate_files(str(gold_path), str(system_path), profile=profile)


@pytest.mark.parametrize("gold,system,aligned", ALIGNMENT_CASES[:4])
def test_alignment_cases_match_oracle(oracle18, tmp_path, gold, system, aligned):
    """The helper writes what the official unit tests load (sanity check of words_to_conllu)."""
    gold_path, system_path = tmp_path / "gold.conllu", tmp_path / "system.conllu"
    gold_path.write_text(S.words_to_conllu(gold), encoding="utf-8")
    system_path.write_text(S.words_to_conllu(system), encoding="utf-8")
    expected = oracle_counts(oracle18, str(gold_path), str(system_path), "conll18")
    assert expected["Words"][0] == aligned
    evaluation = conll_eval.evaluate_files(str(gold_path), str(system_path), profile="conll18")
    assert_same_scores(evaluation, expected, METRICS18)


# ------------------------------------------------------------------------------ compat
@pytest.mark.skipif(compat is None, reason="conll_eval.compat is not available")
@settings(max_examples=25, **QUICK)
@given(pair=S.conllu_pairs("conll18"))
def test_compat_matches_official(oracle18, workdir, pair):
    gold, system = write_pair(workdir, *pair)
    expected = oracle18.evaluate(oracle_load(oracle18, gold), oracle_load(oracle18, system))
    result = compat.evaluate(compat.load_conllu_file(gold), compat.load_conllu_file(system))
    for metric, score in expected.items():
        got = result[metric]
        assert (got.correct, got.gold_total, got.system_total, got.aligned_total) == \
            (score.correct, score.gold_total, score.system_total, score.aligned_total), metric
        assert (got.precision, got.recall, got.f1, got.aligned_accuracy) == \
            (score.precision, score.recall, score.f1, score.aligned_accuracy), metric


# ------------------------------------------------------------------------------ degenerate files
ONE = "1\tA\ta\tX\t_\t_\t0\troot\t_\t_\n\n"
DEGENERATE = [
    ("", ""),                                            # empty files: valid, every count 0
    ("# only a comment\n", ""),
    ("# c\n# d\n", "# e\n"),
    (ONE, ONE),
    (ONE, ONE.replace("\n", "\r\n")),                    # CRLF is accepted
    (ONE, ONE.replace("\n", "\r")),                      # so are old Mac line ends (universal newlines)
    ("# c\n" + ONE, ONE + "# trailing comment\n"),
    (ONE, "1-1\tA\t_\t_\t_\t_\t_\t_\t_\t_\n1\tá\ta\tX\t_\t_\t0\troot\t_\t_\n\n"),
    (ONE, "0.1\tx\t_\t_\t_\t_\t_\t_\t_\t_\n" + ONE),     # an empty node before the first word
]


@pytest.mark.parametrize("profile", ["conll18", "conll17"])
@pytest.mark.parametrize("gold_text,system_text", DEGENERATE, ids=[repr(p)[:40] for p in DEGENERATE])
def test_degenerate_files(oracle18, oracle17, tmp_path, profile, gold_text, system_text):
    oracle = oracle18 if profile == "conll18" else oracle17
    gold, system = write_pair(tmp_path, gold_text, system_text, tag="pair")
    expected = oracle_counts(oracle, gold, system, profile)
    evaluation = conll_eval.evaluate_files(gold, system, profile=profile)
    assert_same_scores(evaluation, expected, METRICS18 if profile == "conll18" else METRICS17)


# ------------------------------------------------------------------------------ deep trees
def chain_file(n: int) -> str:
    """One sentence whose words form a single head chain of length n (word k+1 heads word k)."""
    lines = [f"{k}\tw{k}\t_\tX\t_\t_\t{k + 1 if k < n else 0}\t{'root' if k == n else 'dep'}\t_\t_"
             for k in range(1, n + 1)]
    return "\n".join(lines) + "\n\n"


@pytest.mark.parametrize("profile", ["conll18", "conll17"])
def test_long_head_chain(oracle18, oracle17, tmp_path, profile):
    """The official readers resolve heads recursively: with Python's default limit (1000) a
    3000-word chain makes them crash with RecursionError.  conll_eval resolves heads
    iteratively and scores such a file; the counts equal the official ones obtained with a
    higher recursion limit."""
    import sys

    oracle = oracle18 if profile == "conll18" else oracle17
    text = chain_file(3000)
    gold, system = write_pair(tmp_path, text, text.replace("\tdep\t", "\tnmod\t", 100), tag="chain")
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(20000)
    try:
        expected = oracle_counts(oracle, gold, system, profile)
    finally:
        sys.setrecursionlimit(limit)
    evaluation = conll_eval.evaluate_files(gold, system, profile=profile)
    assert_same_scores(evaluation, expected, METRICS18 if profile == "conll18" else METRICS17)

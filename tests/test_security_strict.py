"""Issue 40, points 5 and 9: the scorer's --strict keeps what its validation found in bounded
memory.  It kept every error incident of both files in ValidationFailed (a sentence and a million
blank lines: 408 MB; ten million: 3.8 GB); a run of blank lines is now one IncidentRun, each
class's first KEPT_PER_GROUP incidents are kept and the rest counted, and what --strict prints
is what it printed (20 a class, then a line saying the rest are suppressed, then the count).
Memory is each run's peak RSS against a bound relative to the input's size (a resource check,
not a timing)."""
from __future__ import annotations

import bz2
import gzip
import lzma
import os
import pickle
import subprocess
import sys

import pytest

import conll_eval
from conll_eval.cli import STRICT_MAX_ERR
from conll_eval.io.diagnoses import SNIFF_BYTES
from conll_eval.report.validation import format_incident, limit_per_class
from conll_eval.validate import (KEPT_PER_GROUP, IncidentRun, KeptIncidents, ValidationIncident,
                                 expand_runs, iter_bytes_findings, iter_file_findings,
                                 iter_validate_file, validate_bytes)
from helpers import run_cli, sentence

SENTENCE = sentence("1 Hello 0 root INTJ", "2 world 1 obj NOUN",
                    comments=["# sent_id = s", "# text = Hello world"]).encode()
#: a sentence whose word 2 is its own head (head-self-loop, L2 SYNTAX)
LOOP = sentence("1 Hello 0 root INTJ", "2 world 2 obj NOUN", comments=["# text = Hello world"]).encode()
PATHS = (("compiled", {}), ("pure", {"CONLL_EVAL_PURE": "1"}))
FINAL = ("conll_eval: error [validation-failed] --strict: {} validation error(s); nothing scored "
         "(see 'conll_eval validate')")

#: runs conll_eval's main, then writes the process's peak RSS (kB, its own VmHWM: ru_maxrss
#: would count the pytest process it was forked from) as stderr's last line
_MEASURED = ("import sys\n"
             "from conll_eval.cli import main\n"
             "code = main(sys.argv[1:])\n"
             "with open('/proc/self/status') as status:\n"
             "    peak = [int(line.split()[1]) for line in status if line.startswith('VmHWM:')][0]\n"
             "print(peak, file=sys.stderr)\n"
             "sys.exit(code)\n")


def _run(*argv, env=None, stdin=None):
    """``conll_eval argv`` in a fresh subprocess: (exit code, stderr but its last line, peak RSS
    in MB)."""
    done = subprocess.run([sys.executable, "-c", _MEASURED, *map(str, argv)],
                          env={**os.environ, **(env or {})}, input=stdin, capture_output=True,
                          timeout=600)
    *lines, peak = done.stderr.decode("utf-8", "replace").rstrip("\n").split("\n")
    return done.returncode, "\n".join(lines), int(peak) / 1024


def _write(path, head: bytes, block: bytes, copies: int) -> str:
    """``head`` and ``copies`` times ``block``, written a MB at a time."""
    per_write = max(1, (1 << 20) // max(1, len(block)))
    with open(path, "wb") as out:
        out.write(head)
        for start in range(0, copies, per_write):
            out.write(block * min(per_write, copies - start))
    return str(path)


def _old_strict_stderr(*paths) -> str:
    """What --strict printed before: every error incident of the files, expanded, limited per
    class, then the count (the oracle the bounded version must match byte for byte)."""
    errors = [inc for path in paths for inc in iter_validate_file(path) if inc.severity == "error"]
    lines = [format_incident(item) for item in limit_per_class(errors, STRICT_MAX_ERR)]
    return "".join(line + "\n" for line in lines) + FINAL.format(len(errors)) + "\n"


# ---- memory ------------------------------------------------------------------------------------

@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="peak RSS from /proc")
@pytest.mark.parametrize("name, env", PATHS)
@pytest.mark.parametrize("from_stdin", [False, True], ids=["file", "stdin"])
def test_blank_lines_cost_no_object_each(tmp_path, name, env, from_stdin):
    # 8M blank lines (8 MB) after a sentence: 8M empty-sentence errors took about 3.2 GB
    lines = 8 << 20
    gold = _write(tmp_path / "gold.conllu", SENTENCE, b"", 0)
    blank = _write(tmp_path / "blank.conllu", SENTENCE, b"\n", lines)
    _, _, base = _run(gold, gold, env=env)
    with open(blank, "rb") as data:
        code, err, peak = (_run("--strict", gold, "-", env=env, stdin=data.read()) if from_stdin
                           else _run("--strict", gold, blank, env=env))
    assert code == 1 and err.endswith(FINAL.format(lines))
    # stdin is kept whole for the scorer (8 MB); nothing else grows with the lines
    assert peak < base + 16 + (2 if from_stdin else 0.5) * 8, (name, peak, base)


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="peak RSS from /proc")
def test_a_gzipped_stdin_is_validated_a_chunk_at_a_time(tmp_path):
    # 48 MB of blank lines, gzipped (48 kB) on standard input (the ratio's limit raised): its
    # copy was decompressed whole to be validated (2.5 bytes a decompressed byte at the peak)
    gold = _write(tmp_path / "gold.conllu", SENTENCE, b"", 0)
    data = gzip.compress(SENTENCE + b"\n" * (48 << 20))
    env = {"CONLL_EVAL_MAX_COMPRESSION_RATIO": "100000"}
    _, _, base = _run(gold, gold, env=env)
    code, err, peak = _run("--strict", gold, "-", env=env, stdin=data)
    assert code == 1 and err.endswith(FINAL.format(48 << 20))
    assert peak < base + 24, (peak, base)


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="peak RSS from /proc")
def test_a_broken_sentence_on_every_line_costs_no_object_each(tmp_path):
    # 300,000 one-line sentences of 'x' (900 kB): 600,000 errors, an object each took 280 MB
    gold = _write(tmp_path / "gold.conllu", SENTENCE, b"", 0)
    broken = _write(tmp_path / "x.conllu", SENTENCE, b"x\n\n", 300_000)
    _, _, base = _run(gold, gold)
    code, err, peak = _run("--strict", gold, broken)
    assert code == 1 and err.endswith(FINAL.format(600_000))
    # (the validator's own buffers are a few MB over the interpreter's, whatever the lines)
    assert peak < base + 24 + 16 * os.path.getsize(broken) / (1 << 20), (peak, base)


def test_corrupt_gzip_on_stdin_is_an_input_error(tmp_path):
    gold = _write(tmp_path / "gold.conllu", SENTENCE, b"", 0)
    data = gzip.compress(SENTENCE + b"\n" * (4 << 20))
    code, err, _ = _run("--strict", gold, "-", stdin=data[:len(data) // 2])
    assert code == 1 and err.startswith("-: error [corrupt-compressed-file]"), err
    assert "Traceback" not in err


@pytest.mark.parametrize("text", [
    SENTENCE + LOOP + b"\n \n\n" + b"x\n" * 50 + SENTENCE,
    SENTENCE * (SNIFF_BYTES // len(SENTENCE)) + b"\n" * (SNIFF_BYTES % len(SENTENCE)),  # the sniff
    SENTENCE * (SNIFF_BYTES // len(SENTENCE)) + b"\n" * (SNIFF_BYTES % len(SENTENCE) + 1),  # ends
    b"<html><body>not CoNLL-U</body></html>\n" * 3,  # a hint on the first error
    "1\tw\u00e9\t_\tX\t_\t_\t0\troot\t_\t_\n\n".encode("utf-16"),
    b"",
], ids=["mixed", "sniff-exactly", "sniff-and-one", "html", "utf-16", "empty"])
@pytest.mark.parametrize("compress", [gzip.compress, bz2.compress, lzma.compress],
                         ids=["gzip", "bzip2", "xz"])
def test_compressed_bytes_are_validated_as_the_text(text, compress):
    """The chunked decompression finds what the text itself gives, hints included."""
    def found(data):
        return [(inc, inc.hint) for inc in validate_bytes(data, "-")]
    assert found(compress(text)) == found(text)
    assert [(inc, inc.hint) for inc in expand_runs(iter_bytes_findings(compress(text), "-"))] \
        == found(text)


# ---- what --strict prints ----------------------------------------------------------------------

@pytest.mark.parametrize("name, env", PATHS)
def test_a_run_of_blank_lines_prints_its_head_and_count(tmp_path, monkeypatch, name, env):
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    gold = _write(tmp_path / "gold.conllu", SENTENCE, b"", 0)
    blank = _write(tmp_path / "blank.conllu", SENTENCE, b"\n", 5000)
    code, out, err = run_cli("--strict", gold, blank)
    head = [f"{blank}:{line}: error [L1 format empty-sentence] Sentence must not be empty. Only "
            "one empty line is expected after every sentence." for line in range(6, 26)]
    assert code == 1 and out == ""
    assert err.splitlines() == [*head, "...suppressing further messages regarding ERROR/FORMAT",
                                FINAL.format(5000)]


def test_lines_of_spaces_print_and_count_both_their_incidents(tmp_path):
    gold = _write(tmp_path / "gold.conllu", SENTENCE, b"", 0)
    spaces = _write(tmp_path / "spaces.conllu", SENTENCE, b" \t\n\n", 3000)
    code, _, err = run_cli("--strict", gold, spaces)
    assert code == 1 and err.splitlines()[-1] == FINAL.format(3 * 3000)  # 2 + 1 a pair of lines
    assert err == _old_strict_stderr(gold, spaces)
    assert "pseudo-empty-line" in err and "empty-sentence" in err


@pytest.mark.parametrize("shape", ["loops", "mixed", "few"])
def test_ordinary_failures_print_as_before(tmp_path, shape):
    """Several classes past the per-class limit (and past KEPT_PER_GROUP), runs of blank lines
    and lines of spaces between them, errors in both files: the same lines as every incident
    expanded and limited."""
    gold = _write(tmp_path / "gold.conllu", SENTENCE, LOOP, 3)
    # a loop (SYNTAX, METADATA), blank lines and spaces (FORMAT), a short line, an unknown
    # UPOS (MORPHO), a repeated sent_id (METADATA)
    mixed = (LOOP + b"\n\n \n" + b"1\tx\n\n" + b"\n" * 30
             + sentence("1 Hello 0 root FOO", comments=["# text = Hello"]).encode() + SENTENCE)
    blocks = {"loops": (LOOP, 1500), "mixed": (mixed, 700), "few": (LOOP, 2)}
    block, copies = blocks[shape]
    system = _write(tmp_path / "system.conllu", SENTENCE, block, copies)
    code, out, err = run_cli("--strict", gold, system)
    assert code == 1 and out == ""
    assert err == _old_strict_stderr(gold, system)


def test_every_invalid_test_file_prints_as_before():
    folder = os.path.join(os.path.dirname(__file__), "..", "testdata", "invalid")
    gold = os.path.join(os.path.dirname(__file__), "..", "testdata", "golden", "identical",
                        "gold.conllu")
    for name in sorted(os.listdir(folder)):
        if name.endswith(".conllu"):
            path = os.path.join(folder, name)
            code, _, err = run_cli("--strict", gold, path)
            assert code == 1 and err == _old_strict_stderr(gold, path), name


def test_the_kept_head_covers_what_is_printed():
    assert KEPT_PER_GROUP > STRICT_MAX_ERR


# ---- the API: ValidationFailed.incidents -------------------------------------------------------

def test_validation_failed_keeps_runs_whole_and_each_class_head(tmp_path):
    gold = _write(tmp_path / "gold.conllu", SENTENCE, b"", 0)
    system = _write(tmp_path / "system.conllu", SENTENCE, LOOP + b"\n" * 40, 3 * KEPT_PER_GROUP)
    every = [inc for inc in iter_validate_file(system) if inc.severity == "error"]
    with pytest.raises(conll_eval.ValidationFailed) as caught:
        conll_eval.evaluate_files(gold, system, strict=True)
    failure = caught.value
    kept = failure.incidents
    assert isinstance(kept, KeptIncidents) and failure.count == kept.total == len(every)
    assert str(failure).startswith(f"{len(every)} error(s); first: {every[0]}")
    # in file order: the SYNTAX class's first KEPT_PER_GROUP, and FORMAT's in whole runs (40
    # empty-sentence a run, LOOP ending in its own blank line) until it has KEPT_PER_GROUP
    limits = {"SYNTAX": KEPT_PER_GROUP, "FORMAT": -(-KEPT_PER_GROUP // 40) * 40}
    seen = {"SYNTAX": 0, "FORMAT": 0}
    expected = []
    for inc in every:
        seen[inc.klass] += 1
        if seen[inc.klass] <= limits[inc.klass]:
            expected.append(inc)
    assert kept == expected and list(kept) == expected
    assert kept.omitted == len(every) - len(kept) > 0
    syntax = [inc for inc in every if inc.klass == "SYNTAX"]
    assert kept.counts == {("error", "SYNTAX"): len(syntax),
                           ("error", "FORMAT"): len(every) - len(syntax)}
    assert all(isinstance(item, (IncidentRun, ValidationIncident)) for item in kept.found)
    assert len(kept.found) == KEPT_PER_GROUP + 25  # a run of 40 lines is one item
    # indexing and slicing as a list's
    for index in (0, 1, 2, 39, 40, 41, len(kept) // 2, len(kept) - 1, -1, -len(kept)):
        assert kept[index] == expected[index], index
    assert kept[10:100:7] == expected[10:100:7] and kept[::-500] == expected[::-500]
    with pytest.raises(IndexError):
        kept[len(kept)]
    # pickled whole (runs and counts)
    again = pickle.loads(pickle.dumps(failure))
    assert again.count == failure.count and again.incidents == kept
    assert again.incidents.counts == kept.counts


def test_a_run_of_several_kinds_is_indexed_line_by_line(tmp_path):
    path = _write(tmp_path / "f.conllu", SENTENCE, b"\n \n\t\n\n\n  \n", 50)
    found = list(iter_file_findings(path))
    assert any(isinstance(item, IncidentRun) and len(item.templates) > 1 for item in found)
    kept = KeptIncidents(found)
    every = list(iter_validate_file(path))
    assert len(kept) == kept.total == len(every)
    assert [kept[i] for i in range(len(kept))] == every


def test_kept_incidents_counts_past_the_limit_per_group():
    def inc(line, klass="FORMAT", testid="invalid-line", severity="error"):
        return ValidationIncident(1, klass, testid, "f", line, None, "m", severity)
    found = [inc(1), inc(2, "SYNTAX", "non-tree"), inc(3), IncidentRun.repeated(inc(4), 5),
             inc(9), inc(10, "SYNTAX", "non-tree"), inc(11, "SYNTAX", "non-tree"),
             inc(12, testid="line-too-long")]
    kept = KeptIncidents(found, per_group=2)
    # FORMAT: 1 and 3 kept, then full; the run and 9 counted; SYNTAX: 2 and 10; a limit's
    # finding always
    assert [i.line for i in kept] == [1, 2, 3, 10, 12]
    assert kept.total == 12 and kept.omitted == 7
    assert kept.counts == {("error", "FORMAT"): 9, ("error", "SYNTAX"): 3}
    # a run is kept whole when its group is under the limit
    whole = KeptIncidents([inc(1), IncidentRun.repeated(inc(2), 5), inc(7)], per_group=2)
    assert [i.line for i in whole] == [1, 2, 3, 4, 5, 6] and whole.total == 7


def test_validation_failed_still_takes_a_list():
    incidents = [ValidationIncident(2, "SYNTAX", "non-tree", "f", 3, None, "m")]
    failure = conll_eval.ValidationFailed(incidents)
    incidents.append(incidents[0])  # copied: the caller's list is its own
    assert failure.count == len(failure.incidents) == 1
    assert conll_eval.ValidationFailed(iter(incidents)).count == 2

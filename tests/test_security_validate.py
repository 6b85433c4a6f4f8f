"""Issue 40 point 9: ``conll_eval validate`` on hostile shapes.

* A line longer than :data:`conll_eval.limits.MAX_LINE_BYTES` is a ``line-too-long`` incident
  (level 1, conll_eval's own) that ends the file, on the compiled and the numpy path, at every
  level and in every format; ``validate /dev/zero`` and an endless standard input end.
* The stream is cut into pieces (validate/blocks.py) in linear work: whatever the chunks, the
  block size and the line limit, the incidents are those of the plain line-by-line reader.
* A run of empty lines is one IncidentRun: counted, limited (--max-err) and formatted as its
  incidents one by one would be.
* The text check and the overlapping-ranges check, rewritten in linear time, find what
  udtools' algorithms find.

(Their time is checked in bench/scaling/validate.py, not here.)
"""
from __future__ import annotations

import dataclasses
import json
import os
import random
import re
import subprocess
import sys

import pytest

from conll_eval import limits
from conll_eval.report import validation as report
from conll_eval.validate import (IncidentRun, ValidationIncident, expand_runs, validate_bytes,
                                 validate_lines)
from conll_eval.validate import blocks as blocks_module
from conll_eval.validate import screen as screen_module
from conll_eval.validate.blocks import PARTIAL, TAIL, TOO_LONG, WHOLE, Cutter
from conll_eval.validate.format import IdChecks
from conll_eval.validate.patterns import _is_ws_line, _shorten

from helpers import run_cli
from test_validate import UD_DATA

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORD = "1\tx\tx\tNOUN\t_\t_\t0\troot\t_\t_"
VALID = f"# sent_id = a\n# text = x\n{WORD}\n\n"
BOTH_PATHS = pytest.mark.parametrize("screened", [True, False], ids=["compiled", "numpy"])


@pytest.fixture
def small_limit(monkeypatch):
    monkeypatch.setattr(limits, "MAX_LINE_BYTES", 100)
    return 100


def _found(data: bytes, level: int = 2, **options):
    return [dataclasses.astuple(inc) for inc in validate_bytes(data, "f", level, **options)]


# --- the line limit ---------------------------------------------------------------------------

@BOTH_PATHS
def test_a_long_line_ends_the_file_with_line_too_long(screened, small_limit, monkeypatch):
    monkeypatch.setattr(screen_module, "AVAILABLE", screened and screen_module.AVAILABLE)
    long_sentence = f"# sent_id = b\n# text = x\n1\t{'x' * 200}\t_\t_\t_\t_\t0\troot\t_\t_\n\n"
    data = (VALID + long_sentence + VALID.replace("= a", "= c") + "1\tbad\n\n").encode()
    incidents = list(validate_bytes(data, "f", 2))
    assert [(i.testid, i.line, i.sent_id) for i in incidents] == [("line-too-long", 7, "b")]
    only = incidents[0]
    assert (only.level, only.klass, only.severity) == (1, "FORMAT", "error")
    assert "100 bytes" in only.message and "CONLL_EVAL_MAX_LINE_BYTES" in only.message
    # the sentences before are checked as usual; a line at the limit is no incident
    data = ("1\tbad\n\n" + VALID + "#" + "y" * 99 + "\n" + "z" * 101).encode()
    assert [(i.testid, i.line) for i in validate_bytes(data, "f", 1)] == [
        ("number-of-columns", 1), ("line-too-long", 8)]


@BOTH_PATHS
def test_a_line_ending_in_cr_or_crlf_is_measured_without_its_end(screened, small_limit,
                                                                  monkeypatch):
    monkeypatch.setattr(screen_module, "AVAILABLE", screened and screen_module.AVAILABLE)
    for end in (b"\r\n", b"\r", b"\n"):
        data = (b"#" + b"y" * 99 + end) * 3 + b"1\tx" * 40 + end
        found = [(i.testid, i.line) for i in validate_bytes(data, "f", 1)]
        assert ("line-too-long", 4) in found, end
        assert all(line <= 4 for _, line in found)


@pytest.mark.parametrize("level", [1, 2, 3, 4, 5])
@BOTH_PATHS
def test_line_too_long_at_every_level(level, screened, small_limit, monkeypatch):
    if level >= 4 and UD_DATA is None:
        pytest.skip("levels 4-5 need udtools' language data")
    monkeypatch.setattr(screen_module, "AVAILABLE", screened and screen_module.AVAILABLE)
    options = {"lang": "en", "data_dir": UD_DATA} if level >= 4 else {}
    data = (VALID + "#" + "z" * 500 + "\n" + VALID).encode()
    assert [(row[2], row[4]) for row in _found(data, level, **options)] == [("line-too-long", 5)]


def _cli(*argv, env=None, stdin=None, timeout=20):
    environment = dict(os.environ, **(env or {}))
    environment["PYTHONPATH"] = ROOT + os.pathsep + environment.get("PYTHONPATH", "")
    return subprocess.run([sys.executable, "-m", "conll_eval", "validate", *argv],
                          stdin=stdin, capture_output=True, env=environment, timeout=timeout,
                          check=False)


@pytest.mark.parametrize("pure", ["", "1"], ids=["compiled", "numpy"])
def test_an_endless_line_ends(pure):
    """/dev/zero as a file and as standard input: read no further than the limit."""
    env = {"CONLL_EVAL_MAX_LINE_BYTES": "4096", "CONLL_EVAL_PURE": pure}
    done = _cli("/dev/zero", env=env)
    assert done.returncode == 1
    assert done.stdout.decode().startswith("/dev/zero:1: error [L1 format line-too-long] Line "
                                           "longer than 4,096 bytes")
    assert done.stderr.decode().endswith("*** FAILED *** with 1 errors\n")
    with open("/dev/zero", "rb") as zeros:
        done = _cli("--format", "udtools", "-", env=env, stdin=zeros)
    assert done.returncode == 1
    assert done.stdout.decode().startswith("[Line 1 Sent None]: [L1 FORMAT line-too-long]")


@pytest.mark.parametrize("fmt", ["text", "udtools", "json", "sarif", "github"])
def test_line_too_long_in_every_format(fmt, write, small_limit):
    path = write("long.conllu", "x" * 1000)
    code, out, err = run_cli("validate", "--format", fmt, path)
    assert code == 1 and err.endswith("*** FAILED *** with 1 errors\n")
    if fmt == "json":
        (incident,) = json.loads(out)["incidents"]
        assert (incident["testid"], incident["line"], incident["level"]) == ("line-too-long", 1, 1)
    elif fmt == "sarif":
        (result,) = json.loads(out)["runs"][0]["results"]
        assert result["ruleId"] == "line-too-long"
        assert result["locations"][0]["physicalLocation"]["region"] == {"startLine": 1}
    else:
        expected = {"text": f"{path}:1: error [L1 format line-too-long] Line longer than 100",
                    "udtools": "[Line 1 Sent None]: [L1 FORMAT line-too-long] Line longer",
                    "github": f"::error file={path},line=1,title=[L1 FORMAT line-too-long]::"}
        assert out.startswith(expected[fmt]) and out.count("\n") == 1


def test_line_too_long_shows_whatever_the_filters_say(write, small_limit):
    """A file cut short must not pass: -i, --max-err and --no-warnings leave it shown and
    counted, and -e cannot name it (it is not one of udtools' ids)."""
    path = write("long.conllu", "\n" * 30 + "x" * 1000)
    code, out, err = run_cli("validate", "--max-err", "2", path)
    assert code == 1 and out.splitlines()[-1].startswith(f"{path}:31: error [L1 format line-too")
    assert err.endswith("FORMAT errors: 31\n*** FAILED *** with 31 errors\n")
    code, out, err = run_cli("validate", "-i", "head-self-loop", "--", path)
    assert code == 1 and out.count("\n") == 1 and "line-too-long" in out
    code, _out, err = run_cli("validate", "-e", "line-too-long", "--", path)
    assert code == 2 and "unknown test id" in err


# --- cutting the stream -----------------------------------------------------------------------

_LINES = [b"", b"", b"", b"  ", b"\t", b"# sent_id = s", b"# text = x", b"# newpar",
          WORD.encode(), WORD.encode(), b"2\tx", b"1-2\tab" + b"\t_" * 8, b"caf\xc3\xa9",
          b"bad \xff byte", b"#" + b"w" * 60, b"1\t" + b"v" * 90]
_ENDS = [b"\n"] * 8 + [b"\r\n", b"\r"]


def _random_file(rng: random.Random) -> bytes:
    """Lines of hostile shapes: runs of empty and blank lines, CR and CRLF ends, long lines
    near the limit of 100 (in the tests that lower it), bad UTF-8."""
    out = []
    for _ in range(rng.randint(0, 60)):
        line = rng.choice(_LINES)
        if line in (b"", b"  ") and rng.random() < 0.3:  # a run of blank lines, one line end
            end = rng.choice([b"\n", b"\n", b"\r\n", b"\r"])
            out += [rng.choice([b"", b"", b" ", b"\t \t"]) + end for _ in range(rng.randint(2, 9))]
            continue
        if rng.random() < 0.05:
            line = b"#" + b"u" * rng.randint(95, 105)
        out.append(line + rng.choice(_ENDS))
    if out and rng.random() < 0.3:
        out[-1] = out[-1].rstrip(b"\r\n")
    return b"".join(out)


def _chunks(data: bytes, rng: random.Random):
    at = 0
    while at < len(data):
        size = rng.choice([1, 2, 3, 17, 64, 1 << 20])
        yield data[at:at + size]
        at += size


def _reference(data: bytes, level: int):
    """The plain line-by-line reader's incidents (no screen, no cutting, no runs, no limit)."""
    return [dataclasses.astuple(inc)
            for inc in validate_lines([data.decode("utf-8", "replace")], "f", level)]


def _long_line(data: bytes, limit: int):
    """(1-based number of the first line longer than ``limit``, the bytes of the whole
    sentences before it), as udtools splits lines; None when there is none."""
    lines = re.split(rb"(\r\n|\r|\n)", data)
    sentence_end = 0  # bytes up to the last line that ends a sentence
    at = 0
    for number, k in enumerate(range(0, len(lines), 2), 1):
        text, end = lines[k], lines[k + 1] if k + 1 < len(lines) else b""
        if len(text) > limit:
            return number, data[:sentence_end]
        at += len(text) + len(end)
        if _is_ws_line(text.decode("utf-8", "replace")) or not text:
            sentence_end = at
    return None


@pytest.mark.parametrize("seed", range(150))
def test_cut_pieces_change_nothing(seed, monkeypatch):
    """Any chunks, block size, step size and line limit: the incidents are the line-by-line
    reader's (runs expanded), up to a too-long line, which comes where it is."""
    rng = random.Random(seed)
    data = _random_file(rng)
    limit = rng.choice([100, 1 << 20])
    monkeypatch.setattr(limits, "MAX_LINE_BYTES", limit)
    monkeypatch.setattr(screen_module, "BLOCK_BYTES", rng.choice([1, 5, 64, 300, 1 << 20]))
    monkeypatch.setattr(screen_module, "SENTENCE_BYTES", rng.choice([0, 7, 100, 1 << 20]))
    monkeypatch.setattr(blocks_module, "STEP_BYTES", rng.choice([3, 50, 1 << 20]))
    level = rng.choice([1, 2])
    long_line = _long_line(data, limit)
    for screened in (True, False):
        monkeypatch.setattr(screen_module, "AVAILABLE", screened and screen_module.AVAILABLE)
        found = [dataclasses.astuple(inc) for inc in expand_runs(screen_module.validate_byte_stream(
            _chunks(data, rng), "f", level))]
        if long_line is None:
            assert found == _reference(data, level)
            continue
        number, before = long_line
        testids = [row[2] for row in found]
        assert testids.count("line-too-long") == 1
        at = testids.index("line-too-long")
        assert found[at][4] == number and testids[at + 1:] in ([], ["non-unix-newline"])
        assert [row for row in found[:at] if row[2] != "non-unix-newline"] == [
            row for row in _reference(before, level) if row[2] != "non-unix-newline"]


def test_pieces_are_cut_where_each_path_can_take_them():
    rng = random.Random(5)
    for _ in range(300):
        data = _random_file(rng)
        cutter = Cutter(rng.choice([1, 10, 200]), rng.choice([0, 7, 100, 1 << 20]))
        pieces = list(cutter.pieces(_chunks(data, rng)))
        assert b"".join(piece for _, piece in pieces) == data
        at = 0
        for kind, piece in pieces[:-1]:
            at += len(piece)
            assert kind in (WHOLE, PARTIAL) and piece
            # a whole piece ends an empty line, whose first LF may end the piece before
            assert data[:at].endswith(b"\n\n" if kind == WHOLE else (b"\n", b"\r"))
        for (_, piece), (_, after) in zip(pieces, pieces[1:]):
            assert not (piece.endswith(b"\r") and after.startswith(b"\n"))  # a CRLF in one
        assert all(kind != TAIL for kind, _ in pieces[:-1])


def test_a_long_line_is_found_whatever_the_chunks(monkeypatch):
    monkeypatch.setattr(limits, "MAX_LINE_BYTES", 10)
    monkeypatch.setattr(blocks_module, "STEP_BYTES", 4)
    rng = random.Random(3)
    for length in range(8, 14):
        data = b"ab\ncd\r\n" + b"x" * length + b"\r\nlast\n"
        for _ in range(20):
            pieces = list(Cutter(3).pieces(_chunks(data, rng)))
            if length <= 10:
                assert TOO_LONG not in [kind for kind, _ in pieces]
            else:
                assert pieces[-1][0] == TOO_LONG  # and no piece holds the line
                assert b"".join(piece for _, piece in pieces) == b"ab\ncd\r\n"


# --- runs of empty lines ----------------------------------------------------------------------

def test_lines_of_spaces_are_every_incident_counted(write):
    path = write("spaces.conllu", VALID + " \n" * 20_000 + "\t\n\n" * 3 + VALID)
    code, out, err = run_cli("validate", "--max-err", "0", "--format", "udtools", path)
    assert err == "FORMAT errors: 40009\nMETADATA errors: 1\n*** FAILED *** with 40010 errors\n"
    spaces = ("[L1 FORMAT pseudo-empty-line] Spurious line that appears empty but is not; there "
              "are whitespace characters.")
    empty = ("[L1 FORMAT empty-sentence] Sentence must not be empty. Only one empty line is "
             "expected after every sentence.")
    expected = [f"[Line {line} Sent None]: {text}" for line in range(5, 20005)
                for text in (spaces, empty)]
    expected += [
        f"[Line {line} Sent None]: {text}" for line, text in (
            (20005, spaces), (20005, empty), (20006, empty), (20007, spaces), (20007, empty),
            (20008, empty), (20009, spaces), (20009, empty), (20010, empty))]
    expected.append("[Line 20013 Sent a]: [L2 METADATA non-unique-sent-id] Non-unique sent_id "
                    "attribute 'a'.")
    assert out.splitlines() == expected
    code, out, err = run_cli("validate", "-e", "empty-sentence", "--", path)
    assert err.startswith("FORMAT errors: 20003\n") and out.count("pseudo-empty-line") == 20


def test_many_empty_lines_are_every_incident_counted(write):
    n = 50_000
    path = write("blank.conllu", "\n" * n + VALID + "\n" * 7)
    code, out, err = run_cli("validate", path)
    total = n + 7
    assert code == 1 and err == f"FORMAT errors: {total}\n*** FAILED *** with {total} errors\n"
    lines = out.splitlines()
    assert len(lines) == 21 and lines[-1] == "...suppressing further messages regarding ERROR/FORMAT"
    assert lines[19].startswith(f"{path}:20: error [L1 format empty-sentence] Sentence must not")
    code, out, _err = run_cli("validate", "--max-err", "0", path)
    numbers = [int(line.split(":")[1]) for line in out.splitlines()]
    assert numbers == list(range(1, n + 1)) + list(range(n + 5, n + 12))
    code, out, _err = run_cli("validate", "--format", "json", path)
    document = json.loads(out)
    assert len(document["incidents"]) == total == document["summary"]["errors"]
    assert document["incidents"][n]["line"] == n + 5


@pytest.mark.parametrize("end", ["\r\n", "\r"])
def test_empty_lines_with_cr_line_ends_are_every_incident_counted(end, write):
    path = write("blank.conllu", end * 30_000 + VALID.replace("\n", end))
    code, out, err = run_cli("validate", "--level", "1", "--max-err", "0", "--format", "json",
                             path)
    incidents = json.loads(out)["incidents"]
    assert [(i["testid"], i["line"]) for i in incidents] == [
        ("empty-sentence", k) for k in range(1, 30_001)] + [("non-unix-newline", 30_004)]
    converter = "dos2unix" if end == "\r\n" else "mac2unix"
    assert incidents[-1]["hint"].endswith(f"the first one on line 1; convert with {converter}")
    assert err == "FORMAT errors: 30001\n*** FAILED *** with 30001 errors\n"


def _incident(line, testid="empty-sentence", klass="FORMAT", severity="error"):
    return ValidationIncident(1, klass, testid, "p", line, None, f"m {testid}", severity)


_GROUPS = [("FORMAT", "error"), ("SYNTAX", "error"), ("FORMAT", "warning")]


def _random_items(rng):
    """Incidents and runs of them: runs of one kind of line, and of several kinds of
    several incidents (of several groups)."""
    items, line = [], 1
    for _ in range(rng.randint(0, 12)):
        klass, severity = rng.choice(_GROUPS)
        count = rng.choice([1, 1, 2, 5, 30])
        first = _incident(line, klass=klass, severity=severity)
        if rng.random() < 0.3:
            items.append(first)
        elif rng.random() < 0.5:
            items.append(IncidentRun.repeated(first, count))
        else:
            templates = [[_incident(line, f"t{kind}{k}", *rng.choice(_GROUPS))
                          for k in range(rng.randint(1, 3))] for kind in range(3)]
            items.append(IncidentRun(templates, bytes(rng.randrange(3) for _ in range(count)),
                                     line))
        line += count
    return items


def test_runs_are_limited_and_counted_as_their_incidents():
    rng = random.Random(11)
    for _ in range(500):
        items, max_err = _random_items(rng), rng.choice([0, 1, 2, 3, 20])
        assert (list(expand_runs(report.limit_per_class(items, max_err)))
                == list(report.limit_per_class(expand_runs(items), max_err)))
        tally, expanded = report.Tally(), report.Tally()
        for item in items:
            tally.add(item)
        for inc in expand_runs(items):
            expanded.add(inc)
        assert tally.summary() == expanded.summary()


def test_a_runs_lines_are_formatted_as_each_incident():
    from conll_eval.cli.validate import _formatted
    runs = [IncidentRun.repeated(_incident(7), 2500),
            IncidentRun([[_incident(9000)], [_incident(9000, "pseudo-empty-line"),
                                             _incident(9000)]], bytes([1, 0, 0, 1] * 700), 9000)]
    explained = set()
    formats = [report.format_incident, report.format_github,
               lambda inc: json.dumps(report.incident_dict(inc)),
               lambda inc: json.dumps(report.sarif_result(inc)),
               lambda inc: report.format_udtools(inc, explained=explained),
               lambda inc: f"{inc.line} twice: {inc.line}"]  # the one probe can't place
    for format_one in formats:
        text = "\n".join(_formatted([_incident(3), *runs], format_one, "\n"))
        assert text == "\n".join(map(format_one, [_incident(3), *expand_runs(runs)]))


# --- linear rewrites of udtools' algorithms --------------------------------------------------

def _udtools_text_findings(text: str, words):
    """udtools' text check (text vs FORM and SpaceAfter=No), slicing the text per word."""
    out, mismatch_reported = [], False
    for word_id, form, misc in words:
        if not text.startswith(form):
            if not mismatch_reported:
                extra = (" (perhaps extra SpaceAfter=No at previous token?)"
                         if text[:1].isspace() else "")
                out.append(("text-form-mismatch", "Mismatch between the text attribute and the"
                            f" FORM field. Form[{word_id}] is '{form}' but text is"
                            f" '{text[:len(form) + 20]}...'" + extra))
                mismatch_reported = True
        else:
            text = text[len(form):]
            if "SpaceAfter=No" not in misc.split("|"):
                if text and not text[0].isspace():
                    out.append(("missing-spaceafter", "'SpaceAfter=No' is missing in the MISC"
                                f" field of node {word_id} because the text is"
                                f" '{_shorten(form + text)}'."))
                text = text.lstrip()
    if text:
        out.append(("text-extra-chars", "Extra characters at the end of the text attribute,"
                    f" not accounted for in the FORM fields: '{text}'"))
    return out


def test_the_text_check_finds_what_udtools_finds():
    rng = random.Random(2)
    pieces = ["a", "bb", "ccc", "a" * 30, "\u00e9"]
    for _ in range(1500):
        forms = [rng.choice(pieces) for _ in range(rng.randint(1, 8))]
        miscs = [rng.choice(["_", "_", "SpaceAfter=No", "Gloss=x|SpaceAfter=No"]) for _ in forms]
        text = "".join(form + rng.choice(["", " ", " ", "  ", "\u00a0", "\u2003 "])
                       for form in forms).rstrip() + rng.choice(["", "", "x", "zz y"])
        if rng.random() < 0.2:
            forms[rng.randrange(len(forms))] = "q"
        lines = ["# sent_id = s", f"# text = {text}"] + [
            f"{k}\t{form}\t_\tX\t_\t_\t{0 if k == 1 else 1}\t{'root' if k == 1 else 'dep'}\t_\t"
            f"{misc}" for k, (form, misc) in enumerate(zip(forms, miscs), 1)]
        found = [(inc.testid, inc.message) for inc in validate_lines(["\n".join(lines) + "\n\n"],
                                                                      "f", 2)
                 if inc.testid in ("text-form-mismatch", "missing-spaceafter", "text-extra-chars")]
        words = [(str(k), form, misc) for k, (form, misc) in enumerate(zip(forms, miscs), 1)]
        assert found == _udtools_text_findings(text.strip(), words), text


class _Ranges(IdChecks):
    def __init__(self, ranges):
        self.table = [[f"{beg}-{end}"] + ["_"] * 9 for beg, end in ranges]
        self.sentence_line, self.out = 0, []

    def _add(self, level, klass, testid, line, message):
        self.out.append((line, message))


def _udtools_overlaps(ranges):
    """udtools' check: a set of each range's words."""
    covered, out = set(), []
    for i, (beg, end) in enumerate(ranges):
        span = set(range(beg, end + 1))
        if covered & span:
            out.append((i, f"Range overlaps with others: {beg}-{end}"))
        covered |= span
    return out


def test_the_overlap_check_finds_what_udtools_finds():
    rng = random.Random(4)
    for _ in range(5000):
        n = rng.randint(1, 15)
        ranges = [(beg, rng.randint(beg, n)) for beg in
                  (rng.randint(1, n) for _ in range(rng.randint(0, 7)))]
        check = _Ranges(ranges)
        expected = _udtools_overlaps(ranges)
        assert check._range_overlaps() == (not expected)
        assert check.out == expected


def test_one_huge_sentence_of_words_is_held_for_the_screen_and_comments_are_not():
    """A sentence of word lines longer than the block comes whole (the screen takes it at a
    fraction of the line-by-line path's cost), up to SENTENCE_BYTES; a long run of comments,
    or a sentence past that bound, is cut for the line-by-line path."""
    words = "".join(f"{i}\tw\tw\tX\t_\t_\t{i - 1}\tdep\t_\t_\n" for i in range(1, 400))
    sentence = ("# sent_id = 1\n# text = " + "w " * 300 + "\n" + words + "\n").encode()
    data = sentence * 2
    chunks = [data[at:at + 100] for at in range(0, len(data), 100)]
    kinds = [kind for kind, _ in Cutter(1000, 1 << 20).pieces(chunks)]
    assert kinds == [WHOLE, WHOLE]
    assert PARTIAL in [kind for kind, _ in Cutter(1000, 5000).pieces(chunks)]  # past the bound
    assert PARTIAL in [kind for kind, _ in Cutter(1000, 0).pieces(chunks)]
    comments = ("# sent_id = 1\n" + "# a comment\n" * 2000 + words + "\n").encode()
    chunks = [comments[at:at + 100] for at in range(0, len(comments), 100)]
    assert PARTIAL in [kind for kind, _ in Cutter(1000, 1 << 20).pieces(chunks)]

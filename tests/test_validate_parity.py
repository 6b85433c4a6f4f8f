"""Parity of ``conll_eval validate --level 2`` with the UD validator (udtools' ``udvalidate``).

The oracle is ``udvalidate --level 2 --lang ud --max-err 0`` from the oracle venv
(``$CONLL_EVAL_ORACLES/venv`` or the directory of ``tests/oracles.py``); every test here skips
when it is not installed.  To keep thousands of files affordable, the files go through one
long-lived udtools process (``tests/udvalidate_driver.py``); ``test_driver_equals_udvalidate``
checks that it answers exactly what the command prints.

Corpus: hypothesis picks a seed document (two hand-written ones, with MWTs, empty nodes and
enhanced DEPS, plus 1-3 real sentences from ``../shared/ud`` when present) and applies 1-4
mutations: delete/duplicate/blank/insert lines, swap or overwrite columns (broken IDs, HEADs,
ranges, unknown labels, NFD forms, spaces), tabs <-> spaces, trailing spaces, NFD lines, a BOM,
CRLF or lone CR ends, a missing final newline, truncation and invalid UTF-8 bytes.

Asserted on every file: the same verdict (exit code) and the same first error id.  Also
asserted: the same complete list of (test id, line) of the errors, except for the documented
differences (udtools crashes on invalid UTF-8, where only the verdict is compared, and on a
sentence made of empty nodes only, where its errors before the crash must be ours), and that a
file we pass is read by the scorer in every profile (what --strict relies on).

Real files: the complete error lists agree on the ``../shared/ud`` files (two in the default
run, all 30 in the slow one).  The slow run also checks that the recorded
``testdata/validate/*.udvalidate.txt`` still match the installed udvalidate.
"""
from __future__ import annotations

import json
import os
import random
import re
import subprocess
import unicodedata
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conll_eval.cli import main
from conll_eval.reader import load
from conll_eval.validate import validate_file

from test_validate import CASES, VALID, case_options  # tests/ is on sys.path (rootdir)

ENHANCED = """\
# newdoc id = d2
# newpar
# sent_id = e1
# parallel_id = ab/e1
# text = Sue left and Bob too.
1\tSue\tSue\tPROPN\tNNP\tNumber=Sing\t2\tnsubj\t2:nsubj\t_
2\tleft\tleave\tVERB\tVBD\tMood=Ind|Tense=Past|VerbForm=Fin\t0\troot\t0:root\t_
3\tand\tand\tCCONJ\tCC\t_\t4\tcc\t4:cc\t_
4\tBob\tBob\tPROPN\tNNP\tNumber=Sing\t2\tconj\t2.1:nsubj|2:conj:and\t_
4.1\tleft\tleave\tVERB\tVBD\t_\t_\t_\t2:conj:and\t_
5\ttoo\ttoo\tADV\tRB\t_\t4\tadvmod\t4.1:advmod\tSpaceAfter=No
6\t.\t.\tPUNCT\t.\t_\t2\tpunct\t2:punct\t_

# sent_id = e2
# text = Au café.
1-2\tAu\t_\t_\t_\t_\t_\t_\t_\t_
1\tÀ\tà\tADP\t_\t_\t3\tcase\t3:case\t_
2\tle\tle\tDET\t_\tDefinite=Def|Gender=Masc|Number=Sing|PronType=Art\t3\tdet\t3:det\t_
3\tcafé\tcafé\tNOUN\t_\tGender=Masc|Number=Sing\t0\troot\t0:root\tSpaceAfter=No
4\t.\t.\tPUNCT\t_\t_\t3\tpunct\t3:punct\t_

"""

SHARED_UD = Path(__file__).resolve().parents[2] / "shared" / "ud"
SENTENCES_PER_FILE = 60


def _oracle_python():
    candidates = []
    env = os.environ.get("CONLL_EVAL_ORACLES")
    if env:
        candidates.append(Path(env))
    try:
        from oracles import DEFAULT_DEST, oracle_dir
        found = oracle_dir()
        if found is not None:
            candidates.append(Path(found))
        candidates.append(DEFAULT_DEST)
    except Exception:  # noqa: BLE001 - no oracle helper, no oracle
        pass
    for directory in candidates:
        python, udvalidate = directory / "venv" / "bin" / "python", directory / "venv" / "bin" / "udvalidate"
        if python.is_file() and udvalidate.is_file():
            return str(python), str(udvalidate)
    return None


ORACLE = _oracle_python()
needs_udvalidate = pytest.mark.skipif(ORACLE is None, reason="udvalidate (udtools) not installed")
_UD_LINE = re.compile(r"^\[Line (-?\d+) Sent [^\]]*\]: \[L(\d) (\w+) ([a-z0-9-]+)\] ")


class _Driver:
    def __init__(self):
        self.proc = subprocess.Popen(
            [ORACLE[0], str(Path(__file__).with_name("udvalidate_driver.py"))],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, encoding="utf-8")

    def run(self, path, level=2, lang="ud") -> dict:
        request = str(path) if (level, lang) == (2, "ud") else json.dumps(
            {"path": str(path), "level": level, "lang": lang})
        self.proc.stdin.write(f"{request}\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


@pytest.fixture(scope="module")
def driver():
    d = _Driver()
    yield d
    d.close()


def udtools_errors(stderr: str):
    """[(testid, line)] of the errors (not warnings) in udvalidate's output."""
    found = []
    for line in stderr.splitlines():
        m = _UD_LINE.match(line)
        if m and m.group(3) != "WARNING":
            found.append((m.group(4), int(m.group(1))))
    return found


def our_errors(path):
    return [(i.testid, i.line) for i in validate_file(str(path)) if i.severity == "error"]


# ---------------------------------------------------------------------------------------------
# The corpus

def _real_sentences():
    """Up to SENTENCES_PER_FILE sentences (lists of lines) of every ../shared/ud file."""
    if not SHARED_UD.is_dir():
        return []
    found = []
    for path in sorted(SHARED_UD.glob("*/*.conllu")):
        text = path.read_text(encoding="utf-8")
        blocks = [b for b in text.split("\n\n") if b.strip()][:SENTENCES_PER_FILE]
        found.extend(b.split("\n") for b in blocks)
    return found


REAL = _real_sentences()
HAND = [VALID.split("\n")[:-1], ENHANCED.split("\n")[:-1]]

COLUMN_VALUES = {
    0: ["0", "x", "1.1", "2-1", "01", "3-4", "1", "2", "5", "1.2", "1-2", "1-5", "0.1", "2.0"],
    1: ["caf\u00e9", "cafe\u0301", "a b", "", " a", "a ", "a\u00a0", "a\x1cb", "x  y", "_"],
    2: ["cafe\u0301", "", "a b", "_"],
    3: ["NOUN", "FOO", "_", "noun", "VERB", "NO UN"],
    4: ["", "_", "NN", "N N"],
    5: ["Number=Plur|Case=Nom", "Case=Nom,Acc", "case=Nom", "Case=Acc,Acc", "Case=Nom|Case=Acc",
        "Case=", "_", "Typo=Yes", "Abc[psor]=Yes", "Case=Nom|", "Case"],
    6: ["0", "x", "1", "2", "3", "4", "9", "-1", "_", "1.1", "01"],
    7: ["root", "foo", "nsubj:pass", "nmod:Poss", "Det", "_", "det:a:b", "acl:relcl", ""],
    8: ["0:root", "2:det", "1:x", "3:nsubj|2:dep", "x", "0:Root", "_", "1:nmod:на", "1.1:dep",
        "2:dep|1:dep", "1:dep|1:dep", "1:obj|1:dep", "01:dep", "9:dep"],
    9: ["SpaceAfter=No", "SpaceAfter=Yes", "_", "Gloss=a|Gloss=b", "NoSpaceAfter=Yes", "a=b| c",
        "|", "=x", "spaceafter=No", ""],
}
INSERTED_LINES = [
    "1.1\tz\tz\tNOUN\t_\t_\t_\t_\t1:dep\t_", "0.1\tz\tz\t_\t_\t_\t_\t_\t_\t_",
    "1-2\tzz\t_\t_\t_\t_\t_\t_\t_\t_", "# sent_id = s1", "# text = foo", "# newpar",
    "# parallel_id = ab/c1/alt2", "#sent_id x", "   ", "\t", "1\tx", "x", "\u00a0", "# newdoc",
    "# sent_id = a/b", "# text =", "# newdoc id = q",
]

_index = st.integers(0, 10 ** 6)
mutation = st.one_of(
    st.tuples(st.sampled_from(["delete", "duplicate", "blank", "trailing", "nfd", "cr"]), _index),
    st.tuples(st.just("insert"), _index, st.sampled_from(INSERTED_LINES)),
    st.tuples(st.just("swap"), _index, st.integers(0, 9), st.integers(0, 9)),
    st.integers(0, 9).flatmap(lambda col: st.tuples(
        st.just("set"), _index, st.just(col), st.sampled_from(COLUMN_VALUES[col]))),
    st.tuples(st.sampled_from(["tab-to-space", "space-to-tab", "double-tab"]), _index, _index),
    st.tuples(st.sampled_from(["bom", "crlf", "nofinal", "bad-utf8"])),
    st.tuples(st.just("truncate"), _index),
)


def _token_line(lines, k):
    """Index of the k-th token line (mod their number), or None."""
    tokens = [i for i, line in enumerate(lines) if line[:1].isdigit()]
    return tokens[k % len(tokens)] if tokens else None


def mutate(seed_lines, ops) -> bytes:
    lines = list(seed_lines) + [""]
    crlf = nofinal = bom = bad_utf8 = False
    cut = None
    for op in ops:
        kind = op[0]
        at = op[1] % len(lines) if len(op) > 1 and isinstance(op[1], int) and lines else 0
        if kind == "delete" and lines:
            del lines[at]
        elif kind == "duplicate" and lines:
            lines.insert(at, lines[at])
        elif kind == "blank":
            lines.insert(at, "")
        elif kind == "insert":
            lines.insert(at, op[2])
        elif kind == "trailing" and lines:
            lines[at] += " "
        elif kind == "nfd" and lines:
            lines[at] = unicodedata.normalize("NFD", lines[at])
        elif kind == "cr" and lines:
            lines[at] += "\r"
        elif kind in ("swap", "set"):
            i = _token_line(lines, op[1])
            if i is None:
                continue
            cols = lines[i].split("\t")
            if len(cols) != 10:
                continue
            if kind == "swap":
                cols[op[2]], cols[op[3]] = cols[op[3]], cols[op[2]]
            else:
                cols[op[2]] = op[3]
            lines[i] = "\t".join(cols)
        elif kind in ("tab-to-space", "space-to-tab", "double-tab") and lines:
            old, new = {"tab-to-space": ("\t", " "), "space-to-tab": (" ", "\t"),
                        "double-tab": ("\t", "\t\t")}[kind]
            spots = [m.start() for m in re.finditer(old, lines[at])]
            if spots:
                s = spots[op[2] % len(spots)]
                lines[at] = lines[at][:s] + new + lines[at][s + 1:]
        elif kind == "bom":
            bom = True
        elif kind == "crlf":
            crlf = True
        elif kind == "nofinal":
            nofinal = True
        elif kind == "bad-utf8":
            bad_utf8 = True
        elif kind == "truncate":
            cut = op[1]
    text = "\n".join(lines) + "\n"
    if nofinal:
        text = text.rstrip("\n")
    if crlf:
        text = text.replace("\n", "\r\n")
    if cut is not None and text:
        text = text[:cut % len(text)]
    data = text.encode("utf-8")
    if bom:
        data = b"\xef\xbb\xbf" + data
    if bad_utf8 and data:
        spot = random.Random(len(data)).randrange(len(data))
        data = data[:spot] + b"\xff" + data[spot:]
    return data


seed_document = st.sampled_from(HAND) | (
    st.lists(st.sampled_from(REAL), min_size=1, max_size=3).map(lambda ss: [l for s in ss for l in s + [""]][:-1])
    if REAL else st.sampled_from(HAND))

#: totals over the session, printed by the slow test (for the closing note)
TALLY = {"files": 0, "same verdict": 0, "same first id": 0, "same error list": 0, "rejected": 0,
         "udtools crashed": 0}


def check_parity(driver, path, data: bytes):
    path.write_bytes(data)
    answer = driver.run(str(path))
    theirs = udtools_errors(answer["stderr"])
    ours = our_errors(path)
    TALLY["files"] += 1
    TALLY["rejected"] += answer["rc"] != 0
    assert (answer["rc"] == 0) == (not ours), (data, ours, answer["stderr"][-2000:])
    TALLY["same verdict"] += 1
    if not ours:
        for profile in ("conll17", "conll18", "iwpt"):
            load(str(path), profile)  # valid at level 2 => scorable
    if "Traceback" in answer["stderr"]:
        # documented differences: udtools dies on undecodable bytes (we report invalid-utf) and
        # on a sentence of empty nodes only (Udapi finds no root; we go on checking)
        TALLY["udtools crashed"] += 1
        if "UnicodeDecodeError" in answer["stderr"]:
            assert any(testid == "invalid-utf" for testid, _ in ours)
        else:
            assert "assert(root)" in answer["stderr"], answer["stderr"]
            assert ours[:len(theirs)] == theirs, (data, ours, theirs)
        return
    if theirs:
        assert ours[0][0] == theirs[0][0], (data, ours, theirs)
    TALLY["same first id"] += 1
    assert ours == theirs, (data, ours, theirs)
    TALLY["same error list"] += 1


# ---------------------------------------------------------------------------------------------
# Tests

@needs_udvalidate
def test_driver_equals_udvalidate(driver, tmp_path):
    """The long-lived driver prints exactly what the udvalidate command prints."""
    rng = random.Random(7)
    docs = [mutate(HAND[rng.randrange(2)], [("delete", rng.randrange(99)),
                                            ("set", rng.randrange(99), 6, "9")]) for _ in range(3)]
    docs += [path.read_bytes() for path in CASES if path.stem in ("non-tree", "misplaced-comment")]
    for k, data in enumerate(docs):
        path = tmp_path / f"d{k}.conllu"
        path.write_bytes(data)
        real = subprocess.run([ORACLE[1], "--level", "2", "--lang", "ud", "--max-err", "0",
                               str(path)], capture_output=True, text=True, timeout=120)
        answer = driver.run(str(path))
        assert (answer["rc"], answer["stderr"]) == (real.returncode, real.stderr)


def _mutated_files_parity(max_examples: int):
    @needs_udvalidate
    @settings(max_examples=max_examples, deadline=None, suppress_health_check=list(HealthCheck))
    @given(seed=seed_document, ops=st.lists(mutation, min_size=1, max_size=4))
    def test(driver, tmp_path_factory, seed, ops):
        check_parity(driver, tmp_path_factory.mktemp("m") / "m.conllu", mutate(seed, ops))
    return test


test_parity_on_mutated_files = _mutated_files_parity(60)
test_parity_on_mutated_files_many = pytest.mark.ci_stage2(examples=300)(
    pytest.mark.slow(_mutated_files_parity(5000)))


@needs_udvalidate
@pytest.mark.slow
@pytest.mark.ci_stage2
def test_parity_tally_report():
    """Prints the running totals of this session (run with -s after the slow parity test)."""
    print("\nudvalidate parity:", ", ".join(f"{k} {v}" for k, v in TALLY.items()))
    assert TALLY["files"] == 0 or TALLY["same verdict"] == TALLY["files"]


@needs_udvalidate
@pytest.mark.slow
@pytest.mark.ci_stage2
def test_case_file_goldens_are_current(driver):
    """testdata/validate/*.udvalidate.txt still match the installed udvalidate."""
    for path in CASES:
        recorded = path.with_suffix(".udvalidate.txt").read_text(encoding="utf-8")
        answer = driver.run(str(path), *case_options(path))
        assert udtools_errors(recorded) == udtools_errors(answer["stderr"]), path


def _shared_files():
    return sorted(SHARED_UD.glob("*/*.conllu")) if SHARED_UD.is_dir() else []


#: in the default run: a real parser output udtools rejects, and a gold file with enhanced DEPS
QUICK_SHARED = {"en_ewt/sys-raw.conllu", "en_ewt/gold.conllu"}


@needs_udvalidate
@pytest.mark.parametrize("path", [
    pytest.param(p, id=f"{p.parent.name}/{p.name}",
                 marks=() if f"{p.parent.name}/{p.name}" in QUICK_SHARED
                 else [pytest.mark.slow, pytest.mark.ci_stage2])
    for p in _shared_files()])
def test_parity_on_shared_ud_files(driver, path):
    """Real treebanks and real parser outputs: the same complete error lists."""
    answer = driver.run(str(path))
    assert our_errors(path) == udtools_errors(answer["stderr"])
    assert (answer["rc"] == 0) == (not our_errors(path))


def test_cli_validate_agrees_with_library(tmp_path, capsys):
    """`conll_eval validate --max-err 0` shows exactly the library's incidents."""
    data = mutate(HAND[1], [("set", 3, 6, "9"), ("set", 5, 7, "foo"), ("trailing", 2)])
    path = tmp_path / "m.conllu"
    path.write_bytes(data)
    code = main(["validate", "--max-err", "0", str(path)])
    out = capsys.readouterr().out.splitlines()
    incidents = validate_file(str(path))
    assert code == (1 if any(i.severity == "error" for i in incidents) else 0)
    assert len(out) == len(incidents) > 0

#!/usr/bin/env python3
"""Regenerate every expected output under ``testdata/`` by running the official scorers.

This script is the ONLY producer of ``expected*.txt`` files (``make golden`` calls it); the
inputs (``gold.conllu``, ``system.conllu``, ``weights.txt``, ``testdata/invalid/*.conllu``) are
hand-written and never generated.  See ``testdata/README.md`` for what each file is.

The official scorers are test oracles living outside the project tree, found as every script
and test finds them (``scripts/get_oracles.py``: ``$CONLL_EVAL_ORACLES``, then
``~/.cache/conll_eval-oracles``, where ``make oracles`` puts them; fetched from PyPI into
the latter when neither holds them).  Their code is never copied into this repository.

For each ``testdata/golden/<case>/`` (run inside that directory, with this interpreter as
``python3``; ``$O`` = the oracle directory):

    python3 $O/conll18_ud_eval.py    gold.conllu system.conllu > expected-conll18.txt
    python3 $O/conll18_ud_eval.py -v gold.conllu system.conllu > expected-conll18-v.txt
    python3 $O/conll18_ud_eval.py -c gold.conllu system.conllu > expected-conll18-c.txt
    python3 $O/conll17_ud_eval.py    gold.conllu system.conllu > expected-conll17.txt
    python3 $O/conll17_ud_eval.py -v gold.conllu system.conllu > expected-conll17-v.txt
    python3 $O/conll17_ud_eval.py -v -w ../clas17-weights.txt gold.conllu system.conllu \\
                                                               > expected-conll17-v-clas.txt
    # only where the case has a weights.txt:
    python3 $O/conll17_ud_eval.py -v -w weights.txt gold.conllu system.conllu > expected-conll17-v-w.txt

Every case must be accepted by the conll18 scorer (else this script stops).  If the conll17
scorer rejects a case, its message goes to ``expected-conll17-error.txt`` instead of the three
conll17 files.  ``clas17-weights.txt`` gives weight 0 to aux, case, cc, clf, cop, det, mark and
punct: with it the WeightedLAS row of conll17 v1.0 equals the CLAS row of later 2017 scorers,
which the installed v1.0 lacks.

For each ``testdata/invalid/<name>.conllu`` with its valid companion
``testdata/invalid/gold/<name>.conllu`` (same text), both scorers are run as

    python3 $O/conll18_ud_eval.py -v gold/<name>.conllu <name>.conllu
    python3 $O/conll17_ud_eval.py -v gold/<name>.conllu <name>.conllu

and the verdict (``accepted`` or the final exception line(s), e.g. ``UDError: ...``,
``ValueError: ...``) is written to ``testdata/invalid/expected-official.txt``, one
TAB-separated line per file and scorer.  Each companion is first checked to be accepted
against itself by both scorers.

For each ``testdata/validate/L<level>/<testid>.conllu`` (one problem each, named by the UD
validator's test id it triggers), the UD validator from the oracle venv is run in that
directory as

    $O/venv/bin/udvalidate --level <level> --lang ud --max-err 0 <testid>.conllu

(level 2 for the L1 files; ``--lang xx`` when the file's first line is ``# validator_lang =
xx``),
and ``<testid>.udvalidate.txt`` gets ``exit <code>`` on its first line, then everything
udvalidate printed (stderr: incidents, explanations, summary).

Usage: ``python scripts/make_golden.py`` (no arguments).  Exit status 0 on success, 1 when the
oracles are unavailable or a hand-written input is unusable.
"""
from __future__ import annotations

import os
import subprocess
import sys
import unicodedata
from pathlib import Path
from typing import List, Optional, Tuple

from get_oracles import find_oracles as lookup_oracles, find_validator  # scripts/ beside this

PROJECT = Path(__file__).resolve().parent.parent
TESTDATA = PROJECT / "testdata"
GOLDEN = TESTDATA / "golden"
INVALID = TESTDATA / "invalid"
VALIDATE = TESTDATA / "validate"
CLAS17_WEIGHTS = "clas17-weights.txt"  # in GOLDEN, shared by all cases

CONLL18 = "conll18_ud_eval.py"
CONLL17 = "conll17_ud_eval.py"


class GoldenError(Exception):
    """A problem that stops the regeneration (missing oracles, unusable input)."""


def find_oracles() -> Path:
    """The oracle directory, with the UD validator in its venv (checked before anything is
    written, so a missing piece leaves ``testdata/`` as it was)."""
    oracles = lookup_oracles(install=True)
    if oracles is None:
        raise GoldenError("no oracles: run 'make oracles' (PyPI must be reachable) or set "
                          "$CONLL_EVAL_ORACLES to a directory holding them")
    if find_validator(oracles) is None:
        raise GoldenError(f"no UD validator in {oracles / 'venv'}: run 'make oracles'")
    return oracles


def run(oracles: Path, script: str, args: List[str], cwd: Path) -> Tuple[int, bytes, str]:
    """Run one official scorer; return (exit status, stdout bytes, stderr text)."""
    env = dict(os.environ, PYTHONIOENCODING="utf-8", PYTHONHASHSEED="0")
    env.pop("PYTHONUTF8", None)
    proc = subprocess.run([sys.executable, str(oracles / script)] + args, cwd=str(cwd),
                          capture_output=True, env=env)
    return proc.returncode, proc.stdout, proc.stderr.decode("utf-8", "replace")


def exception_text(stderr: str) -> str:
    """The exception part of a traceback: every line after the last indented (source) line."""
    lines = stderr.rstrip("\n").split("\n")
    last_indented = max((i for i, line in enumerate(lines) if line.startswith((" ", "\t"))),
                        default=-1)
    return "\n".join(lines[last_indented + 1:])


def escape(text: str) -> str:
    """One-line, unambiguous rendering: backslash, TAB, newline and invisible chars escaped."""
    out = []
    for ch in text:
        if ch == "\\":
            out.append("\\\\")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\n":
            out.append("\\n")
        elif ch != " " and unicodedata.category(ch) in ("Cc", "Cf", "Zs", "Zl", "Zp"):
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return "".join(out)


def write(path: Path, data: bytes) -> None:
    path.write_bytes(data)
    print(f"  wrote {path.relative_to(PROJECT)}")


def golden_case(oracles: Path, case: Path) -> None:
    print(f"golden/{case.name}")
    for old in case.glob("expected*.txt"):
        old.unlink()
    pair = ["gold.conllu", "system.conllu"]
    for flags, name in (([], "expected-conll18.txt"), (["-v"], "expected-conll18-v.txt"),
                        (["-c"], "expected-conll18-c.txt")):
        rc, out, err = run(oracles, CONLL18, flags + pair, case)
        if rc != 0:
            raise GoldenError(f"{case.name}: conll18 rejects the pair:\n{exception_text(err)}")
        write(case / name, out)

    runs17 = [([], "expected-conll17.txt"), (["-v"], "expected-conll17-v.txt"),
              (["-v", "-w", f"../{CLAS17_WEIGHTS}"], "expected-conll17-v-clas.txt")]
    if (case / "weights.txt").is_file():
        runs17.append((["-v", "-w", "weights.txt"], "expected-conll17-v-w.txt"))
    for flags, name in runs17:
        rc, out, err = run(oracles, CONLL17, flags + pair, case)
        if rc != 0:
            for partial in case.glob("expected-conll17*.txt"):
                partial.unlink()
            write(case / "expected-conll17-error.txt",
                  (exception_text(err) + "\n").encode("utf-8"))
            break
        write(case / name, out)


def verdict(oracles: Path, script: str, gold: str, system: str) -> str:
    rc, _out, err = run(oracles, script, ["-v", gold, system], INVALID)
    return "accepted" if rc == 0 else escape(exception_text(err))


def invalid_files(oracles: Path) -> None:
    print("invalid/")
    rows = ["# Verdict of the official scorers on testdata/invalid/<file> used as the SYSTEM file",
            "# against gold/<file> (see testdata/README.md). Produced by scripts/make_golden.py.",
            "# columns: file, script, verdict (\"accepted\" or the final exception line(s);",
            "# TAB, newline and invisible characters escaped as \\t, \\n, \\uXXXX)"]
    for path in sorted(INVALID.glob("*.conllu")):
        gold = INVALID / "gold" / path.name
        if not gold.is_file():
            raise GoldenError(f"invalid/{path.name}: no gold companion {gold.relative_to(PROJECT)}")
        rel_gold = f"gold/{path.name}"
        for script in (CONLL18, CONLL17):
            check = verdict(oracles, script, rel_gold, rel_gold)
            if check != "accepted":
                raise GoldenError(f"gold companion {rel_gold} is rejected by {script}: {check}")
        for script in (CONLL18, CONLL17):
            rows.append(f"{path.name}\t{script[:-len('_ud_eval.py')]}\t"
                        f"{verdict(oracles, script, rel_gold, path.name)}")
    write(INVALID / "expected-official.txt", ("\n".join(rows) + "\n").encode("utf-8"))


def validator_files(oracles: Path) -> None:
    print("validate/")
    udvalidate = find_validator(oracles)
    if udvalidate is None:
        raise GoldenError(f"no UD validator in {oracles / 'venv'}: run 'make oracles'")
    files = sorted(VALIDATE.glob("L*/*.conllu"))
    if not files:
        raise GoldenError(f"no files under {VALIDATE}")
    for path in files:
        level = str(max(2, int(path.parent.name[1:])))  # L1 cases are recorded at level 2
        first = path.read_text(encoding="utf-8").split("\n", 1)[0]
        lang = first.split("= ", 1)[1] if first.startswith("# validator_lang = ") else "ud"
        proc = subprocess.run([str(udvalidate), "--level", level, "--lang", lang, "--max-err", "0",
                               path.name], capture_output=True, cwd=path.parent)
        if b"Traceback" in proc.stderr:
            raise GoldenError(f"udvalidate crashed on {path}:\n{proc.stderr.decode()}")
        write(path.with_suffix(".udvalidate.txt"),
              f"exit {proc.returncode}\n".encode() + proc.stderr)


def main(argv: Optional[List[str]] = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv:
        print(__doc__.split("\n\n")[0], file=sys.stderr)
        print("usage: python scripts/make_golden.py", file=sys.stderr)
        return 2
    try:
        oracles = find_oracles()
        print(f"oracles: {oracles}")
        if not (GOLDEN / CLAS17_WEIGHTS).is_file():
            raise GoldenError(f"missing {GOLDEN / CLAS17_WEIGHTS}")
        cases = sorted(p for p in GOLDEN.iterdir() if (p / "gold.conllu").is_file())
        if not cases:
            raise GoldenError(f"no cases under {GOLDEN}")
        for case in cases:
            if not (case / "system.conllu").is_file():
                raise GoldenError(f"{case.name}: missing system.conllu")
            golden_case(oracles, case)
        invalid_files(oracles)
        validator_files(oracles)
    except GoldenError as exc:
        print(f"make_golden: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

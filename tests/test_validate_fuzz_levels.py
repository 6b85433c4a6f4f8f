"""Hostile input at levels 3-5: any bytes, and files built to hit the corners where udtools
itself crashes (UPOS or DEPREL '_' meeting a regex, a bare ``Translit``/``Lang`` in MISC, empty
node 1.10, a lone word with MISC Empty=Yes, flat:foreign under the root), give incidents and
never an exception; every output format stays well formed.  ``-m slow`` runs many more
examples."""
from __future__ import annotations

import io
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from conll_eval.cli import main
from conll_eval.validate import IMPLEMENTED_IDS, ValidationIncident, validate_lines

from test_validate import UD_DATA

#: levels 4-5 read udtools' language data: without it their examples skip, saying so, where
#: they had passed having checked nothing
needs_data = pytest.mark.skipif(
    UD_DATA is None, reason="levels 4-5 need udtools' language data (data/ in the oracle venv: "
    "make oracles), which is missing")
LEVELS = [3, pytest.param(4, marks=needs_data), pytest.param(5, marks=needs_data)]

VALUES = {
    1: ["x", "a b", "a\u00a0b", "_"],
    2: ["_", "x", "be", "a b"],
    3: ["_", "NOUN", "PUNCT", "PROPN", "AUX", "DET", "PRON", "X", "ADV", "VERB"],
    5: ["_", "ExtPos=ADV", "Typo=Yes", "Foreign=Yes", "PronType=Prs", "VerbForm=Fin",
        "Poss=Yes", "Polarity=Neg", "Foo=Bar", "Number=Plur,Sing"],
    7: ["_", "root", "det", "punct", "fixed", "goeswith", "flat:foreign", "orphan", "cop",
        "nsubj", "nsubj:outer", "obj", "obl", "advmod", "case", "mark", "cc", "conj", "foo"],
    8: ["_", "0:root", "1:orphan", "1.1:dep", "1.10:dep", "2:nmod:za", "1:root", "0:dep"],
    9: ["_", "Translit", "Lang", "Lang=qqx", "Lang=en", "Empty=Yes", "SpaceAfter=No",
        "Subject=Outer", "Translit=t|LTranslit=l"],
}
EXTRA_LINES = ["1.1\te\te\tNOUN\t_\t_\t_\t_\t1:dep\t_", "1.10\te\te\t_\t_\t_\t_\t_\t0:root\t_",
               "1-2\txy\t_\t_\t_\tTypo=Yes\t_\t_\t_\t_", "0.1\te\te\t_\t_\t_\t_\t_\t_\t_"]


def _sentence(rng: random.Random) -> str:
    n = rng.randint(1, 6)
    rows = []
    for i in range(1, n + 1):
        head = 0 if i == 1 else rng.randint(1, i - 1)  # a tree, so the checks run
        row = [str(i), "x", "x", "NOUN", "_", "_", str(head), "root" if head == 0 else "dep",
               "_", "_"]
        for col, values in VALUES.items():
            if rng.random() < 0.3:
                row[col] = rng.choice(values)
        rows.append("\t".join(row))
    if rng.random() < 0.3:
        rows.insert(rng.randint(0, len(rows)), rng.choice(EXTRA_LINES))
    return "# sent_id = s\n# text = x\n" + "\n".join(rows) + "\n\n"


def _check(text: str, level: int) -> None:
    n_lines = len(io.StringIO(text, newline=None).readlines()) + 1  # CR and CRLF end lines too
    options = {"lang": "en", "data_dir": UD_DATA} if level >= 4 else {}
    for inc in validate_lines([text], "f", level, **options):
        assert isinstance(inc, ValidationIncident)
        assert inc.testid in IMPLEMENTED_IDS and inc.level <= level
        assert inc.line is None or 1 <= inc.line <= n_lines, inc


@pytest.mark.parametrize("level", LEVELS)
@settings(max_examples=50, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.integers(0, 2 ** 32))
def test_corner_files_never_raise(level, seed):
    rng = random.Random(seed)
    _check("".join(_sentence(rng) for _ in range(rng.randint(1, 4))), level)


@pytest.mark.parametrize("level", LEVELS)
@settings(max_examples=34, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.binary(max_size=400))
def test_any_bytes_never_raise(level, data):
    _check(data.decode("utf-8", "replace"), level)


@pytest.mark.slow
@pytest.mark.ci_stage2(examples=300)
@pytest.mark.parametrize("level", LEVELS)
@settings(max_examples=1700, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.integers(0, 2 ** 32))
def test_many_corner_files_never_raise(level, seed):
    rng = random.Random(seed)
    _check("".join(_sentence(rng) for _ in range(rng.randint(1, 6))), level)


@pytest.mark.parametrize("level", [3, pytest.param(5, marks=needs_data)])
@pytest.mark.parametrize("fmt", ["text", "json", "udtools", "sarif", "github"])
def test_every_format_survives_corner_files(tmp_path, fmt, level):
    rng = random.Random(7)
    path = tmp_path / "c.conllu"
    path.write_text("".join(_sentence(rng) for _ in range(60)), encoding="utf-8")
    options = ["--level", "5", "--lang", "en", "--data", UD_DATA] if level == 5 else ["--level", "3"]
    out, err = io.StringIO(), io.StringIO()
    status = main(["validate", *options, "--format", fmt, str(path)], stdout=out, stderr=err)
    assert status in (0, 1), err.getvalue()
    assert "Traceback" not in err.getvalue() and "internal" not in err.getvalue()
    if fmt in ("json", "sarif"):
        json.loads(out.getvalue())

"""Level 3 of the validator (UD contents) against udtools' ``udvalidate --level 3 --lang ud``.

* real files: the complete incident lists (line, level, class, test id, severity, message) and
  the exit status agree on ``../shared/ud`` files (two in the default run, all 30 in the slow
  one), and ``--format udtools`` prints udvalidate's bytes (incidents, the explanation on the
  first occurrence, the summary);
* mutated files: real sentences of six languages (en, fi, he, tr, pt, zh) with relations, UPOS,
  features, heads, lemmas, MISC and enhanced graphs changed at random to break level-3 rules;
  the same lists and exit status wherever udtools does not crash (it crashes, e.g., on a word
  whose UPOS is '_' attached as det: those files only must not make us fail);
* the run-level checks: delayed feature errors come out where the first feature is seen, and
  ``edeps-identical-to-basic-trees`` once per run (per file with --per-file).

The per-id case files are in ``testdata/validate/L3`` (``test_validate.py`` runs them).
"""
from __future__ import annotations

import io
import random
import re
import subprocess

import pytest

from conll_eval.cli import main
from conll_eval.validate import LEVEL3_IDS, UD_RELATIONS, UPOS_TAGS, validate_file, validate_lines

from test_validate_parity import ORACLE, SHARED_UD, _Driver, needs_udvalidate

_UD_LINE = re.compile(r"^\[Line (-?\d+) Sent [^\]]*\]: \[L(\d) (\w+) ([a-z0-9-]+)\] (.*)$")
LANGUAGES = ("en_ewt", "fi_tdt", "he_htb", "tr_imst", "pt_bosque", "zh_gsd")


class Driver(_Driver):
    """udvalidate in one long-lived process (tests/udvalidate_driver.py), at level 3 unless
    asked otherwise."""

    def run(self, path, level=3, lang="ud") -> dict:
        return super().run(path, level, lang)


@pytest.fixture(scope="module")
def driver():
    d = Driver()
    yield d
    d.close()


def theirs(stderr: str):
    """(line, level, shown class, test id, message) of every incident udvalidate printed."""
    return [(int(m[1]), int(m[2]), m[3], m[4], m[5])
            for m in map(_UD_LINE.match, stderr.splitlines()) if m]


def ours(path, level=3):
    incidents = validate_file(str(path), level)
    shown = [(i.line, i.level, "WARNING" if i.severity == "warning" else i.klass, i.testid,
              i.message) for i in incidents]
    return shown, 1 if any(i.severity == "error" for i in incidents) else 0


def assert_same(driver, path, level=3):
    answer = driver.run(path, level)
    assert "Traceback" not in answer["stderr"], answer["stderr"][-2000:]
    found, status = ours(path, level)
    assert found == theirs(answer["stderr"])
    assert status == answer["rc"]
    return found


# ---------------------------------------------------------------------------------------------
# Real files

def _gold_files(all_files: bool):
    if not SHARED_UD.is_dir():
        return []
    files = sorted(SHARED_UD.glob("*/*.conllu"))
    return files if all_files else [SHARED_UD / "tr_imst" / "gold.conllu",
                                    SHARED_UD / "zh_gsd" / "sys-raw.conllu"]


@needs_udvalidate
@pytest.mark.parametrize("path", _gold_files(False), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_real_files_give_udvalidates_incidents(driver, path):
    found = assert_same(driver, path)
    assert any(f[1] == 3 for f in found)  # real treebanks carry level-3 incidents


@pytest.mark.slow
@pytest.mark.ci_stage2
@needs_udvalidate
@pytest.mark.parametrize("path", _gold_files(True), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_real_file_gives_udvalidates_incidents(driver, path):
    assert_same(driver, path)


@needs_udvalidate
@pytest.mark.parametrize("max_err", ["20", "0"])
def test_udtools_format_is_udvalidates_output_byte_for_byte(tmp_path, max_err):
    if not SHARED_UD.is_dir():
        pytest.skip("../shared/ud not present")
    path = tmp_path / "tr.conllu"  # a file name as udvalidate shows it (its basename)
    two_subjects = [_w(1, "a", "NOUN", 3, "nsubj"), _w(2, "b", "NOUN", 3, "nsubj"),
                    _w(3, "x", "VERB", 0, "root")]  # twice: explained once
    path.write_bytes((SHARED_UD / "tr_imst" / "gold.conllu").read_bytes()
                     + (_doc("extra1", *two_subjects) + _doc("extra2", *two_subjects)).encode())
    udvalidate = ORACLE[1]
    proc = subprocess.run([udvalidate, "--level", "3", "--lang", "ud", "--max-err", max_err,
                           str(path)], capture_output=True, text=True, encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    status = main(["validate", "--level", "3", "--max-err", max_err, "--format", "udtools",
                   str(path)], stdout=out, stderr=err)
    assert out.getvalue() + err.getvalue() == proc.stderr
    assert status == proc.returncode
    assert proc.stderr.count("\n\nOuter subjects are allowed") == 1  # explained once


# ---------------------------------------------------------------------------------------------
# Mutated files

RELATIONS = sorted(UD_RELATIONS) + ["flat:foreign", "nsubj:outer", "acl:relcl", "obl:tmod"]
FEATS = ["_", "PronType=Prs", "VerbForm=Fin", "Mood=Ind|VerbForm=Fin", "ExtPos=ADV",
         "Foreign=Yes", "Typo=Yes", "Polarity=Neg", "Poss=Yes", "Number=Sing", "ExtPos=PROPN"]
MISC = ["_", "Translit=tr", "Subject=Outer", "SpaceAfter=No", "Empty=Yes", "Gloss=g"]


def _sentences(name: str, limit: int = 400):
    text = (SHARED_UD / name / "gold.conllu").read_text(encoding="utf-8")
    return [block.split("\n") for block in text.split("\n\n") if block.strip()][:limit]


def _descendants(heads, word):
    out, stack = set(), [word]
    while stack:
        parent = stack.pop()
        for i, h in enumerate(heads, 1):
            if h == parent and i not in out:
                out.add(i)
                stack.append(i)
    return out


def _mutate_sentence(lines, rng: random.Random):
    """A sentence (lines) with 1-3 level-3 mutations; the tree stays a tree."""
    comments = [line for line in lines if line.startswith("#")]
    rows = [line.split("\t") for line in lines if line and not line.startswith("#")]
    words = [r for r in rows if r[0].isdigit()]
    if not words:
        return lines
    for _ in range(rng.randint(1, 3)):
        r = rng.choice(words)
        kind = rng.randrange(8)
        if kind == 0:
            r[7] = rng.choice(RELATIONS)
        elif kind == 1:
            r[3] = rng.choice(sorted(UPOS_TAGS))
        elif kind == 2:
            r[5] = rng.choice(FEATS)
        elif kind == 3:  # a new head that keeps the tree
            heads = [int(w[6]) for w in words]
            me = int(r[0])
            options = [h for h in range(1, len(words) + 1)
                       if h != me and h not in _descendants(heads, me)]
            if options and r[6] != "0":
                r[6] = str(rng.choice(options))
        elif kind == 4:
            r[2] = "_"
        elif kind == 5:
            r[9] = rng.choice(MISC)
        elif kind == 6:  # an enhanced graph: a copy of the tree, maybe with an orphan
            for w in words:
                w[8] = f"{w[6]}:{w[7]}"
            if rng.random() < 0.5:
                r[8] = f"{r[6]}:orphan" if r[6] != "0" else "0:root"
        else:  # goeswith/fixed/punct where they are often wrong
            r[7] = rng.choice(["goeswith", "fixed", "punct", "det", "case", "orphan"])
    if any(w[8] != "_" for w in words):  # all or none, as level 2 wants
        for w in words:
            if w[8] == "_":
                w[8] = f"{w[6]}:{w[7]}"
    return comments + ["\t".join(r) for r in rows]


def _mutated_file(seed: int) -> str:
    rng = random.Random(seed)
    name = LANGUAGES[seed % len(LANGUAGES)]
    pool = _sentences(name)
    picked = [_mutate_sentence(s, rng) if rng.random() < 0.7 else s
              for s in rng.sample(pool, min(25, len(pool)))]
    return "".join("\n".join(s) + "\n\n" for s in picked)


def _compare_mutated(driver, tmp_path, seeds):
    seen, compared = set(), 0
    for seed in seeds:
        path = tmp_path / f"m{seed}.conllu"
        path.write_text(_mutated_file(seed), encoding="utf-8")
        found, status = ours(path)  # never raises, crash or not
        answer = driver.run(path)
        if "Traceback" in answer["stderr"]:
            continue  # udtools crashed (e.g. UPOS '_' meets a regex); nothing to compare
        assert found == theirs(answer["stderr"]), f"seed {seed}"
        assert status == answer["rc"], f"seed {seed}"
        compared += 1
        seen.update(f[3] for f in found if f[3] in LEVEL3_IDS)
    return seen, compared


@needs_udvalidate
def test_mutated_files_give_udvalidates_incidents(driver, tmp_path):
    if not SHARED_UD.is_dir():
        pytest.skip("../shared/ud not present")
    seen, compared = _compare_mutated(driver, tmp_path, range(12))
    assert compared >= 6
    assert len(seen) >= 15, sorted(seen)  # the mutations reach many rules


@pytest.mark.slow
@pytest.mark.ci_stage2
@needs_udvalidate
def test_many_mutated_files_give_udvalidates_incidents(driver, tmp_path):
    if not SHARED_UD.is_dir():
        pytest.skip("../shared/ud not present")
    seen, compared = _compare_mutated(driver, tmp_path, range(12, 400))
    assert compared >= 200
    assert len(seen) >= 35, sorted(LEVEL3_IDS - seen)


# ---------------------------------------------------------------------------------------------
# Run-level state

def _w(i, form, upos, head, deprel, feats="_", deps="_"):
    return "\t".join([str(i), form, form, upos, "_", feats, str(head), deprel, deps, "_"])


def _doc(sid, *rows):
    text = " ".join(r.split("\t")[1] for r in rows)
    return f"# sent_id = {sid}\n# text = {text}\n" + "\n".join(rows) + "\n\n"


def test_feature_errors_wait_for_the_first_feature_and_come_out_there():
    text = (_doc("a", _w(1, "it", "PRON", 0, "root"))
            + _doc("b", _w(1, "x", "VERB", 0, "root"), _w(2, "y", "X", 1, "goeswith"))
            + _doc("c", _w(1, "z", "NOUN", 0, "root", feats="Number=Sing")))
    found = [(i.testid, i.line, i.sent_id) for i in validate_lines([text], "f", 3)]
    assert found == [("goeswith-lemma", 8, "b"),  # the lemma error is not delayed
                     ("pron-det-without-prontype", 3, "a"), ("goeswith-missing-typo", 7, "b")]
    # without any feature in the file they never come out
    assert [i.testid for i in validate_lines([text.replace("Number=Sing", "_")], "f", 3)] == \
        ["goeswith-lemma"]


@needs_udvalidate
def test_delayed_feature_errors_match_udvalidate(driver, tmp_path):
    path = tmp_path / "delayed.conllu"
    path.write_text(_doc("a", _w(1, "it", "PRON", 0, "root"))
                    + _doc("b", _w(1, "x", "VERB", 0, "root"), _w(2, "y", "X", 1, "goeswith"))
                    + _doc("c", _w(1, "that", "DET", 0, "root"))
                    + _doc("d", _w(1, "z", "NOUN", 0, "root", feats="Number=Sing")),
                    encoding="utf-8")
    assert len(assert_same(driver, path)) == 4


def _copy_graph(sid):
    return _doc(sid, _w(1, "x", "NOUN", 0, "root", deps="0:root"),
                _w(2, "y", "NOUN", 1, "dep", deps="1:dep"))


def test_identical_enhanced_graphs_are_reported_once_per_run(tmp_path):
    a, b = tmp_path / "a.conllu", tmp_path / "b.conllu"
    a.write_text(_copy_graph("a"), encoding="utf-8")
    b.write_text(_copy_graph("b"), encoding="utf-8")
    for args, expected in (([], 1), (["--per-file"], 2), (["--level", "2"], 0)):
        out = io.StringIO()
        status = main(["validate", "--level", "3", *args, str(a), str(b)], stdout=out,
                      stderr=io.StringIO())
        assert out.getvalue().count("edeps-identical-to-basic-trees") == expected, args
        assert status == (1 if expected else 0)
    # one real enhancement anywhere in the run and the graphs are no copies
    b.write_text(_copy_graph("b").replace("1:dep\t_", "1:nsubj\t_"), encoding="utf-8")
    assert main(["validate", "--level", "3", str(a), str(b)], stdout=io.StringIO(),
                stderr=io.StringIO()) == 0

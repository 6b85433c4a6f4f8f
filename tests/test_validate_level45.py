"""Levels 4-5 of the validator (the language's lists) against ``udvalidate --level 5 --lang XX``.

The language data is udtools' own ``data/`` folder, read from the oracle venv with ``--data``
(the tests skip without it).  Compared: the complete incident lists (line, level, class, test
id, severity, message) and exit status on the ``../shared/ud`` files of six languages (en, fi,
he, tr, pt, zh: gold files in the default run, the parser outputs too in the slow one), on
their sentences mutated to break the level-4/5 rules (features, relation subtypes, enhanced
relations, auxiliary and copula lemmas, words with spaces, ``Lang`` in MISC), and
``--format udtools`` byte for byte (the explanations included).  Also: --lang required from
level 4, and the message when the data is missing.
"""
from __future__ import annotations

import io
import random
import subprocess

import pytest

from conll_eval.cli import main
from conll_eval.validate import LEVEL4_IDS, LEVEL5_IDS, validate_file

from test_validate import UD_DATA
from test_validate_level3 import Driver, theirs, _descendants
from test_validate_parity import ORACLE, SHARED_UD, needs_udvalidate

needs_data = pytest.mark.skipif(
    UD_DATA is None, reason="levels 4-5 need udtools' language data (data/ in the oracle venv: "
    "make oracles), which is missing")
LANGS = {"en_ewt": "en", "fi_tdt": "fi", "he_htb": "he", "tr_imst": "tr", "pt_bosque": "pt",
         "zh_gsd": "zh"}


@pytest.fixture(scope="module")
def driver():
    d = Driver()
    yield d
    d.close()


def ours(path, lang, level=5):
    incidents = validate_file(str(path), level, lang=lang, data_dir=UD_DATA)
    shown = [(i.line, i.level, "WARNING" if i.severity == "warning" else i.klass, i.testid,
              i.message) for i in incidents]
    return shown, 1 if any(i.severity == "error" for i in incidents) else 0


def assert_same(driver, path, lang, level=5):
    answer = driver.run(path, level, lang)
    assert "Traceback" not in answer["stderr"], answer["stderr"][-2000:]
    found, status = ours(path, lang, level)
    assert found == theirs(answer["stderr"])
    assert status == answer["rc"]
    return found


def _files(kinds):
    if not SHARED_UD.is_dir():
        return []
    return [(SHARED_UD / name / f"{kind}.conllu", lang) for name, lang in LANGS.items()
            for kind in kinds]


@needs_udvalidate
@needs_data
@pytest.mark.parametrize("path, lang", _files(["gold"]), ids=lambda v: str(v)[-30:])
def test_gold_files_give_udvalidates_incidents_at_level_5(driver, path, lang):
    assert_same(driver, path, lang)


@pytest.mark.slow
@pytest.mark.ci_stage2
@needs_udvalidate
@needs_data
@pytest.mark.parametrize("path, lang", _files(["sys-gold-tok", "sys-raw"]),
                         ids=lambda v: str(v)[-36:])
@pytest.mark.parametrize("level", [4, 5])
def test_parser_outputs_give_udvalidates_incidents(driver, path, lang, level):
    assert_same(driver, path, lang, level)


@needs_udvalidate
@needs_data
def test_udtools_format_is_udvalidates_output_byte_for_byte(tmp_path):
    if not SHARED_UD.is_dir():
        pytest.skip("../shared/ud not present")
    path = tmp_path / "en.conllu"
    path.write_bytes((SHARED_UD / "en_ewt" / "sys-raw.conllu").read_bytes())
    proc = subprocess.run([ORACLE[1], "--level", "5", "--lang", "en", str(path)],
                          capture_output=True, text=True, encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    status = main(["validate", "--level", "5", "--lang", "en", "--data", UD_DATA, "--format",
                   "udtools", str(path)], stdout=out, stderr=err)
    assert out.getvalue() + err.getvalue() == proc.stderr
    assert status == proc.returncode
    assert "auxiliaries are currently documented in language [en]" in proc.stderr


# ---------------------------------------------------------------------------------------------
# Mutated files

FEATS = ["Foo=Bar", "Number=Foo", "Tense=Past", "Definite=Def", "Typo=Yes", "Foreign=Yes",
         "Register=Coll", "Case=Nom", "Number=Plur,Sing", "VerbForm=Fin"]
LEMMAS = ["be", "have", "olla", "zz", "ser", "是"]
SUBTYPES = ["nmod:poss", "nmod:foo", "obl:tmod", "acl:relcl", "compound:prt", "aux:pass",
            "nsubj:pass", "det:poss", "obl:arg", "flat:name"]
MISC = ["Lang=en", "Lang=qqx", "Lang=fi", "Translit=t", "LTranslit=l", "_"]


def _mutate_sentence(lines, rng: random.Random):
    comments = [line for line in lines if line.startswith("#")]
    rows = [line.split("\t") for line in lines if line and not line.startswith("#")]
    words = [r for r in rows if r[0].isdigit()]
    for _ in range(rng.randint(1, 3)):
        r = rng.choice(words)
        kind = rng.randrange(7)
        if kind == 0:
            r[5] = rng.choice(FEATS)
        elif kind == 1:
            r[7] = rng.choice(SUBTYPES) if r[6] != "0" else r[7]
        elif kind == 2:
            r[3], r[2] = "AUX", rng.choice(LEMMAS)
        elif kind == 3:  # a copula, attached where the tree allows it
            heads = [int(w[6]) for w in words]
            me = int(r[0])
            if r[6] != "0" and not _descendants(heads, me) - {me}:
                r[7], r[2] = "cop", rng.choice(LEMMAS)
        elif kind == 4:
            r[9] = rng.choice(MISC)
        elif kind == 5:  # a word with a space (the text is not kept in step: level 2 says so)
            r[1] = r[1] + " " + r[1]
        else:
            for w in words:
                w[8] = f"{w[6]}:{w[7]}"
            r[8] = f"{r[6]}:{r[7]}:{rng.choice(['za', 'na', 'of', 'gen'])}"
    if any(w[8] != "_" for w in words):  # all or none, as level 2 wants
        for w in words:
            if w[8] == "_":
                w[8] = f"{w[6]}:{w[7]}"
    return comments + ["\t".join(r) for r in rows]


def _mutated_file(seed: int):
    rng = random.Random(seed)
    name, lang = list(LANGS.items())[seed % len(LANGS)]
    text = (SHARED_UD / name / "gold.conllu").read_text(encoding="utf-8")
    pool = [b.split("\n") for b in text.split("\n\n") if b.strip()][:300]
    picked = [_mutate_sentence(s, rng) if rng.random() < 0.7 else s
              for s in rng.sample(pool, min(25, len(pool)))]
    return "".join("\n".join(s) + "\n\n" for s in picked), lang


def _compare(driver, tmp_path, seeds):
    seen, compared = set(), 0
    for seed in seeds:
        text, lang = _mutated_file(seed)
        path = tmp_path / f"m{seed}.conllu"
        path.write_text(text, encoding="utf-8")
        found, status = ours(path, lang)
        answer = driver.run(path, 5, lang)
        if "Traceback" in answer["stderr"]:
            continue
        assert found == theirs(answer["stderr"]), f"seed {seed}"
        assert status == answer["rc"], f"seed {seed}"
        compared += 1
        seen.update(f[3] for f in found if f[3] in LEVEL4_IDS | LEVEL5_IDS)
    return seen, compared


@needs_udvalidate
@needs_data
def test_mutated_files_give_udvalidates_incidents(driver, tmp_path):
    if not SHARED_UD.is_dir():
        pytest.skip("../shared/ud not present")
    seen, compared = _compare(driver, tmp_path, range(12))
    assert compared >= 8
    assert len(seen) >= 8, sorted(seen)


@pytest.mark.slow
@pytest.mark.ci_stage2
@needs_udvalidate
@needs_data
def test_many_mutated_files_give_udvalidates_incidents(driver, tmp_path):
    if not SHARED_UD.is_dir():
        pytest.skip("../shared/ud not present")
    seen, compared = _compare(driver, tmp_path, range(12, 300))
    assert compared >= 250
    assert len(seen) >= 10, sorted((LEVEL4_IDS | LEVEL5_IDS) - seen)


# ---------------------------------------------------------------------------------------------
# Command line

def test_missing_data_says_how_to_get_it(tmp_path, monkeypatch, capsys):
    import conll_eval.validate.langdata as langdata
    monkeypatch.setattr(langdata.importlib.util, "find_spec", lambda name: None)
    path = tmp_path / "x.conllu"
    path.write_text("# sent_id = a\n# text = x\n1\tx\tx\tNOUN\t_\t_\t0\troot\t_\t_\n\n")
    assert main(["validate", "--level", "4", "--lang", "en", str(path)]) == 2
    err = capsys.readouterr().err
    assert "pip install 'conll_eval[ud]'" in err and "--data DIR" in err
    assert main(["validate", "--level", "5", "--lang", "en", "--data", str(tmp_path),
                 str(path)]) == 2
    assert "not the UD validator's data folder (no upos.json)" in capsys.readouterr().err
    # below level 4 no data is needed
    assert main(["validate", "--level", "3", str(path)]) == 0


@needs_data
def test_lang_is_required_from_level_4(tmp_path, capsys):
    path = tmp_path / "x.conllu"
    path.write_text("# sent_id = a\n# text = x\n1\tx\tx\tNOUN\t_\tFoo=Bar\t0\troot\t_\t_\n\n")
    assert main(["validate", "--level", "4", "--data", UD_DATA, str(path)]) == 2
    assert "--lang" in capsys.readouterr().err
    assert main(["validate", "--level", "4", "--lang", "ud", "--data", UD_DATA, str(path)]) == 1
    assert "feature-unknown" in capsys.readouterr().out
    # --lang does not matter below level 4 (udtools checks the universal rules only)
    assert main(["validate", "--level", "3", "--lang", "xx", str(path)]) == 0

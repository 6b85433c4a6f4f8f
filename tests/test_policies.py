"""The older evaluations' policies as switches: ``--punct``, ``--deprel`` and the LA metric.

Hand-worked on pairs with tokenization and sentence-split mismatches; differential against
CoNLL-X ``eval.pl`` (from ../shared/tools/install-oracles.sh): with ``--punct unicode --deprel
full`` our LAS/UAS/LA counts are eval.pl's default ones on the CoNLL-X conversion of each
../shared/ud pair on gold tokenization (FORM spaces written ``_``: CoNLL-X fields hold none).
"""
import io
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from conll_eval.io.malt import conllu_to_conllx
from conll_eval.cli import main
from conll_eval.evaluate import Settings, evaluate, evaluate_files, load_pair
from oracles import oracle_dir  # tests/ is on sys.path (rootdir)

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "testdata" / "analyze-example"
SHARED_UD = ROOT.parent / "shared" / "ud"
TREEBANKS = sorted(p.name for p in SHARED_UD.iterdir() if (p / "sys-gold-tok.conllu").is_file()) \
    if SHARED_UD.is_dir() else []


def _counts(settings, gold=EXAMPLE / "gold.conllu", system=EXAMPLE / "system.conllu"):
    evaluation = evaluate_files(str(gold), str(system), settings=settings)
    return {m: (s.correct, s.gold, s.system) for m, s in evaluation.scores.items()}


def test_defaults_change_nothing():
    default = _counts(Settings())
    assert default == _counts(Settings(punct="include", deprel="universal"))
    assert default["LAS"] == (4, 8, 7)  # is, big, '.', '.' of 8 gold and 7 system words
    assert "punct:" not in Settings().signature() and "deprel:universal" in Settings().signature()


@pytest.mark.parametrize("policy", ["deprel", "upos", "unicode"])
def test_punctuation_left_out_per_side(policy):
    """Both '.' are punct (relation, UPOS and FORM alike): 6 gold and 5 system words remain,
    of which is and big are right; the word metrics do not change."""
    counts = _counts(Settings(punct=policy))
    assert counts["LAS"] == (2, 6, 5) and counts["UAS"] == (3, 6, 5)  # It: head right
    assert counts["UPOS"] == _counts(Settings())["UPOS"]
    assert f"punct:{policy}" in Settings(punct=policy).signature()


def test_punct_policies_differ_where_the_annotations_differ(write):
    """A gold '.' tagged SYM with relation punct, a system '-' tagged PUNCT with relation dep:
    deprel drops the gold word only, upos the system word only, unicode both."""
    gold = write("g.conllu", "1\tYes\tyes\tINTJ\t_\t_\t0\troot\t_\tSpaceAfter=No\n"
                             "2\t.\t.\tSYM\t_\t_\t1\tpunct\t_\t_\n"
                             "3\t-\t-\tSYM\t_\t_\t1\tdep\t_\t_\n\n")
    system = write("s.conllu", "1\tYes\tyes\tINTJ\t_\t_\t0\troot\t_\tSpaceAfter=No\n"
                               "2\t.\t.\tSYM\t_\t_\t1\tpunct\t_\t_\n"
                               "3\t-\t-\tPUNCT\t_\t_\t1\tdep\t_\t_\n\n")
    assert _counts(Settings(punct="deprel"), gold, system)["LAS"] == (2, 2, 2)
    assert _counts(Settings(punct="upos"), gold, system)["LAS"] == (3, 3, 2)
    assert _counts(Settings(punct="unicode"), gold, system)["LAS"] == (1, 1, 1)


def test_deprel_policies(write):
    gold = write("g.conllu", "1\tShe\tshe\tPRON\t_\t_\t2\tnsubj:pass\t_\t_\n"
                             "2\treads\tread\tVERB\t_\t_\t0\troot\t_\t_\n"
                             "3\tit\tit\tPRON\t_\t_\t2\tobj\t_\t_\n\n")
    system = write("s.conllu", "1\tShe\tshe\tPRON\t_\t_\t2\tnsubjpass\t_\t_\n"
                               "2\treads\tread\tVERB\t_\t_\t0\troot\t_\t_\n"
                               "3\tit\tit\tPRON\t_\t_\t2\tdobj\t_\t_\n\n")
    # universal: nsubj:pass -> nsubj vs nsubjpass; obj vs dobj: 1 of 3 (root)
    assert _counts(Settings(), gold, system)["LAS"][0] == 1
    assert _counts(Settings(deprel="full"), gold, system)["LAS"][0] == 1
    # v1: nsubjpass -> nsubj:pass -> nsubj, dobj -> obj: all three; CLAS sees them as content
    counts = _counts(Settings(deprel="v1"), gold, system)
    assert counts["LAS"][0] == 3 and counts["CLAS"] == (3, 3, 3)  # root is content too
    full = write("f.conllu", (ROOT / "testdata" / "analyze-example" / "gold.conllu").read_text()
                 .replace("\tnsubj\t", "\tnsubj:outer\t"))
    assert _counts(Settings(deprel="full"), full, EXAMPLE / "gold.conllu")["LAS"][0] == 7
    assert _counts(Settings(), full, EXAMPLE / "gold.conllu")["LAS"][0] == 8


def test_la_is_asked_for_by_name():
    stdout, stderr = io.StringIO(), io.StringIO()
    argv = [str(EXAMPLE / "gold.conllu"), str(EXAMPLE / "system.conllu"), "--metrics", "LAS,LA",
            "--punct", "deprel", "--signature"]
    assert main(argv, stdout, stderr) == 0, stderr.getvalue()
    rows = {line.split("|")[0].strip(): line for line in stdout.getvalue().splitlines()}
    # LA: the relation alone, punctuation left out: is, big, It? no (nsubj/expl) -> 2 of 6 / 5
    assert rows["LA"].split("|")[3].strip() == f"{100 * 4 / 11:.2f}"
    assert "punct:deprel" in stdout.getvalue()
    stdout = io.StringIO()
    assert main([str(EXAMPLE / "gold.conllu"), str(EXAMPLE / "system.conllu")], stdout, stderr) == 0
    assert "LA " not in stdout.getvalue()  # the official layout is untouched


# ---- eval.pl -------------------------------------------------------------------------------------

def _conllx(source: Path, target: Path) -> None:
    target.write_text(conllu_to_conllx(source.read_text(encoding="utf-8")), encoding="utf-8")


_EVAL_LINE = re.compile(r"(Labeled\s+attachment|Unlabeled attachment|Label accuracy) score:\s*"
                        r"(\d+) / (\d+)")
QUICK = {"en_ewt", "fr_gsd"}


@pytest.mark.skipif(not TREEBANKS, reason="../shared/ud is not present")
@pytest.mark.parametrize("treebank", [
    tb if tb in QUICK else pytest.param(tb, marks=[pytest.mark.slow, pytest.mark.ci_stage2])
    for tb in TREEBANKS])
def test_eval_pl_default_numbers(treebank, tmp_path):
    directory = oracle_dir()
    if directory is None or not (directory / "eval.pl").is_file() or shutil.which("perl") is None:
        pytest.skip("eval.pl (make oracles) or perl unavailable")
    gold_u, system_u = SHARED_UD / treebank / "gold.conllu", SHARED_UD / treebank / "sys-gold-tok.conllu"
    _conllx(gold_u, tmp_path / "gold.conll")
    _conllx(system_u, tmp_path / "system.conll")
    run = subprocess.run(["perl", str(directory / "eval.pl"), "-q", "-g", "gold.conll", "-s",
                          "system.conll"], cwd=tmp_path, capture_output=True, timeout=300)
    output = run.stdout.decode("utf-8", "replace")  # its warnings may cut UTF-8 sequences
    expected = {kind.split()[0]: (int(c), int(t)) for kind, c, t in _EVAL_LINE.findall(output)}
    assert set(expected) == {"Labeled", "Unlabeled", "Label"}, output
    # the same files for both (conll_eval reads CoNLL-X's 10 columns)
    gold, system = load_pair(str(tmp_path / "gold.conll"), str(tmp_path / "system.conll"))
    scores = evaluate(gold, system, Settings(punct="unicode", deprel="full",
                                             extra_metrics=("LA",))).scores
    assert (scores["LAS"].correct, scores["LAS"].gold) == expected["Labeled"]
    assert (scores["UAS"].correct, scores["UAS"].gold) == expected["Unlabeled"]
    assert (scores["LA"].correct, scores["LA"].gold) == expected["Label"]


# ---- exact match -------------------------------------------------------------------------------

def test_exact_match_by_hand():
    """Sentence 1 (New York is big.): New and York have no partner; sentence 2 (It rains.):
    It has the wrong relation and rains the wrong head, but It's head is right -- no sentence
    is all right for LAS or UAS (rains); for Sentences neither span matches; UPOS: sentence 2's
    words (PRON VERB PUNCT) are all right and no system word is extra there."""
    evaluation = evaluate_files(str(EXAMPLE / "gold.conllu"), str(EXAMPLE / "system.conllu"))
    exact = evaluation.exact_match()
    assert exact["LAS"] == exact["UAS"] == (0, 2)
    assert exact["UPOS"] == (1, 2)
    stdout, stderr = io.StringIO(), io.StringIO()
    assert main([str(EXAMPLE / "gold.conllu"), str(EXAMPLE / "gold.conllu"), "--exact-match"],
                stdout, stderr) == 0
    assert stdout.getvalue().splitlines()[-2:] == [
        "Exact match UAS: 100.00 % (2 of 2 sentences)", "Exact match LAS: 100.00 % (2 of 2 sentences)"]
    stdout = io.StringIO()
    assert main([str(EXAMPLE / "gold.conllu"), str(EXAMPLE / "system.conllu"), "--format", "json"],
                stdout, stderr) == 0
    import json
    record = json.loads(stdout.getvalue())["metrics"]["UPOS"]["exact_match"]
    assert record == {"sentences": 1, "of": 2, "share": 0.5}


# ---- numbers that mean nothing -----------------------------------------------------------------

def _unannotated_pair(write):
    """No XPOS in gold (every one _); the system has no lemmas."""
    gold = write("g.conllu", "1\tDogs\tdog\tNOUN\t_\t_\t2\tnsubj\t_\t_\n"
                             "2\tbark\tbark\tVERB\t_\t_\t0\troot\t_\t_\n\n")
    system = write("s.conllu", "1\tDogs\t_\tNOUN\tNNS\t_\t2\tnsubj\t_\t_\n"
                               "2\tbark\t_\tVERB\tVBP\t_\t0\troot\t_\t_\n\n")
    return gold, system


def test_unannotated_columns_are_said(write):
    gold, system = _unannotated_pair(write)
    notes = evaluate_files(gold, system).unannotated()
    assert notes["XPOS"] == "not annotated: every gold XPOS is _"
    assert notes["Lemmas"] == "the system predicts no LEMMA (every one is _)"
    # gold FEATS are all _ too; metrics that compare more than a tag get no note
    assert notes["UFeats"].startswith("not annotated")
    assert not {"AllTags", "BLEX", "MLAS", "UAS", "UPOS"} & set(notes)
    stdout, stderr = io.StringIO(), io.StringIO()
    assert main([gold, system, "-v"], stdout, stderr) == 0
    assert stderr.getvalue().count("\n") == 3  # one line per tag
    assert "conll_eval: note: the XPOS score means nothing: every gold XPOS is _ (not annotated)\n" \
        in stderr.getvalue()
    assert "XPOS       |" in stdout.getvalue()  # the official table is unchanged
    stderr = io.StringIO()
    assert main([gold, system], io.StringIO(), stderr) == 0
    assert stderr.getvalue() == ""  # the default lines show no tag metric
    stdout = io.StringIO()
    assert main([gold, system, "--format", "json"], stdout, io.StringIO()) == 0
    import json
    metrics = json.loads(stdout.getvalue())["metrics"]
    assert metrics["XPOS"]["annotated"] is False and metrics["LAS"]["annotated"] is True
    assert metrics["Lemmas"]["annotated"] is True and "predicts no LEMMA" in metrics["Lemmas"]["note"]


def test_suites_leave_unannotated_tags_out_of_the_averages(write, tmp_path):
    gold, system = _unannotated_pair(write)
    pairs = tmp_path / "pairs.txt"
    pairs.write_text(f"{gold} {system} bare\n{EXAMPLE / 'gold.conllu'} {EXAMPLE / 'system.conllu'} full\n")
    stdout, stderr = io.StringIO(), io.StringIO()
    assert main(["suite", "--pairs", str(pairs), "--metrics", "XPOS,LAS"], stdout, stderr) == 0
    text = stdout.getvalue()
    bare = next(line for line in text.splitlines() if line.startswith("bare"))
    assert bare.split()[1] == "n/a"
    assert "XPOS: averaged over 1 of 2 treebanks; not annotated in bare" in text
    stdout = io.StringIO()
    assert main(["suite", "--pairs", str(pairs), "--format", "json"], stdout, stderr) == 0
    import json
    document = json.loads(stdout.getvalue())
    assert document["macro"]["XPOS"]["treebanks"] == 1 and document["macro"]["LAS"]["treebanks"] == 2
    bare_record = next(t for t in document["treebanks"] if t["name"] == "bare")
    assert bare_record["metrics"]["XPOS"]["annotated"] is False

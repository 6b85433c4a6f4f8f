"""Issue 25, ``conll_eval tagger``: plain tagger output (HEAD ``_``) in the CoNLL-U mode (4), a
CoNLL-U file paired with a moot file refused (5), the argument order and ``--verbosity`` (17),
the shared output formats and canonical column names, n/a scores (16)."""
import csv
import io
import json
from pathlib import Path

import pytest

from conll_eval.cli import main
from conll_eval.cli.tagger_conllu import choose_mode
from conll_eval.errors import FormatError
from conll_eval.reader import load, load_text

DATA = Path(__file__).resolve().parent.parent / "testdata" / "tagger-conllu"
GOLD = str(DATA / "gold.conllu")


def _run(*argv):
    out, err = io.StringIO(), io.StringIO()
    code = main(["tagger", *map(str, argv)], out, err)
    return code, out.getvalue(), err.getvalue()


def _with_columns(path: Path, target: Path, **values) -> Path:
    """``path`` with HEAD/DEPREL/XPOS/... of every word line (not ranges) replaced."""
    index = {"xpos": 4, "feats": 5, "head": 6, "deprel": 7}
    lines = []
    for line in path.read_text(encoding="utf-8").split("\n"):
        fields = line.split("\t")
        if len(fields) == 10 and fields[0].isdigit():
            for name, value in values.items():
                fields[index[name]] = value
        lines.append("\t".join(fields))
    target.write_text("\n".join(lines), encoding="utf-8")
    return target


@pytest.fixture
def tagged(tmp_path):
    """The gold file as a tagger writes it: HEAD and DEPREL ``_``."""
    return _with_columns(DATA / "gold.conllu", tmp_path / "tagged.conllu", head="_", deprel="_")


# --- point 4: a tagging evaluation needs no tree -------------------------------------------

def test_tagger_output_without_heads_is_read_as_gold_and_as_system(tagged, tmp_path):
    for gold, system in ((GOLD, tagged), (tagged, GOLD), (tagged, tagged)):
        code, out, err = _run(gold, system, "--format", "json")
        assert code == 0, err
        upos = json.loads(out)["columns"]["UPOS"]
        assert (upos["correct"], upos["gold"], upos["system"]) == (10, 10, 10)
    roots = _with_columns(DATA / "gold.conllu", tmp_path / "roots.conllu", head="0")
    code, out, err = _run(GOLD, roots, "--format", "json")
    assert code == 0 and "multiple-roots" not in err
    # scoring still needs the tree: the same files fail there as before
    code = main([GOLD, str(tagged)], io.StringIO(), err := io.StringIO())
    assert code == 1 and "[invalid-head]" in err.getvalue()
    code = main([GOLD, str(roots)], io.StringIO(), err := io.StringIO())
    assert code == 1 and "[multiple-roots]" in err.getvalue()


@pytest.mark.parametrize("change, code_name", [
    (lambda t: t.replace("\t_\t_\t_\t_\n", "\tx\t_\t_\t_\n", 1), "invalid-head"),  # not _ nor a number
    (lambda t: t.replace("2\tcats\tcat\tNOUN\tNNS\tNumber=Plur\t_", "2\tcats\tcat", 1),
     "wrong-column-count"),
    (lambda t: t.replace("\n2\tcats", "\n3\tcats", 1), "unexpected-word-id"),
    (lambda t: t.replace("3-4\tdon't", "3-x\tdon't", 1), "invalid-mwt-id"),
    (lambda t: t.rstrip("\n") + "\n", "missing-final-blank-line"),
    (lambda t: t + "\n", "empty-sentence"),
])
def test_everything_but_the_tree_is_still_checked(tagged, tmp_path, change, code_name):
    broken = tmp_path / "broken.conllu"
    broken.write_text(change(tagged.read_text(encoding="utf-8")), encoding="utf-8")
    assert broken.read_text(encoding="utf-8") != tagged.read_text(encoding="utf-8")
    code, out, err = _run(GOLD, broken)
    assert code == 1 and f"[{code_name}]" in err and f"{broken}:" in err, err
    assert "Traceback" not in err


def test_reader_without_tree_checks():
    text = ("1\tThe\tthe\tDET\tDT\t_\t2\tdet\t_\t_\n2\tcat\tcat\tNOUN\tNN\t_\t0\troot\t_\t_\n\n"
            "1\tA\ta\tDET\tDT\t_\t_\t_\t_\t_\n2\tdog\tdog\tNOUN\tNN\t_\t_\t_\t_\t_\n\n"
            "1\tAn\ta\tDET\tDT\t_\t2\t_\t_\t_\n2\towl\towl\tNOUN\tNN\t_\t1\t_\t_\t_\n\n"
            "1-2\tdon't\t_\t_\t_\t_\t_\t_\t_\t_\n1\tdo\tdo\tAUX\t_\t_\t_\t_\t_\t_\n"
            "2\tn't\tnot\tPART\t_\t_\t_\t_\t_\t_\n\n")
    treebank = load_text(text, trees=False)
    # a valid tree keeps its heads; a sentence with HEAD _ or a cycle has none (-1)
    assert treebank.head.tolist() == [1, -1, -1, -1, -1, -1, -1, -1]
    with pytest.raises(FormatError) as error:
        load_text(text)
    assert error.value.code == "invalid-head"
    with pytest.raises(FormatError) as error:  # inside a multi-word token too
        load_text(text.replace("1\tdo\tdo\tAUX\t_\t_\t_", "1\tdo\tdo\tAUX\t_\t_\tz"), trees=False)
    assert error.value.code == "invalid-head" and error.value.location.line == 11


def test_regular_files_read_the_same_with_and_without_tree_checks():
    strict, loose = load(GOLD), load(GOLD, trees=False)
    assert strict.head.tolist() == loose.head.tolist()
    assert strict.strings("upos") == loose.strings("upos")


# --- point 5: one CoNLL-U and one moot file ------------------------------------------------

def _moot(path: Path) -> Path:
    path.write_text("The\tDET\ncats\tNOUN\n\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("moot_name, conllu_name", [("sys.wd", "gold.conllu"),
                                                    ("sys.conllu.txt", "gold.txt"),
                                                    ("system", "gold.tt")])
def test_mixed_pair_is_refused_naming_both_files(tmp_path, moot_name, conllu_name):
    moot = _moot(tmp_path / moot_name)
    conllu = tmp_path / conllu_name
    conllu.write_text((DATA / "gold.conllu").read_text(encoding="utf-8"), encoding="utf-8")
    for pair in ((conllu, moot), (moot, conllu)):
        code, out, err = _run(*pair)
        assert code == 1 and out == ""
        assert err.startswith("conll_eval tagger: error [mixed-formats] ")
        assert str(conllu) in err and str(moot) in err
        assert "looks like CoNLL-U" in err and "looks like a moot native file" in err
        assert "Disambig" not in err and err.count("\n") == 1


def test_a_compressed_conllu_file_is_looked_into(tmp_path):
    import gzip
    packed = tmp_path / "gold.gz"
    packed.write_bytes(gzip.compress((DATA / "gold.conllu").read_bytes()))
    code, _, err = _run(packed, _moot(tmp_path / "system.wd"))
    assert code == 1 and "[mixed-formats]" in err and f"{packed} looks like CoNLL-U" in err


def test_mode_by_content_then_by_name(tmp_path):
    conllu = tmp_path / "gold.txt"
    conllu.write_text((DATA / "gold.conllu").read_text(encoding="utf-8"), encoding="utf-8")
    other = tmp_path / "system.txt"
    other.write_text(conllu.read_text(encoding="utf-8"), encoding="utf-8")
    assert choose_mode([str(conllu), str(other)]).name == "conllu"  # both look like CoNLL-U
    code, out, err = _run(conllu, other)
    assert code == 0 and "Tagger evaluation" in out, err
    empty = tmp_path / "empty.wd"
    empty.write_text("")
    assert choose_mode([str(conllu), str(empty)]) == ("conllu", None)  # nothing to tell: goes along
    moot_a, moot_b = _moot(tmp_path / "a.wd"), _moot(tmp_path / "b.wd")
    assert choose_mode([str(moot_a), str(moot_b)]) == ("native", None)
    assert choose_mode([str(moot_a), "-"]) == ("native", None)
    assert choose_mode([GOLD, "-"]) == ("conllu", None)


# --- point 17: which file is gold, and the verbosity ----------------------------------------

def test_verbosity_never_takes_a_file(tagged):
    code, out, err = _run("-v", GOLD, tagged)
    assert code == 2 and out == ""
    assert "[usage]" in err and "verbosity level" in err and "-v 3 GOLD SYSTEM" in err
    for option in ("-v", "--verbosity"):
        code, out, err = _run(option, "3", GOLD, tagged)
        assert code == 0, err
        code, listed, _ = _run(option, "4", GOLD, tagged)
        assert len([line for line in listed.splitlines() if "\t" in line]) == 10


def test_moot_mode_keeps_mooteval_argv(tmp_path):
    """mooteval's getopt takes the next argument as the level: one file is left."""
    a, b = _moot(tmp_path / "a.wd"), _moot(tmp_path / "b.wd")
    code, out, err = _run("-v", a, b)
    assert code == 1 and "mooteval: you must specify two files to compare!" in err


def test_both_usages_say_which_file_is_gold():
    code, native, _ = _run("--help")
    assert code == 0
    assert "SYSTEM GOLD" in native and "GOLD SYSTEM" in native and "mixed-formats" in native
    code, conllu, _ = _run("--conllu", "--help")
    assert code == 0 and "GOLD SYSTEM" in conllu and "the gold file first" in conllu
    assert "--verbosity" in conllu and "HEAD and DEPREL may be _" in " ".join(conllu.split())


# --- point 16: formats, -o, --signature, canonical names ------------------------------------

SIGNATURE = "conll_eval:"


def test_text_has_the_signature_only_when_asked(tagged):
    _, out, _ = _run(GOLD, tagged)
    assert SIGNATURE not in out
    _, out, _ = _run(GOLD, tagged, "--signature")
    assert out.rstrip("\n").splitlines()[-1].startswith(SIGNATURE)


def test_tsv_csv_markdown(tagged):
    code, out, err = _run(GOLD, tagged, "--format", "tsv")
    assert code == 0 and err == ""
    rows = list(csv.reader(io.StringIO(out), delimiter="\t"))
    assert rows[0][:2] == ["column", "correct"] and rows[1][0] == "UPOS"
    assert "FEATS:Number" in [row[0] for row in rows]
    code, out, err = _run(GOLD, tagged, "--format", "tsv", "--signature")
    assert out.startswith("# " + SIGNATURE)
    code, out, err = _run(GOLD, tagged, "--format", "csv", "--signature")
    assert code == 0 and err.startswith(SIGNATURE)  # the CSV stays a plain table
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0][0] == "column" and rows[1][:2] == ["UPOS", "10"]
    code, out, err = _run(GOLD, tagged, "--format", "markdown", "--confusion")
    assert code == 0
    assert "| Column " in out and "| UPOS " in out and f"<sub>`{SIGNATURE}" in out


def test_table_formats_refuse_what_they_cannot_hold(tagged):
    code, _, err = _run(GOLD, tagged, "--format", "tsv", "-v", "3")
    assert code == 2 and "json" in err
    code, _, err = _run(GOLD, tagged, "--format", "csv", "--confusion")
    assert code == 2 and "--confusion" in err


def test_output_file_atomic_and_never_an_input(tagged, tmp_path):
    target = tmp_path / "out.md"
    code, out, err = _run(GOLD, tagged, "--format", "markdown", "-o", target)
    assert code == 0 and out == "" and "| UPOS " in target.read_text()
    before = tagged.read_bytes()
    code, _, err = _run(GOLD, tagged, "-o", tagged)
    assert code == 2 and "refusing to write" in err and tagged.read_bytes() == before


def test_columns_match_any_case_and_print_canonical(tagged):
    code, out, err = _run(GOLD, tagged, "--columns", "upos,Xpos,misc:SpaceAfter", "--format",
                          "tsv", "--signature")
    assert code == 0, err
    rows = list(csv.reader(io.StringIO(out.split("\n", 1)[1]), delimiter="\t"))
    assert [row[0] for row in rows[1:]] == ["UPOS", "XPOS", "MISC:SpaceAfter"]
    assert "columns:UPOS,XPOS,MISC:SpaceAfter" in out.split("\n", 1)[0]


# --- n/a: a number that means nothing ---------------------------------------------------------

def test_unannotated_gold_column_and_one_sided_feature_are_na(tmp_path, tagged):
    gold = _with_columns(tagged, tmp_path / "gold-no-xpos.conllu", xpos="_")
    code, out, err = _run(gold, tagged, "--format", "json")
    assert code == 0, err
    columns = json.loads(out)["columns"]
    xpos = columns["XPOS"]
    assert xpos["annotated"] is False
    assert [xpos[k] for k in ("precision", "recall", "f1", "accuracy")] == [None] * 4
    assert columns["UPOS"]["f1"] == 1.0 and "annotated" not in columns["UPOS"]
    code, out, _ = _run(gold, tagged)
    row = next(line for line in out.splitlines() if line.startswith("XPOS "))
    assert row.split()[-4:] == ["-"] * 4 and "Not annotated in the gold file" in out
    _, out, _ = _run(gold, tagged, "--format", "tsv")
    assert next(r for r in csv.reader(io.StringIO(out), delimiter="\t") if r[0] == "XPOS")[-4:] \
        == ["n/a"] * 4
    # a feature only the system has: no recall, no accuracy; its precision is 0 of 2
    system = _with_columns(tagged, tmp_path / "sys-feats.conllu", feats="Foo=Bar")
    _, out, _ = _run(tagged, system, "--format", "json")
    foo = json.loads(out)["columns"]["FEATS:Foo"]
    assert (foo["gold"], foo["recall"], foo["accuracy"], foo["precision"]) == (0, None, None, 0.0)


def test_conllu_mode_options_are_the_shared_ones():
    """--format, -o, --signature, --profile, --debug mean what they mean in every command
    (cli/common.SHARED_OPTIONS); -v is the one of its own (a level, as mooteval's)."""
    import argparse

    from conll_eval.cli.common import SHARED_OPTIONS
    from conll_eval.cli.tagger_conllu import build_tagger_conllu_parser
    actions = {a.dest: a for a in build_tagger_conllu_parser()._actions if a.option_strings}
    shared = [dest for dest in actions if dest in SHARED_OPTIONS]
    assert {"format", "output", "signature", "profile", "debug"} <= set(shared)
    for dest in shared:
        option = SHARED_OPTIONS[dest]
        expected = argparse.ArgumentParser().add_argument(*option.flags, dest=dest,
                                                          **option.keywords)
        for field in ("option_strings", "default", "choices", "type", "metavar"):
            assert getattr(actions[dest], field) == getattr(expected, field), (dest, field)
        assert actions[dest].help.startswith(option.help)  # as written, %% and all (argparse formats it)
    assert actions["verbosity"].option_strings == ["-v", "--verbosity"]

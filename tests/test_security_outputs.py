"""Issue 40 point 11: no output ever replaces a file the command read, and no output follows a
symbolic link already where it goes.

Each input kind a command reads is named as its output in turn (refused: exit 2, the input
unchanged); a hard link and a symbolic link to an input are that input; a link at an output's
name is replaced, its target never written (``-o FILE``, ``man -o DIR``, ``analyze --output
DIR``, ``suite --tira DIR``); a stream (``/dev/stdout``) is still written through.
"""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import run_cli

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "testdata" / "example"
ALIGNMENT = ROOT / "testdata" / "word-alignment"
REFUSED = "error [usage] refusing to write the output into the input file"


@pytest.fixture
def pair(tmp_path):
    """gold.conllu and system.conllu copied into tmp_path, and a weights file."""
    gold, system = tmp_path / "gold.conllu", tmp_path / "system.conllu"
    shutil.copy(EXAMPLE / "gold.conllu", gold)
    shutil.copy(EXAMPLE / "system.conllu", system)
    weights = tmp_path / "weights.txt"
    weights.write_text("nsubj 2\nobj 1\n", encoding="utf-8")
    return gold, system, weights


def _refused(result, victim: Path, before: bytes, name: str = "") -> None:
    code, out, err = result
    assert code == 2, err
    assert REFUSED in err and (name or str(victim)) in err
    assert victim.read_bytes() == before
    assert not [p for p in victim.parent.iterdir() if p.name.startswith(".conll_eval-")]


# ---- every kind of input is refused ---------------------------------------------------------

@pytest.mark.parametrize("command", ["score", "compare", "report", "suite"])
def test_weights_file_is_refused(pair, command):
    gold, system, weights = pair
    systems = (system, gold) if command == "compare" else (system,)
    before = weights.read_bytes()
    _refused(run_cli(command, "-w", weights, "-o", weights, gold, *systems), weights, before)


def test_gold_and_system_files_are_refused(pair):
    gold, system, _ = pair
    for victim in (gold, system):
        before = victim.read_bytes()
        _refused(run_cli("-o", victim, gold, system), victim, before)


def _pair_list(tmp_path: Path) -> Path:
    listing = tmp_path / "pairs.txt"
    listing.write_text("gold.conllu system.conllu en_x\n", encoding="utf-8")
    return listing


@pytest.mark.parametrize("command", ["suite", "breakdown"])
def test_pair_list_is_refused(pair, tmp_path, command):
    listing = _pair_list(tmp_path)
    before = listing.read_bytes()
    _refused(run_cli(command, "--pairs", listing, "-o", listing), listing, before)


def _metadata_dirs(tmp_path: Path):
    gold_dir, system_dir = tmp_path / "gold", tmp_path / "system"
    gold_dir.mkdir()
    system_dir.mkdir()
    shutil.copy(EXAMPLE / "gold.conllu", gold_dir / "en_x.conllu")
    shutil.copy(EXAMPLE / "system.conllu", system_dir / "en_x.conllu")
    shutil.copy(EXAMPLE / "system.conllu", system_dir / "unclaimed.conllu")
    metadata = gold_dir / "metadata.json"
    metadata.write_text(json.dumps([{"lcode": "en", "tcode": "x", "goldfile": "en_x.conllu",
                                     "outfile": "en_x.conllu"}]), encoding="utf-8")
    return gold_dir, system_dir, metadata


@pytest.mark.parametrize("command", ["suite", "breakdown"])
def test_metadata_found_in_the_gold_directory_is_refused(tmp_path, command):
    gold_dir, system_dir, metadata = _metadata_dirs(tmp_path)
    before = metadata.read_bytes()
    _refused(run_cli(command, gold_dir, system_dir, "-o", metadata), metadata, before)


def test_metadata_named_with_its_option_is_refused(tmp_path):
    gold_dir, system_dir, metadata = _metadata_dirs(tmp_path)
    named = tmp_path / "meta.json"
    shutil.copy(metadata, named)
    before = named.read_bytes()
    _refused(run_cli("suite", "--metadata", named, gold_dir, system_dir, "-o", named), named, before)


def test_a_directory_s_files_are_refused_the_unclaimed_too(tmp_path):
    gold_dir, system_dir, _ = _metadata_dirs(tmp_path)
    for victim in (gold_dir / "en_x.conllu", system_dir / "en_x.conllu",
                   system_dir / "unclaimed.conllu"):
        before = victim.read_bytes()
        _refused(run_cli("suite", gold_dir, system_dir, "-o", victim), victim, before)


def test_suite_html_is_refused_before_tira_writes(pair, tmp_path):
    gold, system, _ = pair
    tira = tmp_path / "tira"
    before = gold.read_bytes()
    _refused(run_cli("suite", "--tira", tira, "--html", gold, gold, system), gold, before)
    assert not tira.exists() or not list(tira.iterdir())


def test_tagger_train_file_is_refused(pair, tmp_path):
    gold, system, _ = pair
    train = tmp_path / "train.conllu"
    shutil.copy(gold, train)
    before = train.read_bytes()
    _refused(run_cli("tagger", gold, system, "--train", train, "-o", train), train, before)


def test_mooteval_rc_file_is_refused(tmp_path):
    first, second = tmp_path / "a.tt", tmp_path / "b.tt"
    first.write_text("a\tDET\n\n", encoding="utf-8")
    second.write_text("a\tDET\n\n", encoding="utf-8")
    rc = tmp_path / "opts.rc"
    rc.write_text("verbose=0\n", encoding="utf-8")
    before = rc.read_bytes()
    code, out, err = run_cli("tagger", "-c", rc, "-o", rc, first, second)
    assert code == 1  # mooteval's own message and status for an output it cannot open
    assert err == f"mooteval: open failed for output-file '{rc}': it is an input file " \
                  "(not overwritten)\n"
    assert rc.read_bytes() == before


@pytest.mark.parametrize("option", ["--source", "--target"])
def test_alignment_sentence_files_are_refused(tmp_path, option):
    victim = tmp_path / "sentences.txt"
    shutil.copy(ALIGNMENT / ("source.txt" if option == "--source" else "target.txt"), victim)
    other = ALIGNMENT / ("target.txt" if option == "--source" else "source.txt")
    before = victim.read_bytes()
    other_option = "--target" if option == "--source" else "--source"
    _refused(run_cli("alignment", option, victim, other_option, other, ALIGNMENT / "gold.naacl",
                     ALIGNMENT / "system.pharaoh", "-o", victim), victim, before)


def _analyze_files(tmp_path: Path):
    gold, system = tmp_path / "gold.conllu", tmp_path / "system.conllu"
    shutil.copy(EXAMPLE / "gold.conllu", gold)
    shutil.copy(EXAMPLE / "system.conllu", system)
    return gold, system


def test_malteval_evaluation_file_is_refused(tmp_path):
    gold, system = _analyze_files(tmp_path)
    evaluation = tmp_path / "eval.xml"
    shutil.copy(ROOT / "testdata" / "analyze" / "no-groupby.xml", evaluation)
    before = evaluation.read_bytes()
    _refused(run_cli("analyze", "-e", evaluation, "-s", system, "-g", gold,
                     "--output", evaluation), evaluation, before)


def test_malteval_tag_list_is_refused(tmp_path):
    gold, system = _analyze_files(tmp_path)
    tags = tmp_path / "postags.txt"
    tags.write_text("NOUN\nVERB\n", encoding="utf-8")
    before = tags.read_bytes()
    code, _, err = run_cli("analyze", "--postag", tags, "-s", system, "-g", gold, "--output", tags)
    assert code == 2 and REFUSED in err and tags.read_bytes() == before


# ---- the same file under another name -------------------------------------------------------

def test_a_hard_link_of_an_input_is_that_input(pair, tmp_path):
    gold, system, weights = pair
    alias = tmp_path / "alias.txt"
    os.link(weights, alias)
    before = weights.read_bytes()
    _refused(run_cli("-w", weights, "-o", alias, gold, system), weights, before)
    assert f"({alias} is the same file)" in run_cli("-w", weights, "-o", alias, gold, system)[2]


def test_a_symbolic_link_to_an_input_is_that_input(pair, tmp_path):
    gold, system, _ = pair
    link = tmp_path / "out.txt"
    link.symlink_to(gold.name)
    before = gold.read_bytes()
    _refused(run_cli("-o", link, gold, system), gold, before)
    assert link.is_symlink()


def test_another_spelling_of_an_input_path_is_that_input(pair, tmp_path, monkeypatch):
    gold, system, _ = pair
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path / "sub")
    before = gold.read_bytes()
    _refused(run_cli("-o", "../gold.conllu", gold, system), gold, before, "gold.conllu")


# ---- links already at an output's name ------------------------------------------------------

def test_output_over_a_link_replaces_the_link_not_its_target(pair, tmp_path):
    gold, system, _ = pair
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    victim = elsewhere / "precious.txt"
    victim.write_text("keep me\n", encoding="utf-8")
    link = tmp_path / "out.txt"
    link.symlink_to(victim)
    code, _, err = run_cli("-o", link, gold, system)
    assert code == 0, err
    assert victim.read_text(encoding="utf-8") == "keep me\n"
    assert not link.is_symlink() and "LAS F1 Score" in link.read_text(encoding="utf-8")


def test_output_over_a_dangling_link_never_creates_its_target(pair, tmp_path):
    gold, system, _ = pair
    target = tmp_path / "elsewhere" / "planted.txt"
    (tmp_path / "elsewhere").mkdir()
    link = tmp_path / "out.txt"
    link.symlink_to(target)
    assert run_cli("-o", link, gold, system)[0] == 0
    assert not target.exists() and link.is_file() and not link.is_symlink()


def test_man_pages_replace_links_already_in_the_directory(tmp_path):
    pages, elsewhere = tmp_path / "man1", tmp_path / "elsewhere"
    pages.mkdir()
    elsewhere.mkdir()
    victim = elsewhere / "victim"
    victim.write_text("keep me\n", encoding="utf-8")
    for name in ("conll_eval.1", "conll_eval-suite.1"):
        (pages / name).symlink_to(victim)
    (pages / "conll_eval-validate.1").symlink_to(elsewhere / "dangling")
    code, _, err = run_cli("man", "-o", pages)
    assert code == 0, err
    assert victim.read_text(encoding="utf-8") == "keep me\n"
    assert not (elsewhere / "dangling").exists()
    for name in ("conll_eval.1", "conll_eval-suite.1", "conll_eval-validate.1"):
        page = pages / name
        assert not page.is_symlink() and page.read_text(encoding="utf-8").startswith(".TH")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs")
def test_man_pages_replace_a_fifo_in_the_directory(tmp_path):
    """A FIFO at a page's name would block an ordinary open for ever: it is replaced."""
    pages = tmp_path / "man1"
    pages.mkdir()
    os.mkfifo(pages / "conll_eval.1")
    result = subprocess.run([sys.executable, "-m", "conll_eval", "man", "-o", str(pages)],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert (pages / "conll_eval.1").is_file()


def test_analyze_output_directory_replaces_links(tmp_path):
    gold, system = _analyze_files(tmp_path)
    results, elsewhere = tmp_path / "results", tmp_path / "elsewhere"
    results.mkdir()
    elsewhere.mkdir()
    victim = elsewhere / "victim"
    victim.write_text("keep me\n", encoding="utf-8")
    (results / "system.conllu.res").symlink_to(victim)
    code, _, err = run_cli("analyze", "-s", system, "-g", gold, "--output", results)
    assert code == 0, err
    written = results / "system.conllu.res"
    assert victim.read_text(encoding="utf-8") == "keep me\n"
    assert not written.is_symlink() and "Metric-> LAS" in written.read_text(encoding="utf-8")


def test_analyze_output_directory_refuses_a_link_to_an_input(tmp_path):
    gold, system = _analyze_files(tmp_path)
    results = tmp_path / "results"
    results.mkdir()
    (results / "system.conllu.res").symlink_to(gold)
    before = gold.read_bytes()
    code, _, err = run_cli("analyze", "-s", system, "-g", gold, "--output", results)
    assert code == 2 and REFUSED in err and gold.read_bytes() == before


def test_tira_directory_replaces_a_link(pair, tmp_path):
    gold, system, _ = pair
    tira, victim = tmp_path / "tira", tmp_path / "victim"
    tira.mkdir()
    victim.write_text("keep me\n", encoding="utf-8")
    (tira / "evaluation.prototext").symlink_to(victim)
    code, _, err = run_cli("suite", "--tira", tira, gold, system)
    assert code == 0, err
    assert victim.read_text(encoding="utf-8") == "keep me\n"
    assert "measure" in (tira / "evaluation.prototext").read_text(encoding="utf-8")


# ---- streams are still streams --------------------------------------------------------------

@pytest.mark.skipif(not os.path.exists("/dev/stdout"), reason="no /dev/stdout")
@pytest.mark.parametrize("redirect", ["pipe", "file"])
def test_dev_stdout_is_written_through(pair, tmp_path, redirect):
    """``-o /dev/stdout`` is the stream the caller redirected, a regular file included:
    never /dev/stdout's link replaced."""
    gold, system, _ = pair
    argv = [sys.executable, "-m", "conll_eval", "-o", "/dev/stdout", str(gold), str(system)]
    if redirect == "pipe":
        out = subprocess.run(argv, capture_output=True, text=True, timeout=120).stdout
    else:
        target = tmp_path / "redirected.txt"
        with open(target, "w", encoding="utf-8") as handle:
            subprocess.run(argv, stdout=handle, timeout=120, check=True)
        out = target.read_text(encoding="utf-8")
    assert "LAS F1 Score" in out
    assert os.path.islink("/dev/stdout") or os.path.exists("/dev/stdout")


def test_dev_null_read_and_written_is_no_clash(pair):
    gold, system, _ = pair
    code, _, err = run_cli("-w", os.devnull, "-o", os.devnull, gold, system)
    assert code == 0, err

"""Issue 32 part 6: shell completion (``conll_eval completion bash|zsh``) and man pages
(``conll_eval man``), both generated from the command line's parsers.

The bash script is sourced in a real bash and its function called as bash's completion
calls it (``COMP_WORDS``/``COMP_CWORD``); the zsh script is checked by zsh where zsh is
installed; the man pages are rendered by groff (and ``man -l``) where installed, else their
roff structure is checked.
"""
from __future__ import annotations

import argparse
import importlib
import io
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import List

import pytest

from conll_eval.cli import COMMANDS, main
from conll_eval.cli.completion import command_parser, command_names, command_specs
from conll_eval.cli.manpages import man_page, page_name

BASH = shutil.which("bash")
ZSH = shutil.which("zsh")
GROFF = shutil.which("groff")
MAN = shutil.which("man")
#: the commands whose options come from an argparse parser of the package
ARGPARSE_COMMANDS = [name for name in command_names() if command_parser(name) is not None]


def run(*argv: str):
    out, err = io.StringIO(), io.StringIO()
    status = main(list(argv), out, err)
    return status, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def bash_script(tmp_path_factory) -> Path:
    status, text, err = run("completion", "bash")
    assert status == 0, err
    path = tmp_path_factory.mktemp("completion") / "conll_eval.bash"
    path.write_text(text, encoding="utf-8")
    return path


def complete(script: Path, words: List[str], cwd: Path = None) -> List[str]:
    """What bash's completion offers for ``words`` (the last one is the word being completed),
    splitting at '=' as bash does (COMP_WORDBREAKS)."""
    split: List[str] = []
    for word in words:
        head, equals, tail = word.partition("=")
        split += [head, "=", tail] if equals else [word]
    program = (f"source {_quote(script)}\n"
               f"COMP_WORDS=({' '.join(_quote(word) for word in split)})\n"
               f"COMP_CWORD={len(split) - 1}\n"
               "_conll_eval\n"
               "printf '%s\\n' \"${COMPREPLY[@]}\"\n")
    result = subprocess.run([BASH, "--noprofile", "--norc", "-c", program], capture_output=True,
                            text=True, cwd=cwd, timeout=60)
    assert result.returncode == 0 and result.stderr == "", result.stderr
    return [line for line in result.stdout.split("\n") if line]


def _quote(text) -> str:
    return "'" + str(text).replace("'", "'\\''") + "'"


needs_bash = pytest.mark.skipif(BASH is None, reason="bash is not installed")


@needs_bash
def test_the_bash_script_is_valid_and_registers_conll_eval(bash_script):
    assert subprocess.run([BASH, "-n", str(bash_script)]).returncode == 0
    result = subprocess.run([BASH, "--noprofile", "--norc", "-c",
                             f"source {_quote(bash_script)}; complete -p conll_eval"],
                            capture_output=True, text=True)
    assert result.returncode == 0 and result.stdout.strip() == "complete -F _conll_eval conll_eval"


@needs_bash
def test_bash_completes_options_and_their_values(bash_script):
    assert complete(bash_script, ["conll_eval", "--pro"]) == ["--profile"]
    assert complete(bash_script, ["conll_eval", "--profile", "conll1"]) == ["conll17", "conll18"]
    assert complete(bash_script, ["conll_eval", "--profile=i"]) == ["iwpt"]
    assert complete(bash_script, ["conll_eval", "suite", "--format", "m"]) == ["markdown"]
    assert complete(bash_script, ["conll_eval", "validate", "--no-w"]) == ["--no-warnings"]
    assert complete(bash_script, ["conll_eval", "help", "su"]) == ["suite"]
    assert complete(bash_script, ["conll_eval", "completion", ""]) == ["bash", "zsh"]
    assert "--metrics" in complete(bash_script, ["conll_eval", "compare", "--"])


@needs_bash
def test_bash_completes_commands_and_files(bash_script, tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "x.conllu").write_text("", encoding="utf-8")
    (tmp_path / "summary.conllu").write_text("", encoding="utf-8")
    assert sorted(complete(bash_script, ["conll_eval", "su"], tmp_path)) == [
        "sub", "suite", "summary.conllu"]
    assert complete(bash_script, ["conll_eval", "suite", "gold", "su"], tmp_path) == [
        "sub", "summary.conllu"]
    assert complete(bash_script, ["conll_eval", "-o", "sub/"], tmp_path) == ["sub/x.conllu"]
    # a directory option offers directories only; an option whose value is free, nothing
    assert complete(bash_script, ["conll_eval", "validate", "--data", "s"], tmp_path) == ["sub"]
    assert complete(bash_script, ["conll_eval", "--fail-under", ""], tmp_path) == []


@needs_bash
@pytest.mark.parametrize("command", ARGPARSE_COMMANDS)
def test_bash_offers_every_option_of_every_parser(bash_script, command):
    parser = command_parser(command)
    flags = {flag for action in parser._actions for flag in action.option_strings
             if action.help != argparse.SUPPRESS}
    words = ["conll_eval"] + ([] if command == "score" else [command])
    assert flags <= set(complete(bash_script, words + ["-"]))


@needs_bash
def test_bash_offers_the_malteval_and_mooteval_options(bash_script):
    assert complete(bash_script, ["conll_eval", "analyze", "--Met"]) == ["--Metric"]
    assert complete(bash_script, ["conll_eval", "analyze", "--remove", "N"]) == [
        "None", "NonProjective"]
    assert complete(bash_script, ["conll_eval", "tagger", "--eval-f"]) == ["--eval-first"]
    assert complete(bash_script, ["conll_eval", "tagger", "--conl"]) == ["--conllu"]
    assert complete(bash_script, ["conll_eval", "tagger", "--input-e"]) == ["--input-encoding"]


@pytest.mark.skipif(ZSH is None, reason="zsh is not installed")
def test_the_zsh_script_is_valid_and_registers_conll_eval(tmp_path):
    status, text, err = run("completion", "zsh")
    assert status == 0, err
    assert text.startswith("#compdef conll_eval\n")
    script = tmp_path / "_conll_eval"
    script.write_text(text, encoding="utf-8")
    assert subprocess.run([ZSH, "-n", str(script)]).returncode == 0
    result = subprocess.run(
        [ZSH, "-f", "-c", f"autoload -U compinit; compinit -u -d {_quote(tmp_path / 'dump')}; "
                          f"source {_quote(script)}; print -r -- $_comps[conll_eval]; "
                          "print -r -- ${(k)functions[(I)_conll_eval_*]}"],
        capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and result.stderr == "", result.stderr
    registered, functions = result.stdout.split("\n")[:2]
    assert registered == "_conll_eval"
    assert set(functions.split()) == {f"_conll_eval_{name}" for name in command_names()}


def test_the_zsh_script_names_every_option():
    text = run("completion", "zsh")[1]
    for spec in command_specs().values():
        body = text.split(f"_conll_eval_{spec.name}() {{\n", 1)[1].split("\n}\n", 1)[0]
        for option in spec.options:
            for flag in option.flags:
                assert flag in body, (spec.name, flag)


def test_completion_can_be_written_to_a_file(tmp_path):
    target = tmp_path / "conll_eval.bash"
    assert run("completion", "bash", "-o", str(target))[:2] == (0, "")
    assert target.read_text(encoding="utf-8") == run("completion", "bash")[1]


def test_an_unknown_shell_is_a_usage_error():
    status, out, err = run("completion", "fish")
    assert status == 2 and out == ""
    assert err.startswith("conll_eval completion: error [usage]") and "'fish'" in err


def test_every_command_is_in_the_completion_and_the_usage():
    assert set(command_names()) == {"score", "help", *COMMANDS}
    assert all(spec.summary for spec in command_specs().values())
    usage = run()[1]
    assert "conll_eval completion bash|zsh" in usage and "conll_eval man [COMMAND]" in usage


# --- man pages ---------------------------------------------------------------------------

def _roff_flag(flag: str) -> str:
    return "\\fB" + flag.replace("-", "\\-") + "\\fR"


@pytest.mark.parametrize("command", [None, *ARGPARSE_COMMANDS])
def test_a_page_has_the_sections_and_every_option(command):
    page = man_page(command)
    name = page_name(command)[:-2]
    assert page.startswith(f'.TH "{name.upper()}" "1" ')
    sections = [line[4:] for line in page.split("\n") if line.startswith(".SH ")]
    assert sections[:4] == ["NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS" if command is None
                            else "ARGUMENTS" if sections[3] == "ARGUMENTS" else "OPTIONS"]
    assert "OPTIONS" in sections and sections[-1] == "SEE ALSO"
    assert page.split("\n")[2].startswith(name + " \\- ")
    parser = command_parser(command or "score")
    options = page.split(".SH OPTIONS\n", 1)[1].split(".SH ", 1)[0]
    for action in parser._actions:
        for flag in action.option_strings:
            assert _roff_flag(flag) in options, (command, flag)


@pytest.mark.parametrize("command", ["analyze", "tagger"])
def test_the_pages_of_commands_with_their_own_help_show_it(command):
    page = man_page(command)
    assert ".SH DESCRIPTION\n.nf\n" in page
    shown = re.sub(r"\\\[u([0-9A-F]{4,})\]", lambda match: chr(int(match.group(1), 16)), page)
    shown = shown.replace("\\-", "-").replace("\\&", "").replace("\\e", "\\")
    for line in run(command, "--help")[1].splitlines():
        assert line.rstrip() in shown.split("\n"), line


def test_the_tagger_page_has_the_options_of_the_conllu_mode():
    page = man_page("tagger")
    options = page.split('.SH "CONLL-U MODE OPTIONS"\n', 1)[1].split(".SH ", 1)[0]
    parser = importlib.import_module("conll_eval.cli.tagger_conllu").build_tagger_conllu_parser()
    flags = [flag for action in parser._actions for flag in action.option_strings]
    assert "--conllu" in flags
    for flag in flags:
        assert _roff_flag(flag) in options, flag


def test_man_writes_every_page_into_a_directory(tmp_path):
    target = tmp_path / "man1"
    status, out, err = run("man", "-o", str(target))
    assert (status, out, err) == (0, "", "")
    expected = {page_name(None)} | {page_name(name) for name in command_names()
                                    if name not in ("score", "help")}
    assert set(os.listdir(target)) == expected  # and no temporary file left behind
    assert (target / "conll_eval-suite.1").read_text(encoding="utf-8") == man_page("suite")
    assert run("man", "suite")[1] == man_page("suite")
    assert run("man")[1] == man_page(None)


def test_the_main_page_names_every_command_and_its_page():
    page = man_page(None)
    commands = page.split(".SH COMMANDS\n", 1)[1].split(".SH ", 1)[0]
    for name in command_names():
        assert f".TP\n\\fB{name}\\fR\n" in commands
    see_also = page.split(".SH SEE ALSO\n", 1)[1]
    assert see_also.count("(1)") == len(command_names()) - 2  # not score (this page), not help
    assert ".SH EXIT STATUS\n" in page


def test_an_unknown_page_is_a_usage_error():
    status, out, err = run("man", "nope")
    assert status == 2 and err.startswith("conll_eval man: error [usage]")


@pytest.mark.skipif(GROFF is None, reason="groff is not installed")
@pytest.mark.parametrize("command", [None, *command_names()[:-1]])
def test_groff_renders_every_page_without_a_warning(command):
    result = subprocess.run([GROFF, "-man", "-Tutf8", "-wall", "-z"], input=man_page(command),
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and result.stderr == "", result.stderr


@pytest.mark.skipif(MAN is None, reason="man is not installed")
def test_man_shows_a_page(tmp_path):
    path = tmp_path / "conll_eval-suite.1"
    path.write_text(man_page("suite"), encoding="utf-8")
    result = subprocess.run([MAN, "-l", str(path)], capture_output=True, text=True, timeout=60,
                            env=dict(os.environ, MANPAGER="cat", PAGER="cat", MANWIDTH="80"))
    assert result.returncode == 0, result.stderr
    text = result.stdout
    assert "CONLL_EVAL-SUITE(1)" in text and "SYNOPSIS" in text and "--fail-under" in text

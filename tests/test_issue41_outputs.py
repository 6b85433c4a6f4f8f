"""Issue 41, section 3: where output goes and what the docs say about it.

- 3.13: an ``-o`` path that cannot be written names the real cause (no file can be created in
  its directory, the file is not writable), never the temporary file's ``No such file or
  directory``;
- 3.12: ``conll_eval report`` refuses to pour its HTML into a terminal, as gzip does;
- 3.3: docs/compat.md gives the ``mooteval`` drop-in's arguments in its real order;
- 3.5: docs/install.md counts the Cython modules there are and quotes the numpy path's speed
  as docs/speed.md measures it.
"""
import errno
import io
import os
import re
import tempfile
from pathlib import Path

import pytest

from tests.helpers import run_cli

ROOT = Path(__file__).resolve().parent.parent
GOLD = ROOT / "testdata" / "example" / "gold.conllu"
SYSTEM = ROOT / "testdata" / "example" / "system.conllu"
AS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0


def failed_write(*argv):
    """Run ``conll_eval argv`` expecting exit 4; its one stderr line."""
    code, out, err = run_cli(*argv)
    assert code == 4, (code, err)
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("conll_eval: error [write-failed] "), err
    return lines[0]


# 3.13 ------------------------------------------------------------------------------------

@pytest.mark.skipif(not os.path.isfile("/proc/version"), reason="no /proc/version (not Linux)")
def test_proc_version_names_why_it_cannot_be_written():
    line = failed_write(GOLD, SYSTEM, "-o", "/proc/version")
    assert line == ("conll_eval: error [write-failed] cannot write the results to /proc/version: "
                    "it is not writable, and no file can be created in /proc to replace it "
                    "(its file system takes no new files)")


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="no /proc (not Linux)")
def test_new_file_in_proc_names_the_directory_not_a_missing_file():
    line = failed_write(GOLD, SYSTEM, "-o", "/proc/conll_eval-issue41.txt")
    assert "No such file or directory" not in line and ".conll_eval-" not in line
    assert line.endswith("cannot write the results to /proc/conll_eval-issue41.txt: no file can "
                         "be created in /proc (its file system takes no new files)")


@pytest.mark.skipif(AS_ROOT, reason="root may create files in a directory of mode 0500")
def test_read_only_directory_says_it_allows_no_new_file(tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    kept = locked / "kept.txt"
    kept.write_text("old\n")
    locked.chmod(0o500)
    try:
        new = failed_write(GOLD, SYSTEM, "-o", locked / "new.txt")
        existing = failed_write(GOLD, SYSTEM, "-o", kept)
    finally:
        locked.chmod(0o700)
    assert new.endswith(f"cannot write the results to {locked}/new.txt: no file can be created in "
                        f"{locked} (the directory does not allow creating files: Permission denied)")
    assert existing.endswith(f"cannot write the results to {kept}: no file can be created in "
                             f"{locked} to replace it (the directory does not allow creating "
                             "files: Permission denied)")  # kept.txt is writable: no word on it
    assert kept.read_text() == "old\n"


def refusing_mkstemp(number):
    """A stand-in for tempfile.mkstemp failing as a directory without write permission does
    (as root no real directory refuses: this runs the same branch everywhere)."""
    def mkstemp(*args, **kwargs):
        raise OSError(number, os.strerror(number))
    return mkstemp


def test_denied_directory_in_the_current_directory_and_not_writable_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    frozen = tmp_path / "frozen.txt"
    frozen.write_text("old\n")
    frozen.chmod(0o444)
    monkeypatch.setattr(tempfile, "mkstemp", refusing_mkstemp(errno.EACCES))
    new = failed_write(GOLD, SYSTEM, "-o", "new.txt")
    assert new.endswith("cannot write the results to new.txt: no file can be created in the "
                        "current directory (the directory does not allow creating files: "
                        "Permission denied)")
    old = failed_write(GOLD, SYSTEM, "-o", "frozen.txt")
    assert old.endswith("cannot write the results to frozen.txt: it is not writable, and no file "
                        "can be created in the current directory to replace it (the directory "
                        "does not allow creating files: Permission denied)")
    assert frozen.read_text() == "old\n" and not (tmp_path / "new.txt").exists()


def test_other_creation_failures_keep_the_systems_words(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "mkstemp", refusing_mkstemp(errno.EROFS))
    line = failed_write(GOLD, SYSTEM, "-o", tmp_path / "out.txt")
    assert line.endswith(f"no file can be created in {tmp_path} (Read-only file system)")


def test_a_writable_place_is_still_written(tmp_path):
    code, out, err = run_cli(GOLD, SYSTEM, "-o", tmp_path / "out.txt")
    assert code == 0 and out == "" and "LAS F1 Score" in (tmp_path / "out.txt").read_text()


# 3.12 ------------------------------------------------------------------------------------

class Terminal(io.StringIO):
    """A stdout that says it is a terminal."""

    def isatty(self):
        return True


def run_report(*argv, stdout=None):
    from conll_eval.cli import main
    out, err = stdout if stdout is not None else io.StringIO(), io.StringIO()
    code = main(["report", *map(str, argv)], stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_report_refuses_a_terminal():
    code, out, err = run_report(GOLD, SYSTEM, stdout=Terminal())
    assert (code, out) == (2, "")
    assert err == ("conll_eval report: error [usage] the HTML report is not written to a "
                   "terminal; use -o FILE or redirect it\n")


def test_report_refuses_a_terminal_before_reading_anything(tmp_path):
    code, _, err = run_report(tmp_path / "missing.conllu", SYSTEM, stdout=Terminal())
    assert code == 2 and "not written to a terminal" in err


def test_report_to_a_file_from_a_terminal_and_to_a_pipe(tmp_path):
    page = tmp_path / "report.html"
    code, out, err = run_report(GOLD, SYSTEM, "-o", page, stdout=Terminal())
    assert (code, out, err) == (0, "", "")
    assert page.read_text().lstrip().lower().startswith("<!doctype html")
    code, out, err = run_report(GOLD, SYSTEM)  # a StringIO: no terminal, as a pipe
    assert code == 0 and err == ""
    assert out.lstrip().lower().startswith("<!doctype html")


# 3.3 and 3.5: the docs ---------------------------------------------------------------------

def test_compat_gives_mooteval_arguments_in_its_order():
    row = next(line for line in (ROOT / "docs" / "compat.md").read_text().splitlines()
               if line.startswith("| `mooteval "))
    assert row.startswith("| `mooteval [OPTIONS] SYSTEM GOLD`")
    code, out, _ = run_cli("tagger", "--help")
    assert code == 0 and re.search(r"\[OPTIONS\]\.\.\. SYSTEM GOLD +moot files: the tagger's "
                                   r"output first", out)


NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7}


def test_install_counts_the_cython_modules_there_are():
    text = " ".join((ROOT / "docs" / "install.md").read_text().split())
    counted = re.search(r"(\w+) small Cython modules", text)
    modules = sorted(p.stem for p in (ROOT / "conll_eval").glob("_c*.pyx"))
    assert counted and NUMBERS[counted.group(1)] == len(modules)
    for name in modules:
        assert f"`{name}`" in text


def test_install_quotes_the_numpy_path_as_speed_measures_it():
    """install.md's scoring ratio comes from speed.md's latest table (the "after" rows:
    numpy path s over conll_eval s), rounded as install.md prints it (one decimal)."""
    speed = (ROOT / "docs" / "speed.md").read_text()
    ratios = {}
    pair = None
    for line in speed.split("| pair | words |", 1)[1].split("\n\n", 1)[0].splitlines()[2:]:
        cells = [c.strip().strip("*") for c in line.strip("|").split("|")]
        pair = cells[0] or pair
        if cells[2] == "after":
            ratios[pair] = float(cells[6]) / float(cells[5])
    install = " ".join((ROOT / "docs" / "install.md").read_text().split())
    quoted = re.search(r"scoring ([\d.]+)x \(100k words\) to ([\d.]+)x \(1M\)", install)
    assert quoted, "install.md quotes no scoring ratio"
    assert float(quoted.group(1)) == round(ratios["100k"], 1)
    assert float(quoted.group(2)) == round(ratios["1m"], 1)

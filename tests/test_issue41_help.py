"""Issue 41, 3.14: ``conll_eval help --help`` is help, not a usage error; ``--help`` names every
command (from the table the dispatch is made of); breakdown's table numbers say they are the
paper's; the docs stand on their own in a clone (no pointer into ``../shared`` unexplained)."""
import io
import re
from pathlib import Path

import pytest

from conll_eval.cli import COMMANDS, main
from conll_eval.cli.commands import SUBCOMMANDS

ROOT = Path(__file__).resolve().parent.parent


def _run(argv):
    out, err = io.StringIO(), io.StringIO()
    status = main(argv, out, err)
    return status, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("argv", [["help", "--help"], ["help", "-h"], ["help", "help"]])
def test_help_has_help_of_its_own(argv):
    status, out, err = _run(argv)
    assert (status, err) == (0, "")
    assert out.startswith("usage: conll_eval help [COMMAND]\n")
    named = set(re.findall(r"[a-z]+", out.split("one of:", 1)[1]))
    assert {"score", "help", *COMMANDS} <= named


def test_help_of_an_unknown_command_is_still_a_usage_error():
    status, out, err = _run(["help", "nope"])
    assert status == 2 and out == "" and "choose from" in err and err.rstrip().endswith("help")


def test_the_dispatch_and_the_list_share_one_table():
    assert list(COMMANDS) == list(SUBCOMMANDS)


@pytest.mark.parametrize("width", ["60", "100"])
def test_help_names_every_command(monkeypatch, width):
    """The epilog of ``conll_eval --help`` names each command, whatever the width it is wrapped
    at (a name is never cut)."""
    monkeypatch.setenv("COLUMNS", width)
    status, out, _ = _run(["--help"])
    epilog = " ".join(out.split("\n\n")[-1].split())
    assert status == 0 and epilog.startswith("Many treebanks")
    listed = epilog.split("Every command:", 1)[1]
    for name in ("score", *COMMANDS, "help"):
        assert re.search(rf"\b{name}\b", listed), name


def test_breakdown_tables_say_whose_numbers_they_are(testdata):
    pair = testdata / "golden" / "mwt-resplit"
    for fmt, prefix in (("text", ""), ("markdown", "**")):
        status, out, _ = _run(["breakdown", "--format", fmt, str(pair / "gold.conllu"),
                               str(pair / "system.conllu")])
        assert status == 0
        assert out.startswith(f"{prefix}Table 2: LAS by relation group (Table 2 of Nivre and Fang "
                              "2017, numbered as there: their Table 1 lists the groups)")
        assert f"\n{prefix}Table 3: LAS, CLAS, CLAS-LAS (Table 3 of Nivre and Fang 2017)" in out
    page = (ROOT / "docs" / "breakdown.md").read_text(encoding="utf-8")
    assert "no Table 1 here" in page


def _doc_pages():
    return [*sorted((ROOT / "docs").glob("*.md")), ROOT / "README.md", ROOT / "CHANGELOG.md"]


def test_docs_point_to_no_design_file_outside_the_repository():
    for page in _doc_pages():
        assert "ARCHITECTURE" not in page.read_text(encoding="utf-8"), page.name
    assert "ARCHITECTURE" not in (ROOT / "conll_eval" / "suite.py").read_text(encoding="utf-8")


def test_every_page_that_names_the_shared_data_says_what_it_is():
    """A clone has no ``../shared``: a page naming it links, at its first mention, to the
    development page's section on that data (which says what it holds and that tests skip
    without it), or (the README) names that page beside it; the HTML comments that steer the
    docs test do not count."""
    section = "## Reference data beside the clone"
    assert section in (ROOT / "docs" / "development.md").read_text(encoding="utf-8")
    for page in _doc_pages():
        if page.name == "development.md":
            continue
        text = re.sub(r"<!--.*?-->", "", page.read_text(encoding="utf-8"))
        first = text.find("../shared")
        if first >= 0:  # a link to the section, or the development page named beside it
            linked = text[first - 2:].startswith("[`../shared") and text[first:].split(")", 1)[0] \
                .endswith("(development.md#reference-data-beside-the-clone")
            assert linked or "(docs/development.md)" in text[first:first + 80], page.name

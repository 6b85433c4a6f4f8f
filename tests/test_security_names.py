"""Issue 40, points 1, 2 and 10: names that inject.

A file or directory name is text a stranger chose (a treebank pull request, a shared-task
upload), and conll_eval prints names everywhere: tables, notes, JSON, CSV, Markdown for pull
request comments, HTML, SARIF, GitHub annotations.  Whatever the name holds (a newline and a
workflow command after it, a carriage return, terminal escapes, a bidi override, HTML,
Markdown links and blocks, backticks, pipes, quotes, a byte that is not UTF-8), every output
keeps its own shape: no raw control character, newline or undecodable byte from the name,
valid JSON/CSV/SARIF/UTF-8, no live ``<img`` in HTML or Markdown, exit code 0 or 1.

The fuzz runs every subcommand in every output format it has on files and directories
so named (a fixed set of names; the whole file runs in a few seconds).
"""
import csv
import io
import json
import os
import re
import shutil
import subprocess
import sys

import pytest

from conll_eval.cli import main
from conll_eval.errors import printable
from conll_eval.report.escape import json_text, markdown_text
from conll_eval.report.tables import delimited, markdown_table

from helpers import document, sentence

# ---------------------------------------------------------------------------------------------
# The names

#: one name per trick; each becomes a gold file, a system file, a system directory, a
#: treebank code in metadata.json and a name in a --pairs list
HOSTILE = {
    "newline": "a\n::add-mask::X",
    "cr": "b\r::warning::y",
    "esc": "c\x1b[31mred",
    "bidi": "d\u202eevil",
    "html": "<img src=x onerror=alert(1)>",
    "link": "[a](javascript:x)",
    "backticks": "t`ick``s",
    "pipe": "p|ipe",
    "markdown": "*_#>star",
    "block": "# head",
    "quotes": "q\"uo'te",
    "non_utf8": os.fsdecode(b"n\xffbyte"),
}

GOLD = document(sentence("1 The 2 det DET", "2 cat 0 root NOUN"),
                sentence("1 Dogs 2 nsubj NOUN", "2 bark 0 root VERB"))
SYSTEM = document(sentence("1 The 2 det DET", "2 cat 0 root NOUN"),
                  sentence("1 Dogs 2 obj NOUN", "2 bark 0 root VERB"))
CYCLE = document(sentence("1 The 2 det DET", "2 cat 1 root NOUN"),
                 sentence("1 Dogs 2 nsubj NOUN", "2 bark 0 root VERB"))
MOOT_GOLD = "The\tDET\ncat\tNOUN\n\nDogs\tNOUN\nbark\tVERB\n"
MOOT_SYSTEM = "The\tDET\ncat\tVERB\n\nDogs\tNOUN\nbark\tVERB\n"
ALIGNMENT_GOLD = "1 1 1 S\n1 2 2 S\n2 1 1 S\n2 2 2 P\n"
ALIGNMENT_SYSTEM = "1 1 1 S\n1 2 1 S\n2 1 1 S\n2 2 2 S\n"


def _write(path: str, text: str) -> str:
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)
    return path


def _utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


class Tree:
    """The files of one hostile ``name`` under ``root``."""

    def __init__(self, root: str, name: str):
        self.root = root
        self.name = name
        join = os.path.join
        self.gold_dir = join(root, "gold")
        self.system_dir = join(root, "sys" + name)
        self.other_dir = join(root, "alt" + name)
        for directory in (self.gold_dir, self.system_dir, self.other_dir):
            os.makedirs(directory)
        self.gold = _write(join(self.gold_dir, name + ".conllu"), GOLD)
        _write(join(self.gold_dir, "en_x-" + name + ".conllu"), GOLD)  # missing: a near name
        _write(join(self.gold_dir, "fr_" + name + ".conllu"), GOLD)  # a cycle in the system
        for directory in (self.system_dir, self.other_dir):
            _write(join(directory, name + ".conllu"), SYSTEM)
            _write(join(directory, "en_y-" + name + ".conllu"), SYSTEM)  # unpaired, "did you mean"
            _write(join(directory, "fr_" + name + ".conllu"), CYCLE)
        self.system = join(self.system_dir, name + ".conllu")
        self.other = join(self.other_dir, name + ".conllu")
        self.broken = join(self.system_dir, "fr_" + name + ".conllu")
        # metadata.json and a pair list hold the name where JSON and UTF-8 can
        code = name if _utf8(name) else "zz"
        self.meta_dir = join(root, "meta")
        os.makedirs(self.meta_dir)
        shutil.copy(self.gold, join(self.meta_dir, "g.conllu"))
        _write(join(self.meta_dir, "metadata.json"), json.dumps(
            [{"lcode": code, "tcode": code, "goldfile": "g.conllu", "outfile": name + ".conllu"}
             if _utf8(name) else
             {"lcode": "xx", "tcode": "yy", "goldfile": "g.conllu", "outfile": "missing.conllu"}]))
        # a pair list is whitespace-separated with # comments: the name as far as it can go
        listed = "".join(code.split()).split("#")[0] or "zz"
        shutil.copy(self.system, join(self.meta_dir, "s.conllu"))
        self.pairs = _write(join(self.meta_dir, "pairs.txt"), f"g.conllu s.conllu {listed}\n")
        self.moot_gold = _write(join(root, name + ".tt"), MOOT_GOLD)
        self.moot_system = _write(join(root, "sys" + name + ".tt"), MOOT_SYSTEM)
        self.alignment_gold = _write(join(root, name + ".naacl"), ALIGNMENT_GOLD)
        self.alignment_system = _write(join(root, "sys" + name + ".naacl"), ALIGNMENT_SYSTEM)
        self.alignment_other = _write(join(root, "alt" + name + ".naacl"), ALIGNMENT_SYSTEM)
        self.out = join(root, "out")
        os.makedirs(self.out)


# ---------------------------------------------------------------------------------------------
# Every subcommand in every format

TABLE_FORMATS = ("text", "json", "tsv", "csv", "markdown")


def _invocations(t: Tree):
    """(label, argv, format of the output, file the output goes to or None for stdout)."""
    out = lambda name: os.path.join(t.out, name)  # noqa: E731 - a short builder
    calls = []
    for fmt in TABLE_FORMATS:
        calls += [
            (f"score {fmt}", [t.gold, t.system, "--format", fmt], fmt, None),
            (f"score broken {fmt}", [t.gold, t.broken, "--format", fmt], fmt, None),
            (f"suite {fmt}", ["suite", t.gold_dir, t.system_dir, "--format", fmt, "-j", "1"],
             fmt, None),
            (f"suite leaderboard {fmt}", ["suite", t.gold_dir, t.system_dir, t.other_dir,
                                          "--format", fmt, "-j", "1", "--by-language"], fmt, None),
            (f"suite significance {fmt}", ["suite", t.gold_dir, t.system_dir, t.other_dir,
                                           "--format", fmt, "-j", "1", "--significance",
                                           "--resamples", "20"], fmt, None),
            (f"suite metadata {fmt}", ["suite", t.meta_dir, t.system_dir, "--format", fmt,
                                       "-j", "1", "--by-language", "--coarse"], fmt, None),
            (f"suite pairs {fmt}", ["suite", "--pairs", t.pairs, "--format", fmt, "-j", "1"],
             fmt, None),
            (f"compare {fmt}", ["compare", t.gold, t.system, t.other, "--format", fmt,
                                "--resamples", "20"], fmt, None),
            (f"breakdown {fmt}", ["breakdown", t.gold, t.system, "--format", fmt], fmt, None),
            (f"breakdown suite {fmt}", ["breakdown", t.gold_dir, t.system_dir, "--format", fmt,
                                        "--errors"], fmt, None),
            (f"tagger conllu {fmt}", ["tagger", t.gold, t.system, "--format", fmt]
             + (["-v", "3"] if fmt in ("text", "json") else []), fmt, None),
            (f"alignment {fmt}", ["alignment", t.alignment_gold, t.alignment_system, "--compare",
                                  t.alignment_other, "--resamples", "20", "--format", fmt],
             fmt, None),
        ]
    for fmt in ("text", "json", "udtools", "sarif", "github"):
        calls.append((f"validate {fmt}", ["validate", t.gold, t.broken, "--format", fmt],
                      fmt, None))
    calls += [
        ("score -v", [t.gold, t.system, "-v", "--exact-match"], "text", None),
        ("score -o", [t.gold, t.system, "--format", "json", "-o", out("score.json")], "json",
         out("score.json")),
        ("suite -o", ["suite", t.gold_dir, t.system_dir, "--format", "markdown", "-j", "1",
                      "-o", out("suite.md")], "markdown", out("suite.md")),
        ("suite html", ["suite", t.gold_dir, t.system_dir, "-j", "1", "-q",
                        "--html", out("suite.html")], "html", out("suite.html")),
        ("suite tira", ["suite", t.gold_dir, t.system_dir, "-j", "1", "--tira", out("tira")],
         "text", None),
        ("suite tira prototext", ["suite", t.gold_dir, t.system_dir, "-j", "1", "-q",
                                  "--tira", out("tira")], "prototext",
         out("tira/evaluation.prototext")),
        ("report", ["report", t.gold, t.system, t.other, "-o", out("report.html")], "html",
         out("report.html")),
        ("report significance", ["report", t.gold, t.system, t.other, "--significance",
                                 "--resamples", "20", "-o", out("report2.html")], "html",
         out("report2.html")),
        ("tagger moot", ["tagger", "-v", "4", t.moot_system, t.moot_gold], "text", None),
        ("tagger moot -o", ["tagger", "-v", "3", f"--output={out('moot.txt')}", t.moot_system,
                            t.moot_gold], "text", out("moot.txt")),
        ("alignment pts", ["alignment", t.alignment_gold, t.alignment_system, "--format", "json",
                           "--pts", t.gold, t.system, t.gold, t.system], "json", None),
        ("man -o", ["man", "-o", out("man" + t.name)], "text", None),
        ("completion", ["completion", "bash"], "text", None),
    ]
    return calls


def _analyze_invocations(t: Tree):
    """analyze (MaltEval's command line): its text, the tree viewer and its JSON."""
    return [
        ("analyze", ["analyze", "-s", t.system, "-g", t.gold], "text", None),
        ("analyze details", ["analyze", "-s", t.system, "-g", t.gold, "--details", "1",
                             "--header-info", "1", "--GroupBy", "Deprel"], "text", None),
        ("analyze stat", ["analyze", "-s", t.system, t.other, "-g", t.gold, "--stat", "1"],
         "text", None),
        ("analyze viewer", ["analyze", "-s", t.system, "-g", t.gold, "-v", "1", "--output",
                            os.path.join(t.out, "viewer.html")], "html",
         os.path.join(t.out, "viewer.html")),
        ("analyze json", ["analyze", "-s", t.system, "-g", t.gold, "--format", "json"], "json",
         None),
    ]


# ---------------------------------------------------------------------------------------------
# What every output must be

#: what a terminal would act on, and undecodable bytes: errors.printable()'s set, newline
#: and TAB aside (the formats' own line and field breaks)
UNPRINTABLE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u2028\u2029"
                         "\ud800-\udfff]")


def _check_lines(text: str, name: str, where: str) -> None:
    bad = UNPRINTABLE.search(text)
    assert bad is None, f"{where}: raw {bad.group()!r} at {bad.start()}: {text[max(0, bad.start() - 60):bad.start() + 60]!r}"
    assert _utf8(text), where
    if "\n" in name:  # the part after the name's newline must never start a line
        tail = name.split("\n", 1)[1]
        assert not any(line.lstrip(" |-*`\"").startswith(tail) for line in text.split("\n")), where
    assert not re.search(r"^::(?!error |warning )", text, re.M), f"{where}: a workflow command"


def _check_markup(text: str, name: str, where: str, markdown: bool) -> None:
    assert "<img" not in text.lower(), f"{where}: live HTML from a name"
    if markdown:
        assert "[a](" not in text, f"{where}: a live link"
        assert "t`ick" not in text, f"{where}: a live backtick"
        assert "p|ipe" not in text, f"{where}: a live pipe"
        assert "*_#" not in text, f"{where}: live emphasis"
        if name[0] in "#>*-+=":  # a line (or a list item, a quote) the name would start
            for line in text.split("\n"):
                body = re.sub(r"^\s*(- |> )?\s*", "", line)
                assert not body.startswith(name[:3]), f"{where}: a new block: {line!r}"


def _check_output(text: str, fmt: str, name: str, where: str, spelt: bool = True) -> None:
    """``text`` in format ``fmt`` keeps its shape whatever ``name`` holds; ``spelt``: JSON's
    strings too hold nothing printable() spells out (names are spelt out, not JSON-escaped)."""
    _check_lines(text, name, where)
    if fmt in ("json", "sarif"):
        document = json.loads(text)
        bad = [s for s in _strings(document) if UNPRINTABLE.search(s) or "\n" in s or "\r" in s]
        assert not spelt or not bad, f"{where}: a JSON string holds raw {bad[:3]!r}"
        if fmt == "sarif":
            assert document["version"] == "2.1.0"
            for run in document["runs"]:
                for result in run["results"]:
                    for location in result["locations"]:
                        uri = location["physicalLocation"]["artifactLocation"]["uri"]
                        assert re.fullmatch(r"[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]*", uri), uri
    elif fmt in ("csv", "tsv"):
        rows = list(csv.reader(io.StringIO(text), delimiter="," if fmt == "csv" else "\t"))
        for row in rows:
            for field in row:
                assert "\n" not in field and "\r" not in field, f"{where}: {field!r}"
    elif fmt == "html":
        _check_markup(text, name, where, markdown=False)
        assert "\x1b" not in text
    elif fmt == "markdown":
        _check_markup(text, name, where, markdown=True)


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _run(argv):
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def _run(argv):
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def _outputs(t: Tree, invocations, spelt: bool = True):
    """Run each invocation; check its exit code, stderr and output."""
    for label, argv, fmt, target in invocations:
        where = f"{label} [{t.name!r}]"
        code, out, err = _run(argv)
        assert code in (0, 1), f"{where}: exit {code}: {err[-600:]}"
        assert "Traceback" not in err and "internal error" not in err, f"{where}: {err[-600:]}"
        _check_lines(err, t.name, f"{where} stderr")
        if target is not None:
            with open(target, encoding="utf-8") as handle:  # strict: valid UTF-8
                text = handle.read()
        else:
            text = out
        if text or code == 0:  # a pair that fails prints its error only
            _check_output(text, fmt, t.name, where, spelt)


@pytest.fixture(scope="module")
def trees(tmp_path_factory):
    return {key: Tree(str(tmp_path_factory.mktemp(f"names_{key}")), name)
            for key, name in HOSTILE.items()}


@pytest.mark.parametrize("key", sorted(HOSTILE))
def test_every_command_and_format_keeps_its_shape(trees, key):
    _outputs(trees[key], _invocations(trees[key]))


@pytest.mark.parametrize("key", sorted(HOSTILE))
def test_analyze_keeps_its_shape(trees, key):
    _outputs(trees[key], _analyze_invocations(trees[key]), spelt=False)


@pytest.mark.parametrize("key", ["newline", "esc", "non_utf8"])
def test_analyze_json_spells_names_out(trees, key):
    _outputs(trees[key], [i for i in _analyze_invocations(trees[key]) if i[2] == "json"])


def test_the_fuzz_would_catch_a_raw_name():
    """The checks fail on what the names did before issue 40 (a check that passes anything
    proves nothing)."""
    name = HOSTILE["newline"]
    with pytest.raises(AssertionError):
        _check_lines(f"Treebank\n{name}  75.00\n", name, "text")
    with pytest.raises(AssertionError):
        _check_output('x,y\n"a\n::add-mask::X",1\n', "csv", name, "csv")
    with pytest.raises(AssertionError):
        _check_output('{"name": "a\\n::add-mask::X"}', "json", name, "json")
    with pytest.raises(AssertionError):
        _check_lines("\udcff", "x", "surrogate")
    with pytest.raises(AssertionError):
        _check_output("| <img src=x onerror=alert(1)> |", "markdown", HOSTILE["html"], "md")
    with pytest.raises(AssertionError):
        _check_output("- # head: failed", "markdown", HOSTILE["block"], "md")
    with pytest.raises(AssertionError):
        _check_output("| p|ipe | 1 |", "markdown", HOSTILE["pipe"], "md")


# ---------------------------------------------------------------------------------------------
# Point 1: suite names every file, directory and code; one line each, in every format

def _suite(tmp_path, gold_names, system_names, system_dir="system"):
    gold, system = tmp_path / "gold", tmp_path / system_dir
    gold.mkdir()
    system.mkdir()
    for name in gold_names:
        (gold / name).write_text(GOLD, encoding="utf-8")
    for name in system_names:
        (system / name).write_text(SYSTEM, encoding="utf-8")
    return str(gold), str(system)


def test_suite_spells_out_treebanks_hints_unpaired_files_and_system_names(tmp_path):
    name = "a\n::add-mask::X"
    gold, system = _suite(tmp_path, [f"{name}.conllu", f"en_x-{name}.conllu"],
                          [f"{name}.conllu", f"en_y-{name}.conllu"], "sys\r\x1b[31m")
    code, out, err = _run(["suite", gold, system, "-j", "1"])
    assert code == 1 and err == ""  # a treebank's system file is missing
    assert not re.search("^::", out, re.M) and "\r" not in out and "\x1b" not in out
    lines = out.split("\n")
    assert any(line.startswith("a\\n::add-mask::X ") for line in lines)  # the treebank row
    missing = [line for line in lines if "error [missing-file]" in line]
    assert len(missing) == 1 and "did you mean" in missing[0] and "en_y-a\\n::add-mask::X" in missing[0]
    assert any(line.startswith("System files without a gold file") and "\\n::add-mask::X.conllu"
               in line for line in lines)
    code, out, _ = _run(["suite", gold, system, system, "--names", "p\nq,r", "-j", "1"])
    assert "p\\nq" in out and not re.search("^q", out, re.M)  # a system's name in a leaderboard
    code, out, _ = _run(["suite", gold, system, "-j", "1", "--format", "csv"])
    fields = [field for row in csv.reader(io.StringIO(out)) for field in row]
    assert "a\\n::add-mask::X" in fields and not any("\n" in f or "\r" in f for f in fields)
    assert "\n::" not in out  # not even inside quotes


def test_metadata_codes_are_spelt_out(tmp_path):
    gold, system = _suite(tmp_path, ["g.conllu"], ["s.conllu"])
    (tmp_path / "gold" / "metadata.json").write_text(json.dumps(
        [{"lcode": "x\n::add-mask::L", "tcode": "t\x1b", "goldfile": "g.conllu",
          "outfile": "s.conllu"}]), encoding="utf-8")
    for fmt in ("text", "tsv", "json", "markdown"):
        code, out, err = _run(["suite", gold, system, "-j", "1", "--by-language", "--format", fmt])
        assert code == 0, err
        assert "\n::add-mask" not in out and "\x1b" not in out, fmt
        shown = json.loads(out)["treebanks"][0]["language"] if fmt == "json" else out
        language = "x\\n::add-mask::L"
        assert (markdown_text(language) if fmt == "markdown" else language) in shown, fmt


def test_a_usage_error_naming_files_is_one_line(tmp_path):
    """pairing's usage errors name paths (two files of one treebank): one problem line."""
    gold, system = _suite(tmp_path, ["a\n::add-mask::X.conllu", "a\n::add-mask::X.conllu.gz"],
                          ["s.conllu"])
    code, out, err = _run(["suite", gold, system])
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("conll_eval suite: error [usage] both ")
    assert "a\\n::add-mask::X.conllu.gz" in err


def test_the_action_runs_conll_eval_between_stop_commands_tokens(tmp_path):
    """action.yml: whatever conll_eval prints to the step log sits between
    ``::stop-commands::TOKEN`` and ``::TOKEN::``, and the summary's heading is literal."""
    from test_adopt_action import run_action
    (tmp_path / "work").mkdir()
    gold, system = _suite(tmp_path / "work", ["a\n::add-mask::X.conllu"],
                          ["a\n::add-mask::X.conllu"], "<marquee>[a](b)")  # the input is split on spaces
    result, summary, _ = run_action(tmp_path, gold=gold, system=system)
    assert result.returncode == 0, result.stderr
    log = result.stdout.split("\n")
    starts = [k for k, line in enumerate(log) if line.startswith("::stop-commands::")]
    assert len(starts) == 1
    token = log[starts[0]][len("::stop-commands::"):]
    assert len(token) >= 16 and log.index(f"::{token}::") > starts[0]
    assert not [line for line in log if line.startswith("::") and line not in (
        f"::stop-commands::{token}", f"::{token}::")]
    heading = summary.split("\n", 1)[0]
    assert heading.startswith("### conll_eval suite: ") and "<marquee" not in heading
    assert heading.endswith("/&lt;marquee&gt;\\[a\\]\\(b\\)")
    assert "a\\\\n::add-mask::X" in summary  # the table's row: \n spelt out, its \ escaped


# ---------------------------------------------------------------------------------------------
# Point 2: Markdown and HTML escaped in every cell, no code span holds input text

@pytest.mark.parametrize("text, shown", [
    ("<img src=x onerror=alert(1)>", "&lt;img src=x onerror=alert(1)&gt;"),
    ("[a](javascript:x)", "\\[a\\](javascript:x)"),
    ("t`ick``s", "t\\`ick\\`\\`s"),
    ("p|ipe", "p\\|ipe"),
    ("*_#>star", "\\*\\_#&gt;star"),
    ("# head", "\\# head"),
    ("- item", "\\- item"),
    ("1. item", "1\\. item"),
    ("a\n::add-mask::X", "a\\\\n::add-mask::X"),
    ("~~gone~~ $x$ a&b", "\\~\\~gone\\~\\~ \\$x\\$ a&amp;b"),
    ("en_ewt-ud-test", "en_ewt-ud-test"),  # a name as it usually is stays as it is
    ("_x_", "\\_x\\_"),
])
def test_markdown_text(text, shown):
    assert markdown_text(text) == shown


def _cells(line: str):
    """A Markdown table row's cells, split on the pipes that are not escaped."""
    return [cell.strip() for cell in re.split(r"(?<!\\)\|", line.strip())[1:-1]]


def test_a_markdown_table_keeps_its_columns_whatever_the_names():
    names = list(HOSTILE.values())
    lines = markdown_table(["Treebank", "LAS"], [[name, "75.00"] for name in names])
    assert len(lines) == 2 + len(names)
    for line, name in zip(lines[2:], names):
        assert _cells(line) == [markdown_text(name), "75.00"]
        assert "<" not in line and "\n" not in line


def test_suite_markdown_lists_failures_without_code_spans(tmp_path):
    name = "<img src=x onerror=alert(1)>`x`"
    gold, system = _suite(tmp_path, [f"{name}.conllu", "en_b.conllu"], ["en_b.conllu"])
    code, out, _ = _run(["suite", gold, system, "-j", "1", "--format", "markdown"])
    assert code == 1 and "<img" not in out and "`x`" not in out
    failed = [line for line in out.split("\n") if line.startswith("- ")]
    assert len(failed) == 1 and "missing-file" in failed[0]
    assert failed[0].startswith("- &lt;img src=x onerror=alert(1)&gt;\\`x\\`: ")


SPELLABLE = [chr(c) for c in [*range(0x20), *range(0x7f, 0xa0), *range(0x202a, 0x202f),
                               *range(0x2066, 0x206a), 0x2028, 0x2029, 0xdc80, 0xdcff]]


@pytest.mark.parametrize("ensure_ascii", [False, True])
def test_json_text_spells_out_every_string_that_needs_it(ensure_ascii):
    """json_text looks at its text once and spells the document out only when a string holds
    something printable() spells out: never misses one, whatever backslashes stand before."""
    for char in [*SPELLABLE, "a", "é", "\u202f", "\U0001f600"]:
        for text in (char, "x" + char, "\\" + char, "\\\\" + char, char + "\\", "\\\\\\" + char):
            document = {"key": text, text: [text, 1, None]}
            shown = json.loads(json_text(document, ensure_ascii=ensure_ascii))
            assert shown == {"key": printable(text), printable(text): [printable(text), 1, None]}


def test_delimited_fields_are_spelt_out():
    text = delimited(["name", "n"], [["a\nb\r\x1b", None], ["x,\"y", 3]], ",")
    assert text == 'name,n\na\\nb\\r\\x1b,\n"x,""y",3\n'


# ---------------------------------------------------------------------------------------------
# Point 10: a name that is not UTF-8 is spelt out; outputs stay valid; exit codes unchanged

NOT_UTF8 = os.fsdecode(b"n\xff")


@pytest.mark.parametrize("fmt, code", [("sarif", 1), ("json", 1), ("github", 1), ("text", 1)])
def test_validate_names_a_file_that_is_not_utf8(tmp_path, fmt, code):
    path = _write(os.path.join(str(tmp_path), NOT_UTF8 + ".conllu"), GOLD)
    status, out, err = _run(["validate", path, "--format", fmt])
    assert status == code and _utf8(out) and _utf8(err), err
    if fmt == "json":
        assert json.loads(out)["incidents"][0]["path"] == printable(path)
    elif fmt != "sarif":
        assert "n\\xff.conllu:1:" in out or "n\\xff.conllu,line=1" in out
    else:
        document = json.loads(out)
        uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                for r in document["runs"][0]["results"]}
        assert uris == {path.replace(NOT_UTF8, "n%FF")}
        assert document["runs"][0]["invocations"][0]["arguments"][-1] == printable(path)


@pytest.mark.parametrize("argv, code, target", [
    (["report", "{gold}", "{system}", "-o", "{out}/report.html"], 0, "report.html"),
    (["suite", "{gold_dir}", "{system_dir}", "-j", "1", "-q", "--html", "{out}/suite.html"], 1,
     "suite.html"),
    (["suite", "{gold_dir}", "{system_dir}", "-j", "1", "-q", "--tira", "{out}/tira"], 0,
     "tira/evaluation.prototext"),
    (["suite", "{gold_dir}", "{system_dir}", "-j", "1", "--format", "json", "-o",
      "{out}/suite.json"], 1, "suite.json"),
])
def test_files_written_name_a_file_that_is_not_utf8(tmp_path, argv, code, target):
    t = Tree(str(tmp_path), NOT_UTF8)
    paths = {"gold": t.gold, "system": t.system, "gold_dir": t.gold_dir,
             "system_dir": t.system_dir, "out": t.out}
    status, _, err = _run([a.format(**paths) for a in argv])
    assert status == code, err
    with open(os.path.join(t.out, target), encoding="utf-8") as handle:  # strict UTF-8
        text = handle.read()
    if target.endswith(".json"):
        assert json.loads(text)["name"] == "sysn\\xff"
    elif target.endswith(".prototext"):  # a protocol-buffer string escapes the backslash
        assert 'key: "n\\\\xff-Status"' in text
    else:
        assert "n\\xff" in text


def test_a_process_writes_valid_sarif_for_a_name_that_is_not_utf8(tmp_path):
    """The whole process, stdout a UTF-8 pipe: exit 1 (the file has errors), never 3."""
    path = os.path.join(os.fsencode(str(tmp_path)), b"n\xff.conllu")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(GOLD)
    result = subprocess.run([sys.executable, "-m", "conll_eval", "validate", "--format", "sarif",
                             path], capture_output=True, timeout=120,
                            env=dict(os.environ, PYTHONIOENCODING="utf-8"))
    assert result.returncode == 1, result.stderr
    document = json.loads(result.stdout.decode("utf-8"))
    assert document["runs"][0]["results"][0]["locations"][0]["physicalLocation"][
        "artifactLocation"]["uri"].endswith("/n%FF.conllu")

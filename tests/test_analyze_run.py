"""``conll_eval analyze`` beyond single tables: confusion tables, McNemar's test, folds,
``--remove``, Token numbering, ``--output``, JSON, ``--deprel universal`` and plugins.

Golden: MaltEval 1.0's own stdout on our hand-written CoNLL-X files (testdata/malteval/run,
see its README).  Hand-worked: a tiny CoNLL-U pair whose tokenization differs.
"""
import io
import json
import math
import shlex
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from conll_eval.analyze import groupings
from conll_eval.analyze.options import parse_args
from conll_eval.analyze.run import run
from conll_eval.analyze.significance import binary_column, mcnemar_z
from conll_eval.analyze.tables import Table
from conll_eval.cli import main
from test_analyze_counting import GOLD as COUNTING_GOLD  # tests/ is on sys.path (rootdir)
from test_analyze_counting import SYSTEM as COUNTING_SYSTEM

RUN = Path(__file__).resolve().parent.parent / "testdata" / "malteval" / "run"
CASES = sorted(p.stem for p in RUN.glob("*.cmd"))


@pytest.mark.parametrize("name", CASES)
def test_malteval_golden_output(name, monkeypatch):
    monkeypatch.chdir(RUN)
    argv = shlex.split((RUN / f"{name}.cmd").read_text(encoding="utf-8"))
    stdout, stderr = io.StringIO(), io.StringIO()
    assert main(["analyze", *argv], stdout, stderr) == 0, stderr.getvalue()
    assert stdout.getvalue() == (RUN / f"{name}.out").read_text(encoding="utf-8")


def test_there_are_golden_cases():
    assert len(CASES) >= 15


# ---- McNemar ---------------------------------------------------------------------------------

def test_mcnemar_z_by_hand():
    # b: first right, second wrong (rows 0 and 3); c: the reverse (row 2): (|2-1|-1)/sqrt(3)
    assert mcnemar_z(np.array([1, 1, 0, 1]), np.array([0, 1, 1, 0])) == 0.0
    # b = 5, c = 0: (5 - 1) / sqrt(5)
    assert mcnemar_z(np.ones(5), np.zeros(5)) == pytest.approx(4 / math.sqrt(5))
    # c > b: the same z (|b - c|), never negative but for b + c = 1 or b = c
    assert mcnemar_z(np.zeros(5), np.ones(5)) == pytest.approx(4 / math.sqrt(5))
    assert mcnemar_z(np.array([1, 0]), np.array([1, 1])) == 0.0
    # never disagreeing: Java's (0 - 1) / 0.0
    assert mcnemar_z(np.array([1, 0]), np.array([1, 0])) == -math.inf


def test_binary_column_needs_integer_zeros_and_ones():
    assert binary_column([0, 1, 1]).tolist() == [False, True, True]
    assert binary_column([0, 1, 2]) is None
    assert binary_column([0.0, 1.0]) is None  # ratios, even when whole
    assert binary_column([0, math.nan]) is None


# ---- a CoNLL-U pair with a tokenization mismatch ----------------------------------------------

# test_analyze_counting's pair -- gold "New York is big ." (5 words); the system glues
# "NewYork" (no partner on either side), tags "is" VERB (gold AUX), attaches "." to "is" --
# with gold "York" nsubj:pass where the system says nsubj
GOLD = COUNTING_GOLD.replace("4\tnsubj\t", "4\tnsubj:pass\t")
SYSTEM = COUNTING_SYSTEM
assert GOLD != COUNTING_GOLD


@pytest.fixture
def pair(write):
    return write("gold.conllu", GOLD), write("system.conllu", SYSTEM)


def _tables(argv):
    return [item for item in run(parse_args(argv)) if isinstance(item, Table)]


def test_confusion_table_and_matrix_on_aligned_words(pair):
    gold, system = pair
    _, table, matrix = _tables(["-s", system, "-g", gold, "--GroupBy", "Cpostag",
                                "--confusion-matrix", "1"])
    # only aligned words kept on both sides count: is AUX/VERB; NewYork has no partner
    assert table.caption == "Confusion table for Cpostag"
    assert (table.labels, table.cells) == (["AUX / VERB"], [[1]])
    # rows: system keys, columns: gold keys, cell = count(gold = row, system = column);
    # gold AUX is no system key, so MaltEval's matrix cannot show the one confusion
    assert matrix.headers == ["ADJ", "AUX", "PROPN", "PUNCT"]
    assert matrix.labels == ["ADJ", "PROPN", "PUNCT", "VERB"]
    rows = list(zip(*matrix.cells))
    assert [["-" if isinstance(v, float) and math.isnan(v) else v for v in row] for row in rows] == [
        ["-", 0, 0, 0], [0, 0, "-", 0], [0, 0, 0, "-"], [0, 0, 0, 0]]


def test_deprel_universal_cuts_subtypes(pair):
    gold, system = pair
    full = _tables(["-s", system, "-g", gold, "--GroupBy", "Deprel:all", "--Metric", "LA"])[0]
    assert "nsubj:pass" in full.labels
    universal = _tables(["-s", system, "-g", gold, "--GroupBy", "Deprel:all", "--Metric", "LA",
                         "--deprel", "universal"])[0]
    assert universal.labels == ["compound", "cop", "nsubj", "punct", "root"]
    # nsubj: gold York (no partner: wrong), system NewYork (no partner: wrong) -- the
    # subtype no longer splits them into two groups
    nsubj = universal.labels.index("nsubj")
    counts = {h.split(" / ")[0]: column[nsubj]
              for h, column in zip(universal.headers, universal.cells)}
    # (LA with Deprel has MaltEval's precision/recall columns)
    assert (counts["treebankcounter"], counts["parsercounter"]) == (1, 1)


def test_json_gives_every_table_with_counts(pair):
    gold, system = pair
    stdout, stderr = io.StringIO(), io.StringIO()
    argv = ["analyze", "-s", system, "-g", gold, "--GroupBy", "Cpostag", "--Metric", "LAS;UAS",
            "--format", "json"]
    assert main(argv, stdout, stderr) == 0, stderr.getvalue()
    data = json.loads(stdout.getvalue())
    assert data["arguments"] == argv[1:]
    # JSON never merges: one table per evaluation, with its own parameters
    assert [t["parameters"] for t in data["tables"]] == [
        ["GroupBy-> Cpostag", "Metric-> UAS"], ["GroupBy-> Cpostag", "Metric-> LAS"]]
    las = data["tables"][1]
    rows = {row["key"]: row for row in las["rows"]}
    # PROPN: gold New, York (both unaligned: wrong); system NewYork (unaligned: wrong)
    assert rows["PROPN"]["counts"] == {"treebank": 2, "treebank_correct": 0, "parser": 1,
                                       "parser_correct": 0}
    assert rows["ADJ"]["values"] == {"accuracy": 1.0}
    assert rows["AUX"]["values"] == {"accuracy": None}  # no system word tagged AUX: NaN
    assert (las["gold"], las["system"], las["row_heading"]) == (gold, system, "Cpostag")


def test_output_file_and_directory(pair, tmp_path):
    gold, system = pair
    base = ["analyze", "-s", system, "-g", gold, "--Metric", "LAS;UAS"]
    stdout, stderr = io.StringIO(), io.StringIO()
    assert main(base, stdout, stderr) == 0
    expected = stdout.getvalue()
    target = tmp_path / "out.txt"
    target.write_text("old content\n")
    stdout = io.StringIO()
    assert main(base + ["--output", str(target)], stdout, stderr) == 0
    assert stdout.getvalue() == ""
    # MaltEval replaces the file; the echo shows the arguments as given
    assert target.read_text() == expected.replace(
        "--Metric", "--Metric").replace('"LAS;UAS"', f'"LAS;UAS" --output {target}', 1)
    folder = tmp_path / "results"
    folder.mkdir()
    assert main(base + ["--output", str(folder), "--merge-tables", "0"], stdout, stderr) == 0
    assert sorted(p.name for p in folder.iterdir()) == ["system.conllu.0.res",
                                                        "system.conllu.1.res"]
    stderr = io.StringIO()
    assert main(base + ["--output", gold], io.StringIO(), stderr) == 2
    assert "input file" in stderr.getvalue()
    assert Path(gold).read_text(encoding="utf-8") == GOLD


def test_tag_list_file_must_exist(pair):
    gold, system = pair
    stderr = io.StringIO()
    assert main(["analyze", "-s", system, "-g", gold, "--postag", "missing.txt"],
                io.StringIO(), stderr) == 1
    assert "The file missing.txt doesn't exist" in stderr.getvalue()


def test_conllu_text_mismatch_names_both_files(pair, write):
    gold, _ = pair
    other = write("other.conllu", SYSTEM.replace("big", "small"))
    stderr = io.StringIO()
    assert main(["analyze", "-s", other, "-g", gold], io.StringIO(), stderr) == 1
    assert "other.conllu" in stderr.getvalue() and "text-mismatch" in stderr.getvalue()


# ---- plugins -----------------------------------------------------------------------------------

PLUGIN = textwrap.dedent('''\
    import numpy as np
    from conll_eval.analyze.groupings import Grouping

    class WordLength(Grouping):
        """Characters in the FORM."""
        name = "WordLength"
        numeric = True

        def keys(self, side):
            codes = side.string_column("form")  # first: it may add strings to the Vocab
            lengths = np.array([len(s) for s in side.vocab.strings], dtype=np.int64)
            return lengths[codes]

    class LastLetter(Grouping):
        """The FORM's last character; combinable with @offsets."""
        name = "LastLetter"
        complex_item = True

        def keys(self, side):
            strings = side.vocab.strings
            codes = side.string_column("form")
            return side.vocab.encode([strings[c][-1] for c in codes.tolist()])

    class NotAGrouping:
        name = "Nope"
''')


@pytest.fixture
def plugin_module(tmp_path, monkeypatch):
    """A plugin module on sys.path; the registry is restored afterwards."""
    folder = tmp_path / "plugins"
    folder.mkdir()
    (folder / "demo_groupings.py").write_text(PLUGIN)
    monkeypatch.syspath_prepend(str(folder))
    saved = dict(groupings.registry())
    yield folder
    groupings._REGISTRY.clear()
    groupings._REGISTRY.update(saved)
    sys.modules.pop("demo_groupings", None)


def test_plugin_class_from_the_command_line(pair, plugin_module):
    gold, system = pair
    table = _tables(["-s", system, "-g", gold, "--plugin", "demo_groupings:WordLength",
                     "--GroupBy", "WordLength:all", "--Metric", "UAS"])[0]
    # gold New(3) York(4) is(2) big(3) .(1); system NewYork(7) is big .
    # UAS: aligned is, big right; '.' wrong (head is vs big); unaligned words wrong
    assert table.labels == ["1", "2", "3", "4", "7"]
    accuracy, counter, correct = table.cells
    assert counter == [1, 1, 2, 1, 0]            # gold words per length
    assert correct == [0, 1, 1, 0, 0]            # big (3) and is (2) are right
    assert accuracy[:3] == [0.0, 1.0, 1.0] and accuracy[4] == 0.0  # system side
    assert math.isnan(accuracy[3])               # no system word of length 4


def test_plugin_in_a_complex_grouping(pair, plugin_module):
    gold, system = pair
    table = _tables(["-s", system, "-g", gold, "--plugin", "demo_groupings:LastLetter",
                     "--GroupBy", "LastLetter@-1#Cpostag@0:counter"])[0]
    assert '"k"@-1;"AUX"@0' in table.labels or '"AUX"@0;"k"@-1' in table.labels


def test_bad_plugins_are_usage_errors(pair, plugin_module):
    gold, system = pair
    for spec, message in (("demo_groupings:NotAGrouping", "is not a"),
                          ("demo_groupings:Missing", "has no Missing"),
                          ("no_such_module_x:Thing", "cannot import"),
                          ("nocolon", "module:Class")):
        stderr = io.StringIO()
        assert main(["analyze", "-s", system, "-g", gold, "--plugin", spec],
                    io.StringIO(), stderr) == 2, spec
        assert message in stderr.getvalue(), (spec, stderr.getvalue())


def test_entry_point_plugin_is_imported_only_when_named(pair, plugin_module):
    dist = plugin_module / "demo_groupings-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: demo-groupings\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text(
        "[conll_eval.groupings]\nWordLength = demo_groupings:WordLength\n")
    gold, system = pair
    _tables(["-s", system, "-g", gold, "--GroupBy", "Cpostag"])
    assert "demo_groupings" not in sys.modules
    table = _tables(["-s", system, "-g", gold, "--GroupBy", "WordLength"])[0]
    assert "demo_groupings" in sys.modules
    assert table.labels == ["1", "2", "3", "4", "7"]


def test_unknown_grouping_lists_plugins_too(pair, plugin_module):
    gold, system = pair
    stderr = io.StringIO()
    assert main(["analyze", "-s", system, "-g", gold, "--plugin", "demo_groupings:WordLength",
                 "--GroupBy", "Nothing"], io.StringIO(), stderr) == 2
    assert "WordLength" in stderr.getvalue() and "Cpostag" in stderr.getvalue()


def test_items_in_order(monkeypatch):
    monkeypatch.chdir(RUN)
    items = run(parse_args(["-s", "sys1.conll", "sys2.conll", "-g", "gold.conll", "--GroupBy",
                            "Token:accuracy", "--stat", "1"]))
    kinds = [type(item).__name__ for item in items]
    # per system: header + table; then McNemar's header, its setting, three tables, a rule
    assert kinds == ["Header", "Table", "Header", "Table", "Header", "Text", "Table", "Table",
                     "Table", "Text"], kinds
    assert items[5].text == "GroupBy-> Token:accuracy\nMetric-> LAS\n\nAttribute: accuracy\n"


def test_mcnemar_needs_the_same_rows_in_every_system(pair):
    """Token accuracy on a tokenization mismatch has NaN rows (gold places without a system
    word): not a 0/1 column, so McNemar's section is empty, as MaltEval's for ratios."""
    gold, system = pair
    items = run(parse_args(["-s", system, system, "-g", gold, "--GroupBy", "Token:accuracy",
                            "--stat", "1"]))
    assert [type(item).__name__ for item in items] == ["Header", "Table", "Header", "Table",
                                                        "Header"]


def test_forms_keep_their_spaces(write):
    """The scorer's reader drops spaces from FORMs (``1 000`` -> ``1000``); MaltEval groups and
    excludes by the FORM as written, and so do we (ASCII space, U+00A0; words inside a
    multi-word token keep their own FORM)."""
    gold = write("g.conllu", (
        "# text = 1 000 km du\u00a0x\n"
        "1\t1 000\t1000\tNUM\t_\t_\t2\tnummod\t_\t_\n"
        "2\tkm\tkm\tNOUN\t_\t_\t0\troot\t_\t_\n"
        "3-4\tdu\u00a0x\t_\t_\t_\t_\t_\t_\t_\t_\n"
        "3\tde\tde\tADP\t_\t_\t4\tcase\t_\t_\n"
        "4\tle x\tle\tDET\t_\t_\t2\tnmod\t_\t_\n\n"))
    table = _tables(["-s", gold, "-g", gold, "--GroupBy", "Wordform:counter"])[0]
    assert table.labels == ["1 000", "de", "km", "le x"]
    kept = _tables(["-s", gold, "-g", gold, "--GroupBy", "Wordform:counter",
                    "--ExcludeWordforms", "1 000|le x"])[0]
    assert kept.labels == ["de", "km"]

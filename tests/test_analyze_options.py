"""MaltEval argv / -e evaluation file -> Settings (conll_eval.analyze.options).

The tests against ``shared/malteval`` (every case's command line, echo line and rejection
message) skip when that folder is absent; the rest use only hand-written inputs in
``testdata/analyze``.
"""
import os
import pickle
import shlex
from pathlib import Path

import pytest

from conll_eval.analyze import java
from conll_eval.analyze.options import (
    ACCURACY_COLUMNS, GROUPING_NAMES, METRIC_NAMES, PARSER_TREEBANK_COLUMNS,
    PRECISION_RECALL_COLUMNS, SENTENCE_COLUMNS, EvaluationFileError, Formatting,
    MaltEvalUsageError, column_sets, echo_arguments, parse_args, parse_grouping,
    validate_evaluations,
)
from conll_eval.errors import InputError, UsageError

from conftest import SHARED, TESTDATA

MALTEVAL = SHARED / "malteval"
CASES = MALTEVAL / "cases"
ANALYZE = TESTDATA / "analyze"
BASE = ["-s", "sys.conll", "-g", "gold.conll"]

#: rejected cases whose reason is in the data (files, texts): the command line itself parses
NEEDS_DATA = {"140", "152", "153", "154", "164"}
#: rejected cases where MaltEval crashes and we deliberately go on (the crash is recorded)
CRASHES = {"073", "148"}

needs_shared = pytest.mark.skipif(not CASES.is_dir(), reason="shared/malteval is absent")


def _case_dirs():
    return sorted(p for p in CASES.iterdir() if p.is_dir()) if CASES.is_dir() else []


def _argv(case: Path):
    return shlex.split((case / "cmd.txt").read_text(encoding="utf-8"))


def _case(number: str) -> Path:
    return next(p for p in _case_dirs() if p.name.startswith(number + "-"))


def _parse_case(number: str, monkeypatch):
    monkeypatch.chdir(MALTEVAL / "data")  # cmd.txt names its eval.xml relative to data/
    return parse_args(_argv(_case(number)))


def _aborted(case: Path) -> str:
    text = (case / "stderr.txt").read_text(encoding="utf-8")
    return text.split("Evaluation aborted: ", 1)[1].split("\n", 1)[0]


def _evals(settings, order="java"):
    return [(e.metric, e.grouping.name, e.columns.names) for e in settings.evaluations(order)]


def _usage_error(argv, **kwargs) -> MaltEvalUsageError:
    with pytest.raises(MaltEvalUsageError) as info:
        parse_args(argv, **kwargs)
    return info.value


def _file_error(argv) -> EvaluationFileError:
    with pytest.raises(EvaluationFileError) as info:
        parse_args(argv)
    return info.value


# ----------------------------------------------------------------------------------------------
# every reference case

@needs_shared
@pytest.mark.parametrize("case", _case_dirs(), ids=lambda p: p.name[:3])
def test_echo_line_matches_output(case):
    argv = _argv(case)
    first = (case / "output.txt").read_text(encoding="utf-8").split("\n", 1)[0]
    if first.startswith("Evaluation arguments:"):
        assert echo_arguments(argv) == first
    else:  # rejected commands print nothing; --header-info 0 drops the echo line
        assert first == "" or "--header-info" in argv


@needs_shared
@pytest.mark.parametrize("case", _case_dirs(), ids=lambda p: p.name[:3])
def test_case_parses_or_is_rejected_with_maltevals_message(case, monkeypatch):
    monkeypatch.chdir(MALTEVAL / "data")
    number = case.name[:3]
    rejected = (case / "stderr.txt").exists()
    if not rejected or number in NEEDS_DATA:
        settings = parse_args(_argv(case))
        assert settings.malteval_crash is None
        assert settings.evaluations() and settings.evaluations("java")
    elif number in CRASHES:
        settings = parse_args(_argv(case))
        assert settings.malteval_crash == _aborted(case)
        assert settings.evaluations()
    else:
        with pytest.raises((MaltEvalUsageError, EvaluationFileError)) as info:
            parse_args(_argv(case))
        assert info.value.malteval_message == _aborted(case)


@needs_shared
def test_every_rejected_case_is_classified():
    rejected = {p.name[:3] for p in _case_dirs() if (p / "stderr.txt").exists()}
    assert NEEDS_DATA | CRASHES <= rejected
    assert len(rejected) == 24  # 073, 077, 078, 081, 140-142, 148-164


@needs_shared
def test_evaluation_order_follows_java_hashing(monkeypatch):
    # 018: columns LA, UAS, LAS; 095: ExcludeDeprels varies faster than Metric
    assert [m for m, _, _ in _evals(_parse_case("018", monkeypatch))] == ["LA", "UAS", "LAS"]
    evaluations = _parse_case("095", monkeypatch).evaluations("java")
    assert [(e.metric, dict(e.exclude).get("ExcludeDeprels")) for e in evaluations] == [
        ("LA", None), ("LA", frozenset({"punct"})), ("UAS", None),
        ("UAS", frozenset({"punct"})), ("LAS", None), ("LAS", frozenset({"punct"}))]
    # input order stays available
    assert [e.metric for e in _parse_case("018", monkeypatch).evaluations()] == [
        "LAS", "UAS", "LA"]


@needs_shared
def test_xml_case_equals_flag_case(monkeypatch):
    flags, xml = _parse_case("143", monkeypatch), _parse_case("144", monkeypatch)
    assert flags.evaluations("java") == xml.evaluations("java")
    assert flags.formatting == xml.formatting
    assert [(p.name, p.values) for p in flags.parameters] == [
        (p.name, p.values) for p in xml.parameters]
    assert str(xml.parameter("GroupBy").location).endswith("eval.xml:11")
    evaluation = xml.evaluations()[1]
    assert evaluation.columns.sort_by == "recall" and evaluation.columns.cut == 10
    assert not evaluation.columns.ascending
    assert dict(evaluation.exclude) == {"ExcludeDeprels": frozenset({"punct", "dep"})}
    assert (evaluation.min_sentence_length, evaluation.max_sentence_length) == (1, 40)
    assert xml.formatting.pattern == "0.0000" and xml.formatting.details is True


@needs_shared
def test_flag_after_e_replaces_all_file_values(monkeypatch):
    settings = _parse_case("146", monkeypatch)
    assert settings.parameter("Metric").values == (("LA", ""),)
    assert settings.parameter("Metric").location is None
    assert settings.parameter("GroupBy").location is not None
    assert len(settings.evaluations()) == 2
    assert settings.evaluations()[0].exclude_unicode_punc


@needs_shared
def test_xml_without_groupby_is_token_all(monkeypatch):
    settings = _parse_case("147", monkeypatch)
    assert settings.parameter("GroupBy") is None  # no GroupBy-> header line
    (evaluation,) = settings.evaluations()
    assert evaluation.grouping.name == "Token"
    assert evaluation.columns.names == ACCURACY_COLUMNS[1]
    assert evaluation.parameters == (("Metric", "LAS", ""),)


@needs_shared
def test_sample_cases_as_the_readme_says(monkeypatch):
    s = _parse_case("133", monkeypatch)  # file order kept
    assert s.system_files == ("fr_gsd-sys3.conll", "fr_gsd-sys.conll")
    s = _parse_case("068", monkeypatch)  # ';' makes two groupings
    assert [g for _, g, _ in _evals(s, "input")] == ["Cpostag@-1", "Cpostag"]
    s = _parse_case("069", monkeypatch)
    (evaluation,) = s.evaluations()
    assert evaluation.grouping.is_complex
    assert evaluation.grouping.parts == ((-1, ("Cpostag",)), (0, ("Cpostag",)))
    s = _parse_case("076", monkeypatch)  # Postag@0 is the simple Postag grouping
    assert s.evaluations()[0].grouping.name == "Postag"
    assert not s.evaluations()[0].grouping.is_complex
    s = _parse_case("063", monkeypatch)  # self -> the grouping, P/R/F
    (evaluation,) = s.evaluations()
    assert evaluation.metric == "ArcProjectivity"
    assert evaluation.parameters[0] == ("Metric", "ArcProjectivity", "")
    assert evaluation.columns.names == PRECISION_RECALL_COLUMNS[0]
    s = _parse_case("024", monkeypatch)  # LA gives P/R columns, LAS and UAS parser/treebank
    columns = {e.metric: e.columns.names for e in s.evaluations()}
    assert columns == {"LA": PRECISION_RECALL_COLUMNS[1], "UAS": PARSER_TREEBANK_COLUMNS[1],
                       "LAS": PARSER_TREEBANK_COLUMNS[1]}
    s = _parse_case("086", monkeypatch)  # sort on the row heading
    assert s.evaluations()[0].columns.sort_by == "Deprel"
    s = _parse_case("085", monkeypatch)
    c = s.evaluations()[0].columns
    assert (c.names, c.sort_by, c.ascending, c.cut) == (("accuracy", "counter"), "accuracy",
                                                        True, None)
    s = _parse_case("088", monkeypatch)
    c = s.evaluations()[0].columns
    assert (c.names, c.sort_by, c.cut) == (SENTENCE_COLUMNS[1], "exactmatch", 5)
    s = _parse_case("101", monkeypatch)
    assert dict(s.evaluations()[0].exclude) == {
        "ExcludeDeprels": {"punct"}, "ExcludeCpostags": {"PUNCT"},
        "ExcludeWordforms": {"the"}, "ExcludeLemmas": {"be"}}
    s = _parse_case("089", monkeypatch)
    assert {(e.min_sentence_length, e.max_sentence_length) for e in s.evaluations()} == {(10, 20)}
    assert _parse_case("108", monkeypatch).formatting.header_info is False
    assert _parse_case("110", monkeypatch).formatting.row_header is False
    assert _parse_case("112", monkeypatch).formatting.tab is True
    assert _parse_case("115", monkeypatch).formatting.pattern == "#.#####"
    assert _parse_case("118", monkeypatch).formatting.column_header is True
    assert _parse_case("117", monkeypatch).formatting.details is False
    assert _parse_case("121", monkeypatch).formatting.confusion_matrix is True
    assert _parse_case("128", monkeypatch).formatting.stat is True
    assert _parse_case("137", monkeypatch).formatting.micro_average is True
    assert _parse_case("019", monkeypatch).formatting.merge_tables is False
    assert _parse_case("165", monkeypatch).remove == "Projective"
    assert _parse_case("166", monkeypatch).remove == "NonProjective"
    s = _parse_case("135", monkeypatch)
    assert s.cross_validation and len(s.gold_files) == len(s.system_files) == 3


# ----------------------------------------------------------------------------------------------
# echo line

def test_echo_quotes_only_semicolon_space_and_quotes():
    argv = ["-s", "a b.conll", "--Metric", "LAS;UAS", "--GroupBy", "Deprel:all|recall-10",
            "--x", "Cpostag@-1#Cpostag@0", "q'", 'q"', "", "-v"]
    assert echo_arguments(argv) == (
        'Evaluation arguments: -s "a b.conll" --Metric "LAS;UAS" --GroupBy Deprel:all|recall-10 '
        '--x Cpostag@-1#Cpostag@0 "q\'" "q""  -v')  # "" is not quoted
    assert echo_arguments([]) == "Evaluation arguments:"
    assert parse_args(BASE).echo == "Evaluation arguments: -s sys.conll -g gold.conll"


# ----------------------------------------------------------------------------------------------
# argument rules

def test_defaults():
    settings = parse_args(BASE)
    assert settings.system_files == ("sys.conll",) and settings.gold_files == ("gold.conll",)
    assert [(p.name, p.values) for p in settings.parameters] == [
        ("Metric", (("LAS", ""),)), ("GroupBy", (("Token", ""),))]
    assert settings.formatting == Formatting()
    assert settings.formatting.pattern == "#,##0.###"
    (evaluation,) = settings.evaluations()
    assert (evaluation.metric, evaluation.grouping.name, evaluation.columns.names) == (
        "LAS", "Token", ("accuracy",))
    assert evaluation.show_table_header(settings.formatting)
    assert not evaluation.show_details(settings.formatting)
    assert (evaluation.exclude, evaluation.exclude_unicode_punc) == ((), False)
    assert settings.remove == "None" and not settings.viewer and settings.malteval_crash is None


@pytest.mark.parametrize("argv, message", [
    (BASE + ["--Metric", "LAS", "--Metric", "UAS"], "The argument --Metric is specified twice"),
    (BASE + ["-s", "x.conll"], "The argument -s is specified twice"),
    (BASE + ["--Metric"], "Unable to find the argument value for the argument --Metric"),
    (BASE + ["-", "x"], "Unable to parse argument number 4 (-)"),
    (BASE + ["--deprels", "x"], "Expected some other argument. Found: --deprels"),
    (BASE + ["--help", "1"], "Expected some other argument. Found: --help"),
    (BASE + ["-e", "eval.xml"], "Expected some other argument. Found: -e"),
    (["-s", "sys.conll"], "The required arguments [-g] have not been specified"),
    (["-g", "gold.conll"], "The required arguments [-s] have not been specified"),
    (["--Metric", "LAS"], "The required arguments [-s, -g] have not been specified"),
    # the required check comes before the leftover check
    (["--Metric", "LAS", "stray", "-s", "a", "-g", "b"],
     "The required arguments [-s, -g] have not been specified"),
    (BASE + ["--Metric", "LAS", "stray"],
     "Unable to parse all arguments. Stopped at argument number 6"),
    (BASE + ["-v", "2"], "The flag -v can only have the value 0 or 1"),
    (BASE + ["--details", "2"], "Incorrect value (2) for argument --details"),
    (BASE + ["--merge-tables", "yes"], "Incorrect value (yes) for argument --merge-tables"),
    (BASE + ["--debug", ""], "Incorrect value () for argument --debug"),
    (BASE + ["--GroupBy", "Deprel:all:x"], 'Could not parse value of the argument "--GroupBy"'),
    (BASE + ["--GroupBy", ":"], 'Could not parse value of the argument "--GroupBy"'),
    (["-s", "a", "b", "c", "-g", "x", "y"],
     "Crossvalidation not possible. Nr of parser files: 3, and nr of gold-standard files: 2"),
    (["-s", "a", "b", "-g", "x", "--micro-average", "1"],
     "Merging files for crossvalidation is not possible. Nr of parser files: 2, and nr of "
     "gold-standard files: 1"),
    (["-s", "a", "b", "-g", "x", "-f", "sel.txt"],
     "MaltEvalConsole currently only supports one gold-standards and one parsed file in "
     "selection file mode\n"),
    (BASE + ["--pattern", "0.0.0"], 'Multiple decimal separators in pattern "0.0.0"'),
])
def test_argument_errors_carry_maltevals_message(argv, message):
    error = _usage_error(argv)
    assert isinstance(error, UsageError)
    assert error.malteval_message == message
    assert pickle.loads(pickle.dumps(error)).malteval_message == message


@pytest.mark.parametrize("argv", [
    [], ["--help"], ["--examples"], ["-e"], ["-e", "eval07.pl", "-s", "a", "-g", "b"],
    ["-s", "-g", "gold.conll"],  # MaltEval would take "-g" as the system file
    BASE + ["--Metric", ";"],  # no value: MaltEval throws ArrayIndexOutOfBounds
    BASE + ["--GroupBy", "Token:accuracy+-5"],  # a negative cut
    BASE + ["--pattern", "0.###E0"],  # valid in Java, not implemented here
    BASE + ["--charset", "no-such-charset"],
])
def test_rejected_by_us(argv):
    error = _usage_error(argv)
    assert str(error)


def test_error_names_the_flag():
    assert "--details" in str(_usage_error(BASE + ["--details", "2"]))
    assert str(_usage_error(BASE + ["--Metric", "Foo"])).startswith("--Metric: ")
    assert _usage_error(BASE + ["--GroupBy", "Foo"]).flag == "--GroupBy"


def test_viewer_needs_no_files():
    settings = parse_args(["-v", "1", "-g", "gold.conll"])
    assert settings.viewer and settings.system_files == ()
    assert parse_args(BASE + ["-v", "0"]).viewer is False


def test_other_file_flags_are_recorded():
    settings = parse_args(BASE + ["--charset", "ISO-8859-1", "--postag", "pos.txt",
                                  "--deprel", "dep.txt", "-f", "sel.txt",
                                  "--output", "out/", "--hdr-file", "1"])
    assert (settings.charset, settings.postag_file, settings.deprel_file,
            settings.selection_file) == ("ISO-8859-1", "pos.txt", "dep.txt", "sel.txt")
    assert settings.formatting.output == "out/" and settings.formatting.hdr_file


def test_remove_values():
    assert parse_args(BASE + ["--remove", "NonProjective"]).remove == "NonProjective"
    settings = parse_args(BASE + ["--remove", "projective"])  # MaltEval ignores it
    assert settings.remove == "None" and settings.warnings


def test_several_files_keep_their_order_and_a_directory_is_sorted(tmp_path):
    for name in ["b.conll", "a.conll", "Z.tab", "c.xml", "notes.txt"]:
        (tmp_path / name).write_text("")
    settings = parse_args(["-s", str(tmp_path), "-g", "gold.conll"])
    assert settings.system_files == tuple(
        os.path.join(str(tmp_path), n) for n in ["Z.tab", "a.conll", "b.conll", "c.xml"])
    settings = parse_args(["-s", "b.conll", "a.conll", "-g", "x.conll", "y.conll"])
    assert settings.system_files == ("b.conll", "a.conll")
    assert settings.gold_files == ("x.conll", "y.conll")
    empty = tmp_path / "empty"
    empty.mkdir()
    assert "no .conll" in str(_usage_error(["-s", str(empty), "-g", "g.conll"]))


def test_values_split_like_java():
    def values(value):
        return parse_args(BASE + ["--ExcludeDeprels", value]).parameter("ExcludeDeprels").values

    assert values(";punct") == (("", ""), ("punct", ""))
    assert values("punct;") == (("punct", ""),)  # Java drops trailing empty strings
    assert values("") == (("", ""),)
    assert values("a;b;a") == (("a", ""), ("b", ""))
    settings = parse_args(BASE + ["--GroupBy", "Deprel:;Deprel:all"])
    assert settings.parameter("GroupBy").values == (("Deprel", "all"),)  # last format wins


def test_parameters_keep_input_order():
    settings = parse_args(BASE + ["--MaxSentenceLength", "40", "--ExcludeDeprels", "punct",
                                  "--GroupBy", "Deprel", "--Metric", "UAS;LAS",
                                  "--attributes", "x"])
    assert [p.name for p in settings.parameters] == [
        "Metric", "GroupBy", "MaxSentenceLength", "ExcludeDeprels", "attributes"]
    assert [e.metric for e in settings.evaluations()] == ["UAS", "LAS"]
    assert [p[0] for p in settings.evaluations()[0].parameters] == [
        p.name for p in settings.parameters]


# ----------------------------------------------------------------------------------------------
# evaluation parameter checks

def test_unknown_metric_and_grouping_messages():
    error = _usage_error(BASE + ["--Metric", "Foo"])
    assert error.malteval_message == (
        'Incorrect value for Metric: "Foo". Available Metric values are [' +
        ", ".join(METRIC_NAMES) + "]")
    error = _usage_error(BASE + ["--GroupBy", "Foo"])
    assert error.malteval_message == (
        'Incorrect value for GroupBy: "Foo". Possible values are: [' +
        ", ".join(GROUPING_NAMES) + "]")


def test_first_error_in_java_order_wins():
    first = java.hashmap_order(["Foo", "Bar"])[0]
    error = _usage_error(BASE + ["--Metric", "Foo;Bar"])
    assert f'"{first}"' in error.malteval_message
    # a complex grouping checked earlier joins the list of possible values
    assert java.hashmap_order(["Cpostag@-1#Cpostag@0", "Foo"])[0] != "Foo"
    error = _usage_error(BASE + ["--GroupBy", "Cpostag@-1#Cpostag@0;Foo"])
    assert "Cpostag, Cpostag@-1#Cpostag@0, Deprel" in error.malteval_message


def test_other_value_checks():
    assert _usage_error(BASE + ["--ExcludeUnicodePunc", "yes"]).malteval_message == (
        'Incorrect value for ExcludeUnicodePunc: "yes". Possible values are 0 and 1.')
    assert _usage_error(BASE + ["--MinSentenceLength", "ten"]).malteval_message == (
        'For input string: "ten"')
    assert _usage_error(BASE + ["--MaxSentenceLength", ""]).malteval_message == (
        'For input string: ""')
    evaluation = parse_args(BASE + ["--MinSentenceLength", "+3", "--MaxSentenceLength", "-1",
                                    "--ExcludeUnicodePunc", "1",
                                    "--ExcludeFeats", "_||Case=Nom"]).evaluations()[0]
    assert (evaluation.min_sentence_length, evaluation.max_sentence_length) == (3, -1)
    assert evaluation.exclude_unicode_punc
    assert evaluation.exclude == (("ExcludeFeats", frozenset({"_", "Case=Nom"})),)


def test_check_evaluations_can_wait_for_the_data():
    settings = parse_args(BASE + ["--Metric", "Foo"], check_evaluations=False)
    with pytest.raises(MaltEvalUsageError):
        validate_evaluations(settings)


# ----------------------------------------------------------------------------------------------
# groupings, metrics and column formats

def test_parse_grouping():
    assert parse_grouping("Deprel").name == "Deprel"
    assert parse_grouping("Deprel@") .name == "Deprel"  # one plain name: any grouping
    assert parse_grouping("Deprel@0") is None and parse_grouping("Deprel@-1") is None
    assert parse_grouping("Frame,Deprel") is None
    g = parse_grouping("Lemma@-1#Cpostag,Postag@0")
    assert g.is_complex and g.name == "Lemma@-1#Cpostag,Postag@0"
    assert g.parts == ((-1, ("Lemma",)), (0, ("Cpostag", "Postag")))
    assert g.components == ("Lemma", "Cpostag", "Postag")
    assert parse_grouping("Cpostag#Postag").parts == ((0, ("Cpostag", "Postag")),)
    assert not parse_grouping("Cpostag#Cpostag").is_complex
    assert parse_grouping("Cpostag@+1").parts == ((1, ("Cpostag",)),)
    assert parse_grouping("Cpostag@1@7").parts == ((1, ("Cpostag",)),)  # as MaltEval reads it
    for bad in ["", "#", ",", "Cpostag@x", "Cpostag@", "Foo", "Cpostag;Postag", "cpostag"]:
        if bad == "Cpostag@":
            continue  # split drops the empty offset: the plain Cpostag grouping
        assert parse_grouping(bad) is None, bad


@pytest.mark.parametrize("grouping, metric, expected", [
    ("Token", "LAS", ACCURACY_COLUMNS),
    ("Cpostag", "LA", ACCURACY_COLUMNS),
    ("Cpostag@-1#Cpostag@0", "LAS", ACCURACY_COLUMNS),
    ("Sentence", "UAS", SENTENCE_COLUMNS),
    ("Deprel", "LAS", PARSER_TREEBANK_COLUMNS),
    ("Deprel", "Deprel", PRECISION_RECALL_COLUMNS),
    ("ArcDirection", "DirectionRight", PRECISION_RECALL_COLUMNS),
    ("RelationLength", "HeadToChildDistanceRight", PRECISION_RECALL_COLUMNS),
    ("GroupedRelationLength", "GroupedHeadToChildDistanceRight", PRECISION_RECALL_COLUMNS),
    # valid uses String.contains, default uses equals
    ("Deprel", "LA", (PARSER_TREEBANK_COLUMNS[0], PRECISION_RECALL_COLUMNS[1])),
    ("Deprel", "LabelRight", (PARSER_TREEBANK_COLUMNS[0], PRECISION_RECALL_COLUMNS[1])),
    ("GroupedRelationLength", "HeadToChildDistanceRight",
     (PARSER_TREEBANK_COLUMNS[0], PRECISION_RECALL_COLUMNS[1])),
    ("RelationLength", "GroupedHeadToChildDistanceRight", PARSER_TREEBANK_COLUMNS),
])
def test_column_sets(grouping, metric, expected):
    assert column_sets(parse_grouping(grouping), metric) == expected


def test_self_metric():
    def metric(grouping):
        return parse_args(BASE + ["--Metric", "self", "--GroupBy", grouping]).evaluations()[0]

    assert metric("Token").metric == "BothRight"
    assert metric("Cpostag").metric == "BothRight"
    assert metric("ArcDirection").columns.names == PRECISION_RECALL_COLUMNS[0]
    assert parse_args(BASE + ["--Metric", "Deprel", "--GroupBy", "Deprel"]).evaluations()[
        0].columns.names == PRECISION_RECALL_COLUMNS[0]
    # Clustering's self metric is SentenceAndToken, which is no metric
    error = _usage_error(BASE + ["--Metric", "self", "--GroupBy", "Clustering"])
    assert error.malteval_message.startswith('Incorrect value for Metric: "SentenceAndToken"')
    # MaltEval looks up the self metric before checking the grouping, and crashes
    error = _usage_error(BASE + ["--Metric", "self", "--GroupBy", "Foo"])
    assert "getSelfMetricName()" in error.malteval_message
    assert "Incorrect value for GroupBy" in str(error)
    settings = parse_args(BASE + ["--Metric", "self", "--GroupBy", "Postag@-1#Postag@0"])
    assert "getSelfMetricName()" in settings.malteval_crash
    assert settings.evaluations()[0].metric == "BothRight"


@pytest.mark.parametrize("fmt, names, sort_by, ascending, cut", [
    ("accuracy-20", ("accuracy",), "accuracy", False, 20),
    ("accuracy+", ("accuracy",), "accuracy", True, None),
    ("counter-5|accuracy+", ("counter", "accuracy"), "accuracy", True, 5),  # last sort, last cut
    ("accuracy||counter", ("accuracy", "counter"), None, True, None),
    ("|", ACCURACY_COLUMNS[1], None, True, None),  # no attribute at all: like all
    ("all|nonsense", ACCURACY_COLUMNS[1], None, True, None),  # all turns the check off
    ("all|Cpostag-3", ACCURACY_COLUMNS[1], "Cpostag", False, 3),  # the row heading
    ("accuracy+-1", ("accuracy",), "accuracy", True, None),  # -1 is "no cut"
    ("accuracy-0", ("accuracy",), "accuracy", False, 0),
])
def test_formats(fmt, names, sort_by, ascending, cut):
    columns = parse_args(BASE + ["--GroupBy", f"Cpostag:{fmt}"]).evaluations()[0].columns
    assert (columns.names, columns.sort_by, columns.ascending, columns.cut) == (
        names, sort_by, ascending, cut)
    assert columns.format == fmt


@pytest.mark.parametrize("fmt, message", [
    ("precision", 'Incorrect attribute value "precision" for grouping strategy "Cpostag". '
                  "Possible values  are [accuracy, counter, correctcounter]."),
    ("precision|all-5", 'Incorrect attribute value "precision" for grouping strategy '
                        '"Cpostag". Possible values  are [accuracy, counter, correctcounter].'),
    ("accuracy-x", 'Incorrect value "accuracy-x" for a format attribute. Expected an integer '
                   'value after "-".'),
    ("accuracy+1.5", 'Incorrect value "accuracy+1.5" for a format attribute. Expected an '
                     'integer value after "+".'),
    ("all-3", 'Could not find the column "all" during sorting. "all" may not be a valid '
              'attribute for current grouping strategy.'),
    ("Cpostag-", 'Incorrect attribute value "Cpostag" for grouping strategy "Cpostag". '
                 "Possible values  are [accuracy, counter, correctcounter]."),
])
def test_format_errors(fmt, message):
    assert _usage_error(BASE + ["--GroupBy", f"Cpostag:{fmt}"]).malteval_message == message


def test_complex_attribute_error_names_the_java_first_attribute():
    error = _usage_error(BASE + ["--GroupBy", "Cpostag,Postag:precision"])
    assert f'grouping strategy "{java.hashset_order(["Cpostag", "Postag"])[0]}"' in (
        error.malteval_message)


def test_all_on_complex_grouping_without_wordform():
    settings = parse_args(BASE + ["--GroupBy", "Cpostag@-1#Cpostag@0:all"])
    assert settings.malteval_crash == (
        'Cannot invoke "java.util.Collection.toArray()" because "c" is null')
    assert settings.evaluations()[0].columns.names == ACCURACY_COLUMNS[1]
    # one offset, or Wordform among the parts: no crash
    for value in ["Cpostag,Postag:all", "Wordform@-1#Cpostag@0:all"]:
        assert parse_args(BASE + ["--GroupBy", value]).malteval_crash is None
    # a Wordform grouping evaluated before (in Java order) registers Wordform's attributes
    before, after = "Cpostag@1#Cpostag@0", "Cpostag@-1#Cpostag@0"
    assert java.hashmap_order(["Wordform", before])[0] == "Wordform"
    assert java.hashmap_order(["Wordform", after])[0] == after
    assert parse_args(BASE + ["--GroupBy", f"Wordform;{before}:all"]).malteval_crash is None
    assert parse_args(BASE + ["--GroupBy", f"Wordform;{after}:all"]).malteval_crash


def test_crash_before_an_error_is_what_maltEval_prints():
    error = _usage_error(BASE + ["--GroupBy", "Cpostag@-1#Cpostag@0:all;Foo"])
    assert "Incorrect value for GroupBy" in str(error)
    assert java.hashmap_order(["Cpostag@-1#Cpostag@0", "Foo"])[0] != "Foo"
    assert error.malteval_message == (
        'Cannot invoke "java.util.Collection.toArray()" because "c" is null')


def test_grouping_defaults_for_details_and_row_mean():
    settings = parse_args(BASE + ["--GroupBy", "Deprel;Sentence;Cpostag@-1#Cpostag@0"])
    shown = {e.grouping.name: (e.show_details(settings.formatting),
                               e.show_table_header(settings.formatting))
             for e in settings.evaluations()}
    assert shown == {"Deprel": (True, False), "Sentence": (False, True),
                     "Cpostag@-1#Cpostag@0": (True, False)}
    settings = parse_args(BASE + ["--GroupBy", "Token", "--details", "1",
                                  "--column-header", "0"])
    evaluation = settings.evaluations()[0]
    assert evaluation.show_details(settings.formatting)
    assert not evaluation.show_table_header(settings.formatting)


# ----------------------------------------------------------------------------------------------
# -e evaluation files

def test_xml_equals_flags():
    from_file = parse_args(["-e", str(ANALYZE / "equivalent-flags.xml")] + BASE)
    from_flags = parse_args(BASE + ["--Metric", "UAS;LAS",
                                    "--GroupBy", "ArcDepth:all|treebankcounter-5",
                                    "--ExcludeCpostags", ";PUNCT|SYM",
                                    "--MaxSentenceLength", "30", "--tab", "1",
                                    "--pattern", "0.00"])
    assert from_file.evaluations("java") == from_flags.evaluations("java")
    assert from_file.formatting == from_flags.formatting
    assert from_file.eval_file.endswith("equivalent-flags.xml")
    assert from_file.parameter("Metric").location.line == 6
    assert from_file.echo.startswith("Evaluation arguments: -e ")


def test_flags_replace_file_values_and_formatting():
    settings = parse_args(["-e", str(ANALYZE / "equivalent-flags.xml")] + BASE
                          + ["--Metric", "LA", "--tab", "0"])
    assert settings.parameter("Metric").values == (("LA", ""),)
    assert settings.formatting.tab is False and settings.formatting.pattern == "0.00"
    assert [p.name for p in settings.parameters][0] == "Metric"  # keeps the file's place


def test_xml_without_metric_uses_las_and_records_the_crash():
    settings = parse_args(["-e", str(ANALYZE / "no-metric.xml")] + BASE)
    assert "Evaluation.getParameterValue(String)" in settings.malteval_crash
    (evaluation,) = settings.evaluations()
    assert evaluation.metric == "LAS" and evaluation.grouping.name == "Cpostag"
    assert evaluation.parameters == (("GroupBy", "Cpostag", ""),)


def test_xml_without_groupby():
    settings = parse_args(["-e", str(ANALYZE / "no-groupby.xml")] + BASE)
    (evaluation,) = settings.evaluations()
    assert (evaluation.metric, evaluation.grouping.name, evaluation.columns.names) == (
        "UAS", "Token", ACCURACY_COLUMNS[1])
    assert settings.malteval_crash is None


@pytest.mark.parametrize("name, line, code, malteval", [
    ("semicolon-in-value.xml", 6, "bad-evaluation-value",
     'Incorrect value for GroupBy: "Postag@-1;Postag@0". Possible values are: ['
     + ", ".join(GROUPING_NAMES) + "]"),
    ("unknown-parameter.xml", 6, "bad-evaluation-file",
     '"ExcludeDeprel" is not a valid evaluation parameter name'),
    ("comment-in-parameter.xml", 4, "bad-evaluation-file",
     'Incorrect element name. Found "#comment", expected element node: "value"'),
    ("wrong-root.xml", 2, "bad-evaluation-file",
     'Incorrect element name. Found "evaluations", expected element node: "evaluations"'),
    ("bad-formatting-value.xml", 6, "bad-evaluation-file",
     "Incorrect value (yes) for argument --details"),
    ("double-hyphen-comment.xml", 3, "xml-syntax", None),
])
def test_bad_evaluation_files(name, line, code, malteval):
    error = _file_error(["-e", str(ANALYZE / name)] + BASE)
    assert isinstance(error, InputError) and isinstance(error, ValueError)
    assert (error.location.line, error.code, error.malteval_message) == (line, code, malteval)
    assert str(error).startswith(f"{ANALYZE / name}:{line}: error [{code}]")
    assert pickle.loads(pickle.dumps(error)).malteval_message == malteval


@pytest.mark.parametrize("name, line", [
    ("billion-laughs.xml", 2), ("external-entity.xml", 2), ("doctype-utf16.xml", 2)])
def test_hostile_evaluation_files_are_refused_before_parsing(name, line, monkeypatch):
    import xml.parsers.expat

    def no_parser(*_args, **_kwargs):
        raise AssertionError("the parser must not run on a file with declarations")

    monkeypatch.setattr(xml.parsers.expat, "ParserCreate", no_parser)
    error = _file_error(["-e", str(ANALYZE / name)] + BASE)
    assert error.code == "xml-declaration-refused" and error.location.line == line
    assert "not allowed" in str(error)


@pytest.mark.parametrize("name", ["billion-laughs.xml", "external-entity.xml"])
def test_declarations_are_refused_while_parsing_too(name, monkeypatch):
    # defence in depth: without the byte-level check, the parser's handlers refuse them
    from conll_eval.analyze import malteval_file

    monkeypatch.setattr(malteval_file, "_refuse_declarations", lambda data, path: None)
    error = _file_error(["-e", str(ANALYZE / name)] + BASE)
    assert error.code == "xml-declaration-refused" and error.location.line == 2


def test_missing_or_large_evaluation_file(tmp_path):
    error = _file_error(["-e", str(tmp_path / "absent.xml")] + BASE)
    assert error.code == "missing-file"
    assert error.malteval_message.startswith("Error: I/O exception. File ")
    big = tmp_path / "big.xml"
    big.write_bytes(b"<evaluation>" + b" " * (1 << 20) + b"</evaluation>")
    assert _file_error(["-e", str(big)] + BASE).code == "evaluation-file-too-large"

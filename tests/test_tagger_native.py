"""``conll_eval tagger`` on moot's native files, without ../shared: the reader, the format
flags, mooteval's command line and rc files, the merge loop and the summary, each on
hand-worked examples (testdata/tagger/ and files written here)."""
import io

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conll_eval.analyze.tagger.comparison import B, E1, T, X2, compare_items
from conll_eval.analyze.tagger.native import (ANALYZED, COMMENT, COST, EOF, EOS, HINT, NATIVE,
                                              TAGGED, TEXT, TOKEN, XML, analysis_tag,
                                              format_label, format_request,
                                              guess_filename_format, read_items)
from conll_eval.analyze.tagger.options import atoi, parse_command_line
from conll_eval.cli import main
from conll_eval.cli.tagger import TAGGER_HELP, tagger_banner
from conll_eval.report.mooteval import display, status_string, summary

WELL_DONE = NATIVE | TEXT | ANALYZED | TAGGED
MEDIUM = NATIVE | TEXT | TAGGED


def run(*argv):
    out, err = io.StringIO(), io.StringIO()
    status = main(["tagger", *argv], out, err)
    return status, out.getvalue(), err.getvalue().replace(tagger_banner(), "", 1)


def kinds(items):
    return [item.kind for item in items]


# --- reader ----------------------------------------------------------------------------

def test_blank_line_runs_and_the_extra_end_of_file_eos():
    items = read_items("\n\na\tDET\n\n\n\nb\tNOUN\n\n", MEDIUM)
    assert kinds(items) == [EOS, TOKEN, EOS, TOKEN, EOS, EOS, EOF]
    assert [item.line for item in items] == [1, 3, 4, 7, 8, 8, 8]


def test_empty_file_and_blank_only_file():
    assert kinds(read_items("", MEDIUM)) == [EOF]
    assert kinds(read_items("\n\n", MEDIUM)) == [EOS, EOF]


def test_comment_breaks_a_blank_run_and_hints_are_tokens():
    items = read_items("a\tX\n\n%% note\n\n%%$SB$\n%%\n", MEDIUM)
    assert kinds(items) == [TOKEN, EOS, COMMENT, EOS, HINT, COMMENT, EOS, EOF]
    assert items[2].text == " note" and items[4].text == "$SB$" and items[5].text == ""


def test_token_text_is_untrimmed_and_fields_are_cut_as_mooteval_does():
    (token, *_), = [read_items(" a b \t\t  NOUN  \t \t[NOUN x]\t[VERB]  \n", WELL_DONE)]
    assert token.text == " a b " and token.best == "NOUN"
    assert token.analyses == (("[NOUN x]", "NOUN"), ("[VERB]", "VERB"))


def test_crlf_lines_and_a_comment_keeps_its_cr():
    items = read_items("%% c\r\na\tDET\t[DET]\r\n\r\n", WELL_DONE)
    assert kinds(items) == [COMMENT, TOKEN, EOS, EOS, EOF]
    assert items[0].text == " c\r" and items[1].text == "a" and items[1].best == "DET"


def test_tab_line_extends_the_token_before_it():
    items = read_items("a\tDET\t[DET]\n\tNOUN\t[NOUN]\n", WELL_DONE)
    assert kinds(items) == [TOKEN, TOKEN, EOS, EOF]
    assert items[1].text == "a" and items[1].best == "NOUN"
    assert [tag for _, tag in items[1].analyses] == ["DET", "NOUN"]


def test_unterminated_last_line_keeps_its_text():
    items = read_items("a\tDET\nc\tVERB", MEDIUM)
    assert [item.text for item in items if item.kind == TOKEN] == ["a", "c"]
    assert items[1].line == 1 and items[-1].line == 1  # line feeds consumed


def test_untagged_formats_read_every_field_as_an_analysis():
    token = read_items("w\tNOUN\t[VERB]\n", NATIVE | TEXT | ANALYZED)[0]
    assert token.best == "" and [tag for _, tag in token.analyses] == ["NOUN", "VERB"]


@pytest.mark.parametrize("details, tag", [
    ("NOUN", "NOUN"), ("[NOUN num=sg] lemma", "NOUN"), ("foo[NN] bar", "NN"),
    ("[_ADJ]", "ADJ"), ("[_]", "_"), ("NN]x", "NN"), ("]q", "]q"), ("[]", "[]"),
    ("[ DET]", "DET"),  # mooteval: "DET]" (a length used as an end)
    ("<1.5> NOUN", "1.5"),  # mooteval: "1.5>"
    (" ADJ", " ADJ"), ("", ""),
])
def test_analysis_tag(details, tag):
    assert analysis_tag(details) == tag


def test_cost_markers_are_cut_from_the_details_with_the_cost_flag():
    token = read_items("w\tADJ\t<1.5> ADJ\t<-2e3> [ADV] x\n", WELL_DONE | COST)[0]
    assert token.analyses == ((" ADJ", " ADJ"), (" [ADV] x", "ADV"))
    plain = read_items("w\tADJ\t<2> [ADV]\n", WELL_DONE)[0]
    assert plain.analyses == (("<2> [ADV]", "ADV"),)


# --- formats --------------------------------------------------------------------------

def test_formats_from_names_and_requests():
    warnings = []
    assert format_request(None, "x.wd", warnings.append) == WELL_DONE
    assert format_request(None, "dir.v2/x.tt", warnings.append) == MEDIUM
    assert format_request(None, "x.txt", warnings.append) == WELL_DONE  # unknown: default
    assert format_request(None, "x.tt.wd", warnings.append) == WELL_DONE  # both or'ed
    assert guess_filename_format("a.mr.x") == 0  # stops at the first other part
    assert format_request("!tagged", "x.tt", warnings.append) == WELL_DONE
    assert format_request("WellDone, !Tagged", "x.tt", warnings.append) == \
        NATIVE | TEXT | ANALYZED
    assert format_request("wd,bogus", "x", warnings.append) == WELL_DONE
    assert warnings == ['TokenIO::parse_format_string(): unknown format flag "bogus"\n']
    assert format_request("xml", "x", warnings.append) & (XML | NATIVE) == XML
    assert format_label(WELL_DONE | COST) == "Native,Text,Analyzed,Tagged,Cost"
    assert format_label(0) == "None"


# --- command line ---------------------------------------------------------------------

def test_getopt_clusters_permutation_and_abbreviations():
    options = parse_command_line(["a.wd", "-12v3", "--out=o.txt", "b.wd", "--input-f", "m"])
    assert (options.verbose, options.eval_first, options.eval_second) == (3, True, True)
    assert options.output == "o.txt" and options.input_format == "m"
    assert options.inputs == ["a.wd", "b.wd"] and options.action == "run"
    assert parse_command_line(["--", "-v", "x"]).inputs == ["-v", "x"]


def test_bad_options_fail_with_getopt_messages():
    options = parse_command_line(["--eval", "a", "b"])
    assert options.action == "fail"
    assert options.messages == [
        "mooteval: option '--eval' is ambiguous; possibilities: '--eval-first' "
        "'--eval-second'\n", "mooteval: unknown option 'help'.\n"]
    assert parse_command_line(["-x"]).messages[0] == "mooteval: invalid option -- 'x'\n"
    assert parse_command_line(["-v"]).messages[0] == \
        "mooteval: option requires an argument -- 'v'\n"
    assert parse_command_line(["--eval-first=1"]).messages[0] == \
        "mooteval: option '--eval-first' doesn't allow an argument\n"
    status, out, err = run("--bogus", "a", "b")
    assert status == 1 and out == "" and "unrecognized option '--bogus'" in err


def test_repeated_options_warn_and_the_last_value_wins():
    options = parse_command_line(["-v1", "-v", "4", "-1", "-1"])
    assert options.verbose == 4 and options.eval_first
    assert options.messages == ["mooteval: `--verbose' (`-v') option given more than once\n",
                                "mooteval: `--eval-first' (`-1') option given more than once\n"]


@pytest.mark.parametrize("text, value", [("3", 3), (" -2x", -2), ("x", 0), ("", 0),
                                         ("+7", 7), ("99999999999", 2 ** 31 - 1)])
def test_atoi(text, value):
    assert atoi(text) == value


def test_rc_file_syntax_as_implemented(tmp_path):
    rc = tmp_path / "opts.rc"
    # a value-less flag takes the next line as its value: "verbose 4" is lost
    rc.write_text("# comment\n  verbose=3\neval-first\nverbose 4\nbogus 1\ninput-format  wd x \n")
    options = parse_command_line(["-c", str(rc), "a", "b"])
    assert options.verbose == 3 and options.eval_first and options.input_format == "wd x "
    # the rc reader's counter: comment 1, two skipped spaces, then one per entry
    assert options.messages == ["mooteval: unknown long option 'bogus'.\n",
                                f"mooteval: error in file '{rc}' at line 6.\n"]
    missing = parse_command_line(["-c", str(tmp_path / "no.rc")])
    assert missing.messages == [f"mooteval: warning: open failed for rc-file "
                                f"'{tmp_path / 'no.rc'}': No such file or directory\n"]


def test_rc_file_that_includes_itself_stops(tmp_path):
    rc = tmp_path / "self.rc"
    rc.write_text(f"rcfile {rc}\n")
    options = parse_command_line(["-c", str(rc)])
    assert any("nested too deeply" in message for message in options.messages)


# --- comparison and summary -----------------------------------------------------------

def test_hand_worked_well_done_pair(testdata):
    """testdata/tagger/README.md works these figures out token by token."""
    status, out, err = run("-v3", str(testdata / "tagger" / "gold.wd"),
                           str(testdata / "tagger" / "system.wd"))
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert lines[:4] == [
        "-b:---:---\tcat\tNOUN\t[NOUN]\t[VERB]\t/\tcat\tVERB\t[NOUN]\t[VERB]",
        "--:---:e--\tsat\tVERB\t[VERB]\t/\tsat\tVERB",
        "--:e--:---\tIt\tPRON\t/\tIt\tPRON\t[PRON]",
        "-b:---:--x\truns\tVERB\t[NOUN]\t[VERB]\t/\truns\tNOUN\t[NOUN]"]
    assert lines[6:9] == ["%%  + NTokens             :         6",
                          "%%  + NSentences          :         3",
                          f"%%  + File-1              : {testdata / 'tagger' / 'gold.wd'}"]
    assert lines[10:16] == [
        "%%    - Avg. Class Size   :                                    1.40",
        "%%    - Class Given (+/-) :         5 ( 83.33%) /         1 ( 16.67%)",
        "%%    - Saves       (+/-) :         1 (100.00%) /         0 (  0.00%)",
        "%%    - Int. Cover  (+/-) :         6 (100.00%) /         0 (  0.00%)",
        "%%    - Ext. Cover  (+/-) :         6 (100.00%) /         0 (  0.00%)",
        "%%    - Disambig.   (+/-) :         4 ( 66.67%) /         2 ( 33.33%)"]
    assert lines[23] == "%%    - Disambig.   (+/-) :         3 ( 60.00%) /         2 ( 40.00%)"
    assert lines[-3:-1] == [
        "%%  + Tokens Equal  (+/-) :         6 (100.00%) /         0 (  0.00%)",
        "%%  + Tags Equal    (+/-) :         4 ( 66.67%) /         2 ( 33.33%)"]


def test_eval_first_hides_file_two_flags_and_figures(testdata):
    _, out, _ = run("-v3", "-1", str(testdata / "tagger" / "gold.wd"),
                    str(testdata / "tagger" / "system.wd"))
    listed = [line.split("\t")[1] for line in out.splitlines() if not line.startswith("%%")]
    assert listed == ["cat", "It", "runs"]  # sat's only flag is file 2's empty class
    assert out.count("Avg. Class Size") == 1


def test_misaligned_medium_files_are_not_resynchronised(testdata):
    status, out, err = run("-v4", str(testdata / "tagger" / "gold.tt"),
                           str(testdata / "tagger" / "system-short.tt"))
    assert status == 0
    assert err == ("mooteval: sentence lengths differ at lines 5/4!\n"
                   "mooteval: sentence lengths differ at lines 6/6!\n"
                   "mooteval: sentence lengths differ at lines 9/7!\n"
                   "mooteval: file lengths differ at lines 10/7!\n")
    listing = out[:out.index("%%=")].splitlines()
    assert listing[0] == "--:---:---\t%% sent_id = 1\t/\tThe\tDET"
    assert "tb:e--:e--\tsat\tVERB\t/\t.\tPUNCT" in listing
    assert listing[-1] == "tb:e--:e--\truns\tVERB\t/\t%% (EOF)\t"  # stale: It / runs
    assert "%%  + NSentences          :         0" in out
    assert "%%  + Tokens Equal  (+/-) :         2 ( 40.00%) /         3 ( 60.00%)" in out


def test_bail_out_after_more_than_100_hard_errors(write):
    first = write("a.tt", "".join(f"w{i}\tX\n\n" for i in range(120)))
    second = write("b.tt", "".join(f"w{i}\tX\nv\tY\n\n" for i in range(120)))
    status, _, err = run("-v1", first, second)
    lines = err.splitlines()
    assert status == 0 and len(lines) == 102
    assert lines[-1] == "mooteval: too many hard errors (101 > 100) -- bailing out!"


def test_summary_special_values():
    empty = compare_items(read_items("", MEDIUM), read_items("", MEDIUM), 2, (True, True))
    text = summary(empty, ("a", "b"), "Native", True, (True, True), "mooteval")
    assert "%%  + NTokens             :         1" in text
    assert "%%    - Saves       (+/-) :         0 (  -nan%) /         0 (  -nan%)" in text
    assert "%%  + Tags Equal    (+/-) :         1 (100.00%) /         0 (  0.00%)" in text
    medium = compare_items(read_items("a\tX\n", MEDIUM), read_items("a\tX\n", MEDIUM), 2,
                           (True, True))
    text = summary(medium, ("a", "b"), "Native", True, (True, True), "mooteval")
    assert f"%%    - Avg. Class Size   : {'-nan':>39}" in text


def test_status_string_and_display():
    assert status_string(T | B | E1 | X2) == "tb:e--:--x"
    assert status_string(0) == "--:---:---"
    token = read_items("w\tN\t[N]\tV\n", WELL_DONE)[0]
    assert display(token) == "w\tN\t[N]\tV"
    assert display(read_items("%%\n", WELL_DONE)[0]) == ""
    assert display(read_items("%%$WB$\n", WELL_DONE)[0]) == "%%$WB$"


@given(st.lists(st.tuples(st.text("ab ", min_size=1, max_size=3),
                          st.sampled_from(["N", "V", "A"]),
                          st.lists(st.sampled_from(["[N]", "[V]", "A"]), max_size=3)),
                min_size=1, max_size=12),
       st.integers(min_value=1, max_value=4))
def test_a_file_against_itself_is_all_equal(tokens, sentence_length):
    lines = []
    for index, (text, best, analyses) in enumerate(tokens, 1):
        lines.append("\t".join([text.strip(" ") or "x", best, *analyses]) + "\n")
        if index % sentence_length == 0:
            lines.append("\n")
    items = read_items("".join(lines), WELL_DONE)
    result = compare_items(items, items, 4, (True, True))
    assert result.tokens == len(tokens) and result.errors == []
    assert result.text_mismatches == result.best_mismatches == 0
    assert all(step.flags is None or not step.flags & (T | B) for step in result.steps)
    assert result.files[0] == result.files[1]
    assert result.sentences == -(-len(tokens) // sentence_length) + (len(tokens) %
                                                                     sentence_length == 0)


# --- the command ----------------------------------------------------------------------

def test_output_file_gets_listing_and_summary_and_stderr_the_summary(testdata, tmp_path):
    target = tmp_path / "out.txt"
    status, out, err = run("-v3", "-o", str(target), str(testdata / "tagger" / "gold.wd"),
                           str(testdata / "tagger" / "system.wd"))
    assert status == 0 and out == ""
    written = target.read_text()
    assert written.startswith("-b:---:---\tcat") and written.endswith(err)
    assert err.startswith("%%===")


def test_output_file_never_overwrites_an_input(testdata, tmp_path):
    source = tmp_path / "a.tt"
    source.write_text("a\tX\n")
    status, _, err = run("-o", str(source), str(source), str(testdata / "tagger" / "gold.tt"))
    assert status == 1 and "it is an input file" in err
    assert source.read_text() == "a\tX\n"


def test_exit_statuses(testdata, tmp_path):
    status, out, err = run(str(testdata / "tagger" / "gold.tt"))
    assert status == 1 and out == TAGGER_HELP
    assert err == "mooteval: you must specify two files to compare!\n"
    status, out, err = run("-v0", str(testdata / "tagger" / "gold.tt"), str(tmp_path / "no"))
    assert status == 2 and err == f'mooteval: open failed for file "{tmp_path / "no"}": ' \
                                  "No such file or directory"
    assert run("-h")[:2] == (0, TAGGER_HELP) and run("--version")[0] == 0
    status, _, err = run("-I", "xml", "a", "b")
    assert status == 1 and "XML" in err


def test_undecodable_bytes_are_compared_and_written_back(write_bytes, tmp_path):
    first = write_bytes("a.tt", b"caf\xe9\tN\n\n")
    second = write_bytes("b.tt", b"caf\xe9\tV\n\n")
    target = tmp_path / "out.txt"
    status, _, _ = run("-v4", "-o", str(target), first, second)
    assert status == 0
    assert target.read_bytes().startswith(b"-b:e--:e--\tcaf\xe9\tN\t/\tcaf\xe9\tV\n")


def test_help_topic():
    out, err = io.StringIO(), io.StringIO()
    assert main(["help", "tagger"], out, err) == 0 and out.getvalue() == TAGGER_HELP

"""Command line: ``conll_eval validate`` and the scorer's ``--strict``."""
import json
import subprocess
import sys

import pytest

from helpers import run_cli

VALID = (
    "# sent_id = a\n# text = x y\n"
    "1\tx\tx\tNOUN\t_\t_\t0\troot\t_\t_\n"
    "2\ty\ty\tNOUN\t_\t_\t1\tdep\t_\t_\n\n")
# one head-self-loop (sentence b) and one unknown UPOS (sentence c)
INVALID = VALID + VALID.replace("= a", "= b").replace("1\tdep", "2\tdep") + \
    VALID.replace("= a", "= c").replace("NOUN\t_\t_\t0", "FOO\t_\t_\t0")


run = run_cli


@pytest.fixture
def files(write):
    return write("valid.conllu", VALID), write("invalid.conllu", INVALID)


def test_valid_file_passes(files):
    code, out, err = run("validate", files[0])
    assert (code, out, err) == (0, "", "*** PASSED ***\n")


def test_every_incident_in_the_house_format(files):
    code, out, err = run("validate", files[1])
    assert code == 1
    assert out.splitlines() == [
        f"{files[1]}:9: error [L2 syntax head-self-loop] HEAD == ID for 2 (sent_id=b)",
        f"{files[1]}:13: error [L2 morpho unknown-upos] Unknown UPOS tag: 'FOO'. (sent_id=c)",
    ]
    assert err == "MORPHO errors: 1\nSYNTAX errors: 1\n*** FAILED *** with 2 errors\n"


def test_level_1_ignores_level_2_checks(files):
    assert run("validate", "--level", "1", files[1])[0] == 0
    code, _out, err = run("validate", "--level", "6", files[1])
    assert code == 2 and "not implemented" in err
    code, _out, err = run("validate", "--level", "4", files[1])  # as udvalidate: --lang needed
    assert code == 2 and "--lang" in err


def test_udtools_format_and_file_prefix(files):
    code, out, _err = run("validate", "--format", "udtools", files[1])
    assert out.splitlines()[0] == "[Line 9 Sent b]: [L2 SYNTAX head-self-loop] HEAD == ID for 2"
    code, out, _err = run("validate", "--format", "udtools", files[0], files[1])
    assert out.splitlines()[:2] == [
        "[File invalid.conllu Line 3 Sent a]: [L2 METADATA non-unique-sent-id] Non-unique "
        "sent_id attribute 'a'.",
        "[File invalid.conllu Line 9 Sent b]: [L2 SYNTAX head-self-loop] HEAD == ID for 2"]


def test_json_document(files):
    code, out, err = run("validate", "--format", "json", *files)
    doc = json.loads(out)
    assert code == 1
    assert [i["testid"] for i in doc["incidents"]] == ["non-unique-sent-id", "head-self-loop",
                                                       "unknown-upos"]  # 'a' is in both files
    assert doc["summary"] == {"errors": 3, "warnings": 0, "passed": False,
                              "by_class": {"METADATA": 1, "SYNTAX": 1, "MORPHO": 1}}
    assert doc["incidents"][1] == {"level": 2, "class": "SYNTAX", "testid": "head-self-loop",
                                   "path": files[1], "line": 9, "sent_id": "b",
                                   "message": "HEAD == ID for 2", "severity": "error", "hint": None}


def test_max_err_per_class(write):
    path = write("many.conllu", "".join(
        VALID.replace("= a", f"= s{k}").replace("1\tdep", "2\tdep") for k in range(5)))
    code, out, err = run("validate", "--max-err", "2", path)
    assert out.splitlines()[2:] == ["...suppressing further messages regarding ERROR/SYNTAX"]
    assert len(out.splitlines()) == 3 and "SYNTAX errors: 5" in err  # all are counted
    assert len(run("validate", "--max-err", "0", path)[1].splitlines()) == 5


def test_filters_and_quiet(files):
    assert run("validate", files[1], "-e", "head-self-loop", "unknown-upos")[0] == 0
    code, out, _ = run("validate", files[1], "-i", "unknown-upos")
    assert code == 1 and len(out.splitlines()) == 1
    assert run("validate", "-q", files[1]) == (1, "", "")
    code, _out, err = run("validate", files[1], "-e", "no-such-test")
    assert code == 2 and "no-such-test" in err


def test_warnings_do_not_fail(write):
    path = write("w.conllu", VALID.replace("root\t_\t_", "root\t_\tGloss=a||b"))
    code, out, err = run("validate", path)
    assert code == 0 and "warning [L2 format empty-misc]" in out
    assert err == "Warnings: 1\n*** PASSED ***\n"
    assert run("validate", "--no-warnings", path) == (0, "", "*** PASSED ***\n")


def test_unreadable_files_are_reported_and_the_rest_is_checked(files, tmp_path):
    code, out, err = run("validate", str(tmp_path / "missing.conllu"), str(tmp_path), files[1])
    assert code == 1
    lines = out.splitlines()
    assert lines[0] == f"{tmp_path / 'missing.conllu'}: error [file-not-found] no such file or directory"
    assert lines[1].endswith("error [not-a-file] is a directory, not a CoNLL-U file")
    assert "head-self-loop" in lines[2]
    assert "INPUT errors: 2" in err


def test_stdin_and_module_entry_point(files):
    data = open(files[1], "rb").read()
    proc = subprocess.run([sys.executable, "-m", "conll_eval", "validate", "-"], input=data,
                          capture_output=True)
    assert proc.returncode == 1
    assert proc.stdout.decode().startswith("-:9: error [L2 syntax head-self-loop]")
    proc = subprocess.run([sys.executable, "-m", "conll_eval", "validate"], input=data,
                          capture_output=True)
    assert proc.returncode == 1 and b"head-self-loop" in proc.stdout


def test_invalid_utf8_and_crlf_are_incidents(write_bytes):
    path = write_bytes("bad.conllu", VALID.replace("x y", "x \xe9").encode("latin-1")
                       .replace(b"\n", b"\r\n"))
    code, out, _err = run("validate", "--max-err", "0", path)
    ids = [line.split("[", 1)[1].split("]")[0].split()[-1] for line in out.splitlines()]
    assert code == 1 and ids[0] == "invalid-utf" and ids[-1] == "non-unix-newline"


def test_strict_scoring(files):
    valid, invalid = files
    assert run("--strict", valid, valid)[0] == 0
    code, out, err = run("--strict", valid, invalid)
    assert code == 1 and out == ""
    assert err.splitlines()[0] == (f"{invalid}:9: error [L2 syntax head-self-loop] HEAD == ID "
                                   "for 2 (sent_id=b)")
    assert err.splitlines()[-1] == ("conll_eval: error [validation-failed] --strict: 2 validation "
                                    "error(s); nothing "
                                    "scored (see 'conll_eval validate')")


def test_strict_rejects_what_the_official_scorer_accepts(files, write):
    """An unknown UPOS is no error for the official scorer, but is one at level 2."""
    upos_only = write("upos.conllu", VALID.replace("NOUN\t_\t_\t0", "FOO\t_\t_\t0"))
    assert run(files[0], upos_only)[0] == 0
    code, _out, err = run("--strict", files[0], upos_only)
    assert code == 1 and "[L2 morpho unknown-upos]" in err


def test_strict_reads_stdin_once(files):
    valid = files[0]
    data = open(valid, "rb").read()
    proc = subprocess.run([sys.executable, "-m", "conll_eval", "--strict", valid, "-"],
                          input=data, capture_output=True)
    assert proc.returncode == 0 and proc.stdout.startswith(b"LAS F1 Score: 100.00")


# ---- friction removed (issue 11, point 12) ----------------------------------------------

def test_exclude_swallowing_the_files_says_how_to_end_the_list(files):
    code, out, err = run("validate", "-e", "head-self-loop", files[1])
    assert code == 2 and out == ""
    assert "unknown test id(s): " + files[1] in err
    assert "put -- before the files (conll_eval validate -e ID -- FILE)" in err


@pytest.mark.parametrize("ids", [["head-self-loop", "unknown-upos"], ["head-self-loop,unknown-upos"]])
def test_exclude_ids_then_double_dash_then_files(files, ids):
    code, out, err = run("validate", "-e", *ids, "--", files[1])
    assert (code, out, err) == (0, "", "*** PASSED ***\n")


def test_include_only_comma_separated(files):
    code, out, _ = run("validate", "-i", "unknown-upos,head-self-loop", "--", files[1])
    assert code == 1 and len(out.splitlines()) == 2


def test_a_plain_unknown_id_gets_no_file_hint(files):
    code, _, err = run("validate", "-e", "no-such-test", "--", files[0])
    assert code == 2 and err == "conll_eval validate: error [usage] unknown test id(s): no-such-test\n"


def test_per_file_keeps_sent_ids_of_each_file_apart(write):
    first, second = write("a.conllu", VALID), write("b.conllu", VALID)
    code, out, _ = run("validate", first, second)
    assert code == 1 and "non-unique-sent-id" in out and out.startswith(second)
    assert run("validate", "--per-file", first, second)[:2] == (0, "")
    # within one file a repeated sent_id is still an error with --per-file
    twice = write("twice.conllu", VALID + VALID)
    code, out, _ = run("validate", "--per-file", first, twice)
    assert code == 1 and out.startswith(f"{twice}:") and "non-unique-sent-id" in out


def test_an_empty_file_is_no_pass(write):
    empty = write("empty.conllu", "")
    code, out, err = run("validate", empty)
    assert code == 1
    assert out == f"{empty}: error [empty-file] the file is empty: nothing to validate (an empty input is no pass)\n"
    assert err == "INPUT errors: 1\n*** FAILED *** with 1 errors\n"


def test_an_empty_file_among_others_in_json(files, write):
    empty = write("empty.conllu", "")
    code, out, _ = run("validate", "--format", "json", files[0], empty)
    document = json.loads(out)
    assert code == 1 and document["summary"]["passed"] is False
    assert [i["testid"] for i in document["incidents"]] == ["empty-file"]


def test_empty_stdin_is_no_pass():
    result = subprocess.run([sys.executable, "-m", "conll_eval", "validate"], input="",
                            capture_output=True, text=True)
    assert result.returncode == 1 and "-: error [empty-file]" in result.stdout


def test_no_file_and_a_terminal_on_stdin_is_a_usage_error(monkeypatch):
    class Terminal:
        def isatty(self):
            return True
    monkeypatch.setattr(sys, "stdin", Terminal())
    code, _, err = run("validate")
    assert code == 2 and "no FILE given and standard input is a terminal" in err


def test_a_pattern_that_matched_nothing_is_named(tmp_path):
    pattern = str(tmp_path / "raw" / "*.conllu")
    code, out, _ = run("validate", pattern)
    assert code == 1
    assert out == f"{pattern}: error [file-not-found] no such file or directory (a shell pattern that matched no file?)\n"


class _Terminal(__import__("io").StringIO):
    def isatty(self):
        return True


def test_progress_on_a_terminal_for_large_files(write, monkeypatch):
    import conll_eval.validate as validate_module
    from conll_eval.cli import main
    monkeypatch.setattr(validate_module, "PROGRESS_BYTES", 1 << 16)
    big = write("big.conllu", "".join(VALID.replace("= a", f"= s{i}") for i in range(6000)))
    out, err = __import__("io").StringIO(), _Terminal()
    assert main(["validate", big], stdout=out, stderr=err) == 0
    shown = err.getvalue()
    assert f"\r\033[K{big}: 0 MB of 0 MB (" in shown and "%)" in shown
    assert shown.endswith("\r\033[K*** PASSED ***\n")  # erased before the summary
    # never with -q, never when stderr is no terminal
    err = _Terminal()
    assert main(["validate", "-q", big], stdout=out, stderr=err) == 0 and err.getvalue() == ""
    assert run("validate", big)[2] == "*** PASSED ***\n"


def test_plain_words_hints_reach_the_text_and_json_outputs(write_bytes):
    """A BOM is named in the house format and in JSON; udtools' own format stays udtools'."""
    bom = write_bytes("bom.conllu", b"\xef\xbb\xbf" + VALID.encode())
    code, out, _ = run("validate", bom)
    first = out.splitlines()[0]
    assert code == 1 and first.startswith(f"{bom}:1: error [L1 format invalid-line]")
    assert first.endswith("(hint: the file starts with a byte-order mark (U+FEFF); remove it)")
    hints = [i["hint"] for i in json.loads(run("validate", "--format", "json", bom)[1])["incidents"]]
    assert hints[0] == "the file starts with a byte-order mark (U+FEFF); remove it"
    assert set(hints[1:]) <= {None}
    assert "hint" not in run("validate", "--format", "udtools", bom)[1]


def test_an_empty_compressed_file_is_no_pass(write_bytes):
    import gzip
    empty = write_bytes("empty.conllu.gz", gzip.compress(b""))
    code, out, _ = run("validate", empty)
    assert code == 1 and out.startswith(f"{empty}: error [empty-file]")
    valid = write_bytes("valid.conllu.gz", gzip.compress(VALID.encode()))
    assert run("validate", valid)[:2] == (0, "")

"""Tests of the strict CoNLL-U validator (conll_eval.validate) and its formatter.

* one small hand-written file per implemented test id: the id and the line are asserted;
* the formatters, the summary and ``--max-err``.

Parity with the real UD validator is in ``test_validate_parity.py``.
"""
from __future__ import annotations

import io
import json

import pytest

from conll_eval.errors import Incident
from conll_eval.report.validation import (format_incident, format_udtools, limit_per_class,
                                          summary, to_json)
from conll_eval.validate import IMPLEMENTED_IDS, validate_file, validate_lines

from conftest import TESTDATA

VALID = """\
# newdoc id = d1
# sent_id = s1
# text = The cats sleep.
1\tThe\tthe\tDET\tDT\tDefinite=Def|PronType=Art\t2\tdet\t_\t_
2\tcats\tcat\tNOUN\tNNS\tNumber=Plur\t3\tnsubj\t_\t_
3\tsleep\tsleep\tVERB\tVBP\tMood=Ind|Tense=Pres\t0\troot\t_\tSpaceAfter=No
4\t.\t.\tPUNCT\t.\t_\t3\tpunct\t_\t_

# sent_id = s2
# text = Im Haus
1-2\tIm\t_\t_\t_\t_\t_\t_\t_\t_
1\tIn\tin\tADP\tAPPR\t_\t3\tcase\t_\t_
2\tdem\tder\tDET\tART\tCase=Dat|Definite=Def\t3\tdet\t_\t_
3\tHaus\tHaus\tNOUN\tNN\tCase=Dat|Gender=Neut|Number=Sing\t0\troot\t_\t_

"""


def run(text, level=2):
    return list(validate_lines(io.StringIO(text, newline=""), "t.conllu", level))


def errors(text, level=2):
    return [(i.testid, i.line) for i in run(text, level) if i.severity == "error"]


def sent(*rows, comments=("# sent_id = a", "# text = x y")):
    return "\n".join(list(comments) + ["\t".join(r) if isinstance(r, tuple) else r
                                       for r in rows]) + "\n\n"


def w(i, form="x", head="0", deprel="root", upos="NOUN", feats="_", deps="_", misc="_",
      xpos="_", lemma="x"):
    return (str(i), form, lemma, upos, xpos, feats, str(head), deprel, deps, misc)


XY = [w(1, "x"), w(2, "y", head=1, deprel="dep")]


def test_valid_file_passes():
    assert run(VALID) == []
    assert run(sent(*XY)) == []


# One hand-written file per test id under testdata/validate/L<level>/<testid>.conllu, with
# what udvalidate printed on it at that level (2 for level 1; --lang from a first line
# '# validator_lang = xx', else ud) in <testid>.udvalidate.txt (made by scripts/make_golden.py).
CASES = sorted(TESTDATA.joinpath("validate").glob("L*/*.conllu"))
#: ids without a case file: udtools cannot emit them from a file (see the notes)
NO_CASE_FILE = {
    # every (pseudo-)empty line ends a sentence when reading a file, so udtools can only
    # report this one through its validate_sentence() API
    "extra-empty-line",
    # the FEATS regex already requires valid values, so this check never fires (in udtools too)
    "invalid-feature-value",
}


def _ud_data_dir():
    """The UD validator's language data folder of the oracle venv (levels 4-5), or None."""
    import os
    from pathlib import Path
    try:
        from oracles import DEFAULT_DEST, oracle_dir
    except ImportError:
        return None
    for base in filter(None, [os.environ.get("CONLL_EVAL_ORACLES"), oracle_dir(), DEFAULT_DEST]):
        for folder in sorted(Path(base).glob("venv/lib/python3*/site-packages/udtools/data")):
            return str(folder)
    return None


UD_DATA = _ud_data_dir()


def case_options(path):
    """(level, lang) of a case file as recorded: its folder's level (2 for L1) and the
    language of its '# validator_lang = xx' comment ('ud' without one)."""
    level = max(2, int(path.parent.name[1:]))
    first = path.read_text(encoding="utf-8").split("\n", 1)[0]
    return level, first.split("= ", 1)[1] if first.startswith("# validator_lang = ") else "ud"


def validate_case(path, level=None):
    """validate_file of a case file at its level (or ``level``), in its language."""
    own, lang = case_options(path)
    level = own if level is None else level
    if level >= 4 and UD_DATA is None:
        pytest.skip("the UD validator's language data (udtools in the oracle venv) is missing")
    return validate_file(str(path), level, lang=lang, data_dir=UD_DATA if level >= 4 else None)


def udvalidate_golden(path):
    """(exit code, incident and summary lines) recorded from udvalidate for a case file."""
    lines = path.with_suffix(".udvalidate.txt").read_text(encoding="utf-8").splitlines()
    code = int(lines[0].split()[1])
    kept = [line for line in lines[1:] if line.startswith(("[Line ", "Warnings: ", "***"))
            or line.endswith(" errors: " + line.rsplit(" ", 1)[-1])]
    return code, kept


@pytest.mark.parametrize("path", CASES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_case_file_gives_udvalidates_output(path):
    """Same incident lines (ids, lines, messages), summary and verdict as udvalidate."""
    code, expected = udvalidate_golden(path)
    incidents = validate_case(path)
    assert [format_udtools(i) for i in incidents] + summary(incidents).splitlines() == expected
    assert code == (1 if any(i.severity == "error" for i in incidents) else 0)


@pytest.mark.parametrize("path", CASES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_case_file_triggers_its_test_id_at_its_level(path):
    testid, level = path.stem, int(path.parent.name[1:])
    assert testid in IMPLEMENTED_IDS
    below = [i.testid for i in validate_case(path, level - 1)] if level > 1 else []
    if testid == "empty-string-in-xpos":
        assert below == ["empty-column"]  # an empty XPOS is an empty column at level 1
    else:
        assert below == []  # the problem is invisible below its level
    first = validate_case(path)[len(below)]
    assert (first.testid, first.level) == (testid, level)


def test_case_files_cover_implemented_ids():
    assert IMPLEMENTED_IDS - {p.stem for p in CASES} == NO_CASE_FILE


def test_non_unix_newline_is_reported_once_at_the_end():
    text = sent(*XY).replace("\n", "\r\n")
    assert errors(text) == [("non-unix-newline", 5)]
    # chunking must not matter: a CRLF split across chunks, lines given without splitting
    chunks = [text[:7], text[7:30], text[30:]]
    assert [(i.testid, i.line) for i in validate_lines(chunks, "t")] == errors(text)


def test_lone_cr_splits_lines_like_universal_newlines():
    text = sent(*XY).replace("\n", "\r")
    assert errors(text) == [("non-unix-newline", 5)]


def test_every_incident_is_reported_in_order():
    text = sent(w(1, upos="FOO"), w(2, "y", head=1, deprel="bar")) + sent(*XY)
    assert errors(text) == [("unknown-upos", 3), ("unknown-udeprel", 4),
                            ("non-unique-sent-id", 8)]


def test_dependency_order_stops_later_checks():
    # an ID problem hides the HEAD and label problems of that sentence
    text = sent(w(1, upos="FOO"), w(3, head=9, deprel="bar")) + sent(*XY, comments=(
        "# sent_id = b", "# text = x y"))
    assert errors(text) == [("word-id-sequence", 3), ("word-interval-out", 4)]


def test_level1_ignores_level2():
    text = sent(w(1, upos="FOO"), w(2, head=2, deprel="bar"), comments=())
    assert errors(text, level=1) == []
    assert errors(text, level=0) == []


def test_warnings_do_not_fail():
    incs = run(sent(w(1, misc="Gloss=a|"), XY[1]))
    assert [(i.testid, i.severity, i.line) for i in incs] == [("empty-misc", "warning", 3)]
    assert summary(incs) == "Warnings: 1\n*** PASSED ***"


def test_validate_file_and_bad_utf8(tmp_path):
    p = tmp_path / "bad.conllu"
    p.write_bytes(sent(w(1, form="x"), XY[1]).replace("\tx\tx", "\tx\xffx").encode("latin-1"))
    found = [(i.testid, i.line, i.klass, i.level) for i in validate_file(str(p))]
    assert found[0] == ("invalid-utf", 3, "UNICODE", 1)
    q = tmp_path / "ok.conllu"
    q.write_text(VALID, encoding="utf-8")
    assert validate_file(str(q)) == []


def test_validate_file_reads_stdin(monkeypatch):
    class Stdin:
        buffer = io.BytesIO(sent(w(1), w(2, "y", head=2, deprel="dep")).encode())
    monkeypatch.setattr("sys.stdin", Stdin)
    assert [(i.testid, i.path, i.line) for i in validate_file("-")] == [
        ("head-self-loop", "-", 4)]


def test_incident_and_formatting():
    text = sent(w(1), w(2, "y", head=2, deprel="dep"))
    (inc,) = run(text)
    assert isinstance(inc.incident, Incident)
    assert inc.incident.code == "head-self-loop" and inc.code == "head-self-loop"
    assert str(inc.incident) == "t.conllu:4: error [head-self-loop] HEAD == ID for 2 (sent_id=a)"
    assert format_incident(inc) == ("t.conllu:4: error [L2 syntax head-self-loop] HEAD == ID for"
                                    " 2 (sent_id=a)")
    assert format_udtools(inc) == "[Line 4 Sent a]: [L2 SYNTAX head-self-loop] HEAD == ID for 2"
    assert summary([inc]) == "SYNTAX errors: 1\n*** FAILED *** with 1 errors"
    assert summary([]) == "*** PASSED ***"
    (obj,) = json.loads(to_json([inc]))
    assert obj == {"level": 2, "class": "SYNTAX", "testid": "head-self-loop",
                   "path": "t.conllu", "line": 4, "sent_id": "a",
                   "message": "HEAD == ID for 2", "severity": "error", "hint": None}


def test_summary_class_order_and_limit():
    text = "".join(sent(w(1, upos="FOO"), w(2, "y", head=1, deprel="bar"),
                        comments=(f"# sent_id = s{k}", "# text = x y")) for k in range(3))
    incs = run(text)
    assert summary(incs) == ("MORPHO errors: 3\nSYNTAX errors: 3\n"
                             "*** FAILED *** with 6 errors")
    limited = [format_incident(i) for i in limit_per_class(incs, 2)]
    assert limited.count("...suppressing further messages regarding ERROR/MORPHO") == 1
    assert limited.count("...suppressing further messages regarding ERROR/SYNTAX") == 1
    assert len(limited) == 6  # 2 + 2 shown, 2 markers
    assert list(limit_per_class(incs, 0)) == incs

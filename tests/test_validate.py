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


# (text, expected first (testid, line)) -- each file holds one problem
L1_CASES = {
    "invalid-line": (sent(*XY).replace("# text = x y\n", "# text = x y\nfoo\n"), 3),
    "pseudo-empty-line": (sent(*XY)[:-1] + " \n", 5),
    "misplaced-comment": (sent(XY[0], "# late", XY[1]), 4),
    "empty-sentence": ("\n" + sent(*XY), 1),
    "missing-empty-line": (sent(*XY)[:-1], 4),
    "number-of-columns": (sent(*XY).replace("\tdep\t_\t_", "\tdep\t_"), 4),
    "empty-column": (sent(w(1, lemma=""), w(2, head=1, deprel="dep")), 3),
    "invalid-whitespace": (sent(w(1, upos="NO UN"), w(2, head=1, deprel="dep")), 3),
    "invalid-whitespace-mwt": (sent(("1-2", "x y", "_", "_", "_", "_", "_", "_", "_", "_"),
                                    *XY), 3),
    "leading-whitespace": (sent(w(1, form=" x"), w(2, "y", head=1, deprel="dep")), 3),
    "trailing-whitespace": (sent(w(1, misc="_ "), w(2, "y", head=1, deprel="dep")), 3),
    "repeated-whitespace": (sent(w(1, form="x  z"), w(2, "y", head=1, deprel="dep")), 3),
    "invalid-word-id": (sent(w("1a"), w(2, head=1, deprel="dep")), 3),
    "word-id-sequence": (sent(w(1), w(3, head=1, deprel="dep")), 3),
    "misplaced-word-interval": (sent(XY[0], ("1-2", "xy", "_", "_", "_", "_", "_", "_", "_",
                                             "_"), XY[1]), 4),
    "reversed-word-interval": (sent(("2-1", "xy", "_", "_", "_", "_", "_", "_", "_", "_"),
                                    *XY), 3),
    "word-interval-out": (sent(("1-3", "xy", "_", "_", "_", "_", "_", "_", "_", "_"), *XY), 3),
    "overlapping-word-intervals": (sent(("1-2", "xy", "_", "_", "_", "_", "_", "_", "_", "_"),
                                        ("1-2", "xy", "_", "_", "_", "_", "_", "_", "_", "_"),
                                        *XY), 4),
    "misplaced-empty-node": (sent(XY[0], w("1.2", deprel="_", head="_"), XY[1]), 4),
    "unicode-normalization": (sent(w(1, form="e\u0301"), XY[1],
                                   comments=("# sent_id = a", "# text = \u00e9 y")), 3),
    "invalid-utf": (sent(w(1, form="\ufffd"), XY[1],
                         comments=("# sent_id = a", "# text = \ufffd y")), 2),
}

L2_CASES = {
    "invalid-head": (sent(w(1), w(2, head="x", deprel="dep")), 4),
    "unknown-head": (sent(w(1), w(2, head=5, deprel="dep")), 4),
    "invalid-deps": (sent(w(1, deps="0root"), w(2, head=1, deprel="dep")), 3),
    "invalid-ehead": (sent(w(1, deps="0:root"), w(2, head=1, deprel="dep", deps="01:dep")), 4),
    "unknown-ehead": (sent(w(1, deps="0:root"), w(2, head=1, deprel="dep", deps="7:dep")), 4),
    "head-self-loop": (sent(w(1), w(2, head=2, deprel="dep")), 4),
    "multiple-roots": (sent(w(1), w(2)), 3),
    "non-tree": (sent(w(1, head=2, deprel="dep"), w(2, head=1, deprel="dep")), 3),
    "mwt-nonempty-field": (sent(("1-2", "xy", "xy", "_", "_", "_", "_", "_", "_", "_"), *XY,
                                comments=("# sent_id = a", "# text = xy")), 3),
    "empty-node-nonempty-field": (sent(XY[0], w("1.1", deprel="_", head=1, deps="1:dep"),
                                       w(2, "y", head=1, deprel="dep", deps="1:dep"),
                                       comments=("# sent_id = a", "# text = x x y")), 4),
    "unknown-upos": (sent(w(1, upos="FOO"), XY[1]), 3),
    "empty-string-in-xpos": (sent(w(1, xpos=""), XY[1]), 3),
    "unsorted-features": (sent(w(1, feats="Number=Sing|Case=Nom"), XY[1]), 3),
    "invalid-feature": (sent(w(1, feats="case=Nom"), XY[1]), 3),
    "repeated-feature-value": (sent(w(1, feats="Case=Acc,Acc"), XY[1]), 3),
    "unsorted-feature-values": (sent(w(1, feats="Case=Nom,Acc"), XY[1]), 3),
    "repeated-feature": (sent(w(1, feats="Case=Acc|Case=Nom"), XY[1]), 3),
    "invalid-deprel": (sent(w(1, deprel="Root"), XY[1]), 3),
    "unknown-udeprel": (sent(XY[0], w(2, "y", head=1, deprel="foo")), 4),
    "unsorted-deps": (sent(w(1, deps="0:root"), w(2, "y", head=1, deprel="dep",
                                                   deps="1:dep|0:root")), 4),
    "unsorted-deps-2": (sent(w(1, deps="0:root"), w(2, "y", head=1, deprel="dep",
                                                     deps="1:obj|1:dep")), 4),
    "repeated-deps": (sent(w(1, deps="0:root"), w(2, "y", head=1, deprel="dep",
                                                   deps="1:dep|1:dep")), 4),
    "deps-self-loop": (sent(w(1, deps="0:root"), w(2, "y", head=1, deprel="dep",
                                                    deps="1:dep|2:dep")), 4),
    "invalid-edeprel": (sent(w(1, deps="0:root"), w(2, "y", head=1, deprel="dep",
                                                     deps="1:Dep")), 4),
    "unknown-eudeprel": (sent(w(1, deps="0:root"), w(2, "y", head=1, deprel="dep",
                                                      deps="1:foo")), 4),
    "repeated-misc": (sent(w(1, misc="Gloss=a|Gloss=b"), XY[1]), 3),
    "edeps-only-sometimes": (sent(*XY) + sent(w(1, deps="0:root"),
                                              w(2, "y", head=1, deprel="dep", deps="1:dep"),
                                              comments=("# sent_id = b", "# text = x y")), 8),
    "missing-sent-id": (sent(*XY, comments=("# text = x y",)), 2),
    "multiple-sent-id": (sent(*XY, comments=("# sent_id = a", "# sent_id = b",
                                             "# text = x y")), 4),
    "non-unique-sent-id": (sent(*XY) + sent(*XY), 8),
    "invalid-sent-id": (sent(*XY, comments=("# sent_id = a b", "# text = x y")), 3),
    "slash-in-sent-id": (sent(*XY, comments=("# sent_id = a/b/c", "# text = x y")), 3),
    "missing-text": (sent(*XY, comments=("# sent_id = a",)), 2),
    "multiple-text": (sent(*XY, comments=("# sent_id = a", "# text = x y", "# text = x y")), 4),
    "empty-text": (sent(*XY, comments=("# sent_id = a", "# text =")), 3),
    "text-trailing-whitespace": (sent(*XY, comments=("# sent_id = a", "# text = x y ")), 3),
    "text-form-mismatch": (sent(XY[0], w(2, "z", head=1, deprel="dep")), 4),
    "missing-spaceafter": (sent(*XY, comments=("# sent_id = a", "# text = xy")), 3),
    "text-extra-chars": (sent(*XY, comments=("# sent_id = a", "# text = x y z")), 3),
    "spaceafter-value": (sent(w(1, misc="SpaceAfter=Yes"), XY[1]), 3),
    "nospaceafter-yes": (sent(w(1, misc="NoSpaceAfter=Yes"), XY[1]), 3),
    "spaceafter-mwt-node": (sent(("1-2", "xy", "_", "_", "_", "_", "_", "_", "_", "_"),
                                 w(1, misc="SpaceAfter=No"), XY[1],
                                 comments=("# sent_id = a", "# text = xy")), 4),
    "multiple-newdoc": (sent(*XY, comments=("# newdoc", "# newdoc", "# sent_id = a",
                                            "# text = x y")), 5),
    "multiple-newpar": (sent(*XY, comments=("# newpar", "# newpar", "# sent_id = a",
                                            "# text = x y")), 5),
    "spaceafter-newdocpar": (sent(XY[0], w(2, "y", head=1, deprel="dep", misc="SpaceAfter=No"))
                             + sent(*XY, comments=("# newpar", "# sent_id = b",
                                                   "# text = x y")), 9),
    "invalid-parallel-id": (sent(*XY, comments=("# sent_id = a", "# parallel_id = X",
                                                "# text = x y")), 4),
    "unconnected-egraph": (sent(w(1, deps="0:root"), w(2, "y", head=1, deprel="dep",
                                                        deps="2.1:dep"),
                                w("2.1", "z", head="_", deprel="_", deps="2:dep"),
                                comments=("# sent_id = a", "# text = x y")), 4),
}


@pytest.mark.parametrize("testid", sorted(L1_CASES))
def test_level1_ids(testid):
    text, line = L1_CASES[testid]
    found = errors(text, level=1)
    assert found and found[0] == (testid, line), found


@pytest.mark.parametrize("testid", sorted(L2_CASES))
def test_level2_ids(testid):
    text, line = L2_CASES[testid]
    level1 = errors(text, level=1)
    if testid == "empty-string-in-xpos":
        assert level1 == [("empty-column", line)]
    else:
        assert level1 == []  # the problem is invisible at level 1
    found = errors(text)[len(level1):]
    assert found and found[0] == (testid, line), found


def test_cases_cover_implemented_ids():
    missing = IMPLEMENTED_IDS - set(L1_CASES) - set(L2_CASES) - {
        "non-unix-newline", "invalid-feature-value", "spaceafter-empty-node",
        "multiple-parallel-id", "non-unique-parallel-id", "parallel-id-alt",
        "parallel-id-part", "empty-misc", "empty-misc-key", "misc-extra-space",
        "misc-attr-typo",
        # every (pseudo-)empty line ends a sentence when reading a file, so udtools can only
        # report this one through its validate_sentence() API
        "extra-empty-line"}
    assert missing == set()


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
                   "message": "HEAD == ID for 2", "severity": "error"}


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

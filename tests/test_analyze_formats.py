"""MaltTab and MaltXML inputs of ``conll_eval analyze`` (conll_eval.io.malt): the
conversion to CoNLL-X, MaltEval's rejections, and MaltEval 1.0's own output on small pairs.

The golden ``testdata/malteval/*.out`` files are the stdout of the MaltEval 1.0 jar, run in
``testdata/malteval`` with ``LC_ALL=C.UTF-8`` as ``java -jar MaltEval.jar -s <x>-sys.<x>
-g <x>-gold.<x> ARGS`` (see GOLDEN below).  The test converts both inputs, writes them to
``tmp_path`` as ``<x>-sys.conll`` and ``<x>-gold.conll`` and runs ``conll_eval analyze`` there;
the three lines that name the files (``Evaluation arguments:``, ``Gold:``, ``Parsed:``) are
compared after putting the original names back.
"""
from __future__ import annotations

import io
import os
import shutil

import pytest

from conll_eval.io.formats import CONLLX as CONLL, MALTTAB as TAB, MALTXML as XML
from conll_eval.io.formats import malteval_format as input_format
from conll_eval.io.malt import convert, load_analysis_pair_texts, relocate, to_conll_text
from conll_eval.cli import main
from conll_eval.errors import InputError
from conll_eval.reader import load_text
from conll_eval.treebank import Vocab

DATA = os.path.join(os.path.dirname(__file__), os.pardir, "testdata", "malteval")

HEADER = """<?xml version="1.0" encoding="UTF-8"?>
<treebank>
 <head>
  <annotation>
   <attribute name="postag"><value name="DT"/><value name="NN"/><value name="VB"/></attribute>
   <attribute name="deprel"><value name="det"/><value name="nsubj"/><value name="root"/></attribute>
   <attribute name="other"><value name="x"/></attribute>
  </annotation>
 </head>
"""


def write(tmp_path, name: str, text: str, newline: str = "") -> str:
    path = tmp_path / name
    with open(path, "w", encoding="utf-8", newline=newline) as handle:
        handle.write(text)
    return str(path)


def xml_file(tmp_path, body: str, name: str = "t.xml") -> str:
    return write(tmp_path, name, HEADER + " <body>\n" + body + " </body>\n</treebank>\n")


def rejected(path: str) -> InputError:
    with pytest.raises(InputError) as info:
        to_conll_text(path)
    return info.value


# ---- format by extension ----------------------------------------------------------------------

@pytest.mark.parametrize("path, expected", [
    ("a.tab", TAB), ("dir/a.xml", XML), ("a.conll", CONLL), ("a.conllu", CONLL),
    ("a.TAB", CONLL), ("a.xml.gz", CONLL), ("a.tab.conll", CONLL), ("xml", CONLL), (".tab", TAB),
])
def test_input_format_follows_maltevals_extension_rule(path, expected):
    assert input_format(path) == expected


# ---- MaltTab ----------------------------------------------------------------------------------

def test_tab_fills_cpostag_and_leaves_the_rest_blank(tmp_path):
    path = write(tmp_path, "a.tab", "The\tDT\t2\tdet\ndog\tNN\t0\troot\n\nGo\tVB\t0\troot\n")
    conversion = convert(path)
    assert conversion.text == ("1\tThe\t_\tDT\t_\t_\t2\tdet\t_\t_\n"
                               "2\tdog\t_\tNN\t_\t_\t0\troot\t_\t_\n"
                               "\n"
                               "1\tGo\t_\tVB\t_\t_\t0\troot\t_\t_\n"
                               "\n")
    assert conversion.source_lines == (1, 2, 3, 4, 4)
    assert conversion.null_columns == {"lemma", "xpos", "feats", "misc"}


def test_tab_tokenizes_like_java(tmp_path):
    # runs of tabs count as one, extra fields are ignored, \r\n and a lone \r end lines,
    # Java's Integer.parseInt accepts "+0" and any Unicode digit, a BOM stays in the FORM
    path = write(tmp_path, "a.tab",
                 "\ufeffA B\t\tDT\t\t+0\tdet\textra\r\nx\tNN\t\u0661\tnsubj\rend\tVB\t1\tdep")
    assert to_conll_text(path) == ("1\t\ufeffA B\t_\tDT\t_\t_\t0\tdet\t_\t_\n"
                                   "2\tx\t_\tNN\t_\t_\t1\tnsubj\t_\t_\n"
                                   "3\tend\t_\tVB\t_\t_\t1\tdep\t_\t_\n\n")


def test_tab_keeps_blank_lines_so_reader_errors_keep_their_line(tmp_path):
    path = write(tmp_path, "a.tab", "a\tDT\t0\troot\n\n\nb\tNN\t0\troot\n")
    conversion = convert(path)
    with pytest.raises(InputError) as info:
        load_text(conversion.text, path=path, vocab=Vocab())
    moved = relocate(info.value, conversion)
    assert (moved.code, moved.location.path, moved.location.line) == ("empty-sentence", path, 3)


@pytest.mark.parametrize("text, line, code, official", [
    ("a\tDT\t1\tdet\nb\tNN\n", 2, "malttab-missing-field", "Error at  line 2: an attribute is missing"),
    ("\t\t\n", 1, "malttab-missing-field", "Error at  line 1: an attribute is missing"),
    ("a\tDT\t0\n", 1, "malttab-missing-field", "Error at  line 1: an attribute is missing"),
    ("a\tDT\tx\n", 1, "malttab-bad-head", 'For input string: "x"'),
    ("a\tDT\t 0\tdet\n", 1, "malttab-bad-head", 'For input string: " 0"'),
    ("a\tDT\t99999999999\tdet\n", 1, "malttab-bad-head", 'For input string: "99999999999"'),
    ("\na\tDT\t-1\n", 2, "malttab-bad-head", "Head error at line 2, word a. Head value -1 not valid."),
])
def test_tab_rejections_carry_maltevals_message(tmp_path, text, line, code, official):
    path = write(tmp_path, "bad.tab", text)
    error = rejected(path)
    assert (error.location.path, error.location.line, error.code) == (path, line, code)
    assert error.official == official
    assert str(error).startswith(f"{path}:{line}: error [{code}]")


def test_tab_rejects_invalid_utf8_and_honours_charset(tmp_path):
    path = tmp_path / "latin.tab"
    path.write_bytes(b"ok\tDT\t0\troot\n\ncaf\xe9\tNN\t0\troot\n")
    error = rejected(str(path))
    assert (error.code, error.location.line) == ("invalid-utf8", 3)
    assert to_conll_text(path, charset="latin-1").splitlines()[2] == "1\tcafé\t_\tNN\t_\t_\t0\troot\t_\t_"


def test_missing_file_names_it(tmp_path):
    error = rejected(str(tmp_path / "none.tab"))
    assert error.code == "missing-file"
    assert error.official.endswith("none.tab (No such file or directory)")


# ---- MaltXML ----------------------------------------------------------------------------------

def test_xml_words_become_conll_lines(tmp_path):
    path = xml_file(tmp_path, """\
  <sentence id="9" score="NaN" time=" 1e3 ">
   <word form="The" lemma="the" cpostag="D" postag="DT" feats="Def=Yes" head="2" deprel="det"/>
   <word form="dog" postag="NN" head="+0" deprel="root" phead="_" pdeprel="pd"/>
  </sentence>
  <sentence><word form="Go" postag="VB" head="0" deprel="root" phead="1">text is ignored</word></sentence>
""")
    conversion = convert(path)
    assert conversion.text == ("1\tThe\tthe\tD\tDT\tDef=Yes\t2\tdet\t_\t_\n"
                               "2\tdog\t_\t_\tNN\t_\t0\troot\t_\tpd\n"
                               "\n"
                               "1\tGo\t_\t_\tVB\t_\t0\troot\t_\t_\n"
                               "\n")
    assert conversion.source_lines == (12, 13, 14, 15, 15)
    assert conversion.null_columns == {"lemma", "upos", "feats", "misc"}


def test_xml_deprel_may_be_missing_when_the_empty_label_is_declared(tmp_path):
    # MaltEval reads a missing deprel as "", which only passes if "" is declared; CoNLL cannot
    # hold an empty column, so it is refused as unrepresentable
    path = write(tmp_path, "e.xml", HEADER.replace('<value name="det"/>', '<value name=""/>')
                 + ' <body><sentence><word form="a" postag="DT" head="0"/></sentence></body>\n</treebank>\n')
    error = rejected(path)
    assert (error.code, error.location.line) == ("maltxml-unrepresentable", 10)


@pytest.mark.parametrize("body, code, official", [
    ('<sentence><word postag="DT" head="0" deprel="root"/></sentence>',
     "maltxml-missing-attribute", 'attribute "form" is missing'),
    ('<sentence><word form="a" head="0" deprel="root"/></sentence>',
     "maltxml-missing-attribute", 'attribute "postag" is missing'),
    ('<sentence><word form="a" postag="JJ" head="0" deprel="root"/></sentence>',
     "maltxml-undeclared-postag", "postag not in postag set"),
    ('<sentence><word form="a" postag="DT" deprel="root"/></sentence>',
     "maltxml-missing-attribute", 'attribute "head" is missing'),
    ('<sentence><word form="a" postag="DT" head="1.0" deprel="root"/></sentence>',
     "maltxml-bad-head", 'attribute "head" could not be interpreted'),
    ('<sentence><word form="a" postag="DT" head="-1" deprel="root"/></sentence>',
     "maltxml-bad-head", 'attribute "head" is not correct'),
    ('<sentence><word form="a" postag="DT" head="0"/></sentence>',
     "maltxml-undeclared-deprel", "deprel not in deprel set"),
    ('<sentence><word form="a" postag="DT" head="0" deprel="obj"/></sentence>',
     "maltxml-undeclared-deprel", "deprel not in deprel set"),
    ('<sentence><word form="a" postag="DT" head="0" deprel="root" phead="q"/></sentence>',
     "maltxml-bad-phead", 'attribute "phead" could not be interpreted'),
    ('<sentence><word form="a" postag="DT" head="0" deprel="root" phead="-3"/></sentence>',
     "maltxml-bad-phead", 'attribute "phead" is not correct'),
    ('<sentence score="high"><word form="a" postag="DT" head="0" deprel="root"/></sentence>',
     "maltxml-bad-number", 'attribute "score" could not be interpreted as floating value'),
    ('<sentence time="1,5"><word form="a" postag="DT" head="0" deprel="root"/></sentence>',
     "maltxml-bad-number", 'attribute "time" could not be interpreted as floating value'),
    ('<sentence><w form="a"/></sentence>',
     "maltxml-unknown-element", 'attribute "w" is not part of MALT XML'),
    ('<word form="a" postag="DT" head="0" deprel="root"/>',
     "maltxml-misplaced-element", "word element at the wrong place"),
    ('<sentence><sentence/></sentence>',
     "maltxml-misplaced-element", "sentence element at the wrong place"),
    ('<sentence><word form="a" postag="DT" head="0" deprel="root"><word/></word></sentence>',
     "maltxml-misplaced-element", "word element at the wrong place"),
    ('<annotation/>', "maltxml-misplaced-element", "annoation element at the wrong place"),
    ('<sentence><word form="a&#9;b" postag="DT" head="0" deprel="root"/></sentence>',
     "maltxml-unrepresentable", None),
    ('<sentence/>', "empty-sentence", None),
])
def test_xml_rejections_carry_maltevals_message(tmp_path, body, code, official):
    path = xml_file(tmp_path, "  " + body + "\n")
    error = rejected(path)
    assert (error.location.path, error.location.line, error.code) == (path, 11, code)
    assert error.official == official


@pytest.mark.parametrize("text, line, code", [
    ('<treebank><body/></treebank>', 1, "maltxml-misplaced-element"),  # body needs a head first
    ('<treebank><head/><head/></treebank>', 1, "maltxml-misplaced-element"),
    ('<treebank>\n<head><attribute name="postag"/></head></treebank>', 2, "maltxml-misplaced-element"),
    ('<treebank><head><annotation><attribute/></annotation></head></treebank>', 1,
     "maltxml-missing-attribute"),
    ('<treebank>\n<head>\n</treebank>', 3, "xml-syntax"),
    ('<?xml version="1.0"?>\n<!DOCTYPE treebank [<!ENTITY e "x">]>\n<treebank/>', 2,
     "xml-declaration-refused"),
])
def test_xml_structure_rejections(tmp_path, text, line, code):
    error = rejected(write(tmp_path, "s.xml", text))
    assert (error.location.line, error.code) == (line, code)


def test_xml_refuses_declarations_in_utf16(tmp_path):
    path = tmp_path / "u16.xml"
    path.write_bytes('<?xml version="1.0" encoding="UTF-16"?>\n<!DOCTYPE t SYSTEM "file:///etc/passwd">\n<t/>'
                     .encode("utf-16"))
    assert rejected(str(path)).code == "xml-declaration-refused"


def test_xml_without_body_has_no_sentences(tmp_path):
    assert to_conll_text(write(tmp_path, "h.xml", HEADER + "</treebank>\n")) == ""


def test_relocate_points_reader_errors_at_the_xml_line(tmp_path):
    path = xml_file(tmp_path, """\
  <sentence>
   <word form="a" postag="DT" head="5" deprel="root"/>
  </sentence>
""")
    conversion = convert(path)
    with pytest.raises(InputError) as info:
        load_text(conversion.text, path=path, vocab=Vocab())
    # the reader names the blank line ending the sentence (converted line 2): </sentence>
    assert (info.value.code, info.value.location.line) == ("head-out-of-range", 2)
    moved = relocate(info.value, conversion)
    assert (type(moved), moved.code, moved.location.line) == (type(info.value), "head-out-of-range", 13)


# ---- pairs and MaltEval's output --------------------------------------------------------------

def test_pair_texts_read_conll_as_it_is(tmp_path):
    conll = write(tmp_path, "g.conll", "1\ta\t_\tDT\t_\t_\t0\troot\t_\t_\n\n")
    tab = write(tmp_path, "s.tab", "a\tDT\t0\troot\n")
    gold, system = load_analysis_pair_texts(conll, tab)
    assert gold == system == "1\ta\t_\tDT\t_\t_\t0\troot\t_\t_\n\n"


def test_pair_reads_gold_first(tmp_path):
    gold = write(tmp_path, "g.tab", "a\tDT\n")
    system = write(tmp_path, "s.xml", "<bad")
    with pytest.raises(InputError) as info:
        load_analysis_pair_texts(gold, system)
    assert info.value.location.path == gold


#: golden file -> MaltEval arguments after ``-s <x>-sys.<x> -g <x>-gold.<x>``
GOLDEN = {
    "tab-default": [],
    "tab-cpostag": ["--GroupBy", "Cpostag"],
    "tab-deprel-all": ["--Metric", "LAS;UAS;LA", "--GroupBy", "Deprel:all"],
    "xml-default": [],
    "xml-cpostag": ["--GroupBy", "Cpostag"],
    "xml-deprel-all": ["--Metric", "LAS;UAS;LA", "--GroupBy", "Deprel:all"],
    "xml-postag": ["--GroupBy", "Postag"],
    "xml-lemma-feats": ["--GroupBy", "Lemma;Feats"],
    "xml-sentence": ["--GroupBy", "Sentence:all"],
}


def _named_as_malteval_saw_them(output: str, renames) -> str:
    """Put the original file names back into the lines that print them."""
    lines = output.split("\n")
    for index, line in enumerate(lines):
        if line.startswith(("Evaluation arguments:", "Gold:", "Parsed:")):
            for converted, original in renames:
                line = line.replace(converted, original)
            lines[index] = line
    return "\n".join(lines)


@pytest.mark.parametrize("case", sorted(GOLDEN))
def test_output_matches_malteval(case, tmp_path, monkeypatch):
    kind = case.split("-")[0]
    gold_name, system_name = f"{kind}-gold.{kind}", f"{kind}-sys.{kind}"
    gold_text, system_text = load_analysis_pair_texts(os.path.join(DATA, gold_name),
                                                      os.path.join(DATA, system_name))
    write(tmp_path, f"{kind}-gold.conll", gold_text)
    write(tmp_path, f"{kind}-sys.conll", system_text)
    monkeypatch.chdir(tmp_path)
    stdout, stderr = io.StringIO(), io.StringIO()
    argv = ["-s", f"{kind}-sys.conll", "-g", f"{kind}-gold.conll", *GOLDEN[case]]
    assert main(["analyze", *argv], stdout, stderr) == 0, stderr.getvalue()
    output = _named_as_malteval_saw_them(stdout.getvalue(), [(f"{kind}-gold.conll", gold_name),
                                                             (f"{kind}-sys.conll", system_name)])
    with open(os.path.join(DATA, f"{case}.out"), encoding="utf-8", newline="") as handle:
        assert output == handle.read()


@pytest.mark.parametrize("case, kind, extra", [
    ("tab-default", "tab", []), ("tab-cpostag", "tab", ["--GroupBy", "Cpostag"]),
    ("xml-default", "xml", []), ("xml-postag", "xml", ["--GroupBy", "Postag"]),
])
def test_golden_inputs_are_read_directly(case, kind, extra, tmp_path, monkeypatch):
    """``analyze`` reads the original .tab/.xml files and prints MaltEval's bytes."""
    for name in (f"{kind}-gold.{kind}", f"{kind}-sys.{kind}"):
        shutil.copy(os.path.join(DATA, name), tmp_path / name)
    monkeypatch.chdir(tmp_path)
    stdout, stderr = io.StringIO(), io.StringIO()
    status = main(["analyze", "-s", f"{kind}-sys.{kind}", "-g", f"{kind}-gold.{kind}", *extra],
                  stdout, stderr)
    assert status == 0, stderr.getvalue()
    with open(os.path.join(DATA, f"{case}.out"), encoding="utf-8", newline="") as handle:
        assert stdout.getvalue() == handle.read()

"""The input layer's one door (issue 31, point 1): ``read_treebank`` reads every treebank format
into the same Treebank, each file's format is told once (``detect_format``), and no module
outside ``conll_eval/io`` calls the CoNLL-U parser or tells formats itself."""
from __future__ import annotations

import ast
import gzip
import io
import shutil
from pathlib import Path

import numpy as np
import pytest

import conll_eval.io
from conll_eval.cli import main
from conll_eval.errors import InputError
from conll_eval.io import formats as formats_module
from conll_eval.io.formats import (CONLLU, CONLLX, LINKS, MALTTAB, MALTXML, MOOT, NAACL, PHARAOH, TAGGER,
                                   InputFormat, detect_format)
from conll_eval.io.malt import CONLLX_COLUMNS
from conll_eval.io.read import read_concatenated, read_treebank
from conll_eval.treebank import Vocab

DATA = Path(__file__).resolve().parent.parent / "testdata" / "io"
PACKAGE = Path(__file__).resolve().parent.parent / "conll_eval"


def _words(treebank):
    """(FORM, HEAD, DEPREL) of every word and the sentence starts: what every format holds."""
    return (treebank.strings("form"), np.asarray(treebank.head).tolist(), treebank.strings("deprel"),
            np.asarray(treebank.sent_word_start).tolist())


def test_read_treebank_is_exported_from_the_io_package():
    assert conll_eval.io.read_treebank is read_treebank
    assert conll_eval.io.InputFormat is InputFormat
    with pytest.raises(AttributeError):
        conll_eval.io.no_such_name  # noqa: B018


@pytest.mark.parametrize("name, told", [("tiny.conllu", CONLLU), ("tiny.conll", CONLLX),
                                        ("tiny.tab", MALTTAB), ("tiny.xml", MALTXML)])
def test_read_treebank_reads_every_treebank_format_alike(name, told):
    path = str(DATA / name)
    assert detect_format(path).name == told
    expected = _words(read_treebank(str(DATA / "tiny.conllu")))
    assert expected[0] == ["The", "dog", "barks", ".", "Go"]
    treebank = read_treebank(path)
    assert _words(treebank) == expected
    assert treebank.path == path
    # the coarse tag: CoNLL's UPOS column, MaltTab's only tag, MaltXML's cpostag
    assert treebank.strings("upos") == ["DET", "NOUN", "VERB", "PUNCT", "VERB"]


def test_a_compressed_file_is_read_whatever_its_format_name(tmp_path):
    packed = tmp_path / "tiny.conllu.gz"
    packed.write_bytes(gzip.compress((DATA / "tiny.conllu").read_bytes()))
    assert detect_format(packed).name == CONLLU
    assert _words(read_treebank(str(packed))) == _words(read_treebank(str(DATA / "tiny.conllu")))


def test_the_format_asked_for_wins_over_the_name(tmp_path):
    # a CoNLL-U file named .conll: MaltEval's rule reads it as CoNLL-X, whose lines have 10
    # columns (a comment has not); the scorers ask for CoNLL-U whatever the name
    named = tmp_path / "tiny.conll"
    shutil.copy(DATA / "tiny.conllu", named)
    with pytest.raises(InputError) as info:
        read_treebank(str(named))
    assert (info.value.code, info.value.location.line) == (CONLLX_COLUMNS, 1)
    assert info.value.official.startswith("Error at  line 1: an attribute is missing\n# sent_id = 1")
    assert _words(read_treebank(str(named), CONLLU)) == _words(read_treebank(str(DATA / "tiny.conllu")))
    told = InputFormat(str(named), CONLLU)
    assert read_treebank(str(named), told).n_words == 5
    with pytest.raises(ValueError):
        read_treebank(str(named), "csv")


def _aborted(argv):
    out, err = io.StringIO(), io.StringIO()
    status = main(["analyze", *argv], out, err)
    return status, err.getvalue()


def test_analyze_keeps_maltevals_abort_for_a_short_conllx_line(tmp_path):
    named = tmp_path / "u.conll"
    shutil.copy(DATA / "tiny.conllu", named)
    status, err = _aborted(["-g", str(named), "-s", str(DATA / "tiny.conll")])
    assert status == 1
    # (the line breaks of MaltEval's message are spelt out on stderr)
    assert ("Evaluation aborted: Error at  line 1: an attribute is missing\\n# sent_id = 1\\n"
            f"({named}:1: a CoNLL-X line has 10 tab-separated columns; name a CoNLL-U file *.conllu)") in err


def test_a_charset_that_cannot_decode_the_file_is_named(tmp_path):
    latin = tmp_path / "l.conll"
    latin.write_bytes(b"1\tTh\xffe\tthe\tDET\tDT\t_\t0\troot\t_\t_\n\n")
    with pytest.raises(InputError) as info:
        read_treebank(str(latin), charset="ascii")
    assert info.value.code == "charset-undecodable"
    status, err = _aborted(["-g", str(latin), "-s", str(latin), "--charset", "ascii"])
    assert status == 1
    assert (f"Evaluation aborted: {latin}: not readable as ascii: ordinal not in range(128) at byte 4"
            in err)
    assert read_treebank(str(latin), charset="latin-1").strings("form") == ["Th\xffe"]


def test_standard_input_and_streams_are_conllu():
    stream = io.BytesIO((DATA / "tiny.conllu").read_bytes())
    assert _words(read_treebank(stream)) == _words(read_treebank(str(DATA / "tiny.conllu")))


def test_converted_errors_name_the_original_file_and_line(tmp_path):
    bad = tmp_path / "bad.tab"
    bad.write_text("a\tDT\t2\tdet\nb\tNN\t0\troot\n\nc\tVB\t5\troot\n", encoding="utf-8")
    with pytest.raises(InputError) as info:
        read_treebank(str(bad))
    assert (info.value.location.path, info.value.location.line) == (str(bad), 4)


def test_read_concatenated_numbers_sentences_on():
    sources = [detect_format(str(DATA / name)) for name in ("tiny.tab", "tiny.xml")]
    treebank = read_concatenated(sources, "both", vocab=Vocab())
    assert treebank.path == "both"
    assert treebank.strings("form") == ["The", "dog", "barks", ".", "Go"] * 2
    assert np.asarray(treebank.sent_word_start).tolist() == [0, 4, 5, 9, 10]  # the end included


def test_detect_format_tells_each_family_its_way(tmp_path):
    assert detect_format(DATA / "tiny.moot", TAGGER).name == MOOT
    assert detect_format(DATA / "tiny.conllu", TAGGER).name == CONLLU
    packed = tmp_path / "tagged"
    packed.write_bytes(gzip.compress((DATA / "tiny.moot").read_bytes()))
    assert detect_format(packed, TAGGER).name == MOOT  # by content, decompressed
    assert detect_format(tmp_path / "missing", TAGGER).name is None
    for name, told in (("tiny.naacl", NAACL), ("tiny.pharaoh", PHARAOH)):
        lines = (DATA / name).read_text(encoding="utf-8").splitlines()
        assert detect_format(DATA / name, LINKS, lines=lines).name == told
    assert detect_format("x", LINKS, lines=["", " "]) == InputFormat("x", None, "no link lines")
    neither = detect_format("x", LINKS, lines=["", "a b"])
    assert (neither.name, neither.line) == (None, 2)
    assert detect_format("a.tab", requested=MALTXML).name == MALTXML


@pytest.fixture
def name_rule_calls(monkeypatch):
    """The paths whose treebank format was told by name (every such telling goes through
    :func:`conll_eval.io.formats.malteval_format`)."""
    calls = []
    original = formats_module.malteval_format

    def counted(path):
        calls.append(str(path))
        return original(path)

    monkeypatch.setattr(formats_module, "malteval_format", counted)
    return calls


@pytest.mark.parametrize("gold, systems", [("tiny.conllu", ["tiny.conllu"]), ("tiny.conll", ["tiny.tab"]),
                                           ("tiny.xml", ["tiny.tab", "tiny.conll", "tiny.xml"])])
@pytest.mark.parametrize("viewer", [False, True])
def test_analyze_tells_each_files_format_once(name_rule_calls, tmp_path, gold, systems, viewer):
    """Once per file, however many pairs read it (the gold file of several systems)."""
    out, err = io.StringIO(), io.StringIO()
    paths = []
    for k, name in enumerate(systems):  # distinct files (a system given twice is refused)
        paths.append(tmp_path / f"s{k}{Path(name).suffix}")
        shutil.copy(DATA / name, paths[-1])
    if len(systems) == 1:
        paths = [DATA / systems[0]]
    argv = ["analyze", "-s", *map(str, paths), "-g", str(DATA / gold)]
    if viewer:
        argv += ["-v", "1", "--output", str(tmp_path / "viewer.html")]
    status = main(argv, out, err)
    assert status == 0, err.getvalue()
    assert sorted(name_rule_calls) == sorted({str(DATA / gold), *map(str, paths)})


def test_report_and_scoring_read_conllu_without_telling_by_name(name_rule_calls, tmp_path):
    gold = str(DATA / "tiny.conllu")
    status = main(["report", gold, gold, "-o", str(tmp_path / "r.html")], io.StringIO(), io.StringIO())
    assert status == 0
    assert main([gold, gold], io.StringIO(), io.StringIO()) == 0
    assert name_rule_calls == []  # CoNLL-U is asked for; nothing is told twice


def test_the_tagger_looks_at_each_file_once(monkeypatch):
    looked = []
    original = formats_module._look_of_file
    monkeypatch.setattr(formats_module, "_look_of_file", lambda path: looked.append(path) or original(path))
    status = main(["tagger", str(DATA / "tiny.moot"), str(DATA / "tiny.conll")], io.StringIO(),
                  io.StringIO())
    assert status == 1  # a moot file and a CoNLL file: a refused mixed pair
    assert looked == [str(DATA / "tiny.moot"), str(DATA / "tiny.conll")]


# ---- the rule: one door --------------------------------------------------------------------------

#: what reads or tells a treebank format; outside conll_eval/io only read_treebank may be used
PARSER_NAMES = {"load", "load_source", "load_collapsed", "load_text", "parse_bytes", "parse_exact",
                "ExactParser", "_ExactParser", "scan", "scan_stream", "convert", "to_conll_text",
                "check_conllx", "malteval_format", "look_of", "load_analysis_pair_texts"}
#: the facades that keep the old public names (``conll_eval.load``, ``conll_eval.reader``)
FACADES = {"__init__.py", "reader.py", "scan.py"}
#: the modules of the parser and of the detection
IO_READERS = ("io.conllu", "io.malt", "io.formats", "io.exact_parser", "io.scan_pieces", "reader", "scan")


def _reader_imports(path: Path, source=None):
    """``module:line imports name`` for each parser or detection name the module imports."""
    tree = ast.parse(path.read_text(encoding="utf-8") if source is None else source)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.endswith(IO_READERS):
            for alias in node.names:
                if alias.name in PARSER_NAMES:
                    yield f"{path.relative_to(PACKAGE)}:{node.lineno} imports {alias.name}"


def test_no_module_outside_io_calls_the_parser_or_tells_formats():
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        inside_io = path.parent.name == "io"
        if inside_io or (path.parent == PACKAGE and path.name in FACADES):
            continue
        found += list(_reader_imports(path))
    assert found == []


def test_the_rule_finds_a_direct_parser_call():
    probe = PACKAGE / "analyze" / "probe.py"  # not a file: the source is given
    source = "from ..io.conllu import load\nfrom ..io.formats import CONLLU\nfrom ..reader import parse_bytes\n"
    assert list(_reader_imports(probe, source)) == ["analyze/probe.py:1 imports load",
                                                    "analyze/probe.py:3 imports parse_bytes"]


def test_every_io_module_explains_itself_and_is_in_the_architecture_note():
    note = (PACKAGE.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    for path in sorted((PACKAGE / "io").glob("*.py")):
        assert f"`io/{path.name}`" in note, path.name
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
        assert doc.count(". ") + doc.count(".\n") + doc.endswith(".") >= 2, path.name

"""Issue 40 point 3: analyze and tagger spell out the input text they print.

A FORM, LEMMA, tag, FEATS or DEPREL holding an ESC sequence, a bidi override, a C1 control
(or, in moot files, a CR) reaches every text output spelt out by
:func:`conll_eval.errors.printable` (``\\x1b``, ``\\u202e``, ``\\x85``, ``\\r``), never raw; the
columns are sized on what is printed; JSON keeps the value as read, escaped.  Ordinary input
prints as MaltEval and mooteval print it (their golden tests: test_analyze_*.py,
test_mooteval_cases.py).
"""
import json
import re

import pytest

from helpers import row, run_cli

ESC, BIDI, C1, DEL = "\x1b[31m", "\u202e", "\x85", "\x7f"
FORM = f"a{ESC}b{BIDI}c{DEL}"
#: what a terminal would act on: none of it may reach a text output raw
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u2028\u2029]")


def _conllu(upos: str, deprel: str, head: str) -> str:
    words = [row("1", FORM, "0" if head == "0" else "2", "root" if head == "0" else deprel,
                 lemma=f"l{ESC}x", upos=upos, xpos=f"X{BIDI}P", feats=f"F=v{C1}"),
             row("2", f"w{BIDI}", "1" if head == "0" else "0",
                 deprel if head == "0" else "root", upos="VERB")]
    return "\n".join(words) + "\n\n"


@pytest.fixture
def files(write):
    gold = write("gold.conllu", _conllu(f"N{ESC}N", f"dep{C1}", "0"))
    system = write("system.conllu", _conllu(f"N{ESC}X", f"obj{ESC}", "2"))
    return gold, system


def _clean(text: str) -> str:
    """``text`` holds nothing raw a terminal would act on (TAB and LF are the layout's)."""
    assert RAW.search(text) is None, repr(RAW.search(text).group())
    return text


# ---- analyze: text ----------------------------------------------------------------------------

@pytest.mark.parametrize("grouping, spelt", [
    ("Wordform", "a\\x1b[31mb\\u202ec\\x7f"),
    ("Lemma", "l\\x1b[31mx"),
    ("Cpostag", "N\\x1b[31mN"),
    ("Postag", "X\\u202eP"),
    ("Feats", "F=v\\x85"),
    ("Deprel", "dep\\x85"),
    ("Frame", "obj\\x1b[31m"),
    ("Cpostag@-1#Cpostag@0", '"N\\x1b[31mX"@-1'),
    ("Wordform,Postag", "a\\x1b[31mb\\u202ec\\x7f"),
])
def test_analyze_groups_spell_out_their_labels(files, grouping, spelt):
    gold, system = files
    code, out, err = run_cli("analyze", "-s", system, "-g", gold, "--GroupBy", grouping)
    assert code == 0, err
    assert spelt in _clean(out)


def test_analyze_columns_are_sized_on_the_printed_labels(files):
    gold, system = files
    out = run_cli("analyze", "-s", system, "-g", gold, "--GroupBy", "Wordform")[1]
    lines = out.splitlines()
    dashes = next(k for k, line in enumerate(lines) if line.startswith("---") and k > 10)
    label_at = lines[dashes - 1].index("Wordform")
    rows = [line for line in lines[dashes + 1:] if line.strip()]
    assert all(line[label_at - 1] == " " and line[label_at] != " " for line in rows)
    assert len(lines[dashes]) == label_at + max(len(line) - label_at for line in rows)


def test_analyze_confusion_matrix_spells_out_tags_in_labels_and_headers(files):
    gold, system = files
    code, out, _ = run_cli("analyze", "-s", system, "-g", gold, "--GroupBy", "Cpostag",
                           "--confusion-matrix", "1")
    assert code == 0
    _clean(out)
    assert "N\\x1b[31mN / N\\x1b[31mX" in out  # the table's rows
    matrix = out[out.index("Confusion matrix for Cpostag"):].splitlines()
    assert matrix[1].startswith("N\\x1b[31mN ")  # a column header is a gold tag


def test_analyze_tab_layout_keeps_its_tabs_only_between_cells(files):
    gold, system = files
    out = run_cli("analyze", "-s", system, "-g", gold, "--GroupBy", "Wordform", "--tab", "1")[1]
    _clean(out)
    row_of_form = next(line for line in out.splitlines() if "a\\x1b" in line)
    assert row_of_form.count("\t") == 1 and row_of_form.endswith("a\\x1b[31mb\\u202ec\\x7f")


def test_analyze_output_directory_files_are_spelt_out(files, tmp_path):
    gold, system = files
    results = tmp_path / "results"
    results.mkdir()
    code, _, err = run_cli("analyze", "-s", system, "-g", gold, "--GroupBy", "Wordform;Deprel",
                           "--output", results)
    assert code == 0, err
    written = "".join(path.read_text(encoding="utf-8") for path in sorted(results.iterdir()))
    assert "a\\x1b[31mb\\u202ec\\x7f" in _clean(written) and "dep\\x85" in written


def test_analyze_file_names_and_the_argument_echo_are_spelt_out(files, tmp_path):
    gold, system = files
    named = tmp_path / f"sys{ESC}.conllu"
    named.write_bytes(open(system, "rb").read())
    code, out, err = run_cli("analyze", "-s", system, named, "-g", gold, "--stat", "1")
    assert code == 0, err
    _clean(out)
    assert "Parsed: " in out and "sys\\x1b[31m.conllu" in out  # header, echo, McNemar rows
    assert "Evaluation arguments: " in out.splitlines()[0]


# ---- analyze: JSON ----------------------------------------------------------------------------

def test_analyze_json_keeps_values_escaped_in_the_text(files):
    gold, system = files
    code, out, _ = run_cli("analyze", "-s", system, "-g", gold, "--GroupBy", "Wordform;Deprel",
                           "--format", "json")
    assert code == 0
    _clean(out)  # \u001b, \u202e, \u0085, \u007f: escaped in the JSON text
    data = json.loads(out)
    keys = {row["key"] for table in data["tables"] for row in table["rows"]}
    assert FORM in keys and f"dep{C1}" in keys  # the values themselves, as read


# ---- tagger: mooteval's native files ----------------------------------------------------------

def _moot(write, name: str, body: bytes) -> str:
    path = write(name, "")
    with open(path, "wb") as handle:
        handle.write(body)
    return path


@pytest.fixture
def moot(write):
    first = _moot(write, "a.tt", b"a\x1b[31mb\xe2\x80\xae\tN\x1bN\t[V\xc2\x85B]\n"
                                  b"c\rd\tDT\n%% note\x1b\tand tab\n\xe9t\xe9\tNN\n\n")
    second = _moot(write, "b.tt", b"a\x1b[31mb\xe2\x80\xae\tV\x1bB\nc\rd\tDT\n\xe9t\xe9\tNN\n\n")
    return first, second


def _bytes_out(argv):
    """Run in-process with a byte stdout (mooteval's undecodable bytes go to it raw)."""
    import io
    from conll_eval.cli import main
    buffer = io.BytesIO()
    out = io.TextIOWrapper(buffer, encoding="utf-8", write_through=True)
    err = io.StringIO()
    code = main(["tagger", *argv], stdout=out, stderr=err)
    out.flush()
    return code, buffer.getvalue(), err.getvalue()


def test_mooteval_listing_spells_out_tokens_tags_and_analyses(moot):
    code, out, _ = _bytes_out(["-v", "4", *moot])
    assert code == 0
    text = out.decode("utf-8", "surrogateescape")
    lines = text.splitlines()
    first = next(line for line in lines if "a\\x1b" in line)
    assert first.split("\t")[1:5] == ["a\\x1b[31mb\\u202e", "N\\x1bN", "[V\\x85B]", "/"]
    assert any(line.split("\t")[1] == "c\\rd" for line in lines if "\t" in line)  # a CR
    assert RAW.search(text.replace("\udce9", "")) is None


def test_mooteval_comment_spells_out_its_tab_and_escape(moot):
    text = _bytes_out(["-v", "4", *moot])[1].decode("utf-8", "surrogateescape")
    assert "%% note\\x1b\\tand tab\t/\t" in text


def test_mooteval_keeps_bytes_that_are_not_utf8(moot):
    """A Latin-1 file's bytes are mooteval's ordinary input: printed as they were read."""
    out = _bytes_out(["-v", "4", *moot])[1]
    assert b"\xe9t\xe9\tNN\t/\t\xe9t\xe9\tNN\n" in out


def test_mooteval_keeps_the_cr_ending_a_crlf_comment_but_spells_out_another(write):
    first = _moot(write, "a.tt", b"%% crlf\r\n%% mid\rcr\r\na\tDET\r\n\r\n")
    code, out, _ = _bytes_out(["-v", "4", first, first])
    assert code == 0
    assert b"%% crlf\r\t/\t%% crlf\r\n" in out
    assert b"%% mid\\rcr\r\t/\t" in out


def test_mooteval_output_file_is_spelt_out_too(moot, tmp_path):
    target = tmp_path / "out.txt"
    code, _, _ = _bytes_out(["-v", "4", "-o", str(target), *moot])
    assert code == 0
    text = target.read_bytes().decode("utf-8", "surrogateescape")
    assert "a\\x1b[31mb\\u202e" in text and RAW.search(text.replace("\udce9", "")) is None


def test_mooteval_summary_spells_out_file_names(write):
    name = _moot(write, f"f{ESC}.tt", b"a\tDET\n\n")
    text = _bytes_out(["-v", "2", name, name])[1].decode("utf-8")
    assert "f\\x1b[31m.tt" in text and RAW.search(text) is None


# ---- tagger on CoNLL-U, breakdown -------------------------------------------------------------

@pytest.mark.parametrize("fmt", ["text", "tsv", "csv", "markdown"])
def test_conllu_tagger_outputs_spell_out_tags_and_feature_names(write, fmt):
    gold = write("gold.conllu", row("1", FORM, "0", "root", upos=f"N{ESC}N",
                                    feats=f"Ca{ESC}se=v{C1}") + "\n\n")
    system = write("system.conllu", row("1", FORM, "0", "root", upos=f"V{BIDI}B") + "\n\n")
    confusion = ("--confusion",) if fmt in ("text", "markdown") else ()
    code, out, err = run_cli("tagger", gold, system, *confusion, "--format", fmt)
    assert code == 0, err
    spelt = "Ca\\\\x1b\\[31mse" if fmt == "markdown" else "Ca\\x1b[31mse"  # Markdown escapes \\ and [
    assert spelt in _clean(out)


def test_conllu_tagger_listing_spells_out_forms(files):
    gold, system = files
    code, out, _ = run_cli("tagger", gold, system, "-v", "3")
    assert code == 0 and "a\\x1b[31mb\\u202ec\\x7f" in _clean(out)


@pytest.mark.parametrize("fmt", ["text", "tsv", "csv", "markdown"])
def test_breakdown_worst_sentences_spell_out_forms(files, fmt):
    gold, system = files
    code, out, err = run_cli("breakdown", gold, system, "--errors", "--worst", "3", "--format", fmt)
    assert code == 0, err
    _clean(out)

"""What a new user trips over: clear errors for inputs that are wrong in ordinary ways.

* text mismatches caused by Unicode normalisation, case, invisible characters, spaces or PTB
  escapes are named as such (the hints compare the normalised rest of the texts, so they
  work in the middle of a file and when the lengths differ);
* a closed standard input is an ``unreadable`` input error naming ``-``;
* a file without words facing one with words is ``empty-file`` (pair mode and suites alike);
  two files without words score 0 as officially;
* gzip, bzip2 and xz files are read transparently (scorer, ``--strict``, validator);
  archives, other encodings and files that are not CoNLL-U at all say what they look like,
  while the official accept/reject verdicts and messages stay as they were;
* the validator names a byte-order mark and CRLF line ends in a hint, its udtools ids,
  lines and messages unchanged.
"""
import bz2
import gzip
import io
import lzma
import os
import re
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest

from conll_eval import compat
from conll_eval.cli import main
from conll_eval.errors import AlignmentError, EmptyFileError, FormatError, InputError, Location
from conll_eval.evaluate import evaluate_files, validate_pair
from conll_eval.reader import load, load_text
from conll_eval.report.validation import format_udtools
from conll_eval.suite import SuiteEntry, score_entries
from conll_eval.validate import BOM_HINT, iter_validate_file, validate_bytes, validate_file

from helpers import document, sentence
from oracles import require_oracle

INPUT = Path(__file__).resolve().parent.parent / "testdata" / "input"
GOLD = INPUT / "gold.conllu"
GOLD_TEXT = GOLD.read_text(encoding="utf-8")
SHARED_UD = Path(__file__).resolve().parent.parent.parent / "shared" / "ud"


def run(*argv):
    out, err = io.StringIO(), io.StringIO()
    code = main([str(a) for a in argv], stdout=out, stderr=err)
    assert "Traceback" not in err.getvalue()
    return code, out.getvalue(), err.getvalue()


def mismatch(gold_path, system_path, profile="conll18") -> AlignmentError:
    with pytest.raises(AlignmentError) as info:
        evaluate_files(str(gold_path), str(system_path), profile=profile)
    assert info.value.code == "text-mismatch"
    return info.value


def hints(error) -> list:
    return [line[len("  hint: "):] for line in str(error).splitlines() if line.startswith("  hint: ")]


# ---------------------------------------------------------------------------------------------
# 1. Hints on a text mismatch

def test_one_nfd_word_in_the_middle_of_a_file_is_named():
    error = mismatch(GOLD, INPUT / "system-nfd-word.conllu")
    (hint,) = hints(error)
    assert hint.startswith("Unicode normalisation differs: the system file has decomposed "
                           "characters (NFD), e.g. U+0065 'e' (LATIN SMALL LETTER E) + U+0301 "
                           "(COMBINING ACUTE ACCENT) where the gold file has U+00E9 'é'")
    assert "normalise both files to NFC" in hint
    # the word is pointed at in both files, and the differing character is spelt out
    assert error.gold_location.line == error.system_location.line == 30
    assert ("first differing character: gold U+00E9 'é' (LATIN SMALL LETTER E WITH ACUTE), "
            "system U+0065 'e' (LATIN SMALL LETTER E)") in str(error)
    # the official text is untouched
    assert error.official.startswith("The concatenation of tokens in gold file and in system "
                                     "file differ!\nFirst 20 differing characters in gold file: 'é")


def test_nfd_gold_against_nfc_system_names_the_gold_side(write):
    gold = write("gold-nfd.conllu", unicodedata.normalize("NFD", GOLD_TEXT))
    (hint,) = hints(mismatch(gold, GOLD))
    assert hint.startswith("Unicode normalisation differs: the gold file has decomposed")


def test_case_change_with_a_length_change_is_named(write):
    # 'ß' -> 'SS' makes the system text longer: a fixed window comparison would miss it
    gold = write("g.conllu", document(sentence("1 Die 2 det", "2 Straße 0 root", "3 endet 2 dep"),
                                      sentence("1 Gut 0 root")))
    system = write("s.conllu", document(sentence("1 Die 2 det", "2 STRASSE 0 root", "3 endet 2 dep"),
                                        sentence("1 Gut 0 root")))
    assert hints(mismatch(gold, system)) == [
        "the texts differ in letter case here (gold 't', system 'T'): the parser must not change FORMs"]


def test_invisible_character_and_space_hints(write):
    gold = write("g.conllu", document(sentence("1 Hello 0 root", "2 world 1 dep"),
                                      sentence("1 Bye 0 root")))
    bom = write("bom.conllu", document(sentence("1 Hello 0 root", "2 \ufeffworld 1 dep"),
                                       sentence("1 Bye 0 root")))
    assert hints(mismatch(gold, bom)) == [
        "an invisible character U+FEFF (ZERO WIDTH NO-BREAK SPACE) inside a FORM of the system "
        "file (a byte-order mark); remove it"]
    nbsp = write("nbsp.conllu", document(sentence("1 Hello\u00a0 0 root", "2 world 1 dep"),
                                         sentence("1 Bye 0 root")))
    assert evaluate_files(gold, nbsp).scores["LAS"].f1 == 1.0  # conll18 removes every Zs
    (hint,) = hints(mismatch(gold, nbsp, profile="conll17"))
    assert hint.startswith("a space character U+00A0 (NO-BREAK SPACE) inside a FORM of the system file")


def test_penn_treebank_escapes_are_named(write):
    gold = write("g.conllu", sentence("1 ( 2 punct", "2 yes 0 root", "3 ) 2 punct", "4 ok 2 dep"))
    system = write("s.conllu", sentence("1 -LRB- 2 punct", "2 yes 0 root", "3 -RRB- 2 punct", "4 ok 2 dep"))
    assert hints(mismatch(gold, system)) == [
        "Penn Treebank escapes (-LRB-, -RRB-, ``, '') instead of the original brackets and "
        "quotes: the parser must keep the FORMs of its input"]


def test_unrelated_texts_get_only_the_generic_hint(write):
    gold = write("g.conllu", sentence("1 abc 0 root"))
    system = write("s.conllu", sentence("1 abd 0 root"))
    (hint,) = hints(mismatch(gold, system))
    assert hint.startswith("the system was probably run on a different text")


@pytest.mark.skipif(not (SHARED_UD / "fr_gsd").is_dir(), reason="../shared/ud is absent")
def test_nfd_parser_output_of_a_real_treebank(tmp_path):
    system = tmp_path / "fr_gsd-nfd.conllu"
    text = (SHARED_UD / "fr_gsd" / "sys-raw.conllu").read_text(encoding="utf-8")
    system.write_text(unicodedata.normalize("NFD", text), encoding="utf-8")
    error = mismatch(SHARED_UD / "fr_gsd" / "gold.conllu", system)
    (hint,) = hints(error)
    assert hint.startswith("Unicode normalisation differs: the system file has decomposed")


# ---------------------------------------------------------------------------------------------
# 2. A closed standard input

CLOSED = "-: error [unreadable] standard input is closed"


@pytest.fixture
def closed_stdin(monkeypatch):
    monkeypatch.setattr(sys, "stdin", None)  # what Python sets when started with <&-


def test_closed_stdin_in_the_scorer(closed_stdin):
    status, out, err = run(GOLD, "-")
    assert (status, out) == (1, "") and err.startswith(CLOSED)
    status, _, err = run("-", GOLD)
    assert status == 1 and err.startswith(CLOSED)
    with pytest.raises(FormatError) as info:
        load("-")
    assert (info.value.code, info.value.location) == ("unreadable", Location("-"))


def test_closed_stdin_with_strict(closed_stdin):
    status, _, err = run("--strict", GOLD, "-")
    assert status == 1 and err.startswith(CLOSED)
    with pytest.raises(InputError):
        validate_pair(str(GOLD), "-")


def test_closed_stdin_in_the_validator(closed_stdin):
    status, out, _ = run("validate", "-")
    assert status == 1 and out.startswith(CLOSED)
    with pytest.raises(FormatError) as info:
        list(iter_validate_file("-"))
    assert info.value.code == "unreadable"


def test_closed_stdin_in_a_real_process():
    for argv in ([str(GOLD), "-"], ["--strict", str(GOLD), "-"], ["validate", "-"]):
        done = subprocess.run([sys.executable, "-m", "conll_eval", *argv], capture_output=True,
                              text=True, preexec_fn=lambda: os.close(0), timeout=60)
        assert done.returncode == 1, (argv, done.stderr)
        assert CLOSED in done.stdout + done.stderr and "Traceback" not in done.stderr


# ---------------------------------------------------------------------------------------------
# 3. Files without words

@pytest.mark.parametrize("data", ["", "# only a comment\n", "# a\n# b\n"])
def test_empty_system_file(write, data):
    empty = write("empty.conllu", data)
    status, out, err = run(GOLD, empty)
    assert (status, out, err) == (1, "", f"{empty}: error [empty-file] the system file has no words\n")
    with pytest.raises(EmptyFileError) as info:
        evaluate_files(str(GOLD), empty)
    error = info.value
    assert (error.code, error.side, error.location) == ("empty-file", "system", Location(empty))
    assert isinstance(error, InputError) and isinstance(error, AlignmentError)
    assert error.official == ("The concatenation of tokens in gold file and in system file differ!\n"
                              "First 20 differing characters in gold file: 'Lecaféétaitfermé.Nou' "
                              "and system file: ''")


def test_empty_gold_file(write):
    empty = write("empty.conllu", "")
    status, _, err = run(empty, GOLD)
    assert (status, err) == (1, f"{empty}: error [empty-file] the gold file has no words\n")
    with pytest.raises(EmptyFileError) as info:
        evaluate_files(empty, str(GOLD))
    assert (info.value.side, info.value.location) == ("gold", Location(empty))
    assert info.value.official.endswith("in gold file: '' and system file: 'Lecaféétaitfermé.Nou'")


def test_empty_files_official_text_and_compat(write):
    oracle = require_oracle("conll18_ud_eval")
    empty = write("empty.conllu", "# nothing\n")
    for gold, system in ((str(GOLD), empty), (empty, str(GOLD))):
        with pytest.raises(oracle.UDError) as official:
            oracle.evaluate(oracle.load_conllu_file(gold), oracle.load_conllu_file(system))
        with pytest.raises(EmptyFileError) as ours:
            evaluate_files(gold, system)
        assert ours.value.official == str(official.value)
        with pytest.raises(compat.UDError) as through_compat:
            compat.evaluate(compat.load_conllu_file(gold), compat.load_conllu_file(system))
        assert str(through_compat.value) == str(official.value)


@pytest.mark.parametrize("profile", ["conll17", "conll18", "iwpt"])
def test_two_files_without_words_score_zero_as_officially(write, profile):
    empty, comments = write("empty.conllu", ""), write("comments.conllu", "# only\n")
    scores = evaluate_files(empty, comments, profile=profile).scores
    assert all(s.f1 == s.precision == s.recall == 0 and s.gold == s.system == 0
               for s in scores.values())
    oracle = require_oracle("conll18_ud_eval" if profile != "conll17" else "conll17_ud_eval")
    official = oracle.evaluate(oracle.load_conllu_file(empty), oracle.load_conllu_file(comments))
    assert all(score.f1 == 0 for score in official.values())
    status, out, _ = run("--profile", profile, empty, comments)
    assert status == 0 and out.startswith("LAS F1 Score: 0.00")


def test_suite_uses_the_same_empty_file_error(write):
    empty = write("xx_empty.conllu", "")
    entries = [SuiteEntry("xx_sys", str(GOLD), empty, "xx"),
               SuiteEntry("xx_gold", empty, str(GOLD), "xx"),
               SuiteEntry("xx_both", empty, empty, "xx")]
    results = score_entries(entries)
    for result, side in zip(results, ("system", "gold", "system")):
        failure = result.failure
        path = result.entry.system if side == "system" else result.entry.gold
        assert (failure.code, failure.side, failure.location) == ("empty-file", side, Location(path))
        assert failure.message == f"{path}: error [empty-file] the {side} file has no words"
    pair_error = run(GOLD, empty)[2].strip()
    assert results[0].failure.message == pair_error
    assert results[0].failure.official == "Error: The system file is empty"


# ---------------------------------------------------------------------------------------------
# 4. Compressed files, other encodings, files that are not CoNLL-U

COMPRESSORS = {"gzip": gzip.compress, "bzip2": bz2.compress, "xz": lzma.compress}
#: gold with a cycle in sentence 3 (words on lines 19-23, blank line 24)
CYCLE_TEXT = GOLD_TEXT.replace("2\trivière\trivière\tNOUN\t_\t_\t3", "2\trivière\trivière\tNOUN\t_\t_\t4") \
    .replace("4\tlentement\tlentement\tADV\t_\t_\t3", "4\tlentement\tlentement\tADV\t_\t_\t2")


@pytest.mark.parametrize("kind", sorted(COMPRESSORS))
@pytest.mark.parametrize("name", ["system.conllu.{kind}", "system.conllu"])
def test_compressed_files_are_read_transparently(write_bytes, kind, name):
    path = write_bytes(name.format(kind=kind), COMPRESSORS[kind](GOLD_TEXT.encode()))
    assert evaluate_files(str(GOLD), path).scores["LAS"].f1 == 1.0
    assert evaluate_files(path, path, strict=True).scores["BLEX"].f1 == 1.0
    assert validate_file(path) == []
    assert run("validate", path)[0] == 0 and run("--strict", GOLD, path)[0] == 0
    assert load(path).sent_ids == load(str(GOLD)).sent_ids  # comments kept in memory


@pytest.mark.parametrize("kind", sorted(COMPRESSORS))
def test_line_numbers_count_the_decompressed_text(write, write_bytes, kind):
    plain = write("cycle.conllu", CYCLE_TEXT)
    packed = write_bytes(f"cycle.conllu.{kind}", COMPRESSORS[kind](CYCLE_TEXT.encode()))
    for path in (plain, packed):
        with pytest.raises(InputError) as info:
            load(path)
        assert (info.value.code, info.value.location.line) == ("cycle", 24)
        assert [(i.testid, i.line) for i in validate_file(path)] == [("non-tree", 19)]


def test_compressed_standard_input(monkeypatch, tmp_path):
    data = gzip.compress(GOLD_TEXT.encode())
    for argv in (["-v", GOLD, "-"], ["--strict", GOLD, "-"], ["validate", "-"]):
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
        status, out, err = run(*argv)
        assert status == 0, (argv, err)
        assert "LAS        |    100.00" in out or argv[0] != "-v"
    assert list(validate_bytes(data, "-")) == []
    cycle = list(validate_bytes(bz2.compress(CYCLE_TEXT.encode()), "-"))
    assert [(i.testid, i.line) for i in cycle] == [("non-tree", 19)]


def test_a_plain_file_named_gz_is_read_as_it_is(write):
    path = write("plain.conllu.gz", GOLD_TEXT)
    assert evaluate_files(str(GOLD), path).scores["LAS"].f1 == 1.0


@pytest.mark.parametrize("kind", sorted(COMPRESSORS))
def test_corrupt_compressed_data(write_bytes, kind):
    data = COMPRESSORS[kind]((GOLD_TEXT * 20).encode())
    path = write_bytes(f"cut.conllu.{kind}", data[:len(data) // 2])
    with pytest.raises(FormatError) as info:
        load(path)
    assert info.value.code == "corrupt-compressed-file" and info.value.location == Location(path)
    status, _, err = run(GOLD, path)
    assert status == 1 and err.startswith(f"{path}: error [corrupt-compressed-file] the {kind} data "
                                          "is corrupt or truncated")
    status, out, _ = run("validate", path)
    assert status == 1 and "[corrupt-compressed-file]" in out


def test_corrupt_compressed_standard_input(monkeypatch):
    data = gzip.compress((GOLD_TEXT * 20).encode())
    for argv in ([GOLD, "-"], ["--strict", GOLD, "-"], ["validate", "-"]):
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data[:len(data) // 2])))
        status, out, err = run(*argv)
        assert status == 1 and "-: error [corrupt-compressed-file] the gzip data" in out + err, argv


#: name, bytes, code, message start
FOREIGN = [
    ("utf16", GOLD_TEXT.encode("utf-16"), "wrong-encoding",
     "UTF-16 text (with a byte-order mark): CoNLL-U must be UTF-8; convert with iconv -f UTF-16 -t UTF-8"),
    ("utf16le", GOLD_TEXT.encode("utf-16-le"), "wrong-encoding",
     "UTF-16 text: CoNLL-U must be UTF-8; convert with iconv -f UTF-16LE -t UTF-8"),
    ("utf16be", GOLD_TEXT.encode("utf-16-be"), "wrong-encoding",
     "UTF-16 text: CoNLL-U must be UTF-8; convert with iconv -f UTF-16BE -t UTF-8"),
    ("utf32", GOLD_TEXT.encode("utf-32"), "wrong-encoding",
     "UTF-32 text (with a byte-order mark): CoNLL-U must be UTF-8; convert with iconv -f UTF-32 -t UTF-8"),
    ("utf32le", GOLD_TEXT.encode("utf-32-le"), "wrong-encoding",
     "UTF-32 text: CoNLL-U must be UTF-8; convert with iconv -f UTF-32LE -t UTF-8"),
    ("zip", b"PK\x03\x04\x14\x00\x00\x00\x08\x00" + bytes(range(40)), "compressed-file",
     "a zip archive, not a CoNLL-U file: extract it first (unzip)"),
    ("zstd", b"\x28\xb5\x2f\xfd" + bytes(range(40)), "compressed-file",
     "zstd-compressed file: decompress it first (zstd -d)"),
    ("tar.gz", gzip.compress(b"system.conllu".ljust(257, b"\0") + b"ustar\x0000" + b"\0" * 300),
     "compressed-file", "a tar archive, not a CoNLL-U file: extract it first (tar -xf)"),
    ("md", (INPUT / "notes.md").read_bytes(), "not-conllu",
     "does not look like CoNLL-U: line 3 has no tab-separated columns (a Markdown file?)"),
    ("html", (INPUT / "page.html").read_bytes(), "not-conllu",
     "does not look like CoNLL-U: line 1 has no tab-separated columns (an HTML file?)"),
    ("json", (INPUT / "result.json").read_bytes(), "not-conllu",
     "does not look like CoNLL-U: line 1 has no tab-separated columns (a JSON file?)"),
    ("txt", (INPUT / "text.txt").read_bytes(), "not-conllu",
     "does not look like CoNLL-U: line 1 has no tab-separated columns (plain text?)"),
]


@pytest.mark.parametrize("name,data,code,message", FOREIGN, ids=[f[0] for f in FOREIGN])
def test_what_a_file_that_is_not_conllu_looks_like(write_bytes, name, data, code, message):
    path = write_bytes(f"system.{name}", data)
    for profile in ("conll17", "conll18", "iwpt"):
        with pytest.raises(InputError) as info:
            load(path, profile)
        assert (info.value.code, info.value.message) == (code, message)
    status, _, err = run(GOLD, path)
    assert status == 1 and err.startswith(f"{path}:") and f"error [{code}] {message}" in err
    # the validator's verdict is udtools' own; the first error carries the description
    first = next(i for i in validate_file(path) if i.severity == "error")
    assert first.hint == message


def _normalised(message: str) -> str:
    """The official texts of every version alike (see test_official.normalise_official)."""
    message = re.sub(r" at line \d+", "", message)
    return re.sub(r"There are \d+ roots in a sentence", "There are multiple roots in a sentence", message)


@pytest.mark.parametrize("name,data,code,message", FOREIGN, ids=[f[0] for f in FOREIGN])
def test_not_conllu_verdicts_and_official_texts_are_unchanged(write_bytes, name, data, code, message):
    """Only the message gets clearer: the official script rejects the file too (a compressed
    one once decompressed: it cannot read compressed files at all), and where it raises a
    UDError, ``official`` is its text."""
    oracle = require_oracle("conll18_released")
    path = write_bytes(f"system.{name}", data)
    with pytest.raises(InputError) as info:
        load(path)
    plain = write_bytes(f"plain.{name}", gzip.decompress(data) if name.endswith(".gz") else data)
    try:
        oracle.load_conllu_file(plain)
    except oracle.UDError as exc:
        assert _normalised(info.value.official) == _normalised(str(exc))
    except Exception:  # noqa: BLE001 - UnicodeDecodeError: the official script crashes
        assert info.value.official is None
    else:
        pytest.fail(f"the official scorer accepts {name}")


def test_ordinary_errors_keep_their_codes(write):
    # spaces instead of tabs: a columns error with its own hint
    spaces = write("spaces.conllu", GOLD_TEXT.replace("\t", " "))
    with pytest.raises(InputError) as info:
        load(spaces)
    assert info.value.code == "wrong-column-count" and "spaces instead of tabs" in info.value.message
    # a comment and a blank line: an empty sentence, nothing else to say
    with pytest.raises(InputError) as info:
        load_text("# comment\n\n")
    assert info.value.code == "empty-sentence"
    # a real CoNLL-U file with a prose line later on: the error of that line
    late = write("late.conllu", GOLD_TEXT + "Some prose at the end.\n")
    with pytest.raises(InputError) as info:
        load(late)
    assert (info.value.code, info.value.location.line) == ("wrong-column-count", 42)
    # a UTF-8 byte-order mark keeps its own code
    with pytest.raises(InputError) as info:
        load_text("\ufeff" + GOLD_TEXT)
    assert info.value.code == "bom"


# ---------------------------------------------------------------------------------------------
# 5. The validator on a byte-order mark and CRLF line ends

def _udvalidate(path):
    """[(testid, line)] of udtools' udvalidate on ``path`` (skips when it is not installed)."""
    from oracles import oracle_dir
    directory = oracle_dir()
    program = directory / "venv" / "bin" / "udvalidate" if directory else None
    if program is None or not program.is_file():
        pytest.skip("udvalidate (udtools) is not installed: run 'make oracles'")
    done = subprocess.run([str(program), "--level", "2", "--lang", "ud", "--max-err", "0", path],
                          capture_output=True, text=True, timeout=120)
    found = re.findall(r"\[Line (\d+) Sent [^\]]*\]: \[L\d \w+ ([\w-]+)\]", done.stdout + done.stderr)
    return [(testid, int(line)) for line, testid in found]


def test_validator_names_the_byte_order_mark(write):
    path = write("bom.conllu", "\ufeff" + GOLD_TEXT)
    with_bom = validate_file(path)
    assert [(i.testid, i.line) for i in with_bom][:2] == [("invalid-line", 1), ("misplaced-comment", 2)]
    assert with_bom[0].hint == BOM_HINT == "the file starts with a byte-order mark (U+FEFF); remove it"
    assert all(i.hint is None for i in with_bom[1:])
    assert validate_file(str(GOLD)) == []
    # udtools' own text is untouched (the hint is not part of the message)
    assert format_udtools(with_bom[0]) == ("[Line 1 Sent None]: [L1 FORMAT invalid-line] Spurious "
                                           "line: '\ufeff# sent_id = fr-1'. All non-empty lines should "
                                           "start with a digit or the # character.")
    assert str(with_bom[0]).endswith(f" (hint: {BOM_HINT})")
    assert [(i.testid, i.line) for i in with_bom if i.severity == "error"] == _udvalidate(path)


def test_validator_points_at_the_first_crlf_line(write):
    sentences = GOLD_TEXT.split("\n\n")
    text = sentences[0] + "\n\n" + "\n\n".join(sentences[1:]).replace("\n", "\r\n")
    incidents = validate_file(write("crlf.conllu", text))
    assert [(i.testid, i.line) for i in incidents] == [("non-unix-newline", 41)]
    assert incidents[0].hint == ("line ends are CRLF (Windows), the first one on line 9; "
                                 "convert with dos2unix")
    assert incidents[0].message == "Only the unix-style LF line terminator is allowed."
    assert [(i.testid, i.line) for i in incidents] == _udvalidate(write("crlf.conllu", text))
    cr = validate_file(write("cr.conllu", GOLD_TEXT.replace("\n", "\r")))
    assert [(i.testid, i.line) for i in cr] == [("non-unix-newline", 41)]
    assert cr[0].hint.startswith("line ends are CR (classic Mac OS), the first one on line 1")
    # the scorer accepts CRLF, as the official scorers do
    assert evaluate_files(str(GOLD), write("crlf2.conllu", GOLD_TEXT.replace("\n", "\r\n"))) \
        .scores["LAS"].f1 == 1.0


def test_validator_text_format_shows_the_same_lines(write):
    """Ids, lines and verdict of the text format do not change with the hints."""
    path = write("bom.conllu", "\ufeff" + GOLD_TEXT)
    status, out, err = run("validate", path)
    incidents = validate_file(path)
    assert status == 1 and err.endswith(f"*** FAILED *** with {len(incidents)} errors\n")
    assert [line.split(" ")[0] for line in out.splitlines()] == [f"{path}:{i.line}:" for i in incidents]
    assert [f"[{i.code}]" in line or f" {i.code}]" in line
            for i, line in zip(incidents, out.splitlines())] == [True] * len(incidents)

"""Issue 40, points 4, 5 and 9 for the readers beside the CoNLL-U scorer's: --collapse-empty-nodes,
MaltEval's formats and --charset, -w weights, --pairs lists, metadata.json, the tagger's moot and
rc files, word-alignment files, --strict's copy of standard input, the conll17 drop-in's -w and
the line an error message quotes.  Each reads through io/lines.py's LineBlocks: a line longer
than MAX_LINE_BYTES is line-too-long after reading at most that much (``/dev/zero`` ends, run in a
subprocess with a timeout and a lowered limit), small files are also bounded by MAX_CONFIG_BYTES
(file-too-large), and ordinary input reads as before (the readers' own test files check that)."""
from __future__ import annotations

import codecs
import gzip
import io
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

import conll_eval.limits as limits
from conll_eval.empty_nodes import CollapsedStream, collapse_empty_nodes, iter_collapsed
from conll_eval.errors import InputError
from conll_eval.evaluate import _line_text
from conll_eval.io.conllu import load, load_collapsed
from conll_eval.io.lines import LineBlocks, line_of, read_checked
from conll_eval.io.malt import utf8_bytes
from helpers import run_cli

GOLD = Path(__file__).resolve().parent.parent / "testdata" / "example" / "gold.conllu"


def sentence(*rows: str) -> str:
    """A sentence of CoNLL-U lines given as their space-separated columns."""
    return "".join("\t".join(r.split()) + "\n" for r in rows) + "\n"


#: a sentence with an empty node (4 lines with its blank line; the empty node on line 2)
EMPTY_NODE = sentence("1 a a X _ _ 0 root 0:root _", "1.1 b b X _ _ _ _ 1:conj _",
                      "2 c c X _ _ 1 obj 1.1:obj _").encode()
#: the limit in the subprocesses (small: /dev/zero ends within milliseconds)
LIMIT = 4096
SMALL = {"CONLL_EVAL_MAX_LINE_BYTES": str(LIMIT)}


def run(*argv, env=None, stdin=None, module="conll_eval"):
    """``python -m module argv`` in a subprocess with ``env`` added and a timeout (an
    unbounded reader of /dev/zero would run until memory ends): (exit code, stderr)."""
    done = subprocess.run([sys.executable, "-m", module, *map(str, argv)],
                          env={**os.environ, **SMALL, **(env or {})}, stdin=stdin,
                          capture_output=True, timeout=10)
    return done.returncode, done.stderr.decode("utf-8", "replace")


def run_zero_stdin(*argv, **kwargs):
    with open("/dev/zero", "rb") as zero:
        return run(*argv, stdin=zero, **kwargs)


def too_long(err: str, path, line: int = 1) -> bool:
    """Whether ``err`` reports line-too-long at ``path:line`` (anywhere in a line: MaltEval's
    "Evaluation aborted:" goes first)."""
    return f"{path}:{line}: error [line-too-long] line longer than {LIMIT:,} bytes" in err


@pytest.fixture
def small_limit(monkeypatch):
    monkeypatch.setattr(limits, "MAX_LINE_BYTES", LIMIT)


# ---- the one mechanism ------------------------------------------------------------------------

@pytest.mark.parametrize("universal", [True, False])
def test_line_blocks_are_whole_lines_in_any_chunks(universal):
    rng = random.Random(7)
    for _ in range(300):
        data = bytes(rng.choice(b"ab\r\n") for _ in range(rng.randint(0, 30)))
        for chunk in (1, 2, 3, 5, 64):
            blocks = LineBlocks(io.BytesIO(data).read, "f", universal, chunk_bytes=chunk)
            got = list(blocks)
            assert b"".join(got) == data
            ends = (b"\n", b"\r") if universal else (b"\n",)
            end = 0
            for block in got[:-1]:  # whole lines: a CR waits for its LF
                end += len(block)
                assert block.endswith(ends)
                assert not (universal and block.endswith(b"\r") and data[end:end + 1] == b"\n")
            expected = len(data.replace(b"\r\n", b"\n").replace(b"\r", b"\n").split(b"\n")) - 1 \
                if universal else data.count(b"\n")
            assert blocks.line_ends == expected and blocks.size == len(data)


@pytest.mark.parametrize("universal", [True, False])
def test_a_line_over_the_limit_is_found_at_its_line_in_any_chunks(monkeypatch, universal):
    monkeypatch.setattr(limits, "MAX_LINE_BYTES", 8)
    for chunk in (1, 3, 9, 64):
        for before in (b"", b"x\n", b"x\r\n" * 3, b"12345678\n"):
            for size in (8, 9, 30):
                data = before + b"y" * size + b"\nz\n"
                lines_before = before.count(b"\n")
                blocks = LineBlocks(io.BytesIO(data).read, "f", universal, chunk_bytes=chunk)
                if size <= 8:
                    assert b"".join(blocks) == data
                    continue
                with pytest.raises(InputError) as caught:
                    list(blocks)
                assert (caught.value.code, caught.value.location.line) == \
                    ("line-too-long", lines_before + 1)


def test_a_long_line_is_refused_after_reading_at_most_the_limit_and_a_chunk(monkeypatch):
    monkeypatch.setattr(limits, "MAX_LINE_BYTES", 1000)
    read = []

    def endless(size):
        read.append(size)
        return b"x" * size
    with pytest.raises(InputError, match="line-too-long"):
        read_checked(endless, "endless")
    assert sum(read) <= 2 * 1001


def test_a_small_file_over_its_size_limit_is_file_too_large():
    data = b"nsubj 1\n" * 100
    assert read_checked(io.BytesIO(data).read, "w", max_bytes=len(data)) == data
    with pytest.raises(InputError) as caught:
        read_checked(io.BytesIO(data).read, "w", max_bytes=len(data) - 1, what="a weights file")
    assert caught.value.code == "file-too-large" and "a weights file" in caught.value.message


def test_line_of_reads_only_up_to_the_line():
    def endless_after_two_lines():
        yield b"first\nsecond\n"
        while True:
            yield b"\xff" * 4096  # never a line end, never valid UTF-8
    chunks = endless_after_two_lines()
    assert line_of(lambda size: next(chunks), "f", 2) == "second"
    with pytest.raises(IndexError):
        line_of(io.BytesIO(b"a\nb\n").read, "f", 3)


# ---- --collapse-empty-nodes ---------------------------------------------------------------------

def test_collapse_of_dev_zero_ends_with_line_too_long():
    code, err = run("--collapse-empty-nodes", "/dev/zero", GOLD)
    assert code == 1 and too_long(err, "/dev/zero"), err
    code, err = run_zero_stdin("--collapse-empty-nodes", "-", GOLD)
    assert code == 1 and too_long(err, "-"), err


def test_collapse_reports_a_long_line_at_its_line(tmp_path, small_limit):
    path = tmp_path / "long.conllu"
    path.write_bytes(EMPTY_NODE + b"# " + b"x" * LIMIT + b"\n" + EMPTY_NODE)
    with pytest.raises(InputError) as caught:
        b"".join(iter_collapsed(io.BytesIO(path.read_bytes()).read, str(path)))
    assert (caught.value.code, caught.value.location.line) == ("line-too-long", 5)
    code, out, err = run_cli("--collapse-empty-nodes", path, path)
    assert code == 1 and out == "" and too_long(err, path, 5), err


def test_collapsed_stream_gives_the_collapsed_bytes_in_any_reads():
    data = (EMPTY_NODE + GOLD.read_bytes() + EMPTY_NODE.replace(b"\n", b"\r\n")) * 3
    whole = collapse_empty_nodes(data)
    for size in (1, 2, 7, 100, 1 << 20):
        stream = CollapsedStream(io.BytesIO(data).read, "f")
        pieces = iter(lambda: stream.read(size), b"")
        assert b"".join(pieces) == whole
    stream = CollapsedStream(io.BytesIO(data).read, "f")
    assert stream.read(5) + stream.read() == whole


@pytest.mark.parametrize("compress", [False, True])
@pytest.mark.parametrize("as_stream", [False, True])
def test_collapsed_reading_streams_and_keeps_what_it_read(tmp_path, compress, as_stream):
    # the same treebank whether the file is read again or kept (stdin), compressed or not,
    # through the scan (LF) or the exact parser (CRLF: it hands over)
    for text in (EMPTY_NODE + GOLD.read_bytes(), (EMPTY_NODE + GOLD.read_bytes()).replace(b"\n", b"\r\n")):
        path = tmp_path / "f.conllu"
        path.write_bytes(gzip.compress(text) if compress else text)
        source = io.BufferedReader(io.BytesIO(path.read_bytes())) if as_stream else str(path)
        collapsed = load_collapsed(source)
        plain = load(io.BytesIO(collapse_empty_nodes(text)))
        assert collapsed.n_words == plain.n_words and collapsed.text == plain.text
        assert list(collapsed.word_line) == [n + (n >= 2) for n in plain.word_line]  # 1.1: line 2


@pytest.mark.parametrize("as_stream", [False, True])
def test_an_error_of_the_collapse_comes_before_an_earlier_error_of_the_reader(tmp_path, as_stream):
    # as the UD tools collapse the whole file before the scorer reads it: the reader's error
    # (a HEAD out of range, line 2) is the later one even when the scan hands over at once
    bad_head = sentence("1 x x X _ _ 0 root 0:root _", "2 y y X _ _ 9 dep 1:dep _").encode()
    bad_empty = sentence("1 a a X _ _ 0 root 0:root _", "1.1 b b X _ _ _ _ 7:conj _").encode()
    with pytest.raises(InputError) as caught:
        load(io.BytesIO(bad_head))
    assert caught.value.code == "head-out-of-range"
    data = bad_head + EMPTY_NODE * 500 + bad_empty
    path = tmp_path / "f.conllu"
    path.write_bytes(data)
    with pytest.raises(InputError) as caught:
        load_collapsed(io.BufferedReader(io.BytesIO(data)) if as_stream else str(path))
    assert caught.value.code == "deps-head-out-of-range"
    assert caught.value.location.line == 3 + 4 * 500 + 2


def _peak_mb(*argv) -> float:
    """Peak RSS (MB) of ``conll_eval argv`` in a subprocess (its own VmHWM)."""
    script = ("import sys\nfrom conll_eval.cli import main\ncode = main(sys.argv[1:])\n"
              "peak = [int(l.split()[1]) for l in open('/proc/self/status') if l.startswith('VmHWM:')]\n"
              "print(peak[0], file=sys.stderr)\n")
    done = subprocess.run([sys.executable, "-c", script, *map(str, argv)], capture_output=True,
                          timeout=300)
    return int(done.stderr.decode().rstrip("\n").rsplit("\n", 1)[-1]) / 1024


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="peak RSS from /proc")
def test_collapsed_reading_never_holds_the_collapsed_file(tmp_path):
    # 48 MB of blank lines after a sentence with an empty node: the collapsed text is not
    # joined whole (it was: 388 MB at the peak for 100 MB; now about the interpreter's 56 MB)
    path = tmp_path / "blank.conllu"
    with open(path, "wb") as out:
        out.write(EMPTY_NODE)
        for _ in range(48):
            out.write(b"\n" * (1 << 20))
    peak = _peak_mb("--collapse-empty-nodes", path, path)
    assert peak < 60 + 0.5 * 48, peak


# ---- MaltEval's formats and --charset -----------------------------------------------------------

def _library_call(code: str):
    """Run ``code`` (a library call on /dev/zero) in a subprocess: (exit code, stderr)."""
    done = subprocess.run([sys.executable, "-c", code], env={**os.environ, **SMALL},
                          capture_output=True, timeout=10)
    return done.returncode, done.stderr.decode("utf-8", "replace")


@pytest.mark.parametrize("call", [
    "from conll_eval.io.malt import utf8_bytes; utf8_bytes('/dev/zero', 'latin-1')",
    "from conll_eval.io.malt import utf8_bytes; utf8_bytes('/dev/zero', None)",
    "from conll_eval.io.malt import convert; convert('/dev/zero', format='malttab')",
    "from conll_eval.io.malt import convert; convert('/dev/zero', format='maltxml')",
    "from conll_eval.io.malt import check_conllx; check_conllx('/dev/zero')",
])
def test_malteval_readers_of_dev_zero_end_with_line_too_long(call):
    code, err = _library_call(call)
    assert code == 1 and "/dev/zero:1: error [line-too-long]" in err, err


@pytest.mark.parametrize("name, body, line", [
    ("long.tab", b"a\tN\t0\tROOT\n" * 3, 4),
    ("long.xml", b"<treebank>\n", 2),
    ("long.conll", sentence("1 a _ _ _ _ 0 ROOT _ _").encode()[:-1], 2),
])
def test_analyze_reports_a_long_line_of_each_format_at_its_line(tmp_path, small_limit, name, body, line):
    path = tmp_path / name
    path.write_bytes(body + b"x" * (LIMIT + 1) + b"\n")
    code, out, err = run_cli("analyze", "-g", path, "-s", path)
    assert code == 1 and too_long(err, path, line), err


@pytest.mark.parametrize("compress", [False, True])
def test_charset_input_reports_a_long_line_at_its_line(tmp_path, small_limit, compress):
    text = GOLD.read_bytes() + b"# " + "é".encode("latin-1") * LIMIT + b"\n"  # 2x in UTF-8
    path = tmp_path / ("long.conllu.gz" if compress else "long.conllu")
    path.write_bytes(gzip.compress(text) if compress else text)
    with pytest.raises(InputError) as caught:
        utf8_bytes(str(path), "latin-1")
    assert (caught.value.code, caught.value.location.line) == \
        ("line-too-long", GOLD.read_bytes().count(b"\n") + 1)
    code, out, err = run_cli("analyze", "--charset", "latin1", "-g", path, "-s", path)
    assert code == 1 and "error [line-too-long]" in err, err


def test_charset_decoding_in_chunks_is_whole_decoding(tmp_path, monkeypatch):
    # the same UTF-8, or the same charset-undecodable byte, as bytes.decode of the whole file
    import conll_eval.io.lines as lines
    monkeypatch.setattr(lines, "LINE_CHUNK_BYTES", 3)
    rng = random.Random(3)
    path = tmp_path / "f.conll"
    for charset in ("cp1252", "utf-16", "utf-16-be", "utf-32", "shift_jis", "gb18030", "ascii"):
        for _ in range(60):
            noise = bytes(rng.choice(b"A\n\x81\x82\xa4\xd8\xdc\x00\xff\xfe") for _ in range(rng.randint(0, 12)))
            data = "aé\n中 x\n".encode(charset, "ignore") * rng.randint(0, 3) + noise
            path.write_bytes(data)
            try:
                expected = data.decode(charset).encode("utf-8")
            except UnicodeDecodeError as exc:
                with pytest.raises(InputError) as caught:
                    utf8_bytes(str(path), charset)
                assert caught.value.code == "charset-undecodable"
                assert caught.value.message.endswith(f"{exc.reason} at byte {exc.start}"), (charset, data)
            else:
                assert utf8_bytes(str(path), charset) == expected, (charset, data)
    assert codecs.lookup("utf-16").name == "utf-16"


# ---- weights, pair lists, metadata, rc files: small files ----------------------------------------

def test_weights_of_dev_zero_end_with_line_too_long(tmp_path):
    code, err = run("-w", "/dev/zero", GOLD, GOLD)
    assert code == 1 and too_long(err, "/dev/zero") and "a weights file" in err, err


def test_weights_report_a_long_line_and_a_large_file(tmp_path, small_limit, monkeypatch):
    path = tmp_path / "w.txt"
    path.write_bytes(b"nsubj 1\n# " + b"x" * LIMIT + b"\n")
    code, out, err = run_cli("-w", path, GOLD, GOLD)
    assert code == 1 and out == "" and too_long(err, path, 2), err
    path.write_bytes(b"nsubj 1\n" * 1000)
    monkeypatch.setattr(limits, "MAX_CONFIG_BYTES", 4000)
    code, out, err = run_cli("-w", path, GOLD, GOLD)
    assert code == 1 and f"{path}: error [file-too-large] larger than 4,000 bytes" in err, err
    monkeypatch.setattr(limits, "MAX_CONFIG_BYTES", 8000)
    code, out, err = run_cli("-v", "-w", path, GOLD, GOLD)
    assert code == 0 and "WeightedLAS" in out


def test_pair_lists_and_metadata_of_dev_zero_end(tmp_path):
    code, err = run("suite", "--pairs", "/dev/zero")
    assert code == 1 and too_long(err, "/dev/zero") and "a pair list" in err, err
    (tmp_path / "metadata.json").symlink_to("/dev/zero")
    code, err = run("suite", "--metadata", tmp_path / "metadata.json", tmp_path, tmp_path)
    assert code == 1 and too_long(err, tmp_path / "metadata.json"), err
    assert "bad-metadata" not in err  # its own error, not a JSON one


def test_a_large_metadata_file_is_file_too_large(tmp_path, monkeypatch):
    path = tmp_path / "metadata.json"
    path.write_text("[\n" + " " * 5000 + "]\n")
    monkeypatch.setattr(limits, "MAX_CONFIG_BYTES", 4000)
    code, out, err = run_cli("suite", "--metadata", path, tmp_path, tmp_path)
    assert code == 1 and f"{path}: error [file-too-large]" in err, err


def test_tagger_files_and_rc_files_of_dev_zero_end(tmp_path):
    moot = tmp_path / "t.txt"
    moot.write_text("a\tN\nb\tV\n\n")
    for argv, path in (((moot, "/dev/zero"), "/dev/zero"), (("/dev/zero", moot), "/dev/zero")):
        code, err = run("tagger", "-v0", *argv)
        assert code == 2 and too_long(err, path) and "a moot file" in err, err
    code, err = run_zero_stdin("tagger", "-v0", "-", moot)
    assert code == 2 and too_long(err, "-"), err
    code, err = run("tagger", "-c/dev/zero", moot, moot)
    assert code == 1 and too_long(err, "/dev/zero") and "an rc file" in err, err


def test_tagger_reports_a_long_line_at_its_line(tmp_path, small_limit):
    moot = tmp_path / "t.txt"
    moot.write_bytes(b"a\tN\n\r" + b"x" * LIMIT + b"\n")  # lines end at LF only, as mooteval's
    code, out, err = run_cli("tagger", "-v0", moot, moot)
    assert code == 2 and too_long(err, moot, 2), err
    moot.write_bytes(b"a\tN\nb\tV\n\n")
    code, out, err = run_cli("tagger", "-v0", moot, moot)
    assert code == 0 and "100.00%" in out


def test_alignment_files_of_dev_zero_end(tmp_path):
    links = tmp_path / "a.txt"
    links.write_text("0-0 1-1\n")
    for argv in (("/dev/zero", links), (links, "/dev/zero"), ("--source", "/dev/zero", links, links)):
        code, err = run("alignment", *argv)
        assert code == 1 and too_long(err, "/dev/zero"), (argv, err)
    assert "a sentence file" in err


def test_alignment_reports_a_long_line_at_its_line(tmp_path, small_limit):
    links = tmp_path / "a.txt"
    links.write_bytes(b"0-0 1-1\n" + b"0-0 " * LIMIT + b"\n")
    code, out, err = run_cli("alignment", links, links)
    assert code == 1 and too_long(err, links, 2), err


def test_strict_copy_of_standard_input_ends_on_dev_zero():
    code, err = run_zero_stdin("--strict", "-", GOLD)
    assert code == 1 and too_long(err, "-"), err


def test_conll17_drop_in_weights_of_dev_zero_end():
    code, err = run("-w", "/dev/zero", GOLD, GOLD, module="conll_eval.compat.conll17")
    assert code == 1 and f"longer than {LIMIT:,} characters" in err, err


def test_evaluation_file_of_dev_zero_is_refused_by_its_size():
    code, err = run("analyze", "-e", "/dev/zero", "-g", GOLD, "-s", GOLD)
    assert code == 1 and "evaluation-file-too-large" in err, err


# ---- the line an error message quotes -----------------------------------------------------------

def test_the_quoted_line_is_read_up_to_its_line_only(tmp_path):
    # --no-empty-nodes quotes the empty node's line: a compressed file, and one whose later
    # part is not UTF-8 (reading the whole file to quote the line gave nothing)
    text = EMPTY_NODE + b"# \xff\n" + GOLD.read_bytes()
    path = tmp_path / "f.conllu.gz"
    path.write_bytes(gzip.compress(text))
    assert _line_text(str(path), 2) == "1.1\tb\tb\tX\t_\t_\t_\t_\t1:conj\t_"
    from conll_eval.compat import iwpt20
    plain = tmp_path / "f.conllu"
    plain.write_bytes(EMPTY_NODE + GOLD.read_bytes())
    compressed = tmp_path / "g.conllu.gz"
    compressed.write_bytes(gzip.compress(plain.read_bytes()))
    for name in (plain, compressed):  # the official message quotes the line, in compat too
        with pytest.raises(iwpt20.UDError) as caught:
            iwpt20.load_conllu_file(str(name), treebank_type={"no_empty_nodes": 1})
        assert str(caught.value).endswith("at line 2: 1.1\tb\tb\tX\t_\t_\t_\t_\t1:conj\t_")

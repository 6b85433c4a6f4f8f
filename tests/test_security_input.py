"""Issue 40, points 4 and 5: compressed input is read as a bounded stream (a bomb is refused with
decompressed-too-large or compression-ratio, never decompressed whole), memory on files of blank
lines or comments is bounded by what the words need, and a line longer than MAX_LINE_BYTES is the
error line-too-long (so /dev/zero ends).  Limits are lowered through their environment variables
in subprocesses, so that small files trip them; memory is each run's peak RSS, against a bound
relative to the input's size (a resource check, not a timing)."""
from __future__ import annotations

import bz2
import gzip
import io
import lzma
import os
import subprocess
import sys

import pytest

from conll_eval.io import scan_pieces
from conll_eval.io.conllu import load, parse_bytes
from conll_eval.io.lines import LineReader, has_long_line
from helpers import run_cli, sentence, without_identical

GOLD = os.path.join(os.path.dirname(__file__), "..", "testdata", "golden", "identical", "gold.conllu")
SENTENCE = sentence("1 Hello 0 root", "2 world 1 obj",
                    comments=["# sent_id = s", "# text = Hello world"])
OPENERS = {"gzip": gzip.open, "bzip2": bz2.open, "xz": lzma.open}
PATHS = (("compiled", {}), ("pure", {"CONLL_EVAL_PURE": "1"}))

#: the peak RSS (kB) of the script, written to stderr's last line by :func:`_run`: its own
#: VmHWM where /proc has it (ru_maxrss also counts the RSS of the pytest process it was forked
#: from, which exec keeps), else ru_maxrss
_MEASURED = ("import resource, sys\n"
             "from conll_eval.cli import main\n"
             "code = main(sys.argv[1:])\n"
             "try:\n"
             "    with open('/proc/self/status') as status:\n"
             "        peak = [int(line.split()[1]) for line in status if line.startswith('VmHWM:')][0]\n"
             "except (OSError, IndexError):\n"
             "    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
             "print(peak, file=sys.stderr)\n"
             "sys.exit(code)\n")


def _run(*argv, env=None, stdin=None):
    """``conll_eval argv`` in a subprocess with ``env`` added: (exit code, stderr without the
    last line, peak RSS in MB)."""
    done = subprocess.run([sys.executable, "-c", _MEASURED, *map(str, argv)],
                          env={**os.environ, **(env or {})}, input=stdin,
                          capture_output=True, timeout=600)
    *lines, peak = done.stderr.decode("utf-8", "replace").rstrip("\n").split("\n")
    return done.returncode, "\n".join(lines), int(peak) / 1024


def _compressed(path, kind: str, block: bytes, copies: int) -> str:
    """``block`` ``copies`` times, compressed as it is written (never whole in memory)."""
    with OPENERS[kind](path, "wb") as out:
        for _ in range(copies):
            out.write(block)
    return str(path)


@pytest.mark.parametrize("kind", sorted(OPENERS))
def test_a_bomb_of_sentences_is_refused_by_its_ratio(tmp_path, kind):
    # 8 MB of one sentence again and again: far more than 20 times its compressed size
    bomb = _compressed(tmp_path / f"bomb.{kind}", kind, SENTENCE.encode() * 1000, 160)
    code, err, _ = _run(bomb, bomb, env={"CONLL_EVAL_MAX_COMPRESSION_RATIO": "20",
                                         "CONLL_EVAL_RATIO_CHECK_FROM_BYTES": str(1 << 20)})
    assert code == 1, err
    assert err.startswith(f"{bomb}: error [compression-ratio]")
    assert "more than 20 times" in err and "CONLL_EVAL_MAX_COMPRESSION_RATIO" in err
    assert "Traceback" not in err


def test_a_bomb_past_the_size_limit_is_refused(tmp_path):
    bomb = _compressed(tmp_path / "big.gz", "gzip", SENTENCE.encode() * 1000, 40)
    code, err, _ = _run(GOLD, bomb, env={"CONLL_EVAL_MAX_DECOMPRESSED_BYTES": str(1 << 20)})
    assert code == 1
    assert err.startswith(f"{bomb}: error [decompressed-too-large]")
    assert "1,048,576 bytes" in err and "CONLL_EVAL_MAX_DECOMPRESSED_BYTES" in err


def test_a_bomb_on_standard_input_is_refused_too(tmp_path):
    bomb = _compressed(tmp_path / "bomb.gz", "gzip", SENTENCE.encode() * 1000, 160)
    with open(bomb, "rb") as handle:
        code, err, _ = _run(GOLD, "-", stdin=handle.read(),
                            env={"CONLL_EVAL_MAX_COMPRESSION_RATIO": "20",
                                 "CONLL_EVAL_RATIO_CHECK_FROM_BYTES": str(1 << 20)})
    assert code == 1 and err.startswith("-: error [compression-ratio]")


@pytest.mark.parametrize("kind", sorted(OPENERS))
def test_a_bomb_of_newlines_costs_no_memory(tmp_path, kind):
    # 192 MB of newlines in well under 1 MB: once 2.1 GB, and all of it in memory
    bomb = _compressed(tmp_path / f"newlines.{kind}", kind, b"\n" * (16 << 20), 12)
    assert os.path.getsize(bomb) < 1 << 20
    code, err, peak = _run(bomb, bomb)
    assert code == 1 and err.startswith(f"{bomb}:1: error [empty-sentence]"), err
    assert peak < 150, peak


@pytest.mark.parametrize("kind", sorted(OPENERS))
def test_an_ordinary_compressed_file_scores_as_the_plain_one(tmp_path, kind):
    with open(GOLD, "rb") as handle:
        data = handle.read()
    packed = _compressed(tmp_path / f"gold.{kind}", kind, data, 1)
    code, out, err = run_cli(GOLD, GOLD)
    plain = (code, out, without_identical(err))  # a compressed copy is not the same bytes
    assert plain[0] == 0
    assert run_cli(packed, GOLD) == plain
    assert run_cli(GOLD, packed) == plain
    with open(packed, "rb") as handle:  # in memory (a stream, as the API reads one)
        streamed = load(io.BytesIO(handle.read()))
    assert streamed.text == load(GOLD).text and streamed.sent_ids == load(GOLD).sent_ids


@pytest.mark.parametrize("name,env", PATHS)
def test_blank_lines_and_comments_cost_no_memory_per_line(tmp_path, name, env):
    megabytes = 64
    newlines = tmp_path / "newlines.conllu"
    newlines.write_bytes(b"\n" * (megabytes << 20))
    code, err, peak = _run(newlines, newlines, env=env)
    assert code == 1 and err.startswith(f"{newlines}:1: error [empty-sentence]")
    assert peak < 1.5 * megabytes + 60, peak  # was 20 times the file
    # two valid sentences with 64 MB of blank lines between them: the error at once, its line
    between = tmp_path / "between.conllu"
    with open(between, "wb") as out:
        out.write(SENTENCE.encode())
        out.write(b"\n" * (megabytes << 20))
        out.write(SENTENCE.encode())
    code, err, peak = _run(between, between, env=env)
    assert code == 1 and err.startswith(f"{between}:6: error [empty-sentence]"), err
    assert peak < 1.5 * megabytes + 60, peak
    # 64 MB of comments between sentences: scored, the comments not kept line by line
    comments = tmp_path / "comments.conllu"
    with open(comments, "wb") as out:
        out.write(SENTENCE.encode())
        for _ in range(4):
            out.write(b"# a comment\n" * ((megabytes << 20) // 48))
            out.write(SENTENCE.encode())
    code, err, peak = _run(comments, comments, env=env)
    assert code == 0, err
    assert peak < 1.5 * megabytes + 60, peak  # was 10 times the file


@pytest.mark.parametrize("name,env", PATHS)
def test_a_line_longer_than_the_limit_is_an_error(tmp_path, name, env):
    limit = {"CONLL_EVAL_MAX_LINE_BYTES": "1000", **env}
    fine = tmp_path / "fine.conllu"
    fine.write_text(SENTENCE + sentence(f"1 {'x' * 950} 0 root"))
    assert _run(fine, fine, env=limit)[0] == 0
    long_form = tmp_path / "form.conllu"
    long_form.write_text(SENTENCE + sentence(f"1 {'x' * 1001} 0 root"))
    code, err, _ = _run(long_form, long_form, env=limit)
    assert code == 1 and err.startswith(f"{long_form}:6: error [line-too-long]"), err
    assert "1,000 bytes" in err and "CONLL_EVAL_MAX_LINE_BYTES" in err
    long_comment = tmp_path / "comment.conllu"
    long_comment.write_text(SENTENCE + "# " + "c" * 1000 + "\n" + SENTENCE)
    code, err, _ = _run(GOLD, long_comment, env=limit)
    assert code == 1 and err.startswith(f"{long_comment}:6: error [line-too-long]"), err


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
@pytest.mark.parametrize("name,env", PATHS)
def test_dev_zero_ends_with_line_too_long(name, env):
    for argv in (("/dev/zero", "/dev/zero"), (GOLD, "/dev/zero")):
        code, err, peak = _run(*argv, env=env)
        assert code == 1 and err.startswith("/dev/zero:1: error [line-too-long]"), err
        assert peak < 200, peak


def test_a_long_line_in_memory_and_in_chunks():
    # the scan's check: a line one byte over the limit anywhere in a buffer, none at the limit
    for limit in (1, 7, 64):
        for size in range(0, 3 * limit + 3):
            for at in range(0, 2 * limit + 2):
                buffer = b"a\n" * at + b"x" * size + b"\n" + b"yy\n" * 3
                _check_long_line(buffer, limit, size > limit or limit < 2)  # "yy": 2 bytes


def _check_long_line(buffer: bytes, limit: int, expected: bool) -> None:
    import conll_eval.limits as limits
    saved, limits.MAX_LINE_BYTES = limits.MAX_LINE_BYTES, limit
    try:
        assert has_long_line(buffer, len(buffer)) == expected, (buffer, limit)
        reader = LineReader(io.BytesIO(buffer).read, "f")
        if expected:
            with pytest.raises(Exception, match="line-too-long"):
                list(reader)
        else:
            assert list(reader) == buffer.decode().split("\n")[:-1]
    finally:
        limits.MAX_LINE_BYTES = saved


def test_lines_read_in_chunks_are_read_lines(monkeypatch):
    # universal newlines across chunk ends (a CR ending one chunk, its LF starting the next)
    import conll_eval.io.lines as lines
    from conll_eval.io.byte_input import read_lines
    monkeypatch.setattr(lines, "LINE_CHUNK_BYTES", 3)
    for data in (b"a\r\nb\rc\n\nd", b"\r\n\r\n", b"\r\r\n\n\r", b"abc", b"ab\r", b"\xc3\xa9\r\n\xc3\xa9"):
        assert list(LineReader(io.BytesIO(data).read, "f")) == read_lines(data, "f"), data


def test_invalid_utf8_is_found_in_the_chunk_that_holds_it():
    data = b"# ok\n# \xff bad\n"
    with pytest.raises(Exception) as info:
        list(LineReader(io.BytesIO(data).read, "f"))
    assert info.value.code == "invalid-utf8" and info.value.location.line == 2
    assert "column 3 (byte offset 7)" in info.value.message


def test_comments_kept_one_range_per_sentence_give_the_same_metadata():
    # many comments per sentence, sent_id among them: the scan's blocks and the exact parser agree
    text = "".join(sentence(f"1 w{k} 0 root",
                            comments=[f"# c{j}" for j in range(k % 4)] + [f"# sent_id = s{k}"] +
                            [f"# text = w{k}"] * (k % 2) + ["# after"] * (k % 3))
                   for k in range(3000))
    scanned = parse_bytes(text.encode(), "f", "conll18")
    exact = parse_bytes(text.replace("\n", "\r\n").encode(), "f", "conll18")  # CRs: the exact parser
    assert scanned.sent_ids == exact.sent_ids == [f"s{k}" for k in range(3000)]
    assert scanned.sent_texts == exact.sent_texts


def _pieces(data: bytes, into: bool):
    """What the scan's piece readers make of ``data``: [(bytes, size)]."""
    stream = io.BytesIO(data)
    blocks = (scan_pieces._pieces_read_into(stream.readinto) if into
              else scan_pieces._pieces_read(stream.read))
    return [(bytes(buffer), size) for buffer, size in blocks]


@pytest.mark.parametrize("into", [False, True], ids=["read", "readinto"])
def test_a_huge_sentence_stays_with_the_scan_and_a_run_of_comments_does_not(monkeypatch, into):
    """Past SCAN_BLOCK_MAX_BYTES without a sentence end, a run of mostly comments goes to the
    exact parser (no memory per comment) but one huge sentence of word lines stays with the
    scan (its memory is what the words need; the exact parser took 10x the time and 3x the
    memory on a 1M-word sentence)."""
    monkeypatch.setattr(scan_pieces, "SCAN_PIECE_BYTES", 4096)
    monkeypatch.setattr(scan_pieces, "SCAN_BLOCK_MAX_BYTES", 16384)
    words = "".join(f"{i}\tw\t_\t_\t_\t_\t{i - 1}\tdep\t_\t_\n" for i in range(1, 3001))
    sentence = ("# sent_id = 1\n" + words + "\n").encode()
    pieces = _pieces(sentence, into)
    assert pieces and all(size is not None for _, size in pieces)
    assert b"".join(buffer[:size] for buffer, size in pieces) == sentence
    comments = ("# sent_id = 1\n" + "# a comment\n" * 3000 + "1\tw\t_\t_\t_\t_\t0\troot\t_\t_\n\n").encode()
    assert _pieces(comments, into)[-1][1] is None  # handed over

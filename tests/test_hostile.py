"""The scorer under hostile input: short errors with file, line and code; never a traceback."""
import importlib
import io
import os

import pytest

from conll_eval.cli import main

from helpers import chain, document, row, sentence

#: the module (``conll_eval.evaluate`` as an attribute is the function)
evaluate_module = importlib.import_module("conll_eval.evaluate")

GOOD = document(sentence("1 Hello 0 root", "2 world 1 obj"), sentence("1 Bye 0 root"))


def run(*argv):
    out, err = io.StringIO(), io.StringIO()
    code = main([str(a) for a in argv], stdout=out, stderr=err)
    assert "Traceback" not in err.getvalue()
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def gold(tmp_path):
    path = tmp_path / "gold.conllu"
    path.write_text(GOOD, encoding="utf-8")
    return path


def _write(tmp_path, name, data):
    path = tmp_path / name
    path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
    return path


@pytest.mark.parametrize("name,data,code,line", [
    ("utf8", GOOD.encode()[:20] + b"\xff" + GOOD.encode()[20:], "invalid-utf8", 1),
    ("bom", b"\xef\xbb\xbf" + GOOD.encode(), "bom", 1),
    ("no-final-blank", GOOD.rstrip("\n") + "\n", "missing-final-blank-line", 4),
    ("double-blank", GOOD.replace("\n\n", "\n\n\n", 1), "empty-sentence", 4),
    ("spaces-not-tabs", GOOD.replace("\t", " "), "wrong-column-count", 1),
])
def test_bad_system_file(tmp_path, gold, name, data, code, line):
    system = _write(tmp_path, name + ".conllu", data)
    status, out, err = run(gold, system)
    assert status == 1 and out == ""
    assert err.startswith(f"{system}:{line}: error [{code}] "), err


def test_missing_and_directory(tmp_path, gold):
    assert run(gold, tmp_path / "missing.conllu")[0] == 1
    status, _, err = run(gold, tmp_path)
    assert status == 1 and "[not-a-file]" in err
    status, _, err = run(tmp_path / "missing.conllu", gold)
    assert status == 1 and "missing.conllu: error [file-not-found]" in err


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root can read anything")
def test_unreadable(tmp_path, gold):
    system = _write(tmp_path, "locked.conllu", GOOD)
    system.chmod(0)
    status, _, err = run(gold, system)
    assert status == 1 and "[unreadable]" in err


@pytest.mark.parametrize("data", [b"", b"# only a comment\n"])
def test_empty_system_is_an_empty_file_error(tmp_path, gold, data):
    system = _write(tmp_path, "empty.conllu", data)
    status, _, err = run(gold, system)
    assert (status, err) == (1, f"{system}: error [empty-file] the system file has no words\n")


def test_crlf_and_nul_bytes_score(tmp_path, gold):
    crlf = _write(tmp_path, "crlf.conllu", GOOD.replace("\n", "\r\n"))
    assert run(gold, crlf)[1] == run(gold, gold)[1]
    nul_text = GOOD.replace("world", "wor\x00ld")
    nul = _write(tmp_path, "nul.conllu", nul_text)
    status, out, _ = run(nul, nul)
    assert status == 0 and out.startswith("LAS F1 Score: 100.00")


def test_megabyte_lines_and_huge_sentences(tmp_path):
    long_form = "x" * 1_000_000  # a line under MAX_LINE_BYTES (1 MiB; longer: line-too-long)
    big = _write(tmp_path, "long.conllu", row("1", long_form, "0", "root") + "\n\n")
    assert run(big, big)[0] == 0
    words = [f"{k} w{k} {1 if k > 1 else 0} {'dep' if k > 1 else 'root'}" for k in range(1, 100_001)]
    wide = _write(tmp_path, "wide.conllu", sentence(*words))
    assert run(wide, wide)[0] == 0
    deep = _write(tmp_path, "deep.conllu", chain(100_000))
    status, out, _ = run("-v", deep, deep)
    assert status == 0 and "UAS        |    100.00" in out
    # the validator takes them too: level 1 passes (level 2 wants sent_id and text)
    for path in (big, wide, deep):
        assert run("validate", "--level", "1", path) == (0, "", "*** PASSED ***\n")
        status, out, _ = run("validate", path)
        assert status == 1 and "missing-sent-id" in out and "non-tree" not in out
    assert run("--strict", deep, deep)[0] == 1


def test_validator_on_hostile_bytes(tmp_path):
    cases = {"nul": GOOD.replace("Hello", "Hel\x00lo"), "crlf": GOOD.replace("\n", "\r\n"),
             "bom": "\ufeff" + GOOD, "empty": "", "comments": "# only\n# comments\n",
             "binary": bytes(range(256)) * 4}
    for name, data in cases.items():
        path = _write(tmp_path, f"{name}.conllu", data)
        status, out, err = run("validate", "--max-err", "0", path)
        assert status == 1, name  # an empty file is no pass either (udvalidate passes it)
        assert err.splitlines()[-1].startswith(("*** PASSED", "*** FAILED")), name


def test_swapped_and_same_file(tmp_path, gold):
    other = _write(tmp_path, "other.conllu", document(sentence("1 Hello 0 root", "2 world 1 obj",
                                                                "3 Bye 1 dep")))
    _, forward, _ = run("--format", "tsv", gold, other)
    _, backward, _ = run("--format", "tsv", other, gold)
    sentences_f = next(l for l in forward.splitlines() if l.startswith("Sentences")).split("\t")
    sentences_b = next(l for l in backward.splitlines() if l.startswith("Sentences")).split("\t")
    assert sentences_f[5] == sentences_b[6] and sentences_f[6] == sentences_b[5]  # P and R swap
    status, out, _ = run(gold, gold)
    assert status == 0 and out == "LAS F1 Score: 100.00\nMLAS Score: 100.00\nBLEX Score: 100.00\n"


def test_internal_error_exit_3_and_debug(monkeypatch, gold):
    def broken(*args, **kwargs):
        raise RuntimeError("boom")
    # the command imports evaluate_files where it scores (start-up time): patched at its source
    monkeypatch.setattr(evaluate_module, "evaluate_files", broken)
    status, _, err = run(gold, gold)
    assert status == 3 and "internal error" in err and "--debug" in err
    with pytest.raises(RuntimeError):
        main(["--debug", str(gold), str(gold)], stdout=io.StringIO(), stderr=io.StringIO())

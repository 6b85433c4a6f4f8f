"""Command line: outputs, formats, exit codes, error messages."""
import json
import os
import stat
import subprocess
import sys
import threading

import pytest


from helpers import document, run_cli, sentence

GOLD = document(
    sentence("1 The 2 det DET", "2 cat 3 nsubj NOUN", "3 sleeps 0 root VERB"),
    sentence("1 It 2 nsubj PRON", "2 purrs 0 root VERB"),
)
SYSTEM = document(
    sentence("1 The 2 det DET", "2 cat 3 obj NOUN", "3 sleeps 0 root VERB"),
    sentence("1 It 2 nsubj PRON", "2 purrs 0 root VERB"),
)


run = run_cli


@pytest.fixture
def pair(write):
    return write("gold.conllu", GOLD), write("system.conllu", SYSTEM)


def test_default_output_conll18(pair):
    code, out, err = run(*pair)
    assert code == 0 and err == ""
    assert out == "LAS F1 Score: 80.00\nMLAS Score: 75.00\nBLEX Score: 75.00\n"


def test_default_output_conll17(pair):
    code, out, _ = run("--profile", "conll17", *pair)
    assert code == 0 and out == "LAS F1 Score: 80.00\n"


def test_verbose_table_layout(pair):
    code, out, _ = run("-v", *pair)
    lines = out.splitlines()
    assert lines[0] == "Metric     | Precision |    Recall |  F1 Score | AligndAcc"
    assert lines[1] == "-----------+-----------+-----------+-----------+-----------"
    assert lines[2] == "Tokens     |    100.00 |    100.00 |    100.00 |"
    assert lines[11] == "LAS        |     80.00 |     80.00 |     80.00 |     80.00"
    assert [line.split("|")[0].strip() for line in lines[2:]] == [
        "Tokens", "Sentences", "Words", "UPOS", "XPOS", "UFeats", "AllTags", "Lemmas", "UAS", "LAS",
        "CLAS", "MLAS", "BLEX"]


def test_counts_table(pair):
    code, out, _ = run("-c", *pair)
    lines = out.splitlines()
    assert lines[0] == "Metric     | Correct   |      Gold | Predicted | Aligned"
    assert lines[2] == "Tokens     |         5 |         5 |         5 |          "
    assert lines[4] == "Words      |         5 |         5 |         5 |         5"


def test_json_output(pair):
    code, out, _ = run("--format", "json", *pair)
    document_ = json.loads(out)
    las = document_["metrics"]["LAS"]
    exact = las.pop("exact_match")  # gold sentences all right for LAS
    assert las.pop("annotated") is True
    assert las == {"correct": 4, "gold": 5, "system": 5, "aligned": 5, "precision": 0.8, "recall": 0.8,
                   "f1": 0.8, "aligned_accuracy": 0.8}
    assert set(exact) == {"sentences", "of", "share"} and exact["of"] >= exact["sentences"]
    assert document_["metrics"]["Tokens"]["aligned_accuracy"] is None
    assert document_["signature"].startswith("conll_eval:") and "profile:conll18" in document_["signature"]
    assert document_["settings"]["profile"] == "conll18"


def test_tsv_output(pair):
    code, out, _ = run("--format", "tsv", *pair)
    rows = [line.split("\t") for line in out.splitlines()]
    assert rows[0][:5] == ["metric", "correct", "gold", "system", "aligned"]
    las = next(r for r in rows if r[0] == "LAS")
    assert las[1:4] == ["4", "5", "5"] and las[7] == "80.00"


def test_weights_add_weighted_las_and_force_the_table(pair, write):
    weights = write("w.txt", "# weights\ndet 0.1\n\nnsubj 2\n")
    code, out, _ = run("--profile", "conll17", "-w", weights, *pair)
    assert code == 0
    assert out.splitlines()[-1].startswith("WeightedLAS|")


def test_missing_file_exit_1(pair, tmp_path):
    code, out, err = run(pair[0], str(tmp_path / "nope.conllu"))
    assert code == 1 and out == ""
    assert "nope.conllu: error [file-not-found]" in err and "Traceback" not in err


def test_directory_instead_of_file(pair, tmp_path):
    code, _, err = run(pair[0], str(tmp_path))
    assert code == 1 and "[not-a-file]" in err


def test_invalid_system_names_file_line_code(pair, write):
    bad = write("bad.conllu", GOLD.replace("\t3\tnsubj", "\t2\tnsubj", 1))
    code, _, err = run(pair[0], bad)
    assert code == 1
    assert err.startswith(f"{bad}:4: error [cycle] ")


def test_the_cycle_message_names_the_words_of_the_cycle_only(pair, write):
    # The -> cat -> sleeps -> cat: words 2 and 3 form the cycle, word 1 only leads into it
    bad = write("bad.conllu", GOLD.replace("\t0\troot", "\t2\troot", 1))
    code, _, err = run(pair[0], bad)
    assert code == 1 and "cycle through words 2, 3" in err, err


def test_usage_errors_exit_2(pair):
    assert run(pair[0])[0] == 2
    assert run("--profile", "conll99", *pair)[0] == 2
    code, _, err = run("-", "-")
    assert code == 2 and "stdin" in err


def test_output_file_is_written_and_inputs_are_protected(pair, tmp_path):
    target = tmp_path / "result.txt"
    assert run("-o", str(target), *pair)[0] == 0
    assert target.read_text().startswith("LAS F1 Score: 80.00")
    before = open(pair[1], encoding="utf-8").read()
    code, _, err = run("-o", pair[1], *pair)
    assert code == 2 and "refusing" in err
    assert open(pair[1], encoding="utf-8").read() == before


def test_output_file_mode_is_that_of_an_ordinary_open(pair, tmp_path):
    fresh = tmp_path / "fresh.txt"
    old_umask = os.umask(0o022)
    try:
        assert run("-o", str(fresh), *pair)[0] == 0
    finally:
        os.umask(old_umask)
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o644  # not mkstemp's 0600
    fresh.chmod(0o640)
    assert run("-o", str(fresh), *pair)[0] == 0
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o640


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_output_to_a_pipe_is_written_into_it_not_replaced(pair, tmp_path):
    fifo = tmp_path / "results.fifo"
    os.mkfifo(fifo)
    received = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_text()))
    reader.start()
    code = run("-o", str(fifo), *pair)[0]
    reader.join(timeout=30)
    assert code == 0 and received[0].startswith("LAS F1 Score: 80.00")
    assert stat.S_ISFIFO(fifo.stat().st_mode)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here")
@pytest.mark.parametrize("where", ["stdout", "-o"])
def test_a_failed_write_of_the_results_is_an_error(pair, where):
    argv = [sys.executable, "-m", "conll_eval", *pair]
    if where == "-o":
        result = subprocess.run(argv + ["-o", "/dev/full"], capture_output=True, text=True)
    else:
        with open("/dev/full", "w") as full:
            result = subprocess.run(argv, stdout=full, stderr=subprocess.PIPE, text=True)
    assert result.returncode == 4  # the results could not be written (not: invalid input)
    assert result.stderr.strip().endswith("No space left on device")
    assert "error [write-failed]" in result.stderr and "Traceback" not in result.stderr
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)


def test_a_reader_that_goes_away_is_not_an_error(pair):
    """``conll_eval ... | head -1``: exit 0, no 'Exception ignored' noise on stderr."""
    argv = [sys.executable, "-m", "conll_eval", "-v", *pair]
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    process.stdout.close()  # before the scorer writes: its flush meets a closed pipe
    err = process.stderr.read().decode()
    # the pair has no XPOS and no features: only those notes may appear
    noise = [line for line in err.splitlines() if not line.startswith("conll_eval: note: ")]
    assert process.wait() == 0 and noise == []


def test_module_entry_point_and_stdin(pair):
    with open(pair[1], "rb") as handle:
        result = subprocess.run([sys.executable, "-m", "conll_eval", pair[0], "-"], stdin=handle,
                                capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("LAS F1 Score: 80.00")


def test_text_mismatch_message(pair, write):
    other = write("other.conllu", GOLD.replace("cat", "dog"))
    code, _, err = run(pair[0], other)
    assert code == 1
    assert "error [text-mismatch]" in err and ">>" in err and "gold" in err


def test_signature_flag(pair):
    code, out, _ = run("--signature", *pair)
    assert out.splitlines()[-1].startswith("conll_eval:")

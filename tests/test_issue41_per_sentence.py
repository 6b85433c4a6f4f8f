"""Issue 41, section 4: per-sentence scores from the command line (``conll_eval GOLD SYSTEM
--per-sentence``): one row per gold sentence, each metric's counts and F1, n/a where F1
means nothing, rows that add up to the file's totals whatever the two files' sentence splits
and tokenization, and the same rows from the compiled core and the numpy path."""
import json
import os
import subprocess
import sys

import pytest

from helpers import document, run_cli, sentence

#: gold: three sentences; "Cats sleep." and "Dogs bark." with sent_ids, the third without
GOLD = document(
    sentence("1 Cats 2 nsubj NOUN", "2 sleep 0 root VERB", "3 . 2 punct PUNCT",
             comments=["# sent_id = s1", "# text = Cats sleep."]),
    sentence("1 Dogs 2 nsubj NOUN", "2 bark 0 root VERB",
             comments=["# sent_id = s2", "# text = Dogs bark"]),
    sentence("1-2 cannot", "1 can 0 root AUX", "2 not 1 advmod PART", "3 ! 1 punct PUNCT"),
    sentence("1 ? 0 punct PUNCT"))
#: system: the first two gold sentences as one (its split differs), "cannot" as two tokens
#: (its tokenization differs), a wrong relation and a wrong tag
SYSTEM = document(
    sentence("1 Cats 2 obj NOUN", "2 sleep 0 root VERB", "3 . 2 punct PUNCT",
             "4 Dogs 5 nsubj VERB", "5 bark 2 parataxis VERB"),
    sentence("1 can 0 root AUX", "2 not 1 advmod PART", "3 ! 1 punct PUNCT", "4 ? 1 punct PUNCT"))

METRICS = "Tokens,Sentences,Words,UPOS,XPOS,UFeats,AllTags,Lemmas,UAS,LAS,CLAS,MLAS,BLEX"


@pytest.fixture
def pair(write):
    return write("gold.conllu", GOLD), write("system.conllu", SYSTEM)


def test_csv_rows_counts_f1_and_n_a(pair):
    code, out, err = run_cli(*pair, "--per-sentence", "--format", "csv", "--metrics",
                             "LAS,CLAS,XPOS")
    assert code == 0, err
    assert out.splitlines() == [
        "sentence,line,sent_id,LAS_correct,LAS_gold,LAS_system,LAS_f1,CLAS_correct,CLAS_gold,"
        "CLAS_system,CLAS_f1,XPOS_correct,XPOS_gold,XPOS_system,XPOS_f1",
        # the system's 'Dogs bark' is in gold sentence 2 (its first character is there),
        # whatever the system's own split; XPOS is _ in the gold file: n/a on every row
        "1,3,s1,2,3,3,66.67,1,2,2,50.00,3,3,3,n/a",
        "2,9,s2,1,2,2,50.00,1,2,2,50.00,2,2,2,n/a",
        # no sent_id: the ordinal and the line tell (the system's tokens 'can' and 'not' for
        # gold's 'cannot' count here)
        "3,12,,3,3,3,100.00,2,2,2,100.00,3,3,3,n/a",
        # no content word on either side ('?' is punct on both): CLAS n/a
        "4,17,,0,1,1,0.00,0,0,0,n/a,1,1,1,n/a"]


def test_json_has_null_where_f1_means_nothing(pair):
    code, out, err = run_cli(*pair, "--per-sentence", "--format", "json", "--metrics", "CLAS,XPOS")
    assert code == 0, err
    record = json.loads(out)
    assert record["metrics"] == ["CLAS", "XPOS"] and record["signature"].startswith("conll_eval:")
    last = record["sentences"][3]
    assert last["sentence"] == 4 and last["line"] == 17 and last["sent_id"] is None
    assert last["CLAS"] == {"correct": 0, "gold": 0, "system": 0, "f1": None}
    assert record["sentences"][0]["CLAS"]["f1"] == 0.5
    assert [s["XPOS"]["f1"] for s in record["sentences"]] == [None] * 4
    assert [s["XPOS"]["correct"] for s in record["sentences"]] == [3, 2, 3, 1]  # counts stay


def _totals(pair, metrics):
    code, out, err = run_cli(*pair, "--format", "json", "--metrics", metrics)
    assert code == 0, err
    return json.loads(out)["metrics"]


def test_rows_add_up_to_the_totals_with_other_splits_and_tokens(pair):
    code, out, err = run_cli(*pair, "--per-sentence", "--format", "json", "--metrics", METRICS)
    assert code == 0, err
    rows = json.loads(out)["sentences"]
    assert len(rows) == 4  # one per gold sentence, not per system sentence
    totals = _totals(pair, METRICS)
    for metric in METRICS.split(","):
        for count in ("correct", "gold", "system"):
            assert sum(row[metric][count] for row in rows) == totals[metric][count], (metric, count)
    # the differences are real: 2 system sentences for 4, 9 system tokens for 8
    assert totals["Sentences"]["system"] == 2 and totals["Tokens"]["system"] == 9
    assert [row["Sentences"]["system"] for row in rows] == [1, 0, 1, 0]
    assert [row["Tokens"]["system"] for row in rows] == [3, 2, 3, 1]


def test_compiled_and_numpy_paths_give_the_same_rows(pair):
    outputs = []
    for pure in ("0", "1"):
        env = {**os.environ, "CONLL_EVAL_PURE": pure}
        done = subprocess.run([sys.executable, "-m", "conll_eval", *pair, "--per-sentence",
                               "--format", "json", "--metrics", METRICS],
                              capture_output=True, text=True, env=env, timeout=120)
        assert done.returncode == 0, done.stderr
        outputs.append(json.loads(done.stdout))
    assert outputs[0] == outputs[1]


def test_text_tsv_and_latex_layouts_and_the_signature(pair):
    code, out, _ = run_cli(*pair, "--per-sentence", "--metrics", "LAS")
    assert code == 0
    assert out.splitlines() == [
        "sentence  line  sent_id  LAS_correct  LAS_gold  LAS_system  LAS_f1",
        "------------------------------------------------------------------",
        "       1     3  s1                 2         3           3   66.67",
        "       2     9  s2                 1         2           2   50.00",
        "       3    12                     3         3           3  100.00",
        "       4    17                     0         1           1    0.00"]
    _, with_signature, _ = run_cli(*pair, "--per-sentence", "--metrics", "LAS", "--signature")
    assert with_signature.startswith(out) and with_signature.splitlines()[-1].startswith("conll_eval:")
    _, tsv, _ = run_cli(*pair, "--per-sentence", "--metrics", "LAS", "--format", "tsv",
                        "--signature")
    assert tsv.splitlines()[0].startswith("# conll_eval:")
    assert tsv.splitlines()[2] == "1\t3\ts1\t2\t3\t3\t66.67"
    _, latex, _ = run_cli(*pair, "--per-sentence", "--metrics", "LAS", "--format", "latex")
    assert "1 & 3 & s1 & 2 & 3 & 3 & 66.67 \\\\" in latex.splitlines()
    assert "sentence & line & sent\\_id & LAS\\_correct & LAS\\_gold & LAS\\_system & LAS\\_f1 \\\\" \
        in latex.splitlines()


def test_a_bar_still_gates_on_the_totals(pair, tmp_path):
    out_file = tmp_path / "sentences.csv"
    code, out, err = run_cli(*pair, "--per-sentence", "--format", "csv", "-o", out_file,
                             "--fail-under", "LAS=90")
    assert code == 1 and out == ""
    assert "error [fail-under] LAS 66.67 < 90" in err
    assert out_file.read_text().splitlines()[0].startswith("sentence,line,sent_id,Tokens_correct")


@pytest.mark.parametrize("option", ["-v", "-c", "--exact-match"])
def test_options_of_the_totals_table_are_usage_errors(pair, option):
    code, out, err = run_cli(*pair, "--per-sentence", option)
    assert code == 2 and out == ""
    assert err.startswith("conll_eval: error [usage] --per-sentence") and len(err.splitlines()) == 1


def test_a_system_sentence_over_two_gold_ones_counts_each_word_where_it_starts(write):
    gold = write("g.conllu", document(sentence("1 a 0 root"), sentence("1 b 0 root")))
    system = write("s.conllu", document(sentence("1 a 0 root", "2 b 1 dep")))
    code, out, err = run_cli(gold, system, "--per-sentence", "--format", "csv", "--metrics", "LAS")
    assert code == 0, err
    assert out.splitlines()[1:] == ["1,1,,1,1,1,100.00", "2,3,,0,1,1,0.00"]


def test_a_hostile_sent_id_is_quoted_and_spelt_out_in_every_format(write):
    import csv
    import io
    hostile = 'a,"b"\tc\x1b\u202e%s'
    gold = write("g.conllu", document(sentence("1 a 0 root", comments=[f"# sent_id = {hostile}"]),
                                      sentence("1 b 0 root")))
    system = write("s.conllu", document(sentence("1 a 0 root"), sentence("1 b 0 root")))
    spelt = 'a,"b"\\tc\\x1b\\u202e%s'
    for fmt, delimiter in (("csv", ","), ("tsv", "\t")):
        code, out, err = run_cli(gold, system, "--per-sentence", "--format", fmt, "--metrics", "LAS")
        assert code == 0, err
        rows = list(csv.reader(io.StringIO(out), delimiter=delimiter))
        assert rows[1] == ["1", "2", spelt, "1", "1", "1", "100.00"]
        assert rows[2] == ["2", "4", "", "1", "1", "1", "100.00"] and len(rows) == 3
    code, out, err = run_cli(gold, system, "--per-sentence", "--format", "json", "--metrics", "LAS")
    assert code == 0, err
    assert out.isascii() and "\x1b" not in out
    assert [s["sent_id"] for s in json.loads(out)["sentences"]] == [spelt, None]

"""``conll_eval tagger`` on CoNLL-U files, hand-computed on testdata/tagger-conllu/.

gold.conllu: "The cats don't sleep." (don't = do + n't, a multi-word token) and "Dogs bark
loudly."; system.conllu: one sentence, "don't" left whole, and tag errors: cats NN /
Number=Sing (gold NNS / Plur), Dogs PROPN / NNP (gold NOUN / NNS), loudly lemma loud.
The conll18 alignment pairs 8 words: do and n't (gold) and don't (system) share no form, so
the three stay unaligned.  Gold has 10 words, the system 9.
"""
import io
import json
from pathlib import Path

import pytest

from conll_eval.analyze.tagger.conllu import evaluate_tagging, parse_columns
from conll_eval.cli import main
from conll_eval.cli.tagger_conllu import wants_conllu
from conll_eval.errors import UsageError
from conll_eval.reader import load
from conll_eval.treebank import Vocab

DATA = Path(__file__).resolve().parent.parent / "testdata" / "tagger-conllu"
GOLD, SYSTEM, TRAIN = (str(DATA / name) for name in ("gold.conllu", "system.conllu",
                                                     "train.conllu"))


def _evaluate(columns="UPOS,XPOS,FEATS,LEMMA,MISC:SpaceAfter", training=None):
    vocab = Vocab()
    gold, system = load(GOLD, "conll18", vocab), load(SYSTEM, "conll18", vocab)
    return evaluate_tagging(gold, system, parse_columns(columns), training)


def _run(*argv):
    out, err = io.StringIO(), io.StringIO()
    code = main(["tagger", *map(str, argv)], out, err)
    return code, out.getvalue(), err.getvalue()


def test_scores_on_the_word_alignment():
    evaluation = _evaluate()
    scores = {s.name: s for s in evaluation.scores}
    assert (evaluation.gold.n_words, evaluation.system.n_words, len(evaluation.alignment)) == \
        (10, 9, 8)
    assert evaluation.forms_equal == 8
    # UPOS: 7 of the 8 aligned words right (Dogs NOUN>PROPN): P 7/9, R 7/10, accuracy 7/8
    upos = scores["UPOS"]
    assert (upos.correct, upos.gold, upos.system, upos.aligned) == (7, 10, 9, 8)
    assert upos.precision == pytest.approx(7 / 9) and upos.recall == pytest.approx(7 / 10)
    assert upos.f1 == pytest.approx(14 / 19) and upos.accuracy == pytest.approx(7 / 8)
    assert scores["XPOS"].correct == 6  # cats NNS>NN, Dogs NNS>NNP
    assert scores["FEATS"].correct == 7  # cats Number=Plur>Sing; "_" = "_" counts as equal
    assert scores["LEMMA"].correct == 7  # loudly>loud
    # per feature: the words having it on each side; aligned = aligned words whose gold has it
    number = scores["FEATS:Number"]  # gold: cats, Dogs; system: cats, Dogs; only Dogs right
    assert (number.correct, number.gold, number.system, number.aligned) == (1, 2, 2, 2)
    polarity = scores["FEATS:Polarity"]  # only on n't, which is unaligned
    assert (polarity.correct, polarity.gold, polarity.system, polarity.aligned) == (0, 1, 0, 0)
    mood = scores["FEATS:Mood"]  # gold: do, bark; system: bark
    assert (mood.correct, mood.gold, mood.system, mood.aligned) == (1, 2, 1, 1)
    space = scores["MISC:SpaceAfter"]  # sleep and loudly on both sides
    assert (space.correct, space.gold, space.system, space.aligned) == (2, 2, 2, 2)


def test_known_and_unknown_words():
    """train.conllu has The, cats, sleep and '.': of the aligned gold words 5 are known
    (The, cats, sleep, ., .) and 3 unknown (Dogs, bark, loudly)."""
    scores = {s.name: s for s in _evaluate(training={"The", "cats", "sleep", "."}).scores}
    assert scores["UPOS"].known == (5, 5) and scores["UPOS"].unknown == (2, 3)
    assert scores["XPOS"].known == (4, 5) and scores["XPOS"].unknown == (2, 3)
    assert scores["LEMMA"].known == (5, 5) and scores["LEMMA"].unknown == (2, 3)


def test_listing_at_verbosity_3_and_4():
    code, out, err = _run(GOLD, SYSTEM, "-v", "3")
    assert code == 0, err
    listed = [line.split("\t") for line in out.splitlines() if "\t" in line]
    # gold order; a system-only word after the gold words that start before it
    assert [(row[0], row[4]) for row in listed] == [
        ("-:-xf-", "cats"), ("t:----", "do"), ("t:----", "n't"), ("t:----", "don't"),
        ("-:ux--", "Dogs"), ("-:---l", "loudly")]
    cats = listed[0]
    assert cats[1] == f"{GOLD}:4" and cats[2] == f"{SYSTEM}:4" and cats[3] == "s1"
    assert cats[5] == "XPOS NNS>NN; FEATS Number=Plur>Number=Sing"
    assert cats[6] == "The [cats] do n't sleep"
    assert listed[3][1] == "-" and listed[3][3] == "merged"  # the system's own sentence id
    assert listed[3][5] == "system word not aligned to a gold word"
    code, out, _ = _run(GOLD, SYSTEM, "-v", "4")
    listed = [line.split("\t") for line in out.splitlines() if "\t" in line]
    assert len(listed) == 8 + 3  # every aligned word and the unaligned ones
    assert sum(row[0] == "-:----" for row in listed) == 8 - 3
    code, out, _ = _run(GOLD, SYSTEM)
    assert not any("\t" in line for line in out.splitlines())  # -v 2: the summary only


def test_text_summary_and_confusion():
    code, out, err = _run(GOLD, SYSTEM, "--confusion", "--train", TRAIN, "--signature")
    assert code == 0, err
    assert "Words: gold 10, system 9, aligned 8 (80.00 % of gold), FORM equal 8" in out
    assert "Sentences: gold 2, system 1" in out
    upos = next(line for line in out.splitlines() if line.startswith("UPOS "))
    assert upos.split() == ["UPOS", "7", "10", "9", "8", "77.78", "70.00", "73.68", "87.50",
                            "100.00", "66.67", "3"]
    assert "XPOS confusions (gold > system): 2 pairs, 2 errors" in out
    assert out.rstrip().endswith("columns:UPOS,XPOS,FEATS,LEMMA|train:file")


def test_json(tmp_path):
    target = tmp_path / "report.json"
    code, out, err = _run(GOLD, SYSTEM, "--format", "json", "-v", "3", "-o", target)
    assert code == 0 and out == "", err
    document = json.loads(target.read_text())
    assert document["words"] == {"gold": 10, "system": 9, "aligned": 8, "form_equal": 8}
    assert document["columns"]["UPOS"]["correct"] == 7
    assert document["columns"]["FEATS:Number"]["aligned"] == 2
    assert document["confusion"]["UPOS"] == [{"gold": "NOUN", "system": "PROPN", "count": 1}]
    assert [w["form"] for w in document["words_listed"]] == ["cats", "do", "n't", "don't",
                                                             "Dogs", "loudly"]


def test_mode_choice_and_usage_errors(tmp_path):
    assert wants_conllu(["a.conllu", "b.CONLLU", "-v", "3"])
    assert wants_conllu(["--conllu", "a.txt", "b.txt"])
    assert not wants_conllu(["a.wd", "b.wd"])
    assert not wants_conllu(["-o", "out.conllu", "a.tt", "b.tt"])  # -o's value is no input
    with pytest.raises(UsageError):
        parse_columns("UPOS,SHAPE")
    with pytest.raises(UsageError):
        parse_columns("MISC:")
    code, _, err = _run(GOLD, SYSTEM, "--columns", "UPOS,UPOS")
    assert code == 2 and "named twice" in err
    code, _, err = _run(GOLD, SYSTEM, "-o", GOLD)
    assert code == 2 and "refusing to write" in err


def test_bad_input_names_file_and_line(tmp_path):
    broken = tmp_path / "broken.conllu"
    broken.write_text("1\tThe\tthe\tDET\n\n")
    code, out, err = _run(GOLD, broken)
    assert code == 1 and f"{broken}:1" in err and "Traceback" not in err
    other = tmp_path / "other.conllu"
    other.write_text("1\tCats\tcat\tNOUN\tNNS\t_\t0\troot\t_\t_\n\n")
    code, _, err = _run(GOLD, other)
    assert code == 1 and "text-mismatch" in err

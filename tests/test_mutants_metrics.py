"""Mutation testing (``make mutation``): hand-worked cases for the policies of the older
evaluations (``--punct``, ``--deprel``), whose counting the mutants of
``conll_eval/metrics.py`` showed no in-process test reached, and the registry of
``conll_eval/metric_specs.py`` (split from it), which runs only while the module loads; the
weights file of ``--weights`` (its parsing and every error message)."""
import pytest

from conll_eval import evaluate_files, limits
from conll_eval.align import align_words
from conll_eval import metric_specs
from conll_eval.errors import FormatError
from conll_eval.io.conllu import load_text
from conll_eval.evaluate import Settings
from conll_eval.metric_specs import MetricSpec, Profile, register_metric, register_profile
from conll_eval.enhancements import EnhancedOptions
from conll_eval.metrics import METRICS, EvaluationContext, compute_counts, load_weights
from conll_eval.treebank import Vocab

from helpers import document, row, sentence

# gold: 2 ',' is punct by relation, UPOS and form; 4 '!' by UPOS and form; 5 ':)' by form only.
# The system attaches 2, 4 and 5 to 3 (wrong) and tags 4 as X (so only gold calls it PUNCT).
GOLD = document(sentence("1 Hello 0 root INTJ", "2 , 1 punct PUNCT", "3 world 1 vocative NOUN",
                         "4 ! 1 discourse PUNCT", "5 :) 1 discourse SYM"))
SYSTEM = document(sentence("1 Hello 0 root INTJ", "2 , 3 punct PUNCT", "3 world 1 vocative NOUN",
                           "4 ! 3 discourse X", "5 :) 3 discourse SYM"))


def _score(tmp_path, gold=GOLD, system=SYSTEM, **policies):
    paths = []
    for name, text in (("gold.conllu", gold), ("system.conllu", system)):
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        paths.append(str(path))
    return evaluate_files(*paths, settings=Settings(**policies)).scores


def _counts(score):
    return score.correct, score.gold, score.system, score.aligned


@pytest.mark.parametrize("punct, las", [
    ("include", (2, 5, 5, 5)),    # words 1 and 3 right of 5
    ("deprel", (2, 4, 4, 4)),     # ',' (relation punct) left out on both sides
    ("upos", (2, 3, 4, 3)),       # gold drops ',' and '!'; the system only ',' ('!' is X there)
    ("unicode", (2, 2, 2, 2)),    # ',', '!' and ':)' are punctuation by their forms
])
def test_each_punctuation_policy_drops_its_words_side_by_side(tmp_path, punct, las):
    assert _counts(_score(tmp_path, punct=punct)["LAS"]) == las


def test_clas_under_a_policy_keeps_only_the_content_words_it_scores(tmp_path):
    """Content relations: root, vocative, discourse (punct is not). Under upos: gold keeps
    1, 3, 5; the system 1, 3, 4, 5; words 1 and 3 are right."""
    scores = _score(tmp_path, punct="upos")
    assert _counts(scores["CLAS"]) == (2, 3, 4, 3)


def test_the_conll17_clas_weights_under_a_policy(tmp_path):
    """conll17's CLAS weighs content words 1 (the rest 0), then the policy drops its words:
    the same counts as the 2018 CLAS here."""
    scores = _score(tmp_path, profile="conll17", punct="upos")
    assert _counts(scores["CLAS"]) == (2, 3, 4, 3)


def test_v1_relations_compare_as_their_v2_names(tmp_path):
    """Under ``--deprel v1`` dobj = obj, nsubjpass = nsubj:pass (-> nsubj) and name:x ->
    flat:name (-> flat); under the default the v1 names are other relations."""
    gold = document(sentence("1 a 0 root", "2 b 1 dobj", "3 c 1 nsubjpass", "4 d 1 name:x"))
    system = document(sentence("1 a 0 root", "2 b 1 obj", "3 c 1 nsubj", "4 d 1 flat"))
    assert _score(tmp_path, gold, system, deprel="v1")["LAS"].correct == 4
    assert _score(tmp_path, gold, system)["LAS"].correct == 1


def test_a_registered_metric_and_profile_are_found_by_name(monkeypatch):
    monkeypatch.setattr(metric_specs, "METRICS", dict(metric_specs.METRICS))
    monkeypatch.setattr(metric_specs, "PROFILES", dict(metric_specs.PROFILES))
    spec = MetricSpec("LAS-again", "LAS under another name", columns=("udeprel",), head=True)
    assert register_metric(spec) is spec and metric_specs.METRICS["LAS-again"] is spec
    profile = Profile("mine", "LAS alone", ("LAS-again",), "Metric | F1", ())
    assert register_profile(profile) is profile and metric_specs.PROFILES["mine"] is profile


def test_weighted_las_under_a_policy_weighs_each_side_s_kept_words(tmp_path):
    """Weights root 1, punct 1, vocative 2, discourse 0.5; under upos gold keeps 1, 3, 5
    (1 + 2 + 0.5 = 3.5, aligned alike), the system 1, 3, 4, 5 (4.0); words 1 and 3 are right
    (1 + 2 = 3)."""
    weights = tmp_path / "weights.txt"
    weights.write_text("root 1\npunct 1\nvocative 2\ndiscourse 0.5\n", encoding="utf-8")
    scores = _score(tmp_path, profile="conll17", weights_file=str(weights), punct="upos")
    assert _counts(scores["WeightedLAS"]) == (3.0, 3.5, 4.0, 3.5)


def test_weighted_las_under_a_policy_takes_gold_weights_from_gold_relations(tmp_path):
    """Gold b is a vocative (weight 2), the system calls it discourse (0.5): gold and aligned
    weigh 1 + 2, the system 1 + 0.5; only a (root, 1) is right."""
    weights = tmp_path / "weights.txt"
    weights.write_text("root 1\nvocative 2\ndiscourse 0.5\n", encoding="utf-8")
    gold = document(sentence("1 a 0 root", "2 b 1 vocative"))
    system = document(sentence("1 a 0 root", "2 b 1 discourse"))
    scores = _score(tmp_path, gold, system, profile="conll17", weights_file=str(weights),
                    punct="deprel")
    assert _counts(scores["WeightedLAS"]) == (1.0, 3.0, 1.5, 3.0)


# --- a content relation under a policy: det is no content word, and the system tags the
# root PUNCT (so --punct upos drops it on the system side alone)
DET_GOLD = document(sentence("1 The 2 det DET", "2 dog 3 nsubj NOUN", "3 barks 0 root VERB",
                             "4 . 3 punct PUNCT"))
DET_SYSTEM = document(sentence("1 The 2 det DET", "2 dog 3 nsubj NOUN", "3 barks 0 root PUNCT",
                               "4 . 3 punct PUNCT"))


@pytest.mark.parametrize("profile", ["conll18", "conll17"])
def test_clas_under_a_policy_drops_function_words_and_each_side_s_punctuation(tmp_path, profile):
    """Gold keeps the content words dog and barks (The is det, '.' PUNCT); the system only dog
    (its barks is PUNCT, content or not): both right.  conll17's CLAS (0/1 weights) counts
    words, in integers, like the 2018 one."""
    scores = _score(tmp_path, DET_GOLD, DET_SYSTEM, profile=profile, punct="upos")
    counts = _counts(scores["CLAS"])
    assert counts == (2, 2, 1, 2)
    assert [type(count) for count in counts] == [int] * 4
    # LAS keeps the function word: gold The, dog, barks; the system The, dog
    assert _counts(scores["LAS"]) == (3, 3, 2, 3)


def test_a_relation_under_v1_is_renamed_by_its_universal_part(tmp_path):
    """nsubjpass:x -> nsubj (its universal part nsubjpass is v1), name -> flat, and a v2
    relation with a subtype (nsubj:pass) keeps its universal part."""
    gold = document(sentence("1 a 0 root", "2 b 1 nsubjpass:x", "3 c 1 name", "4 d 1 nsubj:pass"))
    system = document(sentence("1 a 0 root", "2 b 1 nsubj", "3 c 1 flat:name", "4 d 1 nsubj"))
    assert _score(tmp_path, gold, system, deprel="v1")["LAS"].correct == 4


def _weights(tmp_path, data: bytes):
    path = tmp_path / "weights.txt"
    path.write_bytes(data)
    return str(path)


def test_a_weights_file_skips_comments_and_blank_lines_and_reads_each_weight(tmp_path):
    path = _weights(tmp_path, b"# relation weights\n\nnsubj 2\n  \nobj\t0.5\n#x 1 2\nroot 1e0\n")
    assert load_weights(path) == {"nsubj": 2.0, "obj": 0.5, "root": 1.0}


@pytest.mark.parametrize("data, line, message, official", [
    (b"# c\n\nnsubj 2\nobj 1 2\n", 4, "expected two columns 'deprel weight', found 3",
     "Expected two columns in the UD Relations weights file on line 'obj 1 2\n'"),
    (b"nsubj\n", 1, "expected two columns 'deprel weight', found 1",
     "Expected two columns in the UD Relations weights file on line 'nsubj\n'"),
    (b"# c\nnsubj 2\n\nobj heavy\n", 4, "weight 'heavy' is not a number",
     "could not convert string to float: 'heavy'"),
])
def test_a_bad_weights_line_is_named_by_its_line_number(tmp_path, data, line, message, official):
    path = _weights(tmp_path, data)
    with pytest.raises(FormatError) as caught:
        load_weights(path)
    assert str(caught.value) == f"{path}:{line}: error [invalid-weights] {message}"
    assert caught.value.official == official


@pytest.mark.parametrize("name, data, message", [
    ("missing.txt", None, "error [file-not-found] no such file or directory"),
    ("folder", "directory", "error [not-a-file] is a directory, not a weights file"),
    ("latin1.txt", b"nsubj 2\nobj \xff\n",
     "2: error [invalid-utf8] invalid UTF-8 byte 0xff at column 5 (byte offset 12); the file "
     "must be UTF-8"),
    ("large.txt", b"nsubj 2\nobj 1\nroot 1\n",
     "error [file-too-large] larger than 20 bytes, the limit for a weights file (is it the "
     "right file?); to read it, raise CONLL_EVAL_MAX_CONFIG_BYTES"),
])
def test_a_weights_file_that_cannot_be_read_is_named(tmp_path, monkeypatch, name, data, message):
    monkeypatch.setattr(limits, "MAX_CONFIG_BYTES", 20)  # the large one has 21
    path = tmp_path / name
    if data == "directory":
        path.mkdir()
    elif data is not None:
        path.write_bytes(data)
    with pytest.raises(FormatError) as caught:
        load_weights(str(path))
    separator = ":" if message[0].isdigit() else ": "
    assert str(caught.value) == f"{path}{separator}{message}"


def _enhanced_pair(gold_deps, system_deps):
    """Gold and system of two words "a b", word 2's DEPS as given."""
    vocab = Vocab()

    def tb(deps, side):
        text = "\n".join([row("1", "a", "0", "root", deps="0:root"),
                          row("2", "b", "1", "dep", deps=deps)]) + "\n\n"
        return load_text(text, "conll18", side, vocab)
    gold, system = tb(gold_deps, "gold"), tb(system_deps, "system")
    return EvaluationContext(gold, system, align_words(gold, system))


def test_a_context_made_without_evaluate_reads_each_sides_enhanced_graph_once():
    """evaluate() hands the context both graphs; a context made directly (the API) parses
    them itself, gold's from gold and the system's from the system, once each: gold root,
    nsubj and xcomp, the system root and obj, so ELAS has 1 correct of 3 and 2."""
    ctx = _enhanced_pair("1:nsubj|1:xcomp", "1:obj")
    assert compute_counts(METRICS["ELAS"], ctx).total[:3] == (1, 3, 2)
    assert ctx.enhanced_graph("gold") is ctx.enhanced_graph("gold")
    assert ctx.enhanced_graph("system") is ctx.enhanced_graph("system")
    assert ctx.enhanced_graph("gold") is not ctx.enhanced_graph("system")


@pytest.mark.parametrize("enhancements, correct", [("0", 1), ("6", 2)])
def test_a_context_made_without_evaluate_parses_with_its_enhanced_options(enhancements, correct):
    """--enhancements 6 (case information off): obl:in and obl:on are both obl."""
    ctx = _enhanced_pair("1:obl:in", "1:obl:on")
    ctx.enhanced_options = EnhancedOptions(enhancements)
    assert compute_counts(METRICS["ELAS"], ctx).total[:3] == (correct, 2, 2)


def test_ufeats_names_a_feature_by_what_comes_before_its_first_equals_sign(tmp_path):
    """A value holding '=' (Case=Nom=Acc, not UD-valid but read) is still Case's: the two
    sides' values differ, so UFeats counts the word wrong, while a feature read up to its last
    '=' would be dropped on both sides and the word counted right."""
    paths = []
    for name, case in (("gold", "Case=Nom=Acc"), ("system", "Case=Nom=Gen")):
        path = tmp_path / f"{name}.conllu"
        path.write_text("\n".join([row("1", "a", "0", "root", feats=f"{case}|Number=Sing"),
                                   row("2", "b", "1", "obj", feats="Number=Plur")]) + "\n\n",
                        encoding="utf-8")
        paths.append(str(path))
    ufeats = evaluate_files(*paths, profile="conll18").scores["UFeats"]
    assert (ufeats.correct, ufeats.gold) == (1, 2)

"""Properties every evaluation must have, on random pairs (no oracle needed)."""
import random

import numpy as np
import pytest
from hypothesis import given, strategies as st

from conll_eval import evaluate
from conll_eval.reader import load_text
from conll_eval.treebank import Vocab

from helpers import row

DEPRELS = ["root", "nsubj", "obj", "det", "case", "amod", "punct", "acl:relcl", "aux", "dobj"]
UPOS = ["NOUN", "VERB", "DET", "ADP", "PUNCT"]


def _sentence_lines(rng: random.Random, tokens, mwt_at):
    lines = []
    word = 0
    n_words = sum(2 if k in mwt_at and len(t) > 1 else 1 for k, t in enumerate(tokens))
    root = rng.randint(1, n_words)
    for k, token in enumerate(tokens):
        parts = [token[: len(token) // 2], token[len(token) // 2:]] if k in mwt_at and len(token) > 1 else [token]
        if len(parts) == 2:
            lines.append(row(f"{word + 1}-{word + 2}", token))
        for part in parts:
            word += 1
            head = 0 if word == root else (root if rng.random() < 0.5 else rng.randint(1, n_words))
            if head == word:
                head = root
            in_mwt = len(parts) == 2
            lines.append(row(str(word), part.upper() if in_mwt and rng.random() < 0.3 else part,
                             str(head) if word != root else "0",
                             "root" if word == root else rng.choice(DEPRELS),
                             lemma=rng.choice(["_", part]), upos=rng.choice(UPOS),
                             feats=rng.choice(["_", "Number=Sing", "Case=Nom|Number=Plur"])))
    return lines


def _fix_cycles(lines):
    """Re-point heads so the sentence is a tree (attach offenders to the root)."""
    words = [l.split("\t") for l in lines if "-" not in l.split("\t")[0]]
    heads = {int(w[0]): int(w[6]) for w in words}
    root = next(k for k, h in heads.items() if h == 0)
    for k in heads:
        seen, cur = set(), k
        while cur != 0 and cur not in seen:
            seen.add(cur)
            cur = heads[cur]
        if cur != 0:
            heads[k] = root
    out = []
    for l in lines:
        cols = l.split("\t")
        if "-" not in cols[0]:
            cols[6] = str(heads[int(cols[0])])
        out.append("\t".join(cols))
    return out


def _document(rng: random.Random, sentences):
    out = []
    for tokens in sentences:
        mwt_at = {k for k in range(len(tokens)) if rng.random() < 0.2}
        out += _fix_cycles(_sentence_lines(rng, tokens, mwt_at)) + [""]
    return "\n".join(out) + "\n"


_token = st.text(alphabet="abcdé", min_size=1, max_size=4)


@st.composite
def pairs(draw):
    text_tokens = draw(st.lists(_token, min_size=1, max_size=25))
    seed = draw(st.integers(0, 10 ** 6))
    rng = random.Random(seed)

    def segment(tokens):
        """Random re-tokenization and sentence split of the same characters."""
        chars = "".join(tokens)
        cuts = sorted(rng.sample(range(1, len(chars)), k=min(len(chars) - 1, rng.randint(0, len(chars) - 1))))
        toks = [chars[a:b] for a, b in zip([0] + cuts, cuts + [len(chars)])]
        sents, current = [], []
        for t in toks:
            current.append(t)
            if rng.random() < 0.25:
                sents.append(current)
                current = []
        if current:
            sents.append(current)
        return sents

    gold = _document(rng, segment(text_tokens))
    system = gold if rng.random() < 0.2 else _document(rng, segment(text_tokens))
    return gold, system


def _evaluate(gold_text, system_text, profile="conll18"):
    vocab = Vocab()
    return evaluate(load_text(gold_text, profile, "gold", vocab), load_text(system_text, profile, "sys", vocab))


@given(pairs())
def test_bounds_and_consistency(pair):
    evaluation = _evaluate(*pair)
    for name, score in evaluation.scores.items():
        assert 0 <= score.precision <= 1 and 0 <= score.recall <= 1 and 0 <= score.f1 <= 1, name
        assert score.correct <= min(score.gold, score.system), name
        if score.aligned is not None:
            assert score.correct <= score.aligned, name
    alignment = evaluation.alignment
    assert np.all(np.diff(alignment.gold_idx) > 0) and np.all(np.diff(alignment.sys_idx) > 0)
    for counts in evaluation.counts.values():
        assert counts.by_sentence.sum(axis=0)[:3].tolist() == list(counts.total[:3])


@given(pairs())
def test_swapping_files_swaps_precision_and_recall_for_spans(pair):
    forward = _evaluate(*pair).scores
    backward = _evaluate(pair[1], pair[0]).scores
    # Words are left out: the official alignment is not symmetric inside multiword spans
    # (gold-first tie-breaking, the skipped word before a multi-word token).
    for name in ("Tokens", "Sentences"):
        assert forward[name].precision == backward[name].recall, name
        assert forward[name].f1 == backward[name].f1, name


@given(pairs())
def test_gold_against_itself_is_perfect(pair):
    scores = _evaluate(pair[0], pair[0]).scores
    assert all(score.f1 == 1.0 for score in scores.values())


@pytest.mark.parametrize("bulk_min_words", [0, 4, 48])
@given(pair=pairs())
def test_bulk_alignment_equals_word_by_word_walk(bulk_min_words, pair):
    from conll_eval.align import _Walk, align_words
    from reference_impl import reference_alignment

    _Walk.BULK_MIN_WORDS, default = bulk_min_words, _Walk.BULK_MIN_WORDS

    vocab = Vocab()
    gold = load_text(pair[0], "conll18", "gold", vocab)
    system = load_text(pair[1], "conll18", "sys", vocab)
    try:
        alignment = align_words(gold, system)
    finally:
        _Walk.BULK_MIN_WORDS = default
    expected_g, expected_s = reference_alignment(gold, system)
    assert alignment.gold_idx.tolist() == expected_g
    assert alignment.sys_idx.tolist() == expected_s

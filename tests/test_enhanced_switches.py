"""The ``--enhancements`` switches as passes over edge arrays (``enhanced._switch_off``)
against the word-by-word reference (:mod:`reference_switches`): the same edges, in the same
order, for every digit alone and combined, on generated graphs and on hand-made words that
hit each rule's quirk."""
import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conll_eval import ConllEvalError, enhanced
from conll_eval.reader import load
from reference_switches import switch_off_reference
from strategies_enhanced import enhanced_pairs

DIGITS = ["".join(c) for n in range(1, 6) for c in itertools.combinations("12456", n)]


def _edges(tb, graph):
    s = tb.vocab.strings
    return (graph.word.tolist(), graph.head.tolist(), [s[c] for c in graph.label.tolist()],
            [s[c] for c in graph.ulabel.tolist()])


def _both(path, digits):
    tb = load(str(path), "iwpt")
    plain = enhanced.enhanced_graph(tb)
    options = enhanced.EnhancedOptions(enhancements=digits)
    return (_edges(tb, enhanced._switch_off(tb, plain, options)),
            _edges(tb, switch_off_reference(tb, plain, options)))


@settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
@given(pair=enhanced_pairs(), digits=st.sampled_from(DIGITS))
def test_switches_are_the_reference_s(tmp_path_factory, pair, digits):
    path = tmp_path_factory.mktemp("switches") / "g.conllu"
    for text in pair:
        path.write_text(text, encoding="utf-8")
        try:
            ours, reference = _both(path, digits)
        except ConllEvalError:  # a hostile generated DEPS: the reader's business
            continue
        assert ours == reference


#: each word hits one rule: 2 has a path (1) repeated as a plain edge after it; 3 has two conj
#: edges (2: only the last stays); 4 is an nsubj of an xcomp (4); 5 has a ref edge and 2 an
#: edge from the acl 6, whose HEAD (1) equals 2's 0-based position (5); 5 has obl:in (6)
QUIRKS = """\
1	a	a	X	_	_	0	root	0:root	_
2	b	b	X	_	_	1	obj	1:conj:x>obj|1:obj|1:obj|6:nsubj	_
3	c	c	X	_	_	1	conj	1:conj:and|2:conj:or|1:nmod	_
4	d	d	X	_	_	6	xcomp	1:xcomp|6:nsubj:xsubj	_
5	e	e	X	_	_	6	nsubj	1:ref|6:nsubj|6:obl:in	_
6	f	f	X	_	_	1	acl:relcl	1:acl:relcl|4:nsubj:xsubj	_

"""


@pytest.mark.parametrize("digits", DIGITS)
def test_each_rule_on_hand_made_words(tmp_path, digits):
    path = tmp_path / "q.conllu"
    path.write_text(QUIRKS, encoding="utf-8")
    ours, reference = _both(path, digits)
    assert ours == reference
    plain, _ = _both(path, "3")  # 3 changes nothing
    assert ours != plain


def test_rules_by_hand(tmp_path):
    """What each rule does to QUIRKS, worked out by hand from REFERENCE.md b.4."""
    path = tmp_path / "q.conllu"
    path.write_text(QUIRKS, encoding="utf-8")
    (words, heads, labels, _), _ = _both(path, "1")
    # word 2 (index 1): the path becomes 1:obj (basic edge); the two plain 1:obj after it go
    assert [(h, lab) for w, h, lab in zip(words, heads, labels) if w == 1] == [(0, "obj"),
                                                                              (5, "nsubj")]
    (words, heads, labels, _), _ = _both(path, "2")
    assert [(h, lab) for w, h, lab in zip(words, heads, labels) if w == 2] == [(1, "conj:or")]
    (words, heads, labels, _), _ = _both(path, "4")
    assert [(h, lab) for w, h, lab in zip(words, heads, labels) if w == 5] == [(0, "acl:relcl")]
    (words, heads, labels, _), _ = _both(path, "5")
    assert [(h, lab) for w, h, lab in zip(words, heads, labels) if w == 1] == [
        (0, "conj:x>obj"), (0, "obj"), (0, "obj")]  # 6:nsubj gone
    assert [(h, lab) for w, h, lab in zip(words, heads, labels) if w == 4] == [
        (5, "nsubj"), (5, "nsubj"), (5, "obl:in")]  # the ref edge is the basic one
    (words, heads, labels, _), _ = _both(path, "6")
    assert "obl" in [lab for w, lab in zip(words, labels) if w == 4]

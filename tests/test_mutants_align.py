"""Mutation testing (``make mutation``): the text-mismatch hint's description of a
decomposed character with its combining marks, which the mutants of ``conll_eval/align.py``'s
``_sequence`` showed no in-process test read, and a plain token against a multi-word token
whose second word has the token's form (a mutant of the walk's index there survived); the
whole text-mismatch error (each hint, side, boundary and character description: the tests of
tests/test_input_errors.py that read it are not in the mutation selection), and the
lowercased FORMs the LCS compares."""
import random
import unicodedata

import numpy as np
import pytest

from conll_eval import evaluate_files
from conll_eval.align import (_Walk, _describe, _explains, _first_difference, _hints, _lcs_align,
                              _lower_form_ids, _nfc, _text_comment_hint, _without,
                              check_characters, lower_forms)
from conll_eval.errors import AlignmentError
from conll_eval.io.conllu import load_text
from conll_eval.treebank import Vocab

from helpers import document, row, sentence
from reference_impl import reference_alignment


@pytest.mark.parametrize("marks, described", [
    ("\u0301", "U+0301 (COMBINING ACUTE ACCENT)"),
    ("\u0301\u0308", "U+0301 (COMBINING ACUTE ACCENT) + U+0308 (COMBINING DIAERESIS)"),
])
def test_the_nfd_hint_names_the_letter_and_every_combining_mark_after_it(tmp_path, marks, described):
    """The gold 'é' composed (U+00E9; with a diaeresis too, U+00E9 U+0308), the system's
    decomposed: the hint lists the base letter and each mark up to the next letter 'x'."""
    gold_form = unicodedata.normalize("NFC", "e" + marks)
    gold, system = tmp_path / "gold.conllu", tmp_path / "system.conllu"
    gold.write_text(document(sentence(f"1 caf{gold_form}x 0 root")), encoding="utf-8")
    system.write_text(document(sentence(f"1 cafe{marks}x 0 root")), encoding="utf-8")
    with pytest.raises(AlignmentError) as caught:
        evaluate_files(str(gold), str(system))
    assert (f"the system file has decomposed characters (NFD), e.g. U+0065 'e' "
            f"(LATIN SMALL LETTER E) + {described} where the gold file has") in str(caught.value)


def test_a_plain_token_against_a_multiword_token_aligns_the_word_with_its_form(tmp_path):
    """Gold "nel" = in + nel, then x; the system's plain "nel", then x: the system word is
    aligned with gold "nel" (the second word of the token), x with x, so both system tags
    are right: UPOS 2 correct of 3 gold and 2 system words, 2 aligned."""
    gold = "\n".join([row("1-2", "nel"), row("1", "in", "0", "root", upos="ADP"),
                      row("2", "nel", "1", "det", upos="DET"),
                      row("3", "x", "1", "obj", upos="NOUN")]) + "\n\n"
    system = "\n".join([row("1", "nel", "0", "root", upos="DET"),
                        row("2", "x", "1", "obj", upos="NOUN")]) + "\n\n"
    gold_path, system_path = tmp_path / "gold.conllu", tmp_path / "system.conllu"
    gold_path.write_text(gold, encoding="utf-8")
    system_path.write_text(system, encoding="utf-8")
    upos = evaluate_files(str(gold_path), str(system_path)).scores["UPOS"]
    assert (upos.correct, upos.gold, upos.system, upos.aligned) == (2, 3, 2, 2)


# ---------------------------------------------------------------------------------------------
# The text-mismatch error: each hint, side and character description, word for word (the
# mutants of _hints, _explains, _describe, _sequence, _without, _context and _visible
# survived: tests/test_input_errors.py, which reads some of these messages, is not in the
# mutation selection)

ENDS_EARLY = "file ends early: one file is a prefix of the other (truncated output?)"
NFD = ("Unicode normalisation differs: the {0} file has decomposed characters (NFD), e.g. "
       "U+0065 'e' (LATIN SMALL LETTER E) + U+0301 (COMBINING ACUTE ACCENT) where the {1} file "
       "has U+00E9 'é' (LATIN SMALL LETTER E WITH ACUTE){2}; normalise both files to NFC")
SPACE = ("inside a FORM of the {} file: the conll17 profile removes only U+0020 from FORMs, "
         "conll18 every Unicode space")
PTB = ("Penn Treebank escapes (-LRB-, -RRB-, ``, '') instead of the original brackets and quotes: "
       "the parser must keep the FORMs of its input")


@pytest.mark.parametrize("gold, system, k, expected", [
    # one text is a prefix of the other: the shorter one is named
    ("abc", "ab", 2, ["the system " + ENDS_EARLY]),
    ("ab", "abc", 2, ["the gold " + ENDS_EARLY]),
    # NFD on either side; the composed side's letter alone (the 'b' after it is no mark)
    ("cafébar", "cafe\u0301bar", 3, [NFD.format("system", "gold", "")]),
    ("cafe\u0301bar", "cafébar", 3, [NFD.format("gold", "system", "")]),
    # the first character differs: gold is judged from its start
    ("e\u0301x", "éx", 0, [NFD.format("gold", "system", "")]),
    # decomposed before k in both texts: only gold from k - 1 on is judged, and it is NFC there
    ("e\u0301é", "e\u0301e\u0301", 2, [NFD.format("system", "gold", "")]),
    # the decomposed letter ends the text: its marks run to the end
    ("cafe\u0301", "café", 3, [NFD.format("gold", "system", "")]),
    ("abc", "aBc", 1, ["the texts differ in letter case here (gold 'b', system 'B'): the parser "
                       "must not change FORMs"]),
    ("ab", "a\ufeffb", 1, ["an invisible character U+FEFF (ZERO WIDTH NO-BREAK SPACE) inside a FORM "
                           "of the system file (a byte-order mark); remove it"]),
    ("a\u200bb", "ab", 1, ["an invisible character U+200B (ZERO WIDTH SPACE) inside a FORM of the "
                           "gold file; remove it"]),
    ("a\u00a0b", "ab", 1, ["a space character U+00A0 (NO-BREAK SPACE) " + SPACE.format("gold")]),
    ("ab", "a\u2009b", 1, ["a space character U+2009 (THIN SPACE) " + SPACE.format("system")]),
    ("(a)", "-LRB-a-RRB-", 0, [PTB]),
    ("x''y", 'x"y', 1, [PTB]),
    # an invisible character, and a letter changed two characters later: not the explanation
    ("abcdefghijk", "abc\u200bdeXghijk", 3, []),
    ("abc", "abd", 2, []),
])
def test_each_hint_names_its_cause_and_side(gold, system, k, expected):
    assert _hints(gold, system, k) == expected


def test_a_normalisation_must_reconcile_eight_characters_from_the_difference():
    """The NFD 'é' and a letter changed 7 characters after it (within the 8 compared from
    the difference: no hint), then 8 after it (beyond them: the hint); windows of 64
    characters cut inside longer texts."""
    tail = "x" * 100
    gold = "caf\u00e9" + "abcdefghij" + tail
    assert not _explains(_nfc, gold, "cafe\u0301" + "abcdefXhij" + tail, 3)
    assert _explains(_nfc, gold, "cafe\u0301" + "abcdefgXij" + tail, 3)


NBSP = "\u00a0"


@pytest.mark.parametrize("transform, gold, system, k, explained", [
    # the same two marks in another order are canonically equivalent: NFC orders them
    (_nfc, "b\u0301\u0316", "b\u0316\u0301", 1, True),
    # marks at the very start of a text (nothing to walk back to)
    (_nfc, "\u0316\u0316", "\u0316\u0301", 1, False),
    # the system has a space where gold goes on: removing it leaves the system text short
    (_without("Zs"), "ab", "a" + NBSP, 1, False),
    # near the end of a text the characters left are compared (the case explains 'D', and
    # the system's extra 'xy' comes after gold's end)
    (str.casefold, "abcD", "abcdxy", 3, True),
    # A window cut inside a longer text loses its last two characters (they may be half a
    # character sequence): 64 characters of gold, 55 of them spaces, leave 9 letters, 7
    # compared; a window up to the text's end loses none.
    (_without("Zs"), NBSP * 55 + "abcdefghij", "abcdefgXij", 0, True),
    ("swap", NBSP * 55 + "abcdefghij", "abcdefgXij", 0, True),
    (_without("Zs"), NBSP * 55 + "abcdefghij", "abcdefXhij", 0, False),
    ("swap", NBSP * 55 + "abcdefghij", "abcdefXhij", 0, False),
    (_without("Zs"), NBSP * 60 + "abcd", "abcX", 0, False),     # gold ends at the window's end
    ("swap", NBSP * 60 + "abcd", "abcX", 0, False),
    (_without("Zs"), NBSP * 52 + "abcd", "abcX", 0, False),     # both end inside the window
])
def test_what_a_normalisation_must_reconcile(transform, gold, system, k, explained):
    if transform == "swap":  # the same with the sides exchanged
        transform, gold, system = _without("Zs"), system, gold
    assert _explains(transform, gold, system, k) is explained


def test_no_space_hint_when_a_space_stands_where_the_system_text_ends():
    assert _hints("ab", "a" + NBSP, 1) == []


@pytest.mark.parametrize("char, described", [
    ("é", "U+00E9 'é' (LATIN SMALL LETTER E WITH ACUTE)"),
    ("\U0001F600", "U+1F600 '😀' (GRINNING FACE)"),        # five hex digits
    ("\ue000", "U+E000 (unnamed)"),                         # private use: no name, not shown
    ("\u0301", "U+0301 (COMBINING ACUTE ACCENT)"),          # marks are not shown alone
    ("\u20dd", "U+20DD (COMBINING ENCLOSING CIRCLE)"),
    ("\u200b", "U+200B (ZERO WIDTH SPACE)"),
    ("\u00a0", "U+00A0 (NO-BREAK SPACE)"),
    (" ", "U+0020 (SPACE)"),
])
def test_a_character_is_described_by_code_point_glyph_and_name(char, described):
    assert _describe(char) == described


WORDS = "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen"


def _one_sentence(words, comment=None):
    return sentence(*[f"{i} {w} {0 if i == 1 else 1} {'root' if i == 1 else 'dep'}"
                      for i, w in enumerate(words, 1)],
                    comments=[f"# text = {comment}"] if comment is not None else [])


def _mismatch(gold_text, system_text):
    gold = load_text(gold_text, path="gold.conllu")
    system = load_text(system_text, path="system.conllu")
    with pytest.raises(AlignmentError) as caught:
        check_characters(gold, system)
    return caught.value


def test_the_context_shows_six_tokens_either_side_of_the_token_holding_the_difference():
    """The difference is the first character of 'eight' (where 'seven' ends): six tokens
    before and after it, the token marked; the line is the token's."""
    system = WORDS.split()
    system[7] = "Eight"
    error = _mismatch(_one_sentence(WORDS.split()), _one_sentence(system))
    assert str(error) == (
        "system.conllu:8: error [text-mismatch] the texts of gold and system differ at character "
        "27 (gold has 74 non-space characters, system 74)\n"
        "  gold   gold.conllu:8: two three four five six seven >>eight<< nine ten eleven twelve "
        "thirteen fourteen\n"
        "  system system.conllu:8: two three four five six seven >>Eight<< nine ten eleven twelve "
        "thirteen fourteen\n"
        "  first differing characters: gold 'eightnineteneleventw' vs system 'Eightnineteneleventw'\n"
        "  first differing character: gold U+0065 'e' (LATIN SMALL LETTER E), "
        "system U+0045 'E' (LATIN CAPITAL LETTER E)\n"
        "  hint: the texts differ in letter case here (gold 'e', system 'E'): the parser must not "
        "change FORMs")
    assert (error.gold_location.line, error.system_location.line) == (8, 8)


@pytest.mark.parametrize("at, gold_context, system_context", [
    (2, "one two >>three<< four five six seven eight nine", "one two >>xhree<< four five six seven eight nine"),
    (0, ">>one<< two three four five six seven", ">>xne<< two three four five six seven"),
    (14, "nine ten eleven twelve thirteen fourteen >>fifteen<<",
     "nine ten eleven twelve thirteen fourteen >>xifteen<<"),
])
def test_the_context_near_either_end_of_the_file(at, gold_context, system_context):
    system = WORDS.split()
    system[at] = "x" + system[at][1:]
    lines = str(_mismatch(_one_sentence(WORDS.split()), _one_sentence(system))).splitlines()
    assert lines[1:3] == [f"  gold   gold.conllu:{at + 1}: {gold_context}",
                          f"  system system.conllu:{at + 1}: {system_context}"]
    assert lines[-1] == ("  hint: the system was probably run on a different text (e.g. `# text` "
                         "lines that disagree with the gold FORMs, or a different version of the "
                         "treebank)")


def test_a_file_of_one_token_is_its_own_context():
    lines = str(_mismatch(_one_sentence(["a"]), _one_sentence(["b"]))).splitlines()
    assert lines[1:3] == ["  gold   gold.conllu:1: >>a<<", "  system system.conllu:1: >>b<<"]


@pytest.mark.parametrize("gold_comment, system_comment, named", [
    # spaces and invisible characters in `# text` are not a disagreement
    ("Hello\u200b world", "Hello World", []),
    ("Hello there", "Hello  world", ["gold", "system"]),
    ("Hello world", "Hello Wor ld", []),
])
def test_a_text_comment_is_named_only_when_its_visible_characters_disagree(
        gold_comment, system_comment, named):
    error = _mismatch(_one_sentence(["Hello", "world"], gold_comment),
                      _one_sentence(["Hello", "World"], system_comment))
    hint_lines = [line for line in str(error).splitlines() if line.startswith("  hint: ")]
    assert hint_lines == [
        "  hint: the texts differ in letter case here (gold 'w', system 'W'): the parser must "
        "not change FORMs"] + [
        f"  hint: in the {side} file the sentence at {side}.conllu:2 has a `# text` that "
        "disagrees with its FORMs; a parser that tokenized `# text` produces a different text"
        for side in named]


def test_lower_forms_reads_multiword_token_words_and_plain_words_lowercased():
    """'ß' stays (lower, not upper: 'SS'); a range starting after word 0 leaves it out."""
    text = "\n".join([row("1", "Die", "2", "det"), row("2-3", "ZUM"), row("2", "zu", "0", "root"),
                      row("3", "DEM", "2", "det"), row("4", "Straße", "2", "obj")]) + "\n\n"
    tb = load_text(text)
    assert lower_forms(tb, 1, 4) == ["zu", "dem", "straße"]
    lowered = {"die": 0}
    ids = _lower_form_ids(tb, np.array([1, 3]), np.array([3, 4]), lowered)
    assert ids.tolist() == [-1, 1, 2, 3]  # -1: outside the ranges
    assert lowered == {"die": 0, "zu": 1, "dem": 2, "straße": 3}


def test_a_truncated_system_file_is_shown_at_its_last_token():
    """The system stops after 'three': the difference is past its end, shown at its last token
    (gold at the token holding the character); both texts' lengths are given."""
    error = _mismatch(_one_sentence(WORDS.split()), _one_sentence(WORDS.split()[:3]))
    assert str(error).splitlines()[:3] == [
        "system.conllu:3: error [text-mismatch] the texts of gold and system differ at character 11 "
        "(gold has 74 non-space characters, system 11)",
        "  gold   gold.conllu:4: one two three >>four<< five six seven eight nine ten",
        "  system system.conllu:3: one two >>three<<"]
    assert str(error).splitlines()[-1] == "  hint: the system " + ENDS_EARLY


# ---------------------------------------------------------------------------------------------
# The walk (_Walk.run, _plain_stretch, _plain_words, _multiword_span, _flush, the shortcuts of
# _identical_multiword_tokens and _multiword_vs_plain) against the word-by-word reference of
# the official align_words, on seeded pairs full of multi-word tokens: identical ones, ones
# split or cased differently, one plain token against a multi-word token, at the start and end
# of the file; each pair at several bulk thresholds of _plain_stretch (0: every plain stretch
# in bulk; large: word by word)

def _walk_document(rng, chars: str) -> str:
    """``chars`` cut into tokens, some of them multi-word tokens of 1-3 words (a word's FORM
    sometimes upper-cased or not a piece of the token), into sentences."""
    cuts = sorted(rng.sample(range(1, len(chars)), k=rng.randint(0, len(chars) - 1)))
    tokens = [chars[a:b] for a, b in zip([0] + cuts, cuts + [len(chars)])]
    lines, word = [], 0
    for k, token in enumerate(tokens):
        if rng.random() < 0.45:
            n = rng.randint(1, 3)
            parts = [token[i * len(token) // n:(i + 1) * len(token) // n] or token for i in range(n)]
            parts = [p.upper() if rng.random() < 0.3 else (p if rng.random() < 0.8 else token)
                     for p in parts]
            lines.append(row(f"{word + 1}-{word + n}", token))
        else:
            parts = [token]
        for part in parts:
            word += 1
            lines.append(row(str(word), part, "0" if word == 1 else "1", "root" if word == 1 else "dep"))
        if k < len(tokens) - 1 and rng.random() < 0.15:
            lines.append("")
            word = 0
    return "\n".join(lines) + "\n\n"


def _walk_pairs(seed: int, count: int):
    rng = random.Random(seed)
    for _ in range(count):
        chars = "".join(rng.choice("abAB") for _ in range(rng.randint(1, 14)))
        gold = _walk_document(rng, chars)
        yield gold, (gold if rng.random() < 0.1 else _walk_document(rng, chars))


@pytest.mark.parametrize("seed", range(6))
def test_the_walk_aligns_as_the_official_word_by_word_walk(seed):
    for gold_text, system_text in _walk_pairs(seed, 25):
        vocab = Vocab()
        gold = load_text(gold_text, "conll18", "gold", vocab)
        system = load_text(system_text, "conll18", "system", vocab)
        expected = reference_alignment(gold, system)
        spans = (gold.word_start, gold.word_end, system.word_start, system.word_end)
        for bulk in (0, 1, 2, 3, 5, 96):
            walk = _Walk(gold, system, spans)
            walk.BULK_MIN_WORDS = bulk
            pairs_g, pairs_s = walk.run()
            assert (pairs_g.tolist(), pairs_s.tolist()) == expected, (gold_text, system_text, bulk)


@pytest.mark.parametrize("gold_forms, sys_forms, expected", [
    (["x", "y", "a"], ["a"], [(2, 0)]),  # gold skips twice
    (["a"], ["x", "y", "a"], [(0, 2)]),  # system skips twice
    (["a", "b"], ["b", "a"], [(1, 0)]),  # a tie: the official walk skips the gold word first
    (["a", "x", "b", "c"], ["a", "b", "y", "z", "c"], [(0, 0), (2, 1), (3, 4)]),
])
def test_the_lcs_pairs_words_as_the_official_forward_walk(gold_forms, sys_forms, expected):
    out_g, out_s = [7], [9]  # appended to, offset by g0 / s0
    _lcs_align(gold_forms, sys_forms, 10, 20, out_g, out_s)
    assert list(zip(out_g, out_s)) == [(7, 9)] + [(10 + g, 20 + s) for g, s in expected]


@pytest.mark.parametrize("a, b, k", [
    ("abc", "abc", 3), ("abc", "ab", 2), ("ab", "abc", 2), ("xbc", "abc", 0), ("", "a", 0),
    ("a" * 70000 + "b", "a" * 70000 + "c", 70000),  # in the second chunk of 65536
    ("a" * 70000, "a" * 69999 + "c", 69999),
])
def test_the_first_difference_is_found_in_any_chunk(a, b, k):
    assert _first_difference(a, b) == k


def _commented(*sentences):
    """Sentences of one word each from (``# text`` or None, FORM)."""
    return "".join(("" if text is None else f"# text = {text}\n") + row("1", form, "0", "root") + "\n\n"
                   for text, form in sentences)


TEXT_HINT = ("in the gold file the sentence at gold:{} has a `# text` that disagrees with its FORMs; "
             "a parser that tokenized `# text` produces a different text")


@pytest.mark.parametrize("sentences, char, expected", [
    # sentences at characters 0, 2, 4 (words at lines 2, 5, 8); the third's # text disagrees
    ([("a b", "ab"), ("cd", "cd"), ("xyz", "ef")], 4, TEXT_HINT.format(8)),
    ([("a b", "ab"), ("cd", "cd"), ("xyz", "ef")], 5, TEXT_HINT.format(8)),
    ([("a b", "ab"), ("cd", "cd"), ("xyz", "ef")], 0, ""),  # spaces only: other hints
    ([("a b", "ab"), ("cd", "cd"), ("xyz", "ef")], 3, ""),
    ([(None, "ab"), ("xyz", "ef")], 1, ""),  # no # text
    ([("xyz", "ab"), ("cd", "cd")], 0, TEXT_HINT.format(2)),  # the first sentence
    ([("xyz", "ab")], 1, TEXT_HINT.format(2)),  # the only sentence
    ([], 0, ""),  # no sentences
])
def test_the_text_comment_hint_names_the_sentence_holding_the_character(sentences, char, expected):
    tb = load_text(_commented(*sentences), "conll18", "gold")
    assert _text_comment_hint(tb, char, "gold") == expected


def _tokens(*tokens):
    """A one-sentence document: each token a FORM, or (FORM, [word FORMs]) for a multi-word one."""
    lines, word = [], 0
    for token in tokens:
        form, words = (token, [token]) if isinstance(token, str) else token
        if not isinstance(token, str):
            lines.append(row(f"{word + 1}-{word + len(words)}", form))
        for part in words:
            word += 1
            lines.append(row(str(word), part, "0" if word == 1 else "1", "root" if word == 1 else "dep"))
    return "\n".join(lines) + "\n\n"


@pytest.mark.parametrize("shared_vocab", [True, False])
@pytest.mark.parametrize("gold_tokens, system_tokens", [
    # the same multi-word token whose second words differ (after a plain word; at the start)
    (["x", ("ab", ["a", "b"])], ["x", ("ab", ["a", "c"])]),
    ([("ab", ["a", "b"]), "x"], [("ab", ["a", "c"]), "x"]),
    # words equal only when upper-cased: the official scorer lower-cases ('ß' is not 'ss')
    ([("ßx", ["ß", "x"])], [("ßx", ["SS", "x"])]),
    # the same words in a different order; two tokens in a row, the second different
    ([("ab", ["a", "b"])], [("ab", ["b", "a"])]),
    ([("ab", ["a", "b"]), ("cd", ["c", "d"])], [("ab", ["a", "b"]), ("cd", ["c", "e"])]),
    # a plain token against a multi-word token, at the start and the end of the file
    (["ab", "c"], [("ab", ["x", "ab"]), "c"]),
    (["c", ("ab", ["ab", "b"])], ["c", "ab"]),
    (["c", ("ab", ["a", "b"])], ["c", "ab"]),
    (["xy", ("ab", ["a", "b"])], ["x", "y", ("ab", ["a", "b"])]),
    (["p", "q", "xy", ("ab", ["a", "b"])], ["pq", "x", "y", ("ab", ["a", "b"])]),
    # the system cursor two words behind when gold reaches its multi-word token (2: as many
    # as the token has words)
    (["p", "q", "rs", ("ab", ["a", "b"])], ["p", "q", "r", "s", ("ab", ["a", "b"])]),
    (["p", "q", "rs", ("ab", ["a", "ab"])], ["p", "q", "r", "s", "ab"]),
    # a plain token against the second multi-word token, equal to its second word
    ([("ab", ["a", "b"]), ("cd", ["x", "cd"])], ["ab", "cd"]),
    (["ab", "cd"], [("ab", ["a", "b"]), ("cd", ["x", "cd"])]),
])
def test_multiword_tokens_that_differ_align_as_the_official_walk(gold_tokens, system_tokens, shared_vocab):
    gold_text, system_text = _tokens(*gold_tokens), _tokens(*system_tokens)
    gold = load_text(gold_text, "conll18", "gold", Vocab())
    system = load_text(system_text, "conll18", "system", gold.vocab if shared_vocab else Vocab())
    expected = reference_alignment(gold, system)
    spans = (gold.word_start, gold.word_end, system.word_start, system.word_end)
    for bulk in (0, 1, 96):
        walk = _Walk(gold, system, spans)
        walk.BULK_MIN_WORDS = bulk
        pairs_g, pairs_s = walk.run()
        assert (pairs_g.tolist(), pairs_s.tolist()) == expected, bulk

"""Mutation testing (``make mutation``): the text-mismatch hint's description of a
decomposed character with its combining marks, which the mutants of ``conll_eval/align.py``'s
``_sequence`` showed no in-process test read, and a plain token against a multi-word token
whose second word has the token's form (a mutant of the walk's index there survived)."""
import unicodedata

import pytest

from conll_eval import evaluate_files
from conll_eval.errors import AlignmentError

from helpers import document, row, sentence


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

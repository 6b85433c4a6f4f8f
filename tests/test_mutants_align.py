"""Mutation testing (``make mutation``): the text-mismatch hint's description of a
decomposed character with its combining marks, which the mutants of ``conll_eval/align.py``'s
``_sequence`` showed no in-process test read."""
import unicodedata

import pytest

from conll_eval import evaluate_files
from conll_eval.errors import AlignmentError

from helpers import document, sentence


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

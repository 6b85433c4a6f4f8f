"""The "written_form" column: each word's FORM exactly as in the file (spaces kept), while
"form" and ``text`` keep the official scorers' space-stripped FORMs.

Every way of reading a file must agree: the vectorised scan (whole bytes, or a file on disk
streamed in pieces), the exact parser (forced directly, or by CRLF line ends that the scan
hands over), compressed files, standard input, ``rebased`` and ``load_pair``.
"""
import gzip
import io
import pickle
import sys

import numpy as np
import pytest

from conll_eval.io import scan_pieces
from conll_eval.evaluate import load_pair
from conll_eval.reader import _ExactParser, _build, _space_pattern, load, load_text, read_lines
from conll_eval.scan import scan
from conll_eval.treebank import Vocab

from helpers import row

NBSP = "\u00a0"

#: ASCII space and NO-BREAK SPACE in plain words' FORMs, a space in a multi-word token's
#: FORM and in one of its words' FORM, in two sentences (so pieces of one sentence each
#: shift token indices)
SPACED = "\n".join([
    "# sent_id = s1",
    row("1", "1 000", "0", "root"),
    row("2", f"a{NBSP}b", "1", "dep"),
    row("3-4", "x y"),
    row("3", "x", "1", "dep"),
    row("4", "y z", "1", "dep"),
    row("5", "c", "1", "dep"),
    "",
    "# sent_id = s2",
    row("1", "d", "0", "root"),
    row("2", "e f g", "1", "dep"),
    "",
]) + "\n"

WRITTEN = ["1 000", f"a{NBSP}b", "x", "y z", "c", "d", "e f g"]
#: profile -> (FORMs, text): conll17 removes only the ASCII space, conll18 every \p{Zs}
STRIPPED = {
    "conll17": (["1000", f"a{NBSP}b", "x", "y z", "c", "d", "efg"], f"1000a{NBSP}bxycdefg"),
    "conll18": (["1000", "ab", "x", "y z", "c", "d", "efg"], "1000abxycdefg"),
}

PLAIN = "\n".join([row("1", "Hello", "0", "root"), row("2-3", "du"), row("2", "de", "1", "dep"),
                   row("3", "le", "1", "dep"), ""]) + "\n"

PROFILES = sorted(STRIPPED)


def _check(tb, profile):
    forms, text = STRIPPED[profile]
    assert tb.strings("written_form") == WRITTEN
    assert tb.strings("form") == forms
    assert tb.text == text


def _exact(text, profile, vocab=None):
    data = text.encode("utf-8")
    columns = _ExactParser(read_lines(data, "x"), "x", profile).run()
    return _build(columns, "x", Vocab() if vocab is None else vocab)


@pytest.mark.parametrize("profile", PROFILES)
def test_scan_keeps_written_forms(profile):
    assert scan(SPACED.encode("utf-8"), _space_pattern(profile), Vocab()) is not None  # no handover
    _check(load_text(SPACED, profile=profile), profile)


@pytest.mark.parametrize("profile", PROFILES)
def test_exact_parser_keeps_written_forms(profile):
    _check(_exact(SPACED, profile), profile)
    # CRLF line ends: the scan hands over, the exact parser reads the file
    crlf = SPACED.replace("\n", "\r\n").encode("utf-8")
    assert scan(crlf, _space_pattern(profile), Vocab()) is None
    _check(load_text(crlf.decode("utf-8"), profile=profile), profile)


@pytest.mark.parametrize("profile", PROFILES)
def test_scan_and_exact_parser_agree(profile):
    vocab = Vocab()
    fast = _build(scan(SPACED.encode("utf-8"), _space_pattern(profile), vocab), "x", vocab)
    exact = _exact(SPACED, profile, vocab)
    for name in ("form", "written_form"):
        assert np.array_equal(fast.column(name), exact.column(name)), name
    assert np.array_equal(fast.spaced_tok, exact.spaced_tok)
    assert np.array_equal(fast.spaced_tok_form, exact.spaced_tok_form)
    assert fast.text == exact.text


@pytest.mark.parametrize("piece_bytes", [1, scan_pieces.SCAN_PIECE_BYTES])
@pytest.mark.parametrize("profile", PROFILES)
def test_files_on_disk_compressed_and_in_pieces(tmp_path, monkeypatch, profile, piece_bytes):
    monkeypatch.setattr(scan_pieces, "SCAN_PIECE_BYTES", piece_bytes)
    path = tmp_path / "spaced.conllu"
    path.write_text(SPACED, encoding="utf-8")
    packed = tmp_path / "spaced.conllu.gz"
    packed.write_bytes(gzip.compress(SPACED.encode("utf-8")))
    for source in (path, packed):
        _check(load(str(source), profile), profile)


@pytest.mark.parametrize("profile", PROFILES)
def test_standard_input(monkeypatch, profile):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(SPACED.encode("utf-8"))))
    _check(load("-", profile), profile)


@pytest.mark.parametrize("computed_first", [False, True])
def test_rebased_remaps_written_forms(computed_first):
    tb = load_text(SPACED)
    if computed_first:  # cached in the columns, remapped with them
        tb.column("written_form")
    other = Vocab()
    other.encode(["unrelated", "strings", "first"])
    moved = tb.rebased(other)
    assert moved.vocab is other
    _check(moved, "conll18")
    assert tb.strings("written_form") == WRITTEN  # the original is untouched


def test_pickling_keeps_written_forms():
    tb = load_text(SPACED)
    _check(pickle.loads(pickle.dumps(tb)), "conll18")
    tb.column("written_form")
    _check(pickle.loads(pickle.dumps(tb)), "conll18")


@pytest.mark.parametrize("parallel", [False, True])
def test_load_pair(tmp_path, parallel):
    gold_path, system_path = tmp_path / "gold.conllu", tmp_path / "system.conllu"
    gold_path.write_text(PLAIN + SPACED, encoding="utf-8")
    system_path.write_text(SPACED + PLAIN, encoding="utf-8")
    gold, system = load_pair(str(gold_path), str(system_path), parallel=parallel)
    assert gold.vocab is system.vocab
    plain = ["Hello", "de", "le"]
    assert gold.strings("written_form") == plain + WRITTEN
    assert system.strings("written_form") == WRITTEN + plain
    assert system.strings("form") == STRIPPED["conll18"][0] + plain


@pytest.mark.parametrize("profile", PROFILES)
def test_without_spaces_written_form_is_form(profile):
    for tb in (load_text(PLAIN, profile=profile), _exact(PLAIN, profile)):
        assert len(tb.spaced_tok) == 0
        assert tb.column("written_form") is tb.column("form")  # nothing computed, nothing copied
        assert tb.strings("written_form") == ["Hello", "de", "le"]


def test_conll17_keeps_no_break_space_in_form():
    """Only removed characters make a written FORM differ: conll17 leaves U+00A0 in FORM."""
    tb = load_text(row("1", f"a{NBSP}b", "0", "root") + "\n\n", profile="conll17")
    assert len(tb.spaced_tok) == 0
    assert tb.strings("form") == tb.strings("written_form") == [f"a{NBSP}b"]

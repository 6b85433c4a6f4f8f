"""The compiled core (``conll_eval._cscan``, ``_calign``, ``_ccount``) against the numpy path,
its reference: the same regular/irregular decision and the same Treebank columns for every
file, the same alignments and per-sentence counts for every pair (under every relation
policy): on every ../shared/ud pair, on generated pairs, on mutated and random bytes (the fuzz
corpus's mutations).

Columns are compared as strings (the two paths intern in different orders, so codes differ).
With ``CONLL_EVAL_REQUIRE_COMPILED=1`` (``.ci/run``) a missing compiled core is a failure,
not a skip.
"""
import os
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import regex
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conll_eval import ConllEvalError, align, metrics, scan, treebank
from conll_eval.io import lazy_fields, scan_pieces, utf8
from conll_eval.compiled import calign, ccount, core_description, cscan
from conll_eval import compiled_counts as counting
from conll_eval.compiled_counts import compiled_counts
from conll_eval.evaluate import Settings, evaluate
from conll_eval.reader import _space_pattern, load, parse_bytes
from conll_eval.treebank import Vocab

from strategies import generate_pair
from test_fuzz import INTERESTING, SEED_FILE, VALID_FILE, _mutate

SHARED_UD = Path(__file__).resolve().parent.parent.parent / "shared" / "ud"
BUILT = cscan is not None and calign is not None and ccount is not None
pytestmark = pytest.mark.skipif(
    not BUILT and not os.environ.get("CONLL_EVAL_REQUIRE_COMPILED"),
    reason=f"the compiled core is not in use here: {core_description()}")
PROFILES = ("conll18", "conll17")
EXAMPLES = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))


def test_compiled_core_is_in_use():
    assert core_description() == "compiled (Cython)"


def test_a_core_built_without_one_module_says_which(monkeypatch):
    import conll_eval.compiled as compiled
    monkeypatch.setattr(compiled, "cenhanced", None)
    assert compiled.core_description() == "compiled (Cython), without _cenhanced (numpy there)"


class numpy_path:
    """``with numpy_path():`` reads, aligns and counts the reference way."""

    def __enter__(self):
        self.saved = scan_pieces._cscan, utf8._cscan, align._calign, counting._ccount, treebank._ccount
        scan_pieces._cscan = utf8._cscan = align._calign = counting._ccount = treebank._ccount = None

    def __exit__(self, *exc):
        scan_pieces._cscan, utf8._cscan, align._calign, counting._ccount, treebank._ccount = self.saved


_TREEBANK_ARRAYS = ("tok_start", "tok_end", "tok_line", "tok_is_mwt", "word_tok", "word_is_mwt",
                    "word_line", "word_sent", "head", "sent_word_start", "sent_char_start",
                    "sent_char_end", "sent_first_line", "sent_end_line", "empty_sent",
                    "empty_after", "empty_line", "spaced_tok")


def columns(tb):
    """Everything a Treebank holds, strings decoded."""
    strings = tb.vocab.strings
    out = {name: np.asarray(getattr(tb, name)).tolist() for name in _TREEBANK_ARRAYS}
    out["text"] = tb.text
    for name in ("form", "lemma", "upos", "xpos", "feats", "deprel", "deps", "misc"):
        out[name] = [strings[c] for c in tb.column(name).tolist()]
    out["mwt_form"] = [strings[c] if c >= 0 else None for c in tb.mwt_form.tolist()]
    out["empty"] = {name: [strings[c] for c in np.asarray(codes).tolist()]
                    for name, codes in tb.empty_columns.items()}
    out["spaced_tok_form"] = [strings[c] for c in np.asarray(tb.spaced_tok_form).tolist()]
    out["sent_ids"] = list(tb.sent_ids)
    out["sent_texts"] = list(tb.sent_texts)
    return out


def read(data: bytes, profile: str):
    """(regular?, columns or the error) of one file (the scan's contract: valid UTF-8)."""
    regular = scan.utf8_valid(data) and scan.scan(data, _space_pattern(profile),
                                                  Vocab()) is not None
    try:
        return regular, columns(parse_bytes(data, "f", profile, Vocab()))
    except ConllEvalError as exc:
        return regular, str(exc)


def assert_same_reading(data: bytes, profile: str):
    compiled = read(data, profile)
    with numpy_path():
        reference = read(data, profile)
    assert compiled[0] == reference[0], "regular on one path only"
    assert compiled[1] == reference[1]


#: the settings whose counts are compared: every relation policy, and LA
POLICIES = ({}, {"deprel": "full"}, {"deprel": "v1", "extra_metrics": ("LA",)})


def score(gold: bytes, system: bytes, profile: str):
    vocab = Vocab()
    try:
        g = parse_bytes(gold, "gold", profile, vocab)
        s = parse_bytes(system, "system", profile, vocab)
        alignment = align.align_words(g, s)
        counts = [{name: (c.total, c.by_sentence.tolist(), c.has_aligned, c.has_aligned_accuracy)
                   for name, c in evaluate(g, s, Settings(profile, **policy)).counts.items()}
                  for policy in POLICIES]
        return alignment.gold_idx.tolist(), alignment.sys_idx.tolist(), counts
    except ConllEvalError as exc:
        return str(exc)


def assert_same_scores(gold: bytes, system: bytes, profile: str):
    compiled = score(gold, system, profile)
    with numpy_path():
        assert compiled == score(gold, system, profile)


@EXAMPLES
@given(st.integers(0, 2 ** 32), st.sampled_from(PROFILES))
def test_generated_pairs(seed, profile):
    gold, system = (text.encode("utf-8") for text in generate_pair(random.Random(seed), profile))
    assert_same_reading(gold, profile)
    assert_same_reading(system, profile)
    assert_same_scores(gold, system, profile)


@EXAMPLES
@given(st.integers(0, 2 ** 32), st.integers(1, 8), st.sampled_from(PROFILES))
def test_mutated_files(seed, steps, profile):
    rng = random.Random(seed)
    for base in (SEED_FILE, VALID_FILE):
        mutated = _mutate(base, rng, steps)
        assert_same_reading(mutated, profile)
        assert_same_scores(base, mutated, profile)


@EXAMPLES
@given(st.lists(st.sampled_from(INTERESTING + [b"a", b"1\t", b"\t_", b"2-3", b"1.1"]),
                max_size=80), st.sampled_from(PROFILES))
def test_random_pieces(parts, profile):
    assert_same_reading(b"".join(parts) + b"\n\n", profile)


@EXAMPLES
@given(st.lists(st.tuples(st.integers(1, 40), st.integers(0, 40), st.sampled_from([9, 9, 9, 8, 10])),
                min_size=1, max_size=10))
def test_line_tabs_found_with_the_line_end(lines):
    """The scan finds a line's TABs and its end in one pass (16 bytes a step with SSE2): lines
    of every length around the step, with eight, nine or ten TABs; the next line's TABs in
    the same step are not the line's."""
    body = b""
    for k, (form, misc, tabs) in enumerate(lines, start=1):
        fields = [str(k).encode(), b"a" * form, b"_", b"X", b"_", b"_", b"0" if k == 1 else b"1",
                  b"root" if k == 1 else b"dep", b"_", b"b" * misc + b"\t" * (tabs - 9)]
        body += b"\t".join(fields[:tabs + 1] if tabs < 9 else fields) + b"\n"
    assert_same_reading(body + b"\n", "conll18")


@EXAMPLES
@given(st.lists(st.text(alphabet="a \u00a0\u00e9\u0436\u4e2d\u3000\u3001\u2009\u202f\u1680\u2010",
                        min_size=1, max_size=9), min_size=1, max_size=6),
       st.sampled_from(PROFILES))
def test_short_forms_copied_whole(forms, profile):
    """FORMs of up to 16 bytes are copied 16 bytes at once unless a byte may start a space
    separator: spaces, every Zs, and characters that share a Zs's lead byte, at every place,
    in both profiles' space sets; the characters counted as the byte-by-byte copy does."""
    line = "{}\t{}\t_\tX\t_\t_\t{}\t{}\t_\t_\n"
    body = "".join(line.format(k, form, 0 if k == 1 else 1, "root" if k == 1 else "dep")
                   for k, form in enumerate(forms, start=1))
    assert_same_reading((body + "\n").encode("utf-8"), profile)


def test_spaces_in_forms_and_empty_nodes():
    """FORMs with every kind of space, a FORM of spaces only, empty nodes, multi-word tokens."""
    line = "{}\t{}\t_\tX\t_\t_\t{}\tdep\t_\t_\n"
    base = (line.format(1, "a\u00a0b", 0) + line.format(2, "c d", 1) +
            line.format("2.1", "e", "_") + "3-4\tf\u3000g\t_\t_\t_\t_\t_\t_\t_\t_\n" +
            line.format(3, "f", 1) + line.format(4, "g", 3) + "\n")
    for profile in PROFILES + ("iwpt",):
        assert_same_reading(base.encode("utf-8"), profile)
        assert_same_reading(base.replace("c d", "\u2002").encode("utf-8"), profile)
        assert_same_reading(base.replace("c d", " ").encode("utf-8"), profile)


def test_space_set_is_the_regex_zs():
    """The compiled text's space characters are exactly ``\\p{Zs}`` (conll18) and ' '
    (conll17): checked over every code point whose UTF-8 starts with a byte it looks at."""
    zs = regex.compile(r"\p{Zs}")
    for code in list(range(0x20, 0x800)) + list(range(0x1000, 0x4000)):
        char = chr(code)
        if 0xD800 <= code < 0xE000:
            continue
        encoded = char.encode("utf-8")
        assert cscan.space_length(encoded, True) == (len(encoded) if zs.match(char) else 0)
        assert cscan.space_length(encoded, False) == (1 if char == " " else 0)


def _python_decodes(data: bytes) -> bool:
    """Whether Python's strict UTF-8 decoder takes ``data`` (what the checks must say)."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


@pytest.mark.parametrize("data", [b"", b"a", b"\xc3\xa9", b"\xc0\xaf", b"\xe0\x80\xaf",
                                  b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xf0\x9f\x98\x80",
                                  b"\xe2\x82", b"\x80", b"ok\xff", b"\xef\xbb\xbf",
                                  b"abcdefgh\xd1", b"abcdefg\xd1", b"abcdefghijklmnop\xd1",
                                  b"abcdefgh\xd1\x80"])
def test_utf8_check_is_python_s(data):
    expected = _python_decodes(data)
    assert scan.utf8_valid(data) == expected
    assert scan.utf8_valid_numpy(data, np.frombuffer(data, dtype=np.uint8)) == expected


def _compiled_checks(data: bytes) -> set:
    """What the compiled UTF-8 check says of ``data``, 16 bytes a step (where the CPU can) and
    a sequence at a time."""
    arr = np.frombuffer(data, dtype=np.uint8)
    return {cscan.utf8_valid(arr), cscan.utf8_valid(arr, False)} if data else {True}


@EXAMPLES
@given(st.text(alphabet=st.characters(max_codepoint=127), max_size=70), st.binary(max_size=6))
def test_utf8_check_after_ascii_runs(ascii_text, tail):
    """ASCII runs (skipped 16 bytes a step) end exactly where the bytes stop being ASCII,
    also in the last few bytes."""
    data = ascii_text.encode("ascii") + tail
    assert _compiled_checks(data) == {_python_decodes(data)}


@EXAMPLES
@given(st.binary(max_size=64))
def test_utf8_check_on_random_bytes(data):
    assert _compiled_checks(data) == {_python_decodes(data)}


@EXAMPLES
@given(st.lists(st.sampled_from("a\u00e9\u07ff\u0800\u4e2d\uffff\U00010000\U0001f600\U0010ffff"),
                max_size=40), st.integers(0, 200), st.integers(0, 255))
def test_utf8_check_on_text_with_one_byte_changed(chars, where, byte):
    """Valid text of every sequence length across 16-byte blocks, and with one byte changed
    (a broken, overlong, surrogate or too large sequence, or a valid one)."""
    data = "".join(chars).encode("utf-8")
    assert _compiled_checks(data) == {True}
    if data:
        changed = bytearray(data)
        changed[where % len(data)] = byte
        assert _compiled_checks(bytes(changed)) == {_python_decodes(bytes(changed))}


def test_utf8_check_of_every_byte_pair_across_a_block_boundary():
    """Every two bytes, at the end of the first 16-byte block and straddling the next: the
    vector check classifies each byte with the one before it."""
    for before in (b"x" * 14, b"x" * 15):
        for first in range(256):
            for second in range(256):
                data = before + bytes((first, second))
                assert _compiled_checks(data) == {_python_decodes(data)}, data


@EXAMPLES
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=40) |
       st.lists(st.sampled_from(["a", "abcdefghijklmnopq", "x" * 33, "\u00e9", "\u00ff",
                                 "\u0100", "\u4e2d", "\U0001f600"]), max_size=12).map("".join))
def test_text_decoded_in_one_buffer_equals_python_s(text):
    """The compiled decoder (and its census) gives the str Python's gives, of the same
    (narrowest) kind: equal, with the same hash and size; ASCII runs (16 bytes a step) of
    every length between characters of every width."""
    decoded = cscan.decode_utf8(np.frombuffer(text.encode("utf-8"), dtype=np.uint8))
    assert decoded == text and hash(decoded) == hash(text)
    assert sys.getsizeof(decoded) == sys.getsizeof(text)
    assert scan_pieces.decode_text(np.frombuffer(text.encode("utf-8"), dtype=np.uint8)) == text


@pytest.mark.parametrize("data", [b"\x80", b"a\xc3", b"\xc3(", b"\xc0\xaf", b"\xe0\x80\x80",
                                  b"\xf5\x80\x80\x80", b"\xe4\xb8", b"\xc3\xa9\xa9"])
def test_malformed_text_is_left_to_python_s_decoder(data):
    """Malformed bytes (the reader checks them first) give None, and decode_text then raises
    Python's error instead of building a wrong str."""
    arr = np.frombuffer(data, dtype=np.uint8)
    assert cscan.decode_utf8(arr) is None
    with pytest.raises(UnicodeDecodeError):
        scan_pieces.decode_text(arr)


@EXAMPLES
@given(st.lists(st.integers(-1, 40)), st.lists(st.integers(-5, 1000), min_size=41, max_size=60))
def test_codes_remapped_in_place_are_numpy_s(codes, table):
    """Codes moved into another vocabulary in place equal numpy's ``table[codes]`` (-1, no
    string, stays -1); a code outside the table leaves them untouched."""
    codes, table = np.array(codes, dtype=np.int32), np.array(table, dtype=np.int32)
    expected = np.where(codes >= 0, table[np.maximum(codes, 0)], -1)
    assert cscan.remap_in_place(codes, table)
    assert codes.tolist() == expected.tolist()
    outside = np.array([0, len(table)], dtype=np.int32)
    assert not cscan.remap_in_place(outside, table) and outside.tolist() == [0, len(table)]


@EXAMPLES
@given(st.lists(st.sampled_from([b"a", b"\t", b"\n", b"\xc3\xa9"]), max_size=40),
       st.lists(st.integers(-2, 45), max_size=10))
def test_line_ends_are_numpy_s(parts, starts):
    """The compiled end of each field that runs to the end of its line is the numpy path's
    (the first newline at or after its start; the end of the bytes without one)."""
    data = np.frombuffer(b"".join(parts), dtype=np.uint8)
    starts = np.array([s for s in starts if 0 <= s <= len(data)], dtype=np.int32)
    newlines = np.flatnonzero(data == 10)
    expected = np.append(newlines, len(data))[np.searchsorted(newlines, starts)]
    assert cscan.line_ends(data, starts).tolist() == expected.tolist()
    fields = lazy_fields.FieldBytes(source=data, start=starts)
    assert fields.ranges(data)[1].tolist() == expected.tolist()
    compiled, lazy_fields._cscan = lazy_fields._cscan, None  # the numpy path's own
    try:
        assert lazy_fields.line_ends(data, starts).tolist() == expected.tolist()
    finally:
        lazy_fields._cscan = compiled


@EXAMPLES
@given(st.integers(0, 2 ** 32))
def test_word_tails_found_again_are_where_the_scan_found_them(seed):
    """What a file read again keeps of DEPS/MISC is nothing: their starts found again in its
    bytes (compiled, and the numpy path's) are the scan's, word line for word line."""
    for text in generate_pair(random.Random(seed)):
        data = text.encode("utf-8")
        columns = scan.scan(data, _space_pattern("conll18"), Vocab())
        if columns is None:  # not regular: the exact parser keeps the bytes themselves
            continue
        tails = columns.cols["misc"].tails
        arr = np.frombuffer(data, dtype=np.uint8)
        assert cscan.word_tail_starts(arr).tolist() == tails.start.tolist()
        compiled, lazy_fields._cscan = lazy_fields._cscan, None
        try:
            assert lazy_fields.word_tail_starts(arr).tolist() == tails.start.tolist()
        finally:
            lazy_fields._cscan = compiled
        found_again = lazy_fields.FieldBytes(source=arr)()
        assert found_again.tolist() == tails().tolist()


def test_a_file_s_index_columns_are_int32_while_read():
    """The columns a file grows piece by piece are int32 (the treebank's type), whatever a
    piece's scan gives: no wider copy to convert at the end."""
    whole = scan_pieces._WholeFile(1 << 20)
    wide = np.arange(5, dtype=np.int64)
    whole._append("head", wide)
    whole._append("sent_char_start", wide, "sent")
    whole._append("tok_line", wide)  # not an index column: its own type
    assert whole._column("head").dtype == np.int32 and whole._column("head").tolist() == list(range(5))
    assert whole._column("sent_char_start").dtype == np.int32
    assert whole._column("tok_line").dtype == np.int64
    unknown_size = scan_pieces._WholeFile(None)  # offsets may pass 2**31: kept wide
    unknown_size._append("sent_char_start", wide, "sent")
    assert unknown_size._column("sent_char_start").dtype == np.int64


@EXAMPLES
@given(st.lists(st.tuples(st.integers(-1, 30), st.integers(0, 4)), max_size=30))
def test_functional_children_are_each_head_s_in_word_order(words):
    """The CSR lists of functional children (written without branches: roots and other
    words go to a slot that is dropped) are each head's functional dependents in order."""
    n = len(words)
    head = np.array([h if h < n else -1 for h, _ in words], dtype=np.int32)
    deprel = np.array([r for _, r in words], dtype=np.int32)
    functional_of = np.array([0, 1, 0, 1, 1], dtype=np.int8)
    offsets, children = ccount.functional_children(head, deprel, functional_of)
    expected = [[w for w in range(n) if head[w] == h and functional_of[deprel[w]]]
                for h in range(n)]
    assert [children[offsets[h]:offsets[h + 1]].tolist() for h in range(n)] == expected
    assert len(children) == sum(map(len, expected))


@EXAMPLES
@given(st.lists(st.text(alphabet="ab\u00e9\u4e2d ", min_size=1, max_size=4), min_size=1, unique=True),
       st.lists(st.text(alphabet="ab\u00e9\u4e2d ", max_size=4), max_size=8), st.integers(0, 5))
def test_a_table_s_strings_encoded_as_vocab_encode_does(lemmas, known, since):
    """A string table's strings (here a scanned file's LEMMAs) from ``since`` on get the codes
    ``Vocab.encode`` gives them: the known ones theirs, the new ones the next codes, in the
    table's order."""
    line = "{}\t_\t{}\tX\t_\t_\t{}\tdep\t_\t_\n"
    data = ("".join(line.format(k, lemma, 0 if k == 1 else 1)
                    for k, lemma in enumerate(lemmas, start=1)) + "\n").encode("utf-8")
    tables = tuple(cscan.StringTable() for _ in cscan.TABLES)
    assert cscan.scan_piece(np.frombuffer(data, dtype=np.uint8), 0, len(data), 0, tables, True)
    lemma_table = tables[cscan.TABLES.index("lemma")]
    ours, reference = Vocab(), Vocab()
    for vocab in (ours, reference):
        vocab.encode(known)
    expected = reference.encode(lemma_table.decoded(since), distinct=True)
    assert ours.encode_table(lemma_table, since).tolist() == expected.tolist()
    assert ours.strings == reference.strings


@EXAMPLES
@given(st.lists(st.integers(0, 3000), min_size=1), st.lists(st.integers(0, 3000), min_size=1))
def test_distinct_codes(a, b):
    """The compiled distinct values of two code columns are numpy's."""
    a, b = np.array(a, dtype=np.int32), np.array(b, dtype=np.int32)
    assert treebank._distinct(a, b).tolist() == np.unique(np.concatenate([a, b])).tolist()
    assert treebank._distinct(a).tolist() == np.unique(a).tolist()
    with pytest.raises(ValueError):
        treebank._distinct(a, np.array([-1], dtype=np.int32))


@EXAMPLES
@given(st.binary(max_size=300), st.integers(0, 70))
def test_newline_count(data, offset):
    """The count the scan sizes its arrays by is exact, wherever the bytes start (the
    vector steps, their flushes and the tail)."""
    data = data.replace(b"\x00", b"\n") * 3
    view = np.frombuffer(data, dtype=np.uint8)[min(offset, len(data)):]
    assert cscan.count_newlines(np.ascontiguousarray(view)) == view.tobytes().count(b"\n")
    long = np.frombuffer(b"\n" * 20000 + data, dtype=np.uint8)  # past a flush (255 per lane)
    assert cscan.count_newlines(long) == 20000 + data.count(b"\n")


SHARED_PAIRS = sorted(SHARED_UD.glob("*/gold.conllu")) if SHARED_UD.is_dir() else []


@pytest.mark.skipif(not SHARED_PAIRS, reason="../shared/ud is not present")
@pytest.mark.parametrize("gold", SHARED_PAIRS, ids=[p.parent.name for p in SHARED_PAIRS])
def test_shared_treebanks(gold):
    data = gold.read_bytes()
    for profile in PROFILES:
        assert_same_reading(data, profile)
    for system in sorted(gold.parent.glob("sys-*.conllu")):
        system_data = system.read_bytes()
        assert_same_reading(system_data, "conll18")
        assert_same_scores(data, system_data, "conll18")


@EXAMPLES
@given(st.integers(0, 2 ** 32), st.sampled_from(PROFILES))
def test_files_read_into_one_vocabulary(seed, profile):
    """The compiled string tables stay with the vocabulary: files read one after the other
    into it (the suite's gold then system; one cut short by an irregular piece in between)
    hold the same strings as when each has a vocabulary of its own, and every string is
    interned once.  A reader finding the tables in use by another one gets its own."""
    rng = random.Random(seed)
    gold, system = (text.encode("utf-8") for text in generate_pair(rng, profile))
    broken = _mutate(system, rng, 3)
    alone = [columns(parse_bytes(data, "f", profile, Vocab())) for data in (gold, system)]
    vocab = Vocab()
    first = parse_bytes(gold, "gold", profile, vocab)
    try:
        parse_bytes(broken, "broken", profile, vocab)
    except ConllEvalError:
        pass
    with vocab.reader_state() as held:  # another reader has the tables meanwhile
        assert "compiled" in held  # the tables the gold file was read with
        with vocab.reader_state() as other:
            assert other == {}
            second = parse_bytes(system, "system", profile, vocab)
    third = parse_bytes(system, "system", profile, vocab)
    assert [columns(first), columns(second), columns(third)] == alone + alone[1:]
    assert len(set(vocab.strings)) == len(vocab.strings)


def test_load_keeps_the_tables_only_with_the_caller_s_vocabulary(tmp_path):
    """``load`` with a vocabulary of the caller's (the suite's gold, then its systems) leaves
    the scan tables with it; one it makes itself does not keep them (memory)."""
    path = tmp_path / "f.conllu"
    path.write_text(generate_pair(random.Random(3), "conll18")[0], encoding="utf-8")
    mine = Vocab()
    load(str(path), "conll18", mine)
    with mine.reader_state() as state:
        assert "compiled" in state
    with load(str(path)).vocab.reader_state() as state:
        assert state == {}


def test_compiled_counter_does_the_attribute_metrics():
    """The compiled counter really counts (an empty answer would leave all to numpy and the
    comparisons above would prove nothing), and leaves what it does not do to numpy."""
    gold, system = (text.encode("utf-8") for text in generate_pair(random.Random(7), "conll18"))
    vocab = Vocab()
    g, s = parse_bytes(gold, "g", "conll18", vocab), parse_bytes(system, "s", "conll18", vocab)
    alignment = align.align_words(g, s)
    for profile in PROFILES:
        names = metrics.profile_metrics(profile)
        done = compiled_counts(names, g, s, alignment)
        assert set(done) == {n for n in names if metrics.METRICS[n].kind != "sentences"}
    assert compiled_counts(["LAS"], g, s, alignment, punct="deprel") == {}
    assert compiled_counts(["WeightedLAS", "Sentences"], g, s, alignment) == {}


def test_pure_environment_variable_forces_numpy():
    code = "from conll_eval.compiled import core_description; print(core_description())"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={**os.environ, "CONLL_EVAL_PURE": "1"}, check=True).stdout
    assert out.strip() == "numpy (CONLL_EVAL_PURE is set)"


@pytest.mark.slow
def test_install_without_a_compiler_falls_back_to_numpy(tmp_path):
    """``pip install`` with no working C compiler (CC=false) still installs, on the numpy
    path (the extensions are optional)."""
    project = Path(__file__).resolve().parent.parent
    files = subprocess.run(["git", "ls-files"], cwd=project, capture_output=True, text=True)
    if files.returncode != 0:
        pytest.skip("not a git checkout")
    source = tmp_path / "source"
    for name in files.stdout.split():
        target = source / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes((project / name).read_bytes())
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = str(venv / "bin" / "python")
    install = subprocess.run([python, "-m", "pip", "install", "-q", "--no-cache-dir", str(source)],
                             capture_output=True, text=True, cwd=tmp_path,
                             env={**os.environ, "CC": "false"})
    if install.returncode != 0 and "compiler" not in install.stderr:
        pytest.skip(f"pip could not install (no network?): {install.stderr[-300:]}")
    assert install.returncode == 0, install.stderr[-2000:]
    version = subprocess.run([python, "-m", "conll_eval", "--version"], capture_output=True,
                             text=True, cwd=tmp_path, check=True).stdout
    assert "core: numpy (the compiled core is not built)" in version

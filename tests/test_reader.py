"""Reader: official accept/reject rules, error codes and lines, and scan == exact parser."""
import io

import numpy as np
import pytest
from hypothesis import given, strategies as st

from conll_eval import FormatError, InputError, TreeError, evaluate
from conll_eval.reader import _ExactParser, _build, _space_pattern, load, load_text, read_lines
from conll_eval import scan as scan_module
from conll_eval.io import scan_pieces
from conll_eval.io import utf8 as utf8_module
from conll_eval.scan import scan, utf8_valid
from conll_eval.treebank import Vocab

from helpers import chain, document, row, sentence

GOOD = document(
    sentence("1 Hello 0 root", "2 world 1 obj", comments=["# sent_id = s1", "# text = Hello world"]),
    sentence("1-2 du", "1 de 3 case", "2 le 3 det", "3 chat 0 root", comments=["# sent_id = s2"]),
)


def _both(text, profile="conll18"):
    data = text.encode("utf-8")
    vocab = Vocab()
    fast = scan(data, _space_pattern(profile), vocab)
    exact = _ExactParser(read_lines(data, "x"), "x", profile).run()
    return fast, exact, vocab


def _same_treebank(a, b):
    from conll_eval.treebank import WORD_COLUMNS
    assert a.sent_ids == b.sent_ids and a.sent_texts == b.sent_texts
    for name in WORD_COLUMNS + ("written_form",):
        assert np.array_equal(a.column(name), b.column(name)), name
    for name in a.__dataclass_fields__:
        if name in ("vocab", "path", "columns", "metadata"):
            continue
        x, y = getattr(a, name), getattr(b, name)
        if isinstance(x, np.ndarray):
            assert np.array_equal(x, y), name
        elif isinstance(x, dict):
            assert x.keys() == y.keys() and all(np.array_equal(x[k], y[k]) for k in x), name
        else:
            assert x == y, name


def test_scan_and_exact_parser_agree_on_a_regular_file():
    fast, exact, vocab = _both(GOOD)
    assert fast is not None
    _same_treebank(_build(fast, "x", vocab), _build(exact, "x", vocab))


def test_metadata_and_columns():
    tb = load_text(GOOD)
    assert tb.sent_ids == ["s1", "s2"] and tb.sent_texts == ["Hello world", None]
    assert tb.text == "Helloworlddulechat"[:10] + "duchat"
    assert tb.word_is_mwt.tolist() == [False, False, True, True, False]
    assert tb.head.tolist() == [-1, 0, 4, 4, -1]
    assert tb.strings("form") == ["Hello", "world", "de", "le", "chat"]
    assert tb.tok_start.tolist() == [0, 5, 10, 12] and tb.tok_end.tolist() == [5, 10, 12, 16]


# (code, text, line of the error)
INVALID = [
    ("wrong-column-count", "1\tx\n\n", 1),
    ("empty-form", row("1", "", "0", "root") + "\n\n", 1),
    ("invalid-mwt-id", row("1-x", "ab") + "\n" + row("1", "a", "0", "root") + "\n\n", 1),
    ("invalid-word-id", row("x", "a", "0", "root") + "\n\n", 1),
    ("unexpected-word-id", row("2", "a", "0", "root") + "\n\n", 1),
    ("invalid-head", row("1", "a", "_", "root") + "\n\n", 1),
    ("negative-head", row("1", "a", "-1", "root") + "\n\n", 1),
    ("head-out-of-range", sentence("1 a 0 root", "2 b 5 dep"), 3),
    ("cycle", sentence("1 a 0 root", "2 b 3 dep", "3 c 2 dep"), 4),
    ("cycle", sentence("1 a 0 root", "2 b 2 dep"), 3),
    ("multiple-roots", sentence("1 a 0 root", "2 b 0 root"), 3),
    # (no root without an empty sentence implies a cycle, which is reported first, as officially)
    ("cycle", sentence("1 a 2 dep", "2 b 1 dep"), 3),
    ("empty-sentence", sentence("1 a 0 root") + "\n", 3),
    ("empty-sentence", "# comment\n\n", 2),
    ("missing-final-blank-line", row("1", "a", "0", "root") + "\n", 1),
    ("unfinished-mwt", row("1-2", "ab") + "\n" + row("1", "a", "0", "root") + "\n", 1),
    ("misplaced-comment", row("1", "a", "0", "root") + "\n# late comment\n\n", 2),
    ("empty-node-in-mwt", row("1-2", "ab") + "\n" + row("1", "a", "0", "root") + "\n"
     + row("1.1", "x") + "\n" + row("2", "b", "1", "dep") + "\n\n", 3),
    ("bom", "\ufeff# sent_id = 1\n" + sentence("1 a 0 root"), 1),
]


@pytest.mark.parametrize("code,text,line", INVALID, ids=[f"{c}-{i}" for i, (c, _, _) in enumerate(INVALID)])
def test_invalid_input_code_and_line(code, text, line):
    with pytest.raises(InputError) as info:
        load_text(text, path="bad.conllu")
    error = info.value
    assert error.code == code
    assert error.location.line == line
    assert str(error).startswith(f"bad.conllu:{line}: error [{code}] ")
    # the scan never accepts what the exact parser rejects
    assert scan(text.encode("utf-8"), _space_pattern("conll18"), Vocab()) is None


def test_error_classes():
    with pytest.raises(TreeError):
        load_text(sentence("1 a 0 root", "2 b 0 root"))
    with pytest.raises(FormatError):
        load_text("1\tx\n\n")
    with pytest.raises(ValueError):  # input errors are ValueErrors too
        load_text("1\tx\n\n")


def test_official_messages_per_profile():
    text = sentence("1 a 0 root", "2 b 0 root")
    messages = {}
    for profile in ("conll17", "conll18", "iwpt"):
        with pytest.raises(InputError) as info:
            load_text(text, profile=profile)
        messages[profile] = info.value.official
    assert messages == {
        "conll17": "There are multiple roots in a sentence",
        "conll18": "There are 2 roots in a sentence at line 3",
        "iwpt": "There are multiple roots in the sentence that ends at 3",
    }


def test_invalid_utf8_names_line_and_byte():
    from conll_eval.reader import parse_bytes
    data = sentence("1 a 0 root").encode() + b"1\t\xff\t_\t_\t_\t_\t0\troot\t_\t_\n\n"
    with pytest.raises(FormatError) as info:
        parse_bytes(data, "bad.conllu", "conll18")
    assert info.value.code == "invalid-utf8" and info.value.location.line == 3


def test_empty_and_comment_only_files_are_valid():
    assert load_text("").n_sentences == 0
    assert load_text("# just a comment\n").n_sentences == 0


def test_crlf_is_accepted_like_the_official_reader():
    crlf = load_text(GOOD.replace("\n", "\r\n"))
    lf = load_text(GOOD)
    assert crlf.text == lf.text and crlf.head.tolist() == lf.head.tolist()


def test_deep_head_chain_does_not_recurse():
    tb = load_text(chain(100_000))
    assert tb.n_words == 100_000 and int((tb.head == -1).sum()) == 1


def test_deep_cycle_is_found():
    words = [f"{k} w{k} {k + 1} dep" for k in range(1, 50_000)] + ["50000 w 1 dep"]
    with pytest.raises(TreeError) as info:
        load_text(sentence("1 r 0 root".replace("1 r", "1 r"), *[]) + sentence(*words))
    assert info.value.code == "cycle"


def test_space_removal_by_profile():
    text = row("1", "a\u00a0b", "0", "root") + "\n" + row("2", "c d", "1", "dep") + "\n\n"
    assert load_text(text, profile="conll18").text == "abcd"
    assert load_text(text, profile="conll17").text == "a\u00a0bcd"


def test_conll17_accepts_negative_head_inside_mwt():
    text = sentence("1 x 0 root") + (
        row("1-2", "ab") + "\n" + row("1", "a", "0", "root") + "\n" + row("2", "b", "-3", "dep") + "\n\n")
    tb = load_text(text, profile="conll17")
    assert tb.head.tolist()[2] == 0  # Python negative indexing: words[-3 + 3], in the first sentence
    with pytest.raises(TreeError) as info:
        load_text(text, profile="conll18")
    assert info.value.code == "head-out-of-range"


def test_reversed_mwt_range_is_a_token_without_words():
    text = row("2-1", "ab") + "\n" + row("1", "c", "0", "root") + "\n\n"
    tb = load_text(text)
    assert tb.n_tokens == 2 and tb.n_words == 1 and tb.text == "abc"


_words = st.lists(st.sampled_from(["a", "Bc", "d e", "f\u00a0g", "#h", "1-2", "é"]), min_size=1, max_size=6)


@pytest.mark.parametrize("piece_bytes", [1, 60, scan_pieces.SCAN_PIECE_BYTES])
@given(st.lists(st.tuples(_words, st.booleans(), st.booleans(), st.booleans()), min_size=1,
                max_size=6),
       st.sampled_from(["conll17", "conll18"]))
def test_scan_equals_exact_parser_or_hands_over(piece_bytes, sentences, profile):
    """Random small files (MWTs, empty nodes, comments, odd IDs): the scan either hands over
    or builds exactly what the exact parser builds, whatever pieces it cuts the file into."""
    lines = []
    for k, (forms, with_mwt, with_empty, with_text) in enumerate(sentences):
        lines.append(f"# sent_id = x{k}")
        if with_text:
            lines.append("# text = " + " ".join(forms))
        n = len(forms)
        if with_mwt and n >= 2:
            lines.append(row("1-2", forms[0] + forms[1]))
        for k, form in enumerate(forms, 1):
            lines.append(row(str(k), form, "0" if k == 1 else str(k - 1), "root" if k == 1 else "nmod:poss"))
            if with_empty and k == 1:
                lines.append(row("1.1", "e"))
        lines.append("")
    text = "\n".join(lines) + "\n"
    data = text.encode("utf-8")
    vocab = Vocab()
    scan_pieces.SCAN_PIECE_BYTES, default = piece_bytes, scan_pieces.SCAN_PIECE_BYTES
    try:
        fast = scan(data, _space_pattern(profile), vocab)
        streamed = scan_module.scan_stream(io.BytesIO(data).read, _space_pattern(profile), vocab,
                                           utf8_valid)
        read_into = scan_module.scan_stream(None, _space_pattern(profile), vocab, utf8_valid,
                                            readinto=io.BytesIO(data).readinto)
    finally:
        scan_pieces.SCAN_PIECE_BYTES = default
    assert (fast is None) == (streamed is None) == (read_into is None)
    if fast is not None:
        _same_treebank(_build(fast, "x", vocab), _build(streamed, "x", vocab))
        _same_treebank(_build(fast, "x", vocab), _build(read_into, "x", vocab))
    try:
        exact = _ExactParser(read_lines(data, "x"), "x", profile).run()
    except InputError:
        assert fast is None
        return
    if fast is not None:
        _same_treebank(_build(fast, "x", vocab), _build(exact, "x", vocab))
        assert fast.metadata() == exact.metadata


def test_gold_against_itself_is_perfect():
    vocab = Vocab()
    gold = load_text(GOOD, vocab=vocab)
    system = load_text(GOOD, vocab=vocab)
    scores = evaluate(gold, system).scores
    assert all(s.f1 == 1.0 for s in scores.values())


@pytest.mark.parametrize("comment", [
    "# sent_id = a", "#sent_id=a", "#  sent_id   =  a  ", "# text = x y ", "#\ttext = z", "# textual = no",
    "# text_en = no", "# newdoc id = d", "#", "# sent_id = a\n# sent_id = b", "# \u00a0text = nbsp",
    "# text =", "# sent_id", "#\x0btext = vt",
])
def test_scan_reads_metadata_like_the_exact_parser(comment):
    text = comment + "\n" + sentence("1 a 0 root")
    fast, exact, vocab = _both(text)
    assert fast is not None
    assert fast.metadata() == exact.metadata


def test_file_backed_columns_and_metadata_are_read_on_first_use(tmp_path):
    """DEPS, MISC and the comments of a file on disk are read again only when asked for,
    give what reading the text gives, survive pickling, and a changed file is an error."""
    import os
    import pickle
    text = GOOD.replace("\t_\t_\n2\tworld", "\t0:root\tSpaceAfter=No\n2\tworld")
    path = tmp_path / "f.conllu"
    path.write_text(text, encoding="utf-8")
    expected = load_text(text)
    for piece_bytes in (1, scan_pieces.SCAN_PIECE_BYTES):
        scan_pieces.SCAN_PIECE_BYTES, default = piece_bytes, scan_pieces.SCAN_PIECE_BYTES
        try:
            tb = load(str(path))
        finally:
            scan_pieces.SCAN_PIECE_BYTES = default
        assert isinstance(tb.columns["misc"], scan_module.LazyCodes)
        assert tb.strings("misc") == expected.strings("misc")
        assert tb.strings("deps") == expected.strings("deps") == ["0:root", "_", "_", "_", "_"]
        assert tb.sent_ids == expected.sent_ids and tb.sent_texts == expected.sent_texts
    fresh = load(str(path))
    again = pickle.loads(pickle.dumps(fresh))
    assert again.strings("misc") == expected.strings("misc") and again.sent_ids == ["s1", "s2"]
    stale = load(str(path))
    path.write_text(text + "\n", encoding="utf-8")
    os.utime(path, ns=(1, 1))
    with pytest.raises(FormatError) as info:
        stale.strings("misc")
    assert info.value.code == "file-changed"


_utf8_bytes = st.one_of(
    st.binary(max_size=40),
    st.text(max_size=30).map(lambda t: t.encode("utf-8", "surrogatepass")),
    st.tuples(st.text(max_size=20), st.integers(0, 60), st.integers(0, 255)).map(
        lambda x: bytearray(x[0].encode("utf-8", "surrogatepass")) + bytes([x[2]]) * (x[1] % 3)),
    st.lists(st.sampled_from([b"a", b"\n", b"\xc2\xa0", b"\xe0\xa0\x80", b"\xe0\x9f\xbf",
                              b"\xed\x9f\xbf", b"\xed\xa0\x80", b"\xf0\x90\x80\x80",
                              b"\xf0\x8f\xbf\xbf", b"\xf4\x8f\xbf\xbf", b"\xf4\x90\x80\x80",
                              b"\xc0\x80", b"\xc1\xbf", b"\xf5", b"\xff", b"\x80", b"\xbf",
                              b"\xc3", b"\xe2\x82", b"\xf0\x9f\x98"]), max_size=12).map(b"".join),
)


@given(_utf8_bytes, st.sampled_from([1, 3, 7, 1 << 20]))
def test_utf8_valid_agrees_with_pythons_decoder(data, slice_bytes):
    data = bytes(data)
    try:
        data.decode("utf-8")
        expected = True
    except UnicodeDecodeError:
        expected = False
    utf8_module._UTF8_SLICE, default = slice_bytes, utf8_module._UTF8_SLICE
    try:
        assert utf8_valid(data) == expected
    finally:
        utf8_module._UTF8_SLICE = default


def test_files_read_one_after_another_reuse_a_workspace(tmp_path):
    """A small file leaves its read buffer and working arrays to the next: files larger and
    smaller than the one before, one not ending with a blank line and one with a CR in
    between, read the same as each alone in a fresh process state."""
    def treebank_text(n):
        return document(*[sentence(f"1 w{k} 0 root", f"2 x{k} 1 dep") for k in range(n)])
    texts = [treebank_text(3), treebank_text(40), treebank_text(1),
             treebank_text(5).rstrip("\n") + "\n",  # no blank line at the end
             treebank_text(4).replace("\n", "\r\n", 1), treebank_text(2)]
    paths = []
    for k, text in enumerate(texts):
        path = tmp_path / f"f{k}.conllu"
        path.write_bytes(text.encode("utf-8"))
        paths.append(path)
    expected = []
    for path in paths:
        scan_pieces._Workspace._spare.clear()  # alone: no workspace left by another file
        try:
            expected.append(load(str(path)))
        except InputError as exc:
            expected.append(str(exc))
    for path, alone in zip(paths, expected):
        try:
            again = load(str(path))
        except InputError as exc:
            assert str(exc) == alone
            continue
        _same_treebank(again, alone)
    assert scan_pieces._Workspace._spare  # the small files left theirs

"""The validator's compiled screen (conll_eval/validate/screen.py, conll_eval/_cvalidate.pyx)
changes nothing but speed: every file gives the same incidents, in the same order, with and
without it.  Files come from a generator of valid sentences (trees, multiword tokens, text and
SpaceAfter=No, features, enhanced graphs, newpar) that are then broken at random, byte by byte
and rule by rule; blocks are made tiny so that sentences meet block ends.  The shared UD
treebanks (real level-3 warnings) are compared too.  ``-m slow`` runs many more files."""
from __future__ import annotations

import dataclasses
import glob
import os
import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from conll_eval.errors import InputError
from conll_eval.validate import screen as screen_module
from conll_eval.validate import validate_bytes

from test_validate import UD_DATA

pytestmark = pytest.mark.skipif(not screen_module.AVAILABLE,
                                reason="the compiled core is not built: no screen to compare")

SHARED_UD = os.path.join(os.path.dirname(__file__), "..", "..", "shared", "ud")
UPOS = ["NOUN", "VERB", "ADJ", "ADP", "DET", "PRON", "PUNCT", "AUX", "PROPN", "X", "ADV",
        "NUM", "PART", "CCONJ", "SCONJ"]
DEPRELS = ["nsubj", "obj", "obl", "det", "amod", "case", "punct", "advmod", "nmod:poss",
           "conj", "cc", "aux", "compound", "obl:tmod", "mark", "nmod", "cop", "fixed", "flat",
           "appos", "iobj", "csubj", "nsubj:outer", "expl", "nummod", "orphan", "goeswith",
           "flat:foreign", "root", "advcl", "acl:relcl", "xcomp", "aux:pass", "nsubj:pass",
           "obl:npmod", "parataxis", "discourse", "clf", "dep", "list"]
FEATS = ["_", "Number=Sing", "Case=Nom|Number=Plur", "Definite=Def|PronType=Art",
         "Mood=Ind|Tense=Past|VerbForm=Fin", "Number=Plur,Sing", "PronType=Prs",
         "VerbForm=Fin", "ExtPos=ADV", "Typo=Yes", "Foreign=Yes", "Poss=Yes|PronType=Prs",
         "Polarity=Neg", "Foo=Bar", "Degree=Pos", "NumType=Card"]
WORDS = ["a", "bb", "ccc", "dé", "e-f", "gh", "ijk", "l m", "ñ", "草", "o'p", "q", "be", "is"]
MISCS = ["_", "_", "_", "_", "Gloss=x", "Lang=fr", "Subject=Outer", "Translit=t",
         "Empty=Yes", "Lang=xx"]


def _sentence(rng: random.Random, k: int, enhanced: bool, parallel: str = "") -> str:
    """A valid sentence (levels 1-2): random tree, text made from the forms."""
    n = rng.randint(1, 7)
    heads = [0] * (n + 1)
    root = rng.randint(1, n)
    if rng.random() < 0.5:  # a projective chain towards the root
        for w in range(1, n + 1):
            heads[w] = w + 1 if w < root else w - 1
    else:
        order = [root] + [w for w in range(1, n + 1) if w != root]
        rng.shuffle(order[1:])
        attached = [root]
        for w in order[1:]:
            heads[w] = rng.choice(attached)
            attached.append(w)
    heads[root] = 0
    forms = [rng.choice(WORDS) for _ in range(n + 1)]
    forms[0] = rng.choice([w for w in WORDS if " " not in w])  # a multiword token's FORM
    mwt = None
    if n >= 2 and rng.random() < 0.3:
        first = rng.randint(1, n - 1)
        mwt = (first, first + 1)
    rows, text = [], []
    for w in range(1, n + 1):
        member = mwt is not None and mwt[0] <= w <= mwt[1]
        if mwt is not None and w == mwt[0]:
            no_space = rng.random() < 0.3 and w + 1 < n
            rows.append(f"{w}-{w + 1}\t{forms[0]}\t_\t_\t_\t_\t_\t_\t_\t"
                        + ("SpaceAfter=No" if no_space else "_"))
            text.append(forms[0] + ("" if no_space or w + 1 == n else " "))
        misc = "_"
        if not member:
            no_space = rng.random() < 0.3 and w < n
            misc = "SpaceAfter=No" if no_space else rng.choice(MISCS)
            text.append(forms[w] + ("" if no_space or w == n else " "))
        deprel = "root" if heads[w] == 0 and rng.random() < 0.9 else rng.choice(DEPRELS)
        lemma = forms[w] if rng.random() < 0.8 else rng.choice(["be", "have", "_", "x y"])
        deps = "_"
        if enhanced:
            deps = f"{heads[w]}:{deprel}"
            if heads[w] != 0 and rng.random() < 0.1:
                deps = f"{heads[w]}:orphan"
            elif heads[w] != 0 and rng.random() < 0.3:
                extra = rng.choice([h for h in range(1, n + 1) if h != w] or [0])
                items = sorted({(heads[w], deprel), (extra, "dep")})
                deps = "|".join(f"{h}:{r}" for h, r in items)
        rows.append(f"{w}\t{forms[w]}\t{lemma}\t{rng.choice(UPOS)}\t_\t{rng.choice(FEATS)}"
                    f"\t{heads[w]}\t{deprel}\t{deps}\t{misc}")
    comments = [f"# sent_id = s{k}", "# text = " + "".join(text).rstrip()]
    if parallel == "valid":
        comments.insert(1, f"# parallel_id = pud/s{k}")
    elif parallel:  # sometimes repeated or out of sequence: parallel-id incidents
        comments.insert(1, f"# parallel_id = pud/s{k // 2 if rng.random() < 0.2 else k}"
                        + rng.choice(["", "", "", "/alt1", "/alt2", "/part1", "/part2",
                                      "/alt1part1"]))
    if rng.random() < 0.2:
        comments.insert(0, "# newpar")
    if rng.random() < 0.2:
        comments.append("# comment with text = here")
    return "\n".join(comments + rows) + "\n\n"


MUTATIONS = ["byte", "delete", "duplicate-line", "swap-lines", "head", "tab", "space", "cr",
             "fffd", "nbsp", "nfd", "sent-id", "bom", "control", "drop-empty", "deps", "comment"]


def _mutate(rng: random.Random, text: str) -> str:
    lines = text.split("\n")
    what = rng.choice(MUTATIONS)
    i = rng.randrange(len(lines))
    line = lines[i]
    if what == "byte" and line:
        j = rng.randrange(len(line))
        line = line[:j] + rng.choice("0_-.:|= \tA1#x") + line[j + 1:]
    elif what == "delete" and line:
        j = rng.randrange(len(line))
        line = line[:j] + line[j + 1:]
    elif what == "duplicate-line":
        lines.insert(i, line)
    elif what == "swap-lines" and i + 1 < len(lines):
        lines[i], lines[i + 1] = lines[i + 1], line
        line = lines[i]
    elif what == "head" and line.count("\t") == 9:
        cols = line.split("\t")
        cols[6] = rng.choice(["0", "1", "2", "3", "9", "01", "_", "1.1"])
        line = "\t".join(cols)
    elif what == "tab" and "\t" in line:
        line = line.replace("\t", rng.choice(["", "\t\t", " "]), 1)
    elif what == "space":
        j = rng.randrange(len(line) + 1)
        line = line[:j] + " " + line[j:]
    elif what == "cr":
        line += "\r"
    elif what in ("fffd", "nbsp", "control"):
        j = rng.randrange(len(line) + 1)
        line = line[:j] + {"fffd": "\ufffd", "nbsp": "\u00a0", "control": "\x0b"}[what] + line[j:]
    elif what == "nfd":
        line = line.replace("é", "e\u0301")
    elif what == "sent-id":
        line = "# sent_id = s0" if line.startswith("# sent_id") else line
    elif what == "bom" and i == 0:
        line = "\ufeff" + line
    elif what == "drop-empty" and not line:
        lines.pop(i)
        return "\n".join(lines)
    elif what == "deps" and line.count("\t") == 9:
        cols = line.split("\t")
        cols[8] = rng.choice(["_", "0:root", "1:dep|1:amod", "2:x", "1:dep|0:root", "1.1:dep",
                              "1:obl:on_top_of", "1:Dep", "1"])
        line = "\t".join(cols)
    elif what == "comment":
        lines.insert(i, rng.choice(["# newdoc", "# parallel_id = a/b", "# text = x",
                                    "#sent_id=s9", "# sent_id = a/b/c", "# newpar id = p"]))
    lines[i] = line if i < len(lines) else line
    return "\n".join(lines)


def _incidents(data: bytes, level: int, screened: bool, monkeypatch, block: int):
    monkeypatch.setattr(screen_module, "AVAILABLE", screened)
    monkeypatch.setattr(screen_module, "BLOCK_BYTES", block)
    # a sentence longer than the block held whole for the screen for half the files, cut for
    # the line-by-line path for the others
    monkeypatch.setattr(screen_module, "SENTENCE_BYTES", (0, 1 << 26)[len(data) % 2])
    options = {"lang": "en", "data_dir": UD_DATA} if level >= 4 else {}
    try:
        return [dataclasses.astuple(inc) for inc in validate_bytes(data, "f", level, **options)]
    except InputError as error:  # e.g. corrupt compressed data: raised, as documented
        return [("raised", error.code)]


def _compare(data: bytes, level: int, monkeypatch, block: int = 1 << 20) -> None:
    fast = _incidents(data, level, True, monkeypatch, block)
    slow = _incidents(data, level, False, monkeypatch, block)
    assert fast == slow


def _file(rng: random.Random, n_mutations: int) -> bytes:
    enhanced = rng.random() < 0.4  # all sentences or none (edeps-only-sometimes)
    parallel = rng.choice(["", "", "valid", "random"])
    text = "".join(_sentence(rng, k, enhanced, parallel) for k in range(rng.randint(1, 12)))
    for _ in range(n_mutations):
        text = _mutate(rng, text)
    return text.encode("utf-8", "surrogatepass")


@pytest.mark.parametrize("seed", range(120))
def test_screen_changes_nothing_on_generated_files(seed, monkeypatch):
    rng = random.Random(seed)
    data = _file(rng, rng.choice([0, 0, 1, 1, 2, 4]))
    levels = [1, 2, 3] + ([4, 5] if UD_DATA is not None and seed % 2 == 0 else [])
    for level in levels:
        _compare(data, level, monkeypatch, block=rng.choice([1, 64, 300, 1 << 20]))


def test_generated_valid_files_pass_the_screen(monkeypatch):
    """The generator's unbroken files are valid at level 2, and the screen passes most of
    their sentences (else the comparisons above would test little)."""
    rng = random.Random(7)
    data = "".join(_sentence(rng, k, k < 100) for k in range(100)).encode()
    data += "".join(_sentence(rng, k, False) for k in range(100, 200)).encode()
    assert len(_incidents(data, 2, False, monkeypatch, 1 << 20)) == 1  # edeps-only-sometimes
    data = "".join(_sentence(rng, k, True) for k in range(100)).encode()
    data += "".join(_sentence(rng, k, True, "valid" if k % 3 else "") for k in range(100, 200)).encode()
    assert _incidents(data, 2, False, monkeypatch, 1 << 20) == []
    screen = screen_module.Screen.__new__(screen_module.Screen)
    screen.verdicts = [screen_module._Verdicts(judge) for judge in screen_module._JUDGES]
    screen.scratch = {}
    found = screen._screen(data)
    clean = ~screen._bad_sentences(found)
    assert found["n_sentences"] == 200 and clean.sum() >= 190


@pytest.mark.slow  # CI's stage two: every tenth seed
@pytest.mark.parametrize("seed", [pytest.param(s, marks=pytest.mark.ci_stage2) if s % 10 == 0 else s
                                  for s in range(120, 2120)])
def test_screen_changes_nothing_on_many_generated_files(seed, monkeypatch):
    rng = random.Random(seed)
    data = _file(rng, rng.choice([0, 1, 1, 2, 3, 6]))
    for level in (2, 3) + ((5,) if UD_DATA is not None else ()):
        _compare(data, level, monkeypatch, block=rng.choice([1, 64, 300, 1 << 20]))


@pytest.mark.skipif(not os.path.isdir(SHARED_UD), reason="../shared/ud is not there")
@pytest.mark.parametrize("path", sorted(glob.glob(os.path.join(SHARED_UD, "*", "*.conllu")))[:6],
                         ids=lambda p: "/".join(p.split(os.sep)[-2:]))
def test_screen_changes_nothing_on_shared_treebanks(path, monkeypatch):
    with open(path, "rb") as f:
        data = f.read()
    for level in (2, 3):
        _compare(data, level, monkeypatch)


@pytest.mark.parametrize("seed", range(40))
def test_nfc_check_by_line_agrees_with_unicodedata(seed):
    """The screen's NFC check looks only at lines with a code point from U+0300 on."""
    import unicodedata
    rng = random.Random(seed)
    alphabet = ["a", "e", "\u00e9", "\u0301", "\u0308", "\u00c5", "\u212b", "\u1100", "\u1161",
                "\uac00", "\u304b", "\u3099", "\u8349", "\u05d0", "\u05b8", " ", "\t", "\u0300"]
    lines = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 6)))
             for _ in range(rng.randint(1, 8))]
    expected = all(unicodedata.is_normalized("NFC", line) for line in lines)
    assert screen_module._normalized("\n".join(lines).encode("utf-8")) == expected


FRAGMENTS = [b"1\t", b"2\t", b"1-2\t", b"1.1\t", b"0\t", b"_\t", b"a\t", b"NOUN\t", b"root\t",
             b"0:root\t", b"SpaceAfter=No", b"\n", b"\n\n", b"# sent_id = a\n", b"# text = a\n",
             b"# parallel_id = a/b\n", b"# newpar\n", b"\t", b" ", b"\xc3\xa9", b"\xff",
             b"e\xcc\x81", b"\r", b"\x00", b"|", b":", b"=", b"Case=Nom"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.binary(max_size=400),
                 st.lists(st.sampled_from(FRAGMENTS), max_size=80).map(b"".join)),
       st.sampled_from([1, 2, 3, 5]), st.sampled_from([1, 50, 1 << 20]))
def test_hostile_bytes_through_the_screen(data, level, block):
    """Any bytes: no exception through the screen, and the same incidents as without it."""
    if level >= 4 and UD_DATA is None:
        level = 3
    with pytest.MonkeyPatch.context() as monkeypatch:
        _compare(data + b"1\ta\ta\tX\t_\t_\t0\troot\t_\t_\n\n", level, monkeypatch, block)
        _compare(data, level, monkeypatch, block)


@pytest.mark.parametrize("seed", range(30))
def test_tables_starting_afresh_change_nothing(seed, monkeypatch):
    """With tiny limits the value tables and verdicts start afresh block after block (as a
    column of unique values makes them do on a large file): the same incidents."""
    from conll_eval.validate import screen_content
    monkeypatch.setattr(screen_module, "TABLE_LIMIT", 2)
    monkeypatch.setattr(screen_content, "VERDICTS_LIMIT", 2)
    rng = random.Random(1000 + seed)
    data = _file(rng, rng.choice([0, 0, 1, 2]))
    for level in (2, 3) + ((5,) if UD_DATA is not None else ()):
        _compare(data, level, monkeypatch, block=rng.choice([1, 64, 300]))


def test_code_properties_follow_a_new_table():
    """A table that starts afresh gives new codes: the properties are rebuilt, not extended."""
    from conll_eval.validate.screen_content import _CodeProperties
    props = _CodeProperties({"root": lambda d: d == "root"})
    first = ["root", "nsubj", "obj"]
    props.update(first)
    assert props["root"].tolist() == [False, True, False, False]  # index 0: no field
    first.append("root")
    props.update(first)
    assert props["root"].tolist() == [False, True, False, False, True]
    props.update(["obj", "root"])  # a new list: new codes
    assert props["root"].tolist() == [False, False, True]

"""--collapse-empty-nodes (issue 26, point 5): conll_eval.empty_nodes against the UD tools'
enhanced_collapse_empty_nodes.pl (expected outputs in testdata/enhanced-collapse, made by
running it; see the README there), its errors, its streaming, and the option in the CLI."""
import io
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from conll_eval import empty_nodes
from conll_eval.empty_nodes import collapse_empty_nodes, iter_collapsed
from conll_eval.reader import load_collapsed, load_source
from conll_eval.errors import InputError
from conll_eval.metrics import METRICS
from conll_eval.reader import load

from helpers import run_cli

DATA = Path(__file__).resolve().parent.parent / "testdata" / "enhanced-collapse"
CASES = sorted(p.name for p in (DATA / "input").glob("*.conllu"))


def row(text: str) -> str:
    """A CoNLL-U line from space-separated columns."""
    columns = text.split()
    assert len(columns) == 10, text
    return "\t".join(columns) + "\n"


def sentence(*rows: str) -> bytes:
    return ("".join(row(r) for r in rows) + "\n").encode("utf-8")


GAPPING = sentence(
    "1 Mary Mary PROPN _ _ 2 nsubj 2:nsubj _",
    "2 won win VERB _ _ 0 root 0:root _",
    "3 gold gold NOUN _ _ 2 obj 2:obj _",
    "4 and and CCONJ _ _ 5 cc 4.1:cc _",
    "4.1 won win VERB _ _ _ _ 2:conj:and _",
    "5 Peter Peter PROPN _ _ 2 conj 4.1:nsubj _",
    "6 silver silver NOUN _ _ 5 orphan 4.1:obj _",
)


def deps(data: bytes) -> dict:
    """word ID -> DEPS of every node line (the last sentence's wins)."""
    return {line.split(b"\t")[0].decode(): line.split(b"\t")[8].decode()
            for line in data.splitlines() if line[:1].isdigit()}


@pytest.mark.parametrize("name", CASES)
def test_matches_the_perl_script(name):
    collapsed = collapse_empty_nodes((DATA / "input" / name).read_bytes())
    assert collapsed == (DATA / "expected" / name).read_bytes()


def test_gapping_one_empty_node():
    out = deps(collapse_empty_nodes(GAPPING))
    assert "4.1" not in out
    assert out == {"1": "2:nsubj", "2": "0:root", "3": "2:obj", "4": "2:conj:and>cc",
                   "5": "2:conj:and>nsubj", "6": "2:conj:and>obj"}


def test_gapping_several_empty_nodes_each_its_own_paths():
    out = deps(collapse_empty_nodes((DATA / "input" / "gapping-several.conllu").read_bytes()))
    assert out["5"] == "2:conj>nsubj" and out["9"] == "2:conj:and>nsubj"
    assert out["7"] == "2:conj:and>punct" and out["4"] == "2:conj>punct"
    assert not [k for k in out if "." in k]


def test_chain_of_empty_nodes_gives_the_whole_path():
    data = sentence(
        "1 a a X _ _ 0 root 0:root _",
        "1.1 b b X _ _ _ _ 1:conj _",
        "1.2 c c X _ _ _ _ 1.1:xcomp _",
        "1.3 d d X _ _ _ _ 1.2:ccomp _",
        "2 e e X _ _ 1 obj 1.3:obj|1:dep _",
    )
    assert deps(collapse_empty_nodes(data))["2"] == "1:conj>xcomp>ccomp>obj|1:dep"


def test_empty_node_with_several_parents_gives_one_edge_per_path():
    data = sentence(
        "1 a a X _ _ 0 root 0:root _",
        "2 b b X _ _ 1 dep 1:dep _",
        "2.1 c c X _ _ _ _ 1:conj|2:acl _",
        "3 d d X _ _ 1 obj 2.1:obj _",
    )
    assert deps(collapse_empty_nodes(data))["3"] == "1:conj>obj|2:acl>obj"


def test_a_repeated_edge_is_written_once_and_deps_are_sorted():
    data = sentence(
        "1 a a X _ _ 0 root 0:root _",
        "1.1 c c X _ _ _ _ 1:conj _",
        "2 d d X _ _ 1 obj 1.1:obj|1:obj|1:conj>obj|1:obj _",
    )
    assert deps(collapse_empty_nodes(data))["2"] == "1:conj>obj|1:obj"


def test_file_without_empty_nodes_is_returned_as_it_is():
    # not in the script's normal form (FEATS and DEPS unsorted, CRLF): still untouched
    data = (row("1 a a X _ Number=Sing|Case=Nom 0 root 0:root|0:dep _").replace("\n", "\r\n")
            + "\r\n").encode()
    assert collapse_empty_nodes(data) is data
    assert b"".join(iter_collapsed(io.BytesIO(data).read)) == data


def test_sentences_without_empty_nodes_stay_byte_identical_beside_collapsed_ones():
    plain = (row("1 a a X _ Number=Sing|Case=Nom 0 root 0:root|0:dep _") + "\n").encode()
    crlf = plain.replace(b"\n", b"\r\n")
    data = plain + GAPPING + crlf + GAPPING.replace(b"\n", b"\r\n") + plain
    out = collapse_empty_nodes(data)
    assert out.startswith(plain + collapse_empty_nodes(GAPPING) + crlf)
    assert out.endswith(collapse_empty_nodes(GAPPING).replace(b"\n", b"\r\n") + plain)


@pytest.mark.parametrize("chunk", [1, 2, 3, 7, 64, 1 << 20])
def test_streaming_in_any_chunks_gives_the_same_bytes(monkeypatch, chunk):
    data = b"".join((DATA / "input" / name).read_bytes() for name in CASES) * 3
    data += GAPPING.replace(b"\n", b"\r\n")
    monkeypatch.setattr(empty_nodes, "CHUNK_BYTES", chunk)
    assert b"".join(iter_collapsed(io.BytesIO(data).read)) == collapse_empty_nodes(data)


def test_streaming_keeps_at_most_a_chunk_and_a_sentence(monkeypatch):
    monkeypatch.setattr(empty_nodes, "CHUNK_BYTES", 4096)
    data = GAPPING * 2000
    biggest = max(len(piece) for piece in iter_collapsed(io.BytesIO(data).read))
    assert biggest < 4096 + 2 * len(GAPPING)


def hostile(*rows: str, before: bytes = b"") -> bytes:
    return before + sentence(*rows)


#: (empty nodes in a cycle are no error: they are scored as the script collapses them, with
#: a warning; see tests/test_empty_node_cycles.py)
HOSTILE = {
    "3.0 id": (["1 a a X _ _ 0 root 0:root _", "1.0 b b X _ _ _ _ 1:conj _"],
               "empty-node-id", 2),
    "3.x id": (["1 a a X _ _ 0 root 0:root _", "1.x b b X _ _ _ _ 1:conj _"],
               "empty-node-id", 2),
    "leading zero": (["1 a a X _ _ 0 root 0:root _", "1.01 b b X _ _ _ _ 1:conj _"],
                     "empty-node-id", 2),
    "unknown word head": (["1 a a X _ _ 0 root 0:root _", "1.1 b b X _ _ _ _ 7:conj _"],
                          "deps-head-out-of-range", 2),
    "unknown empty head": (["1 a a X _ _ 0 root 0:root|1.2:dep _", "1.1 b b X _ _ _ _ 1:conj _"],
                           "unknown-empty-node", 1),
    "bad head": (["1 a a X _ _ 0 root 0:root _", "1.1 b b X _ _ _ _ x:conj _"],
                 "invalid-deps-head", 2),
    "empty relation": (["1 a a X _ _ 0 root 0:root _", "1.1 b b X _ _ _ _ 1: _"],
                       "invalid-deps", 2),
    "duplicate": (["1 a a X _ _ 0 root 0:root _", "1.1 b b X _ _ _ _ 1:conj _",
                   "1.1 b b X _ _ _ _ 1:conj _"], "duplicate-node-id", 3),
}


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_malformed_empty_nodes_are_located_errors(case, tmp_path):
    rows, code, line = HOSTILE[case]
    before = GAPPING  # 8 lines: the error's line counts them
    data = before + sentence(*rows)
    with pytest.raises(InputError) as caught:
        collapse_empty_nodes(data, "x.conllu")
    assert caught.value.code == code
    assert caught.value.location.line == 8 + line
    path = tmp_path / "gold.conllu"
    path.write_bytes(data)
    status, out, err = run_cli("score", "--collapse-empty-nodes", path, path)
    assert status == 1 and out == ""
    assert err.startswith(f"{path}:{8 + line}: error [{code}] ") and "Traceback" not in err


def test_an_empty_node_line_with_missing_columns_is_an_error():
    data = GAPPING.replace(b"4.1\twon\twin\tVERB\t_\t_\t_\t_\t2:conj:and\t_",
                           b"4.1\twon\twin\tVERB\t_\t_\t_\t_\t2:conj:and")
    with pytest.raises(InputError) as caught:
        collapse_empty_nodes(data)
    assert (caught.value.code, caught.value.location.line) == ("wrong-column-count", 5)


def test_reading_collapsed_keeps_the_original_line_numbers(tmp_path):
    # a HEAD out of range two sentences after the empty node: the error (its line, the
    # line in its message, the official text) is the one reading the file as it is gives
    bad = sentence("1 x x X _ _ 0 root 0:root _", "2 y y X _ _ 9 dep 1:dep _")
    path = tmp_path / "f.conllu"
    path.write_bytes(GAPPING + b"# sent_id = 2\n" + sentence("1 z z X _ _ 0 root 0:root _") + bad)
    with pytest.raises(InputError) as collapsed:
        load_collapsed(str(path))
    with pytest.raises(InputError) as plain:
        load(str(path))
    assert collapsed.value.location.line == 14
    assert str(collapsed.value) == str(plain.value)
    assert collapsed.value.official == plain.value.official
    path.write_bytes(GAPPING + sentence("1 z z X _ _ 0 root 0:root _"))
    treebank = load_collapsed(str(path))
    assert treebank.word_line.tolist() == load(str(path)).word_line.tolist() == [1, 2, 3, 4, 6, 7, 9]
    assert treebank.sent_end_line.tolist() == load(str(path)).sent_end_line.tolist()


def test_a_compressed_file_and_stdin_like_streams_are_collapsed(tmp_path):
    import gzip
    path = tmp_path / "g.conllu.gz"
    path.write_bytes(gzip.compress(GAPPING))
    treebank = load_collapsed(str(path))
    stream = io.BytesIO(GAPPING)
    stream.name = "-"
    assert treebank.vocab.strings[treebank.deps[-1]] == "2:conj:and>obj"
    other = load_collapsed(stream)
    assert other.vocab.strings[other.deps[-1]] == "2:conj:and>obj"


needs_elas = pytest.mark.skipif("ELAS" not in METRICS, reason="ELAS not registered")


@needs_elas
def test_cli_option_scores_collapsed_gold_against_collapsed_system(tmp_path):
    gold = DATA / "input" / "gapping-one.conllu"
    system = tmp_path / "system.conllu"
    # the system wrote its paths collapsed already, one of the three wrong
    text = (DATA / "expected" / "gapping-one.conllu").read_text()
    system.write_text(text.replace("2:conj:and>obj", "2:conj:and>iobj"))
    _, plain, _ = run_cli("score", "--metrics", "ELAS", "--format", "json", gold, system)
    status, out, err = run_cli("score", "--collapse-empty-nodes", "--metrics", "ELAS",
                               "--format", "json", gold, system)
    assert status == 0, err
    before, after = json.loads(plain), json.loads(out)
    assert "empty:collapsed" in after["signature"] and "empty" not in before["signature"]
    score, old = after["metrics"]["ELAS"], before["metrics"]["ELAS"]
    # 11 words' edges in gold (2 sentences), one of them wrong in the system
    assert (score["correct"], score["gold"], score["system"]) == (10, 11, 11)
    # without collapsing, the gold edges through the empty node are not scored
    assert old["gold"] < 11 and old["recall"] > score["recall"]


@needs_elas
@pytest.mark.parametrize("command", ["compare", "report", "suite"])
def test_every_scoring_command_collapses(command, tmp_path):
    gold = DATA / "input" / "gapping-one.conllu"
    system = tmp_path / "system.conllu"
    shutil.copy(DATA / "expected" / "gapping-one.conllu", system)
    if command == "suite":
        gold_dir, system_dir = tmp_path / "gold", tmp_path / "sys"
        gold_dir.mkdir(), system_dir.mkdir()
        shutil.copy(gold, gold_dir / "en_test-ud-test.conllu")
        shutil.copy(system, system_dir / "en_test-ud-test.conllu")
        argv = ["suite", "--collapse-empty-nodes", "--metrics", "ELAS", "--format", "json",
                gold_dir, system_dir]
    elif command == "compare":
        argv = ["compare", "--collapse-empty-nodes", "--metrics", "ELAS", "--resamples", "20",
                "--names", "a,b", "--format", "json", gold, system, system]
    else:
        argv = ["report", "--collapse-empty-nodes", "-o", tmp_path / "r.html", gold, system]
    status, out, err = run_cli(*argv)
    assert status == 0, err
    text = out if command != "report" else (tmp_path / "r.html").read_text()
    assert "empty:collapsed" in text


def test_breakdown_has_the_option(tmp_path):
    gold = DATA / "input" / "gapping-one.conllu"
    status, out, err = run_cli("breakdown", "--collapse-empty-nodes", "--format", "json",
                               gold, DATA / "expected" / "gapping-one.conllu")
    assert status == 0, err
    assert "empty:collapsed" in out


@pytest.mark.slow
@pytest.mark.ci_stage2
@pytest.mark.skipif(not os.environ.get("UD_TOOLS") or not shutil.which("perl"),
                    reason="$UD_TOOLS (a UniversalDependencies/tools checkout) and perl needed")
@pytest.mark.parametrize("name", CASES)
def test_against_the_script_itself(name):
    script = Path(os.environ["UD_TOOLS"]) / "enhanced_collapse_empty_nodes.pl"
    data = (DATA / "input" / name).read_bytes()
    done = subprocess.run(["perl", str(script)], input=data, capture_output=True, check=True)
    assert collapse_empty_nodes(data) == done.stdout


def test_load_source_collapses_a_path_object(tmp_path):
    """``load_source(pathlib.Path, collapse=True)`` reads the file (a PathLike is a path)."""
    source = DATA / "input" / "gapping-one.conllu"  # a pathlib.Path
    by_path = load_source(source, collapse=True)
    by_name = load_source(str(source), collapse=True)
    assert by_path.n_words == by_name.n_words and by_path.n_words > 0
    assert by_path.path == str(source)

"""Empty nodes in a cycle under --collapse-empty-nodes (issue 41, point 3.0): scored as the
official pipeline scores them (enhanced_collapse_empty_nodes.pl, then the IWPT 2020 scorer),
byte for byte on stdout, with one warning per file on stderr counting the cyclic paths the
script left unused.

The expected outputs in testdata/empty-node-cycles/expected were made by running the pipeline
on the hand-written inputs there (see its README):

    perl $UD_TOOLS/enhanced_collapse_empty_nodes.pl input/NAME-gold.conllu > expected/NAME-gold.conllu
    perl $UD_TOOLS/enhanced_collapse_empty_nodes.pl input/NAME-system.conllu > expected/NAME-system.conllu
    python iwpt20_ud_eval.py -v expected/NAME-gold.conllu expected/NAME-system.conllu > expected/NAME.txt

and the counts below are how many ``Cyclic enhanced path will not be used to construct longer
paths`` lines the script wrote on stderr for each system file.
"""
import io
import json
import os
import re
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from conll_eval import empty_nodes
from conll_eval.empty_nodes import collapse_empty_nodes, iter_collapsed
from conll_eval.errors import InputError, InputWarning
from conll_eval.evaluate import Settings, evaluate_files
from conll_eval.reader import load_collapsed
from conll_eval.suite import SuiteEntry, score_entries

from helpers import run_cli

DATA = Path(__file__).resolve().parent.parent / "testdata" / "empty-node-cycles"
INPUT, EXPECTED = DATA / "input", DATA / "expected"

#: case -> (cyclic paths the script reported for its system file, in how many sentences, the
#: empty node its first such line passes twice, that node's line, its sentence's sent_id)
CYCLES = {"two-cycle": (5, 1, "4.1", 7, 1), "three-cycle": (17, 1, "4.2", 8, 1),
          "path-into-cycle": (5, 1, "4.1", 7, 1), "beside-normal": (8, 2, "4.2", 27, 3),
          "cycle-through-word": (0, 0, None, None, None)}
#: the ELAS F1 the pipeline printed (EULAS: the same here), worked by hand from the collapsed
#: files as a check of them (gold: 6 edges a sentence, every one also in gold's collapsed form):
#: two-cycle: 4 and 6 lose their only edges (just cyclic paths reach them), 5 keeps 2:conj
#:   (gold 2:conj:and>nsubj): 3 correct of 4 system, 6 gold edges -> P 75, R 50, F1 60.00;
#: three-cycle: the same with 2:conj:and on 5 -> 60.00;
#: path-into-cycle: the script also keeps 2:conj:and>dep>dep>cc and ...>nsubj (a path from a
#:   word to a word may pass a node twice) and gives 6 2:conj:and>dep>obj: 5 correct of 8
#:   system edges -> P 62.50, R 83.33, F1 71.43;
#: cycle-through-word: 6:dep>cc, 6:dep>nsubj, 6:dep>obj added: 6 correct of 9 -> F1 80.00;
#: beside-normal: 24 gold edges, 23 system edges (6 of the third sentence lost), all correct
#:   -> P 100, R 95.83, F1 97.87.
ELAS_F1 = {"two-cycle": "60.00", "three-cycle": "60.00", "path-into-cycle": "71.43",
           "cycle-through-word": "80.00", "beside-normal": "97.87"}
CASES = sorted(CYCLES)
PATHS = (("compiled", {}), ("pure", {"CONLL_EVAL_PURE": "1"}))


def gold(case: str) -> Path:
    return INPUT / f"{case}-gold.conllu"


def system(case: str) -> Path:
    return INPUT / f"{case}-system.conllu"


def expected_warning(path, case: str) -> str:
    """The one stderr line for ``case``'s system file (read from ``path``)."""
    count, sentences, node, line, sent_id = CYCLES[case]
    return (f"{path}:{line}: warning [empty-node-cycle] {count} paths through empty nodes in "
            f"{sentences} sentence{'s' if sentences > 1 else ''} run in a cycle: as "
            "enhanced_collapse_empty_nodes.pl does, they are not used to build longer paths "
            "(edges reached only through them are not scored); the first passes the empty "
            f"node '{node}' twice (sent_id={sent_id})\n")


def cycle_lines(err: str):
    return [line + "\n" for line in err.splitlines() if "[empty-node-cycle]" in line]


def test_the_expected_files_hold_the_hand_worked_scores():
    for case in CASES:
        text = (EXPECTED / f"{case}.txt").read_text()
        assert re.search(rf"^ELAS +\|.*\| +{re.escape(ELAS_F1[case])} \|", text, re.M), case


@pytest.mark.parametrize("case", CASES)
def test_collapsed_bytes_are_the_scripts(case):
    for side in ("gold", "system"):
        data = (INPUT / f"{case}-{side}.conllu").read_bytes()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", InputWarning)
            collapsed = collapse_empty_nodes(data)
        assert collapsed == (EXPECTED / f"{case}-{side}.conllu").read_bytes()


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("path_name,env", PATHS, ids=[p[0] for p in PATHS])
def test_cli_prints_the_pipelines_scores_and_warns_once_per_file(case, path_name, env):
    """Both cores, in a fresh process each (``CONLL_EVAL_PURE`` is read at start-up)."""
    done = subprocess.run([sys.executable, "-m", "conll_eval", "--profile", "iwpt",
                           "--collapse-empty-nodes", "-v", str(gold(case)), str(system(case))],
                          env={**os.environ, **env}, capture_output=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout == (EXPECTED / f"{case}.txt").read_bytes()
    err = done.stderr.decode()
    assert "Traceback" not in err
    assert cycle_lines(err) == ([expected_warning(system(case), case)] if CYCLES[case][0] else [])


def test_default_lines_and_quiet(tmp_path):
    case = "path-into-cycle"
    status, out, err = run_cli("--profile", "iwpt", "--collapse-empty-nodes", gold(case), system(case))
    assert status == 0
    assert out.endswith(f"ELAS F1 Score: {ELAS_F1[case]}\nEULAS F1 Score: {ELAS_F1[case]}\n")
    assert err == expected_warning(system(case), case)
    status, out, err = run_cli("-q", "--profile", "iwpt", "--collapse-empty-nodes", gold(case),
                               system(case))
    assert (status, out, err) == (0, "", "")


def test_both_files_with_cycles_warn_once_each_and_json_is_unchanged(tmp_path):
    case = "two-cycle"
    status, out, err = run_cli("--profile", "iwpt", "--collapse-empty-nodes", "--format", "json",
                               system(case), system(case))
    assert status == 0
    assert cycle_lines(err) == [expected_warning(system(case), case)] * 2
    assert json.loads(out)["metrics"]["ELAS"]["f1"] == 1.0


def test_without_collapsing_nothing_warns():
    status, _, err = run_cli("--profile", "iwpt", gold("two-cycle"), system("two-cycle"))
    assert status == 0 and "[empty-node-cycle]" not in err


def test_strict_refuses_what_the_validator_refuses_and_warns_for_the_rest():
    """--strict validates first (levels 1-2): a cycle nothing reaches from the root is the UD
    validator's unconnected-egraph; a cycle reached from a word is valid UD and scores."""
    status, out, err = run_cli("--strict", "--profile", "iwpt", "--collapse-empty-nodes",
                               gold("two-cycle"), system("two-cycle"))
    assert status == 1 and out == ""
    assert "[L2 enhanced unconnected-egraph]" in err and "[empty-node-cycle]" not in err
    case = "path-into-cycle"
    status, out, err = run_cli("--strict", "--profile", "iwpt", "--collapse-empty-nodes",
                               gold(case), system(case))
    assert status == 0 and f"ELAS F1 Score: {ELAS_F1[case]}" in out
    assert err == expected_warning(system(case), case)


@pytest.mark.parametrize("command", ["suite", "breakdown", "compare", "report"])
def test_every_collapsing_command_warns(command, tmp_path):
    case = "beside-normal"
    if command == "suite":
        gold_dir, system_dir = tmp_path / "gold", tmp_path / "sys"
        gold_dir.mkdir(), system_dir.mkdir()
        shutil.copy(gold(case), gold_dir / "en_test-ud-test.conllu")
        shutil.copy(system(case), system_dir / "en_test-ud-test.conllu")
        shown = system_dir / "en_test-ud-test.conllu"
        argv = ["suite", "--profile", "iwpt", "--collapse-empty-nodes", "--format", "json",
                gold_dir, system_dir]
    elif command == "breakdown":
        shown, argv = system(case), ["breakdown", "--collapse-empty-nodes", gold(case), system(case)]
    elif command == "compare":
        shown = system(case)
        argv = ["compare", "--collapse-empty-nodes", "--metrics", "ELAS", "--resamples", "20",
                gold(case), system(case), gold(case)]
    else:
        shown = system(case)
        argv = ["report", "--collapse-empty-nodes", "-o", tmp_path / "r.html", gold(case), system(case)]
    status, out, err = run_cli(*argv)
    assert status == 0, err
    assert cycle_lines(err) == [expected_warning(shown, case)]
    if command == "suite":
        elas = json.loads(out)["treebanks"][0]["metrics"]["ELAS"]
        assert (elas["correct"], elas["gold"], elas["system"]) == (23, 24, 23)
        assert f"{100 * elas['f1']:.2f}" == ELAS_F1[case]


def test_suite_with_worker_processes_warns_once_per_file(tmp_path):
    gold_dir, system_dir = tmp_path / "gold", tmp_path / "sys"
    gold_dir.mkdir(), system_dir.mkdir()
    names = {case: f"x{case.replace('-', '')}_t-ud-test.conllu" for case in CASES}
    for case, name in names.items():
        shutil.copy(gold(case), gold_dir / name)
        shutil.copy(system(case), system_dir / name)
    done = subprocess.run([sys.executable, "-m", "conll_eval", "suite", "--profile", "iwpt",
                           "--collapse-empty-nodes", "--jobs", "2", str(gold_dir), str(system_dir)],
                          capture_output=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert sorted(cycle_lines(done.stderr.decode())) == sorted(
        expected_warning(system_dir / names[case], case) for case in CASES if CYCLES[case][0])


# ------------------------------------------------------------------------------ the API
def test_api_evaluate_files_warns_once_per_file():
    case = "beside-normal"
    settings = Settings("iwpt", collapse_empty_nodes=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        evaluation = evaluate_files(str(gold(case)), str(system(case)), settings=settings)
    assert f"{100 * evaluation.scores['ELAS'].f1:.2f}" == ELAS_F1[case]
    found = [w.message for w in caught if issubclass(w.category, InputWarning)]
    assert [str(w) + "\n" for w in found] == [expected_warning(system(case), case)]
    assert found[0].code == "empty-node-cycle" and found[0].location.line == 27
    assert found[0].incident.severity == "warning"


def test_api_suite_scores_and_warns(tmp_path):
    case = "three-cycle"
    entry = SuiteEntry("en_test", str(gold(case)), str(system(case)), "en")
    with pytest.warns(InputWarning, match=r"\[empty-node-cycle\] 17 paths"):
        (result,) = score_entries([entry], Settings("iwpt", collapse_empty_nodes=True))
    assert result.failure is None
    assert f"{100 * result.scores['ELAS'].f1:.2f}" == ELAS_F1[case]


def test_api_warning_can_be_made_an_error():
    """A caller that wants no file with cyclic paths turns the warning into an exception."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", InputWarning)
        with pytest.raises(InputWarning, match="empty-node-cycle"):
            load_collapsed(str(system("two-cycle")), "iwpt")


def test_a_stream_warns_once_though_read_twice(monkeypatch):
    """A stream the scan hands over is collapsed twice (errors first, then the exact parser):
    still one warning, with the first pass's count."""
    data = system("beside-normal").read_bytes()
    stream = io.BytesIO(data)
    stream.name = "-"
    monkeypatch.setattr("conll_eval.io.conllu.scan_stream", lambda *a, **k: None)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        treebank = load_collapsed(stream, "iwpt")
    assert treebank.n_words == 24
    assert [str(w.message) + "\n" for w in caught] == [
        expected_warning("-", "beside-normal")]


def test_the_streaming_collapse_counts_as_the_whole_one(monkeypatch):
    data = system("beside-normal").read_bytes() * 3
    monkeypatch.setattr(empty_nodes, "CHUNK_BYTES", 7)
    cyclic = empty_nodes.CyclicPaths("x")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # iter_collapsed itself never warns
        streamed = b"".join(iter_collapsed(io.BytesIO(data).read, "x", cyclic=cyclic))
    assert (cyclic.count, cyclic.sentences, cyclic.first.line) == (24, 6, 27)
    with pytest.warns(InputWarning, match="24 paths through empty nodes in 6 sentences"):
        assert collapse_empty_nodes(data, "x") == streamed


def test_an_error_elsewhere_in_the_file_comes_without_the_warning(tmp_path):
    path = tmp_path / "bad.conllu"
    path.write_bytes(system("two-cycle").read_bytes() + b"1\tx\tx\tX\t_\t_\t0\troot\t0:root\n\n")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(InputError):
            load_collapsed(str(path), "iwpt")
    status, out, err = run_cli("--profile", "iwpt", "--collapse-empty-nodes", path, path)
    assert status == 1 and out == "" and "[empty-node-cycle]" not in err


# ------------------------------------------------------------------------- the path limit
def _complete(k: int) -> bytes:
    """A sentence whose ``k`` empty nodes all head each other: their paths grow as k!."""
    ids = [f"1.{i}" for i in range(1, k + 1)]
    rows = ["1\ta\ta\tX\t_\t_\t0\troot\t0:root\t_"]
    rows += [f"{e}\tb\tb\tX\t_\t_\t_\t_\t{'|'.join(['1:conj'] + [f'{o}:dep' for o in ids if o != e])}\t_"
             for e in ids]
    rows.append("2\tc\tc\tX\t_\t_\t1\tobj\t" + "|".join(f"{e}:obj" for e in ids) + "\t_")
    return ("# sent_id = k\n" + "\n".join(rows) + "\n\n").encode()


def test_too_many_paths_in_a_sentence_is_a_located_error(tmp_path, monkeypatch):
    with pytest.warns(InputWarning):
        collapse_empty_nodes(_complete(4))  # within the limit: collapsed, with the warning
    path = tmp_path / "k.conllu"
    path.write_bytes(_complete(3) + _complete(12))
    with pytest.raises(InputError) as caught:
        collapse_empty_nodes(path.read_bytes(), str(path))
    assert (caught.value.code, caught.value.location.line) == ("too-many-empty-node-paths", 10)
    status, out, err = run_cli("--profile", "iwpt", "--collapse-empty-nodes", path, path)
    assert status == 1 and out == "" and "Traceback" not in err
    # at the sentence's first empty node; the limit there: 1,000,000 and 100 per DEPS edge
    # (146: the script takes 1.1 and 1.10 for one head when it drops repeated DEPS items)
    assert err.startswith(f"{path}:10: error [too-many-empty-node-paths] the paths through the "
                          "empty nodes of this sentence have more than 1,014,600 nodes in all (the "
                          "limit: CONLL_EVAL_MAX_COLLAPSED_PATH_NODES, 1,000,000, and 100 per "
                          "enhanced edge) (sent_id=k)\n")
    monkeypatch.setattr(empty_nodes, "MAX_COLLAPSED_PATH_NODES", 10)
    monkeypatch.setattr(empty_nodes, "COLLAPSED_PATH_NODES_PER_EDGE", 0)
    with pytest.raises(InputError, match="more than 10 nodes"):
        collapse_empty_nodes(_complete(3))


def test_a_long_sentence_is_never_refused_for_its_length():
    """The limit grows with the sentence's edges: 200,000 words under one empty node (200,000
    paths of 3 nodes) collapse."""
    rows = ["1\ta\ta\tX\t_\t_\t0\troot\t0:root\t_", "1.1\te\te\tX\t_\t_\t_\t_\t1:conj\t_"]
    rows += [f"{w}\tb\tb\tX\t_\t_\t1\tobj\t1.1:obj\t_" for w in range(2, 200_002)]
    out = collapse_empty_nodes(("\n".join(rows) + "\n\n").encode())
    assert out.count(b"\t1:conj>obj\t") == 200_000


# ------------------------------------------------------- random cycles against the script
def _random_sentence(r) -> bytes:
    """Words 1..n and empty nodes whose DEPS name words, the root and any empty node (itself
    included): cycles of empty nodes, reached from the root or not."""
    n = r.randint(2, 7)
    empties = [f"{w}.{k}" for w in range(0, n + 1) for k in range(1, r.choice([2, 2, 3, 4]))
               if r.random() < 0.5] or ["1.1"]

    def deps(own_empty=None) -> str:
        heads = [str(h) for h in range(n + 1)] + empties * 2
        items = {f"{r.choice(heads)}:{r.choice(['obj', 'conj', 'dep'])}" for _ in range(r.randint(1, 3))}
        return "|".join(sorted(items, key=lambda i: (empty_nodes._id_key(i.split(':')[0].encode()), i)))
    lines = [f"# sent_id = {r.random()}"]
    for w in range(0, n + 1):
        if w:
            lines.append(f"{w}\tw\tw\tX\t_\t_\t{0 if w == 1 else 1}\tdep\t{deps()}\t_")
        lines += [f"{e}\te\te\tX\t_\t_\t_\t_\t{deps(e)}\t_" for e in empties if e.split(".")[0] == str(w)]
    return ("\n".join(lines) + "\n\n").encode()


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("UD_TOOLS") or not shutil.which("perl"),
                    reason="$UD_TOOLS (a UniversalDependencies/tools checkout) and perl needed")
@pytest.mark.parametrize("seed", range(40))
def test_random_cycles_against_the_script_itself(seed):
    """The collapsed bytes and the count of the script's cyclic-path lines, on 20 random
    sentences a seed."""
    import random
    r = random.Random(seed)
    data = b"".join(_random_sentence(r) for _ in range(20))
    script = Path(os.environ["UD_TOOLS"]) / "enhanced_collapse_empty_nodes.pl"
    done = subprocess.run(["perl", str(script)], input=data, capture_output=True, check=True)
    cyclic = empty_nodes.CyclicPaths("x")
    assert b"".join(iter_collapsed(io.BytesIO(data).read, "x", cyclic=cyclic)) == done.stdout
    assert cyclic.count == done.stderr.count(b"Cyclic enhanced path will not be used")


def test_a_file_read_in_a_background_thread_warns_too(monkeypatch):
    """Large pairs are read in two threads (the system in the background): its warning still
    reaches the command's stderr, once."""
    monkeypatch.setattr(sys.modules["conll_eval.evaluate"], "_parallel_worth_it", lambda paths: True)
    case = "three-cycle"
    status, out, err = run_cli("--profile", "iwpt", "--collapse-empty-nodes", system(case),
                               system(case))
    assert status == 0 and out.endswith("ELAS F1 Score: 100.00\nEULAS F1 Score: 100.00\n")
    assert cycle_lines(err) == [expected_warning(system(case), case)] * 2

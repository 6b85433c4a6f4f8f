"""Publishing (issue 32): ``python -m build`` makes an sdist and a wheel from the working tree;
the wheel carries the compiled modules, the HTML assets, ``py.typed`` and the licence, and no
tests, sources of the compiled core or build leftovers; each installs into a fresh venv and
scores the README's example pair (the sdist also without a compiler, on the numpy path).
Slow: a build and three installs."""
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parent.parent
EXAMPLE = PROJECT / "testdata" / "example"
pytestmark = pytest.mark.slow


def _run(argv, **kwargs):
    return subprocess.run([str(a) for a in argv], capture_output=True, text=True, **kwargs)


@pytest.fixture(scope="module")
def dist(tmp_path_factory):
    """The sdist and the wheel built from a copy of the working tree's files (tracked, and
    new ones git does not ignore)."""
    files = _run(["git", "ls-files", "--cached", "--others", "--exclude-standard"], cwd=PROJECT)
    if files.returncode != 0:
        pytest.skip("not a git checkout")
    tmp = tmp_path_factory.mktemp("build")
    source = tmp / "source"
    for name in files.stdout.split():
        if (PROJECT / name).is_file():
            target = source / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes((PROJECT / name).read_bytes())
    tools = tmp / "tools"
    _run([sys.executable, "-m", "venv", tools], check=True)
    python = tools / "bin" / "python"
    got = _run([python, "-m", "pip", "install", "-q", "build"])
    if got.returncode != 0:
        pytest.skip(f"pip could not install 'build' (no network?): {got.stderr[-300:]}")
    built = _run([python, "-m", "build", "--outdir", tmp / "dist", source])
    assert built.returncode == 0, built.stderr[-3000:]
    wheels = list((tmp / "dist").glob("*.whl"))
    sdists = list((tmp / "dist").glob("*.tar.gz"))
    assert len(wheels) == 1 and len(sdists) == 1
    return wheels[0], sdists[0], tmp


def _install(tmp, name, what, env=None):
    venv = tmp / name
    _run([sys.executable, "-m", "venv", venv], check=True)
    python = venv / "bin" / "python"
    done = _run([python, "-m", "pip", "install", "-q", what], cwd=tmp,
                env={**os.environ, **(env or {})})
    assert done.returncode == 0, done.stderr[-2000:]
    return venv / "bin"


def _scores_the_example(bin_dir, tmp):
    """The console script runs from outside the source tree and scores the example pair."""
    version = _run([bin_dir / "conll_eval", "--version"], cwd=tmp, check=True).stdout
    scored = _run([bin_dir / "conll_eval", EXAMPLE / "gold.conllu", EXAMPLE / "system.conllu"],
                  cwd=tmp)
    assert scored.returncode == 0, scored.stderr
    assert scored.stdout.startswith("LAS F1 Score: ")
    return version


def test_the_wheel_carries_what_runs_and_nothing_else(dist):
    wheel, _, _ = dist
    names = zipfile.ZipFile(wheel).namelist()
    compiled = [n for n in names if n.startswith("conll_eval/_c") and n.endswith((".so", ".pyd"))]
    sources = sorted(p.stem for p in (PROJECT / "conll_eval").glob("_c*.pyx"))
    assert sorted(n.split("/")[1].split(".")[0] for n in compiled) == sources, names
    for wanted in ("conll_eval/py.typed", "conll_eval/report/html/assets/report.js",
                   "conll_eval/report/html/assets/report.css"):
        assert wanted in names
    assert any(n.endswith("LICENSE") for n in names)
    unwanted = [n for n in names if n.startswith(("tests/", "testdata/", "bench/", "build/"))
                or n.endswith((".pyx", ".c", ".o"))]
    assert unwanted == []


def test_the_wheel_installs_and_scores(dist):
    wheel, _, tmp = dist
    bin_dir = _install(tmp, "wheel-venv", wheel)
    version = _scores_the_example(bin_dir, tmp)
    assert "compiled" in version
    _validates_under_both_names(bin_dir, tmp)


def _validates_under_both_names(bin_dir, tmp):
    """``conll-eval-validate`` is ``conll_eval validate`` (the pre-commit hook's meaning:
    nothing printed for a valid file); udvalidate's drop-in is ``conll-eval-udvalidate``."""
    ours = _run([bin_dir / "conll-eval-validate", EXAMPLE / "gold.conllu"], cwd=tmp)
    assert (ours.returncode, ours.stdout, ours.stderr) == (0, "", "")
    theirs = _run([bin_dir / "conll-eval-udvalidate", EXAMPLE / "gold.conllu"], cwd=tmp)
    assert (theirs.returncode, theirs.stdout, theirs.stderr) == (0, "", "*** PASSED ***\n")


def test_the_sdist_ships_the_examples_folder(dist):
    """The README's examples run in examples/ (cd examples): the sdist has it whole."""
    import tarfile
    _, sdist, _ = dist
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    shipped = {path.relative_to(PROJECT).as_posix() for path in (PROJECT / "examples").rglob("*")
               if path.is_file()}
    assert shipped and shipped <= names


def test_the_sdist_installs_with_and_without_a_compiler(dist):
    _, sdist, tmp = dist
    version = _scores_the_example(_install(tmp, "sdist-venv", sdist), tmp)
    assert "compiled" in version
    version = _scores_the_example(_install(tmp, "sdist-nocc-venv", sdist, {"CC": "false"}), tmp)
    assert "core: numpy (the compiled core is not built)" in version

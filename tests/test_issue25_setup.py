"""Setting up: the install the README and ``.ci/run`` share, what ``.gitignore`` keeps out, and
the one place every script and test finds the official scorers (issue 25)."""
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from oracles import oracle_dir

PROJECT = Path(__file__).resolve().parent.parent
SCRIPTS = PROJECT / "scripts"
ORACLE_SCRIPTS = ("conll18_ud_eval.py", "conll17_ud_eval.py", "iwpt20_ud_eval.py", "eval.pl")


def quick_start_commands():
    """The commands of the README's Quick start block (``&&`` chains split, comments dropped)."""
    readme = (PROJECT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"## Quick start\n.*?```sh\n(.*?)```", readme, re.S).group(1)
    commands = []
    for line in block.splitlines():
        line = line.split("#", 1)[0]
        commands += [part.strip() for part in line.split("&&") if part.strip()]
    return commands


def ci_commands():
    lines = (PROJECT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if re.match(r"\s*(python -m )?(pip|pytest)\b|"
                                                        r"\s*python -m pytest", line)]


def test_ci_installs_and_tests_exactly_as_the_readme_says():
    ci = [c for c in ci_commands() if "--ci-stage" not in c]  # stage two: docs/development.md
    assert any(c.startswith("pip install") for c in ci) and "python -m pytest" in ci, ci
    readme = quick_start_commands()
    assert [c for c in ci if c not in readme] == []  # e.g. no extra 'pip install --upgrade pip'


def test_the_quick_starts_virtual_environment_is_ignored_by_git():
    assert ". .venv/bin/activate" in quick_start_commands()
    paths = [".venv/bin/activate", ".venv/lib/python3/site-packages/numpy/__init__.py"]
    probe = subprocess.run(["git", "check-ignore", "--no-index", *paths], cwd=PROJECT,
                           capture_output=True, text=True)
    if probe.returncode == 128:
        pytest.skip(f"not a git checkout: {probe.stderr[:200]}")
    assert probe.stdout.split() == paths  # every one ignored


# ---------------------------------------------------------------------------------------------
# The oracle lookup: $CONLL_EVAL_ORACLES, then ~/.cache/conll_eval-oracles

def _oracle_layout(directory: Path, validator_scripts=("udvalidate",)) -> Path:
    """An oracle directory as the installers leave it: the scripts (the real ones when this
    machine has them), ``wheels/`` and a venv whose bin holds udtools' console scripts."""
    real = oracle_dir()
    (directory / "wheels").mkdir(parents=True)
    for name in ORACLE_SCRIPTS:
        if real is not None and (real / name).is_file():
            (directory / name).symlink_to(real / name)
        else:
            (directory / name).write_text("# placeholder: only the lookup is tested\n")
    bin_dir = directory / "venv" / "bin"
    bin_dir.mkdir(parents=True)
    for name in validator_scripts:
        (bin_dir / name).write_text("#!/bin/sh\nexit 0\n")
        (bin_dir / name).chmod(0o755)
    return directory


@pytest.fixture
def clone(tmp_path):
    """The scripts of a user's clone: no ../shared beside it, nothing else to fall back on."""
    scripts = tmp_path / "clone" / "scripts"
    scripts.mkdir(parents=True)
    for name in ("get_oracles.py", "make_golden.py"):
        shutil.copy(SCRIPTS / name, scripts / name)
    assert not (tmp_path / "shared").exists()
    return scripts


def _lookup(scripts: Path, home: Path, code: str, oracles_env=None):
    env = {k: v for k, v in os.environ.items() if k != "CONLL_EVAL_ORACLES"}
    env["HOME"] = str(home)
    if oracles_env is not None:
        env["CONLL_EVAL_ORACLES"] = str(oracles_env)
    return subprocess.run([sys.executable, "-c", code], cwd=scripts, capture_output=True,
                          text=True, env=env, timeout=120)


FIND_FOR_GOLDEN = "import make_golden; print(make_golden.find_oracles())"


@pytest.mark.parametrize("installer,validator_scripts", [
    ("scripts/get_oracles.py", ("udvalidate",)),
    ("../shared/tools/install-oracles.sh", ("udeval", "udvalidate")),
])
def test_make_golden_finds_the_oracles_where_make_oracles_puts_them(
        tmp_path, clone, installer, validator_scripts):
    """``make oracles`` then ``make golden`` in a clone without ../shared (issue 25): the
    default directory of either installer is found, its UD validator too."""
    home = tmp_path / "home"
    default = _oracle_layout(home / ".cache" / "conll_eval-oracles", validator_scripts)
    result = _lookup(clone, home, FIND_FOR_GOLDEN)
    assert result.returncode == 0, result.stderr
    assert Path(result.stdout.strip()) == default
    validator = _lookup(clone, home, "import get_oracles, pathlib; print(get_oracles."
                                     "find_validator(pathlib.Path(" + repr(str(default)) + ")))")
    assert Path(validator.stdout.strip()) == default / "venv" / "bin" / "udvalidate"


def test_the_environment_variable_comes_first_then_the_default(tmp_path, clone):
    home = tmp_path / "home"
    default = _oracle_layout(home / ".cache" / "conll_eval-oracles")
    chosen = _oracle_layout(tmp_path / "elsewhere")
    code = "import get_oracles; print(get_oracles.find_oracles())"
    assert Path(_lookup(clone, home, code, chosen).stdout.strip()) == chosen
    empty = tmp_path / "empty"
    empty.mkdir()
    assert Path(_lookup(clone, home, code, empty).stdout.strip()) == default


def test_without_oracles_make_golden_says_what_to_run(tmp_path, clone):
    """Nothing installed and nothing fetched (``install=False``): ``--find`` fails clearly."""
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "CONLL_EVAL_ORACLES"}
    env["HOME"] = str(home)
    result = subprocess.run([sys.executable, "get_oracles.py", "--find"], cwd=clone,
                            capture_output=True, text=True, env=env)
    assert result.returncode == 1 and result.stdout == ""
    assert "make oracles" in result.stderr and str(home / ".cache") in result.stderr


def test_tests_and_benchmarks_share_the_lookup(tmp_path):
    """tests/oracles.py and bench/bench.py see the default directory of a temporary HOME."""
    home = tmp_path / "home"
    default = _oracle_layout(home / ".cache" / "conll_eval-oracles")
    for directory, code, expected in (
            (PROJECT / "tests", "import oracles; print(oracles.oracle_dir())", default),
            (PROJECT / "bench", "import bench; print(bench.find_official(False)[0])",
             default / "conll18_ud_eval.py")):
        result = _lookup(directory, home, code)
        assert result.returncode == 0, result.stderr
        assert Path(result.stdout.strip()) == expected


@pytest.mark.slow
def test_an_oracle_directory_without_its_validator_gets_it(tmp_path, clone):
    """An interrupted install (scripts, no venv): the lookup for make golden completes it."""
    home = tmp_path / "home"
    default = _oracle_layout(home / ".cache" / "conll_eval-oracles", validator_scripts=())
    shutil.rmtree(default / "venv")
    result = _lookup(clone, home, "import get_oracles; print(get_oracles.find_oracles(True))")
    if "get_oracles:" in result.stderr:
        pytest.skip(f"udtools could not be installed (no network?): {result.stderr[-300:]}")
    assert Path(result.stdout.strip()) == default
    assert (default / "venv" / "bin" / "udvalidate").is_file()


def test_the_scorer_found_for_make_golden_reproduces_a_golden_file(tmp_path, clone):
    """End to end: the conll18 script found in the default place gives the expected file."""
    if oracle_dir() is None:
        pytest.skip("official scorers unavailable: run 'make oracles'")
    home = tmp_path / "home"
    _oracle_layout(home / ".cache" / "conll_eval-oracles")
    case = PROJECT / "testdata" / "golden" / "mwt-resplit"
    code = ("import make_golden, pathlib, sys; o = make_golden.find_oracles(); "
            "rc, out, err = make_golden.run(o, make_golden.CONLL18, ['gold.conllu', "
            "'system.conllu'], pathlib.Path(" + repr(str(case)) + ")); "
            "sys.stdout.write(out.decode())")
    result = _lookup(clone, home, code)
    assert result.returncode == 0, result.stderr
    assert result.stdout == (case / "expected-conll18.txt").read_text(encoding="utf-8")


# ---------------------------------------------------------------------------------------------
# The install itself (slow: a fresh venv and a real build)

def _copy_of_the_checkout(destination: Path) -> Path:
    files = subprocess.run(["git", "ls-files"], cwd=PROJECT, capture_output=True, text=True)
    if files.returncode != 0:
        pytest.skip("not a git checkout")
    for name in files.stdout.split():
        if (PROJECT / name).is_file():
            target = destination / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(PROJECT / name, target)
    return destination


@pytest.mark.slow
def test_the_readme_install_builds_each_module_once_in_parallel(tmp_path):
    """``pip install -e '.[test]'`` in a fresh venv (the Quick start): the modules are
    cythonized once, in the build step (not in pip's metadata steps), compiled side by side
    at -O2, and conll_eval runs on them."""
    source = _copy_of_the_checkout(tmp_path / "source")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    install = subprocess.run([str(venv / "bin" / "pip"), "install", "-v", "-e", ".[test]"],
                             cwd=source, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             text=True, timeout=900)
    if install.returncode != 0 and "ERROR: Could not find a version" in install.stdout:
        pytest.skip(f"pip could not install (no network?): {install.stdout[-300:]}")
    assert install.returncode == 0, install.stdout[-2000:]
    log = install.stdout.splitlines()  # pip's and the build's, in order
    modules = sorted(path.stem for path in (source / "conll_eval").glob("_c*.pyx"))  # each one
    build_step = next(i for i, line in enumerate(log) if "Building editable for" in line)
    cythonized = [(i, m) for i, line in enumerate(log) for m in modules
                  if f"Cythonizing conll_eval/{m}.pyx" in line]
    assert sorted(m for _, m in cythonized) == sorted(modules)  # once each ...
    assert all(i > build_step for i, _ in cythonized)  # ... when building, not for metadata
    building = [i for i, line in enumerate(log) if re.search(r"building 'conll_eval\._c", line)]
    compiles = [line for line in log if re.search(r"-c conll_eval/_c\w+\.c ", line)]
    links = [i for i, line in enumerate(log) if " -shared " in line and "conll_eval/_c" in line]
    assert len(building) == len(compiles) == len(links) == len(modules)
    assert all(re.findall(r" -O\d", line)[-1] == " -O2" for line in compiles)
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    if (cpus or 1) > 1:
        assert building[1] < links[0]  # the second compile started before the first finished
    version = subprocess.run([str(venv / "bin" / "conll_eval"), "--version"],
                             capture_output=True, text=True, check=True).stdout
    assert "core: compiled (Cython)" in version

#!/usr/bin/env python3
"""Benchmark ``conll_eval suite`` with one worker against N workers on the ../shared/ud set.

A benchmark, not a test (``make bench-suite``).  It writes pair lists (outside the
repository) for the two parser outputs of every treebank in ../shared/ud and times, each as
its own subprocess, the leaderboard run

    python -m conll_eval suite --pairs sys-raw.txt --pairs sys-gold-tok.txt --format json -j J

for J = 1 and J = --jobs (default 2), best of --repeat runs, then prints the wall times and
the speed-up (issue 5 asks for at least 1.6 with two workers) -- best against best, and the
median over the runs of each -j 1 time divided by the -j N time measured right after it --
and checks that both runs print the same document.  It does the same for each parser
output alone (10 pairs), where the fixed cost of a run (interpreter start-up and imports,
~0.12 s here) weighs more.  conll_eval runs as installed by pip into a venv of its own
(see installed_runner); --working-tree times ``python -m conll_eval`` from this checkout.

    python bench/bench_suite.py [--jobs 2] [--repeat 5] [--working-tree] [--against REV]

``--against REV`` also times the 20-pair ``-j 1`` run of the code at git revision REV (built
and installed into a venv of its own, cached beside the other), interleaved with this one's,
and prints how many times faster this one is (issue 17 asks 3x against the code before it,
36a4973): best against best, and the median of the paired runs.
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from bench import ours_env

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
SHARED_UD = os.path.join(os.path.dirname(REPO), "shared", "ud")
SYSTEMS = ("sys-raw.conllu", "sys-gold-tok.conllu")
VENV = os.path.join(os.path.expanduser("~"), ".cache", "conll_eval-bench", "venv-installed")


def pair_lists(directory: str) -> list:
    treebanks = sorted(name for name in os.listdir(SHARED_UD)
                       if os.path.isfile(os.path.join(SHARED_UD, name, "reference.json")))
    paths = []
    for system in SYSTEMS:
        path = os.path.join(directory, system[:-len(".conllu")] + ".txt")
        with open(path, "w", encoding="utf-8") as handle:
            for tb in treebanks:
                handle.write(f"{os.path.join(SHARED_UD, tb, 'gold.conllu')} "
                             f"{os.path.join(SHARED_UD, tb, system)} {tb}\n")
        paths.append(path)
    return paths, treebanks


class Runner:
    """How conll_eval is run: ``command`` + arguments, in ``cwd`` with ``env``."""

    def __init__(self, command: list, cwd: str, env: dict, label: str):
        self.command, self.cwd, self.env, self.label = command, cwd, env, label

    def timed(self, arguments: list) -> tuple:
        started = time.perf_counter()
        done = subprocess.run(self.command + arguments, cwd=self.cwd, capture_output=True,
                              text=True, env=self.env)
        elapsed = time.perf_counter() - started
        if done.returncode != 0:
            sys.exit(f"failed ({done.returncode}): {' '.join(self.command + arguments)}\n"
                     f"{done.stderr}")
        return elapsed, done.stdout


def working_tree_runner() -> Runner:
    return Runner([sys.executable, "-m", "conll_eval"], REPO, ours_env(),
                  f"working tree, {sys.executable}")


def revision_runner(revision: str, workdir: str) -> Runner:
    """conll_eval as of git ``revision`` (``git archive``), installed like
    :func:`installed_runner` into ``venv-<commit>`` beside its venv (kept between runs)."""
    commit = subprocess.run(["git", "rev-parse", "--short=12", revision], cwd=REPO, check=True,
                            capture_output=True, text=True).stdout.strip()
    venv = f"{VENV}-{commit}"
    python = os.path.join(venv, "bin", "python")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPATH")}
    quiet = {"check": True, "env": env, "stdout": subprocess.DEVNULL}
    if not os.path.exists(python):
        subprocess.run([sys.executable, "-m", "venv", venv], **quiet)
        subprocess.run([python, "-m", "pip", "install", "-q", "numpy", "regex", "cython",
                        "setuptools"], **quiet)
        source = os.path.join(workdir, f"source-{commit}")
        os.makedirs(source)
        archive = subprocess.run(["git", "archive", commit], cwd=REPO, check=True,
                                 capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", source], input=archive, check=True)
        subprocess.run([python, "-m", "pip", "install", "-q", "--no-deps", source], **quiet)
    return Runner([python, "-m", "conll_eval"], workdir, env, f"{revision} ({commit}), in {venv}")


def compare_revisions(now: Runner, before: Runner, lists: list, repeat: int) -> str:
    """The 20-pair ``-j 1`` run of ``now`` and ``before``, interleaved: a table row."""
    base = ["suite"] + [a for path in lists for a in ("--pairs", path)] + ["--format", "json",
                                                                          "-j", "1"]
    now.timed(base), before.timed(base)  # warm-up
    times = {"now": [], "before": []}
    for _ in range(repeat):
        for key, runner in (("now", now), ("before", before)):
            times[key].append(runner.timed(base)[0])
    a, b = times["now"], times["before"]
    paired = statistics.median(y / x for x, y in zip(a, b))
    return (f"| {min(a):.3f} | {min(b):.3f} | {min(b) / min(a):.2f}x | {paired:.2f}x |")


def installed_runner(workdir: str) -> Runner:
    """conll_eval as a user installs it: built from a copy of this working tree and installed
    with pip into a venv of its own (outside the repository, reused between runs), bytecode
    compiled by pip, no site-wide .pth hooks of the machine's Python (this one has two, a
    sandbox's CA loader and the editable install's finder, ~30 ms per start); run outside
    the repository so that ``-m`` cannot pick up the working tree.  Raises CalledProcessError
    when pip fails."""
    python = os.path.join(VENV, "bin", "python")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPATH")}
    quiet = {"check": True, "env": env, "stdout": subprocess.DEVNULL}
    if not os.path.exists(python):
        subprocess.run([sys.executable, "-m", "venv", VENV], **quiet)
    subprocess.run([python, "-m", "pip", "install", "-q", "numpy", "regex"], **quiet)
    source = os.path.join(workdir, "source")  # a copy: pip would leave build/ in the repo
    shutil.copytree(os.path.join(REPO, "conll_eval"), os.path.join(source, "conll_eval"),
                    ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.c"))
    for name in ("setup.cfg", "setup.py", "pyproject.toml", "README.md"):  # setup.py: the compiled core
        shutil.copy(os.path.join(REPO, name), source)
    subprocess.run([python, "-m", "pip", "install", "-q", "--no-deps", "--force-reinstall",
                    source], **quiet)
    return Runner([python, "-m", "conll_eval"], workdir, env, f"installed in {VENV}")


def measure(runner: Runner, lists: list, jobs: int, repeat: int) -> tuple:
    """Best wall times of ``-j 1`` and ``-j jobs`` over ``repeat`` interleaved runs, the median
    ratio of paired runs, and whether both printed the same document."""
    base = ["suite"]
    for path in lists:
        base += ["--pairs", path]
    base += ["--format", "json"]
    runner.timed(base + ["-j", "1"])  # warm-up: fills the bytecode cache
    times, outputs = {1: [], jobs: []}, {}
    for _ in range(repeat):  # interleaved, so that drift in the machine's load hits both
        for j in times:
            elapsed, outputs[j] = runner.timed(base + ["-j", str(j)])
            times[j].append(elapsed)
    best = {j: min(values) for j, values in times.items()}
    for j, values in times.items():
        print(f"{len(lists)} list(s) -j {j}: best {best[j]:.3f} s of {repeat} "
              f"({', '.join(f'{t:.3f}' for t in values)})", file=sys.stderr)
    # each -j 1 run against the -j N run right after it: drift in the machine's speed (this
    # VM has slow spells lasting seconds) cancels out of the ratio
    paired = statistics.median(one / many for one, many in zip(times[1], times[jobs]))
    return best, paired, outputs[1] == outputs[jobs]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=2, help="workers of the parallel run (default 2)")
    parser.add_argument("--repeat", type=int, default=5, help="runs per setting, best kept (default 5)")
    parser.add_argument("--working-tree", action="store_true",
                        help="run the working tree (python -m conll_eval) instead of a venv install")
    parser.add_argument("--against", metavar="REV",
                        help="also time the 20-pair -j 1 run of git revision REV, interleaved")
    args = parser.parse_args()
    if not os.path.isdir(SHARED_UD):
        print(f"bench_suite: {SHARED_UD} is absent; nothing to measure", file=sys.stderr)
        return 1
    rows, all_same = [], True
    with tempfile.TemporaryDirectory(prefix="conll_eval-bench-suite-") as tmp:
        lists, treebanks = pair_lists(tmp)
        runner = None
        if not args.working_tree:
            try:
                runner = installed_runner(tmp)
            except (subprocess.CalledProcessError, OSError) as exc:
                print(f"bench_suite: cannot install into {VENV} ({exc}); timing the working "
                      "tree instead", file=sys.stderr)
        runner = runner or working_tree_runner()
        runs = [(f"{len(treebanks) * len(SYSTEMS)} ({len(treebanks)} treebanks x {len(SYSTEMS)} "
                 "systems)", lists)]
        runs += [(f"{len(treebanks)} ({system[:-len('.conllu')]} alone)", [path])
                 for system, path in zip(SYSTEMS, lists)]
        for label, chosen in runs:
            best, paired, same = measure(runner, chosen, args.jobs, args.repeat)
            all_same &= same
            rows.append(f"| {label} | {best[1]:.3f} | {best[args.jobs]:.3f} "
                        f"| {best[1] / best[args.jobs]:.2f}x | {paired:.2f}x | {same} |")
        against = None
        if args.against:
            before = revision_runner(args.against, tmp)
            against = (compare_revisions(runner, before, lists, args.repeat), before.label)
    print(f"| pairs | -j 1 s (best) | -j {args.jobs} s (best) | speed-up (best/best) "
          "| speed-up (median of paired runs) | same output |")
    print("|---|---|---|---|---|---|")
    print("\n".join(rows))
    print(f"machine: {os.cpu_count()} CPUs, Python {sys.version.split()[0]}; conll_eval: "
          f"{runner.label}")
    if against is not None:
        print(f"\n20 pairs, -j 1, interleaved with {against[1]}:\n")
        print("| this s (best) | before s (best) | faster (best/best) | faster (median of paired runs) |")
        print("|---|---|---|---|")
        print(against[0])
    return 0 if all_same else 1


if __name__ == "__main__":
    sys.exit(main())

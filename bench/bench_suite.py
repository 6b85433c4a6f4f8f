#!/usr/bin/env python3
"""Benchmark ``conll_eval suite`` with one worker against N workers on the ../shared/ud set.

A benchmark, not a test (``make bench-suite``).  It writes pair lists (outside the
repository) for the two parser outputs of every treebank in ../shared/ud and times, each as
its own subprocess, the leaderboard run

    python -m conll_eval suite --pairs sys-raw.txt --pairs sys-gold-tok.txt --format json -j J

for J = 1 and J = --jobs (default 2), best of --repeat runs, then prints the wall times and
the speed-up (issue 5 asks for at least 1.6 with two workers) and checks that both runs
print the same document.

    python bench/bench_suite.py [--jobs 2] [--repeat 5]
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

from bench import ours_env

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
SHARED_UD = os.path.join(os.path.dirname(REPO), "shared", "ud")
SYSTEMS = ("sys-raw.conllu", "sys-gold-tok.conllu")


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


def timed(argv: list) -> tuple:
    started = time.perf_counter()
    done = subprocess.run(argv, cwd=REPO, capture_output=True, text=True, env=ours_env())
    elapsed = time.perf_counter() - started
    if done.returncode != 0:
        sys.exit(f"failed ({done.returncode}): {' '.join(argv)}\n{done.stderr}")
    return elapsed, done.stdout


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=2, help="workers of the parallel run (default 2)")
    parser.add_argument("--repeat", type=int, default=5, help="runs per setting, best kept (default 5)")
    args = parser.parse_args()
    if not os.path.isdir(SHARED_UD):
        print(f"bench_suite: {SHARED_UD} is absent; nothing to measure", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory(prefix="conll_eval-bench-suite-") as tmp:
        lists, treebanks = pair_lists(tmp)
        base = [sys.executable, "-m", "conll_eval", "suite"]
        for path in lists:
            base += ["--pairs", path]
        base += ["--format", "json"]
        timed(base + ["-j", "1"])  # warm-up: fills the bytecode cache
        times, outputs = {1: [], args.jobs: []}, {}
        for _ in range(args.repeat):  # interleaved, so that drift in the machine's load hits both
            for jobs in times:
                elapsed, outputs[jobs] = timed(base + ["-j", str(jobs)])
                times[jobs].append(elapsed)
        best = {jobs: min(values) for jobs, values in times.items()}
        for jobs, values in times.items():
            print(f"-j {jobs}: best {best[jobs]:.3f} s of {args.repeat} "
                  f"({', '.join(f'{t:.3f}' for t in values)})", file=sys.stderr)
    same = outputs[1] == outputs[args.jobs]
    print(f"| pairs | -j 1 s | -j {args.jobs} s | speed-up | same output |")
    print("|---|---|---|---|---|")
    print(f"| {len(treebanks) * len(SYSTEMS)} ({len(treebanks)} treebanks x {len(SYSTEMS)} systems) "
          f"| {best[1]:.3f} | {best[args.jobs]:.3f} | {best[1] / best[args.jobs]:.2f}x | {same} |")
    print(f"machine: {os.cpu_count()} CPUs, Python {sys.version.split()[0]}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Benchmark the significance tests (``conll_eval compare``) against scoring the pair once.

This is a benchmark, not a test: it prints one table (see bench/README.md).

    python bench/bench_compare.py [--sizes 1m] [--repeat N] [--resamples 1000]

On the bench pair of each size (bench.py builds and caches it: raw-text parser output) and a
second system made from it (every fifth word's relation renamed ``dep``, so the two systems
share tokenization and differ in LAS), it measures, best of ``--repeat`` runs:

  score          ``python -m conll_eval -v gold system`` as a subprocess (the reference)
  tests          in-process, on the two evaluations: the paired bootstrap of every score and
                 approximate randomization, ``--resamples`` each, for LAS alone and for the
                 default metrics (LAS, MLAS, BLEX, CLAS), plus McNemar for LAS
  compare        ``python -m conll_eval compare gold system system2`` end to end (reads the
                 gold file once per system, scores both, tests, prints)

The target: the tests on the two systems cost less than scoring the pair once.
"""
from __future__ import annotations

import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(1, os.path.dirname(HERE))  # this working tree's conll_eval

import bench  # noqa: E402  (bench/bench.py: pairs, runner, environment, report helpers)

DEFAULT_METRICS = ("LAS", "MLAS", "BLEX", "CLAS")


def relabelled(system: str, target: str, every: int = 5) -> None:
    """``system`` with every ``every``-th word's DEPREL renamed ``dep`` (root stays root):
    a second parser with the same tokenization and a lower LAS."""
    if os.path.isfile(target) and os.path.getmtime(target) >= os.path.getmtime(system):
        return
    seen = 0
    with open(system, encoding="utf-8") as src, open(target + ".tmp", "w", encoding="utf-8") as out:
        for line in src:
            cols = line.rstrip("\n").split("\t")
            if len(cols) == 10 and cols[0].isdigit():
                seen += 1
                if seen % every == 0 and cols[7] != "root":
                    cols[7] = "dep"
                    line = "\t".join(cols) + "\n"
            out.write(line)
    os.replace(target + ".tmp", target)


def best_of(repeat: int, action) -> float:
    times = []
    for _ in range(max(1, repeat)):
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return min(times)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="1m", help="gold-word targets (default: %(default)s)")
    ap.add_argument("--repeat", type=int, default=3, help="runs per measure; the best is kept")
    ap.add_argument("--resamples", type=int, default=1000, help="resamples (default: 1000)")
    ap.add_argument("--cache-dir", default=None, help="where the pairs live (bench.py's cache)")
    args = ap.parse_args(argv)
    from conll_eval.analyze.comparison import compare
    from conll_eval.evaluate import evaluate, load_pair
    cache = bench.cache_dir(args.cache_dir)
    pairs = bench.find_pairs([])
    if not pairs:
        print("bench_compare: no data (see bench.py)", file=sys.stderr)
        return 1
    runner = bench.Runner()
    env = bench.ours_env()
    python = sys.executable
    rows, verdicts = [], []
    for size in args.sizes.split(","):
        label, target = bench.parse_size(size)
        meta = bench.build_pair(label, target, pairs, cache)
        gold, system = meta["gold"], meta["system"]
        system2 = os.path.join(os.path.dirname(system), "system-relabelled.conllu")
        relabelled(system, system2)

        def subprocess_best(cmd):
            return bench.best_run(runner, cmd, env, args.repeat, "bench_compare")[:2]

        score_s, score_mb = subprocess_best([python, "-m", "conll_eval", "-v", gold, system])
        rows.append([label, "score the pair (-v), subprocess", bench.fmt(score_s),
                     bench.fmt(score_mb, ".0f"), "1.00"])
        evaluations = [evaluate(*load_pair(gold, s)) for s in (system, system2)]
        names = ["system", "relabelled"]
        for metrics in (("LAS",), DEFAULT_METRICS):
            seconds = best_of(args.repeat, lambda: compare(names, evaluations, list(metrics),
                                                           args.resamples))
            what = (f"{args.resamples} paired resamples + shuffles, 2 systems, "
                    f"{'+'.join(metrics)} (+ McNemar), in-process")
            rows.append([label, what, bench.fmt(seconds), "-", bench.fmt(seconds / score_s)])
            verdicts.append(f"{'PASS' if seconds < score_s else 'FAIL'} {label} "
                            f"{'+'.join(metrics)}: tests {seconds:.2f} s < scoring {score_s:.2f} s")
        compare_s, compare_mb = subprocess_best(
            [python, "-m", "conll_eval", "compare", gold, system, system2,
             "--resamples", str(args.resamples)])
        rows.append([label, "conll_eval compare (2 systems, defaults), subprocess",
                     bench.fmt(compare_s), bench.fmt(compare_mb, ".0f"),
                     bench.fmt(compare_s / score_s)])
        sentences = len(evaluations[0].gold.sent_char_start)
        verdicts.append(f"{label}: {meta['words']} gold words, {sentences} gold sentences")
    bench.print_report(rows, ["size", "measure", "wall s", "peak MB", "x scoring"], verdicts,
                       runner)
    return 0


if __name__ == "__main__":
    sys.exit(main())

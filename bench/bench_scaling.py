#!/usr/bin/env python3
"""Scaling benchmark: inputs of hostile shapes (a head chain, one word with 100,000 enhanced
edges, a file of blank lines, ...) at a size and at twice that size; the time (and, where the
case says, the peak memory) of the larger run may be at most 2.5x the smaller's (issue 40).

This is a benchmark, not a test: it prints one table (see bench/README.md).

    python bench/bench_scaling.py [--only NAME[,NAME...]] [--repeat N] [--list] [--json FILE]

The cases live in ``bench/scaling/*.py`` (``CASES`` in each).  Each run is its own
``python -m conll_eval`` subprocess (best wall time of ``--repeat``, largest peak RSS), so the
start-up of Python and numpy (~0.1 s) is subtracted before the ratio is taken; inputs are made in
a temporary directory and removed.  The exit status is 1 when a case misses its bound or a run
exits with a code the case does not expect.
"""
from __future__ import annotations

import argparse
import importlib
import json
import os
import pkgutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import bench  # noqa: E402  (bench/bench.py: runner and environment)
import scaling  # noqa: E402  (bench/scaling/: the cases)

#: the larger run may take at most this many times the smaller's time (and memory, where checked)
GROWTH_BOUND = 2.5
#: the least net seconds and MB a run is taken to cost: differences below them are noise
NOISE_SECONDS, NOISE_MB = 0.05, 5.0


def all_cases():
    """Every case of every module in bench/scaling, in module then list order."""
    cases = []
    for info in sorted(pkgutil.iter_modules(scaling.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"scaling.{info.name}")
        cases.extend(getattr(module, "CASES", ()))
    return cases


def startup(runner, env, repeat):
    """(seconds, MB) of conll_eval's start-up reading nothing (the interpreter and the scoring
    imports, :data:`bench.STARTUP_CODE`): subtracted from every run."""
    # one run more than asked, the first dropped: it compiles and caches the bytecode
    runs = [runner.measured([sys.executable, "-c", bench.STARTUP_CODE], env=env)
            for _ in range(repeat + 1)][1:]
    return min(r["time"] for r in runs), min(r["mb"] for r in runs)


def measure(runner, env, case, n, repeat, tmp):
    """The best time and the largest peak MB of ``case`` at size ``n``; a run whose exit code
    the case does not expect is a problem (its stderr's last line is kept)."""
    directory = tempfile.mkdtemp(dir=tmp)
    argv = case.build(directory, n)
    env = {**env, **(case.env or {})}
    runs = [runner.measured([sys.executable, "-m", "conll_eval", *argv], env=env, cwd=directory)
            for _ in range(repeat)]
    bad = [r for r in runs if r["rc"] not in case.exit_codes]
    problem = None
    if bad:
        tail = bad[0]["err"].decode("utf-8", "replace").strip().splitlines()[-1:] or [""]
        problem = f"exit {bad[0]['rc']}: {tail[0][:200]}"
    return {"n": n, "time": min(r["time"] for r in runs), "mb": max(r["mb"] for r in runs),
            "rc": runs[0]["rc"], "problem": problem}


def ratio(big, small, base, noise):
    """(big - base) / (small - base), each net at least ``noise``: below 50 ms, scheduling on
    a shared machine moves a run by as much as the run itself (a case that stops early, a bomb
    refused after a bounded read, costs about the same at both sizes), and below 5 MB the
    allocator's arenas do."""
    return max(big - base, noise) / max(small - base, noise)


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", help="comma-separated case names (default: every case)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per size; the best is kept")
    parser.add_argument("--list", action="store_true", help="list the cases and stop")
    parser.add_argument("--json", help="also write the results as JSON to this file")
    return parser.parse_args(argv)


def main(argv=None) -> int:
    args = parse_args(argv)
    cases = all_cases()
    if args.only:
        wanted = set(args.only.split(","))
        unknown = wanted - {c.name for c in cases}
        if unknown:
            raise SystemExit(f"bench_scaling: no case {', '.join(sorted(unknown))}")
        cases = [c for c in cases if c.name in wanted]
    if args.list:
        for case in cases:
            print(f"{case.name:38} {case.issue_point:6} sizes {', '.join(map(str, case.sizes))} "
                  f"{case.unit} (and twice each)")
        return 0
    runner, env = bench.Runner(), bench.ours_env()
    base_time, base_mb = startup(runner, env, args.repeat)
    rows, results, failed = [], [], False
    with tempfile.TemporaryDirectory(prefix="conll_eval-scaling-") as tmp:
        for case in cases:
            for n in case.sizes:
                small = measure(runner, env, case, n, args.repeat, tmp)
                big = measure(runner, env, case, 2 * n, args.repeat, tmp)
                t_ratio = ratio(big["time"], small["time"], base_time, NOISE_SECONDS)
                m_ratio = ratio(big["mb"], small["mb"], base_mb, NOISE_MB) if case.memory else None
                problems = [p for p in (small["problem"], big["problem"]) if p]
                if t_ratio > GROWTH_BOUND:
                    problems.append(f"time grew {t_ratio:.2f}x")
                if m_ratio is not None and m_ratio > GROWTH_BOUND:
                    problems.append(f"memory grew {m_ratio:.2f}x")
                failed |= bool(problems)
                rows.append([case.name, case.issue_point, f"{n:,} -> {2 * n:,} {case.unit}",
                             f"{small['time']:.3f} -> {big['time']:.3f}", f"{t_ratio:.2f}x",
                             f"{small['mb']:.0f} -> {big['mb']:.0f}",
                             "-" if m_ratio is None else f"{m_ratio:.2f}x",
                             "; ".join(problems) or "ok"])
                results.append({"case": case.name, "point": case.issue_point, "unit": case.unit,
                                "small": small, "big": big, "time_ratio": t_ratio,
                                "memory_ratio": m_ratio, "problems": problems})
                print(f"  {case.name} at {n:,}: {rows[-1][-1]}", file=sys.stderr)
    if not rows:
        print("no cases")
        return 0
    headers = ["case", "point", "size", "seconds", "time growth", "peak MB", "memory growth", "verdict"]
    print(bench.table(rows, headers))
    print(f"\nstart-up subtracted: {base_time:.3f} s, {base_mb:.0f} MB; bound: {GROWTH_BOUND}x "
          f"for twice the size; measured with {runner.method}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump({"startup": [base_time, base_mb], "bound": GROWTH_BOUND,
                       "results": results}, out, indent=1)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

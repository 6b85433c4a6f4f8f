#!/usr/bin/env python3
"""Benchmark the compat modules against the official modules they replace, in-process.

This is a benchmark, not a test: it prints one table (see bench/README.md).

    python bench/bench_compat.py [--treebank en_ewt] [--system sys-raw.conllu] [--repeat N]

For each official module (conll18_ud_eval, conll17_ud_eval, iwpt20_ud_eval from the oracle
install, udtools' udeval from its venv) and its drop-in (``conll_eval.compat``,
``compat.conll17``, ``compat.iwpt20``, ``compat.udeval``), in one process, interleaved,
``--repeat`` times each: ``load_conllu_file(gold)``, ``load_conllu_file(system)``,
``evaluate(gold, system)`` on a ../shared/ud pair, as a training loop scoring its dev set
calls them.  It keeps the best wall time of each, checks that LAS is the same, and prints
official / compat.  The first compat call of a module pays its imports: it is not timed
(a warm-up run of each side comes first).
"""
from __future__ import annotations

import argparse
import gc
import importlib
import importlib.util
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "scripts"))

from get_oracles import find_oracles  # noqa: E402  (the one oracle lookup: scripts/get_oracles.py)

SHARED_UD = HERE.parent.parent / "shared" / "ud"
#: module label -> (official file, relative to the oracle directory; compat module)
MODULES = {
    "conll18": ("conll18_ud_eval.py", "conll_eval.compat"),
    "conll17": ("conll17_ud_eval.py", "conll_eval.compat.conll17"),
    "iwpt20": ("iwpt20_ud_eval.py", "conll_eval.compat.iwpt20"),
    "udeval": ("venv/lib/python{v}/site-packages/udtools/udeval.py", "conll_eval.compat.udeval"),
}


def load_official(directory: Path, relative: str):
    path = directory / relative.format(v=f"{sys.version_info[0]}.{sys.version_info[1]}")
    if not path.is_file():
        return None
    spec = importlib.util.spec_from_file_location(f"_official_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def timed(module, gold: str, system: str):
    gc.collect()
    start = time.perf_counter()
    evaluation = module.evaluate(module.load_conllu_file(gold), module.load_conllu_file(system))
    return time.perf_counter() - start, evaluation["LAS"].f1


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--treebank", default="en_ewt", help="a ../shared/ud treebank (default en_ewt)")
    parser.add_argument("--system", default="sys-raw.conllu", help="its system file (default sys-raw.conllu)")
    parser.add_argument("--repeat", type=int, default=5, help="runs of each side (default 5)")
    parser.add_argument("--modules", default=",".join(MODULES), help="comma-separated subset of "
                        + ", ".join(MODULES))
    args = parser.parse_args(argv)
    gold, system = SHARED_UD / args.treebank / "gold.conllu", SHARED_UD / args.treebank / args.system
    if not gold.is_file() or not system.is_file():
        print(f"bench_compat: {gold} or {system} is missing", file=sys.stderr)
        return 1
    directory = find_oracles(install=True)
    if directory is None:
        print("bench_compat: the official scorers are unavailable (make oracles)", file=sys.stderr)
        return 1
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 5000))  # the official scripts recurse per head
    print(f"# {args.treebank}: gold.conllu vs {args.system}; load_conllu_file x2 + evaluate, "
          f"in-process, best of {args.repeat} (interleaved); Python {sys.version.split()[0]}, "
          f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}")
    print("| module | official s | compat s | official/compat | same LAS |")
    print("|---|---|---|---|---|")
    for label in args.modules.split(","):
        official_file, compat_name = MODULES[label]
        official = load_official(directory, official_file)
        if official is None:
            print(f"| {label} | unavailable | | | |")
            continue
        ours = importlib.import_module(compat_name)
        timed(ours, str(gold), str(system))  # warm-up: imports, the compiled core's first calls
        best = {"official": float("inf"), "compat": float("inf")}
        las = {}
        for _ in range(args.repeat):
            for side, module in (("official", official), ("compat", ours)):
                seconds, las[side] = timed(module, str(gold), str(system))
                best[side] = min(best[side], seconds)
        print(f"| {label} | {best['official']:.3f} | {best['compat']:.4f} | "
              f"{best['official'] / best['compat']:.1f}x | {'yes' if las['official'] == las['compat'] else 'NO'} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())

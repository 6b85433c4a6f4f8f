#!/usr/bin/env python3
"""Benchmark ``conll_eval analyze`` (MaltEval's analyses) against ``conll_eval -v``.

This is a benchmark, not a test: it prints one table (see bench/README.md).

    python bench/bench_analyze.py [--sizes 1m] [--repeat N] [--malteval-jar PATH]

On the bench pair of each size (bench.py builds and caches it) it times, each as its own
subprocess, best of ``--repeat`` runs:

  score            ``python -m conll_eval -v gold system``  (the reference)
  deprel+confusion ``conll_eval analyze -s system -g gold --GroupBy Deprel --confusion-matrix 1``
  cpostag:all      ``conll_eval analyze -s system -g gold --Metric "LAS;UAS;LA" --GroupBy Cpostag:all``

and, with ``--malteval-jar`` (and java), MaltEval 1.0 and conll_eval on the same two requests
over a pair of the same size with gold tokenization (MaltEval cannot align raw-text output),
MaltEval on its CoNLL-X conversion; the outputs must be equal.  The target: each analyze run within
2x the wall time of ``score`` and no more peak memory.
"""
from __future__ import annotations

import argparse
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(1, os.path.dirname(HERE))  # this working tree's conll_eval

import bench  # noqa: E402  (bench/bench.py: pairs, runner, environment, report helpers)

ANALYSES = (
    ("deprel+confusion", ["--GroupBy", "Deprel", "--confusion-matrix", "1"]),
    ("cpostag:all", ["--Metric", "LAS;UAS;LA", "--GroupBy", "Cpostag:all"]),
)
MAX_TIME_RATIO, MAX_MEMORY_RATIO = 2.0, 1.0


def to_conllx(source: str, target: str) -> None:
    """The pair's CoNLL-X conversion, for MaltEval (conll_eval's own converter)."""
    from conll_eval.io.malt import conllu_to_conllx
    with open(source, encoding="utf-8") as src, open(target, "w", encoding="utf-8") as out:
        out.write(conllu_to_conllx(src.read()))


def gold_tokenized_pairs():
    """(name, gold, system on gold tokenization) of the shared treebanks."""
    pairs = []
    for name, gold, _ in bench.find_pairs([]):
        system = os.path.join(os.path.dirname(gold), "sys-gold-tok.conllu")
        if os.path.isfile(system):
            pairs.append((name, gold, system))
    return pairs


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="1m", help="gold-word targets (default: %(default)s)")
    ap.add_argument("--repeat", type=int, default=3, help="runs per command; the best is kept")
    ap.add_argument("--cache-dir", default=None, help="where the pairs live (bench.py's cache)")
    ap.add_argument("--malteval-jar", default=None,
                    help="MaltEval.jar to time on a CoNLL-X conversion of the pair")
    args = ap.parse_args(argv)
    cache = bench.cache_dir(args.cache_dir)
    notes = []
    pairs = bench.find_pairs(notes)
    if not pairs:
        print("bench_analyze: no data (see bench.py)", file=sys.stderr)
        return 1
    runner = bench.Runner()
    env = bench.ours_env()
    python = sys.executable
    java = shutil.which("java") if args.malteval_jar else None
    rows, verdicts = [], []
    for size in args.sizes.split(","):
        label, target = bench.parse_size(size)
        meta = bench.build_pair(label, target, pairs, cache)
        gold, system = meta["gold"], meta["system"]

        def best(cmd, cwd=None):
            return bench.best_run(runner, cmd, env, args.repeat, "bench_analyze", cwd)

        base_time, base_mb, _ = best([python, "-m", "conll_eval", "-v", gold, system])
        rows.append([label, "score (-v)", bench.fmt(base_time), bench.fmt(base_mb, ".0f"), "1.00",
                     "1.00"])
        outputs = {}
        for name, extra in ANALYSES:
            cmd = [python, "-m", "conll_eval", "analyze", "-s", system, "-g", gold, *extra]
            seconds, mb, out = best(cmd)
            outputs[name] = out
            t_ratio, m_ratio = seconds / base_time, mb / base_mb
            rows.append([label, name, bench.fmt(seconds), bench.fmt(mb, ".0f"),
                         bench.fmt(t_ratio), bench.fmt(m_ratio)])
            ok = t_ratio <= MAX_TIME_RATIO and m_ratio <= MAX_MEMORY_RATIO
            verdicts.append(f"{'PASS' if ok else 'FAIL'} {label} {name}: {t_ratio:.2f}x time "
                            f"(<= {MAX_TIME_RATIO}), {m_ratio:.2f}x memory (<= {MAX_MEMORY_RATIO})")
        tokenized = gold_tokenized_pairs()
        if java and tokenized:
            # MaltEval needs identical tokenization: a pair of the same size made of the
            # parsers' outputs on gold tokens, converted to CoNLL-X
            meta = bench.build_pair(f"{label}-goldtok", target, tokenized, cache)
            folder = os.path.dirname(meta["gold"])
            for side in ("gold", "system"):
                conllx = os.path.join(folder, f"{side}.conll")
                if not os.path.isfile(conllx):
                    to_conllx(meta[side], conllx)
            for name, extra in ANALYSES:
                for who, files in (("conll_eval", ["system.conllu", "gold.conllu"]),
                                   ("MaltEval", ["system.conll", "gold.conll"])):
                    program = ([python, "-m", "conll_eval", "analyze"] if who == "conll_eval"
                               else [java, "-jar", os.path.abspath(args.malteval_jar)])
                    seconds, mb, out = best(program + ["-s", files[0], "-g", files[1], *extra],
                                            cwd=folder)
                    rows.append([f"{label} gold-tok", f"{who} {name}", bench.fmt(seconds),
                                 bench.fmt(mb, ".0f"), bench.fmt(seconds / base_time),
                                 bench.fmt(mb / base_mb)])
                    outputs[who] = out.decode("utf-8")
                ours = outputs["conll_eval"].replace(".conllu", ".conll")
                same = ours == outputs["MaltEval"]
                verdicts.append(f"{'SAME' if same else 'DIFFERENT'} output as MaltEval: "
                                f"{label} gold-tok {name}")
    bench.print_report(rows, ["size", "command", "wall s", "peak MB", "time x", "memory x"],
                       verdicts, runner)
    return 0


if __name__ == "__main__":
    sys.exit(main())

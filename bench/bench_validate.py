#!/usr/bin/env python3
"""Benchmark ``conll_eval validate`` against the UD validator (udtools' ``udvalidate``).

This is a benchmark, not a test: it prints one table (see bench/README.md).

    python bench/bench_validate.py [--size 1m] [--lang en] [--levels 2,5] [--repeat N]
                                   [--skip-official]

It builds (once, cached outside the repository) a treebank of about ``--size`` words by
repeating the gold file of ``--lang``'s treebank in ../shared/ud (en: en_ewt), each copy's
sent_ids and parallel_ids made unique, so the run checks real annotation and reports what the real treebank
has.  Then, for each level, interleaved, ``--repeat`` times each, as their own subprocesses:

  conll_eval  ``python -m conll_eval validate --level L --lang X --format udtools FILE``
  official    ``udvalidate --level L --lang X FILE`` from the oracle install (run once)

keeping the best wall time and the largest peak RSS (GNU time), and checking that conll_eval
prints udvalidate's bytes (incidents on stdout + summary on stderr = udvalidate's stderr) and
exit status.  Levels 4-5 read udtools' language data from the oracle install (``--data``).
Targets (issue 28): >= 20x faster than udvalidate at levels 2 and 5; peak memory at most 1.5x
udvalidate's and independent of the file's size (compare a --size 100k run).
"""
from __future__ import annotations

import argparse
import glob
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import bench  # noqa: E402  (bench/bench.py: runner, environment, report helpers)

TREEBANKS = {"en": "en_ewt", "fi": "fi_tdt", "he": "he_htb", "tr": "tr_imst", "pt": "pt_bosque",
             "zh": "zh_gsd", "de": "de_gsd", "fr": "fr_gsd", "ja": "ja_gsd", "vi": "vi_vtb"}
SPEED_TARGET, MEMORY_TARGET = 20.0, 1.5
FORMAT_VERSION = "validate-v2"
_PARALLEL_ID = re.compile(rb"(\n# parallel_id = [a-z]+/[-0-9a-z]+)")


def build_treebank(lang: str, target: int, cache: str) -> dict:
    """The cached treebank (path, words) of about ``target`` words: copies of the language's
    gold file, the sent_ids of copy k suffixed with '-k'."""
    name = TREEBANKS[lang]
    source = os.path.join(bench.SHARED_UD, name, "gold.conllu")
    out_dir = os.path.join(cache, f"{FORMAT_VERSION}-{name}-{target}")
    meta_path = os.path.join(out_dir, "meta.json")
    if os.path.isfile(meta_path):
        with open(meta_path) as f:
            return {**json.load(f), "cached": True}
    with open(source, "rb") as f:
        data = bench.normalise_piece(f.read())
    words = bench.count_words(data)
    copies = max(1, round(target / words))
    tmp = out_dir + ".tmp"
    os.makedirs(tmp, exist_ok=True)
    path = os.path.join(tmp, "treebank.conllu")
    with open(path, "wb") as out:
        for k in range(copies):
            renamed = (b"\n" + data).replace(b"\n# sent_id = ", f"\n# sent_id = {k}-".encode())
            # parallel ids unique too: corpus/sentence becomes corpus/sentence-k
            renamed = _PARALLEL_ID.sub(rb"\1-" + str(k).encode(), renamed)
            out.write(data if k == 0 else renamed[1:])
    meta = {"source": source, "words": words * copies, "copies": copies,
            "path": os.path.join(out_dir, "treebank.conllu")}
    return bench.publish_pair(tmp, out_dir, meta)


def find_udvalidate():
    """(udvalidate, its data folder) of the oracle install, or (None, None)."""
    base = bench.find_oracles(install=False)
    if base is None:
        return None, None
    tool = os.path.join(base, "venv", "bin", "udvalidate")
    data = sorted(glob.glob(os.path.join(base, "venv", "lib", "python3*", "site-packages",
                                         "udtools", "data")))
    return (tool if os.path.isfile(tool) else None), (data[0] if data else None)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--size", default="1m", help="words (default 1m)")
    ap.add_argument("--lang", default="en", choices=sorted(TREEBANKS))
    ap.add_argument("--levels", default="2,5", help="comma-separated (default 2,5)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--skip-official", action="store_true")
    ap.add_argument("--cache-dir", default=None)
    ap.add_argument("--json", default=None, help="also write the results as JSON")
    args = ap.parse_args(argv)
    runner = bench.Runner()
    cache = bench.cache_dir(args.cache_dir)
    meta = build_treebank(args.lang, bench.parse_size(args.size)[1], cache)
    print(f"treebank: {meta['path']} ({meta['words']:,} words, {meta['copies']} copies of "
          f"{meta['source']})", file=sys.stderr)
    udvalidate, data = find_udvalidate()
    if udvalidate is None or data is None:
        raise SystemExit("bench_validate: udvalidate and its data not found (make oracles)")
    rows, results, failed = [], {}, False
    for level in [int(x) for x in args.levels.split(",")]:
        lang = args.lang if level >= 4 else "ud"
        ours_cmd = [sys.executable, "-m", "conll_eval", "validate", "--level", str(level),
                    "--lang", lang, "--format", "udtools", meta["path"]]
        if level >= 4:
            ours_cmd[-1:-1] = ["--data", data]
        ours_runs = []
        official = None
        for i in range(max(1, args.repeat)):
            ours_runs.append(runner.run(ours_cmd, env=bench.ours_env(), cwd=bench.REPO))
            print(f"  L{level} run {i + 1} conll_eval: {ours_runs[-1][0]:.2f} s "
                  f"{ours_runs[-1][1]:.0f} MB", file=sys.stderr)
            if official is None and not args.skip_official:
                official = runner.run([udvalidate, "--level", str(level), "--lang", lang,
                                       meta["path"]])
                print(f"  L{level} udvalidate: {official[0]:.2f} s {official[1]:.0f} MB",
                      file=sys.stderr)
        wall, mb = min(r[0] for r in ours_runs), max(r[1] for r in ours_runs)
        same = None
        if official is not None:
            first = ours_runs[0]
            same = first[3] + first[4] == official[4] and first[2] == official[2]
            failed = failed or not same
        off_wall, off_mb = (official[0], official[1]) if official else (None, None)
        rows.append([f"level {level}", bench.fmt(wall), bench.fmt(mb, ".0f"), bench.fmt(off_wall),
                     bench.fmt(off_mb, ".0f"), bench.fmt(bench.ratio(off_wall, wall), ".1f"),
                     bench.fmt(bench.ratio(mb, off_mb), ".2f"),
                     {True: "yes", False: "NO"}.get(same, "-")])
        results[level] = {"wall": wall, "mb": mb, "official_wall": off_wall,
                          "official_mb": off_mb, "same_output": same}
    print(bench.table(rows, ["", "conll_eval s", "MB", "udvalidate s", "MB", "speed-up",
                             "memory ratio", "same output"]))
    print()
    for level, r in results.items():
        if r["official_wall"]:
            speed = r["official_wall"] / r["wall"]
            memory = r["mb"] / r["official_mb"]
            print(f"level {level}: target >= {SPEED_TARGET:.0f}x faster: {speed:.1f}x "
                  f"{'ok' if speed >= SPEED_TARGET else 'MISSED'}; target <= {MEMORY_TARGET}x "
                  f"peak memory: {memory:.2f}x {'ok' if memory <= MEMORY_TARGET else 'MISSED'}")
    print(f"{meta['words']:,} words ({args.lang}), best of {args.repeat} runs of conll_eval, one "
          f"of udvalidate; measured with {runner.method}; python {sys.version.split()[0]}; "
          f"{bench.platform.platform()}, {os.cpu_count()} CPUs")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"treebank": meta, "levels": results}, f, indent=1)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Benchmark ``conll_eval --profile iwpt -v`` (ELAS/EULAS) against the IWPT 2020 scorer.

This is a benchmark, not a test: it prints one table (see bench/README.md).

    python bench/bench_enhanced.py [--size 1m] [--repeat N] [--skip-official]

It builds (once, seeded, cached outside the repository) a gold file of about ``--size`` words
by repeating the en_ewt and fi_tdt gold files of ../shared/ud (they have enhanced graphs),
and a system file on the same tokenization with perturbed basic columns (relations renamed,
heads moved to the grandparent, tags changed) and perturbed enhanced graphs (heads moved,
case parts changed, edges dropped, duplicated and added).  Then, interleaved, ``--repeat``
times each, as their own subprocesses:

  conll_eval  ``python -m conll_eval --profile iwpt -v gold system``  (this working tree)
  pure        the same with CONLL_EVAL_PURE=1 (the numpy path), when the compiled core is built
  official    ``python iwpt20_ud_eval.py -v gold system`` from the oracle install

keeping the best wall time and the largest peak RSS (GNU time), and checks that conll_eval's
output is byte for byte the official one.  Targets (issue 26): >= 50x faster, <= 0.2x the
peak memory of the official scorer.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import shutil
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import bench  # noqa: E402  (bench/bench.py: runner, environment, report helpers)

TREEBANKS = ("en_ewt", "fi_tdt")
FORMAT_VERSION = "enhanced-v1"
SPEED_TARGET, MEMORY_TARGET = 50.0, 0.2
#: case parts a perturbed edge may get instead of its own
CASE_PARTS = ("in", "on", "of", "for", "with", "ssa", "lla", "kanssa", "poss", "to")
RELATIONS = ("nsubj", "obj", "obl", "nmod", "advmod", "amod", "conj", "dep", "acl:relcl", "case")


# --------------------------------------------------------------------------- data


def split_sentences(data: bytes):
    """The sentences of a CoNLL-U file, each a list of lines (str) without the blank line."""
    text = bench.normalise_piece(data).decode("utf-8")
    return [block.split("\n") for block in text.split("\n\n") if block.strip()]


def perturb_deps(deps: str, n_words: int, own: int, rng: random.Random) -> str:
    """A system DEPS value made from a gold one: heads moved, case parts changed, edges
    dropped, duplicated and added (each with a small probability; heads stay in the sentence
    and never name the word itself or an empty node)."""
    if deps == "_":
        return deps
    edges = [item.split(":", 1) for item in deps.split("|")]
    out = []
    for head, rel in edges:
        r = rng.random()
        if r < 0.04 and len(edges) > 1:
            continue                                   # dropped
        if r < 0.10 and "." not in head:
            choices = [h for h in range(0, n_words + 1) if h != own]
            head = str(rng.choice(choices))            # head moved
        elif r < 0.16:
            steps = rel.split(">")
            parts = steps[-1].split(":")
            if parts[0] in ("obl", "nmod", "conj", "advcl"):
                parts[1:] = [rng.choice(CASE_PARTS)]   # case part changed or added
            else:
                parts[0] = rng.choice(RELATIONS)       # universal part changed
            steps[-1] = ":".join(parts)
            rel = ">".join(steps)
        out.append([head, rel])
        if 0.16 <= r < 0.19:
            out.append([head, rel])                    # duplicated
    if rng.random() < 0.05:                            # added
        out.append([str(rng.choice([h for h in range(0, n_words + 1) if h != own])),
                    rng.choice(RELATIONS)])
    if not out:
        return deps
    return "|".join(f"{h}:{r}" for h, r in out)


def perturb_sentence(lines, rng: random.Random):
    """The system version of one gold sentence (same tokens and text)."""
    rows = [line.split("\t") for line in lines]
    words = {int(r[0]): r for r in rows if len(r) == 10 and r[0].isdigit()}
    n_words = len(words)
    heads = {i: int(r[6]) for i, r in words.items() if r[6].isdigit()}
    out = []
    for line, r in zip(lines, rows):
        if len(r) != 10 or not r[0].isdigit():
            out.append(line)
            continue
        r = list(r)
        own = int(r[0])
        x = rng.random()
        if x < 0.08 and heads.get(own, 0) > 0 and heads.get(heads[own], 0) > 0:
            r[6] = str(heads[heads[own]])              # basic head -> grandparent (still a tree)
        elif x < 0.16 and r[7] != "root":
            r[7] = rng.choice(RELATIONS)               # basic relation renamed
        elif x < 0.22:
            r[3] = rng.choice(("NOUN", "VERB", "ADJ", "ADV", "PROPN"))
        elif x < 0.26:
            r[5] = "_"
        r[8] = perturb_deps(r[8], n_words, own, rng)
        out.append("\t".join(r))
    return out


def count_sentence_words(lines) -> int:
    return sum(1 for line in lines if line.split("\t", 1)[0].isdigit())


def build_pair(target: int, cache: str, seed: int):
    """Build (or reuse) the gold/system pair of about ``target`` gold words; its info dict."""
    sources = [os.path.join(bench.SHARED_UD, name, "gold.conllu") for name in TREEBANKS]
    missing = [p for p in sources if not os.path.isfile(p)]
    if missing:
        raise SystemExit(f"bench_enhanced: {', '.join(missing)} not found (needs ../shared/ud)")
    key = hashlib.sha256(f"{FORMAT_VERSION}:{target}:{seed}".encode())
    for p in sources:
        st = os.stat(p)
        key.update(f"{os.path.abspath(p)}:{st.st_size}:{st.st_mtime_ns}".encode())
    out_dir = os.path.join(cache, f"enhanced-{target}-{key.hexdigest()[:12]}")
    meta_path = os.path.join(out_dir, "meta.json")
    if os.path.isfile(meta_path):
        with open(meta_path) as f:
            meta = json.load(f)
        meta["cached"] = True
        return meta
    sentences = []
    for p in sources:
        with open(p, "rb") as f:
            sentences += split_sentences(f.read())
    rng = random.Random(seed)
    os.makedirs(cache, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix=".enhanced-", dir=cache)
    try:
        words = 0
        with open(os.path.join(tmp, "gold.conllu"), "w", encoding="utf-8", newline="\n") as fg, \
                open(os.path.join(tmp, "system.conllu"), "w", encoding="utf-8", newline="\n") as fs:
            while words < target:
                for lines in sentences:
                    fg.write("\n".join(lines) + "\n\n")
                    fs.write("\n".join(perturb_sentence(lines, rng)) + "\n\n")
                    words += count_sentence_words(lines)
                    if words >= target:
                        break
        meta = {"target": target, "words": words, "seed": seed, "treebanks": list(TREEBANKS),
                "gold": os.path.join(out_dir, "gold.conllu"),
                "system": os.path.join(out_dir, "system.conllu")}
        return bench.publish_pair(tmp, out_dir, meta)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


# --------------------------------------------------------------------------- running


def compiled_core_built() -> bool:
    try:
        import conll_eval._cscan  # noqa: F401
    except ImportError:
        return False
    return True


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--size", type=bench.parse_size, default=bench.parse_size("1m"),
                    help="gold words (default 1m)")
    ap.add_argument("--repeat", type=int, default=3, help="interleaved runs of each; best kept")
    ap.add_argument("--seed", type=int, default=26, help="perturbation seed (default 26)")
    ap.add_argument("--skip-official", action="store_true", help="don't run the IWPT scorer")
    ap.add_argument("--skip-pure", action="store_true", help="don't time CONLL_EVAL_PURE=1")
    ap.add_argument("--cache-dir", default=None, help="default ~/.cache/conll_eval-bench")
    ap.add_argument("--no-gnu-time", action="store_true")
    ap.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    args = ap.parse_args(argv)
    cache = bench.cache_dir(args.cache_dir)
    if os.path.commonpath([os.path.abspath(cache), bench.REPO]) == bench.REPO:
        ap.error("--cache-dir must be outside the repository")
    label, target = args.size
    t0 = time.perf_counter()
    meta = build_pair(target, cache, args.seed)
    how = "cached" if meta["cached"] else f"built in {time.perf_counter() - t0:.1f}s"
    print(f"pair {label}: {meta['words']:,} gold words ({how}) {os.path.dirname(meta['gold'])}",
          file=sys.stderr)
    runner = bench.Runner(use_gnu_time=not args.no_gnu_time)
    env = bench.ours_env()
    pure_env = dict(env, CONLL_EVAL_PURE="1")
    pair = [meta["gold"], meta["system"]]
    commands = {"conll_eval": ([sys.executable, "-m", "conll_eval", "--profile", "iwpt", "-v",
                                *pair], env)}
    if not args.skip_pure and compiled_core_built():
        commands["pure"] = (commands["conll_eval"][0], pure_env)
    official = None
    if not args.skip_official:
        oracles = bench.find_oracles(install=True)
        official = oracles and os.path.join(oracles, "iwpt20_ud_eval.py")
        if not official or not os.path.isfile(official):
            raise SystemExit("bench_enhanced: iwpt20_ud_eval.py not found (make oracles)")
        commands["official"] = ([sys.executable, official, "-v", *pair], None)
    runs = {name: [] for name in commands}
    for i in range(max(1, args.repeat)):
        for name, (cmd, cmd_env) in commands.items():   # interleaved: slow spells hit all alike
            wall, mb, rc, out, err = runner.run(cmd, env=cmd_env, cwd=bench.REPO)
            if rc != 0:
                raise SystemExit(f"bench_enhanced: {name} failed ({rc}):\n"
                                 f"{err.decode(errors='replace')}")
            runs[name].append((wall, mb, out))
            print(f"  run {i + 1} {name}: {wall:.2f} s {mb:.0f} MB", file=sys.stderr)
    best = {name: (min(r[0] for r in rs), max(r[1] for r in rs)) for name, rs in runs.items()}
    identical = {name: all(r[2] == runs["official"][0][2] for r in rs)
                 for name, rs in runs.items() if name != "official" and "official" in runs}
    off = best.get("official")
    rows = []
    for name, (wall, mb) in best.items():
        rows.append([name, bench.fmt(wall), bench.fmt(mb, ".0f"),
                     bench.fmt(bench.ratio(off[0], wall) if off else None, ".1f"),
                     bench.fmt(bench.ratio(mb, off[1]) if off else None, ".3f"),
                     {True: "yes", False: "NO"}.get(identical.get(name), "-")])
    print(bench.table(rows, ["command", "wall s", "peak MB", "official/x time", "x/official MB",
                             "same -v output"]))
    print()
    failed = any(v is False for v in identical.values())
    if off:
        ours = best["conll_eval"]
        speed, memory = off[0] / ours[0], ours[1] / off[1]
        print(f"target >= {SPEED_TARGET:.0f}x faster than iwpt20_ud_eval.py: {speed:.1f}x "
              f"{'ok' if speed >= SPEED_TARGET else 'MISSED'}")
        print(f"target <= {MEMORY_TARGET}x its peak memory: {memory:.3f}x "
              f"{'ok' if memory <= MEMORY_TARGET else 'MISSED'}")
    print(f"{meta['words']:,} gold words, best of {args.repeat} interleaved runs; "
          f"measured with {runner.method}; python {sys.version.split()[0]}; "
          f"{bench.platform.platform()}, {os.cpu_count()} CPUs")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"pair": meta, "best": best, "identical": identical}, f, indent=1)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

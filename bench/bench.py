#!/usr/bin/env python3
"""Benchmark conll_eval against the official CoNLL 2018 scorer and a "floor".

This is a benchmark, not a test: it prints one table (see bench/README.md).

    python bench/bench.py [--sizes 100k,1m] [--repeat N] [--skip-official] [--skip-ours]

For every size it builds (once, cached outside the repository) a gold/system pair of about
that many gold words, then times, each as its own subprocess:

  floor     a child python that only reads both files and splits them into lines and fields
  compiled floor  a child python whose compiled core (conll_eval._cscan.field_bounds) only
            reads both files and finds every field's end (the least any reader does)
  conll_eval   ``python -m conll_eval gold system``  (the working tree of this repository)
  pure      the same with CONLL_EVAL_PURE=1 (the numpy path, the compiled core's reference)
  official  ``python conll18_ud_eval.py gold system`` from the oracle install

and records wall time and peak resident memory of each child.  It also checks that
conll_eval prints exactly what the official scorer prints on the same pair.
"""

from __future__ import annotations

import argparse
import glob
import hashlib
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
SHARED_UD = os.path.join(os.path.dirname(REPO), "shared", "ud")
sys.path.insert(0, os.path.join(REPO, "scripts"))
from get_oracles import find_oracles  # noqa: E402  (the one oracle lookup: scripts/get_oracles.py)
GOLDEN = os.path.join(REPO, "testdata", "golden")

SIZE_RE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([km]?)\s*$", re.I)

FLOOR_CODE = (
    "import sys\n"
    "for path in sys.argv[1:]:\n"
    "    with open(path, encoding='utf-8') as f:\n"
    "        for line in f.read().split('\\n'):\n"
    "            line.split('\\t')\n"
)

COMPILED_FLOOR_CODE = (
    "import sys\n"
    "import numpy as np\n"
    "from conll_eval._cscan import field_bounds\n"
    "for path in sys.argv[1:]:\n"
    "    with open(path, 'rb') as f:\n"
    "        field_bounds(np.frombuffer(f.read(), dtype=np.uint8))\n"
)


# --------------------------------------------------------------------------- data


def parse_size(text):
    m = SIZE_RE.match(text)
    if not m:
        raise argparse.ArgumentTypeError(f"bad size {text!r} (use e.g. 100k, 1m, 250000)")
    n = float(m.group(1)) * {"": 1, "k": 1_000, "m": 1_000_000}[m.group(2).lower()]
    return text.strip().lower(), int(n)


def count_words(data: bytes) -> int:
    """Lines whose first column is an integer (syntactic words; no MWT ranges, no empty nodes)."""
    n = 0
    for line in data.split(b"\n"):
        tab = line.find(b"\t")
        if tab > 0 and line[:tab].isdigit():
            n += 1
    return n


def normalise_piece(data: bytes) -> bytes:
    """Strip a BOM and make sure the piece ends with a blank line, so pieces concatenate."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    data = data.replace(b"\r\n", b"\n")
    if not data.endswith(b"\n"):
        data += b"\n"
    if data.strip() and not data.endswith(b"\n\n"):
        data += b"\n"
    return data


def forms_text(data: bytes) -> str:
    """The non-whitespace characters of the token forms (what the official scorer compares)."""
    out = []
    skip_until = 0
    for line in data.decode("utf-8").split("\n"):
        if not line or line.startswith("#"):
            continue
        cols = line.split("\t")
        if len(cols) < 2:
            continue
        tid = cols[0]
        if "-" in tid:
            lo, hi = tid.split("-", 1)
            if lo.isdigit() and hi.isdigit():
                skip_until = int(hi)
                out.append(cols[1])
            continue
        if "." in tid or not tid.isdigit():
            continue
        if int(tid) <= skip_until:
            continue
        skip_until = 0
        out.append(cols[1])
    return "".join("".join(out).split())


def find_pairs(note):
    """Return [(name, gold_path, sys_path)] and append a remark on their origin to `note`."""
    pairs = []
    for gold in sorted(glob.glob(os.path.join(SHARED_UD, "*", "gold.conllu"))):
        system = os.path.join(os.path.dirname(gold), "sys-raw.conllu")
        if os.path.isfile(system):
            pairs.append((os.path.basename(os.path.dirname(gold)), gold, system))
    if pairs:
        note.append(f"data: {len(pairs)} treebanks from {os.path.normpath(SHARED_UD)} "
                    "(gold.conllu vs sys-raw.conllu), concatenated and repeated")
        return pairs
    # Fallback: the project's own golden pairs.  Some of them are error cases (text mismatch,
    # cycles, ...), so keep only pairs whose forms match and which end properly.
    note.append(f"data: {os.path.normpath(SHARED_UD)} is ABSENT; falling back to repeating the "
                f"pairs in {os.path.relpath(GOLDEN, REPO)}/*/ (small, synthetic: numbers are "
                "less representative)")
    for d in sorted(glob.glob(os.path.join(GOLDEN, "*"))):
        if not os.path.isdir(d):
            continue
        gold = os.path.join(d, "gold.conllu")
        if not os.path.isfile(gold):
            continue
        system = None
        for cand in ("sys-raw.conllu", "system.conllu", "sys.conllu"):
            if os.path.isfile(os.path.join(d, cand)):
                system = os.path.join(d, cand)
                break
        if system is None:
            others = sorted(p for p in glob.glob(os.path.join(d, "*.conllu")) if p != gold)
            if len(others) != 1:
                continue
            system = others[0]
        try:
            with open(gold, "rb") as f:
                g = f.read()
            with open(system, "rb") as f:
                s = f.read()
            if count_words(g) == 0 or forms_text(g) != forms_text(s):
                continue
        except (OSError, UnicodeDecodeError, ValueError):
            continue
        pairs.append((os.path.basename(d), gold, system))
    return pairs


def cut_points(data: bytes):
    """Sentence ends of a CoNLL-U file: {non-space form chars so far: (byte offset, words so far)}.

    Offsets count the characters of the token forms (multi-word-token forms, not their words)
    without whitespace: the text the official scorer requires to be identical in gold and
    system.  A point present in both files is a place where both can be cut so that the two
    prefixes still hold the same text and end on a sentence boundary.
    """
    points = {0: (0, 0)}
    chars = words = pos = 0
    skip_until = 0
    in_sentence = False
    for line in data.split(b"\n"):
        pos += len(line) + 1
        if not line.strip():
            if in_sentence:
                points.setdefault(chars, (min(pos, len(data)), words))
            in_sentence = False
            skip_until = 0
            continue
        in_sentence = True
        if line.startswith(b"#"):
            continue
        cols = line.split(b"\t", 2)
        if len(cols) < 2:
            continue
        tid = cols[0]
        if tid.isdigit():
            words += 1
            if int(tid) <= skip_until:
                continue
            form = cols[1]
        elif b"-" in tid:
            hi = tid.split(b"-", 1)[1]
            skip_until = int(hi) if hi.isdigit() else 0
            form = cols[1]
        else:
            continue  # empty node
        chars += len("".join(form.decode("utf-8").split()))
    return points


def plan(pieces, target):
    """Decide what goes into a pair of about `target` gold words.

    Every size has the same composition: k whole copies of all pieces, then from each piece a
    prefix holding the same fraction r of its words (cut where gold and system both end a
    sentence at the same text offset).  Returns [(name, gold bytes, system bytes)] in order.
    """
    unit = sum(p["words"] for p in pieces)
    k, rest = divmod(target, unit)
    frac = rest / unit
    out = [(p["name"], p["gold"], p["system"]) for _ in range(k) for p in pieces]
    for p in pieces:
        want = frac * p["words"]
        if want <= 0:
            continue
        common = [(p["gp"][c], p["sp"][c]) for c in p["gp"].keys() & p["sp"].keys()]
        (gpos, gw), (spos, _) = min(common, key=lambda gs: (abs(gs[0][1] - want), gs[0][1]))
        if gw == 0:
            continue
        if gw == p["words"]:
            out.append((p["name"], p["gold"], p["system"]))
        else:
            out.append((f"{p['name']}[:{gw}w]", p["gold"][:gpos], p["system"][:spos]))
    return out


def cache_dir(arg):
    if arg:
        return arg
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    path = os.path.join(base, "conll_eval-bench")
    try:
        os.makedirs(path, exist_ok=True)
    except OSError:
        path = os.path.join(tempfile.gettempdir(), "conll_eval-bench")
    return path


def build_pair(label, target, pairs, cache):
    """Build (or reuse) the concatenated pair for `target` gold words; return its info dict."""
    key = hashlib.sha256()
    key.update(f"v2:{target}".encode())
    for name, gold, system in pairs:
        for p in (gold, system):
            st = os.stat(p)
            key.update(f"{os.path.abspath(p)}:{st.st_size}:{st.st_mtime_ns}".encode())
    digest = key.hexdigest()[:12]
    out_dir = os.path.join(cache, f"{label}-{digest}")
    meta_path = os.path.join(out_dir, "meta.json")
    if os.path.isfile(meta_path):
        with open(meta_path) as f:
            meta = json.load(f)
        if all(os.path.isfile(meta[k]) for k in ("gold", "system")):
            meta["cached"] = True
            return meta
    os.makedirs(cache, exist_ok=True)
    pieces = []
    for name, gold, system in pairs:
        with open(gold, "rb") as f:
            g = normalise_piece(f.read())
        with open(system, "rb") as f:
            s = normalise_piece(f.read())
        pieces.append({"name": name, "gold": g, "system": s, "words": count_words(g),
                       "gp": cut_points(g), "sp": cut_points(s)})
    order = plan(pieces, target)
    tmp = tempfile.mkdtemp(prefix=f".{label}-", dir=cache)
    try:
        words = 0
        with open(os.path.join(tmp, "gold.conllu"), "wb") as fg, \
                open(os.path.join(tmp, "system.conllu"), "wb") as fs:
            for _, g, s in order:
                # gold and system get exactly the same sequence of pieces
                fg.write(g)
                fs.write(s)
                words += count_words(g)
        meta = {
            "label": label,
            "target": target,
            "words": words,
            "pieces": [name for name, _, _ in order],
            "gold": os.path.join(out_dir, "gold.conllu"),
            "system": os.path.join(out_dir, "system.conllu"),
        }
        return publish_pair(tmp, out_dir, meta)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def publish_pair(tmp: str, out_dir: str, meta: dict) -> dict:
    """Put ``meta`` into the finished pair directory ``tmp`` and rename it to ``out_dir`` (a
    run never sees half a pair); ``meta`` with ``cached`` False."""
    with open(os.path.join(tmp, "meta.json"), "w") as f:
        json.dump(meta, f, indent=1)
    if os.path.isdir(out_dir):
        shutil.rmtree(out_dir)
    os.rename(tmp, out_dir)
    return {**meta, "cached": False}


# --------------------------------------------------------------------------- running


def gnu_time():
    path = "/usr/bin/time"
    if not os.access(path, os.X_OK):
        return None
    try:
        r = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return path if "GNU" in (r.stdout + r.stderr) else None


class Runner:
    """Runs a command as a child; returns (wall seconds, peak RSS MB, exit code, stdout, stderr)."""

    def __init__(self, use_gnu_time=True):
        self.time_bin = gnu_time() if use_gnu_time else None
        self.method = (f"{self.time_bin} -f '%e %M' (peak RSS), perf_counter (wall)"
                       if self.time_bin else "os.wait4 ru_maxrss (peak RSS), perf_counter (wall)")

    def run(self, cmd, env=None, cwd=None):
        with tempfile.TemporaryDirectory(prefix="conll_eval-bench-") as tmp:
            out_p, err_p, time_p = (os.path.join(tmp, n) for n in ("out", "err", "time"))
            with open(out_p, "wb") as out, open(err_p, "wb") as err:
                full = cmd
                if self.time_bin:
                    full = [self.time_bin, "-o", time_p, "-f", "%e %M"] + cmd
                t0 = time.perf_counter()
                proc = subprocess.Popen(full, stdout=out, stderr=err, stdin=subprocess.DEVNULL,
                                        env=env, cwd=cwd)
                _, status, usage = os.wait4(proc.pid, 0)
                wall = time.perf_counter() - t0
                proc.returncode = os.waitstatus_to_exitcode(status)
            with open(out_p, "rb") as f:
                stdout = f.read()
            with open(err_p, "rb") as f:
                stderr = f.read()
            rc = proc.returncode
            if self.time_bin:
                # GNU time exits with the command's status; its own line is in time_p
                try:
                    with open(time_p) as f:
                        last = [ln for ln in f.read().splitlines() if ln.strip()][-1]
                    kb = int(last.split()[-1])
                except (OSError, IndexError, ValueError):
                    kb = usage.ru_maxrss
            else:
                kb = usage.ru_maxrss  # Linux: kilobytes
            return wall, kb / 1024.0, rc, stdout, stderr


def find_official(skip):
    if skip:
        return None, "official: skipped (--skip-official)"
    d = find_oracles(install=True)
    if d is None:
        return None, ("official: UNAVAILABLE (no oracles in $CONLL_EVAL_ORACLES or "
                      "~/.cache/conll_eval-oracles, and 'make oracles' failed)")
    path = os.path.join(d, "conll18_ud_eval.py")
    return path, f"official: {path}"


#: where conll_eval's bytecode is cached during benchmarks (outside the repository)
PYCACHE = os.path.join(os.path.expanduser("~"), ".cache", "conll_eval-bench", "pycache")


def ours_env():
    """conll_eval's environment: this working tree first, and a bytecode cache as an installed
    program has (pip compiles .pyc files on install), also where the machine sets
    PYTHONDONTWRITEBYTECODE (this one does: every run would recompile ~40 ms of modules)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = REPO + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = PYCACHE
    return env


# --------------------------------------------------------------------------- report


def best_run(runner, cmd, env, repeat, prog, cwd=None):
    """(best wall seconds, largest peak MB, stdout of the first run) of ``repeat`` runs of
    ``cmd``; a failed run stops the bench with its stderr."""
    runs = [runner.run(cmd, env=env, cwd=cwd) for _ in range(max(1, repeat))]
    failed = [r for r in runs if r[2] != 0]
    if failed:
        raise SystemExit(f"{prog}: {' '.join(cmd)} failed:\n"
                         f"{failed[0][4].decode(errors='replace')}")
    return min(r[0] for r in runs), max(r[1] for r in runs), runs[0][3]


def print_report(rows, headers, verdicts, runner):
    """The table, the verdicts and how it was measured, on stdout."""
    print(table(rows, headers))
    print()
    print("\n".join(verdicts))
    print(f"measured with {runner.method}; python {sys.version.split()[0]}")


def fmt(x, spec=".2f", none="-"):
    return none if x is None else format(x, spec)


def ratio(a, b):
    return None if a is None or b is None or b == 0 else a / b


def table(rows, headers):
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]
    line = lambda cells: "  ".join(c.rjust(w) if i else c.ljust(w)
                                   for i, (c, w) in enumerate(zip(cells, widths)))
    out = [line(headers), line(["-" * w for w in widths])]
    out += [line(r) for r in rows]
    return "\n".join(out)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="100k,1m",
                    help="comma-separated gold-word targets, e.g. 100k,1m (default: %(default)s)")
    ap.add_argument("--repeat", type=int, default=3,
                    help="runs of conll_eval and floor per size; the best is kept (official runs "
                         "once) (default: %(default)s)")
    ap.add_argument("--skip-official", action="store_true", help="do not run the official scorer")
    ap.add_argument("--skip-ours", action="store_true", help="do not run conll_eval")
    ap.add_argument("--skip-validate", action="store_true",
                    help="do not time 'conll_eval validate' on the system files")
    ap.add_argument("--no-verbose-check", action="store_true",
                    help="skip the extra -v output comparison on the smallest pair")
    ap.add_argument("--cache-dir", default=None,
                    help="where the generated pairs live (default: ~/.cache/conll_eval-bench)")
    ap.add_argument("--no-gnu-time", action="store_true",
                    help="measure peak RSS with os.wait4 even if /usr/bin/time exists")
    ap.add_argument("--json", metavar="FILE", help="also write the results as JSON to FILE")
    args = ap.parse_args(argv)
    if args.repeat < 1:
        ap.error("--repeat must be >= 1")
    try:
        sizes = sorted({parse_size(s) for s in args.sizes.split(",") if s.strip()},
                       key=lambda s: s[1])
    except argparse.ArgumentTypeError as e:
        ap.error(str(e))
    if not sizes or sizes[0][1] < 1:
        ap.error("--sizes needs at least one positive size")

    notes = []
    pairs = find_pairs(notes)
    if not pairs:
        print("bench: no data: neither ../shared/ud nor usable testdata/golden/*/ pairs",
              file=sys.stderr)
        return 2
    cache = cache_dir(args.cache_dir)
    if os.path.commonpath([os.path.abspath(cache), REPO]) == REPO:
        ap.error("--cache-dir must be outside the repository")

    official, official_note = find_official(args.skip_official)
    notes.append(official_note)
    runner = Runner(use_gnu_time=not args.no_gnu_time)
    notes.append(f"measure: {runner.method}; best of {args.repeat} for floor and conll_eval, "
                 "official once")
    py = sys.executable
    env = ours_env()
    try:
        load_start = os.getloadavg()[0]
    except OSError:
        load_start = None
    problems = []
    results = []

    core = subprocess.run([py, "-m", "conll_eval", "--version"], capture_output=True, text=True,
                          env=env).stdout.strip()
    compiled = "compiled" in core
    notes.append(f"core: {core or 'unknown'}")
    # fixed costs: interpreter start (+ imports for conll_eval), to read the small sizes right
    startup = {}
    for key, cmd, kw in (("python", [py, "-c", "pass"], {}),
                         ("ours", [py, "-m", "conll_eval", "--version"], {"env": env})):
        if key == "ours" and args.skip_ours:
            continue
        times = []
        for _ in range(max(3, args.repeat)):
            wall, _, rc, _, _ = runner.run(cmd, **kw)
            if rc == 0:
                times.append(wall)
        if times:
            startup[key] = min(times)

    for label, target in sizes:
        t0 = time.perf_counter()
        meta = build_pair(label, target, pairs, cache)
        how = "cached" if meta["cached"] else f"built in {time.perf_counter() - t0:.1f}s"
        print(f"[{label}] {meta['words']} gold words, {len(meta['pieces'])} pieces ({how}): "
              f"{os.path.dirname(meta['gold'])}", file=sys.stderr, flush=True)
        gold, system = meta["gold"], meta["system"]
        with open(system, "rb") as handle:
            system_words = count_words(handle.read())
        res = {"label": label, "words": meta["words"], "system_words": system_words,
               "gold": gold, "system": system, "pieces": meta["pieces"]}

        def measure(name, cmd, n, ok_codes=(0,), **kw):
            best = None
            peak = 0.0
            for i in range(n):
                wall, mb, rc, out, err = runner.run(cmd, **kw)
                print(f"[{label}] {name} run {i + 1}/{n}: {wall:.3f}s {mb:.0f} MB rc={rc}",
                      file=sys.stderr, flush=True)
                if rc not in ok_codes:
                    problems.append(f"{name} on {label} exited {rc}: "
                                    f"{err.decode('utf-8', 'replace').strip()[-500:]}")
                    return {"time": None, "mb": mb, "rc": rc, "out": out, "err": err}
                best = wall if best is None else min(best, wall)
                peak = max(peak, mb)
            return {"time": best, "mb": peak, "rc": 0, "out": out, "err": err}

        res["floor"] = measure("floor", [py, "-c", FLOOR_CODE, gold, system], args.repeat)
        if compiled:
            res["floor_c"] = measure("compiled floor", [py, "-c", COMPILED_FLOOR_CODE, gold,
                                                        system], args.repeat, env=env)
        if not args.skip_ours:
            res["ours"] = measure("conll_eval", [py, "-m", "conll_eval", gold, system],
                                  args.repeat, env=env)
            if compiled:
                res["pure"] = measure("conll_eval pure", [py, "-m", "conll_eval", gold, system],
                                      args.repeat, env={**env, "CONLL_EVAL_PURE": "1"})
        if official:
            res["official"] = measure("official", [py, official, gold, system], 1,
                                      cwd=os.path.dirname(official))
        if not args.skip_ours and not args.skip_validate:
            # streaming validation (levels 1-2) of the system file; incidents are expected
            # (parser outputs often lack # text), only time and memory matter here
            res["validate"] = measure("validate", [py, "-m", "conll_eval", "validate", "--quiet",
                                                   system], 1, env=env, ok_codes=(0, 1))
        o, f = res.get("ours"), res.get("official")
        if o and f and o["rc"] == 0 and f["rc"] == 0:
            res["same_output"] = o["out"] == f["out"]
            if not res["same_output"]:
                problems.append(f"OUTPUT MISMATCH on {label} ({gold} vs {system}):\n"
                                f"  official: {f['out'].decode('utf-8', 'replace')!r}\n"
                                f"  conll_eval: {o['out'].decode('utf-8', 'replace')!r}")
        results.append(res)

    # extra exactness check: the full -v table on the smallest pair
    verbose_same = None
    small = results[0] if results else None
    if (small and official and not args.skip_ours and not args.no_verbose_check):
        outs = {}
        for name, cmd, kw in (
                ("official", [py, official, "-v", small["gold"], small["system"]],
                 {"cwd": os.path.dirname(official)}),
                ("conll_eval", [py, "-m", "conll_eval", "-v", small["gold"], small["system"]],
                 {"env": env})):
            r = subprocess.run(cmd, capture_output=True, **kw)
            outs[name] = (r.returncode, r.stdout)
        verbose_same = outs["official"] == outs["conll_eval"]
        if not verbose_same:
            problems.append(f"-v OUTPUT MISMATCH on {small['label']} "
                            f"({small['gold']} vs {small['system']}):\n"
                            f"  official (rc {outs['official'][0]}):\n"
                            f"{outs['official'][1].decode('utf-8', 'replace')}"
                            f"  conll_eval (rc {outs['conll_eval'][0]}):\n"
                            f"{outs['conll_eval'][1].decode('utf-8', 'replace')}")

    # ------------------------------------------------------------------ print
    headers = ["size", "words", "floor s", "compiled floor s", "conll_eval s", "pure s",
               "official s", "official/ce", "official/pure", "ce/compiled floor", "floor MB",
               "conll_eval MB", "pure MB", "official MB", "ce/off mem"]
    rows = []
    for r in results:
        fl, o, f = r["floor"], r.get("ours", {}), r.get("official", {})
        fc, pu = r.get("floor_c", {}), r.get("pure", {})
        speedup, pure_speedup = ratio(f.get("time"), o.get("time")), ratio(f.get("time"), pu.get("time"))
        rows.append([
            r["label"], f"{r['words']:,}",
            fmt(fl.get("time"), ".3f"), fmt(fc.get("time"), ".3f"), fmt(o.get("time"), ".3f"),
            fmt(pu.get("time"), ".3f"), fmt(f.get("time"), ".2f"),
            fmt(speedup, ".1f", "-") + ("x" if speedup else ""),
            fmt(pure_speedup, ".1f", "-") + ("x" if pure_speedup else ""),
            fmt(ratio(o.get("time"), fc.get("time")), ".2f"),
            fmt(fl.get("mb"), ".0f"), fmt(o.get("mb"), ".0f"), fmt(pu.get("mb"), ".0f"),
            fmt(f.get("mb"), ".0f"), fmt(ratio(o.get("mb"), f.get("mb")), ".3f"),
        ])
    sys.stderr.flush()
    print()
    print(table(rows, headers))
    print("(ce = conll_eval; times are wall seconds, MB = peak RSS of the child)")
    print()
    mem_rows = []
    for r in results:
        read = (r["words"] + r["system_words"]) / 1e6
        o, f, v = r.get("ours", {}), r.get("official", {}), r.get("validate", {})
        mem_rows.append([
            r["label"], f"{r['words'] + r['system_words']:,}",
            fmt(ratio(o.get("mb"), read), ".0f"), fmt(ratio(f.get("mb"), read), ".0f"),
            f"{r['system_words']:,}", fmt(v.get("time"), ".2f"), fmt(v.get("mb"), ".0f")])
    print(table(mem_rows, ["size", "words read (gold+system)", "ce MB per M words read",
                           "official MB per M words read", "validated words",
                           "validate s", "validate MB"]))
    print("(validate = 'conll_eval validate --quiet SYSTEM', levels 1-2, streaming)")
    print()

    lin = {}
    if len(results) >= 2:
        a, b = results[0], results[-1]
        wr = b["words"] / a["words"]
        for key, name in (("ours", "conll_eval"), ("floor", "floor"), ("official", "official")):
            ta = a.get(key, {}).get("time")
            tb = b.get(key, {}).get("time")
            if ta and tb:
                lin[key] = (tb / ta, (tb / ta) / wr)
        parts = [f"{name} {lin[k][0]:.2f} (per word {lin[k][1]:.3f})"
                 for k, name in (("ours", "conll_eval"), ("floor", "floor"),
                                 ("official", "official")) if k in lin]
        print(f"linearity: time {b['label']}/{a['label']} (words x{wr:.2f}): " +
              (", ".join(parts) if parts else "-"))
        st = startup.get("ours")
        if "ours" in lin and st is not None:
            ta, tb = a["ours"]["time"] - st, b["ours"]["time"] - st
            if ta > 0:
                lin["ours_net"] = (tb / ta, (tb / ta) / wr)
                print(f"linearity net of conll_eval startup ({st:.3f}s): conll_eval "
                      f"{lin['ours_net'][0]:.2f} (per word {lin['ours_net'][1]:.3f})")
    if startup:
        print("startup (best, no input): " + ", ".join(
            f"{n} {startup[k]:.3f}s" for k, n in (("python", "python -c pass"),
                                                 ("ours", "python -m conll_eval --version"))
            if k in startup))

    for r in results:
        if "same_output" in r:
            print(f"exactness {r['label']}: conll_eval output "
                  f"{'EQUALS' if r['same_output'] else 'DIFFERS FROM'} the official output")
    if verbose_same is not None:
        print(f"exactness {small['label']} -v: conll_eval output "
              f"{'EQUALS' if verbose_same else 'DIFFERS FROM'} the official output")
    if not any("same_output" in r for r in results):
        print("exactness: not checked (needs both conll_eval and the official scorer)")

    # targets, judged on the largest size
    big = results[-1] if results else None
    if big and big.get("ours", {}).get("time"):
        o, f, fl = big["ours"], big.get("official", {}), big["floor"]
        checks = []
        sp = ratio(f.get("time"), o["time"])
        mem = ratio(o["mb"], f.get("mb"))
        if sp is not None:
            checks.append(f"speed >=60x official (issue 17): {'ok' if sp >= 60 else 'MISSED'} "
                          f"({sp:.1f}x)")
        if mem is not None:
            checks.append(f"peak memory <=0.15x official: {'ok' if mem <= 0.15 else 'MISSED'} "
                          f"({mem:.3f})")
        fc = ratio(o["time"], big.get("floor_c", {}).get("time"))
        if fc is not None:
            checks.append(f"time <=2x compiled floor: {'ok' if fc <= 2.0 else 'MISSED'} "
                          f"({fc:.2f}x)")
        small_r = results[0]
        small_sp = ratio(small_r.get("official", {}).get("time"), small_r.get("ours", {}).get("time"))
        if len(results) >= 2 and small_sp is not None:
            checks.append(f"speed >=12x official on {small_r['label']}: "
                          f"{'ok' if small_sp >= 12 else 'MISSED'} ({small_sp:.1f}x)")
        if "ours" in lin:
            # only growing per-word cost counts against linearity (startup makes small sizes
            # relatively dearer, so a ratio below 1 is expected and fine)
            dev = lin["ours"][1] - 1.0
            net = ""
            if "ours_net" in lin:
                nd = lin["ours_net"][1] - 1.0
                net = (f"; net of startup {lin['ours_net'][1]:.3f}"
                       f"{'' if nd <= 0.10 else ', which would miss'}")
            checks.append(f"linear (per-word time at most 1.1x): {'ok' if dev <= 0.10 else 'MISSED'} "
                          f"(per-word time ratio {lin['ours'][1]:.3f}{net})")
        small_v, big_v = results[0].get("validate", {}), big.get("validate", {})
        if len(results) >= 2 and small_v.get("mb") and big_v.get("mb"):
            grow = big_v["mb"] / small_v["mb"]
            checks.append(f"validator memory bounded (x{big['system_words'] / results[0]['system_words']:.0f}"
                          f" words -> x{grow:.2f} MB): {'ok' if grow <= 1.5 else 'MISSED'}")
        print(f"targets ({big['label']}):")
        for c in checks:
            print(f"  {c}")

    try:
        cpu_model = ""
        with open("/proc/cpuinfo") as fh:
            for ln in fh:
                if ln.startswith("model name"):
                    cpu_model = ln.split(":", 1)[1].strip()
                    break
    except OSError:
        cpu_model = ""
    print(f"machine: {platform.platform()}; {platform.machine()}"
          f"{' ' + cpu_model if cpu_model else ''}; {os.cpu_count()} CPUs; "
          f"Python {platform.python_version()} ({platform.python_implementation()}) {py}")
    if load_start is not None:
        print(f"load average (1 min) before the runs: {load_start:.2f}"
              + ("  <- other work was running: timings are noisy" if load_start > 0.7 else ""))
    for n in notes:
        print(n)
    for r in results:
        print(f"pair {r['label']}: {r['gold']} / {r['system']} ({len(r['pieces'])} pieces)")
    if problems:
        print()
        for p in problems:
            print(f"PROBLEM: {p}")

    if args.json:
        dump = {"results": [{k: ({kk: vv for kk, vv in v.items() if kk not in ("out", "err")}
                                 if isinstance(v, dict) else v) for k, v in r.items()}
                            for r in results],
                "linearity": lin, "startup": startup, "verbose_same": verbose_same, "notes": notes,
                "problems": problems,
                "machine": {"platform": platform.platform(), "cpus": os.cpu_count(),
                            "python": platform.python_version(), "cpu": cpu_model}}
        with open(args.json, "w") as fh:
            json.dump(dump, fh, indent=1)
    sys.stdout.flush()
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

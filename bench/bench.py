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

# read as conll_eval reads: 2 MiB blocks into one reused buffer, the unfinished last line
# carried to the next block (a whole-file read would add ~40k page faults of its own)
COMPILED_FLOOR_CODE = (
    "import sys\n"
    "import numpy as np\n"
    "from conll_eval._cscan import field_bounds\n"
    "buffer = bytearray(2 << 20)\n"
    "for path in sys.argv[1:]:\n"
    "    carry = 0\n"
    "    with open(path, 'rb', buffering=0) as f:\n"
    "        while True:\n"
    "            if carry == len(buffer):\n"
    "                buffer.extend(bytes(len(buffer)))\n"
    "            with memoryview(buffer) as view:\n"
    "                n = f.readinto(view[carry:])\n"
    "            end = carry + n\n"
    "            cut = buffer.rfind(b'\\n', 0, end) + 1 if n else end\n"
    "            if cut:\n"
    "                with memoryview(buffer) as view:\n"
    "                    field_bounds(np.frombuffer(view[:cut], dtype=np.uint8))\n"
    "            if not n:\n"
    "                break\n"
    "            buffer[:end - cut] = buffer[cut:end]\n"
    "            carry = end - cut\n"
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


def build_pair(label, target, pairs, cache, copies=None):
    """Build (or reuse) the concatenated pair for `target` gold words (the mix: whole copies
    of every piece, then a share of each), or of `copies` whole copies of every piece (the
    ten pairs repeated whole); return its info dict."""
    key = hashlib.sha256()
    key.update(f"v2:{target}".encode() if copies is None else f"v2:whole:{copies}".encode())
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
    order = plan(pieces, target) if copies is None else \
        [(p["name"], p["gold"], p["system"]) for _ in range(copies) for p in pieces]
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
    """Runs a command as a child: :meth:`measured` gives wall seconds, peak RSS MB, user and
    sys CPU seconds, minor page faults, exit code, stdout and stderr; :meth:`run` the first
    two, the exit code and the outputs (what the other benches unpack)."""

    def __init__(self, use_gnu_time=True):
        self.time_bin = gnu_time() if use_gnu_time else None
        self.method = (f"{self.time_bin} -f '%e %M %U %S %R' (peak RSS, CPU, page faults), "
                       "perf_counter (wall)" if self.time_bin else
                       "os.wait4 rusage (peak RSS, CPU, page faults), perf_counter (wall)")

    def run(self, cmd, env=None, cwd=None):
        r = self.measured(cmd, env=env, cwd=cwd)
        return r["time"], r["mb"], r["rc"], r["out"], r["err"]

    def measured(self, cmd, env=None, cwd=None) -> dict:
        with tempfile.TemporaryDirectory(prefix="conll_eval-bench-") as tmp:
            out_p, err_p, time_p = (os.path.join(tmp, n) for n in ("out", "err", "time"))
            with open(out_p, "wb") as out, open(err_p, "wb") as err:
                full = [self.time_bin, "-o", time_p, "-f", "%e %M %U %S %R"] + cmd \
                    if self.time_bin else cmd
                t0 = time.perf_counter()
                proc = subprocess.Popen(full, stdout=out, stderr=err, stdin=subprocess.DEVNULL,
                                        env=env, cwd=cwd)
                _, status, usage = os.wait4(proc.pid, 0)
                wall = time.perf_counter() - t0
            with open(out_p, "rb") as f:
                stdout = f.read()
            with open(err_p, "rb") as f:
                stderr = f.read()
            # GNU time exits with the command's status; its own line is the last of time_p
            kb, user, system, faults = usage.ru_maxrss, usage.ru_utime, usage.ru_stime, usage.ru_minflt
            if self.time_bin:
                try:
                    with open(time_p) as f:
                        last = [ln for ln in f.read().splitlines() if ln.strip()][-1].split()
                    kb, user, system, faults = int(last[1]), float(last[2]), float(last[3]), int(last[4])
                except (OSError, IndexError, ValueError):
                    pass
            return {"time": wall, "mb": kb / 1024.0, "user": user, "sys": system,
                    "faults": faults, "rc": os.waitstatus_to_exitcode(status),
                    "out": stdout, "err": stderr}


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


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="100k,1m",
                    help="comma-separated gold-word targets of the mix shape, e.g. 100k,1m "
                         "(default: %(default)s)")
    ap.add_argument("--whole-copies", type=int, default=3,
                    help="the second shape: the ten pairs repeated whole this many times "
                         "(default: %(default)s; 0: none)")
    ap.add_argument("--repeat", type=int, default=3,
                    help="runs of conll_eval and floor per pair; the best is kept (the official "
                         "scorer runs once, after the first round) (default: %(default)s)")
    ap.add_argument("--skip-official", action="store_true", help="do not run the official scorer")
    ap.add_argument("--skip-ours", action="store_true", help="do not run conll_eval")
    ap.add_argument("--skip-validate", action="store_true",
                    help="do not time 'conll_eval validate' on the system files")
    ap.add_argument("--no-verbose-check", action="store_true",
                    help="skip the extra -v output comparison on the smallest pair")
    ap.add_argument("--cache-dir", default=None,
                    help="where the generated pairs live (default: ~/.cache/conll_eval-bench)")
    ap.add_argument("--no-gnu-time", action="store_true",
                    help="measure with os.wait4 even if /usr/bin/time exists")
    ap.add_argument("--json", metavar="FILE", help="also write the results as JSON to FILE")
    args = ap.parse_args(argv)
    if args.repeat < 1:
        ap.error("--repeat must be >= 1")
    if args.whole_copies < 0:
        ap.error("--whole-copies must be >= 0")
    try:
        args.size_list = sorted({parse_size(s) for s in args.sizes.split(",") if s.strip()},
                                key=lambda s: s[1])
    except argparse.ArgumentTypeError as e:
        ap.error(str(e))
    if not args.size_list or args.size_list[0][1] < 1:
        ap.error("--sizes needs at least one positive size")
    args.cache = cache_dir(args.cache_dir)
    if os.path.commonpath([os.path.abspath(args.cache), REPO]) == REPO:
        ap.error("--cache-dir must be outside the repository")
    return args


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as fh:
            for ln in fh:
                if ln.startswith("model name"):
                    return ln.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def run_line(label, name, i, n, r) -> str:
    return (f"[{label}] {name} run {i + 1}/{n}: {r['time']:.3f}s wall, user {r['user']:.2f}s, "
            f"sys {r['sys']:.2f}s, {r['faults']} minor faults, {r['mb']:.0f} MB, rc={r['rc']}")


def measure_pair(meta, args, runner, commands, official, problems) -> dict:
    """Every command on one pair, interleaved: ``--repeat`` rounds of each of ``commands``
    (name, argv, env, ok codes), the official scorer once after the first round.  Per
    command the best run by wall time, with the largest peak memory of its runs."""
    label = meta["label"]
    results: dict = {name: [] for name, *_ in commands}
    order = []
    for i in range(args.repeat):
        order += [(name, cmd, env, ok, i, args.repeat) for name, cmd, env, ok in commands]
        if i == 0 and official:
            order.append(("official", official, None, (0,), 0, 1))
            results["official"] = []
    for name, cmd, env, ok, i, n in order:
        r = runner.measured(cmd, env=env, cwd=os.path.dirname(cmd[1]) if name == "official" else None)
        print(run_line(label, name, i, n, r), file=sys.stderr, flush=True)
        if r["rc"] not in ok:
            problems.append(f"{name} on {label} exited {r['rc']}: "
                            f"{r['err'].decode('utf-8', 'replace').strip()[-500:]}")
        results[name].append(r)
    best = {}
    for name, runs in results.items():
        good = [r for r in runs if r["rc"] in dict((c[0], c[3]) for c in commands).get(name, (0,))]
        if not good:
            best[name] = {"time": None, "mb": max(r["mb"] for r in runs), "rc": runs[0]["rc"]}
            continue
        pick = dict(min(good, key=lambda r: r["time"]))
        pick["mb"] = max(r["mb"] for r in runs)
        best[name] = pick
    return best


def pair_commands(py, env, gold, system, args, compiled):
    floor = [("floor", [py, "-c", FLOOR_CODE, gold, system], None, (0,))]
    if compiled:
        floor.append(("compiled floor", [py, "-c", COMPILED_FLOOR_CODE, gold, system], env, (0,)))
    ours = []
    if not args.skip_ours:
        ours.append(("conll_eval", [py, "-m", "conll_eval", gold, system], env, (0,)))
        if compiled:
            ours.append(("pure", [py, "-m", "conll_eval", gold, system],
                         {**env, "CONLL_EVAL_PURE": "1"}, (0,)))
    return ours + floor


def bench_pair(meta, args, runner, py, env, official, compiled, problems) -> dict:
    gold, system = meta["gold"], meta["system"]
    with open(system, "rb") as handle:
        system_words = count_words(handle.read())
    res = {"label": meta["label"], "shape": meta.get("shape", "mix"), "words": meta["words"],
           "system_words": system_words, "gold": gold, "system": system,
           "pieces": meta["pieces"],
           "bytes": os.path.getsize(gold) + os.path.getsize(system)}
    measured = measure_pair(meta, args, runner, pair_commands(py, env, gold, system, args, compiled),
                            [py, official, gold, system] if official else None, problems)
    for key, name in (("floor", "floor"), ("floor_c", "compiled floor"), ("ours", "conll_eval"),
                      ("pure", "pure"), ("official", "official")):
        if name in measured:
            res[key] = measured[name]
    if not args.skip_ours and not args.skip_validate:
        # streaming validation (levels 1-2) of the system file; incidents are expected
        # (parser outputs often lack # text), only time and memory matter here
        r = runner.measured([py, "-m", "conll_eval", "validate", "--quiet", system], env=env)
        print(run_line(meta["label"], "validate", 0, 1, r), file=sys.stderr, flush=True)
        res["validate"] = r
    o, f = res.get("ours"), res.get("official")
    if o and f and o.get("time") and f.get("time"):
        res["same_output"] = o["out"] == f["out"]
        if not res["same_output"]:
            problems.append(f"OUTPUT MISMATCH on {meta['label']} ({gold} vs {system}):\n"
                            f"  official: {f['out'].decode('utf-8', 'replace')!r}\n"
                            f"  conll_eval: {o['out'].decode('utf-8', 'replace')!r}")
    return res


def verbose_check(small, py, env, official, problems):
    """The full -v table of both on the smallest pair: True when equal."""
    outs = {}
    for name, cmd, kw in (
            ("official", [py, official, "-v", small["gold"], small["system"]],
             {"cwd": os.path.dirname(official)}),
            ("conll_eval", [py, "-m", "conll_eval", "-v", small["gold"], small["system"]],
             {"env": env})):
        r = subprocess.run(cmd, capture_output=True, **kw)
        outs[name] = (r.returncode, r.stdout)
    same = outs["official"] == outs["conll_eval"]
    if not same:
        problems.append(f"-v OUTPUT MISMATCH on {small['label']} ({small['gold']} vs "
                        f"{small['system']}):\n  official (rc {outs['official'][0]}):\n"
                        f"{outs['official'][1].decode('utf-8', 'replace')}"
                        f"  conll_eval (rc {outs['conll_eval'][0]}):\n"
                        f"{outs['conll_eval'][1].decode('utf-8', 'replace')}")
    return same


def read_rates(r, startup):
    """The compiled floor's MB/s over gold + system: start-up included, and net of its
    start-up (its code reading no file), which is the reading alone."""
    seconds = r.get("floor_c", {}).get("time")
    whole = ratio(r["bytes"] / 1e6, seconds)
    if seconds is None or startup.get("floor_c") is None or seconds <= startup["floor_c"]:
        return whole, None
    return whole, r["bytes"] / 1e6 / (seconds - startup["floor_c"])


def time_table(results, startup):
    headers = ["pair", "words", "floor s", "compiled floor s", "read MB/s", "net MB/s",
               "conll_eval s", "pure s", "official s", "official/ce", "official/pure",
               "ce/compiled floor"]
    rows = []
    for r in results:
        fl, o, f = r["floor"], r.get("ours", {}), r.get("official", {})
        fc, pu = r.get("floor_c", {}), r.get("pure", {})
        speedup, pure_speedup = ratio(f.get("time"), o.get("time")), ratio(f.get("time"), pu.get("time"))
        read, net = read_rates(r, startup)
        rows.append([r["label"], f"{r['words']:,}", fmt(fl.get("time"), ".3f"),
                     fmt(fc.get("time"), ".3f"), fmt(read, ".0f"), fmt(net, ".0f"),
                     fmt(o.get("time"), ".3f"),
                     fmt(pu.get("time"), ".3f"), fmt(f.get("time"), ".2f"),
                     fmt(speedup, ".1f", "-") + ("x" if speedup else ""),
                     fmt(pure_speedup, ".1f", "-") + ("x" if pure_speedup else ""),
                     fmt(ratio(o.get("time"), fc.get("time")), ".2f")])
    return table(rows, headers)


def resource_table(results):
    headers = ["pair", "ce user s", "ce sys s", "ce sys/wall", "ce faults", "ce MB",
               "official user s", "official sys s", "official faults", "official MB",
               "ce/off mem", "ce MB per M words read"]
    rows = []
    for r in results:
        o, f = r.get("ours", {}), r.get("official", {})
        read = (r["words"] + r["system_words"]) / 1e6
        rows.append([r["label"], fmt(o.get("user")), fmt(o.get("sys")),
                     fmt(ratio(o.get("sys"), o.get("time")), ".0%"),
                     fmt(o.get("faults"), ","), fmt(o.get("mb"), ".0f"), fmt(f.get("user")),
                     fmt(f.get("sys")), fmt(f.get("faults"), ","), fmt(f.get("mb"), ".0f"),
                     fmt(ratio(o.get("mb"), f.get("mb")), ".3f"), fmt(ratio(o.get("mb"), read), ".0f")])
    return table(rows, headers)


def validate_table(results):
    rows = [[r["label"], f"{r['system_words']:,}", fmt(r.get("validate", {}).get("time")),
             fmt(r.get("validate", {}).get("mb"), ".0f")] for r in results]
    return table(rows, ["pair", "validated words", "validate s", "validate MB"])


def linearity(results, startup):
    """Time of the largest mix pair over the smallest, per word (1.0: linear)."""
    mix = [r for r in results if r["shape"] == "mix"]
    lin, lines = {}, []
    if len(mix) < 2:
        return lin, lines
    a, b = mix[0], mix[-1]
    wr = b["words"] / a["words"]
    for key in ("ours", "floor", "official"):
        ta, tb = a.get(key, {}).get("time"), b.get(key, {}).get("time")
        if ta and tb:
            lin[key] = (tb / ta, (tb / ta) / wr)
    names = (("ours", "conll_eval"), ("floor", "floor"), ("official", "official"))
    lines.append(f"linearity: time {b['label']}/{a['label']} (words x{wr:.2f}): " + (", ".join(
        f"{name} {lin[k][0]:.2f} (per word {lin[k][1]:.3f})" for k, name in names if k in lin) or "-"))
    st = startup.get("ours")
    if "ours" in lin and st is not None:
        ta, tb = a["ours"]["time"] - st, b["ours"]["time"] - st
        if ta > 0:
            lin["ours_net"] = (tb / ta, (tb / ta) / wr)
            lines.append(f"linearity net of conll_eval startup ({st:.3f}s): conll_eval "
                         f"{lin['ours_net'][0]:.2f} (per word {lin['ours_net'][1]:.3f})")
    return lin, lines


def target_lines(results, startup):
    """The targets of issue 29, judged on this machine: each pair of 1M words or the
    whole-repeat shape at >= 100x the official scorer, <= 0.12x its peak memory, sys time
    <= 10% of wall; the compiled read floor >= 500 MB/s; the smallest mix pair >= 25x."""
    checks = []
    big = [r for r in results if r["words"] >= 400_000]
    for r in big:
        o, f = r.get("ours", {}), r.get("official", {})
        if not o.get("time"):
            continue
        sp, mem = ratio(f.get("time"), o["time"]), ratio(o["mb"], f.get("mb"))
        if sp is not None:
            checks.append(f"{r['label']}: speed >= 100x official: {'ok' if sp >= 100 else 'MISSED'} ({sp:.1f}x)")
        if mem is not None:
            checks.append(f"{r['label']}: peak memory <= 0.12x official: {'ok' if mem <= 0.12 else 'MISSED'} ({mem:.3f})")
        share = o["sys"] / o["time"]
        checks.append(f"{r['label']}: sys time <= 10% of wall: {'ok' if share <= 0.10 else 'MISSED'} "
                      f"({share:.0%}; {o['faults']:,} minor page faults)")
        read, net = read_rates(r, startup)
        if net is not None:
            checks.append(f"{r['label']}: compiled read floor >= 500 MB/s: "
                          f"{'ok' if net >= 500 else 'MISSED'} ({net:.0f} MB/s reading; "
                          f"{read:.0f} MB/s with its {startup['floor_c']:.3f} s start-up)")
        elif read is not None:
            checks.append(f"{r['label']}: compiled read floor >= 500 MB/s: "
                          f"{'ok' if read >= 500 else 'MISSED'} ({read:.0f} MB/s, start-up included)")
    mix = [r for r in results if r["shape"] == "mix"]
    if len(mix) >= 2:
        small = mix[0]
        sp = ratio(small.get("official", {}).get("time"), small.get("ours", {}).get("time"))
        if sp is not None:
            checks.append(f"{small['label']}: speed >= 25x official: {'ok' if sp >= 25 else 'MISSED'} ({sp:.1f}x)")
    return checks


#: conll_eval's fixed cost, reading nothing: the interpreter and what scoring a pair imports
#: (the scoring stack, numpy, the compiled core). ``python -m conll_eval --version`` measured it
#: until --version stopped loading the scoring stack (issue 41: it loads only what it prints).
STARTUP_CODE = ("import conll_eval.cli.score, conll_eval.evaluate, conll_eval.report.official; "
                "from conll_eval.compiled import core_description; core_description()")


def startup_times(runner, py, env, args, compiled) -> dict:
    """Fixed costs: interpreter start (+ imports for conll_eval, and for the compiled floor: its
    code reading no file), to read the small sizes right."""
    startup = {}
    for key, cmd, kw in (("python", [py, "-c", "pass"], {}),
                         ("ours", [py, "-c", STARTUP_CODE], {"env": env}),
                         ("floor_c", [py, "-c", COMPILED_FLOOR_CODE], {"env": env})):
        if key == "ours" and args.skip_ours or key == "floor_c" and not compiled:
            continue
        times = [r["time"] for r in (runner.measured(cmd, **kw) for _ in range(max(3, args.repeat)))
                 if r["rc"] == 0]
        if times:
            startup[key] = min(times)
    return startup


def build_pairs(args, pairs):
    metas = []
    shapes = [(label, target, None) for label, target in args.size_list]
    if args.whole_copies:
        shapes.append((f"whole{args.whole_copies}", 0, args.whole_copies))
    for label, target, copies in shapes:
        t0 = time.perf_counter()
        meta = build_pair(label, target, pairs, args.cache, copies)
        meta["shape"] = "mix" if copies is None else "whole"
        how = "cached" if meta["cached"] else f"built in {time.perf_counter() - t0:.1f}s"
        print(f"[{label}] {meta['words']} gold words, {len(meta['pieces'])} pieces ({how}): "
              f"{os.path.dirname(meta['gold'])}", file=sys.stderr, flush=True)
        metas.append(meta)
    return metas


def main(argv=None):
    args = parse_args(argv)
    notes = []
    pairs = find_pairs(notes)
    if not pairs:
        print("bench: no data: neither ../shared/ud nor usable testdata/golden/*/ pairs",
              file=sys.stderr)
        return 2
    official, official_note = find_official(args.skip_official)
    notes.append(official_note)
    runner = Runner(use_gnu_time=not args.no_gnu_time)
    notes.append(f"measure: {runner.method}; best of {args.repeat} for floor and conll_eval, "
                 "official once, interleaved (after the first round)")
    py, env = sys.executable, ours_env()
    try:
        load_start = os.getloadavg()[0]
    except OSError:
        load_start = None
    problems, results = [], []
    core = subprocess.run([py, "-m", "conll_eval", "--version"], capture_output=True, text=True,
                          env=env).stdout.strip()
    compiled = "compiled" in core
    notes.append(f"core: {core or 'unknown'}")
    print(f"CPU: {cpu_model()}; {os.cpu_count()} CPUs", file=sys.stderr, flush=True)
    startup = startup_times(runner, py, env, args, compiled)
    for meta in build_pairs(args, pairs):
        results.append(bench_pair(meta, args, runner, py, env, official, compiled, problems))
    verbose_same = None
    if results and official and not args.skip_ours and not args.no_verbose_check:
        verbose_same = verbose_check(results[0], py, env, official, problems)
    sys.stderr.flush()
    print()
    print(time_table(results, startup))
    print("(ce = conll_eval; times are wall seconds, the best run; read MB/s: gold + system "
          "bytes over the compiled floor's time; net: over that time less the floor's start-up)")
    print()
    print(resource_table(results))
    print("(the best run's CPU seconds and minor page faults; MB = the largest peak RSS of the runs)")
    print()
    if not args.skip_ours and not args.skip_validate:
        print(validate_table(results))
        print("(validate = 'conll_eval validate --quiet SYSTEM', levels 1-2, streaming)")
        print()
    lin, lin_lines = linearity(results, startup)
    for line in lin_lines:
        print(line)
    if startup:
        print("startup (best, no input): " + ", ".join(
            f"{n} {startup[k]:.3f}s" for k, n in (("python", "python -c pass"),
                                                 ("floor_c", "compiled floor reading nothing"),
                                                 ("ours", "conll_eval's scoring imports"))
            if k in startup))
    for r in results:
        if "same_output" in r:
            print(f"exactness {r['label']}: conll_eval output "
                  f"{'EQUALS' if r['same_output'] else 'DIFFERS FROM'} the official output")
    if verbose_same is not None:
        print(f"exactness {results[0]['label']} -v: conll_eval output "
              f"{'EQUALS' if verbose_same else 'DIFFERS FROM'} the official output")
    checks = target_lines(results, startup)
    if checks:
        print("targets (issue 29):")
        for c in checks:
            print(f"  {c}")
    print(f"machine: {platform.platform()}; {cpu_model()}; {os.cpu_count()} CPUs; "
          f"Python {platform.python_version()} ({platform.python_implementation()}) {py}")
    if load_start is not None:
        print(f"load average (1 min) before the runs: {load_start:.2f}"
              + ("  <- other work was running: timings are noisy" if load_start > 0.7 else ""))
    for n in notes:
        print(n)
    for r in results:
        print(f"pair {r['label']}: {r['gold']} / {r['system']} ({len(r['pieces'])} pieces)")
    for p in problems:
        print(f"PROBLEM: {p}")
    if args.json:
        write_json(args.json, results, lin, startup, verbose_same, notes, problems)
    sys.stdout.flush()
    return 1 if problems else 0


def write_json(path, results, lin, startup, verbose_same, notes, problems):
    dump = {"results": [{k: ({kk: vv for kk, vv in v.items() if kk not in ("out", "err")}
                             if isinstance(v, dict) else v) for k, v in r.items()}
                        for r in results],
            "linearity": lin, "startup": startup, "verbose_same": verbose_same, "notes": notes,
            "problems": problems,
            "machine": {"platform": platform.platform(), "cpus": os.cpu_count(),
                        "python": platform.python_version(), "cpu": cpu_model()}}
    with open(path, "w") as fh:
        json.dump(dump, fh, indent=1)


if __name__ == "__main__":
    sys.exit(main())

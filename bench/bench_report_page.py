#!/usr/bin/env python3
"""Benchmark how fast the HTML report opens in headless Chromium (issue 30, point 12).

A benchmark, not a test.  It writes two pages from ../shared/ud, read at run time:

* ``en_ewt``: ``conll_eval report gold.conllu sys-gold-tok.conllu sys-raw.conllu``
  (2 systems, 2,077 sentences);
* a 3-treebank suite (``--treebanks``, default en_ewt,de_gsd,fr_gsd): ``conll_eval suite``
  over two system folders (sys-gold-tok, sys-raw) ``--html``;

then opens each ``--repeat`` times (a fresh tab each time) and prints, in ms after navigation
starts, the median and range of: ``first_paint`` (first contentful paint: the summary
tables), ``ready`` (the sentence browser usable: list drawn, first sentence shown), and the
browser script's own time (``script``).  Pass ``--json`` for a machine-readable record.

    python bench/bench_report_page.py [--repeat 7] [--treebanks en_ewt,de_gsd,fr_gsd]
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
SHARED_UD = REPO.parent / "shared" / "ud"
sys.path.insert(0, str(REPO / "tests"))

from browser import Browser, find_chromium  # noqa: E402  (the tests' driver)

TIMES = """(function () {
  var paint = performance.getEntriesByName('first-contentful-paint')[0];
  var api = window.conllEvalReport || {};
  return {first_paint: paint ? paint.startTime : null, ready: api.readyAt || null,
          script: api.initMs || null, bytes: document.documentElement.outerHTML.length};
})()"""


def conll_eval(*args, cwd) -> None:
    """``python -m conll_eval ARGS`` in ``cwd`` (the conll_eval importable there: installed,
    or on $PYTHONPATH)."""
    subprocess.run([sys.executable, "-m", "conll_eval", *map(str, args)], check=True,
                   stdout=subprocess.DEVNULL, cwd=cwd)


def write_pages(folder: Path, treebanks) -> dict:
    ewt = SHARED_UD / "en_ewt"
    single = folder / "en_ewt.html"
    conll_eval("report", ewt / "gold.conllu", ewt / "sys-gold-tok.conllu", ewt / "sys-raw.conllu",
               "-o", single, cwd=folder)
    dirs = {name: folder / name for name in ("gold", "sys-gold-tok", "sys-raw")}
    for name, path in dirs.items():
        path.mkdir()
        for treebank in treebanks:
            (path / f"{treebank}.conllu").symlink_to(SHARED_UD / treebank / f"{name}.conllu")
    suite = folder / "suite.html"
    conll_eval("suite", dirs["gold"], dirs["sys-gold-tok"], dirs["sys-raw"], "--html", suite,
               cwd=folder)
    return {"en_ewt (2 systems)": single, f"suite ({len(treebanks)} treebanks, 2 systems)": suite}


def wait_ready(browser: Browser) -> None:
    """Until the browser is ready and the first contentful paint is recorded."""
    browser.evaluate("new Promise(function (done) { (function poll() {"
                     " if (window.conllEvalReport && conllEvalReport.ready &&"
                     " performance.getEntriesByName('first-contentful-paint').length) { done(true); }"
                     " else { setTimeout(poll, 10); } })(); })")


def measure(path: Path, repeat: int) -> dict:
    rows = []
    for _ in range(repeat):
        with Browser(find_chromium()) as browser:
            browser.navigate(path.as_uri())
            wait_ready(browser)
            rows.append(browser.evaluate(TIMES))
    out = {"bytes": path.stat().st_size}
    for key in ("first_paint", "ready", "script"):
        values = [r[key] for r in rows if r[key] is not None]
        out[key] = {"median": round(statistics.median(values)), "min": round(min(values)),
                    "max": round(max(values))}
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--treebanks", default="en_ewt,de_gsd,fr_gsd")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if find_chromium() is None or not SHARED_UD.is_dir():
        print("needs chromium and ../shared/ud", file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory(prefix="conll_eval-page-") as tmp:
        pages = write_pages(Path(tmp), args.treebanks.split(","))
        result = {name: measure(path, args.repeat) for name, path in pages.items()}
    if args.json:
        print(json.dumps(result, indent=1))
        return 0
    print(f"{'page':38} {'MB':>5}  {'first paint ms':>16}  {'ready ms':>16}  {'script ms':>16}")
    for name, row in result.items():
        cells = "  ".join(f"{row[k]['median']:>5} ({row[k]['min']}-{row[k]['max']})".rjust(16)
                          for k in ("first_paint", "ready", "script"))
        print(f"{name:38} {row['bytes'] / 1e6:5.2f}  {cells}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

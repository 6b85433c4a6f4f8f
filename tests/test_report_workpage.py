"""The HTML report as a page people work in (issue 30), in headless Chromium: the list takes
the keys only while it has focus, search finds the sentence's text, a new sort starts at its
first sentence, heatmap numbers readable in both colour schemes, labels neither clipped nor
overlapping, right-to-left sentences, links to a sentence, narrow windows, the suite's
per-treebank table, and the ready time.

The ../shared/ud checks are ``slow``; screenshots go to ``$CONLL_EVAL_SCREENSHOT_DIR``.
"""
import json
import os
import re
from pathlib import Path

import pytest

from browser import Browser
from test_report_html import (CHROMIUM, GOLD, SYS_A, SYS_B, UD_PAIRS, embedded, make_report,
                              needs_browser, opened, run, shots)

pytestmark = needs_browser


def js_set(browser, element_id: str, value: str, event: str = "change") -> None:
    browser.evaluate(f"var c = document.getElementById({json.dumps(element_id)}); "
                     f"c.value = {json.dumps(value)}; c.dispatchEvent(new Event('{event}'))")


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    folder = tmp_path_factory.mktemp("small")
    return make_report(folder)


@pytest.fixture(scope="module")
def browser():
    with Browser(CHROMIUM) as b:
        yield b


def settled_scroll(browser) -> float:
    """window.scrollY once a (smooth) scroll has stopped moving."""
    last = None
    for _ in range(40):
        y = browser.evaluate("new Promise(r => setTimeout(() => r(window.scrollY), 50))")
        if y == last:
            return y
        last = y
    return last


def current(browser) -> int:
    return browser.evaluate("conllEvalReport.current()")


# ---- 3: the keys belong to the list only while it has focus --------------------------------

def test_page_keys_scroll_the_page_without_list_focus(browser, small, tmp_path):
    opened(browser, small)
    browser.evaluate("document.activeElement.blur(); window.scrollTo(0, 0)")
    assert browser.evaluate("document.documentElement.scrollHeight > innerHeight + 200")
    before = current(browser)
    for key in ("PageDown", "j", "ArrowDown"):
        browser.key(key)
    assert current(browser) == before  # the selection did not move
    assert settled_scroll(browser) > 0  # PageDown scrolled the page
    browser.evaluate("window.scrollTo(0, 0); document.getElementById('list').focus()")
    y = settled_scroll(browser)
    browser.key("ArrowDown")
    assert current(browser) == before + 1
    browser.key("PageDown")
    assert current(browser) == 3  # the last of the four sentences
    assert settled_scroll(browser) == y
    browser.screenshot(str(shots(tmp_path) / "p03-keys.png"))


# ---- 6: search the sentence's text ---------------------------------------------------------

def test_search_finds_the_text_across_words(browser, small):
    opened(browser, small)
    js_set(browser, "f-search", "now.", "input")  # '# text' has "now.", the FORMs "now ."
    assert browser.evaluate("conllEvalReport.shown") == 1 and current(browser) == 2
    js_set(browser, "f-search", "rep-4", "input")  # sent_id
    assert browser.evaluate("conllEvalReport.shown") == 1 and current(browser) == 3
    js_set(browser, "f-search", "ca n't", "input")  # the FORMs
    assert browser.evaluate("conllEvalReport.shown") == 1 and current(browser) == 2


# ---- 7: a new sort starts at its first sentence ---------------------------------------------

def worst_first(record) -> list:
    """Sentences by their lowest LAS F1 over the systems, ties in file order."""
    def f1(run, s):
        c, g, y = (run["sentences"]["LAS"][k][s] for k in range(3))
        return 2 * c / (g + y) if g + y else 1.0
    n = len(record["gold"]["start"]) - 1
    return sorted(range(n), key=lambda s: (min(f1(r, s) for r in record["runs"]), s))


def test_sort_shows_the_first_of_the_new_order(browser, small, tmp_path):
    opened(browser, small)
    worst = worst_first(embedded(small)["treebanks"][0])
    browser.evaluate(f"conllEvalReport.select({worst[-1]})")  # the best one
    js_set(browser, "f-sort", "f1")
    assert current(browser) == worst[0] != worst[-1]
    assert browser.evaluate("document.getElementById('list').scrollTop") == 0
    assert browser.evaluate("document.querySelector('#list .row.sel').getAttribute('data-index')") == "0"
    # a filter keeps the selected sentence
    browser.evaluate("conllEvalReport.select(2)")
    chosen = current(browser)
    js_set(browser, "f-min", "1", "input")
    assert current(browser) == chosen
    browser.screenshot(str(shots(tmp_path) / "p07-sort.png"))


# ---- the ../shared/ud pairs (slow) ---------------------------------------------------------

needs_ud = pytest.mark.skipif(not UD_PAIRS, reason="../shared/ud is absent")


@pytest.fixture(scope="module")
def ud_reports(tmp_path_factory):
    """pair name -> its report (gold, sys-gold-tok, sys-raw), written once for the module."""
    folder = tmp_path_factory.mktemp("ud")
    reports = {}
    for pair in UD_PAIRS:
        target = folder / f"{pair.name}.html"
        status, _, err = run("report", pair / "gold.conllu", pair / "sys-gold-tok.conllu",
                             pair / "sys-raw.conllu", "-o", target)
        assert status == 0, err
        reports[pair.name] = target
    return reports


@pytest.mark.slow
@needs_ud
@pytest.mark.parametrize("pair, needle", [("en_ewt", "don't"), ("zh_gsd", "博物館"),
                                          ("en_ewt", "search-engine")])
def test_search_in_shared_ud(browser, ud_reports, pair, needle, tmp_path):
    if pair not in ud_reports:
        pytest.skip(f"{pair} is absent")
    record = embedded(ud_reports[pair])["treebanks"][0]
    expected = [s for s, text in enumerate(record["gold"]["x"]) if needle in text.lower()]
    assert expected, needle
    opened(browser, ud_reports[pair])
    js_set(browser, "f-search", needle, "input")
    assert browser.evaluate("conllEvalReport.shown") >= len(expected)
    assert current(browser) == expected[0]
    browser.evaluate("document.getElementById('browser').scrollIntoView()")
    browser.screenshot(str(shots(tmp_path) / f"p06-search-{pair}.png"))


# ---- 11: signature once, p-values, row names, paths -----------------------------------------

def test_signature_once_and_paths_relative_to_the_page(small):
    text = small.read_text(encoding="utf-8")
    body = text.split('<script type="application/json"', 1)[0]
    signature = embedded(small)["signature"]
    assert body.count(signature) == 1
    record = embedded(small)["treebanks"][0]
    folder = small.parent
    assert record["gold"]["path"] == os.path.relpath(GOLD, folder)
    assert [r["path"] for r in record["runs"]] == [os.path.relpath(p, folder) for p in (SYS_A, SYS_B)]
    absolute = re.escape(str(Path(GOLD).resolve()))
    assert not re.search('[">]' + absolute, text) and not os.path.isabs(record["gold"]["path"])
    assert (folder / record["gold"]["path"]).resolve() == Path(GOLD).resolve()


def test_tiny_p_values_are_bounded():
    from conll_eval.report.html.summary import significance_table
    pair = {"first": "a", "second": "b", "significant": True, "corrected": None,
            "difference": {"value": 0.01, "low": 0.005, "high": 0.015},
            "p": {"bootstrap": 0.0, "randomization": 0.00004, "mcnemar": 0.01234}}
    html = significance_table({"signature": "sig", "pairs": {"LAS": [pair]}})
    assert "0.0000" not in html and html.count("&lt; 0.0001") == 2 and "0.0123" in html


def test_row_names_stay_in_view(browser, small, tmp_path):
    opened(browser, small)
    browser.evaluate("conllEvalReport.select(1); var t = document.querySelector('#view .trees');"
                     "t.style.width = '220px'; t.scrollLeft = 10000; t.scrollIntoView()")
    assert browser.evaluate("document.querySelector('#view .trees').scrollLeft") > 100
    lefts = browser.evaluate("var t = document.querySelector('#view .trees').getBoundingClientRect();"
                             "Array.from(document.querySelectorAll('#view .rowname'))"
                             ".map(r => r.getBoundingClientRect().left - t.left)")
    assert len(lefts) == 3 and all(0 <= x < 12 for x in lefts), lefts
    browser.screenshot(str(shots(tmp_path) / "p11-row-names.png"))


# ---- 5: every heatmap cell shows its number, readable in both colour schemes ----------------

HEAT_CELLS = """Array.from(document.querySelectorAll('svg.heat g.cell')).map(function (g) {
  var r = g.querySelector('rect'), t = g.querySelector('text'), rb = r.getBBox(), tb = t.getBBox();
  return {fill: getComputedStyle(r).fill, ink: getComputedStyle(t).fill, text: t.textContent,
          count: +t.getAttribute('data-count'), tip: r.querySelector('title').textContent,
          inside: tb.x >= rb.x - 0.5 && tb.x + tb.width <= rb.x + rb.width + 0.5,
          display: getComputedStyle(t).display, size: parseFloat(getComputedStyle(t).fontSize)};
})"""


def contrast(a: str, b: str) -> float:
    def luminance(css):
        channels = [int(float(v)) / 255 for v in css[css.index("(") + 1:css.index(")")].split(",")[:3]]
        lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def check_heatmaps(browser, path, shot_name=None, folder=None) -> int:
    opened(browser, path)
    browser.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
    checked = 0
    for scheme in ("light", "dark"):
        browser.call("Emulation.setEmulatedMedia",
                     features=[{"name": "prefers-color-scheme", "value": scheme}])
        cells = browser.evaluate(HEAT_CELLS)
        assert cells
        for cell in cells:
            exact = int(cell["tip"].rsplit(": ", 1)[1])
            assert cell["count"] == exact and cell["display"] != "none", cell
            assert cell["text"] == (str(exact) if exact < 10000 else f"{exact // 1000}k"), cell
            assert cell["inside"], cell
            assert contrast(cell["fill"], cell["ink"]) >= 4.5, (scheme, cell)
        checked += len(cells)
        if shot_name:
            browser.evaluate("document.querySelector('svg.heat').scrollIntoView()")
            browser.screenshot(str(folder / f"{shot_name}-{scheme}.png"))
    browser.call("Emulation.setEmulatedMedia", features=[])
    return checked


def test_heatmap_numbers_readable(browser, small, tmp_path):
    assert check_heatmaps(browser, small, "p05-heatmap-small", shots(tmp_path)) > 0


@pytest.mark.slow
@needs_ud
def test_heatmap_numbers_readable_in_shared_ud(browser, ud_reports, tmp_path):
    for name, path in ud_reports.items():
        record = embedded(path)["treebanks"][0]
        big = max(n for run in record["runs"] for g, s, n in run["upos_confusion"] if g != s)
        assert check_heatmaps(browser, path, f"p05-heatmap-{name}" if name == "en_ewt" else None,
                              shots(tmp_path)) > 0
        if name == "en_ewt":
            assert big > 100  # a confusion the old page left without its number


# ---- 1, 2: no label cut at the edge, no two overlapping -------------------------------------

#: per sentence (from..to of the current order), the label boxes of every tree: outside the
#: svg's viewBox, or overlapping another label of the same svg (0.5 px tolerance)
LABEL_CHECK = """(function (from, to) {
  var api = conllEvalReport, problems = [], checked = 0;
  for (var i = from; i < to && i < api.shown; i++) {
    api.select(i);
    document.querySelectorAll('#view svg.tree').forEach(function (svg) {
      var vb = svg.viewBox.baseVal, boxes = [];
      svg.querySelectorAll('text.lab, text.split').forEach(function (t) {
        var b = t.getBBox(); boxes.push([b.x, b.y, b.x + b.width, b.y + b.height, t.textContent]);
        checked++;
        if (!vb || b.x < vb.x - 0.5 || b.y < vb.y - 0.5 || b.x + b.width > vb.x + vb.width + 0.5 ||
            b.y + b.height > vb.y + vb.height + 0.5) {
          problems.push({sentence: api.current(), kind: 'clipped', label: t.textContent,
                         box: [b.x, b.y, b.width, b.height], viewBox: vb && [vb.x, vb.y, vb.width, vb.height]});
        }
      });
      for (var p = 0; p < boxes.length; p++) {
        for (var q = p + 1; q < boxes.length; q++) {
          var a = boxes[p], c = boxes[q];
          if (a[0] < c[2] - 0.5 && c[0] < a[2] - 0.5 && a[1] < c[3] - 0.5 && c[1] < a[3] - 0.5) {
            problems.push({sentence: api.current(), kind: 'overlap', labels: [a[4], c[4]], boxes: [a, c]});
          }
        }
      }
    });
  }
  return {problems: problems.slice(0, 20), count: problems.length, checked: checked};
})(%d, %d)"""


def check_labels(browser, enhanced: bool = False, step: int = 400) -> int:
    """Every sentence of the open page; the number of labels checked."""
    if enhanced:
        browser.evaluate("var e = document.getElementById('f-enhanced'); if (!e.checked) e.click()")
    total, checked = browser.evaluate("conllEvalReport.shown"), 0
    for start in range(0, total, step):
        result = browser.evaluate(LABEL_CHECK % (start, start + step))
        assert result["count"] == 0, result["problems"]
        checked += result["checked"]
    if enhanced:
        browser.evaluate("document.getElementById('f-enhanced').click()")
    return checked


#: sentences whose system joins them (hooks at both edges, "¶" lines) and long labels on
#: short words: the labels the old layout cut or piled up
DENSE_GOLD = """\
# sent_id = d1
# text = a b c d e f
1\ta\ta\tX\t_\t_\t2\tcompound:prt\t_\t_
2\tb\tb\tX\t_\t_\t0\troot\t_\t_
3\tc\tc\tX\t_\t_\t4\tnmod:poss\t_\t_
4\td\td\tX\t_\t_\t2\tobl:npmod\t_\t_
5\te\te\tX\t_\t_\t6\tdiscourse\t_\t_
6\tf\tf\tX\t_\t_\t2\tparataxis\t_\t_

# sent_id = d2
# text = g h
1\tg\tg\tX\t_\t_\t2\tcompound\t_\t_
2\th\th\tX\t_\t_\t0\troot\t_\t_

# sent_id = d3
# text = i j k
1\ti\ti\tX\t_\t_\t3\tadvmod:emph\t_\t_
2\tj\tj\tX\t_\t_\t3\tadvmod:tmod\t_\t_
3\tk\tk\tX\t_\t_\t0\troot\t_\t_

"""
#: one system sentence over all three gold ones; heads across them, long wrong labels
DENSE_SYSTEM = """\
# sent_id = s1
1\ta\ta\tX\t_\t_\t2\tcompound\t_\t_
2\tb\tb\tX\t_\t_\t0\troot\t_\t_
3\tc\tc\tX\t_\t_\t1\tnmod:poss\t_\t_
4\td\td\tX\t_\t_\t3\tdislocated\t_\t_
5\te\te\tX\t_\t_\t4\treparandum\t_\t_
6\tf\tf\tX\t_\t_\t8\tcompound:lvc\t_\t_
7\tg\tg\tX\t_\t_\t6\tcompound:svc\t_\t_
8\th\th\tX\t_\t_\t11\tparataxis\t_\t_
9\ti\ti\tX\t_\t_\t2\tadvmod:emph\t_\t_
10\tj\tj\tX\t_\t_\t9\tvocative\t_\t_
11\tk\tk\tX\t_\t_\t2\torphan\t_\t_

"""


def test_labels_neither_clipped_nor_overlapping(browser, small, tmp_path):
    (tmp_path / "g.conllu").write_text(DENSE_GOLD, encoding="utf-8")
    (tmp_path / "s.conllu").write_text(DENSE_SYSTEM, encoding="utf-8")
    target = tmp_path / "dense.html"
    status, _, err = run("report", tmp_path / "g.conllu", tmp_path / "s.conllu", "-o", target)
    assert status == 0, err
    opened(browser, target)
    assert check_labels(browser) > 20
    browser.evaluate("conllEvalReport.select(0); document.getElementById('browser').scrollIntoView()")
    hooks = browser.evaluate("Array.from(document.querySelectorAll('svg.tree text.lab'))"
                             ".map(t => t.textContent).filter(t => /[\\u2190\\u2192]/.test(t))")
    assert hooks  # the hooks to other gold sentences are drawn (and were checked)
    browser.screenshot(str(shots(tmp_path) / "p01-p02-dense.png"))
    opened(browser, small)
    assert check_labels(browser) > 20


@pytest.mark.slow
@needs_ud
def test_labels_in_shared_ud(browser, ud_reports, tmp_path):
    counts = {}
    for name, path in ud_reports.items():
        opened(browser, path)
        counts[name] = check_labels(browser)
        if embedded(path)["treebanks"][0]["gold"].get("e"):
            counts[name + " enhanced"] = check_labels(browser, enhanced=True)
        browser.evaluate("conllEvalReport.select(0); document.getElementById('browser').scrollIntoView()")
        browser.screenshot(str(shots(tmp_path) / f"p01-p02-{name}.png"))
    print(counts)


# ---- 4: right-to-left sentences --------------------------------------------------------------

#: a long Hebrew sentence (more than a list row holds) and a short English one
RTL_WORDS = ["ספר", "גדול", "על", "השולחן", "הישן", "של", "המורה", "החדשה", "בבית", "הספר",
             "הגבוה", "ליד", "הים", "התיכון", "והנמל", "הישן", "והמגדל", "הלבן", "מול", "הגן"]


def rtl_files(tmp_path):
    lines = ["# sent_id = he-1", "# text = " + " ".join(RTL_WORDS)]
    for i, word in enumerate(RTL_WORDS, 1):
        lines.append(f"{i}\t{word}\t{word}\tNOUN\t_\t_\t{0 if i == 1 else 1}\t"
                     f"{'root' if i == 1 else 'nmod'}\t_\t_")
    lines += ["", "# sent_id = en-1", "# text = Go home", "1\tGo\tgo\tVERB\t_\t_\t0\troot\t_\t_",
              "2\thome\thome\tADV\t_\t_\t1\tadvmod\t_\t_", "", ""]
    gold = tmp_path / "he.conllu"
    gold.write_text("\n".join(lines), encoding="utf-8")
    target = tmp_path / "he.html"
    status, _, err = run("report", gold, gold, "-o", target)
    assert status == 0, err
    return target


FIRST_WORD_SHOWN = """(function () {
  var row = document.querySelector('#list .row.sel'), span = row.querySelector('.txt');
  var text = span.firstChild, first = text.data.split(' ')[0], range = document.createRange();
  range.setStart(text, 0); range.setEnd(text, first.length);
  var w = range.getBoundingClientRect(), box = span.getBoundingClientRect();
  return {dir: span.getAttribute('dir'), overflows: span.scrollWidth > span.clientWidth,
          shown: w.left >= box.left - 0.5 && w.right <= box.right + 0.5 && w.width > 0};
})()"""

FORM_X = ("Array.from(document.querySelectorAll('#view svg.tree[data-run=\"-1\"] g.word text.form'))"
          ".map(t => t.getBBox().x)")


def test_right_to_left_rows_and_trees(browser, tmp_path):
    opened(browser, rtl_files(tmp_path))
    row = browser.evaluate(FIRST_WORD_SHOWN)
    assert row == {"dir": "rtl", "overflows": True, "shown": True}
    xs = browser.evaluate(FORM_X)
    assert xs == sorted(xs, reverse=True)  # the first word rightmost
    assert browser.evaluate("document.querySelector('#view p.note').getAttribute('dir')") == "rtl"
    browser.evaluate("document.getElementById('browser').scrollIntoView()")
    browser.screenshot(str(shots(tmp_path) / "p04-rtl.png"))
    browser.evaluate("conllEvalReport.select(1)")
    assert browser.evaluate(FIRST_WORD_SHOWN)["dir"] == "ltr"
    xs = browser.evaluate(FORM_X)
    assert xs == sorted(xs)


@pytest.mark.slow
@needs_ud
def test_right_to_left_in_shared_ud(browser, ud_reports, tmp_path):
    if "he_htb" not in ud_reports:
        pytest.skip("he_htb is absent")
    opened(browser, ud_reports["he_htb"])
    js_set(browser, "f-sort", "long")  # a row too long for the list
    row = browser.evaluate(FIRST_WORD_SHOWN)
    assert row == {"dir": "rtl", "overflows": True, "shown": True}
    xs = browser.evaluate(FORM_X)
    assert xs == sorted(xs, reverse=True)
    # the trees scroll to the sentence's start: the first word is in view
    assert browser.evaluate("(function () { var box = document.querySelector('#view .trees')"
                            ".getBoundingClientRect(), w = document.querySelector('#view svg.tree "
                            "g.word[data-word=\"0\"] text.form').getBoundingClientRect();"
                            " return w.left >= box.left && w.right <= box.right; })()")
    browser.evaluate("document.getElementById('browser').scrollIntoView()")
    browser.screenshot(str(shots(tmp_path) / "p04-rtl-he_htb.png"))


# ---- 9: links to a sentence, focus, headers --------------------------------------------------

def test_fragment_focus_and_headers(browser, small, tmp_path):
    opened(browser, small, "#s=rep-3")
    assert current(browser) == 2
    browser.evaluate("conllEvalReport.select(1)")
    assert browser.evaluate("location.hash") == "#s=rep-2"
    browser.navigate("about:blank")
    opened(browser, small, "#s=rep-2")
    assert current(browser) == 1
    # a link to a sentence the filters hide shows it all the same
    js_set(browser, "f-search", "STOPPED", "input")
    browser.evaluate("location.hash = '#s=rep-1'")
    assert browser.evaluate("new Promise(r => setTimeout(() => r(conllEvalReport.current()), 100))") == 0
    # the list names its selected row; the rows have headers naming the systems
    active = browser.evaluate("document.getElementById('list').getAttribute('aria-activedescendant')")
    assert active and browser.evaluate(f"document.getElementById('{active}').classList.contains('sel')")
    assert browser.evaluate("Array.from(document.querySelectorAll('#list-head .f1')).map(s => s.textContent)") \
        == ["system-a", "system-b"]
    assert browser.evaluate("Array.from(document.querySelectorAll('#list-head .f1')).every(s =>"
                            " s.scrollWidth <= s.clientWidth && s.scrollHeight <= s.clientHeight)")
    # a tooltip on focus as on hover
    browser.evaluate("document.querySelector('#view svg.tree[data-run=\"0\"] g.word[tabindex]').focus()")
    tip = browser.evaluate("(function () { var t = document.getElementById('tip');"
                           " return [t.hidden, t.textContent]; })()")
    assert tip[0] is False and tip[1]
    browser.screenshot(str(shots(tmp_path) / "p09-link-focus.png"))


# ---- 10: narrow windows ------------------------------------------------------------------------

def test_narrow_window_stacks(tmp_path, small):
    with Browser(CHROMIUM, width=800, height=900) as narrow:
        opened(narrow, small)
        narrow.evaluate("conllEvalReport.select(1); document.querySelectorAll('details').forEach(d => d.open = true)")
        assert narrow.evaluate("document.documentElement.scrollWidth <= innerWidth")
        view = narrow.evaluate("document.getElementById('view').getBoundingClientRect().width")
        assert view > 700
        assert narrow.evaluate("document.getElementById('list').getBoundingClientRect().bottom <="
                               " document.getElementById('view').getBoundingClientRect().top")
        narrow.evaluate("document.getElementById('browser').scrollIntoView()")
        narrow.screenshot(str(shots(tmp_path) / "p10-narrow.png"))


# ---- 8: the suite page's per-treebank table ----------------------------------------------------

def test_suite_page_per_treebank(browser, tmp_path):
    from conftest import TESTDATA
    suite = TESTDATA / "suite"
    target = tmp_path / "suite.html"
    status, out, err = run("suite", suite / "gold", suite / "system", suite / "system",
                           "--names", "one,two", "--html", target, "--format", "json")
    assert status == 1, err  # failing treebanks: the page is written all the same
    record = json.loads(out)
    systems = record["systems"] if "systems" in record else [record]
    page = embedded(target)
    rows = page["macro"]["treebanks"]
    assert [r["name"] for r in rows] == [t["name"] for t in systems[0]["treebanks"]]
    drawn = [tb["name"] for tb in page["treebanks"]]
    opened(browser, target)
    cells = browser.evaluate(
        "Array.from(document.querySelectorAll('table.per-treebank tbody tr')).map(tr =>"
        " Array.from(tr.cells).map(td => [td.textContent, (td.querySelector('a') || {}).hash || null]))")
    metrics = page["macro"]["metrics"]
    for row, expected in zip(cells, systems[0]["treebanks"]):
        assert row[0][0] == expected["name"]
        las = row[1 + metrics.index("LAS") * 2]  # two systems per metric
        if expected["status"] == "ok":
            assert las[0] == f'{100 * expected["metrics"]["LAS"]["f1"]:.2f}'
            assert las[1] == f'#t={drawn.index(expected["name"])}'
        else:
            assert las[0].startswith("FAILED [") and las[1] is None
    assert browser.evaluate("conllEvalReport.parsed()") == 1  # only the treebank shown
    # a score opens that treebank's sentences
    second = drawn[1]
    browser.evaluate(f"document.querySelector('table.per-treebank a[href=\"#t=1\"]').click()")
    assert browser.evaluate("new Promise(r => setTimeout(() => r(document.getElementById('f-treebank').value), 100))") == "1"
    assert browser.evaluate("document.getElementById('sentence-title').textContent")
    assert [tb["name"] for tb in page["treebanks"]][1] == second
    assert browser.evaluate("document.querySelectorAll('section.treebank').length") == len(drawn)
    assert browser.evaluate("conllEvalReport.parsed()") == 2
    browser.evaluate("document.getElementById('per-treebank').scrollIntoView()")
    browser.screenshot(str(shots(tmp_path) / "p08-suite.png"))



# ---- 12: the first paint comes before the sentence browser's work ----------------------------

def test_first_paint_before_the_browser_starts(browser, small, tmp_path):
    opened(browser, small)
    timing = browser.evaluate(
        "new Promise(function (done) { (function poll() {"
        " var p = performance.getEntriesByName('first-contentful-paint')[0];"
        " if (p) { done([p.startTime, conllEvalReport.startedAt]); } else { setTimeout(poll, 10); }"
        " })(); })")
    paint, started = timing
    assert paint <= started  # the summary was painted before the data was parsed

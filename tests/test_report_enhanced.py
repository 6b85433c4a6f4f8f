"""The HTML report's enhanced graphs (issue 26): the DEPS edges embedded per word (CSR) with
heads placed as the basic heads and, per system edge, whether the gold graph has it; none
for a gold file without DEPS; a note instead of an error where DEPS the scorer did not read
are malformed; and, in headless Chromium, the ``enhanced graph`` switch (checkbox and ``e``)
drawing them above the words with the basic tree below."""
import pytest

from browser import Browser
from test_report_html import CHROMIUM, embedded, needs_browser, opened, run

GOLD = """\
# sent_id = a
1	They	they	PRON	_	_	2	nsubj	2:nsubj|4:nsubj	_
2	came	come	VERB	_	_	0	root	0:root	_
3	and	and	CCONJ	_	_	4	cc	4:cc	_
4	left	leave	VERB	_	_	2	conj	2:conj:and	_

# sent_id = b
1	Go	go	VERB	_	_	0	root	0:root	_

"""
#: They loses 4:nsubj, left gets conj:or (wrong), Go gets a second edge 1:dep (wrong: a loop)
SYSTEM = (GOLD.replace("2:nsubj|4:nsubj", "2:nsubj").replace("2:conj:and", "2:conj:or")
          .replace("0:root\t_\n\n", "0:root|1:dep\t_\n\n"))


def write(tmp_path, gold=GOLD, system=SYSTEM):
    (tmp_path / "g.conllu").write_text(gold, encoding="utf-8")
    (tmp_path / "s.conllu").write_text(system, encoding="utf-8")
    return tmp_path / "g.conllu", tmp_path / "s.conllu"


def report(tmp_path, gold=GOLD, system=SYSTEM, *options):
    g, s = write(tmp_path, gold, system)
    target = tmp_path / "r.html"
    status, _, err = run("report", g, s, "-o", target, *options)
    assert status == 0, err
    return target


def test_edges_are_embedded_per_word(tmp_path):
    record = embedded(report(tmp_path))["treebanks"][0]
    labels = record["labels"]
    gold = record["gold"]["e"]
    assert gold["o"] == [0, 2, 3, 4, 5, 6]
    assert gold["h"] == [1, 3, -1, 3, 1, -1]  # 0-based in the sentence, -1 the root
    assert [labels[d] for d in gold["d"]] == ["nsubj", "nsubj", "root", "cc", "conj:and", "root"]
    system = record["runs"][0]["words"]["e"]
    assert system["o"] == [0, 1, 2, 3, 4, 6]
    assert system["h"] == [1, -1, 3, 1, -1, 0]
    assert [labels[d] for d in system["d"]] == ["nsubj", "root", "cc", "conj:or", "root", "dep"]
    assert system["k"] == [1, 1, 1, 0, 1, 0]
    assert "enhanced_note" not in record


def test_switches_apply_to_the_drawn_graph(tmp_path):
    """--enhancements 6 strips case information: conj:and and conj:or both become conj."""
    record = embedded(report(tmp_path, GOLD, SYSTEM, "--enhancements", "6"))["treebanks"][0]
    assert record["runs"][0]["words"]["e"]["k"] == [1, 1, 1, 1, 1, 0]


def test_no_deps_no_graph(tmp_path):
    plain = "".join(line.rsplit("\t", 2)[0] + "\t_\t_\n" if "\t" in line else line
                    for line in GOLD.splitlines(keepends=True))
    record = embedded(report(tmp_path, plain, plain))["treebanks"][0]
    assert "e" not in record["gold"] and "e" not in record["runs"][0]["words"]
    assert "enhanced_note" not in record


def test_malformed_deps_the_scorer_did_not_read_give_a_note(tmp_path):
    bad = SYSTEM.replace("2:conj:or", "2conj")
    record = embedded(report(tmp_path, GOLD, bad))["treebanks"][0]  # conll18 reads no DEPS
    assert "e" not in record["gold"]
    assert record["enhanced_note"].startswith("the enhanced graphs are not drawn: ")
    assert "s.conllu:5" in record["enhanced_note"] and "invalid-deps" in record["enhanced_note"]


@needs_browser
def test_switch_in_chromium(tmp_path):
    page = report(tmp_path)
    plain_page = tmp_path / "plain.html"
    g, _ = write(tmp_path)
    plain = GOLD.replace("2:nsubj|4:nsubj", "_").replace("0:root", "_").replace("4:cc", "_") \
        .replace("2:conj:and", "_")
    (tmp_path / "p.conllu").write_text(plain, encoding="utf-8")
    assert run("report", tmp_path / "p.conllu", tmp_path / "p.conllu", "-o", plain_page)[0] == 0
    edges = "document.querySelectorAll('svg.tree[data-run=\"%s\"] g.enhanced path.arc%s').length"
    with Browser(CHROMIUM) as browser:
        opened(browser, page)
        browser.evaluate("conllEvalReport.select(0)")
        assert browser.evaluate(edges % ("0", "")) == 0  # off by default
        browser.evaluate("document.getElementById('f-enhanced').click()")
        assert browser.evaluate(edges % ("-1", "")) == 5
        assert browser.evaluate(edges % ("0", "")) == 4
        assert browser.evaluate(edges % ("0", ".bad")) == 1  # left: conj:or
        label = browser.evaluate("Array.from(document.querySelectorAll('svg.tree[data-run=\"0\"] "
                                 "g.enhanced text.lab.bad')).map(t => t.textContent)")
        assert label == ["conj:or \u2717"]
        # the basic tree is still drawn, below the words
        assert browser.evaluate("document.querySelectorAll('svg.tree[data-run=\"0\"] g.word path.arc').length") == 4
        assert "Enhanced graph" in browser.evaluate("document.getElementById('view').textContent")
        browser.evaluate("document.getElementById('list').focus()")
        browser.key("j")  # sentence b: the system's loop 1:dep is drawn wrong
        assert browser.evaluate(edges % ("0", ".bad")) == 1
        browser.key("e")
        assert browser.evaluate(edges % ("0", "")) == 0
        assert browser.console_errors() == []
        opened(browser, plain_page)
        assert browser.evaluate("document.getElementById('f-enhanced').disabled") is True
        assert "no enhanced graph" in browser.evaluate("document.getElementById('f-enhanced-label').title")
        assert browser.console_errors() == []

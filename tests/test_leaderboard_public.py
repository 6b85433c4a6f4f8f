"""The public form of suite's treebank objects (conll_eval/leaderboard/public.py): every string
but the metrics has the gold directory shown as ``gold`` and the submission's as
``submission``, only where a whole directory is named; the record itself is left as it was."""
import copy
import html

from conll_eval.leaderboard.public import public_text, public_treebank

GOLD = "/srv/task/gold"
SUBMISSION = "/srv/task/gold/store/submission-7"  # inside the gold directory: the longer first


def _record():
    return {"name": "en_x", "language": "en", "gold": f"{GOLD}/en_x.conllu",
            "system": f"{SUBMISSION}/en_x.conllu", "paired_by_code": False,
            "candidates": [f"{SUBMISSION}/en_x-ud.conllu"],
            "status": f"{SUBMISSION}/en_x.conllu:7: error [cycle] the basic tree has a cycle",
            "error": {"side": "system", "file": f"{SUBMISSION}/en_x.conllu", "line": 7,
                      "message": f"{SUBMISSION}/en_x.conllu:7: error [cycle] (see {GOLD})"},
            "metrics": {"LAS": {"f1": 0.5, "note": f"{GOLD}/kept"}}}


def test_every_string_names_gold_and_submission_and_the_metrics_are_untouched():
    record = _record()
    kept = copy.deepcopy(record)
    shown = public_treebank(record, GOLD, SUBMISSION)
    assert record == kept  # the stored record is not changed
    assert shown == {**kept, "gold": "gold/en_x.conllu", "system": "submission/en_x.conllu",
                     "candidates": ["submission/en_x-ud.conllu"],
                     "status": "submission/en_x.conllu:7: error [cycle] the basic tree has a cycle",
                     "error": {"side": "system", "file": "submission/en_x.conllu", "line": 7,
                               "message": "submission/en_x.conllu:7: error [cycle] (see gold)"}}
    assert shown["metrics"] is record["metrics"]


def test_only_whole_directories_are_replaced():
    record = {"gold": "/srv/task/gold2/en.conllu", "system": "/x/srv/task/gold/en.conllu",
              "status": "/srv/task/gold.old/en.conllu", "metrics": {}}
    assert public_treebank(record, GOLD, SUBMISSION) == record


def test_a_page_has_its_escaped_and_relative_directories_replaced():
    gold, submission = "/srv/a&b/gold", "/srv/a&b/store/submission-1"
    page = (f'<code>{html.escape(gold)}/x.conllu</code> <code>../store/submission-1/x.conllu</code> '
            f'"../gold/y.conllu" <code>../gold2/z</code>')
    assert public_text(page, gold, submission, html.escape, "/srv/a&b/site") == (
        '<code>gold/x.conllu</code> <code>submission/x.conllu</code> "gold/y.conllu" <code>../gold2/z</code>')

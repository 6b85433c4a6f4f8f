"""The public form of suite's treebank objects: what ``GET /api/leaderboard``, ``GET
/api/submissions/{id}`` and the published site show holds no server path.  Every string of a
treebank object (``gold``, ``system``, ``status``, the error's ``file`` and ``message`` ...)
reads as ``conll_eval suite gold submission --format json`` prints it when run from a directory
holding ``gold/`` and ``submission/``; the metrics are untouched, and the database keeps
suite's JSON as it was."""
from __future__ import annotations

import os
import re
from typing import Any, Callable, List, Optional, Sequence, Tuple

__all__ = ["public_treebank", "public_treebanks", "public_text"]

#: what may follow a directory's path where it is replaced: the end, a separator, a space or
#: punctuation (never more of a name: ``/srv/gold2`` is not ``/srv/gold``)
_PATH_END = r"(?=$|[/\\\s:;,'\")\]])"
#: and what may come before it: not more of a name or of a path (``x/srv/gold`` is not it)
_PATH_START = r"(?<![\w./\\-])"


def _replacements(gold_dir: str, submission_dir: str, escape: Optional[Callable[[str], str]] = None,
                  relative_to: Optional[str] = None) -> List[Tuple[re.Pattern, str]]:
    pairs = [(os.path.normpath(directory), shown) for directory, shown in
             ((gold_dir, "gold"), (submission_dir, "submission")) if directory]
    if relative_to is not None:  # a page's links: the directories relative to it too
        start = os.path.abspath(relative_to)
        pairs += [(os.path.relpath(os.path.abspath(directory), start), shown) for directory, shown in pairs]
    pairs.sort(key=lambda pair: -len(pair[0]))  # the longer first: one may hold the other
    return [(re.compile(_PATH_START + re.escape(escape(directory) if escape else directory) + _PATH_END), shown)
            for directory, shown in pairs]


def _rewritten(value: Any, replacements: Sequence[Tuple[re.Pattern, str]]) -> Any:
    if isinstance(value, str):
        for pattern, shown in replacements:
            value = pattern.sub(shown, value)
        return value
    if isinstance(value, list):
        return [_rewritten(item, replacements) for item in value]
    if isinstance(value, dict):
        return {key: _rewritten(item, replacements) for key, item in value.items()}
    return value


def public_treebank(record: dict, gold_dir: str, submission_dir: str) -> dict:
    """``record`` (a treebank object of suite's JSON) with ``gold_dir`` shown as ``gold`` and
    ``submission_dir`` as ``submission`` in every string but its ``metrics`` (a new dict)."""
    return public_treebanks([record], gold_dir, submission_dir)[0]


def public_treebanks(records: Sequence[dict], gold_dir: str, submission_dir: str) -> List[dict]:
    """:func:`public_treebank` of each of ``records``."""
    replacements = _replacements(gold_dir, submission_dir)
    return [{key: value if key == "metrics" else _rewritten(value, replacements) for key, value in record.items()}
            for record in records]


def public_text(text: str, gold_dir: str, submission_dir: str,
                escape: Optional[Callable[[str], str]] = None, relative_to: Optional[str] = None) -> str:
    """``text`` (a page: the site's copy of a submission's report) with the directories shown
    as ``gold`` and ``submission``, also where the page names them relative to its own
    directory ``relative_to``; ``escape`` is how the text spells them (``html.escape``)."""
    return _rewritten(text, _replacements(gold_dir, submission_dir, escape, relative_to))

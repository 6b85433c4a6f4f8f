"""Formatting of validator incidents (:mod:`conll_eval.validate`); nothing is computed here.

* ``format_incident(inc)`` -> ``path:line: error [L2 syntax head-self-loop] HEAD == ID for 1
  (sent_id=s1)`` (the house error format, class in lower case; `` (hint: ...)`` at the end
  where the incident has a plain-words hint: BOM, CRLF, not UTF-8, not CoNLL-U); warnings read
  ``path:line: warning [L2 format empty-misc] ...``.
* ``format_udtools(inc, with_file=False)`` -> udtools' own line,
  ``[Line 3 Sent s1]: [L2 SYNTAX head-self-loop] HEAD == ID for 1`` (``File x.conllu `` in
  front with ``with_file``; ``Sent None`` when the sentence has no sent_id).
* ``Tally`` counts incidents as they stream past (``add``) and gives ``summary()``, ``errors``,
  ``warnings`` and ``by_class``; ``summary(incidents)`` -> udtools' closing lines: ``Warnings: N`` (if any), ``{CLASS} errors:
  N`` per class in udtools' class order (UNICODE, FORMAT, MORPHO, SYNTAX, ENHANCED, METADATA),
  then ``*** PASSED ***`` or ``*** FAILED *** with N errors``.
* ``incident_dict(inc)`` -> the JSON object of one incident; ``to_json(incidents)`` -> a JSON list of objects with keys level, class, testid, path, line,
  sent_id, message, severity, hint (null when none).
* ``limit_per_class(incidents, max_err)`` -> udtools' ``--max-err``: per (severity, class) the
  first ``max_err`` incidents pass; the next one is replaced by the *string*
  ``...suppressing further messages regarding ERROR/FORMAT`` (``WARNING/...`` for warnings) and
  the rest of that group is dropped.  The marker is a plain ``str`` (not an incident), so it can
  never be counted as an error; ``format_incident``/``format_udtools`` pass strings through
  unchanged.  ``max_err <= 0`` means no limit.  Count the summary on the unlimited list, as
  udtools does.

The text lines spell out what a terminal would act on (:func:`conll_eval.errors.printable`:
``\\x1b``, ``\\t``, bidi overrides); JSON keeps the text as read (its own escapes).
"""
from __future__ import annotations

import json
from typing import Dict, Iterable, Iterator, Tuple, Union

from ..errors import printable
from ..validate import CLASS_ORDER, ValidationIncident

__all__ = ["format_incident", "format_udtools", "summary", "Tally", "incident_dict", "to_json",
           "limit_per_class"]

Item = Union[ValidationIncident, str]


def _shown_class(inc: ValidationIncident) -> str:
    return "WARNING" if inc.severity == "warning" else inc.klass


def format_incident(inc: Item) -> str:
    if isinstance(inc, str):
        return inc
    where = inc.path if inc.line is None else f"{inc.path}:{inc.line}"
    suffix = f" (sent_id={inc.sent_id})" if inc.sent_id else ""
    hint = f" (hint: {inc.hint})" if inc.hint else ""
    return printable(f"{where}: {inc.severity} [L{inc.level} {inc.klass.lower()} {inc.testid}]"
                     f" {inc.message}{suffix}{hint}")


def format_udtools(inc: Item, with_file: bool = False) -> str:
    if isinstance(inc, str):
        return inc
    import os
    name = "STDIN" if inc.path == "-" else os.path.basename(inc.path)
    address = f"Line {inc.line} Sent {inc.sent_id}"
    if with_file:
        address = f"File {name} " + address
    return printable(f"[{address}]: [L{inc.level} {_shown_class(inc)} {inc.testid}] {inc.message}")


class Tally:
    """Running counts of a stream of incidents (markers from limit_per_class are ignored)."""

    def __init__(self) -> None:
        self.warnings = 0
        self.by_class: Dict[str, int] = {}

    def add(self, inc: Item) -> None:
        if isinstance(inc, str):
            return
        if inc.severity == "warning":
            self.warnings += 1
        else:
            self.by_class[inc.klass] = self.by_class.get(inc.klass, 0) + 1

    @property
    def errors(self) -> int:
        return sum(self.by_class.values())

    def summary(self) -> str:
        order = {k: i for i, k in enumerate(CLASS_ORDER)}
        lines = [f"Warnings: {self.warnings}"] if self.warnings else []
        for klass in sorted(self.by_class, key=lambda k: (order.get(k, len(order)), k)):
            lines.append(f"{klass} errors: {self.by_class[klass]}")
        total = self.errors
        lines.append(f"*** FAILED *** with {total} errors" if total else "*** PASSED ***")
        return "\n".join(lines)


def summary(incidents: Iterable[Item]) -> str:
    tally = Tally()
    for inc in incidents:
        tally.add(inc)
    return tally.summary()


def incident_dict(inc: ValidationIncident) -> dict:
    return {"level": inc.level, "class": inc.klass, "testid": inc.testid, "path": inc.path,
            "line": inc.line, "sent_id": inc.sent_id, "message": inc.message,
            "severity": inc.severity, "hint": inc.hint}


def to_json(incidents: Iterable[Item]) -> str:
    return json.dumps([incident_dict(i) for i in incidents if not isinstance(i, str)],
                      ensure_ascii=False, indent=1)


def limit_per_class(incidents: Iterable[ValidationIncident], max_err: int) -> Iterator[Item]:
    counts: Dict[Tuple[str, str], int] = {}
    for inc in incidents:
        if max_err <= 0:
            yield inc
            continue
        key = (inc.severity, inc.klass)
        n = counts[key] = counts.get(key, 0) + 1
        if n <= max_err:
            yield inc
        elif n == max_err + 1:
            yield f"...suppressing further messages regarding {inc.severity.upper()}/{inc.klass}"

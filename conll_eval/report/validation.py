"""Formatting of validator incidents (:mod:`conll_eval.validate`); nothing is computed here.

* ``format_incident(inc)`` -> ``path:line: error [L2 syntax head-self-loop] HEAD == ID for 1
  (sent_id=s1)`` (the house error format, class in lower case; `` (hint: ...)`` at the end
  where the incident has a plain-words hint: BOM, CRLF, not UTF-8, not CoNLL-U); warnings read
  ``path:line: warning [L2 format empty-misc] ...``.
* ``format_udtools(inc, with_file=False)`` -> udtools' own line,
  ``[Line 3 Sent s1]: [L2 SYNTAX head-self-loop] HEAD == ID for 1`` (``File x.conllu `` in
  front with ``with_file``; ``Sent None`` when the sentence has no sent_id).  With a set
  ``explained`` (one per run), an incident's explanation follows its first occurrence after an
  empty line, as udvalidate prints it.
* ``format_github(inc)`` -> a GitHub Actions annotation, ``::error file=x.conllu,line=3,title=[L3
  SYNTAX rel-upos-det]::message`` (``::warning`` for warnings; GitHub's escapes).
* ``sarif_result(inc)`` / ``sarif_tool(rules, version)`` -> the parts of a SARIF 2.1.0 log: one
  result per incident (rule id = test id, level error/warning, file and line) and the tool with
  the rules that occurred.
* ``Tally`` counts incidents as they stream past (``add``) and gives ``summary()``, ``errors``,
  ``warnings`` and ``by_class``; ``summary(incidents)`` -> udtools' closing lines: ``Warnings:
  N`` (if any), ``{CLASS} errors: N`` per class in udtools' class order (UNICODE, FORMAT,
  MORPHO, SYNTAX, ENHANCED, METADATA), then ``*** PASSED ***`` or ``*** FAILED *** with N errors``.
* ``incident_dict(inc)`` -> the JSON object of one incident; ``to_json(incidents)`` -> a JSON
  list of objects with keys level, class, testid, path, line, sent_id, message, severity, hint
  (null when none).
* ``limit_per_class(incidents, max_err)`` -> udtools' ``--max-err``: per (severity, class) the
  first ``max_err`` incidents pass; the next one is replaced by the *string*
  ``...suppressing further messages regarding ERROR/FORMAT`` (``WARNING/...`` for warnings) and
  the rest of that group is dropped.  The marker is a plain ``str`` (not an incident), so it can
  never be counted as an error; ``format_incident``/``format_udtools`` pass strings through
  unchanged.  ``max_err <= 0`` means no limit.  Count the summary on the unlimited list, as
  udtools does.  Runs of incidents (:class:`~conll_eval.validate.IncidentRun`, the validator's
  form for a run of blank lines) are counted by ``Tally`` and ``limit_per_class`` in one step
  (but for the incidents ``limit_per_class`` shows).

The text lines spell out what a terminal would act on (:func:`conll_eval.errors.printable`:
``\\x1b``, ``\\t``, bidi overrides); JSON and SARIF keep the messages as read (their own
escapes).  A path is spelt out in every format (``\\n``, ``\\xff`` for a byte of a file name
that is not UTF-8): a line stays one line, JSON and SARIF stay valid UTF-8; a SARIF URI
percent-encodes the path's bytes.
"""
from __future__ import annotations

import json
import os
import urllib.parse
from typing import Dict, Iterable, Iterator, Optional, Set, Tuple, Union

from ..errors import printable
from ..validate import CLASS_ORDER, IncidentRun, ValidationIncident
from .escape import kept

__all__ = ["format_incident", "format_udtools", "format_github", "sarif_result", "sarif_tool",
           "summary", "Tally", "incident_dict", "to_json", "limit_per_class"]

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


def format_udtools(inc: Item, with_file: bool = False, explained: Optional[Set[str]] = None) -> str:
    if isinstance(inc, str):
        return inc
    name = "STDIN" if inc.path == "-" else os.path.basename(inc.path)
    address = f"Line {inc.line} Sent {inc.sent_id}"
    if with_file:
        address = f"File {name} " + address
    line = f"[{address}]: [L{inc.level} {_shown_class(inc)} {inc.testid}] {inc.message}"
    if explained is not None and inc.explanation and inc.explanation not in explained:
        explained.add(inc.explanation)  # udtools explains a kind of incident once per run
        text = line + "\n\n" + inc.explanation + "\n"
        return "\n".join(map(printable, text.split("\n")))
    return printable(line)


def _github_escape(text: str, property_value: bool = False) -> str:
    """GitHub workflow-command escaping (%, CR, LF; also : and , in a property)."""
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return text.replace(":", "%3A").replace(",", "%2C") if property_value else text


def format_github(inc: ValidationIncident) -> str:
    """A GitHub Actions annotation: ``::error file=F,line=N,title=[L3 SYNTAX id]::message``
    (the path spelt out, then GitHub's escapes)."""
    where = f"file={_github_escape(printable(inc.path), True)}"
    if inc.line is not None:
        where += f",line={inc.line}"
    title = _github_escape(f"[L{inc.level} {inc.klass} {inc.testid}]", True)
    suffix = f" (sent_id={inc.sent_id})" if inc.sent_id else ""
    return (f"::{'warning' if inc.severity == 'warning' else 'error'} {where},title={title}::"
            + _github_escape(printable(inc.message + suffix)))


SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def sarif_result(inc: ValidationIncident) -> dict:
    """One SARIF 2.1.0 result: rule id = test id, level error/warning, file and line (the
    message and sentence id as read, valid UTF-8: :func:`~.escape.kept`)."""
    location: dict = {"artifactLocation": {"uri": _sarif_uri(inc.path)}}
    if inc.line is not None and inc.line >= 1:
        location["region"] = {"startLine": inc.line}
    properties = {"udLevel": inc.level, "testClass": inc.klass}
    if inc.sent_id is not None:
        properties["sentId"] = kept(inc.sent_id)
    if inc.hint:
        properties["hint"] = kept(inc.hint)
    return {"ruleId": inc.testid, "level": "warning" if inc.severity == "warning" else "error",
            "message": {"text": kept(inc.message)}, "locations": [{"physicalLocation": location}],
            "properties": properties}


def _sarif_uri(path: str) -> str:
    """A relative URI reference for a path as given ('-' is standard input): its bytes
    percent-encoded (an undecodable byte read with ``surrogateescape`` as itself, ``%FF``)."""
    if path == "-":
        return "stdin"
    return urllib.parse.quote(path.replace(os.sep, "/"), safe="/", errors="surrogateescape")


def sarif_tool(rules: Dict[str, Tuple[int, str]], version: str) -> dict:
    """The SARIF tool object: conll_eval's validator and the rules (test ids) that occurred,
    each with its UD level and class."""
    return {"driver": {
        "name": "conll_eval validate", "version": version,
        "informationUri": "https://universaldependencies.org/contributing/validation.html",
        "rules": [{"id": testid, "name": testid,
                   "shortDescription": {"text": f"UD validator test {testid} (level {level}, "
                                                f"{klass})"},
                   "properties": {"udLevel": level, "testClass": klass}}
                  for testid, (level, klass) in sorted(rules.items())]}}


class Tally:
    """Running counts of a stream of incidents (markers from limit_per_class are ignored)."""

    def __init__(self) -> None:
        self.warnings = 0
        self.by_class: Dict[str, int] = {}

    def add(self, inc: Union[Item, IncidentRun]) -> None:
        """Count an incident, or each of a run's in one step."""
        if isinstance(inc, str):
            return
        counts = inc.counts() if isinstance(inc, IncidentRun) else {(inc.severity, inc.klass): 1}
        for (severity, klass), count in counts.items():
            if severity == "warning":
                self.warnings += count
            else:
                self.by_class[klass] = self.by_class.get(klass, 0) + count

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
    """The JSON object of one incident: the path spelt out (:func:`printable`), the message,
    sentence id and hint as read (valid UTF-8: :func:`~.escape.kept`)."""
    return {"level": inc.level, "class": inc.klass, "testid": inc.testid,
            "path": printable(inc.path), "line": inc.line,
            "sent_id": None if inc.sent_id is None else kept(inc.sent_id),
            "message": kept(inc.message), "severity": inc.severity,
            "hint": None if inc.hint is None else kept(inc.hint)}


def to_json(incidents: Iterable[Item]) -> str:
    return json.dumps([incident_dict(i) for i in incidents if not isinstance(i, str)],
                      ensure_ascii=False, indent=1)


def limit_per_class(incidents: Iterable[Union[Item, IncidentRun]],
                    max_err: int) -> Iterator[Union[Item, IncidentRun]]:
    """(see the module docstring) A run (:class:`~conll_eval.validate.IncidentRun`) passes
    whole without a limit; else its incidents pass one by one until each of its groups is
    past the limit, and the rest of it is counted in one step."""
    counts: Dict[Tuple[str, str], int] = {}
    for inc in incidents:
        if isinstance(inc, IncidentRun):
            if max_err <= 0:
                yield inc
            else:
                yield from _limited_run(inc, max_err, counts)
            continue
        if max_err <= 0 or not isinstance(inc, ValidationIncident):  # others pass unlimited
            yield inc
            continue
        key = (inc.severity, inc.klass)
        n = counts[key] = counts.get(key, 0) + 1
        if n <= max_err:
            yield inc
        elif n == max_err + 1:
            yield _suppressing(key)


def _suppressing(key: Tuple[str, str]) -> str:
    return f"...suppressing further messages regarding {key[0].upper()}/{key[1]}"


def _limited_run(run: IncidentRun, max_err: int,
                 counts: Dict[Tuple[str, str], int]) -> Iterator[Item]:
    """limit_per_class of a run's incidents: one by one while one of its groups is within the
    limit (at most the limit and one per group), then the others only counted."""
    totals = run.counts()
    walked: Dict[Tuple[str, str], int] = {}
    for inc in run:
        if all(counts.get(key, 0) > max_err for key in totals):
            break
        key = (inc.severity, inc.klass)
        n = counts[key] = counts.get(key, 0) + 1
        walked[key] = walked.get(key, 0) + 1
        if n <= max_err:
            yield inc
        elif n == max_err + 1:
            yield _suppressing(key)
    for key, total in totals.items():
        counts[key] = counts.get(key, 0) + total - walked.get(key, 0)

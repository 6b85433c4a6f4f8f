"""Treebank suites' pairs: which gold file goes with which system file (metadata.json, two directories, a list).

:func:`find_pairs` picks the way from what the command line names; each way gives a
:class:`Pairing` whose entries :mod:`conll_eval.suite` scores (the ways are described there).
"""
from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple

from .enhancements import ENHANCEMENT_DIGITS
from .errors import FormatError, InputError, Location, UsageError, printable
from .io.lines import read_config
from .naming import CONLLU_SUFFIX, file_stem, treebank_name

__all__ = ["METADATA_FILE", "SuiteEntry", "Pairing", "treebank_code", "pair_directories", "read_metadata",
           "read_pair_list", "require_paths", "find_pairs"]

METADATA_FILE = "metadata.json"


@dataclass(frozen=True)
class SuiteEntry:
    """One treebank of a suite: its name, language, gold file and system file (None: missing),
    how the system file was found, and for a missing one the likely candidates."""

    name: str
    gold: str
    system: Optional[str]
    language: str
    #: the system file was found by treebank code, not by the gold file's name
    by_code: bool = False
    #: no system file: the files that could be it (sharing its treebank code, or a near name)
    candidates: Tuple[str, ...] = ()
    #: the enhancement types this treebank does not annotate (``--enhancements`` digits, from
    #: metadata.json's ``"enhancements"``): switched off in both files by ``--qualitative``
    enhancements: str = ""


@dataclass(frozen=True)
class Pairing:
    """The treebanks found, in scoring order, and the system files no gold file claims."""

    entries: Tuple[SuiteEntry, ...]
    unpaired_system: Tuple[str, ...] = ()
    source: str = "directory"
    #: the file the pairs were read from (metadata.json, a pair list), if any: an input too
    listing: Optional[str] = None

    def files(self) -> Tuple[str, ...]:
        """Every file this pairing names: the listing, gold and system files (present or
        not), the unpaired system files; none of them may be an output."""
        return (*([self.listing] if self.listing else []),
                *(e.gold for e in self.entries), *(e.system for e in self.entries if e.system),
                *self.unpaired_system)


def _language(name: str) -> str:
    """``en_ewt`` -> ``en`` (the shared tasks' ltcode convention); a bare code is its own."""
    return name.split("_", 1)[0]


def _conllu_files(directory: str) -> Dict[str, str]:
    try:
        names = os.listdir(directory)
    except OSError as exc:
        raise UsageError(f"cannot list {printable(directory)}: {exc.strerror or exc}") from exc
    files: Dict[str, str] = {}
    for name in sorted(names):
        stem = file_stem(name)
        path = os.path.join(directory, name)
        if stem == name or not os.path.isfile(path):
            continue
        if stem in files:
            raise UsageError(printable(f"both {files[stem]} and {path} hold treebank {stem}: keep one"))
        files[stem] = path
    return files


def treebank_code(name: str) -> str:
    """A file name's treebank code: its part before the first ``-`` or ``.``
    (``en_ewt-ud-test.pred.conllu`` -> ``en_ewt``)."""
    return re.split(r"[-.]", os.path.basename(name), maxsplit=1)[0]


#: how alike two names or their treebank codes must be (difflib ratio) for one file to be
#: suggested as the other's partner
NEAR_NAME = 0.8


def _near_names(name: str, others: Sequence[str]) -> List[str]:
    """The (at most 3) names among ``others`` most like ``name``, or like its treebank code."""
    import difflib  # here: only a pairing problem needs it (start-up time)

    def alike(other: str) -> float:
        return max(difflib.SequenceMatcher(None, name, other).ratio(),
                   difflib.SequenceMatcher(None, treebank_code(name), treebank_code(other)).ratio())
    scored = sorted(((alike(other), other) for other in others), key=lambda item: -item[0])
    return [other for score, other in scored[:3] if score >= NEAR_NAME]


def pair_directories(gold_dir: str, system_dir: str) -> Pairing:
    """Pair ``GOLD_DIR/*.conllu`` with ``SYSTEM_DIR/*.conllu``, sorted by the gold names.

    A system file pairs with the gold file of exactly its name; failing that, with the gold
    file of the same treebank code (:func:`treebank_code`) when it is the only system file
    left with that code and that gold file the only one left with it (``by_code``).  A gold
    file without a system file is kept (it scores 0, status ``missing-file``), with the
    system files that could be its partner in ``candidates`` (an ambiguous code, or a near
    name); system files without a gold file are listed in ``unpaired_system``.
    """
    gold = _conllu_files(gold_dir)
    system = _conllu_files(system_dir) if os.path.isdir(system_dir) else {}
    partner = {name: name for name in gold if name in system}
    left_gold: Dict[str, List[str]] = {}
    left_system: Dict[str, List[str]] = {}
    for names, left in ((gold, left_gold), (system, left_system)):
        for name in sorted(set(names) - set(partner)):
            left.setdefault(treebank_code(name), []).append(name)
    candidates: Dict[str, List[str]] = {}
    for code, golds in left_gold.items():
        systems = left_system.get(code, [])
        if len(golds) == 1 and len(systems) == 1:
            partner[golds[0]] = systems[0]
        elif systems:  # ambiguous: each is a candidate of every gold file with that code
            candidates.update((name, systems) for name in golds)
    unpaired = sorted(set(system) - set(partner.values()))
    for name in sorted(set(gold) - set(partner)):
        candidates[name] = candidates.get(name) or _near_names(name, unpaired)
    entries = tuple(SuiteEntry(name, gold[name],
                               system[partner[name]] if name in partner else
                               os.path.join(system_dir, name + CONLLU_SUFFIX),
                               _language(name), by_code=partner.get(name, name) != name,
                               candidates=tuple(system[c] for c in candidates.get(name, ())))
                    for name in sorted(gold))
    return Pairing(entries, tuple(system[name] for name in unpaired), "directory")


def _metadata_error(path: str, message: str) -> FormatError:
    return FormatError(Location(path), "bad-metadata", message)


def _lacking(path: str, where: str, name: str, item: dict) -> str:
    """An entry's ``"enhancements"``: the digits of the enhancement types its treebank lacks
    (as the IWPT organisers' per-treebank ``--enhancements``; ``"0"`` or absent: none)."""
    value = item.get("enhancements", "0")
    if not isinstance(value, str) or not value or set(value) - set("0" + "".join(ENHANCEMENT_DIGITS)):
        raise _metadata_error(path, f"{where} ({name}): 'enhancements' must be a string of "
                              f"digits 0-6 (the enhancement types the treebank lacks: "
                              f"{', '.join(f'{d} {what}' for d, what in ENHANCEMENT_DIGITS.items())}"
                              f"), not {json.dumps(value)}")
    return "".join(sorted(set(value) - {"0"}))


def read_metadata(path: str, system_dir: str) -> Pairing:
    """Read a shared-task ``metadata.json`` (2017 ``ltcode`` or 2018 ``lcode``/``tcode`` form),
    whole within the limits of a small file (:func:`~conll_eval.io.lines.read_config`)."""
    try:
        document = json.loads(read_config(path, "a metadata file").decode("utf-8"))
    except InputError:  # too long or too large: its own error, not a JSON one
        raise
    except OSError as exc:
        raise FormatError(Location(path), "file-not-found" if isinstance(exc, FileNotFoundError)
                          else "unreadable", f"cannot read the metadata: {exc.strerror or exc}") from exc
    except (UnicodeDecodeError, ValueError) as exc:
        raise _metadata_error(path, f"not valid JSON: {exc}") from exc
    if not isinstance(document, list):
        raise _metadata_error(path, "expected a JSON list of treebank objects")
    base = os.path.dirname(path)
    entries, seen = [], set()
    for k, item in enumerate(document):
        where = f"entry {k + 1}"
        if not isinstance(item, dict):
            raise _metadata_error(path, f"{where} is not an object")
        if "ltcode" in item:
            name, language = item["ltcode"], None
        elif "lcode" in item and "tcode" in item:
            name, language = f"{item['lcode']}_{item['tcode']}", item["lcode"]
        else:
            raise _metadata_error(path, f"{where} has neither 'ltcode' nor 'lcode' and 'tcode'")
        for key in ("goldfile", "outfile"):
            if not isinstance(item.get(key), str) or not item[key]:
                raise _metadata_error(path, f"{where} ({name}) has no '{key}'")
        if not isinstance(name, str) or not name:
            raise _metadata_error(path, f"{where} has an empty treebank code")
        if name in seen:
            raise _metadata_error(path, f"{where}: treebank {name!r} is listed twice")
        seen.add(name)
        entries.append(SuiteEntry(name, os.path.join(base, item["goldfile"]),
                                  os.path.join(system_dir, item["outfile"]),
                                  str(language) if language is not None else _language(name),
                                  enhancements=_lacking(path, where, name, item)))
    listed = {os.path.normpath(e.system) for e in entries}
    others = _conllu_files(system_dir) if os.path.isdir(system_dir) else {}
    unpaired = tuple(p for _, p in sorted(others.items()) if os.path.normpath(p) not in listed)
    return Pairing(tuple(entries), unpaired, "metadata", listing=path)


def read_pair_list(path: str) -> Pairing:
    """Read ``GOLD SYSTEM [NAME]`` lines (whitespace-separated; ``#`` starts a comment), whole
    within the limits of a small file (:func:`~conll_eval.io.lines.read_config`)."""
    try:
        lines = read_config(path, "a pair list").decode("utf-8").splitlines()
    except OSError as exc:
        raise FormatError(Location(path), "file-not-found" if isinstance(exc, FileNotFoundError)
                          else "unreadable", f"cannot read the pair list: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise FormatError(Location(path), "invalid-utf8", "the pair list is not UTF-8") from exc
    base = os.path.dirname(path)
    entries, seen = [], set()
    for number, line in enumerate(lines, 1):
        fields = line.split("#", 1)[0].split()
        if not fields:
            continue
        if len(fields) not in (2, 3):
            raise FormatError(Location(path, number), "bad-pair-list",
                              f"expected 'GOLD SYSTEM [NAME]', found {len(fields)} fields")
        gold, system = (os.path.join(base, f) for f in fields[:2])
        name = fields[2] if len(fields) == 3 else file_stem(fields[0])
        if name in seen:
            raise FormatError(Location(path, number), "bad-pair-list",
                              f"treebank name {name!r} is used twice (give a third field)")
        seen.add(name)
        entries.append(SuiteEntry(name, gold, system, _language(name)))
    return Pairing(tuple(entries), (), "list", listing=path)


def require_paths(paths: Sequence[str]) -> None:
    """Raise the ``file-not-found`` :class:`FormatError` of paths named on the command line
    that do not exist: the first one's, naming the others too (a treebank whose system file
    is absent from a system directory is another matter: ``missing-file``)."""
    missing = [path for path in dict.fromkeys(paths) if not os.path.exists(path)]
    if missing:
        others = (f" ({', '.join(missing[1:])} {'does' if len(missing) == 2 else 'do'} not exist "
                  "either)") if len(missing) > 1 else ""
        raise FormatError(Location(missing[0]), "file-not-found",
                          f"no such file or directory{others}")


def find_pairs(gold: str, system: str, metadata: Optional[str] = None) -> Pairing:
    """The pairs for ``conll_eval suite GOLD SYSTEM``.

    ``GOLD`` a file: one treebank (named after it) against the file ``SYSTEM``.  ``GOLD`` a
    directory: ``metadata`` if given, else ``GOLD/metadata.json`` if present, else the two
    directories paired by file name.  Raises :class:`FormatError` ``file-not-found`` when
    ``GOLD`` or ``SYSTEM`` does not exist (see :func:`require_paths`), :class:`UsageError`
    for a file given with a directory.
    """
    require_paths([gold, system])
    if metadata is not None:
        return read_metadata(metadata, system)
    if os.path.isdir(gold):
        candidate = os.path.join(gold, METADATA_FILE)
        if os.path.isfile(candidate):
            return read_metadata(candidate, system)
        if os.path.isfile(system):
            raise UsageError(f"{printable(gold)} is a directory but {printable(system)} is a "
                             "file: give two directories or two files")
        return pair_directories(gold, system)
    if os.path.isdir(system):
        raise UsageError(f"{printable(gold)} is a file but {printable(system)} is a directory: "
                         "give two directories or two files")
    name = treebank_name(gold)  # the rule of every command (naming.py)
    return Pairing((SuiteEntry(name, gold, system, _language(name)),), (), "files")

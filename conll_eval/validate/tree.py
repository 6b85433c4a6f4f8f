"""Level 2 of the UD validator: HEAD and DEPS references, the basic tree, the enhanced graph's
connectivity and the format of the FEATS, DEPREL, DEPS and MISC fields.  The checks are mixins of
the validator and report through its ``_add``.
"""
from __future__ import annotations

import functools
from typing import Dict, List, Set, Tuple

from .patterns import (DEPREL, DEPS, HEAD, ID, UD_RELATIONS, _MISC_SINGLE, _MISC_TYPO, _RE_DEPREL,
                       _RE_EHEAD, _RE_FEATVAL, _RE_HEAD, _RE_VAL, _RE_WS_END, _RE_WS_START,
                       _deps_list, _is_empty, _is_mwt, _is_word, _valid_edeprel)


class TreeChecks:
    """Level 2 checks of HEAD/DEPS references, the basic tree and the enhanced graph (a mixin
    of :class:`conll_eval.validate.backbone.Validator`)."""

    def _id_references(self) -> bool:
        ok = True
        ids = {cols[ID] for cols in self.table if _is_word(cols) or _is_empty(cols)}
        for i, cols in enumerate(self.table):
            lineno = self.sentence_line + i
            if _is_mwt(cols):
                continue
            if not _is_empty(cols):
                if not _RE_HEAD.fullmatch(cols[HEAD]):
                    self._add(2, "FORMAT", "invalid-head", lineno,
                              f"Invalid HEAD: '{cols[HEAD]}'.")
                    ok = False
                if not (cols[HEAD] in ids or cols[HEAD] == "0"):
                    self._add(2, "SYNTAX", "unknown-head", lineno,
                              f"Undefined HEAD (no such ID): '{cols[HEAD]}'.")
                    ok = False
            deps = _deps_list(cols[DEPS])
            if deps is None:
                self._add(2, "FORMAT", "invalid-deps", lineno,
                          f"Failed to parse DEPS: '{cols[DEPS]}'.")
                ok = False
                continue
            for head, _rel in deps:
                if not _RE_EHEAD.fullmatch(head):
                    self._add(2, "FORMAT", "invalid-ehead", lineno,
                              f"Invalid enhanced head reference: '{head}'.")
                    ok = False
                if not (head in ids or head == "0"):
                    self._add(2, "ENHANCED", "unknown-ehead", lineno,
                              f"Undefined enhanced head reference (no such ID): '{head}'.")
                    ok = False
        return ok

    def _tree(self) -> bool:
        children: Dict[int, List[int]] = {}
        n_words = 0
        for i, cols in enumerate(self.table):
            if not _is_word(cols):
                continue
            n_words += 1
            node, head = int(cols[ID]), int(cols[HEAD])
            if head == node:
                self._add(2, "SYNTAX", "head-self-loop", self.sentence_line + i,
                          f"HEAD == ID for {cols[ID]}")
                return False
            children.setdefault(head, []).append(node)
        roots = sorted(set(children.get(0, [])))
        if len(roots) > 1:
            self._add(2, "SYNTAX", "multiple-roots", self.sentence_line,
                      f"Multiple root words: {roots}")
            return False
        reached: Set[int] = set()
        stack = [0]
        while stack:
            for child in children.get(stack.pop(), ()):
                if child not in reached:
                    reached.add(child)
                    stack.append(child)
        unreachable = sorted(set(range(1, n_words + 1)) - reached)
        if unreachable:
            self._add(2, "SYNTAX", "non-tree", self.sentence_line,
                      f"Non-tree structure. Words {','.join(map(str, unreachable))} are not"
                      " reachable from the root 0.")
            return False
        return True

    def _deps_all_or_none(self):
        exists = any(_is_empty(c) or c[DEPS] != "_" for c in self.table if not _is_mwt(c))
        line = self.sentence_line
        if exists:
            if not self.seen_enhanced_graph:
                self.seen_enhanced_graph = line
                if self.seen_tree_without_enhanced_graph:
                    self._add(2, "ENHANCED", "edeps-only-sometimes", line,
                              "Enhanced graph must be empty because we saw empty DEPS on line"
                              f" {self.seen_tree_without_enhanced_graph}")
        elif not self.seen_tree_without_enhanced_graph:
            self.seen_tree_without_enhanced_graph = line
            if self.seen_enhanced_graph:
                self._add(2, "ENHANCED", "edeps-only-sometimes", line,
                          "Enhanced graph cannot be empty because we saw non-empty DEPS on line"
                          f" {self.seen_enhanced_graph}")

    def _egraph_connected(self):
        if all(c[DEPS] == "_" and "." not in c[ID] for c in self.table):
            return  # no enhanced graph (an MWT line has DEPS '_' and no '.')
        nodes = [c for c in self.table if not _is_mwt(c)]
        exists = False
        children: Dict[str, Set[str]] = {"0": set()}
        ids = []
        lines = {}
        for i, cols in enumerate(self.table):
            if _is_mwt(cols):
                continue
            lines[cols[ID]] = self.sentence_line + i
            parents = [h for h, _ in (_deps_list(cols[DEPS]) or [])]
            if _is_empty(cols) or parents:
                exists = True
            ids.append(cols[ID])
            children.setdefault(cols[ID], set())
            for p in parents:
                children.setdefault(p, set()).add(cols[ID])
        if not exists or not nodes:
            return
        reached: Set[str] = set()
        stack = ["0"]
        while stack:
            for child in children.get(stack.pop(), ()):
                if child not in reached:
                    reached.add(child)
                    stack.append(child)
        unreachable = sorted(set(ids) - reached)
        if unreachable:
            self._add(2, "ENHANCED", "unconnected-egraph", lines[unreachable[0]],
                      f"Enhanced graph is not connected. Nodes {unreachable} are not reachable"
                      " from any root")



class FieldChecks:
    """Level 2 checks of single fields: FEATS, DEPREL, DEPS, MISC (a mixin of
    :class:`conll_eval.validate.backbone.Validator`)."""

    def _feats(self, feats: str, lineno: int) -> bool:
        if feats == "_":
            return True
        self._features_present(lineno)
        findings, safe = _feats_findings(feats)
        for testid, message in findings:
            self._add(2, "MORPHO", testid, lineno, message)
        return safe

    def _deprel(self, deprel: str, lineno: int):
        for testid, message in _deprel_findings(deprel, self.ref_is_udeprel):
            self._add(2, "SYNTAX", testid, lineno, message)

    def _deps_format(self, cols, lineno: int):
        if cols[DEPS] == "_":
            return
        if cols[DEPS] != cols[HEAD] + ":" + cols[DEPREL]:
            self.seen_enhancement = lineno  # the enhanced graph is not a mere copy (level 3)
        order, heads, relations = _deps_findings(cols[DEPS])
        for klass, testid, message in order:
            self._add(2, klass, testid, lineno, message)
        if _id_key(cols[ID]) in heads:
            self._add(2, "ENHANCED", "deps-self-loop", lineno,
                      f"Self-loop in DEPS for '{cols[ID]}'")
        self.ref_is_udeprel = True  # udtools adds 'ref' to its shared relation set here
        for klass, testid, message in relations:
            self._add(2, klass, testid, lineno, message)

    def _misc(self, misc: str, lineno: int):
        if misc == "_":
            return
        for testid, message, severity in _misc_findings(misc):
            self._add(2, "FORMAT", testid, lineno, message, severity)


# The findings of one field value depend on the value alone: cached, as values repeat a lot.

@functools.lru_cache(maxsize=1 << 16)
def _feats_findings(feats: str) -> Tuple[Tuple[Tuple[str, str], ...], bool]:
    """((test id, message), ...) of a FEATS value other than '_', and whether the features
    are well-formed enough for the later checks (udtools' 'safe')."""
    out: List[Tuple[str, str]] = []
    add = lambda tid, msg: out.append((tid, msg))  # noqa: E731
    flist = feats.split("|")
    lower = [f.lower() for f in flist]
    if lower != sorted(lower):
        add("unsorted-features", f"Morphological features must be sorted: '{feats}'.")
    names = set()
    safe = True
    for f in flist:
        m = _RE_FEATVAL.fullmatch(f)
        if m is None:
            add("invalid-feature", f"Spurious morphological feature: '{f}'. Should be of the"
                " form Feature=Value and must start with [A-Z] and only contain [A-Za-z0-9].")
            names.add(f)
            safe = False
            continue
        names.add(m.group(1))
        values = m.group(2).split(",")
        if len(values) != len(set(values)):
            add("repeated-feature-value", f"Repeated feature values are disallowed: '{feats}'")
        lv = [v.lower() for v in values]
        if lv != sorted(lv):
            add("unsorted-feature-values",
                f"If a feature has multiple values, these must be sorted: '{f}'")
        for v in values:
            if not _RE_VAL.fullmatch(v):
                add("invalid-feature-value", f"Spurious value '{v}' in '{f}'. Must start with"
                    " [A-Z0-9] and only contain [A-Za-z0-9].")
    if len(names) != len(flist):
        add("repeated-feature", f"Repeated features are disallowed: '{feats}'.")
    return tuple(out), safe


@functools.lru_cache(maxsize=1 << 12)
def _deprel_findings(deprel: str, ref_is_udeprel: bool) -> Tuple[Tuple[str, str], ...]:
    if not _RE_DEPREL.fullmatch(deprel):
        return (("invalid-deprel", f"Invalid DEPREL value '{deprel}'. Only lowercase English"
                 " letters or a colon are expected."),)
    udep = deprel.split(":", 1)[0]
    if udep not in UD_RELATIONS and not (udep == "ref" and ref_is_udeprel):
        return (("unknown-udeprel", f"Unknown main DEPREL type: '{udep}'."),)
    return ()


@functools.lru_cache(maxsize=1 << 16)
def _misc_findings(misc: str) -> Tuple[Tuple[str, str, str], ...]:
    """((test id, message, severity), ...) of a MISC value other than '_'."""
    out: List[Tuple[str, str, str]] = []
    warn = lambda tid, msg: out.append((tid, msg, "warning"))  # noqa: E731
    counts: Dict[str, int] = {}
    for item in misc.split("|"):
        ma = item.split("=", 1)
        if ma[0] == "":
            if len(ma) == 1:
                warn("empty-misc", "Empty attribute in MISC; possible misinterpreted vertical"
                     " bar?")
            else:
                warn("empty-misc-key", f"Empty MISC attribute name in '{ma[0]}={ma[1]}'.")
        if len(ma) == 1:
            ma.append("")
        key, val = ma
        if _RE_WS_START.match(key):
            warn("misc-extra-space", f"MISC attribute name starts with space in '{key}={val}'.")
        elif _RE_WS_END.search(key):
            warn("misc-extra-space", f"MISC attribute name ends with space in '{key}={val}'.")
        elif _RE_WS_START.match(val):
            warn("misc-extra-space",
                 f"MISC attribute value starts with space in '{key}={val}'.")
        elif _RE_WS_END.search(val):
            warn("misc-extra-space", f"MISC attribute value ends with space in '{key}={val}'.")
        if _MISC_SINGLE.fullmatch(key):
            counts[key] = counts.get(key, 0) + 1
        elif _MISC_TYPO.fullmatch(key):
            warn("misc-attr-typo",
                 f"Possible typo (case or spaces) in MISC attribute '{key}={val}'.")
    for key, n in counts.items():
        if n > 1:
            out.append(("repeated-misc", f"MISC attribute '{key}' not supposed to occur twice",
                        "error"))
    return tuple(out)


#: a DEPS value is quoted whole in the messages of its items (unsorted-deps-2, invalid-edeprel)
#: up to this many characters, then cut: udtools quotes it whole in each, so a long DEPS with
#: many bad items made messages, and memory, quadratic in its length (real DEPS: < 500)
QUOTED_DEPS_CHARS = 1000


def _id_key(nodeid: str) -> Tuple[int, str, int, str]:
    """Ordered and equal as udtools' ``nodeid2tuple`` (ints of the parts around the dot), for
    any number of digits: ``int()`` refuses more than 4,300 (a long DEPS may hold such a head,
    an error of its own) and is slow near that."""
    major, _, minor = nodeid.partition(".")
    major = major.lstrip("0") or "0"
    minor = minor.lstrip("0")
    return (len(major), major, len(minor), minor)


def _quoted_deps(deps: str) -> str:
    if len(deps) <= QUOTED_DEPS_CHARS:
        return deps
    return f"{deps[:QUOTED_DEPS_CHARS]}[... {len(deps) - QUOTED_DEPS_CHARS:,} more characters]"


@functools.lru_cache(maxsize=1 << 16)
def _deps_findings(deps: str):
    """(order findings, the heads as :func:`_id_key`, relation findings) of a DEPS value other than
    '_' that parses; findings are (class, test id, message).  Item messages quote DEPS cut to
    :data:`QUOTED_DEPS_CHARS`, and equal messages are one string (memory linear in DEPS)."""
    edeps = _deps_list(deps) or ()
    heads = [_id_key(h) for h, _ in edeps]
    quoted = _quoted_deps(deps)
    order: List[Tuple[str, str, str]] = []
    if heads != sorted(heads):
        order.append(("FORMAT", "unsorted-deps", f"DEPS not sorted by head index: '{deps}'."))
    else:
        lasth = lastd = None
        for h, d in edeps:
            if h == lasth:
                if d < lastd:
                    order.append(("FORMAT", "unsorted-deps-2", f"DEPS pointing to head '{h}' not"
                                  f" sorted by relation type: '{quoted}'."))
                elif d == lastd:
                    order.append(("FORMAT", "repeated-deps", "DEPS contain multiple instances of"
                                  f" the same relation '{h}:{d}'."))
            lasth, lastd = h, d
    relations: List[Tuple[str, str, str]] = []
    invalid = ("ENHANCED", "invalid-edeprel", f"Invalid enhanced relation type: '{quoted}'.")
    for head, rel in edeps:
        if not _valid_edeprel(rel):
            relations.append(invalid)
        else:
            udep = rel.split(":", 1)[0]
            if udep not in UD_RELATIONS and udep != "ref":
                relations.append(("ENHANCED", "unknown-eudeprel",
                                  f"Unknown main relation type '{udep}' in '{head}:{rel}'."))
    return tuple(order), frozenset(heads), tuple(relations)

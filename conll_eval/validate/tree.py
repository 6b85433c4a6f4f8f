"""Level 2 of the UD validator: HEAD and DEPS references, the basic tree, the enhanced graph's
connectivity and the format of the FEATS, DEPREL, DEPS and MISC fields.  The checks are mixins of
the validator and report through its ``_add``.
"""
from __future__ import annotations

from typing import Dict, List, Set

from .patterns import (DEPREL, DEPS, HEAD, ID, UD_RELATIONS, _MISC_SINGLE,
                       _MISC_TYPO, _RE_DEPREL, _RE_EHEAD, _RE_FEATVAL, _RE_HEAD, _RE_VAL, _RE_WS_END, _RE_WS_START,
                       _deps_list, _id_tuple, _is_empty, _is_mwt, _is_word, _valid_edeprel)


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
        add = lambda tid, msg: self._add(2, "MORPHO", tid, lineno, msg)  # noqa: E731
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
        return safe

    def _deprel(self, deprel: str, lineno: int):
        if not _RE_DEPREL.fullmatch(deprel):
            self._add(2, "SYNTAX", "invalid-deprel", lineno,
                      f"Invalid DEPREL value '{deprel}'. Only lowercase English letters or a colon"
                      " are expected.")
            return
        udep = deprel.split(":", 1)[0]
        if udep not in UD_RELATIONS and not (udep == "ref" and self.ref_is_udeprel):
            self._add(2, "SYNTAX", "unknown-udeprel", lineno,
                      f"Unknown main DEPREL type: '{udep}'.")

    def _deps_format(self, cols, lineno: int):
        if cols[DEPS] == "_":
            return
        if cols[DEPS] != cols[HEAD] + ":" + cols[DEPREL]:
            self.seen_enhancement = lineno  # the enhanced graph is not a mere copy (level 3)
        edeps = _deps_list(cols[DEPS]) or []
        heads = [_id_tuple(h) for h, _ in edeps]
        if heads != sorted(heads):
            self._add(2, "FORMAT", "unsorted-deps", lineno,
                      f"DEPS not sorted by head index: '{cols[DEPS]}'.")
        else:
            lasth = lastd = None
            for h, d in edeps:
                if h == lasth:
                    if d < lastd:
                        self._add(2, "FORMAT", "unsorted-deps-2", lineno,
                                  f"DEPS pointing to head '{h}' not sorted by relation type:"
                                  f" '{cols[DEPS]}'.")
                    elif d == lastd:
                        self._add(2, "FORMAT", "repeated-deps", lineno,
                                  f"DEPS contain multiple instances of the same relation"
                                  f" '{h}:{d}'.")
                lasth, lastd = h, d
        if _id_tuple(cols[ID]) in heads:
            self._add(2, "ENHANCED", "deps-self-loop", lineno,
                      f"Self-loop in DEPS for '{cols[ID]}'")
        self.ref_is_udeprel = True  # udtools adds 'ref' to its shared relation set here
        for head, rel in edeps:
            if not _valid_edeprel(rel):
                self._add(2, "ENHANCED", "invalid-edeprel", lineno,
                          f"Invalid enhanced relation type: '{cols[DEPS]}'.")
            else:
                udep = rel.split(":", 1)[0]
                if udep not in UD_RELATIONS and udep != "ref":
                    self._add(2, "ENHANCED", "unknown-eudeprel", lineno,
                              f"Unknown main relation type '{udep}' in '{head}:{rel}'.")

    def _misc(self, misc: str, lineno: int):
        if misc == "_":
            return
        warn = lambda tid, msg: self._add(2, "FORMAT", tid, lineno, msg, "warning")  # noqa: E731
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
                self._add(2, "FORMAT", "repeated-misc", lineno,
                          f"MISC attribute '{key}' not supposed to occur twice")

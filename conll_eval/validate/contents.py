"""Level 3 of the UD validator: the universal annotation guidelines (zero root, UPOS vs DEPREL,
function-word leaves, fixed/goeswith spans, projective punctuation, expected features...).  Each
check scans the columns of a sentence for its candidates and the findings are put back in
udtools' order (node by node, then check by check).
"""
from __future__ import annotations

from typing import Dict, List, Optional, Tuple

from .incidents import ValidationIncident
from .language import mwt_typo_words
from .patterns import DEPREL, DEPS, FEATS, FORM, HEAD, ID, LEMMA, MISC, UPOS, dualdict_get
from .tree_index import TreeIndex

#: relations whose dependents should be function-word leaves
FUNCTIONAL = frozenset("case mark cc aux cop det clf fixed goeswith punct".split())
#: the children each function-word relation tolerates (besides negation), udtools' lists
LEAF_ALLOWED = {
    "mark": frozenset("advmod obl goeswith fixed reparandum conj cc punct".split()),
    "case": frozenset("advmod obl goeswith fixed reparandum conj cc punct".split()),
    "aux": frozenset("goeswith fixed reparandum conj cc punct".split()),
    "cop": frozenset("goeswith fixed reparandum conj cc punct".split()),
    "det": frozenset("det case advmod obl clf goeswith fixed flat compound reparandum discourse "
                     "parataxis conj cc punct".split()),
    "clf": frozenset("advmod obl goeswith fixed reparandum conj cc punct".split()),
    "cc": frozenset("goeswith fixed reparandum conj punct".split()),
    "fixed": frozenset("goeswith reparandum conj punct".split()),
    "goeswith": frozenset(),
    "punct": frozenset(["punct"]),
}
LEAF_TESTID = {"mark": "leaf-mark-case", "case": "leaf-mark-case", "aux": "leaf-aux-cop",
               "cop": "leaf-aux-cop", "det": "leaf-det", "clf": "leaf-clf", "cc": "leaf-cc",
               "fixed": "leaf-fixed", "goeswith": "leaf-goeswith", "punct": "leaf-punct"}
LEFT_HEADED = frozenset("conj fixed flat goeswith appos".split())
NOMINAL_PARENT_RELS = frozenset("nsubj obj iobj obl vocative dislocated expl nmod".split())
ORPHAN_PARENT_RELS = frozenset("conj parataxis root csubj ccomp advcl acl reparandum".split())
SUBJECT_EXPLANATION = ("Outer subjects are allowed if a clause acts as the predicate of another"
                       " clause.")

# (checked relation, UPOS prefixes, the message's verb, whether a match is the error)
UPOS_RULES = (
    ("det", ("DET", "PRON"), "should be 'DET' or 'PRON' but it is", False),
    ("nummod", None, "should be 'NUM' but it is", False),
    ("advmod", ("ADV", "ADJ", "CCONJ", "DET", "PART", "SYM"), "should be 'ADV' but it is", False),
    ("expl", None, "should normally be 'PRON' but it is", False),
    ("aux", ("AUX",), "should be 'AUX' but it is", False),
    ("cop", ("AUX", "PRON", "DET", "SYM"), "should be 'AUX' or 'PRON'/'DET' but it is", False),
    ("case", ("PROPN", "ADJ", "PRON", "DET", "NUM", "AUX"), "should not be", True),
    ("mark", ("NOUN", "PROPN", "ADJ", "PRON", "DET", "NUM", "AUX", "INTJ"), "should not be", True),
    ("cc", ("NOUN", "PROPN", "ADJ", "PRON", "DET", "NUM", "VERB", "AUX", "INTJ"), "should not be",
     True),
)
UPOS_EXACT = {"nummod": frozenset(("NUM", "NOUN", "SYM")),
              "expl": frozenset(("PRON", "DET", "PART"))}

# the rank of each basic-tree check in udtools' order (findings sort by node, then rank)
R_FEATURES, R_UPOS, R_FLAT, R_L2R, R_SUBJ, R_OBJ, R_NMOD, R_ORPHAN, R_LEAF, R_FIXED, \
    R_GOESWITH, R_GWMORPH, R_PUNCT = range(13)

#: a finding: (node index, check rank, incident, delayed) -- delayed incidents wait for the
#: first morphological feature of the treebank (udtools' check_required_feature)
Finding = Tuple[int, int, ValidationIncident, bool]


class Words:
    """The basic-tree columns of one sentence (words only; index 0 is word 1), as udapi reads
    them: '_' in UPOS or DEPREL is None; ``children[h]`` are the words whose HEAD is h
    (0 = the root), in word order."""

    def __init__(self, table: List[List[str]], first_line: int):
        rows = [i for i, cols in enumerate(table) if "-" not in cols[ID] and "." not in cols[ID]]
        words = [table[i] for i in rows]
        self.n = len(words)
        self.line = [first_line + i for i in rows]
        columns = list(zip(*words)) if words else [()] * 10
        self.form, self.lemma, self.feats, self.misc = (columns[FORM], columns[LEMMA],
                                                        columns[FEATS], columns[MISC])
        self.upos = [None if u == "_" else u for u in columns[UPOS]]
        self.deprel = [None if d == "_" else d for d in columns[DEPREL]]
        self.udeprel = [None if d is None else d.split(":", 1)[0] for d in self.deprel]
        self.head = [int(h) for h in columns[HEAD]]
        self.deps = columns[DEPS]
        children: List[List[int]] = [[] for _ in range(self.n + 1)]
        for i, h in enumerate(self.head):
            children[h].append(i + 1)
        self.children = children
        self._tree: Optional[TreeIndex] = None

    def formtl(self, i: int) -> str:
        """udtools' formtl of word index i: FORM plus the MISC Translit when there is one."""
        translit = dualdict_get(self.misc[i], "Translit")
        return self.form[i] + " " + translit if isinstance(translit, str) and translit else \
            self.form[i]

    @property
    def tree(self) -> TreeIndex:
        """The sentence's :class:`TreeIndex` (made on first use: descendants, range extremes)."""
        if self._tree is None:
            self._tree = TreeIndex(self.head, self.children)
        return self._tree

    def is_nonprojective(self, word: int) -> bool:
        """udapi's Node.is_nonprojective: some word between word and its parent is not a
        descendant of the parent (never for children of the root)."""
        parent = self.head[word - 1]
        if parent == 0 or abs(parent - word) == 1:
            return False
        lo, hi = min(parent, word), max(parent, word)
        return not self.tree.all_descend(lo + 1, hi - 1, parent)


def _canonical_deps(deps: str) -> str:
    """udapi's re-serialized DEPS of a word whose DEPS were parsed: sorted, repeats dropped,
    empty-node heads as floats."""
    if deps == "_":
        return "_"
    pairs = set()
    for item in deps.split("|"):
        head, _, rel = item.partition(":")
        pairs.add((float(head) if "." in head else int(head), rel))
    return "|".join(f"{h}:{r}" for h, r in sorted(pairs))


class ContentChecks:
    """Level 3 checks of the nodes with their enhanced relations (zero root, orphans in the
    enhanced graph) and the driver of the basic-tree checks (a mixin of
    :class:`conll_eval.validate.backbone.Validator`)."""

    def _level3_init(self) -> None:
        self.seen_morpho_feature: Optional[int] = None
        self.seen_enhancement: Optional[int] = None
        self.seen_empty_node: Optional[int] = None
        self.seen_enhanced_orphan: Optional[int] = None
        self.delayed: Dict[str, List[ValidationIncident]] = {}
        self.last_node_line: Optional[int] = None
        self._value_verdicts: Dict[tuple, bool] = {}  # see verdicts.ValueVerdicts

    def _features_present(self, lineno: int) -> None:
        """The first morphological feature of the run: the delayed feature errors come out."""
        if not self.seen_morpho_feature:
            self.seen_morpho_feature = lineno
            for incidents in self.delayed.values():
                self.out.extend(incidents)
            self.delayed = {}

    def _incident(self, testid, line, message, klass="SYNTAX", severity="error", level=3,
                  explanation=None) -> ValidationIncident:
        return ValidationIncident(level, klass, testid, self.path, line, self.sent_id, message,
                                  severity, explanation=explanation)

    def _emit(self, findings: List[Finding]) -> None:
        """Findings in udtools' order (by node, then check); delayed ones wait for features."""
        findings.sort(key=lambda f: (f[0], f[1]))
        for _node, _rank, inc, delayed in findings:
            if delayed and not self.seen_morpho_feature:
                self.delayed.setdefault(inc.testid, []).append(inc)
            else:
                self.out.append(inc)

    def _single_empty_word(self, words: Words) -> bool:
        """udapi drops a sentence's only word when its MISC is exactly Empty=Yes."""
        return words.n == 1 and words.misc[0] == "Empty=Yes"

    def _level3_nodes(self, words: Words) -> None:
        """Zero root and enhanced orphans, then (levels 4-5) the language's lists, node by
        node (words and empty nodes in order)."""
        skip_words = self._single_empty_word(words)
        lines: Dict[str, int] = {}
        rows: Dict[str, List[str]] = {}
        for i, cols in enumerate(self.table):
            if "-" not in cols[ID]:
                lines[cols[ID]] = self.sentence_line + i
                rows[cols[ID]] = cols
        mwt_typo = mwt_typo_words(self.table) if self.level >= 4 else {}
        for nodeid, cols in rows.items():
            empty = "." in nodeid
            if empty:  # udapi keeps empty-node ids as floats (1.10 reads as 1.1)
                line = lines.get(str(float(nodeid)), lines[nodeid])
            elif skip_words:
                continue
            else:
                if nodeid not in mwt_typo and self._silent_node(cols):
                    continue
                line = lines[nodeid]
                self._zero_root(cols, line)
            if empty or (cols[DEPS] != "_" and not self._plain_edeps(cols[DEPS])):
                self._enhanced_root_orphan(cols, empty, line)
            if self.level >= 4:
                self._language_checks(cols, line, empty, rows, mwt_typo)

    def _zero_root(self, cols: List[str], line: int) -> None:
        udeprel = None if cols[DEPREL] == "_" else cols[DEPREL].split(":", 1)[0]
        if cols[HEAD] == "0" and udeprel != "root":
            self.out.append(self._incident("0-is-not-root", line,
                                           "DEPREL must be 'root' if HEAD is 0."))
        if cols[HEAD] != "0" and udeprel == "root":
            self.out.append(self._incident("root-is-not-0", line,
                                           "DEPREL cannot be 'root' if HEAD is not 0."))

    def _enhanced_root_orphan(self, cols: List[str], empty: bool, line: int) -> None:
        deps = cols[DEPS]
        edeps = [item.partition(":")[::2] for item in deps.split("|")] if deps != "_" else []
        for head, rel in edeps:
            is_root = rel.split(":", 1)[0] == "root"
            if head == "0" and not is_root:
                self.out.append(self._incident(
                    "enhanced-0-is-not-root", line,
                    "Enhanced relation type must be 'root' if head is 0.", "ENHANCED"))
            if head != "0" and is_root:
                self.out.append(self._incident(
                    "enhanced-root-is-not-0", line,
                    "Enhanced relation type cannot be 'root' if head is not 0.", "ENHANCED"))
        self._enhanced_orphan(empty, edeps, line)

    def _enhanced_orphan(self, empty: bool, edeps, line: int) -> None:
        if empty and not self.seen_empty_node:
            self.seen_empty_node = line
            if self.seen_enhanced_orphan:
                self.out.append(self._incident(
                    "empty-node-after-eorphan", line,
                    "Empty node means that we address gapping and there should be no orphans in"
                    f" the enhanced graph; but we saw one on line {self.seen_enhanced_orphan}",
                    "ENHANCED"))
        if any(rel.split(":", 1)[0] == "orphan" for _, rel in edeps):
            if not self.seen_enhanced_orphan:
                self.seen_enhanced_orphan = line
            if self.seen_empty_node:
                self.out.append(self._incident(
                    "eorphan-after-empty-node", line,
                    "'orphan' not allowed in enhanced graph because we saw an empty node on line"
                    f" {self.seen_empty_node}", "ENHANCED"))

    def _level3_tree(self, words: Words) -> None:
        """The checks of the basic tree, in udtools' order."""
        if self._single_empty_word(words) or not words.n:
            return
        findings: List[Finding] = []
        for check in (self._expected_features, self._upos_vs_deprel, self._flat_foreign,
                      self._left_to_right, self._subjects_objects, self._nmod_obl, self._orphan,
                      self._functional_leaves, self._fixed_span, self._goeswith,
                      self._projective_punct):
            check(words, findings)
        self._emit(findings)
        self.last_node_line = words.line[-1]

    def _end_of_run(self) -> List[ValidationIncident]:
        """udtools' checks after the last file: an enhanced graph that never differs from the
        basic tree (reported on the last word line checked, as udtools' leaked default)."""
        if self.level > 2 and self.seen_enhanced_graph and not self.seen_enhancement:
            return [self._incident(
                "edeps-identical-to-basic-trees", self.last_node_line,
                "Enhanced graphs are copies of basic trees in the entire dataset. This can happen"
                " for some simple sentences where there is nothing to enhance, but not for all"
                " sentences. If none of the enhancements from the guidelines"
                " (https://universaldependencies.org/u/overview/enhanced-syntax.html) are"
                " annotated, the DEPS should be left unspecified", "ENHANCED")]
        return []

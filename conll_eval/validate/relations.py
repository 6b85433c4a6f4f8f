"""Level 3 checks of the basic tree, each one a scan of the sentence's columns
(:class:`conll_eval.validate.contents.Words`) for its candidate words.  They add findings (node,
check rank, incident) that :class:`conll_eval.validate.contents.ContentChecks` puts in udtools'
order.
"""
from __future__ import annotations

from typing import Dict, List

from .contents import (FUNCTIONAL, LEAF_ALLOWED, LEAF_TESTID, LEFT_HEADED, NOMINAL_PARENT_RELS,
                       ORPHAN_PARENT_RELS, R_FEATURES, R_FIXED, R_FLAT, R_GOESWITH, R_GWMORPH,
                       R_L2R, R_LEAF, R_NMOD, R_OBJ, R_ORPHAN, R_PUNCT, R_SUBJ, R_UPOS,
                       SUBJECT_EXPLANATION, UPOS_EXACT, UPOS_RULES, Finding, Words,
                       _canonical_deps)
from .patterns import dualdict_get

_RULES = {rel: (prefixes, verb, match_is_error)
          for rel, prefixes, verb, match_is_error in UPOS_RULES}


def _starts(value, prefixes) -> bool:
    return value is not None and value.startswith(prefixes)


class RelationChecks:
    """Level 3 checks of single relations: expected features, UPOS vs DEPREL, flat:foreign,
    left-to-right relations, subjects and objects, nmod vs obl, orphan (a mixin of
    :class:`conll_eval.validate.backbone.Validator`)."""

    def _expected_features(self, w: Words, out: List[Finding]) -> None:
        for i, upos in enumerate(w.upos):
            if upos in ("PRON", "DET") and dualdict_get(w.feats[i], "PronType") == "":
                out.append((i, R_FEATURES, self._incident(
                    "pron-det-without-prontype", w.line[i], f"The word '{w.formtl(i)}' is tagged"
                    f" '{upos}' but it lacks the 'PronType' feature", "MORPHO", "warning"), True))
        for i, feats in enumerate(w.feats):
            if "VerbForm" in feats and dualdict_get(feats, "VerbForm") == "Fin" and \
                    dualdict_get(feats, "Mood") == "":
                out.append((i, R_FEATURES, self._incident(
                    "verbform-fin-without-mood", w.line[i],
                    f"Finite verb '{w.formtl(i)}' lacks the 'Mood' feature", "MORPHO", "warning"),
                    False))

    def _upos_vs_deprel(self, w: Words, out: List[Finding]) -> None:
        fixed_heads = {w.head[i] for i, r in enumerate(w.udeprel) if r == "fixed"}
        goeswith_heads = {w.head[i] for i, r in enumerate(w.udeprel) if r == "goeswith"}
        for i, deprel in enumerate(w.udeprel):
            extpos = dualdict_get(w.feats[i], "ExtPos")
            upos = extpos or w.upos[i]
            has_fixed = i + 1 in fixed_heads
            if deprel not in _RULES and upos not in ("PUNCT", "PROPN") and deprel != "punct" \
                    and not has_fixed:
                continue
            add = lambda tid, msg, sev="error": out.append(  # noqa: E731
                (i, R_UPOS, self._incident(tid, w.line[i], msg, "SYNTAX", sev), False))
            if has_fixed and not extpos:
                forms = " ".join([w.form[i]] + [w.form[c - 1] for c in w.children[i + 1]
                                                if w.udeprel[c - 1] == "fixed"])
                add("fixed-without-extpos",
                    f"Fixed expression '{forms}' does not have the 'ExtPos' feature", "warning")
            if deprel in _RULES:
                prefixes, verb, match_is_error = _RULES[deprel]
                matched = (upos in UPOS_EXACT[deprel] if prefixes is None
                           else _starts(upos, prefixes))
                if deprel == "advmod" and i + 1 in goeswith_heads:
                    matched = True
                if matched == match_is_error:
                    add(f"rel-upos-{deprel}", f"'{deprel}' {verb} '{upos}' ('{w.formtl(i)}')")
            if deprel == "punct" and upos != "PUNCT":
                add("rel-upos-punct",
                    f"'punct' must be 'PUNCT' but it is '{upos}' ('{w.formtl(i)}')")
            if upos == "PUNCT" and not _starts(deprel, ("punct", "root")):
                add("upos-rel-punct",
                    f"'PUNCT' must be 'punct' but it is '{w.deprel[i]}' ('{w.formtl(i)}')")
            if upos == "PROPN" and (deprel == "fixed" or has_fixed):
                add("rel-upos-fixed",
                    f"'fixed' should not be used for proper nouns ('{w.formtl(i)}').")

    def _flat_foreign(self, w: Words, out: List[Finding]) -> None:
        for i, deprel in enumerate(w.deprel):
            if deprel != "flat:foreign":
                continue
            for who, k in (("child", i), ("parent", w.head[i] - 1)):
                if k < 0:
                    continue  # the root as parent: udtools has no line for it (it crashes)
                if w.upos[k] != "X" or w.feats[k] != "Foreign=Yes":
                    out.append((i, R_FLAT, self._incident(
                        "flat-foreign-upos-feats", w.line[k], f"The {who} of a flat:foreign"
                        " relation should have UPOS X and Foreign=Yes (but no other features).",
                        "MORPHO", "warning"), False))

    def _left_to_right(self, w: Words, out: List[Finding]) -> None:
        for i, udeprel in enumerate(w.udeprel):
            if udeprel in LEFT_HEADED and i + 1 < w.head[i]:
                out.append((i, R_L2R, self._incident(
                    f"right-to-left-{udeprel}", w.line[i],
                    f"Parent of relation '{w.deprel[i]}' must precede the child in the word"
                    " order."), False))

    def _subjects_objects(self, w: Words, out: List[Finding]) -> None:
        subjects: Dict[int, List[int]] = {}
        objects: Dict[int, List[int]] = {}
        for i, udeprel in enumerate(w.udeprel):
            if udeprel is None:
                continue
            if "subj" in udeprel and w.deprel[i] not in ("nsubj:outer", "csubj:outer") and \
                    dualdict_get(w.misc[i], "Subject") != "Outer":
                subjects.setdefault(w.head[i], []).append(i + 1)
            elif udeprel == "obj":
                objects.setdefault(w.head[i], []).append(i + 1)
        for head in sorted(set(subjects) | set(objects)):
            if head == 0:
                continue  # the root is not one of the checked nodes
            p = head - 1
            subj, obj = subjects.get(head, []), objects.get(head, [])
            if len(subj) > 1:
                forms = str([w.formtl(k - 1) for k in subj])[1:-1]
                out.append((p, R_SUBJ, self._incident(
                    "too-many-subjects", w.line[p], f"Multiple subjects {subj} ({forms}) under the"
                    f" predicate '{w.formtl(p)}' not subtyped as ':outer'.",
                    explanation=SUBJECT_EXPLANATION), False))
            if len(obj) > 1:
                forms = str([w.formtl(k - 1) for k in obj])[1:-1]
                out.append((p, R_OBJ, self._incident(
                    "too-many-objects", w.line[p], f"Multiple direct objects {obj} ({forms}) under"
                    f" the predicate '{w.formtl(p)}'."), False))

    def _nmod_obl(self, w: Words, out: List[Finding]) -> None:
        for i, udeprel in enumerate(w.udeprel):
            p = w.head[i] - 1
            if udeprel != "obl" or p < 0 or w.upos[p] not in ("NOUN", "PROPN", "PRON") or \
                    w.udeprel[p] not in NOMINAL_PARENT_RELS:
                continue
            if any(w.udeprel[c - 1] in ("cop", "nsubj", "csubj") for c in w.children[p + 1]):
                continue
            out.append((i, R_NMOD, self._incident(
                "obl-should-be-nmod", w.line[i], f"The parent (node [{p + 1}] '{w.formtl(p)}') is"
                " a nominal (and not a predicate), hence the relation should be 'nmod', not"
                " 'obl'."), False))

    def _orphan(self, w: Words, out: List[Finding]) -> None:
        for i, udeprel in enumerate(w.udeprel):
            if udeprel != "orphan":
                continue
            parent_rel = "<ROOT>" if w.head[i] == 0 else w.udeprel[w.head[i] - 1]
            if parent_rel not in ORPHAN_PARENT_RELS:
                out.append((i, R_ORPHAN, self._incident(
                    "orphan-parent", w.line[i], "The parent of 'orphan' should normally be 'conj'"
                    f" but it is '{parent_rel}'.", severity="warning"), False))


class SpanChecks:
    """Level 3 checks of function-word leaves, fixed and goeswith spans and projective
    punctuation (a mixin of :class:`conll_eval.validate.backbone.Validator`)."""

    def _functional_leaves(self, w: Words, out: List[Finding]) -> None:
        for i, pdeprel in enumerate(w.udeprel):
            if pdeprel not in FUNCTIONAL or not w.children[i + 1]:
                continue
            nonprojective = None
            allowed = LEAF_ALLOWED[pdeprel]
            for c in w.children[i + 1]:
                k = c - 1
                cdeprel = w.udeprel[k]
                if pdeprel != "punct" and cdeprel == "advmod" and w.upos[k] in ("PART", "ADV") \
                        and dualdict_get(w.feats[k], "Polarity") == "Neg":
                    continue
                if cdeprel == "punct":
                    if nonprojective is None:
                        nonprojective = w.is_nonprojective(i + 1)
                    if nonprojective:
                        continue
                if cdeprel in allowed:
                    continue
                if pdeprel == "det" and cdeprel in ("appos", "acl", "nmod") and \
                        dualdict_get(w.feats[i], "Poss") == "Yes":
                    continue
                out.append((i, R_LEAF, self._incident(
                    LEAF_TESTID[pdeprel], w.line[k], f"'{pdeprel}' not expected to have children"
                    f" ({i + 1}:{w.form[i]}:{pdeprel} --> {c}:{w.form[k]}:{cdeprel})"), False))

    def _fixed_span(self, w: Words, out: List[Finding]) -> None:
        fixed = self._children_by_rel(w, "fixed")
        if not fixed:
            return
        # words other than punctuation up to each word: a span's gaps are counted, not
        # scanned (nested fixed expressions made the scans quadratic)
        words_before = [0]
        for udeprel in w.udeprel:
            words_before.append(words_before[-1] + (udeprel != "punct"))
        for node, kids in fixed.items():
            members = sorted([node] + kids)
            last = kids[-1]
            in_span = sum(1 for n in members
                          if node <= n <= last and w.udeprel[n - 1] != "punct")
            if words_before[last] - words_before[node - 1] > in_span:
                span = range(node, last + 1)
                kept = set(members)
                expr = " ".join(w.form[n - 1] if n in kept else "*" for n in span)
                out.append((node - 1, R_FIXED, self._incident(
                    "fixed-gap", w.line[node - 1], f"Gaps in fixed expression {members} '{expr}'",
                    severity="warning"), False))

    def _children_by_rel(self, w: Words, rel: str) -> Dict[int, List[int]]:
        """{head: [children attached as rel]} over the words (the root left out)."""
        found: Dict[int, List[int]] = {}
        for i, udeprel in enumerate(w.udeprel):
            if udeprel == rel and w.head[i]:
                found.setdefault(w.head[i], []).append(i + 1)
        return found

    def _goeswith(self, w: Words, out: List[Finding]) -> None:
        for node, kids in self._children_by_rel(w, "goeswith").items():
            p = node - 1
            members = sorted([node] + kids)
            last = kids[-1]
            # members == [node .. last], told without listing the span (nested groups)
            if members[0] != node or members[-1] != last or len(members) != last - node + 1:
                span = list(range(node, last + 1))
                out.append((p, R_GOESWITH, self._incident(
                    "goeswith-gap", w.line[p], f"Gaps in goeswith group {members} != {span}."),
                    False))
            if any(dualdict_get(w.misc[n - 1], "SpaceAfter") == "No" for n in members[:-1]):
                out.append((p, R_GOESWITH, self._incident(
                    "goeswith-nospace", w.line[p],
                    "'goeswith' cannot connect nodes that are not separated by whitespace."),
                    False))
            if dualdict_get(w.feats[p], "Typo") != "Yes":
                out.append((p, R_GOESWITH, self._incident(
                    "goeswith-missing-typo", w.line[p], "Since the treebank has morphological"
                    " features, 'Typo=Yes' must be used with 'goeswith' heads.", "MORPHO"), True))
        for i, udeprel in enumerate(w.udeprel):
            if udeprel == "goeswith":
                self._goeswith_morphology(w, i, out)

    def _goeswith_morphology(self, w: Words, i: int, out: List[Finding]) -> None:
        add = lambda tid, msg, klass="MORPHO": out.append(  # noqa: E731
            (i, R_GWMORPH, self._incident(tid, w.line[i], msg, klass), False))
        if w.lemma[i] != "_":
            add("goeswith-lemma", "The lemma of a 'goeswith'-connected word must be annotated only"
                " at the first part.")
        if w.upos[i] != "X":
            add("goeswith-upos", "The UPOS tag of a 'goeswith'-connected word must be annotated"
                " only at the first part; the other parts must be tagged 'X'.")
        if w.feats[i] != "_":
            add("goeswith-feats", "The morphological features of a 'goeswith'-connected word must"
                " be annotated only at the first part.")
        deps = _canonical_deps(w.deps[i])
        if deps != "_" and deps != f"{w.head[i]}:{w.deprel[i]}":
            add("goeswith-edeps", "A 'goeswith' dependent cannot have any additional dependencies"
                " in the enhanced graph.", "ENHANCED")

    def _projective_punct(self, w: Words, out: List[Finding]) -> None:
        for i, udeprel in enumerate(w.udeprel):
            if udeprel != "punct":
                continue
            node, parent = i + 1, w.head[i]
            caused = self._caused_nonprojectivities(w, node, parent)
            if caused:
                out.append((i, R_PUNCT, self._incident(
                    "punct-causes-nonproj", w.line[i],
                    f"Punctuation must not cause non-projectivity of nodes {caused}"), False))
            lo, hi = min(node, parent), max(node, parent)
            if parent and hi - lo > 1 and not w.tree.all_descend(lo + 1, hi - 1, parent):
                gap = [n for n in range(lo + 1, hi) if not w.tree.descends(n, parent)]
                out.append((i, R_PUNCT, self._incident(
                    "punct-is-nonproj", w.line[i], "Punctuation must not be attached"
                    f" non-projectively over nodes {gap}"), False))

    @staticmethod
    def _caused_nonprojectivities(w: Words, node: int, parent: int) -> List[int]:
        """udtools' get_caused_nonprojectivities: the words on either side of a node whose
        parents lie on its other side (between the node and its parent), leaving out those
        attached to its ancestors.  Those are the words of arcs crossing the node's own; each
        side is scanned only when the tree's range extremes say such an arc may be there (a
        scan per punctuation mark was quadratic on a head chain or a fan)."""
        tree, head = w.tree, w.head
        if parent < node:  # words between whose HEAD is after the node, or after the node
            first, last = parent + 1, node - 1  # whose HEAD is between
            inner = first <= last and tree.some_head_above(first, last, node)
            outer = first <= last and tree.some_dependent_after(first, last, node)
        else:  # words before the node whose HEAD is between, or between whose HEAD is before
            first, last = node + 1, parent - 1
            inner = first <= last and tree.some_head_below(first, last, node)
            outer = first <= last and tree.some_dependent_before(first, last, node)
        crossing = []
        if inner:
            crossing += [x for x in range(first, last + 1)
                         if (head[x - 1] > node if parent < node else head[x - 1] < node)]
        if outer:
            crossing += [x for h in range(first, last + 1) for x in w.children[h]
                         if (x > node if parent < node else x < node)]
        # ancestors: the node's parent and the words above it, and 0
        return sorted(x for x in crossing
                      if head[x - 1] != 0 and not tree.descends(node, head[x - 1]))

"""Levels 4 and 5 of the UD validator: words with spaces, features, relations and enhanced
relations (level 4), auxiliary and copula lemmas (level 5), checked node by node against the
language data of :mod:`conll_eval.validate.langdata`.  A word's ``Lang`` in MISC switches to
another language's lists where udtools does.
"""
from __future__ import annotations

from typing import Dict, List

from .patterns import (DEPREL, DEPS, FEATS, FORM, HEAD, ID, LEMMA, MISC, UPOS, _RE_WS_START,
                       dualdict_get)


def _alt_language(misc: str):
    """udtools' get_alt_language: the MISC Lang value, None when there is none."""
    value = dualdict_get(misc, "Lang")
    return value if value != "" else None


def _with_translit(text: str, misc: str, key: str) -> str:
    translit = dualdict_get(misc, key)
    return f"{text} {translit}" if isinstance(translit, str) and translit else text


class LanguageChecks:
    """The node checks of levels 4-5 (a mixin of :class:`conll_eval.validate.backbone.Validator`,
    which holds ``data`` and ``lang``)."""

    def _language_checks(self, cols: List[str], line: int, empty: bool,
                         rows: Dict[str, List[str]], mwt_typo: Dict[str, tuple]) -> None:
        # A word without Lang in MISC (no other language's lists) and no Typo at its multiword
        # token: its feature and relation findings depend on a few values alone, so each
        # check runs only where a cached verdict on those values says it finds something.
        plain = not empty and "Lang" not in cols[MISC] and cols[ID] not in mwt_typo
        self._words_with_spaces(cols, line)
        if not (plain and self._silent_feats(cols[UPOS], cols[FEATS])):
            self._feature_values(cols, line, empty, mwt_typo)
        if not (plain and cols[DEPREL] in self.data.deprels_of(self.lang)
                and self._silent_deps(cols[DEPS])):
            self._deprels(cols, line, empty, rows)
        if self.level >= 5:
            self._aux_cop(cols, line, empty)

    def _words_with_spaces(self, cols: List[str], line: int) -> None:
        form, lemma = cols[FORM], cols[LEMMA]
        if _RE_WS_START.search(form) is None and _RE_WS_START.search(lemma) is None:
            return
        lang = _alt_language(cols[MISC]) or self.lang
        tospace = self.data.tospace_of(lang)
        for column, word in (("FORM", form), ("LEMMA", lemma)):
            if _RE_WS_START.search(word) is None:
                continue
            if tospace and tospace[1].fullmatch(word.replace("\xa0", " ")):
                continue
            self.out.append(self._incident(
                "invalid-word-with-space", line, f"'{word}' in column {column} is not on the list"
                " of exceptions allowed to contain whitespace.", "FORMAT", level=4,
                explanation=self.data.explain_tospace(lang)))

    def _feature_values(self, cols: List[str], line: int, empty: bool,
                        mwt_typo: Dict[str, tuple]) -> None:
        if cols[FEATS] == "_":
            return
        default = self.data.feats_of(self.lang)
        lang, featset = self.lang, default
        alt = _alt_language(cols[MISC])
        if alt:
            if not self.data.is_known_language(alt):
                self.out.append(self._incident(
                    "unknown-lang", line, f"Language [{alt}] is unknown in Universal"
                    " Dependencies.", "MORPHO", "warning", level=4))
                return
            lang, featset = alt, self.data.feats_of(alt)
        upos = cols[UPOS] if empty or cols[UPOS] != "_" else None
        formtl = _with_translit(cols[FORM], cols[MISC], "Translit")
        features: Dict[str, str] = {}
        for item in cols[FEATS].split("|"):  # udapi's reading: the last value wins
            name, _, value = item.partition("=")
            features[name] = value
        for name, value in features.items():
            for v in value.split(","):
                self._feature_value(name, v, lang, featset, upos, formtl, cols, line, mwt_typo,
                                    default)

    def _feature_value(self, name, v, lang, featset, upos, formtl, cols, line, mwt_typo,
                       default) -> None:
        add = lambda tid, msg: self.out.append(self._incident(  # noqa: E731
            tid, line, msg, "MORPHO", level=4, explanation=self.data.explain_feats(lang)))
        if name == "Typo" and cols[ID] in mwt_typo:
            first, last = mwt_typo[cols[ID]]
            self.out.append(self._incident(
                "mwt-typo-repeated-at-word", line, f"Feature Typo cannot occur at word"
                f" [{cols[ID]}] if it already occurred at the corresponding multiword token"
                f" [{first}-{last}].", "MORPHO", level=4))
        if name == "Foreign":
            lang, featset = self.lang, default
        if name not in featset:
            add("feature-unknown", f"Feature {name} is not documented for language [{lang}]"
                f" ('{formtl}', {name}={v}).")
            return
        record = featset[name]
        if record["permitted"] == 0:
            add("feature-not-permitted", f"Feature {name} is not permitted in language [{lang}]"
                f" ('{formtl}, {name}={v}').")
        elif v not in (record["uvalues"] + record["lvalues"] + record["unused_uvalues"]
                       + record["unused_lvalues"]):
            add("feature-value-unknown", f"Value {v} is not documented for feature {name} in"
                f" language [{lang}] ('{formtl}').")
        elif upos not in record["byupos"]:
            add("feature-upos-not-permitted", f"Feature {name} is not permitted with UPOS {upos}"
                f" in language [{lang}] ('{formtl}').")
        elif not record["byupos"][upos].get(v):
            add("feature-value-upos-not-permitted", f"Value {v} of feature {name} is not"
                f" permitted with UPOS {upos} in language [{lang}] ('{formtl}').")

    def _deprels(self, cols: List[str], line: int, empty: bool,
                 rows: Dict[str, List[str]]) -> None:
        main = self.lang
        alt = _alt_language(cols[MISC])
        if not empty:
            parent = rows.get(cols[HEAD])
            parent_alt = _alt_language(parent[MISC]) if parent is not None else None
            allowed = self.data.deprels_of(main)
            deprel = None if cols[DEPREL] == "_" else cols[DEPREL]
            if deprel not in allowed and not (alt is not None and alt != main and alt == parent_alt
                                              and deprel in self.data.deprels_of(alt)):
                self.out.append(self._incident(
                    "unknown-deprel", line, f"Unknown DEPREL label: '{deprel}'", level=4,
                    explanation=self.data.explain_deprel(main)))
        if cols[DEPS] == "_":
            return
        allowed = self.data.edeprels_of(main)
        for item in cols[DEPS].split("|"):
            head, _, rel = item.partition(":")
            if rel in allowed:
                continue
            parent = rows.get(head)
            parent_alt = _alt_language(parent[MISC]) if parent is not None else None
            if alt is not None and alt != main and alt == parent_alt and \
                    rel in self.data.edeprels_of(alt):
                continue
            shown = str(float(head)) if "." in head else head  # udapi's float empty-node ids
            self.out.append(self._incident(
                "unknown-edeprel", line, f"Unknown enhanced relation type '{rel}' in"
                f" '{shown}:{rel}'", "ENHANCED", level=4,
                explanation=self.data.explain_edeprel(main)))

    def _aux_cop(self, cols: List[str], line: int, empty: bool) -> None:
        lemma = cols[LEMMA]
        if lemma == "_":
            return
        is_aux = cols[UPOS] == "AUX"
        is_cop = not empty and cols[DEPREL].split(":", 1)[0] == "cop"
        if not (is_aux or is_cop):
            return
        lang = self.lang
        alt = _alt_language(cols[MISC])
        if alt:
            if not self.data.is_known_language(alt):
                return
            lang = alt
        auxiliaries, copulas = self.data.auxcop_of(lang)
        lemmatl = _with_translit(lemma, cols[MISC], "LTranslit")
        if is_aux and lemma not in auxiliaries:
            self.out.append(self._incident(
                "aux-lemma", line, f"'{lemmatl}' is not an auxiliary in language [{lang}]",
                "MORPHO", level=5, explanation=self.data.explain_auxcop(lang, copulas=False)))
        if is_cop and lemma not in copulas:
            self.out.append(self._incident(
                "cop-lemma", line, f"'{lemmatl}' is not a copula in language [{lang}]",
                level=5, explanation=self.data.explain_auxcop(lang, copulas=True)))


def mwt_typo_words(table: List[List[str]]) -> Dict[str, tuple]:
    """{word id: (first, last)} of the words inside a multiword token whose FEATS say
    Typo=Yes (udtools: mwt-typo-repeated-at-word)."""
    found: Dict[str, tuple] = {}
    for cols in table:
        if "-" in cols[ID] and dualdict_get(cols[FEATS], "Typo") == "Yes":
            first, last = (int(x) for x in cols[ID].split("-"))
            for k in range(first, last + 1):
                found[str(k)] = (first, last)
    return found


"""The UD validator's language data (levels 4 and 5): permitted features, relations, enhanced
relations, auxiliaries, copulas and words with spaces per language, read from udtools' ``data/``
folder (the installed ``udtools`` package or ``--data DIR``), never copied into this project.
:class:`LanguageData` answers udtools' queries and words its explanations as udtools does.
"""
from __future__ import annotations

import functools
import importlib.util
import json
import os
import re
from typing import Dict, List, Optional, Set, Tuple

from ..errors import UsageError

#: the files of udtools' data folder that levels 4-5 read
DATA_FILES = ("upos.json", "feats.json", "udeprels.json", "deprels.json", "edeprels.json",
              "data.json", "tospace.json")
HOW_TO_GET_DATA = ("install the UD validator's data with pip install 'conll_eval[ud]' (the "
                   "udtools package), or give --data DIR, the data folder of a UD tools checkout "
                   "(https://github.com/UniversalDependencies/tools)")
_SUBJ = re.compile(r"[nc]subj(:|$)")
_SPECIFY = "https://quest.ms.mff.cuni.cz/udvalidator/cgi-bin/unidep/langspec/"


def find_data_dir(given: Optional[str] = None) -> str:
    """The data folder: ``given`` (checked), else the installed udtools package's ``data/``.
    Raises UsageError saying how to get it."""
    if given is not None:
        missing = [name for name in DATA_FILES if not os.path.isfile(os.path.join(given, name))]
        if missing:
            raise UsageError(f"conll_eval validate: --data {given}: not the UD validator's data "
                             f"folder (no {missing[0]}); {HOW_TO_GET_DATA}")
        return given
    spec = importlib.util.find_spec("udtools")  # finds the package without importing it
    if spec is not None and spec.submodule_search_locations:
        for folder in spec.submodule_search_locations:
            candidate = os.path.join(folder, "data")
            if all(os.path.isfile(os.path.join(candidate, n)) for n in DATA_FILES):
                return candidate
    raise UsageError("conll_eval validate: levels 4-5 need the UD validator's language data, "
                     f"which is not installed: {HOW_TO_GET_DATA}")


def _load(folder: str, name: str, key: str):
    with open(os.path.join(folder, name), encoding="utf-8") as f:
        return json.load(f)[key]


class Explanations:
    """The paragraphs udtools prints after the first incident of a kind (its words: the output
    must be udvalidate's byte for byte), per language.  udtools keeps the enhanced relations'
    paragraph where the relations' one is cached, so after an ``unknown-edeprel`` the
    ``unknown-deprel`` incidents of that language carry it: mirrored (``_explained``)."""

    def explain_feats(self, lang) -> str:
        self._ensure(lang)
        featset = self.feats_of(lang)
        if lang not in self.feats:
            return (f"No feature-value pairs have been permitted for language [{lang}].\n"
                    + self._permit_here("specify_feature.pl"))
        msg = "".join(f"ERROR in _{lang}/feat/{f}.md: {e}\n" for f in featset
                      for e in featset[f]["errors"])
        permitted = sorted({f"{f}={v}" for f, rec in featset.items() if rec["permitted"] > 0
                            for v in rec["uvalues"] + rec["lvalues"]})
        return msg + (
            f"The following {len(permitted)} feature values are currently permitted in language"
            f" [{lang}]:\n" + ", ".join(permitted) + "\n"
            "If a language needs a feature that is not documented in the universal guidelines,"
            " the feature must\nhave a language-specific documentation page in a prescribed"
            " format.\nSee https://universaldependencies.org/contributing/language_specific.html"
            " for further guidelines.\nAll features including universal must be specifically"
            " turned on for each language in which they are used.\n"
            f"See {_SPECIFY}specify_feature.pl for details.\n")

    def explain_deprel(self, lang) -> str:
        self._ensure(lang)
        if ("deprel", lang) in self._explained:
            return self._explained[("deprel", lang)]
        deprels = self.deprels_of(lang)
        if not deprels:
            msg = (f"No dependency relation types have been permitted for language [{lang}].\n"
                   + self._permit_here("specify_deprel.pl"))
        else:
            msg = ""
            for rel, record in self.deprels.get(lang, {}).items():
                page = rel.replace(":", "-")
                page = "aux_" if page == "aux" else page
                msg += "".join(f"ERROR in _{lang}/dep/{page}.md: {e}\n" for e in record["errors"])
            msg += (f"The following {len(deprels)} relations are currently permitted in language"
                    f" [{lang}]:\n" + ", ".join(sorted(deprels)) + "\n"
                    "If a language needs a relation subtype that is not documented in the"
                    " universal guidelines, the relation\nmust have a language-specific"
                    " documentation page in a prescribed format.\nSee"
                    " https://universaldependencies.org/contributing/language_specific.html for"
                    " further guidelines.\nDocumented dependency relations can be specifically"
                    " turned on/off for each language in which they are used.\n"
                    f"See {_SPECIFY}specify_deprel.pl for details.\n")
        self._explained[("deprel", lang)] = msg
        return msg

    def explain_edeprel(self, lang) -> str:
        self._ensure(lang)
        edeprels = self.edeprels_of(lang)
        if not edeprels:
            msg = ("No enhanced dependency relation types (case markers) have been permitted for"
                   f" language [{lang}].\n" + self._permit_here("specify_edeprel.pl"))
        else:
            msg = (f"The following {len(edeprels)} enhanced relations are currently permitted in"
                   f" language [{lang}]:\n" + ", ".join(sorted(edeprels)) + "\n"
                   f"See {_SPECIFY}specify_edeprel.pl for details.\n")
        self._explained[("deprel", lang)] = msg  # sic: udtools' cache slip, see the class doc
        return msg

    def explain_auxcop(self, lang, copulas: bool) -> str:
        self._ensure(lang)
        lemmas = self.auxcop_of(lang)[1 if copulas else 0]
        what = "copulas" if copulas else "auxiliaries"
        url = f"{_SPECIFY}specify_auxiliary.pl?lcode={lang}"
        if not lemmas:
            return (f"No {what} have been documented at the address below for language [{lang}]."
                    f"\n{url}\n")
        return (f"The following {len(lemmas)} {what} are currently documented in language"
                f" [{lang}]:\n" + ", ".join(lemmas) + f"\nSee {url} for details.\n")

    def explain_tospace(self, lang) -> str:
        self._ensure(lang)
        if lang not in self.tospace:
            return (f"No tokens with spaces have been permitted for language [{lang}].\n"
                    + self._permit_here("specify_token_with_space.pl"))
        return ("Only tokens and lemmas matching the following regular expression are currently"
                f" permitted to contain spaces in language [{lang}]:\n{self.tospace[lang][0]}"
                "\nOthers can be permitted at the address below (if the language has an ISO"
                " code and is registered with UD):\n"
                f"{_SPECIFY}specify_token_with_space.pl\n")

    @staticmethod
    def _permit_here(page: str) -> str:
        return ("They can be permitted at the address below (if the language has an ISO code"
                f" and is registered with UD):\n{_SPECIFY}{page}\n")


class LanguageData(Explanations):
    """udtools' language data and its queries (names as udtools': feats, deprels, edeprels,
    auxiliaries, copulas, words with spaces), cached per language.  Only the languages asked
    for are kept (the whole data is about 22 MB in memory): the main one from the start, any
    other (a word's Lang in MISC) read from the files when first asked for."""

    #: (file, key in it, attribute) of the per-language tables
    TABLES = (("feats.json", "features", "feats"), ("deprels.json", "deprels", "deprels"),
              ("edeprels.json", "edeprels", "edeprels"), ("data.json", "auxiliaries", "auxcop"),
              ("tospace.json", "expressions", "_tospace_items"))

    def __init__(self, folder: str, languages: Tuple[str, ...] = ()):
        self.folder = folder
        self.udeprels: Set[str] = set(_load(folder, "udeprels.json", "udeprels"))
        self.feats: Dict[str, dict] = {}
        self.deprels: Dict[str, dict] = {}
        self.edeprels: Dict[str, dict] = {}
        self.auxcop: Dict[str, dict] = {}
        self._tospace_items: Dict[str, List[str]] = {}
        self.tospace: Dict[str, Tuple[str, "re.Pattern"]] = {}
        self._languages: Set[str] = set()   # the languages read so far
        self._known: Set[str] = set()       # every language of the files
        self._read(set(languages))
        self._deprel_cache: Dict[Optional[str], Set[str]] = {}
        self._edeprel_cache: Dict[Optional[str], Set[str]] = {}
        self._auxcop_cache: Dict[str, Tuple[List[str], List[str]]] = {}
        self._explained: Dict[Tuple[str, str], str] = {}

    def _read(self, languages: Set[str]) -> None:
        """Read the tables of ``languages`` (and learn which languages the data has)."""
        for name, key, attribute in self.TABLES:
            table = _load(self.folder, name, key)
            self._known.update(table)
            mine = getattr(self, attribute)
            mine.update((lang, table[lang]) for lang in languages if lang in table)
        for lang in languages:
            items = self._tospace_items.get(lang)
            if items is not None:
                combined = "(" + "|".join(sorted(items)) + ")"
                self.tospace[lang] = (combined, re.compile(combined))
        self._languages |= languages

    def _ensure(self, lang) -> None:
        if lang not in self._languages and lang in self._known:
            self._read({lang})
        self._languages.add(lang)

    def is_known_language(self, lang) -> bool:
        return lang == "ud" or lang in self._known

    def feats_of(self, lang) -> dict:
        self._ensure(lang)
        return self.feats.get(lang, {})

    def deprels_of(self, lang) -> Set[str]:
        self._ensure(lang)
        if lang not in self._deprel_cache:
            if lang == "ud":
                found = self.udeprels
            else:
                found = {r for r, rec in self.deprels.get(lang, {}).items() if rec["permitted"] > 0}
            self._deprel_cache[lang] = found
        return self._deprel_cache[lang]

    def edeprels_of(self, lang) -> Set[str]:
        self._ensure(lang)
        if lang not in self._edeprel_cache:
            basic = self.deprels_of(lang)
            found = basic | {"ref"}
            found.update(b + ":xsubj" for b in basic if _SUBJ.match(b))
            for marker, record in self.edeprels.get(lang, {}).items():
                for extended in record["extends"]:
                    prefix = re.compile("^" + extended + ":")
                    found.update(f"{b}:{marker}" for b in basic
                                 if b == extended or prefix.match(b))
            self._edeprel_cache[lang] = found
        return self._edeprel_cache[lang]

    def auxcop_of(self, lang) -> Tuple[List[str], List[str]]:
        """(auxiliary lemmas, copula lemmas) of a language, in the data's order."""
        self._ensure(lang)
        if lang not in self._auxcop_cache:
            lemmas = self.auxcop.get(lang, {})
            aux = [x for x, rec in lemmas.items()
                   if any(f["function"] != "cop.PRON" for f in rec["functions"])]
            cop = [x for x, rec in lemmas.items()
                   if any(f["function"].startswith("cop.") for f in rec["functions"])]
            self._auxcop_cache[lang] = (aux, cop)
        return self._auxcop_cache[lang]

    def tospace_of(self, lang) -> Optional[Tuple[str, "re.Pattern"]]:
        self._ensure(lang)
        return self.tospace.get(lang)


@functools.lru_cache(maxsize=4)
def load_language_data(folder: str, lang: str) -> LanguageData:
    """The language data of a folder for a main language, read once per process (validators
    share it)."""
    return LanguageData(folder, (lang,))

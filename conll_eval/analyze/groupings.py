"""The grouping registry: every grouping ``--GroupBy`` can name, built-in or plugin, is a
:class:`Grouping` object here, keyed by its name.

Built-ins (the key functions of :mod:`conll_eval.analyze.counting` with MaltEval's facts
from :mod:`conll_eval.analyze.grouping_facts`) are registered when this module is imported;
third-party groupings come from ``--plugin module:Class`` or from the entry-point
group ``conll_eval.groupings`` (entry-point name = grouping name), imported only when a
command names them.  A plugin is a small class::

    import numpy as np
    from conll_eval.analyze.groupings import Grouping

    class WordLength(Grouping):
        '''Characters in the word's FORM.'''
        name = "WordLength"
        numeric = True                      # integer keys: rows sorted numerically

        def keys(self, side):
            codes = side.string_column("form")  # first: a lazy column may add strings
            lengths = [len(s) for s in side.vocab.strings]
            return np.asarray(lengths, dtype=np.int64)[codes]

``keys(side)`` gets one file's words (:class:`~conll_eval.analyze.counting.Side`: positions,
heads, sentence lengths, ``string_column(name)`` for form/lemma/upos/xpos/feats/deprel as
Vocab codes) and returns one key per word, all at once: int64 numbers when ``numeric``, else
Vocab codes (``side.vocab.encode(list_of_strings)``).  Gold and system words are keyed
separately, each from its own file, as every MaltEval grouping is.
"""
from __future__ import annotations

import importlib
import re
from typing import Callable, Dict, Iterable, List, Optional

import numpy as np

from .counting import GROUPINGS, AnalysisPair, Keys, Side
from .grouping_facts import BUILTIN_GROUPINGS

__all__ = ["ENTRY_POINT_GROUP", "Grouping", "FunctionGrouping", "PluginError", "register",
           "registry", "resolve", "load_plugin", "names", "grouping_keys"]

ENTRY_POINT_GROUP = "conll_eval.groupings"
#: characters with a meaning in a GroupBy value (offsets, joins, formats, value lists)
_RESERVED = re.compile(r"[@#,:;|\s]")


class PluginError(ValueError):
    """A plugin that cannot be imported or is not a usable grouping (a usage error)."""


class Grouping:
    """A grouping: how to key each word of one file, and how MaltEval shows the table.

    ``numeric``: keys are integers (rows in numeric order), else strings (Vocab codes, rows
    in Java ``String.compareTo`` order).  ``simple_accuracy``: the table has MaltEval's
    accuracy columns (``accuracy counter correctcounter``, as Cpostag), else per-side columns
    (``parseraccuracy treebankaccuracy ...``, as Deprel).  ``self_metric``: ``BothRight`` when
    ``--Metric <name>`` means "head and label right" (as Cpostag), or the grouping's own name
    when it means "the same key in gold and system" (as Deprel).  ``show_details`` /
    ``show_table_header``: detail rows / the Row mean block by default.  ``complex_item``: can be
    combined with ``@offset``, ``#`` and ``,`` (string keys only).  ``corresponding_metric``:
    a metric pattern whose tables get precision/recall columns (MaltEval's ``contains``).
    """

    name: str = ""
    numeric: bool = False
    simple_accuracy: bool = True
    self_metric: str = "BothRight"
    show_details: bool = True
    show_table_header: bool = False
    complex_item: bool = False
    corresponding_metric: Optional[str] = None

    def keys(self, side):  # pragma: no cover - the contract, overridden by every grouping
        """One key per word of ``side`` (see the module docstring)."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<grouping {self.name}>"


class FunctionGrouping(Grouping):
    """A grouping from a key function and MaltEval's facts about it (the built-ins)."""

    def __init__(self, name: str, function: Callable, numeric: bool, **facts):
        self.name = name
        self._function = function
        self.numeric = numeric
        for attribute, value in facts.items():
            if not hasattr(Grouping, attribute):
                raise TypeError(f"unknown grouping attribute {attribute!r}")
            setattr(self, attribute, value)
        if "self_metric" not in facts:
            self.self_metric = "BothRight"

    def keys(self, side):
        return self._function(side)


_REGISTRY: Dict[str, Grouping] = {}


def registry() -> Dict[str, Grouping]:
    """Every registered grouping by name (the built-ins first, in MaltEval's order)."""
    return _REGISTRY


def register(grouping: Grouping, replace: bool = False) -> Grouping:
    """Add ``grouping`` (an instance) to the registry and return it.  A name taken by another
    grouping is refused unless ``replace``."""
    name = getattr(grouping, "name", None)
    if not isinstance(name, str) or not name or _RESERVED.search(name):
        raise PluginError(f"a grouping needs a name without spaces or any of @#,:;| "
                          f"(got {name!r})")
    if name == "self":
        raise PluginError("'self' is not a grouping name (it is the metric of the grouping)")
    if not callable(getattr(grouping, "keys", None)):
        raise PluginError(f"grouping {name}: keys(side) is missing")
    if grouping.complex_item and grouping.numeric:
        raise PluginError(f"grouping {name}: only string keys can be part of a complex grouping")
    existing = _REGISTRY.get(name)
    if existing is not None and existing is not grouping and not replace:
        raise PluginError(f"a grouping named {name} is already registered ({existing!r})")
    _REGISTRY[name] = grouping
    return grouping


def _instance(obj, origin: str) -> Grouping:
    grouping = obj() if isinstance(obj, type) else obj
    if not isinstance(grouping, Grouping):
        raise PluginError(f"{origin} is not a conll_eval.analyze.groupings.Grouping "
                          f"(got {type(grouping).__name__})")
    return grouping


def load_plugin(spec: str) -> Grouping:
    """``module:Class`` (or ``module:object``): import it, instantiate a class, register it."""
    module_name, _, attribute = spec.partition(":")
    if not module_name or not attribute:
        raise PluginError(f"--plugin {spec}: expected module:Class")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise PluginError(f"--plugin {spec}: cannot import {module_name} ({exc})") from None
    obj = module
    for part in attribute.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise PluginError(f"--plugin {spec}: {module_name} has no {attribute}") from None
    registry()
    grouping = _instance(obj, f"--plugin {spec}")
    if _REGISTRY.get(grouping.name) is grouping:
        return grouping
    return register(grouping)


def _entry_points(name: str) -> List:
    from importlib import metadata  # here: ~10 ms, only a plugin lookup needs it
    found = metadata.entry_points()
    if hasattr(found, "select"):
        candidates: Iterable = found.select(group=ENTRY_POINT_GROUP)
    else:  # Python 3.9: a dict of groups
        candidates = found.get(ENTRY_POINT_GROUP, [])
    return [ep for ep in candidates if ep.name == name]


def resolve(name: str) -> Optional[Grouping]:
    """The grouping called ``name``: registered, or an installed entry point of that name
    (imported now, registered); None when there is none."""
    grouping = registry().get(name)
    if grouping is not None or not name or _RESERVED.search(name):
        return grouping
    points = _entry_points(name)
    if not points:
        return None
    try:
        obj = points[0].load()
    except Exception as exc:  # a broken third-party package: say which
        raise PluginError(f"grouping {name}: the entry point {points[0].value} of "
                          f"{ENTRY_POINT_GROUP} fails to load ({type(exc).__name__}: {exc})") \
            from None
    grouping = _instance(obj, f"entry point {points[0].value}")
    if grouping.name != name:
        raise PluginError(f"entry point {name} gives a grouping named {grouping.name!r}")
    return register(grouping)


def names() -> List[str]:
    """Registered grouping names."""
    return list(registry())


def _register_builtins() -> None:
    """Put every built-in grouping into the registry, with MaltEval's facts about it."""
    for name, info in BUILTIN_GROUPINGS.items():
        function, numeric = GROUPINGS[name]
        register(FunctionGrouping(
            name, function, numeric, simple_accuracy=info.simple_accuracy,
            self_metric=info.self_metric, show_details=info.show_details,
            show_table_header=info.show_table_header, complex_item=info.complex_item,
            corresponding_metric=info.corresponding_metric))


_register_builtins()


def grouping_keys(name: str, pair: AnalysisPair) -> Keys:
    """The keys of the registered grouping ``name`` (built-in or plugin) for every gold and
    every system word."""
    grouping = registry().get(name)
    if grouping is None:
        raise KeyError(f"unknown grouping {name!r}")
    return Keys(_checked_keys(grouping, pair.gold), _checked_keys(grouping, pair.system),
                grouping.numeric)


def _checked_keys(grouping, side: Side) -> np.ndarray:
    """A grouping's keys for one side, checked (plugins are third-party code): one integer
    per word, Vocab codes in range for string keys."""
    keys = np.asarray(grouping.keys(side))
    if keys.shape != (len(side.head),) or not np.issubdtype(keys.dtype, np.integer):
        raise ValueError(f"grouping {grouping.name}: keys(side) must give one integer per word "
                         f"({len(side.head)}), got shape {keys.shape} of {keys.dtype}")
    if not grouping.numeric and len(keys) and (keys.min() < 0 or keys.max() >= len(side.vocab)):
        raise ValueError(f"grouping {grouping.name}: string keys must be Vocab codes "
                         f"(side.vocab.encode(strings))")
    return keys

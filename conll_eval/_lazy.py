"""Public names of a package imported on first use (module ``__getattr__``, PEP 562), for
start-up time: a package says which of its modules holds each name, and gets the two functions."""
from __future__ import annotations

import importlib
from typing import Any, Callable, Dict, List, Mapping, Tuple


def lazy_names(package: str, modules: Mapping[str, str],
               namespace: Dict[str, Any]) -> Tuple[Callable[[str], Any], Callable[[], List[str]]]:
    """``(__getattr__, __dir__)`` for ``package``: a name of ``modules`` (name -> its submodule)
    is imported from ``package.<submodule>`` on first access and kept in ``namespace`` (the
    package's globals), so later accesses cost nothing; any other name is an AttributeError."""
    def getattr_(name: str) -> Any:
        if name not in modules:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = namespace[name] = getattr(importlib.import_module(f"{package}.{modules[name]}"), name)
        return value

    def dir_() -> List[str]:
        return sorted(set(namespace) | set(modules))
    return getattr_, dir_

"""The incidents a failed validation keeps (:class:`KeptIncidents`, ``--strict``'s
:class:`conll_eval.errors.ValidationFailed`) in memory bounded whatever the files hold.

A file with an error on every line gives an incident object (some hundred bytes) per line of
two bytes, and 100 MB of blank lines gave 100 million of them (issue 40: --strict took 400 MB a
million blank lines).  What is shown of them is the head of each class (the command line prints
20 of each), and what is said of the rest is how many there were; so a class's first
:data:`KEPT_PER_GROUP` incidents are kept and the others counted, and a run of blank lines
(:class:`~.incidents.IncidentRun`) is kept as the one object it is and expanded only when read.
"""
from __future__ import annotations

from bisect import bisect_right
from itertools import islice
from typing import (Callable, Dict, Iterable, Iterator, List, Sequence, Tuple, Union,
                    overload)

from .incidents import LIMIT_IDS, Found, IncidentRun, ValidationIncident, expand_runs

__all__ = ["KeptIncidents", "KEPT_PER_GROUP", "wanted_found"]

#: the incidents of one (severity, class) group a :class:`KeptIncidents` keeps at least (the
#: command line prints 20 of a class: what it prints of the kept ones is what it would print of
#: all); the rest of the group is only counted
KEPT_PER_GROUP = 1000


def wanted_found(found: Iterable[Found],
                 wanted: Callable[[ValidationIncident], bool]) -> Iterator[Found]:
    """The incidents of ``found`` that ``wanted`` keeps, a run's as a run (asked once per
    kind of incident of the run: :meth:`IncidentRun.keep`)."""
    for item in found:
        if isinstance(item, IncidentRun):
            kept = item.keep(wanted)
            if kept is not None:
                yield kept
        elif wanted(item):
            yield item


class KeptIncidents(Sequence[ValidationIncident]):
    """A read-only sequence of the validator's incidents, in the order they were found, that
    keeps of each (severity, class) group the first ``per_group`` incidents (at least: an item
    is kept whole) and only counts the others.

    Items (incidents, and runs of them: :class:`IncidentRun`) are added with :meth:`extend`;
    one is kept when one of its groups has fewer than ``per_group`` kept incidents, or when it
    is a limit's finding (``line-too-long``: the file was not read to its end).  A run is kept
    as one object, however many lines it covers, and expanded only when read.  Memory: at most
    ``per_group`` items a group, whatever the input.

    ``len()`` and indexing cover the kept incidents; :attr:`total` is how many were added in
    all, :attr:`counts` how many of each (severity, class); :attr:`found` the kept items with
    the runs whole (to count a run in one step, as ``limit_per_class`` does).
    """

    def __init__(self, found: Iterable[Found] = (), per_group: int = KEPT_PER_GROUP):
        self.per_group = per_group
        self.found: List[Found] = []
        self.counts: Dict[Tuple[str, str], int] = {}
        self.total = 0
        self._kept: Dict[Tuple[str, str], int] = {}
        self._ends: List[int] = []  # kept incidents up to and including each item
        self.extend(found)

    def extend(self, found: Iterable[Found]) -> None:
        """Add ``found`` (incidents and runs), keeping or counting each item."""
        for item in found:
            groups = (item.counts() if isinstance(item, IncidentRun)
                      else {(item.severity, item.klass): 1})
            for key, n in groups.items():
                self.counts[key] = self.counts.get(key, 0) + n
            size = sum(groups.values())
            self.total += size
            limit_finding = not isinstance(item, IncidentRun) and item.testid in LIMIT_IDS
            if limit_finding or any(self._kept.get(key, 0) < self.per_group for key in groups):
                for key, n in groups.items():
                    self._kept[key] = self._kept.get(key, 0) + n
                self.found.append(item)
                self._ends.append((self._ends[-1] if self._ends else 0) + size)

    @property
    def omitted(self) -> int:
        """How many incidents were counted but not kept."""
        return self.total - len(self)

    def __len__(self) -> int:
        return self._ends[-1] if self._ends else 0

    def __iter__(self) -> Iterator[ValidationIncident]:
        return expand_runs(self.found)

    @overload
    def __getitem__(self, index: int) -> ValidationIncident: ...

    @overload
    def __getitem__(self, index: slice) -> List[ValidationIncident]: ...

    def __getitem__(self, index: Union[int, slice]
                    ) -> Union[ValidationIncident, List[ValidationIncident]]:
        """An incident (found by bisection among the items, then within its run), or a
        slice's as a list."""
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self))
            if step < 0:
                return [self[i] for i in range(start, stop, step)]
            return list(islice(self, start, max(start, stop), step))
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError("KeptIncidents index out of range")
        position = bisect_right(self._ends, index)
        item = self.found[position]
        if not isinstance(item, IncidentRun):
            return item
        return _nth_of_run(item, index - (self._ends[position - 1] if position else 0))

    def __eq__(self, other: object) -> bool:
        """Equal to a sequence of the same incidents (a list, a tuple, another one)."""
        if not isinstance(other, (KeptIncidents, list, tuple)):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other))

    __hash__ = None  # type: ignore[assignment]  # (compared by value)

    def __repr__(self) -> str:
        return f"<KeptIncidents: {len(self)} kept of {self.total}>"


def _nth_of_run(run: IncidentRun, n: int) -> ValidationIncident:
    """The run's ``n``-th incident: at once when each of its lines has as many, else by
    walking its lines."""
    sizes = [len(incidents) for incidents in run.templates]
    if len(set(sizes)) == 1:
        return run.line(n // sizes[0])[n % sizes[0]]
    for k, kind in enumerate(run.kinds):
        if n < sizes[kind]:
            return run.line(k)[n]
        n -= sizes[kind]
    raise IndexError("past the run's incidents")

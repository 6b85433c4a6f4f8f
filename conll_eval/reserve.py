"""Arrays with room to grow: capacity reserved as address space, memory taken only where written.

The reader fills whole-file columns whose final length it can only guess, so it reserves more than
it writes.  Unwritten room costs nothing with 4 KiB pages, but numpy advises transparent huge pages
for large arrays, and the kernel then backs the written end of each with a whole 2 MiB page (about
25 MB more at the peak on the 1M-word bench pair).  A large reservation is therefore an anonymous
mapping advised against huge pages (Linux); elsewhere it is numpy's own array.
"""
from __future__ import annotations

import mmap

import numpy as np

__all__ = ["RESERVE_MIN_BYTES", "reserve"]

#: below this many bytes numpy does not advise huge pages, and its own allocation is reused
RESERVE_MIN_BYTES = 4 << 20

_NO_HUGE_PAGES = getattr(mmap, "MADV_NOHUGEPAGE", None)
_ANONYMOUS = getattr(mmap, "MAP_ANONYMOUS", None)


def reserve(capacity: int, dtype) -> np.ndarray:
    """An uninitialised array of ``capacity`` items of ``dtype`` whose memory is taken page by
    page as it is written (4 KiB pages where the system lets us choose); freed with the last
    array or view of it."""
    dtype = np.dtype(dtype)
    nbytes = capacity * dtype.itemsize
    if nbytes < RESERVE_MIN_BYTES or _NO_HUGE_PAGES is None or _ANONYMOUS is None:
        return np.empty(capacity, dtype=dtype)
    try:
        mapping = mmap.mmap(-1, nbytes, flags=mmap.MAP_PRIVATE | _ANONYMOUS)
        mapping.madvise(_NO_HUGE_PAGES)
    except (OSError, ValueError):  # no room for the mapping, or a kernel without the advice
        return np.empty(capacity, dtype=dtype)
    return np.frombuffer(mapping, dtype=dtype)

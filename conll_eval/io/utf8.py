"""UTF-8 validation of whole files as bytes, exactly as Python's strict decoder decides, without the GIL.

The scan relies on valid UTF-8 (it hands any other file to the exact parser, which says where
it is wrong); the compiled core checks it when built, numpy otherwise.
"""
from __future__ import annotations

import numpy as np

from ..compiled import cscan as _cscan  # None: the numpy path (not built, or CONLL_EVAL_PURE)

__all__ = ["utf8_valid", "utf8_valid_numpy"]

#: bytes per slice in :func:`utf8_valid` (bounds its temporaries)
_UTF8_SLICE = 1 << 20


def utf8_valid(data) -> bool:
    """Whether ``data`` is valid UTF-8, exactly as Python's strict decoder decides (RFC 3629:
    no overlongs, no surrogates, nothing above U+10FFFF), vectorised so that it runs without
    the GIL.  Slices are cut after a newline (ASCII), which never splits a character."""
    arr = np.frombuffer(data, dtype=np.uint8)
    if _cscan is not None:
        return _cscan.utf8_valid(arr) if len(arr) else True
    return utf8_valid_numpy(data if isinstance(data, bytes) else bytes(data), arr)


def utf8_valid_numpy(data: bytes, arr: np.ndarray) -> bool:
    """:func:`utf8_valid` with numpy only (the reference)."""
    lo = 0
    while lo < len(arr):
        hi = min(len(arr), lo + _UTF8_SLICE)
        if hi < len(arr):
            newline = data.rfind(b"\n", lo, hi)
            hi = newline + 1 if newline >= lo else data.find(b"\n", hi) + 1 or len(arr)
        if not _utf8_slice_valid(arr[lo:hi]):
            return False
        lo = hi
    return True


def _utf8_slice_valid(arr: np.ndarray) -> bool:
    high = np.flatnonzero(arr >= 0x80)
    if len(high) == 0:
        return True
    b = arr[high]
    cont = b < 0xC0
    need = np.where(b >= 0xF0, 3, np.where(b >= 0xE0, 2, 1))  # for leads; conts ignored
    if np.any((b == 0xC0) | (b == 0xC1) | (b > 0xF4)):
        return False
    lead = np.flatnonzero(~cont)
    k = need[lead]
    if len(lead) and np.any(lead + k >= len(high)):
        return False
    # each lead is followed, at the next positions, by exactly its continuation bytes
    for j in (1, 2, 3):
        at = lead[k >= j]
        if len(at) and not np.all((high[at + j] == high[at] + j) & cont[at + j]):
            return False
    # ... and no continuation byte is left over (the leads' ranges cannot overlap)
    if np.count_nonzero(cont) != int(k.sum()):
        return False
    first, second = b[lead], b[lead + 1] if len(lead) else b[:0]
    bad = ((first == 0xE0) & (second < 0xA0)) | ((first == 0xED) & (second > 0x9F)) | \
        ((first == 0xF0) & (second < 0x90)) | ((first == 0xF4) & (second > 0x8F))
    return not bad.any()


"""Scoring a submission exactly as ``conll_eval suite GOLD DIR`` does, through the suite API,
into what the database keeps: suite's JSON ``macro`` and treebank objects, each treebank's
status and reason, and the per-sentence counts the significance tests resample.  Also the
gold files' checksums, which tell a gold file changed since the task was made."""
from __future__ import annotations

import hashlib
import io
import json
import re
import struct
from dataclasses import dataclass
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

import numpy as np

from ..evaluate import Settings
from ..pairing import find_pairs
from ..report.suite import suite_json
from ..suite import MISSING_FILE, SuiteEvaluation, score_entries

__all__ = ["ScoredSubmission", "ScoredTreebank", "gold_files", "file_sha256", "score_directory",
           "counts_bytes", "counts_from_bytes", "metric_counts"]

_CHUNK = 1 << 20


def file_sha256(path: str) -> str:
    """The SHA-256 of a file's bytes, read in 1 MiB chunks (constant memory)."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(_CHUNK), b""):
            digest.update(chunk)
    return digest.hexdigest()


def gold_files(gold_dir: str) -> Dict[str, Tuple[str, str]]:
    """The task's treebanks as suite finds them in ``gold_dir`` (its ``*.conllu`` files or
    its metadata.json), each with its gold path and that file's SHA-256, in suite's order.
    Raises :class:`~conll_eval.errors.UsageError` (no such directory) or an input error."""
    pairing = find_pairs(gold_dir, gold_dir)
    return {entry.name: (entry.gold, file_sha256(entry.gold)) for entry in pairing.entries}


@dataclass(frozen=True)
class ScoredTreebank:
    """One treebank: suite's JSON object for it, its status (``ok`` or the failure's
    message), the failure's code, and its per-sentence counts (``.npz`` bytes; None when it
    failed)."""
    name: str
    record: dict
    status: str
    reason: Optional[str]
    counts: Optional[bytes]


@dataclass(frozen=True)
class ScoredSubmission:
    """A scored submission: suite's JSON ``macro``, its treebanks in suite's order, and the
    system files no gold treebank claims."""
    macro: dict
    treebanks: Tuple[ScoredTreebank, ...]
    unpaired: Tuple[str, ...]

    @property
    def paired(self) -> int:
        """How many treebanks had a system file."""
        return sum(tb.reason != MISSING_FILE for tb in self.treebanks)


def counts_bytes(counts: Mapping[str, np.ndarray]) -> bytes:
    """``{metric: (sentences, 3) counts}`` as ``.npz`` bytes (int64, uncompressed)."""
    buffer = io.BytesIO()
    arrays: Dict[str, Any] = {name: np.asarray(array, dtype=np.int64) for name, array in counts.items()}
    np.savez(buffer, **arrays)
    return buffer.getvalue()


def counts_from_bytes(data: bytes) -> Dict[str, np.ndarray]:
    """What :func:`counts_bytes` wrote (no pickled object is ever loaded)."""
    with np.load(io.BytesIO(data), allow_pickle=False) as archive:
        return {name: archive[name] for name in archive.files}


_LOCAL_HEADER = struct.Struct("<4s2xHH4x4xIIHH")  # signature, flags, method, sizes, name, extra
#: the header numpy writes for a C-ordered little-endian int64 array of two dimensions
_NPY_HEADER = re.compile(rb"\{'descr': '<i8', 'fortran_order': False, 'shape': \((\d+), (\d+)\), \} *\n")


def _member(data: bytes, name: bytes) -> Optional[Tuple[int, int]]:
    """(offset, size) of the stored (uncompressed) member ``name`` of the zip ``data``, read
    from its local headers; None when absent or when the archive is not as np.savez writes
    it (then np.load reads it)."""
    position = 0
    while data.startswith(b"PK\x03\x04", position) and position + _LOCAL_HEADER.size <= len(data):
        _, flags, method, compressed, size, name_size, extra_size = _LOCAL_HEADER.unpack_from(data, position)
        if method != 0 or flags & 0x08 or compressed != size:
            return None
        start = position + _LOCAL_HEADER.size + name_size + extra_size
        if size == 0xFFFFFFFF:  # zip64: the sizes are in the extra field (id 1, then two 8-byte sizes)
            extra = data[start - extra_size:start]
            if extra[:2] != b"\x01\x00" or len(extra) < 20:
                return None
            size = struct.unpack_from("<Q", extra, 4)[0]  # the uncompressed size: stored, so both
        if start + size > len(data):
            return None
        if data[position + _LOCAL_HEADER.size:position + _LOCAL_HEADER.size + name_size] == name:
            return start, size
        position = start + size
    return None


def metric_counts(data: bytes, metric: str) -> Optional[np.ndarray]:
    """One metric's ``(sentences, 3)`` counts from what :func:`counts_bytes` wrote, None when
    it holds none: the member is found by its local header and read in place (the ranking
    reads 8,200 of them for 100 teams of 82 treebanks: 4x quicker than np.load, which parses
    the whole archive); anything unusual is read by np.load."""
    found = _member(data, f"{metric}.npy".encode("ascii", "replace"))
    if found is not None:
        start, size = found
        length = struct.unpack_from("<H", data, start + 8)[0] if size >= 10 else 0
        header = _NPY_HEADER.fullmatch(data, start + 10, start + 10 + length)
        if data.startswith(b"\x93NUMPY\x01", start) and header is not None:
            rows, columns = int(header.group(1)), int(header.group(2))
            if 10 + length + rows * columns * 8 == size:
                array = np.frombuffer(data, dtype="<i8", count=rows * columns, offset=start + 10 + length)
                return array.reshape(rows, columns)[:, :3].copy()  # a view would keep the whole blob
    with np.load(io.BytesIO(data), allow_pickle=False) as archive:
        return archive[metric][:, :3] if metric in archive.files else None


def score_directory(gold_dir: str, system_dir: str, profile: str, level: int,
                    sentence_metrics: Sequence[str], rank_by: str) -> ScoredSubmission:
    """Score ``system_dir`` against ``gold_dir`` as ``conll_eval suite GOLD_DIR SYSTEM_DIR``
    does (with ``--strict`` at ``level`` when it is above 0): a missing or invalid treebank
    counts 0 with its reason.  The records are suite's own JSON, parsed back, so they equal
    its output digit for digit."""
    pairing = find_pairs(gold_dir, system_dir)
    settings = Settings(profile=profile, strict=level)
    results = score_entries(pairing.entries, settings, sentence_metrics=tuple(sentence_metrics))
    suite = SuiteEvaluation("submission", tuple(results), settings, pairing.unpaired_system)
    document = json.loads(suite_json([(1, suite)], {}, rank_by))
    treebanks: List[ScoredTreebank] = []
    for result, record in zip(results, document["treebanks"]):
        treebanks.append(ScoredTreebank(
            result.entry.name, record, result.status,
            None if result.failure is None else result.failure.code,
            None if result.sentence_counts is None else counts_bytes(result.sentence_counts)))
    return ScoredSubmission(document["macro"], tuple(treebanks), tuple(pairing.unpaired_system))

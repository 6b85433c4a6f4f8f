"""A strict CoNLL-U validator: the UD validator's levels (``udvalidate`` from udtools), with its
test ids, classes and order.  This package entry holds the public API and the file readers; the
checks live in one module per level family (see below).

``validate_file(path, level=2)`` returns every incident of a file; ``validate_lines(lines, path,
level=2)`` streams them sentence by sentence (memory: the current sentence plus the set of
sent_ids seen).  Incidents are :class:`ValidationIncident` objects: the UD level, class
(FORMAT, UNICODE, MORPHO, SYNTAX, ENHANCED, METADATA), test id (the same ids as udtools, e.g.
``head-self-loop``), line, sent_id, message and severity; ``.incident`` gives the plain
:class:`conll_eval.errors.Incident` (``code`` = the UD test id), and ``.location``/``.code``
make the object usable wherever an Incident is expected.  Library code: nothing is printed.

Example (``bad.conllu`` holds one sentence whose word 1 has HEAD 1)::

    >>> [str(i) for i in validate_file("bad.conllu")]      # doctest: +SKIP
    ['bad.conllu:3: error [head-self-loop] HEAD == ID for 1 (sent_id=s1)']

Modules: :mod:`.backbone` (state and driver), :mod:`.format` (level 1), :mod:`.tree` and
:mod:`.metadata` (level 2), :mod:`.contents` and :mod:`.relations` (level 3), :mod:`.langdata`
and :mod:`.language` (levels 4-5, udtools' language data), :mod:`.verdicts` (cached verdicts
on field values), :mod:`.incidents` (findings, classes, test ids), :mod:`.kept` (what a failed
validation keeps of them: the head of each class, the rest counted), :mod:`.patterns` (the
fields' syntax); the fast path: :mod:`.screen` (blocks through the compiled screen,
:mod:`conll_eval._cvalidate`) and :mod:`.screen_content` (its level 3-5 stage), which only
decide which sentences can skip the checks above.

Implemented test ids: see :data:`IMPLEMENTED_IDS` (all of udtools 0.2.9's level 1-5 checks,
warnings included; level 6, coreference, is not). Checks run in udtools' order and with its
dependency rules: within a sentence, lines -> columns -> ID sequence -> MWT overlaps -> [L2] ID
references -> tree, each of which may stop the remaining checks of the sentence; then per-line
checks (MWT/empty-node empty fields, UPOS, XPOS, FEATS, DEPREL, DEPS, MISC; an invalid feature
stops the rest), then enhanced all-or-none, sent_id, parallel_id, text, [L3] zero root and
enhanced orphans with [L4-5] the language's lists node by node, enhanced connectivity, [L3] the
basic-tree checks node by node. Feature errors of level 3 wait for the treebank's first feature
(then come out there, as in udtools). ``non-unix-newline`` comes after the last sentence, and
``edeps-identical-to-basic-trees`` after the last file of a run (:meth:`Validator.end_of_run`).
Incidents therefore come sentence by sentence in file order and, within a sentence, in udtools'
check order (so the *first* incident is udtools' first one).

Line numbers follow udtools: lines split on LF, CRLF and lone CR (Python's universal
newlines); whole-sentence findings (``word-id-sequence``, ``multiple-roots``, ``non-tree``,
metadata, ``edeps-only-sometimes``) point at the first token line of the sentence.

Deliberate differences from udtools 0.2.9 (``udvalidate --level N --lang XX``):

* Undecodable UTF-8: udtools crashes with a traceback.  We decode with replacement characters
  and report each affected line with udtools' own id for U+FFFD, ``invalid-utf`` (L1 UNICODE),
  so one incident per line holding bad bytes, and the rest of the file is still checked.
* A sentence made of empty nodes only (no word): udtools passes it to Udapi, whose tree
  building fails an assertion (traceback).  We report the same incidents up to that point and
  go on (e.g. ``unconnected-egraph`` for the unreachable empty nodes).
* sent_id of an incident: udtools prints the most recent ``# sent_id`` seen in the file (so a
  sentence without one is reported under its predecessor's id); we give the sentence's own
  sent_id, or None when it has none.
* udtools sets some line numbers through a class-level default that can leak from an earlier
  check (e.g. ``nospaceafter-yes`` and ``text-extra-chars`` use the first token line); we use
  the line numbers described above, which coincide with udtools' in the cases we tested.
* udtools' check for enhanced relations adds ``ref`` to its set of universal relations in
  place, so after the first non-empty DEPS a basic DEPREL ``ref`` stops being reported as
  ``unknown-udeprel``.  We mirror this (for parity), flagged in the code.
* Empty-node IDs in ``unconnected-egraph`` are compared as written (``1.10`` stays ``1.10``);
  udtools goes through Udapi, whose float ordinals may conflate them.
* Level 3-5 checks where udtools crashes (a regex applied to a UPOS or DEPREL ``_``, a bare
  ``Translit`` or ``Lang`` in MISC, empty node ``1.10`` named in DEPS, flat:foreign under the
  root): we report on, treating ``_`` as a value that matches nothing.
* A line longer than :data:`conll_eval.limits.MAX_LINE_BYTES` (1 MiB, environment variable
  ``CONLL_EVAL_MAX_LINE_BYTES``): udtools reads any line whole (an endless one, such as
  ``/dev/zero``, until memory runs out).  We report ``line-too-long`` (L1 FORMAT, our own id:
  :data:`LIMIT_IDS`) at that line once its first MAX_LINE_BYTES + 1 bytes are read, keep none
  of them, and stop: the sentence holding it and the rest of the file are not checked (their
  incidents would be guesses).  The command line shows it whatever -e/-i/--max-err say.
  :func:`validate_lines` (text already in memory) has no such limit.
* A run of blank lines gives one ``empty-sentence`` per line (after a ``pseudo-empty-line``
  for a line of spaces and tabs), as in udtools, but the streams of
  :func:`iter_file_findings` and :func:`conll_eval.validate.screen.validate_byte_stream` give
  the run as one :class:`IncidentRun` (the public iterators expand it), so that counting 100
  MB of blank lines costs per run, not per line.
* udtools' explanation paragraphs are kept in ``ValidationIncident.explanation`` (printed by
  ``--format udtools`` on first occurrence, as udvalidate does), not in the message.

Note: ``extra-empty-line`` is implemented but, as in udtools, cannot come from a file: every
empty or whitespace-only line ends a sentence (a second one gives ``empty-sentence``).
"""
from __future__ import annotations

from itertools import chain
from typing import BinaryIO, Callable, Iterable, Iterator, List, Optional, Sequence, Tuple

from ..io.byte_input import MAGIC_BYTES, compression_of, open_bytes, open_input
from ..io.diagnoses import SNIFF_BYTES, describe_non_conllu
from .backbone import Validator, validate_lines
from .incidents import (BOM_HINT, CLASS_ORDER, IMPLEMENTED_IDS, LEVEL1_IDS, LEVEL2_IDS,
                        LEVEL3_IDS, LEVEL4_IDS, LEVEL5_IDS, LIMIT_IDS, NEWLINE_HINTS, Found,
                        IncidentRun, ValidationIncident, _with_hint, expand_runs)
from .kept import KEPT_PER_GROUP, KeptIncidents, wanted_found
from .patterns import UD_RELATIONS, UPOS_TAGS
from .screen import validate_byte_stream

__all__ = ["ValidationIncident", "IncidentRun", "Validator", "validate_lines", "validate_bytes",
           "validate_file", "iter_validate_file", "iter_file_findings", "iter_bytes_findings",
           "iter_validate_files", "expand_runs", "KeptIncidents", "KEPT_PER_GROUP", "wanted_found",
           "IMPLEMENTED_IDS", "LIMIT_IDS",
           "CLASS_ORDER", "UPOS_TAGS", "UD_RELATIONS", "LEVEL1_IDS", "LEVEL2_IDS", "LEVEL3_IDS",
           "LEVEL4_IDS", "LEVEL5_IDS", "BOM_HINT",
           "NEWLINE_HINTS"]


def _byte_chunks(stream: BinaryIO, size: int = 1 << 20,
                 progress: Optional[Callable[[int], None]] = None) -> Iterator[bytes]:
    """The bytes of a binary stream in chunks (a stream of :func:`conll_eval.reader.open_input`,
    which raises InputErrors); ``progress`` is called with the number of (decompressed) bytes
    read so far, every 4 MB."""
    done = 0
    while True:
        data = stream.read(size)
        if progress is not None:
            done += len(data)
            if done % PROGRESS_BYTES < len(data):
                progress(done)
        if not data:
            return
        yield data


def _sniffed_hint(head: bytes, whole: bool) -> Tuple[Optional[str], Optional[int]]:
    """(hint, last line it may go to) for a file that is obviously not CoNLL-U (another
    encoding, an archive, Markdown...), from its first bytes; (None, None) otherwise."""
    found = describe_non_conllu(head, whole)
    return (None, None) if found is None else (found[1], found[2])


#: how often (bytes read) :func:`iter_validate_file` reports progress
PROGRESS_BYTES = 4 << 20


def iter_validate_file(path: str, level: int = 2, state: Optional[Validator] = None,
                       progress: Optional[Callable[[int], None]] = None, lang: str = "ud",
                       data_dir: Optional[str] = None) -> Iterator[ValidationIncident]:
    """Stream the incidents of a CoNLL-U file ('-' = stdin) in udtools' order.

    gzip, bzip2 and xz files are decompressed on the fly (line numbers count the
    decompressed text).  A missing, unreadable or non-regular file, or a closed standard
    input, raises :class:`conll_eval.errors.FormatError` (codes ``file-not-found``,
    ``not-a-file``, ``unreadable``) before the first incident; corrupt compressed data
    raises ``corrupt-compressed-file`` where it is met.  A line longer than
    :data:`conll_eval.limits.MAX_LINE_BYTES` is a ``line-too-long`` incident (level 1, not
    udtools'), the file's last: the rest is not read.  ``progress(bytes_read)`` is called
    now and then (decompressed bytes) for a progress display.  ``lang`` and ``data_dir``
    (levels 4-5) as for :class:`Validator`.
    """
    return expand_runs(iter_file_findings(path, level, state, progress, lang, data_dir))


def iter_file_findings(path: str, level: int = 2, state: Optional[Validator] = None,
                       progress: Optional[Callable[[int], None]] = None, lang: str = "ud",
                       data_dir: Optional[str] = None) -> Iterator[Found]:
    """:func:`iter_validate_file` with the incidents of a run of blank lines (alike but for
    their lines) as one :class:`IncidentRun`, for a caller that counts them in one step (the
    command line: 100 MB of blank lines are 100 million incidents)."""
    stream, head = open_input(path, SNIFF_BYTES)
    with stream:
        hint, last_line = _sniffed_hint(head, len(head) < SNIFF_BYTES)
        chunks = _byte_chunks(stream, progress=progress)
        yield from _with_hint(validate_byte_stream(chunks, path, level, state, lang, data_dir),
                              hint, last_line)


def validate_bytes(data: bytes, path: str, level: int = 2, state: Optional[Validator] = None,
                   lang: str = "ud", data_dir: Optional[str] = None
                   ) -> Iterator[ValidationIncident]:
    """Like :func:`iter_validate_file` for a file's bytes already in memory (e.g. standard
    input, which can be read only once): decompressed when compressed, then validated."""
    return expand_runs(iter_bytes_findings(data, path, level, state, lang, data_dir))


def iter_bytes_findings(data: bytes, path: str, level: int = 2, state: Optional[Validator] = None,
                        lang: str = "ud", data_dir: Optional[str] = None) -> Iterator[Found]:
    """:func:`validate_bytes` with a run of blank lines as one :class:`IncidentRun` (as
    :func:`iter_file_findings` gives them).  Compressed data is decompressed a chunk at a
    time, never whole (--strict's copy of a gzipped standard input)."""
    if compression_of(data[:MAGIC_BYTES]) is None:
        blocks: Iterable[bytes] = [data]
        head = data[:SNIFF_BYTES + 1]
    else:
        stream = open_bytes(data, path)
        head = _read_up_to(stream, SNIFF_BYTES + 1)
        blocks = chain([head], _byte_chunks(stream))
    hint, last_line = _sniffed_hint(head[:SNIFF_BYTES], len(head) <= SNIFF_BYTES)
    yield from _with_hint(validate_byte_stream(blocks, path, level, state, lang, data_dir),
                          hint, last_line)


def _read_up_to(stream: BinaryIO, size: int) -> bytes:
    """The stream's first ``size`` bytes (fewer only at its end)."""
    parts: List[bytes] = []
    while size > 0:
        part = stream.read(size)
        if not part:
            break
        parts.append(part)
        size -= len(part)
    return b"".join(parts)


def iter_validate_files(paths: Sequence[str], level: int = 2, lang: str = "ud",
                        data_dir: Optional[str] = None) -> Iterator[ValidationIncident]:
    """Stream the incidents of several files validated together (sent_ids unique across them)."""
    state = Validator(level, lang, data_dir)
    for path in paths:
        yield from iter_validate_file(path, level, state)
    yield from state.end_of_run()


def validate_file(path: str, level: int = 2, lang: str = "ud", data_dir: Optional[str] = None
                  ) -> List[ValidationIncident]:
    """Every incident of a CoNLL-U file ('-' = stdin), in udtools' order."""
    return list(iter_validate_file(path, level, lang=lang, data_dir=data_dir))

"""Collapsing empty nodes (``--collapse-empty-nodes``): every path of the enhanced graph that
runs through empty nodes becomes one edge labelled with the path (``5:conj>obj``), and the
empty nodes go, as the UD tools' ``enhanced_collapse_empty_nodes.pl`` does before the IWPT
scorer reads a file.

Only sentences holding an empty node are touched (found with one bytes search); in them
the empty-node lines are removed and every word's DEPS is written as the script writes it
(sorted by head, then relation; repeated edges once); every other byte stays as it was.
The script also rewrites the sentences without empty nodes (FEATS re-sorted, DEPS sorted,
unknown features dropped); that changes no score and is not done here.  Line numbers of
everything read afterwards are mapped back to the original file (:class:`LineMap`);
:func:`conll_eval.reader.load_collapsed` reads a file this way.

Empty nodes in a cycle (``1.1`` under ``1.2`` under ``1.1``) are no error: as the script does,
a path that comes back to a node it passed is not used to build longer ones (the script
writes ``Cyclic enhanced path will not be used to construct longer paths`` for each), so the
edges only such paths would give are not there.  :class:`CyclicPaths` counts them; the
readers warn once per file (:class:`~conll_eval.errors.InputWarning`, ``empty-node-cycle``).
"""
from __future__ import annotations

import bisect
import dataclasses
import re
import warnings
from typing import Callable, Dict, Iterator, List, Optional, Tuple

import numpy as np

from .errors import FormatError, InputError, InputWarning, Location
from .io.lines import LineBlocks
from .limits import COLLAPSED_PATH_NODES_PER_EDGE, MAX_COLLAPSED_PATH_NODES
from .treebank import Treebank

__all__ = ["collapse_empty_nodes", "iter_collapsed", "CollapsedStream", "LineMap", "CyclicPaths",
           "warn_of_cycles", "remap_lines", "remapped_error"]

#: an empty-node line starts with digits and a dot (the one bytes search per chunk)
_EMPTY_NODE_LINE = re.compile(rb"^[0-9]+\.", re.M)
#: a blank line (LF or CRLF) ends a sentence
_BLANK_LINE = re.compile(rb"\n\r?\n")
#: a valid empty node ID: word number (0 before the first word), dot, 1, 2, ...
_EMPTY_ID = re.compile(rb"(?:0|[1-9][0-9]*)\.[1-9][0-9]*")
_WORD_ID = re.compile(rb"[1-9][0-9]*")
#: the script's test of an ID in a path: an empty node
_EMPTY_IN_PATH = re.compile(rb"[0-9]+\.[0-9]+")
#: the script's removal of the empty nodes' IDs from a collapsed label ("conj>33.1>obj")
_ID_IN_LABEL = re.compile(rb">[0-9]+\.[0-9]+>")
#: bytes read at a time when streaming (at most MAX_LINE_BYTES and one)
CHUNK_BYTES = 1 << 20


class LineMap:
    """Line numbers of the collapsed text -> line numbers of the original file (the removed
    empty-node lines are counted back in)."""

    def __init__(self) -> None:
        self._removed: List[int] = []  # original numbers of the removed lines, ascending
        self._keys: List[int] = []  # where each would sit in the collapsed numbering

    def remove(self, original_line: int) -> None:
        self._keys.append(original_line - len(self._removed))
        self._removed.append(original_line)

    @property
    def removed(self) -> int:
        return len(self._removed)

    def original(self, line: int) -> int:
        """The original line of collapsed line ``line`` (1-based)."""
        return line + bisect.bisect_right(self._keys, line)

    def originals(self, lines: np.ndarray) -> np.ndarray:
        """:meth:`original` of every element (lines 0 or below stay as they are)."""
        if not self._keys:
            return lines
        lines = np.asarray(lines)
        shift = np.searchsorted(np.asarray(self._keys, dtype=np.int64), lines, side="right")
        return np.where(lines > 0, lines + shift, lines).astype(lines.dtype, copy=False)


class CyclicPaths:
    """The paths through empty nodes a collapse left unused because they come back to a node
    they passed (one per line the script writes about them): ``count`` of them, in
    ``sentences`` sentences, the first through the empty node ``first_node`` (at ``first``)."""

    def __init__(self, path: str = "<bytes>") -> None:
        self.path = path
        self.count = 0
        self.sentences = 0
        self.first: Optional[Location] = None
        self.first_node = b""

    def add(self, count: int, location: Location, node_id: bytes) -> None:
        """``count`` cyclic paths in one more sentence, its first from ``node_id``."""
        if self.first is None:
            self.first, self.first_node = location, node_id
        self.count += count
        self.sentences += 1

    def warning(self) -> Optional[InputWarning]:
        """The one warning for the file (None without cyclic paths)."""
        if self.first is None:
            return None
        paths = f"{self.count} path{'s' if self.count != 1 else ''}"
        sentences = f"{self.sentences} sentence{'s' if self.sentences != 1 else ''}"
        return InputWarning(self.first, "empty-node-cycle",
                            f"{paths} through empty nodes in {sentences} run in a cycle: as "
                            "enhanced_collapse_empty_nodes.pl does, they are not used to build "
                            "longer paths (edges reached only through them are not scored); the "
                            f"first passes the empty node {_show(self.first_node)} twice")


class _Node:
    """One empty node or word of a sentence being collapsed: its line, and its incoming
    enhanced edges (head ID, relation) as the script keeps them."""

    __slots__ = ("line", "deps")

    def __init__(self, line: int):
        self.line = line
        self.deps: List[Tuple[bytes, bytes]] = []


def _id_key(node_id: bytes) -> Tuple[int, bytes, int, bytes]:
    """The script's order of IDs: word number, then empty-node number (3.2 before 3.10).  IDs
    here have no leading zeros (checked), so a number's digits and their count order them as
    ``int`` would, with any number of digits (``int()`` refuses more than 4,300)."""
    major, _, minor = node_id.partition(b".")
    return len(major), major, len(minor), minor


class _ReadSentence:
    """One sentence holding an empty node, read: its nodes indexed and their DEPS parsed, with
    the script's checks (IDs, DEPS heads)."""

    def __init__(self, lines: List[bytes], first_line: int, path: str):
        self.lines = lines
        self.first_line = first_line
        self.path = path
        self.sent_id: Optional[str] = None
        self.nodes: Dict[bytes, _Node] = {}
        self.words: List[Tuple[int, bytes, List[bytes]]] = []  # (index, ID, columns)
        self.empty: List[int] = []  # indices of the empty-node lines

    def _location(self, index: int) -> Location:
        return Location(self.path, self.first_line + index, self.sent_id)

    def _error(self, cls, index: int, code: str, message: str) -> InputError:
        return cls(self._location(index), code, message)

    def read(self) -> None:
        """Index the nodes (IDs checked) and parse every node's DEPS (heads checked)."""
        pending = []
        for index, line in enumerate(self.lines):
            text = line.rstrip(b"\r\n")
            if text.startswith(b"#"):
                if self.sent_id is None and text.startswith(b"# sent_id"):
                    self.sent_id = text.partition(b"=")[2].strip().decode("utf-8", "replace")
                continue
            if not text[:1].isdigit():
                continue  # not a node line: the reader says what is wrong with it
            columns = text.split(b"\t")
            node_id = columns[0]
            if b"-" in node_id and b"." not in node_id:
                continue  # a multi-word token: no node
            is_empty = b"." in node_id
            if is_empty and not _EMPTY_ID.fullmatch(node_id):
                raise self._error(FormatError, index, "empty-node-id",
                                  f"invalid empty node ID {_show(node_id)} (expected N.M, "
                                  "M from 1, e.g. 3.1)")
            if len(columns) != 10:
                if not is_empty:
                    continue  # the reader reports it where it is
                raise self._error(FormatError, index, "wrong-column-count",
                                  f"the empty node {_show(node_id)} has {len(columns)} "
                                  "tab-separated columns, not 10")
            if not is_empty and not _WORD_ID.fullmatch(node_id):
                continue  # the reader reports it
            if node_id in self.nodes:
                raise self._error(FormatError, index, "duplicate-node-id",
                                  f"a second node with ID {_show(node_id)} in the sentence")
            self.nodes[node_id] = _Node(index)
            (self.empty.append(index) if is_empty else self.words.append((index, node_id, columns)))
            pending.append((index, node_id, columns[8]))
        for index, node_id, deps in pending:
            self._parse_deps(index, self.nodes[node_id], deps)

    def _parse_deps(self, index: int, node: _Node, deps: bytes) -> None:
        if deps in (b"_", b""):
            return
        seen = set()
        for item in deps.split(b"|"):
            head, colon, relation = item.partition(b":")
            if not colon or not relation:
                raise self._error(FormatError, index, "invalid-deps",
                                  f"DEPS item {_show(item)} is not HEAD:RELATION")
            if not (_WORD_ID.fullmatch(head) or head == b"0" or _EMPTY_ID.fullmatch(head)):
                raise self._error(FormatError, index, "invalid-deps-head",
                                  f"DEPS head {_show(head)} is neither a word nor an empty "
                                  "node ID")
            if head != b"0" and head not in self.nodes:
                empty = b"." in head
                raise self._error(FormatError, index,
                                  "unknown-empty-node" if empty else "deps-head-out-of-range",
                                  f"DEPS item {_show(item)} names "
                                  f"{'empty node' if empty else 'word'} {_show(head)}, which "
                                  "is not in the sentence")
            # the script compares heads as numbers here: 3.1 and 3.10 are one head
            key = (float(head), relation)
            if key not in seen:
                seen.add(key)
                node.deps.append((head, relation))


class _Sentence(_ReadSentence):
    """One sentence holding an empty node, collapsed the way the script does; after
    :meth:`collapsed_edges`, ``cyclic_paths`` is how many paths it left unused as cyclic and
    ``first_cycle`` the empty node the first one passes twice."""

    cyclic_paths = 0
    first_cycle = b""

    def collapsed_edges(self) -> Dict[bytes, List[Tuple[bytes, bytes]]]:
        """Per word ID, the edges the script adds: (head, relation with the path).  Building
        paths of more nodes than :data:`~conll_eval.limits.MAX_COLLAPSED_PATH_NODES` and
        :data:`~conll_eval.limits.COLLAPSED_PATH_NODES_PER_EDGE` per edge allow is an error."""
        edges = []  # [head, relation, ..., child], nodes in the script's order
        for node_id in sorted(self.nodes, key=_id_key):
            edges += [(head, relation, node_id) for head, relation in self.nodes[node_id].deps]
        empty = _EMPTY_IN_PATH.fullmatch
        ok = [e for e in edges if not empty(e[0]) and not empty(e[-1])]
        queue = [e for e in edges if empty(e[0])]
        into_empty = [e for e in edges if empty(e[-1])]
        queued = set(queue)
        first_into_empty = set(into_empty)  # the script never adds to this set
        # the script scans every path into an empty node for those ending where out_path
        # starts (quadratic); indexed by their end, the same paths in the same order
        into_by_end: Dict[bytes, List[tuple]] = {}
        for in_path in into_empty:
            into_by_end.setdefault(in_path[-1], []).append(in_path)
        position = built = 0  # built: the nodes of the paths built (the work)
        allowed = MAX_COLLAPSED_PATH_NODES + COLLAPSED_PATH_NODES_PER_EDGE * len(edges)
        while position < len(queue):
            out_path = queue[position]
            position += 1
            for in_path in list(into_by_end.get(out_path[0], ())):
                built += (len(in_path) + len(out_path)) // 2
                if built > allowed:
                    raise self._error(FormatError, self.empty[0], "too-many-empty-node-paths",
                                      f"the paths through the empty nodes of this sentence "
                                      f"have more than {allowed:,} nodes in all (the limit: "
                                      f"CONLL_EVAL_MAX_COLLAPSED_PATH_NODES, "
                                      f"{MAX_COLLAPSED_PATH_NODES:,}, and "
                                      f"{COLLAPSED_PATH_NODES_PER_EDGE} per enhanced edge)")
                path = in_path[:-1] + out_path
                if not empty(path[0]) and not empty(path[-1]):
                    ok.append(path)
                    continue
                nodes = path[::2]
                if len(set(nodes)) != len(nodes):
                    # a cycle: not used to build longer paths (the script warns of each)
                    self.cyclic_paths += 1
                    self.first_cycle = self.first_cycle or _repeated(nodes)
                    continue
                if empty(path[0]) and path not in queued:
                    queue.append(path)
                    queued.add(path)
                if empty(path[-1]) and path not in first_into_empty:
                    into_by_end.setdefault(path[-1], []).append(path)
        added: Dict[bytes, List[Tuple[bytes, bytes]]] = {}
        for path in ok:
            if len(path) > 3:
                label = _ID_IN_LABEL.sub(b">", b">".join(path[1:-1]))
                added.setdefault(path[-1], []).append((path[0], label))
        return added

    def output(self) -> List[bytes]:
        """The sentence's lines, collapsed: empty-node lines out, every word's DEPS rewritten."""
        added = self.collapsed_edges()
        lines = list(self.lines)
        for index, node_id, columns in self.words:
            kept = [(h, r) for h, r in self.nodes[node_id].deps if not _EMPTY_IN_PATH.fullmatch(h)]
            kept_set = set(kept)  # not a search of the list per added edge (quadratic)
            for edge in added.get(node_id, ()):
                if edge not in kept_set:
                    kept.append(edge)
                    kept_set.add(edge)
            kept.sort(key=lambda edge: (_id_key(edge[0]), edge[1]))
            columns = list(columns)
            columns[8] = b"|".join(h + b":" + r for h, r in kept) if kept else b"_"
            line = lines[index]
            ending = line[len(line.rstrip(b"\r\n")):]
            lines[index] = b"\t".join(columns) + ending
        for index in self.empty:
            lines[index] = None
        return lines


def _repeated(nodes: tuple) -> bytes:
    """The first node of ``nodes`` seen twice (in a cyclic path: an empty node, as only its
    ends can be words and a path with two word ends is never cyclic here)."""
    seen = set()
    for node in nodes:
        if node in seen:
            return node
        seen.add(node)
    raise ValueError("no node repeats")


def _show(value: bytes) -> str:
    return repr(value.decode("utf-8", "replace"))


def _collapse_sentence(block: bytes, first_line: int, path: str, line_map: LineMap,
                       cyclic: Optional[CyclicPaths]) -> bytes:
    lines = block.splitlines(keepends=True)
    sentence = _Sentence(lines, first_line, path)
    sentence.read()
    out = sentence.output()
    if sentence.cyclic_paths and cyclic is not None:
        node = sentence.first_cycle
        cyclic.add(sentence.cyclic_paths, sentence._location(sentence.nodes[node].line), node)
    for index, line in enumerate(out):
        if line is None:
            line_map.remove(first_line + index)
    return b"".join(line for line in out if line is not None)


def _collapse_block(data: bytes, first_line: int, path: str, line_map: LineMap,
                    cyclic: Optional[CyclicPaths] = None) -> bytes:
    """``data`` (whole sentences) with every sentence holding an empty node collapsed;
    ``first_line``: the line number of its first byte; ``cyclic`` counts the cyclic paths."""
    parts = []
    done = 0  # bytes of data handled
    line = first_line  # the line number at ``done``
    match = _EMPTY_NODE_LINE.search(data)
    while match is not None:
        start = max(data.rfind(b"\n\n", done, match.start()),
                    data.rfind(b"\n\r\n", done, match.start()))
        start = done if start < 0 else data.index(b"\n", start + 1) + 1
        end_match = _BLANK_LINE.search(data, match.start() - 1 if match.start() else 0)
        end = len(data) if end_match is None else end_match.start() + 1
        line += data.count(b"\n", done, start)
        parts.append(data[done:start])
        parts.append(_collapse_sentence(data[start:end], line, path, line_map, cyclic))
        line += data.count(b"\n", start, end)
        done = end
        match = _EMPTY_NODE_LINE.search(data, end)
    parts.append(data[done:])
    return b"".join(parts) if len(parts) > 1 else data


def iter_collapsed(read: Callable[[int], bytes], path: str = "<bytes>",
                   line_map: Optional[LineMap] = None,
                   cyclic: Optional[CyclicPaths] = None) -> Iterator[bytes]:
    """The collapsed bytes of the stream ``read`` reads, in pieces, sentence by sentence
    (memory: one chunk and the sentence it ends in); ``line_map`` records the lines removed,
    ``cyclic`` the paths left unused as cyclic (no warning here: the caller warns).
    Malformed empty nodes raise :class:`~conll_eval.errors.InputError` naming ``path:line``,
    and so does a line longer than :data:`~conll_eval.limits.MAX_LINE_BYTES`
    (``line-too-long``, after reading at most that much of it: the stream is read in whole
    lines by :class:`~conll_eval.io.lines.LineBlocks`)."""
    line_map = LineMap() if line_map is None else line_map
    pending: List[bytes] = []  # whole lines read, not passed on yet: no blank line in them
    tail = b""  # the last bytes read (a blank line may start there)
    line = 1  # the line number of the first pending byte
    for block in LineBlocks(read, path, chunk_bytes=CHUNK_BYTES):
        window = tail + block
        found = max(window.rfind(b"\n\n"), window.rfind(b"\n\r\n"))
        # where the last blank line ends in ``block`` (0 or less: none ends in it)
        cut = window.index(b"\n", found + 1) + 1 - len(tail) if found >= 0 else 0
        tail = window[-2:]
        if cut <= 0:
            pending.append(block)
            continue
        pending.append(block[:cut])
        data = b"".join(pending) if len(pending) > 1 else pending[0]
        yield _collapse_block(data, line, path, line_map, cyclic)
        line += data.count(b"\n")
        pending = [block[cut:]] if cut < len(block) else []
    if pending:
        yield _collapse_block(b"".join(pending), line, path, line_map, cyclic)


class CollapsedStream:
    """A binary stream (``read(size)``) of the collapsed bytes of the stream ``read``
    (:func:`iter_collapsed`), for a reader that reads a file a chunk at a time: the collapsed
    file is never whole in memory.  ``line_map``: the lines removed so far; ``cyclic``: the
    paths left unused as cyclic so far (:meth:`CyclicPaths.warning`, for the caller to issue)."""

    def __init__(self, read: Callable[[int], bytes], path: str = "<bytes>"):
        self.line_map = LineMap()
        self.cyclic = CyclicPaths(path)
        self._pieces = iter_collapsed(read, path, self.line_map, self.cyclic)
        self._piece = b""
        self._at = 0  # bytes of ``_piece`` given out

    def read(self, size: int = -1) -> bytes:
        if size is None or size < 0:
            rest = [self._piece[self._at:], *self._pieces]
            self._piece, self._at = b"", 0
            return b"".join(rest)
        while self._at >= len(self._piece):
            piece = next(self._pieces, None)
            if piece is None:
                return b""
            self._piece, self._at = piece, 0
        data = self._piece[self._at:self._at + size]
        self._at += len(data)
        return data

    def drain(self) -> None:
        """Collapse the rest of the stream without keeping it (its errors, its line map)."""
        for _ in self._pieces:
            pass
        self._piece, self._at = b"", 0


def collapse_empty_nodes(data: bytes, path: str = "<bytes>",
                         line_map: Optional[LineMap] = None) -> bytes:
    """``data`` (a CoNLL-U file's bytes) with its empty nodes collapsed (see the module's
    docstring); ``data`` itself when it has none.  Paths left unused as cyclic give one
    :class:`~conll_eval.errors.InputWarning` (``empty-node-cycle``, :func:`warnings.warn`).

    >>> text = (b"1\\tA\\ta\\tX\\t_\\t_\\t0\\troot\\t0:root\\t_\\n"
    ...         b"1.1\\tB\\tb\\tX\\t_\\t_\\t_\\t_\\t1:conj\\t_\\n"
    ...         b"2\\tC\\tc\\tX\\t_\\t_\\t1\\tobj\\t1.1:obj\\t_\\n\\n")
    >>> print(collapse_empty_nodes(text).decode().replace("\\t", " "), end="")
    1 A a X _ _ 0 root 0:root _
    2 C c X _ _ 1 obj 1:conj>obj _
    <BLANKLINE>
    """
    if _EMPTY_NODE_LINE.search(data) is None:
        return data
    cyclic = CyclicPaths(path)
    collapsed = _collapse_block(data, 1, path, LineMap() if line_map is None else line_map, cyclic)
    warn_of_cycles(cyclic)
    return collapsed


def warn_of_cycles(cyclic: CyclicPaths) -> None:
    """Issue ``cyclic``'s warning (:func:`warnings.warn`), if it has one."""
    found = cyclic.warning()
    if found is not None:
        warnings.warn(found, stacklevel=3)


def remap_lines(treebank: Treebank, line_map: LineMap) -> Treebank:
    """``treebank`` (read from collapsed text) with its line numbers those of the original."""
    if not line_map.removed:
        return treebank
    fields = ("tok_line", "word_line", "sent_first_line", "sent_end_line", "empty_line")
    return dataclasses.replace(treebank, **{name: line_map.originals(getattr(treebank, name))
                                            for name in fields})


_LINE_IN_MESSAGE = re.compile(r"(\bline(?: no\.)? )(\d+)")


def remapped_error(exc: InputError, path: str, line_map: LineMap) -> InputError:
    location = exc.location
    if location is None or location.path != path or not location.line:
        return exc
    new_location = dataclasses.replace(location, line=line_map.original(location.line))

    def fix(text):
        if not text:
            return text
        return _LINE_IN_MESSAGE.sub(lambda m: m.group(1) + str(line_map.original(int(m.group(2)))),
                                    text)
    remapped = type(exc)(new_location, exc.code, fix(exc.message), fix(exc.official))
    return remapped

"""Scaling cases for issue 40 point 7: one word with ``n`` enhanced (DEPS) edges, scored with
ELAS/EULAS by ``--profile iwpt`` and ``--profile udeval``, on the compiled core and the numpy path
(``CONLL_EVAL_PURE=1``).  The official count compares every gold edge of an aligned word with every
system edge of its partner; counted that way, 100,000 edges took 115 s.

The pair (:func:`write_pair`): a sentence of :data:`SENTENCE_WORDS` words (and an empty node
``3.1``) whose second word carries the ``n`` edges: heads spread over the sentence, the root, the
empty node, labels with case parts and paths (``nmod:in``, ``conj:and>obl:on_top_of``), and
repeated edges (so gold and system multiplicities multiply).  The system word has the same
edges in another order, a third of them changed and its own repeats.  A second shape repeats
one edge ``n`` times on both sides.  The word's line is longer than the default line limit
(1 MiB), which the cases raise (``CONLL_EVAL_MAX_LINE_BYTES``).  Two more cases time
``--collapse-empty-nodes`` (:func:`write_collapse_input`), one the compiled DEPS parser's table of
distinct paths (:func:`colliding_paths`).
"""
from __future__ import annotations

import itertools
import os
import random
from typing import List

from . import Case

__all__ = ["CASES", "write_pair", "big_word_edges", "write_collapse_input", "colliding_paths",
           "write_colliding_paths"]

#: words of the sentence that holds the big word (heads are drawn among them)
SENTENCE_WORDS = 999
LABELS = ["nmod:in", "conj:and", "obl:on_top_of", "nsubj", "acl:relcl", "obj", "nsubj:pass",
          "conj:and>obl:on_top_of", "advcl:because_of>obj", "nmod:poss", "ref", "dep"]
#: a line limit the big word's line stays under (about 25 bytes an edge at 200,000 edges)
LINE_LIMIT = str(8 << 20)


def big_word_edges(n: int, seed: int, system: bool = False) -> List[str]:
    """``n`` DEPS items of the big word (repeats included, in no particular order): gold's for
    ``system`` False; the system's are the gold items shuffled, every third changed (its head
    moved or its label replaced), and repeated differently."""
    r = random.Random(seed)
    items = []
    while len(items) < n:
        roll = r.random()
        head = "3.1" if roll < 0.02 else str(r.randint(0, SENTENCE_WORDS))
        item = f"{head}:{r.choice(LABELS)}"
        items += [item] * min(n - len(items), 1 + (roll > 0.9) * r.randint(1, 20))
    if not system:
        return items
    r = random.Random(seed + 1)
    changed = []
    for k, item in enumerate(items):
        head, label = item.split(":", 1)
        if k % 3 == 0 and head != "3.1":
            head = str(r.randint(0, SENTENCE_WORDS)) if r.random() < 0.5 else head
            label = r.choice(LABELS)
        changed.append(f"{head}:{label}")
    r.shuffle(changed)
    return changed[: n - n // 10] + [r.choice(changed) for _ in range(n // 10)]


def _sentence(big_deps: str) -> str:
    lines = []
    for i in range(1, SENTENCE_WORDS + 1):
        head, deprel = (0, "root") if i == 1 else (1, "dep")
        deps = big_deps if i == 2 else f"{head}:{deprel}"
        lines.append(f"{i}\tw{i}\tw\tX\t_\t_\t{head}\t{deprel}\t{deps}\t_")
        if i == 3:
            lines.append("3.1\te\te\tX\t_\t_\t_\t_\t2:orphan\t_")
    return "\n".join(lines) + "\n\n"


def write_pair(directory: str, n: int, seed: int = 40, repeated: bool = False) -> List[str]:
    """Write ``gold.conllu`` and ``system.conllu`` (the big word's ``n`` edges) into
    ``directory``; returns their paths.  ``repeated``: the big word has one edge ``n`` times
    on both sides instead (``n * n`` correct pairs as the scorers count them)."""
    paths = []
    for name, system in (("gold", False), ("system", True)):
        path = os.path.join(directory, f"{name}.conllu")
        items = ["5:nmod:in"] * n if repeated else big_word_edges(n, seed, system)
        with open(path, "w", encoding="utf-8") as out:
            out.write(_sentence("|".join(items)))
        paths.append(path)
    return paths


def _case(profile: str, pure: bool, repeated: bool = False) -> Case:
    def build(directory: str, n: int) -> List[str]:
        gold, system = write_pair(directory, n, repeated=repeated)
        return ["--profile", profile, "-v", gold, system]

    env = {"CONLL_EVAL_MAX_LINE_BYTES": LINE_LIMIT}
    if pure:
        env["CONLL_EVAL_PURE"] = "1"
    shape = "one-edge-repeated" if repeated else "one-word"
    note = ("one DEPS edge n times on one word of both files (memory was quadratic in the numpy "
            "path)" if repeated else "ELAS/EULAS of one word with n DEPS edges (repeats on both sides)")
    return Case(name=f"enhanced-{shape}-{profile}{'-pure' if pure else ''}", issue_point="7",
                build=build, sizes=(100_000,), unit="edges", env=env, memory=repeated, note=note)


def write_collapse_input(directory: str, n: int, shape: str) -> str:
    """``collapse.conllu`` for ``--collapse-empty-nodes``: ``many-empty-nodes``, ``n`` empty
    nodes after word 3 (each with the edge ``1:conj``) and word 2 with an edge to each; or
    ``one-word``, word 2 with ``n`` edges to the empty node 3.1 (distinct relations: ``n``
    collapsed paths) and ``n`` edges to words."""
    if shape == "many-empty-nodes":
        empties, items = n, [f"3.{e}:obj" for e in range(1, n + 1)]
    else:
        empties = 1
        items = ([f"3.1:obj{k}" for k in range(n)]
                 + [f"{4 + k % (SENTENCE_WORDS - 4)}:nmod:in{k}" for k in range(n)])
    lines = _sentence("|".join(items)).split("\n")
    empty_lines = [f"3.{e}\te\te\tX\t_\t_\t_\t_\t1:conj\t_" for e in range(1, empties + 1)]
    at = lines.index(next(line for line in lines if line.startswith("3.1\t")))
    lines[at:at + 1] = empty_lines
    path = os.path.join(directory, "collapse.conllu")
    with open(path, "w", encoding="utf-8") as out:
        out.write("\n".join(lines))
    return path


def _collapse_case(shape: str) -> Case:
    def build(directory: str, n: int) -> List[str]:
        path = write_collapse_input(directory, n, shape)
        return ["--profile", "iwpt", "--collapse-empty-nodes", "-v", path, path]

    return Case(name=f"enhanced-collapse-{shape}", issue_point="7", build=build, sizes=(40_000,),
                unit="empty nodes" if shape == "many-empty-nodes" else "edges",
                env={"CONLL_EVAL_MAX_LINE_BYTES": LINE_LIMIT},
                note="--collapse-empty-nodes: the script's path search scanned every path into "
                     "an empty node per path out of one")


def colliding_paths(n: int) -> List[bytes]:
    """``n`` (a power of two) distinct DEPS paths whose unkeyed 64-bit FNV-1a hashes agree in
    their low 20 bits, as a table's slots did: those bits depend only on the bytes' and the
    start's low bits, so a pair of 4-letter blocks colliding in them from the current state
    (a birthday search) doubles the set at each step (Joux's multicollisions)."""
    mask, prime, state = (1 << 20) - 1, 1099511628211, 14695981039346656037
    r = random.Random(7)
    pairs = []

    def step(h: int, block: bytes) -> int:
        for byte in block:
            h = ((h ^ byte) * prime) & 0xFFFFFFFFFFFFFFFF
        return h

    while len(pairs) < n.bit_length() - 1:
        seen = {}
        while True:
            block = bytes(r.choice(b"abcdefghijklmnopqrstuvwxyz") for _ in range(4))
            low = step(state, block) & mask
            if seen.get(low, block) != block:
                pairs.append((seen[low], block))
                state = step(state, block)
                break
            seen[low] = block
    return [b"".join(choice) for choice in itertools.product(*pairs)]


def write_colliding_paths(directory: str, n: int) -> str:
    """``paths.conllu``: the ``n`` :func:`colliding_paths`, 64 to a word (``1:PATH``)."""
    paths = colliding_paths(n)
    lines = [b"1\tw\tw\tX\t_\t_\t0\troot\t0:root\t_"]
    for k in range(0, len(paths), 64):
        deps = b"|".join(b"1:" + path for path in paths[k:k + 64])
        lines.append(b"%d\tw\tw\tX\t_\t_\t1\tdep\t%s\t_" % (k // 64 + 2, deps))
    path = os.path.join(directory, "paths.conllu")
    with open(path, "wb") as out:
        out.write(b"\n".join(lines) + b"\n\n")
    return path


def _colliding_case() -> Case:
    def build(directory: str, n: int) -> List[str]:
        path = write_colliding_paths(directory, n)
        return ["--profile", "iwpt", "-v", path, path]

    return Case(name="enhanced-colliding-paths", issue_point="7", build=build, sizes=(65_536,),
                unit="paths", note="distinct DEPS paths made to share a slot of the compiled "
                                   "parser's path table under an unkeyed hash")


CASES = ([_case(profile, pure) for profile in ("iwpt", "udeval") for pure in (False, True)]
         + [_case("iwpt", pure, repeated=True) for pure in (False, True)]
         + [_collapse_case(shape) for shape in ("many-empty-nodes", "one-word")]
         + [_colliding_case()])

"""Strings made to collide in the compiled string tables (issue 40, "work linear whatever the
input's shape"): the scan interns every LEMMA (and the validator's screen LEMMA, FEATS, DEPS,
MISC...) into an open-addressing table (``_cscan.StringTable``).  Its hash had no key, so a file
could be made offline of words whose LEMMAs all have one 64-bit hash: each new one then walked
past all the others, comparing their bytes (16,384, 32,768 and 65,536 such words: 0.8, 2.9 and
10.3 s to score, 0.5, 1.6 and 5.8 s to validate; with the keyed hash 0.15, 0.17, 0.27 s and
0.19, 0.18, 0.23 s).
The hash is keyed per process now (``conll_eval/_chash.pxd``); the cases keep the strings that
collided under the old hash (:func:`old_hash`, :func:`old_hash_collisions`).

The old hash: two lanes over 16-byte steps, ``x = (x ^ w) * C1; x ^= x >> 29`` for the first 8
bytes of each step and the like for the other 8 in ``y``, then ``x ^ (y + (y >> 32))`` mixed.
Each step is invertible and nothing secret enters it, so from a known state ``S`` the second
x-word of a pair can be solved for: ``g(S ^ a) ^ b = T`` for any first word ``a``, ``b =
g(S ^ a) ^ T``, kept when its bytes are printable (one ``a`` in ~3,000).  ``k`` such pairs
reach one state, and stages of them multiply (Joux's multicollisions): ``k ** t`` strings of
``32 t`` bytes with one hash, the y-lane's words all the same.
"""
from __future__ import annotations

import itertools
import os
import random
from typing import List, Sequence, Tuple

import numpy as np

from . import Case

__all__ = ["CASES", "old_hash", "old_hash_collisions", "write_colliding_words"]

_MASK = (1 << 64) - 1
_C1, _C2 = 0xFF51AFD7ED558CCD, 0xC4CEB9FE1A85EC53
#: the bytes the strings are made of: printable ASCII but the space (any CoNLL-U field takes them)
ALPHABET = bytes(range(0x21, 0x7F))
#: the y-lane's word of every step (the same in every string: the y-lane's state is too)
FILLER = b"yyyyyyyy"
#: pairs of x-words per stage (each stage multiplies the strings by this)
CHOICES = 64


def old_hash(data: bytes, key: int = 0) -> int:
    """The compiled string tables' hash before issue 40 (``_cscan._hash_bytes``, unkeyed);
    with ``key``, its start xored with it (a key that would not have been enough)."""
    n = len(data)
    x, y, i = 0x9E3779B97F4A7C15 ^ n ^ key, 0xC2B2AE3D27D4EB4F, 0
    while i + 16 <= n:
        x = ((x ^ int.from_bytes(data[i:i + 8], "little")) * _C1) & _MASK
        y = ((y ^ int.from_bytes(data[i + 8:i + 16], "little")) * _C2) & _MASK
        x ^= x >> 29
        y ^= y >> 31
        i += 16
    if i + 8 <= n:
        x = ((x ^ int.from_bytes(data[i:i + 8], "little")) * _C1) & _MASK
        x ^= x >> 29
        i += 8
    if i < n:
        y = ((y ^ int.from_bytes(data[i:], "little")) * _C2) & _MASK
    x ^= (y + (y >> 32)) & _MASK
    x ^= x >> 33
    x = (x * _C1) & _MASK
    return x ^ (x >> 33)


def _x_step(state: int, word: int) -> int:
    """One x-lane step of :func:`old_hash` (a bijection of ``state ^ word``)."""
    x = ((state ^ word) * _C1) & _MASK
    return x ^ (x >> 29)


def _stage(state: int, rng: random.Random, choices: int) -> Tuple[List[bytes], int]:
    """``choices`` 32-byte blocks (x-word, filler, x-word, filler) that all take the x-lane
    from ``state`` to one state, and that state: the first x-words drawn at random, 65,536 at a
    time (numpy's uint64 arithmetic wraps as C's does), each second one solved for."""
    allowed = np.zeros(256, dtype=bool)
    allowed[list(ALPHABET)] = True
    alphabet = np.frombuffer(ALPHABET, dtype=np.uint8)
    first = int.from_bytes(bytes(rng.choices(ALPHABET, k=8)), "little")
    second = int.from_bytes(bytes(rng.choices(ALPHABET, k=8)), "little")
    target = _x_step(state, first) ^ second
    pairs = {first: second}
    generator = np.random.default_rng(rng.getrandbits(64))
    with np.errstate(over="ignore"):
        while len(pairs) < choices:
            words = alphabet[generator.integers(0, len(alphabet), size=(1 << 16, 8))]
            a = words.view("<u8").ravel()
            x = (a ^ np.uint64(state)) * np.uint64(_C1)
            b = x ^ (x >> np.uint64(29)) ^ np.uint64(target)
            fits = allowed[b.astype("<u8").view(np.uint8).reshape(-1, 8)].all(axis=1)
            for found_a, found_b in zip(a[fits].tolist(), b[fits].tolist()):
                pairs.setdefault(found_a, found_b)
    blocks = [a.to_bytes(8, "little") + FILLER + b.to_bytes(8, "little") + FILLER
              for a, b in itertools.islice(pairs.items(), choices)]
    return blocks, _x_step(target, 0)


def old_hash_collisions(count: int, seed: int = 40) -> List[bytes]:
    """``count`` distinct strings of :data:`ALPHABET` whose :func:`old_hash` is one value
    (``32 t`` bytes long, ``CHOICES ** t >= count``); the same ones for the same arguments."""
    stages = 1
    while CHOICES ** stages < count:
        stages += 1
    rng = random.Random(seed)
    state = 0x9E3779B97F4A7C15 ^ (32 * stages)
    per_stage: List[Sequence[bytes]] = []
    for _ in range(stages):
        blocks, state = _stage(state, rng, CHOICES)
        per_stage.append(blocks)
    return [b"".join(choice) for choice in itertools.islice(itertools.product(*per_stage), count)]


def write_colliding_words(directory: str, n: int) -> str:
    """``words.conllu``: ``n`` words, 16 to a sentence, each with one of
    :func:`old_hash_collisions` as its FORM and LEMMA (a valid file at level 2)."""
    path = os.path.join(directory, "words.conllu")
    strings = old_hash_collisions(n)
    with open(path, "wb") as out:
        for first in range(0, n, 16):
            sentence = strings[first:first + 16]
            out.write(b"# sent_id = %d\n# text = %s\n" % (first // 16 + 1, b" ".join(sentence)))
            for k, text in enumerate(sentence, 1):
                out.write(b"%d\t%s\t%s\tX\t_\t_\t%d\t%s\t_\t_\n"
                          % (k, text, text, 0 if k == 1 else 1, b"root" if k == 1 else b"dep"))
            out.write(b"\n")
    return path


def _score(directory: str, n: int) -> List[str]:
    path = write_colliding_words(directory, n)
    return [path, path]


def _validate(directory: str, n: int) -> List[str]:
    return ["validate", "--level", "2", "--lang", "ud", write_colliding_words(directory, n)]


CASES = [
    Case("interning-colliding-lemmas", "5-9", _score, sizes=(32_768,),
         note="LEMMAs that shared one hash in the compiled scan's string table (unkeyed)"),
    Case("interning-colliding-lemmas-validate", "5-9", _validate, sizes=(32_768,),
         note="the same in the validator's compiled screen (its LEMMA table)"),
]

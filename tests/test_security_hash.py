"""The compiled string tables' hash is keyed per process (issue 40: linear whatever the input's
shape).  The old hash had no key: bench/scaling/interning.py builds strings that all had one
64-bit hash under it (Joux's multicollisions, :func:`old_hash_collisions`), so that each new
one walked past all the others.  Here: that generator really collides under the old hash
(reimplemented in Python there, :func:`old_hash`), the same strings spread under the new one
(statistical bounds that a working hash misses with probability below 1e-12; no timing: the
time is the scaling benchmark's), the key differs between processes, and the file made of them
reads the same on both paths.  The numpy path interns in Python dicts, whose str and bytes
hashes are SipHash keyed per process (PYTHONHASHSEED): nothing to test there.
"""
import collections
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from conll_eval.compiled import cscan

from test_compiled import assert_same_reading  # tests/ is on sys.path (rootdir)

# bench/scaling/interning.py holds the generator its scaling case uses too (bench/ is on no path)
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
from scaling.interning import (FILLER, old_hash, old_hash_collisions,  # noqa: E402
                               write_colliding_words)

pytestmark = pytest.mark.skipif(cscan is None, reason="the compiled scan is not built here")

#: strings in the demonstrations (a table of 8,192 slots holds them at most half full)
COUNT = 4096


@pytest.fixture(scope="module")
def colliding():
    return old_hash_collisions(COUNT)


def test_the_generator_s_strings_share_one_old_hash(colliding):
    assert len(set(colliding)) == COUNT
    assert {old_hash(text) for text in colliding} == {old_hash(colliding[0])}
    assert all(0x21 <= byte <= 0x7E for text in colliding for byte in text)
    # the reimplementation is the old compiled hash: its values on strings of each kind of tail
    # (none, a masked word, a whole word and more), read from a build of that hash
    assert [old_hash(text) for text in (b"", b"nsubj:pass", b"Case=Nom|Number=Sing")] == \
        [0x398026136C5F51D6, 0x4297D4F06C5CF67D, 0x69BA010A45DF539A]


def test_old_collisions_spread_under_the_keyed_hash(colliding):
    """Distinct 64-bit hashes (a coincidence among 4,096 random ones: p < 2**-40), and in
    8,192 slots no slot picked by more than 16 (p < 1e-14 for a random hash)."""
    hashes = [cscan.string_hash(text) for text in colliding]
    assert len(set(hashes)) == COUNT
    per_slot = collections.Counter(h & 8191 for h in hashes)
    assert max(per_slot.values()) <= 16


def test_no_pair_collides_whatever_the_key():
    """Pairs of 32-byte strings that differ by bit 62 of their first 8-byte word and bits 62
    and 33 of their third: under the old hash with a random key xored into its start they
    collide for about half of the keys (the step after the first word turns the difference
    into the one the third word undoes, for half of all states); under the new one none does
    (p = 200 * 2 ** -64)."""
    rng = random.Random(62)
    letters = b"abcdefghijklmnopqrstuvwxyz"
    pairs = []
    for _ in range(200):
        first, third = (bytes(rng.choices(letters, k=8)) for _ in range(2))
        text = first + FILLER + third + FILLER
        other = (_flipped(first, 1 << 62) + FILLER + _flipped(third, 1 << 62 | 1 << 33)
                 + FILLER)
        pairs.append((text, other))
    assert all(0x21 <= byte <= 0x7E for text in pairs[0] for byte in text)
    collided = sum(old_hash(text, key) == old_hash(other, key)
                   for (text, other), key in zip(pairs, (rng.getrandbits(64) for _ in pairs)))
    assert 60 <= collided <= 140
    assert not any(cscan.string_hash(text) == cscan.string_hash(other) for text, other in pairs)


def _flipped(word: bytes, bits: int) -> bytes:
    return (int.from_bytes(word, "little") ^ bits).to_bytes(8, "little")


def _scanned_lemmas(strings):
    """The LEMMA table of a file whose words have ``strings`` as LEMMAs, 16 to a sentence."""
    lines = []
    for first in range(0, len(strings), 16):
        for k, text in enumerate(strings[first:first + 16], 1):
            lines.append(b"%d\tw\t%s\tX\t_\t_\t%d\tdep\t_\t_\n" % (k, text, 0 if k == 1 else 1))
        lines.append(b"\n")
    data = b"".join(lines)
    tables = tuple(cscan.StringTable() for _ in cscan.TABLES)
    assert cscan.scan_piece(np.frombuffer(data, dtype=np.uint8), 0, len(data), 0, tables, True)
    return tables[cscan.TABLES.index("lemma")]


def test_the_scan_s_table_walks_short_on_old_collisions(colliding):
    """Interned by the scan, the strings keep their order of appearance as ids, and no lookup
    walks far: with linear probing at most half full (4,096 strings, 8,192 slots), a walk of
    200 slots needs a run of L > 200 slots that L strings picked, where L / 2 are expected
    (Chernoff: (e / 4) ** (L / 2) each; summed over the runs' starts and lengths, p < 1e-12).
    The old hash put them in one run: the last one walked past the 4,095 others.  Some string
    does not sit in its own slot (all of them would: p < 2 ** -1800)."""
    table = _scanned_lemmas(colliding)
    assert table.decoded() == [text.decode() for text in colliding]
    assert 0 < table.longest_probe() <= 200


def test_the_key_is_drawn_per_process():
    """The same bytes hash alike within a process and (with p = 2**-64 of a tie) differently
    in another: the key is not fixed in the build."""
    code = "from conll_eval.compiled import cscan; print(cscan.string_hash(b'nsubj:pass'))"
    values = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             check=True).stdout.strip() for _ in range(2)}
    assert len(values) == 2
    assert cscan.string_hash(b"nsubj:pass") == cscan.string_hash(bytearray(b"nsubj:pass"))


@pytest.mark.parametrize("profile", ["conll18", "conll17"])
def test_the_colliding_file_reads_the_same_on_both_paths(tmp_path, profile):
    """The words of the scaling case (FORM and LEMMA the old hash's collisions) read into the
    same columns on the compiled and the numpy path: codes do not depend on the hash."""
    assert_same_reading(Path(write_colliding_words(str(tmp_path), 512)).read_bytes(), profile)

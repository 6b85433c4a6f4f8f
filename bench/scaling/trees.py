"""Tree shapes that made the tree algorithms quadratic (issue 40, points 6 and 8): one sentence
whose heads form a chain (word k hangs on word k - 1: as deep as it is long), and a fan (every
word hangs on the first: the arcs' lengths add up to n^2 / 2).

- ``validate`` walked from every word to the root to decide projectivity (the compiled screen);
  its level 3 checks walked to the root and over the words between per punctuation word.
- ``analyze --GroupBy ArcDepth / ArcProjectivity`` followed heads one level a pass, and
  ArcProjectivity made an array entry per (arc, word between) pair (10,000 words: 2.8 GB).
"""
from __future__ import annotations

import os
from typing import List

from . import Case


def _write_tree(directory: str, n: int, shape: str, deprel: str = "dep",
                upos: str = "NOUN") -> str:
    """One sentence of ``n`` words shaped as ``chain`` or ``fan``, valid at levels 1-3 as long
    as ``deprel`` and ``upos`` agree; returns the file's path."""
    path = os.path.join(directory, f"{shape}.conllu")
    with open(path, "w", encoding="utf-8") as out:
        out.write("# sent_id = 1\n# text = " + " ".join(["a"] * n) + "\n")
        for k in range(1, n + 1):
            head = 0 if k == 1 else (k - 1 if shape == "chain" else 1)
            relation = "root" if head == 0 else deprel
            out.write(f"{k}\ta\ta\t{upos}\t_\t_\t{head}\t{relation}\t_\t_\n")
        out.write("\n")
    return path


def _validate(level: int, shape: str, deprel: str = "dep", upos: str = "NOUN"):
    def build(directory: str, n: int) -> List[str]:
        return ["validate", "--level", str(level), "--lang", "ud",
                _write_tree(directory, n, shape, deprel, upos)]
    return build


def _analyze(grouping: str, shape: str):
    def build(directory: str, n: int) -> List[str]:
        path = _write_tree(directory, n, shape)
        return ["analyze", "-s", path, "-g", path, "--GroupBy", grouping]
    return build


#: the numpy path: the compiled screen passes these sentences, so their level 3 checks run only
#: here (and on any sentence the screen flags)
NUMPY = {"CONLL_EVAL_PURE": "1"}

CASES = [
    # the screen takes a sentence of word lines whole up to validate/screen.py SENTENCE_BYTES
    # (64 MiB), past its block (1 MiB: ~30,000 such words); the numpy path checks line by line
    Case("validate-head-chain", "6", _validate(2, "chain", upos="X"), sizes=(12_500,),
         note="level 2, the compiled screen's projectivity"),
    Case("validate-head-chain-long", "6", _validate(2, "chain"), sizes=(100_000,),
         note="level 2, a sentence longer than the screen's block, held whole for the screen"),
    Case("validate-head-chain-numpy", "6", _validate(2, "chain"), sizes=(100_000,), env=NUMPY,
         note="level 2 on the numpy path"),
    Case("validate-punct-chain-level3", "6", _validate(3, "chain", "punct", "PUNCT"),
         sizes=(20_000,), env=NUMPY, note="level 3: punctuation along a chain (numpy path)"),
    Case("validate-punct-fan-level3", "6", _validate(3, "fan", "punct", "PUNCT"),
         sizes=(20_000,), env=NUMPY, note="level 3: punctuation on the first word (numpy path)"),
    Case("analyze-arcprojectivity-chain", "8", _analyze("ArcProjectivity", "chain"),
         sizes=(40_000,), memory=True),
    Case("analyze-arcdepth-chain", "8", _analyze("ArcDepth", "chain"), sizes=(40_000,),
         memory=True),
    Case("analyze-arcprojectivity-fan", "8", _analyze("ArcProjectivity", "fan"),
         sizes=(40_000,), memory=True, note="arcs whose lengths add up to n^2 / 2"),
]

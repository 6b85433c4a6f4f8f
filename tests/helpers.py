"""Small builders for hand-written CoNLL-U in tests."""
from typing import Iterable, List, Sequence


def row(id_: str, form: str, head: str = "_", deprel: str = "_", lemma: str = "_", upos: str = "_",
        xpos: str = "_", feats: str = "_", deps: str = "_", misc: str = "_") -> str:
    """One CoNLL-U line from its fields (defaults ``_``)."""
    return "\t".join([id_, form, lemma, upos, xpos, feats, head, deprel, deps, misc])


def sentence(*words: str, comments: Sequence[str] = ()) -> str:
    """A sentence from compact word specs ``"ID FORM HEAD DEPREL [UPOS]"`` (ranges: ``"1-2 du"``)."""
    lines: List[str] = list(comments)
    for spec in words:
        parts = spec.split(" ")
        if "-" in parts[0] or "." in parts[0]:
            lines.append(row(parts[0], parts[1]))
        else:
            id_, form, head, deprel = parts[:4]
            upos = parts[4] if len(parts) > 4 else "_"
            lines.append(row(id_, form, head, deprel, upos=upos))
    return "\n".join(lines) + "\n\n"


def document(*sentences: str) -> str:
    return "".join(sentences)


def chain(n: int) -> str:
    """One sentence of n words where word k depends on word k+1 (a head chain n deep)."""
    words = [f"{k} w{k} {k + 1} dep" for k in range(1, n)] + [f"{n} w{n} 0 root"]
    return sentence(*words)


def tokens_to_conllu(entries: Iterable[str]) -> str:
    """The official regression-test notation: ``"abc a b c"`` = MWT ``abc`` with words a, b, c;
    ``"abc"`` = one plain word.  All words in one sentence, attached to the first word."""
    lines = []
    word = 0
    for entry in entries:
        parts = entry.split(" ")
        if len(parts) == 1:
            word += 1
            lines.append(row(str(word), parts[0], "0" if word == 1 else "1", "root" if word == 1 else "dep"))
        else:
            first = word + 1
            lines.append(row(f"{first}-{first + len(parts) - 2}", parts[0]))
            for form in parts[1:]:
                word += 1
                lines.append(row(str(word), form, "0" if word == 1 else "1", "root" if word == 1 else "dep"))
    return "\n".join(lines) + "\n\n"


#: REFERENCE.md b.2 item 4 (the official TestAlignment cases): gold, system, aligned words
ALIGNMENT_CASES = [
    (["a"], ["a"], 1),
    (["a", "b", "c"], ["a", "b", "c"], 3),
    (["abc a b c"], ["a", "b", "c"], 3),
    (["a", "bc b c", "d"], ["a", "b", "c", "d"], 4),
    (["abcd a b c d"], ["ab a b", "cd c d"], 4),
    (["abc a b c", "de d e"], ["a", "bcd b c d", "e"], 5),
    (["abcd"], ["a", "b", "c", "d"], 0),
    (["abc", "d"], ["a", "b", "c", "d"], 1),
    (["a", "bc", "d"], ["a", "b", "c", "d"], 2),
    (["a", "bc b c", "d"], ["a", "b", "cd"], 2),
    (["abc a BX c", "def d EX f"], ["ab a b", "cd c d", "ef e f"], 4),
    (["ab a b", "cd bc d"], ["a", "bc", "d"], 2),
    (["a", "bc b c", "d"], ["ab AX BX", "cd CX a"], 1),
]


def run_cli(*argv):
    """``conll_eval argv...`` in-process: (exit code, stdout, stderr)."""
    import io
    from conll_eval.cli import main
    out, err = io.StringIO(), io.StringIO()
    code = main([str(a) for a in argv], stdout=out, stderr=err)
    return code, out.getvalue(), without_notes(err.getvalue())


def without_notes(err: str) -> str:
    """stderr without the note on tag scores that mean nothing (small test files rarely
    have XPOS or features; tests/test_policies.py checks the note itself)."""
    from conll_eval.report.machine import NOTE_PREFIX
    return "".join(line for line in err.splitlines(keepends=True)
                   if not line.startswith(NOTE_PREFIX))


def identical_warning(gold, system) -> str:
    """The warning ``conll_eval GOLD SYSTEM`` writes when the two are one file or hold the
    same bytes, ``""`` otherwise (told here with os.path.samefile and filecmp, not by the
    package's own check; tests/test_issue41_messages.py tests the warning itself)."""
    import filecmp
    import os
    if os.path.samefile(gold, system):
        kind = "one file"
    elif filecmp.cmp(gold, system, shallow=False):
        kind = "two files, the same bytes"
    else:
        return ""
    return (f"conll_eval: warning: GOLD and SYSTEM are identical ({kind}): the scores compare "
            "a file with itself\n")


def without_identical(err: str) -> str:
    """stderr without the warnings on pairs whose system file is the gold file or the same
    bytes (suites of test files often pair a file with a copy of itself)."""
    import re
    warning = re.compile(r"conll_eval(?: suite)?: warning: .*\bidentical \((?:one file|two files, the same bytes)\)")
    return "".join(line for line in err.splitlines(keepends=True) if not warning.match(line))

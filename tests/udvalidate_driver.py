"""Runs *inside the oracle venv* (udtools installed): the UD validator as a long-lived process.

Reads one file path per line on stdin and answers one JSON line per path:
``{"rc": exit code, "stderr": what udvalidate would print}``, validating each path exactly as
``udvalidate --level 2 --lang ud --max-err 0 PATH`` does (a fresh Validator per file; a crash
gives rc 1 and the traceback).  It saves starting a Python process per file; tests check that
its answers equal the real command's.  Not part of conll_eval and not imported by it.
"""
import io
import json
import sys
import traceback

from udtools.argparser import parse_args_validator
from udtools.validator import Validator


def main() -> None:
    for line in sys.stdin:
        path = line.rstrip("\n")
        out = io.StringIO()
        try:
            args = parse_args_validator(["--level", "2", "--lang", "ud", "--max-err", "0", path])
            validator = Validator(lang="ud", level=2, max_store=10, args=args, output=out)
            state = validator.validate_files([path])
            out.write(str(state) + "\n")
            rc = 0 if state.passed() else 1
        except Exception:  # noqa: BLE001 - reported to the test, which decides
            out.write(traceback.format_exc())
            rc = 1
        sys.stdout.write(json.dumps({"rc": rc, "stderr": out.getvalue()}) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()

"""Runs *inside the oracle venv* (udtools installed): the UD validator as a long-lived process.

Reads one request per line on stdin and answers one JSON line per request:
``{"rc": exit code, "stderr": what udvalidate would print}``.  A request is a file path,
validated exactly as ``udvalidate --level 2 --lang ud --max-err 0 PATH`` does, or a JSON
object ``{"path": ..., "level": N, "lang": ..., "max_err": N}`` (defaults 2, "ud", 0) for
``udvalidate --level N --lang LANG --max-err N PATH`` (a fresh Validator per request; a crash
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
        request = line.rstrip("\n")
        if request.startswith("{"):
            request = json.loads(request)
        else:
            request = {"path": request}
        level, lang = request.get("level", 2), request.get("lang", "ud")
        out = io.StringIO()
        try:
            args = parse_args_validator(["--level", str(level), "--lang", lang, "--max-err",
                                         str(request.get("max_err", 0)), request["path"]])
            validator = Validator(lang=args.lang, level=args.level, max_store=10, args=args,
                                  output=out)
            state = validator.validate_files([request["path"]])
            out.write(str(state) + "\n")
            rc = 0 if state.passed() else 1
        except Exception:  # noqa: BLE001 - reported to the test, which decides
            out.write(traceback.format_exc())
            rc = 1
        sys.stdout.write(json.dumps({"rc": rc, "stderr": out.getvalue()}) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()

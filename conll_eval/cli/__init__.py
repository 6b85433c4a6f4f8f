"""Command line: ``conll_eval [options] GOLD SYSTEM``, ``conll_eval suite GOLD SYSTEM...`` and
``conll_eval validate FILE...``.
The only place that prints or exits: one module per subcommand, what they share in
:mod:`.common`, and here the dispatch and the mapping of exceptions to exit codes.

Exit codes: 0 scored / valid, 1 invalid input, 2 usage error, 3 internal error (traceback
only with ``--debug``).
"""
from __future__ import annotations

import os
import sys
from typing import List, Optional, TextIO

from ..errors import ConllEvalError, InputError, UsageError, ValidationFailed
from .common import EXIT_INPUT, EXIT_INTERNAL, EXIT_OK, EXIT_USAGE, Exit, write_failed_message
from .score import build_parser, score_command
from .suite import build_suite_parser, suite_command
from .validate import build_validate_parser, validate_command

#: --strict shows at most this many validation errors per class
STRICT_MAX_ERR = 20

__all__ = ["main", "main_entry", "build_parser", "build_suite_parser", "build_validate_parser"]


#: subcommand name -> function(argv, stdout, stderr) -> exit code; scoring is the default
COMMANDS = {"validate": validate_command, "suite": suite_command}


def main(argv: Optional[List[str]] = None, stdout: Optional[TextIO] = None,
         stderr: Optional[TextIO] = None) -> int:
    """Run the command line with ``argv``; return the exit code.

    ``conll_eval GOLD SYSTEM`` scores; ``conll_eval <command> ...`` runs a subcommand.
    """
    stdout = stdout if stdout is not None else sys.stdout
    stderr = stderr if stderr is not None else sys.stderr
    argv = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in argv
    command = COMMANDS.get(argv[0], None) if argv else None
    try:
        if command is not None:
            return command(argv[1:], stdout, stderr)
        return score_command(argv, stdout, stderr)
    except Exit as exc:
        return exc.status
    except UsageError as exc:
        stderr.write(f"{exc}\n")
        return EXIT_USAGE
    except ValidationFailed as exc:
        if debug:
            raise
        from ..report.validation import format_incident, limit_per_class
        for item in limit_per_class(exc.incidents, STRICT_MAX_ERR):
            stderr.write(format_incident(item) + "\n")
        stderr.write(f"conll_eval: --strict: {len(exc.incidents)} validation error(s); "
                     "nothing scored (see 'conll_eval validate')\n")
        return EXIT_INPUT
    except (InputError, ConllEvalError) as exc:
        if debug:
            raise
        stderr.write(f"{exc}\n")
        return EXIT_INPUT
    except BrokenPipeError:
        return EXIT_OK
    except OSError as exc:  # reading errors are FormatErrors by now: this is a failed write
        if debug:
            raise
        stderr.write(write_failed_message(exc))
        return EXIT_INPUT
    except KeyboardInterrupt:
        stderr.write("interrupted\n")
        return 130
    except Exception as exc:  # noqa: BLE001 - the one place that turns bugs into exit code 3
        if debug:
            raise
        stderr.write(f"conll_eval: internal error: {type(exc).__name__}: {exc} "
                     f"(run with --debug for a traceback, and please report it)\n")
        return EXIT_INTERNAL


def main_entry() -> None:
    """Console-script (and ``python -m conll_eval``) entry point: run, flush, exit.

    Ends with ``os._exit`` once stdout and stderr are flushed: the interpreter's teardown
    (freeing numpy and every module, ~30 ms) would add to every call and does nothing a
    finished command needs; the worker pools are shut down inside :func:`main` and nothing
    here registers atexit work.  A reader that went away (``| head``) is not an error; a
    failed write of the results (disk full) is, with exit code 1.
    """
    status = main()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BrokenPipeError:
            pass
        except OSError as exc:
            if stream is sys.stdout:
                status = status or EXIT_INPUT
                try:
                    sys.stderr.write(write_failed_message(exc))
                except OSError:
                    pass
    os._exit(status)



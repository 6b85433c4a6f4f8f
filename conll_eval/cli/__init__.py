"""Command line: ``conll_eval [score] [options] GOLD SYSTEM``, ``conll_eval suite GOLD SYSTEM...``,
``conll_eval validate FILE...`` and the other subcommands.
The only place that prints or exits: one module per subcommand, what they share in
:mod:`.common`, and here the dispatch and the mapping of exceptions to exit codes.

Exit codes: 0 scored / valid, 1 invalid input or a failed verdict, 2 usage error, 3 internal
error (traceback only with ``--debug``), 4 the results could not be written.  Every problem
line on stderr has the one form of :mod:`.messages`.
"""
from __future__ import annotations

import importlib
import os
import sys
import warnings
from typing import Callable, List, Optional, TextIO

from .._interrupt import CODE as INTERRUPT_CODE, INTERRUPTED, MESSAGE as INTERRUPT_MESSAGE, end_start_up
from ..errors import ConllEvalError, InputError, InputWarning, UsageError, ValidationFailed, printable
from .commands import SUBCOMMANDS
from .common import (EXIT_INPUT, EXIT_INTERNAL, EXIT_OK, EXIT_OUTPUT, EXIT_USAGE, Exit, GuardedOutput,
                     OutputFailed, Parser, os_reason)
from .messages import problem_line
from .score import build_parser, score_command

#: --strict shows at most this many validation errors per class
STRICT_MAX_ERR = 20

__all__ = ["main", "main_entry", "build_parser", "build_suite_parser", "build_validate_parser"]


def _lazy(module: str, name: str) -> Callable:
    """``cli.<module>.<name>``, imported on first call: scoring a pair imports only what it
    needs (start-up time)."""
    def call(*args):
        return getattr(importlib.import_module(f"{__name__}.{module}"), name)(*args)
    call.__name__ = name
    return call


#: subcommand name -> function(argv, stdout, stderr) -> exit code; scoring is the default
COMMANDS = {name: _lazy(module, function) for name, (module, function) in SUBCOMMANDS.items()}
build_suite_parser = _lazy("suite", "build_suite_parser")
build_validate_parser = _lazy("validate", "build_validate_parser")
#: commands whose --help is their own (not an argparse parser of this package's)
_OWN_HELP = ("analyze", "tagger", "alignment", "report")

#: what bare ``conll_eval`` prints on stdout (exit 0): the commands, one line each
USAGE = """\
usage: conll_eval [score] [options] GOLD SYSTEM
                                           score SYSTEM against GOLD (official CoNLL 2017/2018 metrics)
       conll_eval suite GOLD SYSTEM...     treebank suites, macro-averages, leaderboards, CI gates
       conll_eval leaderboard ACTION ...   a shared task in a database: teams, submissions, ranking
       conll_eval validate FILE...         check CoNLL-U files like the UD validator (levels 1-2)
       conll_eval analyze ARGS...          MaltEval 1.0's analyses (its command line and output)
       conll_eval breakdown GOLD SYSTEM    where the LAS points go: relation groups (CLAS paper)
       conll_eval compare GOLD A B...      is A really better than B: intervals and p-values
       conll_eval tagger FILE1 FILE2       tagger evaluation as mooteval (moot files, CoNLL-U)
       conll_eval alignment GOLD SYSTEM    word-alignment scores: precision, recall, AER, PTS
       conll_eval report GOLD SYS... -o F  one HTML file: summary, charts, a tree viewer
       conll_eval codalab INPUT OUTPUT     the scoring program of a CodaLab/Codabench task
       conll_eval help [COMMAND]           the full help of a command
       conll_eval completion bash|zsh      a shell completion script
       conll_eval man [COMMAND] [-o DIR]   the man pages (roff), generated from the options
A file named like a command is scored as ./score (or after --: conll_eval -- score SYSTEM).
"""


def main(argv: Optional[List[str]] = None, stdout: Optional[TextIO] = None,
         stderr: Optional[TextIO] = None) -> int:
    """Run the command line with ``argv``; return the exit code.

    ``conll_eval GOLD SYSTEM`` scores; ``conll_eval <command> ...`` runs a subcommand.  A
    failed write of the results never turns a failed verdict into success: a reader that
    left (``| head``) only stops the output, any other write failure exits 4 when the
    command itself succeeded.
    """
    out = GuardedOutput(sys.stdout if stdout is None else stdout)
    err = GuardedOutput(sys.stderr if stderr is None else stderr, "standard error")
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        end_start_up()  # from here a Ctrl-C is a KeyboardInterrupt, reported as one line
        with warnings.catch_warnings():
            Parser.quiet_asked = False  # set when the command's parser reads -q
            _print_input_warnings(err)
            status = _run(argv, out, err)
        out.flush()  # can wait for a slow reader
    except KeyboardInterrupt:
        status = _interrupted(_command_name(argv), err)
    if out.failure is not None:
        err.write(out.failure.message())
        status = status or EXIT_OUTPUT
    return status


def _run(argv: List[str], stdout: GuardedOutput, stderr: GuardedOutput) -> int:
    debug = "--debug" in argv
    Parser.streams = (stdout, stderr)
    name = _command_name(argv)
    try:
        if not argv:
            stdout.write(USAGE)
            return EXIT_OK
        if argv[0] == "help":
            return _help(argv[1:], stdout)
        command = COMMANDS.get(argv[0])
        if command is not None:
            return command(argv[1:], stdout, stderr)
        if argv[0] == "score":  # the default command, also by its name (a file: ./score)
            argv = argv[1:]
        return score_command(argv, stdout, stderr)
    except Exit as exc:
        return exc.status
    except UsageError as exc:  # one line: a name in it never starts another (printable)
        stderr.write(problem_line(name, printable(str(exc)), exc.code))
        return EXIT_USAGE
    except ValidationFailed as exc:
        if debug:
            raise
        # here: only a --strict run that found errors prints incidents (start-up time)
        from ..report.validation import format_incident, limit_per_class
        from ..validate import KeptIncidents
        # a run of blank lines whole: limit_per_class counts past the limit in one step
        found = exc.incidents.found if isinstance(exc.incidents, KeptIncidents) else exc.incidents
        for item in limit_per_class(found, STRICT_MAX_ERR):
            stderr.write(format_incident(item) + "\n")
        stderr.write(problem_line(name, f"--strict: {exc.count} validation error(s); "
                                  "nothing scored (see 'conll_eval validate')", "validation-failed"))
        return EXIT_INPUT
    except (InputError, ConllEvalError) as exc:
        if debug:
            raise
        code = getattr(exc, "code", None)
        located = isinstance(exc, InputError) or code is not None and f"error [{code}]" in str(exc)
        stderr.write(printable(str(exc), keep_newlines=True) + "\n" if located else
                     problem_line(name, str(exc), code or "input"))
        return EXIT_INPUT
    except OutputFailed as exc:
        if debug:
            raise
        stderr.write(exc.message())
        return EXIT_OUTPUT
    except OSError as exc:  # reading errors are InputErrors by now: this is a failed write
        if debug:
            raise
        stderr.write(OutputFailed("the output", os_reason(exc)).message())
        return EXIT_OUTPUT
    except KeyboardInterrupt:
        return _interrupted(name, stderr)
    except Exception as exc:  # noqa: BLE001 - the one place that turns bugs into exit code 3
        if debug:
            raise
        stderr.write(problem_line(name, f"internal error: {type(exc).__name__}: {exc} (run with "
                                  "--debug for a traceback, and please report it)", "internal"))
        return EXIT_INTERNAL


def _print_input_warnings(stderr: GuardedOutput) -> None:
    """Inside :func:`warnings.catch_warnings`: every :class:`InputWarning` issued (a file
    read with a loss the official tools only warn about) is written on ``stderr`` as its
    problem line, each time (none once the command's arguments, as argparse parsed them, ask
    for ``-q``: :attr:`Parser.quiet_asked`); other warnings show as Python shows them."""
    shown = warnings.showwarning

    def show(message, category, filename, lineno, file=None, line=None):
        if not isinstance(message, InputWarning):
            shown(message, category, filename, lineno, file, line)
        elif not Parser.quiet_asked:
            stderr.write(str(message) + "\n")  # spelt out (Incident's str)

    warnings.simplefilter("always", InputWarning)
    warnings.showwarning = show


def _command_name(argv: List[str]) -> str:
    """The subcommand that speaks in the problem lines of ``argv`` (``""``: scoring a pair)."""
    return argv[0] if argv and (argv[0] in COMMANDS or argv[0] == "help") else ""


def _interrupted(name: str, stderr: GuardedOutput) -> int:
    """Report a Ctrl-C in the one line of :mod:`conll_eval._interrupt` (also written when it
    comes while the command starts); the exit status."""
    stderr.write(problem_line(name, INTERRUPT_MESSAGE, INTERRUPT_CODE))
    return INTERRUPTED


#: ``conll_eval help COMMAND`` -> the parser whose help it prints
#: command -> its parser's builder, for ``conll_eval help COMMAND``: every subcommand of the table
#: has one (``build_<name>_parser`` in its module), except those that print their own help
_HELP = {"score": build_parser, "suite": build_suite_parser, "validate": build_validate_parser,
         "man": _lazy("manpages", "build_man_parser"),
         **{name: _lazy(module, f"build_{name}_parser") for name, (module, _) in SUBCOMMANDS.items()
            if name not in ("suite", "validate", "man", *_OWN_HELP)}}


def help_help() -> str:
    """What ``conll_eval help --help`` (and ``help help``) prints: the usage of ``help`` and the
    commands it knows, from the one table of them."""
    import textwrap  # here: only this help wraps its text (start-up time of every other command)
    text = ("Print the full help of COMMAND, as 'conll_eval COMMAND --help' does; without COMMAND, "
            "the help of scoring a pair ('conll_eval --help'). COMMAND is one of: score, "
            f"{', '.join(SUBCOMMANDS)}, help.")
    return "usage: conll_eval help [COMMAND]\n\n" + textwrap.fill(text, 79) + "\n"


def _help(topics: List[str], stdout: GuardedOutput) -> int:
    """``conll_eval help`` = ``conll_eval --help``; ``conll_eval help suite`` = its ``--help``;
    ``conll_eval help --help`` (``-h``, ``help help``): the usage of ``help`` itself."""
    if topics in (["--help"], ["-h"], ["help"]):
        stdout.write(help_help())
        return EXIT_OK
    topic = topics[0] if topics else "score"
    if topic in _OWN_HELP and len(topics) == 1:
        return COMMANDS[topic](["--help"], stdout, stdout)
    if topic not in _HELP or len(topics) > 1:
        raise UsageError(f"conll_eval help: no help for {' '.join(topics)!r}; "
                         f"choose from score, {', '.join(SUBCOMMANDS)}, help")
    stdout.write(_HELP[topic]().format_help())
    return EXIT_OK


def main_entry() -> None:
    """Console-script (and ``python -m conll_eval``) entry point: run, flush, exit.

    Ends with ``os._exit`` once stdout and stderr are flushed: the interpreter's teardown
    (freeing numpy and every module, ~30 ms) would add to every call and does nothing a
    finished command needs; the worker pools are shut down inside :func:`main` and nothing
    here registers atexit work.  :func:`main` has flushed and judged stdout already.
    """
    status = main()
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except OSError:
            pass  # reported by main(), or a reader that left
    os._exit(status)

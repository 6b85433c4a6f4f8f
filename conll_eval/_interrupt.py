"""Ctrl-C while a command line of the package starts: one line on stderr and exit 130, never
a traceback.

A running command reports an interrupt as one line with exit 130 (:func:`conll_eval.cli.main`,
:func:`conll_eval.compat._base.command_line`), but only once its code runs.  Before that,
``import conll_eval`` loads numpy and the scoring stack (0.1-0.4 s), and a Ctrl-C there printed
the traceback of the import (11-31 lines).  So ``conll_eval/__init__.py`` calls
:func:`guard_start_up` first when the process is one of the package's command lines (its
console scripts, ``python -m conll_eval``, ``python -m conll_eval.compat[.module]``): until the
entry point calls :func:`end_start_up`, SIGINT writes the line the command would write and
ends the process at once (``os._exit(130)``: nothing is written or started yet that needs
cleaning up).  A program that imports the package is left alone, and so is a SIGINT that is
ignored (a shell without job control starts ``cmd &`` so).

Not covered, as nothing of the package runs yet: a Ctrl-C during the interpreter's own
start-up (its first 10-40 ms, ``site`` and the ``.pth`` files), where Python is killed by
the signal without a word or prints its own ``Fatal Python error: init_import_site``.

Standard library only (os, signal, sys; not even typing): this runs before everything else of the
package, in every start-up.
"""
from __future__ import annotations

import os
import signal
import sys

#: the exit status of an interrupted command (128 + SIGINT, as a shell reports it)
INTERRUPTED = 130
#: the house line's message and code (:func:`conll_eval.cli.messages.problem_line`)
MESSAGE = "stopped by an interrupt (Ctrl-C)"
CODE = "interrupted"
#: the official scorers' stand-ins print their peer's last traceback line
COMPAT_LINE = "KeyboardInterrupt\n"

#: ``conll_eval``'s subcommands, the first argument that names its line (``conll_eval suite:``);
#: the same as :data:`conll_eval.cli.COMMANDS` and ``help`` (a test keeps them equal)
SUBCOMMANDS = frozenset(("validate", "suite", "analyze", "breakdown", "compare", "tagger", "alignment",
                         "report", "leaderboard", "codalab", "completion", "man", "help"))
#: console scripts (setup.cfg): ``conll_eval``, whose line names the subcommand, and the
#: drop-ins, whose line names themselves (:data:`conll_eval.cli.messages.DROP_IN_NAMES`)
_CONLL_EVAL_SCRIPTS = ("conll_eval", "malteval", "mooteval", "conll-eval-validate",
                       "conll-eval-udvalidate")
_COMPAT_SCRIPTS = ("conll18_ud_eval", "conll17_ud_eval", "iwpt20_ud_eval")
#: what Windows' launchers add to a console script's name
_LAUNCHER_SUFFIXES = ("-script.pyw", "-script.py", ".exe")
#: the interpreter's options whose value is the next argument
_OPTIONS_WITH_VALUE = ("-X", "-W", "--check-hash-based-pycs")


def house_line(speaker: str) -> str:
    """The line a command writes when interrupted: ``speaker`` is ``conll_eval``, ``conll_eval
    suite``, or a drop-in's name (``mooteval``)."""
    return f"{speaker}: error [{CODE}] {MESSAGE}\n"


def _module_after_dash_m() -> str:
    """The module of ``python [options] -m MODULE``, from the interpreter's own arguments
    (``sys.orig_argv``, Python 3.10+; ``""`` when unknown or not run so)."""
    arguments = getattr(sys, "orig_argv", [])
    k = 1
    while k < len(arguments):
        argument = arguments[k]
        if argument == "--" or not argument.startswith("-"):
            return ""  # a script: no -m before it
        flags, m, rest = argument[1:].partition("m")
        if m and all(flag in "bBdEhiIOPqRsSuv" for flag in flags):
            return rest or (arguments[k + 1] if k + 1 < len(arguments) else "")
        k += 2 if argument in _OPTIONS_WITH_VALUE else 1
    return ""


def start_up_line() -> str | None:
    """The line this process writes when interrupted, if it is one of the package's command
    lines starting; None for any other program (a program importing the package)."""
    multiprocessing = sys.modules.get("multiprocessing")
    if multiprocessing is not None and multiprocessing.parent_process() is not None:
        return None  # a spawned worker: its parent reports the interrupt
    program = os.path.basename(sys.argv[0]) if sys.argv else ""
    for suffix in _LAUNCHER_SUFFIXES:
        if program.endswith(suffix):
            program = program[:-len(suffix)]
            break
    arguments = sys.argv[1:]
    if program == "-m":  # runpy imports the package of python -m's module
        module = _module_after_dash_m()
        if module == "conll_eval":
            program = "conll_eval"
        elif module.startswith("conll_eval.compat"):
            program = _COMPAT_SCRIPTS[0]
    if program in _COMPAT_SCRIPTS:
        return COMPAT_LINE
    if program not in _CONLL_EVAL_SCRIPTS:
        return None
    if program == "conll_eval" and arguments and arguments[0] in SUBCOMMANDS:
        program += " " + arguments[0]
    return house_line(program)


def _leave(line: str):
    def on_interrupt(signal_number, frame) -> None:
        try:
            os.write(2, line.encode())
        except OSError:
            pass  # no stderr: the status still says it
        os._exit(INTERRUPTED)
    return on_interrupt


#: the handler :func:`guard_start_up` installed (None: none, or ended)
_guard = None
#: the line the guarded command writes when interrupted
_line = ""


def guard_start_up() -> None:
    """In a command line of the package that is starting, make SIGINT write its line and exit
    130 until :func:`end_start_up`; anywhere else, and where SIGINT is not Python's default
    handler (ignored, or the program's own), nothing."""
    global _guard, _line
    line = start_up_line()
    if line is None or signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        return
    _guard, _line = _leave(line), line
    signal.signal(signal.SIGINT, _guard)


def _in_import(frame) -> bool:
    """Whether ``frame`` runs inside the import system (a module being imported, or its locks)."""
    while frame is not None:
        if frame.f_code.co_filename.startswith("<frozen importlib"):
            return True
        frame = frame.f_back
    return False


def interrupt_while_running(signal_number, frame) -> None:
    """SIGINT while a guarded command runs: a KeyboardInterrupt, which the command reports and
    which cleans up what it started; but inside an import (the commands import their scoring
    code lazily) the start-up guard's exit, as CPython may swallow a KeyboardInterrupt raised
    in the import system's locks ("Exception ignored in _get_module_lock") and go on."""
    if _in_import(frame):
        _leave(_line)(signal_number, frame)
    raise KeyboardInterrupt


def end_start_up() -> None:
    """The command's code runs from here: Ctrl-C is a KeyboardInterrupt again, which the
    command reports (and which cleans up what it started), except inside an import
    (:func:`interrupt_while_running`).  Does nothing without a guard."""
    global _guard
    if _guard is not None and signal.getsignal(signal.SIGINT) is _guard:
        signal.signal(signal.SIGINT, interrupt_while_running)
    _guard = None

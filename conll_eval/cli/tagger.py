"""``conll_eval tagger FILE1 FILE2``: moot's native files evaluated as ``mooteval`` does
(its options, rc files, listing, summary and exit statuses), or CoNLL-U files on the word
alignment (two ``.conllu`` files, two files that look like CoNLL-U, or ``--conllu``: see
:mod:`.tagger_conllu`); a CoNLL-U file paired with a moot file is refused."""
from __future__ import annotations

import errno
import os
import re
from typing import List, Optional, TextIO

from .. import __version__
from ..analyze.tagger.comparison import compare_items
from ..analyze.tagger.native import XML, format_label, format_request, read_items, read_native
from ..analyze.tagger.options import PROGRAM, parse_command_line
from ..errors import InputError, printable
from ..report.mooteval import error_lines, listing, summary
from .common import EXIT_INPUT, input_named, write_atomically
from .messages import program_name
from .tagger_conllu import choose_mode, conllu_tagger_command

__all__ = ["tagger_command", "native_tagger_command", "tagger_banner", "TAGGER_HELP"]

TAGGER_HELP = """\
conll_eval tagger: a tagger's output against a gold file (or another tagger), as moot's
mooteval evaluates it; CoNLL-U files on the CoNLL 2018 word alignment.

Usage: conll_eval tagger [OPTIONS]... SYSTEM GOLD     moot files: the tagger's output first
       conll_eval tagger [OPTIONS]... GOLD SYSTEM     CoNLL-U files: the gold file first
                                                      (see 'conll_eval tagger --conllu --help')

 Arguments:
   FILE1 FILE2  Files to compare: moot native text files, one token a line
                ('medium': TOKEN<TAB>TAG, 'well done': TOKEN<TAB>TAG<TAB>[ANALYSIS]...),
                FILE1 the evaluated (tagger's) file, FILE2 the reference (gold), as
                mooteval (-1/-2 choose which get class figures and flags).
                Two .conllu files, or two files that look like CoNLL-U, are compared
                in the CoNLL-U mode instead, GOLD first; a CoNLL-U file and a moot
                file together are refused ([mixed-formats], exit 1).

 Options (mooteval's):
   -h        --help                     Print help and exit.
   -V        --version                  Print version and exit.
   -cFILE    --rcfile=FILE              Read options from FILE ('LONG_OPTION value' lines).
   -vLEVEL   --verbose=LEVEL            0 summary only, 1 + banner, 2 + class figures
                                        (default), 3 + flagged tokens, 4 + every token.
                                        As mooteval, -v takes the next argument as its
                                        level: '-v FILE1 FILE2' reads FILE1 as level 0.
   -1        --eval-first               Class figures and flags of FILE1 only.
   -2        --eval-second              Class figures and flags of FILE2 only.
   -oFILE    --output=FILE              Write listing and summary to FILE (the summary
                                        also to stderr).
   -IFORMAT  --input-format=FORMAT      Input format flags (medium, welldone, cost, ...);
                                        default: guessed from FILE1's name.
             --input-encoding=ENCODING  Accepted; used by XML input only (not supported).

Exit status as mooteval: 0 compared (whatever the mismatches), 1 bad options or output
file, 2 an input file cannot be opened (or has a line longer than the limit).
"""


def tagger_help() -> str:
    """:data:`TAGGER_HELP` under the name the command runs as (``mooteval`` in the drop-in),
    the notes of its usage lines kept in their column."""
    name = program_name("tagger")
    shift = len("conll_eval tagger") - len(name)

    def usage(match) -> str:
        return name + match.group(1) + " " * max(1, len(match.group(2)) + shift)
    text = re.sub(r"conll_eval tagger( \[OPTIONS\]\.\.\. \S+ \S+)( +)", usage, TAGGER_HELP)
    return text.replace("conll_eval tagger", name)


def tagger_banner() -> str:
    """What goes to stderr first at verbosity 1 and above (conll_eval's own, not mooteval's)."""
    return (f"conll_eval {__version__} tagger: mooteval 2.0.20-compatible tagger "
            "evaluation\n\n")


def tagger_command(argv: List[str], stdout: TextIO, stderr: TextIO) -> int:
    mode = choose_mode(argv)
    if mode.problem is not None:
        stderr.write(f"{program_name('tagger')}: error [mixed-formats] {mode.problem}\n")
        return EXIT_INPUT
    if mode.name == "conllu":
        return conllu_tagger_command(argv, stdout, stderr)
    return native_tagger_command(argv, stdout, stderr)


def _output_problem(path: str) -> Optional[str]:
    """Why ``fopen(path, "w")`` would fail (its ``strerror``), or ``None``.  The file is only
    written at the end, atomically; mooteval creates it at once."""
    if os.path.isdir(path):
        return os.strerror(errno.EISDIR)
    directory = os.path.dirname(path) or "."
    if not os.path.exists(directory):
        return os.strerror(errno.ENOENT)
    if not os.path.isdir(directory):
        return os.strerror(errno.ENOTDIR)
    if os.path.exists(path):
        writable = os.access(path, os.W_OK)
    else:
        writable = os.access(directory, os.W_OK | os.X_OK)
    return None if writable else os.strerror(errno.EACCES)


def native_tagger_command(argv: List[str], stdout: TextIO, stderr: TextIO) -> int:
    """mooteval's main: options, banner, output file, two inputs, format, comparison."""
    options = parse_command_line(argv)
    stderr.write("".join(options.messages))
    if options.action == "help":
        stdout.write(tagger_help())
        return 0
    if options.action == "version":
        stdout.write(f"conll_eval tagger ({__version__}), mooteval 2.0.20-compatible\n")
        return 0
    if options.action == "fail":
        return 1
    verbose = options.verbose
    if verbose > 0:
        stderr.write(tagger_banner())
    to_file = options.output is not None and options.output != "-"
    if to_file:
        problem = _output_problem(options.output)
        if problem is None and input_named(options.output, [*options.inputs[:2],
                                                            *options.rc_files]) is not None:
            problem = "it is an input file (not overwritten)"
        if problem is not None:
            stderr.write(f"{PROGRAM}: open failed for output-file '{printable(options.output)}': "
                         f"{problem}\n")
            return 1
    if len(options.inputs) < 2:
        stderr.write(f"{PROGRAM}: you must specify two files to compare!\n")
        stdout.write(tagger_help())
        return 1
    names = (options.inputs[0], options.inputs[1])
    flags = format_request(options.input_format, names[0], stderr.write)
    if flags & XML:
        stderr.write(f"{PROGRAM}: Exception: XML support disabled\n")
        return 1
    texts = []
    for name in names:
        try:
            texts.append(read_native(name))
        except OSError as exc:
            stderr.write(f'{PROGRAM}: open failed for file "{printable(name)}": '
                         f"{os.strerror(exc.errno or errno.EIO)}")
            return 2
        except InputError as exc:  # a line longer than the limit: as a file not opened
            stderr.write(f"{exc}\n")
            return 2
    first, evaluated_second = options.evaluated
    result = compare_items(read_items(texts[0], flags), read_items(texts[1], flags),
                           max(0, min(verbose, 4)), (first, evaluated_second))
    stderr.write(error_lines(result.errors, PROGRAM))
    block = summary(result, names, format_label(flags), verbose >= 2,
                    (first, evaluated_second), PROGRAM)
    text = listing(result.steps) + block
    if to_file:
        write_atomically(options.output, text, [*names, *options.rc_files],
                         errors="surrogateescape")
        if verbose >= 1:
            _write_bytes_safe(stderr, block)
    else:
        _write_bytes_safe(stdout, text)
    return 0


def _write_bytes_safe(stream: TextIO, text: str) -> None:
    """Write text read with ``surrogateescape``: its undecodable bytes go out as they came
    in, through the stream's byte buffer when the stream cannot encode them."""
    write_raw = getattr(stream, "write_raw", None)
    if write_raw is not None:
        write_raw(text)
    else:
        stream.write(text)

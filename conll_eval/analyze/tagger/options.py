"""mooteval's command line: GNU ``getopt_long`` options (permuted, clustered, abbreviated long
names) and ``-c`` rc files read at their place on the line, with mooteval's warnings.

Parsing never prints: warnings and errors are collected in order for the command to write,
and ``-h``/``-V`` or an unknown option end the parse with the action to take.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import List, Optional, Tuple

from ... import limits
from ...errors import InputError
from ...io.lines import read_checked

__all__ = ["MootevalOptions", "parse_command_line", "atoi", "PROGRAM"]

#: the program name mooteval's messages start with (kept for byte-identical stderr)
PROGRAM = "mooteval"
#: long name -> (short letter or "", takes a value)
_LONG = {"help": ("h", False), "version": ("V", False), "rcfile": ("c", True),
         "verbose": ("v", True), "eval-first": ("1", False), "eval-second": ("2", False),
         "output": ("o", True), "input-format": ("I", True), "input-encoding": ("", True)}
_SHORT = {letter: name for name, (letter, _) in _LONG.items() if letter}
#: how the "given more than once" warning names an option
_NAMED = {name: f"`--{name}' (`-{letter}')" if letter else f"`--{name}'"
          for name, (letter, _) in _LONG.items()}
#: rc files nested deeper than this (a file that includes itself) are not read
_RC_DEPTH = 32


@dataclass
class MootevalOptions:
    """What the command line asked for.  ``action`` is ``run``, ``help``, ``version`` or
    ``fail`` (an unknown option: exit 1); ``messages`` are the parser's stderr lines in
    order."""
    verbose: int = 2
    eval_first: bool = False
    eval_second: bool = False
    output: Optional[str] = None
    input_format: Optional[str] = None
    input_encoding: Optional[str] = None
    inputs: List[str] = field(default_factory=list)
    action: str = "run"
    messages: List[str] = field(default_factory=list)
    given: dict = field(default_factory=dict)
    #: the rc files read (``-c``), in order: inputs that ``-o`` must never replace
    rc_files: List[str] = field(default_factory=list)

    @property
    def evaluated(self) -> Tuple[bool, bool]:
        """Which files get their class figures: the ``-1``/``-2`` ones, both if neither."""
        if self.eval_first or self.eval_second:
            return self.eval_first, self.eval_second
        return True, True


class _Stop(Exception):
    """Parsing ends here (help, version, a bad option)."""


def atoi(text: str) -> int:
    """C's ``atoi``: leading white space, a sign, digits; anything else ends the number
    (``"3x"`` is 3, ``"x"`` is 0); clamped to a C ``int``."""
    text = text.lstrip(" \t\n\v\f\r")
    sign, digits = 1, 0
    if text[:1] in ("+", "-"):
        sign = -1 if text[0] == "-" else 1
        text = text[1:]
    for char in text:
        if not "0" <= char <= "9":
            break
        digits = min(digits * 10 + ord(char) - 48, 2 ** 31)
    return max(-2 ** 31, min(2 ** 31 - 1, sign * digits))


def _apply(options: MootevalOptions, name: str, value: Optional[str], depth: int) -> None:
    """One option, as mooteval's option parser takes it (from the line or an rc file)."""
    count = options.given.get(name, 0)
    if count and name != "rcfile":  # mooteval never counts -c, so it never warns about it
        options.messages.append(f"{PROGRAM}: {_NAMED[name]} option given more than once\n")
    if name in ("help", "version"):
        options.action = name
        raise _Stop
    if name == "rcfile":
        _read_rc_file(options, value or "", depth + 1)
        return
    options.given[name] = count + 1
    if name == "verbose":
        options.verbose = atoi(value or "")
    elif name == "eval-first":
        options.eval_first = options.eval_first or count == 0
    elif name == "eval-second":
        options.eval_second = options.eval_second or count == 0
    elif name == "output":
        options.output = value
    elif name == "input-format":
        options.input_format = value
    elif name == "input-encoding":
        options.input_encoding = value


def _read_rc_file(options: MootevalOptions, name: str, depth: int) -> None:
    path = os.path.expanduser(name) if name.startswith("~") else name
    try:
        with open(path, "rb") as handle:  # within a small file's limits (house errors, exit 1)
            data = read_checked(handle.read, path, False, limits.MAX_CONFIG_BYTES, "an rc file")
    except OSError as exc:
        options.messages.append(f"{PROGRAM}: warning: open failed for rc-file '{path}': "
                                f"{os.strerror(exc.errno or 0)}\n")
        return
    except InputError as exc:  # a line too long, or too large: no rc file
        options.messages.append(f"{exc}\n")
        options.action = "fail"
        raise _Stop from None
    options.rc_files.append(path)
    if depth > _RC_DEPTH:
        options.messages.append(f"{PROGRAM}: warning: rc-file '{path}' nested too deeply; "
                                "not read\n")
        return
    for lineno, option, value in _rc_entries(data.decode("utf-8", "surrogateescape")):
        if not option:
            options.messages.append(f"{PROGRAM}: error in file '{path}' at line {lineno}.\n")
        elif option not in _LONG:
            options.messages.append(f"{PROGRAM}: unknown long option '{option}'.\n")
            options.messages.append(f"{PROGRAM}: error in file '{path}' at line {lineno}.\n")
        else:
            _apply(options, option, value, depth)


def _rc_entries(text: str):
    """``(counter, name, value)`` as mooteval's rc reader cuts them: white space and ``#``
    lines skipped (each skipped character and comment advancing its line counter); the name
    runs to ``=`` or white space; white space after it is skipped across line ends; the value
    runs to the end of that line.  A byte 0xFF reads as end of file (C's signed ``char``)."""
    end = text.find("\udcff")
    chars = iter(text if end < 0 else text[:end])
    counter = 0
    for char in chars:
        counter += 1
        if _is_space(char):
            continue
        if char == "#":
            for char in chars:
                if char == "\n":
                    break
            continue
        name = []
        while char is not None and char != "=" and not _is_space(char):
            name.append(char)
            char = next(chars, None)
        char = next(chars, None)
        while char is not None and _is_space(char):
            char = next(chars, None)
        value = []
        while char is not None and char != "\n":
            value.append(char)
            char = next(chars, None)
        yield counter, "".join(name), "".join(value)


def _is_space(char: str) -> bool:
    return char in " \t\n\v\f\r"


def _long_option(options: MootevalOptions, arg: str, args: List[str], index: int,
                 depth: int) -> int:
    """One ``--name[=value]`` argument (unique prefixes accepted); returns the next index."""
    body = arg[2:]
    name, has_value, value = body.partition("=")[0], "=" in body, body.partition("=")[2]
    if name in _LONG:
        matches = [name]
    else:
        matches = [long for long in _LONG if long.startswith(name)]
    if not matches:
        _bad_option(options, f"{PROGRAM}: unrecognized option '{arg}'\n")
    if len(matches) > 1:
        listed = " ".join(f"'--{match}'" for match in matches)
        _bad_option(options, f"{PROGRAM}: option '--{name}' is ambiguous; possibilities: "
                             f"{listed}\n")
    long = matches[0]
    wants_value = _LONG[long][1]
    if has_value and not wants_value:
        _bad_option(options, f"{PROGRAM}: option '--{long}' doesn't allow an argument\n")
    if wants_value and not has_value:
        if index + 1 >= len(args):
            _bad_option(options, f"{PROGRAM}: option '--{long}' requires an argument\n")
        value = args[index + 1]
        index += 1
    _apply(options, long, value if wants_value else None, depth)
    return index + 1


def _short_options(options: MootevalOptions, arg: str, args: List[str], index: int,
                   depth: int) -> int:
    """One ``-xyz`` cluster: flags, then a value option takes the rest or the next word."""
    position = 1
    while position < len(arg):
        letter = arg[position]
        position += 1
        if letter not in _SHORT:
            _bad_option(options, f"{PROGRAM}: invalid option -- '{letter}'\n")
        name = _SHORT[letter]
        if _LONG[name][1]:
            if position < len(arg):
                value = arg[position:]
            elif index + 1 < len(args):
                index += 1
                value = args[index]
            else:
                _bad_option(options, f"{PROGRAM}: option requires an argument -- '{letter}'\n")
            _apply(options, name, value, depth)
            break
        _apply(options, name, None, depth)
    return index + 1


def _bad_option(options: MootevalOptions, message: str) -> None:
    """getopt's complaint, then the option parser's own line: getopt leaves the long-option
    index at 0, so mooteval names its first option, ``help``."""
    options.messages.append(message)
    options.messages.append(f"{PROGRAM}: unknown option 'help'.\n")
    options.action = "fail"
    raise _Stop


def parse_command_line(args: List[str]) -> MootevalOptions:
    """``mooteval [OPTIONS] FILE1 FILE2`` -> options; options may follow the files (GNU
    permutation), ``--`` ends them, ``-`` is a file."""
    options = MootevalOptions()
    index = 0
    try:
        while index < len(args):
            arg = args[index]
            if arg == "--":
                options.inputs.extend(args[index + 1:])
                break
            if arg.startswith("--"):
                index = _long_option(options, arg, args, index, 0)
            elif arg.startswith("-") and arg != "-":
                index = _short_options(options, arg, args, index, 0)
            else:
                options.inputs.append(arg)
                index += 1
    except _Stop:
        pass
    return options

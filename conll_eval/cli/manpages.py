"""``conll_eval man [COMMAND] [-o DIR]``: man pages (roff, ``man -l``) generated from the same
parsers as the help and the shell completion: ``conll_eval.1`` and ``conll_eval-<command>.1``.

The pages carry each command's usage, description, every option with its help, and the notes
of its epilog; ``analyze`` and ``tagger`` (MaltEval's and mooteval's own command lines) show
their help text as it is.
"""
from __future__ import annotations

import argparse
import importlib
import os
import re
from typing import Dict, List, Optional, TextIO

from .. import __version__
from . import __doc__ as cli_doc
from .common import EXIT_OK, Parser, add_options, write_atomically
from .completion import CommandSpec, command_names, command_parser, command_specs, help_text

__all__ = ["man_page", "page_name", "build_man_parser", "man_command"]

MANUAL = "conll_eval manual"
#: commands with their own help whose other mode has a parser: (section title, module, builder)
MODE_PARSERS = {"tagger": ("CONLL-U MODE ", "tagger_conllu", "build_tagger_conllu_parser")}
#: the NAME line of conll_eval.1
WHAT = ("score, validate and analyze CoNLL-U dependency parses (the CoNLL 2017/2018 and "
        "IWPT 2020 scorers, the UD validator, MaltEval, mooteval)")


def page_name(command: Optional[str]) -> str:
    """The file a page goes to: ``conll_eval.1`` or ``conll_eval-<command>.1``."""
    return "conll_eval.1" if command in (None, "") else f"conll_eval-{command}.1"


def _escape(text: str) -> str:
    """Text for a roff line: backslashes, hyphens of options, a leading dot or quote, and
    every non-ASCII character as a named Unicode escape."""
    text = text.replace("\\", "\\e")
    text = re.sub(r"(?<![\w-])-+", lambda dashes: "\\-" * len(dashes.group()), text)  # of options
    text = "".join(ch if ord(ch) < 128 else f"\\[u{ord(ch):04X}]" for ch in text)
    return "\\&" + text if text[:1] in (".", "'") else text


def _flag(flag: str) -> str:
    """An option name: every hyphen a minus sign (so that it is typed as shown)."""
    return flag.replace("\\", "\\e").replace("-", "\\-")


def _paragraphs(text: str) -> List[str]:
    return [" ".join(part.split()) for part in re.split(r"\n\s*\n", text or "") if part.strip()]


def _preformatted(text: str) -> List[str]:
    return [".nf", *(_escape(line) if line.strip() else "" for line in text.rstrip("\n")
                     .split("\n")), ".fi"]


def _header(command: Optional[str], summary: str) -> List[str]:
    title = page_name(command)[:-2].upper()
    name = page_name(command)[:-2]
    return [f'.TH "{title}" "1" "" "conll_eval {__version__}" "{MANUAL}"',
            ".SH NAME", f"{_escape(name)} \\- {_escape(summary)}"]


def _synopsis(parser: argparse.ArgumentParser) -> List[str]:
    """The usage line, filled by the pager (argparse wraps it to the terminal it runs in)."""
    usage = " ".join(parser.format_usage().split())
    usage = usage[len("usage:"):].strip() if usage.startswith("usage:") else usage
    arguments = usage[len(parser.prog):].strip() if usage.startswith(parser.prog) else usage
    return [".SH SYNOPSIS", f"\\fB{_escape(parser.prog)}\\fR {_escape(arguments)}"]


def _options(parser: argparse.ArgumentParser, mode: str = "") -> List[str]:
    """ARGUMENTS and OPTIONS sections (``mode``: a prefix of their titles)."""
    lines: List[str] = []
    positionals = [action for action in parser._actions if not action.option_strings]
    if positionals:
        lines.append(f'.SH "{mode}ARGUMENTS"' if mode else ".SH ARGUMENTS")
        for action in positionals:  # argparse has no public list of its actions
            lines += [".TP", f"\\fI{_escape(action.metavar or action.dest)}\\fR",
                      _escape(_help(action))]
    lines.append(f'.SH "{mode}OPTIONS"' if mode else ".SH OPTIONS")
    for action in parser._actions:
        if not action.option_strings or action.help == argparse.SUPPRESS:
            continue
        value = ""
        if action.nargs != 0:
            metavar = action.metavar if isinstance(action.metavar, str) else action.dest.upper()
            if action.choices:
                metavar = "{" + ",".join(str(choice) for choice in action.choices) + "}"
            value = f" \\fI{_escape(metavar)}\\fR"
        flags = ", ".join(f"\\fB{_flag(flag)}\\fR{value}" for flag in action.option_strings)
        lines += [".TP", flags, _escape(_help(action))]
    return lines


def _help(action: argparse.Action) -> str:
    return help_text(action)


def _see_also(command: Optional[str]) -> List[str]:
    """The main page names every command's page; a command's page names the main one."""
    pages = ["conll_eval"] if command is not None else [
        page_name(name)[:-2] for name in command_names() if name not in ("score", "help")]
    return [".SH SEE ALSO", ",\n".join(f"\\fB{_escape(page)}\\fR(1)" for page in pages)]


def _exit_status() -> List[str]:
    found = re.search(r"Exit codes: (.*?)(?:\n\n|\.  )", cli_doc or "", re.S)
    text = " ".join(found.group(1).replace("``", "").split()) if found else ""
    return [".SH EXIT STATUS", _escape(text + ".")] if text else []


def _argparse_page(command: str, spec: CommandSpec, parser: argparse.ArgumentParser) -> List[str]:
    lines = [*_header(command, spec.summary),
             *_synopsis(parser), ".SH DESCRIPTION"]
    for number, paragraph in enumerate(_paragraphs(parser.description or "")
                                       + _paragraphs(parser.epilog or "")):
        lines += ([] if number == 0 else [".PP"]) + [_escape(paragraph)]
    return lines + _options(parser)


def _main_page(specs: Dict[str, CommandSpec]) -> List[str]:
    parser = command_parser("score")
    assert parser is not None
    lines = [*_header(None, WHAT), ".SH SYNOPSIS",
             ".nf", "\\fBconll_eval\\fR [\\fBscore\\fR] [\\fIoptions\\fR] \\fIGOLD\\fR \\fISYSTEM\\fR",
             "\\fBconll_eval\\fR \\fICOMMAND\\fR [\\fIarguments\\fR]", ".fi", ".SH DESCRIPTION"]
    for number, paragraph in enumerate(_paragraphs(parser.description or "")
                                       + _paragraphs(parser.epilog or "")):
        lines += ([] if number == 0 else [".PP"]) + [_escape(paragraph)]
    lines.append(".SH COMMANDS")
    for name, spec in specs.items():
        lines += [".TP", f"\\fB{_escape(name)}\\fR", _escape(spec.summary)
                  + ("" if name in ("score", "help") else f" (see \\fB{page_name(name)[:-2]}\\fR(1))")]
    return lines + _options(parser) + _exit_status()


def man_page(command: Optional[str] = None,
             specs: Optional[Dict[str, CommandSpec]] = None) -> str:
    """The roff text of ``conll_eval.1`` (``command`` None) or of a command's page."""
    specs = command_specs() if specs is None else specs
    if command is None:
        lines = _main_page(specs)
    else:
        spec = specs[command]
        parser = command_parser(command)
        if spec.own_help is not None or parser is None:
            lines = [*_header(command, spec.summary), ".SH DESCRIPTION",
                     *_preformatted(spec.own_help or spec.summary)]
            if command in MODE_PARSERS:  # its other mode's options, from that mode's parser
                mode, module, builder = MODE_PARSERS[command]
                mode_parser = getattr(importlib.import_module(f"{__package__}.{module}"), builder)()
                lines += _options(mode_parser, mode)
        else:
            lines = _argparse_page(command, spec, parser)
        lines += _exit_status()
    return "\n".join(lines + _see_also(command)) + "\n"


def build_man_parser() -> argparse.ArgumentParser:
    names = [name for name in command_names() if name != "help"]
    parser = Parser(
        prog="conll_eval man",
        description="Print or write conll_eval's man pages (roff), generated from its options: "
                    "conll_eval.1 and conll_eval-COMMAND.1.",
        epilog="Read one with 'conll_eval man suite | man -l -'; install them with "
               "'conll_eval man -o ~/.local/share/man/man1'.")
    parser.add_argument("command", nargs="?", metavar="COMMAND", choices=names,
                        help="the page of this command (default: conll_eval.1 on stdout; "
                             "with -o, every page)")
    parser.add_argument("-o", "--output", metavar="DIR",
                        help="write the pages into DIR, each atomically (conll_eval.1, "
                             "conll_eval-COMMAND.1), instead of stdout")
    add_options(parser, "debug")
    return parser


def man_command(argv: List[str], stdout: TextIO, stderr: TextIO) -> int:
    args = build_man_parser().parse_args(argv)
    specs = command_specs()
    if args.output is None:
        stdout.write(man_page(args.command, specs))
        return EXIT_OK
    os.makedirs(args.output, exist_ok=True)
    wanted = [args.command] if args.command else [
        None, *(name for name in specs if name not in ("score", "help"))]
    for command in wanted:
        write_atomically(os.path.join(args.output, page_name(command)), man_page(command, specs), [],
                         chosen_name=True)
    return EXIT_OK

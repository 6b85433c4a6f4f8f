"""``conll_eval completion bash|zsh``: a shell completion script generated from the command
line's own parsers (every subcommand's options, their choices, files where files go).

:func:`command_specs` reads the argparse parsers (``build_parser`` and the ``build_<command>_parser``
functions) into one plain description that the bash and zsh writers here and the man pages
(:mod:`.manpages`) share; ``analyze`` (MaltEval's command line) and ``tagger`` (mooteval's)
parse their arguments themselves, so their options come from their own option tables.
"""
from __future__ import annotations

import argparse
import importlib
import re
from dataclasses import dataclass
from typing import Dict, List, Optional, TextIO, Tuple

from .. import __version__
from ..analyze import malteval_names as malteval_options  # its names, without the groupings (numpy)
from . import COMMANDS, USAGE
from .common import EXIT_OK, Parser, add_options, write_atomically
from .score import build_parser
from .tagger import TAGGER_HELP

__all__ = ["OptionSpec", "CommandSpec", "command_specs", "command_parser", "bash_script",
           "zsh_script", "build_completion_parser", "completion_command"]

SHELLS = ("bash", "zsh")
#: metavars of values that name a file or a directory (completed as such)
FILE_METAVARS = frozenset({"FILE", "PATH", "GOLD", "SYSTEM", "FILE1", "FILE2"})
DIRECTORY_METAVARS = frozenset({"DIR", "OUTPUT_DIR"})
#: the cli module of a command named otherwise
MODULES = {"man": "manpages"}
#: MaltEval's flags that are not in its parameter and formatting tables (analyze/options.py's
#: parse_args reads them one by one); the ones that name files
MALTEVAL_FLAGS = ("-s", "-g", "-e", "-f", "-v", "--charset", "--postag", "--deprel", "--remove",
                  "--format", "--plugin")
MALTEVAL_FILE_FLAGS = frozenset({"-s", "-g", "-e", "-f", "--postag", "--deprel", "--output"})
#: an option line of mooteval's help: ``-cFILE    --rcfile=FILE    Read options ...``
_MOOTEVAL_OPTION = re.compile(r"^\s+(-\w)?\S*\s+(--[\w-]+)(=\w+)?\s+(\S.*)$")


@dataclass(frozen=True)
class OptionSpec:
    """One option: its flags, whether it takes a value, and what to offer for the value:
    ``complete`` is ``"choices"`` (``choices``), ``"file"``, ``"directory"`` or ``""``
    (anything; nothing to offer)."""
    flags: Tuple[str, ...]
    takes_value: bool
    help: str = ""
    metavar: str = ""
    choices: Tuple[str, ...] = ()
    complete: str = ""
    repeatable: bool = False


@dataclass(frozen=True)
class CommandSpec:
    """A subcommand: one-line summary, options, and what its positional arguments are
    (``choices`` when they are words, else files)."""
    name: str
    summary: str
    options: Tuple[OptionSpec, ...]
    positional_choices: Tuple[str, ...] = ()
    own_help: Optional[str] = None  # commands that parse their arguments themselves


def command_names() -> List[str]:
    """Every subcommand, in the order of ``conll_eval``'s usage text (scoring first)."""
    return ["score", *COMMANDS, "help"]


def command_parser(name: str) -> Optional[argparse.ArgumentParser]:
    """The argparse parser of a subcommand, or ``None`` for those that parse their own
    arguments (``analyze``, ``tagger``'s moot mode) and ``help``."""
    if name == "score":
        return build_parser()
    if name not in COMMANDS:
        return None
    module = importlib.import_module(f"{__package__}.{MODULES.get(name, name)}")
    builder = getattr(module, f"build_{name}_parser", None)
    return builder() if builder is not None else None


def summaries() -> Dict[str, str]:
    """Each command's line of the usage text (what bare ``conll_eval`` prints)."""
    found: Dict[str, str] = {}
    lines = USAGE.splitlines()
    for number, line in enumerate(lines):
        match = re.search(r"conll_eval \[?(\w+)\]?\s.*?\S\s{2,}(\S.*)$|conll_eval \[?(\w+)\]?\s", line)
        if match is None:
            continue
        name = match.group(1) or match.group(3)
        text = match.group(2)
        if text is None and number + 1 < len(lines) and not lines[number + 1].lstrip().startswith(
                "conll_eval"):
            text = lines[number + 1].strip()
        if text and name not in found:
            found[name] = text
    return found


def help_text(action: argparse.Action) -> str:
    """An option's help as one line, its ``%(default)s``-style fields filled in."""
    text = action.help or ""
    if "%" in text:
        try:
            text = text % dict(vars(action), prog="conll_eval")
        except (KeyError, TypeError, ValueError):
            pass
    return " ".join(text.split())


def _value_kind(metavar: str, choices: Tuple[str, ...]) -> str:
    if choices:
        return "choices"
    if metavar in FILE_METAVARS:
        return "file"
    if metavar in DIRECTORY_METAVARS:
        return "directory"
    return ""


def argparse_options(parser: argparse.ArgumentParser) -> Tuple[OptionSpec, ...]:
    """The parser's options (help options included), in its order."""
    found = []
    for action in parser._actions:  # argparse has no public list of its actions
        if not action.option_strings or action.help == argparse.SUPPRESS:
            continue
        takes_value = action.nargs != 0
        choices = tuple(str(choice) for choice in action.choices or ()) if takes_value else ()
        metavar = action.metavar if isinstance(action.metavar, str) else (
            action.dest.upper() if takes_value else "")
        found.append(OptionSpec(
            tuple(action.option_strings), takes_value, help_text(action), metavar if takes_value
            else "", choices, _value_kind(metavar, choices) if takes_value else "",
            isinstance(action, (argparse._AppendAction, argparse._CountAction))
            or action.nargs in ("+", "*")))
    return tuple(found)


def _positional_choices(parser: argparse.ArgumentParser) -> Tuple[str, ...]:
    return tuple(str(choice) for action in parser._actions
                 if not action.option_strings and action.choices
                 for choice in action.choices)


def _analyze_options() -> Tuple[OptionSpec, ...]:
    """MaltEval's parameters (``--Metric``, ``--GroupBy``, the Exclude* ones), its formatting
    flags and the flags parse_args reads one by one; every one takes a value."""
    flags = [*MALTEVAL_FLAGS, *(f"--{name}" for name in malteval_options.PARAMETER_NAMES),
             *malteval_options.FORMATTING_FLAGS]
    choices = {"--remove": tuple(malteval_options.REMOVE_VALUES),
               "--format": tuple(malteval_options.OUTPUT_FORMATS)}
    specs = [OptionSpec(("-h", "--help"), False, "show the help and exit")]
    for flag in dict.fromkeys(flags):
        options = choices.get(flag, ())
        kind = "choices" if options else "file" if flag in MALTEVAL_FILE_FLAGS else ""
        specs.append(OptionSpec((flag,), True, "MaltEval's " + flag if flag not in (
            "--format", "--plugin") else "conll_eval's " + flag, "", options, kind,
            flag in ("-s", "-g", "--plugin")))
    return tuple(specs)


def _tagger_options() -> Tuple[OptionSpec, ...]:
    """mooteval's options (from its help's option table) and those of the CoNLL-U mode's
    parser; a flag both have is listed once."""
    specs: List[OptionSpec] = []
    for line in TAGGER_HELP.splitlines():
        match = _MOOTEVAL_OPTION.match(line)
        if match is None:
            continue
        flags = tuple(flag for flag in (match.group(1), match.group(2)) if flag)
        value = (match.group(3) or "")[1:]
        specs.append(OptionSpec(flags, bool(value), match.group(4).strip(), value, (),
                                _value_kind(value, ())))
    seen = {flag for spec in specs for flag in spec.flags}
    conllu = importlib.import_module(f"{__package__}.tagger_conllu").build_tagger_conllu_parser()
    for spec in argparse_options(conllu):
        flags = tuple(flag for flag in spec.flags if flag not in seen)
        if flags:
            specs.append(OptionSpec(flags, spec.takes_value, spec.help, spec.metavar,
                                    spec.choices, spec.complete, spec.repeatable))
    return tuple(specs)


def command_specs() -> Dict[str, CommandSpec]:
    """Every subcommand's description, in :func:`command_names` order."""
    lines = summaries()
    specs: Dict[str, CommandSpec] = {}
    for name in command_names():
        summary = lines.get(name, "")
        if name == "help":
            specs[name] = CommandSpec(name, summary, (), tuple(
                other for other in command_names() if other != "help"))
        elif name == "analyze":
            specs[name] = CommandSpec(name, summary, _analyze_options(),
                                      own_help=importlib.import_module(
                                          f"{__package__}.analyze").ANALYZE_HELP)
        elif name == "tagger":
            specs[name] = CommandSpec(name, summary, _tagger_options(), own_help=TAGGER_HELP)
        else:
            parser = command_parser(name)
            assert parser is not None, f"no parser for {name}"
            specs[name] = CommandSpec(name, summary, argparse_options(parser),
                                      _positional_choices(parser))
    return specs


def _words(items) -> str:
    return " ".join(items)


def _bash_case(spec: CommandSpec) -> List[str]:
    """The ``case`` branch of one command: values of its options, then its options."""
    lines = [f"        {spec.name})", '            case "$prev" in']
    by_kind: Dict[str, List[str]] = {}
    for option in spec.options:
        if not option.takes_value:
            continue
        if option.complete == "choices":
            lines.append(f"                {'|'.join(option.flags)})")
            lines.append(f'                    COMPREPLY=($(compgen -W "{_words(option.choices)}" '
                         '-- "$cur")); return ;;')
        else:
            by_kind.setdefault(option.complete, []).extend(option.flags)
    actions = {"file": "_conll_eval_files; return ;;",
               "directory": "_conll_eval_files d; return ;;",
               "": "return ;;  # a value: nothing to offer"}
    for kind, flags in by_kind.items():
        lines.append(f"                {'|'.join(flags)})")
        lines.append(f"                    {actions[kind]}")
    flags = _words(flag for option in spec.options for flag in option.flags)
    lines += ["            esac",
              '            if [[ "$cur" == -* ]]; then',
              f'                COMPREPLY=($(compgen -W "{flags}" -- "$cur")); return',
              "            fi"]
    if spec.positional_choices:
        lines.append(f'            COMPREPLY=($(compgen -W "{_words(spec.positional_choices)}" '
                     '-- "$cur")); return')
    lines.append("            ;;")
    return lines


def bash_script(specs: Dict[str, CommandSpec]) -> str:
    """A bash completion script: ``source`` it (or put it in bash-completion's directory)."""
    commands = [name for name in specs if name != "score"]
    lines = [
        f"# bash completion for conll_eval {__version__} (generated by 'conll_eval completion bash')",
        "# use: source <(conll_eval completion bash), or save it as",
        "# ~/.local/share/bash-completion/completions/conll_eval",
        "_conll_eval_files() {  # files, or with 'd' directories",
        "    local IFS=$'\\n'",
        '    COMPREPLY+=($(compgen -${1:-f} -- "$cur"))',
        "    compopt -o filenames 2>/dev/null",
        "}",
        "_conll_eval() {",
        '    local cur="${COMP_WORDS[COMP_CWORD]}" prev="" command=score',
        '    (( COMP_CWORD > 0 )) && prev="${COMP_WORDS[COMP_CWORD-1]}"',
        "    # --option=value: bash splits the word at '='",
        '    if [[ "$cur" == "=" ]]; then cur=""',
        '    elif [[ "$prev" == "=" ]] && (( COMP_CWORD > 1 )); then prev="${COMP_WORDS[COMP_CWORD-2]}"',
        "    fi",
        "    COMPREPLY=()",
        "    if (( COMP_CWORD > 1 )); then",
        '        case "${COMP_WORDS[1]}" in',
        f"            {'|'.join(specs)}) command=\"${{COMP_WORDS[1]}}\" ;;",
        "        esac",
        '    elif [[ "$cur" != -* ]]; then',
        f'        COMPREPLY=($(compgen -W "{_words(commands)}" -- "$cur"))',
        "    fi",
        '    case "$command" in']
    for spec in specs.values():
        lines += _bash_case(spec)
    lines += ["    esac",
              "    _conll_eval_files",
              "}",
              "complete -F _conll_eval conll_eval",
              ""]
    return "\n".join(lines)


def _zsh_quote(text: str) -> str:
    """``text`` inside a single-quoted zsh word."""
    return text.replace("'", "'\\''")


def _zsh_description(text: str) -> str:
    """A short description for ``[...]`` of an _arguments spec: its first sentence."""
    first = re.split(r"(?<=[.;)])\s|\s\(|:\s", text, maxsplit=1)[0].rstrip(".;")
    if len(first) > 70:
        first = first[:67].rstrip() + "..."
    return re.sub(r"([\[\]:\\])", r"\\\1", first)


def _zsh_option(option: OptionSpec) -> str:
    description = _zsh_description(option.help)
    if option.takes_value:
        message = re.sub(r"[:\\]", "", option.metavar or "value") or "value"
        action = {"choices": f"({' '.join(option.choices)})", "file": "_files",
                  "directory": "_files -/"}.get(option.complete, " ")
        value = f":{message}:{action}"
    else:
        value = ""
    star = "*" if option.repeatable else ""
    if len(option.flags) == 1:
        flag = option.flags[0]
        equals = "=" if option.takes_value and flag.startswith("--") else ""
        return f"'{star}{flag}{equals}[{_zsh_quote(description)}]{_zsh_quote(value)}'"
    exclusive = "" if option.repeatable else f"({' '.join(option.flags)})"
    return (f"'{star}{exclusive}'{{{','.join(option.flags)}}}"
            f"'[{_zsh_quote(description)}]{_zsh_quote(value)}'")


def zsh_script(specs: Dict[str, CommandSpec]) -> str:
    """A zsh completion function: save it as ``_conll_eval`` in a directory of ``$fpath``, or
    ``source`` it after ``compinit``."""
    lines = [
        "#compdef conll_eval",
        f"# zsh completion for conll_eval {__version__} (generated by 'conll_eval completion zsh')",
        "# use: conll_eval completion zsh > ~/.zfunc/_conll_eval (a directory of $fpath),",
        "# or source <(conll_eval completion zsh) after compinit"]
    for spec in specs.values():
        lines.append(f"_conll_eval_{spec.name}() {{")
        lines.append("    _arguments -S \\")
        for option in spec.options:
            lines.append(f"        {_zsh_option(option)} \\")
        positional = (f"({' '.join(spec.positional_choices)})" if spec.positional_choices
                      else "_files")
        lines.append(f"        '*:argument:{positional}'")
        lines.append("}")
    described = " ".join(f"'{_zsh_quote(name)}:{_zsh_quote(_zsh_description(spec.summary))}'"
                         for name, spec in specs.items() if name != "score")
    lines += [
        "_conll_eval() {",
        "    local -a commands",
        f"    commands=({described})",
        "    if (( CURRENT > 2 )) && (( ${+functions[_conll_eval_${words[2]}]} )); then",
        "        local command=${words[2]}",
        "        shift words",
        "        (( CURRENT-- ))",
        "        _conll_eval_$command",
        "    elif (( CURRENT == 2 )) && [[ ${words[CURRENT]} != -* ]]; then",
        "        _describe -t commands 'conll_eval command' commands",
        "        _files",
        "    else",
        "        _conll_eval_score",
        "    fi",
        "}",
        'if [[ ${zsh_eval_context[-1]} == loadautofunc ]]; then',
        '    _conll_eval "$@"',
        "else",
        "    compdef _conll_eval conll_eval",
        "fi",
        ""]
    return "\n".join(lines)


def build_completion_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="conll_eval completion",
        description="Print a shell completion script for conll_eval: every subcommand, its "
                    "options and their values, files where files go.",
        epilog="bash: source <(conll_eval completion bash), or save it as "
               "~/.local/share/bash-completion/completions/conll_eval.  zsh: conll_eval "
               "completion zsh > DIR/_conll_eval for a DIR in $fpath (before compinit), or "
               "source <(conll_eval completion zsh) after compinit.")
    parser.add_argument("shell", choices=SHELLS, help="the shell: bash or zsh")
    add_options(parser, "output", "debug")
    return parser


def completion_command(argv: List[str], stdout: TextIO, stderr: TextIO) -> int:
    args = build_completion_parser().parse_args(argv)
    writer = bash_script if args.shell == "bash" else zsh_script
    script = writer(command_specs())
    if args.output:
        write_atomically(args.output, script, [])
    else:
        stdout.write(script)
    return EXIT_OK

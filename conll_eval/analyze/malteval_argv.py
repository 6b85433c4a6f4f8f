"""MaltEval's command line: ``java -jar MaltEval.jar`` arguments read with MaltEval's rules into Settings.

:func:`parse_args` checks everything that needs no data, in MaltEval's order; the only I/O is
the ``-e`` file (:mod:`.malteval_file`) and listing a directory given to ``-s``/``-g``.
"""
from __future__ import annotations

import codecs
import os
from typing import Dict, List, Sequence, Tuple

from . import java
from .groupings import PluginError, load_plugin
from .malteval_file import _read_evaluation_file
from .malteval_names import (_FILE_EXTENSIONS, FORMATTING_FLAGS, OUTPUT_FORMATS, PARAMETER_NAMES,
                             REMOVE_VALUES, REPEATABLE_EXTENSIONS, MaltEvalUsageError, _java_list,
                             _java_split, _usage)
from .malteval_settings import Formatting, Parameter, Settings, _set_formatting, validate_evaluations

# ----------------------------------------------------------------------------------------------
# the command line

def _parameter_values(argument: str, value: str) -> Tuple[Tuple[str, str], ...]:
    values: Dict[str, str] = {}
    for item in _java_split(value, ";"):
        pieces = _java_split(item, ":")
        if len(pieces) == 1:
            values[pieces[0]] = ""
        elif len(pieces) == 2:
            values[pieces[0]] = pieces[1]
        else:
            raise _usage(f'Could not parse value of the argument "{argument}"', argument)
    if not values:
        raise _usage("Index 0 out of bounds for length 0", argument,
                     f"{argument}: no value in {value!r}")
    return tuple(values.items())


def _files(flag: str, given: List[str]) -> Tuple[str, ...]:
    if not given:
        raise _usage(f"{flag} needs at least one file name", flag)
    if len(given) > 1 or not os.path.isdir(given[0]):
        return tuple(given)
    directory = given[0]
    names = [n for n in os.listdir(directory) if n.endswith(_FILE_EXTENSIONS)]
    if not names:
        raise _usage(f"{flag}: the directory {directory} holds no .conll, .tab or .xml file", flag)
    return tuple(os.path.join(directory, n) for n in sorted(names, key=java.java_compare_key))


def parse_args(argv: Sequence[str], *, check_evaluations: bool = True) -> Settings:
    """Read a MaltEval 1.0 argument list.  Raises :class:`MaltEvalUsageError` or
    :class:`EvaluationFileError` in MaltEval's order of checks: the ``-e`` file, each argument,
    the required ``-s``/``-g``, leftovers, the cross-validation file counts and then (unless
    ``check_evaluations`` is false: MaltEval checks them only after reading the data, so a CLI
    wanting its exact order of messages calls :func:`validate_evaluations` after loading the
    files) every evaluation's parameter values and columns."""
    argv = list(argv)
    if not argv:
        raise MaltEvalUsageError("analyze: no MaltEval arguments given (at least -s and -g)")
    if len(argv) == 1 and argv[0] in ("--help", "--examples"):
        raise MaltEvalUsageError(f"analyze: MaltEval's {argv[0]} text is not reproduced",
                                 flag=argv[0])
    params: Dict[str, Parameter] = {}
    formatting: Dict[str, object] = {}
    found: Dict[str, object] = {"viewer": False, "remove": "None"}
    warnings: List[str] = []
    i = 0
    eval_file = None
    if argv[0] == "-e":
        if len(argv) < 2:
            raise _usage("Index 1 out of bounds for length 1", "-e",
                         "-e: the evaluation file is missing")
        if argv[1] == "eval07.pl":
            raise MaltEvalUsageError("-e eval07.pl (MaltEval's eval07.pl mode) is not supported",
                                     flag="-e")
        eval_file = argv[1]
        _read_evaluation_file(eval_file, params, formatting)
        i = 2
    else:
        params["Metric"] = Parameter("Metric", (("LAS", ""),))
        params["GroupBy"] = Parameter("GroupBy", (("Token", ""),))
    used = set()
    required = ["-s", "-g"]
    while i < len(argv) and argv[i].startswith("-"):
        argument = argv[i]
        if len(argument) < 2:
            raise _usage(f"Unable to parse argument number {i} ({argument})")
        if argument in used and argument not in REPEATABLE_EXTENSIONS:
            raise _usage(f"The argument {argument} is specified twice", argument)
        used.add(argument)
        if argument in required:
            required.remove(argument)
        i += 1
        if i == len(argv):
            raise _usage(f"Unable to find the argument value for the argument {argument}",
                         argument)
        value = argv[i]
        name = argument[2:] if argument.startswith("--") else None
        if argument in FORMATTING_FLAGS:
            _set_formatting(formatting, argument, value)
        elif name in PARAMETER_NAMES:
            params[name] = Parameter(name, _parameter_values(argument, value))
        elif argument == "--charset":
            try:
                codecs.lookup(value)
            except LookupError:
                raise _usage(value, argument, f"--charset: unknown character set {value!r}") \
                    from None
            found["charset"] = value
        elif argument == "-f":
            found["selection_file"] = value
        elif argument in ("-s", "-g"):
            given = []
            while i < len(argv) and not argv[i].startswith("-"):
                given.append(argv[i])
                i += 1
            i -= 1
            found["system_files" if argument == "-s" else "gold_files"] = _files(argument, given)
        elif argument == "--plugin":  # conll_eval's: a grouping class, module:Class
            found["plugins"] = found.get("plugins", ()) + (value,)
        elif argument == "--format":  # conll_eval's: text (MaltEval's) or json
            if value not in OUTPUT_FORMATS:
                raise MaltEvalUsageError(f"--format: expected one of {', '.join(OUTPUT_FORMATS)}, "
                                         f"not {value!r}", flag="--format")
            found["output_format"] = value
        elif argument == "--postag":
            found["postag_file"] = value
        elif argument == "--deprel":
            found["deprel_file"] = value
        elif argument == "--remove":
            if value in REMOVE_VALUES:
                found["remove"] = value
            else:
                warnings.append(f"--remove: {value!r} is not one of {', '.join(REMOVE_VALUES)};"
                                f" MaltEval ignores it")
        elif argument == "-v":
            if value not in ("0", "1"):
                raise _usage("The flag -v can only have the value 0 or 1", "-v")
            found["viewer"] = value == "1"
        else:
            raise _usage(f"Expected some other argument. Found: {argument}", argument)
        i += 1
    if required and not found["viewer"]:
        missing = [a for a in java.hashset_order(["-s", "-g"]) if a in required]
        raise _usage(f"The required arguments {_java_list(missing)} have not been specified")
    if i != len(argv):
        raise _usage(f"Unable to parse all arguments. Stopped at argument number {i}",
                     message=f"Unable to parse all arguments. Stopped at argument number {i} "
                             f"({argv[i]!r}: a flag was expected)")
    settings = Settings(argv=tuple(argv), eval_file=eval_file, parameters=tuple(params.values()),
                        formatting=Formatting(**formatting), warnings=tuple(warnings), **found)
    if not settings.viewer:
        systems, golds = len(settings.system_files), len(settings.gold_files)
        if golds != 1 and golds != systems:
            raise _usage(f"Crossvalidation not possible. Nr of parser files: {systems}, and nr "
                         f"of gold-standard files: {golds}")
        if golds == 1 and systems != 1 and settings.formatting.micro_average:
            raise _usage(f"Merging files for crossvalidation is not possible. Nr of parser "
                         f"files: {systems}, and nr of gold-standard files: {golds}",
                         "--micro-average")
        if settings.selection_file is not None and (golds > 1 or systems > 1):
            raise _usage("MaltEvalConsole currently only supports one gold-standards and one "
                         "parsed file in selection file mode\n", "-f",
                         "-f: selection file mode takes one gold and one system file")
    for spec in settings.plugins:  # before any GroupBy value is looked up
        try:
            load_plugin(spec)
        except PluginError as exc:
            raise MaltEvalUsageError(str(exc), None, "--plugin") from None
    if check_evaluations:
        settings = validate_evaluations(settings)
    return settings


"""MaltEval 1.0 command lines (and ``-e`` evaluation files) -> one frozen :class:`Settings`.

:func:`parse_args` reads what follows ``java -jar MaltEval.jar`` with MaltEval's argument rules
and checks everything that needs no data; the only I/O is reading the ``-e`` XML file (and
listing a directory given to ``-s``/``-g``).  :func:`echo_arguments` is MaltEval's first line:

>>> echo_arguments(["-s", "sys.conll", "-g", "gold.conll", "--Metric", "LAS;UAS"])
'Evaluation arguments: -s sys.conll -g gold.conll --Metric "LAS;UAS"'
>>> s = parse_args(["-s", "sys.conll", "-g", "gold.conll", "--Metric", "LA",
...                 "--GroupBy", "Deprel:all|recall-10"])
>>> [(p.name, p.values) for p in s.parameters]
[('Metric', (('LA', ''),)), ('GroupBy', (('Deprel', 'all|recall-10'),))]
>>> e = s.evaluations()[0]
>>> e.metric, e.grouping.name, e.columns.names, e.columns.sort_by, e.columns.cut
('LA', 'Deprel', ('precision', 'recall', 'fscore', 'parsercounter', 'treebankcounter', 'correctcounter'), 'recall', 10)

Parameter names and each parameter's values keep the order in which Java's ``Hashtable`` and
``HashMap`` receive them (``Metric`` and ``GroupBy`` first on the command-line path, because
MaltEval puts its defaults in before reading the flags).  :meth:`Settings.evaluations` gives the
evaluations in that input order or, with ``order="java"``, in MaltEval's hash order
(:mod:`conll_eval.analyze.java`).

Errors: :class:`MaltEvalUsageError` (a :class:`~conll_eval.errors.UsageError`, exit 2) for the
command line, :class:`EvaluationFileError` (an :class:`~conll_eval.errors.InputError`, exit 1,
``file:line``) for the ``-e`` file.  Both carry ``malteval_message``: the text MaltEval prints
after ``Evaluation aborted: `` (``None`` where MaltEval would not abort or its text is not
reproducible, e.g. a Java XML parser message).

Deliberate differences from MaltEval (listed in :data:`DIFFERENCES`; where MaltEval would crash
the settings record its message in :attr:`Settings.malteval_crash`):

- an ``-e`` file without ``Metric``: MaltEval throws a NullPointerException (case 148); here
  Metric is ``LAS`` (its own feature default) and no ``Metric->`` line is given;
- ``:all`` (or a format of only ``|``) on a complex grouping with several offsets and no
  Wordform: MaltEval throws a NullPointerException (073); here the columns are
  ``accuracy counter correctcounter``, the set of every complex grouping;
- ``--Metric self`` with a complex grouping (or ``Postag@0``): NullPointerException in
  MaltEval; here ``BothRight``, the self metric of every grouping a complex one is made of;
- DOCTYPE and ENTITY declarations in the ``-e`` file are refused (Java's parser expands them);
- a directory given to ``-s``/``-g`` is joined with ``os.path.join`` (MaltEval concatenates,
  so ``-s dir`` without a trailing slash finds no file), and must hold a file;
- ``-s``/``-g`` followed directly by another flag, an empty value list (``--Metric ";"``), a
  negative cut other than ``-1`` (``accuracy+-5``) and a DecimalFormat pattern in scientific
  notation are rejected, and a complex grouping is never a Metric value (MaltEval accepts one
  that an earlier evaluation of the run registered);
- the help/usage modes (no arguments, ``--help``, ``--examples``) and ``-e eval07.pl`` are not
  supported.
"""
from __future__ import annotations

import codecs
import itertools
import os
import re
from dataclasses import dataclass, field, replace
from typing import Dict, FrozenSet, Iterable, List, Optional, Sequence, Tuple, Union

from ..errors import InputError, Location, UsageError
from . import java
from .grouping_facts import BUILTIN_GROUPINGS, GroupingInfo
from .groupings import PluginError, load_plugin, names, resolve
from .safexml import parse, refuse_declarations

__all__ = [
    "METRIC_NAMES", "GROUPING_NAMES", "BUILTIN_GROUPINGS", "GroupingInfo", "COMPLEX_COMPONENTS",
    "PARAMETER_NAMES", "EXCLUDE_PARAMETERS", "FORMATTING_FLAGS", "REMOVE_VALUES",
    "ACCURACY_COLUMNS", "PRECISION_RECALL_COLUMNS", "PARSER_TREEBANK_COLUMNS", "SENTENCE_COLUMNS",
    "DEFAULT_PATTERN", "DIFFERENCES", "column_sets", "self_metric",
    "MaltEvalUsageError", "EvaluationFileError", "Parameter", "Formatting", "Grouping",
    "Columns", "Evaluation", "Settings", "parse_args", "parse_grouping", "parse_columns",
    "validate_evaluations", "echo_arguments",
]

# ----------------------------------------------------------------------------------------------
# MaltEval's registries (as the 2014 jar loads them)

#: metric names in MaltEval's TreeMap order (the list its "Incorrect value for Metric" prints)
METRIC_NAMES: Tuple[str, ...] = (
    "AnyRight", "AnyWrong", "BothRight", "BothWrong", "DirectionRight",
    "GroupedHeadToChildDistanceRight", "HeadRight", "HeadToChildDistanceRight", "HeadWrong",
    "LA", "LAS", "LabelRight", "LabelWrong", "UAS")
SELF = "self"
_BOTH = "BothRight"


GROUPING_NAMES: Tuple[str, ...] = tuple(BUILTIN_GROUPINGS)
#: the built-in groupings that ``#``, ``,`` and ``@N`` can combine (case 078)
COMPLEX_COMPONENTS: Tuple[str, ...] = tuple(n for n, g in BUILTIN_GROUPINGS.items()
                                            if g.complex_item)


def _grouping(name: str):
    """The registered grouping (built-in or plugin) called ``name``, or None."""
    try:
        return resolve(name)
    except PluginError as exc:
        raise MaltEvalUsageError(str(exc), None, "--GroupBy") from None


def _known_groupings() -> List[str]:
    return names()
_WORDFORM = "Wordform"

# column (attribute) sets: (default, valid) -- the README's "Default and all attribute sets"
ACCURACY_COLUMNS = (("accuracy",), ("accuracy", "counter", "correctcounter"))
PRECISION_RECALL_COLUMNS = (
    ("precision", "recall", "fscore"),
    ("precision", "recall", "fscore", "parsercounter", "treebankcounter", "correctcounter"))
PARSER_TREEBANK_COLUMNS = (
    ("parseraccuracy", "treebankaccuracy"),
    ("parseraccuracy", "treebankaccuracy", "parsercounter", "treebankcounter",
     "parsercorrectcounter", "treebankcorrectcounter"))
SENTENCE_COLUMNS = (
    ("accuracy", "exactmatch", "sentencelength"),
    ("accuracy", "exactmatch", "correctcounter", "includedtokenscount", "sentencelength",
     "isparserconnected", "istreebankconnected", "hasparsercycle", "hastreebankcycle",
     "isparserprojective", "istreebankprojective", "id"))
ALL = "all"

EXCLUDE_PARAMETERS: Tuple[str, ...] = (
    "ExcludeWordforms", "ExcludeLemmas", "ExcludeCpostags", "ExcludePostags", "ExcludeFeats",
    "ExcludeDeprels", "ExcludePdeprels")
#: the evaluation features in the order MaltEval checks them (``attributes`` is a parameter
#: name MaltEval accepts and multiplies evaluations by, but no feature reads it)
FEATURES: Tuple[str, ...] = (("Metric", "GroupBy") + EXCLUDE_PARAMETERS
                             + ("ExcludeUnicodePunc", "MinSentenceLength", "MaxSentenceLength"))
PARAMETER_NAMES: Tuple[str, ...] = FEATURES + ("attributes",)
#: a feature's default (value, format) where the parameter is not given
_FEATURE_DEFAULTS: Dict[str, Tuple[str, str]] = dict(
    [("Metric", ("LAS", "")), ("GroupBy", ("Token", ALL))]
    + [(name, ("", "")) for name in EXCLUDE_PARAMETERS]
    + [("ExcludeUnicodePunc", ("0", "")), ("MinSentenceLength", ("0", "")),
       ("MaxSentenceLength", ("0", ""))])

#: formatting flags -> Formatting field; all take 0 or 1 except --output and --pattern
FORMATTING_FLAGS: Dict[str, str] = {
    "--micro-average": "micro_average", "--header-info": "header_info",
    "--column-header": "column_header", "--row-header": "row_header", "--details": "details",
    "--hdr-file": "hdr_file", "--stat": "stat", "--confusion-matrix": "confusion_matrix",
    "--merge-tables": "merge_tables", "--tab": "tab", "--output": "output",
    "--pattern": "pattern", "--debug": "debug"}
REMOVE_VALUES: Tuple[str, ...] = ("None", "Projective", "NonProjective")
#: conll_eval's flags beside MaltEval's: output formats, and the flags that may repeat
OUTPUT_FORMATS: Tuple[str, ...] = ("text", "json")
REPEATABLE_EXTENSIONS = frozenset({"--plugin"})
DEFAULT_PATTERN = "#,##0.###"  # NumberFormat.getNumberInstance(Locale.US)
_FILE_EXTENSIONS = (".xml", ".tab", ".conll")

DIFFERENCES: Tuple[str, ...] = (
    "-e file without Metric: LAS (MaltEval: NullPointerException, case 148)",
    "complex grouping with several offsets, no Wordform, format all: accuracy counter "
    "correctcounter (MaltEval: NullPointerException, case 073)",
    "--Metric self with a complex grouping: BothRight (MaltEval: NullPointerException)",
    "DOCTYPE/ENTITY declarations in the -e file are refused",
    "a directory given to -s/-g is joined with os.path.join and must hold a .conll/.tab/.xml",
    "-s/-g without a file, a parameter without any value, a negative cut other than -1 and a "
    "scientific DecimalFormat pattern are rejected",
    "a complex grouping is never accepted as a Metric value",
    "no arguments, --help, --examples and -e eval07.pl are not supported",
    "--remove with the Sentence grouping: the remaining sentences keep their numbers (MaltEval: "
    "NullPointerException, it looks sentences up by number)",
    "an input error in a later system file or fold prints nothing (MaltEval has printed the "
    "tables of the files before it)",
    "--stat 1: a column that is 0/1 for the first system but not for another gives '-' for "
    "that pair (MaltEval leaves the cell out and misaligns the table)",
    "a grouping named as Metric with another GroupBy (--Metric Deprel --GroupBy Cpostag): the "
    "grouping's own test, key equality or BothRight (MaltEval: NullPointerException)",
    "CoNLL-U files (*.conllu) are read with conll_eval's reader and aligned (MaltEval rejects "
    "them at the first comment line, case 152)",
    "trees are validated: a cycle, several roots or a head out of range is an input error "
    "(MaltEval scores them), so hasparsercycle/hastreebankcycle are always 0",
    "bytes that are not valid in the file's encoding (UTF-8 unless --charset) are an input "
    "error naming file:line (MaltEval reads them as U+FFFD)",
    "--output DIRECTORY: each result file is written whole, atomically",
    "tables whose printed rows differ only in the first one are not merged (MaltEval aborts: "
    "'cannot merge DataContainer with different row headers')",
    "MaltTab/MaltXML: a column the format lacks (MaltTab's LEMMA, POSTAG, FEATS) groups as '_' "
    "(MaltEval: NullPointerException); an empty MaltXML sentence and a value CoNLL cannot hold "
    "are refused; MaltXML sentence ids are not kept (sentences are numbered 1, 2, ...)",
)

_NPE_NO_METRIC = ('Cannot invoke "String.equals(Object)" because the return value of '
                  '"se.vxu.msi.malteval.configdata.util.Evaluation.getParameterValue(String)" '
                  'is null')
_NPE_ALL_WITHOUT_WORDFORM = 'Cannot invoke "java.util.Collection.toArray()" because "c" is null'
_NPE_SELF = ('Cannot invoke "se.vxu.msi.malteval.grouping.Grouping.getSelfMetricName()" because '
             'the return value of "se.vxu.msi.malteval.evaluator.MaltParserEvaluator.'
             'getGroupByStrategy(String)" is null')


# ----------------------------------------------------------------------------------------------
# errors

class MaltEvalUsageError(UsageError):
    """A command line MaltEval rejects (or that we reject); ``flag`` names the argument and
    ``malteval_message`` is what MaltEval prints after ``Evaluation aborted: ``."""

    def __init__(self, message: str, malteval_message: Optional[str] = None,
                 flag: Optional[str] = None):
        self.message = message
        self.malteval_message = malteval_message
        self.flag = flag
        super().__init__(message)

    def __reduce__(self):
        return (self.__class__, (self.message, self.malteval_message, self.flag))


class EvaluationFileError(InputError):
    """The ``-e`` evaluation file is unreadable, unsafe or wrong: ``eval.xml:7: error [code] ...``."""

    def __init__(self, location: Location, code: str, message: str,
                 malteval_message: Optional[str] = None):
        self.malteval_message = malteval_message
        super().__init__(location, code, message, official=malteval_message)

    def __reduce__(self):
        return (self.__class__, (self.location, self.code, self.message, self.malteval_message))


def _usage(malteval_message: str, flag: Optional[str] = None,
           message: Optional[str] = None) -> MaltEvalUsageError:
    text = message or malteval_message
    if flag and flag not in text:
        text = f"{flag}: {text}"
    return MaltEvalUsageError(text, malteval_message, flag)


# ----------------------------------------------------------------------------------------------
# small Java behaviours

_JAVA_WHITESPACE = "".join(chr(c) for c in range(33))


def _java_trim(s: str) -> str:
    """``String.trim()``: strips the characters <= U+0020 only."""
    return s.strip(_JAVA_WHITESPACE)


def _java_split(s: str, sep: str) -> List[str]:
    """``String.split`` on a one-character literal: trailing empty strings are dropped, and a
    string without the separator gives itself (so ``""`` gives ``[""]`` but ``";"`` gives [])."""
    if sep not in s:
        return [s]
    parts = s.split(sep)
    while parts and parts[-1] == "":
        parts.pop()
    return parts


def _tokens(s: str, sep: str = "|") -> List[str]:
    """``StringTokenizer``: the non-empty pieces."""
    return [t for t in s.split(sep) if t]


_INT = re.compile(r"[+-]?\d+")


def _java_int(s: str) -> Optional[int]:
    """``Integer.parseInt`` (sign, decimal digits, int32), or None where it throws."""
    if not _INT.fullmatch(s):
        return None
    value = int(s)
    return value if -(1 << 31) <= value < (1 << 31) else None


def _java_list(items: Iterable[str]) -> str:
    return "[" + ", ".join(items) + "]"


# ----------------------------------------------------------------------------------------------
# the settings

@dataclass(frozen=True)
class Parameter:
    """One evaluation parameter: its values, each ``(value, format)``, in input order (a repeated
    value keeps its first place and its last format, as in a HashMap); ``location`` is where
    an ``-e`` file set it (None: a flag or MaltEval's command-line default)."""

    name: str
    values: Tuple[Tuple[str, str], ...]
    location: Optional[Location] = None

    @property
    def origin(self) -> str:
        return str(self.location) if self.location else "--" + self.name


@dataclass(frozen=True)
class Formatting:
    """The formatting arguments.  ``None`` for column_header/details: the grouping decides
    (:attr:`GroupingInfo.show_table_header`, :attr:`GroupingInfo.show_details`)."""

    micro_average: bool = False
    header_info: bool = True
    column_header: Optional[bool] = None
    row_header: bool = True
    details: Optional[bool] = None
    hdr_file: bool = False
    merge_tables: bool = True
    tab: bool = False
    output: str = "STDOUT"
    pattern: str = DEFAULT_PATTERN
    stat: bool = False
    confusion_matrix: bool = False
    debug: bool = False


@dataclass(frozen=True)
class Grouping:
    """A parsed GroupBy value.  ``name`` is MaltEval's name for it, which is also the row-header
    heading: the grouping's own name when simple (``Postag@0`` -> ``Postag``), the value as
    written when complex.  ``parts`` maps offsets to attributes, in input order."""

    value: str
    name: str
    parts: Tuple[Tuple[int, Tuple[str, ...]], ...]

    @property
    def is_complex(self) -> bool:
        return len(self.parts) > 1 or self.parts[0][0] != 0 or len(self.parts[0][1]) > 1

    @property
    def info(self) -> Optional[GroupingInfo]:
        """The simple grouping's registry entry (None for a complex grouping)."""
        return None if self.is_complex else _grouping(self.name)

    @property
    def components(self) -> Tuple[str, ...]:
        return tuple(dict.fromkeys(a for _, attrs in self.parts for a in attrs))

    @property
    def show_details(self) -> bool:
        return True if self.is_complex else _grouping(self.name).show_details

    @property
    def show_table_header(self) -> bool:
        return False if self.is_complex else _grouping(self.name).show_table_header


@dataclass(frozen=True)
class Columns:
    """A parsed format: the columns in print order, the sort (a column or the row heading),
    its direction and the cut (rows kept after sorting; None: all)."""

    format: str
    names: Tuple[str, ...]
    sort_by: Optional[str] = None
    ascending: bool = True
    cut: Optional[int] = None


@dataclass(frozen=True)
class Evaluation:
    """One combination of parameter values: what the counting and the table need.

    ``parameters`` are the given parameters' ``(name, value, format)`` (the ``Param-> value``
    header lines), with ``self`` already replaced by the metric it stands for, as MaltEval
    prints it.  ``metric`` is a name of :data:`METRIC_NAMES` or of :data:`GROUPING_NAMES` (a
    word is then correct when its gold and system keys of that grouping are equal)."""

    parameters: Tuple[Tuple[str, str, str], ...]
    metric: str
    grouping: Grouping
    columns: Columns
    exclude: Tuple[Tuple[str, FrozenSet[str]], ...]
    exclude_unicode_punc: bool
    min_sentence_length: int
    max_sentence_length: int

    def show_details(self, formatting: Formatting) -> bool:
        return (self.grouping.show_details if formatting.details is None
                else formatting.details)

    def show_table_header(self, formatting: Formatting) -> bool:
        """Whether the Row mean / Row count block is printed."""
        return (self.grouping.show_table_header if formatting.column_header is None
                else formatting.column_header)


@dataclass(frozen=True)
class Settings:
    """Everything one MaltEval command line asks for.  ``system_files``/``gold_files`` are in
    the given order (a directory expanded, sorted).  ``parameters`` hold only the given
    parameters (header lines), in the order Java's Hashtable receives them."""

    argv: Tuple[str, ...]
    system_files: Tuple[str, ...] = ()
    gold_files: Tuple[str, ...] = ()
    eval_file: Optional[str] = None
    charset: Optional[str] = None
    postag_file: Optional[str] = None
    deprel_file: Optional[str] = None
    selection_file: Optional[str] = None
    viewer: bool = False
    remove: str = "None"
    parameters: Tuple[Parameter, ...] = ()
    formatting: Formatting = field(default_factory=Formatting)
    malteval_crash: Optional[str] = None
    warnings: Tuple[str, ...] = ()
    #: conll_eval's own flags: ``--plugin module:Class`` (repeatable), ``--format text|json``
    plugins: Tuple[str, ...] = ()
    output_format: str = "text"

    @property
    def echo(self) -> str:
        return echo_arguments(self.argv)

    def parameter(self, name: str) -> Optional[Parameter]:
        for p in self.parameters:
            if p.name == name:
                return p
        return None

    @property
    def cross_validation(self) -> bool:
        return len(self.gold_files) > 1

    def evaluations(self, order: str = "input") -> Tuple[Evaluation, ...]:
        """Every evaluation.  ``order="input"``: the product of the parameters' values in input
        order, the last parameter varying fastest.  ``order="java"``: MaltEval's order
        (parameter names in Hashtable order, values in HashMap order, the first name varying
        fastest).  Assumes :func:`validate_evaluations` passed; a MaltEval crash is resolved
        as :data:`DIFFERENCES` says."""
        state = _State(lenient=True)
        return tuple(_evaluation(self, combo, state) for combo in _combinations(self, order))


# ----------------------------------------------------------------------------------------------
# echo

def echo_arguments(argv: Sequence[str]) -> str:
    """MaltEval's ``Evaluation arguments: ...`` line (without the newline): an argument holding
    ``;``, a space, ``'`` or ``"`` is wrapped in double quotes (nothing is escaped)."""
    parts = []
    for arg in argv:
        if any(c in arg for c in ";'\" "):
            parts.append(f'"{arg}"')
        else:
            parts.append(arg)
    # Java appends "arg " for each argument and then deletes the last character
    return ("Evaluation arguments: " + "".join(part + " " for part in parts))[:-1]


# ----------------------------------------------------------------------------------------------
# groupings and formats

def parse_grouping(value: str) -> Optional[Grouping]:
    """A GroupBy value as MaltEval reads it, or None where it says "Incorrect value for
    GroupBy".  ``#`` separates positions, ``@N`` is the offset (only the text between the first
    and a second ``@`` counts), ``,`` joins attributes at one position; one plain name may be
    any grouping, otherwise only :data:`COMPLEX_COMPONENTS`."""
    positions = _java_split(value, "#")
    parts: Dict[int, List[str]] = {}
    for position in positions:
        pieces = _java_split(position, "@")
        if len(pieces) < 2:
            offset = 0
        else:
            parsed = _java_int(pieces[1])
            if parsed is None:
                return None
            offset = parsed
        attrs = parts.setdefault(offset, [])
        names = _java_split(pieces[0] if pieces else "", ",")
        if not pieces or not names:
            return None
        for name in names:
            plain = len(positions) == 1 and len(pieces) == 1 and len(names) == 1
            found = _grouping(name)
            if found is None or not (plain or found.complex_item):
                return None
            if name not in attrs:
                attrs.append(name)
    frozen = tuple((o, tuple(a)) for o, a in parts.items() if a)
    if len(frozen) != len(parts) or not frozen:
        return None  # "#" or "," alone: MaltEval fails with a bare "null" message
    grouping = Grouping(value, value, frozen)
    if not grouping.is_complex:
        grouping = Grouping(value, frozen[0][1][0], frozen)
    return grouping


def self_metric(grouping: Grouping) -> str:
    """The metric ``--Metric self`` stands for with this grouping."""
    return _grouping(grouping.name).self_metric if not grouping.is_complex else _BOTH


def column_sets(grouping: Grouping, metric: str) -> Tuple[Tuple[str, ...], Tuple[str, ...]]:
    """(default columns, valid columns) of a grouping with a metric, as MaltEval decides them.

    The valid set uses ``String.contains`` on the grouping's corresponding metric but the
    default uses ``equals``, hence Deprel + LA has precision/recall columns but defaults to
    parseraccuracy/treebankaccuracy (rejected, case 150)."""
    if grouping.is_complex:
        return ACCURACY_COLUMNS
    info = _grouping(grouping.name)
    if info.simple_accuracy or info.name == "Token":
        return ACCURACY_COLUMNS
    if info.name == "Sentence":
        return SENTENCE_COLUMNS
    corresponding = info.corresponding_metric
    own = metric == info.name
    valid = (PRECISION_RECALL_COLUMNS[1] if own or (corresponding and metric in corresponding)
             else PARSER_TREEBANK_COLUMNS[1])
    default = (PRECISION_RECALL_COLUMNS[0] if own or metric == corresponding
               else PARSER_TREEBANK_COLUMNS[0])
    return default, valid


class _ColumnsCrash(Exception):
    """MaltEval would throw here; carries its message."""


def parse_columns(grouping: Grouping, metric: str, fmt: str,
                  wordform_known: bool = True) -> Columns:
    """The columns, sort and cut of one evaluation, with MaltEval's checks and messages.

    ``fmt`` is the format after ``:`` (``""``: the default set).  Attributes are ``|``
    separated; ``attr+``/``attr-`` sorts ascending/descending and a number after the sign cuts;
    the last sort wins, the last number too.  ``all`` anywhere turns off the attribute check
    and gives the valid set.  ``wordform_known=False`` makes ``all`` on a multi-offset complex
    grouping raise ``_ColumnsCrash`` as MaltEval does when no Wordform grouping ran before.
    """
    default, valid = column_sets(grouping, metric)
    attrs = list(_tokens(fmt)) if fmt != "" else list(default)
    sort_by: Optional[str] = None
    ascending = True
    cut = -1
    if grouping.is_complex:
        offsets = _java_order([o for o, _ in grouping.parts])
        names = dict(grouping.parts)
        check_names = [_java_order(list(names[o]))[0] for o in offsets]
    else:
        check_names = [grouping.name]
    if attrs:
        for check_name in check_names:
            for i, attribute in enumerate(attrs):
                for sign, asc in (("+", True), ("-", False)):
                    index = attribute.find(sign)
                    if index == -1:
                        continue
                    if not attribute.endswith(sign):
                        number = _java_int(attribute[index + 1:])
                        if number is None:
                            raise _usage(f'Incorrect value "{attribute}" for a format attribute. '
                                         f'Expected an integer value after "{sign}".')
                        cut = number
                    attribute = attribute[:index]
                    attrs[i] = attribute
                    sort_by, ascending = attribute, asc
                    break
                if ALL not in attrs and attribute not in valid:
                    raise _usage(f'Incorrect attribute value "{attribute}" for grouping strategy '
                                 f'"{check_name}". Possible values  are {_java_list(valid)}.')
    if not attrs or ALL in attrs:
        if len(grouping.parts) > 1 and not wordform_known:
            raise _ColumnsCrash(_NPE_ALL_WITHOUT_WORDFORM)
        attrs = list(valid)
    if cut < -1:
        raise MaltEvalUsageError(
            f'format "{fmt}": the number of rows to show must be -1 (all) or more')
    if sort_by is not None and sort_by != grouping.name and sort_by not in attrs:
        raise _usage(f'Could not find the column "{sort_by}" during sorting. "{sort_by}" may not '
                     f'be a valid attribute for current grouping strategy.')
    return Columns(fmt, tuple(attrs), sort_by, ascending, None if cut == -1 else cut)


def _java_order(keys: List) -> List:
    try:
        return java.hashmap_order(keys)
    except NotImplementedError:  # pragma: no cover - 9+ colliding keys
        return list(dict.fromkeys(keys))


# ----------------------------------------------------------------------------------------------
# evaluations

@dataclass
class _State:
    """What MaltEval keeps across the evaluations of one run (static fields): which grouping
    names have had their valid attributes registered, and which complex groupings exist."""

    lenient: bool = False
    wordform_known: bool = False
    registered_complex: List[str] = field(default_factory=list)
    crash: Optional[str] = None

    def note_crash(self, message: str) -> None:
        if self.crash is None:
            self.crash = message


def _combinations(settings: Settings, order: str) -> List[Dict[str, Tuple[str, str]]]:
    params = list(settings.parameters)
    if order == "input":
        names = [p.name for p in params]
        value_lists = [list(p.values) for p in params]
        return [dict(zip(names, combo)) for combo in itertools.product(*value_lists)]
    if order != "java":
        raise ValueError(f"order must be 'input' or 'java', not {order!r}")
    try:
        names = java.hashtable_order([p.name for p in params])
    except NotImplementedError:  # pragma: no cover
        names = [p.name for p in params]
    by_name = {p.name: dict(p.values) for p in params}
    value_lists = [[(v, by_name[n][v]) for v in _java_order(list(by_name[n]))] for n in names]
    # the first name varies fastest: reverse for itertools.product, whose last varies fastest
    combos = itertools.product(*reversed(value_lists))
    return [dict(zip(reversed(names), combo)) for combo in combos]


def _error_at(settings: Settings, name: str, error: MaltEvalUsageError,
              state: _State) -> Exception:
    """Re-home an evaluation error: at the -e file's line when the value came from there; the
    MaltEval message is the crash MaltEval would have met first, if any."""
    malteval = state.crash if state.crash is not None else error.malteval_message
    param = settings.parameter(name)
    if param is not None and param.location is not None:
        return EvaluationFileError(param.location, "bad-evaluation-value",
                                   f"{name}: {error.malteval_message}", malteval)
    flag = "--" + name
    message = error.message if error.message.startswith(flag) else f"{flag}: {error.message}"
    return MaltEvalUsageError(message, malteval, flag)


def _evaluation(settings: Settings, combo: Dict[str, Tuple[str, str]], state: _State) -> Evaluation:
    """Check one combination in MaltEval's feature order and build its Evaluation."""
    values = {n: combo.get(n, _FEATURE_DEFAULTS.get(n, ("", ""))) for n in PARAMETER_NAMES}
    if "Metric" not in combo:
        state.note_crash(_NPE_NO_METRIC)
    metric_value = values["Metric"][0]
    group_value, group_format = values["GroupBy"]
    grouping = parse_grouping(group_value)
    if metric_value == SELF:
        if _grouping(group_value) is not None:
            metric_value = _grouping(group_value).self_metric
        elif group_value in state.registered_complex:
            metric_value = _BOTH
        else:
            state.note_crash(_NPE_SELF)
            metric_value = _BOTH
    if metric_value not in METRIC_NAMES and _grouping(metric_value) is None:
        raise _error_at(settings, "Metric", _usage(
            f'Incorrect value for Metric: "{metric_value}". Available Metric values are '
            f'{_java_list(METRIC_NAMES)}'), state)
    if grouping is None:
        known = sorted(set(_known_groupings()) | set(state.registered_complex),
                       key=java.java_compare_key)
        raise _error_at(settings, "GroupBy", _usage(
            f'Incorrect value for GroupBy: "{group_value}". Possible values are: '
            f'{_java_list(known)}'), state)
    if grouping.is_complex and group_value not in state.registered_complex:
        state.registered_complex.append(group_value)
    unicode_punc = values["ExcludeUnicodePunc"][0]
    if unicode_punc not in ("0", "1"):
        raise _error_at(settings, "ExcludeUnicodePunc", _usage(
            f'Incorrect value for ExcludeUnicodePunc: "{unicode_punc}". Possible values are 0 '
            f'and 1.'), state)
    lengths = []
    for name in ("MinSentenceLength", "MaxSentenceLength"):
        number = _java_int(values[name][0])
        if number is None:
            raise _error_at(settings, name, _usage(f'For input string: "{values[name][0]}"'),
                            state)
        lengths.append(number)
    if _WORDFORM in grouping.components:
        state.wordform_known = True
    try:
        columns = parse_columns(grouping, metric_value, group_format,
                                wordform_known=state.wordform_known or state.lenient)
    except _ColumnsCrash as crash:
        state.note_crash(str(crash))
        columns = parse_columns(grouping, metric_value, group_format)
    except MaltEvalUsageError as error:
        raise _error_at(settings, "GroupBy", error, state) from None
    exclude = tuple((name, frozenset(_tokens(values[name][0]))) for name in EXCLUDE_PARAMETERS
                    if _tokens(values[name][0]))
    header = tuple((p.name, metric_value if p.name == "Metric" else combo[p.name][0],
                    combo[p.name][1]) for p in settings.parameters)
    return Evaluation(header, metric_value, grouping, columns, exclude, unicode_punc == "1",
                      lengths[0], lengths[1])


def validate_evaluations(settings: Settings) -> Settings:
    """Check every evaluation in MaltEval's order, raising the error MaltEval reports first;
    returns the settings with :attr:`Settings.malteval_crash` set where MaltEval would crash
    instead (we go on with the resolution :data:`DIFFERENCES` describes)."""
    state = _State()
    for combo in _combinations(settings, "java"):
        _evaluation(settings, combo, state)
    return replace(settings, malteval_crash=state.crash)


# ----------------------------------------------------------------------------------------------
# the -e evaluation file

_MAX_XML_BYTES = 1 << 20


class _Node:
    __slots__ = ("name", "attrs", "line", "children")

    def __init__(self, name: str, attrs: Dict[str, str], line: int):
        self.name = name
        self.attrs = attrs
        self.line = line
        self.children: List[Union[_Node, Tuple[str, str, int]]] = []  # nodes, (kind, text, line)


def _refuse_declarations(data: bytes, path: str) -> None:
    """Refuse DOCTYPE/ENTITY declarations in an evaluation file (:mod:`.safexml`)."""
    refuse_declarations(data, path, EvaluationFileError, "an evaluation file")


def _read_xml(path: str) -> _Node:
    """Parse ``path`` into a small DOM with line numbers, refusing DOCTYPE and ENTITY
    declarations before parsing (any UTF-8/16/32 spelling) and while parsing."""
    location = Location(path)
    try:
        with open(path, "rb") as handle:
            data = handle.read(_MAX_XML_BYTES + 1)
    except OSError as exc:
        raise EvaluationFileError(location, "missing-file",
                                  f"-e: cannot read the evaluation file: {exc.strerror}",
                                  f"Error: I/O exception. File {path} might be missing:\n"
                                  f"java.io.FileNotFoundException: {os.path.abspath(path)} "
                                  f"({exc.strerror})") from exc
    if len(data) > _MAX_XML_BYTES:
        raise EvaluationFileError(location, "evaluation-file-too-large",
                                  f"the evaluation file is larger than {_MAX_XML_BYTES} bytes")
    root_holder = _Node("#document", {}, 0)
    stack = [root_holder]

    def handlers(line):
        def start(name, attrs):
            node = _Node(name, attrs, line())
            stack[-1].children.append(node)
            stack.append(node)

        def end(_name):
            stack.pop()

        def chars(text):
            children = stack[-1].children
            if children and isinstance(children[-1], tuple) and children[-1][0] == "#text":
                children[-1] = ("#text", children[-1][1] + text, children[-1][2])
            else:
                children.append(("#text", text, line()))

        def comment(text):
            stack[-1].children.append(("#comment", text, line()))

        def instruction(target, _data):
            stack[-1].children.append((target, "", line()))

        return {"StartElementHandler": start, "EndElementHandler": end,
                "CharacterDataHandler": chars, "CommentHandler": comment,
                "ProcessingInstructionHandler": instruction}

    parse(data, path, EvaluationFileError, "an evaluation file", handlers)
    roots = [c for c in root_holder.children if isinstance(c, _Node)]
    return roots[0]


def _significant(node: _Node) -> List[Union[_Node, Tuple[str, str, int]]]:
    """The children minus whitespace-only text (MaltEval's removeEmptyNodes)."""
    return [c for c in node.children
            if not (isinstance(c, tuple) and c[0] == "#text" and _java_trim(c[1]) == "")]


def _read_evaluation_file(path: str, params: Dict[str, Parameter],
                          formatting: Dict[str, object]) -> None:
    root = _read_xml(path)

    def fail(line: int, message: str, code: str = "bad-evaluation-file") -> EvaluationFileError:
        return EvaluationFileError(Location(path, line), code, message, message)

    if root.name != "evaluation":
        raise fail(root.line, f'Incorrect element name. Found "{root.name}", expected element '
                              f'node: "evaluations"')
    for child in _significant(root):
        if isinstance(child, tuple):
            if child[0] == "#comment":
                continue
            raise fail(child[2], f'Incorrect element name. Found "{child[0]}", expected element '
                                 f'node: "parameter"')
        line = child.line
        if child.name == "parameter":
            if "name" not in child.attrs:
                raise EvaluationFileError(
                    Location(path, line), "bad-evaluation-file",
                    "<parameter> without a name attribute",
                    f"Error when reading the file {path}: incorrect file content:\n"
                    f"java.lang.NullPointerException")
            name = _java_trim(child.attrs["name"])
            values: Dict[str, str] = {}
            for item in _significant(child):
                if isinstance(item, tuple) or item.name != "value":
                    found = item[0] if isinstance(item, tuple) else item.name
                    raise fail(item[2] if isinstance(item, tuple) else item.line,
                               f'Incorrect element name. Found "{found}", expected element '
                               f'node: "value"')
                content = _significant(item)
                if len(content) == 1 and isinstance(content[0], tuple) and content[0][0] == "#text":
                    values[_java_trim(content[0][1])] = _java_trim(item.attrs.get("format", ""))
                else:
                    values[""] = ""
            if name not in PARAMETER_NAMES:
                raise fail(line, f'"{name}" is not a valid evaluation parameter name')
            params[name] = Parameter(name, tuple(values.items()), Location(path, line))
        elif child.name == "formatting":
            if "argument" not in child.attrs or "format" not in child.attrs:
                raise EvaluationFileError(
                    Location(path, line), "bad-evaluation-file",
                    "<formatting> needs the attributes argument and format",
                    f"Error when reading the file {path}: incorrect file content:\n"
                    f"java.lang.NullPointerException")
            argument = "--" + _java_trim(child.attrs["argument"])
            try:
                _set_formatting(formatting, argument, _java_trim(child.attrs["format"]))
            except MaltEvalUsageError as error:
                raise EvaluationFileError(Location(path, line), "bad-evaluation-file",
                                          error.message, error.malteval_message) from None
        else:
            raise fail(line, f'Incorrect element name. Found "{child.name}", expected element '
                             f'node: "parameter"')


# ----------------------------------------------------------------------------------------------
# the command line

def _set_formatting(formatting: Dict[str, object], argument: str, value: str) -> None:
    key = FORMATTING_FLAGS.get(argument)
    if key is None:
        raise _usage(f"Expected some other formatting argument. Found: {argument}")
    if key == "output":
        formatting[key] = value
    elif key == "pattern":
        try:
            java.decimal_format(0.5, value)
        except ValueError as exc:
            if "scientific" in str(exc):  # Java accepts it; our DecimalFormat does not
                raise MaltEvalUsageError(f"{argument}: {exc}", None, argument) from None
            raise _usage(str(exc), argument) from None
        formatting[key] = value
    elif value in ("0", "1"):
        formatting[key] = value == "1"
    else:
        raise _usage(f"Incorrect value ({value}) for argument {argument}", argument)


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

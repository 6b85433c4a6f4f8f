"""MaltEval's settings: the frozen Settings of one command line, and its evaluations checked the way MaltEval does.

:meth:`Settings.evaluations` combines the parameters' values into Evaluations (each
grouping and format parsed, with MaltEval's messages); :func:`validate_evaluations` checks them all.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field, replace
from typing import Dict, FrozenSet, List, Optional, Sequence, Tuple

from ..errors import Location
from . import java
from .grouping_facts import GroupingInfo
from .malteval_names import (_BOTH, _FEATURE_DEFAULTS, _NPE_ALL_WITHOUT_WORDFORM, _NPE_NO_METRIC, _NPE_SELF,
                             _WORDFORM, ACCURACY_COLUMNS, ALL, DEFAULT_PATTERN, EXCLUDE_PARAMETERS, FORMATTING_FLAGS,
                             METRIC_NAMES, PARAMETER_NAMES, PARSER_TREEBANK_COLUMNS,
                             PRECISION_RECALL_COLUMNS, SELF, SENTENCE_COLUMNS, EvaluationFileError,
                             MaltEvalUsageError, _grouping, _java_int, _java_list, _java_split,
                             _known_groupings, _tokens, _usage)

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
# formatting arguments (flags and -e file alike)

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



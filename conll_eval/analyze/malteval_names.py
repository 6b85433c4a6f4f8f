"""MaltEval's vocabulary: its metric and grouping names, parameters, flags, column sets and error types.

The facts every other MaltEval module checks against (as the 2014 jar loads them), the small
Java behaviours its messages depend on, and the list of deliberate differences.
"""
from __future__ import annotations

import re
from typing import Dict, Iterable, List, Optional, Tuple

from ..errors import InputError, Location, UsageError
from .grouping_facts import BUILTIN_GROUPINGS

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
    # here, as in _known_groupings: the registry loads numpy and the counting, which the
    # command line's help, completion and man pages read these names without (start-up time)
    from .groupings import PluginError, resolve
    try:
        return resolve(name)
    except PluginError as exc:
        raise MaltEvalUsageError(str(exc), None, "--GroupBy") from None


def _known_groupings() -> List[str]:
    from .groupings import names  # here: see _grouping
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
    "input text a terminal would act on (control characters, ESC sequences, bidi controls) is "
    "spelt out in the text output (\\x1b, \\u202e: errors.printable) and the columns sized on "
    "what is printed (MaltEval prints it raw); JSON escapes it",
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



"""The machinery the compat modules share: the official objects (UDError, UDSpan, UDWord,
UDRepresentation), loading files and streams into conll_eval's columnar Treebank, the
official ``treebank_type`` switches, scoring and the command-line wrapper.

Each compat module (conll18 in the package itself, conll17, iwpt20, udeval) binds these to
its official signatures, names and texts; nothing here is public API."""
from __future__ import annotations

import io
import os
import re
import sys
from dataclasses import dataclass
from functools import cached_property
from typing import Callable, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from .._interrupt import COMPAT_LINE, INTERRUPTED, end_start_up
from ..enhanced import ROOT as ENHANCED_ROOT, check_empty_nodes, enhanced_counts, enhanced_graph
from ..errors import AlignmentError, ConllEvalError, InputError, printable
from ..evaluate import Settings, evaluate as _evaluate
from ..io.byte_input import open_bytes, open_input
from ..io.formats import CONLLU
from ..io.lines import line_of
from ..io.profiles import CR_STAND_IN
from ..io.read import read_treebank
from ..metrics import (CONTENT_DEPRELS, FUNCTIONAL_DEPRELS, UNIVERSAL_FEATURES, EnhancedOptions)
from ..stats import Score
from ..treebank import Treebank, Vocab
from ._columns import DEPREL, DEPS, FEATS, FORM, HEAD, ID, LEMMA, MISC, UPOS, XPOS  # noqa: F401
from .custom import rescore


#: One vocabulary for every file loaded through compat, so any two of them can be compared.
VOCAB = Vocab()

#: error codes of files that cannot be opened or read (officially ``open()`` raises OSError)
_FILE_CODES = ("file-not-found", "not-a-file", "unreadable")

#: the official ``treebank_type`` keys of the enhancement switches -> ``--enhancements`` digit
TREEBANK_TYPE_DIGITS = (("no_gapping", "1"), ("no_shared_parents_in_coordination", "2"),
                        ("no_shared_dependents_in_coordination", "3"), ("no_control", "4"),
                        ("no_external_arguments_of_relative_clauses", "5"), ("no_case_info", "6"))

#: the relation sets as released (a client's additions to a module's sets are compared to these)
DEFAULT_SETS = (frozenset(CONTENT_DEPRELS), frozenset(FUNCTIONAL_DEPRELS), frozenset(UNIVERSAL_FEATURES))


class UDError(Exception):
    """The official scorers' error; ``str()`` is the official message text and ``error`` the
    conll_eval error (file, line, code) behind it, if any."""

    def __init__(self, message: str, error: Optional[ConllEvalError] = None):
        super().__init__(message)
        self.error = error


class UDSpan:
    """Characters ``start:end`` of :attr:`UDRepresentation.characters` (``end`` exclusive);
    ``line`` is the line it was read from (udeval's attribute; None for a sentence)."""

    __slots__ = ("start", "end", "line")

    def __init__(self, start: int, end: int, line: Optional[int] = None):
        self.start = start
        self.end = end
        self.line = line

    def __repr__(self) -> str:
        return f"UDSpan({self.start}, {self.end})"


class UDWord:
    """One word (empty nodes excluded), with the official attributes.

    ``span``: the UDSpan of its token (the very object in ``tokens``; for a word of a
    multi-word token the span of the whole token); ``columns``: the ten fields as strings,
    with FORM space-stripped for plain words (as written inside a multi-word token), FEATS
    reduced to the sorted universal features (raw in conll17), DEPREL without its subtype,
    ID and HEAD as numbers within the sentence (``"0"`` for the root), DEPS as written (in
    iwpt20 and udeval as they hold it: ``[(head UDWord or 0, [relation, ...]), ...]``, after
    the ``treebank_type`` switches); ``is_multiword``;
    ``parent`` (the head's UDWord, None for the root); ``functional_children`` (the words
    attached to it by a functional relation, in file order); ``is_content_deprel``,
    ``is_functional_deprel`` (with the module's sets as they were when the file was loaded).
    """

    __slots__ = ("span", "columns", "is_multiword", "parent", "functional_children",
                 "is_content_deprel", "is_functional_deprel")

    def __init__(self, span: UDSpan, columns: List[str], is_multiword: bool,
                 content=CONTENT_DEPRELS, functional=FUNCTIONAL_DEPRELS):
        self.span = span
        self.columns = columns
        self.is_multiword = is_multiword
        self.parent: Optional[UDWord] = None
        self.functional_children: List[UDWord] = []
        self.is_content_deprel = columns[DEPREL] in content
        self.is_functional_deprel = columns[DEPREL] in functional

    def __repr__(self) -> str:
        return f"UDWord({self.columns[ID]} {self.columns[FORM]!r}, span={self.span!r})"


@dataclass(frozen=True)
class Options:
    """What a ``treebank_type`` dict switches, as the IWPT scorer and udeval read it (each key
    by truth value, missing keys off)."""

    enhancements: str = "0"
    no_empty_nodes: bool = False
    multiple_roots_okay: bool = False

    @classmethod
    def of(cls, treebank_type: Optional[Mapping]) -> "Options":
        if not treebank_type:
            return cls()
        digits = "".join(digit for key, digit in TREEBANK_TYPE_DIGITS if treebank_type.get(key, False))
        return cls(digits or "0", bool(treebank_type.get("no_empty_nodes", False)),
                   bool(treebank_type.get("multiple_roots_okay", False)))


class UDRepresentation:
    """A loaded file: the columnar :class:`~conll_eval.treebank.Treebank` (``.treebank``),
    ``path`` (udeval's attribute) and, built on first access, the official attributes
    ``characters`` (one-character strings, spaces removed from FORMs as the profile says),
    ``tokens`` (UDSpans), ``words`` (UDWords) and ``sentences`` (UDSpans)."""

    def __init__(self, treebank: Treebank, profile: str, path: str = "",
                 sets: Tuple[frozenset, frozenset, frozenset] = DEFAULT_SETS,
                 options: Options = Options(), graph=None, restore: Optional[dict] = None):
        self.treebank = treebank
        self.profile = profile
        self.path = path
        #: CONTENT_DEPRELS, FUNCTIONAL_DEPRELS, UNIVERSAL_FEATURES of the module at load time
        self.sets = sets
        self.options = options
        #: the enhanced graph (iwpt20, udeval), built at load time as the scripts process DEPS
        self.graph = graph
        #: str.translate table giving back the lone surrogates a text stream held (or None)
        self.restore = restore

    def _text(self, text: str) -> str:
        return text.translate(self.restore) if self.restore else text

    @cached_property
    def characters(self) -> List[str]:
        return list(self._text(self.treebank.text))

    @cached_property
    def tokens(self) -> List[UDSpan]:
        tb = self.treebank
        return [UDSpan(a, b, line) for a, b, line in
                zip(tb.tok_start.tolist(), tb.tok_end.tolist(), tb.tok_line.tolist())]

    @cached_property
    def sentences(self) -> List[UDSpan]:
        tb = self.treebank
        return [UDSpan(a, b, line) for a, b, line in zip(tb.sent_char_start.tolist(),
                                                        tb.sent_char_end.tolist(),
                                                        tb.sent_first_line.tolist())]

    @cached_property
    def words(self) -> List[UDWord]:
        return build_words(self)

    def __len__(self) -> int:
        return self.treebank.n_words

    def __repr__(self) -> str:
        tb = self.treebank
        return (f"<UDRepresentation {tb.path!r}: {tb.n_sentences} sentences, {tb.n_tokens} tokens, "
                f"{tb.n_words} words>")


def _mapped(strings: Sequence[str], function: Callable[[str], str]) -> List[str]:
    """``function`` applied to each string, once per distinct value."""
    cache: Dict[str, str] = {}
    out = []
    for string in strings:
        value = cache.get(string)
        if value is None:
            value = cache[string] = function(string)
        out.append(value)
    return out


def build_words(ud: UDRepresentation) -> List[UDWord]:
    """The UDWord objects of a representation, with parents and functional children linked."""
    tb = ud.treebank
    n = tb.n_words
    if n == 0:
        return []
    content, functional, universal = ud.sets
    index = np.arange(n, dtype=np.int64)
    first = tb.sent_word_start[tb.word_sent].astype(np.int64)  # first word of each word's sentence
    head = tb.head.astype(np.int64)
    ids = [str(i) for i in (index - first + 1).tolist()]
    heads = [str(h) for h in np.where(head >= 0, head - first + 1, 0).tolist()]
    feats = tb.strings("feats")
    if ud.profile != "conll17":
        feats = _mapped(feats, lambda f: "|".join(sorted(
            x for x in f.split("|") if x.partition("=")[0] in universal)))
    forms = tb.word_forms(index)
    if ud.restore:
        forms = [form.translate(ud.restore) for form in forms]
    fields = zip(ids, forms, tb.strings("lemma"), tb.strings("upos"), tb.strings("xpos"), feats,
                 heads, _mapped(tb.strings("deprel"), lambda d: d.partition(":")[0]),
                 tb.strings("deps"), tb.strings("misc"))
    tokens = ud.tokens
    words = [UDWord(tokens[token], list(columns), multiword, content, functional)
             for token, multiword, columns in zip(tb.word_tok.tolist(), tb.word_is_mwt.tolist(), fields)]
    for word, h in zip(words, head.tolist()):
        if h >= 0:
            word.parent = words[h]
    for word in words:
        if word.parent is not None and word.is_functional_deprel:
            word.parent.functional_children.append(word)
    if ud.graph is not None:
        _link_enhanced(words, ud.graph, tb.vocab.strings)
    return words


def _link_enhanced(words: List[UDWord], graph, strings: List[str]) -> None:
    """DEPS as the IWPT scorer and udeval hold it after reading: ``[(head, path), ...]`` with
    the head's UDWord (0 for the root, None for a root word's own edge put back by a switch)
    and the relation path split at ``>``, after the ``treebank_type`` switches."""
    for word in words:
        word.columns[DEPS] = []  # type: ignore[call-overload]  # officially a list, not a str
    for w, h, label in zip(graph.word.tolist(), graph.head.tolist(), graph.label.tolist()):
        head = words[h] if h >= 0 else (0 if h == ENHANCED_ROOT else None)
        words[w].columns[DEPS].append((head, strings[label].split(">")))


# ---------------------------------------------------------------------------------- loading
def official_text(error: ConllEvalError) -> str:
    text = getattr(error, "official", None)
    return text if text else getattr(error, "message", str(error))


def _os_error(error: InputError) -> OSError:
    """The OSError ``open()`` raised for a file conll_eval could not read."""
    cause = error.__cause__
    if isinstance(cause, OSError) and cause.errno is not None:
        return OSError(cause.errno, cause.strerror, cause.filename)  # the errno's subclass
    return OSError(str(error))


#: lone surrogates (a text stream may hold them; UTF-8 cannot) and carriage returns inside a
#: line (a stream that splits lines at "\n" only keeps them there) stand in the Treebank as
#: characters of a private-use block, one for one, and are given back in objects and messages
_SURROGATE = re.compile("[\ud800-\udfff\r]")
_STAND_IN = 0xF0000
_CR_STAND_IN = ord(CR_STAND_IN)
_STAND_INS = re.compile(f"[{chr(_STAND_IN)}-{chr(_CR_STAND_IN)}]")


def _stand_in_of(char: str) -> str:
    return chr(_CR_STAND_IN) if char == "\r" else chr(ord(char) - 0xD800 + _STAND_IN)


def _stand_in(text: str) -> Tuple[str, Optional[dict]]:
    """``text`` with its lone surrogates and carriage returns replaced by stand-ins, and the
    table giving them back (None when there are none, or when the text already holds a
    stand-in character: then they stay, and the reader takes a carriage return as a line end
    and reports a surrogate as not UTF-8)."""
    found = set(_SURROGATE.findall(text))
    if not found or _STAND_INS.search(text):
        return text, None
    table = {ord(_stand_in_of(c)): ord(c) for c in found}
    return _SURROGATE.sub(lambda m: _stand_in_of(m.group()), text), table


def _read_all(file) -> Union[str, bytes]:
    """Everything a file object gives: ``read()``, or ``readline()`` until it gives nothing
    (the official scripts only call ``readline``)."""
    read = getattr(file, "read", None)
    start = _tell(file)
    if callable(read):
        data = read()
        if not (isinstance(data, str) and "\r" in data):
            return data
        if start is None:  # cannot read again: lines end at "\n" (io.StringIO's default)
            return _official_lines(io.StringIO(data).readline)
        file.seek(start)
    return _official_lines(file.readline)


def _tell(file) -> Optional[int]:
    try:
        return file.tell() if file.seekable() else None
    except (AttributeError, OSError, ValueError):
        return None


def _official_lines(readline) -> Union[str, bytes]:
    """The lines ``readline`` gives, each without its trailing CR/LF characters as the scripts
    strip them (``rstrip("\r\n")``), joined by "\n": a carriage return the stream keeps
    inside a line stays there."""
    lines = []
    for line in iter(readline, None):
        if not line:
            break
        lines.append(line)
    if lines and isinstance(lines[0], bytes):
        return b"".join(lines)
    return "".join(line.rstrip("\r\n") + "\n" for line in lines)


def load_stream(file, profile: str, treebank_type: Optional[Mapping] = None, path: str = "",
                sets=DEFAULT_SETS) -> UDRepresentation:
    """Load from an open file object (text or binary, or anything with ``readline``)."""
    data = _read_all(file)
    restore = None
    if isinstance(data, str):
        text, restore = _stand_in(data)
        data = text.encode("utf-8", "surrogatepass")
    name = getattr(file, "name", None)
    name = name if isinstance(name, str) else (path or "<stream>")
    return _load_source(io.BytesIO(data), name, profile, treebank_type, path, sets, restore, data)


def load_path(path: str, profile: str, treebank_type: Optional[Mapping] = None,
              sets=DEFAULT_SETS) -> UDRepresentation:
    """Load a file by path; a file that cannot be opened raises the OSError ``open()`` raises."""
    return _load_source(path, path, profile, treebank_type, path, sets, None, None)


def _load_source(source, name: str, profile: str, treebank_type, path: str, sets, restore,
                 data: Optional[bytes]) -> UDRepresentation:
    options = Options.of(treebank_type)
    if isinstance(source, io.BytesIO):
        source.name = name
    try:
        treebank = read_treebank(source, CONLLU, profile=profile, vocab=VOCAB,
                                 multiple_roots=options.multiple_roots_okay)
        graph = _enhanced_at_load(treebank, profile, options, data)
    except InputError as exc:
        if exc.code in _FILE_CODES and data is None:
            raise _os_error(exc) from exc  # officially open() raises
        message = official_text(exc)
        raise UDError(message.translate(restore) if restore else message, exc) from exc
    return UDRepresentation(treebank, profile, path, sets, options, graph, restore)


def _enhanced_at_load(treebank: Treebank, profile: str, options: Options, data: Optional[bytes]):
    """The checks the IWPT scorer and udeval make while reading (DEPS, --no-empty-nodes) and
    the enhanced graph they build; of two errors the one on the earlier line."""
    if profile not in ("iwpt", "udeval"):
        if options.no_empty_nodes:
            check_empty_nodes(treebank, lambda line: _line_text(treebank.path, data, line))
        return None
    errors = []
    graph = None
    try:
        graph = enhanced_graph(treebank, EnhancedOptions(options.enhancements, options.no_empty_nodes))
    except InputError as exc:
        errors.append(exc)
    if options.no_empty_nodes:
        try:
            check_empty_nodes(treebank, lambda line: _line_text(treebank.path, data, line))
        except InputError as exc:
            errors.append(exc)
    if errors:
        raise min(errors, key=lambda e: e.location.line or 0)
    return graph


def _line_text(path: str, data: Optional[bytes], line: int) -> str:
    """Line ``line`` of the file, or of ``data`` (its bytes) when given (for an error message
    only), read (decompressed) only up to that line, in bounded chunks."""
    try:
        stream = open_bytes(data, path) if data is not None else open_input(path)[0]
        with stream:
            return line_of(stream.read, path, line)
    except (ConllEvalError, OSError, IndexError):
        return ""


# ---------------------------------------------------------------------------------- scoring
def _restored(message: str, *uds: UDRepresentation) -> str:
    for ud in uds:
        if ud.restore:
            message = message.translate(ud.restore)
    return message


def score(gold_ud: UDRepresentation, system_ud: UDRepresentation, order: Sequence[str],
          weights: Optional[Mapping[str, float]] = None,
          mismatch: Optional[Callable] = None) -> Dict[str, Score]:
    """Metric name -> Score for the metrics in ``order`` (plus WeightedLAS with ``weights``),
    in that order.  ``mismatch(gold_ud, system_ud, error)`` gives the text of a
    text-mismatch UDError (default: the profile's official one)."""
    for ud in (gold_ud, system_ud):
        if not isinstance(ud, UDRepresentation):
            raise TypeError(f"expected a representation loaded by conll_eval.compat, got {type(ud).__name__}")
    profile = gold_ud.profile
    try:
        result = _evaluate(gold_ud.treebank, system_ud.treebank, Settings(profile, enhanced=False),
                           weights=weights)
    except AlignmentError as exc:
        text = mismatch(gold_ud, system_ud, exc) if mismatch else official_text(exc)
        raise UDError(_restored(text, gold_ud, system_ud), exc) from exc
    scores = dict(result.scores)
    if "ELAS" in order:
        gold, system = gold_ud.treebank, system_ud.treebank
        sys_word_sent = gold.sentence_of_chars(system.word_start)
        for name, universal in (("ELAS", False), ("EULAS", True)):
            scores[name] = enhanced_counts(universal, gold, system, gold_ud.graph, system_ud.graph,
                                           result.alignment.sys_to_gold, sys_word_sent,
                                           "official").score()
    if gold_ud.sets != DEFAULT_SETS or system_ud.sets != DEFAULT_SETS:
        # only for a client's own relation sets: per-word objects
        scores.update(rescore(gold_ud, system_ud, result.alignment, [m for m in order if m in scores]))
    names = list(order) + (["WeightedLAS"] if weights is not None else [])
    return {name: scores[name] for name in names}


#: each profile's evaluation dict, in the official order (ELAS and EULAS follow LAS in both
#: enhanced scripts)
_C18 = ("Tokens", "Sentences", "Words", "UPOS", "XPOS", "UFeats", "AllTags", "Lemmas", "UAS",
        "LAS", "CLAS", "MLAS", "BLEX")
ORDERS = {"conll17": ("Tokens", "Sentences", "Words", "UPOS", "XPOS", "Feats", "AllTags", "Lemmas",
                      "UAS", "LAS", "CLAS"),
          "conll18": _C18,
          "iwpt": _C18[:10] + ("ELAS", "EULAS") + _C18[10:],
          "udeval": _C18[:10] + ("ELAS", "EULAS") + _C18[10:]}


def mismatch_udeval(gold_ud: UDRepresentation, system_ud: UDRepresentation, error) -> str:
    """udeval's text-mismatch message: per file the last token whose characters the other
    file reproduces (number, line), the 10 tokens before and after it; or that the files
    differ right at the start."""
    gold, system = gold_ud.treebank, system_ud.treebank
    g_text, s_text = gold_ud._text(gold.text), system_ud._text(system.text)
    index = _common_prefix(g_text, s_text)
    report = [_token_report(ud, index) for ud in (gold_ud, system_ud)]
    if not report[0]:
        report[0] = "The error occurs right at the beginning of the two files.\n"
    return ("The concatenation of tokens in gold file and in system file differ!\n" + "".join(report) +
            f"First 20 differing characters in gold file: '{g_text[index:index + 20]}' and "
            f"system file: '{s_text[index:index + 20]}'")


def _common_prefix(a: str, b: str) -> int:
    """Length of the common prefix of ``a`` and ``b`` (halving, on whole slices)."""
    low, high = 0, min(len(a), len(b))
    while low < high:
        middle = (low + high + 1) // 2
        if a[low:middle] == b[low:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def _token_report(ud: UDRepresentation, index: int) -> str:
    """udeval's lines about one file: '' when its first token already differs."""
    tb = ud.treebank
    ends = tb.tok_end
    k = int(np.searchsorted(ends, index, side="right"))  # tokens ending at or before index
    if k == 0:
        return ""
    text = ud._text(tb.text)
    starts = tb.tok_start.tolist()
    stops = ends.tolist()
    n_prev = min(10, k)
    n_next = min(10, len(stops) - k)
    before = " ".join(text[starts[t]:stops[t]] for t in range(k - n_prev, k))
    after = " ".join(text[starts[t]:stops[t]] for t in range(k, k + n_next))
    return (f"File '{ud.path}':\n"
            f"  Token no. {k} on line no. {int(tb.tok_line[k - 1])} is the last one with all "
            "characters reproduced in the other file.\n"
            f"  The previous {n_prev} tokens are '{before}'.\n"
            f"  The next {n_next} tokens are '{after}'.\n")


def module_sets(namespace: Mapping) -> Tuple[frozenset, frozenset, frozenset]:
    """A module's CONTENT_DEPRELS, FUNCTIONAL_DEPRELS, UNIVERSAL_FEATURES as they are now (the
    official scripts read them while loading a file)."""
    return (frozenset(namespace["CONTENT_DEPRELS"]), frozenset(namespace["FUNCTIONAL_DEPRELS"]),
            frozenset(namespace["UNIVERSAL_FEATURES"]))


# ---------------------------------------------------------------------------------- command line
def command_line(main: Callable[[Optional[Sequence[str]]], object],
                 argv: Optional[Sequence[str]] = None) -> int:
    """``python -m conll_eval.compat[.module]``: ``main``, and the exit status; an error's
    traceback is left out (``--debug`` keeps it) but its last line, the one the official
    script's traceback ends with (``UDError: ...``), is printed on stderr with the official
    status 1.  A reader that left (``| head``) ends the output quietly (status 0).  A Ctrl-C
    prints that last line too (``KeyboardInterrupt``), status 130."""
    argv = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in argv
    try:
        end_start_up()  # from here a Ctrl-C is a KeyboardInterrupt, reported below
        main([a for a in argv if a != "--debug"])
        sys.stdout.flush()
    except KeyboardInterrupt:
        sys.stderr.write(COMPAT_LINE)
        return INTERRUPTED
    except BrokenPipeError:
        # the rest goes nowhere: Python's own flush at exit would fail again
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except (UDError, OSError, ValueError) as exc:
        if debug:
            raise
        # the official text, with what a terminal would act on spelt out (\x1b, ...)
        sys.stderr.write(printable(f"{type(exc).__name__}: {exc}", keep_newlines=True) + "\n")
        return 1
    return 0


def invoked_prog() -> Optional[str]:
    """The name a stand-in's usage and errors give it: ``python -m conll_eval.compat[.module]``
    when run so (argparse would say ``__main__.py``, ``conll17.py``), else None: argparse's
    own choice, the program's name (``conll18_ud_eval``, or the script of a program calling
    ``main()``), as the official scripts get."""
    spec = getattr(sys.modules.get("__main__"), "__spec__", None)
    module = getattr(spec, "name", "") or ""
    if not module.startswith("conll_eval.compat"):
        return None
    return "python -m " + module.removesuffix(".__main__")


def argv_or_sys(argv: Optional[Iterable[str]]) -> Optional[List[str]]:
    """``argv`` as a list (None: argparse reads ``sys.argv``, as the official ``main()``)."""
    return None if argv is None else list(argv)

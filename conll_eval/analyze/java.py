"""The Java library behaviours MaltEval's text output depends on, as pure Python functions.

MaltEval prints numbers with ``java.text.DecimalFormat``, orders evaluations, columns, header
lines and complex-grouping parts by ``java.util.HashMap``/``Hashtable`` iteration, sorts row
keys with ``String.compareTo`` and decides punctuation with ``Character.getType``.  Each
function here reproduces one of these for the inputs MaltEval meets, as OpenJDK 17 (the JDK
the reference outputs in ``shared/malteval`` were made with) behaves:

>>> decimal_format(1476.1176470588234, "#,##0.###")
'1,476.118'
>>> decimal_format(0.78, "0.00%")
'78.00%'
>>> hashmap_order(["LAS", "UAS", "LA"])
['LA', 'UAS', 'LAS']
>>> hashtable_order(["Metric", "GroupBy", "ExcludeDeprels"])
['ExcludeDeprels', 'Metric', 'GroupBy']
>>> sorted(["\\U0001F600", "\\uFB01"], key=java_compare_key)  # UTF-16: surrogates < U+FB01
['😀', 'ﬁ']
>>> is_java_punctuation("«"), is_java_punctuation("$"), is_java_punctuation("")
(True, False, True)
"""
from __future__ import annotations

import decimal
import math
import sys
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Iterable, List, Optional, Sequence, Tuple, Union

__all__ = [
    "decimal_format", "java_string_hash", "java_hash", "hashmap_order", "hashset_order",
    "hashtable_order", "java_compare_key", "is_java_punctuation", "punctuation_flags",
]

# ----------------------------------------------------------------------------------------------
# java.text.DecimalFormat (Locale.US symbols, RoundingMode.HALF_EVEN)

#: DecimalFormat's caps for formatting a double (DOUBLE_INTEGER_DIGITS, DOUBLE_FRACTION_DIGITS)
_MAX_INT_DIGITS = 309
_MAX_FRACTION_DIGITS = 340
#: the Locale.US DecimalFormatSymbols of OpenJDK 17 (CLDR): NaN, infinity, currency
_NAN = "NaN"
_INFINITY = "\u221e"
_CURRENCY = "$"
_INTERNATIONAL_CURRENCY = "USD"
_PERCENT, _PER_MILLE, _CURRENCY_SIGN, _QUOTE = "%", "\u2030", "\u00a4", "'"
_NUMBER_CHARS = "#0,."


@dataclass(frozen=True)
class _Pattern:
    """A DecimalFormat pattern after ``applyPattern``: affixes expanded, digit counts clamped."""

    positive_prefix: str
    positive_suffix: str
    negative_prefix: str
    negative_suffix: str
    min_int: int
    min_frac: int
    max_frac: int
    grouping_size: int  # 0: no grouping separator
    multiplier: int
    decimal_always_shown: bool
    fast_path: bool = False  # Java's fast path (exact HALF_EVEN) applies for |value| <= 2**31-1


def _expand_affix(affix_pattern: str) -> str:
    """Java's expandAffix: ``'`` before a special character marks the localized symbol."""
    out: List[str] = []
    i = 0
    while i < len(affix_pattern):
        ch = affix_pattern[i]
        i += 1
        if ch == _QUOTE and i < len(affix_pattern):
            ch = affix_pattern[i]
            i += 1
            if ch == _CURRENCY_SIGN:
                if i < len(affix_pattern) and affix_pattern[i] == _CURRENCY_SIGN:
                    i += 1
                    out.append(_INTERNATIONAL_CURRENCY)
                else:
                    out.append(_CURRENCY)
                continue
            # '%', per mille, '-' and a doubled quote all expand to themselves in Locale.US
        out.append(ch)
    return "".join(out)


@lru_cache(maxsize=64)
def _parse_pattern(pattern: str) -> _Pattern:
    """``DecimalFormat.applyPattern`` on ``NumberFormat.getNumberInstance(Locale.US)``.

    Raises ValueError with Java's IllegalArgumentException message for what Java rejects, and
    for scientific notation (``E``), which MaltEval's tables never need.
    """
    if pattern == "":
        # Java resets only the digit counts and affixes; grouping stays as the number
        # instance had it (size 3, used)
        return _Pattern("", "", "-", "", 0, 0, _MAX_FRACTION_DIGITS, 3, 1, False)
    got_negative = False
    positive: Optional[Tuple[str, str]] = None
    negative: Tuple[str, str] = ("", "")
    settings = None
    start = 0
    for part in (1, 0):  # 1: the positive subpattern, 0: the optional negative subpattern
        if start >= len(pattern):
            break
        in_quote = False
        affixes = ([], [])  # prefix, suffix (pattern form)
        affix = affixes[0]
        decimal_pos = -1
        multiplier = 1
        left = zeros = right = 0  # '#' before the zeros, '0's, '#' after the zeros
        grouping = -1
        phase = 0
        pos = start
        while pos < len(pattern):
            ch = pattern[pos]
            if phase != 1:
                if ch == _QUOTE:  # '' is a quote; a single one opens or closes quoted text
                    if pos + 1 < len(pattern) and pattern[pos + 1] == _QUOTE:
                        pos += 1
                        affix.append("''")
                    else:
                        in_quote = not in_quote
                    pos += 1
                    continue
                if not in_quote:
                    if ch in _NUMBER_CHARS:
                        phase = 1
                        continue  # re-read this character in phase 1
                    if ch == _CURRENCY_SIGN:
                        doubled = pos + 1 < len(pattern) and pattern[pos + 1] == _CURRENCY_SIGN
                        pos += 2 if doubled else 1
                        affix.append("'" + _CURRENCY_SIGN * (2 if doubled else 1))
                        continue
                    if ch == ";":
                        if phase == 0 or part == 0:
                            raise ValueError(f"Unquoted special character ';' in pattern \"{pattern}\"")
                        start = pos + 1
                        break
                    if ch in (_PERCENT, _PER_MILLE):
                        if multiplier != 1:
                            raise ValueError(
                                f"Too many percent/per mille characters in pattern \"{pattern}\"")
                        multiplier = 100 if ch == _PERCENT else 1000
                        affix.append("'" + ch)
                        pos += 1
                        continue
                    if ch == "-":
                        affix.append("'-")
                        pos += 1
                        continue
                affix.append(ch)
                pos += 1
                continue
            # phase 1: the number
            if part == 0:
                # the negative subpattern only gives affixes: its number characters are skipped
                while pos < len(pattern) and (pattern[pos] in _NUMBER_CHARS or pattern[pos] == "E"):
                    pos += 1
                phase, affix = 2, affixes[1]
                continue
            if ch == "#":
                if zeros > 0:
                    right += 1
                else:
                    left += 1
                if grouping >= 0 and decimal_pos < 0:
                    grouping += 1
            elif ch == "0":
                if right > 0:
                    raise ValueError(f"Unexpected '0' in pattern \"{pattern}\"")
                zeros += 1
                if grouping >= 0 and decimal_pos < 0:
                    grouping += 1
            elif ch == ",":
                grouping = 0
            elif ch == ".":
                if decimal_pos >= 0:
                    raise ValueError(f"Multiple decimal separators in pattern \"{pattern}\"")
                decimal_pos = left + zeros + right
            elif ch == "E":
                raise ValueError(f"scientific notation is not supported: pattern \"{pattern}\"")
            else:
                phase, affix = 2, affixes[1]
                continue
            pos += 1
        else:
            start = len(pattern)
        if zeros == 0 and left > 0 and decimal_pos >= 0:
            # "#.##" is read as "0.##" and ".##" as ".0#" (Java's rule for patterns without '0')
            n = decimal_pos if decimal_pos else 1
            right = left - n
            left = n - 1
            zeros = 1
        if ((decimal_pos < 0 and right > 0)
                or (decimal_pos >= 0 and not left <= decimal_pos <= left + zeros)
                or grouping == 0 or in_quote):
            raise ValueError(f"Malformed pattern \"{pattern}\"")
        prefix, suffix = "".join(affixes[0]), "".join(affixes[1])
        if part == 1:
            positive = (prefix, suffix)
            total = left + zeros + right
            min_int = (decimal_pos if decimal_pos >= 0 else total) - left
            max_frac = total - decimal_pos if decimal_pos >= 0 else 0
            min_frac = left + zeros - decimal_pos if decimal_pos >= 0 else 0
            settings = (min_int, min_frac, max_frac, grouping if grouping > 0 else 0, multiplier,
                        decimal_pos == 0 or decimal_pos == total)
        else:
            negative = (prefix, suffix)
            got_negative = True
    assert positive is not None and settings is not None
    if not got_negative or negative == positive:
        negative = ("'-" + positive[0], positive[1])
    min_int, min_frac, max_frac, grouping_size, multiplier, always = settings
    min_int = min(min_int, _MAX_INT_DIGITS)
    max_frac = min(max_frac, _MAX_FRACTION_DIGITS)
    min_frac = min(min_frac, max_frac)
    currency = any(_CURRENCY_SIGN in affix for affix in positive + negative)
    # DecimalFormat.checkAndSetFastPathStatus: the patterns of getNumberInstance and
    # getCurrencyInstance (grouping 3, one minimum integer digit, 0-3 or 2-2 decimals)
    fast = (grouping_size == 3 and multiplier == 1 and not always and min_int == 1
            and (min_frac, max_frac) == ((2, 2) if currency else (0, 3)))
    return _Pattern(_expand_affix(positive[0]), _expand_affix(positive[1]),
                    _expand_affix(negative[0]), _expand_affix(negative[1]),
                    min_int, min_frac, max_frac, grouping_size, multiplier, always, fast)


_EXACT = decimal.Context(prec=1200, rounding=decimal.ROUND_HALF_EVEN, Emax=999999, Emin=-999999)
_MAX_INT_AS_DOUBLE = 2147483647.0  # DecimalFormat's fast path takes |value| up to Integer.MAX_VALUE


def _to_string_digits(magnitude: float) -> decimal.Decimal:
    """The decimal value of OpenJDK 17's ``Double.toString(magnitude)`` (finite, >= 0).

    That is the shortest round-trip decimal (Python's ``repr``), except for integers in
    [2**53, 2**63), where Java 17 prints the exact integer after rounding away (half up)
    ``floor(log10(2**(e - 54)))`` low digits, e being the binary exponent
    (``1.1617099008090987E17`` prints as ``1.16170990080909872E17``).  Above 2**63 and for
    subnormals Java 17 occasionally prints one digit more than the shortest (JDK-4511638,
    fixed in JDK 19); that is not reproduced.
    """
    if 2.0 ** 53 <= magnitude < 2.0 ** 63:
        value = int(magnitude)
        exponent = value.bit_length() - 1
        insignificant = len(str(2 ** (exponent - 54))) - 1 if exponent - 54 > 1 else 0
        if insignificant:
            scale = 10 ** insignificant
            value, residue = divmod(value, scale)
            value += residue >= scale // 2
            return decimal.Decimal(value).scaleb(insignificant)
        return decimal.Decimal(value)
    return decimal.Decimal(repr(magnitude))


def _digits(magnitude: float, max_frac: int, fast_path: bool) -> Tuple[str, str]:
    """Integer and fraction digits Java's DigitList holds for a finite ``magnitude`` >= 0.

    Java starts from the ``Double.toString`` digits and rounds them to ``max_frac`` decimals
    with HALF_EVEN, deciding ties by the exact binary value; that equals HALF_EVEN rounding
    of the exact value.  When the ``toString`` digits already fit, they are printed as they
    are (``0.1`` with 20 decimals prints ``0.1000…``, not the binary tail).  One JDK 17 quirk
    off the fast path: a value printed ``5.0E-n`` (a lone digit 5, below 0.001) rounded to
    n - 1 decimals goes down, whatever its binary value (``5e-4`` with ``0.000`` prints
    ``0.000``; the trailing ``0`` of ``5.0`` makes it look like an exact tie to DigitList).
    Returns (integer digits without leading zeros, fraction digits without trailing zeros).
    """
    shown = _to_string_digits(magnitude)
    sign, digits, exponent = shown.normalize().as_tuple()
    if exponent >= -max_frac:
        value = shown
    elif (not fast_path and digits == (5,) and exponent == -(max_frac + 1)
          and magnitude < 1e-3):
        return "", ""
    else:
        value = decimal.Decimal(magnitude).quantize(decimal.Decimal(1).scaleb(-max_frac),
                                                    context=_EXACT)
    text = format(value, "f")
    integer, _, fraction = text.partition(".")
    return integer.lstrip("0"), fraction.rstrip("0")


def decimal_format(value: float, pattern: str = "#,##0.###") -> str:
    """``value`` as ``java.text.DecimalFormat`` prints it with ``pattern`` in Locale.US.

    The format object is MaltEval's: ``NumberFormat.getNumberInstance(Locale.US)`` (pattern
    ``#,##0.###``) with ``applyPattern(pattern)``; rounding is HALF_EVEN on the exact binary
    value of the double (``2.675`` is 2.67499999…, so ``0.00`` gives ``2.67``; ``0.125`` gives
    ``0.12``).  Supported: prefix and suffix (quotes, ``%`` multiplies by 100, ``\\u2030`` per
    mille by 1000, ``\\u00a4`` currency ``$``), minimum/maximum integer and fraction digits,
    grouping (size = digits after the last ``,``), an explicit negative subpattern after ``;``.

    - ``#,##0.###``: ``1,476.118``, ``0.27``, ``1``, ``0``; ``0.0000``: ``0.7942``;
      ``0.00%``: ``71.92%`` (the double is multiplied first, in binary, then rounded).
    - ``#.#####`` prints a leading zero (``0.76665``): Java reads a pattern without any ``0``
      as if its last integer ``#`` were ``0``.  ``.##`` has no leading zero and one minimum
      decimal (``.5``, ``1.0``).  Zero itself always prints at least one digit (``#`` -> ``0``).
    - Negative values get ``-`` before the prefix (``-2.917``), also when they round to zero
      (``-0.0001`` -> ``-0``; ``-0.0`` -> ``-0``).
    - NaN returns ``NaN`` (no prefix or suffix) and infinities ``∞``/``-∞`` with the affixes
      (``∞%``); MaltEval's callers print ``-`` for NaN themselves.
    - Beyond 17 significant digits the shortest round-trip digits are padded with zeros, as
      Java does (``1e20`` -> ``100,000,000,000,000,000,000``); OpenJDK 17's ``Double.toString``
      occasionally gives one digit more than the shortest, which this does not copy.

    Raises ValueError (Java's IllegalArgumentException message) for a malformed pattern and
    for scientific notation (``0.###E0``), which is not implemented.
    """
    spec = _parse_pattern(pattern)
    if math.isnan(value):
        return _NAN
    negative = value < 0 or (value == 0 and math.copysign(1.0, value) < 0)
    if spec.multiplier != 1:
        value = value * spec.multiplier  # in binary, as Java does
    prefix, suffix = ((spec.negative_prefix, spec.negative_suffix) if negative
                      else (spec.positive_prefix, spec.positive_suffix))
    if math.isinf(value):
        return prefix + _INFINITY + suffix
    magnitude = abs(value)
    integer, fraction = _digits(magnitude, spec.max_frac,
                                spec.fast_path and magnitude <= _MAX_INT_AS_DOUBLE)
    integer = integer.rjust(spec.min_int, "0")
    if spec.grouping_size and len(integer) > spec.grouping_size:
        size = spec.grouping_size
        head = len(integer) % size or size
        integer = ",".join([integer[:head]] + [integer[i:i + size]
                                               for i in range(head, len(integer), size)])
    fraction = fraction.ljust(spec.min_frac, "0")
    if not fraction and not integer:
        integer = "0"  # Java prints one zero rather than no digit at all
    if fraction or spec.decimal_always_shown:
        return f"{prefix}{integer}.{fraction}{suffix}"
    return f"{prefix}{integer}{suffix}"


# ----------------------------------------------------------------------------------------------
# hashCode, java.util.HashMap / HashSet / Hashtable iteration order

JavaKey = Union[str, int]


def _utf16_units(s: str) -> Sequence[int]:
    """The UTF-16 code units of ``s`` (what Java's ``charAt`` sees)."""
    data = s.encode("utf-16-be" if sys.byteorder == "big" else "utf-16-le", "surrogatepass")
    return memoryview(data).cast("H") if data else ()


def _int32(h: int) -> int:
    h &= 0xFFFFFFFF
    return h - (1 << 32) if h & 0x80000000 else h


def java_string_hash(s: str) -> int:
    """``String.hashCode()``: sum of ``c * 31**(n-1-i)`` over the UTF-16 code units, as int32.

    Astral characters count as their two surrogates; lone surrogates (``surrogateescape``)
    count as themselves.

    >>> java_string_hash("LAS"), java_string_hash(""), java_string_hash("polygenelubricants")
    (75134, 0, -2147483648)
    """
    h = 0
    for unit in _utf16_units(s):
        h = (31 * h + unit) & 0xFFFFFFFF
    return _int32(h)


def java_hash(key: JavaKey) -> int:
    """``hashCode()`` of a String (str), Boolean (bool: 1231/1237) or Integer (int in int32)."""
    if isinstance(key, str):
        return java_string_hash(key)
    if isinstance(key, bool):
        return 1231 if key else 1237
    if isinstance(key, int):
        if not -(1 << 31) <= key < (1 << 31):
            raise ValueError(f"{key} does not fit a java.lang.Integer")
        return key
    raise TypeError(f"no Java hashCode for {type(key).__name__}")


def _table_size_for(capacity: int) -> int:
    """HashMap.tableSizeFor: the smallest power of two >= capacity (at least 1)."""
    size = 1
    while size < capacity:
        size <<= 1
    return size


_TREEIFY_THRESHOLD = 8
_MIN_TREEIFY_CAPACITY = 64


def hashmap_order(keys: Iterable[JavaKey], initial_capacity: Optional[int] = None,
                  hash_of: Optional[Callable[[JavaKey], int]] = None) -> list:
    """Iteration order of a ``java.util.HashMap`` after ``put`` of ``keys`` in that order.

    ``new HashMap<>()`` (or ``new HashMap<>(initial_capacity)``), load factor 0.75: the bucket
    is ``(h ^ (h >>> 16)) & (n - 1)`` with ``h = hashCode()``, new keys go to the end of their
    bucket, a repeated key keeps its place, the table doubles when the size exceeds 3/4 of it
    (each bucket splits into the low and high halves, order kept), and a bucket reaching 9
    entries doubles a table smaller than 64.  Iteration goes bucket by bucket from index 0.
    Keys are str (String), int (Integer) or bool (Boolean), or any hashable key when
    ``hash_of`` gives its Java ``hashCode()`` (e.g. MaltEval's ``Pair``).  A bucket of 9
    or more keys in a
    table of 64 or more becomes a red-black tree in Java, whose order is not reproduced:
    NotImplementedError.

    >>> hashmap_order(["GroupBy", "Metric", "MinSentenceLength", "MaxSentenceLength",
    ...                "ExcludeDeprels"])
    ['GroupBy', 'MaxSentenceLength', 'Metric', 'MinSentenceLength', 'ExcludeDeprels']
    >>> hashmap_order([-2, -1])
    [-1, -2]
    """
    if initial_capacity is None:
        capacity, threshold = 16, 12
    else:
        if initial_capacity < 0:
            raise ValueError(f"Illegal initial capacity: {initial_capacity}")
        capacity = _table_size_for(initial_capacity)
        threshold = int(capacity * 0.75)
    table: List[List[Tuple[int, JavaKey]]] = [[] for _ in range(capacity)]
    present = set()
    size = 0

    def resize() -> None:
        nonlocal table, capacity, threshold
        old, old_capacity = table, capacity
        capacity = old_capacity * 2
        threshold = int(capacity * 0.75)
        table = [[] for _ in range(capacity)]
        for j, bucket in enumerate(old):
            for entry in bucket:  # split: relative order kept in both halves
                table[j + old_capacity if entry[0] & old_capacity else j].append(entry)

    for key in keys:
        h = (hash_of or java_hash)(key) & 0xFFFFFFFF
        spread = h ^ (h >> 16)
        if key in present:
            continue
        present.add(key)
        bucket = table[spread & (capacity - 1)]
        bucket.append((spread, key))
        if len(bucket) > _TREEIFY_THRESHOLD:
            if capacity < _MIN_TREEIFY_CAPACITY:
                resize()
            else:
                raise NotImplementedError(
                    "a java.util.HashMap bucket would become a tree (9+ colliding keys)")
        size += 1
        if size > threshold:
            resize()
    return [key for bucket in table for _, key in bucket]


def hashset_order(keys: Iterable[JavaKey], initial_capacity: Optional[int] = None) -> list:
    """Iteration order of a ``java.util.HashSet`` after ``add`` of ``keys``: a HashMap's order.

    >>> hashset_order(["Cpostag", "Postag"])
    ['Postag', 'Cpostag']
    """
    return hashmap_order(keys, initial_capacity)


def hashtable_order(keys: Iterable[JavaKey]) -> list:
    """Order of ``keys()``/``keySet()`` of a ``java.util.Hashtable`` after ``put`` of ``keys``.

    ``new Hashtable<>()``: capacity 11, load factor 0.75; the index is
    ``(h & 0x7FFFFFFF) % n``; a new key goes to the head of its bucket's chain; before adding,
    when the count has reached the threshold (``int(n * 0.75)``), the table grows to ``2n + 1``,
    moving the entries bucket by bucket from the highest index down, each to the head of its
    new chain.  The enumeration runs from the highest index down, each chain from its head.

    >>> hashtable_order(["Metric", "GroupBy", "ExcludeDeprels", "MinSentenceLength"])
    ['ExcludeDeprels', 'Metric', 'GroupBy', 'MinSentenceLength']
    """
    capacity = 11
    threshold = int(capacity * 0.75)
    table: List[List[Tuple[int, JavaKey]]] = [[] for _ in range(capacity)]  # chains, head first
    present = set()
    for key in keys:
        if key in present:
            continue
        h = java_hash(key) & 0x7FFFFFFF
        if len(present) >= threshold:
            old = table
            capacity = 2 * capacity + 1
            threshold = int(capacity * 0.75)
            table = [[] for _ in range(capacity)]
            for chain in reversed(old):
                for entry in chain:
                    table[entry[0] % capacity].insert(0, entry)
        present.add(key)
        table[h % capacity].insert(0, (h, key))
    return [key for chain in reversed(table) for _, key in chain]


# ----------------------------------------------------------------------------------------------
# String.compareTo

def java_compare_key(s: str) -> bytes:
    """A sort key giving ``String.compareTo`` order: lexicographic over UTF-16 code units.

    It differs from Python's code point order only with astral characters, whose surrogates
    (U+D800-U+DFFF) sort before U+E000-U+FFFF: ``"\\U0001F600" < "\\uFB01"`` in Java.
    """
    return s.encode("utf-16-be", "surrogatepass")


# ----------------------------------------------------------------------------------------------
# Character.getType punctuation (MaltEval's ExcludeUnicodePunc)

_PUNCTUATION_CATEGORIES = frozenset(("Pc", "Pd", "Ps", "Pe", "Pi", "Pf", "Po"))
#: BMP punctuation newer than Unicode 13.0 (OpenJDK 17's character data): unassigned in Java
#: (Unicode 14: U+061D, U+1B7D-U+1B7E, U+2E53-U+2E5D; Unicode 16: U+1B4E-U+1B4F, U+1B7F)
_NEWER_THAN_JAVA17 = frozenset(
    [0x061D, 0x1B4E, 0x1B4F, 0x1B7D, 0x1B7E, 0x1B7F] + list(range(0x2E53, 0x2E5E)))


def _java_punctuation_chars() -> frozenset:
    return frozenset(chr(c) for c in range(0x10000)
                     if c not in _NEWER_THAN_JAVA17
                     and unicodedata.category(chr(c)) in _PUNCTUATION_CATEGORIES)


_PUNCTUATION: Optional[frozenset] = None


def _punctuation_chars() -> frozenset:
    global _PUNCTUATION
    if _PUNCTUATION is None:
        _PUNCTUATION = _java_punctuation_chars()
    return _PUNCTUATION


def is_java_punctuation(form: str) -> bool:
    """True iff every UTF-16 char of ``form`` has a Java punctuation type (MaltEval's test).

    The types are CONNECTOR, DASH, START, END, INITIAL_QUOTE, FINAL_QUOTE and OTHER
    PUNCTUATION (Unicode Pc, Pd, Ps, Pe, Pi, Pf, Po) with OpenJDK 17's Unicode 13.0 data.
    MaltEval loops over ``String.charAt``, so:

    - the empty string is punctuation (the loop never finds a non-punctuation char);
    - an astral character is two surrogates, of type SURROGATE, so never punctuation, even
      where Unicode calls it punctuation (U+10100 AEGEAN WORD SEPARATOR LINE); lone
      surrogates are not punctuation either;
    - characters assigned after Unicode 13.0 are unassigned in Java 17, hence not punctuation
      (U+2E53 MEDIEVAL EXCLAMATION MARK), whatever Python's newer Unicode database says.
    """
    return set(form) <= _punctuation_chars()


def punctuation_flags(strings: Iterable[str]) -> List[bool]:
    """:func:`is_java_punctuation` of each string, e.g. of a Vocab's strings (code order)."""
    chars = _punctuation_chars()
    return [set(s) <= chars for s in strings]

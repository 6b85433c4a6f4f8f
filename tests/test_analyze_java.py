"""conll_eval.analyze.java: Java's DecimalFormat, hash iteration orders, compareTo, getType.

Three kinds of evidence: literal values recorded from OpenJDK 17, MaltEval's own outputs in
../shared/malteval (skipped when absent), and a differential run against a small Java program
compiled on the fly (skipped when ``javac``/``java`` are not installed).
"""
from __future__ import annotations

import math
import random
import re
import shlex
import shutil
import struct
import subprocess
import unicodedata
from pathlib import Path

import pytest

from conll_eval.analyze.java import (decimal_format, hashmap_order, hashset_order,
                                     hashtable_order, is_java_punctuation, java_compare_key,
                                     java_hash, java_string_hash, punctuation_flags)

MALTEVAL = Path(__file__).resolve().parent.parent.parent / "shared" / "malteval"
needs_malteval = pytest.mark.skipif(not (MALTEVAL / "cases").is_dir(),
                                    reason="../shared/malteval is not present")

# ----------------------------------------------------------------------------------------------
# DecimalFormat

#: (pattern, value, what java.text.DecimalFormat printed): recorded with OpenJDK 17.0.15,
#: ``NumberFormat.getNumberInstance(Locale.US)`` + ``applyPattern(pattern)`` + ``format(value)``
JAVA_FORMATTED = [
    ("#,##0.###", 0.0, "0"),
    ("#,##0.###", -0.0, "-0"),
    ("#,##0.###", 1.0, "1"),
    ("#,##0.###", 0.27, "0.27"),
    ("#,##0.###", 1476.1176470588234, "1,476.118"),
    ("#,##0.###", 0.0005, "0.001"),  # the fast path rounds on the exact binary value ...
    ("#,##0.###", 0.0015, "0.002"),
    ("#,##0.###", 2.675, "2.675"),
    ("#,##0.###", 1e-07, "0"),
    ("#,##0.###", -1e-07, "-0"),
    ("#,##0.###", 999.9995, "1,000"),
    ("#,##0.###", 1234567.891, "1,234,567.891"),
    ("#,##0.###", -2.917, "-2.917"),
    ("#,##0.###", 0.125, "0.125"),
    ("#,##0.###", 1e+20, "100,000,000,000,000,000,000"),
    ("#,##0.###", 2147483647.5, "2,147,483,647.5"),
    ("#,##0.###", 2147483648.5, "2,147,483,648.5"),
    ("#,##0.###", 1.2345678901234566e+17, "123,456,789,012,345,664"),  # not ...,670
    ("#,##0.###", math.nan, "NaN"),
    ("#,##0.###", math.inf, "\u221e"),
    ("#,##0.###", -math.inf, "-\u221e"),
    ("0.00", 2.675, "2.67"),  # 2.67499999999999982236431605997495353221893310546875
    ("0.00", 0.125, "0.12"),  # an exact tie: half even
    ("0.00", 0.375, "0.38"),
    ("0.00", 0.005, "0.01"),
    ("0.00", 1.005, "1.00"),
    ("0.00", -0.001, "-0.00"),
    ("0.000", 0.0005, "0.000"),  # ... the slow path does not (JDK 17: "5.0E-4" looks like a tie)
    ("0.000", 0.0015, "0.002"),
    ("0.000", 0.0025, "0.003"),
    ("0.0000", 5e-05, "0.0000"),
    ("0.0000", 0.00015, "0.0001"),
    ("0.0000", 0.78, "0.7800"),
    ("0.0000", 0.6788, "0.6788"),
    ("0.000000", 0.6788075, "0.678808"),
    ("0.000000", 1e-07, "0.000000"),
    ("0.000000", 5e-07, "0.000000"),
    ("0.000000", 0.1234565, "0.123456"),
    ("0.00%", 0.7192, "71.92%"),
    ("0.00%", 0.78, "78.00%"),
    ("0.00%", 4.9e-05, "0.00%"),
    ("0.00%", 5e-05, "0.01%"),  # 5e-05 * 100 = 0.005000000000000001
    ("0.00%", math.inf, "\u221e%"),
    ("#.#####", 0.0, "0"),
    ("#.#####", 0.76665, "0.76665"),  # a leading zero: "#.##" reads as "0.##"
    ("#.#####", 0.679, "0.679"),
    ("#.#####", 1.0, "1"),
    ("#.#####", 1e-06, "0"),
    ("#.#####", 12345.678901, "12345.6789"),
    (".##", 0.0, ".0"),  # ".##" reads as ".0#": no leading zero, one decimal at least
    (".##", 0.5, ".5"),
    (".##", 1.0, "1.0"),
    (".##", 0.125, ".12"),
    ("#", 0.0, "0"),
    ("#", 0.5, "0"),
    ("#", 1.5, "2"),
    ("#", 2.5, "2"),
    ("0.", 1.0, "1."),
    ("#,##,###", 123456789.0, "123,456,789"),  # the last grouping size counts
    ("#,##0.00#", 1234.5, "1,234.50"),
    ("$#,##0.00;($#,##0.00)", -1234.567, "($1,234.57)"),
    ("\u00a4#,##0.00", 0.125, "$0.12"),
    ("0.0\u2030", 0.0125, "12.5\u2030"),
    ("'#'0.0' %'", 0.5, "#0.5 %"),
    ("0.0;0.0", -1.25, "-1.2"),  # a negative subpattern equal to the positive one: minus sign
]


@pytest.mark.parametrize("pattern,value,expected", JAVA_FORMATTED)
def test_values_recorded_from_java(pattern, value, expected):
    assert decimal_format(value, pattern) == expected


def test_default_pattern_is_the_us_number_instance():
    assert decimal_format(1476.1176470588234) == "1,476.118"
    assert decimal_format(0.0) == "0"


@pytest.mark.parametrize("pattern", ["0#", "#0#", "0.#0", "0..0", "0,.0", "0.0%%", "0.0%\u2030",
                                     "'abc", "0.0;a;b", ";0"])
def test_malformed_patterns_raise_like_java(pattern):
    with pytest.raises(ValueError):
        decimal_format(1.0, pattern)


def test_scientific_notation_is_not_implemented():
    with pytest.raises(ValueError, match="scientific"):
        decimal_format(1.0, "0.###E0")


def _table(output: str, caption_start: str):
    """Rows (cells split on runs of 2+ spaces) of the table whose header starts so."""
    lines = output.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(caption_start))
    rows = []
    for line in lines[start + 2:]:
        if not line.strip() or line.startswith("-"):
            break
        rows.append(re.split(r"\s{2,}", line.strip()))
    return rows


def _case(number: str) -> str:
    (path,) = MALTEVAL.glob(f"cases/{number}-*/output.txt")
    return path.read_text(encoding="utf-8")


@needs_malteval
def test_hash_pattern_ratios_recomputed_from_malteval_counters():
    # 115: --pattern '#.#####' on GroupedRelationLength:all; the ratios are counter quotients
    rows = _table(_case("115"), "parseraccuracy")
    assert len(rows) == 5
    for p_acc, t_acc, p_count, t_count, p_correct, t_correct, _ in rows:
        assert decimal_format(int(p_correct) / int(p_count), "#.#####") == p_acc
        assert decimal_format(int(t_correct) / int(t_count), "#.#####") == t_acc


@needs_malteval
def test_percent_pattern_against_malteval():
    # 052 prints the LAS counters of ArcDirection; 114 prints the same ratios with 0.00%
    counters = {row[-1]: row for row in _table(_case("052"), "parseraccuracy")}
    for row in _table(_case("114"), "parseraccuracy"):
        p_count, t_count, p_correct, t_correct = map(int, counters[row[-1]][2:6])
        assert decimal_format(p_correct / p_count, "0.00%") == row[4]
        assert decimal_format(t_correct / t_count, "0.00%") == row[5]
        assert decimal_format(p_correct / p_count) == counters[row[-1]][0]


@needs_malteval
def test_default_pattern_grouping_separator_against_malteval():
    # 120: Cpostag:counter with --column-header 1; Row mean = mean of the 17 counters
    output = _case("120")
    mean, count = _table(output, "counter")
    assert mean == ["1,476.118", "Row mean"] and count == ["17", "Row count"]
    details = output.split("\n-")[-1].splitlines()[1:]  # after the second dashes line
    counters = [int(line.split()[0]) for line in details if line.strip()]
    assert len(counters) == 17
    assert decimal_format(sum(counters) / len(counters)) == "1,476.118"


@needs_malteval
@pytest.mark.parametrize("number,pattern", [("113", "0.0000"), ("020", "0.000000"),
                                            ("021", "0.0000"), ("115", "#.#####"),
                                            ("001", "#,##0.###"), ("120", "#,##0.###")])
def test_every_printed_decimal_is_a_fixed_point(number, pattern):
    """Reading a printed number back and formatting it again gives the same text."""
    seen = 0
    for token in _case(number).split():
        if re.fullmatch(r"[0-9,]*\.[0-9]+", token):
            assert decimal_format(float(token.replace(",", "")), pattern) == token
            seen += 1
    assert seen


# ----------------------------------------------------------------------------------------------
# hashCode and hash iteration orders

def test_string_hash():
    assert java_string_hash("") == 0
    assert java_string_hash("a") == 97
    assert java_string_hash("LAS") == 76 * 31 ** 2 + 65 * 31 + 83
    assert java_string_hash("Aa") == java_string_hash("BB") == 2112
    assert java_string_hash("polygenelubricants") == -2147483648
    assert java_string_hash("\U0001F600") == 31 * 0xD83D + 0xDE00  # two UTF-16 units
    assert java_string_hash("\ud800") == 0xD800  # a lone surrogate counts as itself
    assert java_hash(True) == 1231 and java_hash(-5) == -5
    with pytest.raises(ValueError):
        java_hash(2 ** 31)


def test_metric_columns_follow_hashmap_order():
    assert hashmap_order(["LAS", "UAS", "LA"]) == ["LA", "UAS", "LAS"]
    assert hashmap_order(["", "punct"]) == hashmap_order(["punct", ""]) == ["", "punct"]


@needs_malteval
def test_fourteen_metrics_in_case_020_header():
    argv = shlex.split((MALTEVAL / "cases" / "020-metrics-all14-merged-6dec" / "cmd.txt")
                       .read_text())
    metrics = argv[argv.index("--Metric") + 1].split(";")
    header = next(line for line in _case("020").splitlines() if line.startswith("accuracy"))
    assert hashmap_order(metrics) == re.findall(r"Metric:(\w+)", header)


def test_header_lines_follow_hashmap_order_of_the_parameter_names():
    # case 143 gives --Metric --GroupBy --ExcludeDeprels --MinSentenceLength --MaxSentenceLength
    given = ["Metric", "GroupBy", "ExcludeDeprels", "MinSentenceLength", "MaxSentenceLength"]
    assert hashmap_order(given) == ["GroupBy", "MaxSentenceLength", "Metric",
                                    "MinSentenceLength", "ExcludeDeprels"]
    # Metric and MinSentenceLength share a bucket, so there insertion order decides
    assert hashmap_order(given[::-1])[2:4] == ["MinSentenceLength", "Metric"]


@needs_malteval
def test_case_143_header_lines():
    lines = _case("143").splitlines()
    names = [line.split("->")[0] for line in lines[5:10]]
    argv = shlex.split((MALTEVAL / "cases" / "143-xml-equivalent-flags" / "cmd.txt").read_text())
    given = [arg[2:] for arg in argv if arg[2:] in ("Metric", "GroupBy", "ExcludeDeprels",
                                                     "MinSentenceLength", "MaxSentenceLength")]
    assert hashmap_order(given) == names


def test_complex_grouping_parts_follow_hash_order():
    assert hashset_order(["Cpostag", "Postag"]) == ["Postag", "Cpostag"]  # case 070
    assert hashmap_order([-2, -1]) == [-1, -2]  # Cpostag@-2#Cpostag@-1 prints @-1 first (072)


def test_parameters_nest_in_hashtable_order():
    # case 095: ExcludeDeprels varies faster than Metric, so it comes first
    order = hashtable_order(["Metric", "GroupBy", "ExcludeDeprels"])
    assert order.index("ExcludeDeprels") < order.index("Metric")


def test_hashmap_growth_and_repeats():
    keys = [f"key{i}" for i in range(100)]
    order = hashmap_order(keys + keys[:10])
    assert sorted(order) == sorted(keys)
    assert hashmap_order([]) == [] and hashtable_order([]) == []
    # a presized map can iterate differently from a default one
    assert sorted(hashmap_order(keys, initial_capacity=1)) == sorted(keys)


def test_colliding_keys_resize_a_small_table_then_refuse_trees():
    family = [a + b + c + d + e for a in ("Aa", "BB") for b in ("Aa", "BB") for c in ("Aa", "BB")
              for d in ("Aa", "BB") for e in ("Aa", "BB")]
    assert len({java_string_hash(k) for k in family}) == 1
    assert hashmap_order(family[:9]) == family[:9]  # 9th collision: the table doubles instead
    with pytest.raises(NotImplementedError):
        hashmap_order(family[:12])  # at 64 buckets Java builds a red-black tree


# ----------------------------------------------------------------------------------------------
# compareTo and punctuation

def test_compare_key_is_utf16_order():
    words = ["b", "a", "\uFB01", "\U0001F600", "ADP", "ADJ", "\"x\"@0", "^@-1", ""]
    assert sorted(words, key=java_compare_key) == [
        "", "\"x\"@0", "ADJ", "ADP", "^@-1", "a", "b", "\U0001F600", "\uFB01"]
    assert sorted(["\U0001F600", "\uFB01"]) == ["\uFB01", "\U0001F600"]  # Python differs


def test_punctuation():
    assert is_java_punctuation(".") and is_java_punctuation("...") and is_java_punctuation("«")
    assert is_java_punctuation("")  # MaltEval's loop finds no non-punctuation character
    for form in ("$", "+", "a.", "1", " ", "\u2e53", "\U00010100", "\ud800"):
        assert not is_java_punctuation(form), form
    assert unicodedata.category("\U00010100") == "Po"  # punctuation for Unicode, not for Java
    assert punctuation_flags([".", "the", "", "-RRB-", "--", "\u00bf"]) == [
        True, False, True, False, True, True]


# ----------------------------------------------------------------------------------------------
# differential run against OpenJDK (when installed)

JAVA_SOURCE = r"""
import java.io.*;
import java.text.*;
import java.util.*;

public class Oracle {
    static String text(String hex) {
        StringBuilder sb = new StringBuilder();
        if (hex.equals("-")) return "";
        for (String u : hex.split(",")) sb.append((char) Integer.parseInt(u, 16));
        return sb.toString();
    }
    static String hex(String s) {
        if (s.isEmpty()) return "-";
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            if (i > 0) sb.append(',');
            sb.append(Integer.toHexString(s.charAt(i)));
        }
        return sb.toString();
    }
    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, "UTF-8"));
        PrintStream out = new PrintStream(new BufferedOutputStream(System.out), false, "UTF-8");
        String line;
        while ((line = in.readLine()) != null) {
            String[] f = line.split("\t", -1);
            if (f[0].equals("fmt")) {
                DecimalFormat df = (DecimalFormat) NumberFormat.getNumberInstance(Locale.US);
                df.applyPattern(f[1]);
                out.println(df.format(Double.longBitsToDouble(Long.parseUnsignedLong(f[2], 16))));
            } else if (f[0].equals("type")) {
                out.println(Character.getType((char) Integer.parseInt(f[1], 16)));
            } else {
                Map<String, Integer> m = f[0].equals("map") ? new HashMap<>() : new Hashtable<>();
                if (!f[1].isEmpty()) for (String k : f[1].split(" ")) m.put(text(k), 0);
                StringJoiner j = new StringJoiner(" ");
                for (String k : m.keySet()) j.add(hex(k));
                out.println(j);
            }
        }
        out.flush();
    }
}
"""


@pytest.fixture(scope="module")
def java(tmp_path_factory):
    if not (shutil.which("javac") and shutil.which("java")):
        pytest.skip("no Java development kit")
    folder = tmp_path_factory.mktemp("java-oracle")
    (folder / "Oracle.java").write_text(JAVA_SOURCE)
    subprocess.run(["javac", "Oracle.java"], cwd=folder, check=True, capture_output=True)

    def run(requests):
        proc = subprocess.run(["java", "-cp", str(folder), "Oracle"], capture_output=True,
                              input="\n".join(requests) + "\n", encoding="utf-8", check=True)
        return proc.stdout.split("\n")[:len(requests)]
    return run


def _bits(value: float) -> str:
    return format(struct.unpack("<Q", struct.pack("<d", value))[0], "x")


def _hex(s: str) -> str:
    data = s.encode("utf-16-le", "surrogatepass")
    return ",".join(format(int.from_bytes(data[i:i + 2], "little"), "x")
                    for i in range(0, len(data), 2)) or "-"


def test_decimal_format_equals_java(java):
    rng = random.Random(20261123)
    values = [0.0, -0.0, 0.5, 1.5, 2.5, 0.0005, 5e-05, 5e-06, 0.045, 0.015, 2.675, 1.005,
              999.9995, 9.9995, 0.9999995, 1e15, 2.0 ** 60 + 2 ** 9, 1e-300, -1e-7]
    for _ in range(400):
        values.append(rng.random())
        values.append(rng.randint(0, 25094) / rng.randint(1, 25094))
        values.append((rng.randint(0, 10 ** 6) * 10 + 5) / 10 ** rng.randint(1, 8))
        values.append(rng.randint(1, 10 ** 5) / 2 ** rng.randint(1, 20))
        values.append(rng.uniform(-1e7, 1e7))
        values.append(rng.random() * 10.0 ** rng.randint(-12, 18))
    patterns = ["#,##0.###", "0.0000", "0.000000", "0.00%", "#.#####", "#,##0.00#", "0", ".##",
                "0.0\u2030", "$#,##0.00;($#)", "0.###-", "##0.0#"]
    requests = [f"fmt\t{pattern}\t{_bits(v)}" for pattern in patterns for v in values]
    expected = java(requests)
    got = [decimal_format(v, pattern) for pattern in patterns for v in values]
    mismatches = [(r, e, g) for r, e, g in zip(requests, expected, got) if e != g]
    assert not mismatches[:10]


def test_hash_orders_equal_java(java):
    rng = random.Random(7)
    alphabet = "abcXYZ019_:;@#,-\"'\u00e9\u00df\u0410\u4e2d\U0001F600"
    cases = []
    for n in [0, 1, 2, 3, 8, 9, 12, 13, 24, 25, 40, 100] * 10:
        keys = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 9))) for _ in range(n)]
        cases.append(keys + keys[: n // 3])
    for kind, order in (("map", hashmap_order), ("table", hashtable_order)):
        expected = java([f"{kind}\t" + " ".join(_hex(k) for k in keys) for keys in cases])
        for keys, line in zip(cases, expected):
            assert " ".join(_hex(k) for k in order(keys)) == line, (kind, keys)


def test_punctuation_equals_java_character_types(java):
    punctuation_types = {20, 21, 22, 23, 24, 29, 30}  # Pd Ps Pe Pc Po Pi Pf
    types = java([f"type\t{c:x}" for c in range(0x10000)])
    flags = punctuation_flags([chr(c) for c in range(0x10000)])
    assert [int(t) in punctuation_types for t in types] == flags


def test_docstring_examples_run():
    import doctest

    from conll_eval.analyze import java as module
    assert doctest.testmod(module).failed == 0

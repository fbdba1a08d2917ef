"""Flink SQL's string functions (and NULLIF, GREATEST, LEAST, UUID, HASH_CODE): the results and result types
PyFlink 2.3 gives (each expected value below is the one it printed)."""
import decimal
import re

import pytest
from hypothesis import given, strategies as st
from sqlglot import parse_one

from pyflink_compat.table.sql import string_functions
from pyflink_compat.table.sql.catalog import SqlType
from pyflink_compat.table.sql.dialect import Flink
from pyflink_compat.table.sql.expressions import Compiler
from pyflink_compat.util.exceptions import JavaStyleError

STRING, NOT_NULL_STRING, INT = SqlType("STRING"), SqlType("STRING", nullable=False), SqlType("INT")
TEXTS = ["hello wORLD-foo_bar", "", "  a b\t", "é€𝄞x", "it's 3rd a.b/c d1e2", None]


def _compiled(expression: str, row=(), types=()):
    columns = {name: (position, column_type) for position, (name, column_type) in enumerate(types)}
    function, result_type = Compiler(columns).compile(parse_one("SELECT %s FROM t" % expression,
                                                                read=Flink).expressions[0])
    return function(tuple(row)), result_type.text()


def _over_texts(expression: str):
    """The expression's value for each of TEXTS as the nullable STRING column s, and its type."""
    results = [_compiled(expression, (text,), [("s", STRING)]) for text in TEXTS]
    assert len({result_type for _, result_type in results}) == 1
    return [value for value, _ in results], results[0][1]


def test_regexp_extract_takes_a_java_regexs_group_and_is_null_when_it_cannot():
    assert _over_texts("REGEXP_EXTRACT(s, '([a-z])([0-9])', 2)") == ([None, None, None, None, "1", None], "STRING")
    assert _over_texts("REGEXP_EXTRACT(s, '([a-z])([0-9])')")[0] == [None, None, None, None, "d1", None]  # group 0
    assert _over_texts("REGEXP_EXTRACT(s, '([a-z])([0-9])', 3)")[0] == [None] * 6       # no such group
    assert _over_texts("REGEXP_EXTRACT(s, '([a-z])([0-9])', -1)")[0] == [None] * 6
    assert _over_texts("REGEXP_EXTRACT(s, '(x)|(o)', 1)")[0] == [None, None, None, "x", None, None]   # group left out
    assert _over_texts("REGEXP_EXTRACT(s, '(', 1)")[0] == [None] * 6                    # an invalid regex
    # Java's syntax and defaults: ASCII \w and (?i), '.' stopping at \r, \Q..\E, POSIX classes, nested classes
    assert _compiled("REGEXP_EXTRACT('é1', '\\w+')") == ("1", "STRING")
    assert _compiled("REGEXP_EXTRACT('ÀB', '(?i)àb')")[0] is None
    assert _compiled("REGEXP_EXTRACT('x' || CHR(13) || 'y', 'x.y')")[0] is None
    assert _compiled("REGEXP_EXTRACT('a.b', '\\Q.\\E')")[0] == "."
    assert _compiled("REGEXP_EXTRACT('ab12', '\\p{Digit}+')")[0] == "12"
    assert _compiled("REGEXP_EXTRACT('abc', '[[:alpha:]]+')")[0] == "a"         # Java: the union {: a l p h}
    assert _compiled("REGEXP_EXTRACT('aXb', '(?<n>X)', 1)")[0] == "X"


def test_regexp_replace_takes_the_replacement_literally_and_regexp_finds_anywhere():
    assert _over_texts("REGEXP_REPLACE(s, '([a-z])([0-9])', '$2$1')") == (
        ["hello wORLD-foo_bar", "", "  a b\t", "é€𝄞x", "it's 3rd a.b/c $2$1$2$1", None], "STRING")
    assert _compiled("REGEXP_REPLACE('abc', '(b)', '[\\1]')") == ("a[\\1]c", "STRING NOT NULL")
    assert _compiled("REGEXP_REPLACE('aaa', 'a*', 'X')")[0] == "XX"
    assert _compiled("REGEXP_REPLACE('abc', '', 'X')")[0] == "XaXbXcX"
    assert _compiled("REGEXP_REPLACE('abc', '(', 'X')")[0] is None
    assert _compiled("REGEXP_REPLACE('abc', 'b', CAST(NULL AS STRING))")[0] is None
    assert _over_texts("REGEXP(s, 'o.?')") == ([True, False, False, False, False, None], "BOOLEAN")
    assert _compiled("REGEXP('abc', '')") == (False, "BOOLEAN NOT NULL")            # an empty regex: FALSE
    assert _compiled("REGEXP('', 'x*')")[0] is True
    assert _compiled("REGEXP('abc', '(')")[0] is False                              # an invalid regex: FALSE


def test_lpad_and_rpad_pad_or_cut_in_java_characters():
    assert _over_texts("LPAD(s, 7, 'xy')") == (
        ["hello w", "xyxyxyx", "x  a b\t", "xyé€𝄞x", "it's 3r", None], "STRING")
    assert _over_texts("RPAD(s, 7, 'xy')")[0] == ["hello w", "xyxyxyx", "  a b\tx", "é€𝄞xxy", "it's 3r", None]
    assert _over_texts("LPAD(s, -1, 'x')")[0] == [None] * 6
    assert _over_texts("LPAD(s, 3, '')")[0] == [None] * 6                            # an empty filler: NULL
    assert _compiled("LPAD('𝄞', 3, 'é')") == ("é𝄞", "STRING NOT NULL")               # 𝄞 is two Java characters
    assert _compiled("RPAD('a𝄞', 2, 'x')")[0] == "a?"                                # half of it: '?'
    assert _compiled("LPAD('hi', n, 'x')", (None,), [("n", INT)]) == (None, "STRING")


def test_initcap_capitalises_runs_of_ascii_letters_and_digits_keeping_the_type():
    assert _over_texts("INITCAP(s)") == (
        ["Hello World-Foo_Bar", "", "  A B\t", "é€𝄞X", "It'S 3rd A.B/C D1e2", None], "STRING")
    assert _compiled("INITCAP('ÉCOLE élève')")[0] == "ÉCole éLèVe"
    assert _compiled("INITCAP('abc')") == ("Abc", "CHAR(3) NOT NULL")
    assert _compiled("INITCAP(v)", ("ab",), [("v", SqlType("STRING", nullable=False, length=5))]) == \
        ("Ab", "VARCHAR(5) NOT NULL")


def test_hashes_are_lower_case_hex_of_the_utf8_bytes_as_fixed_length_chars():
    assert _over_texts("MD5(s)")[0][1:3] == ["d41d8cd98f00b204e9800998ecf8427e", "946a4719145a9093140cfa0a2f045450"]
    assert _over_texts("MD5(s)")[1] == "CHAR(32)"
    assert _compiled("SHA1('abc')") == ("a9993e364706816aba3e25717850c26c9cd0d89d", "CHAR(40) NOT NULL")
    assert _compiled("SHA224('abc')") == ("23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7",
                                          "CHAR(56) NOT NULL")
    assert _compiled("SHA256('')")[1] == "CHAR(64) NOT NULL"
    assert _compiled("SHA384('abc')")[1] == "CHAR(96) NOT NULL"
    assert _compiled("SHA512('abc')")[1] == "CHAR(128) NOT NULL"
    assert _compiled("MD5('é𝄞')")[0] == "f2586d57791e1d1b063c894414f3b316"
    assert _compiled("SHA2('abc', 256)") == ("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
                                             "VARCHAR(128) NOT NULL")
    assert _compiled("SHA2('abc', n)", (None,), [("n", INT)]) == (None, "VARCHAR(128)")
    with pytest.raises(JavaStyleError, match="Unsupported algorithm"):
        _compiled("SHA2('abc', 160)")


def test_base64_url_encoding_hex_ascii_and_chr_as_javas():
    assert _over_texts("TO_BASE64(s)") == (
        ["aGVsbG8gd09STEQtZm9vX2Jhcg==", "", "ICBhIGIJ", "w6nigqzwnYSeeA==", "aXQncyAzcmQgYS5iL2MgZDFlMg==", None],
        "STRING")
    assert _compiled("FROM_BASE64('aGk')") == ("hi", "STRING NOT NULL")              # the padding may be left out
    assert _compiled("FROM_BASE64('//79')")[0] == "\ufffd" * 3
    with pytest.raises(ValueError, match="Illegal base64 character 21"):
        _compiled("FROM_BASE64('!!!')")
    assert _over_texts("URL_ENCODE(s)") == (
        ["hello+wORLD-foo_bar", "", "++a+b%09", "%C3%A9%E2%82%AC%F0%9D%84%9Ex", "it%27s+3rd+a.b%2Fc+d1e2", None],
        "STRING")
    assert _compiled("URL_ENCODE('a b~*-_.!/?&=+')")[0] == "a+b%7E*-_.%21%2F%3F%26%3D%2B"
    assert [_compiled("URL_DECODE('%s')" % text)[0] for text in ("a+b%20c%2", "%zz", "%E2%82%AC", "%FF", "100%")] \
        == [None, None, "€", "\ufffd", None]
    assert _over_texts("HEX(s)")[0][3] == "C3A9E282ACF09D849E78"
    assert [_compiled("HEX(%s)" % n)[0] for n in ("0", "-1", "255", "CAST(-3 AS SMALLINT)")] == \
        ["0", "FFFFFFFFFFFFFFFF", "FF", "FFFFFFFFFFFFFFFD"]
    assert _compiled("HEX(1)")[1] == "STRING NOT NULL"
    with pytest.raises(JavaStyleError, match="Cannot apply 'HEX'"):
        _compiled("HEX(1.5)")
    assert _over_texts("ASCII(s)") == ([104, 0, 32, -61, 105, None], "INT")        # the first UTF-8 byte, signed
    assert [_compiled("CHR(%s)" % n)[0] for n in ("65", "255", "256", "300", "1000", "-1")] == \
        ["A", "ÿ", "\x00", ",", "è", ""]
    assert _compiled("CHR(65)")[1] == "STRING"


def test_reverse_and_repeat():
    assert _over_texts("REVERSE(s)") == (
        ["rab_oof-DLROw olleh", "", "\tb a  ", "x𝄞€é", "2e1d c/b.a dr3 s'ti", None], "STRING")
    assert _compiled("REVERSE('ab')") == ("ba", "STRING")                             # always nullable
    assert _compiled("REPEAT('ab', 3)") == ("ababab", "STRING NOT NULL")
    assert _compiled("REPEAT('ab', -1)")[0] == ""


def test_position_locate_and_instr():
    assert _over_texts("POSITION('o' IN s)") == ([5, 0, 0, 0, 0, None], "INT")
    assert _over_texts("POSITION('' IN s)")[0] == [1, 1, 1, 1, 1, None]
    assert _over_texts("LOCATE('o', s, 6)")[0] == [14, 0, 0, 0, 0, None]
    assert _over_texts("LOCATE('o', s, -1)")[0] == [5, 0, 0, 0, 0, None]             # a start below 1 is 1
    assert _compiled("LOCATE('', 'abc', 100)") == (1, "INT NOT NULL")
    assert _compiled("LOCATE('a', s)", ("xa",), [("s", STRING)]) == (2, "INT")
    assert _compiled("LOCATE('b', 'a𝄞b')")[0] == 3                                   # in code points
    assert _over_texts("INSTR(s, 'o', -1)")[0] == [15, 0, 0, 0, 0, None]              # backward from the end
    assert _over_texts("INSTR(s, 'o', 0)")[0] == [0, 0, 0, 0, 0, None]
    assert [_compiled("INSTR('abcb', %s)" % arguments)[0] for arguments in (
        "'b', -2", "'b', -3, 2", "'bcb', -1", "'bc', -3", "'b', 2, 2", "'', -1", "'', 0", "'', 6")] == \
        [2, 0, 2, 0, 4, 5, 0, 1]
    assert _compiled("INSTR('aaaa', 'aa', 1, 2)")[0] == 2 and _compiled("INSTR('aaaa', 'aa', -1, 2)")[0] == 2
    with pytest.raises(ValueError):
        _compiled("INSTR('abcb', 'b', 1, 0)")


def test_startswith_endswith_overlay_translate_and_btrim():
    assert _over_texts("STARTSWITH(s, 'he')") == ([True, False, False, False, False, None], "BOOLEAN")
    assert _compiled("ENDSWITH('', '')") == (True, "BOOLEAN NOT NULL")
    assert _over_texts("OVERLAY(s PLACING 'XY' FROM 2)") == (
        ["hXYlo wORLD-foo_bar", "", " XY b\t", "éXY?x", "iXYs 3rd a.b/c d1e2", None], "STRING")
    assert _over_texts("OVERLAY(s PLACING 'XY' FROM 2 FOR 0)")[0] == ["hXY", "", " XY", "éXY", "iXY", None]
    assert [_compiled("OVERLAY('abcde' PLACING %s)" % rest)[0] for rest in (
        "'XY' FROM 6", "'XY' FROM 5", "'XY' FROM 0", "'XY' FROM 3 FOR 0", "'XY' FROM 5 FOR 9", "'' FROM 2",
        "'XYZ' FROM 2 FOR 3")] == ["abcde", "abcdXY", "abcde", "abXY", "abcdXY", "a", "aXYZe"]
    assert _compiled("OVERLAY('abc' PLACING 'XY' FROM 2)") == ("aXY", "VARCHAR(5) NOT NULL")
    assert _compiled("OVERLAY('a𝄞b' PLACING 'X' FROM 3)")[0] == "a?Xb"                # in Java characters
    assert _over_texts("TRANSLATE(s, 'lo', 'L')") == (
        ["heLL wORLD-f_bar", "", "  a b\t", "é€𝄞x", "it's 3rd a.b/c d1e2", None], "STRING")
    assert [_compiled("TRANSLATE('abc', %s)" % rest)[0] for rest in (
        "'aa', 'xy'", "CAST(NULL AS STRING), 'x'", "'b', CAST(NULL AS STRING)", "'b', '𝄞'")] == \
        ["xbc", "abc", "ac", "a𝄞c"]
    assert _compiled("TRANSLATE('abc', CAST(NULL AS STRING), 'x')")[1] == "STRING NOT NULL"
    assert [_compiled("BTRIM(%s)" % rest)[0] for rest in (
        "'  x  '", "'abcba', 'ab'", "'\tx\t'", "'x', ''", "'x', CAST(NULL AS STRING)")] == \
        ["x", "c", "\tx\t", "x", None]
    assert _compiled("BTRIM('x', CAST(NULL AS STRING))")[1] == "STRING"


def test_split_index_as_flinks():
    assert [string_functions.split_index(*arguments) for arguments in (
        ("a,b", 44, 1), ("a b", "", 0), (" a", "", 0), ("a  b", "", 1), ("a,,b", ",", 1), ("a,", ",", 2),
        ("", ",", 0), ("abab", "ab", 2), ("a", ",", -1))] == ["b", "a", "", "", "", None, None, "", None]


def test_nullif_greatest_and_least_with_flinks_types():
    assert _compiled("NULLIF(1, 1.0)") == (None, "INT")
    assert _compiled("NULLIF(2, 2.5)") == (2, "INT")
    assert _compiled("NULLIF('abc', 'a')") == ("abc", "CHAR(3)")
    assert _compiled("NULLIF(1, CAST(NULL AS INT))")[0] == 1
    with pytest.raises(JavaStyleError):
        _compiled("NULLIF(2, '2')")
    assert _compiled("GREATEST(1, 2, CAST(NULL AS INT))") == (None, "INT")
    assert _compiled("GREATEST(1, 2.5)") == (decimal.Decimal("2.5"), "DECIMAL(11, 1) NOT NULL")
    assert _compiled("LEAST(CAST(1 AS BIGINT), 2.5)") == (decimal.Decimal("1.0"), "DECIMAL(20, 1) NOT NULL")
    assert _compiled("GREATEST(1, CAST(2.5 AS FLOAT))") == (2.5, "FLOAT NOT NULL")
    assert _compiled("GREATEST(1, CAST(2.5 AS DOUBLE))") == (2.5, "DOUBLE NOT NULL")
    assert _compiled("GREATEST('abc', 'abcdef')") == ("abcdef", "VARCHAR(6) NOT NULL")
    assert _compiled("GREATEST('𝄞', '｡')")[0] == "｡" and _compiled("LEAST('𝄞', '｡')")[0] == "𝄞"  # UTF-16 order
    with pytest.raises(JavaStyleError, match="Invalid function call"):
        _compiled("GREATEST(1, 'a')")


def test_uuid_and_hash_code():
    value, result_type = _compiled("UUID()")
    assert result_type == "CHAR(36) NOT NULL"
    assert re.fullmatch("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}", value)
    assert _over_texts("HASH_CODE(s)") == ([1875844881, 0, 948609030, 519296651, 1942823253, None], "INT")
    assert [_compiled("HASH_CODE(%s)" % value)[0] for value in (
        "'polygenelubricants'", "1", "CAST(-1 AS BIGINT)", "TRUE", "2.5", "CAST(2.5 AS DOUBLE)")] == \
        [-2147483648, 1, 0, 1231, 776, 1074003968]


def test_functions_flink_does_not_have_are_refused_as_flinks_validator_does():
    for call in ("LEVENSHTEIN(s, 'a')", "SOUNDEX(s)", "OCTET_LENGTH(s)", "CHARINDEX('a', s)", "TO_HEX(s)",
                 "STRPOS(s, 'a')", "STR_POSITION(s, 'a')"):
        with pytest.raises(JavaStyleError, match="No match found for function signature"):
            _compiled(call, ("a",), [("s", STRING)])


@given(st.text(max_size=12), st.integers(-3, 20), st.text(max_size=4), st.booleans())
def test_padding_gives_the_length_asked_in_java_characters(text, length, filler, left):
    padded = string_functions.pad(text, length, filler, left)
    if length < 0 or filler == "":
        assert padded is None
        return
    units = string_functions.utf16_units(text)
    assert len(string_functions.utf16_units(padded)) == length
    if length <= len(units):
        assert string_functions.utf16_units(padded) == units[:length] or "?" in padded
    else:
        assert padded.startswith(text) != left or padded.endswith(text) == left


@given(st.text(max_size=20))
def test_url_encoding_round_trips_and_base64_round_trips(text):
    if any(0xD800 <= ord(c) <= 0xDFFF for c in text):
        return
    assert string_functions.url_decode(string_functions.url_encode(text)) == text
    assert string_functions.from_base64(string_functions.to_base64(text)) == text
    assert string_functions.java_string_hash(text) == string_functions.java_string_hash(text[:]) and \
        -2 ** 31 <= string_functions.java_string_hash(text) < 2 ** 31


def test_char_length_and_replace_are_not_null_of_not_null_arguments():
    columns = {"s": (0, SqlType("STRING", nullable=False)), "n": (1, SqlType("STRING"))}

    def typed(expression):
        return Compiler(columns).compile(parse_one("SELECT %s FROM t" % expression, read=Flink).expressions[0])[1]
    assert [typed(e).text() for e in ("CHAR_LENGTH(s)", "CHAR_LENGTH(n)", "REPLACE(s, 'a', 'b')",
                                      "REPLACE(n, 'a', 'b')", "REPLACE(s, n, 'x')")] == \
        ["INT NOT NULL", "INT", "STRING NOT NULL", "STRING", "STRING"]

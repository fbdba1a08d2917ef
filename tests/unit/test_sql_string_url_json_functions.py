"""UNHEX, ENCODE / DECODE, INET_ATON / INET_NTOA, PARSE_URL, STR_TO_MAP, JSON_QUOTE / JSON_UNQUOTE, SIMILAR TO and
CURRENT_DATABASE: the pure helpers and the compiled expressions' values and types (each expected value below is
the one PyFlink 2.3 gave; tests/side_by_side/probes/string_url_json_probes.py compares them side by side)."""
import re

import pytest
from sqlglot import parse_one

from pyflink_compat.table.sql import charsets, json_functions, similar_to, string_functions, url_functions
from pyflink_compat.table.sql.catalog import SqlType
from pyflink_compat.table.sql.dialect import Flink, parse
from pyflink_compat.table.sql.expressions import Compiler
from pyflink_compat.table.sql.tableau import cell_text, display_width
from pyflink_compat.util.exceptions import JavaStyleError, UnsupportedFeatureError

STRING, INT = SqlType("STRING"), SqlType("INT")


def _compiled(expression: str, row=(), types=()):
    columns = {name: (position, column_type) for position, (name, column_type) in enumerate(types)}
    function, result_type = Compiler(columns).compile(parse_one("SELECT %s FROM t" % expression,
                                                                read=Flink).expressions[0])
    return function(tuple(row)), result_type.text()


def _refused(expression: str, types=()) -> str:
    with pytest.raises(JavaStyleError) as raised:
        _compiled(expression, (None,) * len(types), types)
    return re.sub(r"From line \d+, column \d+ to line \d+, column \d+: ", "", raised.value.message)


def _java_error(call):
    with pytest.raises(JavaStyleError) as raised:
        call()
    return raised.value.java_class, (raised.value.message.splitlines() or [""])[0]


# UNHEX and binary literals ------------------------------------------------------------------------------------
def test_unhex_reads_hex_digits_and_an_odd_length_gives_a_zero_byte_first():
    unhex = string_functions.unhex
    assert unhex("414243") == b"ABC" and unhex("ABCDEF") == b"\xab\xcd\xef" and unhex("") == b""
    assert unhex("123") == b"\x00\x23" and unhex("abc") == b"\x00\xbc" and unhex("f") == b"\x00"
    assert unhex("g12") is None and unhex("1g2") is None and unhex(" 41") is None and unhex("41 ") is None
    assert _compiled("UNHEX(s)", ("e282ac",), [("s", STRING)]) == (b"\xe2\x82\xac", "BYTES")
    assert _compiled("UNHEX('41')") == (b"A", "BYTES")                       # nullable whatever its argument
    assert _compiled("X'00fF'") == (b"\x00\xff", "BINARY(2) NOT NULL")
    assert _compiled("X''") == (b"", "BINARY(0) NOT NULL")


def test_unhex_errors_are_flinks():
    assert _refused("UNHEX(1)") == "SQL validation failed. Invalid function call:\nUNHEX(INT NOT NULL)"
    assert _refused("UNHEX(X'41')") == "SQL validation failed. Invalid function call:\nUNHEX(BINARY(1) NOT NULL)"
    assert _refused("UNHEX('41', 1)").startswith(
        "SQL validation failed. No match found for function signature UNHEX(<CHARACTER>, <NUMERIC>).")
    assert _refused("UNHEX()").startswith("SQL validation failed. No match found for function signature UNHEX().")
    assert _refused("X'4'") == "SQL validation failed. Binary literal string must contain an even number of hexits"


def test_bytes_in_the_tableau_and_in_schemas():
    assert cell_text(b"\x00\xff", SqlType("BYTES")) == "x'00ff'" and cell_text(b"", SqlType("BYTES")) == "x''"
    assert SqlType("BYTES").text() == "BYTES"
    assert SqlType("BYTES", nullable=False, length=3, fixed_length=True).text() == "BINARY(3) NOT NULL"
    assert SqlType("BYTES", length=3).text() == "VARBINARY(3)"


def test_the_tableau_counts_a_character_beyond_the_bmp_as_flink_does():
    assert display_width("ab") == 2 and display_width("中") == 2
    assert display_width("\U0001F600") == 3 and display_width("\U0001D400") == 2     # one more: its low surrogate


# ENCODE / DECODE -----------------------------------------------------------------------------------------------
def test_charsets_are_found_by_javas_names_and_aliases_in_any_case():
    assert charsets.charset("utf8") == "UTF-8" and charsets.charset("Latin1") == "ISO-8859-1"
    assert charsets.charset("cp1252") == "windows-1252" and charsets.charset("ASCII") == "US-ASCII"
    assert _java_error(lambda: charsets.charset("nope")) == ("java.io.UnsupportedEncodingException", "nope")
    assert _java_error(lambda: charsets.charset("")) == ("java.io.UnsupportedEncodingException", "")
    assert _java_error(lambda: charsets.charset("rot13")) == ("java.io.UnsupportedEncodingException", "rot13")
    with pytest.raises(UnsupportedFeatureError):       # Java has it; its invalid input is not reproduced here
        charsets.charset("GBK")


def test_encode_is_javas_get_bytes():
    assert charsets.encode("é€😀", "UTF-16") == bytes.fromhex("feff00e920acd83dde00")
    assert charsets.encode("", "UTF-16") == b""                                       # no byte order mark
    assert charsets.encode("😀", "UTF-32") == bytes.fromhex("0001f600")               # big-endian, no mark
    assert charsets.encode("ab", "utf-16le") == b"a\0b\0"
    assert charsets.encode("é€", "latin1") == b"\xe9?" and charsets.encode("€😀", "US-ASCII") == b"??"
    assert charsets.encode("€", "Cp1252") == b"\x80"


def test_decode_is_javas_new_string():
    decode = charsets.decode
    assert decode(bytes.fromhex("ff41"), "UTF-8") == "\ufffdA"
    assert decode(bytes.fromhex("c0af41"), "UTF-8") == "\ufffd\ufffdA"
    assert decode(bytes.fromhex("eda080"), "UTF-8") == "\ufffd"                 # an encoded surrogate: one
    assert decode(bytes.fromhex("eda041"), "UTF-8") == "\ufffdA"
    assert decode(bytes.fromhex("e08080"), "UTF-8") == "\ufffd" * 3
    assert decode(bytes.fromhex("e282e282ac"), "UTF-8") == "\ufffd€"
    assert decode(bytes.fromhex("feff0041"), "UTF-16") == "A" and decode(bytes.fromhex("fffe4100"), "UTF-16") == "A"
    assert decode(bytes.fromhex("0041"), "UTF-16") == "A"                             # big-endian without a mark
    assert decode(bytes.fromhex("feff0041"), "UTF-16BE") == "\ufeffA"                  # kept
    assert decode(bytes.fromhex("d8000041"), "UTF-16BE") == "\ufffd"                   # high surrogate + next unit
    assert decode(bytes.fromhex("dc000041"), "UTF-16BE") == "\ufffdA"
    assert decode(bytes.fromhex("d83dde00"), "UTF-16BE") == "😀"
    assert decode(bytes.fromhex("d83dde"), "UTF-16") == "\ufffd" and decode(bytes.fromhex("0041d8"), "UTF-16") == "A\ufffd"
    assert decode(bytes.fromhex("0000feff00000041"), "UTF-32BE") == "A"              # Java drops the mark
    assert decode(bytes.fromhex("fffe000041000000"), "UTF-32") == "A"
    assert decode(bytes.fromhex("0000004100"), "UTF-32") == "A\ufffd"
    assert decode(bytes.fromhex("0000d800"), "UTF-32BE") == "?"
    assert decode(b"\x80", "US-ASCII") == "\ufffd" and decode(b"\x80", "windows-1252") == "€"
    assert decode(b"\x81", "windows-1252") == "\ufffd" and decode(b"\xe9", "ISO-8859-1") == "é"


def test_encode_and_decode_compile_with_flinks_types_and_errors():
    assert _compiled("ENCODE('abc', 'UTF-8')") == (b"abc", "BYTES NOT NULL")
    assert _compiled("ENCODE(s, 'UTF-8')", (None,), [("s", STRING)]) == (None, "BYTES")
    assert _compiled("DECODE(X'4142', 'UTF-8')") == ("AB", "STRING NOT NULL")
    assert _compiled("DECODE(UNHEX('4142'), 'UTF-8')") == ("AB", "STRING")
    assert _compiled("DECODE(UNHEX('4142'), CAST(NULL AS STRING))") == (None, "STRING")
    assert _refused("ENCODE('a')") == "SQL validation failed. Invalid number of arguments to function 'ENCODE'. " \
                                      "Was expecting 2 arguments"
    assert _refused("DECODE(X'41', 'UTF-8', 'x')") == "SQL validation failed. Invalid number of arguments to " \
                                                      "function 'DECODE'. Was expecting 2 arguments"
    assert _refused("ENCODE(1, 'UTF-8')") == "SQL validation failed. Cannot apply 'ENCODE' to arguments of type " \
        "'ENCODE(<INTEGER>, <CHAR(5)>)'. Supported form(s): 'ENCODE(<CHARACTER>, <CHARACTER>)'"
    assert _refused("DECODE('abc', 'UTF-8')") == "SQL validation failed. Cannot apply 'DECODE' to arguments of " \
        "type 'DECODE(<CHAR(3)>, <CHAR(5)>)'. Supported form(s): 'DECODE(<BINARY>, <CHARACTER>)'"
    assert _refused("ENCODE('a', NULL)") == "SQL validation failed. Illegal use of 'NULL'"
    with pytest.raises(UnsupportedFeatureError):
        _compiled("ENCODE('a', 'GBK')")
    with pytest.raises(JavaStyleError, match="UnsupportedEncodingException"):     # when a row comes, as Flink's
        _compiled("ENCODE('a', 'nope')")


# INET_ATON / INET_NTOA -------------------------------------------------------------------------------------------
def test_inet_aton_takes_one_to_four_decimal_parts_of_at_most_255():
    aton = url_functions.inet_aton
    assert aton("127.0.0.1") == 2130706433 and aton("255.255.255.255") == 4294967295
    assert aton("1.2.3") == 16908291 and aton("1.2") == 16777218 and aton("1") == 1      # the last part lowest
    assert aton("001.002.003.0255") == 16909311 and aton("00000000000000000001") == 1
    for bad in ("256.0.0.1", "1.2.65535", "1.256", "256", "1.2.3.4.5", "1..2.3", "1.2.3.", ".1.2.3", " 1.2.3.4",
                "1.2.3.4 ", "-1.2.3.4", "+1.2.3.4", "0x1.2.3.4", "", "a.b.c.d", "١.2.3.4", "1.2.3.4\0"):
        assert aton(bad) is None, bad


def test_inet_ntoa_and_the_types():
    assert url_functions.inet_ntoa(2130706433) == "127.0.0.1" and url_functions.inet_ntoa(0) == "0.0.0.0"
    assert url_functions.inet_ntoa(-1) is None and url_functions.inet_ntoa(2 ** 32) is None
    assert _compiled("INET_ATON('1.2.3.4')") == (16909060, "BIGINT")
    assert _compiled("INET_NTOA(CAST(7 AS TINYINT))") == ("0.0.0.7", "STRING")
    assert _compiled("INET_NTOA(NULL)") == (None, "STRING")
    assert _refused("INET_NTOA(1.5)") == "SQL validation failed. Invalid function call:\nINET_NTOA(DECIMAL(2, 1) " \
                                         "NOT NULL)"
    assert _refused("INET_ATON(1)") == "SQL validation failed. Invalid function call:\nINET_ATON(INT NOT NULL)"
    assert _refused("INET_ATON()").startswith("SQL validation failed. No match found for function signature "
                                              "INET_ATON().")


# PARSE_URL ------------------------------------------------------------------------------------------------------
URL = "http://user:pw@example.com:8080/p/a.html?x=1&y=2#frag"


@pytest.mark.parametrize("part, expected", [
    ("HOST", "example.com"), ("PATH", "/p/a.html"), ("QUERY", "x=1&y=2"), ("REF", "frag"), ("PROTOCOL", "http"),
    ("FILE", "/p/a.html?x=1&y=2"), ("AUTHORITY", "user:pw@example.com:8080"), ("USERINFO", "user:pw"),
    ("host", None), ("PORT", None)])
def test_parse_url_gives_the_parts_of_javas_url(part, expected):
    assert url_functions.parse_url(URL, part) == expected


@pytest.mark.parametrize("url, part, expected", [
    ("http://example.com", "PATH", ""), ("http://example.com", "QUERY", None), ("http://example.com", "REF", None),
    ("http://example.com", "AUTHORITY", "example.com"), ("http://example.com/?#", "QUERY", ""),
    ("http://example.com/?#", "REF", ""), ("http://a.com?", "FILE", "?"), ("http://a.com#", "FILE", ""),
    ("HTTPS://EXAMPLE.com:443/a%20b", "PROTOCOL", "https"), ("HTTPS://EXAMPLE.com:443/a%20b", "HOST", "EXAMPLE.com"),
    ("HTTPS://EXAMPLE.com:443/a%20b", "PATH", "/a%20b"), ("file:///tmp/x", "HOST", ""), ("file:/tmp/x?y#z", "FILE",
                                                                                            "/tmp/x?y"),
    ("mailto:a@b.com?subject=x#f", "PATH", "a@b.com"), ("mailto:a@b.com?subject=x#f", "QUERY", "subject=x"),
    ("mailto:a@b.com?subject=x#f", "REF", None), ("jar:file:/a.jar!/b", "PATH", "file:/a.jar!/b"),
    ("jar:http://a.com/x.jar", "PATH", None), ("foo://a.com/x", "HOST", None), ("example.com/a", "HOST", None),
    ("not a url", "HOST", None), ("", "HOST", None), ("1http://a.com", "HOST", None), ("http:x", "PATH", "x"),
    ("http:x", "HOST", ""), ("http:/x", "AUTHORITY", None), ("http://", "HOST", ""),
    ("http://[::1]:80/x", "HOST", "[::1]"), ("http://[zz]/", "HOST", None), ("http://[::1/", "HOST", None),
    ("http://u@a.com:x/", "HOST", None), ("http://a.com:-1/", "HOST", "a.com"), ("http://a.com:-2/", "HOST", None),
    ("http://a.com:+1/", "HOST", "a.com"), ("http://a.com:80:90/", "HOST", None), ("http://a.com:99999/", "HOST", "a.com"),
    ("https://a.com:/p", "AUTHORITY", "a.com:"), ("http://:80/", "HOST", ""), ("http://:80/", "AUTHORITY", ":80"),
    ("http://a@b@c/", "HOST", ""), ("http://a@b@c/", "USERINFO", None), (" url:http://a.com/x ", "PATH", "/x"),
    ("http://a.com/p" + chr(9), "PATH", "/p"), ("http://a.com/a/./b/../c", "PATH", "/a/./b/../c"),
    ("http://a.com#a?b", "QUERY", None), ("http://a.com#a?b", "REF", "a?b"), ("http://a.com/x#y#z", "REF", "y#z"),
    ("http://a.com/x?y?z", "QUERY", "y?z"), ("http://a b.com/", "HOST", "a b.com"), ("http://a.com\\x", "HOST",
                                                                                        "a.com\\x")])
def test_parse_url_reads_urls_as_java_does(url, part, expected):
    assert url_functions.parse_url(url, part) == expected


def test_parse_url_finds_a_query_key_literally():
    parse_url = url_functions.parse_url
    assert parse_url(URL, "QUERY", "y") == "2" and parse_url(URL, "QUERY", "z") is None
    assert parse_url(URL, "HOST", "y") is None                                       # a key for QUERY only
    assert parse_url("http://a.com/p?a=1&ba=2&a=3", "QUERY", "a") == "1"
    assert parse_url("http://a.com/p?a*=1", "QUERY", "a*") == "1" and parse_url("http://a.com/p?aa=1", "QUERY",
                                                                                  "a*") is None
    assert parse_url("http://a.com/p?=1", "QUERY", "") == "1" and parse_url("http://a.com/p?a=1", "QUERY", "") is None
    assert parse_url("http://a.com/p?a", "QUERY", "a") is None and parse_url("http://a.com/p?a=", "QUERY", "a") == ""
    assert parse_url("http://a.com/p?a=1=2&b", "QUERY", "a") == "1=2"
    assert parse_url("http://a.com/p?x=1#a=2", "QUERY", "a") is None


def test_parse_url_compiles_nullable_with_flinks_errors():
    assert _compiled("PARSE_URL('http://a.com/p', 'PATH')") == ("/p", "STRING")
    assert _refused("PARSE_URL('http://a')") == "SQL validation failed. Invalid number of arguments to function " \
                                                "'PARSE_URL'. Was expecting 2 arguments"
    assert _refused("PARSE_URL(1, 'HOST')") == "SQL validation failed. Cannot apply 'PARSE_URL' to arguments of " \
        "type 'PARSE_URL(<INTEGER>, <CHAR(4)>)'. Supported form(s): 'PARSE_URL(<CHARACTER>, <CHARACTER>)'\n" \
        "'PARSE_URL(<CHARACTER>, <CHARACTER>, <CHARACTER>)'"
    assert _refused("PARSE_URL(NULL, 'HOST')") == "SQL validation failed. Illegal use of 'NULL'"


# STR_TO_MAP -----------------------------------------------------------------------------------------------------
def test_java_split():
    split, regex = string_functions.java_split, re.compile
    assert split("a,b,,", regex(",")) == ["a", "b"] and split(",a", regex(",")) == ["", "a"]
    assert split(",", regex(",")) == [] and split("", regex(",")) == [""] and split("ab", regex(",")) == ["ab"]
    assert split("a|b", regex("")) == ["a", "|", "b"]                   # no leading empty piece
    assert split("x1", regex("[0-9]+"), 2) == ["x", ""] and split("22", regex("[0-9]+"), 2) == ["", ""]
    assert split("a=1=2", regex("="), 2) == ["a", "1=2"]


def test_java_hash_map_order():
    order = string_functions.java_hash_map_order
    assert order(["d", "c", "b", "a"], 4) == ["a", "b", "c", "d"]
    assert order(["x", ""], 2) == ["x", ""] and order(["", "x"], 2) == ["", "x"]     # one bucket of 4
    assert order(["x", "y", ""], 3) == ["x", "", "y"]
    assert order(["é", "😀", "A"], 3) == ["😀", "é", "A"]
    assert order(["", "x", "y", "xy", "abc", "zz", "hello", "k1", "é"], 9) == \
        ["", "zz", "xy", "abc", "k1", "x", "y", "é", "hello"]


def test_str_to_map():
    str_to_map = string_functions.str_to_map
    assert str_to_map("a=1,b=2") == {"a": "1", "b": "2"} and str_to_map("") == {}
    assert str_to_map("a=1,a=2,b") == {"a": "2", "b": None}                        # a later entry wins
    assert list(str_to_map("a=1=2,=3,b=,c").items()) == [("", "3"), ("a", "1=2"), ("b", ""), ("c", None)]
    assert str_to_map(",a=1,,") == {"": None, "a": "1"} and str_to_map(",") == {}
    assert str_to_map("a:1;b:2", ";", ":") == {"a": "1", "b": "2"}
    assert list(str_to_map("x1y22z", "[yz]", "[0-9]+").items()) == [("x", ""), ("", "")]
    assert list(str_to_map("a=1", "", "").items()) == [("a", ""), ("=", ""), ("1", "")]
    assert str_to_map("a.b=1", ".", "=") == {}                                      # '.' is a regex: all splits
    assert _java_error(lambda: str_to_map("a=1", "(", "=")) == ("java.util.regex.PatternSyntaxException",
                                                               "Unclosed group near index 1")
    assert _java_error(lambda: str_to_map("a=1", ",", "[")) == ("java.util.regex.PatternSyntaxException",
                                                               "Unclosed character class near index 0")


def test_str_to_map_compiles_to_a_nullable_map_of_strings():
    assert _compiled("STR_TO_MAP('a=1')") == ({"a": "1"}, "MAP<STRING, STRING>")
    assert _compiled("STR_TO_MAP('a=1', s, '=')", (None,), [("s", STRING)]) == (None, "MAP<STRING, STRING>")
    assert _compiled("CAST(STR_TO_MAP('x=1,=2') AS STRING)")[0] == "{x=1, =2}"
    assert _refused("STR_TO_MAP('a', ',')") == "SQL validation failed. Invalid number of arguments to function " \
                                               "'STR_TO_MAP'. Was expecting 1 arguments"
    assert _refused("STR_TO_MAP(NULL)") == "SQL validation failed. Illegal use of 'NULL'"


# JSON_QUOTE / JSON_UNQUOTE --------------------------------------------------------------------------------------
def test_json_quote_escapes_as_flink_does():
    quote = json_functions.json_quote
    assert quote('a"b\\c/d') == '"a\\"b\\\\c\\/d"' and quote("") == '""'
    assert quote("\n\r\b\f\t") == '"\\n\\r\\b\\f\\t"'
    assert quote("\x01\x7f\x80") == '"\x01\x7f\\u0080"'                     # other controls as they are
    assert quote("é€😀") == '"\\u00e9\\u20ac\\u1f600\\ude00"'               # the code point, then the low surrogate
    assert quote("'<>&") == "\"'<>&\""


def test_json_unquote_reads_a_json_string_or_gives_the_text_back():
    unquote = json_functions.json_unquote
    assert unquote('"a\\"b"') == 'a"b' and unquote('"\\u0041\\n\\t\\/\\\\"') == "A\n\t/\\"
    assert unquote('"\\ud83d\\ude00"') == "😀" and unquote('"\\ud83d"') == "?" and unquote('"\\ude00\\ud83d"') == "??"
    assert unquote('""') == "" and unquote('"\\u00411"') == "A1"
    for kept in ('"', "abc", "[1,2]", "123", "null", ' "a" ', '"abc', '"a\\"', '"\\x"', '"\\U00e9"', '"\\u00e"',
                 '"tab\tx"', '"a\nb"', "'a'", '"\\\'"'):
        assert unquote(kept) == kept, kept
    # only the first JSON string is checked: what follows it is unescaped as it comes
    assert unquote('"a" "b"') == 'a" "b' and unquote('"a"b"') == 'a"b' and unquote('"a" "\tb"') == 'a" "\tb'
    assert unquote('"a"\\x"') == '"a"\\x"' and unquote('"a" "\\u004G"') == '"a" "\\u004G"'
    assert unquote('"a"\\"') == 'a"\\'                                           # a lone backslash at the end stays
    assert _java_error(lambda: unquote('"a" "\\u12"')) == ("java.lang.StringIndexOutOfBoundsException",
                                                           "begin 6, end 10, length 8")


def test_json_quote_and_unquote_compile():
    assert _compiled("JSON_QUOTE('a')") == ('"a"', "STRING NOT NULL")
    assert _compiled("JSON_UNQUOTE(s)", (None,), [("s", STRING)]) == (None, "STRING")
    assert _compiled("JSON_QUOTE(NULL)") == (None, "STRING")
    assert _refused("JSON_QUOTE(1)") == "SQL validation failed. Invalid function call:\nJSON_QUOTE(INT NOT NULL)"
    assert _refused("JSON_QUOTE('a', 'b')").startswith(
        "SQL validation failed. No match found for function signature JSON_QUOTE(<CHARACTER>, <CHARACTER>).")


# SIMILAR TO ----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("value, pattern, escape, expected", [
    ("abc", "a%", None, True), ("abc", "A%", None, False), ("", "", None, True), ("a", "", None, False),
    ("abc", "a_c", None, True), ("abc", "(a|b)+c", None, True), ("ab", "a|b", None, False),
    ("aaa", "a{2,3}", None, True), ("abc", "[a-c]*", None, True), ("d", "[^a-c]", None, True), ("-", "[a-]", None, True),
    ("abc", "a.c", None, True), ("a^b", "a^b", None, False), ("ab", "^ab", None, True), ("a$b", "a$b", None, True),
    ("ab", "ab$", None, False), ("a\\b", "a\\b", None, True), ("a1", "a\\d", None, False),
    ("a\nb", "a%b", None, True), ("a\nb", "a_b", None, False), ("a\nb", "a.b", None, False), ("a\n", "a", None, False),
    ("😀", "_", None, True), ("b1", "[[:ALPHA:]][[:DIGIT:]]", None, True), ("a", "[[:alpha:][:DIGIT:]]", None, True),
    ("b", "[:ALPHA:]", None, False), (" ", "[[:SPACE:]]", None, True), ("aB", "(?i)ab", None, True),
    ("a", "a{1}{2}", None, True), ("a", "a*{2}", None, True), ("a", "%*", None, True), ("aa", "(a)\\1", None, False),
    ("a%", "a\\%", "\\", True), ("a_", "a!_", "!", True), ("a!", "a!!", "!", True), ("(a)", "!(a!)", "!", True),
    ("%", "[!%]", "!", True), ("a\\b", "a\\\\b", "\\", False), ("a", "aa", "a", True), ("a}", "a!}", "!", True)])
def test_similar_to_matches_the_whole_value_as_flink_does(value, pattern, escape, expected):
    assert similar_to.similar_to(value, pattern, escape) is expected


@pytest.mark.parametrize("pattern, escape, java_class, message", [
    ("a!b", "!", "org.apache.flink.table.api.ValidationException", "Invalid escape sequence 'a!b', 1"),
    ("a!", "!", "org.apache.flink.table.api.ValidationException", "Invalid escape sequence 'a!', 1"),
    ("a%%", "%", "org.apache.flink.table.api.ValidationException", "Invalid escape sequence 'a%%', 2"),
    ("a\\.", "\\", "org.apache.flink.table.api.ValidationException", "Invalid escape sequence 'a\\.', 1"),
    ("a", "ab", "org.apache.flink.table.api.ValidationException", "Invalid escape character 'ab'"),
    ("a", "", "org.apache.flink.table.api.ValidationException", "Invalid escape character ''"),
    ("[a", None, "java.lang.RuntimeException", "Invalid regular expression '[a'"),
    ("a]", None, "java.lang.RuntimeException", "Invalid regular expression 'a]'"),
    ("[%]b", None, "java.lang.RuntimeException", "Invalid regular expression '[%]b'"),
    ("[[:PUNCT:]]", None, "java.lang.RuntimeException", "Invalid regular expression '[[:PUNCT:]]'"),
    ("(ab", None, "java.util.regex.PatternSyntaxException", "Unclosed group near index 3"),
    ("a%(", None, "java.util.regex.PatternSyntaxException", "Unclosed group near index 9"),
    ("a$(", None, "java.util.regex.PatternSyntaxException", "Unclosed group near index 4"),
    ("a)", None, "java.util.regex.PatternSyntaxException", "Unmatched closing ')' near index 0"),
    (")", None, "java.util.regex.PatternSyntaxException", "Unmatched closing ')'"),
    ("*a", None, "java.util.regex.PatternSyntaxException", "Dangling meta character '*' near index 0"),
    ("a**", None, "java.util.regex.PatternSyntaxException", "Dangling meta character '*' near index 2"),
    ("a{", None, "java.util.regex.PatternSyntaxException", "Illegal repetition near index 2"),
    ("{a", None, "java.util.regex.PatternSyntaxException", "Illegal repetition near index 1"),
    ("a{1", None, "java.util.regex.PatternSyntaxException", "Unclosed counted closure near index 3"),
    ("a{2,1}", None, "java.util.regex.PatternSyntaxException", "Illegal repetition range near index 5"),
    ("[]", None, "java.util.regex.PatternSyntaxException", "Unclosed character class near index 1"),
    ("[^]", None, "java.util.regex.PatternSyntaxException", "Unclosed character class near index 2")])
def test_similar_to_fails_as_flink_does(pattern, escape, java_class, message):
    assert _java_error(lambda: similar_to.similar_to("a", pattern, escape)) == (java_class, message)


def test_similar_to_compiles_with_its_escape_and_flinks_types():
    assert _compiled("'a%' SIMILAR TO 'a!%' ESCAPE '!'") == (True, "BOOLEAN NOT NULL")
    assert _compiled("s NOT SIMILAR TO 'b'", ("b",), [("s", STRING)]) == (False, "BOOLEAN")
    assert _compiled("'a' SIMILAR TO 'a' ESCAPE s", (None,), [("s", STRING)]) == (None, "BOOLEAN")
    assert _compiled("'a' NOT SIMILAR TO 'b' ESCAPE '!'") == (True, "BOOLEAN NOT NULL")
    assert _refused("1 SIMILAR TO '1'") == "SQL validation failed. Cannot apply 'SIMILAR TO' to arguments of type " \
        "'SIMILAR TO(<INTEGER>, <CHAR(1)>)'. Supported form(s): 'SIMILAR TO(<STRING>, <STRING>, <STRING>)'"
    assert _refused("'a' SIMILAR TO NULL") == "SQL validation failed. Cannot apply 'SIMILAR TO' to arguments of " \
        "type 'SIMILAR TO(<CHAR(1)>, <CHAR(1)>)'. Supported form(s): 'SIMILAR TO(<STRING>, <STRING>, <STRING>)'"
    assert _refused("NULL SIMILAR TO 'a'") == "SQL validation failed. Cannot apply 'SIMILAR TO' to arguments of " \
        "type 'SIMILAR TO(<NULL>, <CHAR(1)>)'. Supported form(s): 'SIMILAR TO(<STRING>, <STRING>, <STRING>)'"


def test_escape_takes_an_expression_in_flinks_dialect():
    node = parse("SELECT 'a' SIMILAR TO 'a' ESCAPE CAST(NULL AS STRING) AND TRUE FROM v")[0].expressions[0]
    assert node.this.sql() == "'a' SIMILAR TO 'a' ESCAPE CAST(NULL AS TEXT)"


# CURRENT_DATABASE ------------------------------------------------------------------------------------------------
def test_current_database():
    assert _compiled("CURRENT_DATABASE()") == ("default_database", "STRING NOT NULL")
    assert _refused("CURRENT_DATABASE(1)") == "SQL validation failed. Invalid number of arguments to function " \
                                              "'CURRENT_DATABASE'. Was expecting 0 arguments"

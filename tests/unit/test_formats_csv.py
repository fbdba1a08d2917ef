"""CSV row schemas: builders, messages, Flink's (Jackson CSV's) reading and writing rules, round trips.

The expected bytes and rows below were measured on real PyFlink 2.3.0 (flink-csv, Java 17).
"""
import datetime
import decimal
import math
import struct

import pytest
from hypothesis import given, settings, strategies as st
from py4j.protocol import Py4JJavaError

from pyflink_compat.common import Row, Types
from pyflink_compat.datastream.formats.csv import (CsvBulkWriters, CsvReaderFormat, CsvRowDeserializationSchema,
                                                   CsvRowSerializationSchema, CsvSchema, CsvSchemaBuilder)
from pyflink_compat import codec
from pyflink_compat.util.exceptions import UnsupportedFeatureError

D, S = CsvRowDeserializationSchema, CsvRowSerializationSchema
T = Types


def schemas(type_info, de=lambda b: b, se=lambda b: b):
    return de(D.Builder(type_info)).build(), se(S.Builder(type_info)).build()


def values(row):
    return None if row is None else [values(v) if isinstance(v, Row) else v for v in row]


# -- builders --------------------------------------------------------------------------------------

@pytest.mark.parametrize("builder", [D.Builder, S.Builder])
def test_builder_needs_row_type_info(builder):
    with pytest.raises(TypeError, match="^Type information must not be None$"):
        builder(None)
    with pytest.raises(Py4JJavaError) as info:
        builder(T.STRING())
    assert info.value.java_class == "java.lang.IllegalArgumentException"
    assert "java.lang.IllegalArgumentException: Row type information expected." in str(info.value)


def test_setters_return_the_builder():
    b = D.Builder(T.ROW([T.STRING()]))
    for call in (lambda: b.set_field_delimiter(";"), lambda: b.set_allow_comments(True),
                 lambda: b.set_array_element_delimiter("|"), lambda: b.set_quote_character("'"),
                 lambda: b.set_escape_character("\\"), lambda: b.set_null_literal("N"),
                 lambda: b.set_ignore_parse_errors(True)):
        assert call() is b
    s = S.Builder(T.ROW([T.STRING()]))
    for call in (lambda: s.set_field_delimiter(";"), lambda: s.set_line_delimiter("\r\n"),
                 lambda: s.set_array_element_delimiter("|"), lambda: s.disable_quote_character(),
                 lambda: s.set_quote_character("'"), lambda: s.set_escape_character("\\"),
                 lambda: s.set_null_literal("N")):
        assert call() is s
    assert isinstance(b.build(), D) and isinstance(s.build(), S)
    assert b.build().produced_type() == T.ROW([T.STRING()])


@pytest.mark.parametrize("delimiter", ["\n", "\r", "\r\n", ""])
def test_supported_line_delimiters(delimiter):
    serializer = S.Builder(T.ROW([T.STRING(), T.INT()])).set_line_delimiter(delimiter).build()
    assert serializer.serialize(Row("a", 1)) == ("a,1" + delimiter).encode()


@pytest.mark.parametrize("delimiter", ["\n\r", ";", " ", "\r\n\r\n"])
def test_unsupported_line_delimiter(delimiter):
    with pytest.raises(Py4JJavaError) as info:
        S.Builder(T.ROW([T.STRING()])).set_line_delimiter(delimiter)
    assert info.value.java_class == "java.lang.IllegalArgumentException"
    assert info.value.message == ("Unsupported new line delimiter. Only \\n, \\r, \\r\\n, or empty string are "
                                  "supported.")


def test_char_options_need_one_character():
    for call in (lambda: D.Builder(T.ROW([T.STRING()])).set_field_delimiter(";;"),
                 lambda: D.Builder(T.ROW([T.STRING()])).set_quote_character(""),
                 lambda: S.Builder(T.ROW([T.STRING()])).set_escape_character(None)):
        with pytest.raises(TypeError, match="single character"):
            call()
    with pytest.raises(Py4JJavaError, match="Null literal must not be null."):
        D.Builder(T.ROW([T.STRING()])).set_null_literal(None)


@pytest.mark.parametrize("builder", [D.Builder, S.Builder])
@pytest.mark.parametrize("field_type, message", [
    (T.LIST(T.STRING()), "Unsupported type information 'List<String>' for field 'f0'."),
    (T.MAP(T.STRING(), T.INT()), "Unsupported type information 'Map<String, Integer>' for field 'f0'."),
    (T.PRIMITIVE_ARRAY(T.INT()), "Unsupported type information 'int[]' for field 'f0'."),
    (T.CHAR(), "Unsupported type information 'Character' for field 'f0'."),
    (T.ROW([T.ROW([T.INT()])]), "Only simple types are supported in the second level nesting of fields 'f0' "
                                "but was: Row(f0: Integer)"),
    (T.OBJECT_ARRAY(T.ROW([T.INT()])), "Only simple types are supported in the second level nesting of fields "
                                       "'f0' but was: Row(f0: Integer)"),
    (T.ROW([T.BASIC_ARRAY(T.INT())]), "Only simple types are supported in the second level nesting of fields "
                                      "'f0' but was: BasicArrayTypeInfo<Integer>"),
])
def test_unsupported_field_types_fail_like_java(builder, field_type, message):
    with pytest.raises(Py4JJavaError) as info:
        builder(T.ROW([field_type]))
    assert info.value.java_class == "java.lang.IllegalArgumentException"
    assert info.value.message == message


def test_instant_fields_are_not_provided_yet():
    with pytest.raises(UnsupportedFeatureError, match="CSV field 'f0' of type INSTANT"):
        D.Builder(T.ROW([T.INSTANT()]))


def test_sql_time_and_object_arrays():
    info = T.ROW([T.SQL_TIME(), T.OBJECT_ARRAY(T.STRING()), T.OBJECT_ARRAY(T.INT())])
    deserializer, serializer = schemas(info)
    row = deserializer.deserialize(b"3:4:5,a;b,1;2")
    assert values(row) == [datetime.time(3, 4, 5), ["a", "b"], [1, 2]]
    assert serializer.serialize(row) == b"03:04:05,a;b,1;2\n"
    assert values(deserializer.deserialize(b"25:00:00,,")) == [datetime.time(1, 0, 0), [], []]
    for line in (b"03:04:05.123,a,1", b" 03:04:05,a,1"):
        with pytest.raises(Py4JJavaError, match="Failed to deserialize CSV row"):
            deserializer.deserialize(line)
    codec.from_python([row], info)


def test_file_system_names_stay_unsupported():
    for call in (lambda: CsvSchema.builder(), lambda: CsvSchemaBuilder(), lambda: CsvReaderFormat(None),
                 lambda: CsvReaderFormat.for_schema(None), lambda: CsvBulkWriters.for_schema(None)):
        with pytest.raises(UnsupportedFeatureError, match="porting_guide/README.md#formats"):
            call()


# -- serializer: Flink's exact bytes ----------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("a", b"a\n"), ("a b", b'"a b"\n'), ("a-b", b"a-b\n"), ("a+b", b'"a+b"\n'), ("a.b", b"a.b\n"),
    ("a(b", b'"a(b"\n'), ("a$b", b'"a$b"\n'), ("a/b", b"a/b\n"), ("a\\b", b'"a\\b"\n'), ("a~b", b"a~b\n"),
    ("\u00e9", b"\xc3\xa9\n"), ("a\rb", b'"a\rb"\n'), ("a\x01b", b'"a\x01b"\n'), ("a,b", b'"a,b"\n'),
    (" ", b'" "\n'), ("null", b"null\n"), ("-a", b"-a\n"), ("a#", b'"a#"\n'), ("#x", b'"#x"\n'),
    ("a;b", b"a;b\n"), ('x"y', b'"x""y"\n'), ("a'b", b'"a\'b"\n'), ("", b"\n"),
])
def test_string_quoting_like_jackson(text, expected):
    assert S.Builder(T.ROW([T.STRING()])).build().serialize(Row(text)) == expected


def test_numbers_and_booleans_are_never_quoted():
    info = T.ROW([T.BYTE(), T.SHORT(), T.LONG(), T.FLOAT(), T.DOUBLE(), T.BOOLEAN(), T.BIG_DEC(), T.BIG_INT()])
    serializer = S.Builder(info).build()
    assert serializer.serialize(Row(-128, 32767, 2 ** 63 - 1, 1.5, -0.0, True, decimal.Decimal("1E+3"), 10 ** 30)) \
        == b"-128,32767,9223372036854775807,1.5,-0.0,true,1E+3,1000000000000000000000000000000\n"


@pytest.mark.parametrize("value, expected", [
    (1.0, "1.0"), (1e8, "1.0E8"), (1e-4, "1.0E-4"), (0.001, "0.001"), (1234567.0, "1234567.0"),
    (1e7, "1.0E7"), (1.2345678901234567, "1.2345678901234567"), (float("nan"), "NaN"),
    (float("inf"), "Infinity"), (float("-inf"), "-Infinity"), (-0.0, "-0.0"), (0.0, "0.0"), (1000.0, "1000.0"),
    (1e10, "1.0E10"), (-12.5, "-12.5"),
])
def test_double_text_is_javas(value, expected):
    assert S.Builder(T.ROW([T.DOUBLE()])).build().serialize(Row(value)) == (expected + "\n").encode()


def test_float_text_is_javas():
    serializer = S.Builder(T.ROW([T.FLOAT()])).build()
    as_float = struct.unpack("f", struct.pack("f", 0.1))[0]
    assert serializer.serialize(Row(as_float)) == b"0.1\n"
    assert serializer.serialize(Row(3.4028234663852886e38)) == b"3.4028235E38\n"


def test_dates_timestamps_and_bytes():
    info = T.ROW([T.SQL_DATE(), T.SQL_TIMESTAMP(), T.SQL_TIMESTAMP(), T.PRIMITIVE_ARRAY(T.BYTE())])
    serializer = S.Builder(info).build()
    assert serializer.serialize(Row(datetime.date(2020, 1, 2), datetime.datetime(2020, 1, 2, 3, 4, 5),
                                    datetime.datetime(2020, 1, 2, 3, 4, 5, 120000), b"\x01\x02\x03")) == \
        b'2020-01-02,"2020-01-02 03:04:05.0","2020-01-02 03:04:05.12",AQID\n'


def test_arrays_and_nested_rows():
    info = T.ROW([T.BASIC_ARRAY(T.STRING()), T.BASIC_ARRAY(T.INT()), T.ROW([T.INT(), T.STRING()])])
    serializer = S.Builder(info).set_null_literal("N").build()
    assert serializer.serialize(Row(["a b", "c"], [1, 2], Row(1, "x y"))) == b'"a b;c",1;2,"1;x y"\n'
    assert serializer.serialize(Row([None, "b"], [], Row(1, None))) == b"N;b,,1;N\n"
    assert serializer.serialize(Row(None, None, None)) == b"N,N,N\n"
    piped = S.Builder(info).set_array_element_delimiter("|").build()
    assert piped.serialize(Row(["a", "b"], [1, 2], Row(3, "z"))) == b"a|b,1|2,3|z\n"


def test_quoting_threshold_follows_the_separator_and_quote():
    # Jackson quotes a string holding any character below max(separator, quote) + 1
    info = T.ROW([T.STRING(), T.INT(), T.BASIC_ARRAY(T.STRING())])
    piped = S.Builder(info).set_field_delimiter("|").set_quote_character("'").build()
    assert piped.serialize(Row("apple", 3, ["red", "green"])) == b"'apple'|3|'red;green'\n"
    assert piped.serialize(Row("z~", 1, ["{"])) == b"'z~'|1|'{'\n"
    tabbed = S.Builder(info).set_field_delimiter("\t").build()
    assert [tabbed.serialize(Row(v, 1, [])) for v in ["#x", "a,b", "-", " x"]] == [
        b"#x\t1\t\n", b"a,b\t1\t\n", b"-\t1\t\n", b'" x"\t1\t\n']
    semi = S.Builder(info).set_field_delimiter(";").build()
    assert [semi.serialize(Row(v, 1, [])) for v in ["9", "-", "?", "a"]] == [
        b'"9";1;\n', b'"-";1;\n', b"?;1;\n", b"a;1;\n"]
    escaped = S.Builder(info).set_escape_character("|").build()
    assert escaped.serialize(Row("a\\b", 1, [])) == b"a\\b,1,\n"      # backslash only matters without escape


def test_blank_array_field_has_no_elements():
    deserializer = D.Builder(T.ROW([T.STRING(), T.BASIC_ARRAY(T.STRING())])).build()
    assert values(deserializer.deserialize(b'a, ')) == ["a", []]
    assert values(deserializer.deserialize(b'a,"  "')) == ["a", []]
    assert values(deserializer.deserialize(b'a," x ; y "')) == ["a", [" x ", " y "]]
    assert values(deserializer.deserialize(b'a,\t;x')) == ["a", ["\t", "x"]]


def test_serializer_options():
    info = T.ROW([T.STRING(), T.INT()])
    opts = S.Builder(info).set_field_delimiter(";").set_quote_character("'").set_escape_character("\\") \
        .set_line_delimiter("\r\n").build()
    assert [opts.serialize(Row(v, 1)) for v in ["a;b", "a'b", "#c", "a b", "a,b", "a\\b", "a\nb"]] == [
        b"'a;b';1\r\n", b"'a''b';1\r\n", b"'#c';1\r\n", b"'a b';1\r\n", b"'a,b';1\r\n", b"'a\\\\b';1\r\n",
        b"'a\nb';1\r\n"]
    escaped = S.Builder(info).set_escape_character("\\").build()
    assert [escaped.serialize(Row(v, 1)) for v in ["a,b", "a\\b", 'a"b', "a\tb"]] == [
        b'"a,b",1\n', b'"a\\\\b",1\n', b'"a""b",1\n', b'"a\tb",1\n']
    unquoted = S.Builder(info).disable_quote_character().set_escape_character("\\").build()
    assert [unquoted.serialize(Row(v, 1)) for v in ["a,b", "a\\b", 'a"b', "a\nb", "#x"]] == [
        b"a,b,1\n", b"a\\b,1\n", b'a"b,1\n', b"a\nb,1\n", b"#x,1\n"]


def test_serialize_names_the_row_on_mismatch():
    serializer = S.Builder(T.ROW([T.INT()])).build()
    with pytest.raises(Py4JJavaError, match="Could not serialize row"):
        serializer.serialize(Row("x", "y"))


# -- deserializer ------------------------------------------------------------------------------------

ROW5 = T.ROW([T.STRING(), T.INT(), T.DOUBLE(), T.BOOLEAN(), T.LONG()])


@pytest.mark.parametrize("line, expected", [
    (b"a,1,1.5,true,5", ["a", 1, 1.5, True, 5]),
    (b'"a,b",1,1.5,true,5', ["a,b", 1, 1.5, True, 5]),
    (b'"a""b",1,1.5,true,5', ['a"b', 1, 1.5, True, 5]),
    (b'"a\nb",1,1.5,true,5', ["a\nb", 1, 1.5, True, 5]),
    (b" a ,1,1.5,true,5", [" a ", 1, 1.5, True, 5]),
    (b'"",1,1.5,true,5', ["", 1, 1.5, True, 5]),
    (b"#x,1,1.5,true,5", ["#x", 1, 1.5, True, 5]),
    (b"a,1,1.5,true,5\n", ["a", 1, 1.5, True, 5]),
    (b"a,1,1.0,true,5\r\nb,2,2.0,false,6", ["a", 1, 1.0, True, 5]),        # only the first line is read
    (b"a, 1 ,1.5,true,5", ["a", 1, 1.5, True, 5]),
    (b"a,1,1e3,TRUE,5", ["a", 1, 1000.0, True, 5]),
    (b"a,+1,1.,yes,5", ["a", 1, 1.0, False, 5]),
    (b"a,1,.5,1,5", ["a", 1, 0.5, False, 5]),
    (b'x"y,1,1d,true,5', ['x"y', 1, 1.0, True, 5]),
    (b'a,"1",1,"true",5', ["a", 1, 1.0, True, 5]),
])
def test_reads_like_flink(line, expected):
    assert values(D.Builder(ROW5).build().deserialize(line)) == expected


def test_nan_and_infinity():
    row = D.Builder(T.ROW([T.DOUBLE(), T.FLOAT(), T.FLOAT()])).build().deserialize(b"NaN,Infinity,1e40")
    assert math.isnan(row[0]) and row[1] == float("inf") and row[2] == float("inf")


@pytest.mark.parametrize("line, cause", [
    (b",,,,", 'For input string: ""'),
    (b"a,1,1.5,true", "Row length mismatch. 5 fields expected but was 4."),
    (b"a,1,1.5,true,5,6", "Too many entries"),
    (b"a,x,1.5,true,5", 'For input string: "x"'),
    (b"", "No content to map due to end-of-input"),
    (b"\na,1,1.5,true,5", "Row length mismatch. 5 fields expected but was 1."),
    (b'"a,1,1.5,true,5', "Missing closing quote for value"),
    (b"\xc3\xa9\xff,1,1,true,1", "Invalid UTF-8"),
    (b"a,2147483648,1,true,5", 'For input string: "2147483648"'),
    (b"a,1.0,1,true,5", 'For input string: "1.0"'),
    (b"a,1,1_0,true,5", 'For input string: "1_0"'),
])
def test_malformed_records_fail_with_flinks_message(line, cause):
    with pytest.raises(Py4JJavaError) as info:
        D.Builder(ROW5).build().deserialize(line)
    text = str(info.value)
    assert text.startswith("java.io.IOException: Failed to deserialize CSV row '%s'."
                           % line.decode("utf-8", errors="replace"))
    assert cause in text


def test_integer_ranges():
    deserializer = D.Builder(T.ROW([T.BYTE(), T.SHORT(), T.LONG()])).build()
    assert values(deserializer.deserialize(b"-128,32767,9223372036854775807")) == [-128, 32767, 2 ** 63 - 1]
    with pytest.raises(Py4JJavaError, match='Value out of range. Value:"128"'):
        deserializer.deserialize(b"128,1,1")


def test_decimals_dates_timestamps_bytes():
    info = T.ROW([T.BIG_DEC(), T.BIG_INT(), T.SQL_DATE(), T.SQL_TIMESTAMP(), T.PRIMITIVE_ARRAY(T.BYTE())])
    deserializer = D.Builder(info).build()
    row = deserializer.deserialize(b"1.50,123456789012345678901234567890,2020-1-2,2020-01-02 03:04:05.123456,AQID")
    assert values(row) == [decimal.Decimal("1.50"), 123456789012345678901234567890, datetime.date(2020, 1, 2),
                           datetime.datetime(2020, 1, 2, 3, 4, 5, 123456), b"\x01\x02\x03"]
    assert str(row[0]) == "1.50"
    assert str(deserializer.deserialize(b"1e3,1,2020-01-01,2020-01-01 00:00:00,")[0]) == "1E+3"
    with pytest.raises(Py4JJavaError, match="Timestamp format must be yyyy-mm-dd hh:mm:ss"):
        deserializer.deserialize(b"1,1,2020-01-02,2020-01-02T03:04:05,")


def test_null_literal():
    deserializer = D.Builder(T.ROW([T.STRING(), T.INT()])).set_null_literal("NULL").build()
    assert values(deserializer.deserialize(b"NULL,NULL")) == [None, None]
    assert values(deserializer.deserialize(b'"NULL",1')) == [None, 1]
    assert values(deserializer.deserialize(b",1")) == ["", 1]
    with pytest.raises(Py4JJavaError):
        deserializer.deserialize(b"a,")


def test_arrays_and_nested_rows_read():
    info = T.ROW([T.BASIC_ARRAY(T.STRING()), T.BASIC_ARRAY(T.INT()), T.ROW([T.INT(), T.STRING()])])
    deserializer = D.Builder(info).set_null_literal("N").build()
    assert values(deserializer.deserialize(b"a;b,1; 2,1;x")) == [["a", "b"], [1, 2], [1, "x"]]
    assert values(deserializer.deserialize(b",,")) == [[], [], None]
    assert values(deserializer.deserialize(b"a;N,1,1;N")) == [["a", None], [1], [1, None]]
    assert values(deserializer.deserialize(b'"a;b",1,"1;x y"')) == [["a", "b"], [1], [1, "x y"]]
    with pytest.raises(Py4JJavaError, match="Row length mismatch. 2 fields expected but was 3."):
        deserializer.deserialize(b"a,1,1;x;y")
    piped = D.Builder(info).set_array_element_delimiter("|").build()
    assert values(piped.deserialize(b"a|b,1|2,3|z")) == [["a", "b"], [1, 2], [3, "z"]]
    assert values(piped.deserialize(b"a;b,1,3|z")) == [["a;b"], [1], [3, "z"]]


def test_deserializer_options():
    info = T.ROW([T.STRING(), T.INT()])
    deserializer = D.Builder(info).set_field_delimiter(";").set_quote_character("'") \
        .set_escape_character("\\").build()
    assert [values(deserializer.deserialize(line)) for line in [
        b"'a;b';1", b"a'b;1", b"'a''b';1", b"a\\;b;1", b"a b;1", b"a\\\\b;1", b"a\\nb;1", b"'a\\'b';1"]] == [
        ["a;b", 1], ["a'b", 1], ["a'b", 1], ["a;b", 1], ["a b", 1], ["a\\b", 1], ["a\nb", 1], ["a'b", 1]]


def test_comments():
    info = T.ROW([T.STRING(), T.INT()])
    deserializer = D.Builder(info).set_allow_comments(True).build()
    assert values(deserializer.deserialize(b"a,1")) == ["a", 1]
    assert values(deserializer.deserialize(b"# note\nb,2")) == ["b", 2]
    for line in (b"#c,1", b"# hello", b"  #c,1"):
        with pytest.raises(Py4JJavaError, match="No content"):
            deserializer.deserialize(line)
    assert values(D.Builder(info).build().deserialize(b"#c,1")) == ["#c", 1]


def test_ignore_parse_errors():
    info = T.ROW([T.STRING(), T.INT(), T.BOOLEAN()])
    deserializer = D.Builder(info).set_ignore_parse_errors(True).build()
    got = [values(deserializer.deserialize(line)) for line in [
        b"", b"a", b"a,x,true", b"a,1", b"a,1,true,extra", b",,", b'"a,1', b"a,1,true\nb,2,false",
        b"\xff,1,true"]]
    assert got == [None, ["a", None, None], ["a", None, True], ["a", 1, None], None, ["", None, False], None,
                   ["a", 1, True], None]
    # the Kafka source takes the count of skipped records per read task and logs it
    assert deserializer._take_skipped() == 4 and deserializer._take_skipped() == 0
    nested = D.Builder(T.ROW([T.BASIC_ARRAY(T.INT()), T.ROW([T.INT(), T.INT()])])) \
        .set_ignore_parse_errors(True).build()
    assert values(nested.deserialize(b"1;x;2,5")) == [[1, None, 2], [5, None]]


# -- round trips -----------------------------------------------------------------------------------

def _java_float(x):
    return struct.unpack("f", struct.pack("f", x))[0]


ROUND_TRIP = T.ROW_NAMED(
    ["s", "b", "i8", "i16", "i32", "i64", "f32", "f64", "dec", "big", "day", "ts", "bytes", "arr", "nested"],
    [T.STRING(), T.BOOLEAN(), T.BYTE(), T.SHORT(), T.INT(), T.LONG(), T.FLOAT(), T.DOUBLE(), T.BIG_DEC(),
     T.BIG_INT(), T.SQL_DATE(), T.SQL_TIMESTAMP(), T.PRIMITIVE_ARRAY(T.BYTE()), T.BASIC_ARRAY(T.STRING()),
     T.ROW([T.INT(), T.STRING()])])

_text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=12)
_element = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=6) \
    .filter(lambda s: ";" not in s and s != "N")


@st.composite
def round_trip_rows(draw):
    return Row(
        draw(_text.filter(lambda s: s != "N")), draw(st.booleans()),
        draw(st.integers(-128, 127)), draw(st.integers(-2 ** 15, 2 ** 15 - 1)),
        draw(st.integers(-2 ** 31, 2 ** 31 - 1)), draw(st.integers(-2 ** 63, 2 ** 63 - 1)),
        draw(st.floats(width=32, allow_nan=False)), draw(st.floats(allow_nan=False)),
        draw(st.decimals(allow_nan=False, allow_infinity=False, places=None).filter(lambda d: d.is_finite())),
        draw(st.integers(-10 ** 38 + 1, 10 ** 38 - 1)),        # the codec stores BIG_INT as decimal128(38, 0)
        draw(st.dates(min_value=datetime.date(1000, 1, 1))),
        draw(st.datetimes(min_value=datetime.datetime(1000, 1, 1))),
        draw(st.binary(max_size=10)),
        draw(st.lists(_element, max_size=4)),
        Row(draw(st.one_of(st.none(), st.integers(-5, 5))), draw(st.one_of(st.none(), _element))))


def _with_nulls(row, mask):
    return Row(*[None if m and i not in (12, 13, 14) else v for i, (v, m) in enumerate(zip(row, mask))])


@settings(max_examples=150, deadline=None)
@given(row=round_trip_rows(), mask=st.lists(st.booleans(), min_size=15, max_size=15),
       options=st.sampled_from([
           dict(), dict(field=";", quote="'", escape="\\", array="|"), dict(field="\t", escape="\\"),
           dict(field="|", array="/", line="\r\n")]))
def test_round_trip(row, mask, options):
    row = _with_nulls(row, mask)

    def de(b):
        b = b.set_null_literal("N").set_field_delimiter(options.get("field", ","))
        b = b.set_quote_character(options.get("quote", '"')).set_array_element_delimiter(options.get("array", ";"))
        return b.set_escape_character(options["escape"]) if "escape" in options else b

    def se(b):
        b = b.set_null_literal("N").set_field_delimiter(options.get("field", ","))
        b = b.set_quote_character(options.get("quote", '"')).set_array_element_delimiter(options.get("array", ";"))
        b = b.set_line_delimiter(options.get("line", "\n"))
        return b.set_escape_character(options["escape"]) if "escape" in options else b

    deserializer, serializer = schemas(ROUND_TRIP, de, se)
    array_delimiter = options.get("array", ";")
    if any(array_delimiter in e for e in row[13]) or (row[14][1] is not None and array_delimiter in row[14][1]):
        return
    if row[13] and not array_delimiter.join(row[13]).strip("".join(map(chr, range(33)))):
        return          # Jackson (and so Flink) reads a blank array field as no elements
    data = serializer.serialize(row)
    back = deserializer.deserialize(data)
    expected = list(row)
    expected[6] = None if row[6] is None else _java_float(row[6])
    expected[8] = None if row[8] is None else decimal.Decimal(str(row[8]))
    if row[14] is not None and row[14][1] == "":
        expected[14] = Row(row[14][0], "")
    got = values(back)
    assert got[:14] == [v if not isinstance(v, Row) else values(v) for v in expected[:14]], data
    assert got[14] == values(expected[14]), data
    # the row also fits the stream's Arrow storage
    codec.from_python([back], ROUND_TRIP)


# -- the vectorised path decodes exactly what the per-record path decodes ---------------------------

FAST = T.ROW_NAMED(["s", "i", "l", "d", "b", "y"], [T.STRING(), T.INT(), T.LONG(), T.DOUBLE(), T.BOOLEAN(),
                                                   T.BYTE()])


def _decode_both(deserializer, lines):
    import pyarrow as pa
    fast = deserializer._deserialize_arrow(pa.array(lines, pa.binary()))
    slow = []
    for line in lines:
        try:
            slow.append(deserializer.deserialize(line))
        except Py4JJavaError:
            slow.append("error")
    return fast, slow


def test_fast_path_simple_batch():
    deserializer = D.Builder(FAST).set_null_literal("N").build()
    lines = [b"a,1,2,1.5,true,3\n", b" b ,-2, 3 ,1e3,FALSE,-128", b"N,N,N,N,N,N", b",0,0,.5,x,0\r\n"]
    fast, slow = _decode_both(deserializer, lines)
    assert fast is not None
    assert fast.to_pylist() == codec.from_python(slow, FAST).to_pylist()
    assert fast.type == codec.arrow_type(FAST)


@pytest.mark.parametrize("line", [
    b'"q",1,2,1.5,true,3', b"a,1,2,1.5,true", b"a,x,2,1.5,true,3", b"a,1,2,NaN,true,3", b"a,1,2,1d,true,3",
    b"a,128000000000,2,1,true,3", b"a,1,2,1,true,300", b"", b"a\nb,1,2,1,true,3", b"\xff,1,2,1,true,3",
    b"a,1,99999999999999999999,1,true,3",
])
def test_fast_path_leaves_unusual_batches_to_the_per_record_path(line):
    deserializer = D.Builder(FAST).build()
    fast, _ = _decode_both(deserializer, [b"a,1,2,1.5,true,3", line])
    assert fast is None


def test_no_fast_path_for_options_or_types_it_does_not_cover():
    import pyarrow as pa
    lines = pa.array([b"a,1"], pa.binary())
    assert D.Builder(T.ROW([T.STRING(), T.INT()])).set_escape_character("\\").build()._deserialize_arrow(lines) \
        is None
    assert D.Builder(T.ROW([T.STRING(), T.INT()])).set_allow_comments(True).build()._deserialize_arrow(lines) \
        is None
    assert D.Builder(T.ROW([T.STRING(), T.FLOAT()])).build()._deserialize_arrow(lines) is None
    assert D.Builder(T.ROW([T.STRING(), T.INT()])).build()._deserialize_arrow(lines) is not None


_cell = st.one_of(st.text(st.sampled_from("ab 1-+.eE;N\t0x"), max_size=5), st.integers().map(str),
                  st.floats().map(repr))


@settings(max_examples=300, deadline=None)
@given(cells=st.lists(st.lists(_cell, min_size=5, max_size=7), min_size=1, max_size=6),
       delimiter=st.sampled_from([",", ";", "\t"]), null=st.sampled_from(["", "N"]))
def test_fast_path_agrees_with_per_record_path(cells, delimiter, null):
    deserializer = D.Builder(FAST).set_field_delimiter(delimiter).set_null_literal(null).build()
    lines = [delimiter.join(row).encode() for row in cells]
    fast, slow = _decode_both(deserializer, lines)
    if fast is not None:
        assert "error" not in slow
        assert fast.to_pylist() == codec.from_python(slow, FAST).to_pylist()


@st.composite
def _simple_rows(draw, delimiter):
    text = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters='"\r\n' + delimiter),
                   max_size=6)
    pad = st.sampled_from(["", " ", "\t"])

    def num(strategy):
        return st.one_of(st.just("N"), st.tuples(pad, strategy, pad).map("".join))
    return [draw(text), draw(num(st.integers(-2 ** 31, 2 ** 31 - 1).map(str))),
            draw(num(st.integers(-2 ** 63, 2 ** 63 - 1).map(str))),
            draw(num(st.floats(allow_nan=False, allow_infinity=False).map(repr))),
            draw(st.sampled_from(["true", "TRUE", "false", "x", "", " True ", "N"])),
            draw(num(st.integers(-128, 127).map(str)))]


@settings(max_examples=200, deadline=None)
@given(data=st.data(), delimiter=st.sampled_from([",", ";", "|"]), null=st.sampled_from(["", "N"]))
def test_fast_path_decodes_valid_batches_exactly(data, delimiter, null):
    rows = data.draw(st.lists(_simple_rows(delimiter), min_size=1, max_size=8))
    deserializer = D.Builder(FAST).set_field_delimiter(delimiter).set_null_literal(null).build()
    lines = [(delimiter.join(row) + data.draw(st.sampled_from(["", "\n", "\r\n"]))).encode() for row in rows]
    fast, slow = _decode_both(deserializer, lines)
    if "error" in slow:
        assert fast is None
    else:
        if null == "N":
            assert fast is not None
        assert fast is None or fast.to_pylist() == codec.from_python(slow, FAST).to_pylist()


def test_blank_array_elements_do_not_round_trip_like_in_flink():
    deserializer, serializer = schemas(T.ROW([T.BASIC_ARRAY(T.STRING())]))
    assert serializer.serialize(Row([" "])) == b'" "\n'
    assert values(deserializer.deserialize(b'" "\n')) == [[]]


def test_comments_skip_blank_lines_and_a_trailing_escape_fails():
    info = T.ROW([T.STRING(), T.STRING()])
    deserializer = D.Builder(info).set_allow_comments(True).set_escape_character("\\").build()
    for line in (b"  \na,b", b"\n\na,b", b"\r\na,b", b"# c\n  # d\na,b"):
        assert values(deserializer.deserialize(line)) == ["a", "b"]
    assert values(deserializer.deserialize(b"a\\\nb,c")) == ["a\nb", "c"]
    for line in (b"\t\n#x\na,b", b"a\\", b"'a\\", b"a,b\\", b" \n"):
        with pytest.raises(Py4JJavaError, match="Failed to deserialize CSV row"):
            deserializer.deserialize(line)
    # without comments a blank first line is a record of one empty field
    with pytest.raises(Py4JJavaError, match="Row length mismatch. 2 fields expected but was 1."):
        D.Builder(info).build().deserialize(b"\na,b")


def test_a_row_is_written_by_position_whatever_its_field_names():
    info = Types.ROW_NAMED(["b", "a"], [Types.STRING(), Types.STRING()])
    serializer = CsvRowSerializationSchema.Builder(info).build()
    assert serializer.serialize(Row(a="x", b="y")) == b"x,y\n"
    with pytest.raises(Py4JJavaError, match=r"Could not serialize row .*Row length mismatch. 2 fields expected "
                                            r"but was 3."):
        serializer.serialize(Row(a="x", b="y", c="z"))

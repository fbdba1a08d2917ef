"""Behaviours PyFlink's own formats tests check, on pyflink-compat's schemas (no Spark needed).

Ported from what flink-python's ``datastream/formats/tests/test_json.py``, ``test_csv.py``, ``test_avro.py``,
``test_parquet.py`` / ``test_orc.py``, ``common/tests/test_serialization_schemas.py`` and the format parts of
``datastream/connectors/tests/test_kafka.py`` check. PyFlink drives the Java schemas directly; here the same
records go through our schemas. JSON, CSV and the common schemas: expected values measured on PyFlink 2.3.0
(its Java schemas opened and called through py4j). Avro: PyFlink 2.3.0 ships no flink-avro jar, so the bytes
are checked against fastavro, an independent implementation of the Avro specification.

PyFlink's file-system tests (CsvReaderFormat / CsvBulkWriters over a FileSource / FileSink, AvroInputFormat,
AvroBulkWriters, Parquet, ORC) have no Kafka equivalent here: those APIs raise UnsupportedFeatureError, tested
below; their reading and writing rules (column types, array separators, comments, quote and escape
characters) are checked on the CSV row schemas, which share flink-csv's Jackson reader and writer.
"""
import decimal
import io
import json

import fastavro
import pytest
from py4j.protocol import Py4JJavaError

from pyflink_compat.common import Row, Types
from pyflink_compat.common.serialization import ByteArraySchema, RowFieldExtractorSchema, SimpleStringSchema
from pyflink_compat.datastream.connectors.kafka import KafkaRecordSerializationSchema, KafkaSource
from pyflink_compat.datastream.formats.avro import (AvroBulkWriters, AvroInputFormat, AvroRowDeserializationSchema,
                                                    AvroRowSerializationSchema, AvroSchema, GenericRecordAvroTypeInfo)
from pyflink_compat.datastream.formats.csv import (CsvBulkWriters, CsvReaderFormat, CsvRowDeserializationSchema,
                                                   CsvRowSerializationSchema, CsvSchema)
from pyflink_compat.datastream.formats.json import JsonRowDeserializationSchema, JsonRowSerializationSchema
from pyflink_compat.util.exceptions import UnsupportedFeatureError

T = Types


# -- JSON (test_json.py) ---------------------------------------------------------------------------------

SVT_ROW = T.ROW_NAMED(["svt", "ops", "ids"],
                      [T.STRING(), T.ROW_NAMED(["id"], [T.STRING()]), T.PRIMITIVE_ARRAY(T.INT())])
SVT = "2020-02-24T12:58:09.209+0800"
OPS_ID = "281708d0-4092-4c21-9233-931950b6eccf"


@pytest.mark.parametrize("record, expected", [
    ('{"svt":"%s"}' % SVT, '{"svt":"%s","ops":null,"ids":null}' % SVT),
    ('{"svt":"%s", "ops":{"id":"%s"},"ids":[1, 2, 3]}' % (SVT, OPS_ID),
     '{"svt":"%s","ops":{"id":"%s"},"ids":[1,2,3]}' % (SVT, OPS_ID)),
])
def test_json_deserialize_then_serialize_fills_missing_fields_with_null_and_writes_compactly(record, expected):
    deserializer = JsonRowDeserializationSchema.builder().type_info(SVT_ROW).build()
    serializer = JsonRowSerializationSchema.builder().with_type_info(SVT_ROW).build()
    assert serializer.serialize(deserializer.deserialize(record.encode("utf-8"))) == expected.encode("utf-8")


def test_json_deserialized_row_has_the_types_fields_nested_row_and_int_array():
    deserializer = JsonRowDeserializationSchema.builder().type_info(SVT_ROW).build()
    row = deserializer.deserialize(('{"svt":"%s", "ops":{"id":"%s"},"ids":[1, 2, 3]}' % (SVT, OPS_ID)).encode())
    assert row.as_dict() == {"svt": SVT, "ops": Row(id=OPS_ID), "ids": [1, 2, 3]}
    assert deserializer.produced_type() == SVT_ROW
    assert deserializer.deserialize(('{"svt":"%s"}' % SVT).encode()).as_dict() == {"svt": SVT, "ops": None,
                                                                                    "ids": None}


def test_json_row_without_names_is_written_with_flinks_f0_names():
    # test_kafka.py: a ROW([STRING]) value schema writes Row('test') as {"f0":"test"}
    serializer = JsonRowSerializationSchema.builder().with_type_info(T.ROW([T.STRING()])).build()
    assert serializer.serialize(Row("test")) == b'{"f0":"test"}'


def test_json_null_row_is_written_as_an_empty_object():
    # PyFlink 2.3.0: JsonRowSerializationSchema.serialize(null) -> b'{}'
    serializer = JsonRowSerializationSchema.builder().with_type_info(T.ROW([T.INT()])).build()
    assert serializer.serialize(None) == b"{}"


def test_json_row_shorter_than_the_schema_fails_naming_the_row_as_java_prints_it():
    serializer = JsonRowSerializationSchema.builder().with_type_info(
        T.ROW_NAMED(["a", "b"], [T.STRING(), T.STRING()])).build()
    with pytest.raises(Exception) as info:
        serializer.serialize(Row("a"))
    assert ("java.lang.RuntimeException: Could not serialize row '+I[a]'. Make sure that the schema matches the "
            "input." in str(info.value))
    assert "java.lang.ArrayIndexOutOfBoundsException: Index 1 out of bounds for length 1" in str(info.value)


CAST_CASES = [
    # (schema field type, value of the stream's field, Java class of that value, Java class the schema casts to)
    (T.STRING(), 5, "java.lang.Integer", "java.lang.String"),
    (T.STRING(), True, "java.lang.Boolean", "java.lang.String"),
    (T.INT(), "5", "java.lang.String", "java.lang.Integer"),
    (T.INT(), True, "java.lang.Boolean", "java.lang.Integer"),
    (T.DOUBLE(), 5, "java.lang.Integer", "java.lang.Double"),
    (T.DOUBLE(), "5", "java.lang.String", "java.lang.Double"),
    (T.BOOLEAN(), 5, "java.lang.Integer", "java.lang.Boolean"),
    (T.BOOLEAN(), "5", "java.lang.String", "java.lang.Boolean"),
]


@pytest.mark.parametrize("field_type, value, actual, target", CAST_CASES)
def test_json_field_of_another_class_than_the_schemas_fails_with_class_cast(field_type, value, actual, target):
    # PyFlink 2.3.0 casts each field to the schema type's class; it does not convert ("5" is no INT)
    serializer = JsonRowSerializationSchema.builder().with_type_info(T.ROW([field_type])).build()
    with pytest.raises(Exception) as info:
        serializer.serialize(Row(value))
    text = str(info.value)
    assert "Could not serialize row '+I[%s]'." % ("true" if value is True else value) in text
    assert ("java.lang.ClassCastException: class %s cannot be cast to class %s (%s and %s are in module java.base "
            "of loader 'bootstrap')" % (actual, target, actual, target)) in text


@pytest.mark.parametrize("field_type, value, expected", [
    (T.STRING(), "5", b'{"f0":"5"}'), (T.INT(), 5, b'{"f0":5}'), (T.DOUBLE(), 5.0, b'{"f0":5.0}'),
    (T.BOOLEAN(), True, b'{"f0":true}')])
def test_json_field_of_the_schemas_class_is_written(field_type, value, expected):
    serializer = JsonRowSerializationSchema.builder().with_type_info(T.ROW([field_type])).build()
    assert serializer.serialize(Row(value)) == expected


# -- CSV row schemas (test_csv.py's CsvRowSerializationSchema test) --------------------------------------

def _csv_options(builder):
    return builder.set_escape_character("*").set_quote_character("'").set_array_element_delimiter(":") \
        .set_field_delimiter(";")


@pytest.mark.parametrize("field_type, value, csv_value", [
    (T.STRING(), "123'4*", "'123''4**'"),           # quote doubled, escape character escaped
    (T.STRING(), "a;b'c", "'a;b''c'"),               # the field delimiter inside quotes
    (T.INT(), 12, "12"),
    (T.ROW([T.STRING(), T.STRING()]), Row("1", "hello"), "'1:hello'"),          # nested row: array delimiter
    (T.ROW([T.STRING(), T.STRING()]), Row("1", "hello world"), "'1:hello world'"),
    (T.STRING(), "null", "null"),                    # the text null is a string, not a null
], ids=["quote-and-escape", "delimiter", "int", "row", "row-with-space", "null-text"])
def test_csv_serializes_with_the_options_and_reads_the_same_row_back(field_type, value, csv_value):
    row_type = T.ROW([T.STRING(), field_type, T.STRING()])
    serializer = _csv_options(CsvRowSerializationSchema.Builder(row_type)).build()
    deserializer = _csv_options(CsvRowDeserializationSchema.Builder(row_type)).build()
    expected = "BEGIN;" + csv_value + ";END\n"
    assert serializer.serialize(Row("BEGIN", value, "END")) == expected.encode("utf-8")
    row = deserializer.deserialize(expected.encode("utf-8"))
    assert _values(row) == _values(Row("BEGIN", value, "END"))
    assert row.as_dict()["f0"] == "BEGIN"


def _values(row):
    """A row's values, nested rows as lists (rows with and without field names compare by value here)."""
    return [_values(v) if isinstance(v, Row) else v for v in row]


# -- CSV: the file-system tests' rules on the row schemas ------------------------------------------------

PRIMITIVES = T.ROW_NAMED(["tinyint", "smallint", "int", "bigint", "float", "double", "decimal", "boolean", "string"],
                         [T.BYTE(), T.SHORT(), T.INT(), T.LONG(), T.FLOAT(), T.DOUBLE(), T.BIG_DEC(), T.BOOLEAN(),
                          T.STRING()])
PRIMITIVE_LINE = b"127,-32767,2147483647,-9223372036854775808,3e38,2e-308,1.5,true,string"


@pytest.mark.parametrize("line", [PRIMITIVE_LINE, PRIMITIVE_LINE + b"\n"])
def test_csv_primitive_columns_read_and_written_in_javas_notation(line):
    row = CsvRowDeserializationSchema.Builder(PRIMITIVES).build().deserialize(line)
    assert row.as_dict() == {"tinyint": 127, "smallint": -32767, "int": 2147483647, "bigint": -9223372036854775808,
                             "float": pytest.approx(3e38, rel=1e-7), "double": 2e-308,
                             "decimal": decimal.Decimal("1.5"), "boolean": True, "string": "string"}
    assert CsvRowSerializationSchema.Builder(PRIMITIVES).build().serialize(row) == \
        b"127,-32767,2147483647,-9223372036854775808,3.0E38,2.0E-308,1.5,true,string\n"


def test_csv_array_columns_with_an_element_delimiter():
    row_type = T.ROW_NAMED(["number_array", "boolean_array", "string_array"],
                           [T.BASIC_ARRAY(T.INT()), T.BASIC_ARRAY(T.BOOLEAN()), T.BASIC_ARRAY(T.STRING())])
    row = CsvRowDeserializationSchema.Builder(row_type).set_field_delimiter("|") \
        .set_array_element_delimiter(";").build().deserialize(b"1;2;3|true;false|a;b;c")
    assert row.as_dict() == {"number_array": [1, 2, 3], "boolean_array": [True, False],
                             "string_array": ["a", "b", "c"]}
    serializer = CsvRowSerializationSchema.Builder(row_type).set_field_delimiter("|") \
        .set_array_element_delimiter(";").disable_quote_character().build()
    assert serializer.serialize(row) == b"1;2;3|true;false|a;b;c\n"


def test_csv_primitive_int_array_is_refused_as_flink_csv_does():
    row_type = T.ROW_NAMED(["number_array"], [T.PRIMITIVE_ARRAY(T.INT())])
    for builder in (CsvRowDeserializationSchema.Builder, CsvRowSerializationSchema.Builder):
        with pytest.raises(Py4JJavaError) as info:
            builder(row_type)
        assert ("java.lang.IllegalArgumentException: Unsupported type information 'int[]' for field "
                "'number_array'." in str(info.value))


def test_csv_allow_comments():
    row_type = T.ROW_NAMED(["string"], [T.STRING()])
    commented = CsvRowDeserializationSchema.Builder(row_type).set_allow_comments(True).build()
    assert [commented.deserialize(line) for line in (b"a", b"b")] == [Row(string="a"), Row(string="b")]
    # a record that is only a comment has no content: it fails (PyFlink 2.3.0), or is skipped when ignored
    with pytest.raises(Exception) as info:
        commented.deserialize(b"# this is comment")
    assert "Failed to deserialize CSV row '# this is comment'." in str(info.value)
    assert "No content to map due to end-of-input" in str(info.value)
    ignoring = CsvRowDeserializationSchema.Builder(row_type).set_allow_comments(True) \
        .set_ignore_parse_errors(True).build()
    assert ignoring.deserialize(b"# this is comment") is None
    plain = CsvRowDeserializationSchema.Builder(row_type).build()
    assert plain.deserialize(b"# this is comment") == Row(string="# this is comment")


def test_csv_header_line_is_data_for_a_row_schema():
    # CsvSchema's use-header has no row-schema option: a header record is parsed as data
    row_type = T.ROW_NAMED(["string", "number"], [T.STRING(), T.INT()])
    with pytest.raises(Exception) as info:
        CsvRowDeserializationSchema.Builder(row_type).build().deserialize(b"h1,h2")
    assert "Failed to deserialize CSV row 'h1,h2'." in str(info.value)
    assert 'java.lang.NumberFormatException: For input string: "h2"' in str(info.value)
    ignoring = CsvRowDeserializationSchema.Builder(row_type).set_ignore_parse_errors(True).build()
    assert ignoring.deserialize(b"h1,h2") == Row(string="h1", number=None)
    assert ignoring.deserialize(b"string,123") == Row(string="string", number=123)


TWO_STRINGS = T.ROW_NAMED(["string", "string2"], [T.STRING(), T.STRING()])


def test_csv_default_quote_character_with_another_field_delimiter():
    assert CsvRowDeserializationSchema.Builder(TWO_STRINGS).set_field_delimiter("|").build() \
        .deserialize(b'"string"|"string2"') == Row(string="string", string2="string2")
    # with "|" as delimiter, every string is quoted (characters below "|" + 1 need quotes)
    assert CsvRowSerializationSchema.Builder(TWO_STRINGS).set_field_delimiter("|").build() \
        .serialize(Row("string", "string2")) == b'"string"|"string2"\n'


def test_csv_custom_quote_character():
    assert CsvRowDeserializationSchema.Builder(TWO_STRINGS).set_field_delimiter("|").set_quote_character("`") \
        .build().deserialize(b"`string`|`string2`") == Row(string="string", string2="string2")
    assert CsvRowSerializationSchema.Builder(TWO_STRINGS).set_field_delimiter("|").set_quote_character("`") \
        .build().serialize(Row("string", "string2")) == b"`string`|`string2`\n"


def test_csv_escape_character_reads_escaped_delimiter_and_quotes_and_writing_quotes_instead():
    assert CsvRowDeserializationSchema.Builder(TWO_STRINGS).set_escape_character("\\").build() \
        .deserialize(b'string\\,,\\"string2\\"') == Row(string="string,", string2='"string2"')
    # PyFlink 2.3.0 writes such fields quoted, the quote doubled, with or without an escape character
    for builder in (CsvRowSerializationSchema.Builder(TWO_STRINGS).set_escape_character("\\"),
                    CsvRowSerializationSchema.Builder(TWO_STRINGS)):
        assert builder.build().serialize(Row("string,", '"string2"')) == b'"string,","""string2"""\n'


def test_csv_null_literal_and_empty_fields():
    with_literal = CsvRowDeserializationSchema.Builder(TWO_STRINGS).set_null_literal("N").build()
    assert with_literal.deserialize(b"N,x") == Row(string=None, string2="x")
    assert CsvRowSerializationSchema.Builder(TWO_STRINGS).set_null_literal("N").build() \
        .serialize(Row(None, "x")) == b"N,x\n"
    assert CsvRowSerializationSchema.Builder(TWO_STRINGS).build().serialize(Row(None, "x")) == b",x\n"
    assert CsvRowDeserializationSchema.Builder(TWO_STRINGS).build().deserialize(b",x") == Row(string="",
                                                                                               string2="x")
    with pytest.raises(Exception, match='NumberFormatException: For input string: ""'):
        CsvRowDeserializationSchema.Builder(T.ROW([T.INT(), T.STRING()])).build().deserialize(b",x")


def test_csv_line_delimiter():
    assert CsvRowSerializationSchema.Builder(TWO_STRINGS).set_line_delimiter("\r\n").build() \
        .serialize(Row("a", "b")) == b"a,b\r\n"
    with pytest.raises(Py4JJavaError, match=r"Unsupported new line delimiter. Only \\n, \\r, \\r\\n, or empty "
                                            r"string are supported."):
        CsvRowSerializationSchema.Builder(TWO_STRINGS).set_line_delimiter(";")


def test_csv_record_arity_errors():
    deserializer = CsvRowDeserializationSchema.Builder(TWO_STRINGS).build()
    with pytest.raises(Exception) as info:
        deserializer.deserialize(b"a,b,c")
    assert 'Too many entries: expected at most 2 (value #2 (1 chars) "c")' in str(info.value)
    with pytest.raises(Exception) as info:
        deserializer.deserialize(b"a")
    assert "Row length mismatch. 2 fields expected but was 1." in str(info.value)


def test_csv_serialization_errors_name_the_row_as_java_prints_it():
    # PyFlink 2.3.0: "Could not serialize row '+I[a]'." (the CSV schema adds no hint, unlike JSON)
    with pytest.raises(Py4JJavaError) as info:
        CsvRowSerializationSchema.Builder(TWO_STRINGS).build().serialize(Row("a"))
    text = str(info.value)
    assert "java.lang.RuntimeException: Could not serialize row '+I[a]'. (" in text
    assert "Row length mismatch. 2 fields expected but was 1." in text
    assert "Make sure" not in text
    with pytest.raises(Py4JJavaError, match=r"Could not serialize row 'null'\."):
        CsvRowSerializationSchema.Builder(TWO_STRINGS).build().serialize(None)


@pytest.mark.parametrize("field_type, value, actual, target", CAST_CASES)
def test_csv_field_of_another_class_than_the_schemas_fails_with_class_cast(field_type, value, actual, target):
    serializer = CsvRowSerializationSchema.Builder(T.ROW([field_type])).build()
    with pytest.raises(Py4JJavaError) as info:
        serializer.serialize(Row(value))
    text = str(info.value)
    assert "Could not serialize row '+I[%s]'." % ("true" if value is True else value) in text
    assert "java.lang.ClassCastException: class %s cannot be cast to class %s" % (actual, target) in text


@pytest.mark.parametrize("call", [
    lambda: CsvSchema.builder(),
    lambda: CsvReaderFormat.for_schema(None),
    lambda: CsvBulkWriters.for_schema(None),
], ids=["CsvSchema.builder", "CsvReaderFormat.for_schema", "CsvBulkWriters.for_schema"])
def test_csv_file_system_formats_raise_unsupported(call):
    with pytest.raises(UnsupportedFeatureError) as info:
        call()
    assert info.value.section == "formats"


def test_file_source_and_sink_raise_unsupported():
    from pyflink_compat.datastream.connectors.file_system import FileSink, FileSource
    with pytest.raises(UnsupportedFeatureError) as info:
        FileSource.for_record_stream_format(None, "/tmp/in.csv")
    assert info.value.section == "connectors"
    with pytest.raises(UnsupportedFeatureError) as info:
        FileSink.for_bulk_format("/tmp/out", None)
    assert info.value.section == "connectors"


# -- Avro (test_avro.py's schemas through the Avro row schemas) ------------------------------------------

def _record(*fields, name="test"):
    return {"type": "record", "name": name, "fields": [{"name": n, "type": t} for n, t in fields]}


BASIC = _record(("boolean", "boolean"), ("int", "int"), ("long", "long"), ("float", "float"), ("double", "double"),
                ("string", "string"))
ENUM = _record(("suit", {"type": "enum", "name": "Suit", "symbols": ["SPADES", "HEARTS", "DIAMONDS", "CLUBS"]}))
ARRAY = _record(("array", {"type": "array", "items": _record(("int", "int"), ("double", "double"), name="item")}))
MAP = _record(("map", {"type": "map", "values": "long"}))
NULLABLE = _record(("union", ["null", "int"]))


def _avro_bytes(schema, datum):
    out = io.BytesIO()
    fastavro.schemaless_writer(out, fastavro.parse_schema(schema), datum)
    return out.getvalue()


@pytest.mark.parametrize("schema, row_type, data", [
    (BASIC, T.ROW_NAMED(["boolean", "int", "long", "float", "double", "string"],
                        [T.BOOLEAN(), T.INT(), T.LONG(), T.FLOAT(), T.DOUBLE(), T.STRING()]),
     [{"boolean": True, "int": 0, "long": 1, "float": 2.0, "double": 3.0, "string": "s1"},
      {"boolean": False, "int": 4, "long": 5, "float": 6.0, "double": 7.0, "string": "s2"}]),
    (ENUM, T.ROW_NAMED(["suit"], [T.STRING()]), [{"suit": "SPADES"}, {"suit": "DIAMONDS"}]),
    (ARRAY, T.ROW_NAMED(["array"], [T.OBJECT_ARRAY(T.ROW_NAMED(["int", "double"], [T.INT(), T.DOUBLE()]))]),
     [{"array": [{"int": 1, "double": 2.0}, {"int": 3, "double": 4.0}]},
      {"array": [{"int": 5, "double": 6.0}, {"int": 7, "double": 8.0}]}]),
    (MAP, T.ROW_NAMED(["map"], [T.MAP(T.STRING(), T.LONG())]), [{"map": {"a": 1, "b": 2}}, {"map": {"c": 3, "d": 4}}]),
    (NULLABLE, T.ROW_NAMED(["union"], [T.INT()]), [{"union": 1}, {"union": None}]),
], ids=["basic", "enum", "array-of-records", "map", "nullable-union"])
def test_avro_schema_types_read_and_written(schema, row_type, data):
    text = json.dumps(schema)
    deserializer = AvroRowDeserializationSchema(avro_schema_string=text)
    serializer = AvroRowSerializationSchema(avro_schema_string=text)
    assert deserializer.produced_type() == row_type
    for datum in data:
        encoded = _avro_bytes(schema, datum)
        row = deserializer.deserialize(encoded)
        assert _plain(row) == datum
        assert serializer.serialize(row) == encoded


@pytest.mark.parametrize("schema, rows", [
    (_record(("null", "null"), ("boolean", "boolean"), ("int", "int"), ("long", "long"), ("float", "float"),
             ("double", "double"), ("string", "string")),
     [Row(None, True, 0, 1, 2.0, 3.0, "s1"), Row(None, False, 4, 5, 6.0, 7.0, "s2")]),
    (_record(("union", ["int", "double", "null"])), [Row(1), Row(2.0), Row(None)]),
], ids=["basic-with-null-field", "union-int-double-null"])
def test_avro_writes_test_avros_null_field_and_three_branch_union(schema, rows):
    # test_avro.py's write tests: each value written under its own branch, read back by fastavro
    serializer = AvroRowSerializationSchema(avro_schema_string=json.dumps(schema))
    names = [f["name"] for f in schema["fields"]]
    for row in rows:
        written = fastavro.schemaless_reader(io.BytesIO(serializer.serialize(row)), fastavro.parse_schema(schema))
        assert written == dict(zip(names, list(row)))
        assert [type(v) for v in written.values()] == [type(v) for v in row]


def _plain(value):
    if isinstance(value, Row):
        return {k: _plain(v) for k, v in value.as_dict().items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


@pytest.mark.parametrize("schema, what", [
    (_record(("null", "null"), ("int", "int")), "The Avro type 'null' as a field type"),
    (_record(("union", ["int", "double", "null"])), "Avro unions of several non-null types"),
])
def test_avro_types_without_a_python_row_field_raise_unsupported(schema, what):
    # test_avro.py's "null" field and three-branch union: Flink types them VOID / GENERIC(Object), which a
    # PyFlink job cannot receive as a Python value; pyflink-compat's deserializer refuses them when it is built
    with pytest.raises(UnsupportedFeatureError) as info:
        AvroRowDeserializationSchema(avro_schema_string=json.dumps(schema))
    assert what in str(info.value) and info.value.section == "formats"


def test_avro_record_without_fields():
    # test_kafka.py builds Kafka sources and sinks with this schema
    text = '{"type": "record", "name": "test_record", "fields": []}'
    assert AvroRowDeserializationSchema(avro_schema_string=text).produced_type().get_field_names() == []
    assert list(AvroRowDeserializationSchema(avro_schema_string=text).deserialize(b"")) == []
    assert AvroRowSerializationSchema(avro_schema_string=text).serialize(Row()) == b""


def test_avro_schema_parse_string_keeps_the_schema():
    schema = AvroSchema.parse_string(json.dumps(BASIC))
    assert json.loads(str(schema)) == BASIC


@pytest.mark.parametrize("call", [
    lambda: AvroInputFormat("in.avro", AvroSchema.parse_string(json.dumps(BASIC))),
    lambda: AvroBulkWriters.for_generic_record(AvroSchema.parse_string(json.dumps(BASIC))),
    lambda: GenericRecordAvroTypeInfo(AvroSchema.parse_string(json.dumps(BASIC))),
], ids=["AvroInputFormat", "AvroBulkWriters.for_generic_record", "GenericRecordAvroTypeInfo"])
def test_avro_file_system_formats_raise_unsupported(call):
    with pytest.raises(UnsupportedFeatureError) as info:
        call()
    assert info.value.section == "formats"


# -- Parquet and ORC (test_parquet.py, test_orc.py) ------------------------------------------------------

@pytest.mark.parametrize("call", [
    lambda m: m.ParquetColumnarRowInputFormat(None, None),
    lambda m: m.AvroParquetReaders.for_generic_record(None),
    lambda m: m.AvroParquetWriters.for_generic_record(None),
    lambda m: m.ParquetBulkWriters.for_row_type(None),
], ids=["ParquetColumnarRowInputFormat", "AvroParquetReaders", "AvroParquetWriters", "ParquetBulkWriters"])
def test_parquet_formats_raise_unsupported(call):
    from pyflink_compat.datastream.formats import parquet
    with pytest.raises(UnsupportedFeatureError) as info:
        call(parquet)
    assert info.value.section == "formats"


def test_orc_bulk_writers_raise_unsupported():
    from pyflink_compat.datastream.formats.orc import OrcBulkWriters
    with pytest.raises(UnsupportedFeatureError) as info:
        OrcBulkWriters.for_row_type(None)
    assert info.value.section == "formats"


# -- common serialization schemas (test_serialization_schemas.py) ----------------------------------------

def test_simple_string_schema_round_trip():
    schema = SimpleStringSchema()
    assert schema.serialize("test string") == "test string".encode("utf-8")
    assert schema.deserialize("test string".encode("utf-8")) == "test string"


def test_byte_array_schema_round_trip():
    schema = ByteArraySchema()
    assert schema.serialize(b"test bytes") == b"test bytes"
    assert schema.deserialize(b"test bytes") == b"test bytes"


def test_row_field_extractor_schema_takes_a_bytes_field_as_it_is():
    assert RowFieldExtractorSchema(0).serialize(Row(b"key-bytes", b"value")) == b"key-bytes"
    assert RowFieldExtractorSchema(1).serialize(Row(b"key", bytearray(b"\x01\x02"))) == b"\x01\x02"


def test_row_field_extractor_schema_null_row_and_null_field_give_empty_bytes():
    # PyFlink 2.3.0: an empty byte array (a Kafka record with an empty value), not null
    assert RowFieldExtractorSchema(0).serialize(None) == b""
    assert RowFieldExtractorSchema(0).serialize(Row(None, b"value")) == b""


@pytest.mark.parametrize("value, java_class", [(42, "java.lang.Integer"), ("key", "java.lang.String"),
                                               (True, "java.lang.Boolean"), (1.5, "java.lang.Double")])
def test_row_field_extractor_schema_refuses_a_field_that_is_not_bytes(value, java_class):
    # PyFlink 2.3.0's Java schema: the field must already be byte[] (the master branch's test that turns 42
    # into b"42" is of a later version)
    with pytest.raises(Py4JJavaError) as info:
        RowFieldExtractorSchema(1).serialize(Row(b"k", value))
    assert ("java.lang.IllegalArgumentException: Field at index 1 must be of type byte[], but was %s" % java_class
            in str(info.value))


def test_row_field_extractor_schema_index_beyond_the_row():
    with pytest.raises(Py4JJavaError) as info:
        RowFieldExtractorSchema(5).serialize(Row(b"k", b"v"))
    assert "java.lang.IllegalArgumentException: Cannot access field 5 in Row with arity 2" in str(info.value)


def test_row_field_extractor_schema_negative_index():
    with pytest.raises(ValueError, match="^Field index must be non-negative, got: -1$"):
        RowFieldExtractorSchema(-1)


# -- the row formats in Kafka sources and sinks (test_kafka.py) ------------------------------------------

AVRO_EMPTY = '{"type": "record", "name": "test_record", "fields": []}'


@pytest.mark.parametrize("schema", [
    SimpleStringSchema(),
    JsonRowDeserializationSchema.builder().type_info(T.ROW([T.STRING()])).build(),
    CsvRowDeserializationSchema.Builder(T.ROW([T.STRING()])).build(),
    AvroRowDeserializationSchema(avro_schema_string=AVRO_EMPTY),
], ids=["SimpleStringSchema", "JsonRowDeserializationSchema", "CsvRowDeserializationSchema",
        "AvroRowDeserializationSchema"])
def test_row_formats_as_kafka_source_value_only_deserializer(schema):
    source = KafkaSource.builder().set_bootstrap_servers("localhost:9092").set_topics("test_topic") \
        .set_value_only_deserializer(schema).build()
    assert source._spec.value_deserializer is schema


def _serialization_schemas():
    return [JsonRowSerializationSchema.builder().with_type_info(T.ROW([T.STRING()])).build(),
            CsvRowSerializationSchema.Builder(T.ROW([T.STRING()])).build(),
            AvroRowSerializationSchema(avro_schema_string=AVRO_EMPTY), SimpleStringSchema()]


@pytest.mark.parametrize("index", range(4), ids=["json", "csv", "avro", "simple-string"])
def test_row_formats_as_kafka_key_and_value_serialization_schemas(index):
    schema = _serialization_schemas()[index]
    for setter in ("set_key_serialization_schema", "set_value_serialization_schema"):
        builder = KafkaRecordSerializationSchema.builder().set_topic("test-topic")
        builder = getattr(builder, setter)(schema)
        if setter == "set_key_serialization_schema":
            builder = builder.set_value_serialization_schema(SimpleStringSchema())
        record_schema = builder.build()
        spec = record_schema._spec
        assert getattr(spec, setter[4:]) is schema


def test_kafka_record_with_a_json_value_and_a_fixed_topic():
    record_schema = KafkaRecordSerializationSchema.builder().set_topic("test-topic").set_value_serialization_schema(
        JsonRowSerializationSchema.builder().with_type_info(T.ROW([T.STRING()])).build()).build()
    assert record_schema._serialize_record(Row("test")) == ("test-topic", None, b'{"f0":"test"}')


def test_kafka_record_with_a_json_value_and_a_topic_selector():
    def select(row):
        return {"a": "topic-a", "b": "topic-b"}.get(row[0], "topic-dead-letter")

    record_schema = KafkaRecordSerializationSchema.builder().set_topic_selector(select) \
        .set_value_serialization_schema(
            JsonRowSerializationSchema.builder().with_type_info(T.ROW([T.STRING()])).build()).build()
    assert [record_schema._serialize_record(Row(v)) for v in "abcd"] == [
        ("topic-a", None, b'{"f0":"a"}'), ("topic-b", None, b'{"f0":"b"}'),
        ("topic-dead-letter", None, b'{"f0":"c"}'), ("topic-dead-letter", None, b'{"f0":"d"}')]

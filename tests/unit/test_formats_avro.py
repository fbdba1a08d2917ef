"""AvroRowDeserializationSchema / AvroRowSerializationSchema: constructor checks, the Avro schema -> row type
conversion (Flink's AvroSchemaConverter), byte vectors of the Avro specification's binary encoding, and
Hypothesis round trips over every type Avro supports."""
import datetime
import decimal
import io
import json
import pickle

import fastavro
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pyflink_compat.common.typeinfo import Types
from pyflink_compat.common.types import Row
from pyflink_compat.datastream.formats.avro import (AvroRowDeserializationSchema, AvroRowSerializationSchema,
                                                    AvroSchema)
from pyflink_compat.util.exceptions import JavaStyleError, UnsupportedFeatureError


def record(*fields, name="R"):
    return json.dumps({"type": "record", "name": name, "namespace": "test",
                       "fields": [{"name": n, "type": t} for n, t in fields]})


def both(schema):
    return (AvroRowSerializationSchema(avro_schema_string=schema),
            AvroRowDeserializationSchema(avro_schema_string=schema))


# -- constructor checks --------------------------------------------------------------------------------

@pytest.mark.parametrize("cls", [AvroRowDeserializationSchema, AvroRowSerializationSchema])
def test_one_of_record_class_or_schema_is_required(cls):
    with pytest.raises(TypeError, match=r"^record_class or avro_schema_string should be specified\.$"):
        cls()
    with pytest.raises(TypeError, match="record_class or avro_schema_string should be specified."):
        cls(None, None)


@pytest.mark.parametrize("cls", [AvroRowDeserializationSchema, AvroRowSerializationSchema])
def test_record_class_needs_a_jvm_and_wins_over_the_schema(cls):
    for kwargs in ({"record_class": "com.example.User"},
                   {"record_class": "com.example.User", "avro_schema_string": record(("a", "int"))}):
        with pytest.raises(UnsupportedFeatureError) as info:
            cls(**kwargs)
        assert info.value.section == "formats"
        assert "com.example.User" in str(info.value) and cls.__name__ in str(info.value)
        assert "porting_guide/README.md#formats" in str(info.value)


@pytest.mark.parametrize("cls", [AvroRowDeserializationSchema, AvroRowSerializationSchema])
def test_invalid_schemas_fail_like_java(cls):
    for bad in ("{not json", '{"type": "record", "name": "R", "fields": [{"name": "a", "type": "nope"}]}'):
        with pytest.raises(JavaStyleError) as info:
            cls(avro_schema_string=bad)
        assert info.value.java_class == "java.lang.IllegalArgumentException"
        assert info.value.message.startswith("Could not parse Avro schema string.")
        assert "org.apache.flink.formats.avro.%s" % cls.__name__ in str(info.value)


def test_a_non_record_schema_fails_the_deserializer_at_once_and_the_serializer_per_row():
    with pytest.raises(JavaStyleError) as info:
        AvroRowDeserializationSchema(avro_schema_string='"string"')
    assert (info.value.java_class, info.value.message) == ("java.lang.IllegalArgumentException",
                                                           "Row type information expected.")
    ser = AvroRowSerializationSchema(avro_schema_string='"string"')
    with pytest.raises(RuntimeError, match=r"^Failed to serialize row\..*Not a record"):
        ser.serialize(Row("a"))


def test_unsupported_schema_parts_raise_naming_the_guide():
    with pytest.raises(UnsupportedFeatureError, match="unions of several non-null types"):
        AvroRowDeserializationSchema(avro_schema_string=record(("u", ["null", "int", "string"])))
    with pytest.raises(UnsupportedFeatureError, match="Recursive"):
        AvroRowDeserializationSchema(avro_schema_string=record(("next", ["null", "test.R"])))
    with pytest.raises(UnsupportedFeatureError, match="'null' as a field type"):
        AvroRowDeserializationSchema(avro_schema_string=record(("nothing", "null")))


def test_the_serializer_writes_generic_unions_and_null_fields_as_flink_does():
    # Flink's serializer hands a value of a many-branch union to Avro as it is: Avro picks the branch by type
    ser = AvroRowSerializationSchema(avro_schema_string=record(("u", ["null", "int", "string"]), ("n", "null")))
    assert ser.serialize(Row("x", None)) == bytes.fromhex("040278")
    assert ser.serialize(Row(5, None)) == bytes.fromhex("020a")
    assert ser.serialize(Row(None, None)) == bytes.fromhex("00")


def test_schemas_pickle_and_keep_pyflink_bases():
    from pyflink_compat.common.serialization import DeserializationSchema, SerializationSchema
    ser, de = both(record(("a", "int")))
    assert isinstance(ser, SerializationSchema) and isinstance(de, DeserializationSchema)
    ser2, de2 = pickle.loads(pickle.dumps(ser)), pickle.loads(pickle.dumps(de))
    assert ser2.serialize(Row(5)) == b"\x0a" and de2.deserialize(b"\x0a") == Row(a=5)
    assert de2.produced_type() == de.produced_type()


# -- AvroSchema -----------------------------------------------------------------------------------------

def test_avro_schema_parse_string_and_file(tmp_path):
    text = record(("a", "int"), ("b", "string"))
    parsed = AvroSchema.parse_string(text)
    assert json.loads(str(parsed)) == json.loads(text)
    assert " " not in str(parsed)                     # compact, like Java's Schema.toString()
    path = tmp_path / "user.avsc"
    path.write_text(text)
    assert str(AvroSchema.parse_file(str(path))) == str(parsed)
    with pytest.raises(JavaStyleError):
        AvroSchema.parse_string('{"type": "bogus"}')
    with pytest.raises(OSError):
        AvroSchema.parse_file(str(tmp_path / "missing.avsc"))


# -- type conversion (Flink's AvroSchemaConverter) -------------------------------------------------------

def test_every_avro_type_maps_to_flinks_type_info():
    schema = record(
        ("s", "string"), ("i", "int"), ("l", "long"), ("f", "float"), ("d", "double"), ("b", "boolean"),
        ("by", "bytes"), ("fx", {"type": "fixed", "name": "F4", "size": 4}),
        ("e", {"type": "enum", "name": "Color", "symbols": ["RED", "GREEN"]}),
        ("a", {"type": "array", "items": "int"}), ("m", {"type": "map", "values": "long"}),
        ("ns", ["null", "string"]), ("sn", ["string", "null"]), ("one", ["int"]),
        ("date", {"type": "int", "logicalType": "date"}),
        ("tm", {"type": "int", "logicalType": "time-millis"}),
        ("tu", {"type": "long", "logicalType": "time-micros"}),
        ("tsm", {"type": "long", "logicalType": "timestamp-millis"}),
        ("tsu", {"type": "long", "logicalType": "timestamp-micros"}),
        ("dec", {"type": "bytes", "logicalType": "decimal", "precision": 10, "scale": 2}),
        ("decf", {"type": "fixed", "name": "D8", "size": 8, "logicalType": "decimal", "precision": 10,
                  "scale": 3}),
        ("uuid", {"type": "string", "logicalType": "uuid"}),
        ("nested", {"type": "record", "name": "Inner", "fields": [{"name": "x", "type": "int"}]}),
        ("again", ["null", "Inner"]),
        ("strs", {"type": "array", "items": "string"}),
        ("enums", {"type": "array", "items": {"type": "enum", "name": "E2", "symbols": ["A"]}}),
        ("rows", {"type": "array", "items": "Inner"}),
    )
    expected = Types.ROW_NAMED(
        ["s", "i", "l", "f", "d", "b", "by", "fx", "e", "a", "m", "ns", "sn", "one", "date", "tm", "tu", "tsm",
         "tsu", "dec", "decf", "uuid", "nested", "again", "strs", "enums", "rows"],
        [Types.STRING(), Types.INT(), Types.LONG(), Types.FLOAT(), Types.DOUBLE(), Types.BOOLEAN(),
         Types.PRIMITIVE_ARRAY(Types.BYTE()), Types.PRIMITIVE_ARRAY(Types.BYTE()), Types.STRING(),
         Types.OBJECT_ARRAY(Types.INT()), Types.MAP(Types.STRING(), Types.LONG()), Types.STRING(),
         Types.STRING(), Types.INT(), Types.SQL_DATE(), Types.SQL_TIME(), Types.SQL_TIME(),
         Types.SQL_TIMESTAMP(), Types.SQL_TIMESTAMP(), Types.BIG_DEC(), Types.BIG_DEC(), Types.STRING(),
         Types.ROW_NAMED(["x"], [Types.INT()]), Types.ROW_NAMED(["x"], [Types.INT()]),
         Types.BASIC_ARRAY(Types.STRING()), Types.BASIC_ARRAY(Types.STRING()),      # Java: STRING_ARRAY_TYPE_INFO
         Types.OBJECT_ARRAY(Types.ROW_NAMED(["x"], [Types.INT()]))])
    assert AvroRowDeserializationSchema(avro_schema_string=schema).produced_type() == expected


def test_produced_type_has_a_spark_column_type():
    from pyflink_compat import codec
    de = AvroRowDeserializationSchema(avro_schema_string=record(
        ("a", {"type": "array", "items": "string"}), ("t", {"type": "int", "logicalType": "time-millis"}),
        ("m", {"type": "map", "values": "int"})))
    assert codec.spark_ddl(de.produced_type()) == \
        "struct<`element`:struct<`a`:array<string>,`t`:bigint,`m`:map<string,int>>,`event_ts`:bigint>"   # TIME: micros


# -- the Avro specification's binary encoding --------------------------------------------------------------

@pytest.mark.parametrize("value, encoded", [
    (0, "00"), (-1, "01"), (1, "02"), (-2, "03"), (2, "04"), (-64, "7f"), (64, "8001"),
    (2147483647, "feffffff0f"), (-2147483648, "ffffffff0f")])
def test_int_and_long_are_zig_zag_varints(value, encoded):
    for avro_type in ("int", "long"):
        ser, de = both(record(("v", avro_type)))
        assert ser.serialize(Row(value)).hex() == encoded
        assert de.deserialize(bytes.fromhex(encoded)) == Row(v=value)


def test_spec_example_record_and_primitives():
    # the specification's example: {"a": 27, "b": "foo"} of record {a: long, b: string} is 36 06 66 6f 6f
    ser, de = both(record(("a", "long"), ("b", "string")))
    assert ser.serialize(Row(27, "foo")) == bytes.fromhex("3606666f6f")
    assert de.deserialize(bytes.fromhex("3606666f6f")) == Row(a=27, b="foo")
    ser, _ = both(record(("t", "boolean"), ("f", "boolean"), ("x", "float"), ("y", "double"), ("z", "bytes")))
    assert ser.serialize(Row(True, False, 1.0, -2.0, b"\x00\xff")) == bytes.fromhex(
        "01" "00" "0000803f" "00000000000000c0" "0400ff")


def test_unions_write_the_branch_index_first():
    ser, de = both(record(("u", ["null", "string"]), ("v", ["string", "null"])))
    assert ser.serialize(Row(None, None)) == bytes.fromhex("0002")
    assert ser.serialize(Row("a", "a")) == bytes.fromhex("020261" "000261")
    assert de.deserialize(bytes.fromhex("020261" "000261")) == Row(u="a", v="a")
    assert de.deserialize(bytes.fromhex("0002")) == Row(u=None, v=None)


def test_arrays_and_maps_are_blocks_and_enums_their_index():
    # the specification's example: array of longs [3, 27] is 04 06 36 00
    ser, de = both(record(("a", {"type": "array", "items": "long"}), ("m", {"type": "map", "values": "int"}),
                          ("e", {"type": "enum", "name": "E", "symbols": ["X", "Y", "Z"]})))
    encoded = bytes.fromhex("04063600" "02026b0400" "04")
    assert ser.serialize(Row([3, 27], {"k": 2}, "Z")) == encoded
    assert de.deserialize(encoded) == Row(a=[3, 27], m={"k": 2}, e="Z")
    assert ser.serialize(Row([], {}, "X")) == bytes.fromhex("000000")


def test_logical_types_encode_as_flink_does():
    ser, de = both(record(
        ("date", {"type": "int", "logicalType": "date"}),
        ("tm", {"type": "int", "logicalType": "time-millis"}),
        ("tu", {"type": "long", "logicalType": "time-micros"}),
        ("tsm", {"type": "long", "logicalType": "timestamp-millis"}),
        ("tsu", {"type": "long", "logicalType": "timestamp-micros"}),
        ("dec", {"type": "bytes", "logicalType": "decimal", "precision": 10, "scale": 2}),
        ("decf", {"type": "fixed", "name": "D2", "size": 2, "logicalType": "decimal", "precision": 4,
                  "scale": 2})))
    row = Row(datetime.date(1970, 1, 2), datetime.time(0, 0, 1, 500000), datetime.time(0, 0, 0, 1000),
              datetime.datetime(1970, 1, 1, 0, 0, 0, 1000), datetime.datetime(1970, 1, 1, 0, 0, 0, 1),
              decimal.Decimal("1.50"), decimal.Decimal("-2.00"))
    encoded = ser.serialize(row)
    assert encoded == bytes.fromhex(
        "02"            # date: 1 day
        "b817"          # time-millis: 1500
        "d00f"          # time-micros: 1000
        "02"            # timestamp-millis: 1
        "02"            # timestamp-micros: 1
        "040096"        # decimal bytes: unscaled 150, minimal two's complement (0x0096), length 2
        "ff38")         # decimal fixed(2): unscaled -200, whose minimal two's complement has 2 bytes
    back = de.deserialize(encoded)
    assert back == Row(date=row[0], tm=row[1], tu=row[2], tsm=row[3], tsu=row[4], dec=row[5], decf=row[6])
    assert str(back.dec) == "1.50" and str(back.decf) == "-2.00"
    # java.sql.Time keeps milliseconds: time-micros is read and written at millisecond precision
    assert de.deserialize(bytes.fromhex("02" "00" "e807" "00" "00" "0200" "0000"))[2] == \
        datetime.time(0, 0, 0, 0)
    # Flink's decimal quirk: a value that fits the scale is written with its *own* unscaled value (1.5 -> 15,
    # read back as 0.15); one that would need rounding fails (Java's setScale(scale, ROUND_UNNECESSARY))
    assert ser.serialize(Row(*row[:5], decimal.Decimal("1.5"), decimal.Decimal("3.00")))[-4:] == \
        bytes.fromhex("020f" "012c")
    assert de.deserialize(ser.serialize(Row(*row[:5], decimal.Decimal("1.5"), row[6]))).dec == \
        decimal.Decimal("0.15")
    for bad in (decimal.Decimal("1.505"), decimal.Decimal("0.00010"), decimal.Decimal("NaN")):
        with pytest.raises(RuntimeError, match="Failed to serialize row"):
            ser.serialize(Row(*row[:5], bad, row[6]))
    assert ser.serialize(Row(*row[:5], decimal.Decimal("1.500"), row[6]))[-5:-2] == bytes.fromhex("0405dc")
    # a fixed type takes exactly its size: -1.00 (unscaled -100, one byte) fails in fixed(2), as on Flink
    with pytest.raises(RuntimeError, match="Failed to serialize row"):
        ser.serialize(Row(*row[:6], decimal.Decimal("-1.00")))


def test_rows_map_to_fields_by_position_and_nested_records_need_rows():
    ser, de = both(record(("a", "int"), ("n", {"type": "record", "name": "N", "fields": [
        {"name": "x", "type": "string"}]})))
    assert ser.serialize(Row(b=1, c=Row("s"))) == ser.serialize((1, ("s",))) == bytes.fromhex("020273")
    with pytest.raises(RuntimeError, match=r"^Failed to serialize row\..*Row expected"):
        ser.serialize(Row(1, "not a row"))
    with pytest.raises(RuntimeError, match="Failed to serialize row"):
        ser.serialize(Row(1))                                    # too few fields
    with pytest.raises(RuntimeError, match="Failed to serialize row"):
        ser.serialize(Row(None, Row("s")))                       # null in a non-nullable field


def test_malformed_bytes_fail_with_flinks_message():
    _, de = both(record(("a", "long"), ("b", "string")))
    with pytest.raises(RuntimeError, match=r"^Failed to deserialize Avro record\."):
        de.deserialize(bytes.fromhex("360a666f"))                # string cut short
    with pytest.raises(RuntimeError, match=r"^Failed to deserialize Avro record\."):
        de.deserialize(b"")
    _, de = both(record(("e", {"type": "enum", "name": "E", "symbols": ["X"]})))
    with pytest.raises(RuntimeError, match=r"^Failed to deserialize Avro record\."):
        de.deserialize(bytes.fromhex("08"))                      # enum index out of range
    assert de.deserialize(None) is None


# -- round trips of every type, against fastavro's own reading of our bytes ------------------------------------

ALL_TYPES = record(
    ("s", "string"), ("i", "int"), ("l", "long"), ("f", "float"), ("d", "double"), ("b", "boolean"),
    ("by", "bytes"), ("fx", {"type": "fixed", "name": "F3", "size": 3}),
    ("e", {"type": "enum", "name": "Color", "symbols": ["RED", "GREEN", "BLUE"]}),
    ("a", {"type": "array", "items": ["null", "long"]}), ("m", {"type": "map", "values": "string"}),
    ("ns", ["null", "string"]),
    ("date", {"type": "int", "logicalType": "date"}),
    ("tm", {"type": "int", "logicalType": "time-millis"}),
    ("tsm", {"type": "long", "logicalType": "timestamp-millis"}),
    ("tsu", {"type": "long", "logicalType": "timestamp-micros"}),
    ("dec", {"type": "bytes", "logicalType": "decimal", "precision": 20, "scale": 4}),
    ("nested", ["null", {"type": "record", "name": "Inner", "fields": [
        {"name": "x", "type": "int"}, {"name": "ys", "type": {"type": "array", "items": "Inner2"}}]}]),
).replace('"Inner2"', json.dumps({"type": "record", "name": "Inner2", "fields": [
    {"name": "z", "type": ["null", "double"]}]}))

INT32 = st.integers(-2 ** 31, 2 ** 31 - 1)
INT64 = st.integers(-2 ** 63, 2 ** 63 - 1)
FLOAT32 = st.floats(width=32, allow_nan=False)
MOMENTS = st.datetimes(min_value=datetime.datetime(1000, 1, 1), max_value=datetime.datetime(9000, 1, 1))


def plain(value):
    """Rows as tuples, recursively (a named Row and a positional Row with equal fields compare unequal)."""
    if isinstance(value, (Row, tuple)):
        return tuple(plain(v) for v in value)
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


def _millis(moment):
    return moment.replace(microsecond=moment.microsecond // 1000 * 1000)


ROWS = st.builds(
    lambda *fields: Row(*fields),
    st.text(), INT32, INT64, FLOAT32, st.floats(allow_nan=False), st.booleans(), st.binary(),
    st.binary(min_size=3, max_size=3), st.sampled_from(["RED", "GREEN", "BLUE"]),
    st.lists(st.none() | INT64, max_size=5), st.dictionaries(st.text(), st.text(), max_size=4),
    st.none() | st.text(),
    st.dates(min_value=datetime.date(1, 1, 1)), st.times().map(_millis), MOMENTS.map(_millis), MOMENTS,
    st.decimals(min_value=-10 ** 15, max_value=10 ** 15, places=4, allow_nan=False, allow_infinity=False)
      .map(lambda d: d.quantize(decimal.Decimal("0.0001"))),           # the schema's scale (see the quirk above)
    st.none() | st.builds(lambda x, ys: Row(x, ys), INT32,
                          st.lists(st.builds(lambda z: Row(z), st.none() | st.floats(allow_nan=False)),
                                   max_size=3)))


@settings(max_examples=150)
@given(ROWS)
def test_round_trip_of_every_type(row):
    ser, de = both(ALL_TYPES)
    encoded = ser.serialize(row)
    back = de.deserialize(encoded)
    assert back.as_dict().keys() == {"s", "i", "l", "f", "d", "b", "by", "fx", "e", "a", "m", "ns", "date", "tm",
                                     "tsm", "tsu", "dec", "nested"}
    assert plain(back) == plain(row)
    assert ser.serialize(back) == encoded
    # another Avro implementation (fastavro, with its own logical types) reads the same values from our bytes
    theirs = fastavro.schemaless_reader(io.BytesIO(encoded), fastavro.parse_schema(json.loads(ALL_TYPES)), None)
    assert theirs["s"] == back.s and theirs["l"] == back.l and theirs["by"] == back.by and theirs["e"] == back.e
    assert theirs["date"] == back.date and theirs["tm"] == back.tm and theirs["dec"] == back.dec
    assert theirs["tsm"].replace(tzinfo=None) == back.tsm and theirs["tsu"].replace(tzinfo=None) == back.tsu
    assert theirs["a"] == back.a and theirs["m"] == back.m and theirs["ns"] == back.ns


@settings(max_examples=100)
@given(st.decimals(min_value=-10 ** 30, max_value=10 ** 30, places=6, allow_nan=False, allow_infinity=False))
def test_decimals_of_the_schemas_scale_read_back_by_another_avro_implementation(value):
    value = value.quantize(decimal.Decimal("0.000001"), context=decimal.Context(prec=60))
    schema = record(("v", {"type": "bytes", "logicalType": "decimal", "precision": 38, "scale": 6}))
    ser, de = both(schema)
    encoded = ser.serialize(Row(value))
    theirs = fastavro.schemaless_reader(io.BytesIO(encoded), fastavro.parse_schema(json.loads(schema)), None)
    assert theirs["v"] == value and str(de.deserialize(encoded).v) == str(value)


@pytest.mark.parametrize("unscaled, minimal", [
    (0, "00"), (1, "01"), (-1, "ff"), (127, "7f"), (128, "0080"), (-128, "80"), (-129, "ff7f"), (255, "00ff"),
    (-256, "ff00"), (32767, "7fff"), (-32768, "8000"), (32768, "008000")])
def test_decimal_unscaled_values_are_javas_minimal_twos_complement(unscaled, minimal):
    ser, de = both(record(("v", {"type": "bytes", "logicalType": "decimal", "precision": 10, "scale": 0})))
    encoded = ser.serialize(Row(decimal.Decimal(unscaled)))
    assert encoded == bytes([2 * (len(minimal) // 2)]) + bytes.fromhex(minimal)     # zig-zag length, then bytes
    assert de.deserialize(encoded).v == unscaled

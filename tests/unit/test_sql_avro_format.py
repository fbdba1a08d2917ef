"""The 'avro' table format's schema derivation and its values, checked against fastavro's own logical-type encoding
of the schema Flink derives (an independent encoder)."""
import datetime
import decimal
import io

import fastavro
import pytest
from hypothesis import given, settings, strategies as st

from pyflink_compat.table.sql import avro_format
from pyflink_compat.table.sql.catalog import SqlType
from pyflink_compat.util.exceptions import JavaStyleError, UnsupportedFeatureError

UTC = datetime.timezone.utc


def test_the_schema_is_flinks_derivation_nullable_columns_as_unions_with_null_first():
    types = [SqlType("TINYINT"), SqlType("BIGINT", nullable=False), SqlType("FLOAT"), SqlType("BOOLEAN"),
             SqlType("DATE"), SqlType("DECIMAL", precision=5, scale=1), SqlType("TIMESTAMP", precision=3),
             SqlType("ARRAY", element=SqlType("INT", nullable=False)),
             SqlType("ROW", fields=(("a", SqlType("STRING")),), nullable=False)]
    assert avro_format.schema(list("abcdefghi"), types) == {
        "type": "record", "name": "org.apache.flink.avro.generated.record", "fields": [
            {"name": "a", "type": ["null", "int"], "default": None},
            {"name": "b", "type": "long"},
            {"name": "c", "type": ["null", "float"], "default": None},
            {"name": "d", "type": ["null", "boolean"], "default": None},
            {"name": "e", "type": ["null", {"type": "int", "logicalType": "date"}], "default": None},
            {"name": "f", "type": ["null", {"type": "bytes", "logicalType": "decimal", "precision": 5, "scale": 1}],
             "default": None},
            {"name": "g", "type": ["null", {"type": "long", "logicalType": "timestamp-millis"}], "default": None},
            {"name": "h", "type": ["null", {"type": "array", "items": "int"}], "default": None},
            {"name": "i", "type": {"type": "record", "name": "org.apache.flink.avro.generated.record_i",
                                   "fields": [{"name": "a", "type": ["null", "string"], "default": None}]}}]}


def test_the_correct_timestamp_mapping_takes_local_timestamps_and_instants():
    types = [SqlType("TIMESTAMP", precision=6), SqlType("TIMESTAMP_LTZ", precision=3)]
    fields = avro_format.schema(["t", "l"], types, legacy=False)["fields"]
    assert [field["type"][1]["logicalType"] for field in fields] == ["local-timestamp-micros", "timestamp-millis"]
    moment = datetime.datetime(2024, 5, 6, 7, 8, 9, 123456)
    data = avro_format.encoder(["t", "l"], types, legacy=False)([moment, moment.replace(microsecond=123000)])
    assert avro_format.decoder(["t", "l"], types, legacy=False)(data) == [moment, moment.replace(microsecond=123000)]


@pytest.mark.parametrize("sql_type, error, message", [
    (SqlType("TIMESTAMP", precision=6), JavaStyleError,
     "Avro does not support TIMESTAMP type with precision: 6, it only supports precision less than 3."),
    (SqlType("TIMESTAMP_LTZ", precision=3), JavaStyleError, "Unsupported to derive Schema for type: TIMESTAMP_LTZ(3)"),
    (SqlType("MAP", key=SqlType("INT"), element=SqlType("INT")), JavaStyleError,
     "Avro format doesn't support non-string as key type of map. The key type is: INT"),
])
def test_types_flink_cannot_derive_fail_with_its_messages(sql_type, error, message):
    with pytest.raises(error) as raised:
        avro_format.schema(["x"], [sql_type])
    assert raised.value.message == message


def test_nanosecond_timestamps_are_refused_by_name():
    with pytest.raises(UnsupportedFeatureError, match="TIMESTAMP column of precision 9"):
        avro_format.schema(["x"], [SqlType("TIMESTAMP", precision=9)], legacy=False)


def test_a_short_or_broken_message_fails_as_flinks_format():
    read = avro_format.decoder(["x", "s"], [SqlType("INT"), SqlType("STRING")])
    for data in (b"", b"\x02", b"\x04\x00", b"\x02\x02\x02\x04\xff\xfe"):
        with pytest.raises(IOError, match=r"^Failed to deserialize Avro record\.$"):
            read(data)


def test_an_int_read_into_tinyint_and_smallint_wraps_as_javas_narrowing():
    types = [SqlType("TINYINT"), SqlType("SMALLINT")]
    writer = fastavro.parse_schema(avro_format.schema(["a", "b"], [SqlType("INT"), SqlType("INT")]))
    out = io.BytesIO()
    fastavro.schemaless_writer(out, writer, {"a": 300, "b": 40000})
    assert avro_format.decoder(["a", "b"], types)(out.getvalue()) == [44, -25536]


_ROW_TYPE = [SqlType("INT"), SqlType("STRING"), SqlType("DECIMAL", precision=12, scale=3),
             SqlType("TIMESTAMP", precision=3), SqlType("DATE"), SqlType("DOUBLE", nullable=False),
             SqlType("MAP", key=SqlType("STRING"), element=SqlType("BIGINT")),
             SqlType("ARRAY", element=SqlType("ROW", fields=(("k", SqlType("STRING")), ("v", SqlType("INT")))))]
_NAMES = ["i", "s", "d", "ts", "day", "x", "m", "rows"]
_millis = st.integers(-2 ** 40, 2 ** 40).map(lambda ms: datetime.datetime(1970, 1, 1)
                                             + datetime.timedelta(milliseconds=ms))
_row_values = st.tuples(
    st.none() | st.integers(-2 ** 31, 2 ** 31 - 1), st.none() | st.text(),
    st.none() | st.decimals(min_value=-10 ** 8, max_value=10 ** 8, places=3, allow_nan=False),
    st.none() | _millis, st.none() | st.dates(), st.floats(allow_nan=False),
    st.none() | st.dictionaries(st.text(max_size=5), st.none() | st.integers(-2 ** 63, 2 ** 63 - 1), max_size=3),
    st.none() | st.lists(st.none() | st.tuples(st.none() | st.text(max_size=4),
                                               st.none() | st.integers(-5, 5)), max_size=3))


def _fastavro_record(values):
    record = dict(zip(_NAMES, values))
    if record["ts"] is not None:
        record["ts"] = record["ts"].replace(tzinfo=UTC)
    if record["rows"] is not None:
        record["rows"] = [None if row is None else {"k": row[0], "v": row[1]} for row in record["rows"]]
    return record


def _java_minimal_decimal(value) -> bool:
    """Whether a DECIMAL's unscaled value is -2^(8k-1): Java's BigInteger.toByteArray (Flink's) writes it in k
    bytes, fastavro in k + 1."""
    if value is None:
        return False
    unscaled = int(value.scaleb(3))
    return unscaled < 0 and (-unscaled) & (-unscaled - 1) == 0 and (-unscaled).bit_length() % 8 == 0


@settings(max_examples=150, deadline=None)
@given(_row_values)
def test_rows_are_written_as_fastavro_writes_the_derived_schema_and_read_back(values):
    encode = avro_format.encoder(_NAMES, _ROW_TYPE)
    data = encode(list(values))
    schema = fastavro.parse_schema(avro_format.schema(_NAMES, _ROW_TYPE))
    expected = io.BytesIO()
    fastavro.schemaless_writer(expected, schema, _fastavro_record(values))
    if _java_minimal_decimal(values[2]):
        assert fastavro.schemaless_reader(io.BytesIO(data), schema) == \
            fastavro.schemaless_reader(io.BytesIO(expected.getvalue()), schema)
    else:
        assert data == expected.getvalue()
    read = avro_format.decoder(_NAMES, _ROW_TYPE)(data)
    assert read[:7] == list(values[:7])
    assert (None if read[7] is None else [None if row is None else tuple(row) for row in read[7]]) == values[7]
    assert all(row is None or row._fields == ["k", "v"] for row in read[7] or ())


def test_a_decimal_is_written_in_as_few_bytes_as_javas_big_integer_takes():
    import decimal
    encode = avro_format.encoder(["d"], [SqlType("DECIMAL", precision=12, scale=3, nullable=False)])
    assert encode([decimal.Decimal("-0.128")]) == b"\x02\x80"          # unscaled -128: one byte, 0x80
    assert encode([decimal.Decimal("0.128")]) == b"\x04\x00\x80"      # unscaled 128: two bytes

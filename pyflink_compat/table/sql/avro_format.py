"""Flink SQL's 'avro' format: the schemaless Avro binary encoding of one record per message, its Avro schema
derived from the columns as Flink's AvroSchemaConverter derives it (no schema is declared, no registry).

The derived schema: a record of the columns in order; a nullable column is the union ["null", T] (NULL first,
default null); STRING -> string, BOOLEAN -> boolean, TINYINT / SMALLINT / INT -> int, BIGINT -> long, FLOAT ->
float, DOUBLE -> double, DECIMAL(p, s) -> bytes (decimal p, s: the unscaled value's two's complement), DATE ->
int (days), TIMESTAMP(p <= 3) -> long (timestamp-millis), ARRAY -> array, MAP<STRING, V> -> map, ROW -> record.
With 'avro.timestamp_mapping.legacy' = 'false' (Flink 1.19's correct mapping) TIMESTAMP(p) becomes
local-timestamp-millis / -micros and TIMESTAMP_LTZ(p) timestamp-millis / -micros; the bytes of a value are the
same long either way. Types the derivation refuses fail with Flink's messages.
"""
import datetime
import decimal
from typing import Callable, List

from pyflink_compat.util.exceptions import JavaStyleError

_EPOCH = datetime.datetime(1970, 1, 1)
_EPOCH_DATE = datetime.date(1970, 1, 1)
_PLAIN = {"STRING": "string", "BOOLEAN": "boolean", "TINYINT": "int", "SMALLINT": "int", "INT": "int",
          "BIGINT": "long", "FLOAT": "float", "DOUBLE": "double"}
# the 'avro' format's options (after 'avro.' / 'value.avro.' / 'key.avro.'); 'codec' concerns files only
OPTIONS = ("encoding", "timestamp_mapping.legacy", "codec")


def _illegal_argument(message: str):
    return JavaStyleError("java.lang.IllegalArgumentException", message, "executeSql")


def _unsupported(message: str):
    return JavaStyleError("java.lang.UnsupportedOperationException", message, "executeSql")


def _timestamp_unit(sql_type, legacy: bool) -> int:
    """Microseconds per unit of the long a TIMESTAMP / TIMESTAMP_LTZ column is written as (1000: millis)."""
    precision, name = 6 if sql_type.precision is None else sql_type.precision, sql_type.name
    if sql_type.name == "TIMESTAMP_LTZ" and legacy:
        raise _unsupported("Unsupported to derive Schema for type: %s" % sql_type.text())
    if legacy:
        if precision > 3:
            raise _illegal_argument("Avro does not support TIMESTAMP type with precision: %d, it only supports "
                                    "precision less than 3." % precision)
        return 1000
    if precision > 6:
        # Flink writes nanoseconds here; our values are Python date-times, to the microsecond
        from pyflink_compat.table.sql.catalog import SECTION
        from pyflink_compat.util.exceptions import UnsupportedFeatureError
        raise UnsupportedFeatureError("A %s column of precision %d in the 'avro' format" % (name, precision),
                                      SECTION, "declare TIMESTAMP(3) or TIMESTAMP(6)")
    return 1000 if precision <= 3 else 1


def schema(names, sql_types, legacy: bool = True, record_name: str = "org.apache.flink.avro.generated.record"):
    """The Avro schema (JSON as a dict, logical types included) Flink derives for these columns."""
    return {"type": "record", "name": record_name,
            "fields": [dict({"name": name, "type": _type_schema(sql_type, legacy, record_name + "_" + name)},
                            **({"default": None} if sql_type.nullable else {}))
                       for name, sql_type in zip(names, sql_types)]}


def _type_schema(sql_type, legacy: bool, record_name: str):
    name = sql_type.name
    if name in _PLAIN:
        node = _PLAIN[name]
    elif name == "DECIMAL":
        node = {"type": "bytes", "logicalType": "decimal", "precision": sql_type.precision, "scale": sql_type.scale}
    elif name == "DATE":
        node = {"type": "int", "logicalType": "date"}
    elif name in ("TIMESTAMP", "TIMESTAMP_LTZ"):
        unit = _timestamp_unit(sql_type, legacy)
        logical = "timestamp-%s" % ("millis" if unit == 1000 else "micros")
        node = {"type": "long", "logicalType": logical if legacy or name == "TIMESTAMP_LTZ" else "local-" + logical}
    elif name == "ROW":
        node = schema([field for field, _ in sql_type.fields], [each for _, each in sql_type.fields], legacy,
                      record_name)
    elif name == "MAP":
        if sql_type.key.name != "STRING":
            raise _unsupported("Avro format doesn't support non-string as key type of map. The key type is: %s"
                               % sql_type.key.text())
        node = {"type": "map", "values": _type_schema(sql_type.element, legacy, record_name)}
    elif name == "ARRAY":
        node = {"type": "array", "items": _type_schema(sql_type.element, legacy, record_name)}
    else:
        raise _unsupported("Unsupported to derive Schema for type: %s" % sql_type.text())
    return ["null", node] if sql_type.nullable else node


def _raw(node):
    """The schema without logical types: fastavro then reads and writes plain ints, longs and bytes, and the
    conversions below are Flink's."""
    if isinstance(node, list):
        return [_raw(each) for each in node]
    if isinstance(node, str):
        return node
    if node["type"] == "record":
        return {"type": "record", "name": node["name"],
                "fields": [dict(field, type=_raw(field["type"])) for field in node["fields"]]}
    if node["type"] == "map":
        return {"type": "map", "values": _raw(node["values"])}
    if node["type"] == "array":
        return {"type": "array", "items": _raw(node["items"])}
    return node["type"]


# -- values -------------------------------------------------------------------------------------------

def _wrapped(bits: int) -> Callable:
    """Java's byteValue() / shortValue() of an Avro int read into a TINYINT / SMALLINT column."""
    half = 1 << (bits - 1)
    return lambda value: (value + half) % (1 << bits) - half


def _reader(sql_type, legacy: bool) -> Callable:
    """The function turning a decoded (non-null) raw Avro value into the column's value."""
    name = sql_type.name
    if name == "TINYINT":
        return _wrapped(8)
    if name == "SMALLINT":
        return _wrapped(16)
    if name == "FLOAT":
        from pyflink_compat.table.sql.values import single_precision
        return single_precision
    if name == "DECIMAL":
        from pyflink_compat.table.sql.values import decimal_of
        precision, scale = sql_type.precision, sql_type.scale
        return lambda data: decimal_of(_decimal_of_bytes(data, scale), precision, scale)
    if name == "DATE":
        return lambda days: _EPOCH_DATE + datetime.timedelta(days=days)
    if name in ("TIMESTAMP", "TIMESTAMP_LTZ"):
        unit = datetime.timedelta(microseconds=_timestamp_unit(sql_type, legacy))
        return lambda count: _EPOCH + count * unit
    if name == "ROW":
        from pyflink_compat.common.types import Row
        fields = [(field, _nullable(_reader(each, legacy))) for field, each in sql_type.fields]
        names = [field for field, _ in fields]

        def row(record):
            value = Row(*[read(record.get(field)) for field, read in fields])
            value._fields = list(names)
            return value
        return row
    if name == "MAP":
        read = _nullable(_reader(sql_type.element, legacy))
        return lambda entries: {key: read(each) for key, each in entries.items()}
    if name == "ARRAY":
        read = _nullable(_reader(sql_type.element, legacy))
        return lambda items: [read(each) for each in items]
    return lambda value: value


def _writer(sql_type, legacy: bool) -> Callable:
    """The function turning a (non-null) column value into the raw Avro value fastavro writes."""
    name = sql_type.name
    if name in ("TINYINT", "SMALLINT", "INT", "BIGINT"):
        return int
    if name in ("FLOAT", "DOUBLE"):
        return float
    if name == "STRING":
        return str
    if name == "DECIMAL":
        scale = sql_type.scale
        return lambda value: _decimal_bytes(value, scale)
    if name == "DATE":
        return lambda value: ((value.date() if isinstance(value, datetime.datetime) else value) - _EPOCH_DATE).days
    if name in ("TIMESTAMP", "TIMESTAMP_LTZ"):
        unit = datetime.timedelta(microseconds=_timestamp_unit(sql_type, legacy))
        return lambda value: (value.replace(tzinfo=None) - _EPOCH) // unit
    if name == "ROW":
        fields = [(field, _nullable(_writer(each, legacy))) for field, each in sql_type.fields]
        return lambda value: {field: write(item) for (field, write), item in zip(fields, value)}
    if name == "MAP":
        write = _nullable(_writer(sql_type.element, legacy))
        return lambda value: {str(key): write(each) for key, each in value.items()}
    if name == "ARRAY":
        write = _nullable(_writer(sql_type.element, legacy))
        return lambda value: [write(each) for each in value]
    return lambda value: value


def _nullable(convert: Callable) -> Callable:
    return lambda value: None if value is None else convert(value)


def _decimal_of_bytes(data: bytes, scale: int) -> decimal.Decimal:
    return decimal.Decimal(int.from_bytes(data, "big", signed=True)).scaleb(-scale)


def _decimal_bytes(value, scale: int) -> bytes:
    """A DECIMAL value's unscaled integer at the column's scale, as Java's BigInteger.toByteArray() (minimal
    big-endian two's complement)."""
    unscaled = int(decimal.Decimal(value).scaleb(scale).to_integral_value(rounding=decimal.ROUND_HALF_UP))
    return unscaled.to_bytes((unscaled + (unscaled < 0)).bit_length() // 8 + 1, "big", signed=True)


# -- decoding and encoding -----------------------------------------------------------------------------

def decoder(names, sql_types, legacy: bool = True) -> Callable[[bytes], List]:
    """The function reading one message (bytes) into the columns' values; a message that is no such record
    fails with Flink's ``Failed to deserialize Avro record.`` (the format has no option to skip it)."""
    import io
    import fastavro
    parsed = fastavro.parse_schema(_raw(schema(names, sql_types, legacy)))
    readers = [_nullable(_reader(sql_type, legacy)) for sql_type in sql_types]

    def values_of(data: bytes) -> List:
        try:
            record = fastavro.schemaless_reader(io.BytesIO(bytes(data)), parsed, None)
            return [read(record[name]) for name, read in zip(names, readers)]
        except Exception as e:
            raise IOError("Failed to deserialize Avro record.") from e
    return values_of


def encoder(names, sql_types, legacy: bool = True) -> Callable[[List], bytes]:
    """The function writing the columns' values of one row as one Avro record (bytes)."""
    import io
    import fastavro
    parsed = fastavro.parse_schema(_raw(schema(names, sql_types, legacy)))
    writers = [(name, _nullable(_writer(sql_type, legacy))) for name, sql_type in zip(names, sql_types)]

    def bytes_of(values) -> bytes:
        out = io.BytesIO()
        fastavro.schemaless_writer(out, parsed, {name: write(value) for (name, write), value in zip(writers, values)})
        return out.getvalue()
    return bytes_of

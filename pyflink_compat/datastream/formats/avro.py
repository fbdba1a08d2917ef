"""Avro format (mirror of ``pyflink.datastream.formats.avro``).

``AvroRowDeserializationSchema`` / ``AvroRowSerializationSchema`` built from an Avro schema string read and
write Flink's ``AvroRowSerializationSchema`` bytes: the schemaless Avro binary encoding of one record (no
container file, no schema-registry header). The row type is converted from the Avro schema as Flink's
``AvroSchemaConverter`` does (record -> ROW_NAMED, array -> OBJECT_ARRAY (BASIC_ARRAY of strings),
map -> MAP(STRING, v), enum -> STRING, bytes/fixed -> PRIMITIVE_ARRAY(BYTE), logical date / time /
timestamp / decimal -> SQL_DATE / SQL_TIME / SQL_TIMESTAMP / BIG_DEC, unions with null -> the other branch).
Encoding and decoding use fastavro; the logical-type conversions are ours, so that values follow Flink's (not
fastavro's) conversions, quirks included (see ``_decimal_to_bytes``).

Not provided (``UnsupportedFeatureError``, section ``formats``): ``record_class`` (a generated Java
SpecificRecord class needs a JVM); in the deserializer, unions of several non-null types (Flink's GENERIC
type) and the ``null`` type as a field type (Flink's VOID); recursive schemas; and the file-system /
GenericRecord features ``GenericRecordAvroTypeInfo``, ``AvroInputFormat``, ``AvroBulkWriters``.
"""
import datetime
import decimal
import io
import json

from pyflink_compat.common.io import InputFormat
from pyflink_compat.common.serialization import DeserializationSchema, SerializationSchema
from pyflink_compat.common.typeinfo import TypeInformation, Types
from pyflink_compat.common.types import Row
from pyflink_compat.util.exceptions import JavaStyleError, UnsupportedFeatureError, unsupported

__all__ = ['AvroSchema', 'GenericRecordAvroTypeInfo', 'AvroInputFormat', 'AvroBulkWriters',
           'AvroRowDeserializationSchema', 'AvroRowSerializationSchema']

_SECTION = "formats"
_PRIMITIVES = ("null", "boolean", "int", "long", "float", "double", "bytes", "string")
_EPOCH_DATE = datetime.date(1970, 1, 1)
_EPOCH = datetime.datetime(1970, 1, 1)
_SCHEMA_PARSE_ERROR = "org.apache.avro.SchemaParseException"


# -- schema parsing -------------------------------------------------------------------------------

class _ParsedSchema(object):
    """An Avro schema: its JSON text, the fastavro schema of its raw encoding (logical types stripped, so
    fastavro reads and writes plain ints / longs / bytes) and the resolved tree (named types inlined) that
    drives type conversion and value conversion."""

    def __init__(self, text: str, method: str = "parse"):
        import fastavro
        try:
            document = json.loads(text)
        except (TypeError, ValueError) as e:
            raise JavaStyleError(_SCHEMA_PARSE_ERROR, "%s" % e, method) from e
        self.text = text
        self.document = document
        try:
            self.raw = fastavro.parse_schema(_strip_logical_types(document))
            self.tree = _resolve(document, {}, None, ())
        except UnsupportedFeatureError:
            raise
        except Exception as e:
            raise JavaStyleError(_SCHEMA_PARSE_ERROR, "%s" % e, method) from e

    def __str__(self):
        return json.dumps(self.document, separators=(",", ":"))


def _strip_logical_types(node):
    """The schema with every ``logicalType`` of a type schema removed (fields' own attributes are kept)."""
    if isinstance(node, list):
        return [_strip_logical_types(n) for n in node]
    if not isinstance(node, dict):
        return node
    out = {k: v for k, v in node.items() if k != "logicalType"}
    kind = node.get("type")
    if kind == "record" or kind == "error":
        out["fields"] = [dict(f, type=_strip_logical_types(f["type"])) for f in node.get("fields", [])]
    elif kind == "array":
        out["items"] = _strip_logical_types(node["items"])
    elif kind == "map":
        out["values"] = _strip_logical_types(node["values"])
    elif isinstance(kind, (dict, list)):
        out["type"] = _strip_logical_types(kind)
    return out


def _full_name(name, namespace):
    if "." in name or not namespace:
        return name
    return "%s.%s" % (namespace, name)


def _resolve(node, names, namespace, stack):
    """A resolved tree: every node a dict with a ``type`` of its own (named references inlined)."""
    if isinstance(node, str):
        if node in _PRIMITIVES:
            return {"type": node}
        full = _full_name(node, namespace) if node not in names else node
        if full in stack or node in stack:
            raise UnsupportedFeatureError("Recursive Avro schemas (%s)" % node, _SECTION)
        if full in names:
            return names[full]
        if node in names:
            return names[node]
        raise ValueError("Undefined name: %s" % node)
    if isinstance(node, list):
        return {"type": "union", "types": [_resolve(n, names, namespace, stack) for n in node]}
    if not isinstance(node, dict):
        raise ValueError("Not a schema: %r" % (node,))
    kind = node.get("type")
    if isinstance(kind, (dict, list)):
        return _resolve(kind, names, namespace, stack)
    if kind in _PRIMITIVES:
        return {"type": kind, "logicalType": node.get("logicalType"),
                "precision": node.get("precision"), "scale": node.get("scale", 0)}
    if kind in ("record", "error", "enum", "fixed"):
        space = node.get("namespace", namespace)
        full = _full_name(node["name"], space)
        space = full.rsplit(".", 1)[0] if "." in full else None
        if kind == "enum":
            resolved = {"type": "enum", "name": full, "symbols": list(node["symbols"])}
        elif kind == "fixed":
            resolved = {"type": "fixed", "name": full, "size": node["size"],
                        "logicalType": node.get("logicalType"), "precision": node.get("precision"),
                        "scale": node.get("scale", 0)}
        else:
            resolved = {"type": "record", "name": full, "fields": []}
            fields = [(f["name"], _resolve(f["type"], names, space, stack + (full,)))
                      for f in node.get("fields", [])]
            resolved["fields"] = fields
        names[full] = resolved
        return resolved
    if kind == "array":
        return {"type": "array", "items": _resolve(node["items"], names, namespace, stack)}
    if kind == "map":
        return {"type": "map", "values": _resolve(node["values"], names, namespace, stack)}
    if isinstance(kind, str):
        return _resolve(kind, names, namespace, stack)
    raise ValueError("No type: %r" % (node,))


# -- Avro schema -> TypeInformation (Flink's AvroSchemaConverter) -----------------------------------

def _union_branch(node):
    """The one branch that a union of ``[null, X]``, ``[X, null]`` or ``[X]`` stands for, else None."""
    types = node["types"]
    if len(types) == 1:
        return types[0]
    if len(types) == 2:
        if types[0]["type"] == "null":
            return types[1]
        if types[1]["type"] == "null":
            return types[0]
    return None


def _logical(node):
    return node.get("logicalType")


def _type_info(node) -> TypeInformation:
    kind = node["type"]
    if kind == "record":
        return Types.ROW_NAMED([name for name, _ in node["fields"]],
                               [_type_info(field) for _, field in node["fields"]])
    if kind in ("enum", "string"):
        return Types.STRING()
    if kind == "array":
        element = _type_info(node["items"])
        if element == Types.STRING():            # Java's Types.OBJECT_ARRAY(STRING) is STRING_ARRAY_TYPE_INFO
            return Types.BASIC_ARRAY(Types.STRING())
        return Types.OBJECT_ARRAY(element)
    if kind == "map":
        return Types.MAP(Types.STRING(), _type_info(node["values"]))
    if kind == "union":
        branch = _union_branch(node)
        if branch is None:
            raise UnsupportedFeatureError(
                "Avro unions of several non-null types (Flink's GENERIC type)", _SECTION)
        return _type_info(branch)
    if kind in ("fixed", "bytes"):
        return Types.BIG_DEC() if _logical(node) == "decimal" else Types.PRIMITIVE_ARRAY(Types.BYTE())
    if kind == "int":
        return {"date": Types.SQL_DATE(), "time-millis": Types.SQL_TIME()}.get(_logical(node), Types.INT())
    if kind == "long":
        return {"timestamp-millis": Types.SQL_TIMESTAMP(), "timestamp-micros": Types.SQL_TIMESTAMP(),
                "time-micros": Types.SQL_TIME()}.get(_logical(node), Types.LONG())
    if kind == "float":
        return Types.FLOAT()
    if kind == "double":
        return Types.DOUBLE()
    if kind == "boolean":
        return Types.BOOLEAN()
    raise UnsupportedFeatureError("The Avro type '%s' as a field type" % kind, _SECTION)


# -- raw Avro values <-> the Python values of the row type --------------------------------------------

def _decimal_from_bytes(data: bytes, scale: int) -> decimal.Decimal:
    unscaled = int.from_bytes(data, "big", signed=True)
    sign = 1 if unscaled < 0 else 0
    digits = tuple(int(d) for d in str(abs(unscaled)))
    return decimal.Decimal((sign, digits, -scale))


def _decimal_to_bytes(value, scale: int) -> bytes:
    """Flink's conversion, exactly: the value must fit the schema's scale without rounding (Java's
    ``setScale(scale, ROUND_UNNECESSARY)``, else "Rounding necessary"), but what is written is the unscaled
    value of the decimal *as given* (its own scale), as the minimal big-endian two's complement
    (``BigInteger.toByteArray()``). So Decimal('1.5') in a scale-2 field is written as 15 and reads back as
    0.15, as on Flink; give decimals the schema's scale (``quantize``) to store what you mean."""
    value = decimal.Decimal(value)
    sign, digits, exponent = value.as_tuple()
    if not value.is_finite():
        raise ArithmeticError("Infinite or NaN")
    if exponent < -scale and any(digits[max(0, len(digits) + exponent + scale):]):
        raise ArithmeticError("Rounding necessary")
    unscaled = int("".join(map(str, digits)) or "0") * (-1 if sign else 1)
    length = (unscaled + (unscaled < 0)).bit_length() // 8 + 1          # BigInteger.toByteArray: minimal
    return unscaled.to_bytes(length, "big", signed=True)


def _to_python(node, value):
    """The Python value (as PyFlink functions see it) of one decoded raw Avro value."""
    if value is None:
        return None
    kind = node["type"]
    if kind == "record":
        names = [name for name, _ in node["fields"]]
        row = Row(*[_to_python(field, value.get(name)) for name, field in node["fields"]])
        row.set_field_names(names)
        return row
    if kind == "union":
        return _to_python(_union_branch(node), value)
    if kind == "array":
        return [_to_python(node["items"], v) for v in value]
    if kind == "map":
        return {str(k): _to_python(node["values"], v) for k, v in value.items()}
    logical = _logical(node)
    if logical is None:
        return value
    if logical == "decimal" and kind in ("bytes", "fixed"):
        return _decimal_from_bytes(value, node.get("scale") or 0)
    if kind == "int" and logical == "date":
        return _EPOCH_DATE + datetime.timedelta(days=value)
    if kind == "int" and logical == "time-millis":
        return (_EPOCH + datetime.timedelta(milliseconds=value)).time()
    if kind == "long" and logical == "time-micros":       # java.sql.Time: millisecond precision
        return (_EPOCH + datetime.timedelta(milliseconds=_java_div(value, 1000))).time()
    if kind == "long" and logical == "timestamp-millis":
        return _EPOCH + datetime.timedelta(milliseconds=value)
    if kind == "long" and logical == "timestamp-micros":
        return _EPOCH + datetime.timedelta(microseconds=value)
    return value


def _java_div(a: int, b: int) -> int:
    """Java's long division (rounds toward zero)."""
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def _naive_utc(moment: datetime.datetime) -> datetime.datetime:
    if moment.tzinfo is not None:
        moment = moment.astimezone(datetime.timezone.utc).replace(tzinfo=None)
    return moment


def _millis_of_day(moment: datetime.time) -> int:
    return ((moment.hour * 60 + moment.minute) * 60 + moment.second) * 1000 + moment.microsecond // 1000


def _to_raw(node, value):
    """The raw Avro value (for fastavro's writer) of one Python value of the row type."""
    if value is None:
        return None
    kind = node["type"]
    if kind == "record":
        if isinstance(value, (Row, tuple, list)):
            fields = list(value)
        else:
            raise TypeError("Row expected but was: %s" % type(value).__name__)
        if len(fields) < len(node["fields"]):
            raise IndexError("Index %d out of bounds for length %d" % (len(fields), len(fields)))
        return {name: _to_raw(field, fields[i]) for i, (name, field) in enumerate(node["fields"])}
    if kind == "union":
        branch = _union_branch(node)
        return value if branch is None else _to_raw(branch, value)     # Flink: a generic union takes it as is
    if kind == "array":
        return [_to_raw(node["items"], v) for v in value]
    if kind == "map":
        return {str(k): _to_raw(node["values"], v) for k, v in dict(value).items()}
    if kind in ("string", "enum"):
        return value if isinstance(value, str) else str(value)
    logical = _logical(node)
    if kind in ("bytes", "fixed"):
        if logical == "decimal" and isinstance(value, (decimal.Decimal, int)) and not isinstance(value, bool):
            data = _decimal_to_bytes(value, node.get("scale") or 0)
        else:
            data = bytes(value)
        if kind == "fixed" and len(data) != node["size"]:
            # Avro's writer copies exactly `size` bytes: Flink fails on fewer (and cuts more); we fail on both
            raise ValueError("%d bytes for the fixed type %s of size %d" % (len(data), node["name"], node["size"]))
        return data
    if kind == "int" and logical == "date" and isinstance(value, datetime.date):
        if isinstance(value, datetime.datetime):
            value = value.date()
        return (value - _EPOCH_DATE).days
    if kind == "int" and logical == "time-millis" and isinstance(value, datetime.time):
        return _millis_of_day(value)
    if kind == "long" and logical == "time-micros" and isinstance(value, datetime.time):
        return _millis_of_day(value) * 1000
    if kind == "long" and logical in ("timestamp-millis", "timestamp-micros") \
            and isinstance(value, datetime.datetime):
        delta = _naive_utc(value) - _EPOCH
        unit = datetime.timedelta(milliseconds=1) if logical == "timestamp-millis" \
            else datetime.timedelta(microseconds=1)
        return delta // unit
    return value


# -- public API -------------------------------------------------------------------------------------

class AvroSchema(object):
    """An Avro schema (PyFlink wraps Java's ``org.apache.avro.Schema``; here a parsed schema of our own)."""

    def __init__(self, j_schema):
        self._j_schema = j_schema

    def __str__(self):
        return str(self._j_schema)

    @staticmethod
    def parse_string(json_schema: str) -> 'AvroSchema':
        """Parses an Avro schema from its JSON text."""
        return AvroSchema(_ParsedSchema(json_schema))

    @staticmethod
    def parse_file(file_path: str) -> 'AvroSchema':
        """Parses an Avro schema (``.avsc``) from a file."""
        with io.open(file_path, "r", encoding="utf-8") as schema_file:
            return AvroSchema(_ParsedSchema(schema_file.read()))


class GenericRecordAvroTypeInfo(TypeInformation):
    """Type information of Avro GenericRecords. Not provided yet."""

    __init__ = unsupported("GenericRecordAvroTypeInfo", _SECTION)


class AvroInputFormat(InputFormat):
    """Input format reading Avro files. Not provided yet."""

    __init__ = unsupported("AvroInputFormat", _SECTION)
    get_produced_type = unsupported("AvroInputFormat.get_produced_type", _SECTION)


class AvroBulkWriters(object):
    """Bulk writer factories writing Avro files. Not provided yet."""

    __init__ = unsupported("AvroBulkWriters", _SECTION)
    for_generic_record = staticmethod(unsupported("AvroBulkWriters.for_generic_record", _SECTION))


def _parse_for(class_name: str, record_class, avro_schema_string) -> _ParsedSchema:
    """The parsed schema, with PyFlink's argument checks and Flink's constructor errors."""
    if record_class is None and avro_schema_string is None:
        raise TypeError("record_class or avro_schema_string should be specified.")
    if record_class is not None:          # PyFlink: record_class wins when both are given
        raise UnsupportedFeatureError(
            "%s(record_class=%r)" % (class_name, record_class), _SECTION,
            "a record_class is a generated Java SpecificRecord class, which needs a JVM: pass its Avro "
            "schema as avro_schema_string instead")
    method = "None.org.apache.flink.formats.avro.%s" % class_name
    try:
        return _ParsedSchema(avro_schema_string, method)
    except JavaStyleError as e:
        raise JavaStyleError("java.lang.IllegalArgumentException", "Could not parse Avro schema string. (%s: %s)"
                             % (e.java_class, e.message), method) from e


class AvroRowDeserializationSchema(DeserializationSchema):
    """Deserializes Avro binary records (schemaless, as Flink's AvroRowSerializationSchema writes them) into
    ``Row``s of the type converted from the schema."""

    def __init__(self, record_class: str = None, avro_schema_string: str = None):
        self._schema = _parse_for("AvroRowDeserializationSchema", record_class, avro_schema_string)
        self._type_info = _type_info(self._schema.tree)
        if self._schema.tree["type"] != "record":
            raise JavaStyleError("java.lang.IllegalArgumentException", "Row type information expected.",
                                 "None.org.apache.flink.formats.avro.AvroRowDeserializationSchema")
        super().__init__()

    def produced_type(self):
        return self._type_info

    def deserialize(self, message: bytes):
        if message is None:
            return None
        from fastavro import schemaless_reader
        try:
            raw = schemaless_reader(io.BytesIO(bytes(message)), self._schema.raw, None)
            return _to_python(self._schema.tree, raw)
        except Exception as e:
            raise RuntimeError("Failed to deserialize Avro record. (%s: %s)" % (type(e).__name__, e)) from e

    def __getstate__(self):
        return {"text": self._schema.text}

    def __setstate__(self, state):
        self.__init__(avro_schema_string=state["text"])

    def __repr__(self):
        return "AvroRowDeserializationSchema(avro_schema_string=%r)" % self._schema.text


class AvroRowSerializationSchema(SerializationSchema):
    """Serializes ``Row``s into Avro binary records (schemaless: no container file, no schema-registry
    header), fields by position in the schema's order."""

    def __init__(self, record_class: str = None, avro_schema_string: str = None):
        # like Flink: the schema is only parsed here (a non-record schema fails each serialize())
        self._schema = _parse_for("AvroRowSerializationSchema", record_class, avro_schema_string)
        super().__init__()

    def serialize(self, value) -> bytes:
        if value is None:
            return None
        from fastavro import schemaless_writer
        out = io.BytesIO()
        try:
            if self._schema.tree["type"] != "record":
                raise TypeError("Not a record: %s" % self._schema)
            schemaless_writer(out, self._schema.raw, _to_raw(self._schema.tree, value))
        except Exception as e:
            raise RuntimeError("Failed to serialize row. (%s: %s)" % (type(e).__name__, e)) from e
        return out.getvalue()

    def __getstate__(self):
        return {"text": self._schema.text}

    def __setstate__(self, state):
        self.__init__(avro_schema_string=state["text"])

    def __repr__(self):
        return "AvroRowSerializationSchema(avro_schema_string=%r)" % self._schema.text

"""Serialization schemas (mirror of ``pyflink.common.serialization``).

PyFlink's schemas are Java-backed; ours are pure Python with two levels of API
that the runtime uses:

* per record: ``deserialize(bytes) -> value`` / ``serialize(value) -> bytes``;
* per Arrow array (vectorised, optional): ``_deserialize_arrow(pa.BinaryArray)``
  / ``_serialize_arrow(pa.Array)``; returning ``None`` means "no vectorised
  path, use the per-record one".

``produced_type()`` of a deserializer is the TypeInformation of the stream it
creates (PyFlink: STRING for SimpleStringSchema).
"""
import codecs

from pyflink_compat.util.exceptions import unsupported, unsupported_class

__all__ = ['SerializationSchema', 'DeserializationSchema', 'SimpleStringSchema', 'ByteArraySchema',
           'Encoder', 'BulkWriterFactory', 'RowFieldExtractorSchema']


class SerializationSchema(object):
    """Base class of serialization schemas."""

    def __init__(self, j_serialization_schema=None):
        self._j_serialization_schema = j_serialization_schema

    def serialize(self, value) -> bytes:
        raise NotImplementedError("%s does not implement serialize" % type(self).__name__)

    def _serialize_arrow(self, array):
        return None


class DeserializationSchema(object):
    """Base class of deserialization schemas."""

    def __init__(self, j_deserialization_schema=None):
        self._j_deserialization_schema = j_deserialization_schema

    def deserialize(self, message: bytes):
        raise NotImplementedError("%s does not implement deserialize" % type(self).__name__)

    def produced_type(self):
        from pyflink_compat.common.typeinfo import Types
        return Types.PICKLED_BYTE_ARRAY()

    def _deserialize_arrow(self, array):
        return None


class SimpleStringSchema(SerializationSchema, DeserializationSchema):
    """Strings as bytes in a charset (UTF-8 by default), both directions.

    Like Java's ``new String(bytes, charset)``, undecodable bytes become U+FFFD
    rather than failing.
    """

    def __init__(self, charset: str = 'UTF-8'):
        # Java's Charset.forName fails on unknown names: fail here too.
        codecs.lookup(charset)
        self._charset = charset
        SerializationSchema.__init__(self)
        DeserializationSchema.__init__(self)

    def produced_type(self):
        from pyflink_compat.common.typeinfo import Types
        return Types.STRING()

    def deserialize(self, message: bytes):
        if message is None:
            return None
        return bytes(message).decode(self._charset, errors="replace")

    def serialize(self, value) -> bytes:
        if value is None:
            return None
        return str(value).encode(self._charset)

    def _is_utf8(self):
        return codecs.lookup(self._charset).name == "utf-8"

    def _deserialize_arrow(self, array):
        if not self._is_utf8():
            return None
        import pyarrow as pa
        import pyarrow.compute as pc
        try:
            return pc.cast(array, pa.string())          # validates UTF-8
        except pa.ArrowInvalid:
            return None                                  # fall back to per-record, replacing bad bytes

    def _serialize_arrow(self, array):
        import pyarrow as pa
        import pyarrow.compute as pc
        if not self._is_utf8() or not pa.types.is_string(array.type):
            return None
        return pc.cast(array, pa.binary())

    def __eq__(self, other):
        return type(other) is type(self) and other._charset == self._charset

    def __hash__(self):
        return hash((type(self).__name__, self._charset))

    def __repr__(self):
        return "SimpleStringSchema(%r)" % self._charset


class ByteArraySchema(SerializationSchema, DeserializationSchema):
    """Raw bytes in and out (since PyFlink 2.0)."""

    def __init__(self):
        SerializationSchema.__init__(self)
        DeserializationSchema.__init__(self)

    def produced_type(self):
        from pyflink_compat.common.typeinfo import Types
        return Types.PRIMITIVE_ARRAY(Types.BYTE())

    def deserialize(self, message: bytes):
        return None if message is None else bytes(message)

    def serialize(self, value) -> bytes:
        return None if value is None else bytes(value)

    def _deserialize_arrow(self, array):
        return array

    def _serialize_arrow(self, array):
        import pyarrow as pa
        return array if pa.types.is_binary(array.type) else None

    def __repr__(self):
        return "ByteArraySchema()"


class Encoder(object):
    """Encoders are for file sinks, which pyflink-compat does not provide yet."""

    def __init__(self, j_encoder):
        self._j_encoder = j_encoder

    simple_string_encoder = staticmethod(unsupported("Encoder.simple_string_encoder", "unsupported-apis",
                                                     "file sinks are not provided"))


BulkWriterFactory = unsupported_class("BulkWriterFactory", "unsupported-apis", "file sinks are not provided")
RowDataBulkWriterFactory = unsupported_class("RowDataBulkWriterFactory", "unsupported-apis",
                                             "file sinks are not provided")
for _factory in (BulkWriterFactory, RowDataBulkWriterFactory):
    _factory.get_java_object = unsupported(_factory.__name__ + ".get_java_object", "unsupported-apis",
                                           "file sinks are not provided")
del _factory


class RowFieldExtractorSchema(SerializationSchema):
    """Serializes one field of a Row (since PyFlink 2.3), as Java's ``RowFieldExtractorSchema`` does: the field
    must already be bytes; a null row or a null field gives empty bytes (not a null Kafka value)."""

    def __init__(self, field_index: int):
        if field_index < 0:
            raise ValueError(f"Field index must be non-negative, got: {field_index}")
        self._field_index = field_index
        super().__init__()

    def serialize(self, value) -> bytes:
        from pyflink_compat.util.exceptions import JavaStyleError
        if value is None:
            return b""
        if self._field_index >= len(value):
            raise JavaStyleError("java.lang.IllegalArgumentException", "Cannot access field %d in Row with arity %d"
                                 % (self._field_index, len(value)), "serialize")
        field = value[self._field_index]
        if field is None:
            return b""
        if isinstance(field, (bytes, bytearray)):
            return bytes(field)
        raise JavaStyleError("java.lang.IllegalArgumentException", "Field at index %d must be of type byte[], but "
                             "was %s" % (self._field_index, _java_class_name(field)), "serialize")


def _java_class_name(value) -> str:
    """The Java class PyFlink hands a Python value to the JVM as (an int as Integer when it fits, else Long)."""
    import datetime
    import decimal
    from pyflink_compat.common.types import Row
    if isinstance(value, bool):
        return "java.lang.Boolean"
    if isinstance(value, int):
        return "java.lang.Integer" if -2 ** 31 <= value < 2 ** 31 else "java.lang.Long"
    for python_type, java_class in ((str, "java.lang.String"), (float, "java.lang.Double"),
                                    (decimal.Decimal, "java.math.BigDecimal"),
                                    (datetime.datetime, "java.sql.Timestamp"),
                                    (datetime.date, "java.sql.Date"), (datetime.time, "java.sql.Time"),
                                    (Row, "org.apache.flink.types.Row"), (dict, "java.util.HashMap"),
                                    (list, "[Ljava.lang.Object;"), (tuple, "org.apache.flink.api.java.tuple.Tuple")):
        if isinstance(value, python_type):
            return java_class
    return type(value).__name__


# PyFlink 1.15 and earlier kept the row formats in this module; jobs of that time still import them from here.
_FORMATS_OF_FLINK_1_15 = {
    "JsonRowSerializationSchema": "json", "JsonRowDeserializationSchema": "json",
    "CsvRowSerializationSchema": "csv", "CsvRowDeserializationSchema": "csv",
    "AvroRowSerializationSchema": "avro", "AvroRowDeserializationSchema": "avro",
}


def __getattr__(name):
    fmt = _FORMATS_OF_FLINK_1_15.get(name)
    if fmt is None:
        raise AttributeError("module %r has no attribute %r"
                             % (__name__.replace("pyflink_compat", "pyflink", 1), name))
    import importlib
    from pyflink_compat.util.deprecation import removed_in_2
    removed_in_2("pyflink.common.serialization." + name,
                 "import it from pyflink.datastream.formats.%s" % fmt, since="1.16", stacklevel=3)
    return getattr(importlib.import_module("pyflink_compat.datastream.formats." + fmt), name)

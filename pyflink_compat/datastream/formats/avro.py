"""Avro format (mirror of ``pyflink.datastream.formats.avro``). Not provided yet.

The names exist so that job files import unchanged; every constructor and static
factory (``AvroSchema.parse_string``/``parse_file``,
``AvroBulkWriters.for_generic_record``) raises ``UnsupportedFeatureError`` (see
``porting_guide/README.md#formats``).
"""
from pyflink_compat.common.io import InputFormat
from pyflink_compat.common.serialization import DeserializationSchema, SerializationSchema
from pyflink_compat.common.typeinfo import TypeInformation
from pyflink_compat.util.exceptions import unsupported

__all__ = ['AvroSchema', 'GenericRecordAvroTypeInfo', 'AvroInputFormat', 'AvroBulkWriters',
           'AvroRowDeserializationSchema', 'AvroRowSerializationSchema']

_SECTION = "formats"


class AvroSchema(object):
    """An Avro schema. Not provided yet."""

    __init__ = unsupported("AvroSchema", _SECTION)
    parse_string = staticmethod(unsupported("AvroSchema.parse_string", _SECTION))
    parse_file = staticmethod(unsupported("AvroSchema.parse_file", _SECTION))


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


class AvroRowDeserializationSchema(DeserializationSchema):
    """Deserialization schema from Avro bytes to rows. Not provided yet."""

    __init__ = unsupported("AvroRowDeserializationSchema", _SECTION)


class AvroRowSerializationSchema(SerializationSchema):
    """Serialization schema from rows to Avro bytes. Not provided yet."""

    __init__ = unsupported("AvroRowSerializationSchema", _SECTION)

"""CSV format (mirror of ``pyflink.datastream.formats.csv``). Not provided yet.

The names exist so that job files import unchanged; every constructor, nested
``Builder()`` and static factory (``CsvSchema.builder``, ``CsvReaderFormat.for_schema``,
``CsvBulkWriters.for_schema``) raises ``UnsupportedFeatureError`` (see
``porting_guide/README.md#formats``).
"""
from pyflink_compat.common.serialization import DeserializationSchema, SerializationSchema
from pyflink_compat.util.exceptions import unsupported

__all__ = ['CsvSchema', 'CsvSchemaBuilder', 'CsvReaderFormat', 'CsvBulkWriters',
           'CsvRowDeserializationSchema', 'CsvRowSerializationSchema']

_SECTION = "formats"


class CsvSchema(object):
    """Schema of CSV data. Not provided yet."""

    __init__ = unsupported("CsvSchema", _SECTION)
    builder = staticmethod(unsupported("CsvSchema.builder", _SECTION))


class CsvSchemaBuilder(object):
    """Builder of CsvSchema. Not provided yet."""

    __init__ = unsupported("CsvSchemaBuilder", _SECTION)


class CsvReaderFormat(object):
    """Stream format reading CSV files. Not provided yet."""

    __init__ = unsupported("CsvReaderFormat", _SECTION)
    for_schema = staticmethod(unsupported("CsvReaderFormat.for_schema", _SECTION))


class CsvBulkWriters(object):
    """Bulk writer factories writing CSV files. Not provided yet."""

    __init__ = unsupported("CsvBulkWriters", _SECTION)
    for_schema = staticmethod(unsupported("CsvBulkWriters.for_schema", _SECTION))


class CsvRowDeserializationSchema(DeserializationSchema):
    """Deserialization schema from CSV to rows. Not provided yet."""

    __init__ = unsupported("CsvRowDeserializationSchema", _SECTION)

    class Builder(object):
        """Builder of CsvRowDeserializationSchema. Not provided yet."""

        __init__ = unsupported("CsvRowDeserializationSchema.Builder", _SECTION)


class CsvRowSerializationSchema(SerializationSchema):
    """Serialization schema from rows to CSV bytes. Not provided yet."""

    __init__ = unsupported("CsvRowSerializationSchema", _SECTION)

    class Builder(object):
        """Builder of CsvRowSerializationSchema. Not provided yet."""

        __init__ = unsupported("CsvRowSerializationSchema.Builder", _SECTION)

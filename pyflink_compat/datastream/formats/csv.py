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
    size = unsupported("CsvSchema.size", _SECTION)


class CsvSchemaBuilder(object):
    """Builder of CsvSchema. Not provided yet."""

    __init__ = unsupported("CsvSchemaBuilder", _SECTION)


class CsvReaderFormat(object):
    """Stream format reading CSV files. Not provided yet."""

    __init__ = unsupported("CsvReaderFormat", _SECTION)
    for_schema = staticmethod(unsupported("CsvReaderFormat.for_schema", _SECTION))
    text_line_format = staticmethod(unsupported("CsvReaderFormat.text_line_format", _SECTION))


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


def _stub_methods(cls, qualified, names):
    for name in names:
        setattr(cls, name, unsupported("%s.%s" % (qualified, name), _SECTION))


_stub_methods(CsvSchemaBuilder, "CsvSchemaBuilder", (
    'build', 'add_array_column', 'add_boolean_column', 'add_number_column', 'add_string_column',
    'add_columns_from', 'clear_columns', 'set_allow_comments', 'set_any_property_name',
    'disable_array_element_separator', 'remove_array_element_separator', 'set_array_element_separator',
    'set_column_separator', 'disable_escape_char', 'set_escape_char', 'set_line_separator', 'set_null_value',
    'disable_quote_char', 'set_quote_char', 'set_skip_first_data_row', 'set_strict_headers', 'set_use_header',
    'size'))
_stub_methods(CsvRowDeserializationSchema.Builder, "CsvRowDeserializationSchema.Builder", (
    'set_field_delimiter', 'set_allow_comments', 'set_array_element_delimiter', 'set_quote_character',
    'set_escape_character', 'set_null_literal', 'set_ignore_parse_errors', 'build'))
_stub_methods(CsvRowSerializationSchema.Builder, "CsvRowSerializationSchema.Builder", (
    'set_field_delimiter', 'set_line_delimiter', 'set_array_element_delimiter', 'disable_quote_character',
    'set_quote_character', 'set_escape_character', 'set_null_literal', 'build'))

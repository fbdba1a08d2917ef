"""JSON row format (mirror of ``pyflink.datastream.formats.json``). Not provided yet.

The names exist so that job files import unchanged; constructing either schema,
or calling ``builder()`` or a ``Builder()``, raises ``UnsupportedFeatureError``
(see ``porting_guide/README.md#formats``; meanwhile read with
``SimpleStringSchema`` and parse with ``json.loads`` in a ``map``).
"""
from pyflink_compat.common.serialization import DeserializationSchema, SerializationSchema
from pyflink_compat.util.exceptions import unsupported

__all__ = ['JsonRowDeserializationSchema', 'JsonRowSerializationSchema']

_SECTION = "formats"


class JsonRowDeserializationSchema(DeserializationSchema):
    """Deserialization schema from JSON to rows. Not provided yet."""

    __init__ = unsupported("JsonRowDeserializationSchema", _SECTION)
    builder = staticmethod(unsupported("JsonRowDeserializationSchema.builder", _SECTION))

    class Builder(object):
        """Builder of JsonRowDeserializationSchema. Not provided yet."""

        __init__ = unsupported("JsonRowDeserializationSchema.Builder", _SECTION)
        type_info = unsupported("JsonRowDeserializationSchema.Builder.type_info", _SECTION)
        json_schema = unsupported("JsonRowDeserializationSchema.Builder.json_schema", _SECTION)
        fail_on_missing_field = unsupported("JsonRowDeserializationSchema.Builder.fail_on_missing_field",
                                            _SECTION)
        ignore_parse_errors = unsupported("JsonRowDeserializationSchema.Builder.ignore_parse_errors", _SECTION)
        build = unsupported("JsonRowDeserializationSchema.Builder.build", _SECTION)


class JsonRowSerializationSchema(SerializationSchema):
    """Serialization schema from rows to JSON bytes. Not provided yet."""

    __init__ = unsupported("JsonRowSerializationSchema", _SECTION)
    builder = staticmethod(unsupported("JsonRowSerializationSchema.builder", _SECTION))

    class Builder(object):
        """Builder of JsonRowSerializationSchema. Not provided yet."""

        __init__ = unsupported("JsonRowSerializationSchema.Builder", _SECTION)
        with_type_info = unsupported("JsonRowSerializationSchema.Builder.with_type_info", _SECTION)
        build = unsupported("JsonRowSerializationSchema.Builder.build", _SECTION)

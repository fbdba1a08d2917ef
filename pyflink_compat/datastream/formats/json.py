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


class JsonRowSerializationSchema(SerializationSchema):
    """Serialization schema from rows to JSON bytes. Not provided yet."""

    __init__ = unsupported("JsonRowSerializationSchema", _SECTION)
    builder = staticmethod(unsupported("JsonRowSerializationSchema.builder", _SECTION))

    class Builder(object):
        """Builder of JsonRowSerializationSchema. Not provided yet."""

        __init__ = unsupported("JsonRowSerializationSchema.Builder", _SECTION)

"""Dynamic Kafka source (mirror of ``pyflink.datastream.connectors.dynamic_kafka``, new in 2.3.0).

All names exist with PyFlink's signatures so imports work, but pyflink-compat
does not provide the dynamic Kafka source yet: every constructor (and
``DynamicKafkaSource.builder()``) raises ``UnsupportedFeatureError``.
"""
from typing import Dict, Set, Union

from pyflink_compat.common.serialization import DeserializationSchema
from pyflink_compat.datastream.connectors.base import Source
from pyflink_compat.datastream.connectors.kafka import KafkaOffsetsInitializer
from pyflink_compat.util.exceptions import UnsupportedFeatureError

__all__ = [
    'DynamicKafkaSource',
    'DynamicKafkaSourceBuilder',
    'KafkaMetadataService',
    'KafkaRecordDeserializationSchema',
    'KafkaStreamSetSubscriber',
    'KafkaStreamSubscriber',
    'StreamPatternSubscriber',
    'SingleClusterTopicMetadataService'
]

_SECTION = "dynamic-kafka"


def _unsupported(name: str) -> UnsupportedFeatureError:
    return UnsupportedFeatureError(name, _SECTION)


class KafkaMetadataService(object):
    """Base class of Kafka metadata services. Not provided yet."""

    def __init__(self, j_metadata_service):
        raise _unsupported("KafkaMetadataService")


class SingleClusterTopicMetadataService(KafkaMetadataService):
    """Metadata service of one cluster where stream ids are topics. Not provided yet."""

    def __init__(self, kafka_cluster_id: str, properties: Dict[str, str]):
        raise _unsupported("SingleClusterTopicMetadataService")


class KafkaStreamSubscriber(object):
    """Base class of stream subscribers. Not provided yet."""

    def __init__(self, j_kafka_stream_subscriber):
        raise _unsupported("KafkaStreamSubscriber")


class KafkaStreamSetSubscriber(KafkaStreamSubscriber):
    """Subscribes to a fixed set of stream ids. Not provided yet."""

    def __init__(self, stream_ids: Set[str]):
        raise _unsupported("KafkaStreamSetSubscriber")


class StreamPatternSubscriber(KafkaStreamSubscriber):
    """Subscribes to stream ids matching a regex. Not provided yet."""

    def __init__(self, stream_pattern: str):
        raise _unsupported("StreamPatternSubscriber")


class KafkaRecordDeserializationSchema(DeserializationSchema):
    """Deserializer of whole Kafka records. Not provided yet."""

    def __init__(self, j_deserialization_schema):
        raise _unsupported("KafkaRecordDeserializationSchema")

    @staticmethod
    def value_only(deserialization_schema: DeserializationSchema) -> 'KafkaRecordDeserializationSchema':
        raise _unsupported("KafkaRecordDeserializationSchema.value_only")


class DynamicKafkaSource(Source):
    """Source reading streams that may move between Kafka clusters. Not provided yet."""

    def __init__(self, j_dynamic_kafka_source):
        raise _unsupported("DynamicKafkaSource")

    @staticmethod
    def builder() -> 'DynamicKafkaSourceBuilder':
        raise _unsupported("DynamicKafkaSource.builder")


class DynamicKafkaSourceBuilder(object):
    """Builder of :class:`DynamicKafkaSource`. Not provided yet."""

    def __init__(self):
        raise _unsupported("DynamicKafkaSourceBuilder")

    def build(self) -> DynamicKafkaSource:
        raise _unsupported("DynamicKafkaSourceBuilder.build")

    def set_stream_ids(self, stream_ids: Set[str]) -> 'DynamicKafkaSourceBuilder':
        raise _unsupported("DynamicKafkaSourceBuilder.set_stream_ids")

    def set_stream_pattern(self, stream_pattern: str) -> 'DynamicKafkaSourceBuilder':
        raise _unsupported("DynamicKafkaSourceBuilder.set_stream_pattern")

    def set_kafka_stream_subscriber(self, kafka_stream_subscriber: Union[KafkaStreamSubscriber, object]) \
            -> 'DynamicKafkaSourceBuilder':
        raise _unsupported("DynamicKafkaSourceBuilder.set_kafka_stream_subscriber")

    def set_kafka_metadata_service(self, kafka_metadata_service: Union[KafkaMetadataService, object]) \
            -> 'DynamicKafkaSourceBuilder':
        raise _unsupported("DynamicKafkaSourceBuilder.set_kafka_metadata_service")

    def set_deserializer(self, deserializer: Union[KafkaRecordDeserializationSchema, object]) \
            -> 'DynamicKafkaSourceBuilder':
        raise _unsupported("DynamicKafkaSourceBuilder.set_deserializer")

    def set_value_only_deserializer(self, deserialization_schema: DeserializationSchema) \
            -> 'DynamicKafkaSourceBuilder':
        raise _unsupported("DynamicKafkaSourceBuilder.set_value_only_deserializer")

    def set_starting_offsets(self, starting_offsets_initializer: KafkaOffsetsInitializer) \
            -> 'DynamicKafkaSourceBuilder':
        raise _unsupported("DynamicKafkaSourceBuilder.set_starting_offsets")

    def set_bounded(self, stopping_offsets_initializer: KafkaOffsetsInitializer) \
            -> 'DynamicKafkaSourceBuilder':
        raise _unsupported("DynamicKafkaSourceBuilder.set_bounded")

    def set_properties(self, props: Dict[str, str]) -> 'DynamicKafkaSourceBuilder':
        raise _unsupported("DynamicKafkaSourceBuilder.set_properties")

    def set_property(self, key: str, value: str) -> 'DynamicKafkaSourceBuilder':
        raise _unsupported("DynamicKafkaSourceBuilder.set_property")

    def set_group_id(self, group_id: str) -> 'DynamicKafkaSourceBuilder':
        raise _unsupported("DynamicKafkaSourceBuilder.set_group_id")

    def set_client_id_prefix(self, prefix: str) -> 'DynamicKafkaSourceBuilder':
        raise _unsupported("DynamicKafkaSourceBuilder.set_client_id_prefix")

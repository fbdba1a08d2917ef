"""Kafka connector (mirror of ``pyflink.datastream.connectors.kafka``, apache-flink 2.3.0).

PyFlink's builders forward every call to the Java builders of
flink-connector-kafka, which validate in ``build()`` (and in a few setters).
Ours keep the same Python API, reproduce that Java validation with the same
exception class names and messages (as ``JavaStyleError``, a ``Py4JJavaError``),
fill in the same defaults, and produce the plain specs of
``pyflink_compat.kafka_io.spec`` for the runtime.

Python-side argument errors (a list passed to the varargs ``set_topics``, a
non-str property value, ...) raise ``TypeError`` where PyFlink would fail inside
py4j or with an ``AttributeError``.
"""
import logging
import random
from abc import ABC, abstractmethod
from enum import Enum
from typing import Any, Callable, Dict, List, Optional, Set, Union

import attrs

from pyflink_compat.common.serialization import DeserializationSchema, SerializationSchema
from pyflink_compat.datastream.connectors.base import (
    DeliveryGuarantee, Sink, Source, StreamTransformer, SupportsPreprocessing)
from pyflink_compat.kafka_io import spec as kspec
from pyflink_compat.util.exceptions import illegal_argument, illegal_state, null_pointer

__all__ = [
    'FlinkKafkaConsumer',
    'FlinkKafkaProducer',
    'KafkaSource',
    'KafkaSourceBuilder',
    'KafkaSink',
    'KafkaSinkBuilder',
    'Semantic',
    'KafkaTopicPartition',
    'KafkaOffsetsInitializer',
    'KafkaOffsetResetStrategy',
    'KafkaRecordSerializationSchema',
    'KafkaRecordSerializationSchemaBuilder',
    'KafkaTopicSelector'
]

logger = logging.getLogger(__name__)

_BYTE_ARRAY_DESERIALIZER = "org.apache.kafka.common.serialization.ByteArrayDeserializer"
_SHADED_PREFIX = "org.apache.flink.kafka.shaded."
_KAFKA_SERIALIZATION_PACKAGE = "org.apache.kafka.common.serialization."
# Kafka's own deserializers of something other than byte[]: Java's builder finds
# the class and rejects it with "does not deserialize byte[]".
_NON_BYTE_ARRAY_DESERIALIZERS = frozenset(
    _KAFKA_SERIALIZATION_PACKAGE + name for name in (
        "StringDeserializer", "IntegerDeserializer", "LongDeserializer", "ShortDeserializer",
        "FloatDeserializer", "DoubleDeserializer", "UUIDDeserializer", "ByteBufferDeserializer",
        "BytesDeserializer", "VoidDeserializer", "BooleanDeserializer", "ListDeserializer"))

_MAXIMUM_PREFIX_BYTES = 64000


# ---------------------------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------------------------

class _Properties(dict):
    """Kafka properties as a plain dict whose repr()/str() hide secret values.

    Used for the ``properties`` of the specs so that logging a spec, a source or a
    sink never prints ``sasl.jaas.config`` or passwords.
    """

    def __repr__(self):
        return repr(kspec.redacted(self))

    __str__ = __repr__


def _check_property(key, value):
    """Values go into a ``java.util.Properties`` in PyFlink, so key and value must be str."""
    if not isinstance(key, str):
        raise TypeError("Kafka property keys must be str, got %s" % type(key).__name__)
    if not isinstance(value, str):
        raise TypeError("Kafka property '%s' must have a str value (PyFlink passes it to "
                        "java.util.Properties), got %s" % (key, type(value).__name__))


def _check_str(name: str, value):
    if not isinstance(value, str):
        raise TypeError("%s must be a str, got %s" % (name, type(value).__name__))


def _java_parse_boolean(value) -> bool:
    """Java's ``Boolean.parseBoolean``: true only for "true", ignoring case."""
    return isinstance(value, str) and value.lower() == "true"


def _random_java_long() -> int:
    """A value like Java's ``new Random().nextLong()`` (signed 64-bit)."""
    return random.getrandbits(64) - (1 << 63)


# ---------------------------------------------------------------------------------------------
# KafkaTopicPartition, offsets
# ---------------------------------------------------------------------------------------------

class KafkaTopicPartition(object):
    """A topic name and partition number (Java ``org.apache.kafka.common.TopicPartition``).

    Value equality and PyFlink's hash, ``31 * (31 + partition) + hash(topic)``.
    """

    def __init__(self, topic: str, partition: int):
        self._topic = topic
        self._partition = partition

    def _to_key(self):
        return (self._topic, self._partition)

    def _java_string(self) -> str:
        """Java's ``TopicPartition.toString()``: ``topic-partition``."""
        return "%s-%s" % (self._topic, self._partition)

    def __eq__(self, other):
        if not isinstance(other, KafkaTopicPartition):
            return False
        return self._topic == other._topic and self._partition == other._partition

    def __hash__(self):
        return 31 * (31 + self._partition) + hash(self._topic)

    def __repr__(self):
        return "KafkaTopicPartition(topic=%r, partition=%r)" % (self._topic, self._partition)


class KafkaOffsetResetStrategy(Enum):
    """What to do when there is no initial offset or it is out of range (Java ``OffsetResetStrategy``)."""

    LATEST = 0
    EARLIEST = 1
    NONE = 2

    def _to_spec(self) -> str:
        return self.name.lower()


def _check_reset_strategy(strategy):
    if not isinstance(strategy, KafkaOffsetResetStrategy):
        raise TypeError("offset_reset_strategy must be a KafkaOffsetResetStrategy, got %r" % (strategy,))


class KafkaOffsetsInitializer(object):
    """Starting or stopping offsets of a KafkaSource.

    Only the built-in factories exist (custom initializers are not supported in
    PyFlink either). Each instance holds an ``OffsetsSpec`` in ``self._spec``; the
    constructor keeps PyFlink's parameter name.
    """

    def __init__(self, j_initializer):
        self._spec = j_initializer

    @staticmethod
    def committed_offsets(
            offset_reset_strategy: 'KafkaOffsetResetStrategy' = KafkaOffsetResetStrategy.NONE) \
            -> 'KafkaOffsetsInitializer':
        """Start from the consumer group's committed offsets, else ``offset_reset_strategy``."""
        _check_reset_strategy(offset_reset_strategy)
        return KafkaOffsetsInitializer(kspec.OffsetsSpec(
            kind=kspec.COMMITTED, reset_strategy=offset_reset_strategy._to_spec()))

    @staticmethod
    def timestamp(timestamp: int) -> 'KafkaOffsetsInitializer':
        """The first offset whose record timestamp is >= ``timestamp`` (epoch ms); reset strategy LATEST."""
        if isinstance(timestamp, bool) or not isinstance(timestamp, int):
            raise TypeError("timestamp must be an int (epoch milliseconds), got %r" % (timestamp,))
        return KafkaOffsetsInitializer(kspec.OffsetsSpec(
            kind=kspec.TIMESTAMP, reset_strategy=kspec.RESET_LATEST, timestamp_ms=timestamp))

    @staticmethod
    def earliest() -> 'KafkaOffsetsInitializer':
        """The earliest available offsets; reset strategy EARLIEST."""
        return KafkaOffsetsInitializer(kspec.OffsetsSpec(
            kind=kspec.EARLIEST, reset_strategy=kspec.RESET_EARLIEST))

    @staticmethod
    def latest() -> 'KafkaOffsetsInitializer':
        """The latest offsets at the time a partition is first assigned; reset strategy LATEST."""
        return KafkaOffsetsInitializer(kspec.OffsetsSpec(
            kind=kspec.LATEST, reset_strategy=kspec.RESET_LATEST))

    @staticmethod
    def offsets(offsets: Dict['KafkaTopicPartition', int],
                offset_reset_strategy: 'KafkaOffsetResetStrategy' = KafkaOffsetResetStrategy.EARLIEST) \
            -> 'KafkaOffsetsInitializer':
        """Given offsets per partition; other partitions use committed offsets, else the strategy."""
        _check_reset_strategy(offset_reset_strategy)
        if not isinstance(offsets, dict):
            raise TypeError("offsets must be a dict of KafkaTopicPartition to int, got %s"
                            % type(offsets).__name__)
        spec_offsets = {}
        for tp, offset in offsets.items():
            if not isinstance(tp, KafkaTopicPartition):
                raise TypeError("offsets keys must be KafkaTopicPartition, got %r" % (tp,))
            if isinstance(offset, bool) or not isinstance(offset, int):
                raise TypeError("offset of %r must be an int, got %r" % (tp, offset))
            spec_offsets[tp._to_key()] = offset
        return KafkaOffsetsInitializer(kspec.OffsetsSpec(
            kind=kspec.SPECIFIC, reset_strategy=offset_reset_strategy._to_spec(),
            offsets=spec_offsets))

    def __repr__(self):
        s = self._spec
        if not isinstance(s, kspec.OffsetsSpec):
            return "KafkaOffsetsInitializer(%r)" % (s,)
        if s.kind == kspec.TIMESTAMP:
            return "KafkaOffsetsInitializer.timestamp(%r)" % s.timestamp_ms
        if s.kind == kspec.COMMITTED:
            return "KafkaOffsetsInitializer.committed_offsets(%s)" % s.reset_strategy.upper()
        if s.kind == kspec.SPECIFIC:
            return "KafkaOffsetsInitializer.offsets(%r, %s)" % (dict(s.offsets), s.reset_strategy.upper())
        return "KafkaOffsetsInitializer.%s()" % s.kind


# Java's split offset sentinel for "use the committed offset" (KafkaPartitionSplit.COMMITTED_OFFSET).
_COMMITTED_OFFSET = -3


def _check_initializer(initializer, method: str) -> 'KafkaOffsetsInitializer':
    if not isinstance(initializer, KafkaOffsetsInitializer):
        raise TypeError(
            "%s expects a KafkaOffsetsInitializer (earliest(), latest(), timestamp(), "
            "committed_offsets() or offsets()); customized offset initializers are not "
            "supported in PyFlink, got %r" % (method, initializer))
    return initializer


def _validate_initializer(initializer: 'KafkaOffsetsInitializer', props: dict):
    """Java's ``OffsetsInitializerValidator.validate``: committed offsets need a group.id."""
    s = initializer._spec
    if "group.id" in props:
        return
    if s.kind == kspec.COMMITTED:
        raise illegal_state(
            "Property group.id is required when using committed offset for offsets initializer")
    if s.kind == kspec.SPECIFIC:
        for (topic, partition), offset in s.offsets.items():
            if offset == _COMMITTED_OFFSET:
                raise illegal_state(
                    "Property group.id is required because partition %s is initialized with "
                    "committed offset" % KafkaTopicPartition(topic, partition)._java_string())


def _check_deserializer_class(class_name: str):
    """Java's ``checkDeserializer`` for user-set key/value deserializers.

    We cannot load Java classes: only ByteArrayDeserializer (plain or shaded name)
    is accepted; Kafka's other deserializers fail like Java does, anything else as
    "not found".
    """
    plain = class_name[len(_SHADED_PREFIX):] if class_name.startswith(_SHADED_PREFIX) else class_name
    if plain == _BYTE_ARRAY_DESERIALIZER:
        return
    if plain in _NON_BYTE_ARRAY_DESERIALIZERS:
        raise illegal_argument("Deserializer class %s does not deserialize byte[]" % class_name)
    raise illegal_argument("Deserializer class %s not found" % class_name)


# ---------------------------------------------------------------------------------------------
# KafkaSource
# ---------------------------------------------------------------------------------------------

class KafkaSource(Source):
    """The Kafka source. Build it with ``KafkaSource.builder()``; holds a ``KafkaSourceSpec`` in ``_spec``."""

    def __init__(self, j_kafka_source):
        super(KafkaSource, self).__init__(j_kafka_source)

    @staticmethod
    def builder() -> 'KafkaSourceBuilder':
        return KafkaSourceBuilder()


class KafkaSourceBuilder(object):
    """Builder of :class:`KafkaSource`, reproducing Java ``KafkaSourceBuilder``.

    Defaults: starting offsets ``earliest()``, no stopping offsets, unbounded.
    Every setter returns ``self``.
    """

    _TOPICS_SUBSCRIBER = "TopicListSubscriber"
    _PATTERN_SUBSCRIBER = "TopicPatternSubscriber"
    _PARTITIONS_SUBSCRIBER = "PartitionSetSubscriber"

    def __init__(self):
        self._props = {}
        self._subscriber = None            # Java simple class name of the subscriber
        self._subscription = None          # spec.Subscription
        self._starting_offsets = KafkaOffsetsInitializer.earliest()
        self._stopping_offsets = None      # None: NoStoppingOffsetsInitializer
        self._bounded = False
        self._deserialization_schema = None

    def build(self) -> 'KafkaSource':
        """Java ``sanityCheck()`` then ``parseAndSetRequiredProperties()``; first failure wins."""
        self._sanity_check()
        self._parse_and_set_required_properties()
        return KafkaSource(kspec.KafkaSourceSpec(
            properties=_Properties(self._props),
            subscription=self._subscription,
            starting_offsets=self._starting_offsets._spec,
            stopping_offsets=None if self._stopping_offsets is None else self._stopping_offsets._spec,
            bounded=self._bounded,
            value_deserializer=self._deserialization_schema,
            idle_without_partitions=getattr(self, "_idle_without_partitions", False)))

    def _sanity_check(self):
        props = self._props
        if props.get("bootstrap.servers") is None:
            raise null_pointer("Property bootstrap.servers is required but not provided")
        if self._subscriber is None:
            raise null_pointer("No subscribe mode is specified, "
                               "should be one of topics, topic pattern and partition set.")
        if self._deserialization_schema is None:
            raise null_pointer("Deserialization schema is required but not provided.")
        commit_enabled_manually = (_java_parse_boolean(props.get("enable.auto.commit"))
                                   or _java_parse_boolean(props.get("commit.offsets.on.checkpoint")))
        if "group.id" not in props and commit_enabled_manually:
            raise illegal_state("Property group.id is required when offset commit is enabled")
        _validate_initializer(self._starting_offsets, props)
        if self._stopping_offsets is not None:
            _validate_initializer(self._stopping_offsets, props)
        for key in ("key.deserializer", "value.deserializer"):
            if key in props:
                _check_deserializer_class(props[key])

    def _parse_and_set_required_properties(self):
        """Fill Flink's defaults into the builder's properties (Java mutates them too)."""
        props = self._props
        if "group.id" not in props:
            logger.info("Offset commit on checkpoint is disabled because group.id is not specified")
            props.setdefault("commit.offsets.on.checkpoint", "false")
        props.setdefault("enable.auto.commit", "false")
        reset = self._starting_offsets._spec.reset_strategy
        if props.get("auto.offset.reset") not in (None, reset):
            logger.warning("Property auto.offset.reset is provided but will be overridden from %s to %s",
                           props["auto.offset.reset"], reset)
        props["auto.offset.reset"] = reset
        if self._bounded:
            props["partition.discovery.interval.ms"] = "-1"
        props.setdefault("client.id.prefix",
                         props["group.id"] if "group.id" in props
                         else "KafkaSource-%d" % _random_java_long())

    def set_bootstrap_servers(self, bootstrap_servers: str) -> 'KafkaSourceBuilder':
        return self.set_property("bootstrap.servers", bootstrap_servers)

    def set_group_id(self, group_id: str) -> 'KafkaSourceBuilder':
        return self.set_property("group.id", group_id)

    def _ensure_subscriber_is_null(self, attempting_mode: str, method: str):
        if self._subscriber is not None:
            raise illegal_state(
                "Cannot use %s for consumption because a %s is already set for consumption."
                % (attempting_mode, self._subscriber), method)

    def set_topics(self, *topics: str) -> 'KafkaSourceBuilder':
        """Subscribe to a list of topics (varargs, kept in the order given)."""
        for topic in topics:
            if not isinstance(topic, str):
                raise TypeError("set_topics takes topic names as separate str arguments, "
                                "e.g. set_topics('a', 'b'); got %r" % (topic,))
        self._ensure_subscriber_is_null("topics", "setTopics")
        self._subscriber = self._TOPICS_SUBSCRIBER
        self._subscription = kspec.Subscription(topics=tuple(topics))
        return self

    def set_topic_pattern(self, topic_pattern: str) -> 'KafkaSourceBuilder':
        """Subscribe to all topics whose whole name matches a (Java) regular expression."""
        _check_str("topic_pattern", topic_pattern)
        self._ensure_subscriber_is_null("topic pattern", "setTopicPattern")
        self._subscriber = self._PATTERN_SUBSCRIBER
        self._subscription = kspec.Subscription(pattern=topic_pattern)
        return self

    def set_partitions(self, partitions: Set['KafkaTopicPartition']) -> 'KafkaSourceBuilder':
        """Read exactly these partitions."""
        keys = []
        for tp in partitions:
            if not isinstance(tp, KafkaTopicPartition):
                raise TypeError("set_partitions expects a set of KafkaTopicPartition, got %r" % (tp,))
            keys.append(tp._to_key())
        self._ensure_subscriber_is_null("partitions", "setPartitions")
        self._subscriber = self._PARTITIONS_SUBSCRIBER
        self._subscription = kspec.Subscription(partitions=frozenset(keys))
        return self

    def set_starting_offsets(self, starting_offsets_initializer: 'KafkaOffsetsInitializer') \
            -> 'KafkaSourceBuilder':
        self._starting_offsets = _check_initializer(starting_offsets_initializer, "set_starting_offsets")
        return self

    def set_unbounded(self, stopping_offsets_initializer: 'KafkaOffsetsInitializer') \
            -> 'KafkaSourceBuilder':
        """Stop at the given offsets but stay CONTINUOUS_UNBOUNDED."""
        self._stopping_offsets = _check_initializer(stopping_offsets_initializer, "set_unbounded")
        self._bounded = False
        return self

    def set_bounded(self, stopping_offsets_initializer: 'KafkaOffsetsInitializer') \
            -> 'KafkaSourceBuilder':
        """Stop at the given offsets and be BOUNDED (partition discovery turned off)."""
        self._stopping_offsets = _check_initializer(stopping_offsets_initializer, "set_bounded")
        self._bounded = True
        return self

    def set_value_only_deserializer(self, deserialization_schema: DeserializationSchema) \
            -> 'KafkaSourceBuilder':
        """Deserialize only the record value; key, headers and metadata are dropped."""
        if not isinstance(deserialization_schema, DeserializationSchema):
            raise TypeError("deserialization_schema must be a DeserializationSchema, got %r"
                            % (deserialization_schema,))
        self._deserialization_schema = deserialization_schema
        return self

    def set_client_id_prefix(self, prefix: str) -> 'KafkaSourceBuilder':
        return self.set_property("client.id.prefix", prefix)

    def _set_idle_without_partitions(self) -> 'KafkaSourceBuilder':
        """Readers given no partition do not hold event time back: Flink SQL's Kafka source with
        table.exec.source.idle-timeout (its watermark generated in the source) lets them go idle."""
        self._idle_without_partitions = True
        return self

    def _set_record_deserializer(self, deserializer: kspec.RecordDeserializer) -> 'KafkaSourceBuilder':
        """Deserialize whole records (keys, tombstones, partition, offset): Java's setDeserializer, which PyFlink
        does not expose; pyflink-compat's Flink SQL Kafka tables read this way."""
        if not isinstance(deserializer, kspec.RecordDeserializer):
            raise TypeError("deserializer must be a RecordDeserializer, got %r" % (deserializer,))
        self._deserialization_schema = deserializer
        return self

    def set_property(self, key: str, value: str) -> 'KafkaSourceBuilder':
        _check_property(key, value)
        self._props[key] = value
        return self

    def set_properties(self, props: Dict) -> 'KafkaSourceBuilder':
        """Merge ``props`` into the properties (Java ``putAll``)."""
        for key, value in props.items():
            _check_property(key, value)
        self._props.update(props)
        return self

    def __repr__(self):
        return ("KafkaSourceBuilder(properties=%r, subscription=%r, starting_offsets=%r, "
                "stopping_offsets=%r, bounded=%r, deserializer=%r)"
                % (kspec.redacted(self._props), self._subscription, self._starting_offsets,
                   self._stopping_offsets, self._bounded, self._deserialization_schema))


# ---------------------------------------------------------------------------------------------
# KafkaSink
# ---------------------------------------------------------------------------------------------

class KafkaSink(Sink, SupportsPreprocessing):
    """The Kafka sink. Build it with ``KafkaSink.builder()``; holds a ``KafkaSinkSpec`` in ``_spec``.

    ``get_transformer()`` is None: pyflink-compat applies topic selectors itself
    when it writes, so no preprocessing step is added to the stream.
    """

    def __init__(self, j_kafka_sink, transformer: Optional[StreamTransformer] = None):
        super(KafkaSink, self).__init__(sink=j_kafka_sink)
        self._transformer = transformer

    @staticmethod
    def builder() -> 'KafkaSinkBuilder':
        return KafkaSinkBuilder()

    def get_transformer(self) -> Optional[StreamTransformer]:
        return self._transformer


class KafkaSinkBuilder(object):
    """Builder of :class:`KafkaSink`, reproducing Java ``KafkaSinkBuilder`` of Flink 2.x (connector v4+).

    Defaults: delivery guarantee NONE, no transactional id prefix, producer
    property ``transaction.timeout.ms=3600000`` (1 h).
    """

    def __init__(self):
        self._delivery_guarantee = DeliveryGuarantee.NONE
        self._transactional_id_prefix = None
        self._props = {"transaction.timeout.ms": "3600000"}
        self._record_serializer = None

    def build(self) -> 'KafkaSink':
        if self._props.get("bootstrap.servers") is None:
            raise null_pointer("bootstrapServers")
        if self._record_serializer is None:
            raise null_pointer("recordSerializer")
        if (self._delivery_guarantee == DeliveryGuarantee.EXACTLY_ONCE
                and self._transactional_id_prefix is None):
            raise illegal_state(
                "EXACTLY_ONCE delivery guarantee requires a transactionalIdPrefix to be set to "
                "provide unique transaction names across multiple KafkaSinks writing to the same "
                "Kafka cluster.")
        record = self._record_serializer._spec
        return KafkaSink(kspec.KafkaSinkSpec(
            properties=_Properties(self._props),
            delivery_guarantee=self._delivery_guarantee._to_string(),
            transactional_id_prefix=self._transactional_id_prefix,
            topic=record.topic,
            topic_selector=record.topic_selector,
            key_serializer=record.key_serialization_schema,
            value_serializer=record.value_serialization_schema,
            write_timestamp=getattr(self, "_write_timestamp", True)))

    def _set_write_timestamp(self, write_timestamp: bool) -> 'KafkaSinkBuilder':
        """Whether records carry their element's timestamp (Java's KafkaSink does) or the producer's send time
        (Flink SQL's Kafka tables without a 'timestamp' metadata column)."""
        self._write_timestamp = write_timestamp
        return self

    def set_bootstrap_servers(self, bootstrap_servers: str) -> 'KafkaSinkBuilder':
        return self.set_property("bootstrap.servers", bootstrap_servers)

    def set_delivery_guarantee(self, delivery_guarantee: DeliveryGuarantee) -> 'KafkaSinkBuilder':
        if not isinstance(delivery_guarantee, DeliveryGuarantee):
            raise TypeError("delivery_guarantee must be a DeliveryGuarantee, got %r" % (delivery_guarantee,))
        self._delivery_guarantee = delivery_guarantee
        return self

    def set_transactional_id_prefix(self, transactional_id_prefix: str) -> 'KafkaSinkBuilder':
        """Java stores the prefix, then checks it is at most 64000 UTF-8 bytes."""
        if transactional_id_prefix is None:
            raise null_pointer("transactionalIdPrefix", "setTransactionalIdPrefix")
        _check_str("transactional_id_prefix", transactional_id_prefix)
        self._transactional_id_prefix = transactional_id_prefix
        if len(transactional_id_prefix.encode("utf-8")) > _MAXIMUM_PREFIX_BYTES:
            raise illegal_state(
                "The configured prefix is too long and the resulting transactionalIdPrefix might "
                "exceed Kafka's transactionalIdPrefix size.", "setTransactionalIdPrefix")
        return self

    def set_record_serializer(self, record_serializer: 'KafkaRecordSerializationSchema') \
            -> 'KafkaSinkBuilder':
        if not isinstance(record_serializer, KafkaRecordSerializationSchema):
            raise TypeError("record_serializer must be a KafkaRecordSerializationSchema (from "
                            "KafkaRecordSerializationSchema.builder()...build()), got %r"
                            % (record_serializer,))
        self._record_serializer = record_serializer
        return self

    def set_property(self, key: str, value: str) -> 'KafkaSinkBuilder':
        _check_property(key, value)
        if key in ("key.serializer", "value.serializer"):
            logger.warning("Overwriting the '%s' is not recommended", key)
        self._props[key] = value
        return self

    def __repr__(self):
        return ("KafkaSinkBuilder(properties=%r, delivery_guarantee=%s, transactional_id_prefix=%r, "
                "record_serializer=%r)" % (kspec.redacted(self._props), self._delivery_guarantee,
                                           self._transactional_id_prefix, self._record_serializer))


# ---------------------------------------------------------------------------------------------
# KafkaRecordSerializationSchema
# ---------------------------------------------------------------------------------------------

class KafkaTopicSelector(ABC):
    """Selects the topic of an incoming record."""

    @abstractmethod
    def apply(self, data) -> str:
        pass


class _CallableTopicSelector(KafkaTopicSelector):
    """Adapts a plain callable to :class:`KafkaTopicSelector` (as PyFlink does)."""

    def __init__(self, func: Callable[[Any], str]):
        self._func = func

    def apply(self, data) -> str:
        return self._func(data)

    def __repr__(self):
        return "KafkaTopicSelector(%r)" % (self._func,)


@attrs.frozen
class _RecordSerializationSpec:
    """What a KafkaRecordSerializationSchema holds: a fixed topic or a selector, and the schemas."""

    topic: Optional[str]
    topic_selector: Optional[KafkaTopicSelector]
    key_serialization_schema: Optional[SerializationSchema]
    value_serialization_schema: SerializationSchema


class KafkaRecordSerializationSchema(SerializationSchema):
    """Turns stream elements into Kafka records: topic, key (None without key schema), value.

    Build it with ``KafkaRecordSerializationSchema.builder()``. The first
    constructor argument is our ``_RecordSerializationSpec`` (kept in ``_spec``).
    """

    def __init__(self, j_serialization_schema, topic_selector: Optional['KafkaTopicSelector'] = None):
        super(KafkaRecordSerializationSchema, self).__init__(j_serialization_schema)
        self._spec = j_serialization_schema
        self._topic_selector = topic_selector

    @staticmethod
    def builder() -> 'KafkaRecordSerializationSchemaBuilder':
        return KafkaRecordSerializationSchemaBuilder()

    def _serialize_record(self, element):
        """(topic, key, value) of ``element`` like Java's ``KafkaRecordSerializationSchemaWrapper``."""
        s = self._spec
        topic = s.topic if s.topic_selector is None else s.topic_selector.apply(element)
        value = s.value_serialization_schema.serialize(element)
        key = None if s.key_serialization_schema is None else s.key_serialization_schema.serialize(element)
        return topic, key, value

    def __repr__(self):
        return "KafkaRecordSerializationSchema(%r)" % (self._spec,)


class KafkaRecordSerializationSchemaBuilder(object):
    """Builder of :class:`KafkaRecordSerializationSchema`, reproducing the Java builder's checks."""

    def __init__(self):
        self._fixed_topic = True
        self._topic = None
        self._topic_selector = None
        self._topic_set = False
        self._key_serialization_schema = None
        self._value_serialization_schema = None

    def build(self) -> 'KafkaRecordSerializationSchema':
        if self._value_serialization_schema is None:
            raise illegal_state("No value serializer is configured.")
        if not self._topic_set:
            raise illegal_state("No topic selector is configured.")
        return KafkaRecordSerializationSchema(
            _RecordSerializationSpec(
                topic=self._topic,
                topic_selector=self._topic_selector,
                key_serialization_schema=self._key_serialization_schema,
                value_serialization_schema=self._value_serialization_schema),
            self._topic_selector)

    def _check_topic_not_set(self, method: str):
        if self._topic_set:
            raise illegal_state("Topic selector already set.", method)

    def set_topic(self, topic: str) -> 'KafkaRecordSerializationSchemaBuilder':
        """A fixed destination topic for all records."""
        self._check_topic_not_set("setTopic")
        if topic is None:
            raise null_pointer("", "setTopic")          # Java checkNotNull(topic): no message
        _check_str("topic", topic)
        self._topic = topic
        self._topic_set = True
        return self

    def set_topic_selector(self, topic_selector: Union[Callable[[Any], str], 'KafkaTopicSelector']) \
            -> 'KafkaRecordSerializationSchemaBuilder':
        """A function computing the topic of every record from the original element."""
        if isinstance(topic_selector, KafkaTopicSelector):
            selector = topic_selector
        elif callable(topic_selector):
            selector = _CallableTopicSelector(topic_selector)
        else:
            raise TypeError('topic_selector must be KafkaTopicSelector or a callable')
        self._check_topic_not_set("setTopicSelector")
        self._topic_selector = selector
        self._topic_set = True
        self._fixed_topic = False
        return self

    def set_key_serialization_schema(self, key_serialization_schema: SerializationSchema) \
            -> 'KafkaRecordSerializationSchemaBuilder':
        if not isinstance(key_serialization_schema, SerializationSchema):
            raise TypeError("key_serialization_schema must be a SerializationSchema, got %r"
                            % (key_serialization_schema,))
        if self._key_serialization_schema is not None:
            raise illegal_state("Key serializer already set.", "setKeySerializationSchema")
        self._key_serialization_schema = key_serialization_schema
        return self

    def set_value_serialization_schema(self, value_serialization_schema: SerializationSchema) \
            -> 'KafkaRecordSerializationSchemaBuilder':
        if not isinstance(value_serialization_schema, SerializationSchema):
            raise TypeError("value_serialization_schema must be a SerializationSchema, got %r"
                            % (value_serialization_schema,))
        if self._value_serialization_schema is not None:
            raise illegal_state("Value serializer already set.", "setValueSerializationSchema")
        self._value_serialization_schema = value_serialization_schema
        return self

    def __repr__(self):
        return ("KafkaRecordSerializationSchemaBuilder(topic=%r, topic_selector=%r, key=%r, value=%r)"
                % (self._topic, self._topic_selector, self._key_serialization_schema,
                   self._value_serialization_schema))


# ---------------------------------------------------------------------------------------------
# Legacy API: FlinkKafkaConsumer / FlinkKafkaProducer (kept in PyFlink's kafka.py; see kafka_legacy)
# ---------------------------------------------------------------------------------------------

from pyflink_compat.datastream.connectors.kafka_legacy import (  # noqa: E402
    FlinkKafkaConsumer, FlinkKafkaConsumerBase, FlinkKafkaProducer, FlinkKafkaProducerBase, Semantic)

"""The legacy (Flink 1.x) Kafka API: ``FlinkKafkaConsumer``, ``FlinkKafkaProducer``, ``Semantic``.

Mirror of the names PyFlink keeps in ``pyflink.datastream.connectors.kafka`` (deprecated since
1.16; the Java classes are gone from the Flink 2.x connector). Re-exported by
``connectors.kafka`` and installed on the ``connectors`` package (the 1.15 import path).

The consumer and the producer only hold their settings. ``env.add_source(consumer)`` and
``ds.add_sink(producer)`` turn them into the same ``KafkaSourceSpec`` / ``KafkaSinkSpec`` a
``KafkaSource`` / ``KafkaSink`` builds (``_to_source_spec`` / ``_to_sink_spec``), with the
legacy connector's semantics (Flink 1.13 documentation):

* start: group offsets by default (the committed offsets of ``group.id``; partitions without
  one, or without a group, follow ``auto.offset.reset``, default ``latest``); specific offsets
  fall back to group offsets for unlisted partitions; the consumer is unbounded;
* partition discovery only when ``flink.partition-discovery.interval-millis`` is set;
* producer: ``Semantic.AT_LEAST_ONCE`` by default; record timestamps written only with
  ``set_write_timestamp_to_kafka(True)``; ``FlinkFixedPartitioner`` (each parallel sink
  instance writes to one partition); ``set_log_failures_only(True)`` logs failed sends.

Validation follows the Java constructors and setters, with their exception class names and
messages (as ``JavaStyleError``, a ``Py4JJavaError``).
"""
import re
import warnings
from abc import ABC
from enum import Enum
from typing import Dict, List, Optional, Union

from pyflink_compat.common.serialization import DeserializationSchema, SerializationSchema
from pyflink_compat.datastream.functions import SinkFunction, SourceFunction
from pyflink_compat.kafka_io import spec as kspec
from pyflink_compat.util.exceptions import illegal_argument, illegal_state, null_pointer

__all__ = ['FlinkKafkaConsumerBase', 'FlinkKafkaConsumer', 'Semantic', 'FlinkKafkaProducerBase',
           'FlinkKafkaProducer']

_CONSUMER_CLASS = "org.apache.flink.streaming.connectors.kafka.FlinkKafkaConsumer"
_PRODUCER_CLASS = "org.apache.flink.streaming.connectors.kafka.FlinkKafkaProducer"
# How py4j names a constructor call in "An error occurred while calling ...".
_CONSUMER_CTOR = "None." + _CONSUMER_CLASS
_PRODUCER_CTOR = "None." + _PRODUCER_CLASS

DISCOVERY_INTERVAL_KEY = "flink.partition-discovery.interval-millis"
_DISCOVERY_DISABLED = -(1 << 63)          # Java Long.MIN_VALUE: discovery off

# Start modes of the legacy consumer (Java StartupMode).
GROUP_OFFSETS = "GROUP_OFFSETS"
EARLIEST = "EARLIEST"
LATEST = "LATEST"
TIMESTAMP = "TIMESTAMP"
SPECIFIC_OFFSETS = "SPECIFIC_OFFSETS"

_JAVA_LONG_MAX = (1 << 63) - 1


def _kafka():
    # connectors.kafka imports this module at its end: import it lazily.
    from pyflink_compat.datastream.connectors import kafka
    return kafka


def _java_get_long(props: Dict[str, str], key: str, default: int) -> int:
    """Flink's ``PropertiesUtil.getLong``: the default when unset, else ``Long.parseLong``."""
    value = props.get(key)
    if value is None:
        return default
    if re.fullmatch(r"[+-]?[0-9]+", value) and -(1 << 63) <= int(value) <= _JAVA_LONG_MAX:
        return int(value)
    raise illegal_argument("Value for configuration key='%s' is not set correctly. Entered value='%s'. "
                           "Default value='%d'" % (key, value, default), _CONSUMER_CTOR)


def _check_properties(props, name: str):
    kafka = _kafka()
    if not isinstance(props, dict):
        raise TypeError("%s must be a dict of str to str, got %s" % (name, type(props).__name__))
    for key, value in props.items():
        kafka._check_property(key, value)
    return kafka._Properties(props)


def _check_bool(name: str, value):
    if not isinstance(value, bool):
        raise TypeError("%s must be a bool, got %r" % (name, value))


# ---------------------------------------------------------------------------------------------
# FlinkKafkaConsumer
# ---------------------------------------------------------------------------------------------

class _ConsumerSettings(object):
    """What a legacy consumer holds (PyFlink's wrapped Java object)."""

    def __init__(self, topics, pattern, deserialization_schema, properties, discovery_interval_ms):
        self.topics = topics                          # tuple of str, or None with a pattern
        self.pattern = pattern                        # regex text, or None
        self.deserialization_schema = deserialization_schema
        self.properties = properties                  # _Properties copy of the user's dict
        self.discovery_interval_ms = discovery_interval_ms
        self.startup_mode = GROUP_OFFSETS
        self.startup_timestamp_ms = None
        self.specific_offsets = None                  # {(topic, partition): offset}
        self.commit_offsets_on_checkpoints = True
        self.filter_restored_partitions = True
        self.watermark_strategy = None

    def __repr__(self):
        return ("FlinkKafkaConsumer(topics=%r, pattern=%r, properties=%r, startup_mode=%s, "
                "deserialization_schema=%r)" % (self.topics, self.pattern, self.properties,
                                                 self.startup_mode, self.deserialization_schema))


class FlinkKafkaConsumerBase(SourceFunction, ABC):
    """Base class of the legacy Kafka consumer (``SourceFunction``): start position and options."""

    def __init__(self, j_flink_kafka_consumer):
        super(FlinkKafkaConsumerBase, self).__init__(source_func=j_flink_kafka_consumer)
        self._settings = j_flink_kafka_consumer

    def set_commit_offsets_on_checkpoints(self, commit_on_checkpoints: bool) -> 'FlinkKafkaConsumerBase':
        """With checkpointing, commit the offsets to ``group.id`` after each checkpoint (default True)."""
        _check_bool("commit_on_checkpoints", commit_on_checkpoints)
        self._settings.commit_offsets_on_checkpoints = commit_on_checkpoints
        return self

    def _set_startup(self, mode: str, timestamp_ms=None, specific_offsets=None):
        s = self._settings
        s.startup_mode = mode
        s.startup_timestamp_ms = timestamp_ms
        s.specific_offsets = specific_offsets
        return self

    def set_start_from_earliest(self) -> 'FlinkKafkaConsumerBase':
        """Read every partition from its earliest offset; committed offsets are ignored."""
        return self._set_startup(EARLIEST)

    def set_start_from_latest(self) -> 'FlinkKafkaConsumerBase':
        """Read every partition from its latest offset (records written after the start)."""
        return self._set_startup(LATEST)

    def set_start_from_timestamp(self, startup_offsets_timestamp: int) -> 'FlinkKafkaConsumerBase':
        """Start at the first record whose timestamp is >= ``startup_offsets_timestamp`` (epoch ms).

        Partitions whose last record is older are read from the latest offset.
        """
        if isinstance(startup_offsets_timestamp, bool) or not isinstance(startup_offsets_timestamp, int):
            raise TypeError("startup_offsets_timestamp must be an int (epoch milliseconds), got %r"
                            % (startup_offsets_timestamp,))
        if startup_offsets_timestamp < 0:
            raise illegal_argument("The provided value for the startup offsets timestamp is invalid.",
                                   "setStartFromTimestamp")
        import time
        now = int(time.time() * 1000)
        if startup_offsets_timestamp > now:
            raise illegal_argument("Startup time[%d] must be before current time[%d]."
                                   % (startup_offsets_timestamp, now), "setStartFromTimestamp")
        return self._set_startup(TIMESTAMP, timestamp_ms=startup_offsets_timestamp)

    def set_start_from_group_offsets(self) -> 'FlinkKafkaConsumerBase':
        """The default: committed offsets of ``group.id``; else ``auto.offset.reset`` (default latest)."""
        return self._set_startup(GROUP_OFFSETS)

    def set_start_from_specific_offsets(self, specific_startup_offsets: Dict) -> 'FlinkKafkaConsumerBase':
        """Start each listed partition at the given offset (the next record to read).

        Partitions not in the map start from group offsets (``set_start_from_group_offsets``).
        Java's ``setStartFromSpecificOffsets``; PyFlink does not wrap it, pyflink-compat does.
        """
        if specific_startup_offsets is None:
            raise null_pointer("", "setStartFromSpecificOffsets")
        kafka = _kafka()
        if not isinstance(specific_startup_offsets, dict):
            raise TypeError("specific_startup_offsets must be a dict of KafkaTopicPartition to int, got %s"
                            % type(specific_startup_offsets).__name__)
        offsets = {}
        for tp, offset in specific_startup_offsets.items():
            if not isinstance(tp, kafka.KafkaTopicPartition):
                raise TypeError("specific_startup_offsets keys must be KafkaTopicPartition, got %r" % (tp,))
            if isinstance(offset, bool) or not isinstance(offset, int):
                raise TypeError("offset of %r must be an int, got %r" % (tp, offset))
            offsets[tp._to_key()] = offset
        return self._set_startup(SPECIFIC_OFFSETS, specific_offsets=offsets)

    def disable_filter_restored_partitions_with_subscribed_topics(self) -> 'FlinkKafkaConsumerBase':
        """Accepted and kept: it only matters when restoring state, which pyflink-compat does not do."""
        self._settings.filter_restored_partitions = False
        return self

    def get_produced_type(self):
        """The deserialization schema's type (``Types.STRING()`` for ``SimpleStringSchema``)."""
        return self._settings.deserialization_schema.produced_type()

    def assign_timestamps_and_watermarks(self, watermark_strategy) -> 'FlinkKafkaConsumerBase':
        """Java's ``assignTimestampsAndWatermarks(WatermarkStrategy)``: accepted and kept.

        Elements carry the Kafka record timestamps; watermarks arrive with event time.
        """
        from pyflink_compat.common.watermark_strategy import WatermarkStrategy
        if not isinstance(watermark_strategy, WatermarkStrategy):
            raise TypeError("watermark_strategy must be a WatermarkStrategy, got %r" % (watermark_strategy,))
        self._settings.watermark_strategy = watermark_strategy
        return self

    # -- translation ------------------------------------------------------------------------

    def _starting_offsets(self) -> kspec.OffsetsSpec:
        s = self._settings
        # auto.offset.reset decides for partitions without a committed offset (Kafka's default:
        # latest); it is checked against Kafka's allowed values when the job executes.
        reset = s.properties.get("auto.offset.reset", kspec.RESET_LATEST).strip().lower()
        if s.startup_mode == EARLIEST:
            return kspec.OffsetsSpec(kind=kspec.EARLIEST, reset_strategy=kspec.RESET_EARLIEST)
        if s.startup_mode == LATEST:
            return kspec.OffsetsSpec(kind=kspec.LATEST, reset_strategy=kspec.RESET_LATEST)
        if s.startup_mode == TIMESTAMP:
            return kspec.OffsetsSpec(kind=kspec.TIMESTAMP, reset_strategy=kspec.RESET_LATEST,
                                     timestamp_ms=s.startup_timestamp_ms)
        # Group offsets: the committed offset of group.id, else auto.offset.reset. Without a group
        # there is nothing committed: auto.offset.reset for every partition.
        if s.startup_mode == GROUP_OFFSETS and "group.id" in s.properties:
            return kspec.OffsetsSpec(kind=kspec.COMMITTED, reset_strategy=reset)
        # Specific offsets: listed partitions at their offset, the others from group offsets.
        offsets = dict(s.specific_offsets) if s.startup_mode == SPECIFIC_OFFSETS else {}
        return kspec.OffsetsSpec(kind=kspec.SPECIFIC, reset_strategy=reset, offsets=offsets)

    def _to_source_spec(self) -> kspec.KafkaSourceSpec:
        s = self._settings
        props = _kafka()._Properties(s.properties)
        # The legacy consumer reads only its own discovery key; KafkaSource's key is replaced.
        interval = s.discovery_interval_ms
        props["partition.discovery.interval.ms"] = "-1" if interval == _DISCOVERY_DISABLED else str(max(interval, 1))
        # Offset commits (runtime: kafka_io/offset_commits.py): on checkpoints as set here; without
        # checkpointing, Kafka's consumer auto-commits unless enable.auto.commit=false (its default is true).
        props["commit.offsets.on.checkpoint"] = "true" if s.commit_offsets_on_checkpoints else "false"
        props.setdefault("enable.auto.commit", "true")
        subscription = (kspec.Subscription(pattern=s.pattern) if s.pattern is not None
                        else kspec.Subscription(topics=s.topics))
        return kspec.KafkaSourceSpec(
            properties=props, subscription=subscription, starting_offsets=self._starting_offsets(),
            stopping_offsets=None, bounded=False, value_deserializer=s.deserialization_schema,
            idle_without_partitions=True)

    def __repr__(self):
        return repr(self._settings)


class FlinkKafkaConsumer(FlinkKafkaConsumerBase):
    """The legacy Kafka consumer: read ``topics`` (a name, a list of names, or a compiled
    ``re.Pattern`` matched against whole topic names) with ``deserialization_schema``.

    Use it with ``env.add_source(consumer)``. Deprecated since Flink 1.16, as in PyFlink.
    """

    def __init__(self, topics: Union[str, List[str]], deserialization_schema: DeserializationSchema,
                 properties: Dict):
        warnings.warn("Deprecated in 1.16. Use KafkaSource instead.", DeprecationWarning)
        topic_list, pattern = self._check_topics(topics)
        if not isinstance(deserialization_schema, DeserializationSchema):
            raise TypeError("deserialization_schema must be a DeserializationSchema, got %r"
                            % (deserialization_schema,))
        if properties is None:
            raise null_pointer("props", _CONSUMER_CTOR)
        props = _check_properties(properties, "properties")
        interval = _java_get_long(props, DISCOVERY_INTERVAL_KEY, _DISCOVERY_DISABLED)
        if interval != _DISCOVERY_DISABLED and interval < 0:
            raise illegal_argument("Cannot define a negative value for the topic / partition discovery interval.",
                                   _CONSUMER_CTOR)
        super(FlinkKafkaConsumer, self).__init__(
            _ConsumerSettings(topic_list, pattern, deserialization_schema, props, interval))

    @staticmethod
    def _check_topics(topics):
        if isinstance(topics, re.Pattern):
            if not isinstance(topics.pattern, str):
                raise TypeError("a topic pattern must be a str regular expression, got %r" % (topics.pattern,))
            return None, topics.pattern
        if isinstance(topics, str):
            return (topics,), None
        if isinstance(topics, (list, tuple)):
            for topic in topics:
                if not isinstance(topic, str):
                    raise TypeError("topics must be a str, a list of str or a re.Pattern, got %r in the list"
                                    % (topic,))
            if not topics:
                raise illegal_argument("If subscribing to a fixed topics list, the supplied list cannot be empty.",
                                       _CONSUMER_CTOR)
            return tuple(topics), None
        if topics is None:
            raise illegal_argument("Exactly one of either fixedTopics or topicPattern must be specified.",
                                   _CONSUMER_CTOR)
        raise TypeError("topics must be a str, a list of str or a re.Pattern, got %s" % type(topics).__name__)


# ---------------------------------------------------------------------------------------------
# FlinkKafkaProducer
# ---------------------------------------------------------------------------------------------

class Semantic(Enum):
    """Delivery semantics of the legacy producer (the tuple values are PyFlink's)."""

    EXACTLY_ONCE = 0,
    AT_LEAST_ONCE = 1,
    NONE = 2

    def _to_guarantee(self) -> str:
        """The KafkaSinkSpec delivery guarantee (``kafka_io.sink`` constants)."""
        return {Semantic.EXACTLY_ONCE: "exactly-once", Semantic.AT_LEAST_ONCE: "at-least-once",
                Semantic.NONE: "none"}[self]


class _ProducerSettings(object):
    """What a legacy producer holds (PyFlink's wrapped Java object)."""

    def __init__(self, topic, serialization_schema, properties, pool_size, semantic):
        self.topic = topic
        self.serialization_schema = serialization_schema
        self.properties = properties
        self.pool_size = pool_size
        self.semantic = semantic
        self.write_timestamp_to_kafka = False
        self.log_failures_only = False
        self.flush_on_checkpoint = True
        self.ignore_failures_after_transaction_timeout = False

    def __repr__(self):
        return ("FlinkKafkaProducer(topic=%r, properties=%r, semantic=%s, write_timestamp_to_kafka=%r, "
                "log_failures_only=%r)" % (self.topic, self.properties, self.semantic,
                                            self.write_timestamp_to_kafka, self.log_failures_only))


class FlinkKafkaProducerBase(SinkFunction, ABC):
    """Base class of the legacy Kafka producer (``SinkFunction``)."""

    def __init__(self, j_flink_kafka_producer):
        super(FlinkKafkaProducerBase, self).__init__(sink_func=j_flink_kafka_producer)
        self._settings = j_flink_kafka_producer

    def set_log_failures_only(self, log_failures_only: bool) -> 'FlinkKafkaProducerBase':
        """True: a failed send is logged (ERROR) and the job goes on; false (default): the job fails."""
        _check_bool("log_failures_only", log_failures_only)
        self._settings.log_failures_only = log_failures_only
        return self

    def set_flush_on_checkpoint(self, flush_on_checkpoint: bool) -> 'FlinkKafkaProducerBase':
        """Accepted and kept: every Spark task flushes its records before it completes anyway."""
        _check_bool("flush_on_checkpoint", flush_on_checkpoint)
        self._settings.flush_on_checkpoint = flush_on_checkpoint
        return self

    def set_write_timestamp_to_kafka(self, write_timestamp_to_kafka: bool) -> 'FlinkKafkaProducerBase':
        """True: write the element's timestamp as the record timestamp. False (default): the
        producer stamps the record with its send time."""
        _check_bool("write_timestamp_to_kafka", write_timestamp_to_kafka)
        self._settings.write_timestamp_to_kafka = write_timestamp_to_kafka
        return self

    # -- translation ------------------------------------------------------------------------

    def _to_sink_spec(self) -> kspec.KafkaSinkSpec:
        s = self._settings
        return kspec.KafkaSinkSpec(
            properties=_kafka()._Properties(s.properties),
            delivery_guarantee=s.semantic._to_guarantee(),
            transactional_id_prefix=None,
            topic=s.topic,
            topic_selector=None,
            key_serializer=None,
            value_serializer=s.serialization_schema,
            write_timestamp=s.write_timestamp_to_kafka,
            fixed_partitioner=True,
            log_failures_only=s.log_failures_only,
            origin="FlinkKafkaProducer")

    def __repr__(self):
        return repr(self._settings)


class FlinkKafkaProducer(FlinkKafkaProducerBase):
    """The legacy Kafka producer: write each element, serialized by ``serialization_schema``
    (the record value; the key is null), to ``topic``. Use it with ``ds.add_sink(producer)``.

    Records go to one partition per parallel sink instance (Flink's ``FlinkFixedPartitioner``).
    """

    def __init__(self, topic: str, serialization_schema: SerializationSchema, producer_config: Dict,
                 kafka_producer_pool_size: int = 5, semantic=Semantic.AT_LEAST_ONCE):
        if topic is None:
            raise null_pointer("", _PRODUCER_CTOR)
        if not isinstance(topic, str):
            raise TypeError("topic must be a str, got %s" % type(topic).__name__)
        if not isinstance(serialization_schema, SerializationSchema):
            raise TypeError("serialization_schema must be a SerializationSchema, got %r" % (serialization_schema,))
        if producer_config is None:
            raise null_pointer("producerConfig is null", _PRODUCER_CTOR)
        props = _check_properties(producer_config, "producer_config")
        if semantic is None:
            raise null_pointer("semantic is null", _PRODUCER_CTOR)
        if not isinstance(semantic, Semantic):
            raise TypeError("semantic must be a Semantic, got %r" % (semantic,))
        if isinstance(kafka_producer_pool_size, bool) or not isinstance(kafka_producer_pool_size, int):
            raise TypeError("kafka_producer_pool_size must be an int, got %r" % (kafka_producer_pool_size,))
        if kafka_producer_pool_size <= 0:
            raise illegal_state("kafkaProducersPoolSize must be non empty", _PRODUCER_CTOR)
        if "bootstrap.servers" not in props:
            raise illegal_argument("bootstrap.servers must be supplied in the producer config properties.",
                                   _PRODUCER_CTOR)
        props.setdefault("transaction.timeout.ms", "3600000")      # Flink's default (1 h)
        super(FlinkKafkaProducer, self).__init__(
            _ProducerSettings(topic, serialization_schema, props, kafka_producer_pool_size, semantic))

    def ignore_failures_after_transaction_timeout(self) -> 'FlinkKafkaProducer':
        """Accepted and kept: it only matters for EXACTLY_ONCE recovery, not provided yet."""
        self._settings.ignore_failures_after_transaction_timeout = True
        return self

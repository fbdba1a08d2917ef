"""Plain, picklable descriptions of a Kafka source and sink.

The mirror's builders produce these; the translation and the Kafka I/O read them.
They hold no clients and no Java-isms beyond the property names users set.
"""
from typing import Dict, FrozenSet, Mapping, Optional, Tuple

import attrs

# Offset-initializer kinds (Flink's OffsetsInitializer factories).
EARLIEST = "earliest"
LATEST = "latest"
TIMESTAMP = "timestamp"
COMMITTED = "committed"
SPECIFIC = "specific"

# Reset strategies, lower case as Flink writes them into auto.offset.reset.
RESET_EARLIEST = "earliest"
RESET_LATEST = "latest"
RESET_NONE = "none"

TopicPartitionKey = Tuple[str, int]

# Sentinel offsets Flink accepts in offsets({tp: offset}).
LATEST_OFFSET = -1
EARLIEST_OFFSET = -2
COMMITTED_OFFSET = -3


@attrs.frozen
class OffsetsSpec:
    """One of earliest(), latest(), timestamp(ms), committed_offsets(reset), offsets({tp: off}, reset)."""

    kind: str
    reset_strategy: str
    timestamp_ms: Optional[int] = None
    offsets: Mapping[TopicPartitionKey, int] = attrs.field(factory=dict)

    @property
    def uses_committed_offsets(self) -> bool:
        # offsets() falls back to committed offsets for partitions it does not list.
        return self.kind in (COMMITTED, SPECIFIC)


@attrs.frozen
class Subscription:
    """Exactly one of topics, pattern (a regex matched against whole topic names) or partitions."""

    topics: Tuple[str, ...] = ()
    pattern: Optional[str] = None
    partitions: FrozenSet[TopicPartitionKey] = frozenset()

    @property
    def mode(self) -> str:
        if self.pattern is not None:
            return "pattern"
        if self.partitions:
            return "partitions"
        return "topics"


def _redacted_repr(properties) -> str:
    return repr(redacted(properties))


class RecordDeserializer:
    """A format of whole Kafka records (Flink's KafkaRecordDeserializationSchema): unlike a value deserializer it
    sees every record, tombstones included, with its key, topic, partition, offset and timestamp. Flink SQL's
    Kafka tables read this way (message keys, metadata columns, upsert-kafka's deletions)."""

    def produced_type(self):
        """The TypeInformation of the elements ``deserialize_records`` returns."""
        raise NotImplementedError

    def deserialize_records(self, topic: str, partition: int, keys, values, offsets, timestamps):
        """The elements of a run of records of one partition, as an Arrow array of ``produced_type()``'s Arrow
        type (one element per record; a null element drops its record). ``keys`` and ``values`` are Arrow binary
        arrays (null: no key / a tombstone), ``offsets`` a numpy int64 array, ``timestamps`` an Arrow int64 array
        (null where the record has none)."""
        raise NotImplementedError


@attrs.frozen
class KafkaSourceSpec:
    # Java-style keys, after build() filled in Flink's defaults; secrets never shown in repr.
    properties: Mapping[str, str] = attrs.field(repr=_redacted_repr)
    subscription: Subscription
    starting_offsets: OffsetsSpec
    stopping_offsets: Optional[OffsetsSpec]  # None: never stops
    bounded: bool                          # set_bounded(): BOUNDED, discovery off
    value_deserializer: object             # a pyflink_compat.common.serialization.DeserializationSchema, or a
                                           # RecordDeserializer reading whole records
    # A reader given no partition: the legacy FlinkKafkaConsumer marks such an instance idle at once; the
    # KafkaSource keeps it (unbounded), and it holds the downstream watermark back unless idleness is set.
    idle_without_partitions: bool = False

    @property
    def bootstrap_servers(self) -> str:
        return self.properties["bootstrap.servers"]

    @property
    def group_id(self) -> Optional[str]:
        return self.properties.get("group.id")

    @property
    def partition_discovery_interval_ms(self) -> int:
        if self.bounded:
            return -1
        return int(self.properties.get("partition.discovery.interval.ms", "300000"))


@attrs.frozen
class KafkaSinkSpec:
    properties: Mapping[str, str] = attrs.field(repr=_redacted_repr)   # Java-style producer properties
    delivery_guarantee: str                # "none", "at-least-once", "exactly-once"
    transactional_id_prefix: Optional[str]
    topic: Optional[str]                   # fixed topic, or None when topic_selector is set
    topic_selector: object                 # KafkaTopicSelector (has .apply(element)) or None
    key_serializer: object                 # SerializationSchema or None (key is null then)
    value_serializer: object               # SerializationSchema
    # The legacy FlinkKafkaProducer's behaviour (KafkaSink keeps the defaults):
    write_timestamp: bool = True           # False: records get the producer's send time
    fixed_partitioner: bool = False        # FlinkFixedPartitioner: subtask i writes to partitions[i % n]
    subtask_parallelism: Optional[int] = None   # the sink's parallelism, set by the translation
    log_failures_only: bool = False        # failed sends are logged instead of failing the job
    origin: str = "KafkaSink"              # the API that built the spec, for messages

    @property
    def bootstrap_servers(self) -> str:
        return self.properties["bootstrap.servers"]


def redacted(properties: Mapping[str, str]) -> Dict[str, str]:
    """A copy safe to log: values of secret-bearing keys replaced."""
    return {k: ("******" if is_secret_key(k) else v) for k, v in properties.items()}


def is_secret_key(key: str) -> bool:
    k = key.lower()
    # "user.info": basic.auth.user.info (user:password of a schema registry); "keystore.key": PEM key material
    return any(word in k for word in ("password", "secret", "jaas", "token", "credential", "key.pem", "private",
                                      "user.info", "keystore.key"))

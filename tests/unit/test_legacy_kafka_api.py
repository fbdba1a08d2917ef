"""The legacy Kafka API (FlinkKafkaConsumer / FlinkKafkaProducer): construction, validation, and the
specs add_source / add_sink hand to the translation. No broker, no Spark."""
import re
import warnings

import pytest
from py4j.protocol import Py4JJavaError

from pyflink_compat.common import SimpleStringSchema, Types, WatermarkStrategy
from pyflink_compat.common.serialization import ByteArraySchema
from pyflink_compat.datastream import StreamExecutionEnvironment
from pyflink_compat.datastream.connectors.kafka import (FlinkKafkaConsumer, FlinkKafkaConsumerBase,
                                                        FlinkKafkaProducer, FlinkKafkaProducerBase,
                                                        KafkaTopicPartition, Semantic)
from pyflink_compat.datastream.functions import SinkFunction, SourceFunction
from pyflink_compat.kafka_io import spec as kspec
from pyflink_compat.kafka_io.sink import assigned_subtask, fixed_partition, java_string_hash
from pyflink_compat.plan import graph
from pyflink_compat.util.exceptions import UnsupportedFeatureError

PROPS = {"bootstrap.servers": "b:9092"}


def consumer(topics="t", props=None, schema=None):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return FlinkKafkaConsumer(topics, schema or SimpleStringSchema(), dict(PROPS if props is None else props))


def source_spec(c) -> kspec.KafkaSourceSpec:
    env = StreamExecutionEnvironment.get_execution_environment()
    return env.add_source(c)._node.payload


def sink_spec(p) -> kspec.KafkaSinkSpec:
    env = StreamExecutionEnvironment.get_execution_environment()
    return env.from_collection(["x"], type_info=Types.STRING()).add_sink(p)._node.payload


# -- import paths, warning ---------------------------------------------------------------------

def test_import_paths_of_1_15_to_2_3_give_the_same_classes():
    from pyflink_compat.datastream import connectors
    from pyflink_compat.datastream.connectors import kafka, kafka_legacy
    for name in ("FlinkKafkaConsumer", "FlinkKafkaProducer", "Semantic"):
        assert getattr(connectors, name) is getattr(kafka, name) is getattr(kafka_legacy, name)
    assert kafka.FlinkKafkaConsumerBase is kafka_legacy.FlinkKafkaConsumerBase
    assert kafka.FlinkKafkaProducerBase is kafka_legacy.FlinkKafkaProducerBase
    assert "FlinkKafkaConsumer" in kafka.__all__ and "FlinkKafkaConsumerBase" not in kafka.__all__


def test_consumer_warns_deprecated_exactly_as_pyflink_and_producer_does_not():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        FlinkKafkaConsumer("t", SimpleStringSchema(), dict(PROPS))
        FlinkKafkaProducer("t", SimpleStringSchema(), dict(PROPS))
    assert [(w.category, str(w.message)) for w in caught] == [
        (DeprecationWarning, "Deprecated in 1.16. Use KafkaSource instead.")]


def test_warning_comes_before_validation():
    with pytest.warns(DeprecationWarning, match=r"^Deprecated in 1\.16\. Use KafkaSource instead\.$"):
        with pytest.raises(TypeError):
            FlinkKafkaConsumer(42, SimpleStringSchema(), dict(PROPS))


def test_class_hierarchy_and_semantic_values():
    assert issubclass(FlinkKafkaConsumer, FlinkKafkaConsumerBase)
    assert issubclass(FlinkKafkaConsumerBase, SourceFunction)
    assert issubclass(FlinkKafkaProducer, FlinkKafkaProducerBase)
    assert issubclass(FlinkKafkaProducerBase, SinkFunction)
    assert [(s.name, s.value) for s in Semantic] == [("EXACTLY_ONCE", (0,)), ("AT_LEAST_ONCE", (1,)),
                                                     ("NONE", 2)]


# -- consumer: subscription, properties ------------------------------------------------------------

def test_topic_list_and_pattern_subscriptions():
    assert source_spec(consumer("a")).subscription == kspec.Subscription(topics=("a",))
    assert source_spec(consumer(["a", "b"])).subscription == kspec.Subscription(topics=("a", "b"))
    assert source_spec(consumer(re.compile("in-.*"))).subscription == kspec.Subscription(pattern="in-.*")


def test_constructor_rejects_bad_arguments():
    with pytest.raises(Py4JJavaError) as e:
        consumer([])
    assert str(e.value) == (
        "An error occurred while calling None.org.apache.flink.streaming.connectors.kafka.FlinkKafkaConsumer.\n"
        ": java.lang.IllegalArgumentException: If subscribing to a fixed topics list, the supplied list cannot "
        "be empty.")
    with pytest.raises(TypeError, match="topics must be a str, a list of str or a re.Pattern"):
        consumer(["a", 1])
    with pytest.raises(TypeError, match="deserialization_schema must be a DeserializationSchema"):
        consumer("t", schema="not a schema")
    with pytest.raises(TypeError, match="Kafka property 'max.poll.records' must have a str value"):
        consumer("t", props={"bootstrap.servers": "b:1", "max.poll.records": 5})
    with pytest.raises(Py4JJavaError, match="java.lang.NullPointerException: props"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            FlinkKafkaConsumer("t", SimpleStringSchema(), None)


def test_properties_are_copied_and_secrets_never_shown():
    props = {"bootstrap.servers": "b:1", "sasl.jaas.config": "Plain required password=\"hunter2\";",
             "ssl.key.password": "hunter3"}
    c = consumer("t", props=props)
    props["group.id"] = "later"
    spec = source_spec(c)
    assert "group.id" not in spec.properties
    for text in (repr(c), repr(spec), str(spec.properties)):
        assert "hunter2" not in text and "hunter3" not in text
    p = FlinkKafkaProducer("o", SimpleStringSchema(), dict(props))
    for text in (repr(p), repr(sink_spec(p))):
        assert "hunter2" not in text and "hunter3" not in text


@pytest.mark.parametrize("value, expected", [(None, "-1"), ("500", "500"), ("0", "1"), ("60000", "60000")])
def test_partition_discovery_is_off_unless_the_legacy_property_is_set(value, expected):
    props = dict(PROPS, **({} if value is None else {"flink.partition-discovery.interval-millis": value}))
    # KafkaSource's own key does not turn discovery on for the legacy consumer
    props["partition.discovery.interval.ms"] = "1000"
    spec = source_spec(consumer("t", props=props))
    assert spec.properties["partition.discovery.interval.ms"] == expected
    assert spec.partition_discovery_interval_ms == int(expected)
    assert spec.bounded is False and spec.stopping_offsets is None


def test_partition_discovery_property_is_validated_like_java():
    with pytest.raises(Py4JJavaError) as e:
        consumer("t", props=dict(PROPS, **{"flink.partition-discovery.interval-millis": "5s"}))
    assert e.value.java_class == "java.lang.IllegalArgumentException"
    assert e.value.message == ("Value for configuration key='flink.partition-discovery.interval-millis' is not set "
                               "correctly. Entered value='5s'. Default value='-9223372036854775808'")
    with pytest.raises(Py4JJavaError, match="Cannot define a negative value for the topic / partition discovery "
                                            "interval."):
        consumer("t", props=dict(PROPS, **{"flink.partition-discovery.interval-millis": "-5"}))


# -- consumer: start positions ---------------------------------------------------------------------

def test_default_start_is_group_offsets_with_auto_offset_reset_latest():
    spec = source_spec(consumer("t", props=dict(PROPS, **{"group.id": "g"})))
    assert spec.starting_offsets == kspec.OffsetsSpec(kind=kspec.COMMITTED, reset_strategy="latest")
    assert spec.group_id == "g"
    spec = source_spec(consumer("t", props=dict(PROPS, **{"auto.offset.reset": "earliest"})))
    assert spec.starting_offsets == kspec.OffsetsSpec(kind=kspec.SPECIFIC, reset_strategy="earliest", offsets={})


def test_every_start_setter_returns_self_and_the_last_one_wins():
    c = consumer("t", props=dict(PROPS, **{"auto.offset.reset": "earliest"}))
    assert c.set_start_from_latest() is c
    assert source_spec(c).starting_offsets == kspec.OffsetsSpec(kind=kspec.LATEST, reset_strategy="latest")
    assert c.set_start_from_earliest() is c
    assert source_spec(c).starting_offsets == kspec.OffsetsSpec(kind=kspec.EARLIEST, reset_strategy="earliest")
    assert c.set_start_from_timestamp(1000) is c
    assert source_spec(c).starting_offsets == kspec.OffsetsSpec(kind=kspec.TIMESTAMP, reset_strategy="latest",
                                                                timestamp_ms=1000)
    assert c.set_start_from_specific_offsets({KafkaTopicPartition("t", 1): 5}) is c
    assert source_spec(c).starting_offsets == kspec.OffsetsSpec(kind=kspec.SPECIFIC, reset_strategy="earliest",
                                                                offsets={("t", 1): 5})
    assert c.set_start_from_group_offsets() is c
    assert source_spec(c).starting_offsets == kspec.OffsetsSpec(kind=kspec.SPECIFIC, reset_strategy="earliest",
                                                                offsets={})


def test_start_from_timestamp_is_validated_like_java():
    c = consumer()
    with pytest.raises(Py4JJavaError, match="IllegalArgumentException: The provided value for the startup offsets "
                                            "timestamp is invalid."):
        c.set_start_from_timestamp(-1)
    with pytest.raises(Py4JJavaError, match=r"IllegalArgumentException: Startup time\[99999999999999\] must be "
                                            r"before current time\[\d+\]."):
        c.set_start_from_timestamp(99999999999999)
    with pytest.raises(TypeError):
        c.set_start_from_timestamp("1000")
    with pytest.raises(TypeError):
        c.set_start_from_specific_offsets({("t", 0): 1})
    with pytest.raises(Py4JJavaError, match="NullPointerException"):
        c.set_start_from_specific_offsets(None)


def test_other_consumer_methods():
    c = consumer(schema=ByteArraySchema())
    assert c.get_produced_type() == ByteArraySchema().produced_type()
    assert c.set_commit_offsets_on_checkpoints(False) is c
    assert c.disable_filter_restored_partitions_with_subscribed_topics() is c
    strategy = WatermarkStrategy.for_monotonous_timestamps()
    assert c.assign_timestamps_and_watermarks(strategy) is c
    env = StreamExecutionEnvironment.get_execution_environment()
    node = env.add_source(c)._node
    assert node.watermark_spec is strategy._j_watermark_strategy
    with pytest.raises(TypeError):
        c.set_commit_offsets_on_checkpoints("yes")


def test_add_source_names_types_and_rejects_other_source_functions():
    env = StreamExecutionEnvironment.get_execution_environment()
    ds = env.add_source(consumer())
    assert ds._node.kind == graph.KAFKA_SOURCE and ds._node.name == "Source: Custom Source"
    assert ds.get_type() == Types.STRING()
    typed = env.add_source(consumer(), "kafka in", Types.PICKLED_BYTE_ARRAY())
    assert typed._node.name == "Source: kafka in" and typed.get_type() == Types.PICKLED_BYTE_ARRAY()
    with pytest.raises(UnsupportedFeatureError) as e:
        env.add_source(SourceFunction("com.example.MySource"))
    assert "StreamExecutionEnvironment.add_source(SourceFunction)" in str(e.value)
    assert e.value.section == "legacy-kafka-api"


# -- producer ------------------------------------------------------------------------------------------

def test_producer_defaults_and_setters():
    p = FlinkKafkaProducer("out", SimpleStringSchema(), dict(PROPS))
    spec = sink_spec(p)
    assert (spec.topic, spec.delivery_guarantee, spec.write_timestamp, spec.fixed_partitioner,
            spec.log_failures_only, spec.key_serializer, spec.topic_selector) == (
        "out", "at-least-once", False, True, False, None, None)
    assert spec.properties["transaction.timeout.ms"] == "3600000"
    assert p.set_write_timestamp_to_kafka(True) is p
    assert p.set_log_failures_only(True) is p
    assert p.set_flush_on_checkpoint(False) is p
    assert p.ignore_failures_after_transaction_timeout() is p
    spec = sink_spec(p)
    assert (spec.write_timestamp, spec.log_failures_only) == (True, True)
    for semantic, guarantee in ((Semantic.NONE, "none"), (Semantic.EXACTLY_ONCE, "exactly-once")):
        assert sink_spec(FlinkKafkaProducer("o", SimpleStringSchema(), dict(PROPS),
                                            semantic=semantic)).delivery_guarantee == guarantee


def test_producer_validation_follows_the_java_constructor():
    with pytest.raises(Py4JJavaError) as e:
        FlinkKafkaProducer("out", SimpleStringSchema(), {"group.id": "x"})
    assert str(e.value) == (
        "An error occurred while calling None.org.apache.flink.streaming.connectors.kafka.FlinkKafkaProducer.\n"
        ": java.lang.IllegalArgumentException: bootstrap.servers must be supplied in the producer config "
        "properties.")
    with pytest.raises(Py4JJavaError, match="IllegalStateException: kafkaProducersPoolSize must be non empty"):
        FlinkKafkaProducer("out", SimpleStringSchema(), dict(PROPS), kafka_producer_pool_size=0)
    with pytest.raises(Py4JJavaError, match="NullPointerException: semantic is null"):
        FlinkKafkaProducer("out", SimpleStringSchema(), dict(PROPS), semantic=None)
    with pytest.raises(TypeError, match="semantic must be a Semantic"):
        FlinkKafkaProducer("out", SimpleStringSchema(), dict(PROPS), semantic="AT_LEAST_ONCE")
    with pytest.raises(TypeError, match="serialization_schema must be a SerializationSchema"):
        FlinkKafkaProducer("out", None, dict(PROPS))
    with pytest.raises(TypeError, match="must have a str value"):
        FlinkKafkaProducer("out", SimpleStringSchema(), {"bootstrap.servers": "b:1", "retries": 3})


def test_add_sink_rejects_other_sink_functions():
    ds = StreamExecutionEnvironment.get_execution_environment().from_collection([1])
    with pytest.raises(UnsupportedFeatureError) as e:
        ds.add_sink(SinkFunction("com.example.MySink"))
    assert "DataStream.add_sink(SinkFunction)" in str(e.value) and e.value.section == "legacy-kafka-api"


def test_fixed_partitioner_maps_subtask_to_one_partition():
    # FlinkFixedPartitioner: partitions sorted by id, subtask i -> partitions[i % n]
    assert [fixed_partition({2, 0, 1}, i) for i in range(5)] == [0, 1, 2, 0, 1]
    assert [fixed_partition({0, 1, 2, 3}, i) for i in range(2)] == [0, 1]


def test_sink_instances_follow_the_legacy_consumer_partition_assignment():
    # Java: "test".hashCode() == 3556498, "hello world".hashCode() == 1794106052, "Ab" and "BB" collide
    assert [java_string_hash(t) for t in ("test", "hello world", "Ab", "BB", "")] == [
        3556498, 1794106052, 2113, 2112, 0]
    # start index ((3556498 * 31) & 0x7FFFFFFF) % 3 == 1, then one instance per partition, round robin
    assert [assigned_subtask("test", p, 3) for p in range(4)] == [1, 2, 0, 1]
    assert [assigned_subtask("test", p, 1) for p in range(3)] == [0, 0, 0]


def test_job_imports_through_pyflink_of_1_15_and_1_16_plus():
    import importlib
    import sys

    from pyflink_compat import aliasing
    aliasing.install()
    try:
        from pyflink.datastream.connectors import FlinkKafkaConsumer as consumer_1_15, Semantic as semantic_1_15
        from pyflink.datastream.connectors.kafka import FlinkKafkaConsumer as consumer_1_16
        assert consumer_1_15 is consumer_1_16 is FlinkKafkaConsumer
        assert semantic_1_15 is Semantic
        assert importlib.import_module("pyflink.datastream.connectors").FlinkKafkaProducer is FlinkKafkaProducer
    finally:
        sys.meta_path[:] = [f for f in sys.meta_path if not isinstance(f, aliasing.PyFlinkAliasFinder)]
        for name in [n for n in sys.modules if n == "pyflink" or n.startswith("pyflink.")]:
            del sys.modules[name]

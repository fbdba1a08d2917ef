"""Offsets committed to the consumer group after each completed micro-batch (Flink: on checkpoint), the
last one before the job ends included; for monitoring only, as in Flink."""
import pytest
from kafka import KafkaAdminClient, TopicPartition

from kafka_helpers import consume, create_topic, produce, unique_topic, values
from pyflink_compat.common import Configuration, SimpleStringSchema, WatermarkStrategy
from pyflink_compat.datastream import StreamExecutionEnvironment
from pyflink_compat.datastream.connectors.base import DeliveryGuarantee
from pyflink_compat.datastream.connectors.kafka import (KafkaOffsetsInitializer, KafkaRecordSerializationSchema,
                                                        KafkaSink, KafkaSource)

pytestmark = pytest.mark.integration


def _run(bootstrap, topic_in, topic_out, group, tmp_path, checkpointing, properties=None, batch_records=None):
    configuration = Configuration()
    configuration.set_string("execution.checkpointing.dir", str(tmp_path / "checkpoints"))
    if batch_records:
        configuration.set_string("pyflink-compat.source.max-records-per-batch", str(batch_records))
    env = StreamExecutionEnvironment.get_execution_environment(configuration)
    if checkpointing:
        env.enable_checkpointing(1000)
    builder = (KafkaSource.builder().set_bootstrap_servers(bootstrap).set_topics(topic_in).set_group_id(group)
               .set_starting_offsets(KafkaOffsetsInitializer.earliest())
               .set_bounded(KafkaOffsetsInitializer.latest())
               .set_value_only_deserializer(SimpleStringSchema()))
    for key, value in (properties or {}).items():
        builder = builder.set_property(key, value)
    sink = (KafkaSink.builder().set_bootstrap_servers(bootstrap)
            .set_record_serializer(KafkaRecordSerializationSchema.builder().set_topic(topic_out)
                                   .set_value_serialization_schema(SimpleStringSchema()).build())
            .set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE).build())
    env.from_source(builder.build(), WatermarkStrategy.no_watermarks(), "Kafka Source").sink_to(sink)
    env.execute("offset commit test")


def _committed(bootstrap, group, topic, partitions):
    admin = KafkaAdminClient(bootstrap_servers=bootstrap)
    try:
        answer = admin.list_group_offsets({group: [TopicPartition(topic, p) for p in range(partitions)]})
    finally:
        admin.close()
    return {tp.partition: meta.offset for tp, meta in answer.get(group, {}).items() if meta.offset >= 0}


def test_with_checkpointing_the_final_offsets_are_committed(spark, bootstrap, tmp_path):
    topic_in = create_topic(bootstrap, unique_topic("commit-in"), partitions=2)
    topic_out = create_topic(bootstrap, unique_topic("commit-out"))
    produce(bootstrap, topic_in, ["a%d" % i for i in range(30)], partition=0)
    produce(bootstrap, topic_in, ["b%d" % i for i in range(20)], partition=1)
    group = unique_topic("group")
    _run(bootstrap, topic_in, topic_out, group, tmp_path, checkpointing=True, batch_records=10)
    assert len(values(consume(bootstrap, topic_out, 50))) == 50
    assert _committed(bootstrap, group, topic_in, 2) == {0: 30, 1: 20}


def test_commit_offsets_on_checkpoint_false_commits_nothing(spark, bootstrap, tmp_path):
    topic_in = create_topic(bootstrap, unique_topic("commit-off-in"))
    topic_out = create_topic(bootstrap, unique_topic("commit-off-out"))
    produce(bootstrap, topic_in, ["a", "b"])
    group = unique_topic("group")
    _run(bootstrap, topic_in, topic_out, group, tmp_path, checkpointing=True,
         properties={"commit.offsets.on.checkpoint": "false"})
    assert sorted(values(consume(bootstrap, topic_out, 2))) == ["a", "b"]
    assert _committed(bootstrap, group, topic_in, 1) == {}


@pytest.mark.parametrize("auto_commit, expected", [(None, {}), ("true", {0: 3})])
def test_without_checkpointing_only_enable_auto_commit_commits(spark, bootstrap, tmp_path, auto_commit, expected):
    topic_in = create_topic(bootstrap, unique_topic("commit-auto-in"))
    topic_out = create_topic(bootstrap, unique_topic("commit-auto-out"))
    produce(bootstrap, topic_in, ["a", "b", "c"])
    group = unique_topic("group")
    _run(bootstrap, topic_in, topic_out, group, tmp_path, checkpointing=False,
         properties={"enable.auto.commit": auto_commit} if auto_commit else None)
    assert sorted(values(consume(bootstrap, topic_out, 3))) == ["a", "b", "c"]
    assert _committed(bootstrap, group, topic_in, 1) == expected

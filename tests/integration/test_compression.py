"""Compressed topics: records written with gzip, snappy, lz4 or zstd are read, and the sink's
``compression.type`` compresses what it writes (checked on the record batches the broker returns)."""
import contextlib

import pytest
from kafka import KafkaConsumer, KafkaProducer, TopicPartition
from kafka.record import memory_records

from kafka_helpers import consume, create_topic, unique_topic, values
from pyflink_compat.common import SimpleStringSchema, Types, WatermarkStrategy
from pyflink_compat.datastream import StreamExecutionEnvironment
from pyflink_compat.datastream.connectors.base import DeliveryGuarantee
from pyflink_compat.datastream.connectors.kafka import (KafkaOffsetsInitializer, KafkaRecordSerializationSchema,
                                                        KafkaSink, KafkaSource)

pytestmark = pytest.mark.integration

RECORDS = 3000
# Kafka's codec ids in a record batch's attributes.
CODEC_IDS = {"gzip": 1, "snappy": 2, "lz4": 3, "zstd": 4}


@contextlib.contextmanager
def batch_codecs_seen():
    """The codec id of every record batch a kafka-python consumer in this process parses meanwhile."""
    seen = []
    original = memory_records.DefaultRecordBatch

    class Observed(original):
        def __init__(self, buffer):
            super().__init__(buffer)
            seen.append(self.compression_type)

    memory_records.DefaultRecordBatch = Observed
    try:
        yield seen
    finally:
        memory_records.DefaultRecordBatch = original


def codecs_of(bootstrap, topic):
    with batch_codecs_seen() as seen:
        consumer = KafkaConsumer(bootstrap_servers=bootstrap, enable_auto_commit=False, consumer_timeout_ms=3000)
        try:
            consumer.assign([TopicPartition(topic, 0)])
            consumer.seek_to_beginning()
            count = sum(1 for _ in consumer)
        finally:
            consumer.close()
    return count, set(seen)


@pytest.mark.parametrize("codec", sorted(CODEC_IDS))
def test_a_compressed_topic_is_read_and_the_sink_compresses_with_compression_type(codec, spark, bootstrap):
    src, out = create_topic(bootstrap, unique_topic("zin")), create_topic(bootstrap, unique_topic("zout"))
    inputs = ["record %05d %s" % (i, "x" * (i % 50)) for i in range(RECORDS)]
    producer = KafkaProducer(bootstrap_servers=bootstrap, compression_type=codec, linger_ms=20)
    for value in inputs[:-1]:
        producer.send(src, value.encode(), partition=0)
    producer.flush()
    # The last record alone: the test broker's end offset is then exact (tests/kafka_helpers.produce).
    producer.send(src, inputs[-1].encode(), partition=0).get(timeout=30)
    producer.close()
    assert codecs_of(bootstrap, src) == (RECORDS, {CODEC_IDS[codec]})

    env = StreamExecutionEnvironment.get_execution_environment()
    source = (KafkaSource.builder().set_bootstrap_servers(bootstrap).set_topics(src)
              .set_starting_offsets(KafkaOffsetsInitializer.earliest())
              .set_bounded(KafkaOffsetsInitializer.latest())
              .set_value_only_deserializer(SimpleStringSchema()).build())
    sink = (KafkaSink.builder().set_bootstrap_servers(bootstrap)
            .set_record_serializer(KafkaRecordSerializationSchema.builder().set_topic(out)
                                   .set_value_serialization_schema(SimpleStringSchema()).build())
            .set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE)
            .set_property("compression.type", codec).build())
    env.set_parallelism(1)
    env.from_source(source, WatermarkStrategy.no_watermarks(), "Kafka Source") \
        .map(lambda v: v.upper(), output_type=Types.STRING()).sink_to(sink)
    env.execute("compressed topics")

    assert values(consume(bootstrap, out, RECORDS)) == [v.upper() for v in inputs]
    assert codecs_of(bootstrap, out) == (RECORDS, {CODEC_IDS[codec]})

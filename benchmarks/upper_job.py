"""Kafka -> map(str.upper) -> Kafka, bounded, AT_LEAST_ONCE: the foundation benchmark's job.

A plain PyFlink job; runs unchanged on real PyFlink and on pyflink-compat:

    python -m pyflink_compat run benchmarks/upper_job.py BOOTSTRAP INPUT_TOPIC OUTPUT_TOPIC
    python benchmarks/upper_job.py BOOTSTRAP INPUT_TOPIC OUTPUT_TOPIC      # real PyFlink

An optional fourth argument sets the job's parallelism (default: the engine's default).
"""
import sys

from pyflink.common import SimpleStringSchema, Types, WatermarkStrategy
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.base import DeliveryGuarantee
from pyflink.datastream.connectors.kafka import (KafkaOffsetsInitializer, KafkaRecordSerializationSchema,
                                                 KafkaSink, KafkaSource)


def main(bootstrap_servers, input_topic, output_topic, parallelism=None):
    env = StreamExecutionEnvironment.get_execution_environment()
    if parallelism:
        env.set_parallelism(int(parallelism))

    source = (KafkaSource.builder()
              .set_bootstrap_servers(bootstrap_servers)
              .set_topics(input_topic)
              .set_group_id("upper-benchmark")
              .set_starting_offsets(KafkaOffsetsInitializer.earliest())
              .set_bounded(KafkaOffsetsInitializer.latest())
              .set_value_only_deserializer(SimpleStringSchema())
              .build())

    sink = (KafkaSink.builder()
            .set_bootstrap_servers(bootstrap_servers)
            .set_record_serializer(KafkaRecordSerializationSchema.builder()
                                   .set_topic(output_topic)
                                   .set_value_serialization_schema(SimpleStringSchema())
                                   .build())
            .set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE)
            .build())

    stream = env.from_source(source, WatermarkStrategy.no_watermarks(), "Kafka Source")
    stream.map(lambda s: s.upper(), output_type=Types.STRING()).sink_to(sink)
    env.execute("upper benchmark")


if __name__ == "__main__":
    if len(sys.argv) not in (4, 5):
        sys.stderr.write("usage: upper_job.py BOOTSTRAP_SERVERS INPUT_TOPIC OUTPUT_TOPIC [PARALLELISM]\n")
        sys.exit(2)
    main(*sys.argv[1:])

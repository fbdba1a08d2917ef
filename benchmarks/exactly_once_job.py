"""Kafka -> map(str.upper) -> Kafka with checkpointing and a chosen delivery guarantee: the fault-tolerance
benchmark's job (bench_exactly_once.py).

    python -m pyflink_compat run benchmarks/exactly_once_job.py BOOTSTRAP IN OUT GUARANTEE BOUNDED

GUARANTEE: at-least-once | exactly-once. BOUNDED: bounded (read to the end offsets at start, then finish) or
unbounded (run until stopped). A plain PyFlink job, as a user would write it.
"""
import sys

from pyflink.common import SimpleStringSchema, Types, WatermarkStrategy
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.base import DeliveryGuarantee
from pyflink.datastream.connectors.kafka import (KafkaOffsetsInitializer, KafkaRecordSerializationSchema,
                                                 KafkaSink, KafkaSource)


def main(bootstrap_servers, input_topic, output_topic, guarantee, bounded):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.enable_checkpointing(1000)
    source = (KafkaSource.builder()
              .set_bootstrap_servers(bootstrap_servers)
              .set_topics(input_topic)
              .set_group_id("exactly-once-benchmark")
              .set_starting_offsets(KafkaOffsetsInitializer.earliest())
              .set_value_only_deserializer(SimpleStringSchema()))
    if bounded == "bounded":
        source = source.set_bounded(KafkaOffsetsInitializer.latest())
    sink = (KafkaSink.builder()
            .set_bootstrap_servers(bootstrap_servers)
            .set_record_serializer(KafkaRecordSerializationSchema.builder()
                                   .set_topic(output_topic)
                                   .set_value_serialization_schema(SimpleStringSchema())
                                   .build()))
    if guarantee == "exactly-once":
        sink = (sink.set_delivery_guarantee(DeliveryGuarantee.EXACTLY_ONCE)
                .set_transactional_id_prefix("bench-" + output_topic)
                .set_property("transaction.timeout.ms", "900000"))   # Apache Kafka's default maximum
    else:
        sink = sink.set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE)
    stream = env.from_source(source.build(), WatermarkStrategy.no_watermarks(), "Kafka Source")
    stream.map(lambda s: s.upper(), output_type=Types.STRING()).sink_to(sink.build())
    env.execute("exactly-once benchmark")


if __name__ == "__main__":
    if len(sys.argv) != 6:
        sys.stderr.write("usage: exactly_once_job.py BOOTSTRAP INPUT OUTPUT at-least-once|exactly-once "
                         "bounded|unbounded\n")
        sys.exit(2)
    main(*sys.argv[1:])

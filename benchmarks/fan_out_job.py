"""Kafka -> three maps -> three Kafka sinks, bounded, AT_LEAST_ONCE: the fan-out benchmark's job.

One source feeds three sinks (upper-cased, reversed, "index:length"), all written to the output topic. A plain
PyFlink job; runs unchanged on real PyFlink and on pyflink-compat:

    python -m pyflink_compat run benchmarks/fan_out_job.py BOOTSTRAP INPUT_TOPIC OUTPUT_TOPIC
    python benchmarks/fan_out_job.py BOOTSTRAP INPUT_TOPIC OUTPUT_TOPIC      # real PyFlink
"""
import sys

from pyflink.common import SimpleStringSchema, Types, WatermarkStrategy
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.base import DeliveryGuarantee
from pyflink.datastream.connectors.kafka import (KafkaOffsetsInitializer, KafkaRecordSerializationSchema,
                                                 KafkaSink, KafkaSource)


def main(bootstrap_servers, input_topic, output_topic):
    env = StreamExecutionEnvironment.get_execution_environment()
    source = (KafkaSource.builder()
              .set_bootstrap_servers(bootstrap_servers)
              .set_topics(input_topic)
              .set_group_id("fan-out-benchmark")
              .set_starting_offsets(KafkaOffsetsInitializer.earliest())
              .set_bounded(KafkaOffsetsInitializer.latest())
              .set_value_only_deserializer(SimpleStringSchema())
              .build())

    def sink():
        return (KafkaSink.builder()
                .set_bootstrap_servers(bootstrap_servers)
                .set_record_serializer(KafkaRecordSerializationSchema.builder()
                                       .set_topic(output_topic)
                                       .set_value_serialization_schema(SimpleStringSchema())
                                       .build())
                .set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE)
                .build())

    stream = env.from_source(source, WatermarkStrategy.no_watermarks(), "Kafka Source")
    stream.map(lambda s: s.upper(), output_type=Types.STRING()).sink_to(sink())
    stream.map(lambda s: s[::-1], output_type=Types.STRING()).sink_to(sink())
    stream.map(lambda s: "%s:%d" % (s[:10], len(s)), output_type=Types.STRING()).sink_to(sink())
    env.execute("fan-out benchmark")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.stderr.write("usage: fan_out_job.py BOOTSTRAP_SERVERS INPUT_TOPIC OUTPUT_TOPIC\n")
        sys.exit(2)
    main(*sys.argv[1:])

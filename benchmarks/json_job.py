"""Kafka JSON rows (5 fields) -> filter on a field -> JSON rows -> Kafka, bounded: the formats benchmark's job.

A plain PyFlink job; runs unchanged on real PyFlink and on pyflink-compat:

    python -m pyflink_compat run benchmarks/json_job.py BOOTSTRAP INPUT_TOPIC OUTPUT_TOPIC
    python benchmarks/json_job.py BOOTSTRAP INPUT_TOPIC OUTPUT_TOPIC      # real PyFlink
"""
import sys

from pyflink.common import Types, WatermarkStrategy
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.base import DeliveryGuarantee
from pyflink.datastream.connectors.kafka import (KafkaOffsetsInitializer, KafkaRecordSerializationSchema,
                                                 KafkaSink, KafkaSource)
from pyflink.datastream.formats.json import JsonRowDeserializationSchema, JsonRowSerializationSchema

ORDER = Types.ROW_NAMED(["id", "name", "amount", "active", "city"],
                        [Types.LONG(), Types.STRING(), Types.DOUBLE(), Types.BOOLEAN(), Types.STRING()])


def main(bootstrap_servers, input_topic, output_topic):
    env = StreamExecutionEnvironment.get_execution_environment()
    source = (KafkaSource.builder()
              .set_bootstrap_servers(bootstrap_servers)
              .set_topics(input_topic)
              .set_group_id("json-benchmark")
              .set_starting_offsets(KafkaOffsetsInitializer.earliest())
              .set_bounded(KafkaOffsetsInitializer.latest())
              .set_value_only_deserializer(JsonRowDeserializationSchema.builder().type_info(ORDER).build())
              .build())
    sink = (KafkaSink.builder()
            .set_bootstrap_servers(bootstrap_servers)
            .set_record_serializer(KafkaRecordSerializationSchema.builder()
                                   .set_topic(output_topic)
                                   .set_value_serialization_schema(
                                       JsonRowSerializationSchema.builder().with_type_info(ORDER).build())
                                   .build())
            .set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE)
            .build())
    orders = env.from_source(source, WatermarkStrategy.no_watermarks(), "Kafka Source")
    orders.filter(lambda order: order.active).sink_to(sink)
    env.execute("json benchmark")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.stderr.write("usage: json_job.py BOOTSTRAP_SERVERS INPUT_TOPIC OUTPUT_TOPIC\n")
        sys.exit(2)
    main(*sys.argv[1:])

"""Kafka -> map to Types.ROW_NAMED -> filter on a field -> map back to a string -> Kafka; print() of rows.

Usage: row_output.py BOOTSTRAP INPUT_TOPIC OUTPUT_TOPIC
"""
import sys

from pyflink.common import Row, SimpleStringSchema, Types, WatermarkStrategy
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.base import DeliveryGuarantee
from pyflink.datastream.connectors.kafka import (KafkaOffsetsInitializer, KafkaRecordSerializationSchema,
                                                 KafkaSink, KafkaSource)

brokers, input_topic, output_topic = sys.argv[1:4]

PERSON = Types.ROW_NAMED(["name", "age", "score"], [Types.STRING(), Types.INT(), Types.DOUBLE()])


def parse(line):
    name, age, score = line.split(",")
    return Row(name=name, age=int(age), score=float(score))


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
source = (KafkaSource.builder().set_bootstrap_servers(brokers).set_topics(input_topic)
          .set_group_id("side-by-side-rows")
          .set_starting_offsets(KafkaOffsetsInitializer.earliest())
          .set_bounded(KafkaOffsetsInitializer.latest())
          .set_value_only_deserializer(SimpleStringSchema()).build())
people = env.from_source(source, WatermarkStrategy.no_watermarks(), "people").map(parse, output_type=PERSON)
adults = people.filter(lambda p: p.age >= 18)
adults.print("adult")
adults.map(lambda p: "%s|%d|%.2f|%s" % (p.name, p.age, p.score, type(p).__name__), output_type=Types.STRING()) \
    .sink_to(KafkaSink.builder().set_bootstrap_servers(brokers)
             .set_record_serializer(KafkaRecordSerializationSchema.builder().set_topic(output_topic)
                                    .set_value_serialization_schema(SimpleStringSchema()).build())
             .set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE).build())
env.execute("side-by-side row output")

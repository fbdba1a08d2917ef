"""Kafka -> Row -> KafkaSink whose key and value schemas have fewer fields than the stream's rows, as Kafka
key schemas usually do: a JSON key schema of one field, a JSON value schema of two, into a 3-partition topic.
Flink takes a schema's fields from the row by position (under the schema's own names).

Usage: narrow_key_schema.py BOOTSTRAP INPUT_TOPIC OUTPUT_TOPIC
"""
import sys

from pyflink.common import Row, SimpleStringSchema, Types, WatermarkStrategy
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.base import DeliveryGuarantee
from pyflink.datastream.connectors.kafka import (KafkaOffsetsInitializer, KafkaRecordSerializationSchema,
                                                 KafkaSink, KafkaSource)
from pyflink.datastream.formats.json import JsonRowSerializationSchema

brokers, input_topic, output_topic = sys.argv[1:4]
ORDER = Types.ROW_NAMED(["order_id", "customer", "amount"], [Types.INT(), Types.STRING(), Types.DOUBLE()])
KEY = Types.ROW_NAMED(["id"], [Types.INT()])
VALUE = Types.ROW_NAMED(["id", "who"], [Types.INT(), Types.STRING()])


def parse(line):
    order_id, customer, amount = line.split(",")
    return Row(order_id=int(order_id), customer=customer, amount=float(amount))


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
source = (KafkaSource.builder().set_bootstrap_servers(brokers).set_topics(input_topic)
          .set_group_id("side-by-side-narrow-keys")
          .set_starting_offsets(KafkaOffsetsInitializer.earliest())
          .set_bounded(KafkaOffsetsInitializer.latest())
          .set_value_only_deserializer(SimpleStringSchema()).build())
orders = env.from_source(source, WatermarkStrategy.no_watermarks(), "orders").map(parse, output_type=ORDER)
orders.sink_to(KafkaSink.builder().set_bootstrap_servers(brokers)
               .set_record_serializer(
                   KafkaRecordSerializationSchema.builder().set_topic(output_topic)
                   .set_key_serialization_schema(JsonRowSerializationSchema.builder().with_type_info(KEY).build())
                   .set_value_serialization_schema(JsonRowSerializationSchema.builder().with_type_info(VALUE).build())
                   .build())
               .set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE).build())
env.execute("side-by-side narrow key schema")

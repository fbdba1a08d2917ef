"""Kafka -> map -> KafkaSink with a topic selector: even numbers to one topic, the rest to another.

Usage: topic_selector.py BOOTSTRAP INPUT_TOPIC EVEN_TOPIC ODD_TOPIC
"""
import sys

from pyflink.common import SimpleStringSchema, Types, WatermarkStrategy
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.base import DeliveryGuarantee
from pyflink.datastream.connectors.kafka import (KafkaOffsetsInitializer, KafkaRecordSerializationSchema,
                                                 KafkaSink, KafkaSource)

brokers, input_topic, even_topic, odd_topic = sys.argv[1:5]


def choose(element):
    return even_topic if int(element.split(",")[0]) % 2 == 0 else odd_topic


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
source = (KafkaSource.builder().set_bootstrap_servers(brokers).set_topics(input_topic)
          .set_group_id("side-by-side-selector")
          .set_starting_offsets(KafkaOffsetsInitializer.earliest())
          .set_bounded(KafkaOffsetsInitializer.latest())
          .set_value_only_deserializer(SimpleStringSchema()).build())
ds = env.from_source(source, WatermarkStrategy.no_watermarks(), "numbers")
ds = ds.map(lambda s: "%s,%s" % (s, "x" * (int(s) % 4)), output_type=Types.STRING())
ds.sink_to(KafkaSink.builder().set_bootstrap_servers(brokers)
           .set_record_serializer(KafkaRecordSerializationSchema.builder().set_topic_selector(choose)
                                  .set_value_serialization_schema(SimpleStringSchema()).build())
           .set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE).build())
env.execute("side-by-side topic selector")

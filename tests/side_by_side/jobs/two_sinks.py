"""One stream, three sinks: a Kafka sink, print(), and a second Kafka sink behind a filter.

Usage: two_sinks.py BOOTSTRAP INPUT_TOPIC ALL_TOPIC LONG_TOPIC
"""
import sys

from pyflink.common import SimpleStringSchema, Types, WatermarkStrategy
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.base import DeliveryGuarantee
from pyflink.datastream.connectors.kafka import (KafkaOffsetsInitializer, KafkaRecordSerializationSchema,
                                                 KafkaSink, KafkaSource)

brokers, input_topic, all_topic, long_topic = sys.argv[1:5]


def sink(topic):
    return (KafkaSink.builder().set_bootstrap_servers(brokers)
            .set_record_serializer(KafkaRecordSerializationSchema.builder().set_topic(topic)
                                   .set_value_serialization_schema(SimpleStringSchema()).build())
            .set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE).build())


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
source = (KafkaSource.builder().set_bootstrap_servers(brokers).set_topics(input_topic)
          .set_group_id("side-by-side-two-sinks")
          .set_starting_offsets(KafkaOffsetsInitializer.earliest())
          .set_bounded(KafkaOffsetsInitializer.latest())
          .set_value_only_deserializer(SimpleStringSchema()).build())
words = env.from_source(source, WatermarkStrategy.no_watermarks(), "words")
reversed_words = words.map(lambda w: w[::-1], output_type=Types.STRING())
reversed_words.sink_to(sink(all_topic))
reversed_words.print()
reversed_words.filter(lambda w: len(w) > 4).sink_to(sink(long_topic))
env.execute("side-by-side two sinks")

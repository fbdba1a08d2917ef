"""Kafka -> flat_map (split words) -> filter -> map -> Kafka, bounded, parallelism 1.

Usage: chain.py BOOTSTRAP INPUT_TOPIC OUTPUT_TOPIC
"""
import sys

from pyflink.common import SimpleStringSchema, Types, WatermarkStrategy
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.base import DeliveryGuarantee
from pyflink.datastream.connectors.kafka import (KafkaOffsetsInitializer, KafkaRecordSerializationSchema,
                                                 KafkaSink, KafkaSource)

brokers, input_topic, output_topic = sys.argv[1:4]

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
source = (KafkaSource.builder().set_bootstrap_servers(brokers).set_topics(input_topic)
          .set_group_id("side-by-side-chain")
          .set_starting_offsets(KafkaOffsetsInitializer.earliest())
          .set_bounded(KafkaOffsetsInitializer.latest())
          .set_value_only_deserializer(SimpleStringSchema()).build())
lines = env.from_source(source, WatermarkStrategy.no_watermarks(), "lines")
words = (lines.flat_map(lambda line: line.split(), output_type=Types.STRING())
         .filter(lambda w: not w.startswith("#"))
         .map(lambda w: "%s:%d" % (w.upper(), len(w)), output_type=Types.STRING()))
words.sink_to(KafkaSink.builder().set_bootstrap_servers(brokers)
              .set_record_serializer(KafkaRecordSerializationSchema.builder().set_topic(output_topic)
                                     .set_value_serialization_schema(SimpleStringSchema()).build())
              .set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE).build())
env.execute("side-by-side chain")

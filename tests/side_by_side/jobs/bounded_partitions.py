"""A bounded source (earliest -> latest) over several partitions, one of them empty; parallelism 1.

Usage: bounded_partitions.py BOOTSTRAP INPUT_TOPIC OUTPUT_TOPIC
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
          .set_group_id("side-by-side-bounded")
          .set_starting_offsets(KafkaOffsetsInitializer.earliest())
          .set_bounded(KafkaOffsetsInitializer.latest())
          .set_value_only_deserializer(SimpleStringSchema()).build())
ds = env.from_source(source, WatermarkStrategy.no_watermarks(), "input")
ds = ds.filter(lambda s: not s.endswith("7")).map(lambda s: s.upper(), output_type=Types.STRING())
ds.sink_to(KafkaSink.builder().set_bootstrap_servers(brokers)
           .set_record_serializer(KafkaRecordSerializationSchema.builder().set_topic(output_topic)
                                  .set_value_serialization_schema(SimpleStringSchema()).build())
           .set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE).build())
env.execute("side-by-side bounded partitions")

"""The demo job: a PyFlink job file, unchanged (its imports say ``pyflink``).

Usage: upper_job.py BOOTSTRAP_SERVERS INPUT_TOPIC OUTPUT_TOPIC
"""
import sys

from pyflink.common import SimpleStringSchema, Types, WatermarkStrategy
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.base import DeliveryGuarantee
from pyflink.datastream.connectors.kafka import (KafkaOffsetsInitializer, KafkaRecordSerializationSchema,
                                                 KafkaSink, KafkaSource)

brokers, input_topic, output_topic = sys.argv[1:4]

env = StreamExecutionEnvironment.get_execution_environment()
env.add_jars("file:///opt/flink/lib/flink-sql-connector-kafka.jar")   # accepted and ignored
source = (KafkaSource.builder().set_bootstrap_servers(brokers).set_topics(input_topic).set_group_id("demo")
          .set_starting_offsets(KafkaOffsetsInitializer.earliest())
          .set_bounded(KafkaOffsetsInitializer.latest())
          .set_value_only_deserializer(SimpleStringSchema()).build())
ds = env.from_source(source, WatermarkStrategy.no_watermarks(), "Kafka Source")
ds = ds.filter(lambda s: s).map(lambda s: s.upper(), output_type=Types.STRING())
ds.sink_to(KafkaSink.builder().set_bootstrap_servers(brokers)
           .set_record_serializer(KafkaRecordSerializationSchema.builder().set_topic(output_topic)
                                  .set_value_serialization_schema(SimpleStringSchema()).build())
           .set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE).build())
env.execute("upper")

"""Three input partitions read with parallelism 2; a keyed sink into 3 partitions, an unkeyed sink into 2,
and print() (prefixed with the subtask number).

Usage: parallel_partitions.py BOOTSTRAP INPUT_TOPIC KEYED_TOPIC UNKEYED_TOPIC
"""
import sys

from pyflink.common import SimpleStringSchema, Types, WatermarkStrategy
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.base import DeliveryGuarantee
from pyflink.datastream.connectors.kafka import (KafkaOffsetsInitializer, KafkaRecordSerializationSchema,
                                                 KafkaSink, KafkaSource)

brokers, input_topic, keyed_topic, unkeyed_topic = sys.argv[1:5]

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(2)
source = (KafkaSource.builder().set_bootstrap_servers(brokers).set_topics(input_topic)
          .set_group_id("side-by-side-parallel")
          .set_starting_offsets(KafkaOffsetsInitializer.earliest())
          .set_bounded(KafkaOffsetsInitializer.latest())
          .set_value_only_deserializer(SimpleStringSchema()).build())
ds = env.from_source(source, WatermarkStrategy.no_watermarks(), "input")
ds = ds.map(lambda s: s.upper(), output_type=Types.STRING())


def sink(topic, keyed):
    serializer = KafkaRecordSerializationSchema.builder().set_topic(topic)
    if keyed:
        serializer = serializer.set_key_serialization_schema(SimpleStringSchema())
    serializer = serializer.set_value_serialization_schema(SimpleStringSchema()).build()
    return (KafkaSink.builder().set_bootstrap_servers(brokers).set_record_serializer(serializer)
            .set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE).build())


ds.sink_to(sink(keyed_topic, True))
ds.sink_to(sink(unkeyed_topic, False))
ds.print()
env.execute("side-by-side parallel partitions")

"""from_collection -> map -> KafkaSink, parallelism 1.

Usage: collection_to_kafka.py BOOTSTRAP OUTPUT_TOPIC
"""
import sys

from pyflink.common import SimpleStringSchema, Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.base import DeliveryGuarantee
from pyflink.datastream.connectors.kafka import KafkaRecordSerializationSchema, KafkaSink

brokers, output_topic = sys.argv[1:3]

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
numbers = env.from_collection([3, 1, 4, 1, 5, 9, 2, 6], type_info=Types.INT())
text = numbers.map(lambda n: "n=%d sq=%d" % (n, n * n), output_type=Types.STRING())
text.sink_to(KafkaSink.builder().set_bootstrap_servers(brokers)
             .set_record_serializer(KafkaRecordSerializationSchema.builder().set_topic(output_topic)
                                    .set_value_serialization_schema(SimpleStringSchema()).build())
             .set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE).build())
env.execute("side-by-side collection to kafka")

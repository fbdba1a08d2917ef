"""execute() twice on one environment: write a topic, then read it back (as Flink allows).

    two_phase_job.py BOOTSTRAP TOPIC OUTPUT_TOPIC WORD...

Each word is written with itself as key (the test picks words that land in different partitions, so that
every partition's last batch holds one record: the test broker's end offsets are exact then).
"""
import sys

from pyflink.common import SimpleStringSchema, Types, WatermarkStrategy
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.base import DeliveryGuarantee
from pyflink.datastream.connectors.kafka import (KafkaOffsetsInitializer, KafkaRecordSerializationSchema,
                                                 KafkaSink, KafkaSource)

bootstrap, topic, output = sys.argv[1:4]
words = sys.argv[4:]
env = StreamExecutionEnvironment.get_execution_environment()


def sink_to(name, keyed=False):
    serializer = KafkaRecordSerializationSchema.builder().set_topic(name)
    if keyed:
        serializer = serializer.set_key_serialization_schema(SimpleStringSchema())
    return (KafkaSink.builder().set_bootstrap_servers(bootstrap)
            .set_record_serializer(serializer.set_value_serialization_schema(SimpleStringSchema()).build())
            .set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE).build())


# Phase 1: write.
env.from_collection(words, type_info=Types.STRING()).sink_to(sink_to(topic, keyed=True))
env.execute("write phase")

# Phase 2: read back what phase 1 wrote (only this phase's operators run).
source = (KafkaSource.builder().set_bootstrap_servers(bootstrap).set_topics(topic)
          .set_starting_offsets(KafkaOffsetsInitializer.earliest())
          .set_bounded(KafkaOffsetsInitializer.latest())
          .set_value_only_deserializer(SimpleStringSchema()).build())
env.from_source(source, WatermarkStrategy.no_watermarks(), "read back") \
    .map(lambda s: "read:" + s, output_type=Types.STRING()).sink_to(sink_to(output))
env.execute("read phase")
print("BOTH PHASES DONE")

"""The fault tests' job: a checkpointed, bounded Kafka job that upper-cases values, reading from one broker and
writing to another (or the same), with a chosen delivery guarantee and extra client properties.

    pyflink-compat run [-s JOB_CHECKPOINT_DIR] tests/faults/jobs/fault_job.py SOURCE_SERVERS SINK_SERVERS IN OUT \
        CHECKPOINT_DIR none|at-least-once|exactly-once STOP_OFFSET [SOURCE_PROPS [SINK_PROPS [STARTING]]]

STOP_OFFSET: the source stops at that offset of every input partition. *_PROPS: "key=value,key=value" for the
builders' set_property. STARTING: "earliest" (the default: KafkaOffsetsInitializer.earliest()) or "zero-no-reset"
(offset 0 of each partition, reset strategy NONE).
"""
import sys

from pyflink.common import Configuration, Types, WatermarkStrategy
from pyflink.common.serialization import SimpleStringSchema
from pyflink.datastream import CheckpointingMode, StreamExecutionEnvironment
from pyflink.datastream.connectors.base import DeliveryGuarantee
from pyflink.datastream.connectors.kafka import (KafkaOffsetResetStrategy, KafkaOffsetsInitializer,
                                                 KafkaRecordSerializationSchema, KafkaSink, KafkaSource,
                                                 KafkaTopicPartition)

GUARANTEES = {"none": DeliveryGuarantee.NONE, "at-least-once": DeliveryGuarantee.AT_LEAST_ONCE,
              "exactly-once": DeliveryGuarantee.EXACTLY_ONCE}


def properties(text):
    return [item.split("=", 1) for item in text.split(",") if item]


def starting_offsets(starting, input_topic):
    if starting == "zero-no-reset":
        return KafkaOffsetsInitializer.offsets({KafkaTopicPartition(input_topic, p): 0 for p in (0, 1)},
                                               KafkaOffsetResetStrategy.NONE)
    return KafkaOffsetsInitializer.earliest()


def main(source_servers, sink_servers, input_topic, output_topic, checkpoint_dir, guarantee, stop_offset,
         source_properties="", sink_properties="", starting="earliest"):
    configuration = Configuration()
    configuration.set_string("execution.checkpointing.dir", checkpoint_dir)
    # The tests watch the failure itself; a checkpointed job would otherwise restart (Flink's default).
    configuration.set_string("restart-strategy.type", "none")
    env = StreamExecutionEnvironment.get_execution_environment(configuration)
    env.enable_checkpointing(1000, CheckpointingMode.AT_LEAST_ONCE)
    env.set_parallelism(2)
    source = (KafkaSource.builder().set_bootstrap_servers(source_servers).set_topics(input_topic)
              .set_group_id("fault-job")
              .set_starting_offsets(starting_offsets(starting, input_topic))
              .set_bounded(KafkaOffsetsInitializer.offsets(
                  {KafkaTopicPartition(input_topic, p): int(stop_offset) for p in (0, 1)}))
              .set_value_only_deserializer(SimpleStringSchema()))
    for key, value in properties(source_properties):
        source.set_property(key, value)
    sink = (KafkaSink.builder().set_bootstrap_servers(sink_servers)
            .set_record_serializer(KafkaRecordSerializationSchema.builder().set_topic(output_topic)
                                   .set_value_serialization_schema(SimpleStringSchema()).build())
            .set_delivery_guarantee(GUARANTEES[guarantee]))
    if guarantee == "exactly-once":
        sink.set_transactional_id_prefix("fault-" + output_topic).set_property("transaction.timeout.ms", "900000")
    for key, value in properties(sink_properties):
        sink.set_property(key, value)
    values = env.from_source(source.build(), WatermarkStrategy.no_watermarks(), "Kafka Source")
    values.map(lambda v: v.upper(), output_type=Types.STRING()).sink_to(sink.build())
    env.execute("fault job")


if __name__ == "__main__":
    main(*sys.argv[1:])

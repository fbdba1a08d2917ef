"""A checkpointed, bounded upper-case Kafka job for the broker-freeze tests, with the Kafka clients' timeouts
set from the command line, so a frozen broker makes it fail within a known time instead of minutes.

    pyflink-compat run [-s JOB_CHECKPOINT_DIR] tests/jobs/freeze_job.py BOOTSTRAP IN OUT CHECKPOINT_DIR [TIMEOUT_MS]

TIMEOUT_MS (optional) becomes the source's and the sink's ``request.timeout.ms`` and the sink's
``max.block.ms``; the sink's ``delivery.timeout.ms`` is twice that (the producer wants it above
``linger.ms`` + ``request.timeout.ms``). Without it the clients keep their defaults.
"""
import sys

from pyflink.common import Configuration, Types, WatermarkStrategy
from pyflink.common.serialization import SimpleStringSchema
from pyflink.datastream import CheckpointingMode, StreamExecutionEnvironment
from pyflink.datastream.connectors.base import DeliveryGuarantee
from pyflink.datastream.connectors.kafka import (KafkaOffsetsInitializer, KafkaRecordSerializationSchema,
                                                 KafkaSink, KafkaSource)


def main(bootstrap, input_topic, output_topic, checkpoint_dir, timeout_ms=None):
    configuration = Configuration()
    configuration.set_string("execution.checkpointing.dir", checkpoint_dir)
    # The tests watch the failure itself; a checkpointed job would otherwise restart (Flink's default).
    configuration.set_string("restart-strategy.type", "none")
    env = StreamExecutionEnvironment.get_execution_environment(configuration)
    env.enable_checkpointing(1000, CheckpointingMode.AT_LEAST_ONCE)
    env.set_parallelism(2)
    source_builder = (KafkaSource.builder().set_bootstrap_servers(bootstrap).set_topics(input_topic)
                      .set_group_id("freeze-job")
                      .set_starting_offsets(KafkaOffsetsInitializer.earliest())
                      .set_bounded(KafkaOffsetsInitializer.latest())
                      .set_value_only_deserializer(SimpleStringSchema()))
    sink_builder = (KafkaSink.builder().set_bootstrap_servers(bootstrap)
                    .set_record_serializer(KafkaRecordSerializationSchema.builder().set_topic(output_topic)
                                           .set_value_serialization_schema(SimpleStringSchema()).build())
                    .set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE))
    if timeout_ms:
        source_builder.set_property("request.timeout.ms", timeout_ms)
        sink_builder.set_property("request.timeout.ms", timeout_ms)
        sink_builder.set_property("max.block.ms", timeout_ms)
        sink_builder.set_property("delivery.timeout.ms", str(2 * int(timeout_ms)))
    values = env.from_source(source_builder.build(), WatermarkStrategy.no_watermarks(), "Kafka Source")
    values.map(lambda v: v.upper(), output_type=Types.STRING()).sink_to(sink_builder.build())
    env.execute("broker freeze job")


if __name__ == "__main__":
    main(*sys.argv[1:])

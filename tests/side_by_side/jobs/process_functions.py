"""ProcessFunction on a non-keyed stream (timestamps, side outputs, refused timers) and
assign_timestamps_and_watermarks with a TimestampAssigner, from Kafka and from a collection.

Usage: process_functions.py BOOTSTRAP INPUT_TOPIC OUTPUT_TOPIC
"""
import sys

from pyflink.common import Duration, Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import OutputTag, ProcessFunction, StreamExecutionEnvironment
from pyflink.datastream.connectors.base import DeliveryGuarantee
from pyflink.datastream.connectors.kafka import (KafkaOffsetsInitializer, KafkaRecordSerializationSchema,
                                                 KafkaSink, KafkaSource)
from pyflink.common.serialization import SimpleStringSchema

brokers, input_topic, output_topic = sys.argv[1:4]
LONG = OutputTag("long-words", Types.STRING())
UNUSED = OutputTag("never-asked-for", Types.STRING())


class Split(ProcessFunction):
    def process_element(self, value, ctx):
        yield "%s@%d" % (value, ctx.timestamp())
        if len(value) > 3:
            yield LONG, value.upper()
        if value == "timer":
            try:
                ctx.timer_service().register_event_time_timer(1)
            except Exception as e:
                yield "refused: %s" % e


class Stamp(ProcessFunction):
    def process_element(self, value, ctx):
        yield "%r at %d" % (value, ctx.timestamp())


class FromValue(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return len(value) * 1000 + (record_timestamp % 1000)


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
source = (KafkaSource.builder().set_bootstrap_servers(brokers).set_topics(input_topic)
          .set_group_id("side-by-side-process")
          .set_starting_offsets(KafkaOffsetsInitializer.earliest())
          .set_bounded(KafkaOffsetsInitializer.latest())
          .set_value_only_deserializer(SimpleStringSchema()).build())
words = env.from_source(source, WatermarkStrategy.no_watermarks(), "words")
main = words.process(Split(), output_type=Types.STRING())
main.sink_to(KafkaSink.builder().set_bootstrap_servers(brokers)
             .set_record_serializer(KafkaRecordSerializationSchema.builder().set_topic(output_topic)
                                    .set_value_serialization_schema(SimpleStringSchema()).build())
             .set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE).build())
main.get_side_output(LONG).map(lambda w: "side " + w, output_type=Types.STRING()).print("long")
stamped = words.assign_timestamps_and_watermarks(
    WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_seconds(1)).with_timestamp_assigner(FromValue()))
stamped.process(Stamp(), output_type=Types.STRING()).print("stamped")
# the assigner is lost when with_idleness() comes after with_timestamp_assigner(): Kafka timestamps stay
lost = words.assign_timestamps_and_watermarks(
    WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(FromValue())
    .with_idleness(Duration.of_seconds(5)))
lost.process(Stamp(), output_type=Types.STRING()).print("kept")
env.from_collection([3, 4], type_info=Types.INT()).process(Stamp(), output_type=Types.STRING()).print("none")
env.execute("side-by-side process functions")

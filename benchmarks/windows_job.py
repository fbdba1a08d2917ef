"""Kafka JSON events -> event-time timestamps -> key_by -> 10 s tumbling windows (count and sum per key) ->
JSON -> Kafka, bounded: the windows benchmark's job.

A plain PyFlink job; runs unchanged on real PyFlink and on pyflink-compat:

    python -m pyflink_compat run benchmarks/windows_job.py BOOTSTRAP INPUT_TOPIC OUTPUT_TOPIC
    python benchmarks/windows_job.py BOOTSTRAP INPUT_TOPIC OUTPUT_TOPIC      # real PyFlink
"""
import sys

from pyflink.common import Duration, Row, Time, Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.base import DeliveryGuarantee
from pyflink.datastream.connectors.kafka import (KafkaOffsetsInitializer, KafkaRecordSerializationSchema,
                                                 KafkaSink, KafkaSource)
from pyflink.datastream.formats.json import JsonRowDeserializationSchema, JsonRowSerializationSchema
from pyflink.datastream.functions import AggregateFunction, ProcessWindowFunction
from pyflink.datastream.window import TumblingEventTimeWindows

EVENT = Types.ROW_NAMED(["key", "ts", "amount"], [Types.STRING(), Types.LONG(), Types.LONG()])
RESULT = Types.ROW_NAMED(["key", "window_start", "count", "total"],
                         [Types.STRING(), Types.LONG(), Types.LONG(), Types.LONG()])


class EventTime(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value.ts


class CountAndSum(AggregateFunction):
    def create_accumulator(self):
        return 0, 0

    def add(self, value, accumulator):
        return accumulator[0] + 1, accumulator[1] + value.amount

    def get_result(self, accumulator):
        return accumulator

    def merge(self, a, b):
        return a[0] + b[0], a[1] + b[1]


class WithWindow(ProcessWindowFunction):
    def process(self, key, context, elements):
        count, total = next(iter(elements))
        yield Row(key=key, window_start=context.window().start, count=count, total=total)


def main(bootstrap_servers, input_topic, output_topic):
    env = StreamExecutionEnvironment.get_execution_environment()
    source = (KafkaSource.builder()
              .set_bootstrap_servers(bootstrap_servers)
              .set_topics(input_topic)
              .set_group_id("windows-benchmark")
              .set_starting_offsets(KafkaOffsetsInitializer.earliest())
              .set_bounded(KafkaOffsetsInitializer.latest())
              .set_value_only_deserializer(JsonRowDeserializationSchema.builder().type_info(EVENT).build())
              .build())
    sink = (KafkaSink.builder()
            .set_bootstrap_servers(bootstrap_servers)
            .set_record_serializer(KafkaRecordSerializationSchema.builder()
                                   .set_topic(output_topic)
                                   .set_value_serialization_schema(
                                       JsonRowSerializationSchema.builder().with_type_info(RESULT).build())
                                   .build())
            .set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE)
            .build())
    events = env.from_source(source, WatermarkStrategy.no_watermarks(), "Kafka Source") \
        .assign_timestamps_and_watermarks(WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_seconds(1))
                                          .with_timestamp_assigner(EventTime()))
    events.key_by(lambda e: e.key, key_type=Types.STRING()) \
        .window(TumblingEventTimeWindows.of(Time.seconds(10))) \
        .aggregate(CountAndSum(), window_function=WithWindow(), output_type=RESULT) \
        .sink_to(sink)
    env.execute("windows benchmark")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.stderr.write("usage: windows_job.py BOOTSTRAP_SERVERS INPUT_TOPIC OUTPUT_TOPIC\n")
        sys.exit(2)
    main(*sys.argv[1:])

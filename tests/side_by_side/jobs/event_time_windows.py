"""Event-time windows from Kafka with timestamps taken from the records ("key,epoch_ms,amount"):
tumbling windows with bounded out-of-orderness (reduce, aggregate, process), a sliding window, a session
window, and a KeyedProcessFunction with an event-time timer. The input is out of order within the bound,
so no record is late and the results do not depend on when watermarks are emitted.

Usage: event_time_windows.py BOOTSTRAP INPUT_TOPIC OUTPUT_TOPIC
"""
import sys

from pyflink.common import Duration, Time, Types, WatermarkStrategy
from pyflink.common.serialization import SimpleStringSchema
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import KeyedProcessFunction, StreamExecutionEnvironment
from pyflink.datastream.connectors.base import DeliveryGuarantee
from pyflink.datastream.connectors.kafka import (KafkaOffsetsInitializer, KafkaRecordSerializationSchema,
                                                 KafkaSink, KafkaSource)
from pyflink.datastream.functions import AggregateFunction, ProcessWindowFunction
from pyflink.datastream.state import ValueStateDescriptor
from pyflink.datastream.window import (EventTimeSessionWindows, SlidingEventTimeWindows,
                                       TumblingEventTimeWindows)

brokers, input_topic, output_topic = sys.argv[1:4]
EVENT = Types.TUPLE([Types.STRING(), Types.LONG(), Types.INT()])


class FromRecord(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[1]


class CountAndSum(AggregateFunction):
    def create_accumulator(self):
        return 0, 0

    def add(self, value, accumulator):
        return accumulator[0] + 1, accumulator[1] + value[2]

    def get_result(self, accumulator):
        return "count=%d sum=%d" % accumulator

    def merge(self, a, b):
        return a[0] + b[0], a[1] + b[1]


class Describe(ProcessWindowFunction):
    def process(self, key, context, elements):
        window = context.window()
        yield "%s [%d,%d) %s wm>=%s" % (key, window.start, window.end, sorted(e[2] for e in elements),
                                         context.current_watermark() >= window.max_timestamp())


class Expire(KeyedProcessFunction):
    def open(self, runtime_context):
        self.seen = runtime_context.get_state(ValueStateDescriptor("seen", Types.INT()))

    def process_element(self, value, ctx):
        self.seen.update((self.seen.value() or 0) + 1)
        ctx.timer_service().register_event_time_timer(ctx.timestamp() + 3_600_000)   # fires at the end

    def on_timer(self, timestamp, ctx):
        yield "timer %s at %d after %d elements" % (ctx.get_current_key(), timestamp, self.seen.value())


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
source = (KafkaSource.builder().set_bootstrap_servers(brokers).set_topics(input_topic)
          .set_group_id("side-by-side-windows")
          .set_starting_offsets(KafkaOffsetsInitializer.earliest())
          .set_bounded(KafkaOffsetsInitializer.latest())
          .set_value_only_deserializer(SimpleStringSchema()).build())
events = env.from_source(source, WatermarkStrategy.no_watermarks(), "events") \
    .map(lambda line: (line.split(",")[0], int(line.split(",")[1]), int(line.split(",")[2])), output_type=EVENT) \
    .assign_timestamps_and_watermarks(
        WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_seconds(5)).with_timestamp_assigner(FromRecord()))
by_key = events.key_by(lambda e: e[0], key_type=Types.STRING())
by_key.window(TumblingEventTimeWindows.of(Time.seconds(10))) \
    .reduce(lambda a, b: (a[0], max(a[1], b[1]), a[2] + b[2])).print("tumbling-reduce")
by_key.window(TumblingEventTimeWindows.of(Time.seconds(10))) \
    .aggregate(CountAndSum(), output_type=Types.STRING()).print("tumbling-aggregate")
by_key.window(SlidingEventTimeWindows.of(Time.seconds(10), Time.seconds(5))) \
    .process(Describe(), output_type=Types.STRING()).print("sliding")
by_key.window(EventTimeSessionWindows.with_gap(Time.seconds(4))) \
    .process(Describe(), output_type=Types.STRING()).print("session")
by_key.process(Expire(), output_type=Types.STRING()).print("timer")
by_key.window(TumblingEventTimeWindows.of(Time.seconds(10))) \
    .aggregate(CountAndSum(), output_type=Types.STRING()).sink_to(
        KafkaSink.builder().set_bootstrap_servers(brokers)
        .set_record_serializer(KafkaRecordSerializationSchema.builder().set_topic(output_topic)
                               .set_value_serialization_schema(SimpleStringSchema()).build())
        .set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE).build())
env.execute("side-by-side event-time windows")

"""Two keyed stages in one pipeline ("key,epoch_ms,amount" records, out of order within the bound):

- per key, 10 s tumbling sums; then keyed by window end, the window's top key (a second window);
- per key, a running total (KeyedProcessFunction); then keyed by the total's parity, the totals collected
  until an event-time timer at the end of their 10 s slot (a second KeyedProcessFunction).

The second stage's watermark is the minimum of what the first stage's subtasks forward, so its windows and
timers fire as on Flink. Outputs do not depend on how the two first-stage subtasks interleave. The first
stages' outputs are printed too: each first-stage operation feeds a sink and the operation after it.

Usage: two_keyed_stages.py BOOTSTRAP INPUT_TOPIC OUTPUT_TOPIC
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
from pyflink.datastream.state import ListStateDescriptor, ValueStateDescriptor
from pyflink.datastream.window import TumblingEventTimeWindows

brokers, input_topic, output_topic = sys.argv[1:4]
EVENT = Types.TUPLE([Types.STRING(), Types.LONG(), Types.INT()])
KEY_TOTAL = Types.TUPLE([Types.STRING(), Types.LONG()])


class FromRecord(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[1]


class Sum(AggregateFunction):
    def create_accumulator(self):
        return 0

    def add(self, value, accumulator):
        return accumulator + value[2]

    def get_result(self, accumulator):
        return accumulator

    def merge(self, a, b):
        return a + b


class WithWindowEnd(ProcessWindowFunction):
    def process(self, key, context, sums):
        for total in sums:
            yield key, context.window().end, total


class Top(ProcessWindowFunction):
    def process(self, window_end, context, rows):
        rows = sorted(rows, key=lambda r: (-r[2], r[0]))
        window = context.window()
        yield "top [%d,%d) of window end %d: %s=%d among %d keys" % (
            window.start, window.end, window_end, rows[0][0], rows[0][2], len(rows))


class RunningTotal(KeyedProcessFunction):
    def open(self, runtime_context):
        self.total = runtime_context.get_state(ValueStateDescriptor("total", Types.LONG()))

    def process_element(self, value, ctx):
        total = (self.total.value() or 0) + value[2]
        self.total.update(total)
        yield ctx.get_current_key(), total


class CollectPerSlot(KeyedProcessFunction):
    def open(self, runtime_context):
        self.items = runtime_context.get_list_state(ListStateDescriptor("items", Types.STRING()))

    def process_element(self, value, ctx):
        self.items.add("%s%d@%d" % (value[0], value[1], ctx.timestamp()))
        ctx.timer_service().register_event_time_timer(ctx.timestamp() // 10_000 * 10_000 + 9_999)

    def on_timer(self, timestamp, ctx):
        items = list(self.items.get())
        due = sorted(i for i in items if int(i.split("@")[1]) <= timestamp)
        self.items.update([i for i in items if int(i.split("@")[1]) > timestamp])
        yield "%s until %d: %s" % (ctx.get_current_key(), timestamp, " ".join(due))


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(2)
source = (KafkaSource.builder().set_bootstrap_servers(brokers).set_topics(input_topic)
          .set_group_id("side-by-side-two-stages")
          .set_starting_offsets(KafkaOffsetsInitializer.earliest())
          .set_bounded(KafkaOffsetsInitializer.latest())
          .set_value_only_deserializer(SimpleStringSchema()).build())
events = env.from_source(source, WatermarkStrategy.no_watermarks(), "events") \
    .map(lambda line: (line.split(",")[0], int(line.split(",")[1]), int(line.split(",")[2])), output_type=EVENT) \
    .assign_timestamps_and_watermarks(
        WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_seconds(2)).with_timestamp_assigner(FromRecord()))
sums = events.key_by(lambda e: e[0], key_type=Types.STRING()) \
    .window(TumblingEventTimeWindows.of(Time.seconds(10))) \
    .aggregate(Sum(), WithWindowEnd(), accumulator_type=Types.LONG(),
               output_type=Types.TUPLE([Types.STRING(), Types.LONG(), Types.LONG()]))
sums.print("sums")
top = sums.key_by(lambda r: r[1], key_type=Types.LONG()) \
    .window(TumblingEventTimeWindows.of(Time.seconds(10))) \
    .process(Top(), output_type=Types.STRING())
top.print("top")
top.sink_to(KafkaSink.builder().set_bootstrap_servers(brokers)
            .set_record_serializer(KafkaRecordSerializationSchema.builder().set_topic(output_topic)
                                   .set_value_serialization_schema(SimpleStringSchema()).build())
            .set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE).build())
totals = events.key_by(lambda e: e[0], key_type=Types.STRING()) \
    .process(RunningTotal(), output_type=KEY_TOTAL)
totals.map(lambda t: "%s total %d" % t, output_type=Types.STRING()).print("totals")
totals.key_by(lambda t: "even" if t[1] % 2 == 0 else "odd", key_type=Types.STRING()) \
    .process(CollectPerSlot(), output_type=Types.STRING()) \
    .print("parity")
env.execute("side-by-side two keyed stages")

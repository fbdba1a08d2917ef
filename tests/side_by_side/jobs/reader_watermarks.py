"""Watermarks per source reader: event-time windows over a Kafka topic read with a chosen parallelism.

With ``assigner``, assign_timestamps_and_watermarks generates one watermark per reader from everything the
reader reads (a reader of a fast and a slow partition follows the fast one); with ``source``, the
watermark strategy given to from_source generates one per partition from the Kafka record timestamps (as in
PyFlink, a Python TimestampAssigner given there is not used) and a reader holds the minimum.
Every record read is printed, then key "a"'s windows (whether a record of another key is late depends on
timing). With a parallelism above the partition count, a reader without partitions holds the watermark
back: no window fires unless the strategy sets idleness.

Usage: reader_watermarks.py BOOTSTRAP INPUT_TOPIC PARALLELISM assigner|source IDLE_MS
"""
import sys

from pyflink.common import Duration, SimpleStringSchema, Time, Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.kafka import KafkaOffsetsInitializer, KafkaSource
from pyflink.datastream.window import TumblingEventTimeWindows

brokers, topic, parallelism, mode, idle_ms = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], int(sys.argv[5])


class FromValue(TimestampAssigner):

    def extract_timestamp(self, value, record_timestamp):
        return int(value.split(",")[1])


strategy = WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_millis(0)).with_timestamp_assigner(FromValue())
if idle_ms:
    strategy = strategy.with_idleness(Duration.of_millis(idle_ms))
env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(parallelism)
source = (KafkaSource.builder().set_bootstrap_servers(brokers).set_topics(topic)
          .set_group_id("side-by-side-reader-watermarks")
          .set_starting_offsets(KafkaOffsetsInitializer.earliest())
          .set_value_only_deserializer(SimpleStringSchema()).build())
if mode == "source":
    read = env.from_source(source, strategy, "input")
else:
    read = env.from_source(source, WatermarkStrategy.no_watermarks(), "input").assign_timestamps_and_watermarks(
        strategy)
read.print()
(read.map(lambda v: (v.split(",")[0], int(v.split(",")[1]) // 10000 * 10000, 1),
          output_type=Types.TUPLE([Types.STRING(), Types.LONG(), Types.INT()]))
     .key_by(lambda t: t[0])
     .window(TumblingEventTimeWindows.of(Time.seconds(10)))
     .reduce(lambda x, y: (x[0], x[1], x[2] + y[2]))
     .filter(lambda t: t[0] == "a")
     .print())
env.execute("side-by-side reader watermarks")

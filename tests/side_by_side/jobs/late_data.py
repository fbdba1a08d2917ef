"""Late data on an unbounded Kafka stream: a tumbling event-time window with allowed lateness and a late-data
side output. The first records ("key,epoch_ms,amount") move the watermark past the first window, which fires;
records produced after that first output are late for their (already cleaned up) windows and go to the side
output; others wait in an open window (the job is stopped before it fires).

With OUTPUT_TOPIC, the window results and the late records also go to Kafka: four sinks read the one window
(its results and its late-data side output), which must agree about what was late.

Usage: late_data.py BOOTSTRAP INPUT_TOPIC [OUTPUT_TOPIC]
"""
import sys

from pyflink.common import Time, Types, WatermarkStrategy
from pyflink.common.serialization import SimpleStringSchema
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import OutputTag, StreamExecutionEnvironment
from pyflink.datastream.connectors.base import DeliveryGuarantee
from pyflink.datastream.connectors.kafka import (KafkaOffsetsInitializer, KafkaRecordSerializationSchema,
                                                 KafkaSink, KafkaSource)
from pyflink.datastream.window import TumblingEventTimeWindows

brokers, input_topic = sys.argv[1:3]
output_topic = sys.argv[3] if len(sys.argv) > 3 else None
EVENT = Types.TUPLE([Types.STRING(), Types.LONG(), Types.INT()])
# The tag gets its own type object: PyFlink cannot pickle a window whose late-data tag holds a type already
# handed to Java (here EVENT, used by map()): "cannot pickle '_thread.RLock' object".
LATE = OutputTag("late", Types.TUPLE([Types.STRING(), Types.LONG(), Types.INT()]))


class FromRecord(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[1]


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
source = (KafkaSource.builder().set_bootstrap_servers(brokers).set_topics(input_topic)
          .set_group_id("side-by-side-late-data")
          .set_starting_offsets(KafkaOffsetsInitializer.earliest())
          .set_value_only_deserializer(SimpleStringSchema()).build())
events = env.from_source(source, WatermarkStrategy.no_watermarks(), "events") \
    .map(lambda line: (line.split(",")[0], int(line.split(",")[1]), int(line.split(",")[2])), output_type=EVENT) \
    .assign_timestamps_and_watermarks(WatermarkStrategy.for_monotonous_timestamps()
                                      .with_timestamp_assigner(FromRecord()))
sums = events.key_by(lambda e: e[0], key_type=Types.STRING()) \
    .window(TumblingEventTimeWindows.of(Time.seconds(10))) \
    .allowed_lateness(2000) \
    .side_output_late_data(LATE) \
    .reduce(lambda a, b: (a[0], max(a[1], b[1]), a[2] + b[2]))
sums.print("window")
late = sums.get_side_output(LATE).map(lambda e: "late %s" % (e,), output_type=Types.STRING())
late.print("late")
if output_topic:
    def kafka_sink():
        return (KafkaSink.builder().set_bootstrap_servers(brokers)
                .set_record_serializer(KafkaRecordSerializationSchema.builder().set_topic(output_topic)
                                       .set_value_serialization_schema(SimpleStringSchema()).build())
                .set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE).build())
    sums.map(lambda e: "window %s" % (e,), output_type=Types.STRING()).sink_to(kafka_sink())
    late.sink_to(kafka_sink())
env.execute("side-by-side late data")

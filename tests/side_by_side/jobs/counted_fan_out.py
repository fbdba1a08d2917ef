"""One source, many consumers: a map that numbers its calls feeds print(), a Kafka sink, a process function
whose side output goes to a second Kafka sink, and an event-time window with allowed lateness whose results and
late-data side output are printed. Each element is numbered once, whatever reads it, and the numbers go on
from one batch of input to the next (the map's instance attribute lives as long as the job). The late records
come after the window fired.

Lines are "key,epoch_ms,amount"; amounts of 100 and more go to the side output.

Usage: counted_fan_out.py BOOTSTRAP INPUT_TOPIC ALL_TOPIC BIG_TOPIC
"""
import sys

from pyflink.common import Time, Types, WatermarkStrategy
from pyflink.common.serialization import SimpleStringSchema
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import OutputTag, StreamExecutionEnvironment
from pyflink.datastream.connectors.base import DeliveryGuarantee
from pyflink.datastream.connectors.kafka import (KafkaOffsetsInitializer, KafkaRecordSerializationSchema,
                                                 KafkaSink, KafkaSource)
from pyflink.datastream.functions import MapFunction, ProcessFunction
from pyflink.datastream.window import TumblingEventTimeWindows

brokers, input_topic, all_topic, big_topic = sys.argv[1:5]
EVENT = Types.TUPLE([Types.STRING(), Types.LONG(), Types.INT(), Types.INT()])
BIG = OutputTag("big", Types.STRING())
LATE = OutputTag("late", Types.TUPLE([Types.STRING(), Types.LONG(), Types.INT(), Types.INT()]))


class NumberCalls(MapFunction):
    def open(self, runtime_context):
        self.calls = 0

    def map(self, line):
        self.calls += 1
        key, timestamp, amount = line.split(",")
        return key, int(timestamp), int(amount), self.calls


class SplitBig(ProcessFunction):
    def process_element(self, value, ctx):
        if value[2] >= 100:
            yield BIG, "big %s #%d" % (value[0], value[3])
        else:
            yield value


class FromRecord(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[1]


def kafka_sink(topic):
    return (KafkaSink.builder().set_bootstrap_servers(brokers)
            .set_record_serializer(KafkaRecordSerializationSchema.builder().set_topic(topic)
                                   .set_value_serialization_schema(SimpleStringSchema()).build())
            .set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE).build())


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
source = (KafkaSource.builder().set_bootstrap_servers(brokers).set_topics(input_topic)
          .set_group_id("side-by-side-counted-fan-out")
          .set_starting_offsets(KafkaOffsetsInitializer.earliest())
          .set_value_only_deserializer(SimpleStringSchema()).build())
numbered = env.from_source(source, WatermarkStrategy.no_watermarks(), "lines").map(NumberCalls(), output_type=EVENT)
numbered.print("numbered")
numbered.map(lambda e: "%s,%d,%d,#%d" % e, output_type=Types.STRING()).sink_to(kafka_sink(all_topic))
small = numbered.process(SplitBig(), output_type=EVENT)
small.get_side_output(BIG).sink_to(kafka_sink(big_topic))
sums = small.assign_timestamps_and_watermarks(WatermarkStrategy.for_monotonous_timestamps()
                                              .with_timestamp_assigner(FromRecord())) \
    .key_by(lambda e: e[0], key_type=Types.STRING()) \
    .window(TumblingEventTimeWindows.of(Time.seconds(10))) \
    .allowed_lateness(2000) \
    .side_output_late_data(LATE) \
    .reduce(lambda a, b: (a[0], max(a[1], b[1]), a[2] + b[2], max(a[3], b[3])))
sums.print("window")
sums.get_side_output(LATE).print("late")
env.execute("side-by-side counted fan-out")

"""Rolling aggregations on a keyed stream from Kafka: reduce, sum, min_by, a keyed map and filter, and a
KeyedProcessFunction with ValueState; one output per input element, printed and written to Kafka.

Usage: keyed_rolling.py BOOTSTRAP INPUT_TOPIC OUTPUT_TOPIC   (input records: "key,amount")
"""
import sys

from pyflink.common import Types, WatermarkStrategy
from pyflink.common.serialization import SimpleStringSchema
from pyflink.datastream import KeyedProcessFunction, StreamExecutionEnvironment
from pyflink.datastream.connectors.base import DeliveryGuarantee
from pyflink.datastream.connectors.kafka import (KafkaOffsetsInitializer, KafkaRecordSerializationSchema,
                                                 KafkaSink, KafkaSource)
from pyflink.datastream.state import ValueStateDescriptor

brokers, input_topic, output_topic = sys.argv[1:4]
PAIR = Types.TUPLE([Types.STRING(), Types.INT()])


class Running(KeyedProcessFunction):
    def open(self, runtime_context):
        self.total = runtime_context.get_state(ValueStateDescriptor("total", Types.LONG()))

    def process_element(self, value, ctx):
        total = (self.total.value() or 0) + value[1]
        self.total.update(total)
        yield "%s total=%d ts=%d" % (ctx.get_current_key(), total, ctx.timestamp())


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(2)
source = (KafkaSource.builder().set_bootstrap_servers(brokers).set_topics(input_topic)
          .set_group_id("side-by-side-keyed-rolling")
          .set_starting_offsets(KafkaOffsetsInitializer.earliest())
          .set_bounded(KafkaOffsetsInitializer.latest())
          .set_value_only_deserializer(SimpleStringSchema()).build())
pairs = env.from_source(source, WatermarkStrategy.no_watermarks(), "pairs") \
    .map(lambda line: (line.split(",")[0], int(line.split(",")[1])), output_type=PAIR)
keyed = pairs.key_by(lambda p: p[0], key_type=Types.STRING())
keyed.reduce(lambda a, b: (a[0], a[1] * 10 + b[1])).print("reduce")
keyed.sum(1).print("sum")
keyed.min_by(1).print("min_by")
keyed.filter(lambda p: p[1] % 2 == 0).print("even")
keyed.process(Running(), output_type=Types.STRING()).sink_to(
    KafkaSink.builder().set_bootstrap_servers(brokers)
    .set_record_serializer(KafkaRecordSerializationSchema.builder().set_topic(output_topic)
                           .set_value_serialization_schema(SimpleStringSchema()).build())
    .set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE).build())
env.execute("side-by-side keyed rolling")

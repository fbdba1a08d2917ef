"""Two topics of different types connected and mapped to one type by a CoMapFunction, and by a
CoFlatMapFunction counting per input in a Python attribute (each parallel instance sees its readers).

Usage: connect_comap.py BOOTSTRAP WORDS_TOPIC NUMBERS_TOPIC OUT_TOPIC
"""
import sys

from pyflink.common import SimpleStringSchema, Types, WatermarkStrategy
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.base import DeliveryGuarantee
from pyflink.datastream.connectors.kafka import (KafkaOffsetsInitializer, KafkaRecordSerializationSchema,
                                                 KafkaSink, KafkaSource)
from pyflink.datastream.functions import CoFlatMapFunction, CoMapFunction

brokers, words_topic, numbers_topic, out_topic = sys.argv[1:5]


def source(topic):
    return (KafkaSource.builder().set_bootstrap_servers(brokers).set_topics(topic)
            .set_group_id("side-by-side-connect").set_starting_offsets(KafkaOffsetsInitializer.earliest())
            .set_bounded(KafkaOffsetsInitializer.latest())
            .set_value_only_deserializer(SimpleStringSchema()).build())


class Describe(CoMapFunction):
    def map1(self, value):
        return "word %s (%d letters)" % (value, len(value))

    def map2(self, value):
        if value == 0:
            return None                      # PyFlink drops a None result of a CoMapFunction
        return "number %d squared %d" % (value, value * value)


class CountPerInput(CoFlatMapFunction):
    def open(self, runtime_context):
        self.counts = [0, 0]

    def flat_map1(self, value):
        self.counts[0] += 1
        yield "w%d:%s" % (self.counts[0], value)

    def flat_map2(self, value):
        self.counts[1] += 1
        for _ in range(value % 3):
            yield "n%d:%d" % (self.counts[1], value)


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(2)
words = env.from_source(source(words_topic), WatermarkStrategy.no_watermarks(), "words")
numbers = env.from_source(source(numbers_topic), WatermarkStrategy.no_watermarks(), "numbers") \
    .map(int, output_type=Types.INT())
described = words.connect(numbers).map(Describe(), output_type=Types.STRING())
described.print("comap")
described.sink_to(KafkaSink.builder().set_bootstrap_servers(brokers)
                  .set_record_serializer(KafkaRecordSerializationSchema.builder().set_topic(out_topic)
                                         .set_value_serialization_schema(SimpleStringSchema()).build())
                  .set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE).build())
words.connect(numbers).flat_map(CountPerInput(), output_type=Types.STRING()).print("coflatmap")
env.execute("side-by-side connect")

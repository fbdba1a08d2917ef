"""Operators with their own parallelism (set_parallelism) in a job of parallelism 2: a keyed process function at 3
subtasks, then a second key_by into one at the job's 2; and partition_custom into a map at 3 (its partitioner is
asked for one of 3 partitions). Every output names the subtask that made it, as its RuntimeContext says.

Usage: stage_parallelism.py BOOTSTRAP INPUT_TOPIC KEYED_TOPIC CUSTOM_TOPIC
"""
import sys

from pyflink.common import SimpleStringSchema, Types, WatermarkStrategy
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.base import DeliveryGuarantee
from pyflink.datastream.connectors.kafka import (KafkaOffsetsInitializer, KafkaRecordSerializationSchema,
                                                 KafkaSink, KafkaSource)
from pyflink.datastream.functions import KeyedProcessFunction, MapFunction, Partitioner

brokers, input_topic, keyed_topic, custom_topic = sys.argv[1:5]
PAIR = Types.TUPLE([Types.STRING(), Types.INT()])


def kafka_sink(topic):
    return (KafkaSink.builder().set_bootstrap_servers(brokers)
            .set_record_serializer(KafkaRecordSerializationSchema.builder().set_topic(topic)
                                   .set_value_serialization_schema(SimpleStringSchema()).build())
            .set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE).build())


def where(runtime_context):
    return "%d/%d" % (runtime_context.get_index_of_this_subtask(), runtime_context.get_number_of_parallel_subtasks())


class Tag(KeyedProcessFunction):
    def open(self, runtime_context):
        self.where = where(runtime_context)

    def process_element(self, value, ctx):
        yield value[0] + "@" + self.where, value[1]


class TagAgain(KeyedProcessFunction):
    def open(self, runtime_context):
        self.where = where(runtime_context)

    def process_element(self, value, ctx):
        yield "%s %d @%s" % (value[0], value[1], self.where)


class ByAmount(Partitioner):
    def partition(self, key, num_partitions):
        return key % num_partitions


class TagMap(MapFunction):
    def open(self, runtime_context):
        self.where = where(runtime_context)

    def map(self, value):
        return "%s %d @%s" % (value[0], value[1], self.where)


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(2)
source = (KafkaSource.builder().set_bootstrap_servers(brokers).set_topics(input_topic)
          .set_group_id("side-by-side-stage-parallelism")
          .set_starting_offsets(KafkaOffsetsInitializer.earliest())
          .set_bounded(KafkaOffsetsInitializer.latest())
          .set_value_only_deserializer(SimpleStringSchema()).build())
pairs = env.from_source(source, WatermarkStrategy.no_watermarks(), "pairs") \
    .map(lambda line: (line.split(",")[0], int(line.split(",")[1])), output_type=PAIR)
pairs.key_by(lambda p: p[0], key_type=Types.STRING()) \
    .process(Tag(), output_type=PAIR).set_parallelism(3) \
    .key_by(lambda p: p[0], key_type=Types.STRING()) \
    .process(TagAgain(), output_type=Types.STRING()) \
    .sink_to(kafka_sink(keyed_topic))
pairs.partition_custom(ByAmount(), lambda p: p[1]) \
    .map(TagMap(), output_type=Types.STRING()).set_parallelism(3) \
    .sink_to(kafka_sink(custom_topic))
env.execute("side-by-side stage parallelism")

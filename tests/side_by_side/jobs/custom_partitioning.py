"""partition_custom, project and cache: each element printed by the parallel instance its partitioner picks,
also after a keyed rolling sum; projected tuples to Kafka, and a cached stream.

Usage: custom_partitioning.py BOOTSTRAP INPUT_TOPIC OUTPUT_TOPIC CACHED_TOPIC
"""
import sys

from pyflink.common import SimpleStringSchema, Types, WatermarkStrategy
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.base import DeliveryGuarantee
from pyflink.datastream.connectors.kafka import (KafkaOffsetsInitializer, KafkaRecordSerializationSchema,
                                                 KafkaSink, KafkaSource)
from pyflink.datastream.functions import MapFunction, Partitioner, RuntimeContext

brokers, input_topic, output_topic, cached_topic = sys.argv[1:5]


def kafka_sink(topic):
    return (KafkaSink.builder().set_bootstrap_servers(brokers)
            .set_record_serializer(KafkaRecordSerializationSchema.builder().set_topic(topic)
                                   .set_value_serialization_schema(SimpleStringSchema()).build())
            .set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE).build())


class ByAmount(Partitioner):
    def partition(self, key, num_partitions):
        return key % num_partitions


class Tagged(MapFunction):
    def open(self, runtime_context: RuntimeContext):
        self.where = "%d/%d" % (runtime_context.get_index_of_this_subtask(),
                                runtime_context.get_number_of_parallel_subtasks())

    def map(self, value):
        return "%s %d @%s" % (value[1], value[0], self.where)


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(3)
source = (KafkaSource.builder().set_bootstrap_servers(brokers).set_topics(input_topic)
          .set_group_id("side-by-side-custom-partitioning")
          .set_starting_offsets(KafkaOffsetsInitializer.earliest())
          .set_bounded(KafkaOffsetsInitializer.latest())
          .set_value_only_deserializer(SimpleStringSchema()).build())
lines = env.from_source(source, WatermarkStrategy.no_watermarks(), "orders")
orders = lines.map(lambda line: (line.split(",")[0], int(line.split(",")[1]), line),
                   output_type=Types.TUPLE([Types.STRING(), Types.INT(), Types.STRING()]))
projected = orders.project(1, 0)                          # (amount, name)
routed = projected.partition_custom(ByAmount(), lambda t: t[0])
routed.map(Tagged(), output_type=Types.STRING()).print()
routed.map(lambda t: "%s=%d" % (t[1], t[0]), output_type=Types.STRING()).sink_to(kafka_sink(output_topic))
# after a keyed operation: the running sums of a name (all of its records in one input partition) go to the
# instance the name's length picks
orders.key_by(lambda t: t[0]).reduce(lambda a, b: (a[0], a[1] + b[1], b[2])) \
    .partition_custom(lambda name, n: len(name) % n, lambda t: t[0]) \
    .map(lambda t: "sum %s %d" % (t[0], t[1]), output_type=Types.STRING()).print()
projected.cache().map(lambda t: "cached %s" % t[1].upper(), output_type=Types.STRING()).sink_to(
    kafka_sink(cached_topic))
env.execute("side-by-side custom partitioning")

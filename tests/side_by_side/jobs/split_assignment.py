"""Which parallel source instance reads each Kafka partition (Flink's split assignment), as a map function's
RuntimeContext and print()'s "N>" prefix show it: one source per input topic, so that with topics of
different partition counts the parallelism is below, equal to and above the number of partitions.

Usage: split_assignment.py BOOTSTRAP PARALLELISM OUTPUT_TOPIC INPUT_TOPIC...
"""
import sys

from pyflink.common import SimpleStringSchema, Types, WatermarkStrategy
from pyflink.datastream import MapFunction, RuntimeContext, StreamExecutionEnvironment
from pyflink.datastream.connectors.base import DeliveryGuarantee
from pyflink.datastream.connectors.kafka import (KafkaOffsetsInitializer, KafkaRecordSerializationSchema,
                                                 KafkaSink, KafkaSource)

brokers, parallelism, output_topic, input_topics = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4:]


class ReadBy(MapFunction):

    def open(self, runtime_context: RuntimeContext):
        self.index = runtime_context.get_index_of_this_subtask()
        self.parallelism = runtime_context.get_number_of_parallel_subtasks()

    def map(self, value):
        return "%s read by %d of %d" % (value, self.index, self.parallelism)


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(parallelism)
sink = (KafkaSink.builder().set_bootstrap_servers(brokers)
        .set_record_serializer(KafkaRecordSerializationSchema.builder().set_topic(output_topic)
                               .set_value_serialization_schema(SimpleStringSchema()).build())
        .set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE).build())
for number, topic in enumerate(input_topics):
    source = (KafkaSource.builder().set_bootstrap_servers(brokers).set_topics(topic)
              .set_group_id("side-by-side-split-assignment")
              .set_starting_offsets(KafkaOffsetsInitializer.earliest())
              .set_bounded(KafkaOffsetsInitializer.latest())
              .set_value_only_deserializer(SimpleStringSchema()).build())
    read = env.from_source(source, WatermarkStrategy.no_watermarks(), "input %d" % number)
    read.print()
    read.map(ReadBy(), output_type=Types.STRING()).sink_to(sink)
env.execute("side-by-side split assignment")

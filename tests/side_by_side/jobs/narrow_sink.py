"""A map at the job's parallelism (2) before a Kafka sink of parallelism 1: the map still runs as two parallel
instances, each reading the partitions Flink's split assignment gives its source instance, as the map's
RuntimeContext shows.

Usage: narrow_sink.py BOOTSTRAP INPUT_TOPIC OUTPUT_TOPIC
"""
import sys

from pyflink.common import SimpleStringSchema, Types, WatermarkStrategy
from pyflink.datastream import MapFunction, RuntimeContext, StreamExecutionEnvironment
from pyflink.datastream.connectors.base import DeliveryGuarantee
from pyflink.datastream.connectors.kafka import (KafkaOffsetsInitializer, KafkaRecordSerializationSchema,
                                                 KafkaSink, KafkaSource)

brokers, input_topic, output_topic = sys.argv[1:4]


class ReadBy(MapFunction):

    def open(self, runtime_context: RuntimeContext):
        self.index = runtime_context.get_index_of_this_subtask()
        self.parallelism = runtime_context.get_number_of_parallel_subtasks()

    def map(self, value):
        return "%s mapped by %d of %d" % (value, self.index, self.parallelism)


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(2)
source = (KafkaSource.builder().set_bootstrap_servers(brokers).set_topics(input_topic)
          .set_group_id("side-by-side-narrow-sink")
          .set_starting_offsets(KafkaOffsetsInitializer.earliest())
          .set_bounded(KafkaOffsetsInitializer.latest())
          .set_value_only_deserializer(SimpleStringSchema()).build())
sink = (KafkaSink.builder().set_bootstrap_servers(brokers)
        .set_record_serializer(KafkaRecordSerializationSchema.builder().set_topic(output_topic)
                               .set_value_serialization_schema(SimpleStringSchema()).build())
        .set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE).build())
(env.from_source(source, WatermarkStrategy.no_watermarks(), "input")
 .map(ReadBy(), output_type=Types.STRING())
 .sink_to(sink).set_parallelism(1))
env.execute("side-by-side narrow sink")

"""Two topics with different record formats, mapped to one type and merged with union: printed and written to
Kafka, and a stream merged with itself (its elements twice).

Usage: union.py BOOTSTRAP CSV_TOPIC JSON_TOPIC OUT_TOPIC   (CSV records "name,amount"; JSON {"who":..,"n":..})
"""
import json
import sys

from pyflink.common import SimpleStringSchema, Types, WatermarkStrategy
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.base import DeliveryGuarantee
from pyflink.datastream.connectors.kafka import (KafkaOffsetsInitializer, KafkaRecordSerializationSchema,
                                                 KafkaSink, KafkaSource)

brokers, csv_topic, json_topic, out_topic = sys.argv[1:5]
PAIR = Types.TUPLE([Types.STRING(), Types.INT()])


def source(topic):
    return (KafkaSource.builder().set_bootstrap_servers(brokers).set_topics(topic)
            .set_group_id("side-by-side-union").set_starting_offsets(KafkaOffsetsInitializer.earliest())
            .set_bounded(KafkaOffsetsInitializer.latest())
            .set_value_only_deserializer(SimpleStringSchema()).build())


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
from_csv = env.from_source(source(csv_topic), WatermarkStrategy.no_watermarks(), "csv") \
    .map(lambda line: (line.split(",")[0], int(line.split(",")[1])), output_type=PAIR)
from_json = env.from_source(source(json_topic), WatermarkStrategy.no_watermarks(), "json") \
    .map(lambda text: (json.loads(text)["who"], json.loads(text)["n"]), output_type=PAIR)
merged = from_csv.union(from_json).map(lambda p: "%s:%d" % (p[0], p[1] * 10), output_type=Types.STRING())
merged.print("merged")
merged.sink_to(KafkaSink.builder().set_bootstrap_servers(brokers)
               .set_record_serializer(KafkaRecordSerializationSchema.builder().set_topic(out_topic)
                                      .set_value_serialization_schema(SimpleStringSchema()).build())
               .set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE).build())
from_json.union(from_json).filter(lambda p: p[1] > 2).print("twice")
env.execute("side-by-side union")

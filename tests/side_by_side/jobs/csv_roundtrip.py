"""Kafka CSV -> filter on a field -> map (new Row) -> Kafka CSV, with the CSV row schemas' options.

Usage: csv_roundtrip.py BOOTSTRAP INPUT_TOPIC OUTPUT_TOPIC MODE
MODE: "default" (default options, every supported type), "options" (every builder option changed),
"ignore-errors" (malformed records with set_ignore_parse_errors(True)), "simple" (simple types, many records).
"""
import sys

from pyflink.common import Row, Types, WatermarkStrategy
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.base import DeliveryGuarantee
from pyflink.datastream.connectors.kafka import (KafkaOffsetsInitializer, KafkaRecordSerializationSchema,
                                                 KafkaSink, KafkaSource)
from pyflink.datastream.formats.csv import CsvRowDeserializationSchema, CsvRowSerializationSchema

brokers, input_topic, output_topic, mode = sys.argv[1:5]

if mode == "default":
    ROW = Types.ROW_NAMED(
        ["name", "qty", "price", "ok", "tags", "big", "day", "ts", "pair", "raw", "ratio", "count"],
        [Types.STRING(), Types.INT(), Types.DOUBLE(), Types.BOOLEAN(), Types.BASIC_ARRAY(Types.STRING()),
         Types.BIG_DEC(), Types.SQL_DATE(), Types.SQL_TIMESTAMP(), Types.ROW([Types.INT(), Types.STRING()]),
         Types.PRIMITIVE_ARRAY(Types.BYTE()), Types.FLOAT(), Types.LONG()])
    deserializer = CsvRowDeserializationSchema.Builder(ROW).build()
    serializer = CsvRowSerializationSchema.Builder(ROW).build()
elif mode == "simple":
    # only STRING, integer, DOUBLE and BOOLEAN fields: pyflink-compat decodes whole batches vectorised
    ROW = Types.ROW_NAMED(["name", "qty", "total", "price", "ok"],
                          [Types.STRING(), Types.INT(), Types.LONG(), Types.DOUBLE(), Types.BOOLEAN()])
    deserializer = CsvRowDeserializationSchema.Builder(ROW).set_null_literal("NA").build()
    serializer = CsvRowSerializationSchema.Builder(ROW).set_null_literal("NA").build()
else:
    ROW = Types.ROW_NAMED(["name", "qty", "price", "ok", "tags"],
                          [Types.STRING(), Types.INT(), Types.DOUBLE(), Types.BOOLEAN(),
                           Types.BASIC_ARRAY(Types.INT())])
    if mode == "options":
        deserializer = (CsvRowDeserializationSchema.Builder(ROW).set_field_delimiter(";")
                        .set_quote_character("'").set_escape_character("\\").set_null_literal("NULL")
                        .set_allow_comments(True).set_array_element_delimiter("|").build())
        serializer = (CsvRowSerializationSchema.Builder(ROW).set_field_delimiter("\t")
                      .set_line_delimiter("\r\n").set_quote_character("'").set_escape_character("\\")
                      .set_null_literal("NULL").set_array_element_delimiter("/").build())
    else:
        deserializer = (CsvRowDeserializationSchema.Builder(ROW).set_null_literal("null")
                        .set_ignore_parse_errors(True).build())
        serializer = (CsvRowSerializationSchema.Builder(ROW).disable_quote_character().set_null_literal("-")
                      .set_line_delimiter("").build())


def transform(row):
    values = list(row)
    values[0] = None if values[0] is None else values[0] + "!"
    values[1] = None if values[1] is None else values[1] * 2
    return Row(*values)


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
source = (KafkaSource.builder().set_bootstrap_servers(brokers).set_topics(input_topic)
          .set_group_id("side-by-side-csv")
          .set_starting_offsets(KafkaOffsetsInitializer.earliest())
          .set_bounded(KafkaOffsetsInitializer.latest())
          .set_value_only_deserializer(deserializer).build())
rows = env.from_source(source, WatermarkStrategy.no_watermarks(), "csv in")
rows.filter(lambda r: r[1] is None or r[1] != 0).map(transform, output_type=ROW) \
    .sink_to(KafkaSink.builder().set_bootstrap_servers(brokers)
             .set_record_serializer(KafkaRecordSerializationSchema.builder().set_topic(output_topic)
                                    .set_value_serialization_schema(serializer).build())
             .set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE).build())
env.execute("side-by-side csv " + mode)

"""Kafka CSV -> filter on a field -> map (new Row) -> Kafka CSV, with the CSV row schemas' options: one pipeline
per MODE, all in one job.

Usage: csv_roundtrip.py BOOTSTRAP MODE INPUT_TOPIC OUTPUT_TOPIC [MODE INPUT_TOPIC OUTPUT_TOPIC ...]
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


def schemas(mode):
    """(row type, deserializer, serializer) of a mode."""
    if mode == "default":
        row_type = Types.ROW_NAMED(
            ["name", "qty", "price", "ok", "tags", "big", "day", "ts", "pair", "raw", "ratio", "count"],
            [Types.STRING(), Types.INT(), Types.DOUBLE(), Types.BOOLEAN(), Types.BASIC_ARRAY(Types.STRING()),
             Types.BIG_DEC(), Types.SQL_DATE(), Types.SQL_TIMESTAMP(), Types.ROW([Types.INT(), Types.STRING()]),
             Types.PRIMITIVE_ARRAY(Types.BYTE()), Types.FLOAT(), Types.LONG()])
        deserializer = CsvRowDeserializationSchema.Builder(row_type).build()
        serializer = CsvRowSerializationSchema.Builder(row_type).build()
    elif mode == "simple":
        # only STRING, integer, DOUBLE and BOOLEAN fields: pyflink-compat decodes whole batches vectorised
        row_type = Types.ROW_NAMED(["name", "qty", "total", "price", "ok"],
                              [Types.STRING(), Types.INT(), Types.LONG(), Types.DOUBLE(), Types.BOOLEAN()])
        deserializer = CsvRowDeserializationSchema.Builder(row_type).set_null_literal("NA").build()
        serializer = CsvRowSerializationSchema.Builder(row_type).set_null_literal("NA").build()
    else:
        row_type = Types.ROW_NAMED(["name", "qty", "price", "ok", "tags"],
                              [Types.STRING(), Types.INT(), Types.DOUBLE(), Types.BOOLEAN(),
                               Types.BASIC_ARRAY(Types.INT())])
        if mode == "options":
            deserializer = (CsvRowDeserializationSchema.Builder(row_type).set_field_delimiter(";")
                            .set_quote_character("'").set_escape_character("\\").set_null_literal("NULL")
                            .set_allow_comments(True).set_array_element_delimiter("|").build())
            serializer = (CsvRowSerializationSchema.Builder(row_type).set_field_delimiter("\t")
                          .set_line_delimiter("\r\n").set_quote_character("'").set_escape_character("\\")
                          .set_null_literal("NULL").set_array_element_delimiter("/").build())
        else:
            deserializer = (CsvRowDeserializationSchema.Builder(row_type).set_null_literal("null")
                            .set_ignore_parse_errors(True).build())
            serializer = (CsvRowSerializationSchema.Builder(row_type).disable_quote_character().set_null_literal("-")
                          .set_line_delimiter("").build())
    return row_type, deserializer, serializer


def transform(row):
    values = list(row)
    values[0] = None if values[0] is None else values[0] + "!"
    values[1] = None if values[1] is None else values[1] * 2
    return Row(*values)


brokers, specs = sys.argv[1], sys.argv[2:]
env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
for mode, input_topic, output_topic in zip(specs[0::3], specs[1::3], specs[2::3]):
    row_type, deserializer, serializer = schemas(mode)
    source = (KafkaSource.builder().set_bootstrap_servers(brokers).set_topics(input_topic)
              .set_group_id("side-by-side-csv")
              .set_starting_offsets(KafkaOffsetsInitializer.earliest())
              .set_bounded(KafkaOffsetsInitializer.latest())
              .set_value_only_deserializer(deserializer).build())
    rows = env.from_source(source, WatermarkStrategy.no_watermarks(), "csv in " + mode)
    rows.filter(lambda r: r[1] is None or r[1] != 0).map(transform, output_type=row_type) \
        .sink_to(KafkaSink.builder().set_bootstrap_servers(brokers)
                 .set_record_serializer(KafkaRecordSerializationSchema.builder().set_topic(output_topic)
                                        .set_value_serialization_schema(serializer).build())
                 .set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE).build())
env.execute("side-by-side csv " + " ".join(specs[0::3]))

"""PyFlink's formats tests that need a running job, on real Spark and the real test broker (one small job each).

Ported from flink-python's ``datastream/formats/tests/test_json.py`` (records deserialized and serialized
again), ``test_csv.py`` (rows written with every CSV option and read back) and ``connectors/tests/test_kafka.py``
(a topic selector with a JSON value schema), plus test_avro.py's write tests through a Kafka sink. Expected
bytes as measured on PyFlink 2.3.0 (tests/unit/test_pyflink_behaviours_formats.py has the schema-level cases).
"""
import io
import json

import fastavro
import pytest

from kafka_helpers import consume, create_topic, produce, unique_topic
from pyflink_compat.common import Row, Types, WatermarkStrategy
from pyflink_compat.datastream import StreamExecutionEnvironment
from pyflink_compat.datastream.connectors.base import DeliveryGuarantee
from pyflink_compat.datastream.connectors.kafka import (KafkaOffsetsInitializer, KafkaRecordSerializationSchema,
                                                        KafkaSink, KafkaSource)
from pyflink_compat.datastream.formats.avro import AvroRowSerializationSchema
from pyflink_compat.datastream.formats.csv import CsvRowDeserializationSchema, CsvRowSerializationSchema
from pyflink_compat.datastream.formats.json import JsonRowDeserializationSchema, JsonRowSerializationSchema

pytestmark = pytest.mark.integration


def _sink(bootstrap, record_serializer):
    return (KafkaSink.builder().set_bootstrap_servers(bootstrap).set_record_serializer(record_serializer)
            .set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE).build())


def _bounded_source(bootstrap, topic, deserializer):
    return (KafkaSource.builder().set_bootstrap_servers(bootstrap).set_topics(topic)
            .set_starting_offsets(KafkaOffsetsInitializer.earliest())
            .set_bounded(KafkaOffsetsInitializer.latest())
            .set_value_only_deserializer(deserializer).build())


def test_json_records_deserialized_and_serialized_again(spark, bootstrap):
    # test_json.py: missing fields become null, the nested row and int array are kept, output is compact
    row_type = Types.ROW_NAMED(["svt", "ops", "ids"], [Types.STRING(), Types.ROW_NAMED(["id"], [Types.STRING()]),
                                                       Types.PRIMITIVE_ARRAY(Types.INT())])
    svt, ops_id = "2020-02-24T12:58:09.209+0800", "281708d0-4092-4c21-9233-931950b6eccf"
    src, out = create_topic(bootstrap, unique_topic("fb-json-in")), create_topic(bootstrap, unique_topic("fb-json"))
    produce(bootstrap, src, [('{"svt":"%s"}' % svt).encode(),
                             ('{"svt":"%s", "ops":{"id":"%s"},"ids":[1, 2, 3]}' % (svt, ops_id)).encode(),
                             ('{"svt":"%s"}' % svt).encode()])
    env = StreamExecutionEnvironment.get_execution_environment()
    env.from_source(_bounded_source(bootstrap, src, JsonRowDeserializationSchema.builder().type_info(row_type)
                                    .build()), WatermarkStrategy.no_watermarks(), "json source") \
        .sink_to(_sink(bootstrap, KafkaRecordSerializationSchema.builder().set_topic(out)
                       .set_value_serialization_schema(JsonRowSerializationSchema.builder()
                                                       .with_type_info(row_type).build()).build()))
    env.execute("json round trip")
    assert [r.value for r in consume(bootstrap, out, 3)] == [
        ('{"svt":"%s","ops":null,"ids":null}' % svt).encode(),
        ('{"svt":"%s","ops":{"id":"%s"},"ids":[1,2,3]}' % (svt, ops_id)).encode(),
        ('{"svt":"%s","ops":null,"ids":null}' % svt).encode()]


def test_topic_selector_with_a_json_value_schema(spark, bootstrap):
    # test_kafka.py: rows routed by their first field, values written as {"f0":...}, no key
    topic_a, topic_b, dead = (create_topic(bootstrap, unique_topic(p)) for p in ("fb-a", "fb-b", "fb-dead"))
    row_type = Types.ROW([Types.STRING()])

    def select(row):
        return {"a": topic_a, "b": topic_b}.get(row[0], dead)

    env = StreamExecutionEnvironment.get_execution_environment()
    env.from_collection([Row("a"), Row("b"), Row("c"), Row("d")], type_info=row_type) \
        .sink_to(_sink(bootstrap, KafkaRecordSerializationSchema.builder().set_topic_selector(select)
                       .set_value_serialization_schema(JsonRowSerializationSchema.builder()
                                                       .with_type_info(row_type).build()).build()))
    env.execute("topic selector")
    assert [(r.key, r.value) for r in consume(bootstrap, topic_a, 1)] == [(None, b'{"f0":"a"}')]
    assert [(r.key, r.value) for r in consume(bootstrap, topic_b, 1)] == [(None, b'{"f0":"b"}')]
    assert sorted(r.value for r in consume(bootstrap, dead, 2)) == [b'{"f0":"c"}', b'{"f0":"d"}']


def _csv_options(builder):
    return builder.set_escape_character("*").set_quote_character("'").set_array_element_delimiter(":") \
        .set_field_delimiter(";")


def test_csv_rows_with_every_option_read_and_written_back(spark, bootstrap):
    # test_csv.py: escape '*', quote "'", array delimiter ':', field delimiter ';'; each record read by a job
    # and written again equals its input
    row_type = Types.ROW([Types.STRING(), Types.STRING(), Types.INT(), Types.ROW([Types.STRING(), Types.STRING()]),
                          Types.STRING()])
    records = [b"BEGIN;'123''4**';12;'1:hello';END\n", b"BEGIN;'a;b''c';-3;'1:hello world';END\n",
               b"BEGIN;null;0;'x:y';END\n"]
    src, out = create_topic(bootstrap, unique_topic("fb-csv-in")), create_topic(bootstrap, unique_topic("fb-csv"))
    produce(bootstrap, src, records)
    env = StreamExecutionEnvironment.get_execution_environment()
    seen = env.from_source(_bounded_source(bootstrap, src, _csv_options(CsvRowDeserializationSchema.Builder(row_type))
                                           .build()), WatermarkStrategy.no_watermarks(), "csv source")
    seen.sink_to(_sink(bootstrap, KafkaRecordSerializationSchema.builder().set_topic(out)
                       .set_value_serialization_schema(_csv_options(CsvRowSerializationSchema.Builder(row_type))
                                                       .build()).build()))
    env.execute("csv round trip")
    assert [r.value for r in consume(bootstrap, out, 3)] == records


def test_avro_rows_written_through_a_kafka_sink(spark, bootstrap):
    # test_avro.py's basic write test (every primitive type, a null field) through Kafka, read back with fastavro
    schema = {"type": "record", "name": "test", "fields": [
        {"name": "null", "type": "null"}, {"name": "boolean", "type": "boolean"}, {"name": "int", "type": "int"},
        {"name": "long", "type": "long"}, {"name": "float", "type": "float"}, {"name": "double", "type": "double"},
        {"name": "string", "type": "string"}]}
    row_type = Types.ROW_NAMED(["null", "boolean", "int", "long", "float", "double", "string"],
                               [Types.STRING(), Types.BOOLEAN(), Types.INT(), Types.LONG(), Types.FLOAT(),
                                Types.DOUBLE(), Types.STRING()])
    rows = [Row(None, True, 0, 1, 2.0, 3.0, "s1"), Row(None, False, 4, 5, 6.0, 7.0, "s2")]
    out = create_topic(bootstrap, unique_topic("fb-avro"))
    env = StreamExecutionEnvironment.get_execution_environment()
    env.from_collection(rows, type_info=row_type) \
        .sink_to(_sink(bootstrap, KafkaRecordSerializationSchema.builder().set_topic(out)
                       .set_value_serialization_schema(AvroRowSerializationSchema(
                           avro_schema_string=json.dumps(schema))).build()))
    env.execute("avro write")
    parsed = fastavro.parse_schema(schema)
    written = [fastavro.schemaless_reader(io.BytesIO(r.value), parsed) for r in consume(bootstrap, out, 2)]
    assert written == [dict(zip(row_type.get_field_names(), list(row))) for row in rows]

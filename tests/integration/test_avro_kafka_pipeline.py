"""Avro row schemas end to end on real Spark and the real test broker: Avro records in Kafka -> filter / map ->
Avro records in Kafka, compared byte for byte with an independent encoder (fastavro with its own logical-type
conversions), and a malformed record failing the job with the record's topic, partition and offset."""
import datetime
import decimal
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
from pyflink_compat.datastream.formats.avro import AvroRowDeserializationSchema, AvroRowSerializationSchema

pytestmark = pytest.mark.integration

UTC = datetime.timezone.utc

SCHEMA = json.dumps({
    "type": "record", "name": "Order", "namespace": "shop",
    "fields": [
        {"name": "id", "type": "long"},
        {"name": "customer", "type": ["null", "string"]},
        {"name": "amount", "type": {"type": "bytes", "logicalType": "decimal", "precision": 12, "scale": 2}},
        {"name": "ratio", "type": "float"},
        {"name": "score", "type": "double"},
        {"name": "paid", "type": "boolean"},
        {"name": "status", "type": {"type": "enum", "name": "Status", "symbols": ["NEW", "PAID", "SHIPPED"]}},
        {"name": "tags", "type": {"type": "array", "items": "string"}},
        {"name": "attrs", "type": {"type": "map", "values": "int"}},
        {"name": "digest", "type": {"type": "fixed", "name": "Digest", "size": 4}},
        {"name": "raw", "type": "bytes"},
        {"name": "day", "type": {"type": "int", "logicalType": "date"}},
        {"name": "at", "type": {"type": "long", "logicalType": "timestamp-millis"}},
        {"name": "at_us", "type": {"type": "long", "logicalType": "timestamp-micros"}},
        {"name": "clock", "type": {"type": "int", "logicalType": "time-millis"}},
        {"name": "address", "type": ["null", {"type": "record", "name": "Address", "fields": [
            {"name": "city", "type": "string"}, {"name": "zip", "type": ["null", "int"]}]}]},
    ]})
PARSED = fastavro.parse_schema(json.loads(SCHEMA))


def order(i):
    return {
        "id": i, "customer": None if i % 3 == 0 else "cust-%d" % i,
        "amount": decimal.Decimal("%d.%02d" % (i * 7, i % 100)) * (-1 if i % 4 == 1 else 1),
        "ratio": 0.5 * i, "score": i / 3.0, "paid": i % 2 == 0, "status": ["NEW", "PAID", "SHIPPED"][i % 3],
        "tags": ["t%d" % j for j in range(i % 3)], "attrs": {"k%d" % j: j * i for j in range(i % 2 + 1)},
        "digest": bytes([i, i + 1, i + 2, 255]), "raw": bytes(range(i % 5)),
        "day": datetime.date(2024, 1, 1) + datetime.timedelta(days=i),
        "at": datetime.datetime(2024, 5, 6, 7, 8, 9, (i * 1000) % 1000000, tzinfo=UTC),
        "at_us": datetime.datetime(1969, 12, 31, 23, 59, 59, i * 37, tzinfo=UTC),
        "clock": datetime.time(13, i % 60, 5, 123000),
        "address": None if i % 5 == 0 else {"city": "city-%d" % i, "zip": None if i % 2 else 10000 + i},
    }


def through_python(record: dict) -> dict:
    """A record after a Python function saw it: PyFlink hands SQL_TIMESTAMP values to Python at millisecond
    precision, so a timestamp-micros value loses its sub-millisecond digits (pyflink-compat does the same)."""
    record = dict(record)
    record["at_us"] = record["at_us"].replace(microsecond=record["at_us"].microsecond // 1000 * 1000)
    return record


def encode(record: dict) -> bytes:
    out = io.BytesIO()
    fastavro.schemaless_writer(out, PARSED, record)
    return out.getvalue()


def run_job(bootstrap, src, out, transform):
    env = StreamExecutionEnvironment.get_execution_environment()
    source = (KafkaSource.builder().set_bootstrap_servers(bootstrap).set_topics(src)
              .set_starting_offsets(KafkaOffsetsInitializer.earliest())
              .set_bounded(KafkaOffsetsInitializer.latest())
              .set_value_only_deserializer(AvroRowDeserializationSchema(avro_schema_string=SCHEMA)).build())
    sink = (KafkaSink.builder().set_bootstrap_servers(bootstrap)
            .set_record_serializer(KafkaRecordSerializationSchema.builder().set_topic(out)
                                   .set_value_serialization_schema(
                                       AvroRowSerializationSchema(avro_schema_string=SCHEMA)).build())
            .set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE).build())
    ds = env.from_source(source, WatermarkStrategy.no_watermarks(), "avro orders")
    transform(ds).sink_to(sink)
    env.execute("avro job")


def test_avro_filter_keeps_the_bytes_but_sub_millisecond_timestamps(spark, bootstrap):
    src, out = create_topic(bootstrap, unique_topic("avro-in")), create_topic(bootstrap, unique_topic("avro-out"))
    inputs = [encode(order(i)) for i in range(30)]
    produce(bootstrap, src, inputs)
    run_job(bootstrap, src, out, lambda ds: ds.filter(lambda row: row.paid and row.customer is not None))
    expected = [encode(through_python(order(i))) for i in range(30) if i % 2 == 0 and i % 3 != 0]
    assert [r.value for r in consume(bootstrap, out, len(expected))] == expected


def test_avro_map_writes_what_an_avro_encoder_writes(spark, bootstrap):
    src, out = create_topic(bootstrap, unique_topic("avro-in")), create_topic(bootstrap, unique_topic("avro-out"))
    produce(bootstrap, src, [encode(order(i)) for i in range(12)])
    out_type = AvroRowDeserializationSchema(avro_schema_string=SCHEMA).produced_type()

    def bump(row):
        assert isinstance(row.amount, decimal.Decimal) and isinstance(row.day, datetime.date)
        assert isinstance(row.clock, datetime.time) and isinstance(row.tags, list) and isinstance(row.attrs, dict)
        row["amount"] = row.amount * 2
        row["tags"] = row.tags + [row.status.lower()]
        row["at"] = row.at + datetime.timedelta(days=1)
        row["clock"] = row.clock.replace(hour=1)
        row["status"] = "SHIPPED"
        return row

    run_job(bootstrap, src, out, lambda ds: ds.map(bump, output_type=out_type))
    expected = []
    for i in range(12):
        record = through_python(order(i))
        record.update(amount=record["amount"] * 2, tags=record["tags"] + [record["status"].lower()],
                      at=record["at"] + datetime.timedelta(days=1), clock=record["clock"].replace(hour=1),
                      status="SHIPPED")
        expected.append(encode(record))
    assert [r.value for r in consume(bootstrap, out, 12)] == expected


def test_a_malformed_record_fails_the_job_naming_topic_partition_and_offset(spark, bootstrap):
    src, out = create_topic(bootstrap, unique_topic("avro-in")), create_topic(bootstrap, unique_topic("avro-out"))
    produce(bootstrap, src, [encode(order(1)), encode(order(2)), b"\x02\xff", encode(order(3))])
    with pytest.raises(Exception) as info:
        run_job(bootstrap, src, out, lambda ds: ds)
    text = str(info.value)
    assert "Kafka topic %s partition 0 offset 2" % src in text
    assert "Failed to deserialize Avro record." in text


def test_row_output_of_a_python_function_is_serialized_by_position(spark, bootstrap):
    schema = json.dumps({"type": "record", "name": "Out", "fields": [
        {"name": "word", "type": "string"}, {"name": "n", "type": "int"},
        {"name": "when", "type": ["null", {"type": "long", "logicalType": "timestamp-millis"}]}]})
    src, out = create_topic(bootstrap, unique_topic("avro-in")), create_topic(bootstrap, unique_topic("avro-out"))
    produce(bootstrap, src, [encode(order(i)) for i in range(4)])
    out_type = Types.ROW_NAMED(["word", "n", "when"], [Types.STRING(), Types.INT(), Types.SQL_TIMESTAMP()])
    env = StreamExecutionEnvironment.get_execution_environment()
    source = (KafkaSource.builder().set_bootstrap_servers(bootstrap).set_topics(src)
              .set_bounded(KafkaOffsetsInitializer.latest())
              .set_value_only_deserializer(AvroRowDeserializationSchema(avro_schema_string=SCHEMA)).build())
    sink = (KafkaSink.builder().set_bootstrap_servers(bootstrap)
            .set_record_serializer(KafkaRecordSerializationSchema.builder().set_topic(out)
                                   .set_value_serialization_schema(
                                       AvroRowSerializationSchema(avro_schema_string=schema)).build()).build())
    (env.from_source(source, WatermarkStrategy.no_watermarks(), "src")
        .map(lambda r: Row(r.status, len(r.tags), r.at if r.id % 2 else None), output_type=out_type)
        .sink_to(sink))
    env.execute("avro rows")
    parsed = fastavro.parse_schema(json.loads(schema))
    expected = []
    for i in range(4):
        record = order(i)
        buffer = io.BytesIO()
        fastavro.schemaless_writer(buffer, parsed, {"word": record["status"], "n": len(record["tags"]),
                                                    "when": record["at"] if i % 2 else None})
        expected.append(buffer.getvalue())
    assert [r.value for r in consume(bootstrap, out, 4)] == expected

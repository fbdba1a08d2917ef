"""JSON row schemas end to end on real Spark and the real test broker: Kafka JSON -> filter -> Kafka JSON."""
import pytest

from kafka_helpers import consume, create_topic, produce, unique_topic
from pyflink_compat.common import Types, WatermarkStrategy
from pyflink_compat.datastream import StreamExecutionEnvironment
from pyflink_compat.datastream.connectors.base import DeliveryGuarantee
from pyflink_compat.datastream.connectors.kafka import (KafkaOffsetsInitializer, KafkaRecordSerializationSchema,
                                                        KafkaSink, KafkaSource)
from pyflink_compat.datastream.formats.json import JsonRowDeserializationSchema, JsonRowSerializationSchema

pytestmark = pytest.mark.integration

ROW = Types.ROW_NAMED(["name", "qty", "price", "ok", "tags", "where"],
                      [Types.STRING(), Types.INT(), Types.DOUBLE(), Types.BOOLEAN(), Types.BASIC_ARRAY(Types.STRING()),
                       Types.ROW_NAMED(["city", "zip"], [Types.STRING(), Types.LONG()])])
FLAT = Types.ROW_NAMED(["name", "qty", "price"], [Types.STRING(), Types.INT(), Types.DOUBLE()])


def run_job(bootstrap, src, out, row_type=ROW, ignore_parse_errors=False):
    builder = JsonRowDeserializationSchema.builder().type_info(row_type)
    if ignore_parse_errors:
        builder = builder.ignore_parse_errors()
    serializer = JsonRowSerializationSchema.builder().with_type_info(row_type).build()
    source = (KafkaSource.builder().set_bootstrap_servers(bootstrap).set_topics(src)
              .set_starting_offsets(KafkaOffsetsInitializer.earliest())
              .set_bounded(KafkaOffsetsInitializer.latest())
              .set_value_only_deserializer(builder.build()).build())
    sink = (KafkaSink.builder().set_bootstrap_servers(bootstrap)
            .set_record_serializer(KafkaRecordSerializationSchema.builder().set_topic(out)
                                   .set_value_serialization_schema(serializer).build())
            .set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE).build())
    env = StreamExecutionEnvironment.get_execution_environment()
    ds = env.from_source(source, WatermarkStrategy.no_watermarks(), "json source")
    ds.filter(lambda row: row.qty is None or row.qty > 1).sink_to(sink)
    env.execute("json job")


def test_json_in_filter_json_out(spark, bootstrap):
    src, out = create_topic(bootstrap, unique_topic("json-in")), create_topic(bootstrap, unique_topic("json-out"))
    produce(bootstrap, src, [
        b'{"name":"apple","qty":3,"price":1.5,"ok":true,"tags":["red","green"],"where":{"city":"Bern","zip":3000}}',
        b'{"name":"pear","qty":1,"price":2.0}',
        b'{"qty":"5","price":"1e8","ok":"TRUE","extra":{"x":[1,2]},"name":{"n":1}}',     # lenient conversions
        b'  {"name":"fig","qty":2.9,"price":0.0001,"where":{"zip":"12"}}  ',
        b'{"name":"\\u00e9\\"q","qty":null}'])
    run_job(bootstrap, src, out)
    assert [r.value for r in consume(bootstrap, out, 4)] == [
        b'{"name":"apple","qty":3,"price":1.5,"ok":true,"tags":["red","green"],"where":{"city":"Bern","zip":3000}}',
        b'{"name":"{\\"n\\":1}","qty":5,"price":1.0E8,"ok":true,"tags":null,"where":null}',
        b'{"name":"fig","qty":2,"price":1.0E-4,"ok":null,"tags":null,"where":{"city":null,"zip":12}}',
        '{"name":"\u00e9\\"q","qty":null,"price":null,"ok":null,"tags":null,"where":null}'.encode()]


def test_vectorised_batch_of_valid_records(spark, bootstrap):
    src, out = create_topic(bootstrap, unique_topic("json-vec")), create_topic(bootstrap, unique_topic("json-out"))
    records = [('{"name":"n%d","qty":%d,"price":%d.25,"x":1}' % (i, i % 4, i)).encode() for i in range(200)]
    produce(bootstrap, src, records)
    run_job(bootstrap, src, out, row_type=FLAT)
    assert [r.value for r in consume(bootstrap, out, 100)] == [
        ('{"name":"n%d","qty":%d,"price":%d.25}' % (i, i % 4, i)).encode() for i in range(200) if i % 4 > 1]


def test_malformed_record_fails_the_job_naming_topic_partition_offset(spark, bootstrap):
    src, out = create_topic(bootstrap, unique_topic("json-bad")), create_topic(bootstrap, unique_topic("json-out"))
    produce(bootstrap, src, [b'{"name":"a","qty":3}', b'{"name":"b","qty":"x"}', b'{"name":"c","qty":2}'])
    with pytest.raises(Exception) as info:
        run_job(bootstrap, src, out, row_type=FLAT)
    text = str(info.value)
    assert "Kafka topic %s partition 0 offset 1" % src in text
    assert "java.io.IOException: Failed to deserialize JSON '{\"name\":\"b\",\"qty\":\"x\"}'." in text
    assert 'NumberFormatException: For input string: "x"' in text


def test_ignore_parse_errors_skips_exactly_the_bad_records(spark, bootstrap):
    src, out = create_topic(bootstrap, unique_topic("json-ign")), create_topic(bootstrap, unique_topic("json-out"))
    produce(bootstrap, src, [b'{"name":"a","qty":3}', b'{"name":"b","qty":', b'not json', b'[1,2]',
                             b'{"name":"c","qty":"x"}', b'\xff\xfe', b'', b'{"name":"d","qty":5}', b'null'])
    run_job(bootstrap, src, out, row_type=FLAT, ignore_parse_errors=True)
    # malformed records are skipped, a bad field becomes null (qty null passes the filter), 'null' is no record
    assert [r.value for r in consume(bootstrap, out, 3)] == [
        b'{"name":"a","qty":3,"price":null}', b'{"name":"c","qty":null,"price":null}',
        b'{"name":"d","qty":5,"price":null}']

"""CSV row schemas end to end on real Spark and the real test broker: Kafka CSV -> filter -> Kafka CSV."""
import pytest

from kafka_helpers import consume, create_topic, produce, unique_topic
from pyflink_compat.common import Types, WatermarkStrategy
from pyflink_compat.datastream import StreamExecutionEnvironment
from pyflink_compat.datastream.connectors.base import DeliveryGuarantee
from pyflink_compat.datastream.connectors.kafka import (KafkaOffsetsInitializer, KafkaRecordSerializationSchema,
                                                        KafkaSink, KafkaSource)
from pyflink_compat.datastream.formats.csv import CsvRowDeserializationSchema, CsvRowSerializationSchema

pytestmark = pytest.mark.integration

ROW = Types.ROW_NAMED(["name", "qty", "price", "tags"],
                      [Types.STRING(), Types.INT(), Types.DOUBLE(), Types.BASIC_ARRAY(Types.STRING())])


def run_job(bootstrap, src, out, ignore_parse_errors=False):
    deserializer = CsvRowDeserializationSchema.Builder(ROW).set_null_literal("N") \
        .set_ignore_parse_errors(ignore_parse_errors).build()
    serializer = CsvRowSerializationSchema.Builder(ROW).set_field_delimiter("|").set_null_literal("N") \
        .set_quote_character("'").build()
    source = (KafkaSource.builder().set_bootstrap_servers(bootstrap).set_topics(src)
              .set_starting_offsets(KafkaOffsetsInitializer.earliest())
              .set_bounded(KafkaOffsetsInitializer.latest())
              .set_value_only_deserializer(deserializer).build())
    sink = (KafkaSink.builder().set_bootstrap_servers(bootstrap)
            .set_record_serializer(KafkaRecordSerializationSchema.builder().set_topic(out)
                                   .set_value_serialization_schema(serializer).build())
            .set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE).build())
    env = StreamExecutionEnvironment.get_execution_environment()
    ds = env.from_source(source, WatermarkStrategy.no_watermarks(), "csv source")
    ds.filter(lambda row: row.qty is None or row.qty > 1).sink_to(sink)
    env.execute("csv job")


def test_csv_in_filter_csv_out(spark, bootstrap):
    src, out = create_topic(bootstrap, unique_topic("csv-in")), create_topic(bootstrap, unique_topic("csv-out"))
    produce(bootstrap, src, [b'apple,3,1.5,red;green', b'"pear, big",1,2.0,', b'"it\'s",5,N,a b;N',
                             b'N,N,1e8,x', b'fig,2,0.0001,""'])
    run_job(bootstrap, src, out)
    assert [r.value for r in consume(bootstrap, out, 4)] == [
        # with "|" as separator, Jackson quotes every string (any character below "|" + 1 triggers quoting)
        b"'apple'|3|1.5|'red;green'\n", b"'it''s'|5|N|'a b;N'\n", b"N|N|1.0E8|'x'\n", b"'fig'|2|1.0E-4|\n"]


def test_malformed_record_fails_the_job_naming_topic_partition_offset(spark, bootstrap):
    src, out = create_topic(bootstrap, unique_topic("csv-bad")), create_topic(bootstrap, unique_topic("csv-out"))
    produce(bootstrap, src, [b'apple,3,1.5,x', b'plum,x,1.0,y', b'fig,2,1.0,z'])
    with pytest.raises(Exception) as info:
        run_job(bootstrap, src, out)
    text = str(info.value)
    assert "Kafka topic %s partition 0 offset 1" % src in text
    assert "Failed to deserialize CSV row 'plum,x,1.0,y'." in text


def test_ignore_parse_errors_skips_exactly_the_bad_records(spark, bootstrap):
    src, out = create_topic(bootstrap, unique_topic("csv-ign")), create_topic(bootstrap, unique_topic("csv-out"))
    produce(bootstrap, src, [b'apple,3,1.5,x', b'"unclosed,3,1.0,y', b'too,2,1.0,many,fields', b'\xff\xfe,2,1,a',
                             b'plum,x,1.0,y', b'short,4', b'fig,2,1.0,z'])
    run_job(bootstrap, src, out, ignore_parse_errors=True)
    # bad fields become null (qty x -> N passes the filter), missing fields become null, unparsable records
    # (unclosed quote, too many fields, bad UTF-8) are skipped
    assert [r.value for r in consume(bootstrap, out, 4)] == [
        b"'apple'|3|1.5|'x'\n", b"'plum'|N|1.0|'y'\n", b"'short'|4|N|N\n", b"'fig'|2|1.0|'z'\n"]


SIMPLE = Types.ROW_NAMED(["name", "qty", "price"], [Types.STRING(), Types.INT(), Types.DOUBLE()])


def run_simple_job(bootstrap, src, out):
    source = (KafkaSource.builder().set_bootstrap_servers(bootstrap).set_topics(src)
              .set_starting_offsets(KafkaOffsetsInitializer.earliest())
              .set_bounded(KafkaOffsetsInitializer.latest())
              .set_value_only_deserializer(CsvRowDeserializationSchema.Builder(SIMPLE).build()).build())
    sink = (KafkaSink.builder().set_bootstrap_servers(bootstrap)
            .set_record_serializer(KafkaRecordSerializationSchema.builder().set_topic(out)
                                   .set_value_serialization_schema(CsvRowSerializationSchema.Builder(SIMPLE).build())
                                   .build()).build())
    env = StreamExecutionEnvironment.get_execution_environment()
    env.from_source(source, WatermarkStrategy.no_watermarks(), "csv source") \
        .filter(lambda row: row.qty % 3 == 0).sink_to(sink)
    env.execute("simple csv job")


def test_vectorised_batches_give_the_same_output(spark, bootstrap):
    # simple lines: whole batches are decoded with Arrow compute
    src, out = create_topic(bootstrap, unique_topic("csv-fast")), create_topic(bootstrap, unique_topic("csv-out"))
    produce(bootstrap, src, [("item %d,%d,%s\n" % (i, i, repr(i / 8))).encode() for i in range(3000)])
    run_simple_job(bootstrap, src, out)
    got = [r.value for r in consume(bootstrap, out, 1000)]
    assert got == [('"item %d",%d,%s\n' % (i, i, repr(i / 8))).encode() for i in range(0, 3000, 3)]


def test_malformed_record_in_a_large_batch_is_still_named(spark, bootstrap):
    src, out = create_topic(bootstrap, unique_topic("csv-fast")), create_topic(bootstrap, unique_topic("csv-out"))
    records = [("item%d,%d,1.0" % (i, i)).encode() for i in range(2000)]
    records[1234] = b"item1234,12x,1.0"
    produce(bootstrap, src, records)
    with pytest.raises(Exception) as info:
        run_simple_job(bootstrap, src, out)
    text = str(info.value)
    assert "Kafka topic %s partition 0 offset 1234" % src in text
    assert "Failed to deserialize CSV row 'item1234,12x,1.0'." in text

"""Flink SQL's 'avro' format on the real broker and Spark. PyFlink's oracle cannot run it (no flink-sql-avro jar on
PyPI), so the messages are checked against an independent encoder: fastavro with the Avro schema Flink's
AvroSchemaConverter derives from the columns, written out here by hand (nullable columns as ["null", T])."""
import datetime
import decimal
import io

import fastavro
import pytest

from kafka_helpers import consume, create_topic, produce, unique_topic
from pyflink_compat.util.exceptions import JavaStyleError

pytestmark = pytest.mark.integration


def _nullable(avro_type):
    return ["null", avro_type]


# the schema Flink derives for (id INT, name STRING, price DECIMAL(10, 2), ts TIMESTAMP(3), tags ARRAY<STRING>,
# attrs MAP<STRING, BIGINT>, origin ROW<city STRING, zone INT>, qty BIGINT NOT NULL)
ORDERS = fastavro.parse_schema({
    "type": "record", "name": "org.apache.flink.avro.generated.record", "fields": [
        {"name": "id", "type": _nullable("int"), "default": None},
        {"name": "name", "type": _nullable("string"), "default": None},
        {"name": "price", "type": _nullable({"type": "bytes", "logicalType": "decimal", "precision": 10, "scale": 2}),
         "default": None},
        {"name": "ts", "type": _nullable({"type": "long", "logicalType": "timestamp-millis"}), "default": None},
        {"name": "tags", "type": _nullable({"type": "array", "items": _nullable("string")}), "default": None},
        {"name": "attrs", "type": _nullable({"type": "map", "values": _nullable("long")}), "default": None},
        {"name": "origin", "type": _nullable({
            "type": "record", "name": "org.apache.flink.avro.generated.record_origin", "fields": [
                {"name": "city", "type": _nullable("string"), "default": None},
                {"name": "zone", "type": _nullable("int"), "default": None}]}), "default": None},
        {"name": "qty", "type": "long"}]})
ORDERS_COLUMNS = ("id INT, name STRING, price DECIMAL(10, 2), ts TIMESTAMP(3), tags ARRAY<STRING>, "
                  "attrs MAP<STRING, BIGINT>, origin ROW<city STRING, zone INT>, qty BIGINT NOT NULL")
UTC = datetime.timezone.utc


def _encoded(parsed_schema, record) -> bytes:
    out = io.BytesIO()
    fastavro.schemaless_writer(out, parsed_schema, record)
    return out.getvalue()


def _decoded(parsed_schema, data: bytes):
    return fastavro.schemaless_reader(io.BytesIO(data), parsed_schema, None)


def _orders():
    return [
        {"id": 1, "name": "kiwi", "price": decimal.Decimal("2.50"),
         "ts": datetime.datetime(2024, 1, 2, 3, 4, 5, 123000, tzinfo=UTC), "tags": ["fruit", None],
         "attrs": {"w": 120, "none": None}, "origin": {"city": "Auckland", "zone": 12}, "qty": 3},
        {"id": 2, "name": "caf\u00e9 \U0001f6a8", "price": decimal.Decimal("-0.05"), "ts": None, "tags": [],
         "attrs": None, "origin": {"city": None, "zone": -1}, "qty": -7},
        {"id": None, "name": None, "price": None, "ts": datetime.datetime(1969, 12, 31, 23, 59, 59, 1000, tzinfo=UTC),
         "tags": None, "attrs": {}, "origin": None, "qty": 0},
    ]


def _kafka_table(name, columns, topic, bootstrap, options):
    return ("CREATE TABLE %s (%s) WITH ('connector' = 'kafka', 'topic' = '%s', 'properties.bootstrap.servers' = "
            "'%s', 'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', %s)"
            % (name, columns, topic, bootstrap, options))


def _table_environment():
    from pyflink_compat.table import EnvironmentSettings, TableEnvironment
    t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
    t_env.get_config().set("parallelism.default", "1")
    return t_env


def test_avro_records_are_read_into_columns_printed_and_written_back_as_flink_writes_them(spark, bootstrap, capsys):
    topic_in = create_topic(bootstrap, unique_topic("sql-avro-in"))
    topic_out = create_topic(bootstrap, unique_topic("sql-avro-out"))
    produce(bootstrap, topic_in, [_encoded(ORDERS, record) for record in _orders()])
    t_env = _table_environment()
    t_env.execute_sql(_kafka_table("orders", ORDERS_COLUMNS, topic_in, bootstrap, "'format' = 'avro'"))
    t_env.execute_sql(_kafka_table("copied", ORDERS_COLUMNS, topic_out, bootstrap,
                                   "'format' = 'avro', 'avro.encoding' = 'binary'"))
    t_env.execute_sql("CREATE TABLE shown (id INT, name STRING, price DECIMAL(10, 2), ts TIMESTAMP(3), "
                      "tag STRING, w BIGINT, city STRING, qty BIGINT) WITH ('connector' = 'print')")
    statements = t_env.create_statement_set()
    statements.add_insert_sql("INSERT INTO copied SELECT * FROM orders")
    statements.add_insert_sql("INSERT INTO shown SELECT id, name, price, ts, tags[1], attrs['w'], origin.city, qty "
                              "FROM orders")
    statements.execute().wait()
    written = consume(bootstrap, topic_out, 3)
    assert [record.value for record in written] == [_encoded(ORDERS, record) for record in _orders()]
    assert [_decoded(ORDERS, record.value) for record in written] == _orders()
    assert [line for line in capsys.readouterr().out.splitlines() if line.startswith("+I")] == [
        "+I[1, kiwi, 2.50, 2024-01-02T03:04:05.123, fruit, 120, Auckland, 3]",
        "+I[2, caf\u00e9 \U0001f6a8, -0.05, null, null, null, null, -7]",
        "+I[null, null, null, 1969-12-31T23:59:59.001, null, null, null, 0]"]


KEY = fastavro.parse_schema({"type": "record", "name": "org.apache.flink.avro.generated.record", "fields": [
    {"name": "customer", "type": "string"}]})
TOTAL = fastavro.parse_schema({"type": "record", "name": "org.apache.flink.avro.generated.record", "fields": [
    {"name": "customer", "type": "string"},
    {"name": "total", "type": _nullable({"type": "bytes", "logicalType": "decimal", "precision": 38, "scale": 2}),
     "default": None},
    {"name": "orders", "type": "long"}]})


def test_a_group_by_goes_to_an_upsert_kafka_table_with_avro_keys_and_values(spark, bootstrap):
    topic_in = create_topic(bootstrap, unique_topic("sql-avro-sales"))
    topic_out = create_topic(bootstrap, unique_topic("sql-avro-totals"))
    sale = fastavro.parse_schema({"type": "record", "name": "sale", "fields": [
        {"name": "customer", "type": _nullable("string")},
        {"name": "amount", "type": _nullable({"type": "bytes", "logicalType": "decimal", "precision": 10,
                                               "scale": 2})}]})
    sales = [("ann", "1.25"), ("bob", "10.00"), ("ann", "2.75"), ("ann", "-4.00")]
    produce(bootstrap, topic_in, [_encoded(sale, {"customer": c, "amount": decimal.Decimal(a)}) for c, a in sales])
    t_env = _table_environment()
    t_env.execute_sql(_kafka_table("sales", "customer STRING, amount DECIMAL(10, 2)", topic_in, bootstrap,
                                   "'format' = 'avro'"))
    t_env.execute_sql("CREATE TABLE totals (customer STRING NOT NULL, total DECIMAL(38, 2), orders BIGINT NOT NULL, "
                      "PRIMARY KEY (customer) NOT ENFORCED) WITH ('connector' = 'upsert-kafka', 'topic' = '%s', "
                      "'properties.bootstrap.servers' = '%s', 'key.format' = 'avro', 'value.format' = 'avro')"
                      % (topic_out, bootstrap))
    t_env.execute_sql("INSERT INTO totals SELECT customer, SUM(amount), COUNT(*) FROM sales "
                      "WHERE customer IS NOT NULL GROUP BY customer").wait()
    written = [(_decoded(KEY, record.key), _decoded(TOTAL, record.value)) for record in consume(bootstrap,
                                                                                              topic_out, 4)]
    dec = decimal.Decimal
    assert written == [
        ({"customer": "ann"}, {"customer": "ann", "total": dec("1.25"), "orders": 1}),
        ({"customer": "bob"}, {"customer": "bob", "total": dec("10.00"), "orders": 1}),
        ({"customer": "ann"}, {"customer": "ann", "total": dec("4.00"), "orders": 2}),
        ({"customer": "ann"}, {"customer": "ann", "total": dec("0.00"), "orders": 3})]


def test_a_message_that_is_no_avro_record_fails_the_job_and_unsupported_columns_fail_as_on_flink(spark, bootstrap):
    topic_in = create_topic(bootstrap, unique_topic("sql-avro-bad"))
    point = fastavro.parse_schema({"type": "record", "name": "p", "fields": [{"name": "x", "type": ["null", "int"]}]})
    produce(bootstrap, topic_in, [_encoded(point, {"x": 5}), b"\x02", _encoded(point, {"x": 6})])
    t_env = _table_environment()
    t_env.execute_sql(_kafka_table("points", "x INT", topic_in, bootstrap, "'format' = 'avro'"))
    t_env.execute_sql("CREATE TABLE out (x INT) WITH ('connector' = 'print')")
    with pytest.raises(Exception, match=r"Failed to deserialize Avro record\."):
        t_env.execute_sql("INSERT INTO out SELECT x FROM points").wait()
    # TIMESTAMP is TIMESTAMP(6): Flink's legacy Avro mapping takes milliseconds only
    t_env.execute_sql(_kafka_table("stamps", "x INT, ts TIMESTAMP", topic_in, bootstrap, "'format' = 'avro'"))
    with pytest.raises(JavaStyleError, match=r"Avro does not support TIMESTAMP type with precision: 6, it only "
                                             r"supports precision less than 3\."):
        t_env.execute_sql("INSERT INTO out SELECT x FROM stamps")

"""Flink SQL on the real broker and Spark: Kafka tables in 'raw' and 'json' formats, INSERT statements alone and
in a statement set, print and blackhole tables, a malformed message failing the job as Flink's json format does."""
import pytest

from kafka_helpers import consume, create_topic, produce, unique_topic, values
from pyflink_compat.util.exceptions import JavaStyleError

pytestmark = pytest.mark.integration


def _kafka_table(name, columns, topic, bootstrap, value_format, extra=""):
    return ("CREATE TABLE %s (%s) WITH ('connector' = 'kafka', 'topic' = '%s', 'properties.bootstrap.servers' = "
            "'%s', 'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', "
            "'format' = '%s'%s)" % (name, columns, topic, bootstrap, value_format, extra))


def _table_environment():
    """A streaming TableEnvironment at parallelism 1 (printed lines without subtask prefixes)."""
    from pyflink_compat.table import EnvironmentSettings, TableEnvironment
    t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
    t_env.get_config().set("parallelism.default", "1")
    return t_env


def test_raw_lines_are_projected_filtered_and_written_by_a_statement_set(spark, bootstrap, capsys):
    topic_in = create_topic(bootstrap, unique_topic("sql-raw-in"))
    topic_out = create_topic(bootstrap, unique_topic("sql-raw-out"))
    produce(bootstrap, topic_in, ["apple pie", "kiwi", "", "banana split", "fig"])
    t_env = _table_environment()
    t_env.execute_sql(_kafka_table("lines", "line STRING", topic_in, bootstrap, "raw"))
    t_env.execute_sql(_kafka_table("shouted", "line STRING", topic_out, bootstrap, "raw"))
    t_env.execute_sql("CREATE TABLE lengths (line STRING, n INT, long_one BOOLEAN) "
                      "WITH ('connector' = 'print', 'print-identifier' = 'len')")
    t_env.execute_sql("CREATE TABLE dropped (line STRING) WITH ('connector' = 'blackhole')")
    statements = t_env.create_statement_set()
    statements.add_insert_sql("INSERT INTO shouted SELECT UPPER(line) || '!' FROM lines WHERE line <> ''")
    statements.add_insert_sql("INSERT INTO lengths SELECT line, CHAR_LENGTH(line), CHAR_LENGTH(line) > 4 "
                              "FROM lines WHERE line LIKE '%i%'")
    statements.add_insert_sql("INSERT INTO dropped SELECT line FROM lines")
    result = statements.execute()
    assert result.wait() is None
    assert values(consume(bootstrap, topic_out, 4)) == ["APPLE PIE!", "KIWI!", "BANANA SPLIT!", "FIG!"]
    printed = [line for line in capsys.readouterr().out.splitlines() if line.startswith("len> ")]
    assert printed == ["len> +I[apple pie, 9, true]", "len> +I[kiwi, 4, false]", "len> +I[banana split, 12, true]",
                       "len> +I[fig, 3, false]"]


def test_a_malformed_json_message_fails_the_job_unless_parse_errors_are_ignored(spark, bootstrap, capsys):
    topic_in = create_topic(bootstrap, unique_topic("sql-json-in"))
    produce(bootstrap, topic_in, ['{"id": 1}', "{oops", '{"id": 2}'])
    t_env = _table_environment()
    t_env.execute_sql(_kafka_table("strict", "id INT", topic_in, bootstrap, "json"))
    t_env.execute_sql(_kafka_table("lenient", "id INT", topic_in, bootstrap, "json",
                                   ", 'json.ignore-parse-errors' = 'true'"))
    t_env.execute_sql("CREATE TABLE out (id INT) WITH ('connector' = 'print')")
    with pytest.raises(Exception, match=r"Failed to deserialize JSON '\{oops'"):
        t_env.execute_sql("INSERT INTO out SELECT id * 10 FROM strict").wait()
    capsys.readouterr()
    t_env.execute_sql("INSERT INTO out SELECT id * 10 FROM lenient").wait()
    assert [line for line in capsys.readouterr().out.splitlines() if line.startswith("+I")] == ["+I[10]", "+I[20]"]
    with pytest.raises(JavaStyleError, match="Column 'nope' not found in any table"):
        t_env.execute_sql("INSERT INTO out SELECT nope FROM lenient")


def test_sql_query_views_and_from_path_insert_into_sinks(spark, bootstrap, capsys):
    topic_in = create_topic(bootstrap, unique_topic("sql-view-in"))
    produce(bootstrap, topic_in, ['{"k": "a", "c": 1.5}', '{"k": "b", "c": 4}', '{"k": "a", "c": 2.5}'])
    t_env = _table_environment()
    t_env.execute_sql(_kafka_table("src", "k STRING, c DOUBLE", topic_in, bootstrap, "json"))
    t_env.execute_sql("CREATE TABLE q (k STRING, c DOUBLE) WITH ('connector' = 'print', 'print-identifier' = 'q')")
    t_env.sql_query("SELECT UPPER(k) AS k, c FROM (SELECT * FROM src WHERE c >= 2.5)").execute_insert("q").wait()
    t_env.create_temporary_view("small", t_env.sql_query("SELECT k, c * 10 AS c FROM src WHERE c < 3"))
    t_env.from_path("small").execute_insert("q").wait()
    assert [line for line in capsys.readouterr().out.splitlines() if line.startswith("q> ")] == [
        "q> +I[B, 4.0]", "q> +I[A, 2.5]", "q> +I[a, 15.0]", "q> +I[a, 25.0]"]
    with pytest.raises(JavaStyleError, match="Object 'nope' not found"):
        t_env.sql_query("SELECT k FROM nope")


def test_a_stream_table_environments_sql_job_takes_its_settings_not_its_datastream_sinks(spark, bootstrap, capsys):
    from pyflink_compat.common.typeinfo import Types
    from pyflink_compat.datastream import StreamExecutionEnvironment
    from pyflink_compat.table import StreamTableEnvironment
    topic_in = create_topic(bootstrap, unique_topic("sql-bridge-in"), partitions=2)
    produce(bootstrap, topic_in, ["a", "b"], partition=0)
    produce(bootstrap, topic_in, ["c"], partition=1)
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(2)
    env.from_collection(["datastream"], Types.STRING()).print("ds")
    t_env = StreamTableEnvironment.create(env)
    t_env.execute_sql(_kafka_table("lines", "line STRING", topic_in, bootstrap, "raw"))
    t_env.execute_sql("CREATE TABLE out (line STRING) WITH ('connector' = 'print', 'print-identifier' = 'sql')")
    t_env.execute_sql("INSERT INTO out SELECT UPPER(line) FROM lines").wait()
    lines = capsys.readouterr().out.splitlines()
    assert not [line for line in lines if line.startswith("ds")]
    # two parallel instances, as the environment's parallelism says: "sql:<subtask>> "
    assert sorted(line.split("> ", 1)[1] for line in lines if line.startswith("sql:")) == [
        "+I[A]", "+I[B]", "+I[C]"]
    env.execute("the DataStream part")
    assert [line.split("> ", 1)[1] for line in capsys.readouterr().out.splitlines() if line.startswith("ds")] == [
        "datastream"]


def test_message_keys_are_read_and_written_and_a_null_primary_key_fails_the_job(spark, bootstrap):
    topic_in = create_topic(bootstrap, unique_topic("sql-keys-in"))
    topic_out = create_topic(bootstrap, unique_topic("sql-keys-out"))
    topic_upsert = create_topic(bootstrap, unique_topic("sql-keys-upsert"))
    for key, value in [("ann", '{"id":1,"n":5}'), (None, '{"id":2,"n":7}'), ("bob", '{"id":3,"n":1}'),
                       ("ann", '{"id":4,"n":2}')]:
        produce(bootstrap, topic_in, [(key, value)])       # a batch per record: the broker's bounded reads see all
    t_env = _table_environment()
    t_env.execute_sql(_kafka_table("events", "usr STRING, id INT, n BIGINT", topic_in, bootstrap, "json",
                                   ", 'key.format' = 'raw', 'key.fields' = 'usr', 'value.fields-include' = "
                                   "'EXCEPT_KEY'"))
    # a key prefix tells the key's field names from the columns' (the JSON key of column k_id is {"id": ...})
    t_env.execute_sql("CREATE TABLE by_id (k_id INT, usr STRING, n BIGINT) WITH ('connector' = 'kafka', 'topic' = "
                      "'%s', 'properties.bootstrap.servers' = '%s', 'key.format' = 'json', 'key.fields' = 'k_id', "
                      "'key.fields-prefix' = 'k_', 'value.format' = 'json', 'value.fields-include' = 'EXCEPT_KEY')"
                      % (topic_out, bootstrap))
    t_env.execute_sql("INSERT INTO by_id SELECT id, usr, n * 10 FROM events").wait()
    written = consume(bootstrap, topic_out, 4)
    assert [(r.key, r.value) for r in written] == [
        (b'{"id":1}', b'{"usr":"ann","n":50}'), (b'{"id":2}', b'{"usr":null,"n":70}'),
        (b'{"id":3}', b'{"usr":"bob","n":10}'), (b'{"id":4}', b'{"usr":"ann","n":20}')]
    t_env.execute_sql("CREATE TABLE totals (usr STRING, total BIGINT, PRIMARY KEY (usr) NOT ENFORCED) WITH ("
                      "'connector' = 'upsert-kafka', 'topic' = '%s', 'properties.bootstrap.servers' = '%s', "
                      "'key.format' = 'raw', 'value.format' = 'json')" % (topic_upsert, bootstrap))
    # the group of the record without a key has a NULL user: a primary key's column is NOT NULL
    with pytest.raises(Exception, match="Column 'usr' is NOT NULL, however, a null value is being written into it. "
                                        "You can set job configuration 'table.exec.sink.not-null-enforcer'='DROP'"):
        t_env.execute_sql("INSERT INTO totals SELECT usr, SUM(n) FROM events GROUP BY usr").wait()
    t_env.execute_sql("INSERT INTO totals SELECT usr, SUM(n) FROM events WHERE usr IS NOT NULL GROUP BY usr").wait()
    upserts = consume(bootstrap, topic_upsert, 3)
    assert [(r.key, r.value) for r in upserts] == [
        (b"ann", b'{"usr":"ann","total":5}'), (b"bob", b'{"usr":"bob","total":1}'),
        (b"ann", b'{"usr":"ann","total":7}')]


def test_a_querys_rows_are_collected_with_their_row_kinds_from_a_stream_table_environment(spark, bootstrap):
    from pyflink_compat.common.types import RowKind
    from pyflink_compat.datastream import StreamExecutionEnvironment
    from pyflink_compat.table import StreamTableEnvironment
    topic_in = create_topic(bootstrap, unique_topic("sql-collect-in"))
    produce(bootstrap, topic_in, ['{"k": "a", "c": 1}', '{"k": "b", "c": 4}', '{"k": "a", "c": 2}'])
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(2)
    t_env = StreamTableEnvironment.create(env)
    t_env.execute_sql(_kafka_table("src", "k STRING, c INT", topic_in, bootstrap, "json"))
    with t_env.from_path("src").execute().collect() as rows:
        assert sorted(tuple(row) for row in rows) == [("a", 1), ("a", 2), ("b", 4)]
    result = t_env.execute_sql("SELECT k, SUM(c) AS total FROM src GROUP BY k")
    changes = [(row.get_row_kind(), tuple(row)) for row in result.collect()]
    assert [change for change in changes if change[1][0] == "b"] == [(RowKind.INSERT, ("b", 4))]
    assert [change for change in changes if change[1][0] == "a"] == [
        (RowKind.INSERT, ("a", 1)), (RowKind.UPDATE_BEFORE, ("a", 1)), (RowKind.UPDATE_AFTER, ("a", 3))]
    with pytest.raises(Exception, match="The result can only be accessed once."):
        result.print()


def test_unbounded_inserts_run_side_by_side_and_an_idle_reader_without_partition_lets_windows_fire(spark, bootstrap):
    """Two unbounded INSERT statements: execute_sql returns once each job runs, as Flink's does. At parallelism 2
    over one partition, one reader gets no partition; with table.exec.source.idle-timeout it goes idle (as Flink
    SQL's source reader does) and the event-time windows fire. Over four partitions with records in one only,
    both readers go idle once the records are read, and the highest watermark they reached fires the windows
    (Flink's watermark valve; the same rows on PyFlink 2.3)."""
    import json
    topic_in = create_topic(bootstrap, unique_topic("sql-idle-in"))
    spread_in = create_topic(bootstrap, unique_topic("sql-idle-spread"), partitions=4)
    spread_windows = create_topic(bootstrap, unique_topic("sql-idle-spread-windows"))
    for c, minute in enumerate(range(0, 8)):
        produce(bootstrap, spread_in, [json.dumps({"c": c, "ts": "2024-01-02 03:%02d:00" % minute})], partition=0)
    topic_windows = create_topic(bootstrap, unique_topic("sql-idle-windows"))
    topic_copy = create_topic(bootstrap, unique_topic("sql-idle-copy"))
    for key, c, at in [("s1", 1.0, "2024-01-02T03:00:10Z"), ("s2", 5.0, "2024-01-02T03:00:20Z"),
                       ("s1", 3.0, "2024-01-02T03:01:50Z"), ("s1", 10.0, "2024-01-02T03:02:30Z"),
                       ("s1", 0.5, "2024-01-02T03:06:00Z")]:
        produce(bootstrap, topic_in, [(key, json.dumps({"c": c, "timestamp": at}))])
    from pyflink_compat.table import EnvironmentSettings, TableEnvironment
    t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
    t_env.get_config().set("parallelism.default", "2")
    t_env.get_config().set("table.exec.source.idle-timeout", "2 s")
    t_env.execute_sql("""CREATE TABLE readings (`key` STRING, c DOUBLE, `timestamp` STRING,
        event_time AS TO_TIMESTAMP(`timestamp`, 'yyyy-MM-dd''T''HH:mm:ss''Z'''),
        WATERMARK FOR event_time AS event_time - INTERVAL '5' SECOND) WITH ('connector' = 'kafka', 'topic' = '%s',
        'properties.bootstrap.servers' = '%s', 'key.format' = 'raw', 'key.fields' = 'key', 'value.format' = 'json',
        'value.fields-include' = 'EXCEPT_KEY', 'scan.startup.mode' = 'earliest-offset')""" % (topic_in, bootstrap))
    t_env.execute_sql("CREATE TABLE windows (`key` STRING, window_start TIMESTAMP(3), n BIGINT, avg_c DOUBLE) WITH "
                      "('connector' = 'kafka', 'topic' = '%s', 'properties.bootstrap.servers' = '%s', 'format' = "
                      "'json')" % (topic_windows, bootstrap))
    t_env.execute_sql("CREATE TABLE copy (`key` STRING, c DOUBLE) WITH ('connector' = 'kafka', 'topic' = '%s', "
                      "'properties.bootstrap.servers' = '%s', 'format' = 'json')" % (topic_copy, bootstrap))
    windows = t_env.execute_sql("""INSERT INTO windows SELECT `key`, TUMBLE_START(event_time, INTERVAL '2' MINUTE),
        COUNT(*), AVG(c) FROM readings GROUP BY `key`, TUMBLE(event_time, INTERVAL '2' MINUTE)""")
    copy = t_env.execute_sql("INSERT INTO copy SELECT `key`, c FROM readings WHERE c > 2")
    t_env.execute_sql("CREATE TABLE spread (c INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '5' SECOND) "
                      "WITH ('connector' = 'kafka', 'topic' = '%s', 'properties.bootstrap.servers' = '%s', "
                      "'scan.startup.mode' = 'earliest-offset', 'format' = 'json')" % (spread_in, bootstrap))
    t_env.execute_sql("CREATE TABLE spread_windows (window_start TIMESTAMP(3), n BIGINT, m INT) WITH ("
                      "'connector' = 'kafka', 'topic' = '%s', 'properties.bootstrap.servers' = '%s', 'format' = "
                      "'json')" % (spread_windows, bootstrap))
    spread = t_env.execute_sql("""INSERT INTO spread_windows SELECT TUMBLE_START(ts, INTERVAL '2' MINUTE), COUNT(*),
        MAX(c) FROM spread GROUP BY TUMBLE(ts, INTERVAL '2' MINUTE)""")
    try:
        assert sorted(values(consume(bootstrap, topic_windows, 3, timeout_s=90))) == [
            '{"key":"s1","window_start":"2024-01-02 03:00:00","n":2,"avg_c":2.0}',
            '{"key":"s1","window_start":"2024-01-02 03:02:00","n":1,"avg_c":10.0}',
            '{"key":"s2","window_start":"2024-01-02 03:00:00","n":1,"avg_c":5.0}']
        assert values(consume(bootstrap, topic_copy, 3, timeout_s=30)) == [
            '{"key":"s2","c":5.0}', '{"key":"s1","c":3.0}', '{"key":"s1","c":10.0}']
        # the window of 03:06 waits for a watermark past 03:08: three windows
        assert sorted(values(consume(bootstrap, spread_windows, 3, timeout_s=90))) == [
            '{"window_start":"2024-01-02 03:00:00","n":2,"m":1}', '{"window_start":"2024-01-02 03:02:00","n":2,"m":3}',
            '{"window_start":"2024-01-02 03:04:00","n":2,"m":5}']
    finally:
        for result in (windows, copy, spread):
            result.get_job_client().cancel().result()
    with pytest.raises(Exception, match="was cancelled"):
        windows.wait()


def test_a_group_window_summed_up_a_batch_at_a_time_drops_late_rows_skips_bad_messages_and_keeps_null_keys(
        spark, bootstrap, caplog):
    """The window's input is read a batch at a time with Arrow and summed up per key and pane before the exchange
    (table/sql/window_input.py); micro-batches of two records let the watermark pass a window between them. The
    malformed message's batch goes through the row steps. A row whose window has fired is dropped, a NULL key is
    a group, a row the WHERE clause drops still moves the watermark."""
    import logging
    topic_in = create_topic(bootstrap, unique_topic("sql-window-batches-in"))
    topic_out = create_topic(bootstrap, unique_topic("sql-window-batches-out"))
    for message in ['{"k":"a","ts":1000,"amount":5}', '{"k":"b","ts":2000,"amount":7}',
                    '{"k":"a","ts":9000,"amount":1}', 'not json',
                    '{"k":"a","ts":12000,"amount":4}', '{"k":"c","ts":12500,"amount":1}',
                    '{"k":"a","ts":3000,"amount":100}', '{"k":null,"ts":15000,"amount":2}',
                    '{"k":"b","ts":25000,"amount":3}', '{"k":"b","ts":26000,"amount":-2}']:
        produce(bootstrap, topic_in, [message])
    t_env = _table_environment()
    t_env.get_config().set("pyflink-compat.source.max-records-per-batch", "2")
    t_env.execute_sql(_kafka_table(
        "events", "k STRING, ts BIGINT, amount INT, rt AS TO_TIMESTAMP_LTZ(ts, 3), "
        "WATERMARK FOR rt AS rt - INTERVAL '1' SECOND", topic_in, bootstrap, "json",
        ", 'json.ignore-parse-errors' = 'true'"))
    t_env.execute_sql("CREATE TABLE windows (k STRING, w TIMESTAMP(3), n BIGINT, total INT, low STRING, high INT, "
                      "mean INT, counted BIGINT) WITH ('connector' = 'kafka', 'topic' = '%s', "
                      "'properties.bootstrap.servers' = '%s', 'format' = 'json')" % (topic_out, bootstrap))
    with caplog.at_level(logging.INFO, logger="pyflink_compat"):
        t_env.execute_sql("""INSERT INTO windows SELECT k, TUMBLE_START(rt, INTERVAL '10' SECOND), COUNT(*),
            SUM(amount), MIN(k), MAX(amount), AVG(amount), COUNT(amount) FROM events WHERE amount > 0 OR k IS NULL
            GROUP BY TUMBLE(rt, INTERVAL '10' SECOND), k""").wait()
    assert "The TUMBLE window over events sums up its input a batch at a time" in caplog.text
    assert sorted(values(consume(bootstrap, topic_out, 6))) == sorted([
        '{"k":"a","w":"1970-01-01 00:00:00","n":2,"total":6,"low":"a","high":5,"mean":3,"counted":2}',
        '{"k":"b","w":"1970-01-01 00:00:00","n":1,"total":7,"low":"b","high":7,"mean":7,"counted":1}',
        '{"k":"a","w":"1970-01-01 00:00:10","n":1,"total":4,"low":"a","high":4,"mean":4,"counted":1}',
        '{"k":"c","w":"1970-01-01 00:00:10","n":1,"total":1,"low":"c","high":1,"mean":1,"counted":1}',
        '{"k":null,"w":"1970-01-01 00:00:10","n":1,"total":2,"low":null,"high":2,"mean":2,"counted":1}',
        '{"k":"b","w":"1970-01-01 00:00:20","n":1,"total":3,"low":"b","high":3,"mean":3,"counted":1}'])


def test_an_interval_join_pads_outer_rows_once_they_expire_and_holds_the_watermark_back_for_a_window(
        spark, bootstrap, capsys):
    """An event-time interval join (bounds on the two rowtimes) is insert-only: a LEFT join's order without a
    shipment in its interval comes padded when the watermark passes the interval, never retracted. A window over
    the join's rows: one record per micro-batch, so the watermark passes the window of 10:00 before the shipment
    of order 1 (10:50 + 10 minutes) comes; the join holds its watermark back by the interval (as Flink's does),
    so the joined row is not late."""
    orders = create_topic(bootstrap, unique_topic("sql-interval-orders"))
    ships = create_topic(bootstrap, unique_topic("sql-interval-ships"))
    for message in ['{"id":1,"ts":"2024-01-01 10:50:00"}', '{"id":9,"ts":"2024-01-01 11:00:00.999"}',
                    '{"id":3,"ts":"2024-01-01 11:20:00"}']:
        produce(bootstrap, orders, [message])
    for message in ['{"order_id":9,"ts":"2024-01-01 11:00:00.999"}', '{"order_id":7,"ts":"2024-01-01 11:00:00.999"}',
                    '{"order_id":1,"ts":"2024-01-01 11:00:00"}']:
        produce(bootstrap, ships, [message])
    t_env = _table_environment()
    t_env.get_config().set("pyflink-compat.source.max-records-per-batch", "1")
    for name, topic in (("orders", orders), ("ships", ships)):
        t_env.execute_sql(_kafka_table(name, "%s INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND"
                                       % ("id" if name == "orders" else "order_id"), topic, bootstrap, "json"))
    t_env.execute_sql("CREATE TABLE padded (id INT, shipped TIMESTAMP(3)) WITH ('connector' = 'print', "
                      "'print-identifier' = 'left')")
    t_env.execute_sql("CREATE TABLE hourly (w TIMESTAMP(3), n BIGINT) WITH ('connector' = 'print', "
                      "'print-identifier' = 'hourly')")
    t_env.execute_sql("""CREATE TEMPORARY VIEW shipped AS SELECT o.id, o.ts AS ordered, s.ts AS shipped
        FROM orders o, ships s WHERE o.id = s.order_id AND s.ts BETWEEN o.ts AND o.ts + INTERVAL '10' MINUTE""")
    statements = t_env.create_statement_set()
    statements.add_insert_sql("""INSERT INTO padded SELECT o.id, s.ts FROM orders o LEFT JOIN ships s
        ON o.id = s.order_id AND s.ts BETWEEN o.ts AND o.ts + INTERVAL '10' MINUTE""")
    statements.add_insert_sql("""INSERT INTO hourly SELECT window_start, COUNT(*) FROM TABLE(TUMBLE(TABLE shipped,
        DESCRIPTOR(ordered), INTERVAL '1' HOUR)) GROUP BY window_start, window_end""")
    statements.execute().wait()
    printed = capsys.readouterr().out.splitlines()
    assert [line for line in printed if line.startswith("left> ")] == [
        "left> +I[9, 2024-01-01T11:00:00.999]", "left> +I[1, 2024-01-01T11:00]", "left> +I[3, null]"]
    assert sorted(line for line in printed if line.startswith("hourly> ")) == [
        "hourly> +I[2024-01-01T10:00, 1]", "hourly> +I[2024-01-01T11:00, 1]"]


def test_values_rows_go_to_kafka_through_an_insert_and_a_table_pipeline(spark, bootstrap):
    # VALUES rows typed as Flink types them (DECIMAL(4, 2) for 1.5 and 20.25; its json format writes 1.5), inserted by
    # INSERT INTO ... VALUES and by Table.insert_into(...).execute() (Flink 2.x's TablePipeline)
    topic = create_topic(bootstrap, unique_topic("sql-values-out"))
    t_env = _table_environment()
    t_env.execute_sql("CREATE TABLE sink_out (id INT, name STRING, amount DECIMAL(5, 2)) WITH ('connector' = 'kafka', "
                      "'topic' = '%s', 'properties.bootstrap.servers' = '%s', 'format' = 'json')" % (topic, bootstrap))
    t_env.execute_sql("INSERT INTO sink_out VALUES (1, 'a', 1.5), (2, 'bcd', 20.25)").wait()
    pipeline = t_env.sql_query("SELECT id * 10, UPPER(name), amount FROM (VALUES (3, 'x', 0.125)) AS v(id, name, amount)") \
        .insert_into("sink_out")
    assert values(consume(bootstrap, topic, 2, settle_s=0)) == ['{"id":1,"name":"a","amount":1.5}',
                                                               '{"id":2,"name":"bcd","amount":20.25}']
    pipeline.execute().wait()
    assert values(consume(bootstrap, topic, 3)) == ['{"id":1,"name":"a","amount":1.5}',
                                                    '{"id":2,"name":"bcd","amount":20.25}',
                                                    '{"id":30,"name":"X","amount":0.13}']


def test_an_upsert_table_keyed_by_less_than_the_group_by_keeps_each_keys_latest_row_at_parallelism_two(
        spark, bootstrap):
    """GROUP BY product and name over a LEFT JOIN (a product's padded rows retracted once its name comes) into an
    upsert table keyed by the product: the retraction of one group and the insertion of another of the same key
    come from different subtasks; the sink upsert materializer keeps the key's live row whatever their order."""
    import json
    from kafka_helpers import upsert_state
    sales_topic = create_topic(bootstrap, unique_topic("sql-mat-sales"), 2)
    products_topic = create_topic(bootstrap, unique_topic("sql-mat-products"))
    out_topic = create_topic(bootstrap, unique_topic("sql-mat-out"))
    sales = [{"id": i, "product_id": 1 + i % 3, "quantity": i} for i in range(1, 10)]
    produce(bootstrap, sales_topic, [json.dumps(sale) for sale in sales[:5]], partition=0)
    produce(bootstrap, sales_topic, [json.dumps(sale) for sale in sales[5:]], partition=1)
    produce(bootstrap, products_topic, [json.dumps({"id": 1, "name": "one"}), json.dumps({"id": 2, "name": "two"})])
    t_env = _table_environment()
    t_env.get_config().set("parallelism.default", "2")
    t_env.execute_sql(_kafka_table("sales", "id INT, product_id INT, quantity INT", sales_topic, bootstrap, "json"))
    t_env.execute_sql(_kafka_table("products", "id INT, name STRING", products_topic, bootstrap, "json"))
    t_env.execute_sql("CREATE TABLE sold (product_id INT, name STRING, quantity INT, PRIMARY KEY (product_id) NOT "
                      "ENFORCED) WITH ('connector' = 'upsert-kafka', 'topic' = '%s', 'properties.bootstrap.servers' "
                      "= '%s', 'key.format' = 'json', 'value.format' = 'json')" % (out_topic, bootstrap))
    t_env.execute_sql("INSERT INTO sold SELECT s.product_id, p.name, SUM(s.quantity) FROM sales s LEFT JOIN products p "
                      "ON p.id = s.product_id GROUP BY s.product_id, p.name ON CONFLICT DO DEDUPLICATE").wait()
    state = upsert_state(bootstrap, out_topic)
    assert {json.loads(key)["product_id"]: json.loads(value) for key, value in state.items()} == {
        1: {"product_id": 1, "name": "one", "quantity": 3 + 6 + 9},
        2: {"product_id": 2, "name": "two", "quantity": 1 + 4 + 7},
        3: {"product_id": 3, "name": None, "quantity": 2 + 5 + 8}}

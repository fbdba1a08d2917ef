"""Flink SQL's 'datagen' connector on Spark: generated rows into Kafka and print at parallelism 2 (each subtask its
part of the sequence, random values within their options), and an event-time window over a bounded datagen table
whose last window fires when the table ends."""
import datetime
import json
import re

import pytest

from kafka_helpers import consume, create_topic, unique_topic, values

pytestmark = pytest.mark.integration


def _table_environment(parallelism):
    from pyflink_compat.table import EnvironmentSettings, TableEnvironment
    t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
    t_env.get_config().set("parallelism.default", str(parallelism))
    return t_env


def test_generated_rows_go_to_kafka_and_print_with_each_subtasks_share_of_the_sequence(spark, bootstrap, capsys):
    topic = create_topic(bootstrap, unique_topic("datagen-out"))
    t_env = _table_environment(2)
    t_env.execute_sql("""
        CREATE TABLE gen (id INT, code VARCHAR(4), word STRING, n INT, share DOUBLE, flag BOOLEAN, never INT,
                          at_ts TIMESTAMP_LTZ(3), label STRING, doubled AS id * 2)
        WITH ('connector' = 'datagen', 'number-of-rows' = '7', 'rows-per-second' = '4',
              'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '10',
              'fields.word.length' = '3', 'fields.word.var-len' = 'true', 'fields.n.min' = '1', 'fields.n.max' = '3',
              'fields.share.min' = '0', 'fields.share.max' = '1', 'fields.never.null-rate' = '1',
              'fields.at_ts.max-past' = '2 s', 'fields.label.kind' = 'sequence', 'fields.label.start' = '100',
              'fields.label.end' = '200')""")
    t_env.execute_sql("""
        CREATE TABLE out (id INT, code STRING, word STRING, n INT, share DOUBLE, flag BOOLEAN, never INT,
                          at_ts TIMESTAMP_LTZ(3), label STRING, doubled INT)
        WITH ('connector' = 'kafka', 'topic' = '%s', 'properties.bootstrap.servers' = '%s', 'format' = 'json')"""
                      % (topic, bootstrap))
    t_env.execute_sql("CREATE TABLE shown (id INT, label STRING) WITH ('connector' = 'print', "
                      "'print-identifier' = 'gen')")
    started = datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None)
    statements = t_env.create_statement_set()
    statements.add_insert_sql("INSERT INTO out SELECT * FROM gen")
    statements.add_insert_sql("INSERT INTO shown SELECT id, label FROM gen")
    statements.execute().wait()

    rows = [json.loads(value) for value in values(consume(bootstrap, topic, 7))]
    assert sorted((row["id"], row["label"], row["doubled"]) for row in rows) == [
        (i, str(99 + i), 2 * i) for i in range(1, 8)]
    for row in rows:
        assert re.fullmatch("[0-9a-f]{4}", row["code"]) and re.fullmatch("[0-9a-f]{1,3}", row["word"])
        assert 1 <= row["n"] <= 3 and 0 <= row["share"] <= 1 and isinstance(row["flag"], bool)
        assert row["never"] is None
        at = datetime.datetime.strptime(row["at_ts"], "%Y-%m-%d %H:%M:%S.%fZ")
        assert started - datetime.timedelta(seconds=3) <= at <= datetime.datetime.utcnow()
    printed = [line for line in capsys.readouterr().out.splitlines() if line.startswith("gen:")]
    # subtask 0 (printed "1>") generates 1, 3, 5, 7; subtask 1 ("2>") 2, 4, 6, each in order
    assert [line for line in printed if line.startswith("gen:1>")] == [
        "gen:1> +I[%d, %d]" % (i, 99 + i) for i in (1, 3, 5, 7)]
    assert [line for line in printed if line.startswith("gen:2>")] == [
        "gen:2> +I[%d, %d]" % (i, 99 + i) for i in (2, 4, 6)]


def test_a_window_over_a_bounded_datagen_table_fires_its_last_window_when_the_table_ends(spark, capsys):
    t_env = _table_environment(1)
    t_env.execute_sql("""
        CREATE TABLE ticks (id BIGINT, zero INT, ts AS TO_TIMESTAMP_LTZ(id * 1000, 3), WATERMARK FOR ts AS ts)
        WITH ('connector' = 'datagen', 'rows-per-second' = '5', 'fields.id.kind' = 'sequence',
              'fields.id.start' = '1', 'fields.id.end' = '12', 'fields.zero.min' = '0', 'fields.zero.max' = '0')""")
    t_env.execute_sql("CREATE TABLE w (ws TIMESTAMP(3), we TIMESTAMP(3), c BIGINT, s BIGINT, z INT) "
                      "WITH ('connector' = 'print', 'print-identifier' = 'w')")
    t_env.execute_sql("""
        INSERT INTO w SELECT window_start, window_end, COUNT(*), SUM(id), MAX(zero)
        FROM TABLE(TUMBLE(TABLE ticks, DESCRIPTOR(ts), INTERVAL '5' SECONDS)) GROUP BY window_start, window_end""") \
        .wait()
    assert [line for line in capsys.readouterr().out.splitlines() if line.startswith("w> ")] == [
        "w> +I[1970-01-01T00:00, 1970-01-01T00:00:05, 4, 10, 0]",
        "w> +I[1970-01-01T00:00:05, 1970-01-01T00:00:10, 5, 35, 0]",
        "w> +I[1970-01-01T00:00:10, 1970-01-01T00:00:15, 3, 33, 0]"]

"""Kafka JSON events -> Flink SQL: a TUMBLE group window of 10 s over a TIMESTAMP_LTZ rowtime (WATERMARK 1 s
behind) with COUNT(*) and SUM per key -> a Kafka JSON table, bounded: the SQL windows benchmark's job.

A plain PyFlink job; runs unchanged on real PyFlink and on pyflink-compat:

    python -m pyflink_compat run benchmarks/sql_windows_job.py BOOTSTRAP INPUT_TOPIC OUTPUT_TOPIC
    python benchmarks/sql_windows_job.py BOOTSTRAP INPUT_TOPIC OUTPUT_TOPIC      # real PyFlink
"""
import sys

from pyflink.table import EnvironmentSettings, TableEnvironment


def main(bootstrap_servers, input_topic, output_topic):
    t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
    t_env.execute_sql("""
        CREATE TABLE events (
            `key` STRING,
            ts BIGINT,
            amount BIGINT,
            rowtime AS TO_TIMESTAMP_LTZ(ts, 3),
            WATERMARK FOR rowtime AS rowtime - INTERVAL '1' SECOND
        ) WITH (
            'connector' = 'kafka', 'topic' = '%s', 'properties.bootstrap.servers' = '%s',
            'properties.group.id' = 'sql-windows-benchmark', 'scan.startup.mode' = 'earliest-offset',
            'scan.bounded.mode' = 'latest-offset', 'format' = 'json')""" % (input_topic, bootstrap_servers))
    t_env.execute_sql("""
        CREATE TABLE windows (`key` STRING, window_start TIMESTAMP(3), `count` BIGINT, total BIGINT) WITH (
            'connector' = 'kafka', 'topic' = '%s', 'properties.bootstrap.servers' = '%s', 'format' = 'json',
            'sink.delivery-guarantee' = 'at-least-once')""" % (output_topic, bootstrap_servers))
    t_env.execute_sql("""
        INSERT INTO windows
        SELECT `key`, TUMBLE_START(rowtime, INTERVAL '10' SECOND), COUNT(*), SUM(amount)
        FROM events GROUP BY TUMBLE(rowtime, INTERVAL '10' SECOND), `key`""").wait()


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.stderr.write("usage: sql_windows_job.py BOOTSTRAP_SERVERS INPUT_TOPIC OUTPUT_TOPIC\n")
        sys.exit(2)
    main(*sys.argv[1:])

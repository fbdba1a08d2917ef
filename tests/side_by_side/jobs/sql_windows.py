"""Flink SQL group windows over a Kafka table whose rowtime is a computed column (TO_TIMESTAMP of a text field
in a Java pattern) with WATERMARK FOR: TUMBLE with TUMBLE_START / TUMBLE_END per
user into print and into a Kafka table of JSON, HOP with HOP_START over all users into print, SESSION per user.
A record behind the watermark comes in the same micro-batch as the records that moved it.

Usage: sql_windows.py BOOTSTRAP INPUT_TOPIC OUTPUT_TOPIC
"""
import sys

from pyflink.table import EnvironmentSettings, TableEnvironment

brokers, input_topic, output_topic = sys.argv[1:4]
t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
t_env.get_config().set("parallelism.default", "1")
t_env.execute_sql("""
    CREATE TABLE clicks (
        usr STRING,
        url STRING,
        `at` STRING,
        ts AS TO_TIMESTAMP(`at`, 'yyyy-MM-dd''T''HH:mm:ss.SSS'),
        WATERMARK FOR ts AS ts - INTERVAL '2' SECOND
    ) WITH (
        'connector' = 'kafka', 'topic' = '%s', 'properties.bootstrap.servers' = '%s',
        'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json')"""
                  % (input_topic, brokers))
t_env.execute_sql("""CREATE TABLE per_user (usr STRING, window_start TIMESTAMP(3), window_end TIMESTAMP(3),
                     clicks BIGINT, with_url BIGINT) WITH ('connector' = 'print', 'print-identifier' = 'tumble')""")
t_env.execute_sql("""CREATE TABLE per_user_kafka (usr STRING, window_end TIMESTAMP(3), clicks BIGINT) WITH (
                     'connector' = 'kafka', 'topic' = '%s', 'properties.bootstrap.servers' = '%s',
                     'format' = 'json')""" % (output_topic, brokers))
t_env.execute_sql("""CREATE TABLE hopping (window_start TIMESTAMP(3), clicks BIGINT)
                     WITH ('connector' = 'print', 'print-identifier' = 'hop')""")
t_env.execute_sql("""CREATE TABLE sessions (usr STRING, session_start TIMESTAMP(3), clicks BIGINT)
                     WITH ('connector' = 'print', 'print-identifier' = 'session')""")
statements = t_env.create_statement_set()
statements.add_insert_sql("""
    INSERT INTO per_user
    SELECT usr, TUMBLE_START(ts, INTERVAL '10' SECOND), TUMBLE_END(ts, INTERVAL '10' SECOND), COUNT(*), COUNT(url)
    FROM clicks GROUP BY usr, TUMBLE(ts, INTERVAL '10' SECOND)""")
statements.add_insert_sql("""
    INSERT INTO per_user_kafka
    SELECT usr, TUMBLE_END(ts, INTERVAL '10' SECOND), COUNT(*) FROM clicks GROUP BY TUMBLE(ts, INTERVAL '10' SECOND), usr""")
statements.add_insert_sql("""
    INSERT INTO hopping
    SELECT HOP_START(ts, INTERVAL '5' SECOND, INTERVAL '10' SECOND), COUNT(*)
    FROM clicks GROUP BY HOP(ts, INTERVAL '5' SECOND, INTERVAL '10' SECOND)""")
statements.add_insert_sql("""
    INSERT INTO sessions
    SELECT usr, SESSION_START(ts, INTERVAL '4' SECOND), COUNT(*) FROM clicks
    GROUP BY SESSION(ts, INTERVAL '4' SECOND), usr""")
statements.execute().wait()

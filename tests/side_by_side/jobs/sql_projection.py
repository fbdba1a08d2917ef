"""Flink SQL: a Kafka table of JSON orders (a malformed message skipped by json.ignore-parse-errors, numbers
given as strings and strings as numbers), two INSERT statements in one statement set: projections with CASE,
arithmetic, || and UPPER, a filter with OR and %, into a print table, and the orders above 50 into a Kafka table
of JSON. Flink's SQL JSON reading and writing (120 read into a DOUBLE column is written 120.0, 1e8 as 1.0E8,
TIMESTAMP(3) text with and without a fraction, one that does not parse read as NULL) and the print connector's
+I[...] lines (a TIMESTAMP as Java's LocalDateTime, CAST to STRING with the type's precision).

Usage: sql_projection.py BOOTSTRAP INPUT_TOPIC OUTPUT_TOPIC
"""
import sys

from pyflink.table import EnvironmentSettings, TableEnvironment

brokers, input_topic, output_topic = sys.argv[1:4]
t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
t_env.get_config().set("parallelism.default", "1")
t_env.execute_sql("""
    CREATE TABLE orders (
        id INT,
        customer STRING,
        amount DOUBLE,
        ts TIMESTAMP(3)
    ) WITH (
        'connector' = 'kafka',
        'topic' = '%s',
        'properties.bootstrap.servers' = '%s',
        'properties.group.id' = 'side-by-side-sql',
        'scan.startup.mode' = 'earliest-offset',
        'scan.bounded.mode' = 'latest-offset',
        'format' = 'json',
        'json.ignore-parse-errors' = 'true'
    )""" % (input_topic, brokers))
t_env.execute_sql("""
    CREATE TABLE printed (id INT, label STRING, doubled DOUBLE, shout STRING, ts TIMESTAMP(3), ts_text STRING)
    WITH ('connector' = 'print')""")
t_env.execute_sql("""
    CREATE TABLE big_orders (id INT, customer STRING, amount DOUBLE, ts TIMESTAMP(3)) WITH (
        'connector' = 'kafka', 'topic' = '%s', 'properties.bootstrap.servers' = '%s', 'format' = 'json')"""
                  % (output_topic, brokers))
statements = t_env.create_statement_set()
statements.add_insert_sql("""
    INSERT INTO printed
    SELECT id,
           CASE WHEN amount >= 100 THEN 'big' WHEN amount IS NULL THEN 'unknown' ELSE 'small' END,
           amount * 2,
           UPPER(customer) || '!',
           ts,
           CAST(ts AS STRING)
    FROM orders WHERE id % 2 = 1 OR customer = 'carla'""")
statements.add_insert_sql("INSERT INTO big_orders SELECT * FROM orders WHERE amount > 50")
statements.execute().wait()

"""Flink SQL GROUP BY into print tables, as Flink's GroupAggregate emits its changelog: +I for a key's first
row, -U / +U for each later one, nothing when the result did not change (the MAX-only statement). Aggregates
COUNT(*), COUNT, SUM, MAX, AVG (an integer average is an integer), an aggregate of a CASE, a NULL key, a WHERE
filter; a view and a subquery over it; the statements of one statement set read the Kafka table once.

Usage: sql_group_by.py BOOTSTRAP INPUT_TOPIC
"""
import sys

from pyflink.table import EnvironmentSettings, TableEnvironment

brokers, input_topic = sys.argv[1:3]
t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
t_env.get_config().set("parallelism.default", "1")
t_env.execute_sql("""
    CREATE TABLE orders (id INT, customer STRING, amount DOUBLE) WITH (
        'connector' = 'kafka', 'topic' = '%s', 'properties.bootstrap.servers' = '%s',
        'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset',
        'format' = 'json', 'json.ignore-parse-errors' = 'true')""" % (input_topic, brokers))
t_env.execute_sql("""
    CREATE TABLE totals (customer STRING, n BIGINT, priced BIGINT, total DOUBLE, mean_id INT, big INT)
    WITH ('connector' = 'print', 'print-identifier' = 'totals')""")
t_env.execute_sql("""
    CREATE TABLE maxima (customer STRING, biggest DOUBLE) WITH ('connector' = 'print', 'print-identifier' = 'max')""")
t_env.execute_sql("CREATE TEMPORARY VIEW big AS SELECT customer AS who, amount FROM orders WHERE amount > 50")
t_env.execute_sql("""
    CREATE TABLE viewed (who STRING, doubled DOUBLE) WITH ('connector' = 'print', 'print-identifier' = 'view')""")
statements = t_env.create_statement_set()
statements.add_insert_sql("INSERT INTO viewed SELECT UPPER(who), amount * 2 FROM (SELECT * FROM big WHERE amount < 200)")
statements.add_insert_sql("""
    INSERT INTO totals
    SELECT customer, COUNT(*), COUNT(amount), SUM(amount), AVG(id), SUM(CASE WHEN amount > 100 THEN 1 ELSE 0 END)
    FROM orders WHERE id < 100 GROUP BY customer""")
statements.add_insert_sql("INSERT INTO maxima SELECT customer, MAX(amount) AS biggest FROM orders GROUP BY customer")
statements.execute().wait()

"""Flink SQL, three statement sets run one after the other from one table environment:

1. projections: a Kafka table of JSON orders (a malformed message skipped by json.ignore-parse-errors, numbers
   given as strings and strings as numbers, TIMESTAMP(3) text with and without a fraction, one that does not
   parse read as NULL) into a print table (CASE, arithmetic, || and UPPER, a TIMESTAMP printed as Java's
   LocalDateTime and CAST to STRING) and the orders above 50 into a Kafka table of JSON (120 read into a DOUBLE
   column written 120.0, 1e8 as 1.0E8);
2. aggregations of the same orders: GROUP BY into print tables, as Flink's GroupAggregate emits its changelog
   (+I for a key's first row, -U / +U for each later one, nothing when the result did not change: the
   MAX-only statement), COUNT(*), COUNT, SUM, MAX, AVG (an integer average is an integer), an aggregate of a
   CASE, a NULL key, a WHERE filter, a view read through a subquery;
3. group windows over a table of clicks whose rowtime is a computed column (TO_TIMESTAMP of a text field in a
   Java pattern) with WATERMARK FOR: TUMBLE per user into print and into Kafka, HOP over all users, SESSION per
   user; a record behind the watermark comes in the same read as the records that moved it (no periodic
   watermark falls between them);
4. ORDER BY a time attribute without LIMIT, at parallelism 2 (the sort, and a print sink after it, run as one
   subtask): the clicks in event time (that record sorted into its place), by a second key where times are equal,
   through an output column's name with a WHERE into print, and in processing time (the order they came); ORDER BY
   other columns fails as on Flink;
5. batch mode: windows (a TUMBLE table function, a GROUP BY TUMBLE per customer) over the orders' TIMESTAMP column,
   which is no time attribute, sorted; ROW_NUMBER() and RANK() OVER (...) of every order (NULL keys and amounts
   among them).

Usage: sql_statement_sets.py BOOTSTRAP ORDERS_TOPIC ORDERS_OUT_TOPIC CLICKS_TOPIC WINDOWS_OUT_TOPIC
"""
import sys

from pyflink.table import EnvironmentSettings, TableEnvironment

brokers, input_topic, output_topic, clicks_topic, windows_topic = sys.argv[1:6]
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
projections = t_env.create_statement_set()
projections.add_insert_sql("""
    INSERT INTO printed
    SELECT id,
           CASE WHEN amount >= 100 THEN 'big' WHEN amount IS NULL THEN 'unknown' ELSE 'small' END,
           amount * 2,
           UPPER(customer) || '!',
           ts,
           CAST(ts AS STRING)
    FROM orders WHERE id % 2 = 1 OR customer = 'carla'""")
projections.add_insert_sql("INSERT INTO big_orders SELECT * FROM orders WHERE amount > 50")
projections.execute().wait()
t_env.execute_sql("""
    CREATE TABLE totals (customer STRING, n BIGINT, priced BIGINT, total DOUBLE, mean_id INT, big INT)
    WITH ('connector' = 'print', 'print-identifier' = 'totals')""")
t_env.execute_sql("""
    CREATE TABLE maxima (customer STRING, biggest DOUBLE) WITH ('connector' = 'print', 'print-identifier' = 'max')""")
t_env.execute_sql("CREATE TEMPORARY VIEW big AS SELECT customer AS who, amount FROM orders WHERE amount > 50")
t_env.execute_sql("""
    CREATE TABLE viewed (who STRING, doubled DOUBLE) WITH ('connector' = 'print', 'print-identifier' = 'view')""")
aggregations = t_env.create_statement_set()
aggregations.add_insert_sql("INSERT INTO viewed SELECT UPPER(who), amount * 2 FROM (SELECT * FROM big WHERE amount < 200)")
aggregations.add_insert_sql("""
    INSERT INTO totals
    SELECT customer, COUNT(*), COUNT(amount), SUM(amount), AVG(id), SUM(CASE WHEN amount > 100 THEN 1 ELSE 0 END)
    FROM orders WHERE id < 100 GROUP BY customer""")
aggregations.add_insert_sql("INSERT INTO maxima SELECT customer, MAX(amount) AS biggest FROM orders GROUP BY customer")
aggregations.execute().wait()
# No periodic watermark while the few clicks are read (Flink emits one every 200 ms by default, and on a slow
# machine one could fall between two clicks and make the record behind it late): on both engines the watermark
# moves once all of them are in, so that record is on time whatever the machine's load.
t_env.get_config().set("pipeline.auto-watermark-interval", "1 min")
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
                  % (clicks_topic, brokers))
t_env.execute_sql("""CREATE TABLE per_user (usr STRING, window_start TIMESTAMP(3), window_end TIMESTAMP(3),
                     clicks BIGINT, with_url BIGINT) WITH ('connector' = 'print', 'print-identifier' = 'tumble')""")
t_env.execute_sql("""CREATE TABLE per_user_kafka (usr STRING, window_end TIMESTAMP(3), clicks BIGINT) WITH (
                     'connector' = 'kafka', 'topic' = '%s', 'properties.bootstrap.servers' = '%s',
                     'format' = 'json')""" % (windows_topic, brokers))
t_env.execute_sql("""CREATE TABLE hopping (window_start TIMESTAMP(3), clicks BIGINT)
                     WITH ('connector' = 'print', 'print-identifier' = 'hop')""")
t_env.execute_sql("""CREATE TABLE sessions (usr STRING, session_start TIMESTAMP(3), clicks BIGINT)
                     WITH ('connector' = 'print', 'print-identifier' = 'session')""")
windows = t_env.create_statement_set()
windows.add_insert_sql("""
    INSERT INTO per_user
    SELECT usr, TUMBLE_START(ts, INTERVAL '10' SECOND), TUMBLE_END(ts, INTERVAL '10' SECOND), COUNT(*), COUNT(url)
    FROM clicks GROUP BY usr, TUMBLE(ts, INTERVAL '10' SECOND)""")
windows.add_insert_sql("""
    INSERT INTO per_user_kafka
    SELECT usr, TUMBLE_END(ts, INTERVAL '10' SECOND), COUNT(*) FROM clicks GROUP BY TUMBLE(ts, INTERVAL '10' SECOND), usr""")
windows.add_insert_sql("""
    INSERT INTO hopping
    SELECT HOP_START(ts, INTERVAL '5' SECOND, INTERVAL '10' SECOND), COUNT(*)
    FROM clicks GROUP BY HOP(ts, INTERVAL '5' SECOND, INTERVAL '10' SECOND)""")
windows.add_insert_sql("""
    INSERT INTO sessions
    SELECT usr, SESSION_START(ts, INTERVAL '4' SECOND), COUNT(*) FROM clicks
    GROUP BY SESSION(ts, INTERVAL '4' SECOND), usr""")
windows.execute().wait()

t_env.get_config().set("parallelism.default", "2")
t_env.execute_sql("""
    CREATE TABLE clicks_arriving (usr STRING, url STRING, pt AS PROCTIME()) WITH (
        'connector' = 'kafka', 'topic' = '%s', 'properties.bootstrap.servers' = '%s',
        'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json')"""
                  % (clicks_topic, brokers))
t_env.execute_sql("SELECT usr, url, ts FROM clicks ORDER BY ts, usr DESC").print()
t_env.execute_sql("CREATE TABLE in_time (usr STRING, ts TIMESTAMP(3)) WITH ('connector' = 'print', "
                  "'print-identifier' = 'sorted')")
t_env.execute_sql("INSERT INTO in_time SELECT usr AS u, ts AS t FROM clicks WHERE url IS NOT NULL ORDER BY t").wait()
t_env.execute_sql("SELECT usr, url FROM clicks_arriving ORDER BY pt").print()
for query in ("SELECT usr FROM clicks ORDER BY ts DESC", "SELECT usr FROM clicks ORDER BY usr, ts"):
    try:
        t_env.execute_sql(query)
    except Exception as e:
        print("refused:", str(e).splitlines()[0])

batch_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
batch_env.get_config().set("parallelism.default", "1")
batch_env.execute_sql("""
    CREATE TABLE orders (id INT, customer STRING, amount DOUBLE, ts TIMESTAMP(3)) WITH (
        'connector' = 'kafka', 'topic' = '%s', 'properties.bootstrap.servers' = '%s',
        'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset', 'format' = 'json',
        'json.ignore-parse-errors' = 'true')""" % (input_topic, brokers))
batch_env.execute_sql("""SELECT window_start, COUNT(*) AS n, SUM(amount) AS total FROM TABLE(TUMBLE(TABLE orders,
    DESCRIPTOR(ts), INTERVAL '1' SECOND)) GROUP BY window_start, window_end ORDER BY window_start""").print()
batch_env.execute_sql("""SELECT TUMBLE_START(ts, INTERVAL '5' SECOND) AS ws, customer, COUNT(*) AS n FROM orders
    WHERE ts IS NOT NULL GROUP BY TUMBLE(ts, INTERVAL '5' SECOND), customer ORDER BY ws, customer""").print()
batch_env.execute_sql("""SELECT id, customer, amount, ROW_NUMBER() OVER (PARTITION BY customer ORDER BY amount DESC)
    AS rn FROM orders""").print()
batch_env.execute_sql("SELECT customer, RANK() OVER (ORDER BY customer) AS r, id FROM orders").print()

"""Flink SQL window table functions with window aggregation over a Kafka table of clicks whose rowtime is a
TIMESTAMP(3) column with WATERMARK FOR: TUMBLE per user into a print table and into a Kafka table (JSON),
HOP over all users (a record in two windows), CUMULATE over all users (windows growing by a step), SESSION
per user (PARTITION BY) and over all users, window_time (the window's last millisecond) printed as a tableau;
a record behind the watermark comes in the same micro-batch as the records that moved it; cascading windows (a
window over a view of a window aggregation, by window_time and by TUMBLE_ROWTIME); Top-N, deduplication
and ORDER BY ... LIMIT over a 'datagen' table; OVER aggregations (ROWS and RANGE frames, named windows); Top-N over
a GROUP BY, GROUP BY views, RANK refused.

Usage: sql_window_tvf.py BOOTSTRAP CLICKS_TOPIC WINDOWS_TOPIC
"""
import sys

from pyflink.table import EnvironmentSettings, TableEnvironment
from pyflink.table.expressions import col

brokers, clicks_topic, windows_topic = sys.argv[1:4]
t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
t_env.get_config().set("parallelism.default", "1")
t_env.execute_sql("""
    CREATE TABLE clicks (
        usr STRING,
        url STRING,
        ts TIMESTAMP(3),
        WATERMARK FOR ts AS ts - INTERVAL '2' SECOND
    ) WITH (
        'connector' = 'kafka',
        'topic' = '%s',
        'properties.bootstrap.servers' = '%s',
        'scan.startup.mode' = 'earliest-offset',
        'scan.bounded.mode' = 'latest-offset',
        'format' = 'json'
    )""" % (clicks_topic, brokers))
t_env.execute_sql("""
    CREATE TABLE per_user (window_start TIMESTAMP(3), window_end TIMESTAMP(3), usr STRING, clicks BIGINT,
                           pages BIGINT) WITH ('connector' = 'print', 'print-identifier' = 'tumble')""")
t_env.execute_sql("""
    CREATE TABLE all_users (window_start TIMESTAMP(3), window_end TIMESTAMP(3), clicks BIGINT)
    WITH ('connector' = 'print', 'print-identifier' = 'hop')""")
t_env.execute_sql("""
    CREATE TABLE cumulative (window_start TIMESTAMP(3), window_end TIMESTAMP(3), clicks BIGINT)
    WITH ('connector' = 'print', 'print-identifier' = 'cumulate')""")
t_env.execute_sql("""
    CREATE TABLE sessions (usr STRING, window_start TIMESTAMP(3), window_end TIMESTAMP(3), clicks BIGINT)
    WITH ('connector' = 'print', 'print-identifier' = 'session')""")
t_env.execute_sql("""
    CREATE TABLE windows (usr STRING, window_start TIMESTAMP(3), clicks BIGINT) WITH (
        'connector' = 'kafka', 'topic' = '%s', 'properties.bootstrap.servers' = '%s', 'format' = 'json')"""
                  % (windows_topic, brokers))
# cascading windows: a view of a window aggregation keeps window_time (a group window's TUMBLE_ROWTIME) as its
# rowtime, and a wider window over it adds the narrower one's results up
t_env.execute_sql("""
    CREATE VIEW five_seconds AS SELECT usr, window_start AS ws, window_time AS rowtime, COUNT(*) AS n
    FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '5' SECONDS)) GROUP BY usr, window_start, window_end,
    window_time""")
t_env.execute_sql("""
    CREATE VIEW five_grouped AS SELECT usr, TUMBLE_START(ts, INTERVAL '5' SECOND) AS s,
    TUMBLE_ROWTIME(ts, INTERVAL '5' SECOND) AS rt, COUNT(*) AS n FROM clicks GROUP BY usr, TUMBLE(ts, INTERVAL '5' SECOND)""")
t_env.from_path("five_grouped").print_schema()
t_env.execute_sql("""
    CREATE TABLE cascade_sums (window_start TIMESTAMP(3), window_time TIMESTAMP(3), total BIGINT, parts BIGINT)
    WITH ('connector' = 'print', 'print-identifier' = 'cascaded')""")
statements = t_env.create_statement_set()
statements.add_insert_sql("""
    INSERT INTO cascade_sums SELECT window_start, window_time, SUM(n), COUNT(*)
    FROM TABLE(TUMBLE(TABLE five_seconds, DESCRIPTOR(rowtime), INTERVAL '20' SECONDS))
    GROUP BY window_start, window_end, window_time""")
statements.add_insert_sql("""
    INSERT INTO cascade_sums SELECT TUMBLE_START(rt, INTERVAL '20' SECOND), TUMBLE_ROWTIME(rt, INTERVAL '20' SECOND),
    SUM(n), COUNT(DISTINCT usr) FROM five_grouped GROUP BY TUMBLE(rt, INTERVAL '20' SECOND)""")
statements.add_insert_sql("""
    INSERT INTO per_user
    SELECT window_start, window_end, usr, COUNT(*), COUNT(url)
    FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '10' SECONDS))
    GROUP BY window_start, window_end, usr""")
statements.add_insert_sql("""
    INSERT INTO all_users
    SELECT window_start, window_end, COUNT(*)
    FROM TABLE(HOP(TABLE clicks, DESCRIPTOR(ts), INTERVAL '5' SECONDS, INTERVAL '10' SECONDS))
    GROUP BY window_start, window_end""")
statements.add_insert_sql("""
    INSERT INTO cumulative
    SELECT window_start, window_end, COUNT(*)
    FROM TABLE(CUMULATE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '5' SECONDS, INTERVAL '15' SECONDS))
    GROUP BY window_start, window_end""")
statements.add_insert_sql("""
    INSERT INTO sessions
    SELECT usr, window_start, window_end, COUNT(*)
    FROM TABLE(SESSION(TABLE clicks PARTITION BY usr, DESCRIPTOR(ts), INTERVAL '5' SECONDS))
    GROUP BY usr, window_start, window_end""")
statements.add_insert_sql("""
    INSERT INTO sessions
    SELECT 'all', window_start, window_end, COUNT(*)
    FROM TABLE(SESSION(TABLE clicks, DESCRIPTOR(ts), INTERVAL '5' SECONDS))
    GROUP BY window_start, window_end""")
statements.add_insert_sql("""
    INSERT INTO windows
    SELECT usr, window_start, COUNT(*) FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '10' SECONDS))
    GROUP BY usr, window_start, window_end""")
statements.execute().wait()
t_env.execute_sql("""
    SELECT window_start, window_end, window_time, COUNT(*) AS clicks
    FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '10' SECONDS))
    GROUP BY window_start, window_end, window_time""").print()

# Top-N and deduplication (ROW_NUMBER() OVER ... filtered on the number) over a bounded 'datagen' table whose
# computed columns shuffle the order: with and without the row number selected, the inner query's filter and
# an outer one; keeping the first row on event time (once the watermark passes it), the last on event time (both
# with the row number selected: a deduplication still), the first and last on processing time; a Top-3 over all rows as a tableau.
t_env.execute_sql("""
    CREATE TABLE numbers (id INT, k AS MOD(id, 3), v AS MOD(id * 7, 11), name AS CONCAT('n', CAST(id AS STRING)),
        ts AS TO_TIMESTAMP_LTZ(MOD(id * 5, 13) * 1000, 3), pt AS PROCTIME(),
        WATERMARK FOR ts AS ts - INTERVAL '20' SECOND)
    WITH ('connector' = 'datagen', 'rows-per-second' = '1000', 'fields.id.kind' = 'sequence',
          'fields.id.start' = '1', 'fields.id.end' = '14')""")
top_n = {
    "rn": ("k INT, v INT, name STRING, rn BIGINT",
           "SELECT k, v, name, rn FROM (SELECT k, v, name, ROW_NUMBER() OVER (PARTITION BY k ORDER BY v DESC) AS rn "
           "FROM numbers) WHERE rn <= 2"),
    "norn": ("k INT, v INT, name STRING",
             "SELECT k, v, name FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY k ORDER BY v ASC, id DESC) AS rownum "
             "FROM numbers WHERE id <> 4) WHERE rownum < 3 AND v > 0"),
    "first": ("k INT, name STRING, ts TIMESTAMP_LTZ(3), rn BIGINT",
              "SELECT k, name, ts, rn FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY k ORDER BY ts) AS rn "
              "FROM numbers) WHERE rn = 1"),
    "last": ("k INT, name STRING, ts TIMESTAMP_LTZ(3), rn BIGINT",
             "SELECT * FROM (SELECT k, name, ts, ROW_NUMBER() OVER (PARTITION BY k ORDER BY ts DESC) AS rn "
             "FROM numbers) WHERE rn <= 1"),
    "pfirst": ("k INT, name STRING", "SELECT k, name FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY k ORDER BY pt "
                                     "ASC) AS rn FROM numbers) WHERE rn = 1"),
    "plast": ("k INT, name STRING", "SELECT k, name FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY k ORDER BY pt "
                                    "DESC) AS rn FROM numbers) WHERE rn = 1"),
}
statements = t_env.create_statement_set()
for identifier, (columns, query) in top_n.items():
    t_env.execute_sql("CREATE TABLE top_%s (%s) WITH ('connector' = 'print', 'print-identifier' = '%s')"
                      % (identifier, columns, identifier))
    statements.add_insert_sql("INSERT INTO top_%s %s" % (identifier, query))
t_env.execute_sql("CREATE TABLE lowest (name STRING, v INT) WITH ('connector' = 'print', 'print-identifier' = 'lim')")
statements.add_insert_sql("INSERT INTO lowest SELECT name, v FROM numbers ORDER BY v LIMIT 2")
statements.execute().wait()
t_env.execute_sql("SELECT * FROM (SELECT name, v, ROW_NUMBER() OVER (ORDER BY v DESC, id) AS r FROM numbers) "
                  "WHERE r <= 3").print()

# ORDER BY ... LIMIT (a Top-N over all rows), LIMIT alone (the first rows), LIMIT ... OFFSET and rn BETWEEN (ranks
# from an offset: numbered changes), into print and as tableaus; ORDER BY without LIMIT fails as in Flink.
t_env.execute_sql("SELECT name, v FROM numbers WHERE v > 2 ORDER BY v DESC, name LIMIT 3").print()
t_env.execute_sql("SELECT id, v, name FROM numbers LIMIT 4").print()
t_env.execute_sql("SELECT name, v FROM numbers ORDER BY v DESC LIMIT 2 OFFSET 1").print()
t_env.execute_sql("SELECT * FROM (SELECT name, v, ROW_NUMBER() OVER (ORDER BY v) AS r FROM numbers) "
                  "WHERE r BETWEEN 2 AND 3").print()
try:
    t_env.execute_sql("SELECT name FROM numbers ORDER BY v").print()
except Exception as e:
    print(type(e).__name__, str(e).splitlines()[0])

# OVER aggregations over a 'datagen' table with an out-of-order rowtime: ROWS (2 preceding, per key: floating sums
# retracted as Flink does, rows not after the last time taken dropped), a named RANGE window with WHERE, UNBOUNDED
# without a partition, the default frame; a bounded window ordered by a non-time column fails as in Flink
t_env.execute_sql("""CREATE TABLE readings (id BIGINT, k AS MOD(id * 7, 3), v AS CAST(MOD(id * 5, 11) AS DOUBLE) + 0.1,
    ts AS TO_TIMESTAMP_LTZ(id * 1000 - MOD(id, 3) * 1500, 3), WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)
    WITH ('connector' = 'datagen', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '14')""")
t_env.execute_sql("SELECT id, k, v, SUM(v) OVER w AS s, COUNT(v) OVER w AS c, MIN(v) OVER w AS mn FROM readings "
                  "WINDOW w AS (PARTITION BY k ORDER BY ts ROWS BETWEEN 2 PRECEDING AND CURRENT ROW)").print()
t_env.execute_sql("SELECT id, k, ts, MAX(v) OVER w AS mx, AVG(v) OVER w AS av, COUNT(*) OVER w AS n FROM readings "
                  "WHERE id <> 5 WINDOW w AS (PARTITION BY k ORDER BY ts RANGE BETWEEN INTERVAL '3' SECOND PRECEDING "
                  "AND CURRENT ROW)").print()
t_env.execute_sql("SELECT id, SUM(id) OVER (ORDER BY ts ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS total, "
                  "COUNT(*) OVER (ORDER BY ts ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM readings "
                  "WHERE id < 10").print()
t_env.execute_sql("SELECT id, k, SUM(id) OVER (PARTITION BY k ORDER BY ts) AS by_key FROM readings").print()
try:
    t_env.execute_sql("SELECT id, SUM(v) OVER (PARTITION BY k ORDER BY id ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) "
                      "FROM readings").print()
except Exception as e:
    print(type(e).__name__, [line for line in str(e).splitlines() if "Exception: " in line][0].split("Exception: ")[-1])

# Top-N over a GROUP BY (the retract strategy: with and without the row number), a GROUP BY view read with a
# filter into print and as a tableau, and a Table API group_by as a view
sales = t_env.from_elements([("x", "a", 5), ("x", "b", 3), ("x", "c", 4), ("x", "b", 3), ("x", "d", 1), ("x", "a", -4),
                             ("x", "d", 10), ("y", "e", 1)], ["cat", "p", "amt"])
t_env.create_temporary_view("sales", sales)
t_env.execute_sql("CREATE TABLE best_rn (cat STRING, p STRING, s BIGINT, rn BIGINT) "
                  "WITH ('connector' = 'print', 'print-identifier' = 'best_rn')")
t_env.execute_sql("CREATE TABLE best (cat STRING, p STRING, s BIGINT) "
                  "WITH ('connector' = 'print', 'print-identifier' = 'best')")
ranked = ("FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY cat ORDER BY s DESC) AS rn FROM "
          "(SELECT cat, p, SUM(amt) AS s FROM sales GROUP BY cat, p)) WHERE rn <= 2")
t_env.execute_sql("CREATE VIEW totals AS SELECT cat, COUNT(*) AS n, SUM(amt) AS s FROM sales GROUP BY cat")
t_env.from_path("totals").print_schema()
t_env.execute_sql("CREATE TABLE busy (cat STRING, s BIGINT) WITH ('connector' = 'print', 'print-identifier' = 'busy')")
statements = t_env.create_statement_set()
statements.add_insert_sql("INSERT INTO best_rn SELECT cat, p, s, rn " + ranked)
statements.add_insert_sql("INSERT INTO best SELECT cat, p, s " + ranked)
statements.add_insert_sql("INSERT INTO busy SELECT cat, s * 10 FROM totals WHERE n > 1")
statements.execute().wait()
t_env.execute_sql("SELECT cat, n FROM (SELECT cat, COUNT(*) AS n FROM sales GROUP BY cat) WHERE n >= 2").print()
t_env.create_temporary_view("maxes", sales.group_by(col("cat")).select(col("cat"), col("amt").max.alias("m")))
t_env.execute_sql("SELECT * FROM maxes").print()
for function in ("RANK", "DENSE_RANK"):
    try:
        t_env.execute_sql("INSERT INTO best SELECT cat, p, amt FROM (SELECT *, %s() OVER (PARTITION BY cat ORDER BY "
                          "amt DESC) AS rn FROM sales) WHERE rn <= 2" % function).wait()
    except Exception as e:
        print(type(e).__name__, [line for line in str(e).splitlines() if "Exception: " in line][0].split(
            "Exception: ")[-1])

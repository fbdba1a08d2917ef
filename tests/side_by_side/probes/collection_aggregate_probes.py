"""Flink's ARRAY_AGG and JSON_OBJECTAGG in streaming GROUP BYs: their changelogs (DISTINCT, IGNORE / RESPECT NULLS,
ORDER BY, FILTER, values taken back by a GROUP BY of a GROUP BY, NULL and ABSENT ON NULL, ROW values, unchanged
results), in windows, their types and errors; run under real PyFlink and under pyflink-compat (``--compat``) and
compared by test_collection_aggregates.py."""
import re
import sys

if "--compat" in sys.argv:
    from pyflink_compat import aliasing
    aliasing.install()
from pyflink.table import DataTypes, EnvironmentSettings, TableEnvironment

t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
t_env.get_config().set("parallelism.default", "1")
ROW = DataTypes.ROW([DataTypes.FIELD("k", DataTypes.INT()), DataTypes.FIELD("s", DataTypes.STRING()),
                     DataTypes.FIELD("n", DataTypes.INT())])
t_env.create_temporary_view("v", t_env.from_elements(
    [(1, 'a', 10), (1, 'b', None), (1, 'c', 3), (1, 'a', 10), (2, 'x', 4), (1, 'b', 5), (2, 'y', 1), (1, 'c', 7),
     (3, None, None)], ROW))
# Few queries, many columns: each query is a job of its own (the probe's time); the ones whose unchanged-update
# rule is tested (a result that does not change emits nothing) keep their column alone.
QUERIES = [
    "SELECT k, ARRAY_AGG(s) AS a, ARRAY_AGG(n) AS b, ARRAY_AGG(DISTINCT n) AS d, ARRAY_AGG(n IGNORE NULLS) AS i, "
    "ARRAY_AGG(s RESPECT NULLS) AS r, ARRAY_AGG(ROW(s, n)) AS rw, ARRAY_AGG(s) FILTER (WHERE n > 5) AS f, "
    "ARRAY_AGG(n) FILTER (WHERE s <> 'a') AS g, COUNT(*) AS c FROM v GROUP BY k",
    "SELECT k, ARRAY_AGG(DISTINCT s IGNORE NULLS) AS a FROM v GROUP BY k",
    "SELECT ARRAY_AGG(s ORDER BY s) AS a FROM v",
    "SELECT k, ARRAY_AGG(c) AS a, ARRAY_AGG(s) AS b, ARRAY_AGG(s) FILTER (WHERE c < 2) AS f FROM (SELECT k, s, "
    "COUNT(*) AS c FROM v GROUP BY k, s) GROUP BY k",
    "SELECT c, ARRAY_AGG(k) AS ks FROM (SELECT k, COUNT(*) AS c FROM v GROUP BY k) GROUP BY c",
    "SELECT k, JSON_OBJECTAGG(KEY s VALUE c) AS j, JSON_OBJECTAGG(KEY s VALUE m NULL ON NULL) AS jn, "
    "JSON_OBJECTAGG(s VALUE m ABSENT ON NULL) AS ja, JSON_OBJECTAGG(KEY s VALUE ROW(m, s)) AS jr, "
    "JSON_OBJECTAGG(KEY s VALUE ARRAY[m]) AS jar FROM (SELECT k, s, COUNT(*) AS c, MAX(n) AS m FROM v "
    "WHERE s IS NOT NULL GROUP BY k, s) GROUP BY k",
]
for query in QUERIES:
    print("==", query)
    table = t_env.sql_query(query)
    print(table.get_schema())
    table.execute().print()
# in windows: a window table function's aggregation and a group window over a bounded datagen sequence
t_env.execute_sql("""CREATE TABLE ticks (id BIGINT, ts AS TO_TIMESTAMP_LTZ(id * 1000, 3), WATERMARK FOR ts AS ts)
    WITH ('connector' = 'datagen', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '12')""")
t_env.execute_sql("""SELECT window_start, ARRAY_AGG(id) AS ids, JSON_OBJECTAGG(KEY CAST(id AS STRING) VALUE id) AS o,
    ARRAY_AGG(id) FILTER (WHERE MOD(id, 2) = 0) AS evens
    FROM TABLE(TUMBLE(TABLE ticks, DESCRIPTOR(ts), INTERVAL '5' SECONDS)) GROUP BY window_start, window_end""").print()
t_env.execute_sql("""SELECT TUMBLE_START(ts, INTERVAL '4' SECOND) AS ws, ARRAY_AGG(id) AS ids
    FROM ticks GROUP BY TUMBLE(ts, INTERVAL '4' SECOND)""").print()
for bad in ("SELECT JSON_OBJECTAGG(KEY s VALUE n) FROM v WHERE s IS NOT NULL",
            "SELECT JSON_OBJECTAGG(KEY s VALUE n ABSENT ON NULL) FROM v WHERE k = 3",
            "SELECT JSON_OBJECTAGG(KEY n VALUE s) FROM v",
            "SELECT ARRAY_AGG(n IGNORE NULLS) FILTER (WHERE n > 1) FROM v",
            "SELECT JSON_OBJECTAGG(KEY s VALUE n) FILTER (WHERE n > 1) FROM v"):
    try:
        t_env.execute_sql(bad).print()
        print(bad, "no error")
    except Exception as e:
        # the Flink error's message, without what differs between the engines (a job failure's causes around it,
        # a validation error's position and wrapping)
        messages = re.findall(r"(?:Table|TableRuntime|Validation|SqlValidator|SqlParser)Exception: "
                              r"(?:SQL validation failed\. |SQL parse failed\. )?"
                              r"(?:From line \d+, column \d+ to line \d+, column \d+: )?(.*?)"
                              r"(?: at line \d+, column \d+\.| \(pyflink-compat's SQL parser.*)?$", str(e), re.MULTILINE)
        print(bad, "->", messages[-1] if messages else str(e).splitlines()[0])

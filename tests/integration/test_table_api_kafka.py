"""The Table API and Python functions on the real broker and Spark (expected lines as PyFlink 2.3.0 prints
them for the same job): left_outer_join_lateral of a table function declared by a ROW string, a pandas scalar
function given a NULL, if_then_else; a table function registered for SQL in LEFT JOIN LATERAL TABLE under GROUP
BY (COUNT of a column skips NULLs); add_or_replace_columns, in_, like and | in a filter, as a tableau."""
import pytest

from kafka_helpers import create_topic, produce, unique_topic

pytestmark = pytest.mark.integration


def test_lateral_table_functions_pandas_functions_and_column_operations(spark, bootstrap, capsys):
    from pyflink_compat.table import DataTypes, EnvironmentSettings, TableEnvironment
    from pyflink_compat.table.expressions import col, concat_ws, if_then_else
    from pyflink_compat.table.udf import udf, udtf

    topic = create_topic(bootstrap, unique_topic("table-api-lines"))
    for line in ["hello big world", "", "a bb", "solo"]:
        produce(bootstrap, topic, [line])
    t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
    t_env.get_config().set("parallelism.default", "1")
    t_env.execute_sql("CREATE TABLE lines (line STRING) WITH ('connector' = 'kafka', 'topic' = '%s', "
                      "'properties.bootstrap.servers' = '%s', 'scan.startup.mode' = 'earliest-offset', "
                      "'scan.bounded.mode' = 'latest-offset', 'format' = 'raw')" % (topic, bootstrap))

    @udtf(result_types='ROW<word STRING, n INT>')
    def words(line):
        for word in line.split():
            yield word, len(word)

    @udf(result_type=DataTypes.BIGINT(), func_type="pandas")
    def doubled(n):
        return n * 2

    t_env.execute_sql("CREATE TABLE p (line STRING, word STRING, n INT, d BIGINT, kind STRING) "
                      "WITH ('connector' = 'print', 'print-identifier' = 'lat')")
    lines = t_env.from_path("lines")
    lines.left_outer_join_lateral(words(col("line"))) \
        .select(col("line"), col("word"), col("n"), doubled(col("n")), if_then_else(col("n") > 3, "long", "short")) \
        .execute_insert("p").wait()
    t_env.create_temporary_system_function("words", words)
    t_env.execute_sql("SELECT line, COUNT(word) AS words, COUNT(*) AS c, MAX(n) FROM lines "
                      "LEFT JOIN LATERAL TABLE(words(line)) ON TRUE GROUP BY line").print()
    lines.add_or_replace_columns(concat_ws("-", col("line"), "x").alias("line"), col("line").char_length.alias("len")) \
        .where(col("len").in_(0, 5, 9) | col("line").like("%b%")).execute().print()
    printed = [line for line in capsys.readouterr().out.splitlines()
               if line.startswith(("lat>", "|", "+-", "10 rows", "3 rows"))]
    assert printed == """\
lat> +I[hello big world, hello, 5, 10, long]
lat> +I[hello big world, big, 3, 6, short]
lat> +I[hello big world, world, 5, 10, long]
lat> +I[, null, null, null, short]
lat> +I[a bb, a, 1, 2, short]
lat> +I[a bb, bb, 2, 4, short]
lat> +I[solo, solo, 4, 8, long]
+----+--------------------------------+----------------------+----------------------+-------------+
| op |                           line |                words |                    c |      EXPR$3 |
+----+--------------------------------+----------------------+----------------------+-------------+
| +I |                hello big world |                    1 |                    1 |           5 |
| -U |                hello big world |                    1 |                    1 |           5 |
| +U |                hello big world |                    2 |                    2 |           5 |
| -U |                hello big world |                    2 |                    2 |           5 |
| +U |                hello big world |                    3 |                    3 |           5 |
| +I |                                |                    0 |                    1 |      <NULL> |
| +I |                           a bb |                    1 |                    1 |           1 |
| -U |                           a bb |                    1 |                    1 |           1 |
| +U |                           a bb |                    2 |                    2 |           2 |
| +I |                           solo |                    1 |                    1 |           4 |
+----+--------------------------------+----------------------+----------------------+-------------+
10 rows in set
+----+--------------------------------+-------------+
| op |                           line |         len |
+----+--------------------------------+-------------+
| +I |              hello big world-x |          15 |
| +I |                             -x |           0 |
| +I |                         a bb-x |           4 |
+----+--------------------------------+-------------+
3 rows in set""".splitlines()

"""Value constructors ARRAY[...], MAP[...], ROW(...) and (a, b): their types, their values as a tableau and as a
print table prints them, and their validation errors (without the error's position); run under real PyFlink and
under pyflink-compat (``--compat``) and compared by test_value_constructors.py. (PyFlink 2.3's collect() cannot
return most of these values, so none is collected.)"""
import re
import sys

if "--compat" in sys.argv:
    from pyflink_compat import aliasing
    aliasing.install()
from pyflink.table import EnvironmentSettings, TableEnvironment

t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
t_env.get_config().set("parallelism.default", "1")
t_env.execute_sql("CREATE TEMPORARY VIEW v AS SELECT * FROM (VALUES (1, 'x', CAST(2.5 AS DOUBLE)), "
                  "(2, CAST(NULL AS STRING), CAST(NULL AS DOUBLE))) AS T(i, s, d)")
COLUMNS = ["ARRAY[1, 2, 3]", "ARRAY['a', 'bc']", "ARRAY[i, CAST(NULL AS INT)]", "ARRAY[1.5, 2]", "ARRAY[i, d]",
           "ARRAY[s]", "ARRAY[ARRAY[1], ARRAY[2, 3]]", "MAP['a', 1, 'b', 2]", "MAP['a', 1, 'a', 2]", "MAP[s, i]",
           "MAP[i, d]", "ROW(i, s)", "ROW(1, 'x', 2.5)", "(i, s)", "ROW(i, ARRAY[s])", "CARDINALITY(ARRAY[i, 2])",
           "ARRAY[i, 20][2]", "MAP['k', i]['k']", "CARDINALITY(MAP[s, d])"]
query = t_env.sql_query("SELECT %s FROM v" % ", ".join("%s AS c%d" % (column, n) for n, column in enumerate(COLUMNS)))
print(query.get_resolved_schema())
query.execute().print()
t_env.execute_sql("CREATE TABLE p (a ARRAY<INT>, m MAP<STRING, STRING>, r ROW<n INT, t STRING>, "
                  "q ROW<x DOUBLE, y ARRAY<STRING>>) WITH ('connector' = 'print')")
t_env.execute_sql("INSERT INTO p SELECT ARRAY[i, 2], MAP['k', s], ROW(i, s), (d, ARRAY[s, 'z']) FROM v").wait()
for bad in ("ARRAY[1, 'a']", "ARRAY[]", "MAP['a']", "MAP[1, 2, 'a', 3]"):
    try:
        t_env.sql_query("SELECT %s FROM v" % bad).get_resolved_schema()
        print(bad, "no error")
    except Exception as e:
        text = str(e)
        line = text.splitlines()[1] if text.startswith("An error") else text.splitlines()[0]
        print(bad, re.sub(r"From line \d+, column \d+ to line \d+, column \d+: ", "", line))

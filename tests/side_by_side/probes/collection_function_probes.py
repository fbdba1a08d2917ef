"""Flink's array and map functions (ARRAY_CONTAINS ... ARRAY_SORT, MAP_KEYS ... MAP_FROM_ARRAYS, ELEMENT, SPLIT):
their types and values in one tableau, and their errors; run under real PyFlink and under pyflink-compat
(``--compat``) and compared by test_collection_functions.py."""
import re
import sys

if "--compat" in sys.argv:
    from pyflink_compat import aliasing
    aliasing.install()
from pyflink.table import EnvironmentSettings, TableEnvironment

t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
t_env.get_config().set("parallelism.default", "1")
t_env.execute_sql("CREATE TEMPORARY VIEW v AS SELECT * FROM (VALUES (1, 'b'), (2, CAST(NULL AS STRING))) AS T(i, s)")
COLUMNS = [
    "ARRAY_CONTAINS(ARRAY[1, 2, i], 2)", "ARRAY_CONTAINS(ARRAY[s, 'a'], s)", "ARRAY_CONTAINS(ARRAY[1.5, 2], 2)",
    "ARRAY_DISTINCT(ARRAY[3, 1, 3, i, 1])", "ARRAY_DISTINCT(ARRAY[CAST(NULL AS INT), 1, CAST(NULL AS INT)])",
    "ARRAY_JOIN(ARRAY['a', s, 'c'], '-')", "ARRAY_JOIN(ARRAY['a', s, 'c'], '-', 'N')",
    "ARRAY_POSITION(ARRAY[5, 6, i], i)", "ARRAY_POSITION(ARRAY[5, 6], 7)", "ARRAY_REMOVE(ARRAY[1, 2, 1, i], 1)",
    "ARRAY_REVERSE(ARRAY[1, i, 3])", "ARRAY_SLICE(ARRAY[1, 2, 3, 4], 2, 3)", "ARRAY_SLICE(ARRAY[1, 2, 3, 4], -2)",
    "ARRAY_SLICE(ARRAY[1, 2, 3, 4], 0, 9)", "ARRAY_SLICE(ARRAY[1, 2, 3], 3, 2)", "ARRAY_SLICE(ARRAY[1, 2, 3], 5)",
    "ARRAY_UNION(ARRAY[1, 2], ARRAY[2, i, 3])", "ARRAY_CONCAT(ARRAY[1], ARRAY[i, 2])",
    "ARRAY_EXCEPT(ARRAY[1, 2, 2, 3], ARRAY[2])", "ARRAY_EXCEPT(ARRAY[1, 1, 2], ARRAY[3])",
    "ARRAY_INTERSECT(ARRAY[1, 2, 3], ARRAY[3, 1])", "ARRAY_MAX(ARRAY[1, 5, i])", "ARRAY_MIN(ARRAY[s, 'a', 'c'])",
    "ARRAY_SORT(ARRAY[3, 1, 2])", "ARRAY_SORT(ARRAY[3, CAST(NULL AS INT), 1], FALSE)",
    "ARRAY_SORT(ARRAY[3, CAST(NULL AS INT), 1], TRUE, FALSE)", "ARRAY_PREPEND(ARRAY[1], 0)",
    "ARRAY_APPEND(ARRAY[1], i)", "MAP_KEYS(MAP['a', 1, 'b', i])", "MAP_VALUES(MAP['a', 1, 'b', i])",
    "MAP_ENTRIES(MAP['a', 1])", "MAP_FROM_ARRAYS(ARRAY['x', 'y'], ARRAY[i, 2])", "ELEMENT(ARRAY[i])",
"CARDINALITY(MAP['a', i])", "SPLIT('a,b', ',')", "SPLIT(s, ',')"]
query = t_env.sql_query("SELECT %s FROM v" % ", ".join("%s AS c%d" % (column, n) for n, column in enumerate(COLUMNS)))
print(query.get_resolved_schema())
query.execute().print()
for bad in ("ARRAY_JOIN(ARRAY[1, 2], ',')",):
    try:
        t_env.sql_query("SELECT %s FROM v" % bad).execute().print()
        print(bad, "no error")
    except Exception as e:
        text = str(e)
        line = text.splitlines()[1] if text.startswith("An error") else text.splitlines()[0]
        print(bad, re.sub(r"From line \d+, column \d+ to line \d+, column \d+: ", "", line))

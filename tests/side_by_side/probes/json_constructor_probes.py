"""JSON_OBJECT, JSON_ARRAY and JSON_STRING (and JSON_QUERY's text): the JSON text they make of each type, their
NULL handling, nesting and errors, one result per line; run under real PyFlink and under pyflink-compat
(``--compat``) and compared by test_json_constructors.py."""
import re
import sys

if "--compat" in sys.argv:
    from pyflink_compat import aliasing
    aliasing.install()
from pyflink.table import EnvironmentSettings, TableEnvironment

t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
t_env.get_config().set("parallelism.default", "1")
# a string with a quote, a backslash, a non-ASCII letter, a character beyond the BMP and a control character
t_env.execute_sql("CREATE TEMPORARY VIEW v AS SELECT * FROM (VALUES "
                  "(1, 'x\"y\\u00e9\U0001F6A8' || CHR(31), CAST(2.5 AS DOUBLE), CAST(1.50 AS DECIMAL(5, 2)), TRUE, "
                  "TIMESTAMP '2024-01-02 03:04:05.120'), "
                  "(2, CAST(NULL AS STRING), CAST(1e20 AS DOUBLE), CAST(NULL AS DECIMAL(5, 2)), CAST(NULL AS BOOLEAN), "
                  "CAST(NULL AS TIMESTAMP(3)))) AS T(i, s, d, m, b, ts)")
COLUMNS = [
    "JSON_OBJECT()", "JSON_OBJECT('k' VALUE s)", "JSON_OBJECT(KEY 'k' VALUE i, KEY 'd' VALUE d)",
    "JSON_OBJECT('k' VALUE s ABSENT ON NULL)", "JSON_OBJECT('k' VALUE s NULL ON NULL)",
    "JSON_OBJECT('m' VALUE m, 'b' VALUE b, 'ts' VALUE ts)", "JSON_OBJECT('o' VALUE JSON_OBJECT('a' VALUE i))",
    "JSON_OBJECT('arr' VALUE ARRAY[1, 2])", "JSON_OBJECT('map' VALUE MAP['b', i, 'a', 0])",
    "JSON_OBJECT('row' VALUE ROW(i, s))", "JSON_OBJECT('j' VALUE JSON_ARRAY(i, s))", "JSON_ARRAY()",
    "JSON_ARRAY(i, s, d)", "JSON_ARRAY(s NULL ON NULL)", "JSON_ARRAY(s ABSENT ON NULL)",
    "JSON_ARRAY(JSON_OBJECT('a' VALUE 1), ARRAY[s])", "JSON_STRING(i)", "JSON_STRING(s)", "JSON_STRING(d)",
    "JSON_STRING(m)", "JSON_STRING(b)", "JSON_STRING(ts)", "JSON_STRING(ARRAY[1, 2])", "JSON_STRING(ROW(i, s))",
    "JSON_STRING(MAP['a', i])", "JSON_QUERY('{\"a\":[\"\\u0007\U0001F6A8\", 1.0, \"\\u00e9\"]}', '$.a')",
    "JSON_OBJECT('f' VALUE CAST(0.1 AS FLOAT), 'd' VALUE 0.1e0, 'big' VALUE 12345678901234567890e0, "
    "'neg' VALUE -0.0e0, 'small' VALUE 1e-5, 'int' VALUE 100.0e0)"]
query = t_env.sql_query("SELECT %s FROM v" % ", ".join("%s AS c%d" % (column, n) for n, column in enumerate(COLUMNS)))
print(query.get_resolved_schema())
for row in query.execute().collect():
    for n, value in enumerate(row):
        print(n, repr(value))
for bad in ("JSON_OBJECT('d' VALUE DATE '2024-01-02')", "JSON_STRING(DATE '2024-01-02')"):
    try:
        t_env.sql_query("SELECT %s FROM v" % bad).execute().collect()
        print(bad, "no error")
    except Exception as e:
        text = str(e)
        line = text.splitlines()[1] if text.startswith("An error") else text.splitlines()[0]
        print(bad, re.sub(r"From line \d+, column \d+ to line \d+, column \d+: ", "", line))

"""Calls of Flink's built-in functions and operators with operands of types they do not take, in SQL and in the
Table API, and a few they do take (a string compared with a number, SUBSTRING with a BIGINT position): each with
the error Flink's validator gives (without its position) or OK; run under real PyFlink and under pyflink-compat
(``--compat``) and compared by test_operand_types.py."""
import re
import sys

if "--compat" in sys.argv:
    from pyflink_compat import aliasing
    aliasing.install()
from pyflink.table import EnvironmentSettings, TableEnvironment
from pyflink.table.expressions import call, col, lit

t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
t_env.execute_sql("CREATE TABLE t (i INT, s STRING, d DOUBLE, b BOOLEAN, ts TIMESTAMP(3), dt DATE, bi BIGINT, "
                  "amt DECIMAL(10, 2), v VARCHAR(5), c CHAR(3)) WITH ('connector' = 'datagen', 'number-of-rows' = '1')")
SQL = ["UPPER(i)", "LOWER(d)", "UPPER(amt)", "UPPER(v)", "UPPER(c)", "INITCAP(b)", "REVERSE(dt)", "CHAR_LENGTH(i)",
       "CHARACTER_LENGTH(d)", "SUBSTRING(i, 1, 2)", "SUBSTRING(s, 'a')", "SUBSTRING(s FROM 1 FOR s)", "SUBSTRING(s, bi)",
       "CONCAT(s, i)", "CONCAT(s, v, c)", "s || i", "i || d", "REPLACE(i, 'a', 'b')", "LPAD(s, 's', 'x')",
       "RPAD(s, 2, 3)", "REGEXP_REPLACE(i, 'a', 'b')", "ABS(s)", "MOD(d, 2)", "s % 2", "SQRT(s)", "EXP(s)",
       "LOG10(s)", "LN(b)", "ROUND(s)", "ROUND(d, d)", "POWER(2, b)", "CEIL(s)", "FLOOR(b)", "s + 1", "d - s", "b * 2",
       "1 / s", "ts + 1", "-s", "NOT i", "i AND b", "b OR d", "s LIKE 1", "s NOT LIKE 1", "SUM(s)", "AVG(b)",
       "ts > 1", "b <= 1", "dt = 1", "ts < 's'", "i < s", "CASE WHEN i THEN 1 ELSE 0 END", "COALESCE(i, s)",
       "ts + INTERVAL '1' HOUR", "FLOOR(ts TO HOUR)", "MOD(bi, 3)"]
for expression in SQL:
    try:
        t_env.sql_query("SELECT %s FROM t" % expression)
        print(expression, "=> OK")
    except Exception as e:
        found = re.search(r"ValidationException: (.*?)(?:\n\tat |\Z)", str(e), re.S)
        message = found.group(1) if found else str(e).splitlines()[0]
        print(expression, "=>", repr(re.sub(r"From line \d+, column \d+ to line \d+, column \d+: ", "", message)))
table = t_env.from_path("t")
TABLE_API = [("upper_case", lambda: col("i").upper_case), ("lower_case", lambda: col("d").lower_case),
             ("char_length", lambda: col("i").char_length), ("substring", lambda: col("i").substring(1, 2)),
             ("substring of a string", lambda: col("s").substring(lit("a"))), ("sum", lambda: col("s").sum),
             ("avg", lambda: col("b").avg), ("abs", lambda: col("s").abs), ("sqrt", lambda: col("s").sqrt),
             ("exp", lambda: col("s").exp), ("ln", lambda: col("b").ln), ("log10", lambda: col("s").log10),
             ("round", lambda: col("s").round(1)), ("like", lambda: col("i").like("a%")),
             ("plus of a string", lambda: col("s") + 1), ("plus of a boolean", lambda: col("b") + 1),
             ("minus", lambda: col("s") - 1), ("times", lambda: col("s") * 2), ("divide", lambda: col("s") / 2),
             ("mod", lambda: col("s") % 2), ("and", lambda: col("i") & col("b")), ("or", lambda: col("b") | col("d")),
             ("greater than", lambda: col("ts") > 1), ("less than", lambda: col("i") < col("s")),
             ("call CONCAT", lambda: call("CONCAT", col("s"), col("i"))), ("call UPPER", lambda: call("UPPER", col("i"))),
             ("call ABS", lambda: call("ABS", col("s"))), ("replace", lambda: col("i").replace("a", "b"))]
for name, expression in TABLE_API:
    try:
        table.select(expression()).get_schema()
        print("Table API", name, "=> OK")
    except Exception as e:
        found = re.search(r"ValidationException: (.*?)(?:\n\tat |\Z)", str(e), re.S)
        print("Table API", name, "=>", repr(found.group(1) if found else str(e).splitlines()[0]))

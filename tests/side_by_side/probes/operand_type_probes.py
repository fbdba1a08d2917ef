"""Calls of Flink's built-in functions and operators with operands of types they do not take, in SQL and in the
Table API, and some they do take (a string compared with a number, SUBSTRING with a BIGINT position, IF of an INT
and a DECIMAL, CAST of an INT to a TIMESTAMP): each with the error Flink's validator gives (without its position)
or OK; run under real PyFlink and under pyflink-compat (``--compat``) and compared by test_operand_types.py."""
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
       "ts + INTERVAL '1' HOUR", "FLOOR(ts TO HOUR)", "MOD(bi, 3)",
       # conditions, trimming, searching, string functions
       "IF(i, 1, 2)", "IF(b, 1, 's')", "IF(s, 1, 2)", "IF(b, ts, dt)", "IF(i, 's', 't')", "IF(NULL, 1, 2)",
       "IF(b, 1, NULL)", "IF(b, 1, 2.5)", "IF(b, i, bi)", "IF(b, 's', v)", "IF(b, ts, ts)", "IF(b, b, b)",
       "IF(b, 1, CAST(NULL AS INT))", "TRIM(i)", "TRIM(BOTH 'a' FROM i)", "TRIM(BOTH 'ab' FROM i)",
       "TRIM(BOTH i FROM s)", "TRIM(NULL)", "TRIM(v)", "TRIM(BOTH 'x' FROM c)", "LTRIM(i)", "RTRIM(d)", "LTRIM(s, i)",
       "LTRIM(v)", "RTRIM(c)", "LTRIM(s, 'a')", "POSITION(i IN s)", "POSITION(b IN i)", "POSITION(b IN b)",
       "POSITION('a' IN v)", "LOCATE(i, s)", "LOCATE(s, s, s)", "LOCATE('a', v, bi)", "SPLIT_INDEX(i, ',', 1)",
       "SPLIT_INDEX(s, d, 1)", "SPLIT_INDEX(s, 44, 1)", "REPEAT(s, s)", "REPEAT(i, 2)", "REPEAT(v, bi)", "LEFT(i, 1)",
       "RIGHT(s, s)", "LEFT(c, 1)", "RIGHT(s, bi)", "ASCII(i)", "CHR(s)", "CHR(d)", "ASCII(c)", "CHR(bi)",
       "CONCAT_WS(i, s)", "CONCAT_WS(',', s, 1)", "CONCAT_WS(',', s, v)", "REGEXP_EXTRACT(i, 'a')",
       "REGEXP_EXTRACT(s, 'a', s)", "REGEXP(i, 'a')", "REGEXP_EXTRACT(s, 'a', bi)", "SPLIT(i, ',')", "SPLIT(s, i)",
       "SPLIT(v, c)", "SPLIT(NULL, ',')",
       # logic, numbers, hashes, aggregates
       "i IS TRUE", "i IS NOT TRUE", "s IS FALSE", "d IS NOT FALSE", "NULL IS TRUE", "b IS NOT TRUE",
       "i IS NOT NULL", "SIN(s)", "COS(s)", "TAN(s)", "COT(b)", "ASIN(s)", "ACOS(s)", "ATAN(s)", "SINH(s)", "COSH(s)",
       "TANH(s)", "DEGREES(dt)", "RADIANS(s)", "SIGN(s)", "ATAN2(s, 1)", "LOG2(s)", "LOG(s)", "LOG(2, s)", "SIN(i)",
       "SIGN(amt)", "LOG(2, d)", "TRUNCATE(s)", "TRUNCATE(d, d)", "TRUNCATE(d, 1)", "RAND_INTEGER(s)", "BIN(s)",
       "BIN(d)", "BIN(bi)", "HEX(b)", "HEX(d)", "HEX(s)", "HEX(i)", "MD5(i)", "SHA1(i)", "SHA224(i)", "SHA256(i)",
       "SHA384(i)", "SHA512(i)", "SHA2(s, s)", "TO_BASE64(i)", "FROM_BASE64(i)", "MD5(v)", "SHA2(s, 256)",
       "TO_BASE64(c)", "STDDEV_POP(s)", "STDDEV_SAMP(b)", "STDDEV(s)", "VARIANCE(s)", "SUM(NULL)", "STDDEV_POP(i)",
       "VAR_SAMP(amt)",
       # time functions
       "DATE_FORMAT(i, 'yyyy')", "DATE_FORMAT(dt, 'yyyy')", "DATE_FORMAT(ts, 1)", "DATE_FORMAT(s, 'yyyy')",
       "DATE_FORMAT(ts, v)", "EXTRACT(HOUR FROM i)", "EXTRACT(DOW FROM s)", "EXTRACT(HOUR FROM NULL)", "YEAR(s)",
       "HOUR(i)", "DAYOFWEEK(i)", "DAYOFYEAR(i)", "DAYOFMONTH(i)", "QUARTER(s)", "WEEK(i)", "MINUTE(s)", "SECOND(b)",
       "EXTRACT(HOUR FROM ts)", "EXTRACT(DAY FROM dt)", "YEAR(dt)", "TIMESTAMPADD(HOUR, 1, i)",
       "TIMESTAMPADD(HOUR, s, ts)", "TIMESTAMPADD(HOUR, d, ts)", "TIMESTAMPDIFF(HOUR, i, ts)",
       "TIMESTAMPADD(HOUR, bi, ts)", "TIMESTAMPADD(DAY, 1, dt)", "TIMESTAMPDIFF(DAY, dt, ts)",
       # comparisons, BETWEEN, IN
       "dt = ts", "ARRAY[1] = 's'", "b = 1", "dt = 's'", "b = 's'", "ts = CAST(ts AS TIMESTAMP_LTZ(3))",
       "b BETWEEN 1 AND 2", "ts BETWEEN 1 AND 2", "i NOT BETWEEN b AND 2", "i BETWEEN SYMMETRIC b AND 2",
       "dt BETWEEN ts AND ts", "s BETWEEN i AND ts", "i BETWEEN 1 AND 2", "s BETWEEN 1 AND 2", "i BETWEEN 's' AND ts",
       "NULL BETWEEN 1 AND 2", "b IN (1, 2)", "ts IN (dt)", "i NOT IN (b)", "b IN (TRUE, 1)", "i IN (1, 's')",
       "i IN (NULL, 's')", "i IN (ARRAY[1])", "i IN ('a', 'b')", "s IN (1, 2)", "b IN ('a')", "i IN (d, amt)",
       "ts IN ('2020-01-01 00:00:00')", "i IN (1, NULL, 2)",
       # CAST
       "CAST(b AS DATE)", "CAST(dt AS DOUBLE)", "CAST(i AS DATE)", "CAST(ts AS BOOLEAN)", "CAST(dt AS BOOLEAN)",
       "CAST(ARRAY[1] AS INT)", "CAST(b AS TIMESTAMP(3))", "CAST(i AS TIME)", "CAST(amt AS BYTES)",
       "TRY_CAST(b AS DATE)", "CAST(1 AS TIMESTAMP(3))", "CAST(1.5 AS TIMESTAMP_LTZ(3))", "CAST(i AS STRING)",
       "CAST(i AS BOOLEAN)", "CAST(i AS TIMESTAMP(3))", "CAST(ts AS DATE)", "CAST(dt AS TIMESTAMP(3))",
       "CAST(s AS DATE)", "CAST(NULL AS DATE)", "CAST(ts AS BIGINT)", "TRY_CAST(1 AS TIMESTAMP(3))",
       "CAST(i + 1 AS TIMESTAMP(3))",
       # NULL operands
       "UPPER(NULL)", "ABS(NULL)", "NULL + 1", "CONCAT(NULL, s)", "NOT NULL", "NULL LIKE 'a'", "s LIKE NULL",
       "NULL > 1", "UPPER(CAST(NULL AS INT))",
       # collections
       "CARDINALITY(s)", "CARDINALITY(i)", "ELEMENT(s)", "ELEMENT(MAP['a', 1])", "CARDINALITY(ARRAY[1])",
       "ELEMENT(ARRAY[1])", "CARDINALITY(MAP['a', 1])", "i[1]", "s[1]", "ARRAY[1][s]", "MAP['a', 1][1]",
       "ARRAY[1][NULL]", "MAP['a', 1][s]", "ARRAY[1][bi]", "GREATEST(i, s)", "LEAST(b, 1)", "GREATEST(dt, s)",
       "GREATEST(i, d)", "LEAST(s, v)", "GREATEST(b, b)"]
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

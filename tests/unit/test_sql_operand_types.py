"""Operand type checks of Flink's built-in functions and operators (table/sql/operand_types.py): Flink's
messages in SQL and in the Table API, forms Flink takes left alone, and one compilation per node."""
import pytest

from pyflink_compat.table import EnvironmentSettings, TableEnvironment
from pyflink_compat.table.expressions import call, col
from pyflink_compat.table.sql import expressions as sql_expressions


@pytest.fixture(scope="module")
def t_env():
    environment = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
    environment.execute_sql("CREATE TABLE t (i INT, s STRING, d DOUBLE, b BOOLEAN, ts TIMESTAMP(3), bi BIGINT, "
                            "amt DECIMAL(10, 2), dt DATE, v VARCHAR(5), c CHAR(3)) "
                            "WITH ('connector' = 'datagen', 'number-of-rows' = '1')")
    return environment


def _error(action) -> str:
    with pytest.raises(Exception) as raised:
        action()
    return str(raised.value)


@pytest.mark.parametrize("expression, message", [
    ("UPPER(i)", "Cannot apply 'UPPER' to arguments of type 'UPPER(<INTEGER>)'. Supported form(s): "
                 "'UPPER(<CHARACTER>)'"),
    ("CHARACTER_LENGTH(amt)", "Cannot apply 'CHARACTER_LENGTH' to arguments of type "
                              "'CHARACTER_LENGTH(<DECIMAL(10, 2)>)'. Supported form(s): 'CHARACTER_LENGTH(<CHARACTER>)'"),
    ("SUBSTRING(s, 'a')", "Cannot apply 'SUBSTRING' to arguments of type 'SUBSTRING(<VARCHAR(2147483647)>, "
                          "<CHAR(1)>)'. Supported form(s): 'SUBSTRING(<CHARACTER>, <INTEGER>)'\n"
                          "'SUBSTRING(<CHARACTER>, <INTEGER>, <INTEGER>)'"),
    ("MOD(d, 2)", "Cannot apply 'MOD' to arguments of type 'MOD(<DOUBLE>, <INTEGER>)'. Supported form(s): "
                  "'MOD(<EXACT_NUMERIC>, <EXACT_NUMERIC>)'"),
    ("d % 2", "Cannot apply '%' to arguments of type '<DOUBLE> % <INTEGER>'. Supported form(s): "
              "'<EXACT_NUMERIC> % <EXACT_NUMERIC>'"),
    ("s - 1", "Cannot apply '-' to arguments of type '<VARCHAR(2147483647)> - <INTEGER>'. Supported form(s): "
              "'<NUMERIC> - <NUMERIC>'\n'<DATETIME_INTERVAL> - <DATETIME_INTERVAL>'\n'<DATETIME> - <DATETIME_INTERVAL>'"),
    ("NOT i", "Cannot apply 'NOT' to arguments of type 'NOT<INTEGER>'. Supported form(s): 'NOT<BOOLEAN>'"),
    ("s NOT LIKE 1", "Cannot apply 'NOT LIKE' to arguments of type 'NOT LIKE(<VARCHAR(2147483647)>, <INTEGER>)'. "
                     "Supported form(s): 'NOT LIKE(<STRING>, <STRING>, <STRING>)'"),
    ("SUM(b)", "Cannot apply 'SUM' to arguments of type 'SUM(<BOOLEAN>)'. Supported form(s): 'SUM(<NUMERIC>)'"),
    ("ts > 1", "Cannot apply '>' to arguments of type '<TIMESTAMP(3)> > <INTEGER>'. Supported form(s): "
               "'<COMPARABLE_TYPE> > <COMPARABLE_TYPE>'"),
    ("CASE WHEN i THEN 1 ELSE 0 END", "Expected a boolean type"),
    ("COALESCE(i, s)", "Invalid function call:\nCOALESCE(INT, STRING)"),
    ("IF(i, 1, 2)", "Cannot apply 'IF' to arguments of type 'IF(<INTEGER>, <INTEGER>, <INTEGER>)'. Supported form(s): "
                    "'IF(<ANY_TYPE>, <NUMERIC_TYPE>, <NUMERIC_TYPE>)'\n'IF(<BOOLEAN>, <CHARACTER>, <CHARACTER>)'\n"
                    "'IF(<BOOLEAN>, <BOOLEAN>, <BOOLEAN>)'\n'IF(<BOOLEAN>, <CHARACTER>, <CHARACTER>)'\n"
                    "'IF(<BOOLEAN>, <BINARY>, <BINARY>)'\n'IF(<BOOLEAN>, <DATE>, <DATE>)'\n"
                    "'IF(<BOOLEAN>, <TIMESTAMP>, <TIMESTAMP>)'\n'IF(<BOOLEAN>, <TIME>, <TIME>)'"),
    ("IF(b, ts, dt)", "Cannot apply 'IF' to arguments of type 'IF(<BOOLEAN>, <TIMESTAMP(3)>, <DATE>)'"),
    ("TRIM(BOTH 'ab' FROM i)", "Cannot apply 'TRIM' to arguments of type 'TRIM([BOTH|LEADING|TRAILING] <SYMBOL> "
                               "FROM <CHAR(2)>)'. Supported form(s): "
                               "'TRIM([BOTH|LEADING|TRAILING] <ANY> FROM <STRING>)'"),
    ("RTRIM(s, 1)", "Cannot apply 'RTRIM' to arguments of type 'RTRIM(<VARCHAR(2147483647)>, <INTEGER>)'. Supported "
                    "form(s): 'RTRIM(<CHARACTER>)'\n'RTRIM(<CHARACTER>, <CHARACTER>)'"),
    ("POSITION(i IN s)", "Cannot apply 'POSITION' to arguments of type 'POSITION(<INTEGER> IN <VARCHAR(2147483647)>)'."
                         " Supported form(s): 'POSITION(<STRING> IN <STRING>)'\n'POSITION(<STRING> IN <STRING> FROM "
                         "<INTEGER>)'\nINSTR(<STRING>, <STRING>, <INTEGER>, <INTEGER>)"),
    ("POSITION(ts IN i)", "Parameters must be of the same type"),
    ("LOCATE(i, s, 1)", "Cannot apply 'LOCATE' to arguments of type 'LOCATE(<INTEGER>, <VARCHAR(2147483647)>, "
                        "<INTEGER>)'. Supported form(s): 'LOCATE(<CHARACTER>, <CHARACTER>)'\n"
                        "'LOCATE(<CHARACTER>, <CHARACTER>, <INTEGER>)'"),
    ("SPLIT_INDEX(i, ',', 1)", "Cannot apply 'SPLIT_INDEX' to arguments of type 'SPLIT_INDEX(<INTEGER>, <CHAR(1)>, "
                               "<INTEGER>)'. Supported form(s): 'SPLIT_INDEX(<CHARACTER>, <INTEGER>, <INTEGER>)'\n"
                               "'SPLIT_INDEX(<CHARACTER>, <CHARACTER>, <INTEGER>)'"),
    ("i IS NOT FALSE", "Cannot apply 'IS NOT FALSE' to arguments of type '<INTEGER> IS NOT FALSE'. Supported "
                       "form(s): '<BOOLEAN> IS NOT FALSE'"),
    ("DEGREES(s)", "Cannot apply 'DEGREES' to arguments of type 'DEGREES(<VARCHAR(2147483647)>)'. Supported "
                   "form(s): 'DEGREES(<NUMERIC>)'"),
    ("BIN(s)", "Cannot apply 'BIN' to arguments of type 'BIN(<VARCHAR(2147483647)>)'. Supported form(s): "
               "'BIN(<INTEGER>)'"),
    ("HEX(b)", "Cannot apply 'HEX' to arguments of type 'HEX(<BOOLEAN>)'. Supported form(s): 'HEX(<INTEGER>)'\n"
               "'HEX(<CHARACTER>)'"),
    ("SHA256(i)", "Cannot apply 'SHA256' to arguments of type 'SHA256(<INTEGER>)'. Supported form(s): "
                  "'SHA256(<STRING>)'"),
    ("DATE_FORMAT(dt, 'yyyy')", "Cannot apply 'DATE_FORMAT' to arguments of type 'DATE_FORMAT(<DATE>, <CHAR(4)>)'. "
                                "Supported form(s): 'DATE_FORMAT(<TIMESTAMP>, <CHARACTER>)'\n"
                                "'DATE_FORMAT(<CHARACTER>, <CHARACTER>)'"),
    ("DAYOFWEEK(i)", "Cannot apply 'EXTRACT' to arguments of type 'EXTRACT(<INTERVAL DOW> FROM <INTEGER>)'. "
                     "Supported form(s): 'EXTRACT(<DATETIME_INTERVAL> FROM <DATETIME_INTERVAL>)'\n"
                     "'EXTRACT(<DATETIME_INTERVAL> FROM <DATETIME>)'"),
    ("TIMESTAMPADD(HOUR, 1, i)", "Cannot apply 'TIMESTAMPADD' to arguments of type 'TIMESTAMPADD(<INTERVAL HOUR>, "
                                 "<INTEGER>, <INTEGER>)'. Supported form(s): 'TIMESTAMPADD(<ANY>, <INTEGER>, "
                                 "<DATETIME>)'"),
    ("i NOT BETWEEN SYMMETRIC b AND 2", "Cannot apply 'NOT BETWEEN SYMMETRIC' to arguments of type '<INTEGER> NOT "
                                        "BETWEEN SYMMETRIC <BOOLEAN> AND <INTEGER>'. Supported form(s): "
                                        "'<COMPARABLE_TYPE> NOT BETWEEN <COMPARABLE_TYPE> AND <COMPARABLE_TYPE>'"),
    ("dt < ts", "Cannot apply '<' to arguments of type '<DATE> < <TIMESTAMP(3)>'"),
    ("b IN (1, 2)", "Values passed to IN operator must have compatible types"),
    ("i IN (NULL, 's')", "Values in expression list must have compatible types"),
    ("CAST(dt AS DOUBLE)", "Cast function cannot convert value of type DATE to type DOUBLE"),
    ("CAST(i AS TIME)", "Cast function cannot convert value of type INTEGER to type TIME(0)"),
    ("UPPER(NULL)", "Illegal use of 'NULL'"),
    ("IF(b, 1, NULL)", "Illegal use of 'NULL'"),
    ("SUM(NULL)", "Illegal use of 'NULL'"),
    ("s LIKE NULL", "Cannot apply 'LIKE' to arguments of type 'LIKE(<VARCHAR(2147483647)>, "
                    "<VARCHAR(2147483647)>)'"),
    ("CONCAT_WS(',', s, 1)", "Cannot apply 'CONCAT_WS' to arguments of type 'CONCAT_WS(<CHAR(1)>, "
                             "<VARCHAR(2147483647)>, <INTEGER>)'. Supported form(s): 'CONCAT_WS(<CHARACTER>)'"),
    ("SPLIT(i, ',')", "Invalid function call:\nSPLIT(INT, CHAR(1) NOT NULL)"),
    ("ELEMENT(s)", "Cannot apply 'ELEMENT' to arguments of type 'ELEMENT(<VARCHAR(2147483647)>)'. Supported "
                   "form(s): 'ELEMENT(<MULTISET>)'\n'ELEMENT(<ARRAY>)'"),
    ("i[1]", "Cannot apply 'ITEM' to arguments of type 'ITEM(<INTEGER>, <INTEGER>)'. Supported form(s): "
             "<ARRAY>[<INTEGER>]\n<MAP>[<ANY>]\n<ROW>[<CHARACTER>|<INTEGER>]\n<VARIANT>[<CHARACTER>|<INTEGER>]"),
    ("MAP['a', 1][1]", "Cannot apply 'ITEM' to arguments of type 'ITEM(<(CHAR(1), INTEGER) MAP>, <INTEGER>)'"),
])
def test_sql_calls_of_operand_types_a_function_does_not_take_fail_as_flinks(t_env, expression, message):
    assert "SQL validation failed. " + message in _error(lambda: t_env.sql_query("SELECT %s FROM t" % expression))


@pytest.mark.parametrize("expression", [
    "UPPER(s)", "SUBSTRING(s, bi)", "ROUND(amt, 1)", "ts + INTERVAL '1' HOUR", "FLOOR(ts TO HOUR)", "i < s",
    "ts < '2024-01-01 00:00:00'", "MOD(bi, 3)", "bi % i", "CONCAT(s, s)", "s || s", "NOT b AND b", "SUM(amt)",
    "UPPER(CAST(NULL AS STRING))", "REPLACE(s, 'a', 'b')", "IF(b, 1, 2.5)", "IF(b, 's', v)", "LTRIM(v)", "LEFT(c, 1)",
    "HEX(s)", "MD5(v)", "EXTRACT(HOUR FROM ts)", "DATE_FORMAT(s, 'yyyy')", "CAST(i AS STRING)", "TRIM(BOTH 'x' FROM c)",
    "POSITION('a' IN v)", "i IN ('a', 'b')", "NULL IN (1, 2)", "i BETWEEN 's' AND ts", "NULL > 1", "b = 's'",
    "CAST(i + 1 AS TIMESTAMP(3))", "TRY_CAST(1 AS TIMESTAMP(3))", "ARRAY[1][bi]", "MAP['a', 1][s]", "SPLIT(v, c)"])
def test_forms_flink_takes_are_left_alone(t_env, expression):
    t_env.sql_query("SELECT %s FROM t" % expression)


def test_a_cast_of_a_numeric_literal_to_a_timestamp_fails_as_flinks_planner_fails_it(t_env):
    assert "The cast from NUMERIC type to TIMESTAMP type is not allowed. It's recommended to use " \
           "TO_TIMESTAMP(FROM_UNIXTIME(numeric_col)) instead, note the numeric is in seconds." in \
        _error(lambda: t_env.sql_query("SELECT CAST(-1 AS TIMESTAMP(3)) FROM t"))
    assert "The cast from NUMERIC type to TIMESTAMP_LTZ type is not allowed." in \
        _error(lambda: t_env.sql_query("SELECT CAST(1.5 AS TIMESTAMP_LTZ(3)) FROM t"))


def test_functions_sqlglot_reads_as_flinks_keep_their_own_errors(t_env):
    assert "No match found for function signature STRPOS" in \
        _error(lambda: t_env.sql_query("SELECT STRPOS(i, 'a') FROM t"))


def test_a_wrong_argument_count_keeps_its_own_error(t_env):
    assert "Invalid number of arguments to function 'REPLACE'. Was expecting 3 arguments" in \
        _error(lambda: t_env.sql_query("SELECT REPLACE(s, 'a') FROM t"))


@pytest.mark.parametrize("expression, message", [
    (lambda: col("i").upper_case, "upper(INT)"),
    (lambda: col("i").substring(1, 2), "substring(INT, INT NOT NULL, INT NOT NULL)"),
    (lambda: col("s").sum, "sum(STRING)"),
    (lambda: col("b") + 1, "plus(BOOLEAN, INT NOT NULL)"),
    (lambda: col("i") < col("s"), "lessThan(INT, STRING)"),
    (lambda: call("UPPER", col("i")), "UPPER(INT)"),
])
def test_table_api_calls_fail_with_the_table_apis_message(t_env, expression, message):
    text = _error(lambda: t_env.from_path("t").select(expression()).get_schema())
    assert "Invalid function call:\n" + message in text
    assert "SQL validation failed" not in text


def test_the_table_apis_plus_of_a_string_concatenates(t_env):
    t_env.from_path("t").select(col("s") + 1).get_schema()


def test_each_node_is_compiled_once_however_deep_the_expression(monkeypatch):
    calls = []
    original = sql_expressions.Compiler._add

    def counted(self, node):
        calls.append(node)
        return original(self, node)
    monkeypatch.setattr(sql_expressions.Compiler, "_add", counted)
    from pyflink_compat.table.sql import dialect
    from pyflink_compat.table.sql.catalog import SqlType
    depth = 30
    node = dialect.parse("SELECT %si%s FROM t" % ("(" * depth, " + 1)" * depth))[0].expressions[0]
    compiled, result = sql_expressions.Compiler({"i": (0, SqlType("INT"))}).compile(node)
    assert compiled([1]) == 1 + depth and result.name == "INT"
    assert len(calls) == depth


def test_the_table_apis_replace_replaces_every_occurrence_and_checks_its_operands(t_env):
    from pyflink_compat.table.sql.catalog import SqlType
    compiler = sql_expressions.Compiler({"s": (0, SqlType("STRING"))})
    function, result = compiler.compile(col("s").replace("an", "AN")._node)
    assert function(["banana"]) == "bANANa" and function([None]) is None and result.name == "STRING"
    assert "Invalid function call:\nreplace(INT, CHAR(1) NOT NULL, CHAR(1) NOT NULL)" in \
        _error(lambda: t_env.from_path("t").select(col("i").replace("a", "b")))

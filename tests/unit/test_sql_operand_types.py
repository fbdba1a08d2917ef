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
                            "amt DECIMAL(10, 2)) WITH ('connector' = 'datagen', 'number-of-rows' = '1')")
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
])
def test_sql_calls_of_operand_types_a_function_does_not_take_fail_as_flinks(t_env, expression, message):
    assert "SQL validation failed. " + message in _error(lambda: t_env.sql_query("SELECT %s FROM t" % expression))


@pytest.mark.parametrize("expression", [
    "UPPER(s)", "SUBSTRING(s, bi)", "ROUND(amt, 1)", "ts + INTERVAL '1' HOUR", "FLOOR(ts TO HOUR)", "i < s",
    "ts < '2024-01-01 00:00:00'", "MOD(bi, 3)", "bi % i", "CONCAT(s, s)", "s || s", "NOT b AND b", "SUM(amt)",
    "UPPER(NULL)", "REPLACE(s, 'a', 'b')"])
def test_forms_flink_takes_are_left_alone(t_env, expression):
    t_env.sql_query("SELECT %s FROM t" % expression)


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

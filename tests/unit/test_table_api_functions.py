"""The Table API's expression methods and functions as the SQL calls they stand for: their result types where the
Table API types a call otherwise than SQL (PyFlink 2.3.0's types for the same calls), column selections
(with_columns / without_columns / range_), and SQL typing they rely on (VALUES of containers, TRIM, ARRAY_APPEND,
ROW items). Their values are compared with real PyFlink by tests/side_by_side/test_table_functions.py."""
import pytest

from pyflink_compat.util.exceptions import JavaStyleError, UnsupportedFeatureError

VALUES = """CREATE TEMPORARY VIEW v AS SELECT * FROM (VALUES
    ('Hello', 7, ARRAY[3, 1], MAP['a', 1], '  pad  ', CAST(ROW(1, 'x') AS ROW<a INT, b STRING>), ARRAY['one']),
    (CAST(NULL AS STRING), CAST(NULL AS INT), ARRAY[CAST(NULL AS INT)], MAP['b', CAST(NULL AS INT)], '',
     CAST(NULL AS ROW<a INT, b STRING>), CAST(NULL AS ARRAY<STRING>))) AS T(s, n, arr, m, sp, r, solo)"""


@pytest.fixture
def table():
    from pyflink_compat.table import EnvironmentSettings, TableEnvironment
    t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
    t_env.execute_sql(VALUES)
    return t_env.from_path("v")


def _type(table, expression) -> str:
    return " ".join(str(table.select(expression.alias("c")).get_resolved_schema()).split())


def test_values_of_containers_take_the_common_type_of_their_elements(table):
    assert " ".join(str(table.get_resolved_schema()).split()) == (
        "( `s` STRING, `n` INT, `arr` ARRAY<INT> NOT NULL, `m` MAP<CHAR(1) NOT NULL, INT> NOT NULL, "
        "`sp` VARCHAR(7) NOT NULL, `r` ROW<`a` INT, `b` STRING>, `solo` ARRAY<STRING> )")


def test_table_api_calls_typed_as_the_table_api_types_them(table):
    from pyflink_compat.table.expressions import col, from_unixtime, lit, row, to_date, to_timestamp
    assert _type(table, col("s").ascii) == "( `c` TINYINT )"                  # SQL's ASCII is an INT
    assert _type(table, (col("n") + 58).chr) == "( `c` CHAR(1) )"
    assert _type(table, row(col("n"), col("s"))) == "( `c` ROW<`f0` INT, `f1` STRING> NOT NULL )"
    assert _type(table, from_unixtime(lit(86400), "yyyy-MM-dd")) == "( `c` STRING NOT NULL )"
    assert _type(table, from_unixtime(col("n"))) == "( `c` STRING )"
    assert _type(table, to_date(lit("29/02/2024"), "dd/MM/yyyy")) == "( `c` DATE NOT NULL )"
    assert _type(table, to_timestamp(lit("2024-02-29 01:02:03"))) == "( `c` TIMESTAMP(3) NOT NULL )"
    assert _type(table, col("arr").array_append(9)) == "( `c` ARRAY<INT> )"
    assert _type(table, col("arr").array_remove(1)) == "( `c` ARRAY<INT> NOT NULL )"
    assert _type(table, col("sp").trim_leading()) == "( `c` VARCHAR(7) NOT NULL )"
    assert _type(table, col("r").get("b")) == "( `c` STRING )"
    assert _type(table, col("r").get(0)) == "( `c` INT )"
    assert _type(table, col("m").at("a")) == "( `c` INT )"


def test_sql_trim_keeps_the_operands_length_and_array_append_its_nullability(table):
    t_env = table._t_env
    schema = t_env.sql_query("SELECT TRIM(sp), LTRIM(s), RTRIM(sp, 'x'), ARRAY_APPEND(arr, 9), ARRAY_APPEND(arr, n), "
                             "r[2], r['a'] FROM v").get_resolved_schema()
    assert " ".join(str(schema).split()) == (
        "( `EXPR$0` VARCHAR(7) NOT NULL, `EXPR$1` STRING, `EXPR$2` VARCHAR(7) NOT NULL, "
        "`EXPR$3` ARRAY<INT> NOT NULL, `EXPR$4` ARRAY<INT>, `EXPR$5` STRING, `EXPR$6` INT )")


def test_a_row_item_beyond_the_rows_fields_fails_as_flinks_planner_asserts(table):
    with pytest.raises(JavaStyleError) as raised:
        table._t_env.sql_query("SELECT r[3] FROM v")
    assert str(raised.value).splitlines()[1] == (
        ": java.lang.AssertionError: Cannot infer type of field at position 3 within ROW type: "
        "RecordType:peek_no_expand(INTEGER a, VARCHAR(2147483647) b)")


def test_column_selections_expand_to_the_tables_columns(table):
    from pyflink_compat.table.expressions import col, range_, with_all_columns, with_columns, without_columns
    assert table.select(with_columns(range_(1, 3))).get_schema().get_field_names() == ["s", "n", "arr"]
    assert table.select(without_columns(range_(2, 6))).get_schema().get_field_names() == ["s", "solo"]
    assert table.select(with_columns(col("s"), range_("m", "r"))).get_schema().get_field_names() == \
        ["s", "m", "sp", "r"]
    assert table.select(with_all_columns()).get_schema().get_field_names() == \
        ["s", "n", "arr", "m", "sp", "r", "solo"]
    assert table.select(with_columns(2, col("sp"))).get_schema().get_field_names() == ["n", "sp"]
    with pytest.raises(JavaStyleError, match=r"The parameters of withColumns\(\) or withoutColumns\(\) only accept "
                                             r"column names or column indices\."):
        table.select(with_columns("sp"))
    grouped = table.group_by(with_columns(range_(1, 2))).select(with_columns(range_(1, 2)), col("sp").count)
    assert grouped.get_schema().get_field_names() == ["s", "n", "EXPR$0"]


def test_table_api_calls_carry_the_table_api_names_into_their_errors(table):
    from pyflink_compat.table.expressions import col
    with pytest.raises(JavaStyleError) as raised:
        table.select(col("n").init_cap)
    assert "Invalid function call:\ninitCap(INT)" in str(raised.value)


def test_aggregates_pyflink_compat_lacks_are_refused_by_name(table):
    from pyflink_compat.table.expressions import col
    with pytest.raises(UnsupportedFeatureError, match="PERCENTILE"):
        col("n").percentile(0.5)


def test_a_year_month_interval_moves_by_the_calendar_keeping_the_day_within_the_month():
    import datetime
    from pyflink_compat.table.sql.time_functions import MonthInterval
    leap_day = datetime.datetime(2024, 2, 29, 13, 14, 15, 123000)
    assert leap_day + MonthInterval(12) == datetime.datetime(2025, 2, 28, 13, 14, 15, 123000)
    assert leap_day - MonthInterval(13) == datetime.datetime(2023, 1, 29, 13, 14, 15, 123000)
    assert datetime.date(2024, 1, 31) + MonthInterval(1) == datetime.date(2024, 2, 29)
    assert datetime.date(2024, 1, 31) + MonthInterval(2) * 3 == datetime.date(2024, 7, 31)
    assert MonthInterval(3) + MonthInterval(-1) == MonthInterval(2)

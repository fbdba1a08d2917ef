"""DECIMAL, DATE, ROW, MAP and ARRAY columns without a job: their DDL and schema text, Flink's decimal result
types and rounding, field access and subscripts, the 'json' format reading and writing them, and their texts in
print lines, casts and tableaus. The values and types expected are what PyFlink 2.3 printed for the same
expressions (side-by-side case sql-typed-columns runs them end to end)."""
import datetime
import decimal

import pytest
from hypothesis import given, strategies as st

from pyflink_compat.common.types import Row
from pyflink_compat.table.sql import catalog, dialect, expressions, kafka_table, tableau, values
from pyflink_compat.util.exceptions import JavaStyleError

D = decimal.Decimal
ORDERS = ("CREATE TABLE orders (id INT, price DECIMAL(5, 2), day_ DATE, buyer ROW<name STRING, `age` INT NOT NULL>, "
          "tags MAP<STRING, INT>, items ARRAY<INT>, plain DECIMAL) WITH ('connector' = 'kafka')")


def _orders():
    return catalog.table_of(dialect.parse(ORDERS)[0])


def _compiled(sql_expression):
    table = _orders()
    compiler = expressions.Compiler({column.name: (i, column.type) for i, column in enumerate(table.columns)})
    return compiler.compile(dialect.parse("SELECT %s FROM orders" % sql_expression)[0].expressions[0])


ROW_VALUES = (1, D("12.50"), datetime.date(2024, 1, 2), Row("ann", 30), {"a": 1, "b": 2}, [1, 2, 3], D("7"))


def test_ddl_types_print_as_flink_prints_them():
    assert [column.type.text() for column in _orders().columns] == [
        "INT", "DECIMAL(5, 2)", "DATE", "ROW<`name` STRING, `age` INT NOT NULL>", "MAP<STRING, INT>", "ARRAY<INT>",
        "DECIMAL(10, 0)"]


def test_a_decimal_precision_beyond_38_is_refused():
    with pytest.raises(JavaStyleError, match="Decimal precision must be between 1 and 38"):
        catalog.table_of(dialect.parse("CREATE TABLE t (d DECIMAL(40, 2)) WITH ('connector' = 'kafka')")[0])


@pytest.mark.parametrize("expression, text, value", [
    ("price * 2", "DECIMAL(16, 2)", D("25.00")),
    ("price + 1.5", "DECIMAL(6, 2)", D("14.00")),
    ("price / 3", "DECIMAL(16, 13)", D("4.1666666666667")),
    ("price - id", "DECIMAL(13, 2)", D("11.50")),
    ("price * 1.5", "DECIMAL(8, 3)", D("18.750")),
    ("price * price", "DECIMAL(11, 4)", D("156.2500")),
    ("price + CAST(1 AS BIGINT)", "DECIMAL(22, 2)", D("13.50")),
    ("price % 2", "DECIMAL(5, 2)", D("0.50")),
    ("price + 0.5e0", "DOUBLE", 13.0),
    ("0.1 + 0.2", "DECIMAL(3, 1) NOT NULL", D("0.3")),
    ("10 / 4.0", "DECIMAL(17, 6) NOT NULL", D("2.500000")),
    ("0.05", "DECIMAL(3, 2) NOT NULL", D("0.05")),
    ("100.0", "DECIMAL(4, 1) NOT NULL", D("100.0")),
    ("1E2", "DOUBLE NOT NULL", 100.0),
])
def test_decimal_arithmetic_has_flinks_result_types_and_values(expression, text, value):
    function, result_type = _compiled(expression)
    assert (result_type.text(), function(ROW_VALUES)) == (text, value)


def test_a_result_wider_than_38_digits_gives_up_scale_down_to_6():
    def quotient(a, b):
        return expressions.decimal_result_type("/", catalog.SqlType("DECIMAL", precision=a[0], scale=a[1]),
                                               catalog.SqlType("DECIMAL", precision=b[0], scale=b[1])).text()
    assert quotient((30, 10), (5, 2)) == "DECIMAL(38, 16)"          # printed by PyFlink 2.3
    assert quotient((38, 10), (5, 2)) == "DECIMAL(38, 8)"
    assert quotient((38, 0), (38, 37)) == "DECIMAL(38, 6)"


@pytest.mark.parametrize("given, precision, scale, expected", [
    (D("12.345"), 5, 2, D("12.35")), (D("12.344"), 5, 2, D("12.34")), (D("-0.005"), 5, 2, D("-0.01")),
    (D("12345.6"), 5, 2, None), (D("1E-7"), 5, 2, D("0.00")), (D("-0.001"), 5, 2, D("0.00")),
    (2.5, 5, 0, D("3")), (-2.5, 5, 0, D("-3")), (100, 5, 2, D("100.00")),
])
def test_decimal_values_round_half_up_and_overflow_to_null(given, precision, scale, expected):
    result = values.decimal_of(given, precision, scale)
    assert result == expected and (result is None or str(result) == str(expected))


@given(st.decimals(min_value=-999, max_value=999, places=4, allow_nan=False))
def test_a_decimal_rounded_to_its_scale_keeps_exactly_that_scale(number):
    result = values.decimal_of(number, 6, 2)
    assert result.as_tuple().exponent == -2 and abs(result - number) <= D("0.005")


@pytest.mark.parametrize("expression, value", [
    ("buyer.name", "ann"), ("buyer.age", 30), ("orders.buyer.name", "ann"), ("tags['a']", 1),
    ("tags['zz']", None), ("items[1]", 1), ("items[5]", None), ("CARDINALITY(items)", 3),
    ("CAST(day_ AS STRING)", "2024-01-02"), ("day_ > DATE '2024-02-01'", False), ("CAST(buyer AS STRING)", "(ann, 30)"),
    ("CAST(price AS STRING)", "12.50"), ("CAST(price AS DOUBLE)", 12.5), ("CAST(price AS INT)", 12),
    ("CAST(price AS DECIMAL(3, 1))", D("12.5")), ("CAST(price AS DECIMAL(2, 1))", None),
    ("CAST('1.005' AS DECIMAL(5, 2))", D("1.01")), ("CAST('x' AS DECIMAL(5, 2))", D("0.00")),
    ("CAST(day_ AS TIMESTAMP(3))", datetime.datetime(2024, 1, 2)), ("CAST('2024-05-06' AS DATE)", datetime.date(2024, 5, 6)),
])
def test_field_access_subscripts_and_casts(expression, value):
    function, _ = _compiled(expression)
    assert function(ROW_VALUES) == value


def test_an_array_index_below_one_is_refused_as_flink_does():
    with pytest.raises(JavaStyleError, match="Array element access needs an index starting at 1 but was 0."):
        _compiled("items[0]")


def test_a_field_access_result_is_named_by_the_field_and_repeats_are_numbered():
    from pyflink_compat.table.sql import planner
    select = dialect.parse("SELECT buyer.name, orders.buyer.name, id, id FROM orders")[0]
    names = [name for name, _ in planner._projections(select, _orders(), planner.compiler_of(_orders()))]
    assert names == ["name", "name0", "id", "id0"]


def test_json_reads_nested_values_and_exact_decimals():
    columns = [column for column in _orders().columns]
    read = kafka_table.json_fields([(c.name, kafka_table.json_converter(c.type)) for c in columns], False, False,
                                   exact_numbers=True)
    row = read('{"id": 1, "price": 12.345, "day_": "2024-01-02", "buyer": {"name": "bob", "extra": 1}, '
               '"tags": {"k": null}, "items": [null, 5], "plain": "7.5"}')
    assert row[:3] == [1, D("12.35"), datetime.date(2024, 1, 2)]
    assert (tuple(row[3]), row[4], row[5], row[6]) == (("bob", None), {"k": None}, [None, 5], D("8"))
    assert read('{"id": 2, "price": 12345.6}')[1] is None


def test_json_writes_nested_values_and_decimals_without_trailing_zeros():
    table = _orders()
    write = values.json_row_writer(table.column_names, [c.type for c in table.columns])
    assert write(ROW_VALUES) == ('{"id":1,"price":12.5,"day_":"2024-01-02","buyer":{"name":"ann","age":30},'
                                 '"tags":{"a":1,"b":2},"items":[1,2,3],"plain":7}')
    assert values._json_value(D("100.00"), catalog.SqlType("DECIMAL", precision=5, scale=2)) == "1E+2"
    assert values._json_value(D("0E-13"), catalog.SqlType("DECIMAL", precision=16, scale=13)) == "0"


def test_print_lines_and_tableau_cells():
    types = [c.type for c in _orders().columns]
    assert values.row_text("+I", ROW_VALUES, types) == "+I[1, 12.50, 2024-01-02, +I[ann, 30], {a=1, b=2}, [1, 2, 3], 7]"
    assert values.printed(D("0E-13"), types[1]) == "0E-13"          # DecimalData's toString
    assert values.cast_text(D("0E-13"), types[1]) == "0.0000000000000"
    assert [tableau.cell_text(value, t) for value, t in zip(ROW_VALUES, types)] == [
        "1", "12.50", "2024-01-02", "(ann, 30)", "{a=1, b=2}", "[1, 2, 3]", "7"]
    assert tableau.column_widths(["price", "day_"], types[1:3], row_kind=False) == [7, 10]


def test_sum_and_avg_of_a_decimal_have_flinks_types():
    from pyflink_compat.table.sql import aggregates
    table = _orders()
    compiler = expressions.Compiler({column.name: (i, column.type) for i, column in enumerate(table.columns)})
    select = dialect.parse("SELECT SUM(price), AVG(price), MIN(price) FROM orders")[0]
    calls = [aggregates.call_of(item, compiler) for item in select.expressions]
    assert [t.text() for _, _, t in calls] == ["DECIMAL(38, 2)", "DECIMAL(38, 6)", "DECIMAL(5, 2)"]
    name = calls[1][0]
    accumulator = aggregates.initial_of(name)
    for price in (D("12.50"), D("12.35"), D("12.34")):
        accumulator = aggregates.accumulate_of(name, accumulator, price)
    assert aggregates.result_of(name, accumulator) == D("12.396667")


def test_keys_of_dates_and_compact_decimals_have_binary_rows():
    from pyflink_compat.table.sql import binary_keys
    key_type = binary_keys.key_type_of([catalog.SqlType("DATE"), catalog.SqlType("DECIMAL", precision=5, scale=2)])
    assert isinstance(key_type.key_hash_code((datetime.date(2024, 1, 2), D("12.50"))), int)
    assert binary_keys.key_type_of([catalog.SqlType("DECIMAL", precision=20, scale=2)]) is None


def test_nested_rows_arrays_of_rows_and_keyword_field_names():
    table = catalog.table_of(dialect.parse(
        "CREATE TABLE t (`current` ROW<`time` STRING, `interval` INT>, data ROW(meta STRING, `rows` ARRAY<STRING>), "
        "badges ARRAY<ROW<set_id STRING, id STRING>>) WITH ('connector' = 'kafka')")[0])
    assert [c.type.text() for c in table.columns] == [
        "ROW<`time` STRING, `interval` INT>", "ROW<`meta` STRING, `rows` ARRAY<STRING>>",
        "ARRAY<ROW<`set_id` STRING, `id` STRING>>"]
    compiler = expressions.Compiler({column.name: (i, column.type) for i, column in enumerate(table.columns)})
    row = (Row("2024-01-02T03:04", 900), Row("m", ["7", "x"]), [Row("sub", "1")])
    for expression, value, type_text in [("`current`.`interval`", 900, "INT"),
                                         ("CAST(data.`rows`[1] AS BIGINT)", 7, "BIGINT"),
                                         ("badges[1].set_id", "sub", "STRING"), ("badges[2].set_id", None, "STRING")]:
        function, result_type = compiler.compile(dialect.parse("SELECT %s FROM t" % expression)[0].expressions[0])
        assert (function(row), result_type.text()) == (value, type_text)


@pytest.mark.parametrize("sql_expression, type_text, value", [
    # what PyFlink 2.3 printed for these (side-by-side case sql-typed-columns)
    ("CASE WHEN id > 2 THEN 1 ELSE 2.5 END", "DECIMAL(11, 1) NOT NULL", D("2.5")),
    ("CASE WHEN id < 2 THEN 1 ELSE 2.5 END", "DECIMAL(11, 1) NOT NULL", D("1.0")),
    ("CASE WHEN id > 2 THEN 'ab' ELSE 'abcd' END", "VARCHAR(4) NOT NULL", "abcd"),
    ("CASE WHEN id > 2 THEN 'ab' END", "CHAR(2)", None),
    ("CASE id WHEN 1 THEN 1.5 WHEN 2 THEN 2 END", "DECIMAL(11, 1)", D("1.5")),
    ("CASE WHEN id > 0 THEN CAST(id AS BIGINT) ELSE 0.5E0 END", "DOUBLE", 1.0),
    ("COALESCE(CAST(NULL AS INT), 2.5)", "DECIMAL(11, 1) NOT NULL", D("2.5")),
    ("COALESCE(buyer.name, 'none')", "STRING NOT NULL", "ann"),
    ("IF(id > 1, id, 2.25)", "DECIMAL(12, 2)", D("2.25")),
    ("CONCAT('ab', 'c')", "STRING NOT NULL", "abc"),
    ("'ab' || 'c'", "CHAR(3) NOT NULL", "abc"),
    ("CAST(buyer.name AS STRING) || 'c'", "STRING", "annc"),
    ("'ab'", "CHAR(2) NOT NULL", "ab"),
])
def test_case_coalesce_and_if_take_the_common_type_of_their_branches_as_flink(sql_expression, type_text, value):
    function, result_type = _compiled(sql_expression)
    assert result_type.text() == type_text
    result = function(ROW_VALUES)
    assert result == value and type(result) is type(value)
    if isinstance(value, decimal.Decimal):
        assert str(result) == str(value)            # the scale of the common type


def test_case_branches_without_a_common_type_are_refused_as_flink_refuses_them():
    with pytest.raises(JavaStyleError, match="Illegal mixing of types in CASE or COALESCE statement"):
        _compiled("CASE WHEN id > 1 THEN 'a' ELSE 1 END")


_CAST_TYPES = ["TINYINT", "SMALLINT", "INT", "BIGINT", "DECIMAL(5, 2)", "DECIMAL(20, 0)", "FLOAT", "DOUBLE", "BOOLEAN",
               "CHAR(1)", "VARCHAR(3)", "STRING", "DATE", "TIMESTAMP(3)", "TIMESTAMP(6)", "TIMESTAMP_LTZ(3)",
               "ARRAY<INT>", "ARRAY<BIGINT>", "MAP<STRING, INT>", "ROW<a INT>", "ROW<a BIGINT>", "ROW<b INT>"]
# the pairs of different types PyFlink 2.3 let an INSERT write (query column type -> sink column type), found by
# explain_sql of an INSERT of each type of _CAST_TYPES into each other; every other pair it refused
_ASSIGNABLE = {
    "TINYINT": {"SMALLINT", "INT", "BIGINT", "DECIMAL(5, 2)", "DECIMAL(20, 0)", "FLOAT", "DOUBLE"},
    "SMALLINT": {"INT", "BIGINT", "DECIMAL(5, 2)", "DECIMAL(20, 0)", "FLOAT", "DOUBLE"},
    "INT": {"BIGINT", "DECIMAL(5, 2)", "DECIMAL(20, 0)", "FLOAT", "DOUBLE"},
    "BIGINT": {"DECIMAL(5, 2)", "DECIMAL(20, 0)", "FLOAT", "DOUBLE"},
    "DECIMAL(5, 2)": {"DECIMAL(20, 0)", "FLOAT", "DOUBLE"}, "DECIMAL(20, 0)": {"DECIMAL(5, 2)", "FLOAT", "DOUBLE"},
    "FLOAT": {"DECIMAL(5, 2)", "DECIMAL(20, 0)", "DOUBLE"}, "DOUBLE": {"DECIMAL(5, 2)", "DECIMAL(20, 0)"},
    "CHAR(1)": {"VARCHAR(3)", "STRING"}, "VARCHAR(3)": {"STRING"}, "STRING": {"VARCHAR(3)"},
    "TIMESTAMP(3)": {"DATE", "TIMESTAMP(6)", "TIMESTAMP_LTZ(3)"}, "TIMESTAMP(6)": {"DATE", "TIMESTAMP(3)",
                                                                                   "TIMESTAMP_LTZ(3)"},
    "TIMESTAMP_LTZ(3)": {"TIMESTAMP(3)", "TIMESTAMP(6)"}, "ARRAY<INT>": {"ARRAY<BIGINT>"},
    "ROW<a INT>": {"ROW<a BIGINT>", "ROW<b INT>"}, "ROW<b INT>": {"ROW<a INT>", "ROW<a BIGINT>"},
}


@pytest.mark.parametrize("source", _CAST_TYPES)
def test_an_insert_writes_the_types_flinks_implicit_casts_allow(source):
    allowed = {target for target in _CAST_TYPES
               if expressions.assignable(catalog.sql_type_of(source), catalog.sql_type_of(target))}
    assert allowed == {source} | _ASSIGNABLE.get(source, set())


def test_an_insert_of_columns_of_other_types_fails_with_flinks_message():
    from pyflink_compat.table.sql import planner
    tables = {"sink1": catalog.table_of(dialect.parse(
        "CREATE TABLE sink1 (id INT NOT NULL, name STRING, amount DECIMAL(5, 2), ts TIMESTAMP(3)) "
        "WITH ('connector' = 'blackhole')")[0])}
    builder = planner.JobBuilder(None, tables)
    with pytest.raises(JavaStyleError) as refused:
        builder.add_insert(dialect.parse("INSERT INTO sink1 SELECT 'x', 'a', 1.5, TIMESTAMP '2024-01-01 00:00:00'")[0])
    assert refused.value.message == (    # PyFlink 2.3's text
        "Column types of query result and sink for 'default_catalog.default_database.sink1' do not match.\n"
        "Cause: Incompatible types for sink column 'id' at position 1.\n\n"
        "Query schema: [EXPR$0: CHAR(1) NOT NULL, EXPR$1: CHAR(1) NOT NULL, EXPR$2: DECIMAL(2, 1) NOT NULL, "
        "EXPR$3: TIMESTAMP(0) NOT NULL]\n"
        "Sink schema:  [id: INT, name: STRING, amount: DECIMAL(5, 2), ts: TIMESTAMP(3)]")
    with pytest.raises(JavaStyleError, match="Cause: Different number of columns.\n\nQuery schema: \\[EXPR\\$0: INT"):
        builder.add_insert(dialect.parse("INSERT INTO sink1 SELECT 1, 'a', 1.5")[0])


def test_an_insert_writes_a_char_into_a_char_of_another_length_as_flink():
    char = catalog.sql_type_of
    assert expressions.assignable(char("CHAR(1)"), char("CHAR(3)"))      # both accepted by PyFlink 2.3
    assert expressions.assignable(char("CHAR(3)"), char("CHAR(1)"))
    assert not expressions.assignable(char("VARCHAR(1)"), char("CHAR(3)"))

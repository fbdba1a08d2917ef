"""Flink SQL pieces without a job: the dialect (Flink's DDL), the catalog, expressions with SQL's NULL logic and
Flink's typing, the 'json' format's reading, and the planner's errors for what it does not run."""
import datetime
import re

import pytest
from hypothesis import given, strategies as st
from sqlglot import exp

from pyflink_compat.table.sql import catalog, dialect, expressions, kafka_table, planner
from pyflink_compat.util.exceptions import JavaStyleError, TableException, UnsupportedFeatureError


def _table(ddl):
    return catalog.table_of(dialect.parse(ddl)[0])


def _evaluate(sql_expression, **columns):
    """The value of ``sql_expression`` over one row of ``columns`` (name -> (SQL type, value))."""
    names = list(columns)
    compiler = expressions.Compiler({name: (i, catalog.SqlType(columns[name][0])) for i, name in enumerate(names)})
    parsed = dialect.parse("SELECT %s FROM t" % sql_expression)[0].expressions[0]
    function, result_type = compiler.compile(parsed)
    return function(tuple(columns[name][1] for name in names)), result_type.name


def test_create_table_reads_columns_types_and_options_with_flink_syntax():
    table = _table("""CREATE TABLE `orders` (`id` INT, customer VARCHAR(20), amount DOUBLE, ok BOOLEAN,
                      n BIGINT, PRIMARY KEY (id) NOT ENFORCED)
                      WITH ('connector' = 'kafka', 'topic' = 'o', 'json.ignore-parse-errors' = 'true')""")
    assert table.name == "orders"
    assert [(c.name, c.type.name) for c in table.columns] == [
        ("id", "INT"), ("customer", "STRING"), ("amount", "DOUBLE"), ("ok", "BOOLEAN"), ("n", "BIGINT")]
    assert table.options == {"connector": "kafka", "topic": "o", "json.ignore-parse-errors": "true"}


@pytest.mark.parametrize("column, refused", [
    ("h MAP<STRING, BYTES> METADATA FROM 'headers'", "The SQL type"),
    ("h STRING METADATA FROM 'timestamp-type'", "The metadata key 'timestamp-type'"),
    ("ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '5' MONTH", "INTERVAL ... MONTH"),
    ("t TIME(3)", "The SQL type TIME"),
    ("b VARBINARY", "The SQL type VARBINARY"),
])
def test_create_table_parses_what_it_does_not_run_yet_and_refuses_it_by_name(column, refused):
    with pytest.raises(UnsupportedFeatureError, match="^%s.*#table-api" % re.escape(refused)):
        _table("CREATE TABLE t (x INT, %s) WITH ('connector' = 'kafka')" % column)


def test_a_watermark_on_a_column_that_cannot_be_a_rowtime_fails_as_in_flink():
    from pyflink_compat.util.exceptions import JavaStyleError
    with pytest.raises(JavaStyleError, match="Invalid data type of time field for watermark definition. .* but the "
                                             "time field type is STRING"):
        _table("CREATE TABLE t (s STRING, WATERMARK FOR s AS s) WITH ('connector' = 'kafka')")
    with pytest.raises(JavaStyleError, match=r"but the time field type is TIMESTAMP\(6\)"):
        _table("CREATE TABLE t (s TIMESTAMP, WATERMARK FOR s AS s) WITH ('connector' = 'kafka')")
    with pytest.raises(JavaStyleError, match="The rowtime attribute field 'nope' is not defined in the table "
                                             "schema"):
        _table("CREATE TABLE t (s TIMESTAMP(3), WATERMARK FOR nope AS nope) WITH ('connector' = 'kafka')")


def test_watermark_and_metadata_clauses_parse_as_flink_writes_them():
    create = dialect.parse("""CREATE TABLE t (ts TIMESTAMP(3), k TIMESTAMP_LTZ(3) METADATA FROM 'timestamp',
                               WATERMARK FOR ts AS ts - INTERVAL '5' SECOND) WITH ('connector' = 'kafka')""")[0]
    items = create.this.expressions
    assert type(items[-1]).__name__ == "WatermarkColumnConstraint"
    assert items[-1].this.name == "ts"
    metadata = items[1].args["constraints"][0].args["kind"]
    assert isinstance(metadata, dialect.MetadataColumnConstraint) and metadata.this.name == "timestamp"


@pytest.mark.parametrize("sql, columns, expected", [
    ("a + b", {"a": ("INT", 2), "b": ("INT", 3)}, (5, "INT")),
    ("a / b", {"a": ("INT", -7), "b": ("INT", 2)}, (-3, "INT")),         # truncated toward zero
    ("a / b", {"a": ("DOUBLE", -7.0), "b": ("INT", 2)}, (-3.5, "DOUBLE")),
    ("a % b", {"a": ("INT", -7), "b": ("INT", 2)}, (-1, "INT")),
    # exact on large BIGINTs (not through a double), the dividend's sign
    ("ABS(a) % 10", {"a": ("BIGINT", 6009322851045653658)}, (8, "INT")),      # MOD has the divisor's type
    ("MOD(a, b)", {"a": ("BIGINT", -9223372036854775807), "b": ("BIGINT", 10)}, (-7, "BIGINT")),
    ("a * 2", {"a": ("DOUBLE", None)}, (None, "DOUBLE")),
    ("a > 1 AND b", {"a": ("INT", None), "b": ("BOOLEAN", False)}, (False, "BOOLEAN")),
    ("a > 1 AND b", {"a": ("INT", None), "b": ("BOOLEAN", True)}, (None, "BOOLEAN")),
    ("a > 1 OR b", {"a": ("INT", None), "b": ("BOOLEAN", True)}, (True, "BOOLEAN")),
    ("NOT (a = 1)", {"a": ("INT", None)}, (None, "BOOLEAN")),
    ("a IS NULL", {"a": ("INT", None)}, (True, "BOOLEAN")),
    ("a IN (1, 2)", {"a": ("INT", 2)}, (True, "BOOLEAN")),
    ("a BETWEEN 1 AND 3", {"a": ("INT", 4)}, (False, "BOOLEAN")),
    ("s LIKE 'a_c%'", {"s": ("STRING", "abcdef")}, (True, "BOOLEAN")),
    ("CASE WHEN a > 1 THEN 'x' ELSE 'y' END", {"a": ("INT", None)}, ("y", "STRING")),
    ("CASE a WHEN 1 THEN 'one' END", {"a": ("INT", 2)}, (None, "STRING")),
    ("UPPER(s) || '!'", {"s": ("STRING", "ab")}, ("AB!", "STRING")),
    ("CONCAT(s, 'x', s)", {"s": ("STRING", None)}, (None, "STRING")),
    ("COALESCE(s, 'none')", {"s": ("STRING", None)}, ("none", "STRING")),
    ("CAST(a AS STRING)", {"a": ("DOUBLE", 1e8)}, ("1.0E8", "STRING")),
    ("CAST(s AS INT)", {"s": ("STRING", " 42 ")}, (42, "INT")),
    ("CHAR_LENGTH(s)", {"s": ("STRING", "héllo")}, (5, "INT")),
])
def test_expressions_follow_sql_null_logic_and_flink_typing(sql, columns, expected):
    assert _evaluate(sql, **columns) == expected


@given(st.one_of(st.none(), st.booleans()), st.one_of(st.none(), st.booleans()))
def test_and_or_not_are_three_valued(a, b):
    def kleene_and(x, y):
        if x is False or y is False:
            return False
        return None if x is None or y is None else True

    def kleene_or(x, y):
        if x is True or y is True:
            return True
        return None if x is None or y is None else False
    columns = {"a": ("BOOLEAN", a), "b": ("BOOLEAN", b)}
    assert _evaluate("a AND b", **columns)[0] == kleene_and(a, b)
    assert _evaluate("a OR b", **columns)[0] == kleene_or(a, b)
    assert _evaluate("NOT a", **columns)[0] == (None if a is None else not a)


def test_an_unknown_column_or_function_is_refused_as_flinks_planner_does():
    with pytest.raises(JavaStyleError, match="Column 'nope' not found in any table"):
        _evaluate("nope + 1", a=("INT", 1))
    with pytest.raises(JavaStyleError, match="No match found for function signature FOO"):
        _evaluate("FOO(a)", a=("INT", 1))
    with pytest.raises(ArithmeticError, match="^/ by zero$"):       # Java's, when the row comes
        _evaluate("a / 0", a=("INT", 1))


def _json_rows(table):
    return kafka_table.row_reader(table, kafka_table.layout_of(table, kafka_table.SOURCE))


def test_json_rows_read_as_flink_sqls_json_format():
    table = _table("CREATE TABLE t (id INT, name STRING, amount DOUBLE, ok BOOLEAN) WITH ('connector' = 'kafka', 'format' = 'json')")
    rows = _json_rows(table)
    assert [tuple(r) for r in rows('{"id": "7", "name": 5, "amount": 120, "ok": "true"}')] == [(7, "5", 120.0, True)]
    assert [tuple(r) for r in rows('{"id": 1, "name": {"a": [1]}}')] == [(1, '{"a":[1]}', None, None)]
    assert list(rows(None)) == []                       # a tombstone
    with pytest.raises(IOError, match="^Failed to deserialize JSON 'not json'.$"):
        list(rows("not json"))
    with pytest.raises(IOError, match="^Failed to deserialize JSON '.*'.$"):
        list(rows('{"id": "x"}'))
    ignoring = _json_rows(_table("CREATE TABLE t (id INT) WITH ('connector' = 'kafka', 'format' = 'json', "
                                     "'json.ignore-parse-errors' = 'true')"))
    # what is no JSON object is skipped; a field that does not convert is NULL and the row stays
    assert list(ignoring("not json")) == [] and list(ignoring("[1, 2]")) == []
    assert [tuple(r) for r in ignoring('{"id": 3000000000}')] == [(None,)]
    assert [tuple(r) for r in ignoring('{"id": 2.7}')] == [(2,)]
    strict = _json_rows(_table("CREATE TABLE t (id INT) WITH ('connector' = 'kafka', 'format' = 'json', "
                                   "'json.fail-on-missing-field' = 'true')"))
    with pytest.raises(IOError):
        list(strict("{}"))


def test_csv_rows_read_and_write_as_flink_sqls_csv_format():
    """What PyFlink 2.3's 'csv' format gives for these messages (the side-by-side case sql-keys-and-results runs
    more of them against it)."""
    table = _table("CREATE TABLE t (id INT, name STRING, ts TIMESTAMP(3)) WITH ('connector' = 'kafka', "
                   "'format' = 'csv')")
    rows = _json_rows(table)
    assert [tuple(r) for r in rows('7,"a,b",2024-01-02 03:04:05.5')] == [
        (7, "a,b", datetime.datetime(2024, 1, 2, 3, 4, 5, 500000))]
    with pytest.raises(Exception, match=r"Failed to deserialize CSV row '4,short'.*Row length mismatch"):
        list(rows("4,short"))
    lenient = _json_rows(_table("CREATE TABLE t (id INT, name STRING) WITH ('connector' = 'kafka', 'format' = "
                                "'csv', 'csv.ignore-parse-errors' = 'true')"))
    assert [tuple(r) for r in lenient("x,b")] == [(None, "b")] and list(lenient("1,b,extra")) == []
    write = kafka_table.writer(table, kafka_table.layout_of(table, kafka_table.SINK))
    assert write((1, " lead", datetime.datetime(2024, 1, 2, 3, 4, 5))) == (
        None, b'1," lead","2024-01-02 03:04:05"')
    assert write((None, 'a"b', None)) == (None, b',"a""b",')
    with pytest.raises(JavaStyleError, match="Option 'csv.field-delimiter' must be a string with single character, "
                                             "but was: ;;"):
        _json_rows(_table("CREATE TABLE t (id INT) WITH ('connector' = 'kafka', 'format' = 'csv', "
                          "'csv.field-delimiter' = ';;')"))
    with pytest.raises(UnsupportedFeatureError, match="A TIMESTAMP_LTZ column in the 'csv' format"):
        _json_rows(_table("CREATE TABLE t (at TIMESTAMP_LTZ(3)) WITH ('connector' = 'kafka', 'format' = 'csv')"))


def test_the_print_connectors_line_is_javas_row_text():
    import datetime
    from pyflink_compat.common.types import Row
    types = [catalog.SqlType(name) for name in ("INT", "STRING", "DOUBLE", "BOOLEAN", "STRING", "TIMESTAMP")]
    line = planner._inserted_line(types)
    assert line(Row(1, None, 2e8, True, "a b", datetime.datetime(2024, 1, 2, 3, 4))) == \
        "+I[1, null, 2.0E8, true, a b, 2024-01-02T03:04]"


@pytest.mark.parametrize("text, printed, cast, written", [
    ("2024-01-02 03:04:05.678", "2024-01-02T03:04:05.678", "2024-01-02 03:04:05.678", "2024-01-02 03:04:05.678"),
    ("2024-01-02 03:04:05", "2024-01-02T03:04:05", "2024-01-02 03:04:05.000", "2024-01-02 03:04:05"),
    ("2024-01-02 03:04:00", "2024-01-02T03:04", "2024-01-02 03:04:00.000", "2024-01-02 03:04:00"),
    ("2024-01-02 03:04:05.1", "2024-01-02T03:04:05.100", "2024-01-02 03:04:05.100", "2024-01-02 03:04:05.1"),
    ("2024-01-02 03:04:05.123456", "2024-01-02T03:04:05.123456", "2024-01-02 03:04:05.123",
     "2024-01-02 03:04:05.123456"),
])
def test_timestamps_read_print_cast_and_write_as_flink_sql(text, printed, cast, written):
    from pyflink_compat.table.sql import values
    value = values.parse_sql_timestamp(text)
    assert values.local_date_time_text(value) == printed
    assert values.timestamp_cast_text(value, 3) == cast
    assert values.json_timestamp_text(value) == written
    for bad in ("2024-01-02T03:04:05.1", "2024-01-02", "1700000000000"):
        with pytest.raises(ValueError):
            values.parse_sql_timestamp(bad)


def test_queries_beyond_projections_and_filters_are_refused_by_name():
    from pyflink_compat.common.configuration import Configuration
    from pyflink_compat.datastream.stream_execution_environment import StreamExecutionEnvironment
    tables = {t.name: t for t in [
        _table("CREATE TABLE src (w STRING) WITH ('connector' = 'kafka', 'properties.bootstrap.servers' = 'x:1',"
               " 'topic' = 't', 'format' = 'json')"),
        _table("CREATE TABLE out (w STRING, n BIGINT) WITH ('connector' = 'print')")]}
    builder = planner.JobBuilder(StreamExecutionEnvironment.get_execution_environment(Configuration()), tables)
    with pytest.raises(UnsupportedFeatureError, match="^CROSS JOIN"):
        builder.add_insert(dialect.parse("INSERT INTO out SELECT a.w, 1 FROM src a CROSS JOIN src b")[0])
    with pytest.raises(JavaStyleError, match="Expression 'w' is not being grouped"):
        builder.add_insert(dialect.parse("INSERT INTO out SELECT w, COUNT(*) FROM src GROUP BY UPPER(w)")[0])
    with pytest.raises(JavaStyleError, match="Object 'missing' not found"):
        builder.add_insert(dialect.parse("INSERT INTO out SELECT w, 1 FROM missing")[0])
    with pytest.raises(JavaStyleError, match="Different number of columns"):
        builder.add_insert(dialect.parse("INSERT INTO out SELECT w FROM src")[0])


class _ValueState:
    """A ValueState of one key, for an operator tested without a runtime."""
    current = None

    def value(self):
        return self.current

    def update(self, value):
        self.current = value


def test_group_aggregate_emits_flinks_changelog_and_suppresses_unchanged_results():
    from pyflink_compat.table.sql.aggregates import GroupAggregate, GroupOutput

    operator = GroupAggregate(["MAX", "COUNT", "AVG:int"], GroupOutput(
        [("key", 0), ("agg", 0), ("agg", 2)],
        [catalog.SqlType("STRING"), catalog.SqlType("INT"), catalog.SqlType("INT")]))
    operator.state = _ValueState()
    changes = [list(operator.process_element((("k",), arguments), None))
               for arguments in [(5, 1, 3), (2, None, 4), (2, None, 2), (9, 1, None)]]
    # the second and third rows leave MAX at 5 and the integer AVG at 3: nothing is sent
    assert changes == [[("+I", ["k", 5, 3])], [], [], [("-U", ["k", 5, 3]), ("+U", ["k", 9, 3])]]


def test_watermark_for_gives_the_rowtime_column_and_its_delay():
    assert _table("CREATE TABLE t (ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '5' SECOND) "
                  "WITH ('connector' = 'kafka')").watermark == ("ts", 5000)
    assert _table("CREATE TABLE t (ts TIMESTAMP(3), WATERMARK FOR ts AS ts) WITH ('a' = 'b')").watermark == ("ts", 0)
    assert _table("CREATE TABLE t (ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' MINUTE) "
                  "WITH ('a' = 'b')").watermark == ("ts", 60000)


def test_group_windows_need_the_time_attribute_and_flinks_arguments():
    from pyflink_compat.table.sql import aggregates
    source = _table("CREATE TABLE t (ts TIMESTAMP(3), other TIMESTAMP(3), WATERMARK FOR ts AS ts) WITH ('a' = 'b')")

    def window(sql):
        return aggregates.group_window(dialect.parse("SELECT 1 FROM t GROUP BY %s" % sql)[0].args["group"]
                                       .expressions[0], source)
    assert window("TUMBLE(ts, INTERVAL '10' SECOND)").intervals == [10000]
    assert window("HOP(ts, INTERVAL '5' SECOND, INTERVAL '1' MINUTE)").intervals == [5000, 60000]
    with pytest.raises(JavaStyleError, match="can only be defined over a time attribute column"):
        window("TUMBLE(other, INTERVAL '10' SECOND)")
    with pytest.raises(JavaStyleError, match="Invalid number of arguments to function 'HOP'"):
        window("HOP(ts, INTERVAL '10' SECOND)")
    tumble = window("TUMBLE(ts, INTERVAL '10' SECOND)")
    bound = dialect.parse("SELECT TUMBLE_END(ts, INTERVAL '10' SECOND) FROM t")[0].expressions[0]
    assert tumble.bound_of(bound) == "end"


@pytest.mark.parametrize("text, ms", [("5 s", 5000), ("500 ms", 500), ("1 min", 60000), ("10000", 10000)])
def test_idle_timeout_durations_read_as_flinks(text, ms):
    assert planner.duration_ms(text) == ms


def test_computed_columns_are_typed_by_their_expression_and_computed_after_reading():
    import datetime
    table = _table("CREATE TABLE t (s STRING, ev AS TO_TIMESTAMP(s, 'yyyy-MM-dd''T''HH:mm:ss''Z'''), "
                   "n AS CHAR_LENGTH(s) + 1, WATERMARK FOR ev AS ev - INTERVAL '5' SECOND) WITH ('a' = 'b')")
    assert [(c.name, c.type.name) for c in table.columns] == [("s", "STRING"), ("ev", "TIMESTAMP"), ("n", "INT")]
    assert [c.name for c in table.physical_columns] == ["s"] and table.watermark == ("ev", 5000)
    complete = planner._with_computed_columns(table)
    from pyflink_compat.common.types import Row
    assert tuple(complete(Row("2024-01-02T03:04:05Z"))) == (
        "2024-01-02T03:04:05Z", datetime.datetime(2024, 1, 2, 3, 4, 5), 21)
    assert tuple(complete(Row("not a time")))[1] is None


@pytest.mark.parametrize("pattern, text, expected", [
    ("yyyy-MM-dd HH:mm:ss", "2024-01-02 03:04:05", (2024, 1, 2, 3, 4, 5, 0)),
    ("yyyy-MM-dd HH:mm:ss.SSS", "2024-01-02 03:04:05.120", (2024, 1, 2, 3, 4, 5, 120000)),
    ("dd/MM/yyyy", "02/01/2024", (2024, 1, 2, 0, 0, 0, 0)),
    ("yyyy-MM-dd HH:mm:ss", "2024-13-02 03:04:05", None),
    ("yyyy-MM-dd HH:mm:ss", "2024-01-02", None),
])
def test_to_timestamp_reads_java_patterns(pattern, text, expected):
    import datetime
    from pyflink_compat.table.sql.values import java_pattern_parser
    parsed = java_pattern_parser(pattern)(text)
    assert parsed == (datetime.datetime(*expected) if expected else None)


@pytest.mark.parametrize("option", ["'sink.partitioner' = 'fixed'", "'value.json.ignore-parse-errors' = 'true'",
                                    "'json.timestamp-format.standard' = 'ISO-8601'", "'scan.startup.mode.x' = '1'",
                                    "'raw.charset' = 'UTF-16'", "'json.encode.decimal-as-plain-number' = 'true'"])
def test_kafka_options_that_do_not_run_are_refused_never_ignored(option):
    from pyflink_compat.common.configuration import Configuration
    from pyflink_compat.datastream.stream_execution_environment import StreamExecutionEnvironment
    tables = {t.name: t for t in [
        _table("CREATE TABLE src (w STRING) WITH ('connector' = 'kafka', 'properties.bootstrap.servers' = 'x:1',"
               " 'topic' = 't', 'format' = 'json', 'scan.startup.mode' = 'earliest-offset', %s)" % option),
        _table("CREATE TABLE out (w STRING) WITH ('connector' = 'print')")]}
    builder = planner.JobBuilder(StreamExecutionEnvironment.get_execution_environment(Configuration()), tables)
    with pytest.raises(UnsupportedFeatureError, match="^The option '%s" % option.split("'")[1]):
        builder.add_insert(dialect.parse("INSERT INTO out SELECT w FROM src")[0])


def test_a_view_column_of_a_timestamp_makes_rows_travel_pickled():
    tables = {"src": _table("CREATE TABLE src (w STRING, ts TIMESTAMP(3)) WITH ('connector' = 'kafka')")}
    plain = planner.view_of("v", dialect.parse("SELECT w, 1 AS n FROM src")[0], tables)
    assert [(c.name, c.type.name) for c in plain.columns] == [("w", "STRING"), ("n", "INT")]
    assert planner._row_type(plain) is not None
    assert planner._row_type(tables["src"]) is None


def test_a_bare_null_in_a_select_list_is_refused_as_flink_refuses_it():
    tables = {"src": _table("CREATE TABLE src (w STRING) WITH ('connector' = 'kafka')")}
    for query in ("SELECT w, NULL AS x FROM src", "SELECT w, NULL FROM src"):
        with pytest.raises(JavaStyleError, match="SQL validation failed. Illegal use of 'NULL'"):
            planner.view_of("v", dialect.parse(query)[0], tables)


def test_window_accumulators_add_and_merge_as_the_aggregates_do():
    from pyflink_compat.table.sql.aggregates import Accumulate
    accumulate = Accumulate(["COUNT(*)", "COUNT", "SUM:int", "MIN", "MAX", "AVG:int", "AVG"])
    first, second = accumulate.create_accumulator(), accumulate.create_accumulator()
    for arguments in [(None, 1, 4, 3.0, 2.0, 3, 1.0), (None, None, None, None, None, None, None)]:
        first = accumulate.add(((), arguments), first)
    second = accumulate.add(((), (None, 7, 6, 1.0, 9.0, 4, 2.0)), second)
    merged = accumulate.merge(first, second)
    assert merged == (3, 2, 10, 1.0, 9.0, (7, 2), (3.0, 2))
    from pyflink_compat.table.sql.aggregates import _result
    assert _result("AVG:int", merged[5]) == 3 and _result("AVG", merged[6]) == 1.5


@pytest.mark.parametrize("sql, expected", [
    # the values real PyFlink 2.3 gives for these literals
    ("SUBSTRING(s, 2, 3)", "ell"), ("SUBSTRING(s, 0, 2)", "he"), ("SUBSTRING(s, -3, 2)", "ll"),
    ("SUBSTRING(s, 4)", "lo"), ("SUBSTRING(s, 9)", ""), ("SUBSTRING(s, -9, 3)", ""), ("SUBSTRING(s, 0)", "hello"),
    ("SUBSTRING(s FROM 2 FOR 2)", "el"), ("REPLACE('a-b-a', 'a', 'xy')", "xy-b-xy"),
    ("CONCAT_WS('-', 'a', CAST(NULL AS STRING), 'b')", "a-b"), ("IF(1 > 2, 'x', 'y')", "y"),
    ("LTRIM('  a  ')", "a  "), ("RTRIM('  a  ')", "  a"), ("TRIM('  a  ')", "a"), ("TRIM(BOTH 'x' FROM 'xxaxx')", "a"),
])
def test_string_functions_as_flinks(sql, expected):
    assert _evaluate(sql, s=("STRING", "hello"))[0] == expected


def _typed(sql_expression, **columns):
    """The value of ``sql_expression`` over one row of ``columns`` and its type as Flink prints it."""
    names = list(columns)
    compiler = expressions.Compiler({name: (i, columns[name][0]) for i, name in enumerate(names)})
    function, result_type = compiler.compile(dialect.parse("SELECT %s FROM t" % sql_expression)[0].expressions[0])
    return function(tuple(columns[name][1] for name in names)), result_type.text()


@pytest.mark.parametrize("sql, expected", [
    # the values and types real PyFlink 2.3 gives
    ("ELT(2, 'a', 'b')", ("b", "CHAR(1)")), ("ELT(1, 'a', 'bb')", ("a", "VARCHAR(2)")),
    ("ELT(3, 'a', 'b')", (None, "CHAR(1)")), ("ELT(0, 'a', 'b')", (None, "CHAR(1)")),
    ("ELT(CAST(NULL AS INT), 'a', 'b')", (None, "CHAR(1)")), ("ELT(2, 'a', NULL)", (None, "VARCHAR(1)")),
    ("ELT(2, 'a', CAST(NULL AS STRING))", (None, "STRING")), ("ELT(2, 'a', 'b', 'c', 'dddd')", ("b", "VARCHAR(4)")),
    ("BIN(12)", ("1100", "STRING NOT NULL")), ("BIN(0)", ("0", "STRING NOT NULL")),
    ("BIN(-12)", ("1" * 60 + "0100", "STRING NOT NULL")), ("BIN(CAST(-3 AS TINYINT))", ("1" * 62 + "01", "STRING NOT NULL")),
    ("BIN(-2147483648)", ("1" * 33 + "0" * 31, "STRING NOT NULL")),
    ("BIN(9223372036854775807)", ("1" * 63, "STRING NOT NULL")), ("BIN(CAST(NULL AS INT))", (None, "STRING")),
    ("REGEXP_COUNT('aXbXc', 'X')", (2, "INT")), ("REGEXP_COUNT('aaa', 'a*')", (2, "INT")),
    ("REGEXP_COUNT('', '')", (1, "INT")), ("REGEXP_COUNT('abc', '')", (4, "INT")), ("REGEXP_COUNT('aaaa', 'aa')", (2, "INT")),
    ("REGEXP_COUNT('x' || CHR(10) || 'y', '.')", (2, "INT")), ("REGEXP_COUNT('abc', '(')", (None, "INT")),
    ("REGEXP_COUNT(CAST(NULL AS STRING), 'a')", (None, "INT")),
    ("REGEXP_INSTR('aXbXc', 'X')", (2, "INT")), ("REGEXP_INSTR('abc', 'z')", (0, "INT")),
    ("REGEXP_INSTR('', '')", (1, "INT")), ("REGEXP_INSTR('𝄞ab', 'a')", (3, "INT")),   # 𝄞: two Java characters
    ("REGEXP_INSTR('éab', 'a')", (2, "INT")), ("REGEXP_INSTR('abc', '(')", (None, "INT")),
    ("REGEXP_SUBSTR('aXbXc', 'X.')", ("Xb", "STRING")), ("REGEXP_SUBSTR('abc', 'z')", (None, "STRING")),
    ("REGEXP_SUBSTR('abc', '')", ("", "STRING")), ("REGEXP_SUBSTR('abc', '(b)(c)')", ("bc", "STRING")),
    ("REGEXP_SUBSTR('abc', '(')", (None, "STRING")), ("REGEXP_SUBSTR('abc', CAST(NULL AS STRING))", (None, "STRING")),
    ("REGEXP_EXTRACT_ALL('a1b22c333', '[a-z]([0-9]+)')", (["1", "22", "333"], "ARRAY<STRING>")),  # group 1 by default
    ("REGEXP_EXTRACT_ALL('a1b22c333', '[a-z]([0-9]+)', 0)", (["a1", "b22", "c333"], "ARRAY<STRING>")),
    ("REGEXP_EXTRACT_ALL('a1b22c333', '[a-z]([0-9]+)', 2)", (None, "ARRAY<STRING>")),
    ("REGEXP_EXTRACT_ALL('a1b22c333', '[a-z]([0-9]+)', -1)", (None, "ARRAY<STRING>")),
    ("REGEXP_EXTRACT_ALL('a1b22', '[a-z][0-9]+')", (None, "ARRAY<STRING>")),         # no group 1
    ("REGEXP_EXTRACT_ALL('abc', '(z)')", ([], "ARRAY<STRING>")), ("REGEXP_EXTRACT_ALL('abc', '(', 0)", (None, "ARRAY<STRING>")),
    ("REGEXP_EXTRACT_ALL('ab', '(x)?(a|b)', 1)", ([None, None], "ARRAY<STRING>")),
    ("REGEXP_EXTRACT_ALL('abc', '(a)', CAST(1 AS BIGINT))", (["a"], "ARRAY<STRING>")),
    ("REGEXP_EXTRACT_ALL('abc', '(a)', CAST(NULL AS INT))", (None, "ARRAY<STRING>")),
])
def test_elt_bin_and_regexp_functions_as_flinks(sql, expected):
    assert _typed(sql) == expected


def test_elt_bin_and_regexp_functions_of_columns_and_their_errors_as_flinks():
    assert _typed("ELT(i, 'a', 'b')", i=(catalog.SqlType("INT"), -1)) == (None, "CHAR(1)")
    assert _typed("REGEXP_COUNT(s, p)", s=(catalog.SqlType("STRING", nullable=False), "aa"),
                  p=(catalog.SqlType("STRING", nullable=False), "a")) == (2, "INT")      # nullable all the same
    with pytest.raises(TypeError, match="ClassCastException: class java.lang.Long cannot be cast"):
        _typed("ELT(i, 'a', 'b')", i=(catalog.SqlType("BIGINT"), 1))              # Flink's job fails the same way
    for sql, message in [("ELT(-1, 'a', 'b')", "Invalid function call:\nELT(INT NOT NULL, CHAR(1) NOT NULL, "
                                                "CHAR(1) NOT NULL)"),
                         ("ELT(1, 1, 2)", "Invalid function call:\nELT(INT NOT NULL, INT NOT NULL, INT NOT NULL)"),
                         ("ELT(NULL, 'a', 'b')", "Illegal use of 'NULL'"), ("BIN(NULL)", "Illegal use of 'NULL'"),
                         ("BIN(1.5)", "Cannot apply 'BIN' to arguments of type 'BIN(<DECIMAL(2, 1)>)'. Supported "
                                      "form(s): 'BIN(<INTEGER>)'"),
                         ("BIN(1, 2)", "Invalid number of arguments to function 'BIN'. Was expecting 1 arguments"),
                         ("REGEXP_COUNT(1, 'b')", "Invalid function call:\nREGEXP_COUNT(INT NOT NULL, CHAR(1) NOT NULL)"),
                         ("REGEXP_INSTR('abc', 'c', 1)", "No match found for function signature REGEXP_INSTR"),
                         ("REGEXP_EXTRACT_ALL('abc', '(a)', '1')", "Invalid function call:\nREGEXP_EXTRACT_ALL("
                                                                   "CHAR(3) NOT NULL, CHAR(3) NOT NULL, CHAR(1) NOT NULL)"),
                         ("PRINTF(1, 2)", "Invalid function call:\nPRINTF(INT NOT NULL, INT NOT NULL)"),
                         ("PRINTF()", "No match found for function signature PRINTF")]:
        with pytest.raises(JavaStyleError) as raised:
            _typed(sql)
        assert message in raised.value.message, sql


@pytest.mark.parametrize("sql, expected", [
    # Java's Formatter of the values as Flink hands them over: what real PyFlink 2.3 printed
    ("PRINTF('%s-%s', 'a', 1)", "a-1"), ("PRINTF('x')", "x"), ("PRINTF(CAST(NULL AS STRING), 1)", None),
    ("PRINTF('%s|%d', CAST(NULL AS STRING), CAST(NULL AS INT))", "null|null"), ("PRINTF('%s', NULL)", "null"),
    ("PRINTF('%s|%s|%s|%s', TRUE, 1.5, CAST(1.5 AS DOUBLE), CAST(1.25 AS FLOAT))", "true|1.5|1.5|1.25"),
    ("PRINTF('%s|%s', DATE '2020-01-02', TIMESTAMP '2020-01-02 03:04:05.6')", "18263|2020-01-02T03:04:05.600"),
    ("PRINTF('%s|%s', TIMESTAMP '2020-01-02 00:00:00', CAST(0.000000123 AS DECIMAL(10, 9)))", "2020-01-02T00:00|0.000000123"),
    ("PRINTF('%5d|%-5d|%05d|%+d|%,d|%(d|% d', 42, 42, 42, 42, 1234567, -42, 42)", "   42|42   |00042|+42|1,234,567|(42)| 42"),
    ("PRINTF('%(08d|%(8d|%0,10d', -1234, -1234, -1234567)", "(001234)|  (1234)|-1,234,567"),
    ("PRINTF('%x|%X|%o|%08x|%#x|%#o', 255, 255, 8, 255, 255, 8)", "ff|FF|10|000000ff|0xff|010"),
    ("PRINTF('%x|%x|%x|%o', -1, CAST(-1 AS BIGINT), CAST(-1 AS TINYINT), CAST(-1 AS SMALLINT))",
     "ffffffff|ffffffffffffffff|ff|177777"),
    ("PRINTF('%f|%.1f|%.0f|%.0f', CAST(1.5 AS DOUBLE), CAST(0.25 AS DOUBLE), CAST(0.5 AS DOUBLE), CAST(1.5 AS DOUBLE))",
     "1.500000|0.3|1|2"),                                       # half up on the shortest digits, as Java rounds
    ("PRINTF('%.2f|%.2f|%f', CAST(2.675 AS DOUBLE), CAST(1.005 AS DOUBLE), CAST(1.1 AS FLOAT))", "2.68|1.01|1.100000"),
    ("PRINTF('%,.2f|%010.2f|%(.1f|%+.1f|% .1f|%-8.1f|', CAST(1234567.891 AS DOUBLE), CAST(-3.5 AS DOUBLE), "
     "CAST(-3.5 AS DOUBLE), CAST(3.5 AS DOUBLE), CAST(3.5 AS DOUBLE), CAST(3.5 AS DOUBLE))",
     "1,234,567.89|-000003.50|(3.5)|+3.5| 3.5|3.5     |"),
    ("PRINTF('%E|%.0e|%#.0e|%12.3e', CAST(12345.678 AS DOUBLE), CAST(15 AS DOUBLE), CAST(25 AS DOUBLE), "
     "CAST(-0.00012345 AS DOUBLE))", "1.234568E+04|2e+01|3.e+01|  -1.235e-04"),
    ("PRINTF('%g|%g|%g|%g|%g|%.3g|%G|%g', CAST(12345.678 AS DOUBLE), CAST(0.0001 AS DOUBLE), CAST(0.00001 AS DOUBLE), "
     "CAST(1234567 AS DOUBLE), CAST(0 AS DOUBLE), CAST(99950 AS DOUBLE), CAST(1e-10 AS DOUBLE), CAST(100000 AS DOUBLE))",
     "12345.7|0.000100000|1.00000e-05|1.23457e+06|0.00000|1.00e+05|1.00000E-10|100000"),
    ("PRINTF('%f|%e|%g|%(f', CAST('NaN' AS DOUBLE), CAST('Infinity' AS DOUBLE), CAST('-Infinity' AS DOUBLE), "
     "CAST('-Infinity' AS DOUBLE))", "NaN|Infinity|-Infinity|(Infinity)"),
    ("PRINTF('%a|%#.0f', CAST(1.0 AS DOUBLE), CAST(3 AS DOUBLE))", "0x1.0p0|3."),
    ("PRINTF('%c|%-3c|%C|%c', 65, 66, 97, CAST(128512 AS INT))", "A|B  |A|😀"),
    ("PRINTF('%S|%10s|%-4s|%.2s|%5.1s|', 'abc', 'abc', 'ab', 'abcdef', 'abc')", "ABC|       abc|ab  |ab|    a|"),
    ("PRINTF('%.1b|%B|%5b|%b', TRUE, FALSE, 1, CAST(NULL AS STRING))", "t|FALSE| true|false"),
    ("PRINTF('%h|%H|%h|%h|%h', 255, 255, CAST(10000000000 AS BIGINT), TRUE, CAST(1.5 AS DOUBLE))", "ff|FF|540be402|4cf|3ff80000"),
    ("PRINTF('%%|%n|%5%|%-5%|')", "%|\n|    %|%    |"),
    ("PRINTF('%2$s %1$s|%s %<s', 'a', 'b')", "b a|a a"), ("PRINTF('%s %2$s %s %<s %1$s', 'a', 'b', 'c')", "a b b b a"),
    ("PRINTF('%s', 'a', 'b')", "a"), ("PRINTF('%s', 'é𝄞')", "é𝄞"),
    # what Java's Formatter rejects: NULL
    ("PRINTF('%s %s', 'a')", None), ("PRINTF('%q', 1)", None), ("PRINTF('%', 1)", None), ("PRINTF('%d', 'a')", None),
    ("PRINTF('%f', 1.5)", None), ("PRINTF('%d', 1.5)", None), ("PRINTF('%f', 1)", None), ("PRINTF('%c', 'a')", None),
    ("PRINTF('%c', -1)", None), ("PRINTF('%.2c', 65)", None), ("PRINTF('%+x', 5)", None), ("PRINTF('%#d', 5)", None),
    ("PRINTF('%.2d', 5)", None), ("PRINTF('%-d', 5)", None), ("PRINTF('%-05d', 5)", None), ("PRINTF('%+ d', 5)", None),
    ("PRINTF('%--5d', 5)", None), ("PRINTF('%#s', 'a')", None), ("PRINTF('%05s', 'a')", None), ("PRINTF('%#b', TRUE)", None),
    ("PRINTF('%05%')", None), ("PRINTF('%5n')", None), ("PRINTF('%0$s', 'a')", None), ("PRINTF('%3$s', 'a', 'b')", None),
    ("PRINTF('%<s', 'a')", None), ("PRINTF('%D', 1)", None), ("PRINTF('%.s', 'a')", None), ("PRINTF('%,e', 1e0)", None),
    ("PRINTF('%#g', 1e0)", None), ("PRINTF('%tY', DATE '2020-01-02')", None),
])
def test_printf_as_flinks(sql, expected):
    assert _typed(sql) == (expected, "STRING")


# Kafka tables: where columns travel, and the table factory's checks with Flink's messages --------------------

_KAFKA = "'connector' = 'kafka', 'topic' = 't', 'properties.bootstrap.servers' = 'b:1'"


def _kafka_ddl(columns, options):
    return _table("CREATE TABLE k (%s) WITH (%s, %s)" % (columns, _KAFKA, options))


def test_key_fields_come_from_the_key_and_a_value_field_wins_over_a_key_field_as_in_flink():
    from pyflink_compat.common.types import Row
    table = _kafka_ddl("k STRING, id INT, v STRING", "'key.format' = 'json', 'key.fields' = 'k', "
                                                      "'value.format' = 'json'")
    layout = kafka_table.layout_of(table, kafka_table.SOURCE)
    assert (layout.key_positions, layout.value_positions) == ((0,), (0, 1, 2))
    read = kafka_table.row_reader(table, layout)
    assert [tuple(r) for r in read(Row(b'{"k":"a"}', b'{"id":1,"v":"x"}'))] == [(None, 1, "x")]  # ALL: value's k
    assert [tuple(r) for r in read(Row(b'{"k":"a"}', b'{"k":"v","id":1}'))] == [("v", 1, None)]
    assert list(read(Row(None, b'{"id":1}'))) == []         # the json key format reads no row without a key
    assert list(read(Row(b'{"k":"a"}', None))) == []        # a tombstone of a 'kafka' table
    except_key = _kafka_ddl("id INT, v STRING, k STRING", "'key.format' = 'raw', 'key.fields' = 'k', "
                                                          "'value.format' = 'json', 'value.fields-include' = "
                                                          "'EXCEPT_KEY'")
    read = kafka_table.row_reader(except_key, kafka_table.layout_of(except_key, kafka_table.SOURCE))
    assert [tuple(r) for r in read(Row(b'{"k":"a"}', b'{"id":1,"v":"x","k":"no"}'))] == [(1, "x", '{"k":"a"}')]
    assert [tuple(r) for r in read(Row(None, b'{"id":2}'))] == [(2, None, None)]   # raw: a missing key is NULL


def test_a_keyed_row_is_written_as_key_and_value_and_an_upsert_change_as_flinks_upsert_kafka_writes_it():
    table = _kafka_ddl("k_id INT, word STRING, n BIGINT",
                       "'key.format' = 'json', 'key.fields' = 'k_id', 'key.fields-prefix' = 'k_', "
                       "'value.format' = 'json', 'value.fields-include' = 'EXCEPT_KEY'")
    write = kafka_table.writer(table, kafka_table.layout_of(table, kafka_table.SINK))
    assert write([7, "a", 3]) == (b'{"id":7}', b'{"word":"a","n":3}')
    upsert = _table("CREATE TABLE u (w STRING, c BIGINT, PRIMARY KEY (w) NOT ENFORCED) WITH ('connector' = "
                    "'upsert-kafka', 'topic' = 't', 'key.format' = 'raw', 'value.format' = 'json')")
    record = kafka_table.upsert_record(upsert, kafka_table.layout_of(upsert, kafka_table.SINK))
    assert record(("+I", ("a", 1))) == (b"a", b'{"w":"a","c":1}')
    assert record(("+U", ("a", 2))) == (b"a", b'{"w":"a","c":2}')
    assert record(("-U", ("a", 1))) is None                 # an upsert sink is given no update before
    assert record(("-D", ("a", 2))) == (b"a", None)         # a deletion is a tombstone
    assert [c.type.nullable for c in upsert.columns] == [False, True]   # a primary key's columns are NOT NULL


@pytest.mark.parametrize("columns, options, cause", [
    ("k STRING", "'key.fields' = 'k', 'value.format' = 'json'",
     "The option 'key.fields' can only be declared if a key format is defined using 'key.format'."),
    ("k STRING", "'key.format' = 'json', 'value.format' = 'json'",
     "A key format 'key.format' requires the declaration of one or more of key fields using 'key.fields'."),
    ("k_k STRING, v STRING", "'key.format' = 'json', 'key.fields' = 'k_k', 'key.fields-prefix' = 'k_', "
                             "'value.format' = 'json'",
     "A key prefix is not allowed when option 'value.fields-include' is set to 'ALL'. Set it to 'EXCEPT_KEY' "
     "instead to avoid field overlaps."),
    ("k STRING, id INT", "'key.format' = 'json', 'key.fields' = 'nope', 'value.format' = 'json'",
     "Could not find the field 'nope' in the table schema for usage in the key format. A key field must be a "
     "regular, physical column. The following columns can be selected in the 'key.fields' option:\n[k, id]"),
    ("k STRING", "'key.format' = 'json', 'key.fields' = 'k', 'key.fields-prefix' = 'k_', 'value.format' = 'json', "
                 "'value.fields-include' = 'EXCEPT_KEY'",
     "All fields in 'key.fields' must be prefixed with 'k_' when option 'key.fields-prefix' is set but field 'k' "
     "is not prefixed."),
    ("k STRING", "'scan.startup.mode' = 'earliest-offset'", "Could not find required scan format 'value.format'."),
    ("k STRING, PRIMARY KEY (k) NOT ENFORCED", "'format' = 'json'",
     "The Kafka table 'default_catalog.default_database.k' with 'json' format doesn't support defining PRIMARY KEY "
     "constraint on the table, because it can't guarantee the semantic of primary key."),
])
def test_a_kafka_table_the_factory_refuses_fails_with_flinks_message_and_its_options(columns, options, cause):
    table = _kafka_ddl(columns, options + ", 'properties.sasl.jaas.config' = 'secret-jaas'")
    with pytest.raises(JavaStyleError) as raised:
        kafka_table.layout_of(table, kafka_table.SOURCE)
    assert raised.value.message.startswith(
        "Unable to create a source for reading table 'default_catalog.default_database.k'.\n\nTable options are:"
        "\n\n'connector'='kafka'\n")
    assert "'properties.sasl.jaas.config'='******'" in raised.value.message and "secret-jaas" not in str(raised.value)
    assert raised.value.cause.message == cause
    assert str(raised.value).endswith("\nCaused by: org.apache.flink.table.api.ValidationException: " + cause)


@pytest.mark.parametrize("options, cause", [
    ("'key.format' = 'json', 'value.format' = 'json'", "'upsert-kafka' tables require to define a PRIMARY KEY"),
    ("'format' = 'json'", "Could not find required sink format 'key.format'."),
    ("'key.format' = 'json', 'value.format' = 'json', 'key.fields' = 'w'",
     "Unsupported options found for 'upsert-kafka'.\n\nUnsupported options:\n\nkey.fields\n\nSupported options:"
     "\n\nconnector\nkey.fields-prefix\n"),
])
def test_an_upsert_kafka_table_the_factory_refuses_fails_with_flinks_message(options, cause):
    key = "" if "PRIMARY KEY" in cause else ", PRIMARY KEY (w) NOT ENFORCED"
    table = _table("CREATE TABLE u (w STRING, c BIGINT%s) WITH ('connector' = 'upsert-kafka', 'topic' = 't', "
                   "'properties.bootstrap.servers' = 'b:1', %s)" % (key, options))
    with pytest.raises(JavaStyleError) as raised:
        kafka_table.layout_of(table, kafka_table.SINK)
    assert raised.value.message.startswith("Unable to create a sink for writing table 'default_catalog."
                                           "default_database.u'.")
    assert raised.value.cause.message.startswith(cause)


# TableResult.print(): Flink's tableau ----------------------------------------------------------------------

def test_the_tableau_has_widths_by_type_cut_values_null_and_wide_characters_as_flinks():
    import datetime
    from pyflink_compat.table.sql import tableau
    lines = []
    printer = tableau.TableauPrinter(
        ["word", "cnt", "big", "price", "flag", "ts", "a_really_long_column_name_that_exceeds_widths"],
        [catalog.SqlType(n) for n in ("STRING", "INT", "BIGINT", "DOUBLE", "BOOLEAN")]
        + [catalog.SqlType("TIMESTAMP", precision=3), catalog.SqlType("TINYINT")], row_kind=True, write=lines.append)
    printer.row(["a-very-long-word-that-is-definitely-longer-than-forty-characters-xyz", 22, -5, 1234567.125, False,
                 datetime.datetime(2024, 1, 2, 3, 4, 5), 1], "+I")
    printer.row(["你好世界", None, None, None, None, None, None], "-U")
    printer.end()
    assert lines == [
        "+----+--------------------------------+-------------+----------------------+--------------------------------"
        "+--------+-------------------------+-----------------------------------------------+",
        "| op |                           word |         cnt |                  big |                          price "
        "|   flag |                      ts | a_really_long_column_name_that_exceeds_widths |",
        lines[0],
        "| +I | a-very-long-word-that-is-de... |          22 |                   -5 |                    1234567.125 "
        "|  FALSE | 2024-01-02 03:04:05.000 |                                             1 |",
        "| -U |                       你好世界 |      <NULL> |               <NULL> |                         <NULL> "
        "| <NULL> |                  <NULL> |                                        <NULL> |",
        lines[0],
        "2 rows in set"]
    empty = []
    tableau.TableauPrinter(["w"], [catalog.SqlType("STRING")], row_kind=True, write=empty.append).end()
    assert empty == ["Empty set"]


@pytest.mark.parametrize("text, delimiter, pieces", [
    ("to be", " ", ["to", "be"]), ("a  b", " ", ["a", "", "b"]), ("  lead", " ", ["", "", "lead"]),
    ("trail ", " ", ["trail", ""]), ("", " ", []), ("ab", "", ["a", "b"]), ("a::b", "::", ["a", "b"]),
])
def test_split_keeps_every_piece_as_flinks(text, delimiter, pieces):
    assert expressions.split_text(text, delimiter) == pieces


def test_cross_join_unnest_adds_the_element_column_and_other_unnest_joins_are_refused_by_name():
    tables = {"lines": _table("CREATE TABLE lines (line STRING) WITH ('connector' = 'kafka')")}
    relation = planner.relation_of(dialect.parse(
        "SELECT w FROM lines CROSS JOIN UNNEST(SPLIT(line, ' ')) AS t(w)")[0], tables)
    assert [(c.name, c.type.name) for c in relation.columns] == [("line", "STRING"), ("w", "STRING")]
    with pytest.raises(UnsupportedFeatureError, match="^RIGHT JOIN UNNEST"):
        planner.relation_of(dialect.parse("SELECT * FROM lines RIGHT JOIN UNNEST(SPLIT(line, ' ')) AS t(w) "
                                          "ON TRUE")[0], tables)
    with pytest.raises(UnsupportedFeatureError, match="UNNEST of one array AS t\\(column\\) runs"):
        planner.relation_of(dialect.parse("SELECT * FROM lines CROSS JOIN UNNEST(SPLIT(line, ' '))")[0], tables)
    with pytest.raises(JavaStyleError, match="UNNEST argument must be a collection"):
        planner.relation_of(dialect.parse("SELECT * FROM lines CROSS JOIN UNNEST(line) AS t(w)")[0], tables)


def test_a_window_table_function_is_a_window_aggregation_of_its_group_by_and_refused_beyond_that():
    tables = {"clicks": _table("CREATE TABLE clicks (usr STRING, ts TIMESTAMP(3), plain TIMESTAMP(3), WATERMARK FOR "
                               "ts AS ts) WITH ('connector' = 'kafka')")}
    tumble = "TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '10' SECONDS))"
    columns = planner.query_columns(dialect.parse(
        "SELECT window_start, usr, COUNT(*) AS n, window_time FROM %s GROUP BY window_start, window_end, usr, "
        "window_time" % tumble)[0], tables)
    assert [(c.name, c.type.name) for c in columns] == [("window_start", "TIMESTAMP"), ("usr", "STRING"),
                                                        ("n", "BIGINT"), ("window_time", "TIMESTAMP")]
    refused = [("SELECT usr FROM %s" % tumble, "A window table function without GROUP BY"),
               ("SELECT usr, COUNT(*) FROM %s GROUP BY window_start, usr" % tumble, "without both window_start"),
               ("SELECT COUNT(*) FROM %s GROUP BY window_start, window_end, CAST(window_start AS STRING)" % tumble,
                "window_start in an expression of the GROUP BY"),
               ("SELECT COUNT(*) FROM TABLE(SESSION(TABLE clicks PARTITION BY usr, DESCRIPTOR(ts), INTERVAL '1' "
                "SECOND)) GROUP BY window_start, window_end", "whose PARTITION BY keys are not all in the GROUP BY")]
    for query, message in refused:
        with pytest.raises(UnsupportedFeatureError, match=message):
            planner.query_columns(dialect.parse(query)[0], tables)
    for arguments, message in [("INTERVAL '4' SECOND, INTERVAL '6' SECOND",
                                "CUMULATE table function based aggregate requires maxSize must be an integral multiple "
                                "of step, but got maxSize 6000 ms and step 4000 ms."),
                               ("INTERVAL '4' SECOND", "Invalid number of arguments to function 'CUMULATE'. Was "
                                                       "expecting 4 arguments")]:
        with pytest.raises(JavaStyleError, match=re.escape(message)):
            planner.query_columns(dialect.parse("SELECT COUNT(*) FROM TABLE(CUMULATE(TABLE clicks, DESCRIPTOR(ts), %s)) "
                                                "GROUP BY window_start, window_end" % arguments)[0], tables)
    with pytest.raises(JavaStyleError, match="requires the timecol is a time attribute type, but is TIMESTAMP\\(3\\)"):
        planner.query_columns(dialect.parse("SELECT COUNT(*) FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(plain), "
                                            "INTERVAL '1' SECOND)) GROUP BY window_start, window_end")[0], tables)


def test_an_inner_join_resolves_qualified_columns_and_refuses_what_does_not_run():
    tables = {t.name: t for t in [
        _table("CREATE TABLE orders (id INT, amount DOUBLE) WITH ('connector' = 'kafka')"),
        _table("CREATE TABLE payments (id INT, order_id INT, paid DOUBLE) WITH ('connector' = 'kafka')")]}
    select = dialect.parse("SELECT * FROM orders o JOIN payments p ON o.id = p.order_id AND p.paid > o.amount")[0]
    joined = planner.relation_of(select, tables)
    assert joined.column_names == ["id", "amount", "id0", "order_id", "paid"]      # Flink's names for the row
    relation = joined.query
    assert relation.left_keys[0]((7, 1.0)) == 7 and relation.right_keys[0]((100, 7, 2.0)) == 7
    assert relation.condition((7, 1.0, 100, 7, 2.0)) is True
    with pytest.raises(JavaStyleError, match="Column 'id' is ambiguous"):
        planner.query_columns(dialect.parse("SELECT id FROM orders o JOIN payments p ON o.id = p.order_id")[0],
                              tables)
    for query, message in [("SELECT * FROM orders o NATURAL JOIN payments p", "JOIN"),
                           ("SELECT * FROM orders o JOIN payments p ON o.amount > p.paid", "without an equality"),
                           ("SELECT * FROM orders o JOIN payments p ON o.id = p.order_id, orders q",
                            "^UNNEST, LATERAL TABLE or a JOIN without ON among several JOINs"),
                           ("SELECT * FROM orders o, payments p", "^A JOIN without ON")]:
        with pytest.raises(UnsupportedFeatureError, match=message):
            planner.relation_of(dialect.parse(query)[0], tables)
    # an outer join followed by another JOIN: the second join takes the first's changelog
    after_outer = planner.relation_of(dialect.parse("SELECT * FROM orders o LEFT JOIN payments p ON o.id = p.order_id "
                                                    "JOIN orders q ON q.id = o.id")[0], tables).query
    assert after_outer.updating and after_outer.left.query.updating
    # a JOIN chain joins left to right; the second ON sees all three tables by their aliases
    chain = planner.relation_of(dialect.parse(
        "SELECT * FROM orders o JOIN payments p ON o.id = p.order_id JOIN orders q ON q.id = p.id "
        "AND q.amount < p.paid")[0], tables)
    assert chain.column_names == ["id", "amount", "id0", "order_id", "paid", "id1", "amount0"]
    outer = chain.query
    assert outer.left.query.left.name == "orders" and outer.right.name == "orders"
    assert outer.left_keys[0]((7, 1.0, 100, 7, 2.0)) == 100 and outer.right_keys[0]((100, 1.5)) == 100
    assert outer.condition((7, 1.0, 100, 7, 2.0, 100, 1.5)) is True
    assert outer.condition((7, 1.0, 100, 7, 2.0, 100, 2.5)) is False
    assert [c.name for c in planner.query_columns(dialect.parse(
        "SELECT o.amount, p.paid, q.amount AS again, order_id FROM orders o JOIN payments p ON o.id = p.order_id "
        "LEFT JOIN orders q ON q.id = p.id")[0], tables)] == ["amount", "paid", "again", "order_id"]
    with pytest.raises(JavaStyleError, match="Column 'amount' is ambiguous"):
        planner.query_columns(dialect.parse("SELECT amount FROM orders o JOIN payments p ON o.id = p.order_id "
                                            "JOIN orders q ON q.id = p.id")[0], tables)
    # FROM a, b WHERE ...: the WHERE clause's equalities are the join's keys (Flink's interval joins are written so)
    comma = planner.relation_of(dialect.parse(
        "SELECT * FROM orders o, payments p WHERE o.id = p.order_id AND p.paid > o.amount")[0], tables).query
    assert comma.left_keys[0]((7, 1.0)) == 7 and comma.right_keys[0]((100, 7, 2.0)) == 7
    assert comma.condition((7, 1.0, 100, 7, 2.0)) is True and comma.condition((7, 3.0, 100, 7, 2.0)) is False


def test_union_all_takes_its_first_querys_columns_and_refuses_union_and_mismatched_counts():
    tables = {t.name: t for t in [
        _table("CREATE TABLE a (x INT, s STRING) WITH ('connector' = 'kafka')"),
        _table("CREATE TABLE b (y BIGINT, t STRING) WITH ('connector' = 'kafka')")]}
    columns = planner.query_columns(dialect.parse("SELECT x AS n, s FROM a UNION ALL SELECT y, t FROM b")[0], tables)
    # the first query's names, each column of the queries' common type (an INT and a BIGINT: a BIGINT, as Flink)
    assert [(c.name, c.type.name) for c in columns] == [("n", "BIGINT"), ("s", "STRING")]
    with pytest.raises(JavaStyleError, match="Column count mismatch in UNION ALL"):
        planner.query_columns(dialect.parse("SELECT x FROM a UNION ALL SELECT y, t FROM b")[0], tables)
    with pytest.raises(UnsupportedFeatureError, match="^UNION \\(without ALL\\)"):
        planner.query_columns(dialect.parse("SELECT x FROM a UNION SELECT y FROM b")[0], tables)


def test_metadata_columns_are_read_after_the_physical_ones_and_a_key_is_used_once():
    table = _table("""CREATE TABLE t (id INT, ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp',
                      `partition` INT METADATA VIRTUAL, local_ts AS CAST(ts AS TIMESTAMP(3)), name STRING)
                      WITH ('connector' = 'kafka')""")
    assert [c.name for c in table.reader_columns] == ["id", "name", "ts", "partition"]
    assert [c.name for c in table.sink_columns] == ["id", "ts", "name"]
    assert [(c.metadata, c.virtual) for c in table.metadata_columns] == [("timestamp", False), ("partition", True)]
    assert next(c for c in table.columns if c.name == "local_ts").type == catalog.SqlType("TIMESTAMP", precision=3)
    with pytest.raises(JavaStyleError, match="The column `a` and `b` in the table are both from the same metadata "
                                             "key 'timestamp'"):
        _table("CREATE TABLE t (a TIMESTAMP_LTZ(3) METADATA FROM 'timestamp', b TIMESTAMP_LTZ(3) METADATA FROM "
               "'timestamp') WITH ('connector' = 'kafka')")
    with pytest.raises(JavaStyleError, match="Invalid metadata key 'offset' in column 'o' of table "
                                             "'default_catalog.default_database.t'"):
        planner._insert_target(_table("CREATE TABLE t (id INT, o BIGINT METADATA FROM 'offset') "
                                      "WITH ('connector' = 'kafka')"))


def test_instants_print_and_serialize_as_flink_does():
    import datetime
    from pyflink_compat.table.sql import values
    ltz = catalog.SqlType("TIMESTAMP_LTZ", precision=3)
    moment = values.utc_of_epoch_ms(1704164649000)
    assert values.printed(moment, ltz) == "2024-01-02T03:04:09Z"
    assert values.printed(moment + datetime.timedelta(milliseconds=5), ltz) == "2024-01-02T03:04:09.005Z"
    assert values.json_text(["t"], [moment], [ltz]) == '{"t":"2024-01-02 03:04:09Z"}'
    assert _evaluate("TO_TIMESTAMP_LTZ(n, 0)", n=("BIGINT", 1704164649)) == (moment, "TIMESTAMP_LTZ")
    assert _evaluate("TO_TIMESTAMP_LTZ(n)", n=("BIGINT", None)) == (None, "TIMESTAMP_LTZ")
    assert _evaluate("ts + INTERVAL '1' SECOND", ts=("TIMESTAMP", moment)) == \
        (moment + datetime.timedelta(seconds=1), "TIMESTAMP")


def test_the_json_format_escapes_strings_as_flinks_jackson_writes_them():
    # Seen on PyFlink 2.3.0: a character beyond the BMP as two escaped surrogates, control characters with
    # upper-case hex; other non-ASCII characters (also U+2028 and DEL) as they are. Map keys alike.
    from pyflink_compat.table.sql import values
    text, mapping = catalog.SqlType("STRING"), catalog.SqlType("MAP", key=catalog.SqlType("STRING"),
                                                               element=catalog.SqlType("INT"))
    assert values.json_text(["m", "t"], ["\U0001F6A8 \u2265\u2028\x7f", "x\x1fy\t\"\\"], [text, text]) == \
        '{"m":"\\uD83D\\uDEA8 \u2265\u2028\x7f","t":"x\\u001Fy\\t\\"\\\\"}'
    assert values.json_text(["k"], [{"\U0001F600": 1}], [mapping]) == '{"k":{"\\uD83D\\uDE00":1}}'


def test_left_and_right_take_characters_from_either_end():
    assert _evaluate("LEFT(s, 2)", s=("STRING", "abc")) == ("ab", "STRING")
    assert _evaluate("RIGHT(s, 2)", s=("STRING", "abc")) == ("bc", "STRING")
    assert _evaluate("LEFT(s, -1)", s=("STRING", "abc")) == ("", "STRING")
    assert _evaluate("RIGHT(s, 5)", s=("STRING", None)) == (None, "STRING")


def test_proctime_is_a_processing_time_attribute_that_group_windows_run_on():
    from pyflink_compat.table.sql import aggregates
    table = _table("CREATE TABLE t (k STRING, pt AS PROCTIME()) WITH ('connector' = 'kafka')")
    column = table.columns[1]
    assert (column.type.name, column.type.nullable, column.type.time_attribute) == ("TIMESTAMP_LTZ", False,
                                                                                     "PROCTIME")
    window = aggregates.group_window(dialect.parse("SELECT TUMBLE(pt, INTERVAL '10' SECOND) FROM t")[0]
                                     .expressions[0], table)
    assert window.processing and type(window.assigner()).__name__ == "TumblingProcessingTimeWindows"


def test_a_left_outer_join_pads_then_retracts_and_normalize_keeps_the_last_row_per_key():
    from pyflink_compat.runtime.keyed.operators import (KeyedCoProcessOperator, KeyedProcessOperator,
                                                        ListCollector)
    from pyflink_compat.table.sql.changelog import ChangelogNormalize
    from pyflink_compat.table.sql.joins import OuterJoin
    out = ListCollector()
    join = KeyedCoProcessOperator(OuterJoin(lambda row: row[3] > 1, 2, 2, True, False), output=out)
    join.open()
    join.process_elements([(1, 1, ((1,), (1, "ann")), 1), (2, 1, ((1,), (1, 0.5)), 2), (2, 1, ((1,), (1, 4.0)), 3),
                           (2, 2, ((2,), (2, 9.0)), 4), (1, 2, ((2,), (2, "bob")), 5), (2, 1, ((1,), (1, 7.0)), 6)])
    assert [record for record, _ in out.records] == [
        ("+I", (1, "ann", None, None)), ("-D", (1, "ann", None, None)), ("+I", (1, "ann", 1, 4.0)),
        ("+I", (2, "bob", 2, 9.0)), ("+I", (1, "ann", 1, 7.0))]
    out = ListCollector()
    normalize = KeyedProcessOperator(ChangelogNormalize(lambda row: row[1] > 3), output=out)
    normalize.open()
    for key, row in [("ann", ("ann", 1)), ("ann", ("ann", 5)), ("ann", ("ann", 5)), ("bob", None), ("ann", ("ann", 9)),
                     ("ann", ("ann", 2)), ("ann", None)]:
        normalize.process_element((key,), ((key,), row), 0)
    assert [record for record, _ in out.records] == [
        ("+I", ("ann", 5)), ("-U", ("ann", 5)), ("+U", ("ann", 9)), ("-D", ("ann", 9))]


def test_a_full_outer_join_pads_both_sides_and_retracts_all_padded_rows_before_joining_them():
    from pyflink_compat.runtime.keyed.operators import KeyedCoProcessOperator, ListCollector
    from pyflink_compat.table.sql.joins import OuterJoin
    out = ListCollector()
    join = KeyedCoProcessOperator(OuterJoin(None, 1, 1, True, True), output=out)
    join.open()
    # right a1, a2 padded; left a joins both (two retractions first, then two joins, as Flink's operator);
    # left b padded; right b joins it; right c padded
    join.process_elements([(2, "a", (("a",), ("a1",)), 1), (2, "a", (("a",), ("a2",)), 2), (1, "a", (("a",), ("a",)), 3),
                           (1, "b", (("b",), ("b",)), 4), (2, "b", (("b",), ("b1",)), 5), (2, "c", (("c",), ("c1",)), 6),
                           (1, "a", (("a",), ("a'",)), 7)])
    assert [record for record, _ in out.records] == [
        ("+I", (None, "a1")), ("+I", (None, "a2")), ("-D", (None, "a1")), ("-D", (None, "a2")), ("+I", ("a", "a1")),
        ("+I", ("a", "a2")), ("+I", ("b", None)), ("-D", ("b", None)), ("+I", ("b", "b1")), ("+I", (None, "c1")),
        ("+I", ("a'", "a1")), ("+I", ("a'", "a2"))]
    right = ListCollector()
    join = KeyedCoProcessOperator(OuterJoin(None, 1, 1, False, True), output=right)
    join.open()
    join.process_elements([(1, "a", (("a",), ("a",)), 1), (2, "a", (("a",), ("a1",)), 2), (2, "b", (("b",), ("b1",)), 3),
                           (2, None, ((None,), ("n1",)), 4), (2, None, ((None,), ("n2",)), 5)])
    # a NULL key joins nothing, not even another NULL key: padded at once
    assert [record for record, _ in right.records] == [("+I", ("a", "a1")), ("+I", (None, "b1")),
                                                       ("+I", (None, "n1")), ("+I", (None, "n2"))]


def test_a_join_of_a_changelog_passes_its_updates_on_and_an_outer_join_pads_again_when_its_last_match_goes():
    from pyflink_compat.runtime.keyed.operators import KeyedCoProcessOperator, ListCollector
    from pyflink_compat.table.sql.joins import OuterJoin
    # inner join, right side a GROUP BY's changelog: its update comes through as -U / +U of the joined row
    out = ListCollector()
    join = KeyedCoProcessOperator(OuterJoin(None, 1, 2, False, False, changelogs=(False, True)), output=out)
    join.open()
    join.process_elements([(1, "ann", (("ann",), ("NL",)), 1), (2, "ann", (("ann",), ("+I", ("ann", 3.0))), 2),
                           (2, "ann", (("ann",), ("-U", ("ann", 3.0))), 3),
                           (2, "ann", (("ann",), ("+U", ("ann", 10.0))), 4),
                           (2, "ann", (("ann",), ("-D", ("ann", 99.0))), 5)])   # not kept: ignored
    assert [record for record, _ in out.records] == [
        ("+I", ("NL", "ann", 3.0)), ("-U", ("NL", "ann", 3.0)), ("+U", ("NL", "ann", 10.0))]
    # left join, right side a changelog: the left row is padded, joined, padded again when its match is retracted
    out = ListCollector()
    join = KeyedCoProcessOperator(OuterJoin(None, 1, 1, True, False, changelogs=(False, True)), output=out)
    join.open()
    join.process_elements([(1, "a", (("a",), ("l",)), 1), (2, "a", (("a",), ("+I", ("r1",))), 2),
                           (2, "a", (("a",), ("+I", ("r2",))), 3), (2, "a", (("a",), ("-U", ("r1",))), 4),
                           (2, "a", (("a",), ("-D", ("r2",))), 5)])
    assert [record for record, _ in out.records] == [
        ("+I", ("l", None)), ("-D", ("l", None)), ("+I", ("l", "r1")), ("+I", ("l", "r2")), ("-U", ("l", "r1")),
        ("-D", ("l", "r2")), ("+I", ("l", None))]
    # left join, left side a changelog: its retraction takes back its joined and its padded rows
    out = ListCollector()
    join = KeyedCoProcessOperator(OuterJoin(None, 1, 1, True, False, changelogs=(True, False)), output=out)
    join.open()
    join.process_elements([(1, "a", (("a",), ("+I", ("l1",))), 1), (2, "a", (("a",), ("r",)), 2),
                           (1, "b", (("b",), ("+I", ("l2",))), 3), (1, "a", (("a",), ("-U", ("l1",))), 4),
                           (1, "b", (("b",), ("-D", ("l2",))), 5)])
    assert [record for record, _ in out.records] == [
        ("+I", ("l1", None)), ("-D", ("l1", None)), ("+I", ("l1", "r")), ("+I", ("l2", None)), ("-D", ("l1", "r")),
        ("-D", ("l2", None))]


def _retracting_aggregate(names, changes, types=None):
    from pyflink_compat.runtime.keyed.operators import KeyedProcessOperator, ListCollector
    from pyflink_compat.table.sql.aggregates import GroupOutput
    from pyflink_compat.table.sql.catalog import SqlType
    from pyflink_compat.table.sql.retracting import RetractingGroupAggregate
    output = GroupOutput([("key", 0)] + [("agg", index) for index in range(len(names))],
                         [SqlType("STRING")] + [SqlType(each) for each in types or ["BIGINT"] * len(names)])
    out = ListCollector()
    operator = KeyedProcessOperator(RetractingGroupAggregate(names, output), output=out)
    operator.open()
    for key, kind, arguments in changes:
        operator.process_element((key,), ((key,), (kind, arguments)), 0)
    return [record for record, _ in out.records]


def test_a_group_by_of_a_changelog_takes_rows_back_and_deletes_a_key_whose_last_row_goes():
    names = ["COUNT(*)", "SUM", "MIN", "MAX", "AVG", "DISTINCT COUNT"]
    changes = [("k", "+I", (None, 4, 4, 4, 4, 4)), ("k", "+I", (None, 6, 6, 6, 6, 4)),
               ("k", "-U", (None, 4, 4, 4, 4, 4)), ("x", "-D", (None, 1, 1, 1, 1, 1)),    # no state: ignored
               ("k", "+U", (None, None, None, None, None, None)), ("k", "-D", (None, 6, 6, 6, 6, 4)),
               ("k", "-D", (None, None, None, None, None, None))]
    assert _retracting_aggregate(names, changes, ["BIGINT"] * 4 + ["DOUBLE", "BIGINT"]) == [
        ("+I", ["k", 1, 4, 4, 4, 4, 1]), ("-U", ["k", 1, 4, 4, 4, 4, 1]), ("+U", ["k", 2, 10, 4, 6, 5.0, 1]),
        ("-U", ["k", 2, 10, 4, 6, 5.0, 1]), ("+U", ["k", 1, 6, 6, 6, 6.0, 1]),
        ("-U", ["k", 1, 6, 6, 6, 6.0, 1]), ("+U", ["k", 2, 6, 6, 6, 6.0, 1]),
        ("-U", ["k", 2, 6, 6, 6, 6.0, 1]), ("+U", ["k", 1, None, None, None, None, 0]),
        ("-D", ["k", 1, None, None, None, None, 0])]


@given(st.lists(st.tuples(st.booleans(), st.sampled_from([None, 1, 2, 3, 5])), max_size=30))
def test_a_retracting_aggregate_ends_where_aggregating_the_rows_left_over_ends(steps):
    from collections import Counter
    names = ["COUNT(*)", "COUNT", "SUM", "MIN", "MAX", "DISTINCT SUM"]
    kept, changes = Counter(), []
    for adding, value in steps:
        if not adding and kept[value] == 0:
            continue                      # a changelog only takes back rows it sent
        kept[value] += 1 if adding else -1
        changes.append(("k", "+I" if adding else "-D", (value,) * len(names)))
    current = {}
    for kind, values in _retracting_aggregate(names, changes):
        current = values if kind in ("+I", "+U") else {}
    rows = list(kept.elements())
    present = [value for value in rows if value is not None]
    expected = {} if not rows else ["k", len(rows), len(present), sum(present) if present else None,
                                    min(present, default=None), max(present, default=None),
                                    sum(set(present)) if present else None]
    assert current == expected


@given(st.integers(0, 10 ** 7), st.sampled_from([(1000, 1000), (1000, 3000), (2000, 6000), (500, 10000)]))
def test_cumulate_puts_a_row_in_each_window_of_its_period_that_ends_after_it(timestamp, step_and_size):
    from pyflink_compat.table.sql.aggregates import CumulativeWindows
    step, size = step_and_size
    windows = CumulativeWindows(step, size).assign_windows(None, timestamp, None)
    start = timestamp - timestamp % size
    assert [(w.start, w.end) for w in windows] == [(start, end) for end in range(start + step, start + size + 1, step)
                                                   if timestamp < end]
    assert all(w.start <= timestamp < w.end for w in windows) and windows[-1].end == start + size


def _ranked(function, elements):
    from pyflink_compat.runtime.keyed.operators import KeyedProcessOperator, ListCollector
    out = ListCollector()
    operator = KeyedProcessOperator(function, output=out)
    operator.open()
    for key, sort_key, values in elements:
        operator.process_element((key,), ((key,), (sort_key, values)), 0)
    return [record for record, _ in out.records]


def test_top_n_with_the_row_number_moves_each_rank_down_and_without_it_deletes_the_row_pushed_out():
    from pyflink_compat.table.sql.ranking import AppendOnlyTopN
    rows = [("k", (5,), ("a",)), ("k", (9,), ("b",)), ("k", (7,), ("c",)), ("k", (1,), ("d",)), ("k", (7,), ("e",))]
    # top 2 by the sort key descending, the row number selected last
    assert _ranked(AppendOnlyTopN(2, (True,), 1), rows) == [
        ("+I", ("a", 1)), ("-U", ("a", 1)), ("+U", ("b", 1)), ("+I", ("a", 2)), ("-U", ("a", 2)), ("+U", ("c", 2))]
    # without it: the pushed-out row deleted before the new one comes in; an equal sort key does not push out
    assert _ranked(AppendOnlyTopN(2, (True,), None), rows) == [
        ("+I", ("a",)), ("+I", ("b",)), ("-D", ("a",)), ("+I", ("c",))]
    # ascending, NULL first
    assert _ranked(AppendOnlyTopN(1, (False,), None), [("k", (3,), ("x",)), ("k", (None,), ("n",))]) == [
        ("+I", ("x",)), ("-D", ("x",)), ("+I", ("n",))]


def test_deduplication_keeps_the_first_or_last_row_per_key():
    from pyflink_compat.table.sql.ranking import Deduplicate
    rows = [("k", (None,), ("a",)), ("j", (None,), ("b",)), ("k", (None,), ("c",))]
    assert _ranked(Deduplicate(keep_last=False), rows) == [("+I", ("a",)), ("+I", ("b",))]
    assert _ranked(Deduplicate(keep_last=True), rows) == [("+I", ("a",)), ("+I", ("b",)), ("-U", ("a",)),
                                                           ("+U", ("c",))]
    on_event_time = [("k", (10,), ("a",)), ("k", (5,), ("b",)), ("k", (7,), ("c",))]
    assert _ranked(Deduplicate(keep_last=True), on_event_time) == [("+I", ("a",))]
    assert _ranked(Deduplicate(keep_last=False), on_event_time) == [("+I", ("a",)), ("-U", ("a",)), ("+U", ("b",))]


def test_order_by_limit_parses_as_a_top_n_over_all_rows_and_rank_filters_give_their_bounds():
    rewritten = dialect.parse("SELECT a, b FROM t AS u WHERE c > 1 ORDER BY a DESC LIMIT 3 OFFSET 2")[0]
    assert rewritten.sql() == ('SELECT a, b FROM (SELECT *, ROW_NUMBER() OVER (ORDER BY a DESC) AS "$limit_rank" '
                               'FROM t AS u WHERE c > 1) AS u WHERE "$limit_rank" > 2 AND "$limit_rank" <= 5')
    assert "ORDER BY 0" in dialect.parse("SELECT * FROM t LIMIT 2")[0].sql()           # the arrival order
    assert dialect.parse("SELECT k, COUNT(*) FROM t GROUP BY k LIMIT 2")[0].args.get("limit") is not None
    for condition, bounds in [("rn <= 3", (1, 3)), ("rn < 3 AND x > 1", (1, 2)), ("1 = rn", (1, 1)),
                              ("rn BETWEEN 2 AND 4", (2, 4)), ("3 >= rn AND rn > 1", (2, 3)), ("x > 1", (1, None))]:
        first, last, rest = planner._rank_limit(dialect.parse("SELECT * FROM t WHERE %s" % condition)[0]
                                                .args["where"].this, "rn")
        assert (first, last) == bounds, condition
    assert [each.sql() for each in rest] == ["x > 1"]


def test_sql_the_parser_cannot_read_fails_as_flinks_parser_does():
    with pytest.raises(JavaStyleError) as raised:
        dialect.parse("SELEC x FROM t")
    assert raised.value.java_class == "org.apache.flink.table.api.SqlParserException"
    assert raised.value.message.startswith("SQL parse failed. ")


def test_the_current_time_functions_give_flinks_types_and_a_column_of_that_name_wins():
    import datetime
    before = datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None) - datetime.timedelta(seconds=1)
    for text, type_name in [("CURRENT_TIMESTAMP", "TIMESTAMP_LTZ"), ("NOW()", "TIMESTAMP_LTZ"),
                            ("LOCALTIMESTAMP", "TIMESTAMP"), ("localtimestamp", "TIMESTAMP")]:
        value, result_type = _evaluate(text, a=("INT", 1))
        assert result_type == type_name and value >= before - datetime.timedelta(days=1), text
    assert _evaluate("localtimestamp", localtimestamp=("INT", 7)) == (7, "INT")


def test_a_sum_of_floats_adds_in_single_precision_and_a_sliced_window_adds_its_slices_in_order():
    import numpy
    from pyflink_compat.table.sql.aggregates import Accumulate, partial_of
    floats = [numpy.float32(v) for v in (30.2, 53.1, 3.1)]
    # Java: ((30.2f + 53.1f) + 3.1f) in floats; slices [2, 3) 53.1, [3, 4) 3.1, [4, 5) 30.2 merged in order
    arrival = Accumulate(["SUM:float"], partials=True)
    accumulator = arrival.create_accumulator()
    for value in floats:
        accumulator = arrival.add(((), (partial_of("SUM:float", float(value)),)), accumulator)
    assert arrival.get_result(accumulator) == (float((floats[0] + floats[1]) + floats[2]),)
    sliced = Accumulate(["SUM:float"], partials=True, sliced=True)
    accumulator = sliced.create_accumulator()
    for value, slice_index in zip(floats, (4, 2, 3)):
        accumulator = sliced.add(((), (partial_of("SUM:float", float(value)),), slice_index), accumulator)
    assert sliced.get_result(accumulator) == (float((floats[1] + floats[2]) + floats[0]),)
    assert "%r" % numpy.float32(sliced.get_result(accumulator)[0]) in ("86.399994", "np.float32(86.399994)")
    assert expressions.cast_value("0.1", catalog.SqlType("FLOAT")) == float(numpy.float32(0.1))


@given(st.lists(st.tuples(st.integers(0, 5), st.floats(-1e6, 1e6, allow_nan=False)), max_size=12))
def test_a_sliced_window_accumulator_is_the_in_order_merge_of_its_slices(rows):
    from pyflink_compat.table.sql.aggregates import Accumulate, partial_of
    names = ["SUM:double", "COUNT", "AVG", "MAX"]
    sliced = Accumulate(names, partials=True, sliced=True)
    accumulator = sliced.create_accumulator()
    for slice_index, value in rows:
        accumulator = sliced.add(((), tuple(partial_of(name, value) for name in names), slice_index), accumulator)
    plain = Accumulate(names, partials=True)
    expected = plain.create_accumulator()
    for slice_index in sorted({index for index, _ in rows}):
        per_slice = plain.create_accumulator()
        for _, value in (row for row in rows if row[0] == slice_index):
            per_slice = plain.add(((), tuple(partial_of(name, value) for name in names)), per_slice)
        expected = plain.merge(expected, per_slice)
    assert sliced.get_result(accumulator) == expected


def test_a_query_with_over_aggregates_reads_a_view_computing_them():
    from pyflink_compat.table.sql.over import over_as_view
    query = dialect.parse("SELECT a, SUM(x) OVER w AS s, COUNT(*) OVER w FROM t WHERE a > 1 "
                          "WINDOW w AS (PARTITION BY a ORDER BY ts ROWS BETWEEN 2 PRECEDING AND CURRENT ROW)")[0]
    assert over_as_view(query) is query            # dialect.parse made the view already
    text = query.sql(dialect=dialect.Flink)
    assert text == ("SELECT a, `$over0` AS s, `$over1` AS `EXPR$2` FROM (SELECT *, SUM(x) OVER (PARTITION BY a "
                    "ORDER BY ts ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS `$over0`, COUNT(*) OVER (PARTITION BY a "
                    "ORDER BY ts ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS `$over1` FROM t WHERE a > 1) AS t")


def test_a_bounded_over_window_retracts_the_oldest_row_before_it_adds_the_new_one():
    from pyflink_compat.table.sql import over
    names = ["SUM:double", "MIN", "COUNT(*)", "AVG"]
    accumulators = [over.initial(name) for name in names]
    window, outputs = [], []
    for value in (0.1, 0.2, 0.3, None, 0.7):
        if len(window) > 1:                        # ROWS BETWEEN 1 PRECEDING AND CURRENT ROW
            old = window.pop(0)
            accumulators = [over.retract(name, acc, old) for name, acc in zip(names, accumulators)]
        accumulators = [over.add(name, acc, value) for name, acc in zip(names, accumulators)]
        window.append(value)
        outputs.append(tuple(over.result(name, acc) for name, acc in zip(names, accumulators)))
    # Java's doubles: ((0.1 + 0.2) - 0.1) + 0.3 is 0.5000000000000001; MIN of a window without values is NULL
    assert outputs == [(0.1, 0.1, 1, 0.1), (0.1 + 0.2, 0.1, 2, (0.1 + 0.2) / 2),
                       ((0.1 + 0.2) - 0.1 + 0.3, 0.2, 2, ((0.1 + 0.2) - 0.1 + 0.3) / 2),
                       ((0.1 + 0.2) - 0.1 + 0.3 - 0.2, 0.3, 2, (0.1 + 0.2) - 0.1 + 0.3 - 0.2),
                       (((0.1 + 0.2) - 0.1 + 0.3 - 0.2) - 0.3 + 0.7, 0.7, 2, ((0.1 + 0.2) - 0.1 + 0.3 - 0.2) - 0.3 + 0.7)]


def test_a_pandas_aggregate_gets_a_float_column_as_float32_values():
    import numpy
    from pyflink_compat.table import DataTypes
    from pyflink_compat.table.sql.catalog import SqlType
    from pyflink_compat.table.udf import udaf
    mean = udaf(lambda v: v.mean(), result_type=DataTypes.FLOAT(), func_type="pandas")
    aggregate = mean._aggregate((SqlType("FLOAT"),))
    accumulator = aggregate.initial()
    for value in (30.2, 53.1, 3.1):
        accumulator = aggregate.accumulate(accumulator, (float(numpy.float32(value)),))
    # PyFlink's pandas functions see a FLOAT column as float32 (the mean of these: 28.800001 as a float)
    assert aggregate.result(accumulator) == float(numpy.float32(numpy.array([30.2, 53.1, 3.1], numpy.float32).mean()))


@pytest.mark.parametrize("function", ["RANK", "DENSE_RANK"])
def test_rank_and_dense_rank_are_refused_on_streaming_tables_as_flink_refuses_them(function):
    tables = {"t": _table("CREATE TABLE t (k STRING, v BIGINT) WITH ('connector' = 'kafka')")}
    from pyflink_compat.util.exceptions import TableException
    with pytest.raises(TableException, match=r"TableException: %s\(\) on streaming table is not supported "
                                             r"currently" % function):
        planner.query_columns(dialect.parse("SELECT k, v FROM (SELECT *, %s() OVER (PARTITION BY k ORDER BY v DESC) "
                                            "AS r FROM t) WHERE r <= 2" % function)[0], tables)


def test_a_top_n_over_a_changelog_follows_retractions_as_flinks_retract_strategy():
    """The input is the changelog PyFlink 2.3's GROUP BY gave for sums per product; the outputs are its Rank's."""
    from pyflink_compat.runtime.keyed.operators import KeyedProcessOperator, ListCollector
    from pyflink_compat.table.sql.ranking import RetractableTopN
    changes = [("+I", 5, "a"), ("+I", 3, "b"), ("+I", 4, "c"), ("-U", 3, "b"), ("+U", 6, "b"), ("+I", 1, "d"),
               ("-U", 5, "a"), ("+U", 1, "a"), ("-U", 1, "d"), ("+U", 11, "d")]

    def ranked(function):
        out = ListCollector()
        operator = KeyedProcessOperator(function, output=out)
        operator.open()
        for kind, total, product in changes:
            operator.process_element(("x",), (("x",), (kind, (total,), (product, total))), 0)
        return [(kind, values) for (kind, values), _ in out.records]
    assert ranked(RetractableTopN(2, (True,), 2)) == [
        ("+I", ("a", 5, 1)), ("+I", ("b", 3, 2)), ("-U", ("b", 3, 2)), ("+U", ("c", 4, 2)), ("-U", ("a", 5, 1)),
        ("+U", ("b", 6, 1)), ("-U", ("c", 4, 2)), ("+U", ("a", 5, 2)), ("-U", ("a", 5, 2)), ("+U", ("c", 4, 2)),
        ("-U", ("b", 6, 1)), ("+U", ("d", 11, 1)), ("-U", ("c", 4, 2)), ("+U", ("b", 6, 2))]
    assert ranked(RetractableTopN(2, (True,), None)) == [
        ("+I", ("a", 5)), ("+I", ("b", 3)), ("-D", ("b", 3)), ("+I", ("c", 4)), ("-D", ("c", 4)), ("+I", ("b", 6)),
        ("-D", ("a", 5)), ("+I", ("c", 4)), ("-D", ("c", 4)), ("+I", ("d", 11))]


def test_a_group_by_subquery_is_an_updating_view_and_a_windowed_one_an_insert_only_one_with_its_rowtime():
    tables = {"t": _table("CREATE TABLE t (k STRING, v BIGINT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts) "
                          "WITH ('connector' = 'kafka')")}
    view = planner.view_of("v", dialect.parse("SELECT k, SUM(v) AS s FROM t GROUP BY k")[0], tables)
    assert [c.name for c in view.columns] == ["k", "s"] and planner._is_changelog_source(view)
    windowed = planner.view_of("w", dialect.parse(
        "SELECT k, COUNT(*) AS n, TUMBLE_ROWTIME(ts, INTERVAL '1' SECOND) AS rt FROM t "
        "GROUP BY k, TUMBLE(ts, INTERVAL '1' SECOND)")[0], tables)
    assert not planner._is_changelog_source(windowed) and windowed.watermark == ("rt", 0)
    without_rowtime = planner.view_of("w", dialect.parse(
        "SELECT k, COUNT(*) FROM t GROUP BY k, TUMBLE(ts, INTERVAL '1' SECOND)")[0], tables)
    assert without_rowtime.watermark is None          # a window over it fails: no time attribute


@pytest.mark.parametrize("condition, bounds", [
    ("p.ts BETWEEN o.ts AND o.ts + INTERVAL '1' HOUR", (-3_600_000, 0)),
    ("o.ts BETWEEN p.ts - INTERVAL '10' MINUTE AND p.ts", (-600_000, 0)),
    ("o.ts > p.ts - INTERVAL '30' SECOND AND o.ts <= p.ts", (-29_999, 0)),
    ("p.ts < o.ts + INTERVAL '2' SECOND AND p.ts >= o.ts - INTERVAL '1' SECOND", (-1_999, 1_000)),
    ("p.ts >= o.ts", None),                          # one bound: a regular join
    ("p.plain BETWEEN o.ts AND o.ts + INTERVAL '1' HOUR", None),      # not a rowtime
])
def test_bounds_on_both_rowtimes_make_an_interval_join(condition, bounds):
    """Flink plans a join whose condition bounds ``left.rowtime - right.rowtime`` on both sides as an interval
    join: the bounds in milliseconds (a strict comparison 1 ms inside), the rowtime positions of each side."""
    tables = {t.name: t for t in [
        _table("CREATE TABLE o (id INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts) WITH ('connector' = 'kafka')"),
        _table("CREATE TABLE p (order_id INT, plain TIMESTAMP(3), ts TIMESTAMP(3), WATERMARK FOR ts AS ts) "
               "WITH ('connector' = 'kafka')")]}
    joined = planner.relation_of(dialect.parse("SELECT * FROM o, p WHERE o.id = p.order_id AND %s" % condition)[0],
                                 tables)
    relation = joined.query
    if bounds is None:
        assert relation.interval is None and joined.watermark is None
    else:
        assert relation.interval == (1, 2) + bounds
        assert joined.watermark == ("ts", 0)        # the left rowtime stays a time attribute


def test_an_interval_join_keeps_rows_while_they_can_join_and_pads_outer_ones_when_they_expire():
    import datetime as dt
    from pyflink_compat.runtime.keyed.operators import KeyedCoProcessOperator, ListCollector

    from pyflink_compat.table.sql.joins import IntervalJoin

    def at(second):
        return dt.datetime(1970, 1, 1, 0, 0, second)

    out = ListCollector()
    # left time - right time in [-10 s, 0]: a right row within 10 s after its left row; a full outer join
    def within(row):
        return -10 <= (row[1] - row[3]).total_seconds() <= 0

    join = KeyedCoProcessOperator(IntervalJoin(within, 2, 2, True, True, 1, 1, -10_000, 0), output=out)
    join.open()
    join.process_elements([(1, "a", (("a",), ("a", at(0))), 0), (2, "a", (("a",), ("a1", at(5))), 5000),
                           (2, "b", (("b",), ("b1", at(6))), 6000), (1, "c", (("c",), ("c", at(7))), 7000)])
    join.advance_watermark(10_000)      # b1 can no longer join a left row (none after 6 s can come)
    join.process_elements([(2, "a", (("a",), ("a2", at(11))), 11000)])    # a's interval has passed: no join
    join.advance_watermark(60_000)
    rows = [tuple(record) for record, _ in out.records]
    assert rows == [("a", at(0), "a1", at(5)), (None, None, "b1", at(6)), (None, None, "a2", at(11)),
                    ("c", at(7), None, None)]
    # a joined row carries its left rowtime, whichever side came last
    assert out.records[0][1] == 0


def test_alias_star_selects_that_sides_columns_and_aggregates_without_group_by_are_one_group():
    tables = {t.name: t for t in [
        _table("CREATE TABLE orders (id INT, amount DOUBLE) WITH ('connector' = 'kafka')"),
        _table("CREATE TABLE payments (id INT, order_id INT, paid DOUBLE) WITH ('connector' = 'kafka')")]}
    columns = planner.query_columns(dialect.parse(
        "SELECT p.*, o.amount FROM orders o JOIN payments p ON o.id = p.order_id")[0], tables)
    assert [c.name for c in columns] == ["id", "order_id", "paid", "amount"]
    both = planner.query_columns(dialect.parse(
        "SELECT o.*, p.* FROM orders o JOIN payments p ON o.id = p.order_id")[0], tables)
    assert [c.name for c in both] == ["id", "amount", "id0", "order_id", "paid"]     # Flink's names
    assert [c.name for c in planner.query_columns(dialect.parse("SELECT orders.* FROM orders")[0], tables)] == [
        "id", "amount"]
    # SELECT COUNT(*), SUM(x) FROM t: a GROUP BY of no keys (an OVER aggregate is not one)
    grouped = planner.global_aggregation(dialect.parse("SELECT COUNT(*) AS n, SUM(amount) FROM orders")[0])
    assert grouped.args["group"].expressions == []
    assert [(c.name, c.type.text()) for c in planner.query_columns(grouped, tables)] == [
        ("n", "BIGINT NOT NULL"), ("EXPR$1", "DOUBLE")]
    plain = dialect.parse("SELECT id, amount * 2 FROM orders")[0]
    assert planner.global_aggregation(plain) is plain


def _values(sql):
    from sqlglot import exp
    from pyflink_compat.table.sql.values_clause import values_table
    node = dialect.parse(sql)[0].find(exp.Values)
    alias = node.args.get("alias")
    return values_table(node, [c.name for c in alias.columns] if alias is not None and alias.columns else None)


def test_values_rows_are_typed_per_column_by_their_common_type_as_flinks():
    table = _values("SELECT * FROM (VALUES (1, 'a', 1.5, TRUE), (2, 'bcd', 20.25, CAST(NULL AS BOOLEAN))) "
                    "AS v(id, name, amount, flag)")
    assert [(c.name, c.type.text()) for c in table.columns] == [
        ("id", "INT NOT NULL"), ("name", "VARCHAR(3) NOT NULL"), ("amount", "DECIMAL(4, 2) NOT NULL"),
        ("flag", "BOOLEAN")]
    import decimal
    assert table.query.rows == ((1, "a", decimal.Decimal("1.50"), True), (2, "bcd", decimal.Decimal("20.25"), None))
    unnamed = _values("SELECT * FROM (VALUES ('x', 1), ('y', 2.5E0))")
    assert [(c.name, c.type.text()) for c in unnamed.columns] == [("EXPR$0", "CHAR(1) NOT NULL"),
                                                                   ("EXPR$1", "DOUBLE NOT NULL")]
    assert unnamed.query.rows == (("x", 1.0), ("y", 2.5))


def test_values_with_a_bare_null_or_rows_of_other_types_are_refused_as_flinks():
    with pytest.raises(JavaStyleError, match="Illegal use of 'NULL'"):
        _values("SELECT * FROM (VALUES (1), (NULL)) AS v(a)")
    with pytest.raises(JavaStyleError, match="compatible types"):
        _values("SELECT * FROM (VALUES (1), ('a')) AS v(a)")
    with pytest.raises(JavaStyleError, match="same degree"):
        _values("SELECT * FROM (VALUES (1, 2)) AS v(a)")


def test_a_statement_set_writing_one_query_to_two_sinks_plans_its_window_and_calc_once():
    """Flink's planner reuses the common sub-plan: one window operator feeds both sinks (so a processing-time
    window's rows agree between them), one Calc calls its functions once per row."""
    from pyflink_compat.common.configuration import Configuration
    from pyflink_compat.datastream.stream_execution_environment import StreamExecutionEnvironment
    from pyflink_compat.plan import graph
    source = ("CREATE TABLE src (k STRING, v INT, pt AS PROCTIME()) WITH ('connector' = 'kafka', "
              "'properties.bootstrap.servers' = 'x:1', 'topic' = 't', 'format' = 'json', "
              "'scan.startup.mode' = 'earliest-offset')")
    tables = {t.name: t for t in [
        _table(source),
        _table("CREATE TABLE p (k STRING, total INT) WITH ('connector' = 'print')"),
        _table("CREATE TABLE q (k STRING, total INT) WITH ('connector' = 'kafka', 'topic' = 'o', "
               "'properties.bootstrap.servers' = 'x:1', 'format' = 'json')")]}
    env = StreamExecutionEnvironment.get_execution_environment(Configuration())
    builder = planner.JobBuilder(env, tables)
    windowed = "SELECT k, SUM(v) FROM src GROUP BY TUMBLE(pt, INTERVAL '30' SECOND), k"
    for sink in ("p", "q", "p", "q"):
        builder.add_insert(dialect.parse("INSERT INTO %s %s" % (sink, windowed))[0])
    for sink in ("p", "q"):
        builder.add_insert(dialect.parse("INSERT INTO %s SELECT UPPER(k), v FROM src" % sink)[0])

    def upstream(node):
        while node is not None:
            yield node
            node = node.input
    nodes = {node.id: node for sink in env._sinks for node in upstream(sink)}
    assert len(env._sinks) == 6
    assert sum(node.kind == graph.WINDOW for node in nodes.values()) == 1
    projection_calcs = {next(node.id for node in upstream(sink) if node.name == "Calc") for sink in env._sinks[4:]}
    assert len(projection_calcs) == 1


def test_print_sinks_of_values_run_as_one_subtask_also_when_two_share_the_query():
    """Flink SQL chains a print sink to a VALUES source of one subtask: its lines have no subtask number."""
    from pyflink_compat.common.configuration import Configuration
    from pyflink_compat.datastream.stream_execution_environment import StreamExecutionEnvironment
    tables = {t.name: t for t in [_table("CREATE TABLE a (id INT, label STRING) WITH ('connector' = 'print')"),
                                  _table("CREATE TABLE b (id INT, label STRING) WITH ('connector' = 'print')")]}
    env = StreamExecutionEnvironment.get_execution_environment(Configuration())
    builder = planner.JobBuilder(env, tables)
    import attrs
    from sqlglot import exp
    from pyflink_compat.table.sql import values_clause
    tables["v"] = attrs.evolve(values_clause.values_table(
        dialect.parse("SELECT * FROM (VALUES (1, 'x'), (2, 'y'))")[0].find(exp.Values), ["id", "label"]), name="v")
    for sink in ("a", "b"):
        builder.add_insert(dialect.parse("INSERT INTO %s SELECT id, UPPER(label) FROM v" % sink)[0])
    assert [sink.parallelism for sink in env._sinks] == [1, 1]


def test_with_queries_are_expanded_into_subqueries_as_flinks_planner_expands_them():
    tables = {t.name: t for t in [
        _table("CREATE TABLE orders (id INT, amount DOUBLE) WITH ('connector' = 'kafka')"),
        _table("CREATE TABLE payments (id INT, order_id INT, paid DOUBLE) WITH ('connector' = 'kafka')")]}
    select = dialect.parse("WITH big AS (SELECT id, amount FROM orders WHERE amount > 5), "
                           "paid AS (SELECT order_id, paid FROM payments), "
                           "both_ AS (SELECT b.id, p.paid FROM big b JOIN paid p ON b.id = p.order_id) "
                           "SELECT id, paid FROM both_")[0]
    assert not select.find(exp.CTE) and select.args.get("with_") is None
    assert [c.name for c in planner.query_columns(select, tables)] == ["id", "paid"]
    insert = dialect.parse("INSERT INTO out WITH a AS (SELECT id FROM orders) SELECT id FROM a UNION ALL "
                           "SELECT id FROM a")[0]
    assert insert.this.name == "out" and not insert.find(exp.CTE)
    with pytest.raises(UnsupportedFeatureError, match="^A window table function over a WITH query"):
        dialect.parse("WITH w AS (SELECT * FROM orders) SELECT window_start, COUNT(*) FROM "
                      "TABLE(TUMBLE(TABLE w, DESCRIPTOR(ts), INTERVAL '1' SECOND)) GROUP BY window_start, window_end")


def test_expressions_over_aggregates_and_having_follow_flinks_calc_after_the_aggregation():
    from pyflink_compat.table.sql.aggregates import GroupAggregate, GroupOutput

    # SELECT k, SUM(v) * 2 ... HAVING SUM(v) > 4: the row is (start, end, rowtime, k, SUM(v))
    output = GroupOutput([("key", 0), ("expression", 0)], [catalog.SqlType("STRING"), catalog.SqlType("INT")],
                         [lambda row: row[4] * 2], lambda row: row[4] > 4)
    operator = GroupAggregate(["SUM"], output)
    operator.state = _ValueState()
    changes = [list(operator.process_element((("k",), (value,)), None)) for value in (5, -3, 30, 0)]
    # each change is filtered on its own: the update to 2 drops its +U, the next one its -U; an unchanged SUM
    # sends nothing
    assert changes == [[("+I", ["k", 10])], [("-U", ["k", 10])], [("+U", ["k", 64])], []]


def test_date_functions_format_and_parse_java_patterns():
    import datetime
    from pyflink_compat.table.sql.values import java_pattern_formatter
    moment = datetime.datetime(2024, 1, 2, 13, 4, 5, 678000)
    assert java_pattern_formatter("yyyy-MM-dd HH:mm:ss.SSS")(moment) == "2024-01-02 13:04:05.678"
    assert java_pattern_formatter("EEE dd MMM yy hh a 'T' D")(moment) == "Tue 02 Jan 24 01 PM T 2"
    with pytest.raises(ValueError, match="'Q'"):
        java_pattern_formatter("yyyy Q")


def test_a_with_clause_or_a_subquery_with_a_column_list_renames_the_query_columns():
    (statement,) = dialect.parse("WITH paid (oid, total) AS (SELECT id, SUM(x) FROM t GROUP BY id) "
                                 "SELECT oid, total * 2 FROM paid")
    subquery = statement.args["from_"].this
    assert subquery.alias_or_name == "paid" and not subquery.args["alias"].columns
    assert [item.alias for item in subquery.this.expressions] == ["oid", "total"]
    (statement,) = dialect.parse("SELECT a FROM (SELECT id FROM t) AS s (a)")
    assert [item.alias for item in statement.args["from_"].this.this.expressions] == ["a"]
    for wrong, message in (("WITH p (a) AS (SELECT id, x FROM t) SELECT a FROM p",
                            "Number of columns must match number of query columns"),
                           ("SELECT a FROM (SELECT id, x FROM t) AS s (a)",
                            "List of column aliases must have same degree as table; table has 2 columns ('id', 'x'), "
                            "whereas alias list has 1 columns")):
        with pytest.raises(JavaStyleError, match=re.escape(message)):
            dialect.parse(wrong)


def test_a_join_on_fields_of_row_columns_and_a_field_named_without_its_row():
    tables = {t.name: t for t in [
        _table("CREATE TABLE a (payload ROW<id INT, x STRING>) WITH ('connector' = 'kafka')"),
        _table("CREATE TABLE b (payload ROW<pid INT, name STRING>, id INT) WITH ('connector' = 'kafka')")]}
    for on in ("a.payload.id = b.payload.pid", "a.id = b.payload.pid", "b.pid = a.payload.id"):
        select = dialect.parse("SELECT b.payload.pid, a.x FROM b JOIN a ON %s" % on)[0]
        joined = planner.relation_of(select, tables)
        assert len(joined.query.left_keys) == 1 and joined.query.condition is None, on
    # a name a column of the other side has still reads this side's ROW field when qualified
    joined = planner.relation_of(dialect.parse("SELECT a.x FROM a JOIN b ON a.id = b.id")[0], tables)
    (left_key,), (right_key,) = joined.query.left_keys, joined.query.right_keys
    assert (left_key(((7, "x"),)), right_key(((8, "n"), 9))) == (7, 9)


def test_on_conflict_takes_flinks_three_strategies_and_nothing_else():
    import pytest
    from pyflink_compat.table.sql import dialect
    from pyflink_compat.util.exceptions import JavaStyleError
    for strategy in ("DEDUPLICATE", "NOTHING", "ERROR"):
        insert = dialect.parse("INSERT INTO t SELECT a FROM s ON CONFLICT DO %s" % strategy)[0]
        assert insert.args["conflict"].args["action"].name == "DO " + strategy
    for wrong in ("ON CONFLICT DO UPDATE SET a = 1", "ON CONFLICT (a) DO NOTHING", "ON DUPLICATE KEY UPDATE a = 1"):
        with pytest.raises(JavaStyleError, match="SqlParserException"):
            dialect.parse("INSERT INTO t SELECT a FROM s " + wrong)


def test_the_sink_upsert_materializer_writes_each_primary_keys_live_row_whatever_order_its_upsert_keys_come_in():
    from pyflink_compat.runtime.keyed.operators import KeyedProcessOperator, ListCollector
    from pyflink_compat.table.sql.changelog import SinkUpsertMaterializer
    out = ListCollector()
    materializer = KeyedProcessOperator(SinkUpsertMaterializer(upsert_key=(0, 1)), output=out)
    materializer.open()
    # rows (product, name, quantity) keyed by product; upsert key (product, name)
    changes = [("+I", (1, "one", 2)),            # the key's only row
               ("+I", (1, None, 5)),             # a second upsert key: written, it is the latest
               ("-U", (1, "one", 2)), ("+U", (1, "one", 7)),   # an older row updated: removed, then added last
               ("-D", (1, None, 5)),             # not the last row: nothing written
               ("-D", (1, "one", 7)),            # the last row, none left: the key deleted
               ("-D", (1, "two", 1)),            # never written: nothing
               ("+I", (2, "x", 1)), ("+I", (2, "y", 2)), ("-D", (2, "y", 2))]   # the row before comes back
    for change in changes:
        materializer.process_element((change[1][0],), ((change[1][0],), change), 0)
    assert [record for record, _ in out.records] == [
        ("+I", (1, "one", 2)), ("+U", (1, None, 5)), ("+U", (1, "one", 7)), ("-D", (1, "one", 7)),
        ("+I", (2, "x", 1)), ("+U", (2, "y", 2)), ("+U", (2, "x", 1))]


@pytest.mark.parametrize("sql, expected", [
    # the values and types real PyFlink 2.3 gives: a CHAR(n) is padded with spaces to n, a longer text cut
    ("CAST('b' AS CHAR(5))", ("b    ", "CHAR(5) NOT NULL")), ("CAST('b' AS CHAR(5)) || '|'", ("b    |", "CHAR(6) NOT NULL")),
    ("CHAR_LENGTH(CAST('b' AS CHAR(5)))", (5, "INT NOT NULL")), ("CAST('abcdef' AS CHAR(3))", ("abc", "CHAR(3) NOT NULL")),
    ("CAST('abcdef' AS VARCHAR(3))", ("abc", "VARCHAR(3) NOT NULL")), ("CAST('ab' AS VARCHAR(5)) || '|'", ("ab|", "VARCHAR(6) NOT NULL")),
    ("CAST(12 AS CHAR(5))", ("12   ", "CHAR(5) NOT NULL")), ("CAST(TRUE AS CHAR(6))", ("TRUE  ", "CHAR(6) NOT NULL")),
    ("CAST(TRUE AS STRING)", ("TRUE", "STRING NOT NULL")), ("CAST(FALSE AS VARCHAR(3))", ("FAL", "VARCHAR(3) NOT NULL")),
    ("CAST(NULL AS CHAR(3))", (None, "CHAR(3)")), ("CAST(1.5 AS CHAR(2))", ("1.", "CHAR(2) NOT NULL")),
    ("CAST(12345 AS CHAR(3))", ("123", "CHAR(3) NOT NULL")), ("CAST(DATE '2020-01-02' AS CHAR(12))", ("2020-01-02  ", "CHAR(12) NOT NULL")),
    ("CAST(TIMESTAMP '2020-01-02 03:04:05' AS CHAR(22))", ("2020-01-02 03:04:05   ", "CHAR(22) NOT NULL")),
    ("CONCAT(CAST('b' AS CHAR(3)), 'x')", ("b  x", "STRING NOT NULL")),
    ("CAST('b' AS CHAR(3)) || CAST('c' AS CHAR(2))", ("b  c ", "CHAR(5) NOT NULL")),
    ("UPPER(CAST('b' AS CHAR(3)))", ("B  ", "CHAR(3) NOT NULL")),
    ("CAST(CAST('b' AS CHAR(5)) AS STRING)", ("b    ", "STRING NOT NULL")),
    ("CAST(CAST('b' AS CHAR(5)) AS CHAR(2))", ("b ", "CHAR(2) NOT NULL")), ("TRY_CAST('b' AS CHAR(4))", ("b   ", "CHAR(4)")),
    # compared as the padded texts they are
    ("CAST('a' AS CHAR(3)) = 'a'", (False, "BOOLEAN")), ("CAST('a' AS CHAR(3)) = 'a  '", (True, "BOOLEAN")),
    ("CAST('a' AS CHAR(3)) = CAST('a' AS VARCHAR(3))", (False, "BOOLEAN")), ("CAST('a' AS CHAR(3)) LIKE 'a'", (False, "BOOLEAN")),
    ("CASE WHEN TRUE THEN CAST('a' AS CHAR(3)) ELSE 'bcd' END", ("a  ", "CHAR(3) NOT NULL")),
])
def test_casts_to_char_pad_and_cut_as_flinks(sql, expected):
    assert _typed(sql) == expected


def test_a_char_column_is_padded_by_its_cast_and_a_sink_fits_char_and_varchar_columns_as_flinks():
    column = catalog.SqlType("STRING")
    assert _typed("CAST(s AS CHAR(4)) || '|'", s=(column, "ab")) == ("ab  |", "CHAR(5)")
    assert _typed("CAST(s AS CHAR(4))", s=(column, "abcdef")) == ("abcd", "CHAR(4)")
    # INSERT INTO a print table (c CHAR(5), v VARCHAR(5), s STRING): Flink's sink pads and cuts
    sink = _table("CREATE TABLE p (c CHAR(5), v VARCHAR(5), s STRING, n INT) WITH ('connector' = 'print')")
    from pyflink_compat.common.types import Row
    fit = planner._length_enforcer(sink, changelog=False)
    assert tuple(fit(Row("x", "abcdefgh", "abcdefgh", 1))) == ("x    ", "abcde", "abcdefgh", 1)
    assert tuple(fit(Row("abcdefg", "ab ", None, 2))) == ("abcde", "ab ", None, 2)
    assert tuple(fit(Row(None, None, "z", 3))) == (None, None, "z", 3)
    changes = planner._length_enforcer(sink, changelog=True)
    assert changes(("+I", ("ab", "b", "c", 4))) == ("+I", ("ab   ", "b", "c", 4))
    assert planner._length_enforcer(_table("CREATE TABLE q (s STRING) WITH ('connector' = 'print')"), False) is None


@pytest.mark.parametrize("sql, expected", [
    # the types PyFlink 2.3 prints: the rows' common type, a row typed by a CAST of NULL included
    ("SELECT * FROM (VALUES ('x'), (CAST(NULL AS STRING))) AS v(a)", "STRING"),
    ("SELECT * FROM (VALUES ('ab'), ('abc')) AS v(a)", "VARCHAR(3) NOT NULL"),
    ("SELECT * FROM (VALUES ('ab'), ('abc'), (CAST(NULL AS STRING))) AS v(a)", "STRING"),
    ("SELECT * FROM (VALUES ('ab'), ('ab')) AS v(a)", "CHAR(2) NOT NULL"),
    ("SELECT * FROM (VALUES ('ab'), (CAST(NULL AS CHAR(2)))) AS v(a)", "CHAR(2)"),
    ("SELECT * FROM (VALUES ('ab'), (CAST(NULL AS CHAR(4)))) AS v(a)", "VARCHAR(4)"),
    ("SELECT * FROM (VALUES ('ab'), (CAST(NULL AS VARCHAR(5)))) AS v(a)", "VARCHAR(5)"),
    ("SELECT * FROM (VALUES ('ab'), (CAST('x' AS VARCHAR(1)))) AS v(a)", "VARCHAR(2) NOT NULL"),
    ("VALUES ('x'), (CAST(NULL AS STRING))", "STRING"),
])
def test_values_strings_are_typed_by_the_common_type_of_the_rows_as_flinks(sql, expected):
    assert _values(sql).columns[0].type.text() == expected


def test_values_rows_keep_their_strings_as_they_are():
    assert _values("SELECT * FROM (VALUES ('ab'), (CAST('x' AS CHAR(3)))) AS v(a)").query.rows == (("ab",), ("x  ",))


@pytest.mark.parametrize("sql, message", [
    # calls of functions sqlglot knows with an argument count it does not take: PyFlink 2.3's validator errors
    ("ELT(1)", "No match found for function signature ELT(<NUMERIC>)."),
    ("ELT()", "No match found for function signature ELT()."),
    ("ELT('a')", "No match found for function signature ELT(<CHARACTER>)."),
    ("ELT(TRUE)", "No match found for function signature ELT(<BOOLEAN>)."),
    ("ELT(DATE '2020-01-01')", "No match found for function signature ELT(<DATE>)."),
    ("ELT(NULL)", "Illegal use of 'NULL'"),
    ("REGEXP_COUNT('abc')", "No match found for function signature REGEXP_COUNT(<CHARACTER>)."),
    ("REGEXP_COUNT(1.5)", "No match found for function signature REGEXP_COUNT(<NUMERIC>)."),
    ("REGEXP_INSTR('a')", "No match found for function signature REGEXP_INSTR(<CHARACTER>)."),
    ("REGEXP_SUBSTR('a')", "No match found for function signature REGEXP_SUBSTR(<CHARACTER>)."),
    ("REGEXP_EXTRACT_ALL()", "No match found for function signature REGEXP_EXTRACT_ALL()."),
    ("STARTSWITH('a')", "No match found for function signature STARTSWITH(<CHARACTER>)."),
    ("TRANSLATE('a', 'b')", "No match found for function signature TRANSLATE3(<CHARACTER>, <CHARACTER>)."),
    ("LPAD('a')", "Invalid number of arguments to function 'LPAD'. Was expecting 3 arguments"),
    ("REPEAT('a')", "Invalid number of arguments to function 'REPEAT'. Was expecting 2 arguments"),
    ("LEFT('a')", "Invalid number of arguments to function 'LEFT'. Was expecting 2 arguments"),
    ("LOCATE('a')", "Invalid number of arguments to function 'LOCATE'. Was expecting 2 arguments"),
    ("REGEXP_EXTRACT()", "Invalid number of arguments to function 'REGEXP_EXTRACT'. Was expecting 2 arguments"),
    ("POWER(2)", "Invalid number of arguments to function 'POWER'. Was expecting 2 arguments"),
    ("NULLIF(1)", "Invalid number of arguments to function 'NULLIF'. Was expecting 2 arguments"),
    ("UPPER()", "Invalid number of arguments to function 'UPPER'. Was expecting 1 arguments"),
    ("REVERSE('a', 'b')", "Invalid number of arguments to function 'REVERSE'. Was expecting 1 arguments"),
    ("ROUND()", "Invalid number of arguments to function 'ROUND'. Was expecting 1 arguments"),
    ("REPLACE('a', 'b')", "Invalid number of arguments to function 'REPLACE'. Was expecting 3 arguments"),
    ("LOWER()", "Invalid number of arguments to function 'LOWER'. Was expecting 1 arguments"),
    ("ABS(1, 2)", "Invalid number of arguments to function 'ABS'. Was expecting 1 arguments"),
    ("CHAR_LENGTH('a', 'b')", "Invalid number of arguments to function 'CHAR_LENGTH'. Was expecting 1 arguments"),
    ("MOD(1)", "Invalid number of arguments to function 'MOD'. Was expecting 2 arguments"),
])
def test_calls_with_an_argument_count_the_function_does_not_take_fail_in_validation_as_flinks(sql, message):
    with pytest.raises(JavaStyleError, match="ValidationException") as error:
        _typed(sql)
    assert message in str(error.value)


@pytest.mark.parametrize("sql", ["SUBSTRING('a')", "SUBSTRING('abc', 1, 2, 3)", "TRIM('a', 'b')",
                                 "TRIM(BOTH 'a', 'b')"])
def test_substring_with_other_than_two_or_three_arguments_is_a_parse_error_as_on_flink(sql):
    with pytest.raises(JavaStyleError, match="SqlParserException: SQL parse failed. Encountered "):
        _typed(sql)


def test_a_parse_error_names_its_position_in_flinks_words():
    with pytest.raises(JavaStyleError, match='Encountered "," at line 1, column 16[.]'):
        dialect.parse("SELECT TRIM('a','b')")


@pytest.mark.parametrize("sql, expected", [("TRIM(BOTH 'a' FROM 'aba')", "b"), ("TRIM(LEADING FROM ' y')", "y"),
                                           ("TRIM(' x ')", "x"), ("TRIM('a' FROM 'aba')", "b")])
def test_trim_forms_of_flinks_grammar(sql, expected):
    assert _evaluate(sql)[0] == expected


@pytest.mark.parametrize("sql, expected", [
    ("COUNT(*) FILTER (WHERE a > 1)", "COUNT(CASE WHEN a > 1 THEN 1 END)"),
    ("SUM(b) FILTER (WHERE a > 1)", "SUM(CASE WHEN a > 1 THEN b END)"),
    ("COUNT(DISTINCT b) FILTER (WHERE a > 1)", "COUNT(DISTINCT CASE WHEN a > 1 THEN b END)"),
    ("MAX(b) FILTER (WHERE a IS NULL)", "MAX(CASE WHEN a IS NULL THEN b END)")])
def test_an_aggregates_filter_clause_is_a_case_of_its_argument(sql, expected):
    select = dialect.parse("SELECT %s FROM t GROUP BY c" % sql)[0]
    assert select.expressions[0].sql(dialect=dialect.Flink) == expected


def test_a_filter_clause_on_an_aggregate_taking_nulls_in_stays_a_filter_and_another_is_refused():
    select = dialect.parse("SELECT ARRAY_AGG(b) FILTER (WHERE a > 1) FROM t GROUP BY c")[0]
    assert select.expressions[0].sql(dialect=dialect.Flink) == "ARRAY_AGG(b) FILTER(WHERE a > 1)"
    for aggregate in ("JSON_OBJECTAGG(KEY b VALUE a)", "JSON_ARRAYAGG(a)"):      # not in Flink's grammar
        with pytest.raises(JavaStyleError, match="SQL parse failed. Incorrect syntax near the keyword 'FILTER'"):
            dialect.parse("SELECT %s FILTER (WHERE a > 1) FROM t GROUP BY c" % aggregate)
    with pytest.raises(UnsupportedFeatureError, match="A FILTER clause on PERCENTILE"):
        dialect.parse("SELECT PERCENTILE(a, 0.5) FILTER (WHERE a > 1) FROM t GROUP BY c")


def _sorted_in_time(function, events, clock=None):
    """Run a sort's process function over events: ("row", values, timestamp), ("watermark", ms), ("tick", ms)."""
    from pyflink_compat.common.types import Row
    from pyflink_compat.runtime.keyed.operators import KeyedProcessOperator, ListCollector
    out = ListCollector()
    operator = KeyedProcessOperator(function, output=out, clock=clock)
    operator.open()
    for event in events:
        if event[0] == "row":
            operator.process_element((), Row(*event[1]), event[2])
        elif event[0] == "watermark":
            operator.advance_watermark(event[1])
        else:
            operator.advance_processing_time(event[1])
    operator.end_input()
    return [tuple(record) for record, _ in out.records]


def test_a_sort_in_event_time_emits_rows_as_the_watermark_passes_them_by_the_further_keys_and_drops_late_ones():
    from pyflink_compat.table.sql.ranking import RowTimeSort
    by_name_descending = [(lambda values: values[0], True, False)]
    events = [("row", ("b", 20), 20), ("row", ("a", 10), 10), ("row", ("c", 10), 10), ("watermark", 15),
              ("row", ("late", 10), 10), ("row", ("d", 20), 20), ("row", ("e", 30), 30)]
    # the rows of one time by name descending; a row not after the last time emitted (10) is dropped
    assert _sorted_in_time(RowTimeSort(by_name_descending), events) == [
        ("c", 10), ("a", 10), ("d", 20), ("b", 20), ("e", 30)]
    # without further keys: the rows of one time in the order they came
    assert _sorted_in_time(RowTimeSort([]), events) == [("a", 10), ("c", 10), ("b", 20), ("d", 20), ("e", 30)]


def test_a_sort_in_processing_time_emits_what_came_since_the_last_tick_and_everything_at_the_end_of_the_input():
    from pyflink_compat.table.sql.ranking import ProcessingTimeSort
    by_name = [(lambda values: values[0], False, True)]
    events = [("row", ("b",), None), ("row", ("a",), None), ("tick", 1001), ("row", ("d",), None),
              ("row", ("c",), None)]
    assert _sorted_in_time(ProcessingTimeSort(by_name), events, clock=lambda: 1000) == [
        ("a",), ("b",), ("c",), ("d",)]
    assert _sorted_in_time(ProcessingTimeSort([]), events, clock=lambda: 1000) == [("b",), ("a",), ("d",), ("c",)]


def test_order_by_a_time_attribute_sorts_a_tables_rows_and_other_orders_fail_as_in_flink():
    tables = {"clicks": _table("CREATE TABLE clicks (usr STRING, ts TIMESTAMP(3), pt AS PROCTIME(), "
                               "WATERMARK FOR ts AS ts) WITH ('connector' = 'kafka')")}
    sorted_rows = planner.relation_of(dialect.parse("SELECT usr AS u, ts AS t FROM clicks ORDER BY t, u DESC")[0],
                                      tables)
    assert isinstance(sorted_rows.query, planner.SortedRelation) and sorted_rows.query.time_order == "rowtime"
    assert [c.name for c in sorted_rows.columns] == ["usr", "ts", "pt"]
    assert sorted_rows.query.order[0][0](("x", None, None)) == "x" and sorted_rows.query.order[0][1] is True
    assert planner.relation_of(dialect.parse("SELECT usr FROM clicks ORDER BY pt")[0],
                               tables).query.time_order == "proctime"
    for query in ("SELECT usr FROM clicks ORDER BY ts DESC", "SELECT usr FROM clicks ORDER BY usr, ts",
                  "SELECT COUNT(*) FROM clicks ORDER BY 1"):
        with pytest.raises(TableException, match="TableException: Sort on a non-time-attribute field is not supported.$"):
            planner.relation_of(dialect.parse(query)[0], tables)
    with pytest.raises(UnsupportedFeatureError, match="ORDER BY a time attribute of an aggregation"):
        planner.relation_of(dialect.parse("SELECT usr, COUNT(*) FROM clicks GROUP BY usr, ts ORDER BY ts")[0], tables)


def test_a_batch_sort_applies_the_final_changes_then_emits_the_ranks_asked_for_without_its_own_columns():
    from pyflink_compat.runtime.keyed.operators import KeyedProcessOperator, ListCollector
    from pyflink_compat.table.sql.ranking import SortAtEndOfInput
    out = ListCollector()
    by_count_then_name = [(lambda values: values[2], True, False), (lambda values: values[0], False, True)]
    operator = KeyedProcessOperator(SortAtEndOfInput(by_count_then_name, first=2, last=3, width=2), output=out)
    operator.open()
    for change in [("+I", ("a", 1, 1)), ("+I", ("b", 5, 5)), ("-U", ("a", 1, 1)), ("+U", ("a", 3, 3)),
                   ("+I", ("c", 3, 3)), ("+I", ("d", 2, 2)), ("-D", ("d", 2, 2)), ("+I", ("e", 0, 0))]:
        operator.process_element((), change, None)
    assert out.records == []                     # nothing before the end of the input
    operator.end_input()
    assert [record for record, _ in out.records] == [("+I", ("a", 3)), ("+I", ("c", 3))]


def test_a_batch_limit_the_parser_made_a_top_n_is_taken_back_to_a_sort_and_its_ranks():
    select = dialect.parse("SELECT a FROM t WHERE c > 1 ORDER BY b DESC LIMIT 3 OFFSET 2")[0]
    original, order, first, last = planner._batch_sort_of(select)
    assert original.sql() == "SELECT a FROM t WHERE c > 1"
    assert (order.sql(), first, last) == ("ORDER BY b DESC", 3, 5)
    grouped = dialect.parse("SELECT k, COUNT(*) AS n FROM t GROUP BY k ORDER BY n DESC LIMIT 2")[0]
    _, order, first, last = planner._batch_sort_of(grouped)
    assert (order.sql(), first, last) == ("ORDER BY n DESC", 1, 2)
    _, order, first, last = planner._batch_sort_of(dialect.parse("SELECT a FROM t LIMIT 4")[0])
    assert (order, first, last) == (None, 1, 4)
    plain = dialect.parse("SELECT a FROM t")[0]
    assert planner._batch_sort_of(plain) == (plain, None, 1, None)


def test_a_batch_job_windows_a_tables_one_timestamp_column_with_a_watermark_no_row_passes():
    tables = {"one": _table("CREATE TABLE one (id INT, ts TIMESTAMP(3)) WITH ('connector' = 'kafka')"),
              "two": _table("CREATE TABLE two (a TIMESTAMP(3), b TIMESTAMP_LTZ(3)) WITH ('connector' = 'kafka')"),
              "marked": _table("CREATE TABLE marked (ts TIMESTAMP(3), WATERMARK FOR ts AS ts) "
                               "WITH ('connector' = 'kafka')"),
              "none": _table("CREATE TABLE none (x INT) WITH ('connector' = 'kafka')")}
    timed = planner.batch_time_attributes(tables)
    assert timed["one"].watermark == ("ts", planner.BATCH_WATERMARK_DELAY_MS)
    assert tables["one"].watermark is None                     # the catalog's own table is left as it is
    assert timed["two"].watermark is None and timed["none"].watermark is None     # several, or no, such columns
    assert timed["marked"].watermark == ("ts", 0)


@pytest.mark.parametrize("function, numbers", [("ROW_NUMBER", [1, 2, 3, 1]), ("RANK", [1, 1, 3, 1]),
                                               ("DENSE_RANK", [1, 1, 2, 1])])
def test_a_batch_numbering_sorts_by_partition_then_order_and_numbers_ties_as_flink(function, numbers):
    from pyflink_compat.runtime.keyed.operators import KeyedProcessOperator, ListCollector
    from pyflink_compat.table.sql.ranking import NumberAtEndOfInput
    out = ListCollector()
    operator = KeyedProcessOperator(NumberAtEndOfInput(function, (True,), (False,), 1), output=out)
    operator.open()
    for partition, amount, name in [("b", 1, "x"), ("a", 7, "p"), ("a", 5, "q"), ("a", 7, "r")]:
        operator.process_element((), ((partition,), ((amount,), (name,))), None)
    operator.end_input()
    assert [record for record, _ in out.records] == [
        ("+I", (name, number)) for name, number in zip(["p", "r", "q", "x"], numbers)]

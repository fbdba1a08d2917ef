"""The variance family, LISTAGG, ARRAY_AGG and JSON_OBJECTAGG: their accumulators (Welford's algorithm, its inverse
and merge), the result types and casts, and the SQL that reaches them. Their results are compared with real
PyFlink's in the side-by-side case sql-keys-and-results and test_collection_aggregates.py; the values checked here
are PyFlink 2.3.0's."""
import decimal
import math

import pytest
from hypothesis import given, settings, strategies as st

from pyflink_compat.table.sql.builtin_aggregates import ArrayAgg, JsonObjectAgg, ListAgg, Variance
from pyflink_compat.util.exceptions import JavaStyleError


def _fold(aggregate, values):
    accumulator = aggregate.initial()
    for value in values:
        accumulator = aggregate.accumulate(accumulator, value)
    return accumulator


@pytest.mark.parametrize("function, kind, scale, values, expected", [
    ("VAR_POP", "DOUBLE", None, [0.3, 0.7, 1.1], 0.10666666666666667),        # not the sum-of-squares formula's ..69
    ("VAR_SAMP", "DOUBLE", None, [0.3, 0.7, 1.1], 0.16),
    ("STDDEV_POP", "DOUBLE", None, [1.5, 2.25, 7.125], 2.4937421679075005),
    ("VAR_POP", "BIGINT", None, [1, 7, 11], 16),                               # 16.89, truncated
    ("STDDEV_SAMP", "BIGINT", None, [5, 9, 100], 53),
    ("VAR_SAMP", "INT", None, [1, 2, None, 4], 2),
    ("STDDEV_POP", "DECIMAL", 2, [decimal.Decimal("1.25"), decimal.Decimal("2.50"), decimal.Decimal("3.75")],
     decimal.Decimal("1.020621")),
    ("VAR_POP", "DECIMAL", 2, [decimal.Decimal("0.33"), decimal.Decimal("0.67"), decimal.Decimal("1.01")],
     decimal.Decimal("0.077067")),
])
def test_results_are_pyflinks(function, kind, scale, values, expected):
    aggregate = Variance(function, kind, scale)
    assert aggregate.result(_fold(aggregate, values)) == expected


def test_no_value_gives_null_and_one_value_a_null_sample_variance():
    for function in ("VAR_POP", "VAR_SAMP", "STDDEV_POP", "STDDEV_SAMP"):
        aggregate = Variance(function, "DOUBLE")
        assert aggregate.result(_fold(aggregate, [None, None])) is None
        assert aggregate.result(_fold(aggregate, [4.0])) == (None if function.endswith("SAMP") else 0.0)


def test_result_types_follow_the_argument():
    assert Variance("VAR_POP", "INT").result_type().text() == "INT"
    assert Variance("STDDEV_SAMP", "DECIMAL", 2).result_type().text() == "DECIMAL(38, 6)"
    assert Variance("STDDEV_SAMP", "DECIMAL", 8).result_type().text() == "DECIMAL(38, 8)"


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(-1e6, 1e6, allow_nan=False), min_size=1, max_size=12),
       st.lists(st.floats(-1e6, 1e6, allow_nan=False), max_size=12))
def test_taking_values_back_and_merging_agree_with_adding(kept, removed):
    aggregate = Variance("VAR_POP", "DOUBLE")
    accumulator = _fold(aggregate, kept + removed)
    for value in reversed(removed):
        accumulator = aggregate.retract(accumulator, value)
    direct = _fold(aggregate, kept)
    assert accumulator[0] == direct[0]
    assert math.isclose(accumulator[1], direct[1], rel_tol=1e-6, abs_tol=1e-3)
    merged = aggregate.merge(_fold(aggregate, kept), _fold(aggregate, removed))
    both = _fold(aggregate, kept + removed)
    assert merged[0] == both[0]
    assert math.isclose(merged[2], both[2], rel_tol=1e-6, abs_tol=1e-3)


def test_json_arrayagg_writes_the_values_json_and_keeps_nulls_only_when_asked():
    from pyflink_compat.table.sql import json_functions
    from pyflink_compat.table.sql.builtin_aggregates import JsonArrayAgg
    from pyflink_compat.table.sql.catalog import SqlType
    absent = JsonArrayAgg(json_functions.writer(SqlType("STRING")))
    kept = JsonArrayAgg(json_functions.writer(SqlType("DOUBLE")), keep_nulls=True)
    assert absent.result(_fold(absent, ["a", None, 'q"'])) == '["a","q\\""]'
    assert absent.result(absent.initial()) == "[]"
    accumulator = _fold(kept, [1e20, None, 2.5])
    assert kept.result(accumulator) == "[1.0E+20,null,2.5]"
    assert kept.result(kept.retract(accumulator, None)) == "[1.0E+20,2.5]"


def test_listagg_joins_in_order_and_takes_back_as_flinks_list_does():
    plain, distinct = ListAgg(), ListAgg("|", distinct=True)
    assert plain.result(_fold(plain, ["w", None, "w", "v"])) == "w,w,v"
    assert distinct.result(_fold(distinct, ["w", None, "w", "v"])) == "w|v"
    assert plain.result(plain.initial()) is None
    accumulator = _fold(plain, ["a", "b", "a"])
    assert plain.result(plain.retract(accumulator, "a")) == "b,a"
    accumulator = _fold(distinct, ["a", "b", "a"])
    assert distinct.result(distinct.retract(accumulator, "a")) == "a|b"      # 'a' keeps the place it was seen at
    assert distinct.result(distinct.retract(distinct.retract(accumulator, "a"), "a")) == "b"


def test_array_agg_keeps_arrival_order_nulls_unless_ignored_and_takes_back_the_first_occurrence():
    plain, ignoring, distinct = ArrayAgg(), ArrayAgg(ignore_nulls=True), ArrayAgg(distinct=True)
    assert plain.result(plain.initial()) is None
    assert plain.result(_fold(plain, ["b", None, "a", "b"])) == ["b", None, "a", "b"]
    assert ignoring.result(_fold(ignoring, ["b", None, "a"])) == ["b", "a"]
    assert ignoring.result(ignoring.initial()) is None
    assert plain.result(plain.retract(_fold(plain, [1, 2, 1]), 1)) == [2, 1]
    assert plain.result(plain.retract(_fold(plain, [1]), 1)) is None
    accumulator = _fold(distinct, [3, None, 3, 4])
    assert distinct.result(accumulator) == [3, None, 4]
    assert distinct.result(distinct.retract(accumulator, 3)) == [3, None, 4]    # 3 keeps the place it was seen at
    assert distinct.result(distinct.retract(distinct.retract(accumulator, 3), 3)) == [None, 4]
    assert plain.result(plain.merge(_fold(plain, [1]), _fold(plain, [2]))) == [1, 2]


def test_a_filter_clause_passes_on_the_kept_rows_only():
    from pyflink_compat.table.sql.builtin_aggregates import Filtered
    filtered = Filtered(ArrayAgg())
    accumulator = _fold(filtered, [(True, None), (False, "x"), (True, "a")])
    assert filtered.result(accumulator) == [None, "a"]
    assert filtered.result(filtered.retract(accumulator, (False, "a"))) == [None, "a"]
    assert filtered.result(filtered.retract(accumulator, (True, "a"))) == [None]


def test_json_objectagg_sorts_keys_and_refuses_null_and_duplicate_keys_with_flinks_messages():
    from pyflink_compat.table.sql import json_functions
    from pyflink_compat.table.sql.catalog import SqlType
    nulls, absent = (JsonObjectAgg(json_functions.writer(SqlType("INT")), keep) for keep in (True, False))
    pairs = [("b", 2), ("a", None), ("c\"", 1)]
    assert nulls.result(_fold(nulls, pairs)) == '{"a":null,"b":2,"c\\"":1}'
    assert absent.result(_fold(absent, pairs)) == '{"b":2,"c\\"":1}'
    assert nulls.result(nulls.retract(_fold(nulls, pairs), ("b", 2))) == '{"a":null,"c\\"":1}'
    assert nulls.result(nulls.initial()) == "{}"
    with pytest.raises(JavaStyleError, match="Key 'b' is already present. Duplicate keys are not allowed in "
                                             "JSON_OBJECTAGG. Please ensure that keys are unique."):
        _fold(nulls, [("b", 1), ("b", 1)])
    with pytest.raises(JavaStyleError, match="Map views don't support null keys."):
        _fold(absent, [(None, None)])
    with pytest.raises(JavaStyleError, match="Key 'b' is already present"):
        nulls.merge(_fold(nulls, [("b", 1)]), _fold(nulls, [("b", 2)]))


def test_the_sql_reaches_them_and_misuse_fails_as_flinks_validator():
    from pyflink_compat.table import EnvironmentSettings, TableEnvironment
    from pyflink_compat.util.exceptions import JavaStyleError, UnsupportedFeatureError
    t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())
    t_env.execute_sql("CREATE TABLE s (k STRING, i INT, d DECIMAL(10, 2), f FLOAT) WITH ('connector' = 'datagen')")
    schema = t_env.sql_query("SELECT k, STDDEV(i), VARIANCE(d), VAR_POP(f), LISTAGG(k), LISTAGG(DISTINCT k, ';'), "
                             "STDDEV_SAMP(i) FILTER (WHERE i > 0) FROM s GROUP BY k").get_schema()
    assert [t.sql() for t in schema.get_field_data_types()] == [
        "STRING", "INT", "DECIMAL(38, 6)", "FLOAT", "STRING", "STRING", "INT"]
    with pytest.raises(JavaStyleError, match=r"Cannot apply 'LISTAGG' to arguments of type 'LISTAGG\(<INTEGER>\)'"):
        t_env.sql_query("SELECT k, LISTAGG(i) FROM s GROUP BY k").get_schema()
    with pytest.raises(JavaStyleError, match=r"Cannot apply 'STDDEV_POP' to arguments of type "
                                             r"'STDDEV_POP\(<VARCHAR\(2147483647\)>\)'"):
        t_env.sql_query("SELECT STDDEV_POP(k) FROM s GROUP BY i").get_schema()
    with pytest.raises(UnsupportedFeatureError, match="The aggregate function COLLECT"):
        t_env.sql_query("SELECT k, COLLECT(k) FROM s GROUP BY k").get_schema()
    schema = t_env.sql_query("SELECT k, ARRAY_AGG(i), ARRAY_AGG(DISTINCT k IGNORE NULLS), "
                             "JSON_OBJECTAGG(KEY k VALUE i), JSON_ARRAYAGG(i) FROM s GROUP BY k").get_schema()
    assert [t.sql() for t in schema.get_field_data_types()] == [
        "STRING", "ARRAY<INT>", "ARRAY<STRING>", "VARCHAR(2000) NOT NULL", "VARCHAR(2000) NOT NULL"]
    with pytest.raises(JavaStyleError, match=r"Cannot apply 'JSON_OBJECTAGG_ABSENT_ON_NULL' to arguments of type "
                                             r"'JSON_OBJECTAGG_ABSENT_ON_NULL\(<INTEGER>, <VARCHAR\(2147483647\)>\)'"):
        t_env.sql_query("SELECT JSON_OBJECTAGG(KEY i VALUE k ABSENT ON NULL) FROM s").get_schema()
    schema = t_env.sql_query("SELECT ARRAY_AGG(k) FILTER (WHERE i > 0) FROM s").get_schema()
    assert [t.sql() for t in schema.get_field_data_types()] == ["ARRAY<STRING>"]
    with pytest.raises(JavaStyleError, match="FILTER must be applied to aggregate function"):
        t_env.sql_query("SELECT ARRAY_AGG(k IGNORE NULLS) FILTER (WHERE i > 0) FROM s").get_schema()


def test_json_text_of_values_is_flinks():
    import datetime
    from pyflink_compat.table.sql import json_functions
    from pyflink_compat.table.sql.catalog import SqlType
    double = json_functions.writer(SqlType("DOUBLE"))
    assert [double(v) for v in (2.5, 1e20, 1e-5, -0.0, 100.0, 1e7)] == [
        "2.5", "1.0E+20", "0.000010", "0.0", "100.0", "1.0E+7"]
    stamp = json_functions.writer(SqlType("TIMESTAMP", precision=3))
    assert stamp(datetime.datetime(2024, 1, 2, 3, 4)) == '"2024-01-02T03:04:00"'
    assert stamp(datetime.datetime(2024, 1, 2, 3, 4, 5, 120000)) == '"2024-01-02T03:04:05.12"'
    row = json_functions.writer(SqlType("ROW", fields=(("b", SqlType("STRING")), ("a", SqlType("INT")))))
    assert row(("\u00e9\U0001F6A8\x1f\n", None)) == '{"a":null,"b":"\u00e9\U0001F6A8\\u001F\\n"}'
    with pytest.raises(json_functions.NotJsonType, match="Type 'DATE NOT NULL' is not scalar"):
        json_functions.writer(SqlType("DATE"))


def test_a_flink_error_raised_in_a_task_names_its_java_class_and_message_in_the_job_error():
    from pyflink_compat.runtime.job import _cause_of
    error = JavaStyleError("org.apache.flink.table.api.TableException", "Key 'a' is already present.", "execute")
    traceback = ("org.apache.spark.api.python.PythonException: Traceback (most recent call last):\n  File \"x.py\", "
                 "line 1, in f\npyflink_compat.util.exceptions.JavaStyleError: %s\n" % error)
    assert _cause_of(traceback) == "org.apache.flink.table.api.TableException: Key 'a' is already present."
    assert _cause_of("ValueError: bad\n") == "ValueError: bad"

"""Flink SQL's 'datagen' connector without a job: its options checked with Flink's messages (those of PyFlink 2.3
seen on the oracle), and the rows each subtask generates (Flink's shares of number-of-rows and sequences)."""
import datetime

import pytest
from hypothesis import given, strategies as st

from pyflink_compat.plan.graph import DataGenSpec, FieldGenerator
from pyflink_compat.runtime import datagen_source
from pyflink_compat.table.sql import catalog, datagen_table, dialect
from pyflink_compat.util.exceptions import JavaStyleError, UnsupportedFeatureError


def _spec(columns, options=""):
    table = catalog.table_of(dialect.parse("CREATE TABLE g (%s) WITH ('connector' = 'datagen'%s)"
                                           % (columns, options))[0])
    return datagen_table.spec_of(table)


def _cause(columns, options):
    with pytest.raises(JavaStyleError) as raised:
        _spec(columns, options)
    assert raised.value.message.startswith("Unable to create a source for reading table "
                                           "'default_catalog.default_database.g'.\n\nTable options are:\n\n")
    return str(raised.value).split("\nCaused by: ", 1)[1]


def test_each_type_gets_flinks_generator_and_defaults():
    spec = _spec("id INT, s VARCHAR(4), t STRING, b BOOLEAN, ts TIMESTAMP(3), d DOUBLE",
                 ", 'number-of-rows' = '7', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', "
                 "'fields.id.end' = '10', 'fields.t.var-len' = 'true', 'fields.ts.max-past' = '5 s', "
                 "'fields.d.min' = '0', 'fields.d.max' = '1', 'fields.b.null-rate' = '0.5'")
    assert spec.number_of_rows == 7 and spec.rows_per_second == 10000
    assert spec.fields == (
        FieldGenerator("sequence", "INT", start=1, end=10),
        FieldGenerator("random", "STRING", length=4),
        FieldGenerator("random", "STRING", length=100, variable_length=True),
        FieldGenerator("random", "BOOLEAN", null_rate=0.5),
        FieldGenerator("random", "TIMESTAMP", max_past_ms=5000),
        FieldGenerator("random", "DOUBLE", minimum=0.0, maximum=1.0))


@pytest.mark.parametrize("options, cause", [
    ("'fields.id.kind' = 'sequence'", "org.apache.flink.table.api.ValidationException: Could not find required "
                                      "property 'fields.id.start' for sequence generator."),
    ("'fields.id.kind' = 'sequence', 'fields.id.start' = '1'",
     "org.apache.flink.table.api.ValidationException: Could not find required property 'fields.id.end' for "
     "sequence generator."),
    ("'fields.id.kind' = 'foo'", "org.apache.flink.table.api.ValidationException: Unsupported generator kind: foo"),
    ("'fields.id.min' = 'x'", "java.lang.IllegalArgumentException: Could not parse value 'x' for key "
                              "'fields.id.min'.\nCaused by: java.lang.NumberFormatException: For input string: "
                              "\"x\""),
    ("'fields.s.kind' = 'sequence', 'fields.s.start' = 'a', 'fields.s.end' = '3'",
     "java.lang.IllegalArgumentException: Could not parse value 'a' for key 'fields.s.start'.\nCaused by: "
     "java.lang.NumberFormatException: For input string: \"a\""),
    ("'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '3', 'bogus' = '1'",
     "org.apache.flink.table.api.ValidationException: Unsupported options found for 'datagen'.\n\nUnsupported "
     "options:\n\nbogus\n\nSupported options:\n\nconnector\nfields.id.end\nfields.id.kind\nfields.id.start\n"
     "fields.s.kind\nfields.s.length\nfields.s.null-rate\nfields.s.var-len\nnumber-of-rows\nrows-per-second\n"
     "scan.parallelism"),
    # a sequence's options are not a random field's, and the other way round
    ("'fields.id.length' = '3', 'fields.s.min' = '1'",
     "org.apache.flink.table.api.ValidationException: Unsupported options found for 'datagen'.\n\nUnsupported "
     "options:\n\nfields.id.length\nfields.s.min\n\nSupported options:\n\nconnector\nfields.id.kind\n"
     "fields.id.max\nfields.id.min\nfields.id.null-rate\nfields.s.kind\nfields.s.length\nfields.s.null-rate\n"
     "fields.s.var-len\nnumber-of-rows\nrows-per-second\nscan.parallelism"),
])
def test_options_flink_refuses_fail_with_its_messages(options, cause):
    assert _cause("id INT, s STRING", ", " + options) == cause


def test_a_sequence_of_timestamps_is_an_unsupported_type_and_of_booleans_an_unknown_option():
    assert _cause("x TIMESTAMP(3)", ", 'fields.x.kind' = 'sequence', 'fields.x.start' = '1', 'fields.x.end' = '2'") \
        == "org.apache.flink.table.api.ValidationException: Unsupported type: TIMESTAMP(3)"
    assert _cause("x BOOLEAN", ", 'fields.x.kind' = 'sequence', 'fields.x.start' = '1', 'fields.x.end' = '2'") \
        .startswith("org.apache.flink.table.api.ValidationException: Unsupported options found for 'datagen'.\n\n"
                    "Unsupported options:\n\nfields.x.end\nfields.x.start\n")


def test_types_it_cannot_generate_are_refused_by_name():
    with pytest.raises(UnsupportedFeatureError, match="'datagen' connector"):
        datagen_table.spec_of(catalog.CatalogTable(
            "g", (catalog.Column("x", catalog.SqlType("ARRAY", element=catalog.SqlType("INT"))),),
            {"connector": "datagen"}))


def test_subtasks_interleave_a_sequence_and_share_number_of_rows_as_flink():
    # number-of-rows 7 at parallelism 2: subtask 0 emits 4 rows (1, 3, 5, 7), subtask 1 three (2, 4, 6)
    spec = DataGenSpec((FieldGenerator("sequence", "INT", start=1, end=10),
                        FieldGenerator("sequence", "STRING", start=100, end=200)), number_of_rows=7)
    assert datagen_source.generate(spec, 0, 2, 0, 100) == [(1, "100"), (3, "102"), (5, "104"), (7, "106")]
    assert datagen_source.generate(spec, 1, 2, 0, 100) == [(2, "101"), (4, "103"), (6, "105")]
    assert datagen_source.generate(spec, 0, 2, 1, 3) == [(3, "102"), (5, "104")]
    assert datagen_source.final_offset(spec, 2) == {"index": 4}
    # a sequence whose end is before its start has |end - start + 1| values, counting up (as Flink's)
    backwards = DataGenSpec((FieldGenerator("sequence", "BIGINT", start=5, end=1),))
    assert [datagen_source.generate(backwards, task, 2, 0, 10) for task in (0, 1)] == [[(5,), (7,)], [(6,)]]
    assert datagen_source.final_offset(DataGenSpec((FieldGenerator("random", "INT"),)), 2) is None


def test_each_subtask_emits_rows_per_second_over_parallelism_rounded_up():
    spec = DataGenSpec((FieldGenerator("random", "INT"),), rows_per_second=5)
    assert [datagen_source.rows_per_subtask_second(spec, p) for p in (1, 2, 4, 10)] == [5, 3, 2, 1]


@given(st.integers(0, 3), st.integers(0, 50), st.integers(1, 20))
def test_random_values_keep_to_their_options_and_a_re_read_generates_the_same(subtask, first, count):
    spec = DataGenSpec((FieldGenerator("random", "INT", minimum=-3, maximum=3),
                        FieldGenerator("random", "STRING", length=6),
                        FieldGenerator("random", "STRING", length=6, variable_length=True),
                        FieldGenerator("random", "DOUBLE", minimum=0.0, maximum=1.0),
                        FieldGenerator("random", "TINYINT"),
                        FieldGenerator("random", "BOOLEAN", null_rate=2.0),
                        FieldGenerator("random", "TIMESTAMP_LTZ", max_past_ms=5000)), seed=7)
    before = datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None)
    rows = datagen_source.generate(spec, subtask, 4, first, first + count)
    assert len(rows) == count
    for n, fixed, varying, d, tiny, nothing, ts in rows:
        assert -3 <= n <= 3 and 0.0 <= d <= 1.0 and -128 <= tiny <= 127 and nothing is None
        assert len(fixed) == 6 and int(fixed, 16) >= 0 and 1 <= len(varying) <= 6
        assert before - datetime.timedelta(seconds=6) <= ts <= before + datetime.timedelta(seconds=60)
    again = datagen_source.generate(spec, subtask, 4, first, first + count)
    assert [row[:-1] for row in again] == [row[:-1] for row in rows]


def test_random_timestamps_are_to_the_millisecond_as_flinks_generator_makes_them():
    spec = _spec("ts TIMESTAMP(3), lt TIMESTAMP_LTZ(3)", ", 'number-of-rows' = '20'")
    rows = datagen_source.generate(spec, 0, 1, 0, 20)
    assert len(rows) == 20 and all(value.microsecond % 1000 == 0 for row in rows for value in row)

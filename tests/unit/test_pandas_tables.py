"""from_pandas / to_pandas without a job: the column types PyFlink gives a DataFrame's columns, its schema
arguments and errors, NaN as NULL, a changelog applied before the conversion, and the dtypes of the result (the
side-by-side case table-api runs both against PyFlink)."""
import datetime
import decimal

import pandas as pd
import pytest

from pyflink_compat.table.sql import pandas_tables
from pyflink_compat.table.sql.catalog import SqlType
from pyflink_compat.table.types import DataTypes

FRAME = pd.DataFrame({"a": [1, 2, 3], "b": [1.5, None, 2.5], "c": ["x", "y", None], "d": [True, False, True]})


def _types(table):
    return [(column.name, column.type.text()) for column in table.columns]


def test_the_columns_are_typed_from_the_frame_or_by_the_schema():
    assert _types(pandas_tables.table_of_dataframe("t", FRAME)) == [
        ("a", "BIGINT"), ("b", "DOUBLE"), ("c", "STRING"), ("d", "BOOLEAN")]
    assert [n for n, _ in _types(pandas_tables.table_of_dataframe("t", FRAME, ["k", "v", "s", "f"]))] == \
        ["k", "v", "s", "f"]
    typed = pandas_tables.table_of_dataframe("t", FRAME, [DataTypes.INT(), DataTypes.DOUBLE(), DataTypes.STRING(),
                                                          DataTypes.BOOLEAN()])
    assert _types(typed)[0] == ("a", "INT")
    assert typed.query.rows[1] == (2, None, "y", False)            # NaN is NULL


def test_other_inputs_fail_as_in_pyflink():
    with pytest.raises(TypeError, match="Unsupported type, expected pandas.DataFrame, got <class 'list'>"):
        pandas_tables.table_of_dataframe("t", [1, 2])
    with pytest.raises(TypeError, match="Unsupported schema type"):
        pandas_tables.table_of_dataframe("t", FRAME, 7)


def test_a_changelog_is_applied_before_the_conversion():
    changes = [("+I", (False, 2)), ("+I", (True, 1)), ("-U", (True, 1)), ("+U", (True, 4)), ("-D", (False, 2))]
    assert pandas_tables.materialized(changes) == [(True, 4)]


def test_dtypes_follow_the_column_types():
    types = [SqlType("BIGINT"), SqlType("INT"), SqlType("DOUBLE"), SqlType("STRING"), SqlType("BOOLEAN"),
             SqlType("TIMESTAMP", precision=3), SqlType("DECIMAL", precision=5, scale=2), SqlType("DATE")]
    rows = [(1, 2, 0.5, "x", True, datetime.datetime(2024, 1, 2), decimal.Decimal("1.50"), datetime.date(2024, 1, 2)),
            (None, 3, None, None, False, None, None, None)]
    frame = pandas_tables.dataframe_of(list("abcdefgh"), types, rows)
    assert {name: str(dtype) for name, dtype in frame.dtypes.items()} == {
        "a": "float64", "b": "int32", "c": "float64", "d": "object", "e": "bool", "f": "datetime64[ns]",
        "g": "object", "h": "object"}
    assert frame["g"][0] == decimal.Decimal("1.50") and frame["d"][1] is None

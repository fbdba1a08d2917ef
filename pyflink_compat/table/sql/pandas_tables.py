"""Tables from pandas DataFrames and back, as PyFlink converts them: ``from_pandas`` types the columns from the
DataFrame's Arrow schema (or takes a DataTypes.ROW, column names, or a list of DataTypes), a NaN is NULL; the
rows become a bounded values table. ``to_pandas`` runs the table, applies its changelog (an update replaces, a
retraction removes) and converts the rows through Arrow, so the dtypes are those of the columns' types (BIGINT
int64, INT int32, FLOAT float32, DOUBLE float64, an integer column with NULLs float64, STRING object, ...)."""
from typing import List

import attrs

from pyflink_compat.table.sql.catalog import CatalogTable, Column, SqlType

_SQL_OF_ARROW = {"int8": "TINYINT", "int16": "SMALLINT", "int32": "INT", "int64": "BIGINT", "float": "FLOAT",
                 "double": "DOUBLE", "bool": "BOOLEAN", "string": "STRING", "large_string": "STRING",
                 "date32[day]": "DATE"}


def _sql_type_of_arrow(arrow_type, column: str) -> SqlType:
    import pyarrow as pa
    if pa.types.is_timestamp(arrow_type):
        digits = {"s": 0, "ms": 3, "us": 6, "ns": 9}[arrow_type.unit]
        return SqlType("TIMESTAMP_LTZ" if arrow_type.tz else "TIMESTAMP", precision=digits)
    if pa.types.is_decimal(arrow_type):
        return SqlType("DECIMAL", precision=arrow_type.precision, scale=arrow_type.scale)
    name = _SQL_OF_ARROW.get(str(arrow_type))
    if name is None:
        from pyflink_compat.util.exceptions import UnsupportedFeatureError
        raise UnsupportedFeatureError("from_pandas of a column of Arrow type %s (column '%s')" % (arrow_type, column),
                                      "table-api", "give the DataFrame numbers, booleans, strings, dates, "
                                                   "timestamps or decimals")
    return SqlType(name)


def table_of_dataframe(name: str, pdf, schema=None) -> CatalogTable:
    """The table of ``from_pandas(pdf, schema)``."""
    import pandas as pd
    import pyarrow as pa
    from pyflink_compat.table.sql import catalog, dialect
    from pyflink_compat.table.sql.bridge import ElementsRelation
    from pyflink_compat.table.types import DataType, RowType
    if not isinstance(pdf, pd.DataFrame):
        raise TypeError("Unsupported type, expected pandas.DataFrame, got %s" % type(pdf))
    arrow = pa.Table.from_pandas(pdf, preserve_index=False)
    inferred = [_sql_type_of_arrow(field.type, field.name) for field in arrow.schema]
    names = list(arrow.schema.names)
    if schema is None:
        types = inferred
    elif isinstance(schema, RowType):
        names = schema.field_names()
        types = [catalog.sql_type(dialect.parse_type(field.sql()), column)
                 for field, column in zip(schema.field_types(), names)]
    elif isinstance(schema, (list, tuple)) and schema and all(isinstance(each, str) for each in schema):
        names, types = list(schema), inferred
    elif isinstance(schema, (list, tuple)) and all(isinstance(each, DataType) for each in schema):
        types = [catalog.sql_type(dialect.parse_type(each.sql()), column) for each, column in zip(schema, names)]
    else:
        raise TypeError("Unsupported schema type, it could only be of RowType, a list of str or a list of "
                        "DataType, got %s" % schema)
    columns = arrow.columns
    rows = tuple(tuple(_value(column[i].as_py(), sql_type) for column, sql_type in zip(columns, types))
                 for i in range(arrow.num_rows))
    table_columns = tuple(Column(column, attrs.evolve(sql_type, origin=column))
                          for column, sql_type in zip(names, types))
    return CatalogTable(name, table_columns, {}, None, ElementsRelation(rows))


def _value(value, sql_type: SqlType):
    """A DataFrame's value as the column holds it (a float column's value in an integer column: an int)."""
    if value is None:
        return None
    if sql_type.name in ("TINYINT", "SMALLINT", "INT", "BIGINT") and isinstance(value, float):
        return int(value)
    if sql_type.name in ("FLOAT", "DOUBLE") and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if sql_type.name == "DECIMAL":
        from pyflink_compat.table.sql.values import decimal_of
        return decimal_of(value, sql_type.precision, sql_type.scale)
    if sql_type.name == "TIMESTAMP_LTZ" and getattr(value, "tzinfo", None) is not None:
        import datetime
        return value.astimezone(datetime.timezone.utc).replace(tzinfo=None)
    return value


def _arrow_type(sql_type: SqlType):
    import pyarrow as pa
    simple = {"TINYINT": pa.int8(), "SMALLINT": pa.int16(), "INT": pa.int32(), "BIGINT": pa.int64(),
              "FLOAT": pa.float32(), "DOUBLE": pa.float64(), "BOOLEAN": pa.bool_(), "STRING": pa.string(),
              "DATE": pa.date32(), "TIMESTAMP": pa.timestamp("us"), "TIMESTAMP_LTZ": pa.timestamp("us", tz="UTC")}
    if sql_type.name in simple:
        return simple[sql_type.name]
    if sql_type.name == "DECIMAL":
        return pa.decimal128(sql_type.precision, sql_type.scale)
    return None                         # nested values: Python objects


def materialized(changes) -> list:
    """The rows a changelog leaves: +I / +U add a row, -U / -D remove one equal to theirs."""
    rows: List[tuple] = []
    for kind, values in changes:
        values = tuple(values)
        if kind in ("+I", "+U"):
            rows.append(values)
        elif values in rows:
            rows.remove(values)
    return rows


def dataframe_of(names, sql_types, rows):
    """The pandas DataFrame of a table's rows, converted through Arrow."""
    import pandas as pd
    import pyarrow as pa
    columns = {}
    for position, (name, sql_type) in enumerate(zip(names, sql_types)):
        values = [row[position] for row in rows]
        arrow_type = _arrow_type(sql_type)
        if arrow_type is None:
            columns[name] = pd.Series(values, dtype=object)
            continue
        column = pa.array(values, type=arrow_type).to_pandas()
        if sql_type.name in ("TIMESTAMP", "TIMESTAMP_LTZ"):
            column = column.astype("datetime64[ns, UTC]" if sql_type.name == "TIMESTAMP_LTZ" else "datetime64[ns]")
        columns[name] = column
    return pd.DataFrame(columns, columns=list(names))

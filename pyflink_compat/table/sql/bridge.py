"""Tables of DataStreams and DataStreams of tables (StreamTableEnvironment's from_data_stream, to_data_stream,
to_changelog_stream): a stream's elements as rows with columns from its type information, as Flink derives
them (a ROW's fields, a tuple's f0, f1, ... with its primitive fields NOT NULL, a single value as f0)."""
from typing import List

from pyflink_compat.table.sql.catalog import SECTION, CatalogTable, Column, SqlType
from pyflink_compat.util.exceptions import UnsupportedFeatureError


class DataStreamRelation:
    """The rows of a DataStream (``stream``); ``shape``: "row", "tuple" or "value", how an element becomes a
    row."""

    def __init__(self, stream, shape: str):
        self.stream, self.shape = stream, shape


_BASIC = {"String": "STRING", "Boolean": "BOOLEAN", "Byte": "TINYINT", "Short": "SMALLINT", "Integer": "INT",
          "Long": "BIGINT", "Float": "FLOAT", "Double": "DOUBLE"}


def _sql_type(type_info, primitive_not_null: bool) -> SqlType:
    from pyflink_compat.common.typeinfo import BasicTypeInfo, TimestampTypeInfo
    if isinstance(type_info, BasicTypeInfo) and type_info._basic_type.value in _BASIC:
        name = _BASIC[type_info._basic_type.value]
        return SqlType(name, nullable=not (primitive_not_null and name != "STRING"))
    if isinstance(type_info, TimestampTypeInfo):
        return SqlType("TIMESTAMP", precision=3)
    raise UnsupportedFeatureError("A table of a DataStream of %s" % type_info, SECTION,
                                  "streams of ROW, TUPLE and basic types become tables")


def table_of_stream(name: str, stream, names: List[str] = None) -> CatalogTable:
    """The table of a DataStream's elements; ``names`` rename its columns in order."""
    from pyflink_compat.common.typeinfo import PickledBytesTypeInfo, RowTypeInfo, TupleTypeInfo
    type_info = stream.get_type()
    if type_info is None or isinstance(type_info, PickledBytesTypeInfo):
        raise UnsupportedFeatureError("A table of a DataStream without an output_type (pickled Python objects)",
                                      SECTION, "give the stream's last operation an output_type, e.g. "
                                               "Types.ROW_NAMED([...], [...])")
    if isinstance(type_info, RowTypeInfo):
        shape = "row"
        columns = [Column(field, _sql_type(field_type, False)) for field, field_type
                   in zip(type_info.get_field_names(), type_info.get_field_types())]
    elif isinstance(type_info, TupleTypeInfo):
        shape = "tuple"
        columns = [Column("f%d" % i, _sql_type(field_type, True))
                   for i, field_type in enumerate(type_info.get_field_types())]
    else:
        shape = "value"
        columns = [Column("f0", _sql_type(type_info, False))]
    if names:
        if len(names) > len(columns):
            from pyflink_compat.table.sql.expressions import validation_error
            raise validation_error("Too many fields referenced from an atomic type.")
        columns = [Column(names[i], column.type) if i < len(names) else column
                   for i, column in enumerate(columns)]
    import attrs
    columns = [Column(column.name, attrs.evolve(column.type, origin=column.name)) for column in columns]
    return CatalogTable(name, tuple(columns), {}, None, DataStreamRelation(stream, shape))


def rows_of(shape: str):
    """The function making a row of a stream's element."""
    def to_row(element):
        from pyflink_compat.common.types import Row
        if shape == "value":
            return Row(element)
        return Row(*tuple(element))
    return to_row


def data_stream_row(names):
    """The function making a change (row kind, values) a Row of the table's columns, with its kind (what
    to_data_stream and to_changelog_stream give)."""
    def to_row(change):
        from pyflink_compat.common.types import Row, RowKind
        kind, values = change
        row = Row(*values)
        row.set_field_names(list(names))
        row.set_row_kind({"+I": RowKind.INSERT, "-U": RowKind.UPDATE_BEFORE, "+U": RowKind.UPDATE_AFTER,
                          "-D": RowKind.DELETE}[kind])
        return row
    return to_row

"""pyflink.table.table_schema: TableSchema, the deprecated schema of a table (``Table.get_schema()``): its fields'
names and data types, and the text Flink's legacy TableSchema prints (``root`` and a `` |-- name: TYPE`` line per
column, then the watermark and the primary key)."""
import sys
from typing import List, Optional, Union

from pyflink_compat import missing
from pyflink_compat.table.types import DataType, RowType

__all__ = ['TableSchema']

_StandIns = missing.stand_ins(__name__)


class TableSchema(_StandIns.TableSchema):
    """A table's structure: field names and data types (``j_table_schema``: pyflink-compat passes the lines a
    table's schema prints after ``root`` when it knows more than the types: computed and metadata columns,
    watermark, primary key)."""

    def __init__(self, field_names: List[str] = None, data_types: List[DataType] = None, j_table_schema=None):
        names, types = list(field_names or []), list(data_types or [])
        seen = set()
        for name in names:
            if name in seen:
                from pyflink_compat.table.sql.expressions import validation_error
                raise validation_error("Field names must be unique. Duplicate field: '%s'" % name)
            seen.add(name)
        if len(names) != len(types):
            from pyflink_compat.table.sql.expressions import validation_error
            raise validation_error("Field names and field data types must have the same length.")
        self._names, self._types = names, types
        self._lines = list(j_table_schema) if j_table_schema is not None else \
            ["%s: %s" % (name, data_type.sql()) for name, data_type in zip(names, types)]

    def copy(self) -> 'TableSchema':
        return TableSchema(self._names, self._types, self._lines)

    def get_field_data_types(self) -> List[DataType]:
        return list(self._types)

    def get_field_data_type(self, field: Union[int, str]) -> Optional[DataType]:
        if not isinstance(field, (int, str)):
            raise TypeError("Expected field index or field name, got %s" % type(field))
        if isinstance(field, str):
            return self._types[self._names.index(field)] if field in self._names else None
        return self._types[field] if 0 <= field < len(self._types) else None

    def get_field_count(self) -> int:
        return len(self._names)

    def get_field_names(self) -> List[str]:
        return list(self._names)

    def get_field_name(self, field_index: int) -> Optional[str]:
        return self._names[field_index] if 0 <= field_index < len(self._names) else None

    def to_row_data_type(self) -> RowType:
        from pyflink_compat.table.types import DataTypes
        return DataTypes.ROW([DataTypes.FIELD(name, data_type) for name, data_type in zip(self._names, self._types)],
                             nullable=False)

    def __repr__(self):
        return "root\n" + "".join(" |-- %s\n" % line for line in self._lines)

    def __eq__(self, other):
        return isinstance(other, self.__class__) and (self._names, self._types, self._lines) == \
            (other._names, other._types, other._lines)

    def __hash__(self):
        return hash(repr(self))

    def __ne__(self, other):
        return not self.__eq__(other)

    @classmethod
    def builder(cls):
        return TableSchema.Builder()

    class Builder(object):
        def __init__(self):
            self._field_names = []
            self._field_data_types = []

        def field(self, name: str, data_type: DataType) -> 'TableSchema.Builder':
            assert name is not None
            assert data_type is not None
            self._field_names.append(name)
            self._field_data_types.append(data_type)
            return self

        def build(self) -> 'TableSchema':
            return TableSchema(self._field_names, self._field_data_types)


missing.complete(sys.modules[__name__])

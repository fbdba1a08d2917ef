"""pyflink.table.types: DataTypes and the data types they make, as PyFlink's (class names, ``repr`` as
``BigIntType(true)``, ``not_null()`` / ``nullable()``), for declaring the types of Python functions and schemas.
Each type also knows its SQL text (``sql()``), which is how the SQL planner reads it."""
import copy
import sys
from typing import List

from pyflink_compat import missing
from pyflink_compat.common.types import Row, RowKind

__all__ = ['DataTypes', 'UserDefinedType', 'Row', 'RowKind']


class DataType(object):
    """A logical type and whether it admits NULL."""

    def __init__(self, nullable=True):
        self._nullable = nullable

    def __repr__(self):
        return '%s(%s)' % (self.__class__.__name__, str(self._nullable).lower())

    def __str__(self):
        return self.type_name()

    def __hash__(self):
        return hash(repr(self))

    def __eq__(self, other):
        return isinstance(other, self.__class__) and self.__dict__ == other.__dict__

    def __ne__(self, other):
        return not self.__eq__(other)

    def not_null(self):
        made = copy.copy(self)
        made._nullable = False
        return made

    def nullable(self):
        made = copy.copy(self)
        made._nullable = True
        return made

    @classmethod
    def type_name(cls) -> str:
        return cls.__name__[:-4].upper()

    def _sql_root(self) -> str:
        return self.type_name()

    def sql(self) -> str:
        """The type as Flink SQL writes it: ``BIGINT``, ``VARCHAR(10) NOT NULL``, ``ROW<`a` INT>``."""
        return self._sql_root() + ("" if self._nullable else " NOT NULL")


class AtomicType(DataType):
    pass


class NullType(AtomicType):
    def __init__(self):
        super().__init__(True)

    def _sql_root(self):
        return "NULL"


class NumericType(AtomicType):
    pass


class IntegralType(NumericType):
    pass


class FractionalType(NumericType):
    pass


class _Sized(AtomicType):
    def __init__(self, length, nullable=True):
        super().__init__(nullable)
        self.length = length

    def __repr__(self):
        return '%s(%d, %s)' % (self.__class__.__name__, self.length, str(self._nullable).lower())


class CharType(_Sized):
    def _sql_root(self):
        return "CHAR(%d)" % self.length


class VarCharType(_Sized):
    def _sql_root(self):
        return "STRING" if self.length == 0x7fffffff else "VARCHAR(%d)" % self.length


class BinaryType(_Sized):
    def _sql_root(self):
        return "BINARY(%d)" % self.length


class VarBinaryType(_Sized):
    def _sql_root(self):
        return "BYTES" if self.length == 0x7fffffff else "VARBINARY(%d)" % self.length


class BooleanType(AtomicType):
    pass


class TinyIntType(IntegralType):
    pass


class SmallIntType(IntegralType):
    pass


class IntType(IntegralType):
    pass


class BigIntType(IntegralType):
    pass


class FloatType(FractionalType):
    pass


class DoubleType(FractionalType):
    pass


class DecimalType(FractionalType):
    def __init__(self, precision=10, scale=0, nullable=True):
        super().__init__(nullable)
        self.precision, self.scale = precision, scale

    def __repr__(self):
        return 'DecimalType(%d, %d, %s)' % (self.precision, self.scale, str(self._nullable).lower())

    def _sql_root(self):
        return "DECIMAL(%d, %d)" % (self.precision, self.scale)


class DateType(AtomicType):
    pass


class _Precise(AtomicType):
    def __init__(self, precision, nullable=True):
        super().__init__(nullable)
        self.precision = precision

    def __repr__(self):
        return '%s(%d, %s)' % (self.__class__.__name__, self.precision, str(self._nullable).lower())


class TimeType(_Precise):
    def _sql_root(self):
        return "TIME(%d)" % self.precision


class TimestampType(_Precise):
    def _sql_root(self):
        return "TIMESTAMP(%d)" % self.precision


class LocalZonedTimestampType(_Precise):
    def _sql_root(self):
        return "TIMESTAMP_LTZ(%d)" % self.precision


class ArrayType(DataType):
    def __init__(self, element_type, nullable=True):
        super().__init__(nullable)
        self.element_type = element_type

    def __repr__(self):
        return 'ArrayType(%s, %s)' % (repr(self.element_type), str(self._nullable).lower())

    def _sql_root(self):
        return "ARRAY<%s>" % self.element_type.sql()


class MapType(DataType):
    def __init__(self, key_type, value_type, nullable=True):
        super().__init__(nullable)
        self.key_type, self.value_type = key_type, value_type

    def __repr__(self):
        return 'MapType(%s, %s, %s)' % (repr(self.key_type), repr(self.value_type), str(self._nullable).lower())

    def _sql_root(self):
        return "MAP<%s, %s>" % (self.key_type.sql(), self.value_type.sql())


class MultisetType(DataType):
    def __init__(self, element_type, nullable=True):
        super().__init__(nullable)
        self.element_type = element_type

    def _sql_root(self):
        return "MULTISET<%s>" % self.element_type.sql()


class RowField(object):
    def __init__(self, name, data_type, description=None):
        self.name, self.data_type, self.description = name, data_type, description

    def __repr__(self):
        return 'RowField(%s, %s, %s)' % (self.name, repr(self.data_type),
                                         "..." if self.description is None else self.description)

    def __eq__(self, other):
        return isinstance(other, RowField) and self.__dict__ == other.__dict__

    def __hash__(self):
        return hash(repr(self))


class RowType(DataType):
    def __init__(self, fields=None, nullable=True):
        super().__init__(nullable)
        self.fields = list(fields or [])
        self.names = [field.name for field in self.fields]

    def field_names(self) -> List[str]:
        return list(self.names)

    def field_types(self) -> List[DataType]:
        return [field.data_type for field in self.fields]

    def __repr__(self):
        return 'RowType(%s)' % ','.join(repr(field) for field in self.fields)

    def _sql_root(self):
        return "ROW<%s>" % ", ".join("`%s` %s" % (field.name, field.data_type.sql()) for field in self.fields)


_StandIns = missing.stand_ins(__name__)
UserDefinedType = _StandIns.UserDefinedType


class DataTypes(object):
    """The data types of the table ecosystem, made by name as in Flink SQL."""

    @staticmethod
    def NULL() -> NullType:
        return NullType()

    @staticmethod
    def CHAR(length: int, nullable: bool = True) -> CharType:
        return CharType(length, nullable)

    @staticmethod
    def VARCHAR(length: int, nullable: bool = True) -> VarCharType:
        return VarCharType(length, nullable)

    @staticmethod
    def STRING(nullable: bool = True) -> VarCharType:
        return DataTypes.VARCHAR(0x7fffffff, nullable)

    @staticmethod
    def BOOLEAN(nullable: bool = True) -> BooleanType:
        return BooleanType(nullable)

    @staticmethod
    def BINARY(length: int, nullable: bool = True) -> BinaryType:
        return BinaryType(length, nullable)

    @staticmethod
    def VARBINARY(length: int, nullable: bool = True) -> VarBinaryType:
        return VarBinaryType(length, nullable)

    @staticmethod
    def BYTES(nullable: bool = True) -> VarBinaryType:
        return DataTypes.VARBINARY(0x7fffffff, nullable)

    @staticmethod
    def DECIMAL(precision: int, scale: int, nullable: bool = True) -> DecimalType:
        return DecimalType(precision, scale, nullable)

    @staticmethod
    def TINYINT(nullable: bool = True) -> TinyIntType:
        return TinyIntType(nullable)

    @staticmethod
    def SMALLINT(nullable: bool = True) -> SmallIntType:
        return SmallIntType(nullable)

    @staticmethod
    def INT(nullable: bool = True) -> IntType:
        return IntType(nullable)

    @staticmethod
    def BIGINT(nullable: bool = True) -> BigIntType:
        return BigIntType(nullable)

    @staticmethod
    def FLOAT(nullable: bool = True) -> FloatType:
        return FloatType(nullable)

    @staticmethod
    def DOUBLE(nullable: bool = True) -> DoubleType:
        return DoubleType(nullable)

    @staticmethod
    def DATE(nullable: bool = True) -> DateType:
        return DateType(nullable)

    @staticmethod
    def TIME(precision: int = 0, nullable: bool = True) -> TimeType:
        return TimeType(precision, nullable)

    @staticmethod
    def TIMESTAMP(precision: int = 6, nullable: bool = True) -> TimestampType:
        return TimestampType(precision, nullable)

    @staticmethod
    def TIMESTAMP_WITH_LOCAL_TIME_ZONE(precision: int = 6, nullable: bool = True) -> LocalZonedTimestampType:
        return LocalZonedTimestampType(precision, nullable)

    @staticmethod
    def TIMESTAMP_LTZ(precision: int = 6, nullable: bool = True) -> LocalZonedTimestampType:
        return LocalZonedTimestampType(precision, nullable)

    @staticmethod
    def ARRAY(element_type: DataType, nullable: bool = True) -> ArrayType:
        return ArrayType(element_type, nullable)

    @staticmethod
    def MAP(key_type: DataType, value_type: DataType, nullable: bool = True) -> MapType:
        return MapType(key_type, value_type, nullable)

    @staticmethod
    def MULTISET(element_type: DataType, nullable: bool = True) -> MultisetType:
        return MultisetType(element_type, nullable)

    @staticmethod
    def ROW(row_fields: List = [], nullable: bool = True) -> RowType:
        return RowType(row_fields, nullable)

    @staticmethod
    def FIELD(name: str, data_type: DataType, description: str = None) -> RowField:
        return RowField(name, data_type, description)


for _name in ("LIST_VIEW", "MAP_VIEW", "SECOND", "MINUTE", "HOUR", "DAY", "MONTH", "YEAR", "INTERVAL"):
    setattr(DataTypes, _name, getattr(_StandIns.DataTypes, _name))

missing.complete(sys.modules[__name__])

"""Type information (mirror of ``pyflink.common.typeinfo``).

PyFlink's type infos are pure Python objects that only touch the JVM in
``get_java_type_info()``; here that method raises ``UnsupportedFeatureError``.
Reproduced behaviour:

* reprs: ``String``, ``Integer``, ``RowTypeInfo(a: String, b: Integer)``,
  ``RowTypeInfo(String)``, ``TupleTypeInfo(Integer, Long)``, ``ListTypeInfo<Integer>``,
  ``MapTypeInfo<String, Integer>``, ``PickledByteArrayTypeInfo``, ``DateTypeInfo`` ...;
* value equality (``Types.STRING() == Types.STRING()``); ``RowTypeInfo`` compares
  field types only, not names. Unlike PyFlink, every type info is also hashable;
* ``to_internal_type``/``from_internal_type``: a row's internal form is the tuple
  ``(row_kind_value, field_0, field_1, ...)``; dates are days since the epoch,
  times and timestamps microseconds, instants epoch microseconds.
"""
import calendar
import datetime
import time
from enum import Enum
from typing import List

from pyflink_compat.util.exceptions import unsupported

__all__ = ['TypeInformation', 'Types']


class TypeInformation(object):
    """Base of all type infos: no conversion between Python objects and the internal form."""

    def __init__(self):
        self._j_typeinfo = None

    get_java_type_info = unsupported("TypeInformation.get_java_type_info", "unsupported-apis",
                                     "there is no JVM")

    def need_conversion(self):
        return False

    def to_internal_type(self, obj):
        return obj

    def from_internal_type(self, obj):
        return obj


class BasicType(Enum):
    STRING = "String"
    BYTE = "Byte"
    BOOLEAN = "Boolean"
    SHORT = "Short"
    INT = "Integer"
    LONG = "Long"
    FLOAT = "Float"
    DOUBLE = "Double"
    CHAR = "Char"
    BIG_INT = "BigInteger"
    BIG_DEC = "BigDecimal"
    INSTANT = "Instant"


class BasicTypeInfo(TypeInformation):
    """Primitive types, String, BigInteger, BigDecimal and Instant; the repr is the Java name."""

    def __init__(self, basic_type: BasicType):
        self._basic_type = basic_type
        super(BasicTypeInfo, self).__init__()

    def __eq__(self, o) -> bool:
        return isinstance(o, BasicTypeInfo) and self._basic_type == o._basic_type

    def __hash__(self):
        return hash(self._basic_type)

    def __repr__(self):
        return self._basic_type.value

    @staticmethod
    def STRING_TYPE_INFO():
        return BasicTypeInfo(BasicType.STRING)

    @staticmethod
    def BOOLEAN_TYPE_INFO():
        return BasicTypeInfo(BasicType.BOOLEAN)

    @staticmethod
    def BYTE_TYPE_INFO():
        return BasicTypeInfo(BasicType.BYTE)

    @staticmethod
    def SHORT_TYPE_INFO():
        return BasicTypeInfo(BasicType.SHORT)

    @staticmethod
    def INT_TYPE_INFO():
        return BasicTypeInfo(BasicType.INT)

    @staticmethod
    def LONG_TYPE_INFO():
        return BasicTypeInfo(BasicType.LONG)

    @staticmethod
    def FLOAT_TYPE_INFO():
        return BasicTypeInfo(BasicType.FLOAT)

    @staticmethod
    def DOUBLE_TYPE_INFO():
        return BasicTypeInfo(BasicType.DOUBLE)

    @staticmethod
    def CHAR_TYPE_INFO():
        return BasicTypeInfo(BasicType.CHAR)

    @staticmethod
    def BIG_INT_TYPE_INFO():
        return BasicTypeInfo(BasicType.BIG_INT)

    @staticmethod
    def BIG_DEC_TYPE_INFO():
        return BasicTypeInfo(BasicType.BIG_DEC)

    @staticmethod
    def INSTANT_TYPE_INFO():
        return InstantTypeInfo(BasicType.INSTANT)


class InstantTypeInfo(BasicTypeInfo):
    """``Instant`` values; internally epoch microseconds (millisecond precision, as in PyFlink)."""

    def __init__(self, basic_type: BasicType):
        super(InstantTypeInfo, self).__init__(basic_type)

    def need_conversion(self):
        return True

    def to_internal_type(self, obj):
        if obj is None:
            return None
        return obj.to_epoch_milli() * 1000

    def from_internal_type(self, obj):
        from pyflink_compat.common.time import Instant
        if obj is None:
            return None
        return Instant.of_epoch_milli(obj // 1000)


class SqlTimeTypeInfo(TypeInformation):
    """Factories of the ``java.sql`` date/time type infos."""

    @staticmethod
    def DATE():
        return DateTypeInfo()

    @staticmethod
    def TIME():
        return TimeTypeInfo()

    @staticmethod
    def TIMESTAMP():
        return TimestampTypeInfo()


class _ElementTypeInfo(TypeInformation):
    """Shared equality, hash and ``Name<element>`` repr of the array and list type infos."""

    _repr_name = None

    def __init__(self, element_type: TypeInformation):
        self._element_type = element_type
        super(_ElementTypeInfo, self).__init__()

    def __eq__(self, o) -> bool:
        return isinstance(o, type(self)) and self._element_type == o._element_type

    def __hash__(self):
        return hash((self._repr_name, self._element_type))

    def __repr__(self):
        return "%s<%s>" % (self._repr_name, self._element_type)


class PrimitiveArrayTypeInfo(_ElementTypeInfo):
    """Arrays of primitive types (``int[]``, ``byte[]`` ...)."""

    _repr_name = "PrimitiveArrayTypeInfo"


class BasicArrayTypeInfo(_ElementTypeInfo):
    """Arrays of boxed primitive types and strings (``Integer[]``, ``String[]`` ...)."""

    _repr_name = "BasicArrayTypeInfo"


class ObjectArrayTypeInfo(_ElementTypeInfo):
    """Arrays of non-primitive types."""

    _repr_name = "ObjectArrayTypeInfo"


class ListTypeInfo(_ElementTypeInfo):
    """``java.util.List`` of elements; PyFlink exposes the element type as ``elem_type``."""

    _repr_name = "ListTypeInfo"

    @property
    def elem_type(self):
        return self._element_type


class PickledBytesTypeInfo(TypeInformation):
    """Any Python object, carried as pickled bytes (the default type of Python operators)."""

    def __eq__(self, o: object) -> bool:
        return isinstance(o, PickledBytesTypeInfo)

    def __hash__(self):
        return hash(PickledBytesTypeInfo.__name__)

    def __repr__(self):
        return "PickledByteArrayTypeInfo"


class RowTypeInfo(TypeInformation):
    """Rows of typed fields; unnamed fields are called ``f0``, ``f1``, ... like in Java."""

    def __init__(self, field_types: List[TypeInformation], field_names: List[str] = None):
        self._field_types = list(field_types)
        self._field_names = field_names
        self._need_conversion = [isinstance(t, TypeInformation) and t.need_conversion()
                                 for t in self._field_types]
        super(RowTypeInfo, self).__init__()

    def get_field_names(self) -> List[str]:
        if self._field_names:
            return self._field_names
        return ["f%d" % position for position in range(len(self._field_types))]

    def get_field_index(self, field_name: str) -> int:
        """The position of ``field_name``; -1 when the fields were not named (PyFlink's behaviour)."""
        if self._field_names:
            return self._field_names.index(field_name)
        return -1

    def get_field_types(self) -> List[TypeInformation]:
        return self._field_types

    def __eq__(self, other) -> bool:
        return isinstance(other, RowTypeInfo) and self._field_types == other._field_types

    def __hash__(self):
        return hash(("RowTypeInfo", tuple(self._field_types)))

    def __repr__(self) -> str:
        if self._field_names:
            fields = ["%s: %s" % (name, field_type)
                      for name, field_type in zip(self._field_names, self._field_types)]
        else:
            fields = [str(field_type) for field_type in self._field_types]
        return "RowTypeInfo(%s)" % ', '.join(fields)

    def need_conversion(self):
        return True

    def to_internal_type(self, obj):
        """``(row_kind_value, *fields)`` from a dict, Row, tuple, list or object with ``__dict__``.

        Dicts, named Rows and objects are read by field name; positional Rows,
        tuples and lists by position. Only Rows carry a RowKind; the rest are INSERT.
        """
        from pyflink_compat.common.types import Row, RowKind
        if obj is None:
            return None
        row_kind = RowKind.INSERT
        if isinstance(obj, dict):
            values = [obj.get(name) for name in self.get_field_names()]
        elif isinstance(obj, Row):
            row_kind = obj.get_row_kind()
            if hasattr(obj, "_fields"):
                values = [obj[name] for name in self.get_field_names()]
            else:
                values = list(obj)
        elif isinstance(obj, (tuple, list)):
            values = list(obj)
        elif hasattr(obj, "__dict__"):
            values = [vars(obj).get(name) for name in self.get_field_names()]
        else:
            raise ValueError("Unexpected tuple %r with RowTypeInfo" % obj)
        return (row_kind.value,) + tuple(self._convert(values, "to_internal_type"))

    def from_internal_type(self, obj):
        """A named Row (field names as in ``get_field_names()``) from ``(row_kind_value, *fields)``."""
        from pyflink_compat.common.types import RowKind, _create_row
        if obj is None:
            return None
        values = self._convert(obj[1:], "from_internal_type")
        return _create_row(self.get_field_names(), values, RowKind(obj[0]))

    def _convert(self, values, direction: str) -> list:
        return [getattr(field_type, direction)(value) if needed else value
                for field_type, value, needed in zip(self._field_types, values, self._need_conversion)]


class TupleTypeInfo(TypeInformation):
    """Flink tuples; internally and in Python a ``tuple``."""

    def __init__(self, field_types: List[TypeInformation]):
        self._field_types = list(field_types)
        self._need_conversion = [isinstance(t, TypeInformation) and t.need_conversion()
                                 for t in self._field_types]
        super(TupleTypeInfo, self).__init__()

    def get_field_types(self) -> List[TypeInformation]:
        return self._field_types

    def need_conversion(self):
        return True

    def to_internal_type(self, obj):
        from pyflink_compat.common.types import Row
        if obj is None:
            return None
        if not isinstance(obj, (list, tuple, Row)):
            raise ValueError("Unexpected tuple %r with TupleTypeInfo" % obj)
        return tuple(self._convert(obj, "to_internal_type"))

    def from_internal_type(self, obj):
        if obj is None:
            return None
        return tuple(self._convert(obj, "from_internal_type"))

    def _convert(self, values, direction: str) -> list:
        return [getattr(field_type, direction)(value) if needed else value
                for field_type, value, needed in zip(self._field_types, values, self._need_conversion)]

    def __eq__(self, other) -> bool:
        return isinstance(other, TupleTypeInfo) and self._field_types == other._field_types

    def __hash__(self):
        return hash(("TupleTypeInfo", tuple(self._field_types)))

    def __repr__(self) -> str:
        return "TupleTypeInfo(%s)" % ', '.join(str(field_type) for field_type in self._field_types)


class DateTypeInfo(TypeInformation):
    """``java.sql.Date``: ``datetime.date``, internally days since 1970-01-01."""

    EPOCH_ORDINAL = datetime.date(1970, 1, 1).toordinal()

    def __init__(self):
        super(DateTypeInfo, self).__init__()

    def need_conversion(self):
        return True

    def to_internal_type(self, d):
        if d is None:
            return None
        return d.toordinal() - self.EPOCH_ORDINAL

    def from_internal_type(self, v):
        if v is None:
            return None
        return datetime.date.fromordinal(v + self.EPOCH_ORDINAL)

    def __eq__(self, o: object) -> bool:
        return isinstance(o, DateTypeInfo)

    def __hash__(self):
        return hash(DateTypeInfo.__name__)

    def __repr__(self):
        return "DateTypeInfo"


class TimeTypeInfo(TypeInformation):
    """``java.sql.Time``: ``datetime.time``, internally microseconds, shifted by the local UTC offset.

    ``EPOCH_ORDINAL`` is the local time zone's offset at the epoch, in microseconds,
    as in PyFlink: a naive time is taken as local time.
    """

    EPOCH_ORDINAL = calendar.timegm(time.localtime(0)) * 10 ** 6

    def need_conversion(self):
        return True

    def to_internal_type(self, t):
        if t is None:
            return None
        if t.tzinfo is not None:
            offset = t.utcoffset() or datetime.timedelta()
            offset_micros = (offset.days * 86400 + offset.seconds) * 10 ** 6 + offset.microseconds
        else:
            offset_micros = self.EPOCH_ORDINAL
        seconds = (t.hour * 60 + t.minute) * 60 + t.second
        return seconds * 10 ** 6 + t.microsecond - offset_micros

    def from_internal_type(self, t):
        if t is None:
            return None
        seconds, micros = divmod(t + self.EPOCH_ORDINAL, 10 ** 6)
        minutes, seconds = divmod(seconds, 60)
        hours, minutes = divmod(minutes, 60)
        return datetime.time(hours, minutes, seconds, micros)

    def __eq__(self, o: object) -> bool:
        return isinstance(o, TimeTypeInfo)

    def __hash__(self):
        return hash(TimeTypeInfo.__name__)

    def __repr__(self) -> str:
        return "TimeTypeInfo"


class TimestampTypeInfo(TypeInformation):
    """``java.sql.Timestamp``: ``datetime.datetime``, internally epoch microseconds (naive = local time)."""

    def need_conversion(self):
        return True

    def to_internal_type(self, dt):
        if dt is None:
            return None
        if dt.tzinfo is not None:
            seconds = calendar.timegm(dt.utctimetuple())
        else:
            seconds = time.mktime(dt.timetuple())
        return int(seconds) * 10 ** 6 + dt.microsecond

    def from_internal_type(self, ts):
        if ts is None:
            return None
        return datetime.datetime.fromtimestamp(ts // 10 ** 6).replace(microsecond=ts % 10 ** 6)

    def __eq__(self, o: object) -> bool:
        return isinstance(o, TimestampTypeInfo)

    def __hash__(self):
        return hash(TimestampTypeInfo.__name__)

    def __repr__(self):
        return "TimestampTypeInfo"


class MapTypeInfo(TypeInformation):
    """``java.util.Map`` of keys to values."""

    def __init__(self, key_type_info: TypeInformation, value_type_info: TypeInformation):
        self._key_type_info = key_type_info
        self._value_type_info = value_type_info
        super(MapTypeInfo, self).__init__()

    def __eq__(self, other):
        return (isinstance(other, MapTypeInfo) and self._key_type_info == other._key_type_info
                and self._value_type_info == other._value_type_info)

    def __hash__(self):
        return hash(("MapTypeInfo", self._key_type_info, self._value_type_info))

    def __repr__(self) -> str:
        return 'MapTypeInfo<{}, {}>'.format(self._key_type_info, self._value_type_info)


class LocalTimeTypeInfo(TypeInformation):
    """``java.time`` local date/time types (produced by Table API conversions, not by ``Types``)."""

    class TimeType(Enum):
        LOCAL_DATE = 0
        LOCAL_TIME = 1
        LOCAL_DATE_TIME = 2

    def __init__(self, time_type: TimeType):
        self._time_type = time_type
        super(LocalTimeTypeInfo, self).__init__()

    def __eq__(self, other):
        return isinstance(other, LocalTimeTypeInfo) and self._time_type == other._time_type

    def __hash__(self):
        return hash(self._time_type)

    def __repr__(self):
        return 'LocalTimeTypeInfo<{}>'.format(self._time_type.name)


class ExternalTypeInfo(TypeInformation):
    """A Table API data type seen from the DataStream API, wrapping ``type_info``."""

    def __init__(self, type_info: TypeInformation):
        self._type_info = type_info
        super(ExternalTypeInfo, self).__init__()

    def __eq__(self, other):
        return self.__class__ == other.__class__ and self._type_info == other._type_info

    def __hash__(self):
        return hash(("ExternalTypeInfo", self._type_info))

    def __repr__(self):
        return 'ExternalTypeInfo<{}>'.format(self._type_info)


class Types(object):
    """Factories of the type infos of the common types."""

    @staticmethod
    def STRING() -> TypeInformation:
        return BasicTypeInfo.STRING_TYPE_INFO()

    @staticmethod
    def BYTE() -> TypeInformation:
        return BasicTypeInfo.BYTE_TYPE_INFO()

    @staticmethod
    def BOOLEAN() -> TypeInformation:
        return BasicTypeInfo.BOOLEAN_TYPE_INFO()

    @staticmethod
    def SHORT() -> TypeInformation:
        return BasicTypeInfo.SHORT_TYPE_INFO()

    @staticmethod
    def INT() -> TypeInformation:
        return BasicTypeInfo.INT_TYPE_INFO()

    @staticmethod
    def LONG() -> TypeInformation:
        return BasicTypeInfo.LONG_TYPE_INFO()

    @staticmethod
    def FLOAT() -> TypeInformation:
        return BasicTypeInfo.FLOAT_TYPE_INFO()

    @staticmethod
    def DOUBLE() -> TypeInformation:
        return BasicTypeInfo.DOUBLE_TYPE_INFO()

    @staticmethod
    def CHAR() -> TypeInformation:
        return BasicTypeInfo.CHAR_TYPE_INFO()

    @staticmethod
    def BIG_INT() -> TypeInformation:
        return BasicTypeInfo.BIG_INT_TYPE_INFO()

    @staticmethod
    def BIG_DEC() -> TypeInformation:
        return BasicTypeInfo.BIG_DEC_TYPE_INFO()

    @staticmethod
    def INSTANT() -> TypeInformation:
        return BasicTypeInfo.INSTANT_TYPE_INFO()

    @staticmethod
    def SQL_DATE() -> TypeInformation:
        return SqlTimeTypeInfo.DATE()

    @staticmethod
    def SQL_TIME() -> TypeInformation:
        return SqlTimeTypeInfo.TIME()

    @staticmethod
    def SQL_TIMESTAMP() -> TypeInformation:
        return SqlTimeTypeInfo.TIMESTAMP()

    @staticmethod
    def PICKLED_BYTE_ARRAY() -> TypeInformation:
        return PickledBytesTypeInfo()

    @staticmethod
    def ROW(field_types: List[TypeInformation]):
        return RowTypeInfo(field_types)

    @staticmethod
    def ROW_NAMED(field_names: List[str], field_types: List[TypeInformation]):
        """Names first, then types."""
        return RowTypeInfo(field_types, field_names)

    @staticmethod
    def TUPLE(field_types: List[TypeInformation]):
        return TupleTypeInfo(field_types)

    @staticmethod
    def PRIMITIVE_ARRAY(element_type: TypeInformation):
        return PrimitiveArrayTypeInfo(element_type)

    @staticmethod
    def BASIC_ARRAY(element_type: TypeInformation) -> TypeInformation:
        return BasicArrayTypeInfo(element_type)

    @staticmethod
    def OBJECT_ARRAY(element_type: TypeInformation) -> TypeInformation:
        return ObjectArrayTypeInfo(element_type)

    @staticmethod
    def MAP(key_type_info: TypeInformation, value_type_info: TypeInformation) -> TypeInformation:
        return MapTypeInfo(key_type_info, value_type_info)

    @staticmethod
    def LIST(element_type_info: TypeInformation) -> TypeInformation:
        return ListTypeInfo(element_type_info)

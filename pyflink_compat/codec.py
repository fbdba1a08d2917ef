"""How stream elements of each TypeInformation travel through Spark.

A stream is a DataFrame with two columns: ``element`` (the element, as a
Spark/Arrow type derived from its TypeInformation; pickled bytes for
PICKLED_BYTE_ARRAY) and ``event_ts`` (the element's timestamp in epoch ms,
null when it has none, like Flink's ``StreamRecord`` without timestamp).

This module converts between TypeInformation, Spark DDL, Arrow types, and
between Arrow arrays and the Python objects user functions see.
"""
import datetime
import decimal
import pickle

import pyarrow as pa

from pyflink_compat.common.typeinfo import (BasicArrayTypeInfo, ListTypeInfo, MapTypeInfo, ObjectArrayTypeInfo,
                                             PickledBytesTypeInfo, PrimitiveArrayTypeInfo, RowTypeInfo,
                                             TupleTypeInfo, TypeInformation, Types)
from pyflink_compat.common.time import Instant
from pyflink_compat.common.types import Row
from pyflink_compat.util.exceptions import UnsupportedFeatureError

ELEMENT = "element"
EVENT_TS = "event_ts"


def _basic_arrow_types():
    return [
        (Types.STRING(), pa.string()), (Types.BOOLEAN(), pa.bool_()), (Types.BYTE(), pa.int8()),
        (Types.SHORT(), pa.int16()), (Types.INT(), pa.int32()), (Types.LONG(), pa.int64()),
        (Types.FLOAT(), pa.float32()), (Types.DOUBLE(), pa.float64()), (Types.CHAR(), pa.string()),
        (Types.BIG_INT(), pa.decimal128(38, 0)),
        # Java's BigDecimal keeps each value's own scale (Decimal('1.5') stays '1.5', '1.50' stays '1.50'):
        # a fixed-scale Arrow decimal would not, so the exact decimal text is stored.
        (Types.BIG_DEC(), pa.string()),
        (Types.SQL_DATE(), pa.date32()), (Types.SQL_TIMESTAMP(), pa.timestamp("us", tz="UTC")),
        # datetime.time as microseconds of the day: Spark's TIME type cannot cross a Python data source
        # or a streaming query (UNSUPPORTED_TIME_TYPE), an int64 column can.
        (Types.SQL_TIME(), pa.int64()),
        (Types.INSTANT(), pa.timestamp("us", tz="UTC")),
    ]


_BASIC = None


def _basic_lookup(type_info):
    global _BASIC
    if _BASIC is None:
        _BASIC = _basic_arrow_types()
    for candidate, arrow_type in _BASIC:
        if type(candidate) is type(type_info) and candidate == type_info:
            return arrow_type
    return None


def _is_byte_array(type_info) -> bool:
    return isinstance(type_info, PrimitiveArrayTypeInfo) and type_info == Types.PRIMITIVE_ARRAY(Types.BYTE())


def arrow_type(type_info: TypeInformation) -> pa.DataType:
    """The Arrow type an element of ``type_info`` is stored as."""
    if type_info is None or isinstance(type_info, PickledBytesTypeInfo):
        return pa.binary()
    if _is_byte_array(type_info):
        return pa.binary()
    basic = _basic_lookup(type_info)
    if basic is not None:
        return basic
    if isinstance(type_info, RowTypeInfo):
        fields = [pa.field(name, arrow_type(t)) for name, t in zip(type_info.get_field_names(),
                                                                   type_info.get_field_types())]
        if carries_row_kinds(type_info):
            fields.append(pa.field(ROW_KIND, pa.int8()))
        return pa.struct(fields)
    if isinstance(type_info, TupleTypeInfo):             # Flink's TupleN fields are f0, f1, ...
        return pa.struct([pa.field("f%d" % i, arrow_type(t)) for i, t in enumerate(type_info.get_field_types())])
    if isinstance(type_info, (ListTypeInfo, BasicArrayTypeInfo, ObjectArrayTypeInfo, PrimitiveArrayTypeInfo)):
        return pa.list_(arrow_type(_element_type_of(type_info)))
    if isinstance(type_info, MapTypeInfo):
        key_t, value_t = _map_types_of(type_info)
        return pa.map_(arrow_type(key_t), arrow_type(value_t))
    raise UnsupportedFeatureError("Streams of type %r" % (type_info,), "types")


ROW_KIND = "$row_kind"


def carries_row_kinds(type_info) -> bool:
    """Whether a row stream's elements keep their RowKind from one operator to the next (a changelog stream
    of a table: an extra struct field holds it)."""
    return getattr(type_info, "_row_kinds", False)


def _element_type_of(type_info):
    return type_info._element_type


def _map_types_of(type_info):
    return type_info._key_type_info, type_info._value_type_info


def stream_schema(type_info: TypeInformation) -> pa.Schema:
    return pa.schema([pa.field(ELEMENT, arrow_type(type_info)), pa.field(EVENT_TS, pa.int64())])


def spark_ddl(type_info: TypeInformation, extra_fields=()) -> str:
    """Spark DDL of a stream DataFrame whose elements have ``type_info`` (then the ``extra_fields``, Arrow
    fields)."""
    from pyspark.sql.pandas.types import from_arrow_schema
    schema = stream_schema(type_info)
    for field in extra_fields:
        schema = schema.append(field)
    return _quoted_ddl(from_arrow_schema(schema))


def _quoted_ddl(data_type) -> str:
    """A Spark type's DDL with every field name quoted (a row's field may be named ``$row_kind``, ``EXPR$0`` or
    ``a b``), in the ``struct<...>`` form of ``simpleString()``."""
    from pyspark.sql.types import ArrayType, MapType, StructType
    if isinstance(data_type, StructType):
        return "struct<%s>" % ",".join("`%s`:%s" % (field.name.replace("`", "``"), _quoted_ddl(field.dataType))
                                       for field in data_type.fields)
    if isinstance(data_type, ArrayType):
        return "array<%s>" % _quoted_ddl(data_type.elementType)
    if isinstance(data_type, MapType):
        return "map<%s,%s>" % (_quoted_ddl(data_type.keyType), _quoted_ddl(data_type.valueType))
    return data_type.simpleString()


def spark_schema(type_info: TypeInformation):
    from pyspark.sql.pandas.types import from_arrow_schema
    return from_arrow_schema(stream_schema(type_info))


# -- Arrow <-> Python ---------------------------------------------------------------------------

def to_python(array: pa.Array, type_info: TypeInformation) -> list:
    """The Python objects user functions see for an Arrow column of ``type_info`` elements."""
    if type_info is None or isinstance(type_info, PickledBytesTypeInfo):
        return [None if v is None else pickle.loads(v) for v in array.to_pylist()]
    if isinstance(type_info, RowTypeInfo):
        return _rows_to_python(array, type_info)
    if isinstance(type_info, TupleTypeInfo):
        return _tuples_to_python(array, type_info)
    values = array.to_pylist()
    if _stored_as_python(type_info):
        return values
    convert = _converter(type_info)
    return [convert(v) for v in values]


def _rows_to_python(array, type_info: RowTypeInfo) -> list:
    """Rows from a struct column, field column by field column (Arrow's per-row dicts cost more)."""
    from pyflink_compat.common.types import _named_rows
    if isinstance(array, pa.ChunkedArray):
        array = array.combine_chunks()
    names = list(type_info.get_field_names())
    struct_type = array.type
    columns = [to_python(array.field(struct_type.get_field_index(name)), field_type)
               for name, field_type in zip(names, type_info.get_field_types())]
    rows = _named_rows(columns, names) if names else [Row() for _ in range(len(array))]
    if carries_row_kinds(type_info):
        from pyflink_compat.common.types import RowKind
        for row, kind in zip(rows, array.field(struct_type.get_field_index(ROW_KIND)).to_pylist()):
            if kind:
                row.set_row_kind(RowKind(kind))
    if array.null_count:
        for i, valid in enumerate(array.is_valid().to_pylist()):
            if not valid:
                rows[i] = None
    return rows


def _tuples_to_python(array, type_info: TupleTypeInfo) -> list:
    if isinstance(array, pa.ChunkedArray):
        array = array.combine_chunks()
    columns = [to_python(array.field(i), t) for i, t in enumerate(type_info.get_field_types())]
    tuples = list(zip(*columns)) if columns else [() for _ in range(len(array))]
    if array.null_count:
        for i, valid in enumerate(array.is_valid().to_pylist()):
            if not valid:
                tuples[i] = None
    return tuples


_PASS_THROUGH = None


def passes_through(type_info) -> bool:
    """Whether a stored value of ``type_info`` is exactly what storing the Python object user code
    sees gives back, and that object cannot be changed in place other than through Row's methods
    (which count their changes): then a filter's kept elements can keep their stored form."""
    global _PASS_THROUGH
    if _PASS_THROUGH is None:
        _PASS_THROUGH = [Types.STRING(), Types.BOOLEAN(), Types.BYTE(), Types.SHORT(), Types.INT(), Types.LONG(),
                         Types.FLOAT(), Types.DOUBLE(), Types.CHAR(), Types.SQL_DATE(), Types.BIG_INT(),
                         Types.PRIMITIVE_ARRAY(Types.BYTE())]
    if isinstance(type_info, (RowTypeInfo, TupleTypeInfo)):         # tuples are immutable
        return all(passes_through(t) for t in type_info.get_field_types())
    return any(type(plain) is type(type_info) and plain == type_info for plain in _PASS_THROUGH)


_PLAIN = None


def _stored_as_python(type_info) -> bool:
    """Whether Arrow's Python values for ``type_info`` already are what user functions see: strings,
    integers, floats, booleans, dates, byte arrays (no nesting, no timestamps, no decimals)."""
    global _PLAIN
    if _PLAIN is None:
        _PLAIN = [Types.STRING(), Types.BOOLEAN(), Types.BYTE(), Types.SHORT(), Types.INT(), Types.LONG(),
                  Types.FLOAT(), Types.DOUBLE(), Types.CHAR(), Types.SQL_DATE(), Types.PRIMITIVE_ARRAY(Types.BYTE())]
    return any(type(plain) is type(type_info) and plain == type_info for plain in _PLAIN)


def _identity(value):
    return value


def _converter(type_info):
    """A function from a stored value of ``type_info`` to what user functions see (None stays None).

    Built once per type and batch, so the per-value work is only the conversion itself (comparing
    TypeInformation objects per value cost more than everything else on a JSON row stream).
    """
    if _stored_as_python(type_info):
        return _identity
    if isinstance(type_info, RowTypeInfo):
        names = type_info.get_field_names()
        fields = [(name, _converter(t)) for name, t in zip(names, type_info.get_field_types())]
        plain = all(convert is _identity for _, convert in fields)

        def row(value):
            if value is None:
                return None
            if plain:
                result = Row(*[value[name] for name in names])
            else:
                result = Row(*[convert(value[name]) for name, convert in fields])
            result.set_field_names(names)
            return result
        return row
    if isinstance(type_info, TupleTypeInfo):
        field_converters = [_converter(t) for t in type_info.get_field_types()]
        return lambda value: None if value is None else tuple(
            convert(value["f%d" % i]) for i, convert in enumerate(field_converters))
    if isinstance(type_info, MapTypeInfo):
        key_type, value_type = _map_types_of(type_info)
        convert_key, convert_value = _converter(key_type), _converter(value_type)
        return lambda value: None if value is None else {convert_key(k): convert_value(v) for k, v in value}
    if isinstance(type_info, (ListTypeInfo, BasicArrayTypeInfo, ObjectArrayTypeInfo)) or (
            isinstance(type_info, PrimitiveArrayTypeInfo) and not _is_byte_array(type_info)):
        convert_element = _converter(_element_type_of(type_info))
        return lambda value: None if value is None else [convert_element(v) for v in value]
    if type_info == Types.INSTANT():
        return lambda value: None if value is None else Instant.of_epoch_milli(_epoch_millis(value))
    if type_info == Types.BIG_DEC():
        return lambda value: None if value is None else decimal.Decimal(value)
    if type_info == Types.BIG_INT():
        return lambda value: None if value is None else int(value)
    if type_info == Types.SQL_TIME():
        return lambda value: None if value is None else time_of_micros(value)
    if type_info == Types.SQL_TIMESTAMP():
        # PyFlink hands SQL_TIMESTAMP values to Python at millisecond precision (java.sql.Timestamp through
        # its timestamp coder with precision 3): 12:00:00.123456 arrives as 12:00:00.123000.
        return lambda value: None if value is None else _naive_utc(
            value.replace(microsecond=value.microsecond // 1000 * 1000))
    return lambda value: None if value is None else _naive_utc(value)


def time_of_micros(micros: int) -> datetime.time:
    """A SQL_TIME value from its stored form, as PyFlink hands it to Python: java.sql.Time through PyFlink's
    time coder keeps whole milliseconds."""
    seconds, fraction = divmod(int(micros), 1_000_000)
    minutes, second = divmod(seconds, 60)
    hour, minute = divmod(minutes, 60)
    return datetime.time(hour % 24, minute, second, fraction // 1000 * 1000)


def micros_of_time(value) -> int:
    """The stored form of a SQL_TIME value (a datetime.time)."""
    if not isinstance(value, datetime.time):
        raise TypeError("SQL_TIME expects a datetime.time, got %r" % (value,))
    return ((value.hour * 60 + value.minute) * 60 + value.second) * 1_000_000 + value.microsecond


def _naive_utc(value):
    if isinstance(value, datetime.datetime) and value.tzinfo is not None:
        return value.astimezone(datetime.timezone.utc).replace(tzinfo=None)
    return value


def _epoch_millis(moment: datetime.datetime) -> int:
    return (moment - _EPOCH) // datetime.timedelta(milliseconds=1)


_EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)


def from_python(values: list, type_info: TypeInformation) -> pa.Array:
    """An Arrow column holding ``values`` as elements of ``type_info``."""
    if type_info is None or isinstance(type_info, PickledBytesTypeInfo):
        return pa.array([None if v is None else pickle.dumps(v, protocol=pickle.HIGHEST_PROTOCOL)
                         for v in values], pa.binary())
    try:
        return _array_of(values, type_info)
    except (pa.ArrowInvalid, pa.ArrowTypeError, TypeError, ValueError) as e:
        if isinstance(e, _RowShapeError):
            raise ValueError(str(e)) from None
        raise TypeError("An element does not match the declared output type %r (%s)" % (type_info, e)) from e


class _RowShapeError(ValueError):
    """A row lacks fields its type names: reported as such, not as a type mismatch."""


def _array_of(values: list, type_info) -> pa.Array:
    if _stored_as_python(type_info):
        return pa.array(values, arrow_type(type_info))
    if isinstance(type_info, (RowTypeInfo, TupleTypeInfo)):
        return _rows_from_python(values, type_info)
    convert = _storage_converter(type_info)
    return pa.array([convert(v) for v in values], arrow_type(type_info))


def _rows_from_python(values: list, type_info) -> pa.Array:
    """A struct column (rows or tuples) built field by field: each element's values in field order, transposed."""
    struct_type = arrow_type(type_info)
    names = [field.name for field in struct_type]
    types = type_info.get_field_types()
    fields_of = _row_fields_getter(type_info) if isinstance(type_info, RowTypeInfo) else _tuple_fields_getter(type_info)
    absent = [None] * len(names)
    per_row = []
    nulls = None
    for i, value in enumerate(values):
        if value is None:
            if nulls is None:
                nulls = [False] * len(values)
            nulls[i] = True
            per_row.append(absent)
        else:
            per_row.append(fields_of(value))
    if not names:
        return pa.array([None if nulls and nulls[i] else {} for i in range(len(values))], struct_type)
    columns = list(zip(*per_row)) if per_row else [() for _ in names]
    children = [_array_of(list(column), t) for column, t in zip(columns, types)]
    if carries_row_kinds(type_info):
        children.append(pa.array([value.get_row_kind().value if isinstance(value, Row) else 0
                                  for value in values], pa.int8()))
    mask = pa.array(nulls, pa.bool_()) if nulls is not None else None
    return pa.StructArray.from_arrays(children, fields=list(struct_type), mask=mask)


def _row_fields_getter(type_info: RowTypeInfo):
    """function(element) -> its field values in ``type_info``'s field order, as PyFlink reads an
    element of a row type: a named Row by name, a dict by key, a positional Row/tuple/list by position."""
    names = list(type_info.get_field_names())

    def fields_of(value):
        if isinstance(value, Row):
            state = value.__dict__
            stored = state["_values"]
            row_names = state.get("_fields")
            if row_names is None:
                return stored
            if row_names is names or row_names == names:
                return stored
            by_name = dict(zip(row_names, stored))
            missing = [n for n in names if n not in by_name]
            if missing:
                raise _RowShapeError("Row %r has no field(s) %s of %r" % (value, ", ".join(missing), type_info))
            return [by_name[n] for n in names]
        if isinstance(value, dict):
            return [value.get(n) for n in names]
        if isinstance(value, (tuple, list)):
            return value
        if hasattr(value, "__dict__"):
            attributes = vars(value)
            return [attributes.get(n) for n in names]
        raise ValueError('Unexpected tuple %r with RowTypeInfo' % (value,))

    def checked(value):
        fields = fields_of(value)
        if len(fields) != len(names):
            raise ValueError("Row %r has %d field(s), %r has %d" % (value, len(fields), type_info, len(names)))
        return fields

    return checked


def _tuple_fields_getter(type_info: TupleTypeInfo):
    """function(element) -> its fields: a tuple, list or Row, by position (PyFlink's tuple coder)."""
    arity = len(type_info.get_field_types())

    def fields_of(value):
        if isinstance(value, Row):
            fields = value._values
        elif isinstance(value, (tuple, list)):
            fields = value
        else:
            raise ValueError("Unexpected tuple %r with TupleTypeInfo" % (value,))
        if len(fields) != arity:
            raise ValueError("Tuple %r has %d field(s), %r has %d" % (value, len(fields), type_info, arity))
        if any(field is None for field in fields):        # Flink's tuple serializer refuses null fields
            position = next(i for i, field in enumerate(fields) if field is None)
            raise ValueError("Field %d is null, but expected to hold a value (tuple %r)" % (position, value))
        return fields
    return fields_of


def _storage_converter(type_info):
    """A function from a Python element of ``type_info`` to its Arrow-ready form (None stays None).

    Built once per type and batch (as ``_converter`` for the other direction)."""
    if isinstance(type_info, RowTypeInfo):
        names = list(type_info.get_field_names())
        fields_of = _row_fields_getter(type_info)
        converters = [_storage_converter(t) for t in type_info.get_field_types()]

        def row(value):
            if value is None:
                return None
            return {n: convert(v) for n, v, convert in zip(names, fields_of(value), converters)}
        return row
    if isinstance(type_info, TupleTypeInfo):
        fields_of = _tuple_fields_getter(type_info)
        converters = [_storage_converter(t) for t in type_info.get_field_types()]
        return lambda value: None if value is None else {
            "f%d" % i: convert(v) for i, (v, convert) in enumerate(zip(fields_of(value), converters))}
    if isinstance(type_info, MapTypeInfo):
        key_type, value_type = _map_types_of(type_info)
        convert_key, convert_value = _storage_converter(key_type), _storage_converter(value_type)
        return lambda value: None if value is None else [(convert_key(k), convert_value(v))
                                                         for k, v in value.items()]
    if isinstance(type_info, (ListTypeInfo, BasicArrayTypeInfo, ObjectArrayTypeInfo)) or (
            isinstance(type_info, PrimitiveArrayTypeInfo) and not _is_byte_array(type_info)):
        convert_element = _storage_converter(_element_type_of(type_info))
        return lambda value: None if value is None else [convert_element(v) for v in value]
    big_decimal = type_info == Types.BIG_DEC()
    if type_info == Types.SQL_TIME():
        return lambda value: None if value is None else micros_of_time(value)

    def scalar(value):
        if isinstance(value, Instant):
            return _EPOCH + datetime.timedelta(milliseconds=value.to_epoch_milli())
        if big_decimal and isinstance(value, (decimal.Decimal, int)) and not isinstance(value, bool):
            return str(value)
        return value
    return scalar


def to_collected(values: list, type_info: TypeInformation) -> list:
    """What ``execute_and_collect()`` hands out: PyFlink's values after their trip through Java. FLOAT
    values come back as the shortest decimal of the 32-bit float (Java's ``Float.toString``: 0.1, not
    0.10000000149011612) and byte arrays as lists of signed ints; the rest as user functions see them."""
    if not _has_collect_conversions(type_info):
        return values
    return [_collected(v, type_info) for v in values]


def _has_collect_conversions(type_info) -> bool:
    if type_info == Types.FLOAT() or _is_byte_array(type_info):
        return True
    if isinstance(type_info, (RowTypeInfo, TupleTypeInfo)):
        return any(_has_collect_conversions(t) for t in type_info.get_field_types())
    if isinstance(type_info, (ListTypeInfo, BasicArrayTypeInfo, ObjectArrayTypeInfo, PrimitiveArrayTypeInfo)):
        return _has_collect_conversions(_element_type_of(type_info))
    if isinstance(type_info, MapTypeInfo):
        return any(_has_collect_conversions(t) for t in _map_types_of(type_info))
    return False


def _collected(value, type_info):
    if value is None:
        return None
    if type_info == Types.FLOAT():
        import numpy
        return float(str(numpy.float32(value)))
    if _is_byte_array(type_info):
        return [b - 256 if b > 127 else b for b in bytes(value)]
    if isinstance(type_info, RowTypeInfo):
        for i, field_type in enumerate(type_info.get_field_types()):
            value[i] = _collected(value[i], field_type)
        return value
    if isinstance(type_info, TupleTypeInfo):
        return tuple(_collected(v, t) for v, t in zip(value, type_info.get_field_types()))
    if isinstance(type_info, (ListTypeInfo, BasicArrayTypeInfo, ObjectArrayTypeInfo, PrimitiveArrayTypeInfo)):
        element_type = _element_type_of(type_info)
        return [_collected(v, element_type) for v in value]
    if isinstance(type_info, MapTypeInfo):
        key_type, value_type = _map_types_of(type_info)
        return {_collected(k, key_type): _collected(v, value_type) for k, v in value.items()}
    return value


_NUMPY_TYPES = {"int8": "int8", "int16": "int16", "int32": "int32", "int64": "int64", "uint8": "uint8",
                "uint16": "uint16", "uint32": "uint32", "uint64": "uint64", "float": "float32", "double": "float64"}


def numpy_of(array: pa.Array):
    """The values of an Arrow array as numpy: read from its buffers for ints, floats and booleans without
    nulls, as ``to_numpy(zero_copy_only=False)`` otherwise. pyarrow's ``to_numpy`` goes through its pandas
    conversion, which imports pandas (45 MiB in a process that never needed it: third_party_patches)."""
    import numpy as np
    name = str(array.type)
    if array.null_count or (name != "bool" and name not in _NUMPY_TYPES):
        return array.to_numpy(zero_copy_only=False)
    size = len(array)
    if name == "bool":
        if size == 0:
            return np.zeros(0, dtype=bool)
        bits = np.frombuffer(array.buffers()[1], dtype=np.uint8)
        return np.unpackbits(bits, bitorder="little")[array.offset:array.offset + size].astype(bool)
    dtype = np.dtype(_NUMPY_TYPES[name])
    if size == 0:
        return np.zeros(0, dtype=dtype)
    return np.frombuffer(array.buffers()[1], dtype=dtype, count=size, offset=array.offset * dtype.itemsize)


def column(batch: pa.RecordBatch, name: str) -> pa.Array:
    return batch.column(batch.schema.get_field_index(name))


def make_batch(elements: pa.Array, event_ts: pa.Array) -> pa.RecordBatch:
    return pa.RecordBatch.from_arrays([elements, event_ts], names=[ELEMENT, EVENT_TS])

"""JSON row format (mirror of ``pyflink.datastream.formats.json``).

``JsonRowDeserializationSchema`` reads one JSON object per record into a ``Row`` of a ``RowTypeInfo``
with the semantics of flink-json's legacy ``JsonRowDeserializationSchema`` (measured against PyFlink
2.3.0): fields matched by name, extra keys ignored, missing fields null (or an error with
``fail_on_missing_field``), Java's lenient number/boolean parsing, RFC 3339 dates and times, a STRING
field holding a non-text node gets that node's JSON text. ``JsonRowSerializationSchema`` writes compact
JSON with the keys in field order, like Jackson.

Decoding is vectorised with ``pyarrow.json`` when the row holds only types whose Arrow reading is exact
(strings, booleans, integers, floating point, nested rows of these) and every record of the batch is a
well-formed object on one line that Arrow reads without a type conflict; any other batch goes record by
record, so errors are attributed to the record that caused them. See ``/work/notes/json-formats.md``.
"""
import base64
import datetime
import decimal
import json as _json
import logging
import math
import re

from pyflink_compat.common.serialization import DeserializationSchema, SerializationSchema
from pyflink_compat.common.serialization import _java_class_name as java_class_name
from pyflink_compat.common.typeinfo import (BasicArrayTypeInfo, BasicTypeInfo, ListTypeInfo, MapTypeInfo,
                                             ObjectArrayTypeInfo, PrimitiveArrayTypeInfo, RowTypeInfo,
                                             TypeInformation, Types)
from pyflink_compat.common.types import _java_str
from pyflink_compat.datastream.formats._casts import check_scalar
from pyflink_compat.util.exceptions import illegal_argument
from pyflink_compat.util.json_strings import quote as _quote

__all__ = ['JsonRowDeserializationSchema', 'JsonRowSerializationSchema']

_SECTION = "formats"
log = logging.getLogger(__name__)


class JsonDeserializationError(IOError):
    """Java's ``IOException("Failed to deserialize JSON '<text>'.")`` with its cause."""

    def __init__(self, text: str, cause: BaseException):
        self.text = text
        self.cause = cause
        super().__init__("java.io.IOException: Failed to deserialize JSON '%s'. Caused by: %s" % (text, cause))


class _JavaError(Exception):
    """A conversion failure, described like the Java exception Flink raises."""

    def __init__(self, java_class, message):
        super().__init__("%s: %s" % (java_class, message))


def _nfe(text):
    return _JavaError("java.lang.NumberFormatException", 'For input string: "%s"' % text)


def _class_cast(node_kind, target):
    return _JavaError("java.lang.ClassCastException", "%s cannot be cast to %s" % (node_kind, target))


# -- JSON nodes -------------------------------------------------------------------------------------
# Parsed with Python's json module: objects are dicts (the last duplicate key wins, like Jackson),
# arrays lists, text str, integers int, floating point numbers _Float (double, or BigDecimal when the
# row holds a BIG_DEC: Flink then parses floating point numbers as BigDecimal), null None.

class _Float(object):
    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value          # float, or decimal.Decimal (trailing zeros stripped, like Jackson)


_JAVA_WS = "".join(chr(i) for i in range(33))       # what Java's String.trim() removes


def _kind(node):
    if isinstance(node, dict):
        return "ObjectNode"
    if isinstance(node, list):
        return "ArrayNode"
    if isinstance(node, str):
        return "TextNode"
    if isinstance(node, bool):
        return "BooleanNode"
    if isinstance(node, _Float):
        return "DoubleNode" if isinstance(node.value, float) else "DecimalNode"
    if isinstance(node, int):
        return "IntNode"
    return "NullNode"


def _as_text(node) -> str:
    """Jackson's ``JsonNode.asText()``."""
    if isinstance(node, str):
        return node
    if isinstance(node, bool):
        return "true" if node else "false"
    if isinstance(node, _Float):
        return _number_text(node.value)
    if isinstance(node, int):
        return str(node)
    if node is None:
        return "null"
    return ""                                    # containers


def _number_text(value):
    if isinstance(value, float):
        return java_double_str(value)
    return _java_decimal_str(value)


def _java_decimal_str(value: decimal.Decimal) -> str:
    return str(value)                            # Python's and Java's scientific-notation rules agree


def _to_json_text(node) -> str:
    """Jackson's ``JsonNode.toString()``: compact JSON."""
    if isinstance(node, dict):
        return "{" + ",".join(_quote(k) + ":" + _to_json_text(v) for k, v in node.items()) + "}"
    if isinstance(node, list):
        return "[" + ",".join(_to_json_text(v) for v in node) + "]"
    if isinstance(node, str):
        return _quote(node)
    return _as_text(node)




def _reject_constant(name):
    raise ValueError("Non-standard token '%s'" % name)


def _parse(message: bytes, big_decimal: bool):
    """The root node of one record, like Jackson's ``readTree`` (trailing content is ignored)."""
    text = bytes(message).decode("utf-8")
    decoder = _DECIMAL_DECODER if big_decimal else _DOUBLE_DECODER
    start = len(text) - len(text.lstrip(" \t\r\n"))
    if start == len(text):
        raise _class_cast("MissingNode", "ObjectNode")
    node, _ = decoder.raw_decode(text, start)
    return node


_DOUBLE_DECODER = _json.JSONDecoder(parse_float=lambda s: _Float(float(s)), parse_constant=_reject_constant)
_DECIMAL_DECODER = _json.JSONDecoder(parse_float=lambda s: _Float(_strip_zeros(decimal.Decimal(s))),
                                     parse_constant=_reject_constant)


def _strip_zeros(value: decimal.Decimal) -> decimal.Decimal:
    if value.is_zero():
        return decimal.Decimal(0)
    return value.normalize(decimal.Context(prec=max(len(value.as_tuple().digits), 1)))


# -- Java number text --------------------------------------------------------------------------------

def _java_float_format(digits: str, exponent: int, negative: bool) -> str:
    """Java's Double/Float.toString layout for shortest decimal ``0.digits * 10**exponent``."""
    sign = "-" if negative else ""
    digits = digits.rstrip("0") or "0"
    if -3 < exponent <= 7:                       # 1e-3 <= |x| < 1e7: plain notation
        if exponent <= 0:
            return sign + "0." + "0" * (-exponent) + digits
        integer = digits[:exponent].ljust(exponent, "0")
        fraction = digits[exponent:] or "0"
        return sign + integer + "." + fraction
    return sign + digits[0] + "." + (digits[1:] or "0") + "E" + str(exponent - 1)


def _shortest(text: str):
    """(digits, exponent) of a repr()-style positive number: value = 0.digits * 10**exponent."""
    d = decimal.Decimal(text)
    sign, digits, exp = d.as_tuple()
    digits = "".join(map(str, digits)).lstrip("0") or "0"
    return digits, len(digits) + exp if digits != "0" else 1


def java_double_str(value: float) -> str:
    """Java's ``Double.toString`` (shortest round-trip digits)."""
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    if value == 0:
        return "-0.0" if math.copysign(1.0, value) < 0 else "0.0"
    digits, exponent = _shortest(repr(abs(value)))
    return _java_float_format(digits, exponent, value < 0)


def java_float_str(value: float) -> str:
    """Java's ``Float.toString`` of the 32-bit float nearest to ``value``."""
    import numpy
    f = numpy.float32(value)
    if math.isnan(f) or math.isinf(f) or f == 0:
        return java_double_str(float(f))
    digits, exponent = _shortest(numpy.format_float_positional(abs(f), unique=True, trim="-"))
    return _java_float_format(digits, exponent, f < 0)


_JAVA_INT = re.compile(r"[+-]?[0-9]+\Z")
_JAVA_DOUBLE = re.compile(r"[+-]?(NaN|Infinity|((\d+\.?\d*|\.\d+)([eE][+-]?\d+)?)[fFdD]?)\Z")
_JAVA_HEX = re.compile(r"[+-]?0[xX]([0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)[pP][+-]?\d+[fFdD]?\Z")
_JAVA_DECIMAL = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\Z")


def _parse_java_int(text, low, high):
    if not _JAVA_INT.match(text):
        raise _nfe(text)
    value = int(text)
    if not low <= value <= high:
        if high in (127, 32767):
            raise _JavaError("java.lang.NumberFormatException",
                             'Value out of range. Value:"%s" Radix:10' % text)
        raise _nfe(text)
    return value


def _parse_java_double(text):
    """Java's ``Double.parseDouble`` (the text is trimmed first)."""
    trimmed = text.strip(_JAVA_WS)
    if _JAVA_DOUBLE.match(trimmed):
        body = trimmed.rstrip("fFdD") if not trimmed.endswith("Infinity") else trimmed
        if body.lstrip("+-") == "NaN":
            return float("nan")
        return float(body.replace("Infinity", "inf"))
    if _JAVA_HEX.match(trimmed):
        return float.fromhex(trimmed.rstrip("fFdD"))
    raise _nfe(trimmed)


# -- converters (TypeInformation -> function(node) -> Python value) ---------------------------------

_INT_RANGES = {"INT": (-2 ** 31, 2 ** 31 - 1), "LONG": (-2 ** 63, 2 ** 63 - 1)}


def _integer(low, high):
    def convert(node):
        if isinstance(node, int) and not isinstance(node, bool) and low <= node <= high:
            return node
        if isinstance(node, _Float):
            v = node.value
            if not (isinstance(v, float) and math.isnan(v)) and low <= v <= high:
                return int(v)                    # Jackson's asInt/asLong truncate
        return _parse_java_int(_as_text(node).strip(_JAVA_WS), low, high)
    return convert


def _small_integer(low, high):
    return lambda node: _parse_java_int(_as_text(node).strip(_JAVA_WS), low, high)


def _boolean(node):
    if isinstance(node, bool):
        return node
    return _as_text(node).strip(_JAVA_WS).lower() == "true"


def _string(node):
    return node if isinstance(node, str) else _to_json_text(node)


def _double(node):
    if isinstance(node, _Float) and isinstance(node.value, float):
        return node.value
    return _parse_java_double(_as_text(node))


def _float(node):
    import numpy
    return float(numpy.float32(_parse_java_double(_as_text(node))))


def _big_dec(node):
    if isinstance(node, _Float) and isinstance(node.value, decimal.Decimal):
        return node.value
    text = _as_text(node).strip(_JAVA_WS)
    if not _JAVA_DECIMAL.match(text):
        raise _JavaError("java.lang.NumberFormatException", "Character array is missing \"exponent\" mark 'e' "
                         "or 'E'." if text else "Zero length BigInteger")
    return decimal.Decimal(text)


def _big_int(node):
    if isinstance(node, int) and not isinstance(node, bool):
        return node
    text = _as_text(node).strip(_JAVA_WS)
    if not _JAVA_INT.match(text):
        raise _nfe(text)
    return int(text)


_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})\Z")
_TIME = r"(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?"
_TIMESTAMP = re.compile(r"(\d{4})-(\d{2})-(\d{2})T" + _TIME + r"Z\Z")
_TIME_ONLY = re.compile(_TIME + r"Z\Z")


def _parse_error(text, index=0):
    return _JavaError("java.time.format.DateTimeParseException",
                      "Text '%s' could not be parsed at index %d" % (text, index))


def _date(node):
    text = _as_text(node)
    m = _DATE.match(text)
    if not m:
        raise _parse_error(text)
    try:
        return datetime.date(*map(int, m.groups()))
    except ValueError as e:
        raise _parse_error(text) from e


def _timestamp_parts(text):
    m = _TIMESTAMP.match(text)
    if not m:
        raise _parse_error(text)
    y, mo, d, h, mi, s, frac = m.groups()
    try:
        return datetime.datetime(int(y), int(mo), int(d), int(h), int(mi), int(s),
                                 int((frac or "0").ljust(9, "0")[:6]))
    except ValueError as e:
        raise _parse_error(text) from e


def _timestamp(node):
    return _timestamp_parts(_as_text(node))


def _instant(node):
    from pyflink_compat.common.time import Instant
    moment = _timestamp_parts(_as_text(node)).replace(tzinfo=datetime.timezone.utc)
    epoch = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
    delta = moment - epoch
    return Instant(delta.days * 86400 + delta.seconds, delta.microseconds * 1000)


def _time(node):
    text = _as_text(node)
    m = _TIME_ONLY.match(text)
    if not m:
        raise _parse_error(text)
    h, mi, s, frac = m.groups()
    if frac and int(frac):
        raise _JavaError("java.lang.IllegalStateException", "Invalid time format. Only a time in UTC timezone "
                         "without milliseconds is supported yet.")
    try:
        return datetime.time(int(h), int(mi), int(s))
    except ValueError as e:
        raise _parse_error(text) from e


def _byte_array(node):
    if isinstance(node, str):
        try:
            return base64.b64decode(node, validate=True)
        except ValueError as e:
            raise _JavaError("java.lang.IllegalArgumentException", "Failed to decode VALUE_STRING as base64 "
                             "(MIME-NO-LINEFEEDS): %s" % e) from e
    return None


def _basic_converters():
    return [
        (Types.STRING(), _string), (Types.BOOLEAN(), _boolean),
        (Types.INT(), _integer(*_INT_RANGES["INT"])), (Types.LONG(), _integer(*_INT_RANGES["LONG"])),
        (Types.SHORT(), _small_integer(-2 ** 15, 2 ** 15 - 1)), (Types.BYTE(), _small_integer(-128, 127)),
        (Types.DOUBLE(), _double), (Types.FLOAT(), _float), (Types.BIG_DEC(), _big_dec),
        (Types.BIG_INT(), _big_int), (Types.SQL_DATE(), _date), (Types.SQL_TIME(), _time),
        (Types.SQL_TIMESTAMP(), _timestamp), (Types.INSTANT(), _instant),
    ]


def _same(a, b):
    return type(a) is type(b) and a == b


def _is_byte_array(type_info):
    return _same(type_info, Types.PRIMITIVE_ARRAY(Types.BYTE()))


def _converter(type_info, fail_on_missing, ignore_errors):
    """function(node) -> value for a non-null node of ``type_info``; null nodes are handled by callers."""
    for candidate, convert in _basic_converters():
        if _same(candidate, type_info):
            return convert
    if isinstance(type_info, RowTypeInfo):
        return _row_converter(type_info, fail_on_missing, ignore_errors)
    if _is_byte_array(type_info):
        return _byte_array
    if isinstance(type_info, (BasicArrayTypeInfo, ObjectArrayTypeInfo, ListTypeInfo, PrimitiveArrayTypeInfo)):
        element_type = type_info._element_type
        convert_element = _converter(element_type, fail_on_missing, ignore_errors)
        default = None
        if isinstance(type_info, PrimitiveArrayTypeInfo):          # Java primitive arrays: null -> 0
            default = False if _same(element_type, Types.BOOLEAN()) else (
                0.0 if _same(element_type, Types.DOUBLE()) or _same(element_type, Types.FLOAT()) else 0)

        def convert_array(node):
            if not isinstance(node, list):
                raise _class_cast(_kind(node), "ArrayNode")
            return [default if e is None else convert_element(e) for e in node]
        return convert_array
    if isinstance(type_info, MapTypeInfo):
        convert_key = _converter(type_info._key_type_info, fail_on_missing, ignore_errors)
        convert_value = _converter(type_info._value_type_info, fail_on_missing, ignore_errors)

        def convert_map(node):
            if not isinstance(node, dict):
                return {}                         # Jackson: a non-object node has no fields
            return {convert_key(k): None if v is None else convert_value(v) for k, v in node.items()}
        return convert_map
    from pyflink_compat.util.exceptions import UnsupportedFeatureError
    raise UnsupportedFeatureError("JSON fields of type %r" % (type_info,), _SECTION)


def _row_converter(type_info, fail_on_missing, ignore_errors):
    from pyflink_compat.common.types import Row
    names = type_info.get_field_names()
    converters = [_converter(t, fail_on_missing, ignore_errors) for t in type_info.get_field_types()]

    def convert_row(node):
        if not isinstance(node, dict):
            raise _class_cast(_kind(node), "ObjectNode")
        values = []
        for name, convert in zip(names, converters):
            if name not in node:
                if fail_on_missing:
                    raise _JavaError("java.lang.IllegalStateException", "Could not find field with name '%s'."
                                     % name)
                values.append(None)
                continue
            field = node[name]
            try:
                values.append(None if field is None else convert(field))
            except Exception:
                if not ignore_errors:
                    raise
                values.append(None)
        row = Row(*values)
        row.set_field_names(names)
        return row
    return convert_row


def _contains(type_info, predicate):
    if predicate(type_info):
        return True
    if isinstance(type_info, RowTypeInfo):
        return any(_contains(t, predicate) for t in type_info.get_field_types())
    if isinstance(type_info, (BasicArrayTypeInfo, ObjectArrayTypeInfo, ListTypeInfo, PrimitiveArrayTypeInfo)):
        return _contains(type_info._element_type, predicate)
    if isinstance(type_info, MapTypeInfo):
        return _contains(type_info._key_type_info, predicate) or _contains(type_info._value_type_info, predicate)
    return False


# Types whose pyarrow.json reading equals Flink's conversion for every input Arrow accepts without error.
def _arrow_exact(type_info):
    if isinstance(type_info, RowTypeInfo):
        return all(_arrow_exact(t) for t in type_info.get_field_types())
    return any(_same(type_info, t) for t in (Types.STRING(), Types.BOOLEAN(), Types.INT(), Types.LONG(),
                                             Types.SHORT(), Types.BYTE(), Types.DOUBLE()))


class JsonRowDeserializationSchema(DeserializationSchema):
    """
    Deserialization schema from JSON to Flink types.

    Deserializes a byte[] message as a JSON object and reads the specified fields.

    Failures during deserialization are forwarded as wrapped IOExceptions.
    """

    _FORMAT_NAME = "JSON"

    def __init__(self, j_deserialization_schema):
        super(JsonRowDeserializationSchema, self).__init__(j_deserialization_schema)
        type_info, self._fail_on_missing_field, self._ignore_parse_errors = j_deserialization_schema
        self._type_info = type_info
        self._big_decimal = _contains(type_info, lambda t: _same(t, Types.BIG_DEC()))
        self._convert = _row_converter(type_info, self._fail_on_missing_field, self._ignore_parse_errors)
        self._vectorised = _arrow_exact(type_info)
        self._skipped = 0

    @staticmethod
    def builder():
        """
        A static method to get a Builder for JsonRowDeserializationSchema.
        """
        return JsonRowDeserializationSchema.Builder()

    def produced_type(self):
        return self._type_info

    def deserialize(self, message: bytes):
        if message is None:
            return None
        try:
            node = _parse(message, self._big_decimal)
            if node is None:                       # the JSON text 'null': no record
                return None
            return self._convert(node)
        except Exception as e:
            if self._ignore_parse_errors:
                self._skipped += 1
                return None
            raise JsonDeserializationError(bytes(message).decode("utf-8", errors="replace"), e) from e

    def _take_skipped(self) -> int:
        """Records dropped as malformed since the last call (ignore_parse_errors)."""
        skipped, self._skipped = self._skipped, 0
        return skipped

    def _deserialize_arrow(self, array):
        if not self._vectorised or len(array) == 0:
            return None
        import pyarrow as pa
        import pyarrow.compute as pc
        import pyarrow.json as pj
        from pyflink_compat import codec
        # Lines, the non-standard NaN/Infinity tokens Arrow accepts and Jackson rejects, and an integer -0
        # (Flink: 0.0 for a DOUBLE, Arrow: -0.0) are left to the per-record path.
        if pc.any(pc.match_substring_regex(array, _NOT_VECTORISED)).as_py():
            return None
        wrapped = pc.binary_join_element_wise(b'{"r":', array, b'}\n', b"")
        import numpy
        offsets = numpy.frombuffer(wrapped.buffers()[1], dtype=numpy.int32)
        start, end = int(offsets[wrapped.offset]), int(offsets[wrapped.offset + len(wrapped)])
        data = wrapped.buffers()[2][start:end]
        target = codec.arrow_type(self._type_info)
        try:
            table = pj.read_json(pa.BufferReader(data),
                                 read_options=pj.ReadOptions(use_threads=False, block_size=max(1 << 20, len(data) + 1)),
                                 parse_options=pj.ParseOptions(
                                     explicit_schema=pa.schema([pa.field("r", target)]),
                                     unexpected_field_behavior="ignore"))
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError, pa.ArrowTypeError):
            return None
        if table.num_rows != len(array):
            return None
        rows = table.column("r").combine_chunks()
        if rows.null_count:
            return None                            # 'null' records are dropped: per-record path
        if self._fail_on_missing_field and _has_null_field(rows):
            return None                            # missing or null? let the per-record path decide
        return rows.cast(target)

    def __reduce__(self):
        return (JsonRowDeserializationSchema,
                ((self._type_info, self._fail_on_missing_field, self._ignore_parse_errors),))

    class Builder(object):
        """
        Builder for JsonRowDeserializationSchema.
        """

        def __init__(self):
            self._type_info = None
            self._fail_on_missing_field = False
            self._ignore_parse_errors = False

        def type_info(self, type_info: TypeInformation):
            """
            Creates a JSON deserialization schema for the given type information.

            :param type_info: Type information describing the result type. The field names of Row
                              are used to parse the JSON properties.
            """
            self._type_info = type_info
            return self

        def json_schema(self, json_schema: str):
            """
            Creates a JSON deserialization schema for the given JSON schema.

            :param json_schema: JSON schema describing the result type.
            """
            from pyflink_compat.datastream.formats._json_schema import row_type_of
            self._type_info = row_type_of(json_schema)
            return self

        def fail_on_missing_field(self):
            """
            Configures schema to fail if a JSON field is missing. A missing field is ignored and the
            field is set to null by default.
            """
            self._fail_on_missing_field = True
            return self

        def ignore_parse_errors(self):
            """
            Configures schema to fail when parsing json failed. An exception will be thrown when
            parsing json fails.
            """
            self._ignore_parse_errors = True
            return self

        def build(self):
            if self._type_info is None:
                raise AttributeError("'NoneType' object has no attribute 'get_java_type_info'")
            if not isinstance(self._type_info, RowTypeInfo):
                raise illegal_argument("Only RowTypeInfo is supported",
                                       "None.org.apache.flink.formats.json.JsonRowDeserializationSchema$Builder")
            if self._fail_on_missing_field and self._ignore_parse_errors:
                raise illegal_argument("JSON format doesn't support failOnMissingField and ignoreParseErrors "
                                       "are both true.")
            return JsonRowDeserializationSchema(
                (self._type_info, self._fail_on_missing_field, self._ignore_parse_errors))


_NOT_VECTORISED = r"[\r\n]|NaN|Infinity|-0[^.0-9eE]"


def _has_null_field(rows) -> bool:
    import pyarrow as pa
    for i in range(rows.type.num_fields):
        child = rows.field(i)
        if child.null_count:
            return True
        if pa.types.is_struct(child.type) and _has_null_field(child):
            return True
    return False


# -- serialization ----------------------------------------------------------------------------------

def _writer(type_info):
    """function(value) -> JSON text, for a non-null value of ``type_info``; a value of another Java class than
    the type's fails as Flink's cast does (``_casts``)."""
    write = _unchecked_writer(type_info)
    if not isinstance(type_info, BasicTypeInfo):
        return write

    def checked(v):
        cast_error = check_scalar(v, type_info, java_class_name)
        if cast_error is not None:
            raise _JavaError("java.lang.ClassCastException", cast_error)
        return write(v)
    return checked


def _unchecked_writer(type_info):
    if _same(type_info, Types.STRING()) or _same(type_info, Types.CHAR()):
        return lambda v: _quote(str(v))
    if _same(type_info, Types.BOOLEAN()):
        return lambda v: "true" if v else "false"
    if any(_same(type_info, t) for t in (Types.INT(), Types.LONG(), Types.SHORT(), Types.BYTE(), Types.BIG_INT())):
        return lambda v: str(int(v))
    if _same(type_info, Types.DOUBLE()) or _same(type_info, Types.FLOAT()):
        text = java_double_str if _same(type_info, Types.DOUBLE()) else java_float_str

        def write_floating(v):
            v = float(v)
            return '"%s"' % text(v) if math.isnan(v) or math.isinf(v) else text(v)
        return write_floating
    if _same(type_info, Types.BIG_DEC()):
        def write_decimal(v):
            return str(v if isinstance(v, decimal.Decimal) else decimal.Decimal(v))   # BigDecimal.toString()
        return write_decimal
    if _same(type_info, Types.SQL_DATE()):
        return lambda v: '"%s"' % v.isoformat()
    if _same(type_info, Types.SQL_TIME()):
        return lambda v: '"%sZ"' % v.replace(microsecond=0).isoformat()
    if _same(type_info, Types.SQL_TIMESTAMP()):
        def write_timestamp(v):
            text = v.strftime("%Y-%m-%dT%H:%M:%S")
            if v.microsecond:
                text += ("." + "%06d" % v.microsecond).rstrip("0")
            return '"%sZ"' % text
        return write_timestamp
    if _same(type_info, Types.INSTANT()):
        def write_instant(v):
            moment = datetime.datetime(1970, 1, 1) + datetime.timedelta(seconds=v.seconds)
            text = moment.strftime("%Y-%m-%dT%H:%M:%S")
            nanos = v.nanos
            if nanos:
                text += "." + ("%03d" % (nanos // 1000000) if nanos % 1000000 == 0 else
                               "%06d" % (nanos // 1000) if nanos % 1000 == 0 else "%09d" % nanos)
            return '"%sZ"' % text
        return write_instant
    if isinstance(type_info, RowTypeInfo):
        return _row_writer(type_info)
    if _is_byte_array(type_info):
        return lambda v: '"%s"' % base64.b64encode(bytes(v)).decode("ascii")
    if isinstance(type_info, (BasicArrayTypeInfo, ObjectArrayTypeInfo, ListTypeInfo, PrimitiveArrayTypeInfo)):
        write_element = _writer(type_info._element_type)
        return lambda v: "[" + ",".join("null" if e is None else write_element(e) for e in v) + "]"
    if isinstance(type_info, MapTypeInfo):
        write_value = _writer(type_info._value_type_info)
        return lambda v: "{" + ",".join(_quote(_java_key(k)) + ":" + ("null" if x is None else write_value(x))
                                        for k, x in v.items()) + "}"
    from pyflink_compat.util.exceptions import UnsupportedFeatureError
    raise UnsupportedFeatureError("JSON fields of type %r" % (type_info,), _SECTION)


def _java_key(key):
    if isinstance(key, bool):
        return "true" if key else "false"
    return str(key)


def _row_writer(type_info):
    from pyflink_compat.common.types import Row
    names = type_info.get_field_names()
    writers = [_writer(t) for t in type_info.get_field_types()]
    keys = [_quote(n) + ":" for n in names]

    def write_row(row):
        if isinstance(row, dict):
            values = [row.get(n) for n in names]
        else:
            # By position, whatever the row's own field names, as Flink's converter reads a Row: a schema of
            # fewer fields (a typical Kafka key schema) takes the row's first fields under its own names.
            values = list(row)
            if len(values) < len(names):
                raise _JavaError("java.lang.ArrayIndexOutOfBoundsException", "Index %d out of bounds for length %d"
                                 % (len(values), len(values)))
        return "{" + ",".join(k + ("null" if v is None else w(v))
                              for k, v, w in zip(keys, values, writers)) + "}"
    return write_row


class JsonRowSerializationSchema(SerializationSchema):
    """
    Serialization schema that serializes an object of Flink types into a JSON bytes. Serializes the
    input Flink object into a JSON string and converts it into byte[].

    Result byte[] message can be deserialized using JsonRowDeserializationSchema.
    """

    def __init__(self, j_serialization_schema):
        super(JsonRowSerializationSchema, self).__init__(j_serialization_schema)
        self._type_info = j_serialization_schema
        self._write = _writer(j_serialization_schema)

    @staticmethod
    def builder():
        return JsonRowSerializationSchema.Builder()

    def serialize(self, value) -> bytes:
        if value is None:
            return b"{}"                       # Flink writes an empty object node for a null row
        try:
            return self._write(value).encode("utf-8")
        except _JavaError as e:
            raise _JavaError("java.lang.RuntimeException", "Could not serialize row '%s'. Make sure that the "
                             "schema matches the input. (%s)" % (_java_str(value), e)) from None

    def _serialize_arrow(self, array):
        """The whole column at once (``_vectorised.json_serialize``); None for types not vectorised."""
        import pyarrow as pa
        from pyflink_compat.datastream.formats._vectorised import json_serialize
        try:
            return json_serialize(array, self._type_info)
        except pa.ArrowException:
            log.debug("JSON column not serialized vectorised", exc_info=True)
            return None

    def __reduce__(self):
        return (JsonRowSerializationSchema, (self._type_info,))

    class Builder(object):
        """
        Builder for JsonRowSerializationSchema.
        """

        def __init__(self):
            self._type_info = None

        def with_type_info(self, type_info: TypeInformation):
            """
            Creates a JSON serialization schema for the given type information.

            :param type_info: Type information describing the result type. The field names of Row
                              are used to parse the JSON properties.
            """
            self._type_info = type_info
            return self

        def build(self):
            if self._type_info is None:
                raise TypeError("Typeinfo should be set.")
            return JsonRowSerializationSchema(self._type_info)

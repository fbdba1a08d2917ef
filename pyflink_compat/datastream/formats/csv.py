"""CSV format (mirror of ``pyflink.datastream.formats.csv``).

``CsvRowDeserializationSchema`` and ``CsvRowSerializationSchema`` are provided,
with all their builder options and Flink 2.3's behaviour (flink-csv's legacy row
schemas on Jackson CSV), measured against real PyFlink:

* one record = one CSV line; fields go by position into the ``RowTypeInfo``;
  only the first line of a record is read (what follows a line break is ignored);
* the serializer emits the row followed by the line delimiter (``\\n`` by default);
  strings are quoted when they contain a character below max(field delimiter,
  quote) + 1 (below ``-`` with the defaults) or the escape character (a backslash
  when none is set); numbers and booleans are never quoted; a quote inside a
  quoted value is doubled, the escape character is doubled;
* null is written as the null literal (empty by default); when reading, a field
  equal to the null literal (quoted or not) is null; an empty null literal
  means "no null literal" (an empty STRING field is ``''``, an empty INT field is
  a parse error);
* arrays and nested rows (one level) are one field whose elements are separated
  by the array element delimiter (``;``); ``BYTE`` primitive arrays are Base64;
* ``ignore_parse_errors``: a field that does not convert becomes null, missing
  fields become null, and a record that cannot be parsed at all (bad UTF-8,
  unclosed quote, too many fields, no content) is skipped.

``CsvSchema``, ``CsvSchemaBuilder``, ``CsvReaderFormat`` and ``CsvBulkWriters`` belong
to the file-system connectors, which pyflink-compat does not provide: they raise
``UnsupportedFeatureError`` (see ``porting_guide/README.md#formats``).
"""
import base64
import datetime
import decimal
import re
import struct

from pyflink_compat.common.serialization import DeserializationSchema, SerializationSchema
from pyflink_compat.common.serialization import _java_class_name as java_class_name
from pyflink_compat.common.typeinfo import (BasicArrayTypeInfo, ListTypeInfo, MapTypeInfo, ObjectArrayTypeInfo,
                                            PrimitiveArrayTypeInfo, RowTypeInfo, TypeInformation, Types)
from pyflink_compat.common.types import Row, _java_str
from pyflink_compat.datastream.formats._casts import check_scalar
from pyflink_compat.util.exceptions import (JavaStyleError, UnsupportedFeatureError, illegal_argument,
                                            null_pointer, unsupported)

__all__ = ['CsvSchema', 'CsvSchemaBuilder', 'CsvReaderFormat', 'CsvBulkWriters',
           'CsvRowDeserializationSchema', 'CsvRowSerializationSchema']

_SECTION = "formats"


class CsvSchema(object):
    """Schema of CSV files (file-system connectors): not provided."""

    __init__ = unsupported("CsvSchema", _SECTION, "CSV files need the file-system connectors")
    builder = staticmethod(unsupported("CsvSchema.builder", _SECTION, "CSV files need the file-system connectors"))
    size = unsupported("CsvSchema.size", _SECTION)


class CsvSchemaBuilder(object):
    """Builder of CsvSchema (file-system connectors): not provided."""

    __init__ = unsupported("CsvSchemaBuilder", _SECTION, "CSV files need the file-system connectors")


class CsvReaderFormat(object):
    """Stream format reading CSV files: not provided (file-system connectors)."""

    __init__ = unsupported("CsvReaderFormat", _SECTION, "CSV files need the file-system connectors")
    for_schema = staticmethod(unsupported("CsvReaderFormat.for_schema", _SECTION,
                                          "CSV files need the file-system connectors"))
    text_line_format = staticmethod(unsupported("CsvReaderFormat.text_line_format", _SECTION))


class CsvBulkWriters(object):
    """Bulk writer factories writing CSV files: not provided (file-system connectors)."""

    __init__ = unsupported("CsvBulkWriters", _SECTION, "CSV files need the file-system connectors")
    for_schema = staticmethod(unsupported("CsvBulkWriters.for_schema", _SECTION,
                                          "CSV files need the file-system connectors"))


# -- type support -----------------------------------------------------------------------------------

_INT_RANGES = None


def _int_ranges():
    global _INT_RANGES
    if _INT_RANGES is None:
        _INT_RANGES = [(Types.BYTE(), 8), (Types.SHORT(), 16), (Types.INT(), 32), (Types.LONG(), 64)]
    return _INT_RANGES


def _same(a, b):
    return type(a) is type(b) and a == b


def _is_byte_array(t):
    return isinstance(t, PrimitiveArrayTypeInfo) and t == Types.PRIMITIVE_ARRAY(Types.BYTE())


def _is_array(t):
    return isinstance(t, (BasicArrayTypeInfo, ObjectArrayTypeInfo))


_SCALARS = None


def _scalar_types():
    global _SCALARS
    if _SCALARS is None:
        _SCALARS = [Types.STRING(), Types.BOOLEAN(), Types.BYTE(), Types.SHORT(), Types.INT(), Types.LONG(),
                    Types.FLOAT(), Types.DOUBLE(), Types.BIG_DEC(), Types.BIG_INT(), Types.SQL_DATE(),
                    Types.SQL_TIME(), Types.SQL_TIMESTAMP()]
    return _SCALARS


def _is_scalar(t):
    return any(_same(t, s) for s in _scalar_types())


_JAVA_PRIMITIVES = {"Boolean": "boolean", "Byte": "byte", "Short": "short", "Integer": "int", "Long": "long",
                    "Float": "float", "Double": "double", "Character": "char"}


def _java_type_name(t):
    """How Java's TypeInformation.toString() shows ``t`` (as far as the messages below need)."""
    if isinstance(t, RowTypeInfo):
        return "Row(%s)" % ", ".join("%s: %s" % (n, _java_type_name(ft))
                                     for n, ft in zip(t.get_field_names(), t.get_field_types()))
    if isinstance(t, PrimitiveArrayTypeInfo):
        element = _java_type_name(t._element_type)
        return "%s[]" % _JAVA_PRIMITIVES.get(element, element)
    if isinstance(t, ListTypeInfo):
        return "List<%s>" % _java_type_name(t._element_type)
    if isinstance(t, MapTypeInfo):
        return "Map<%s, %s>" % (_java_type_name(t._key_type_info), _java_type_name(t._value_type_info))
    if isinstance(t, (BasicArrayTypeInfo, ObjectArrayTypeInfo)):
        return "%s<%s>" % (type(t).__name__, _java_type_name(t._element_type))
    if _same(t, Types.CHAR()):
        return "Character"
    if _same(t, Types.SQL_DATE()):
        return "Date"
    if _same(t, Types.SQL_TIME()):
        return "Time"
    if _same(t, Types.SQL_TIMESTAMP()):
        return "Timestamp"
    return repr(t)


def _check_type(t, name, nested):
    if _is_scalar(t) or _is_byte_array(t):
        return
    if _is_array(t) or isinstance(t, RowTypeInfo):
        if nested:
            raise illegal_argument("Only simple types are supported in the second level nesting of fields '%s' "
                                   "but was: %s" % (name, _java_type_name(t)), "<init>")
        for ft in ([t._element_type] if _is_array(t) else t.get_field_types()):
            _check_type(ft, name, True)
        return
    if _same(t, Types.INSTANT()):
        raise UnsupportedFeatureError("CSV field '%s' of type INSTANT" % name, _SECTION)
    raise illegal_argument("Unsupported type information '%s' for field '%s'." % (_java_type_name(t), name),
                           "<init>")


def _check_row_type(type_info, method):
    if type_info is None:
        raise TypeError("Type information must not be None")
    if not isinstance(type_info, RowTypeInfo):
        raise illegal_argument("Row type information expected.", method)
    for name, t in zip(type_info.get_field_names(), type_info.get_field_types()):
        _check_type(t, name, False)


def _check_char(value, what):
    if not isinstance(value, str) or len(value) != 1:
        raise TypeError("%s must be a single character (a Java char), got %r" % (what, value))
    return value


# -- Java-compatible text of values ---------------------------------------------------------------

def _shortest_digits(x, single):
    """(sign, digits, exponent): x = digits * 10**exponent, shortest digits that read back as x."""
    if single:
        for p in range(1, 10):
            text = "%.*e" % (p - 1, x)
            if struct.unpack("f", struct.pack("f", float(text)))[0] == x:
                break
    else:
        text = repr(x)
    sign, digits, exponent = decimal.Decimal(text).as_tuple()
    digits = list(digits)
    while len(digits) > 1 and digits[-1] == 0:
        digits.pop()
        exponent += 1
    return sign, "".join(map(str, digits)), exponent


def _java_float_text(x, single=False):
    """Java's Float/Double.toString (shortest digits, Java's notation)."""
    if x != x:
        return "NaN"
    if x in (float("inf"), float("-inf")):
        return "Infinity" if x > 0 else "-Infinity"
    if x == 0:
        return "-0.0" if struct.pack(">d", x)[0] & 0x80 else "0.0"
    sign, digits, exponent = _shortest_digits(x, single)
    point = len(digits) + exponent          # position of the decimal point from the left of digits
    prefix = "-" if sign else ""
    if 1e-3 <= abs(x) < 1e7:
        if point <= 0:
            return prefix + "0." + "0" * (-point) + digits
        if point >= len(digits):
            return prefix + digits + "0" * (point - len(digits)) + ".0"
        return prefix + digits[:point] + "." + digits[point:]
    return prefix + digits[0] + "." + (digits[1:] or "0") + "E" + str(point - 1)


def _java_timestamp_text(value):
    text = value.strftime("%Y-%m-%d %H:%M:%S")
    fraction = ("%06d" % value.microsecond).rstrip("0") or "0"
    return text + "." + fraction


_JAVA_INT = re.compile(r"[+-]?[0-9]+\Z")
_JAVA_FLOAT = re.compile(r"[+-]?(NaN|Infinity|(([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?)[fFdD]?)\Z")
_SQL_DATE = re.compile(r"([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})\Z")
_SQL_TIMESTAMP = re.compile(r"([0-9]{4})-([0-9]{1,2})-([0-9]{1,2}) ([0-9]{1,2}):([0-9]{2}):([0-9]{2})(\.[0-9]{0,9})?\Z")


class _FieldError(ValueError):
    """A field that does not convert (Java: NumberFormatException, IllegalArgumentException ...)."""


def _java_trim(text):
    return text.strip("".join(chr(c) for c in range(33)))


def _parse_int(text, bits):
    trimmed = _java_trim(text)
    if not _JAVA_INT.match(trimmed):
        raise _FieldError('java.lang.NumberFormatException: For input string: "%s"' % trimmed)
    value = int(trimmed)
    if not -(1 << (bits - 1)) <= value < (1 << (bits - 1)):
        if bits < 32:
            raise _FieldError('java.lang.NumberFormatException: Value out of range. Value:"%s" Radix:10'
                              % trimmed)
        raise _FieldError('java.lang.NumberFormatException: For input string: "%s"' % trimmed)
    return value


def _parse_float(text, single):
    trimmed = _java_trim(text)
    if not _JAVA_FLOAT.match(trimmed):
        raise _FieldError('java.lang.NumberFormatException: For input string: "%s"' % trimmed)
    body = trimmed.rstrip("fFdD") if not trimmed.endswith("Infinity") else trimmed
    body = body.replace("Infinity", "inf")
    value = float(body)
    if single:
        try:
            value = struct.unpack("f", struct.pack("f", value))[0]
        except OverflowError:
            value = float("inf") if value > 0 else float("-inf")
    return value


def _parse_scalar(text, t):
    if _same(t, Types.STRING()):
        return text
    if _same(t, Types.BOOLEAN()):
        return _java_trim(text).lower() == "true"
    for candidate, bits in _int_ranges():
        if _same(t, candidate):
            return _parse_int(text, bits)
    if _same(t, Types.DOUBLE()):
        return _parse_float(text, False)
    if _same(t, Types.FLOAT()):
        return _parse_float(text, True)
    if _same(t, Types.BIG_DEC()):
        trimmed = _java_trim(text)
        if not re.match(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?\Z", trimmed):
            raise _FieldError("java.lang.NumberFormatException: Character array is missing \"exponent\" mark "
                              "'e' or 'E'." if trimmed else "java.lang.NumberFormatException: empty String")
        return decimal.Decimal(trimmed)
    if _same(t, Types.BIG_INT()):
        trimmed = _java_trim(text)
        if not _JAVA_INT.match(trimmed):
            raise _FieldError('java.lang.NumberFormatException: For input string: "%s"' % trimmed)
        return int(trimmed)
    if _same(t, Types.SQL_DATE()):
        match = _SQL_DATE.match(text)
        try:
            if not match:
                raise ValueError
            return datetime.date(*map(int, match.groups()))
        except ValueError:
            raise _FieldError("java.lang.IllegalArgumentException") from None
    if _same(t, Types.SQL_TIME()):
        parts = text.split(":")
        if len(parts) != 3:
            raise _FieldError("java.lang.IllegalArgumentException")
        numbers = [_parse_int(p, 32) if _JAVA_INT.match(p) else None for p in parts]
        if None in numbers:
            raise _FieldError('java.lang.NumberFormatException: For input string: "%s"' % text)
        seconds = (numbers[0] * 3600 + numbers[1] * 60 + numbers[2]) % 86400     # java.sql.Time is lenient
        return datetime.time(seconds // 3600, seconds // 60 % 60, seconds % 60)
    if _same(t, Types.SQL_TIMESTAMP()):
        match = _SQL_TIMESTAMP.match(text)
        try:
            if not match:
                raise ValueError
            parts = [int(g) for g in match.groups()[:6]]
            fraction = (match.group(7) or ".")[1:]
            micros = int((fraction + "000000")[:6])
            return datetime.datetime(*parts, micros)
        except ValueError:
            raise _FieldError("java.lang.IllegalArgumentException: Timestamp format must be "
                              "yyyy-mm-dd hh:mm:ss[.fffffffff]") from None
    if _is_byte_array(t):
        try:
            return base64.b64decode(_java_trim(text), validate=True)
        except ValueError as e:
            raise _FieldError("java.lang.IllegalArgumentException: %s" % e) from None
    raise _FieldError("unsupported type %r" % (t,))


# -- the CSV line tokenizer (Jackson CSV's rules as observed) ---------------------------------------

class _ParseError(ValueError):
    """The record is not CSV the schema can read (the whole record fails)."""


_ESCAPES = {"n": "\n", "r": "\r", "t": "\t", "0": "\0"}


def _tokenize(text, sep, quote, escape, allow_comments):
    """The fields of the first record in ``text``: a list of (value, was_quoted)."""
    n = len(text)
    pos = 0
    if allow_comments:
        while pos < n:
            j = pos
            while j < n and text[j] == " ":
                j += 1
            if j < n and text[j] in "#\r\n":         # a comment line, or a blank line
                while j < n and text[j] not in "\r\n":
                    j += 1
                if j < n and text[j] == "\r" and j + 1 < n and text[j + 1] == "\n":
                    j += 1
                pos = j + 1
                continue
            break
    if pos >= n:
        raise _ParseError("No content to map due to end-of-input")
    fields = []
    while True:
        buf = []
        if quote is not None and pos < n and text[pos] == quote:
            pos += 1
            while True:
                if pos >= n:
                    raise _ParseError("Missing closing quote for value")
                c = text[pos]
                if c == quote:
                    if pos + 1 < n and text[pos + 1] == quote:
                        buf.append(quote)
                        pos += 2
                        continue
                    pos += 1
                    break
                if escape is not None and c == escape:
                    if pos + 1 >= n:
                        raise _ParseError("Unexpected end-of-input after the escape character")
                    buf.append(_ESCAPES.get(text[pos + 1], text[pos + 1]))
                    pos += 2
                    continue
                buf.append(c)
                pos += 1
            while pos < n and text[pos] in " \t" and text[pos] != sep:
                pos += 1
            if pos < n and text[pos] not in (sep, "\r", "\n"):
                raise _ParseError("Expected separator (%r) or end-of-line after a quoted value" % sep)
            fields.append(("".join(buf), True))
        else:
            while pos < n:
                c = text[pos]
                if c == sep or c == "\r" or c == "\n":
                    break
                if escape is not None and c == escape:
                    if pos + 1 >= n:
                        raise _ParseError("Unexpected end-of-input after the escape character")
                    buf.append(_ESCAPES.get(text[pos + 1], text[pos + 1]))
                    pos += 2
                    continue
                buf.append(c)
                pos += 1
            fields.append(("".join(buf), False))
        if pos < n and text[pos] == sep:
            pos += 1
            continue
        return fields


# -- schemas --------------------------------------------------------------------------------------

class _FormatError(JavaStyleError):
    """A run-time format failure: ``java.io.IOException: Failed to deserialize CSV row '...'.`` and its cause,
    on one line so that the job's failure message (which shows the first line) names it."""

    def __str__(self):
        return "%s: %s" % (self.java_class, self.message)


def _deser_error(message, cause):
    return _FormatError("java.io.IOException", "Failed to deserialize CSV row '%s'. Caused by: %s"
                        % (message, cause), "deserialize")


class CsvRowDeserializationSchema(DeserializationSchema):
    """Deserialization schema from CSV lines to ``Row``s of a ``RowTypeInfo``.

    Build it with ``CsvRowDeserializationSchema.Builder(type_info)...build()``.
    """

    def __init__(self, j_deserialization_schema):
        # PyFlink passes the Java schema; ours passes the builder's settings.
        super().__init__(j_deserialization_schema)
        settings = j_deserialization_schema
        if not isinstance(settings, dict):
            raise TypeError("CsvRowDeserializationSchema is created with "
                            "CsvRowDeserializationSchema.Builder(type_info).build()")
        self._type_info = settings["type_info"]
        self._field_delimiter = settings["field_delimiter"]
        self._allow_comments = settings["allow_comments"]
        self._array_delimiter = settings["array_element_delimiter"]
        self._quote = settings["quote_character"]
        self._escape = settings["escape_character"]
        self._null_literal = settings["null_literal"]
        self._ignore_parse_errors = settings["ignore_parse_errors"]
        self._skipped = 0

    def produced_type(self):
        return self._type_info

    def _is_null(self, text):
        return self._null_literal != "" and text == self._null_literal

    def _convert_field(self, text, t):
        """One top-level field (``None`` is a missing field)."""
        if text is None:
            if self._ignore_parse_errors:
                return None
            raise _FieldError("java.lang.NullPointerException")
        if isinstance(t, RowTypeInfo) or _is_array(t):
            # Jackson reads a blank array field (spaces only) as no elements
            elements = [] if _java_trim(text) == "" else text.split(self._array_delimiter)
            if isinstance(t, RowTypeInfo):
                if not elements:
                    return None
                types = t.get_field_types()
                self._check_arity(len(types), len(elements))
                values = [self._convert_scalar(e, ft) for e, ft in zip(elements, types)]
                values += [None] * (len(types) - len(values))
                row = Row(*values)
                row.set_field_names(t.get_field_names())
                return row
            return [self._convert_scalar(e, t._element_type) for e in elements]
        return self._convert_scalar(text, t)

    def _convert_scalar(self, text, t):
        if self._is_null(text):
            return None
        try:
            return _parse_scalar(text, t)
        except _FieldError:
            if self._ignore_parse_errors:
                return None
            raise

    def _check_arity(self, expected, actual):
        if expected != actual and not self._ignore_parse_errors:
            raise _FieldError("java.lang.RuntimeException: Row length mismatch. %d fields expected but was %d."
                              % (expected, actual))

    def _deserialize_text(self, text):
        fields = _tokenize(text, self._field_delimiter, self._quote, self._escape, self._allow_comments)
        types = self._type_info.get_field_types()
        if len(fields) > len(types):
            raise _ParseError("Too many entries: expected at most %d (value #%d (%d chars) \"%s\")"
                              % (len(types), len(types), len(fields[len(types)][0]), fields[len(types)][0]))
        self._check_arity(len(types), len(fields))
        values = []
        for i, t in enumerate(types):
            text_i = fields[i][0] if i < len(fields) else None
            if text_i is not None and self._is_null(text_i) and not (isinstance(t, RowTypeInfo) or _is_array(t)):
                values.append(None)
                continue
            values.append(self._convert_field(text_i, t))
        row = Row(*values)
        row.set_field_names(self._type_info.get_field_names())
        return row

    def deserialize(self, message: bytes):
        if message is None:
            return None
        message = bytes(message)
        try:
            try:
                text = message.decode("utf-8")
            except UnicodeDecodeError as e:
                raise _ParseError("Invalid UTF-8 (%s)" % e) from None
            return self._deserialize_text(text)
        except (_ParseError, _FieldError) as e:
            if self._ignore_parse_errors:
                self._count_skipped()
                return None
            shown = message.decode("utf-8", errors="replace")
            raise _deser_error(shown, e) from None

    # -- vectorised decoding (the common simple case; anything unusual -> per record) --

    def _fast_kinds(self):
        """Per field "s" (STRING), "i<bits>", "d" (DOUBLE), "b" (BOOLEAN), or None when the schema or the
        options need the per-record path (escapes, comments, arrays, rows, other types)."""
        if self._escape is not None or self._allow_comments:
            return None
        kinds = []
        for t in self._type_info.get_field_types():
            if _same(t, Types.STRING()):
                kinds.append("s")
            elif _same(t, Types.DOUBLE()):
                kinds.append("d")
            elif _same(t, Types.BOOLEAN()):
                kinds.append("b")
            else:
                for candidate, bits in _int_ranges():
                    if _same(t, candidate):
                        kinds.append("i%d" % bits)
                        break
                else:
                    return None
        return kinds

    def _deserialize_arrow(self, array):
        """Decode a whole batch with Arrow compute when every record is one simple line (no quote
        character, no line break inside, the right number of fields, numbers Java would parse); else
        ``None``: the per-record path decodes the batch with exact errors and ignore_parse_errors."""
        kinds = self._fast_kinds()
        if kinds is None or len(array) == 0:
            return None
        import pyarrow as pa
        import pyarrow.compute as pc
        try:
            text = pc.cast(array, pa.string())
        except (pa.ArrowInvalid, pa.ArrowTypeError):
            return None
        text = pc.replace_substring_regex(text, pattern=r"(\r\n|\n|\r)\z", replacement="")
        if pc.any(pc.equal(pc.utf8_length(text), 0)).as_py():
            return None
        if pc.any(pc.match_substring_regex(text, pattern=r"[\r\n]")).as_py():
            return None
        if self._quote is not None and pc.any(pc.match_substring(text, pattern=self._quote)).as_py():
            return None
        parts = pc.split_pattern(text, pattern=self._field_delimiter)
        width = len(kinds)
        if not pc.all(pc.equal(pc.list_value_length(parts), width)).as_py():
            return None
        flat = pc.list_flatten(parts)
        rows = len(text)
        java_space = "".join(chr(c) for c in range(33))
        columns = []
        for i, kind in enumerate(kinds):
            column = pc.take(flat, pa.array(range(i, rows * width, width), pa.int64()))
            is_null = pc.equal(column, self._null_literal) if self._null_literal != "" else None
            if kind == "s":
                value = column
            elif kind == "b":
                value = pc.equal(pc.utf8_lower(pc.utf8_trim(column, characters=java_space)), "true")
            else:
                trimmed = pc.utf8_trim(column, characters=java_space)
                pattern = (r"^[+-]?[0-9]+$" if kind.startswith("i")
                           else r"^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$")
                valid = pc.match_substring_regex(trimmed, pattern=pattern)
                if is_null is not None:
                    valid = pc.or_(valid, is_null)
                if not pc.all(valid).as_py():
                    return None
                if is_null is not None:
                    trimmed = pc.if_else(is_null, pa.scalar(None, pa.string()), trimmed)
                if kind == "d":
                    try:
                        value = pc.cast(trimmed, pa.float64())
                    except (pa.ArrowInvalid, pa.ArrowTypeError):
                        return None
                else:
                    bits = int(kind[1:])
                    digits = pc.utf8_ltrim(trimmed, characters="+-0")
                    if pc.any(pc.greater(pc.utf8_length(digits), 19)).as_py():
                        return None
                    try:
                        wide = pc.cast(trimmed, pa.int64())
                    except (pa.ArrowInvalid, pa.ArrowTypeError):
                        return None
                    low, high = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
                    if pc.any(pc.or_(pc.less(wide, low), pc.greater(wide, high))).as_py():
                        return None
                    value = pc.cast(wide, {8: pa.int8(), 16: pa.int16(), 32: pa.int32(), 64: pa.int64()}[bits])
            if is_null is not None:
                value = pc.if_else(is_null, pa.scalar(None, value.type), value)
            columns.append(value)
        return pa.StructArray.from_arrays(columns, names=list(self._type_info.get_field_names()))

    _FORMAT_NAME = "CSV"

    def _count_skipped(self):
        self._skipped += 1

    def _take_skipped(self) -> int:
        """How many malformed records were skipped since the last call (the Kafka source logs one warning
        per read task with the total)."""
        count, self._skipped = self._skipped, 0
        return count

    def __repr__(self):
        return "CsvRowDeserializationSchema(%r)" % (self._type_info,)

    class Builder(object):
        """A builder for creating a CsvRowDeserializationSchema."""

        def __init__(self, type_info: TypeInformation):
            if type_info is None:
                raise TypeError("Type information must not be None")
            _check_row_type(type_info, "<init>")
            self._settings = {
                "type_info": type_info, "field_delimiter": ",", "allow_comments": False,
                "array_element_delimiter": ";", "quote_character": '"', "escape_character": None,
                "null_literal": "", "ignore_parse_errors": False,
            }

        def set_field_delimiter(self, delimiter: str):
            self._settings["field_delimiter"] = _check_char(delimiter, "The field delimiter")
            return self

        def set_allow_comments(self, allow_comments: bool):
            self._settings["allow_comments"] = bool(allow_comments)
            return self

        def set_array_element_delimiter(self, delimiter: str):
            if delimiter is None:
                raise null_pointer("Array element delimiter must not be null.", "setArrayElementDelimiter")
            self._settings["array_element_delimiter"] = str(delimiter)
            return self

        def set_quote_character(self, c: str):
            self._settings["quote_character"] = _check_char(c, "The quote character")
            return self

        def set_escape_character(self, c: str):
            self._settings["escape_character"] = _check_char(c, "The escape character")
            return self

        def set_null_literal(self, null_literal: str):
            if null_literal is None:
                raise null_pointer("Null literal must not be null.", "setNullLiteral")
            self._settings["null_literal"] = str(null_literal)
            return self

        def set_ignore_parse_errors(self, ignore_parse_errors: bool):
            self._settings["ignore_parse_errors"] = bool(ignore_parse_errors)
            return self

        def build(self):
            return CsvRowDeserializationSchema(dict(self._settings))


class CsvRowSerializationSchema(SerializationSchema):
    """Serialization schema from ``Row``s of a ``RowTypeInfo`` to CSV lines.

    Build it with ``CsvRowSerializationSchema.Builder(type_info)...build()``.
    """

    def __init__(self, j_csv_row_serialization_schema):
        super().__init__(j_csv_row_serialization_schema)
        settings = j_csv_row_serialization_schema
        if not isinstance(settings, dict):
            raise TypeError("CsvRowSerializationSchema is created with "
                            "CsvRowSerializationSchema.Builder(type_info).build()")
        self._type_info = settings["type_info"]
        self._field_delimiter = settings["field_delimiter"]
        self._line_delimiter = settings["line_delimiter"]
        self._array_delimiter = settings["array_element_delimiter"]
        self._quote = settings["quote_character"]
        self._escape = settings["escape_character"]
        self._null_literal = settings["null_literal"]
        # Jackson CSV's check: quote a value holding a character below max(separator, quote) + 1, or the escape
        # character (a backslash when none is set)
        self._min_safe = chr(max(ord(self._field_delimiter), ord(self._quote or "\0")) + 1)
        self._special = self._escape if self._escape is not None else "\\"

    def _needs_quotes(self, text):
        if self._quote is None:
            return False
        min_safe, special = self._min_safe, self._special
        return any(c < min_safe or c == special for c in text)

    def _quoted(self, text):
        if not self._needs_quotes(text):
            return text
        q = self._quote
        if self._escape is not None and self._escape != q:
            text = text.replace(self._escape, self._escape + self._escape)
        return q + text.replace(q, q + q) + q

    def _scalar_text(self, value, t):
        """(text, is_textual) of one non-null value; a value of another Java class than the type's fails as
        Flink's cast does (``_casts``)."""
        cast_error = check_scalar(value, t, java_class_name)
        if cast_error is not None:
            raise TypeError("java.lang.ClassCastException: " + cast_error)
        if _same(t, Types.STRING()):
            return str(value), True
        if _same(t, Types.BOOLEAN()):
            return ("true" if value else "false"), False
        for candidate, _ in _int_ranges():
            if _same(t, candidate):
                return str(int(value)), False
        if _same(t, Types.DOUBLE()):
            return _java_float_text(float(value)), False
        if _same(t, Types.FLOAT()):
            return _java_float_text(float(value), single=True), False
        if _same(t, Types.BIG_DEC()):
            return str(decimal.Decimal(value)), False
        if _same(t, Types.BIG_INT()):
            return str(int(value)), False
        if _same(t, Types.SQL_DATE()):
            if isinstance(value, datetime.datetime):
                value = value.date()
            return value.isoformat(), True
        if _same(t, Types.SQL_TIME()):
            return value.strftime("%H:%M:%S"), False
        if _same(t, Types.SQL_TIMESTAMP()):
            return _java_timestamp_text(value), True
        if _is_byte_array(t):
            return base64.b64encode(bytes(value)).decode("ascii"), True
        raise TypeError("unsupported type %r" % (t,))

    def _field_text(self, value, t):
        if value is None:
            return self._null_literal
        if isinstance(t, RowTypeInfo) or _is_array(t):
            if isinstance(t, RowTypeInfo):
                items = list(zip(_row_values(value, t), t.get_field_types()))
            else:
                items = [(v, t._element_type) for v in value]
            parts, textual = [], False
            for v, et in items:
                if v is None:
                    parts.append(self._null_literal)
                    continue
                text, is_text = self._scalar_text(v, et)
                parts.append(text)
                textual = textual or is_text
            joined = self._array_delimiter.join(parts)
            return self._quoted(joined) if textual else joined
        text, is_text = self._scalar_text(value, t)
        return self._quoted(text) if is_text else text

    def serialize(self, value) -> bytes:
        try:
            values = _row_values(value, self._type_info)
            parts = [self._field_text(v, t) for v, t in zip(values, self._type_info.get_field_types())]
        except Exception as e:
            # Java's message names the row as Row.toString() prints it (+I[a, 1]); the cause in brackets
            raise _FormatError("java.lang.RuntimeException", "Could not serialize row '%s'. (%s)"
                               % (_java_str(value), e), "serialize") from None
        return (self._field_delimiter.join(parts) + self._line_delimiter).encode("utf-8")

    def _serialize_arrow(self, array):
        """The whole column at once (``_vectorised.csv_serialize``); None for types or values not vectorised."""
        import pyarrow as pa
        from pyflink_compat.datastream.formats._vectorised import csv_serialize
        try:
            return csv_serialize(self, array)
        except pa.ArrowException:
            return None

    def __repr__(self):
        return "CsvRowSerializationSchema(%r)" % (self._type_info,)

    class Builder(object):
        """A builder for creating a CsvRowSerializationSchema."""

        def __init__(self, type_info: TypeInformation):
            if type_info is None:
                raise TypeError("Type information must not be None")
            _check_row_type(type_info, "<init>")
            self._settings = {
                "type_info": type_info, "field_delimiter": ",", "line_delimiter": "\n",
                "array_element_delimiter": ";", "quote_character": '"', "escape_character": None,
                "null_literal": "",
            }

        def set_field_delimiter(self, c: str):
            self._settings["field_delimiter"] = _check_char(c, "The field delimiter")
            return self

        def set_line_delimiter(self, delimiter: str):
            if delimiter is None:
                raise null_pointer("Delimiter must not be null.", "setLineDelimiter")
            if delimiter not in ("\n", "\r", "\r\n", ""):
                raise illegal_argument("Unsupported new line delimiter. Only \\n, \\r, \\r\\n, or empty string "
                                       "are supported.", "setLineDelimiter")
            self._settings["line_delimiter"] = delimiter
            return self

        def set_array_element_delimiter(self, delimiter: str):
            if delimiter is None:
                raise null_pointer("Delimiter must not be null.", "setArrayElementDelimiter")
            self._settings["array_element_delimiter"] = str(delimiter)
            return self

        def disable_quote_character(self):
            self._settings["quote_character"] = None
            return self

        def set_quote_character(self, c: str):
            self._settings["quote_character"] = _check_char(c, "The quote character")
            return self

        def set_escape_character(self, c: str):
            self._settings["escape_character"] = _check_char(c, "The escape character")
            return self

        def set_null_literal(self, s: str):
            if s is None:
                raise null_pointer("Null literal must not be null.", "setNullLiteral")
            self._settings["null_literal"] = str(s)
            return self

        def build(self):
            return CsvRowSerializationSchema(dict(self._settings))


def _row_values(value, type_info):
    names = type_info.get_field_names()
    # By position, whatever the row's own field names, as Flink's CSV writer reads a Row; it must have as
    # many fields as the schema.
    if isinstance(value, (Row, tuple, list)):
        values = list(value)
    else:
        raise TypeError("a Row of %r expected, got %r" % (type_info, value))
    if len(values) != len(names):
        raise TypeError("Row length mismatch. %d fields expected but was %d." % (len(names), len(values)))
    return values


def _stub_methods(cls, qualified, names):
    for name in names:
        setattr(cls, name, unsupported("%s.%s" % (qualified, name), _SECTION,
                                       "CSV files need the file-system connectors"))


_stub_methods(CsvSchemaBuilder, "CsvSchemaBuilder", (
    'build', 'add_array_column', 'add_boolean_column', 'add_number_column', 'add_string_column',
    'add_columns_from', 'clear_columns', 'set_allow_comments', 'set_any_property_name',
    'disable_array_element_separator', 'remove_array_element_separator', 'set_array_element_separator',
    'set_column_separator', 'disable_escape_char', 'set_escape_char', 'set_line_separator', 'set_null_value',
    'disable_quote_char', 'set_quote_char', 'set_skip_first_data_row', 'set_strict_headers', 'set_use_header',
    'size'))

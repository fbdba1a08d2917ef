"""Vectorised JSON / CSV row writers: a whole Arrow column of elements to one text per element.

Used by ``JsonRowSerializationSchema._serialize_arrow`` and ``CsvRowSerializationSchema._serialize_arrow``.
Each writer builds the text column by column with ``pyarrow.compute`` and returns exactly what the
per-record ``serialize()`` gives for every element (``None`` for a null element where serialize gives None).
Values whose text Arrow cannot produce identically are few and are formatted in Python, row by row, with
the per-record writers' own functions, then merged back (``replace_with_mask``):

* doubles/floats: Arrow's cast gives the same shortest round-trip digits as Python/numpy; the digits and
  the decimal exponent are taken from it and laid out as Java's ``Double/Float.toString`` (plain notation
  in [1e-3, 1e7), ``d.dddEn`` otherwise, ``.0`` on integral values, ``-0.0``, NaN/Infinity);
* BIG_DEC values (stored as text) that are not already in ``BigDecimal.toString()`` form;
* JSON strings with control characters other than ``\\b \\f \\n \\r \\t`` (written as ``\\uXXXX``);
* CSV FLOAT values that are powers of two outside [1e-3, 1e7) (the CSV writer's digit search may keep
  one more digit there).

Vectorised: STRING, CHAR (JSON), BOOLEAN, BYTE, SHORT, INT, LONG, FLOAT, DOUBLE, BIG_DEC, BIG_INT, SQL_DATE,
SQL_TIME, and rows of these (JSON: nested to any depth; CSV: the one nesting level CSV has), with every
CSV option. A writer returns ``None`` when the type is not vectorised (timestamps, INSTANT, arrays, lists,
maps, byte arrays) or the per-record path must report an error (CSV null rows, dates outside Python's
range, BIG_DEC texts that are not numbers): the caller then serializes per record.
"""
import decimal

import pyarrow as pa
import pyarrow.compute as pc

from pyflink_compat.common.typeinfo import RowTypeInfo, Types

_STRING = pa.string()
_NULL_STRING = pa.scalar(None, _STRING)


def _same(a, b):
    return type(a) is type(b) and a == b


def _is(type_info, *candidates):
    return any(_same(type_info, c) for c in candidates)


def _integer_types():
    return (Types.BYTE(), Types.SHORT(), Types.INT(), Types.LONG(), Types.BIG_INT())


def _join(parts):
    """Element-wise concatenation of string arrays and constant strings (no separator)."""
    return pc.binary_join_element_wise(*parts, "")


def _concat(*parts):
    return _join(list(parts))


def _mask_or_none(mask):
    """``mask`` with nulls as False, or None when it holds no True."""
    mask = pc.fill_null(mask, False)
    return mask if pc.any(mask).as_py() else None


def _patch(text, mask, source, per_value):
    """``text`` with the rows of ``mask`` replaced by ``per_value(v)`` of the Python values of ``source``."""
    if mask is None:
        return text
    values = pc.filter(source, mask).to_pylist()
    return pc.replace_with_mask(text, mask, pa.array([per_value(v) for v in values], _STRING))


def _column(array, type_info):
    """``array`` as one Arrow array of ``codec.arrow_type(type_info)`` (chunks combined; large or view
    strings, and fields declared not-nullable, as from Spark, cast), or None when its type is another."""
    from pyflink_compat import codec
    if isinstance(array, pa.ChunkedArray):
        array = array.combine_chunks()
    try:
        expected = codec.arrow_type(type_info)
    except Exception:                                   # a type streams cannot hold: not vectorised
        return None
    if array.type == expected:
        return array
    if _canonical(array.type) != expected:
        return None
    return array.cast(expected)


def _canonical(arrow_type):
    if pa.types.is_large_string(arrow_type) or pa.types.is_string_view(arrow_type):
        return _STRING
    if pa.types.is_large_binary(arrow_type) or pa.types.is_binary_view(arrow_type):
        return pa.binary()
    if pa.types.is_struct(arrow_type):
        return pa.struct([pa.field(f.name, _canonical(f.type)) for f in arrow_type])
    return arrow_type


# -- numbers --------------------------------------------------------------------------------------

def java_floating_text(values, per_value, extra_fallback=None):
    """Java's ``Double/Float.toString`` of a float64/float32 column ("NaN", "Infinity", "-Infinity"
    unquoted; nulls stay null). ``per_value(float) -> str`` formats the rows of ``extra_fallback`` and any
    row Arrow's text cannot be laid out from (none expected).

    Arrow's cast gives the shortest round-trip digits (as Python's repr / numpy do), in plain notation
    for every value in Java's plain range [1e-3, 1e7), where only ".0" is missing on integral values.
    The other rows (few, usually) are laid out as ``d.dddEn`` from the digits and exponent of Arrow's text.
    """
    signed = pc.cast(values, _STRING)
    wide = values if pa.types.is_float64(values.type) else pc.cast(values, pa.float64())
    magnitude = pc.abs(wide)
    # a double/float is >= 1e-3 exactly when its shortest digits are (1e-3's rounding is monotonic), so the
    # plain range can be told from the value
    plain = pc.or_(pc.equal(magnitude, 0.0),
                   pc.and_(pc.greater_equal(magnitude, 1e-3), pc.less(magnitude, 1e7)))
    result = pc.if_else(pc.match_substring(signed, "."), signed, _concat(signed, ".0"))
    odd = pc.and_(plain, pc.match_substring(signed, "e"))
    other = _mask_or_none(pc.invert(plain))              # E notation, NaN, infinities
    if other is not None:
        text, unexpected = _scientific(pc.filter(wide, other), pc.filter(signed, other))
        result = pc.replace_with_mask(result, other, text)
        if unexpected is not None:
            odd = pc.replace_with_mask(pc.fill_null(odd, False), other, unexpected)
    if extra_fallback is not None:
        odd = pc.or_(odd, extra_fallback)
    return _patch(result, _mask_or_none(odd), values, per_value)


_SHORTEST = r"^(?P<i>[0-9]+)(?:\.(?P<f>[0-9]+))?(?:e\+?(?P<x>-?[0-9]+))?$"


def _scientific(values, signed):
    """(Java's ``d.dddEn`` text, mask of rows that turn out to be in the plain range or None) of non-zero
    values outside [1e-3, 1e7), NaN and infinities, from Arrow's shortest text of each."""
    negative = pc.starts_with(signed, "-")
    text = pc.replace_substring_regex(signed, pattern="^-", replacement="")
    parts = pc.extract_regex(text, pattern=_SHORTEST)     # null for nan / inf
    integer, fraction, exponent = parts.field("i"), parts.field("f"), parts.field("x")
    exponent = pc.cast(pc.if_else(pc.equal(exponent, ""), "0", exponent), pa.int32())
    raw = _concat(integer, fraction)
    stripped = pc.utf8_ltrim(raw, characters="0")
    digits = pc.utf8_rtrim(stripped, characters="0")
    # value = 0.<digits> * 10 ** point
    point = pc.subtract(pc.add(pc.cast(pc.utf8_length(integer), pa.int32()), exponent),
                        pc.cast(pc.subtract(pc.utf8_length(raw), pc.utf8_length(stripped)), pa.int32()))
    rest = pc.utf8_slice_codeunits(digits, 1)
    body = _join([pc.utf8_slice_codeunits(digits, 0, 1), ".", pc.if_else(pc.equal(rest, ""), "0", rest), "E",
                  pc.cast(pc.subtract(point, 1), _STRING)])
    result = pc.if_else(negative, _concat("-", body), body)
    nan, infinite = pc.is_nan(values), pc.is_inf(values)
    result = pc.if_else(nan, "NaN", result)
    result = pc.if_else(infinite, pc.if_else(negative, "-Infinity", "Infinity"), result)
    unexpected = pc.or_(pc.equal(digits, ""), pc.and_(pc.greater(point, -3), pc.less_equal(point, 7)))
    return result, _mask_or_none(unexpected)


_CANONICAL_DECIMAL = r"^-?(0|[1-9][0-9]*)(\.[0-9]+)?$"
_SMALL_DECIMAL = r"^-?0\.000000"


def decimal_text(texts):
    """``str(Decimal(t))`` (= Java's ``BigDecimal.toString()`` here) of a column of decimal texts; None when
    a text is not a decimal number (the per-record path reports it)."""
    odd = pc.or_(pc.invert(pc.match_substring_regex(texts, _CANONICAL_DECIMAL)),
                 pc.match_substring_regex(texts, _SMALL_DECIMAL))
    try:
        return _patch(texts, _mask_or_none(odd), texts, lambda t: str(decimal.Decimal(t)))
    except (decimal.InvalidOperation, ValueError, TypeError):
        return None


def _integer_text(values):
    return pc.cast(values, _STRING)


def _date_text(values):
    """ISO dates; None when a date is outside Python's date range (the per-record path fails on it)."""
    if len(values) - values.null_count:
        low, high = pc.min_max(pc.cast(values, pa.int32())).values()
        if low.as_py() < -719162 or high.as_py() > 2932896:        # 0001-01-01 .. 9999-12-31
            return None
    return pc.cast(values, _STRING)


def _time_text(values):
    """HH:MM:SS (fractions of a second dropped); SQL_TIME is stored as microseconds of the day."""
    if pa.types.is_integer(values.type):
        values = pc.cast(values, pa.int64()).cast(pa.time64("us"))
    return pc.utf8_slice_codeunits(pc.cast(values, _STRING), 0, 8)


def _boolean_text(values):
    return pc.if_else(values, "true", "false")


# -- JSON -----------------------------------------------------------------------------------------

_JSON_NEEDS_ESCAPE = r'["\\\x{0}-\x{1f}\x{10000}-\x{10ffff}]'
# Escaped one by one (``util.json_strings.quote``): control characters without a short escape, characters beyond
# the BMP.
_JSON_OTHER_CONTROLS = r"[\x{0}-\x{7}\x{b}\x{e}-\x{1f}\x{10000}-\x{10ffff}]"
_JSON_NAMED_ESCAPES = [("\\", "\\\\"), ('"', '\\"'), ("\n", "\\n"), ("\r", "\\r"), ("\t", "\\t"),
                       ("\b", "\\b"), ("\f", "\\f")]


def json_string_text(strings):
    """Each string as a JSON string literal, exactly like ``util.json_strings.quote``; nulls stay null."""
    from pyflink_compat.util.json_strings import quote as _quote
    needs = _mask_or_none(pc.match_substring_regex(strings, _JSON_NEEDS_ESCAPE))
    if needs is not None:
        subset = pc.filter(strings, needs)
        fixed = subset
        for char, replacement in _JSON_NAMED_ESCAPES:
            fixed = pc.replace_substring(fixed, char, replacement)
        fixed = _concat('"', fixed, '"')
        others = _mask_or_none(pc.match_substring_regex(subset, _JSON_OTHER_CONTROLS))
        fixed = _patch(fixed, others, subset, _quote)
        quoted = _concat('"', strings, '"')
        return pc.replace_with_mask(quoted, needs, fixed)
    return _concat('"', strings, '"')


def _json_floating(values, single):
    from pyflink_compat.datastream.formats.json import java_double_str, java_float_str
    text = java_floating_text(values, java_float_str if single else java_double_str)
    special = pc.or_(pc.is_nan(values), pc.is_inf(values))
    if pc.any(special).as_py():
        text = pc.if_else(special, _concat('"', text, '"'), text)
    return text


def json_text(array, type_info):
    """The compact JSON text of each element of ``array`` (Arrow type ``codec.arrow_type(type_info)``),
    null for null elements; None when ``type_info`` is not vectorised."""
    if _is(type_info, Types.STRING(), Types.CHAR()):
        return json_string_text(array)
    if _is(type_info, Types.BOOLEAN()):
        return _boolean_text(array)
    if _is(type_info, *_integer_types()):
        return _integer_text(array)
    if _is(type_info, Types.DOUBLE()):
        return _json_floating(array, False)
    if _is(type_info, Types.FLOAT()):
        return _json_floating(array, True)
    if _is(type_info, Types.BIG_DEC()):
        return decimal_text(array)
    if _is(type_info, Types.SQL_DATE()):
        text = _date_text(array)
        return None if text is None else _concat('"', text, '"')
    if _is(type_info, Types.SQL_TIME()):
        return _concat('"', _time_text(array), 'Z"')
    if isinstance(type_info, RowTypeInfo):
        return _json_row_text(array, type_info)
    return None


def _json_row_text(array, type_info):
    from pyflink_compat.util.json_strings import quote as _quote
    names, types = type_info.get_field_names(), type_info.get_field_types()
    if not names or len(set(names)) != len(names):
        return None
    children = array.flatten()
    parts = []
    for i, (name, field_type, child) in enumerate(zip(names, types, children)):
        text = json_text(child, field_type)
        if text is None:
            return None
        parts.append(("{" if i == 0 else ",") + _quote(name) + ":")
        parts.append(pc.fill_null(text, "null") if text.null_count else text)
    parts.append("}")
    text = _join(parts)
    if array.null_count:
        text = pc.if_else(pc.is_valid(array), text, _NULL_STRING)
    return text


def json_serialize(array, type_info):
    """``JsonRowSerializationSchema._serialize_arrow``: UTF-8 JSON bytes per element, or None."""
    array = _column(array, type_info)
    if array is None:
        return None
    if len(array) == 0:
        return pa.array([], pa.binary())
    text = json_text(array, type_info)
    if text is None:
        return None
    if text.null_count:
        text = pc.fill_null(text, "{}")       # a null row: Flink writes an empty object node
    return pc.cast(text, pa.binary())


# -- CSV ------------------------------------------------------------------------------------------

def _char_class(chars_below, special):
    return r"[\x{0}-\x{%x}\x{%x}]" % (ord(chars_below) - 1, ord(special))


class _CsvWriter(object):
    """The per-record CSV writer's decisions for a whole column (the schema's options)."""

    def __init__(self, schema):
        self.schema = schema
        self.quote = schema._quote
        self.escape = schema._escape
        self.null_literal = schema._null_literal
        self.needs_quotes = _char_class(schema._min_safe, schema._special)

    def quoted(self, text, textual=None):
        """``schema._quoted`` of each text (only where ``textual``, a per-row mask, when given)."""
        if self.quote is None:
            return text
        needs = pc.match_substring_regex(text, self.needs_quotes)
        if textual is not None:
            needs = pc.and_(needs, textual)
        needs = _mask_or_none(needs)
        if needs is None:
            return text
        subset = pc.filter(text, needs)
        q = self.quote
        if self.escape is not None and self.escape != q:
            subset = pc.replace_substring(subset, self.escape, self.escape + self.escape)
        subset = pc.replace_substring(subset, q, q + q)
        return pc.replace_with_mask(text, needs, _concat(q, subset, q))

    def scalar_text(self, values, type_info):
        """(text with nulls, textual) of a column of scalars, or None when not vectorised."""
        from pyflink_compat.datastream.formats.csv import _java_float_text
        if _is(type_info, Types.STRING()):
            return values, True
        if _is(type_info, Types.BOOLEAN()):
            return _boolean_text(values), False
        if _is(type_info, *_integer_types()):
            return _integer_text(values), False
        if _is(type_info, Types.DOUBLE()):
            return java_floating_text(values, _java_float_text), False
        if _is(type_info, Types.FLOAT()):
            return java_floating_text(values, lambda v: _java_float_text(v, single=True),
                                      _powers_of_two(values)), False
        if _is(type_info, Types.BIG_DEC()):
            text = decimal_text(values)
            return (None if text is None else (text, False))
        if _is(type_info, Types.SQL_DATE()):
            text = _date_text(values)
            return (None if text is None else (text, True))
        if _is(type_info, Types.SQL_TIME()):
            return _time_text(values), False
        return None

    def field_text(self, values, type_info):
        """The text of one top-level field (null literal for nulls), or None when not vectorised."""
        if isinstance(type_info, RowTypeInfo):
            text = self.row_text(values, type_info)
        else:
            scalar = self.scalar_text(values, type_info)
            if scalar is None:
                return None
            text, textual = scalar
            if textual:
                text = self.quoted(text)
        if text is None:
            return None
        return pc.fill_null(text, self.null_literal) if text.null_count else text

    def row_text(self, values, type_info):
        """A nested row: its fields joined by the array element delimiter, quoted as one value when a
        non-null field is textual and the text needs quotes; null stays null."""
        types = type_info.get_field_types()
        if not types:
            return None
        texts, textual = [], None
        for child, field_type in zip(values.flatten(), types):
            scalar = self.scalar_text(child, field_type)
            if scalar is None:
                return None
            text, is_textual = scalar
            texts.append(pc.fill_null(text, self.null_literal) if text.null_count else text)
            if is_textual:
                present = pc.is_valid(child)
                textual = present if textual is None else pc.or_(textual, present)
        joined = pc.binary_join_element_wise(*texts, self.schema._array_delimiter) if len(texts) > 1 \
            else texts[0]
        if textual is not None:
            joined = self.quoted(joined, textual)
        if values.null_count:
            joined = pc.if_else(pc.is_valid(values), joined, _NULL_STRING)
        return joined


def _powers_of_two(values):
    """Rows whose float is +-2**k outside [1e-3, 1e7): the only floats whose shortest digits the CSV writer
    may lengthen (its digit search keeps the correctly rounded candidate; at a power of two a shorter one
    can exist below the value). Inside that range none of them differ (checked for every power of two)."""
    import numpy
    from pyflink_compat import codec
    floats = numpy.abs(codec.numpy_of(values).astype(numpy.float64))
    mantissa, _ = numpy.frexp(floats)
    with numpy.errstate(invalid="ignore"):
        return pa.array((mantissa == 0.5) & ((floats < 1e-3) | (floats >= 1e7)))


def csv_serialize(schema, array):
    """``CsvRowSerializationSchema._serialize_arrow``: one CSV line (bytes) per row, or None."""
    type_info = schema._type_info
    if not isinstance(type_info, RowTypeInfo):
        return None
    array = _column(array, type_info)
    if array is None:
        return None
    if array.null_count:
        return None                                   # serialize(None) fails: the per-record path reports it
    if len(array) == 0:
        return pa.array([], pa.binary())
    types = type_info.get_field_types()
    if not types:
        return None
    writer = _CsvWriter(schema)
    parts = []
    for i, (child, field_type) in enumerate(zip(array.flatten(), types)):
        text = writer.field_text(child, field_type)
        if text is None:
            return None
        if i:
            parts.append(schema._field_delimiter)
        parts.append(text)
    if schema._line_delimiter:
        parts.append(schema._line_delimiter)
    text = _join(parts) if len(parts) > 1 else parts[0]
    return pc.cast(text, pa.binary())

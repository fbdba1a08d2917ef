"""Flink SQL's JSON functions on a JSON text: JSON_VALUE, JSON_QUERY, JSON_EXISTS and IS JSON.

Flink reads the text with Jackson (integers as Java Integer / Long / BigInteger by size, other numbers as
BigDecimal) and applies a JsonPath: ``$``, ``.name``, ``['name']``, ``[index]``, in ``lax`` (the default) or
``strict`` mode. What Flink 2.3 gives, checked on PyFlink 2.3:

- JSON_VALUE: a scalar at the path is the result (a number as Java prints it: ``1E+2`` for 1e2, ``3.0E-10``);
  anything else (no value at the path, JSON null, an object or array, text that is no JSON, a path it cannot
  read) takes the ON ERROR behaviour (NULL by default, DEFAULT x, or ERROR with Flink's message); ON EMPTY
  never applies. RETURNING STRING (the default), INT (a JSON integer within 32 bits), DOUBLE (a JSON number with
  a fraction or exponent) or BOOLEAN; a value of another kind fails the job as Flink's cast does.
- JSON_QUERY: the JSON text of the object or array at the path (compact), NULL otherwise.
- JSON_EXISTS: whether the path has a value; IS JSON: whether the text is JSON.

And the functions making JSON text of SQL values (``writer``): JSON_OBJECT, JSON_ARRAY and JSON_STRING.
"""
import decimal
import json
import re
from typing import List, Optional, Tuple

RETURNING_TYPES = ("STRING", "INT", "DOUBLE", "BOOLEAN")

_MISSING = object()


class TableRuntimeException(Exception):
    """Flink's error of a JSON function that fails the job (ERROR ON ERROR, a RETURNING cast)."""


def _reject_constant(name):
    raise ValueError("Non-standard token '%s'" % name)


def parse(text: str):
    """The JSON value of ``text`` as Jackson reads it (integers as int, other numbers as Decimal); raises
    ValueError for text that is no JSON."""
    return json.loads(text, parse_float=decimal.Decimal, parse_constant=_reject_constant)


_STEP = re.compile(r"\.([A-Za-z_$][\w$]*)|\['((?:[^'\\]|\\.)*)'\]|\[(-?\d+)\]")


def parse_path(path: str) -> Tuple[str, Optional[List]]:
    """(mode, steps) of a JSON path: steps are names (str) and indexes (int); None when the path is not one of
    the definite forms read here (wildcards, filters, deep scans, ...: their results are lists, not scalars)."""
    text = path.strip()
    mode = "lax"
    for prefix in ("lax ", "strict "):
        if text.lower().startswith(prefix):
            mode, text = prefix.strip(), text[len(prefix):].strip()
            break
    if not text.startswith("$"):
        return mode, None
    steps, position = [], 1
    while position < len(text):
        match = _STEP.match(text, position)
        if match is None:
            return mode, None
        name, quoted, index = match.groups()
        steps.append(name if name is not None else quoted if quoted is not None else int(index))
        position = match.end()
    return mode, steps


def _bracket_path(steps) -> str:
    """A path as Jayway JsonPath writes it in its messages: ``$['a']['b'][0]``."""
    return "$" + "".join("[%d]" % step if isinstance(step, int) else "['%s']" % step for step in steps)


def find(document, steps):
    """The value at ``steps`` of a parsed document, or _MISSING."""
    value = document
    for step in steps:
        if isinstance(step, int):
            if not isinstance(value, list) or not -len(value) <= step < len(value):
                return _MISSING
            value = value[step]
        else:
            if not isinstance(value, dict) or step not in value:
                return _MISSING
            value = value[step]
    return value


def java_text(value) -> str:
    """A JSON value as Java's toString() of what Jackson made of it (Map and List texts for containers)."""
    if value is None:
        return "null"
    if value is True or value is False:
        return "true" if value else "false"
    if isinstance(value, decimal.Decimal):
        text = str(value)
        return text[1:] if value.is_zero() and text.startswith("-") else text    # BigDecimal has no -0
    if isinstance(value, dict):
        return "{%s}" % ", ".join("%s=%s" % (key, java_text(item)) for key, item in value.items())
    if isinstance(value, list):
        return "[%s]" % ", ".join(java_text(item) for item in value)
    return str(value)


def _is_scalar(value) -> bool:
    return value is not None and not isinstance(value, (dict, list))


class Behaviour:
    """What JSON_VALUE gives where it has no scalar: ``kind`` NULL, ERROR or DEFAULT (with ``default``, a
    function of the row's values)."""

    def __init__(self, kind: str = "NULL", default=None):
        self.kind, self.default = kind, default


def json_value(text, path: str, returning: str, on_error: Behaviour, values):
    """JSON_VALUE(text, path RETURNING returning ... ON ERROR) of one row (``values``: the row, for a DEFAULT
    expression)."""
    if text is None:
        return None
    mode, steps = parse_path(path)
    try:
        document = parse(text)
    except (ValueError, RecursionError) as error:
        return _on_error(on_error, values, "Failed to parse JSON: %s" % error)
    if steps is None:
        return _on_error(on_error, values, "Invalid JSON path: %s" % path)
    value = find(document, steps)
    if value is _MISSING:
        return _on_error(on_error, values, "No results for path: %s" % _bracket_path(steps))
    if not _is_scalar(value):
        return _on_error(on_error, values, "Strict jsonpath mode requires scalar value, and the actual value is: "
                                           "''%s''" % java_text(value))
    return _returned(value, returning)


def _on_error(behaviour: Behaviour, values, message: str):
    if behaviour.kind == "ERROR":
        raise TableRuntimeException(message)
    if behaviour.kind == "DEFAULT":
        return behaviour.default(values)
    return None


_JAVA_CLASS = {bool: "java.lang.Boolean", str: "java.lang.String", decimal.Decimal: "java.math.BigDecimal"}


def _java_class(value) -> str:
    if isinstance(value, int) and not isinstance(value, bool):
        return "java.lang.Integer" if -2 ** 31 <= value < 2 ** 31 else \
            "java.lang.Long" if -2 ** 63 <= value < 2 ** 63 else "java.math.BigInteger"
    return _JAVA_CLASS[type(value)]


def _returned(value, returning: str):
    """The scalar as the RETURNING type: STRING its Java text; INT, DOUBLE and BOOLEAN only a value Jackson made
    an Integer, a BigDecimal or a Boolean (Flink casts the object: another one fails the job)."""
    if returning == "STRING":
        return java_text(value)
    wanted = {"INT": "java.lang.Integer", "DOUBLE": "java.math.BigDecimal", "BOOLEAN": "java.lang.Boolean"}[returning]
    given = _java_class(value)
    if given != wanted:
        short = lambda name: name.rsplit(".", 1)[-1]
        raise TableRuntimeException("ClassCastException: class %s cannot be cast to class %s (JSON_VALUE ... "
                                    "RETURNING %s of a JSON %s)" % (given, wanted, returning, short(given)))
    return float(value) if returning == "DOUBLE" else value


def _located(text: str, path: str):
    """The value at ``path`` of the JSON ``text``; _MISSING where it has none, or the text or path cannot be
    read."""
    _, steps = parse_path(path)
    if steps is None:
        return _MISSING
    try:
        document = parse(text)
    except (ValueError, RecursionError):
        return _MISSING
    return find(document, steps)


def json_query(text, path: str):
    """JSON_QUERY(text, path): the compact JSON text of the object or array at the path, else NULL."""
    if text is None:
        return None
    value = _located(text, path)
    return _compact(value) if isinstance(value, (dict, list)) else None


def _compact(value) -> str:
    """JSON text without spaces, numbers as Jackson writes them back."""
    from pyflink_compat.util.json_strings import quote_in_text
    if isinstance(value, dict):
        return "{%s}" % ",".join("%s:%s" % (quote_in_text(key), _compact(item)) for key, item in value.items())
    if isinstance(value, list):
        return "[%s]" % ",".join(_compact(item) for item in value)
    if isinstance(value, str):
        return quote_in_text(value)
    return java_text(value)


def json_exists(text, path: str):
    """JSON_EXISTS(text, path): whether the path has a value (FALSE for text that is no JSON)."""
    if text is None:
        return None
    return _located(text, path) is not _MISSING


def is_json(text, kind: str = "VALUE"):
    """``text IS JSON [VALUE | SCALAR | ARRAY | OBJECT]``: FALSE for NULL."""
    if text is None:
        return False
    try:
        value = parse(text)
    except (ValueError, RecursionError):
        return False
    if kind == "OBJECT":
        return isinstance(value, dict)
    if kind == "ARRAY":
        return isinstance(value, list)
    if kind == "SCALAR":
        return not isinstance(value, (dict, list))
    return True


# -- JSON text of SQL values (JSON_OBJECT, JSON_ARRAY, JSON_STRING) ---------------------------------------------

class NotJsonType(Exception):
    """A type whose values Flink's JSON functions do not convert (its planner's CodeGenException)."""


def writer(sql_type):
    """The function giving the JSON text of a non-NULL value of ``sql_type``, as Flink's JSON functions build it
    (a Jackson tree written to a String): strings quoted, numbers as BigDecimal prints them (a DOUBLE through
    BigDecimal.valueOf: ``1.0E+20``), a TIMESTAMP as its ISO text, a ROW or MAP as an object of sorted keys, an
    ARRAY as an array; raises NotJsonType for another type."""
    from pyflink_compat.util.json_strings import quote_in_text
    name = sql_type.name
    if name == "STRING":
        return quote_in_text
    if name == "BOOLEAN":
        return lambda value: "true" if value else "false"
    if name in ("TINYINT", "SMALLINT", "INT", "BIGINT"):
        return lambda value: str(int(value))
    if name == "DECIMAL":
        return str
    if name in ("DOUBLE", "FLOAT"):
        return _double_text
    if name == "TIMESTAMP":
        return lambda value: quote_in_text(_iso_local_date_time(value))
    if name == "ARRAY":
        element = _nullable(writer(sql_type.element))
        return lambda value: "[%s]" % ",".join(element(each) for each in value)
    if name == "MAP" and sql_type.key.name == "STRING":
        element = _nullable(writer(sql_type.element))
        return lambda value: "{%s}" % ",".join("%s:%s" % (quote_in_text(key), element(value[key]))
                                               for key in sorted(value))
    if name == "ROW":
        fields = sorted((field, index, _nullable(writer(field_type)))
                        for index, (field, field_type) in enumerate(sql_type.fields))
        return lambda value: "{%s}" % ",".join("%s:%s" % (quote_in_text(field), write(value[index]))
                                               for field, index, write in fields)
    raise NotJsonType("Type '%s NOT NULL' is not scalar or cannot be converted into JSON."
                      % (sql_type.text()[:-len(" NOT NULL")] if not sql_type.nullable else sql_type.text()))


def _nullable(write):
    return lambda value: "null" if value is None else write(value)


def _double_text(value: float) -> str:
    """A DOUBLE as Flink's JSON functions write it: Java's BigDecimal.valueOf(value).toString() (Python's
    Decimal prints the same scientific form: ``1.0E+20``, ``0.000010``)."""
    from pyflink_compat.datastream.formats.json import java_double_str
    text = java_double_str(float(value))
    if text in ("NaN", "Infinity", "-Infinity"):
        raise TableRuntimeException("NumberFormatException: Character %s is neither a decimal digit number, "
                                    "decimal point, nor \"e\" notation exponential mark." % text[0])
    return "0.0" if float(value) == 0 else str(decimal.Decimal(text))      # BigDecimal has no -0.0


def _iso_local_date_time(value) -> str:
    """Java's ISO_LOCAL_DATE_TIME: seconds always, the fraction without trailing zeros."""
    text = value.strftime("%Y-%m-%dT%H:%M:%S")
    if value.microsecond:
        text += ("." + "%06d" % value.microsecond).rstrip("0")
    return text


# JSON_QUOTE and JSON_UNQUOTE ----------------------------------------------------------------------------
_QUOTE_ESCAPES = {'"': '\\"', "\\": "\\\\", "/": "\\/", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r",
                  "\t": "\\t"}
_UNQUOTE_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}


def json_quote(text: str) -> str:
    """JSON_QUOTE: the text in double quotes, '"', '\\', '/' and \\b \\f \\n \\r \\t escaped, every character
    beyond ASCII as \\u and the lower-case hex of its code point (at least four digits); other control characters
    as they are. As Flink's, it walks Java's characters: a character beyond the BMP is written as its code point
    ('\\u1f600') followed by its low surrogate ('\\ude00')."""
    from pyflink_compat.table.sql.string_functions import utf16_units
    units = utf16_units(text)
    out = ['"']
    for i, c in enumerate(units):
        if c in _QUOTE_ESCAPES:
            out.append(_QUOTE_ESCAPES[c])
        elif ord(c) > 0x7F:
            code = ord(c)
            if 0xD800 <= code <= 0xDBFF and i + 1 < len(units) and 0xDC00 <= ord(units[i + 1]) <= 0xDFFF:
                code = 0x10000 + ((code - 0xD800) << 10) + ord(units[i + 1]) - 0xDC00
            out.append("\\u%04x" % code)
        else:
            out.append(c)
    out.append('"')
    return "".join(out)


def _first_string_token_valid(text: str) -> bool:
    """Whether ``text`` (which starts with '"') starts with a JSON string Jackson reads: closed, no raw control
    character, only JSON's escapes (what follows it is not read)."""
    i = 1
    while i < len(text):
        c = text[i]
        if c == '"':
            return True
        if c < " ":
            return False
        if c == "\\":
            escaped = text[i + 1:i + 2]
            if escaped == "u":
                digits = text[i + 2:i + 6]
                if len(digits) < 4 or not all(d in "0123456789abcdefABCDEF" for d in digits):
                    return False
                i += 6
                continue
            if escaped not in _UNQUOTE_ESCAPES:
                return False
            i += 2
            continue
        i += 1
    return False


class _NotUnquoted(Exception):
    pass


def _java_hex(digits: str) -> int:
    """Java's Integer.parseInt(digits, 16) of \\u's four characters (a sign allowed)."""
    body = digits[1:] if digits[:1] in "+-" else digits
    if not body or not all(d in "0123456789abcdefABCDEF" for d in body):
        raise _NotUnquoted()
    return int(digits, 16) & 0xFFFF


def json_unquote(text: str) -> str:
    """JSON_UNQUOTE: a text in double quotes that starts with a valid JSON string (what follows that string is not
    checked: '"a" "b"' is one) without its outer quotes, the JSON escapes in between read (a lone backslash at
    the end stays); any other text as it is, and so is one with another backslash escape or \\u with no hex number.
    A \\u with fewer than four characters left fails the job, as Flink's (StringIndexOutOfBoundsException)."""
    from pyflink_compat.table.sql.string_functions import from_utf16_units, utf16_units
    from pyflink_compat.util.exceptions import JavaStyleError
    if len(text) < 2 or text[0] != '"' or text[-1] != '"' or not _first_string_token_valid(text):
        return text
    inner = utf16_units(text[1:-1])
    out, i = [], 0
    try:
        while i < len(inner):
            c = inner[i]
            if c != "\\" or i + 1 == len(inner):
                out.append(c)
                i += 1
                continue
            escaped = inner[i + 1]
            if escaped == "u":
                if i + 6 > len(inner):
                    raise JavaStyleError("java.lang.StringIndexOutOfBoundsException", "begin %d, end %d, length %d"
                                         % (i + 2, i + 6, len(inner)), "executeSql")
                out.append(chr(_java_hex(inner[i + 2:i + 6])))
                i += 6
                continue
            if escaped not in _UNQUOTE_ESCAPES:
                raise _NotUnquoted()
            out.append(_UNQUOTE_ESCAPES[escaped])
            i += 2
    except _NotUnquoted:
        return text
    return from_utf16_units("".join(out))

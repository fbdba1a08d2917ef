"""SQL values as Flink writes them: in the print connector's rows (Java's toString of the external types:
LocalDateTime for TIMESTAMP), in CAST(... AS STRING), and in the 'json' format (Flink SQL's JSON writing)."""
import datetime
import decimal
import functools
import json
import re

from pyflink_compat.common.types import _java_str
from pyflink_compat.util.json_strings import quote as _json_string

_SQL_TIMESTAMP = re.compile(r"^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?$")


def single_precision(value: float) -> float:
    """A FLOAT's value: the double nearest to the float nearest to ``value`` (a Java float, widened), so that
    CAST(f AS DOUBLE), sums and comparisons see what Flink's do; out of range: infinite, as a Java float."""
    import numpy
    with numpy.errstate(over="ignore"):
        return float(numpy.float32(value))


# Decimal arithmetic wide enough for two DECIMAL(38, s) operands; results are rounded to their type's scale
DECIMAL_CONTEXT = decimal.Context(prec=100, rounding=decimal.ROUND_HALF_UP, Emax=999999, Emin=-999999)


def decimal_of(value, precision: int, scale: int):
    """A DECIMAL(precision, scale)'s value (a Decimal of exactly ``scale`` digits after the point), rounded half up
    as Java's BigDecimal; None when its integer digits do not fit (Flink gives NULL on such an overflow)."""
    if not isinstance(value, decimal.Decimal):
        value = decimal.Decimal(repr(value)) if isinstance(value, float) else decimal.Decimal(value)
    if not value.is_finite():
        return None
    rounded = value.quantize(decimal.Decimal(1).scaleb(-scale), context=DECIMAL_CONTEXT)
    if rounded.is_zero():
        return rounded.copy_abs()            # BigDecimal has no -0.0
    if rounded.adjusted() >= precision - scale:
        return None
    return rounded


def decimal_text(value) -> str:
    """A DECIMAL as Flink's CAST(... AS STRING) and tableaus show it: its plain digits, no exponent (print lines
    use BigDecimal's toString, ``str`` of the value)."""
    return format(value, "f")


def parse_sql_timestamp(text: str) -> datetime.datetime:
    """``yyyy-MM-dd HH:mm:ss[.fraction]`` (the 'json' format's default, 'SQL'), to the microsecond."""
    match = _SQL_TIMESTAMP.match(text)
    if match is None:
        raise ValueError("Text '%s' could not be parsed" % text)
    *parts, fraction = match.groups()
    microsecond = int((fraction or "0").ljust(6, "0")[:6])
    return datetime.datetime(*map(int, parts), microsecond)


_PATTERN_LETTERS = {"yyyy": "%Y", "yy": "%y", "MM": "%m", "dd": "%d", "HH": "%H", "mm": "%M", "ss": "%S"}


def _pattern_pieces(pattern: str) -> list:
    """A Java DateTimeFormatter pattern in pieces: (a run of one letter, True) or (literal text, False), quoted
    literals unquoted ('' is a quote)."""
    pieces, position = [], 0
    while position < len(pattern):
        char = pattern[position]
        if char == "'":
            end, text = position + 1, ""
            while end < len(pattern):
                if pattern[end] == "'" and end + 1 < len(pattern) and pattern[end + 1] == "'":
                    text, end = text + "'", end + 2
                elif pattern[end] == "'":
                    break
                else:
                    text, end = text + pattern[end], end + 1
            pieces.append((text or "'", False))
            position = end + 1
        elif char.isalpha():
            end = position
            while end < len(pattern) and pattern[end] == char:
                end += 1
            pieces.append((pattern[position:end], True))
            position = end
        else:
            pieces.append((char, False))
            position += 1
    return pieces


def java_pattern_parser(pattern: str):
    """A parser of text in a Java DateTimeFormatter pattern (yyyy MM dd HH mm ss, S... for the fraction, quoted
    literals): returns a datetime, or None when the text does not match."""
    regex, groups = "", []
    for run, letters in _pattern_pieces(pattern):
        if not letters:
            regex += re.escape(run)
        elif run[0] == "S":
            regex += r"(\d{%d})" % len(run)
            groups.append("fraction")
        elif run in _PATTERN_LETTERS:
            regex += r"(\d{%d})" % (4 if run == "yyyy" else 2)
            groups.append(run)
        else:
            raise ValueError("The pattern letters '%s' of '%s' are not supported" % (run, pattern))
    compiled = re.compile(regex + "$")

    def parse(text: str):
        match = compiled.match(text)
        if match is None:
            return None
        fields = dict(zip(groups, match.groups()))
        try:
            year = int(fields["yyyy"]) if "yyyy" in fields else 2000 + int(fields["yy"]) if "yy" in fields else 1970
            return datetime.datetime(year, int(fields.get("MM", 1)), int(fields.get("dd", 1)),
                                     int(fields.get("HH", 0)), int(fields.get("mm", 0)), int(fields.get("ss", 0)),
                                     int(fields.get("fraction", "0").ljust(6, "0")[:6]))
        except ValueError:
            return None
    return parse


_EPOCH = datetime.datetime(1970, 1, 1)


def utc_of_epoch_ms(epoch_ms: int) -> datetime.datetime:
    """The UTC date-time of epoch milliseconds (a TIMESTAMP_LTZ's value)."""
    return _EPOCH + datetime.timedelta(milliseconds=epoch_ms)


_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December")
_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def _pattern_field(run: str, value: datetime.datetime) -> str:
    """One run of a pattern letter (``yyyy``, ``MM``, ``SSS``, ...) of a Java DateTimeFormatter pattern."""
    letter, width = run[0], len(run)
    if letter in "yu":
        return "%02d" % (value.year % 100) if width == 2 else "%0*d" % (width, value.year)
    if letter == "M" and width >= 3:
        return _MONTHS[value.month - 1][:3] if width == 3 else _MONTHS[value.month - 1]
    if letter == "E":
        return _DAYS[value.weekday()] if width >= 4 else _DAYS[value.weekday()][:3]
    if letter == "a":
        return "AM" if value.hour < 12 else "PM"
    if letter == "S":
        return _fraction_digits(value).ljust(9, "0")[:width]
    numbers = {"M": value.month, "d": value.day, "H": value.hour, "h": (value.hour % 12) or 12, "k": value.hour or 24,
               "K": value.hour % 12, "m": value.minute, "s": value.second, "D": value.timetuple().tm_yday}
    if letter not in numbers:
        raise ValueError("The pattern letter '%s' is not supported" % letter)
    return "%0*d" % (width, numbers[letter])


@functools.lru_cache(maxsize=64)
def java_pattern_formatter(pattern: str):
    """A formatter of date-times in a Java DateTimeFormatter pattern (DATE_FORMAT's): letters in runs, quoted
    literals, anything else as it is."""
    pieces = _pattern_pieces(pattern)
    for run, letters in pieces:
        if letters:
            _pattern_field(run, datetime.datetime(2000, 1, 1))      # an unsupported letter fails here, not per row

    def format_value(value: datetime.datetime) -> str:
        return "".join(_pattern_field(piece, value) if letters else piece for piece, letters in pieces)
    return format_value


def local_of_utc(value: datetime.datetime) -> datetime.datetime:
    """A UTC date-time as a local date-time of the session time zone: the process's (util/session_zone.py sets
    it to 'table.local-time-zone' while a job's work runs)."""
    return value.replace(tzinfo=datetime.timezone.utc).astimezone().replace(tzinfo=None)


def utc_of_local(value: datetime.datetime) -> datetime.datetime:
    return value.astimezone(datetime.timezone.utc).replace(tzinfo=None)


def machine_zone_id() -> str:
    """This machine's time zone by name, as Java's ZoneId.systemDefault() gives it."""
    import os
    import time
    configured = os.environ.get("TZ", "").lstrip(":")
    if configured:
        return configured
    target = os.path.realpath("/etc/localtime")
    if "zoneinfo/" in target:
        return target.split("zoneinfo/", 1)[1]
    return time.tzname[0]


def instant_text(value: datetime.datetime) -> str:
    """Java's Instant.toString() of a UTC date-time: seconds always, the fraction in 3, 6 or 9 digits, 'Z'."""
    text = value.strftime("%Y-%m-%dT%H:%M:%S")
    if value.microsecond:
        text += "." + (_fraction_digits(value)[:3] if value.microsecond % 1000 == 0 else _fraction_digits(value))
    return text + "Z"


def _fraction_digits(value: datetime.datetime) -> str:
    return "%06d" % value.microsecond


def local_date_time_text(value: datetime.datetime) -> str:
    """Java's LocalDateTime.toString(): seconds only when not zero, the fraction in 3, 6 or 9 digits."""
    text = value.strftime("%Y-%m-%dT%H:%M")
    if value.second or value.microsecond:
        text += ":%02d" % value.second
    if value.microsecond:
        text += "." + (_fraction_digits(value)[:3] if value.microsecond % 1000 == 0 else _fraction_digits(value))
    return text


def timestamp_cast_text(value: datetime.datetime, precision: int) -> str:
    """CAST(ts AS STRING): the fraction always with the type's precision."""
    text = value.strftime("%Y-%m-%d %H:%M:%S")
    if precision:
        text += "." + _fraction_digits(value).ljust(9, "0")[:precision]
    return text


def json_timestamp_text(value: datetime.datetime) -> str:
    """The 'json' format's TIMESTAMP: the fraction without its trailing zeros."""
    text = value.strftime("%Y-%m-%d %H:%M:%S")
    fraction = _fraction_digits(value).rstrip("0")
    return text + ("." + fraction if fraction else "")


def printed(value, sql_type, null_text: str = "null") -> str:
    """One field of a print connector row (an array's elements as Java's toString shows them)."""
    if value is None:
        return null_text
    name = sql_type.name
    if name == "ARRAY":
        return "[%s]" % ", ".join(null_text if each is None else printed(each, sql_type.element, null_text)
                                  for each in value)
    if name == "ROW":
        return "+I[%s]" % ", ".join(printed(each, field, null_text) for each, (_, field) in zip(value, sql_type.fields))
    if name == "MAP":
        return "{%s}" % ", ".join("%s=%s" % (printed(key, sql_type.key, null_text),
                                             printed(each, sql_type.element, null_text))
                                  for key, each in value.items())
    if name == "DECIMAL":
        return str(value)                   # DecimalData's toString: BigDecimal's (0E-13)
    if name == "DATE":
        return value.isoformat()
    if value is not None and sql_type.name == "TIMESTAMP":
        return local_date_time_text(value)
    if value is not None and sql_type.name == "TIMESTAMP_LTZ":
        return instant_text(value)
    if value is not None and sql_type.name == "FLOAT":
        from pyflink_compat.datastream.formats.json import java_float_str
        return java_float_str(value)
    return _java_str(value)


def cast_text(value, sql_type) -> str:
    """CAST(value AS STRING) of a DECIMAL, DATE or nested value (a ROW as ``(ann, NULL)``), as the tableau shows
    them too."""
    name = sql_type.name
    if name == "ROW":
        return "(%s)" % ", ".join("NULL" if each is None else cast_text(each, field)
                                  for each, (_, field) in zip(value, sql_type.fields))
    if name == "ARRAY":
        return "[%s]" % ", ".join("NULL" if each is None else cast_text(each, sql_type.element) for each in value)
    if name == "MAP":
        return "{%s}" % ", ".join("%s=%s" % ("NULL" if key is None else cast_text(key, sql_type.key),
                                             "NULL" if each is None else cast_text(each, sql_type.element))
                                  for key, each in value.items())
    if name == "DECIMAL":
        return decimal_text(value)
    return printed(value, sql_type, "NULL")


def row_text(kind: str, values, sql_types) -> str:
    """The print connector's line of a row: ``+I[1, abc, 2.0]``."""
    return "%s[%s]" % (kind, ", ".join(printed(value, sql_type) for value, sql_type in zip(values, sql_types)))


def _json_value(value, sql_type) -> str:
    if value is None:
        return "null"
    name = sql_type.name
    if name == "BOOLEAN":
        return "true" if value else "false"
    if name in ("DOUBLE", "FLOAT"):
        from pyflink_compat.datastream.formats.json import java_double_str, java_float_str
        return (java_float_str if name == "FLOAT" else java_double_str)(value)
    if name == "TIMESTAMP":
        return json.dumps(json_timestamp_text(value))
    if name == "TIMESTAMP_LTZ":
        return json.dumps(json_timestamp_text(value) + "Z")
    if name == "STRING":
        return _json_string(value)
    if name == "DATE":
        return '"%s"' % value.isoformat()
    if name == "ROW":
        return json_row_writer([field_name for field_name, _ in sql_type.fields],
                               [field for _, field in sql_type.fields])(value)
    if name == "MAP":
        return "{" + ",".join(_json_string(printed(key, sql_type.key)) + ":" +
                              _json_value(each, sql_type.element) for key, each in value.items()) + "}"
    if name == "ARRAY":
        return "[" + ",".join(_json_value(each, sql_type.element) for each in value) + "]"
    if name == "DECIMAL":    # Flink's JSON writer strips the trailing zeros (100.00 -> 1E+2, 0.00 -> 0)
        return str(value.normalize(DECIMAL_CONTEXT))
    return str(value)


def json_text(names, values, sql_types) -> str:
    """A row as the 'json' format writes it: ``{"id":1,"name":"ann","amount":2.0}``."""
    return json_row_writer(names, sql_types)(values)


def json_row_writer(names, sql_types):
    """``json_text`` for rows of these columns, the field names quoted once."""
    fields = [(_json_string(name) + ":", _json_writer(sql_type))
              for name, sql_type in zip(names, sql_types)]

    def text(values) -> str:
        return "{" + ",".join([prefix + ("null" if value is None else write(value))
                               for (prefix, write), value in zip(fields, values)]) + "}"
    return text


def _json_writer(sql_type):
    """The JSON text of a non-NULL value of the type (``_json_value``)."""
    name = sql_type.name
    if name in ("INT", "BIGINT", "SMALLINT", "TINYINT"):
        return str
    if name == "TIMESTAMP":          # digits, '-', ':', ' ' and '.': nothing to escape
        return lambda value: '"' + json_timestamp_text(value) + '"'
    if name == "STRING":
        return _json_string
    return lambda value: _json_value(value, sql_type)


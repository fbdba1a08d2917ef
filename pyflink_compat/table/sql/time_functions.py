"""Flink SQL's date-time functions: EXTRACT and its shorthands (YEAR(t), HOUR(t), ...), TIMESTAMPADD,
TIMESTAMPDIFF, FLOOR / CEIL of a date-time to a unit, CURRENT_DATE and CONVERT_TZ, with Flink's result types.

Values are a ``datetime.datetime`` (a TIMESTAMP: local wall-clock time; a TIMESTAMP_LTZ: the instant in UTC) or a
``datetime.date`` (a DATE). A TIMESTAMP_LTZ is read in the session time zone, as Flink reads it, and a result
of that type goes back to UTC."""
import calendar
import datetime
from typing import Callable

from pyflink_compat.table.sql.catalog import SECTION, SqlType
from pyflink_compat.util.exceptions import UnsupportedFeatureError

_DATE_TIMES = ("DATE", "TIMESTAMP", "TIMESTAMP_LTZ")
_MICROS = {"MICROSECOND": 1, "MILLISECOND": 1_000, "SECOND": 1_000_000, "MINUTE": 60_000_000,
           "HOUR": 3_600_000_000, "DAY": 86_400_000_000, "WEEK": 7 * 86_400_000_000}
_MONTHS = {"MONTH": 1, "QUARTER": 3, "YEAR": 12}
_SUB_DAY = ("HOUR", "MINUTE", "SECOND", "MILLISECOND", "MICROSECOND")
# the spellings Flink's parser takes for a unit (SQL_TSI_* are JDBC's)
_UNIT_NAMES = {"DOW": "DOW", "DOY": "DOY", "SQL_TSI_YEAR": "YEAR", "SQL_TSI_QUARTER": "QUARTER",
               "SQL_TSI_MONTH": "MONTH", "SQL_TSI_WEEK": "WEEK", "SQL_TSI_DAY": "DAY", "SQL_TSI_HOUR": "HOUR",
               "SQL_TSI_MINUTE": "MINUTE", "SQL_TSI_SECOND": "SECOND", "FRAC_SECOND": "MICROSECOND"}


class MonthInterval:
    """A year-month interval's value (INTERVAL 'n' YEAR / MONTH): a number of months. Added to or taken from a
    DATE or a TIMESTAMP by the calendar, the day kept within the month (2024-02-29 + 1 YEAR = 2025-02-28)."""
    __slots__ = ("months",)

    def __init__(self, months: int):
        self.months = months

    def __radd__(self, point):
        if isinstance(point, datetime.date):
            return add_months(point, self.months)
        return NotImplemented

    def __rsub__(self, point):
        if isinstance(point, datetime.date):
            return add_months(point, -self.months)
        return NotImplemented

    def __add__(self, other):
        if isinstance(other, MonthInterval):
            return MonthInterval(self.months + other.months)
        return self.__radd__(other)

    def __sub__(self, other):
        if isinstance(other, MonthInterval):
            return MonthInterval(self.months - other.months)
        return NotImplemented

    def __mul__(self, factor):
        if isinstance(factor, int):
            return MonthInterval(self.months * factor)
        return NotImplemented

    __rmul__ = __mul__

    def __neg__(self):
        return MonthInterval(-self.months)

    def __eq__(self, other):
        return isinstance(other, MonthInterval) and other.months == self.months

    def __hash__(self):
        return hash(("months", self.months))

    def __lt__(self, other):
        return self.months < other.months

    def __repr__(self):
        return "MonthInterval(%d)" % self.months


def _date_time(value) -> datetime.datetime:
    return value if isinstance(value, datetime.datetime) else datetime.datetime(value.year, value.month, value.day)


FIELDS = {
    "YEAR": lambda v: v.year,
    "QUARTER": lambda v: (v.month - 1) // 3 + 1,
    "MONTH": lambda v: v.month,
    "WEEK": lambda v: v.isocalendar()[1],
    "DAY": lambda v: v.day,
    "DOY": lambda v: v.timetuple().tm_yday,
    "DOW": lambda v: v.isoweekday() % 7 + 1,              # Sunday is 1
    "ISODOW": lambda v: v.isoweekday(),                  # Monday is 1
    "ISOYEAR": lambda v: v.isocalendar()[0],
    "HOUR": lambda v: _date_time(v).hour,
    "MINUTE": lambda v: _date_time(v).minute,
    "SECOND": lambda v: _date_time(v).second,
    "MILLISECOND": lambda v: _date_time(v).microsecond // 1000,
    "MICROSECOND": lambda v: _date_time(v).microsecond,
    "NANOSECOND": lambda v: _date_time(v).microsecond * 1000,
    "EPOCH": lambda v: calendar.timegm(_date_time(v).timetuple()),
    "DECADE": lambda v: v.year // 10,
    "CENTURY": lambda v: (v.year + 99) // 100,
    "MILLENNIUM": lambda v: (v.year + 999) // 1000,
}


def unit_name(node) -> str:
    """A time unit as written (``HOUR``, ``SQL_TSI_HOUR``, a Var or a bare name), in Flink's spelling."""
    name = (node.name if hasattr(node, "name") else str(node)).upper()
    return _UNIT_NAMES.get(name, name)


def add_months(value, months: int):
    """``value`` moved by whole months, its day kept or cut to the month's last (Flink's TIMESTAMPADD)."""
    total = value.year * 12 + value.month - 1 + months
    year, month = divmod(total, 12)
    day = min(value.day, calendar.monthrange(year, month + 1)[1])
    return value.replace(year=year, month=month + 1, day=day)


def add(unit: str, amount: int, value):
    if unit in _MONTHS:
        return add_months(value, amount * _MONTHS[unit])
    if isinstance(value, datetime.datetime):
        return value + datetime.timedelta(microseconds=amount * _MICROS[unit])
    if unit in ("DAY", "WEEK"):
        return value + datetime.timedelta(microseconds=amount * _MICROS[unit])
    return _date_time(value) + datetime.timedelta(microseconds=amount * _MICROS[unit])


def _month_count(value: datetime.datetime) -> int:
    return value.year * 12 + value.month - 1


def _date_months(end: datetime.date, start: datetime.date) -> int:
    """Whole months from ``start`` to ``end``: the most that, added to ``start`` (a day past a month's end cut to
    its last), do not pass ``end``; negative when ``end`` is earlier."""
    if end < start:
        return -_date_months(start, end)
    months = _month_count(end) - _month_count(start)
    while add_months(start, months) > end:
        months -= 1
    return months


def months_between(start: datetime.datetime, end: datetime.datetime) -> int:
    """Whole months from ``start`` to ``end`` as Flink counts them: by their dates, one less when the months land
    on ``end``'s date at an earlier time of day (also going back: 10:00 on 15 Feb to 09:00 on 15 Jan is -2)."""
    months = _date_months(end.date(), start.date())
    if add_months(start.date(), months) == end.date() and end.time() < start.time():
        months -= 1
    return months


def difference(unit: str, start, end) -> int:
    """TIMESTAMPDIFF(unit, start, end): whole units from ``start`` to ``end``, truncated toward zero."""
    start, end = _date_time(start), _date_time(end)
    if unit in _MONTHS:
        months = months_between(start, end)
        return int(months / _MONTHS[unit])
    delta = end - start
    micros = (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds
    whole = abs(micros) // _MICROS[unit]
    return whole if micros >= 0 else -whole


def floor_to(unit: str, value):
    """The start of the unit ``value`` lies in (a week starts on Sunday)."""
    is_date = not isinstance(value, datetime.datetime)
    moment = _date_time(value)
    if unit in ("MICROSECOND",):
        floored = moment
    elif unit == "MILLISECOND":
        floored = moment.replace(microsecond=moment.microsecond // 1000 * 1000)
    elif unit == "SECOND":
        floored = moment.replace(microsecond=0)
    elif unit == "MINUTE":
        floored = moment.replace(second=0, microsecond=0)
    elif unit == "HOUR":
        floored = moment.replace(minute=0, second=0, microsecond=0)
    else:
        day = moment.replace(hour=0, minute=0, second=0, microsecond=0)
        if unit == "DAY":
            floored = day
        elif unit == "WEEK":
            floored = day - datetime.timedelta(days=day.isoweekday() % 7)
        elif unit == "MONTH":
            floored = day.replace(day=1)
        elif unit == "QUARTER":
            floored = day.replace(month=(day.month - 1) // 3 * 3 + 1, day=1)
        elif unit == "YEAR":
            floored = day.replace(month=1, day=1)
        else:
            raise ValueError(unit)
    return floored.date() if is_date else floored


def ceil_to(unit: str, value):
    """The end of the unit ``value`` lies in: ``value`` itself when it starts one."""
    floored = floor_to(unit, value)
    if floored == value:
        return value
    return add(unit, 1, floored)


def convert_time_zone(text: str, source_zone: str, target_zone: str):
    """CONVERT_TZ: a 'yyyy-MM-dd HH:mm:ss' text read in one zone, written in another (NULL when it is not one)."""
    from zoneinfo import ZoneInfo
    try:
        moment = datetime.datetime.strptime(text, "%Y-%m-%d %H:%M:%S")
    except ValueError:
        return None
    converted = moment.replace(tzinfo=ZoneInfo(source_zone)).astimezone(ZoneInfo(target_zone))
    return converted.strftime("%Y-%m-%d %H:%M:%S")


def _shorthand(unit: str, function: str):
    """The handler of a function that is EXTRACT of one unit (HOUR(t) is EXTRACT(HOUR FROM t))."""
    def handler(self, node):
        return self._time_field(unit, node.this, function)
    return handler


class TimeFunctions:
    """The Compiler's handlers of date-time functions (mixed into expressions.Compiler)."""

    def _date_time_operand(self, node, function: str):
        """The compiled operand of a date-time function, its values as local date-times (a TIMESTAMP_LTZ read in
        the session time zone), and its type."""
        from pyflink_compat.table.sql.expressions import validation_error
        from pyflink_compat.table.sql.values import local_of_utc
        operand, operand_type = self.compile(node)
        if operand_type.name not in _DATE_TIMES:
            raise validation_error("SQL validation failed. Cannot apply '%s' to arguments of type '%s(<%s>)'"
                                   % (function, function, operand_type.name))
        if operand_type.name == "TIMESTAMP_LTZ":
            return (lambda values: _mapped(operand(values), local_of_utc)), operand_type
        return operand, operand_type

    def _time_field(self, unit: str, node, function: str):
        if unit not in FIELDS:
            raise UnsupportedFeatureError("EXTRACT(%s FROM ...)" % unit, SECTION)
        operand, operand_type = self._date_time_operand(node, function)
        field = FIELDS[unit]
        return (lambda values: _mapped(operand(values), field)), SqlType("BIGINT", nullable=operand_type.nullable)

    def _extract(self, node):
        return self._time_field(unit_name(node.this), node.expression, "EXTRACT")

    # YEAR(t), ..., SECOND(t): EXTRACT of one unit
    _year = _shorthand("YEAR", "YEAR")
    _quarter = _shorthand("QUARTER", "QUARTER")
    _month = _shorthand("MONTH", "MONTH")
    _week = _shorthand("WEEK", "WEEK")
    _dayofyear = _shorthand("DOY", "DAYOFYEAR")
    _dayofmonth = _shorthand("DAY", "DAYOFMONTH")
    _dayofweek = _shorthand("DOW", "DAYOFWEEK")
    _hour = _shorthand("HOUR", "HOUR")
    _minute = _shorthand("MINUTE", "MINUTE")
    _second = _shorthand("SECOND", "SECOND")

    def _function_timestampadd(self, arguments):
        """TIMESTAMPADD(unit, n, date-time): the operand's type, but a DATE moved by a unit under a day is a
        TIMESTAMP(6)."""
        from pyflink_compat.table.sql.values import utc_of_local
        unit = _checked_unit(arguments[0], "TIMESTAMPADD")
        amount, amount_type = self.compile(arguments[1])
        operand, operand_type = self._date_time_operand(arguments[2], "TIMESTAMPADD")
        nullable = amount_type.nullable or operand_type.nullable
        if operand_type.name == "DATE" and unit in _SUB_DAY:
            result_type = SqlType("TIMESTAMP", nullable=nullable, precision=6)
        else:
            result_type = SqlType(operand_type.name, nullable=nullable, precision=operand_type.precision)
        back = utc_of_local if operand_type.name == "TIMESTAMP_LTZ" else (lambda value: value)

        def moved(values):
            n, value = amount(values), operand(values)
            return None if n is None or value is None else back(add(unit, int(n), value))
        return moved, result_type

    def _function_timestampdiff(self, arguments):
        """TIMESTAMPDIFF(unit, start, end): whole units from start to end, an INT."""
        from pyflink_compat.table.sql.expressions import JavaStyleError
        unit = _checked_unit(arguments[0], "TIMESTAMPDIFF")
        start, start_type = self._date_time_operand(arguments[1], "TIMESTAMPDIFF")
        end, end_type = self._date_time_operand(arguments[2], "TIMESTAMPDIFF")
        if (start_type.name == "TIMESTAMP_LTZ") != (end_type.name == "TIMESTAMP_LTZ"):
            raise JavaStyleError("org.apache.flink.table.planner.codegen.CodeGenException",
                                 "TIMESTAMP_LTZ only supports diff between the same type.", "executeSql")

        def between(values):
            a, b = start(values), end(values)
            return None if a is None or b is None else difference(unit, a, b)
        return between, SqlType("INT", nullable=start_type.nullable or end_type.nullable)

    def _time_rounding(self, node, ceiling: bool):
        """FLOOR / CEIL(date-time TO unit): the operand's type."""
        from pyflink_compat.table.sql.values import utc_of_local
        unit = unit_name(node.args["to"])
        if unit not in _MICROS and unit not in _MONTHS:
            raise UnsupportedFeatureError("%s(... TO %s)" % ("CEIL" if ceiling else "FLOOR", unit), SECTION)
        operand, operand_type = self._date_time_operand(node.this, "CEIL" if ceiling else "FLOOR")
        rounding = ceil_to if ceiling else floor_to
        back = utc_of_local if operand_type.name == "TIMESTAMP_LTZ" else (lambda value: value)
        return (lambda values: _mapped(operand(values), lambda value: back(rounding(unit, value)))), operand_type

    def _currentdate(self, node):
        """CURRENT_DATE: today in the session time zone."""
        from pyflink_compat.table.sql.expressions import _now_utc
        from pyflink_compat.table.sql.values import local_of_utc
        return (lambda values: local_of_utc(_now_utc()).date()), SqlType("DATE", nullable=False)

    def _function_convert_tz(self, arguments):
        """CONVERT_TZ(text, from zone, to zone): a STRING."""
        (text, _), (source, _), (target, _) = [self.compile(each) for each in arguments]

        def converted(values):
            parts = text(values), source(values), target(values)
            return None if None in parts else convert_time_zone(*parts)
        return converted, SqlType("STRING")


def _mapped(value, function: Callable):
    return None if value is None else function(value)


def _checked_unit(node, function: str) -> str:
    unit = unit_name(node)
    if unit not in _MICROS and unit not in _MONTHS:
        from pyflink_compat.table.sql.expressions import validation_error
        raise validation_error("SQL validation failed. '%s' is not a valid time frame of %s" % (unit, function))
    return unit

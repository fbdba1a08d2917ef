"""Flink SQL's date-time functions: EXTRACT and its shorthands, TIMESTAMPADD, TIMESTAMPDIFF, FLOOR / CEIL to a
unit, CONVERT_TZ; values and result types as PyFlink 2.3 gives them."""
import datetime

import pytest
from hypothesis import given, strategies as st
from sqlglot import parse_one

from pyflink_compat.table.sql import time_functions
from pyflink_compat.table.sql.catalog import SqlType
from pyflink_compat.table.sql.dialect import Flink
from pyflink_compat.table.sql.expressions import Compiler
from pyflink_compat.util.exceptions import JavaStyleError

TYPES = [("t", SqlType("TIMESTAMP", precision=3)), ("d", SqlType("DATE", nullable=False)),
         ("t2", SqlType("TIMESTAMP", precision=0))]
ROW = (datetime.datetime(2024, 2, 29, 13, 45, 30, 123000), datetime.date(2024, 12, 30),
       datetime.datetime(2023, 1, 1))
OTHER = (datetime.datetime(2021, 1, 3, 0, 0, 0, 999000), datetime.date(2021, 1, 1),
         datetime.datetime(2021, 1, 4, 23, 59, 59))


def _compiled(expression: str, row=ROW):
    columns = {name: (position, column_type) for position, (name, column_type) in enumerate(TYPES)}
    function, result_type = Compiler(columns).compile(parse_one("SELECT %s FROM x" % expression,
                                                                read=Flink).expressions[0])
    return function(tuple(row)), result_type.text()


def test_extract_and_its_shorthands_give_flinks_fields_as_bigints():
    fields = {"YEAR": (2024, 2021), "QUARTER": (1, 1), "DAY": (29, 3), "DOY": (60, 3), "DOW": (5, 1),
              "ISODOW": (4, 7), "HOUR": (13, 0), "MINUTE": (45, 0), "SECOND": (30, 0), "MILLISECOND": (123, 999),
              "EPOCH": (1709214330, 1609632000), "DECADE": (202, 202), "CENTURY": (21, 21)}
    for unit, expected in fields.items():
        assert (_compiled("EXTRACT(%s FROM t)" % unit)[0], _compiled("EXTRACT(%s FROM t)" % unit, OTHER)[0]) \
            == expected, unit
    assert _compiled("EXTRACT(MONTH FROM d)") == (12, "BIGINT NOT NULL")
    assert _compiled("EXTRACT(WEEK FROM d)")[0] == 1 and _compiled("EXTRACT(WEEK FROM d)", OTHER)[0] == 53
    assert _compiled("EXTRACT(ISOYEAR FROM d)")[0] == 2025
    assert _compiled("YEAR(t)") == (2024, "BIGINT")
    assert [_compiled("%s(d)" % name)[0] for name in ("QUARTER", "MONTH", "WEEK", "DAYOFYEAR", "DAYOFMONTH",
                                                      "DAYOFWEEK")] == [4, 12, 1, 365, 30, 2]
    assert [_compiled("%s(t)" % name)[0] for name in ("HOUR", "MINUTE", "SECOND")] == [13, 45, 30]
    assert _compiled("HOUR(t)", (None,) + ROW[1:]) == (None, "BIGINT")


def test_timestampadd_keeps_the_type_clamps_months_and_makes_a_date_a_timestamp_below_a_day():
    assert _compiled("TIMESTAMPADD(HOUR, 25, t)") == (datetime.datetime(2024, 3, 1, 14, 45, 30, 123000),
                                                      "TIMESTAMP(3)")
    assert _compiled("TIMESTAMPADD(MONTH, 1, d)") == (datetime.date(2025, 1, 30), "DATE NOT NULL")
    assert _compiled("TIMESTAMPADD(DAY, -1, t2)") == (datetime.datetime(2022, 12, 31), "TIMESTAMP(0)")
    assert _compiled("TIMESTAMPADD(MONTH, 12, t)")[0] == datetime.datetime(2025, 2, 28, 13, 45, 30, 123000)
    assert _compiled("TIMESTAMPADD(SECOND, 90, d)") == (datetime.datetime(2024, 12, 30, 0, 1, 30),
                                                        "TIMESTAMP(6) NOT NULL")
    assert _compiled("TIMESTAMPADD(WEEK, 1, d)")[0] == datetime.date(2025, 1, 6)
    assert _compiled("TIMESTAMPADD(QUARTER, 1, d)")[0] == datetime.date(2025, 3, 30)


def test_timestampdiff_counts_whole_units_toward_zero():
    expected = {"DAY, t2, t": (424, -1), "HOUR, t, t2": (-10189, 47), "MONTH, d, t": (-10, 0),
                "YEAR, t2, t": (1, 0), "SECOND, t2, t": (36683130, -172798), "MINUTE, d, t2": (-1049760, 5759)}
    for arguments, (first, second) in expected.items():
        assert _compiled("TIMESTAMPDIFF(%s)" % arguments) == (first, "INT"), arguments
        assert _compiled("TIMESTAMPDIFF(%s)" % arguments, OTHER)[0] == second, arguments
    # months by the dates (a month's end counts as any later day), one less when the time of day falls short,
    # going back too (Flink's own count: 10:00 on 15 Feb to 09:00 on 15 Jan is -2)
    date, moment = datetime.date, datetime.datetime
    for start, end, months in ((date(2024, 1, 31), date(2024, 12, 30), 10), (date(2021, 1, 31), date(2021, 3, 1), 1),
                               (date(2024, 1, 31), date(2024, 2, 29), 1), (date(2020, 2, 29), date(2021, 2, 28), 12),
                               (moment(2024, 3, 31, 10), moment(2024, 2, 29, 11), -1),
                               (moment(2024, 1, 15, 10), moment(2024, 2, 15, 9), 0),
                               (moment(2024, 2, 15, 10), moment(2024, 1, 15, 9), -2),
                               (moment(2024, 2, 15, 10), moment(2024, 1, 15, 11), -1),
                               (moment(2024, 3, 31, 10), moment(2024, 2, 29, 9), -2),
                               (moment(2024, 1, 31, 10), moment(2024, 2, 29, 9), 0)):
        assert time_functions.difference("MONTH", start, end) == months, (start, end)
    assert time_functions.difference("YEAR", moment(2024, 2, 15, 10), moment(2023, 2, 15, 9)) == -1
    assert time_functions.difference("DAY", moment(2024, 2, 15, 10), moment(2024, 2, 14, 11)) == 0


def test_floor_and_ceil_to_a_unit_keep_the_type_a_week_starting_on_sunday():
    assert _compiled("FLOOR(t TO HOUR)") == (datetime.datetime(2024, 2, 29, 13), "TIMESTAMP(3)")
    assert _compiled("CEIL(t TO HOUR)")[0] == datetime.datetime(2024, 2, 29, 14)
    assert _compiled("CEIL(t TO DAY)")[0] == datetime.datetime(2024, 3, 1)
    assert _compiled("FLOOR(t TO WEEK)")[0] == datetime.datetime(2024, 2, 25)
    assert _compiled("FLOOR(t TO QUARTER)")[0] == datetime.datetime(2024, 1, 1)
    assert _compiled("FLOOR(d TO MONTH)") == (datetime.date(2024, 12, 1), "DATE NOT NULL")
    assert _compiled("CEIL(d TO YEAR)")[0] == datetime.date(2025, 1, 1)
    assert _compiled("CEIL(d TO WEEK)")[0] == datetime.date(2025, 1, 5)
    assert _compiled("CEIL(t2 TO DAY)")[0] == datetime.datetime(2023, 1, 1)     # already a day's start
    assert _compiled("FLOOR(t TO MILLISECOND)")[0] == ROW[0]


def test_convert_tz_and_the_errors_flink_gives():
    assert _compiled("CONVERT_TZ('2024-01-01 00:00:00', 'UTC', 'Asia/Shanghai')") == ("2024-01-01 08:00:00",
                                                                                       "STRING")
    assert _compiled("CONVERT_TZ('2024-07-01 12:30:00', 'America/New_York', 'UTC')")[0] == "2024-07-01 16:30:00"
    assert _compiled("CONVERT_TZ('2024-07-01', 'UTC', 'UTC')")[0] is None
    with pytest.raises(JavaStyleError, match="not a valid time frame"):
        _compiled("TIMESTAMPADD(FORTNIGHT, 1, t)")


@given(st.datetimes(datetime.datetime(1900, 1, 1), datetime.datetime(2200, 1, 1)),
       st.sampled_from(["SECOND", "MINUTE", "HOUR", "DAY", "WEEK", "MONTH", "QUARTER", "YEAR"]))
def test_a_value_lies_between_its_floor_and_ceiling_which_are_fixed_points(value, unit):
    floor, ceiling = time_functions.floor_to(unit, value), time_functions.ceil_to(unit, value)
    assert floor <= value <= ceiling
    assert time_functions.floor_to(unit, floor) == floor and time_functions.ceil_to(unit, ceiling) == ceiling
    assert ceiling == floor or time_functions.floor_to(unit, ceiling) == ceiling


@given(st.datetimes(datetime.datetime(1900, 1, 1), datetime.datetime(2200, 1, 1)),
       st.datetimes(datetime.datetime(1900, 1, 1), datetime.datetime(2200, 1, 1)),
       st.sampled_from(["SECOND", "HOUR", "DAY", "MONTH", "YEAR"]))
def test_timestampdiff_forward_is_the_most_whole_units_that_do_not_pass_the_end(start, end, unit):
    start, end = min(start, end), max(start, end)
    units = time_functions.difference(unit, start, end)
    assert units >= 0
    assert time_functions.add(unit, units, start) <= end < time_functions.add(unit, units + 1, start)

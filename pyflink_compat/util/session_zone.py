"""Flink's session time zone ('table.local-time-zone') as the local time zone of the processes doing a job's work.

Flink SQL reads and shows TIMESTAMP_LTZ values, casts them to TIMESTAMP, aligns day windows and answers
CURRENT_TIMESTAMP in the session time zone. Our SQL functions use the process's local time zone for all of that,
so a job whose session zone is not the machine's runs its work with the process's ``TZ`` set to that zone: each
task of the job's Spark queries (``Zoned``), and the driver while it plans the job and formats its results
(``applied``). Each task puts the previous zone back when it ends: Spark's Python workers run other jobs' tasks
too.
"""
import contextlib
import datetime
import os
import re
import time
from typing import Optional

KEY = "table.local-time-zone"
DEFAULT = "default"

_GMT_OFFSET = re.compile(r"^GMT([+-])(\d{1,2})(?::?(\d{2}))?$")


def _invalid(name: str):
    from pyflink_compat.table.sql.expressions import validation_error
    return validation_error(
        "Invalid time zone. The value should be a Time Zone Database (TZDB) ID such as 'America/Los_Angeles' to "
        "include daylight saving time. Fixed offsets are supported using 'GMT-03:00' or 'GMT+03:00'. Or use 'UTC' "
        "without time zone and daylight saving time.")


def tz_of(name) -> Optional[str]:
    """The ``TZ`` value for a session zone as Flink accepts it: a TZDB region ('Asia/Shanghai'), 'UTC' or a
    fixed offset ('GMT+8', 'GMT-03:30'); None for 'default' (the machine's). Anything else fails as Flink's
    planner fails."""
    if name is None:
        return None
    name = str(name).strip()
    if name.lower() == DEFAULT:
        return None
    if name == "UTC":
        return "UTC"
    fixed = _GMT_OFFSET.match(name)
    if fixed:
        sign, hours, minutes = fixed.group(1), int(fixed.group(2)), int(fixed.group(3) or 0)
        if hours > 18 or minutes > 59:
            raise _invalid(name)
        # POSIX TZ counts offsets west of Greenwich: GMT+08:00 is "<...>-08:00"
        return "<%s%02d%02d>%s%02d:%02d" % (sign, hours, minutes, "-" if sign == "+" else "+", hours, minutes)
    if "/" in name:
        try:
            import zoneinfo
            zoneinfo.ZoneInfo(name)
        except Exception:          # an unknown region, or a malformed name
            raise _invalid(name) from None
        return name
    raise _invalid(name)


def is_machine_zone(tz: Optional[str]) -> bool:
    """Whether a zone has this machine's offsets all year (then there is nothing to set)."""
    if tz is None:
        return True
    with applied(tz):
        year = datetime.datetime.now().year
        zoned = [datetime.datetime(year, month, 1, tzinfo=datetime.timezone.utc).astimezone().utcoffset()
                 for month in (1, 4, 7, 10)]
    machine = [datetime.datetime(year, month, 1, tzinfo=datetime.timezone.utc).astimezone().utcoffset()
               for month in (1, 4, 7, 10)]
    return zoned == machine


def job_tz(configuration: dict) -> Optional[str]:
    """The ``TZ`` a job's work runs in: None when its session zone is the machine's."""
    tz = tz_of(configuration.get(KEY))
    return None if is_machine_zone(tz) else tz


@contextlib.contextmanager
def applied(tz: Optional[str]):
    """This process's local time zone is ``tz`` inside the block (nothing changes for None)."""
    if tz is None:
        yield
        return
    before = os.environ.get("TZ")
    os.environ["TZ"] = tz
    time.tzset()
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("TZ", None)
        else:
            os.environ["TZ"] = before
        time.tzset()


class Zoned:
    """A task's function (batches in, batches out) run with the job's session zone as the local time zone."""

    def __init__(self, function, tz: str):
        self.function, self.tz = function, tz

    def __call__(self, *args):
        with applied(self.tz):
            yield from self.function(*args)


def zoned(function, tz: Optional[str]):
    """``function`` run in the zone ``tz`` (unchanged for None)."""
    return function if tz is None or function is None else Zoned(function, tz)

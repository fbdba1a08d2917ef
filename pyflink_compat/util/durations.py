"""Flink's duration settings, as configuration keys give them."""
import re
from typing import Optional


def duration_ms(text) -> Optional[int]:
    """A Flink duration setting ("10 s", "500ms", "1min", "10000") in milliseconds; None if unparsable."""
    match = re.fullmatch(r"\s*(\d+)\s*([a-z]*)\s*", str(text).lower())
    if not match:
        return None
    number, unit = int(match.group(1)), match.group(2)
    factors = {"": 1, "ms": 1, "milli": 1, "millis": 1, "millisecond": 1, "milliseconds": 1,
               "s": 1000, "sec": 1000, "secs": 1000, "second": 1000, "seconds": 1000,
               "min": 60_000, "m": 60_000, "minute": 60_000, "minutes": 60_000,
               "h": 3_600_000, "hour": 3_600_000, "hours": 3_600_000, "d": 86_400_000, "day": 86_400_000,
               "days": 86_400_000}
    return number * factors[unit] if unit in factors else None

"""``Duration``, ``Instant`` and ``Time`` (mirror of ``pyflink.common.time``).

PyFlink's ``Duration`` wraps a ``java.time.Duration``; ours holds the length
itself, as a whole number of nanoseconds. ``Instant`` and ``Time`` are pure
Python in PyFlink too. Window assigners take ``Time`` (they call
``to_milliseconds()``); watermark strategies take ``Duration``.
"""

__all__ = ['Duration', 'Instant', 'Time']

_NANOS_PER_MILLI = 1_000_000
_NANOS_PER_SECOND = 1_000_000_000


class Duration(object):
    """An amount of time such as '34.5 seconds'; build it with the ``of_*`` factories.

    ``j_duration`` is, in pyflink-compat, the length in nanoseconds (an ``int``)
    rather than a Java object. Like PyFlink's, it has no ``to_milliseconds()``.
    """

    def __init__(self, j_duration):
        self._nanos = int(j_duration)

    @staticmethod
    def of_days(days: int):
        return Duration(days * 86_400 * _NANOS_PER_SECOND)

    @staticmethod
    def of_hours(hours: int):
        return Duration(hours * 3_600 * _NANOS_PER_SECOND)

    @staticmethod
    def of_millis(millis: int):
        return Duration(millis * _NANOS_PER_MILLI)

    @staticmethod
    def of_minutes(minutes: int):
        return Duration(minutes * 60 * _NANOS_PER_SECOND)

    @staticmethod
    def of_nanos(nanos: int):
        return Duration(nanos)

    @staticmethod
    def of_seconds(seconds: int):
        return Duration(seconds * _NANOS_PER_SECOND)

    def _to_millis(self) -> int:
        """Java's ``Duration.toMillis()`` (rounds towards negative infinity)."""
        return self._nanos // _NANOS_PER_MILLI

    def __eq__(self, other):
        return isinstance(other, Duration) and self._nanos == other._nanos

    def __hash__(self):
        return hash(self._nanos)


class Instant(object):
    """A point on the time-line: ``seconds`` since the epoch plus ``nanos`` (0..999,999,999)."""

    def __init__(self, seconds, nanos):
        self.seconds = seconds
        self.nanos = nanos

    def to_epoch_milli(self):
        return self.seconds * 1000 + self.nanos // _NANOS_PER_MILLI

    @staticmethod
    def of_epoch_milli(epoch_milli: int) -> 'Instant':
        seconds, millis = divmod(epoch_milli, 1000)
        return Instant(seconds, millis * _NANOS_PER_MILLI)

    def __eq__(self, other):
        return self.__class__ == other.__class__ and self.seconds == other.seconds and self.nanos == other.nanos

    def __hash__(self):
        return hash((self.seconds, self.nanos))

    def __repr__(self):
        return 'Instant<{}, {}>'.format(self.seconds, self.nanos)


class Time(object):
    """A time interval in milliseconds; ``str(Time.seconds(5))`` is ``'5000 ms'``."""

    def __init__(self, milliseconds: int):
        self._milliseconds = milliseconds

    def to_milliseconds(self) -> int:
        return self._milliseconds

    @staticmethod
    def milliseconds(milliseconds: int):
        return Time(milliseconds)

    @staticmethod
    def seconds(seconds: int):
        return Time(seconds * 1000)

    @staticmethod
    def minutes(minutes: int):
        return Time(minutes * 60_000)

    @staticmethod
    def hours(hours: int):
        return Time(hours * 3_600_000)

    @staticmethod
    def days(days: int):
        return Time(days * 86_400_000)

    def __eq__(self, other):
        return isinstance(other, self.__class__) and self._milliseconds == other._milliseconds

    def __hash__(self):
        return hash(self._milliseconds)

    def __str__(self):
        return '{} ms'.format(self._milliseconds)

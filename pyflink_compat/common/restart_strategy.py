"""Mirror of ``pyflink.common.restart_strategy``.

The configurations exist as values, as in Flink 1.x: the factories build them, Flink 1.x's
``set_restart_strategy`` (on the environment or its ``ExecutionConfig``) writes the matching Flink 2.x
configuration (``restart-strategy.type`` and its options) and ``get_restart_strategy`` reads it back. The job
applies that configuration (``runtime/restarts.py``; porting guide, section restarts).
"""
from abc import ABCMeta
from datetime import timedelta
from typing import Optional

from pyflink_compat.util.exceptions import unsupported

__all__ = ['RestartStrategies', 'RestartStrategyConfiguration']

_SECTION = "restarts"
_REASON = "set the restart-strategy.exponential-delay.* configuration keys"

TYPE_KEY = "restart-strategy.type"
FIXED_DELAY_ATTEMPTS_KEY = "restart-strategy.fixed-delay.attempts"
FIXED_DELAY_DELAY_KEY = "restart-strategy.fixed-delay.delay"
FAILURE_RATE_MAX_KEY = "restart-strategy.failure-rate.max-failures-per-interval"
FAILURE_RATE_INTERVAL_KEY = "restart-strategy.failure-rate.failure-rate-interval"
FAILURE_RATE_DELAY_KEY = "restart-strategy.failure-rate.delay"
_KEYS = (TYPE_KEY, FIXED_DELAY_ATTEMPTS_KEY, FIXED_DELAY_DELAY_KEY, FAILURE_RATE_MAX_KEY,
         FAILURE_RATE_INTERVAL_KEY, FAILURE_RATE_DELAY_KEY)


def _interval(value, parameter: str) -> timedelta:
    """An int (milliseconds) or a timedelta, as PyFlink takes them."""
    if isinstance(value, bool) or not isinstance(value, (timedelta, int)):
        raise TypeError("The parameter '%s' only supports integer and datetime.timedelta, current input "
                        "type is %s." % (parameter, type(value)))
    return value if isinstance(value, timedelta) else timedelta(milliseconds=value)


def _millis(delta: timedelta) -> int:
    return delta // timedelta(milliseconds=1)


def _java_duration(delta: timedelta) -> str:
    """Java's ``Duration.toString()``: ``PT10S``, ``PT1M30S``, ``PT0.5S``, ``PT0S``."""
    millis = _millis(delta)
    hours, rest = divmod(millis, 3_600_000)
    minutes, rest = divmod(rest, 60_000)
    seconds, millis = divmod(rest, 1000)
    text = "PT" + ("%dH" % hours if hours else "") + ("%dM" % minutes if minutes else "")
    if seconds or millis or text == "PT":
        text += ("%d.%03d" % (seconds, millis)).rstrip("0").rstrip(".") + "S"
    return text


class RestartStrategyConfiguration(object, metaclass=ABCMeta):
    """A restart strategy's settings (the job applies them through its configuration)."""

    def __init__(self, j_restart_strategy_configuration):
        self._j_restart_strategy_configuration = j_restart_strategy_configuration

    def get_description(self) -> str:
        return self._description()

    def _description(self) -> str:
        return type(self).__name__

    def _fields(self) -> tuple:
        return ()

    def _to_configuration(self) -> dict:
        """The Flink 2.x configuration entries of this strategy."""
        return {}

    def __eq__(self, other):
        return isinstance(other, self.__class__) and self._fields() == other._fields()

    def __hash__(self):
        return hash((type(self).__name__,) + self._fields())

    def __repr__(self):
        return "%s(%s)" % (type(self).__name__, self._description())


class RestartStrategies(object):
    """Factories of restart strategy configurations (recorded, never applied: a failure fails the job)."""

    class NoRestartStrategyConfiguration(RestartStrategyConfiguration):
        """No restart."""

        def __init__(self, j_restart_strategy=None):
            super(RestartStrategies.NoRestartStrategyConfiguration, self).__init__(j_restart_strategy)

        def _description(self):
            return "Restart deactivated."

        def _to_configuration(self):
            return {TYPE_KEY: "none"}

    class FixedDelayRestartStrategyConfiguration(RestartStrategyConfiguration):
        """Restart up to ``restart_attempts`` times, ``delay_between_attempts_interval`` apart."""

        def __init__(self, restart_attempts=None, delay_between_attempts_interval=None,
                     j_restart_strategy=None):
            super(RestartStrategies.FixedDelayRestartStrategyConfiguration, self).__init__(j_restart_strategy)
            if isinstance(j_restart_strategy, RestartStrategies.FixedDelayRestartStrategyConfiguration):
                restart_attempts = j_restart_strategy._restart_attempts
                delay_between_attempts_interval = j_restart_strategy._delay
            self._restart_attempts = restart_attempts
            self._delay = _interval(delay_between_attempts_interval, "delay_between_attempts_interval")

        def get_restart_attempts(self) -> int:
            return self._restart_attempts

        def get_delay_between_attempts_interval(self) -> timedelta:
            return self._delay

        def _fields(self):
            return (self._restart_attempts, self._delay)

        def _description(self):
            return "Restart with fixed delay (%s). #%s restart attempts." % (
                _java_duration(self._delay), self._restart_attempts)

        def _to_configuration(self):
            return {TYPE_KEY: "fixed-delay", FIXED_DELAY_ATTEMPTS_KEY: str(self._restart_attempts),
                    FIXED_DELAY_DELAY_KEY: "%d ms" % _millis(self._delay)}

    class FailureRateRestartStrategyConfiguration(RestartStrategyConfiguration):
        """Restart unless more than ``max_failure_rate`` failures happen within ``failure_interval``."""

        def __init__(self,
                     max_failure_rate=None,
                     failure_interval=None,
                     delay_between_attempts_interval=None,
                     j_restart_strategy=None):
            super(RestartStrategies.FailureRateRestartStrategyConfiguration, self).__init__(j_restart_strategy)
            if isinstance(j_restart_strategy, RestartStrategies.FailureRateRestartStrategyConfiguration):
                max_failure_rate, failure_interval, delay_between_attempts_interval = j_restart_strategy._fields()
            self._max_failure_rate = max_failure_rate
            self._failure_interval = _interval(failure_interval, "failure_interval")
            self._delay = _interval(delay_between_attempts_interval, "delay_between_attempts_interval")

        def get_max_failure_rate(self) -> int:
            return self._max_failure_rate

        def get_failure_interval(self) -> timedelta:
            return self._failure_interval

        def get_delay_between_attempts_interval(self) -> timedelta:
            return self._delay

        def _fields(self):
            return (self._max_failure_rate, self._failure_interval, self._delay)

        def _description(self):
            return "Failure rate restart with maximum of %s failures within interval %s and fixed delay %s." % (
                self._max_failure_rate, _java_duration(self._failure_interval), _java_duration(self._delay))

        def _to_configuration(self):
            return {TYPE_KEY: "failure-rate", FAILURE_RATE_MAX_KEY: str(self._max_failure_rate),
                    FAILURE_RATE_INTERVAL_KEY: "%d ms" % _millis(self._failure_interval),
                    FAILURE_RATE_DELAY_KEY: "%d ms" % _millis(self._delay)}

    class FallbackRestartStrategyConfiguration(RestartStrategyConfiguration):
        """The cluster's restart strategy (the default: no ``restart-strategy.type`` in the job's configuration)."""

        def __init__(self, j_restart_strategy=None):
            super(RestartStrategies.FallbackRestartStrategyConfiguration, self).__init__(j_restart_strategy)

        def _description(self):
            return "Cluster level default restart strategy"

    @staticmethod
    def no_restart() -> 'NoRestartStrategyConfiguration':
        return RestartStrategies.NoRestartStrategyConfiguration()

    @staticmethod
    def fall_back_restart() -> 'FallbackRestartStrategyConfiguration':
        return RestartStrategies.FallbackRestartStrategyConfiguration()

    @staticmethod
    def fixed_delay_restart(restart_attempts: int, delay_between_attempts: int) -> \
            'FixedDelayRestartStrategyConfiguration':
        """``delay_between_attempts``: milliseconds or a ``datetime.timedelta``."""
        return RestartStrategies.FixedDelayRestartStrategyConfiguration(restart_attempts, delay_between_attempts)

    @staticmethod
    def failure_rate_restart(failure_rate: int, failure_interval: int, delay_interval: int) -> \
            'FailureRateRestartStrategyConfiguration':
        """``failure_interval``, ``delay_interval``: milliseconds or ``datetime.timedelta``."""
        return RestartStrategies.FailureRateRestartStrategyConfiguration(failure_rate, failure_interval,
                                                                         delay_interval)

    exponential_delay_restart = staticmethod(unsupported("RestartStrategies.exponential_delay_restart",
                                                         _SECTION, _REASON))


def write_configuration(configuration, restart_strategy_configuration: RestartStrategyConfiguration):
    """Replace the ``restart-strategy.*`` entries of ``configuration`` (a Configuration) with the strategy's."""
    if not isinstance(restart_strategy_configuration, RestartStrategyConfiguration):
        raise TypeError("restart_strategy_configuration must be a RestartStrategyConfiguration, got %r"
                        % (restart_strategy_configuration,))
    for key in _KEYS:
        configuration.remove_config(key)
    for key, value in restart_strategy_configuration._to_configuration().items():
        configuration.set_string(key, value)


def read_configuration(configuration) -> Optional[RestartStrategyConfiguration]:
    """The strategy the ``restart-strategy.*`` entries of ``configuration`` describe (Flink 1.x's
    ``get_restart_strategy``): the fallback (the cluster's) when none is set."""
    from pyflink_compat.util.durations import duration_ms
    settings = configuration.to_dict()
    kind = settings.get(TYPE_KEY, "").strip().lower().replace("_", "-")

    def millis(key, default):
        value = duration_ms(settings[key]) if key in settings else None
        return default if value is None else value

    if kind in ("none", "off", "disable"):
        return RestartStrategies.no_restart()
    if kind in ("fixed-delay", "fixeddelay"):
        return RestartStrategies.fixed_delay_restart(int(settings.get(FIXED_DELAY_ATTEMPTS_KEY, 1)),
                                                     millis(FIXED_DELAY_DELAY_KEY, 1000))
    if kind in ("failure-rate", "failurerate"):
        return RestartStrategies.failure_rate_restart(int(settings.get(FAILURE_RATE_MAX_KEY, 1)),
                                                      millis(FAILURE_RATE_INTERVAL_KEY, 60_000),
                                                      millis(FAILURE_RATE_DELAY_KEY, 1000))
    return RestartStrategies.fall_back_restart()

"""Flink's restart strategies, applied to a failed job: whether it restarts, after how long, and the text of
``Recovery is suppressed by ...`` when it does not.

The strategy comes from ``restart-strategy.type`` and its options (Flink 2.x keys; Flink 1.x's
``set_restart_strategy`` writes the same keys). Without a type, Flink runs no restart when checkpointing is off
and ``exponential-delay`` (with its defaults) when it is on.

A restart resumes every query of the job from its last completed micro-batch (its Spark checkpoint), with the
state of that micro-batch: what Flink does from its last completed checkpoint.
"""
import logging
import random
import time
from typing import Callable, List, Optional

from pyflink_compat.util.durations import duration_ms

log = logging.getLogger("pyflink_compat")

TYPE_KEY = "restart-strategy.type"
FIXED_DELAY_PREFIX = "restart-strategy.fixed-delay."
FAILURE_RATE_PREFIX = "restart-strategy.failure-rate."
EXPONENTIAL_PREFIX = "restart-strategy.exponential-delay."
JOB_EXCEPTION = "org.apache.flink.runtime.JobException"
INT_MAX = 2_147_483_647

_NONE_NAMES = ("none", "off", "disable")
_FIXED_NAMES = ("fixeddelay", "fixed-delay")
_RATE_NAMES = ("failurerate", "failure-rate")
_EXPONENTIAL_NAMES = ("exponentialdelay", "exponential-delay")


def _now_ms() -> int:
    return int(time.time() * 1000)


class RestartStrategy:
    """Asked once per failure: the delay before the restart in milliseconds, or None (the job fails)."""

    def on_failure(self, now_ms: int) -> Optional[int]:
        raise NotImplementedError

    def description(self) -> str:
        raise NotImplementedError

    def suppressed_text(self) -> str:
        return "%s: Recovery is suppressed by %s" % (JOB_EXCEPTION, self.description())


class NoRestart(RestartStrategy):
    def on_failure(self, now_ms: int) -> Optional[int]:
        return None

    def description(self) -> str:
        return "NoRestartBackoffTimeStrategy"


class FixedDelay(RestartStrategy):
    def __init__(self, attempts: int, delay_ms: int):
        self.attempts, self.delay_ms, self.failures = attempts, delay_ms, 0

    def on_failure(self, now_ms: int) -> Optional[int]:
        self.failures += 1
        return self.delay_ms if self.failures <= self.attempts else None

    def description(self) -> str:
        return "FixedDelayRestartBackoffTimeStrategy(maxNumberRestartAttempts=%d, backoffTimeMS=%d)" % (
            self.attempts, self.delay_ms)


class FailureRate(RestartStrategy):
    """At most ``max_failures`` restarts within any ``interval_ms``: the failure after them fails the job."""

    def __init__(self, max_failures: int, interval_ms: int, delay_ms: int):
        self.max_failures, self.interval_ms, self.delay_ms = max_failures, interval_ms, delay_ms
        self.failure_times: List[int] = []

    def on_failure(self, now_ms: int) -> Optional[int]:
        self.failure_times = [t for t in self.failure_times if now_ms - t < self.interval_ms]
        if len(self.failure_times) >= self.max_failures:
            return None
        self.failure_times.append(now_ms)
        return self.delay_ms

    def description(self) -> str:
        # Flink's own text, with its doubled name and one closing parenthesis
        return ("FailureRateRestartBackoffTimeStrategy(FailureRateRestartBackoffTimeStrategy(failuresIntervalMS=%d,"
                "backoffTimeMS=%d,maxFailuresPerInterval=%d)" % (self.interval_ms, self.delay_ms, self.max_failures))


class ExponentialDelay(RestartStrategy):
    """The delay starts at ``initial_ms`` and grows by ``multiplier`` per failure up to ``max_ms``, with a random
    part of ``jitter``; after ``reset_threshold_ms`` without a failure it starts again, and so does the count of
    attempts, of which at most ``attempts_before_reset`` are made."""

    def __init__(self, initial_ms: int, max_ms: int, multiplier: float, reset_threshold_ms: int, jitter: float,
                 attempts_before_reset: int, rng: Callable[[float, float], float] = random.uniform):
        self.initial_ms, self.max_ms, self.multiplier = initial_ms, max_ms, multiplier
        self.reset_threshold_ms, self.jitter, self.attempts_before_reset = reset_threshold_ms, jitter, \
            attempts_before_reset
        self.rng = rng
        self.attempt = 0
        self.current_ms = initial_ms
        self.last_failure_ms: Optional[int] = None
        self.next_restart_ms = 0

    def on_failure(self, now_ms: int) -> Optional[int]:
        if self.last_failure_ms is not None and now_ms - self.last_failure_ms >= self.reset_threshold_ms:
            self.attempt, self.current_ms = 0, self.initial_ms
        elif self.attempt > 0:
            self.current_ms = min(int(self.current_ms * self.multiplier), self.max_ms)
        self.attempt += 1
        self.last_failure_ms = now_ms
        spread = self.current_ms * self.jitter
        delay = max(0, int(round(self.current_ms + (self.rng(-spread, spread) if spread else 0))))
        self.next_restart_ms = now_ms + delay
        return delay if self.attempt <= self.attempts_before_reset else None

    def description(self) -> str:
        return ("ExponentialDelayRestartBackoffTimeStrategy(initialBackoffMS=%d, maxBackoffMS=%d, "
                "backoffMultiplier=%s, resetBackoffThresholdMS=%d, jitterFactor=%s, attemptsBeforeResetBackoff=%d, "
                "currentRestartAttempt=%d, nextRestartTimestamp=%d)" % (
                    self.initial_ms, self.max_ms, _java_double(self.multiplier), self.reset_threshold_ms,
                    _java_double(self.jitter), self.attempts_before_reset, self.attempt, self.next_restart_ms))


def _java_double(value: float) -> str:
    return repr(float(value))


class RestartConfigurationError(ValueError):
    """A restart-strategy option Flink would refuse."""


def _setting(configuration, key: str, default, parse):
    """The value of ``key`` parsed by ``parse`` (None: unparsable), or ``default`` when it is not set."""
    value = configuration.get(key)
    if value is None or str(value).strip() == "":
        return default
    try:
        parsed = parse(str(value).strip())
    except ValueError:
        parsed = None
    if parsed is None:
        raise RestartConfigurationError("Could not parse value '%s' for key '%s'." % (value, key))
    return parsed


def _int(configuration, key: str, default: int) -> int:
    return _setting(configuration, key, default, int)


def _float(configuration, key: str, default: float) -> float:
    return _setting(configuration, key, default, float)


def _millis(configuration, key: str, default: int) -> int:
    return _setting(configuration, key, default, duration_ms)


def from_configuration(configuration, checkpointing: bool) -> RestartStrategy:
    """The job's restart strategy (``configuration``: a dict-like of Flink keys)."""
    kind = str(configuration.get(TYPE_KEY) or "").strip().lower()
    if not kind:
        kind = "exponential-delay" if checkpointing else "none"
    if kind in _NONE_NAMES:
        return NoRestart()
    if kind in _FIXED_NAMES:
        return FixedDelay(_int(configuration, FIXED_DELAY_PREFIX + "attempts", 1),
                          _millis(configuration, FIXED_DELAY_PREFIX + "delay", 1000))
    if kind in _RATE_NAMES:
        return FailureRate(_int(configuration, FAILURE_RATE_PREFIX + "max-failures-per-interval", 1),
                           _millis(configuration, FAILURE_RATE_PREFIX + "failure-rate-interval", 60_000),
                           _millis(configuration, FAILURE_RATE_PREFIX + "delay", 1000))
    if kind in _EXPONENTIAL_NAMES:
        return ExponentialDelay(_millis(configuration, EXPONENTIAL_PREFIX + "initial-backoff", 1000),
                                _millis(configuration, EXPONENTIAL_PREFIX + "max-backoff", 60_000),
                                _float(configuration, EXPONENTIAL_PREFIX + "backoff-multiplier", 1.5),
                                _millis(configuration, EXPONENTIAL_PREFIX + "reset-backoff-threshold", 3_600_000),
                                _float(configuration, EXPONENTIAL_PREFIX + "jitter-factor", 0.1),
                                _int(configuration, EXPONENTIAL_PREFIX + "attempts-before-reset-backoff", INT_MAX))
    raise RestartConfigurationError("Unknown restart strategy %s." % kind)

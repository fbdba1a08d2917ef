"""Mirror of ``pyflink.datastream.async_retry_strategies``: retry strategies of async I/O, in pure Python.

``AsyncRetryStrategy.no_restart()`` / ``fixed_delay(...)`` / ``exponential_backoff(...)`` return these.
(``AsyncDataStream`` itself is not provided, so nothing in pyflink-compat retries with them yet.)
"""
from typing import Callable, Generic, List, Optional, TypeVar

from pyflink_compat.datastream.functions import AsyncRetryPredicate, AsyncRetryStrategy

__all__ = ['RetryPredicate', 'NoRetryStrategy', 'FixedDelayRetryStrategy', 'ExponentialBackoffDelayRetryStrategy']

OUT = TypeVar('OUT')


def _check_positive(value, name):
    if not value > 0:
        raise AssertionError("%s should be greater than zero." % name)


class RetryPredicate(AsyncRetryPredicate, Generic[OUT]):
    """The two conditions that trigger a retry: on the result list, and on the exception."""

    def __init__(self, result_predicate: Optional[Callable[[List[OUT]], bool]],
                 exception_predicate: Optional[Callable[[Exception], bool]]):
        self._result_predicate = result_predicate
        self._exception_predicate = exception_predicate

    def result_predicate(self) -> Optional[Callable[[List[OUT]], bool]]:
        return self._result_predicate

    def exception_predicate(self) -> Optional[Callable[[Exception], bool]]:
        return self._exception_predicate


class NoRetryStrategy(AsyncRetryStrategy, Generic[OUT]):
    """Never retries."""

    def can_retry(self, current_attempts: int) -> bool:
        return False

    def get_backoff_time_millis(self, current_attempts: int) -> int:
        return -1

    def get_retry_predicate(self) -> AsyncRetryPredicate[OUT]:
        return RetryPredicate(None, None)


class FixedDelayRetryStrategy(AsyncRetryStrategy, Generic[OUT]):
    """Retries up to ``max_attempts`` times, ``backoff_time_millis`` apart."""

    def __init__(self, max_attempts: int, backoff_time_millis: int,
                 result_predicate: Optional[Callable[[List[OUT]], bool]],
                 exception_predicate: Optional[Callable[[Exception], bool]]):
        _check_positive(max_attempts, "max_attempts")
        _check_positive(backoff_time_millis, "backoff_time_millis")
        self._max_attempts = max_attempts
        self._backoff_time_millis = backoff_time_millis
        self._result_predicate = result_predicate
        self._exception_predicate = exception_predicate

    def can_retry(self, current_attempts: int) -> bool:
        return current_attempts <= self._max_attempts

    def get_backoff_time_millis(self, current_attempts: int) -> int:
        return self._backoff_time_millis

    def get_retry_predicate(self) -> AsyncRetryPredicate[OUT]:
        return RetryPredicate(self._result_predicate, self._exception_predicate)


class ExponentialBackoffDelayRetryStrategy(AsyncRetryStrategy, Generic[OUT]):
    """Retries up to ``max_attempts`` times; the delay starts at ``initial_delay`` and grows by ``multiplier``
    per attempt, capped at ``max_retry_delay``."""

    def __init__(self, max_attempts: int, initial_delay: int, max_retry_delay: int, multiplier: float,
                 result_predicate: Optional[Callable[[List[OUT]], bool]],
                 exception_predicate: Optional[Callable[[Exception], bool]]):
        _check_positive(max_attempts, "max_attempts")
        _check_positive(initial_delay, "initial_delay")
        _check_positive(max_retry_delay, "max_retry_delay")
        _check_positive(multiplier, "multiplier")
        self._max_attempts = max_attempts
        self._initial_delay = initial_delay
        self._max_retry_delay = max_retry_delay
        self._multiplier = multiplier
        self._result_predicate = result_predicate
        self._exception_predicate = exception_predicate
        self._last_retry_delay = initial_delay

    def can_retry(self, current_attempts: int) -> bool:
        return current_attempts <= self._max_attempts

    def get_backoff_time_millis(self, current_attempts: int) -> int:
        if current_attempts <= 1:                 # a new element: start again from the initial delay
            self._last_retry_delay = self._initial_delay
        else:
            self._last_retry_delay = int(min(self._last_retry_delay * self._multiplier, self._max_retry_delay))
        return self._last_retry_delay

    def get_retry_predicate(self) -> AsyncRetryPredicate[OUT]:
        return RetryPredicate(self._result_predicate, self._exception_predicate)


NO_RETRY_STRATEGY: AsyncRetryStrategy = NoRetryStrategy()

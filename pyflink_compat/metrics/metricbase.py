"""PyFlink's metric interfaces (``pyflink.metrics``): what ``RuntimeContext.get_metrics_group()`` and
``FunctionContext.get_metric_group()`` hand out. pyflink-compat's implementation, which reports them from the
Spark tasks to the job's driver, is in ``pyflink_compat/runtime/metrics.py``."""
from abc import ABC, abstractmethod
from typing import Callable


class MetricGroup(ABC):
    """A named group of metrics and nested groups (Flink's scope ``<operator>.<group>...<metric>``)."""

    @abstractmethod
    def add_group(self, name: str, extra: str = None) -> 'MetricGroup':
        """A nested group ``name``; with ``extra``, a key group ``name`` holding a value group ``extra``, which
        is returned and defines the user variable ``name`` = ``extra`` (a label in Prometheus)."""

    @abstractmethod
    def counter(self, name: str) -> 'Counter':
        """Register (or return the registered) counter ``name``."""

    @abstractmethod
    def gauge(self, name: str, obj: Callable[[], int]) -> None:
        """Register a gauge: ``obj()`` is read whenever the metric is reported."""

    @abstractmethod
    def meter(self, name: str, time_span_in_seconds: int = 60) -> 'Meter':
        """Register a meter: events per second over the last ``time_span_in_seconds``."""

    @abstractmethod
    def distribution(self, name: str) -> 'Distribution':
        """Register a distribution of the values passed to its ``update()``."""


class Metric(ABC):
    """A metric."""


class Counter(Metric, ABC):
    """A count that the function raises or lowers."""

    @abstractmethod
    def inc(self, n: int = 1):
        """Add ``n``."""

    @abstractmethod
    def dec(self, n: int = 1):
        """Subtract ``n``."""

    @abstractmethod
    def get_count(self) -> int:
        """The count (of this parallel instance)."""


class Meter(Metric, ABC):
    """Events per second."""

    @abstractmethod
    def mark_event(self, value: int = 1):
        """Record ``value`` events now."""

    @abstractmethod
    def get_count(self) -> int:
        """Events recorded so far (by this parallel instance)."""


class Distribution(Metric, ABC):
    """Statistics (count, sum, min, max, mean) of the values passed to ``update()``."""

    @abstractmethod
    def update(self, value):
        """Record one value."""

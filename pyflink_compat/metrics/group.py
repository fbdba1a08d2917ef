"""pyflink-compat's metric groups and metrics for user functions, kept in the Python process running them.

A metric lives in this process and belongs to a job (the job whose Spark task unpickled its functions, see
``set_current_job``); ``take_updates`` gives what changed since it was last called, which the runtime sends to
the job's driver at the end of each task (runtime/metrics.py). Outside a job's task (a function called
directly) metrics work and are reported nowhere.

Identity of a metric: ``(kind, operator, subtask, groups, name)``; ``groups`` is the path of ``add_group``
calls, each ``(name, value)`` (value None for a plain group; a user variable, a label in Prometheus, otherwise).
"""
import collections
import contextlib
import logging
import threading
import time
from typing import Callable, Dict, Optional

from pyflink_compat.metrics import metricbase

log = logging.getLogger("pyflink_compat.runtime")

COUNTER = "counter"
GAUGE = "gauge"
METER = "meter"
DISTRIBUTION = "distribution"

#: Metrics whose name starts so are the runtime's own (sent like the others, never reported).
INTERNAL_PREFIX = "_"
#: The highest record timestamp read from a partition (a distribution: its maximum), for watermarkLag.
PARTITION_MAX_TIMESTAMP = INTERNAL_PREFIX + "partitionMaxTimestamp"

#: Operator-scope groups of Flink's Kafka connector metrics.
KAFKA_SOURCE_READER = (("KafkaSourceReader", None),)
KAFKA_CONSUMER = KAFKA_SOURCE_READER + (("KafkaConsumer", None),)


def metric_key(kind: str, operator: str, subtask: int, groups: tuple, name: str) -> tuple:
    return (kind, operator, int(subtask), tuple(groups), name)


_current_job: Optional[str] = None
# job id -> metric key -> metric object, in this Python worker
_registered: Dict[str, Dict[tuple, object]] = collections.defaultdict(dict)
_registry_lock = threading.Lock()
_io_updates: Dict[tuple, object] = {}
_warned_gauges = set()
# The parallel instances (operator, subtask) this worker ran in the current task: only their gauges are reported.
# Another worker may run an instance later (its state restored there); the copy left here must not report its
# stale value.
_ran_now = set()
_collecting: Optional[list] = None


@contextlib.contextmanager
def instances_opened():
    """Collects the (operator, subtask) of the metric groups made inside (while function instances are opened):
    whoever keeps those instances passes the list to ``ran`` each time it runs them again."""
    global _collecting
    outer, _collecting = _collecting, []
    collected = _collecting
    try:
        yield collected
    finally:
        _collecting = outer
        if outer is not None:
            outer.extend(collected)


def ran(instances):
    """This task runs these instances (kept from an earlier task of this worker): their gauges are current."""
    with _registry_lock:
        _ran_now.update(instances)


def _made(instance: tuple):
    with _registry_lock:
        _ran_now.add(instance)
        if _collecting is not None:
            _collecting.append(instance)


def current_job() -> Optional[str]:
    return _current_job


def set_current_job(job_id: Optional[str]):
    """The job whose task this process runs now: metric groups made from now on belong to it."""
    global _current_job
    _current_job = job_id


def record_io(operator: str, subtask: int, name: str, amount, groups: tuple = (), kind: str = COUNTER):
    """Count (or set, for a gauge; or add a value to, for a distribution) one of the connector's own metrics in
    this task."""
    key = metric_key(kind, operator, subtask, groups, name)
    with _registry_lock:
        if kind == GAUGE:
            _io_updates[key] = (time.time(), amount)
        elif kind == DISTRIBUTION:
            old = _io_updates.get(key)
            _io_updates[key] = (1, amount, amount, amount) if old is None else (
                old[0] + 1, old[1] + amount, min(old[2], amount), max(old[3], amount))
        else:
            _io_updates[key] = _io_updates.get(key, 0) + amount


def take_updates(job_id: str) -> dict:
    """What changed since the last call: counters' and meters' increases, the values of the gauges of the
    instances run since (``ran``, or made then), distributions' statistics; plus the connector metrics recorded
    with ``record_io``."""
    global _io_updates, _ran_now
    updates = {}
    with _registry_lock:
        updates.update(_io_updates)
        _io_updates = {}
        metrics = list(_registered.get(job_id, {}).items())
        current, _ran_now = _ran_now, set()
    now = time.time()
    for key, metric in metrics:
        kind = key[0]
        if kind in (COUNTER, METER):
            change = metric.take_change()
            if change:
                updates[key] = change
        elif kind == DISTRIBUTION:
            stats = metric.take_statistics()
            if stats is not None:
                updates[key] = stats
        else:
            if key[1:3] not in current:
                continue                         # an instance this task did not run: maybe a stale copy
            try:
                value = metric()
            except Exception as e:               # noqa: BLE001 - a failing gauge is not reported
                if key not in _warned_gauges:
                    _warned_gauges.add(key)
                    log.warning("Gauge %s failed: %s", key[-1], e)
                continue
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                updates[key] = (now, value)
    return updates


class _Counting:
    """A count, and what it grew by since the last ``take_change`` (what the task reports)."""

    def __init__(self):
        self._count = 0
        self._sent = 0

    def get_count(self) -> int:
        return self._count

    def take_change(self) -> int:
        change, self._sent = self._count - self._sent, self._count
        return change


class _Counter(_Counting, metricbase.Counter):
    def inc(self, n: int = 1):
        self._count += n

    def dec(self, n: int = 1):
        self._count -= n


class _Meter(_Counting, metricbase.Meter):
    def __init__(self, time_span_in_seconds: int = 60):
        super().__init__()
        self.time_span_in_seconds = time_span_in_seconds

    def mark_event(self, value: int = 1):
        self._count += value


class _Distribution(metricbase.Distribution):
    def __init__(self):
        self._stats = None

    def update(self, value):
        s = self._stats
        self._stats = (1, value, value, value) if s is None else (s[0] + 1, s[1] + value, min(s[2], value),
                                                                   max(s[3], value))

    def take_statistics(self):
        stats, self._stats = self._stats, None
        return stats


class OperatorMetricGroup(metricbase.MetricGroup):
    """The metric group of one parallel instance of an operator (``operator``, ``subtask``), or of a group
    nested in it."""

    def __init__(self, operator: str, subtask: int, groups: tuple = (), job_id: Optional[str] = None):
        self._operator = operator
        self._subtask = int(subtask)
        self._groups = tuple(groups)
        self._job_id = job_id if job_id is not None else current_job()
        _made((self._operator, self._subtask))

    def add_group(self, name: str, extra: str = None) -> "OperatorMetricGroup":
        if not isinstance(name, str) or not name:
            raise ValueError("The group name must be a non-empty string.")
        return OperatorMetricGroup(self._operator, self._subtask,
                                   self._groups + ((name, None if extra is None else str(extra)),), self._job_id)

    def _register(self, kind: str, name: str, make: Callable):
        key = metric_key(kind, self._operator, self._subtask, self._groups, name)
        if self._job_id is None:                 # outside a job's task (a function called directly): kept here
            return make()
        with _registry_lock:
            metrics = _registered[self._job_id]
            metric = metrics.get(key)
            if metric is None or kind == GAUGE:
                metric = metrics[key] = make()
        return metric

    def counter(self, name: str) -> metricbase.Counter:
        return self._register(COUNTER, name, _Counter)

    def gauge(self, name: str, obj: Callable[[], int]) -> None:
        if not callable(obj):
            raise TypeError("A gauge needs a callable returning its value, got %r" % type(obj).__name__)
        self._register(GAUGE, name, lambda: obj)

    def meter(self, name: str, time_span_in_seconds: int = 60) -> metricbase.Meter:
        return self._register(METER, name, lambda: _Meter(time_span_in_seconds))

    def distribution(self, name: str) -> metricbase.Distribution:
        return self._register(DISTRIBUTION, name, _Distribution)

    def __repr__(self):
        return "MetricGroup(%s)" % ".".join([self._operator, str(self._subtask)] + [
            part for name, value in self._groups for part in ((name,) if value is None else (name, value))])


def operator_group(operator: str, subtask: int) -> OperatorMetricGroup:
    """The metric group a runtime context hands to a function of ``operator``'s instance ``subtask``."""
    return OperatorMetricGroup(operator, subtask)

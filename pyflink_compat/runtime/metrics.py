"""Flink's metrics for a job running as Spark queries: user metrics of functions, the Kafka source's and sink's
metrics under Flink's names, and the job's own.

Where they are measured:

- in the Spark tasks (Python workers): what user functions register through ``get_metrics_group()`` and what
  the Kafka reader and writer count (records and bytes in and out, send errors and time). Each task sends what
  changed since the task before it (a counter's increase, a gauge's value, a distribution's statistics) to
  the driver through one Spark accumulator per job run, which Spark merges only for tasks that succeeded;
- on the driver: the source offsets of each completed micro-batch (current, committed, pending records, lag),
  offset commits, restarts and checkpoint duration and size.

``JobMetrics`` holds one job run's values on the driver; ``reporters.py`` serves them (Prometheus).
The metric objects of user functions are in ``pyflink_compat/metrics/group.py``.
"""
import collections
import logging
import threading
import time
from typing import Callable, Dict, Optional

from pyflink_compat.metrics import group
from pyflink_compat.metrics.group import (COUNTER, DISTRIBUTION, GAUGE, KAFKA_CONSUMER, KAFKA_SOURCE_READER, METER,
                                          metric_key, record_io)

log = logging.getLogger("pyflink_compat.runtime")


_RATED = ("numRecordsIn", "numRecordsOut", "numBytesIn", "numBytesOut")


def _merge(totals: dict, update: dict) -> dict:
    merged = dict(totals)       # a new dict: the reporter's thread may be reading the old one
    for key, value in update.items():
        kind = key[0]
        if kind in (COUNTER, METER):
            merged[key] = merged.get(key, 0) + value
        elif kind == GAUGE:
            old = merged.get(key)
            if old is None or value[0] >= old[0]:   # (time, value): the newest reading wins
                merged[key] = value
        elif kind == DISTRIBUTION:
            old = merged.get(key)
            merged[key] = value if old is None else (old[0] + value[0], old[1] + value[1],
                                                     min(old[2], value[2]), max(old[3], value[3]))
    return merged


def _accumulator_param():
    from pyspark.accumulators import AccumulatorParam

    class MetricUpdates(AccumulatorParam):
        """Merges the metric updates of tasks: counts add up, the newest gauge reading wins, distributions'
        statistics combine."""

        def zero(self, value):
            return {}

        def addInPlace(self, value1, value2):
            return _merge(value1, value2)

    return MetricUpdates()


class MetricsChannel:
    """Carries a job run's accumulator into its Spark tasks. Each task unpickles its own copy (with the
    functions it runs): that copy becomes the worker's current channel, so that the metric groups made while
    the task opens its functions belong to this job."""

    def __init__(self, job_id: str, accumulator):
        self.job_id = job_id
        self.accumulator = accumulator

    def __getstate__(self):
        return {"job_id": self.job_id, "accumulator": self.accumulator}

    def __setstate__(self, state):
        self.job_id = state["job_id"]
        self.accumulator = state["accumulator"]
        group.set_current_job(self.job_id)

    def flush(self):
        """Send what changed since the last flush (of this worker) to the driver, with this task's result."""
        updates = group.take_updates(self.job_id)
        if updates:
            try:
                self.accumulator.add(updates)
            except Exception as e:               # noqa: BLE001 - metrics never fail a task
                log.warning("Could not report metrics: %s", e)


class Reporting:
    """A read task's transform (or none), then sending the task's metric updates to the driver: its functions'
    metrics and what its Kafka reads and writes counted, as the source's and sinks' metrics. ``source``:
    (operator name, parallelism) of the source it reads; ``sinks``: topic -> (operator name, parallelism) of
    the job's Kafka sinks ("" for a sink choosing topics per record)."""

    def __init__(self, transform, channel: MetricsChannel, source=None, sinks=None):
        self.transform = transform
        self.channel = channel
        self.source = source
        self.sinks = dict(sinks or {})

    def __call__(self, batches):
        from pyflink_compat.kafka_io import io_counts
        io_counts.take()                          # a failed task's counts are not this task's
        try:
            yield from (batches if self.transform is None else self.transform(batches))
        finally:
            self._report()

    def around(self, work: Callable):
        """Run a task's ``work()`` (a Spark-side Kafka writer's), then report what it counted."""
        from pyflink_compat.kafka_io import io_counts
        io_counts.take()
        try:
            return work()
        finally:
            self._report()

    def _report(self):
        record_kafka_io(self.source, self.sinks)
        self.channel.flush()


def record_kafka_io(source, sinks: dict):
    """Turn what this task's Kafka reads and writes counted into the metrics of Flink's source and sink."""
    from pyflink_compat.kafka_io import io_counts
    from pyflink_compat.kafka_io import source as ksource
    reads, writes = io_counts.take()
    now_ms = time.time() * 1000.0
    if source is not None:
        operator, parallelism = source
        for (topic, partition), (records, size, newest, fetched) in reads.items():
            subtask = ksource.split_owner(topic, partition, parallelism)
            record_io(operator, subtask, "numRecordsIn", records)
            record_io(operator, subtask, "numRecordsOut", records)
            record_io(operator, subtask, "numBytesIn", size)
            if newest is not None and newest >= 0:
                record_io(operator, subtask, group.PARTITION_MAX_TIMESTAMP, newest,
                          (("topic", topic), ("partition", str(partition))), kind=DISTRIBUTION)
                record_io(operator, subtask, "currentFetchEventTimeLag", max(fetched * 1000.0 - newest, 0.0),
                          kind=GAUGE)
                record_io(operator, subtask, "currentEmitEventTimeLag", max(now_ms - newest, 0.0), kind=GAUGE)
    for topic, (records, size, failed, flush_ms) in writes.items():
        sink = sinks.get(topic) or sinks.get("")
        if sink is None:
            if len(sinks) != 1:
                continue
            sink = next(iter(sinks.values()))
        operator, parallelism = sink
        subtask = ksource.reader_index(parallelism)
        for name in ("numRecordsIn", "numRecordsOut", "numRecordsSend"):
            record_io(operator, subtask, name, records)
        for name in ("numBytesOut", "numBytesSend"):
            record_io(operator, subtask, name, size)
        for name in ("numRecordsOutErrors", "numRecordsSendErrors"):
            record_io(operator, subtask, name, failed)
        if flush_ms is not None:
            record_io(operator, subtask, "currentSendTime", round(flush_ms), kind=GAUGE)


# -- on the driver -------------------------------------------------------------------------------------------

_planning = threading.local()


def planning_channel() -> Optional[MetricsChannel]:
    """The channel of the job run whose queries are being planned on this thread (None outside a job run)."""
    return getattr(_planning, "channel", None)


def _planning_job():
    return getattr(_planning, "job", None)


class planning_with:
    """Marks the planning of ``job``'s queries on this thread, for the metrics of ``channel``."""

    def __init__(self, channel: Optional[MetricsChannel], job=None):
        self.channel, self.job = channel, job

    def __enter__(self):
        self.previous = (planning_channel(), _planning_job())
        _planning.channel, _planning.job = self.channel, self.job
        return self.channel

    def __exit__(self, *exc):
        _planning.channel, _planning.job = self.previous
        return False


def source_operator_name(node) -> str:
    return node.name if node.name.startswith("Source: ") else "Source: %s" % node.name


def sink_operator_name(node) -> str:
    """Flink's name of a Kafka sink's writing operator: ``<name>: Writer`` (sink_to), ``Sink: <name>``
    (add_sink of the legacy producer)."""
    origin = getattr(node.payload, "origin", "KafkaSink")
    return "%s: Writer" % node.name if origin == "KafkaSink" else "Sink: %s" % node.name


def source_parallelism(node) -> int:
    job = _planning_job()
    return node.parallelism or (job.parallelism if job is not None else 1) or 1


def kafka_sinks(job) -> dict:
    """topic ("" for a topic selector) -> (operator name, parallelism) of the job's Kafka sinks."""
    from pyflink_compat.plan import graph
    sinks = {}
    for sink in getattr(job, "sinks", ()):
        if sink.kind == graph.KAFKA_SINK:
            sinks[sink.payload.topic or ""] = (sink_operator_name(sink), sink.parallelism or job.parallelism)
    return sinks


def with_reporting(transform, source_node=None):
    """The read task's transform, followed by reporting its metrics (``transform`` as is outside a job run)."""
    channel = planning_channel()
    if channel is None:
        return transform
    job = _planning_job()
    source = None
    if source_node is not None and job is not None:
        source = (source_operator_name(source_node), source_parallelism(source_node))
    return Reporting(transform, channel, source, kafka_sinks(job) if job is not None else {})


def writer_reporting():
    """What a Spark-side Kafka writer's tasks call around their work (``Reporting.around``), or None outside a
    job run."""
    channel = planning_channel()
    if channel is None:
        return None
    job = _planning_job()
    return Reporting(None, channel, None, kafka_sinks(job) if job is not None else {}).around


class JobMetrics:
    """One job run's metrics on the driver."""

    def __init__(self, job_id: str, job_name: str):
        from pyspark import SparkContext
        self.job_id = job_id
        self.job_name = job_name
        self.accumulator = SparkContext.getOrCreate().accumulator({}, _accumulator_param())
        self.channel = MetricsChannel(job_id, self.accumulator)
        self._driver_values: Dict[tuple, object] = {}
        self._meter_history: Dict[tuple, collections.deque] = {}
        self._started = time.monotonic()
        self._lock = threading.Lock()
        self.job_values: Dict[str, object] = {}
        self.completed_checkpoints = 0
        self._last_batches: Dict[object, int] = {}
        self._source_watermarks: Dict[tuple, int] = {}     # (source operator, reader) -> its watermark

    # values measured on the driver
    def set_gauge(self, operator: str, subtask: int, name: str, value, groups: tuple = ()):
        with self._lock:
            self._driver_values[metric_key(GAUGE, operator, subtask, groups, name)] = (time.time(), value)

    def set_count(self, operator: str, subtask: int, name: str, value, groups: tuple = ()):
        with self._lock:
            self._driver_values[metric_key(COUNTER, operator, subtask, groups, name)] = value

    def values(self) -> dict:
        """Every metric's current value by key, as Flink's reporters see it: counters' counts, gauges' values,
        meters' rates (events per second over their time span); plus ``<counter>PerSecond`` rates of the
        connector's record and byte counters."""
        try:
            totals = dict(self.accumulator.value)
        except Exception:                            # noqa: BLE001 - the driver is stopping
            totals = {}
        with self._lock:
            totals.update(self._driver_values)
        now = time.monotonic()
        result = {}
        now_ms = time.time() * 1000.0
        with self._lock:
            for (operator, subtask), watermark in self._source_watermarks.items():
                result[metric_key(GAUGE, operator, subtask, (), "watermarkLag")] = now_ms - watermark
        for key, value in totals.items():
            kind = key[0]
            if key[-1].startswith(group.INTERNAL_PREFIX):
                continue
            if kind == GAUGE:
                result[key] = value[1]
            elif kind == METER:
                result[key] = self._rate(key, value, now)
            elif kind == DISTRIBUTION:
                result[key] = 0.0      # Flink reports PyFlink's distributions as non-numeric gauges: 0 in Prometheus
            else:
                result[key] = value
                if kind == COUNTER and key[-1] in _RATED and not key[3]:
                    rate_key = key[:-1] + (key[-1] + "PerSecond",)
                    result[rate_key] = self._rate(rate_key, value, now)
        return result

    def _rate(self, key, count, now, span_s: float = 60.0) -> float:
        """Events per second as Flink's MeterView gives them: what the count grew by over the last ``span_s``
        seconds (from zero at the job's start), divided by ``span_s``."""
        history = self._meter_history.get(key)
        if history is None:
            history = self._meter_history[key] = collections.deque([(self._started, 0)])
        if history[-1][1] != count:
            history.append((now, count))
        while len(history) > 1 and history[1][0] <= now - span_s:
            history.popleft()              # history[0] stays: the count as of ``span_s`` ago
        return (count - history[0][1]) / span_s

    # -- measured on the driver ------------------------------------------------------------------------------

    def observe_sources(self, query_sources, progress):
        """The Kafka sources' offsets after the last completed micro-batch of a query (its progress report):
        per partition the last record's offset and the committed offset, per reader the records still to read
        (pendingRecords, records-lag-max), and the offset commits."""
        from pyflink_compat.kafka_io import offsets as koffsets
        from pyflink_compat.kafka_io import source as ksource
        reported = (progress or {}).get("sources") or []
        for source, report in zip(query_sources, reported):
            if source.metrics_operator is None:
                continue
            operator, readers = source.metrics_operator, source.parallelism
            ends = koffsets.from_json(_parsed(report.get("endOffset")))
            latest = koffsets.from_json(_parsed(report.get("latestOffset")))
            pending = collections.defaultdict(int)
            lag_max = collections.defaultdict(int)
            for (topic, partition), end in ends.items():
                subtask = ksource.split_owner(topic, partition, readers)
                groups = KAFKA_SOURCE_READER + (("topic", topic), ("partition", str(partition)))
                if end > 0:
                    self.set_gauge(operator, subtask, "currentOffset", end - 1, groups)
                behind = max(latest.get((topic, partition), end) - end, 0)
                pending[subtask] += behind
                lag_max[subtask] = max(lag_max[subtask], behind)
            for subtask in range(readers):
                self.set_gauge(operator, subtask, "pendingRecords", pending.get(subtask, 0))
                self.set_gauge(operator, subtask, "records-lag-max", float(lag_max.get(subtask, 0)),
                               KAFKA_CONSUMER)
            self._observe_watermarks(source, ends)
            committer = source.offset_committer
            if committer is not None:
                for (topic, partition), offset in dict(committer.committed).items():
                    subtask = ksource.split_owner(topic, partition, readers)
                    self.set_gauge(operator, subtask, "committedOffset", offset,
                                   KAFKA_SOURCE_READER + (("topic", topic), ("partition", str(partition))))
                for subtask in range(readers):
                    # Flink counts commits per reader; one commit here covers every reader's partitions
                    self.set_count(operator, subtask, "commitsSucceeded", committer.succeeded, KAFKA_SOURCE_READER)
                    self.set_count(operator, subtask, "commitsFailed", committer.failed, KAFKA_SOURCE_READER)

    def _observe_watermarks(self, source, ends: dict):
        """Each reader's watermark as the source's strategy generates it from the record timestamps read: the
        least over the reader's partitions; a partition without records holds it back, as a split's watermark
        does on Flink, unless the strategy has idleness (watermarkLag is the time since it)."""
        from pyflink_compat.common.watermark_strategy import NO_WATERMARKS
        from pyflink_compat.kafka_io import source as ksource
        spec = source.watermark_spec
        if spec is None or spec.kind == NO_WATERMARKS:
            return
        try:
            totals = self.accumulator.value
        except Exception:                            # noqa: BLE001 - the driver is stopping
            return
        operator, readers = source.metrics_operator, source.parallelism
        lowest = {}                  # reader -> least highest timestamp of its partitions (None: one has none)
        for topic, partition in ends:
            subtask = ksource.split_owner(topic, partition, readers)
            seen = totals.get(metric_key(DISTRIBUTION, operator, subtask,
                                         (("topic", topic), ("partition", str(partition))),
                                         group.PARTITION_MAX_TIMESTAMP))
            if seen is None:
                if spec.idle_timeout_ms is None:
                    lowest[subtask] = None
                continue
            if subtask not in lowest:
                lowest[subtask] = seen[3]
            elif lowest[subtask] is not None:
                lowest[subtask] = min(lowest[subtask], seen[3])
        with self._lock:
            for subtask, highest in lowest.items():
                if highest is not None:
                    watermark = highest - spec.max_out_of_orderness_ms - 1
                    key = (operator, subtask)
                    self._source_watermarks[key] = max(watermark, self._source_watermarks.get(key, watermark))

    def observe_checkpoint(self, query_key, progress, checkpoint_directory: Optional[str]):
        """A query's completed micro-batch is a checkpoint: its duration, the size of what it wrote."""
        if not progress:
            return
        batch_id = progress.get("batchId")
        if batch_id is None or self._last_batches.get(query_key) == batch_id:
            return
        self._last_batches[query_key] = batch_id
        self.completed_checkpoints += 1
        durations = progress.get("durationMs") or {}
        self.job_values["lastCheckpointDuration"] = durations.get("triggerExecution", 0)
        self.job_values["lastCheckpointSize"] = _checkpoint_size(checkpoint_directory, batch_id)
        self.job_values["numberOfCompletedCheckpoints"] = self.completed_checkpoints
        self.job_values["lastCompletedCheckpointId"] = self.completed_checkpoints

    def job_metric_values(self, restarts: int, started_at: float) -> dict:
        values = dict(self.job_values)
        values["numRestarts"] = restarts
        values["uptime"] = int((time.monotonic() - started_at) * 1000)
        return values


def _parsed(offsets):
    import json
    return json.loads(offsets) if isinstance(offsets, str) else offsets


def _checkpoint_size(directory: Optional[str], batch_id: int) -> int:
    """Bytes a micro-batch wrote to the checkpoint directory: its offsets and commit logs and the state files
    of its version (Spark's state store version is the batch id + 1)."""
    import os
    if not directory or not os.path.isdir(directory):
        return 0
    names = {str(batch_id), str(batch_id + 1)}
    size = 0
    for root, _dirs, files in os.walk(directory):
        for name in files:
            if name.split(".", 1)[0] in names and not name.endswith(".crc"):
                try:
                    size += os.path.getsize(os.path.join(root, name))
                except OSError:
                    pass
    return size

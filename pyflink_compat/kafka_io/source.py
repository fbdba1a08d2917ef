"""The Kafka source as a Spark Python streaming data source.

Driver side (``KafkaStreamReader``, in Spark's long-lived Python process for the
query): plans micro-batches as offset ranges per partition, with a record cap,
partition discovery and stopping offsets. Executor side (``read``): one task per
partition range; a kafka-python consumer reads exactly that range and yields
Arrow batches of (element, event_ts), the value already deserialized.

Start offsets are resolved by the translation on the driver before the query
starts (so errors surface in the user's process) and arrive in the options.
"""
import base64
import json
import logging
import time
from typing import Dict, List

import pyarrow as pa
from pyspark.sql.datasource import DataSource, DataSourceStreamReader, InputPartition
from pyspark.sql.streaming.datasource import ReadMaxRows

from pyflink_compat import options as compat_options
from pyflink_compat.kafka_io import offsets as koffsets
from pyflink_compat.kafka_io import spec as kspec
from pyflink_compat.kafka_io.clients import per_worker_client
from pyflink_compat.kafka_io import properties as kprops
from pyflink_compat.kafka_io.cluster import Cluster
from pyflink_compat.third_party_patches import arrow_without_pandas, forbid_topic_creation

log = logging.getLogger("pyflink_compat.kafka")

FORMAT_NAME = "pyflink_compat_kafka"
# The pickled spec holds the Kafka properties, passwords included. Spark redacts option values whose key
# matches spark.redaction.regex (default: secret|password|token|...) in plans and logs: hence the name.
SPEC_OPTION = "kafka_spec_secret"
# Optional: a pickled function over Arrow batches of (element, event_ts), applied to what read() decoded.
# It may carry a Kafka sink's spec (direct writes), so its key too is one Spark redacts.
TRANSFORM_OPTION = "transform_secret"
ARROW_BATCH_ROWS = 20_000
# Minimum pause between two end-offset lookups when a poll found nothing new.
IDLE_LOOKUP_INTERVAL_S = 0.05
# How long a topic the source was reading may be missing from the broker's metadata before the job fails.
VANISHED_TOPIC_GRACE_S = 10.0


class KafkaOffsetOutOfRangeError(RuntimeError):
    """A partition's log no longer holds the offsets a source has to read."""


class KafkaReadStalledError(TimeoutError):
    """A read task got no record of its planned range for ``request.timeout.ms``."""


#: Errors only the source raises: a failed query names the source as the failing task when its cause is one.
SOURCE_ERROR_NAMES = frozenset({"KafkaOffsetOutOfRangeError", "KafkaReadStalledError", "KafkaTopicNotFoundError"})


def reset_strategy(properties) -> str:
    """What the source does at a position out of the log's range: ``auto.offset.reset``, which the
    KafkaSource builder sets from its starting offsets (as Flink's does); Kafka's default otherwise."""
    return properties.get("auto.offset.reset", kspec.RESET_LATEST).strip().lower()


def encode_object(obj) -> str:
    from pyspark import cloudpickle
    return base64.b64encode(cloudpickle.dumps(obj)).decode("ascii")


def decode_object(text: str):
    import pickle
    return pickle.loads(base64.b64decode(text))


class KafkaSplit(InputPartition):
    """One Spark task: read [start, end) of one Kafka partition."""

    # The source's last micro-batch (every partition at its stopping offset): the (topic, partition) of each of
    # its splits, so that the tasks of one reader know how many they are (the last closes its functions).
    final_partitions = None

    def __init__(self, topic: str, partition: int, start: int, end: int, finished: bool = False):
        self.topic, self.partition, self.start, self.end = topic, partition, start, end
        self.finished = finished          # ``end`` is the partition's stopping offset (a bounded source ends)

    def __repr__(self):
        return "KafkaSplit(%s-%d [%d, %d))" % (self.topic, self.partition, self.start, self.end)

    # What the operators chained to a source ask of the split their read task reads (other sources' splits, e.g.
    # the datagen source's, answer the same three questions).
    def reader(self, parallelism: int) -> int:
        """The parallel source instance that reads this split."""
        return split_owner(self.topic, self.partition, parallelism)

    def input_name(self) -> str:
        return "%s:%d" % (self.topic, self.partition)

    def final_reader_tasks(self, parallelism: int):
        """In the source's last micro-batch: how many tasks this split's reader has in it; None otherwise."""
        if self.final_partitions is None:
            return None
        reader = self.reader(parallelism)
        return sum(1 for topic, partition in self.final_partitions
                   if split_owner(topic, partition, parallelism) == reader)


class KafkaDataSource(DataSource):
    """Options: ``kafka_spec_secret`` (pickled KafkaSourceSpec or KafkaSinkSpec), ``start_offsets``/``stop_offsets``
    (JSON), ``schema`` (Spark DDL), ``max_records_per_batch``, ``element_type`` (pickled TypeInformation)."""

    @classmethod
    def name(cls):
        return FORMAT_NAME

    def schema(self):
        return self.options["schema"]

    def streamReader(self, schema):
        return KafkaStreamReader(self.options)

    def streamWriter(self, schema, overwrite):
        from pyflink_compat.kafka_io.sink import KafkaStreamWriter
        return KafkaStreamWriter(self.options)


class KafkaStreamReader(DataSourceStreamReader):

    def __init__(self, options):
        self.spec = decode_object(options[SPEC_OPTION])
        self.start_offsets = json.loads(options["start_offsets"])
        stop = options.get("stop_offsets") or ""
        self.stop_offsets = koffsets.from_json(json.loads(stop)) if stop else None
        self.max_records = int(options.get("max_records_per_batch", compat_options.DEFAULT_MAX_RECORDS_PER_BATCH))
        self.element_type_text = options["element_type"]
        self.transform_text = options.get(TRANSFORM_OPTION)
        # A keyed stage downstream needs to hear from every partition in every micro-batch (Flink's
        # watermark is the minimum over partitions): plan a task for each, also with nothing to read.
        self.plan_all_partitions = options.get("plan_all_partitions", "false") == "true"
        # Processing-time timers, processing-time windows and idleness need micro-batches while no records
        # come: Spark runs one only when the end offset changes, so a quiet source moves a tick instead.
        self.tick_interval_s = int(options.get("tick_interval_ms", "0")) / 1000.0
        self.last_progress = time.monotonic()
        # Partitions found after the start begin at their earliest offset (Flink's KafkaSource does so).
        self.discovered_start: Dict[koffsets.TP, int] = {}
        self.known = set(koffsets.from_json(self.start_offsets))
        self.discovery_interval_s = self.spec.partition_discovery_interval_ms / 1000.0
        self.last_discovery = time.monotonic()
        self.last_lookup = 0.0
        self.last_latest: Dict[koffsets.TP, int] = {}
        self.vanished_since = None
        self._cluster = None

    @property
    def cluster(self):
        if self._cluster is None:
            self._cluster = Cluster(self.spec.properties)
        return self._cluster

    def initialOffset(self):
        return self.start_offsets

    def getDefaultReadLimit(self):
        return ReadMaxRows(self.max_records)

    def _discover(self):
        if self.discovery_interval_s <= 0 or time.monotonic() - self.last_discovery < self.discovery_interval_s:
            return
        self.last_discovery = time.monotonic()
        try:
            current = set(koffsets.subscribed_partitions(self.cluster, self.spec.subscription))
        except Exception as e:                       # a failed discovery is retried next interval
            log.warning("Kafka partition discovery failed: %s", e)
            return
        new = sorted(current - self.known)
        if new:
            earliest = self.cluster.earliest_offsets(new)
            log.info("Discovered new Kafka partitions %s", new)
            self.discovered_start.update(earliest)
            self.known.update(new)

    def latestOffset(self, start, limit):
        self._discover()
        current = koffsets.from_json(start)
        for tp, off in self.discovered_start.items():
            current.setdefault(tp, off)
        pause = IDLE_LOOKUP_INTERVAL_S - (time.monotonic() - self.last_lookup)
        if pause > 0:
            time.sleep(pause)
        self.last_lookup = time.monotonic()
        latest = self._latest_offsets_patiently(current)
        resets = self._check_log_still_there(current, latest) or {}
        available = {}
        for tp, off in current.items():
            if tp in resets:
                continue
            end = max(off, latest.get(tp, off))
            if self.stop_offsets is not None and tp in self.stop_offsets:
                end = max(off, min(end, self.stop_offsets[tp]))
            available[tp] = end
        if isinstance(limit, ReadMaxRows):
            available = _cap(current, available, limit.max_rows)
        # A reset partition reads nothing in this micro-batch: its end offset is where it starts again, the
        # next micro-batch reads from there (Spark offsets only ever name where a batch ends).
        available.update(resets)
        end = koffsets.to_json(available)
        if self.tick_interval_s > 0:
            tick = int(start.get(koffsets.TICK_KEY, {}).get("0", 0)) if start else 0
            if any(available[tp] > current[tp] for tp in available):
                self.last_progress = time.monotonic()
            elif time.monotonic() - self.last_progress >= self.tick_interval_s:
                self.last_progress = time.monotonic()
                tick += 1
            end[koffsets.TICK_KEY] = {"0": tick}
        return end

    def _latest_offsets_patiently(self, current):
        """End offsets of the partitions in ``current`` (partition -> the source's position), waiting out a
        broker that stops answering for a while (restarting, frozen, overloaded) up to
        ``default.api.timeout.ms`` (Kafka's default 60 s), as Flink's reader waits for its consumer; then the
        job fails naming the bootstrap servers. A broker that answers that a partition is unknown is not
        waited for that long: see ``_check_log_still_there``."""
        from kafka.errors import UnknownTopicOrPartitionError
        from pyflink_compat.kafka_io.cluster import KafkaConnectionError
        tps = sorted(current)
        patience_s = int(self.spec.properties.get("default.api.timeout.ms", "60000")) / 1000.0
        give_up_at = None
        while True:
            try:
                return self.cluster.latest_offsets(tps)
            except KafkaConnectionError as e:
                if isinstance(e.__cause__, UnknownTopicOrPartitionError):
                    # Ask which topics are gone; if none is, a stale metadata answer: try again below.
                    self._check_log_still_there(current, None)
                now = time.monotonic()
                if give_up_at is None:
                    give_up_at = now + patience_s
                    log.warning("Kafka did not answer an offsets lookup, retrying for up to %.0f s: %s", patience_s, e)
                if now >= give_up_at:
                    raise KafkaConnectionError("Kafka bootstrap servers '%s' did not answer offsets lookups for "
                                               "%.0f s (default.api.timeout.ms): %s"
                                               % (self.spec.bootstrap_servers, patience_s, e)) from e
                if self._cluster is not None:
                    self._cluster.close()
                    self._cluster = None
                time.sleep(min(1.0, max(0.0, give_up_at - now)))

    def _check_log_still_there(self, current, latest):
        """Check that every partition's log still holds the position the source reached. A vanished topic
        (a broker that came back empty, a deleted topic) fails the job after ``VANISHED_TOPIC_GRACE_S``, so
        well within a minute of the loss, never later and never silently. An end offset below the position
        (the log was truncated or replaced) follows ``auto.offset.reset`` as Kafka's consumer does: returns
        the offsets to start again from (earliest, latest), or fails (none). ``latest``: the end offsets, or
        None when the broker called the partitions unknown."""
        if latest is None:
            behind = sorted(current)
        else:
            behind = sorted(tp for tp, off in current.items() if tp in latest and latest[tp] < off)
        if not behind:
            self.vanished_since = None
            return None
        from pyflink_compat.kafka_io.cluster import KafkaTopicNotFoundError
        topics = sorted({topic for topic, _ in behind})
        try:
            existing = self.cluster.partitions_of(topics)
            missing = [tp for tp in behind if tp[1] not in existing.get(tp[0], ())]
        except KafkaTopicNotFoundError:
            missing = behind
        if missing:
            where = ", ".join("topic '%s' partition %d (the source had read up to offset %d)" % (tp[0], tp[1],
                                                                                               current[tp])
                              for tp in missing)
            now = time.monotonic()
            if self.vanished_since is None:
                self.vanished_since = now
                log.warning("Kafka %s is gone from bootstrap servers '%s'; waiting up to %.0f s for it to return",
                            where, self.spec.bootstrap_servers, VANISHED_TOPIC_GRACE_S)
            if now - self.vanished_since < VANISHED_TOPIC_GRACE_S:
                return None
            raise KafkaTopicNotFoundError(
                "Kafka %s no longer exists on bootstrap servers '%s' (the broker lost it, or it was deleted): the "
                "source cannot go on without losing records. Restart the job once the topic is back, from a "
                "checkpoint or from chosen starting offsets." % (where, self.spec.bootstrap_servers))
        self.vanished_since = None
        if latest is None:
            return None                       # the partitions exist: the lookup is tried again
        where = ", ".join("topic '%s' partition %d (the source had read up to offset %d; the broker's end offset "
                          "is %d)" % (tp[0], tp[1], current[tp], latest[tp]) for tp in behind)
        strategy = reset_strategy(self.spec.properties)
        if strategy == kspec.RESET_NONE:
            raise KafkaOffsetOutOfRangeError(
                "Kafka %s: the log no longer holds the source's position on bootstrap servers '%s' (the broker "
                "lost records, or the topic was re-created), and auto.offset.reset is none. Restart the job from "
                "a checkpoint or from chosen starting offsets." % (where, self.spec.bootstrap_servers))
        # As Kafka's consumer does for a position out of range: start again at the log's start or end.
        targets = (self.cluster.earliest_offsets(behind) if strategy == kspec.RESET_EARLIEST
                   else {tp: latest[tp] for tp in behind})
        log.warning("Kafka %s: the log no longer holds the source's position on bootstrap servers '%s'; "
                    "auto.offset.reset is %s, so reading goes on from offset(s) %s", where,
                    self.spec.bootstrap_servers, strategy, ", ".join(str(targets[tp]) for tp in behind))
        return targets

    def reportLatestOffset(self):
        return None

    def partitions(self, start, end):
        begin = koffsets.from_json(start)
        finish = koffsets.from_json(end)
        splits = []
        # The batch that takes every partition to its stopping offset (not a tick after it, which reads nothing).
        final = self.stop_offsets is not None and all(
            stop >= self.stop_offsets.get(tp, stop + 1) for tp, stop in finish.items()) and not all(
            begin.get(tp, self.discovered_start.get(tp, 0)) >= self.stop_offsets.get(tp, stop + 1)
            for tp, stop in finish.items())
        for (topic, partition), stop in sorted(finish.items()):
            first = begin.get((topic, partition), self.discovered_start.get((topic, partition), 0))
            ends = self.stop_offsets is not None and stop >= self.stop_offsets.get((topic, partition), stop + 1)
            if stop > first or self.plan_all_partitions or final:
                splits.append(KafkaSplit(topic, partition, first, max(first, stop), finished=ends))
        if final:
            planned = tuple((split.topic, split.partition) for split in splits)
            for split in splits:
                split.final_partitions = planned
        return splits

    def read(self, partition):
        arrow_without_pandas()
        batches = read_split(self.spec, decode_object(self.element_type_text), partition)
        # The split is "current" while the transform runs, its end included (a keyed exchange reports the
        # split's progress after its last batch, also when the split had nothing to read).
        return within_split(partition, apply_transform(self.transform_text, batches))

    def commit(self, end):
        pass

    def stop(self):
        if self._cluster is not None:
            self._cluster.close()

    def __getstate__(self):
        # Spark pickles the reader to run read() on executors: leave the admin client behind.
        state = dict(self.__dict__)
        state["_cluster"] = None
        return state


#: The Kafka split the running read task is reading, while its output is consumed (a Python worker
#: runs one task at a time). A Kafka sink writing from the read task uses it to number its parallel
#: instance the way Flink's legacy consumer assigns partitions (see sink.subtask_index).
current_split = None


def java_string_hash(text: str) -> int:
    """Java's ``String.hashCode()`` (UTF-16 code units, 32-bit signed overflow)."""
    h = 0
    data = text.encode("utf-16-be")
    for i in range(0, len(data), 2):
        h = (31 * h + ((data[i] << 8) | data[i + 1])) & 0xFFFFFFFF
    return h - (1 << 32) if h >= (1 << 31) else h


def split_owner(topic: str, partition: int, parallelism: int) -> int:
    """The reader (parallel source instance) Flink gives a Kafka partition to: the topic's start index (its
    Java hash times 31, made non-negative, modulo the parallelism) plus the partition number, modulo. The
    KafkaSource enumerator and the legacy FlinkKafkaConsumer use the same rule."""
    start = ((java_string_hash(topic) * 31) & 0x7FFFFFFF) % parallelism
    return (start + partition) % parallelism


def reader_index(parallelism: int) -> int:
    """The parallel instance number of the running read task: the owner of the Kafka split it reads, so
    that operators chained to the source (user functions' RuntimeContext, print()'s "N>" prefix, a sink's
    fixed partitioner) number themselves as on Flink, the same in every micro-batch. Outside a Kafka split
    (a collection source), the Spark partition id modulo the parallelism."""
    split = current_split
    if split is not None and parallelism:
        return split.reader(parallelism)
    from pyspark import TaskContext
    context = TaskContext.get()
    partition = context.partitionId() if context is not None else 0
    return partition % parallelism if parallelism else partition


def current_split_name() -> str:
    """"topic:partition" of the split the running read task reads ("" outside a Kafka split)."""
    split = current_split
    return "" if split is None else split.input_name()


def reader_tasks_if_final(parallelism: int):
    """When the running read task belongs to its source's last micro-batch: how many tasks its reader has in
    it; None otherwise. A collection source is read in one task."""
    split = current_split
    if split is None:
        return 1
    return split.final_reader_tasks(parallelism)


def within_split(split, batches):
    """The batches of a read task, with ``split`` as the current split while they are made and handled."""
    global current_split
    current_split = split
    try:
        yield from batches
    finally:
        current_split = None


def apply_transform(transform_text, batches):
    """Run the query's fused user functions (if any) over the batches a read task produced."""
    if not transform_text:
        return batches
    return decode_object(transform_text)(batches)


def _cap(current, available, max_rows) -> Dict[koffsets.TP, int]:
    """Spread a record cap over partitions: each gets an equal share, leftovers go round again."""
    remaining = {tp: available[tp] - current[tp] for tp in available}
    granted = {tp: 0 for tp in available}
    budget = max_rows
    while budget > 0:
        hungry = [tp for tp in remaining if remaining[tp] > granted[tp]]
        if not hungry:
            break
        share = max(1, budget // len(hungry))
        for tp in hungry:
            take = min(share, remaining[tp] - granted[tp], budget)
            granted[tp] += take
            budget -= take
            if budget <= 0:
                break
    return {tp: current[tp] + granted[tp] for tp in available}


# -- executor side ---------------------------------------------------------------------------------

def _new_consumer(properties):
    from kafka import KafkaConsumer
    from pyflink_compat.kafka_io import record_columns
    config = kprops.consumer_config(properties)
    config.pop("group_id", None)             # ranges are assigned, never group-managed
    config["enable_auto_commit"] = False
    # A source only reads: its metadata requests must not create a topic that vanished (Flink's source sets
    # allow.auto.create.topics=false too), and a planned range out of the log's bounds is an error, never a
    # silent jump to another offset (the driver applies the reset strategy when it plans).
    config["allow_auto_create_topics"] = False
    config["auto_offset_reset"] = "none"
    # Records of a planned range exist already: never wait long for a fetch (Tansu sleeps half of it).
    if "fetch.max.wait.ms" not in properties:
        config["fetch_max_wait_ms"] = 10
    config.setdefault("max_partition_fetch_bytes", 8 * 1024 * 1024)
    config.setdefault("bootstrap_timeout_ms", 10000)
    consumer = KafkaConsumer(**config)
    forbid_topic_creation(consumer)          # kafka-python does not pass allow_auto_create_topics on
    record_columns.install(consumer)         # poll() returns a column chunk per record batch
    return consumer


#: With the columnar consumer, poll(max_records=...) counts record batches (chunks), not records. A fetch
#: response holds at most max_partition_fetch_bytes, which bounds a poll whatever the batches' sizes; this
#: cap matters only for tiny batches, where it keeps a poll near ARROW_BATCH_ROWS records.
POLL_MAX_CHUNKS = ARROW_BATCH_ROWS
# after this long without records in a range that should have them, whether the log still holds the position is
# asked (at most this often)
POSITION_CHECK_S = 2.0


def read_split(spec, element_type, task: KafkaSplit):
    """Yield Arrow batches of (element, event_ts) for the records of ``task``'s offset range."""
    from kafka import TopicPartition
    from pyflink_compat.kafka_io import record_columns

    deserializer = spec.value_deserializer
    properties = spec.properties
    consumer = per_worker_client("consumer", properties, _new_consumer)
    columnar = record_columns.install(consumer)
    tp = TopicPartition(task.topic, task.partition)
    consumer.assign([tp])
    consumer.seek(tp, task.start)
    stall_limit_s = int(properties.get("request.timeout.ms", "30000")) / 1000.0
    last_progress = last_check = time.monotonic()
    position = task.start
    pending = _ColumnBuffer() if columnar else _RecordBuffer()

    skipped = [_take_skipped(deserializer)]      # records a format dropped as malformed (ignore_parse_errors)

    def flush(rows=None):
        keys, values, timestamps, offsets = pending.take(rows)
        _count_read(task, values, timestamps)
        if isinstance(deserializer, kspec.RecordDeserializer):
            return _decode_records(deserializer, element_type, keys, values, timestamps, offsets, task)
        batch = _decode_batch(deserializer, element_type, values, timestamps, offsets, task)
        skipped[0] += _take_skipped(deserializer)
        return batch

    while position < task.end:
        polled = _poll(consumer, tp, task, position, properties, POLL_MAX_CHUNKS if columnar else ARROW_BATCH_ROWS)
        if polled is None:
            break
        polled = polled.get(tp, [])
        if polled:
            last_progress = time.monotonic()
            pending.add(polled, task.start, task.end)
            position = max(position, consumer.position(tp))
            while len(pending) >= ARROW_BATCH_ROWS:
                yield flush(ARROW_BATCH_ROWS)
        else:
            position = max(position, consumer.position(tp) or position)
            now = time.monotonic()
            if position < task.end and now - last_progress > POSITION_CHECK_S and now - last_check > POSITION_CHECK_S:
                # a log that ends before the position (the broker lost records, the topic was re-created) gives
                # empty polls from some brokers rather than an out-of-range error: decide as such an error would
                last_check = now
                if _log_ends_before(consumer, tp, task, position, properties):
                    break
            if position < task.end and now - last_progress > stall_limit_s:
                _fail_if_partition_vanished(consumer, task, position, properties)
                raise KafkaReadStalledError(
                    "No progress reading Kafka topic %s partition %d at offset %d (reading up to %d) from "
                    "bootstrap servers '%s' for %.0f s" % (task.topic, task.partition, position, task.end,
                                                            properties["bootstrap.servers"], stall_limit_s))
    if len(pending):
        yield flush()
    if skipped[0]:
        log.warning("Skipped %d malformed %s records in topic %s partition %d", skipped[0],
                    getattr(deserializer, "_FORMAT_NAME", type(deserializer).__name__), task.topic, task.partition)


def _count_read(task: KafkaSplit, values, timestamps):
    """Records, value bytes and the newest timestamp of what the split's task read (for the source's metrics)."""
    import pyarrow.compute as pc
    from pyflink_compat.kafka_io import io_counts
    if not len(values):
        return
    size = pc.sum(pc.binary_length(values)).as_py() or 0
    io_counts.count_read(task.topic, task.partition, len(values), size, pc.max(timestamps).as_py())


def _fail_if_partition_vanished(consumer, task: KafkaSplit, position: int, properties):
    """A read that stalls because its partition is gone (the broker came back empty, the topic was deleted) fails
    naming it, as the driver does when it plans a micro-batch of a vanished partition."""
    from pyflink_compat.kafka_io.cluster import KafkaTopicNotFoundError
    try:
        topics = consumer.topics()                    # a fresh metadata request, not the cached one
        partitions = consumer.partitions_for_topic(task.topic) if task.topic in topics else set()
    except Exception:                                 # the broker does not answer: the stall is the error
        return
    if task.partition not in (partitions or set()):
        raise KafkaTopicNotFoundError(
            "Kafka topic '%s' partition %d (the source had read up to offset %d) no longer exists on bootstrap "
            "servers '%s' (the broker lost it, or it was deleted): the source cannot go on without losing records. "
            "Restart the job once the topic is back, from a checkpoint or from chosen starting offsets."
            % (task.topic, task.partition, position, properties["bootstrap.servers"]))


def _log_ends_before(consumer, tp, task: KafkaSplit, position: int, properties) -> bool:
    """Whether the partition's log (fresh metadata and end offset) now ends before the read position. Then, as
    at an out-of-range position: under auto.offset.reset none the read fails naming where; otherwise True (the
    read ends there, and the driver starts the partition again when it plans the next micro-batch). A partition
    missing from the metadata, or a broker that does not answer, is left to the stall check."""
    try:
        if task.topic not in consumer.topics() or task.partition not in (consumer.partitions_for_topic(task.topic)
                                                                          or set()):
            return False
        end = consumer.end_offsets([tp])[tp]
    except Exception:                                 # noqa: B902 - the stall check decides then
        return False
    if end >= position:
        return False
    where = "Kafka topic '%s' partition %d no longer holds offset %d on bootstrap servers '%s' (its log ends at " \
            "offset %d)" % (task.topic, task.partition, position, properties["bootstrap.servers"], end)
    strategy = reset_strategy(properties)
    if strategy == kspec.RESET_NONE:
        raise KafkaOffsetOutOfRangeError("%s (the broker lost records, or the topic was re-created), and "
                                         "auto.offset.reset is none" % where)
    log.warning("%s; auto.offset.reset is %s: this read ends at offset %d of its range [%d, %d)", where, strategy,
                position, task.start, task.end)
    return True


def _poll(consumer, tp, task: KafkaSplit, position: int, properties, max_records: int):
    """One poll of the read task's consumer. At a position the log no longer holds, ``auto.offset.reset``
    decides, as in Kafka's consumer: none fails naming where; earliest moves on to the log's start when
    records before it were deleted; otherwise the range ends here (None), and the driver starts the
    partition again at the log's start or end when it plans the next micro-batch."""
    from kafka.errors import NoOffsetForPartitionError, OffsetOutOfRangeError
    try:
        return consumer.poll(timeout_ms=500, max_records=max_records)
    except (OffsetOutOfRangeError, NoOffsetForPartitionError) as e:
        where = "Kafka topic '%s' partition %d no longer holds offset %d on bootstrap servers '%s'" % (
            task.topic, task.partition, position, properties["bootstrap.servers"])
        strategy = reset_strategy(properties)
        if strategy == kspec.RESET_NONE:
            raise KafkaOffsetOutOfRangeError("%s (the broker lost records, or the topic was re-created), and "
                                             "auto.offset.reset is none: %s" % (where, e)) from e
        log_start = consumer.beginning_offsets([tp])[tp]
        if strategy == kspec.RESET_EARLIEST and position < log_start < task.end:
            log.warning("%s (deleted up to offset %d); auto.offset.reset is earliest: reading goes on from there",
                        where, log_start)
            consumer.seek(tp, log_start)
            return {}
        log.warning("%s; auto.offset.reset is %s: this read ends at offset %d of its range [%d, %d)", where,
                    strategy, position, task.start, task.end)
        return None


class _ColumnBuffer:
    """Record chunks (``record_columns.RecordChunk``) polled and not yet decoded, within the split's range."""

    def __init__(self):
        self.chunks = []
        self.rows = 0

    def __len__(self):
        return self.rows

    def add(self, chunks, start, end):
        import numpy as np
        for chunk in chunks:
            if not len(chunk):
                continue
            first, last = chunk.offset, chunk.last_offset
            if first >= end or last < start:
                continue
            if first < start or last >= end:                 # decoded now, the others when taken
                offsets = chunk.offsets
                chunk = chunk.slice(int(np.searchsorted(offsets, start)), int(np.searchsorted(offsets, end)))
            self.chunks.append(chunk)
            self.rows += len(chunk)

    def take(self, rows=None):
        """(keys, values, timestamps, offsets) of the first ``rows`` records (all by default): a function
        building the keys' Arrow array (decoded only when asked for), Arrow arrays of values and timestamps (null
        where negative) and a numpy array of offsets."""
        from pyflink_compat.kafka_io.record_columns import concat_chunks
        whole = concat_chunks(self.chunks)
        if rows is not None and rows < len(whole):
            rest = whole.slice(rows)
            whole = whole.slice(0, rows)
            self.chunks, self.rows = [rest], len(rest)
        else:
            self.chunks, self.rows = [], 0
        ts = whole.timestamps
        timestamps = pa.array(ts, pa.int64(), mask=ts < 0)
        return (lambda: whole.keys), whole.values, timestamps, whole.offsets


class _RecordBuffer:
    """kafka-python ConsumerRecords polled and not yet decoded, within the split's range (the consumer
    without columnar decoding)."""

    def __init__(self):
        self.keys: List[bytes] = []
        self.values: List[bytes] = []
        self.timestamps: List[int] = []
        self.offsets: List[int] = []

    def __len__(self):
        return len(self.values)

    def add(self, records, start, end):
        for record in records:
            if record.offset >= end:
                break
            if record.offset < start:
                continue
            self.keys.append(record.key)
            self.values.append(record.value)
            self.timestamps.append(record.timestamp if record.timestamp is not None and record.timestamp >= 0
                                   else None)
            self.offsets.append(record.offset)

    def take(self, rows=None):
        rows = len(self.values) if rows is None else rows
        keys, self.keys = self.keys[:rows], self.keys[rows:]
        values, self.values = self.values[:rows], self.values[rows:]
        timestamps, self.timestamps = self.timestamps[:rows], self.timestamps[rows:]
        offsets, self.offsets = self.offsets[:rows], self.offsets[rows:]
        return (lambda: pa.array(keys, pa.binary())), pa.array(values, pa.binary()), \
            pa.array(timestamps, pa.int64()), offsets


def _take_skipped(deserializer) -> int:
    take = getattr(deserializer, "_take_skipped", None)
    return take() if take is not None else 0


def _decode_records(deserializer, element_type, keys, values: pa.BinaryArray, timestamps: pa.Int64Array, offsets,
                    task) -> pa.RecordBatch:
    """The batch of (element, event_ts) a RecordDeserializer makes of whole records (``keys``: a function
    building their keys); records it gives no element are dropped."""
    import numpy as np
    from pyflink_compat import codec
    elements = deserializer.deserialize_records(task.topic, task.partition, keys(), values,
                                                np.asarray(offsets, np.int64), timestamps)
    if elements.null_count:
        present = elements.is_valid()
        elements, timestamps = elements.filter(present), timestamps.filter(present)
    return codec.make_batch(elements.cast(codec.arrow_type(element_type)), timestamps)


def _decode_batch(deserializer, element_type, values: pa.BinaryArray, timestamps: pa.Int64Array, offsets,
                  task) -> pa.RecordBatch:
    """Deserialize the record values ``values`` (offsets ``offsets``, for error messages) into a batch of
    (element, event_ts): vectorised when the format can, else record by record. Null values (tombstones)
    are no records: Flink's deserializers return null for them, which skips them."""
    import numpy as np
    from pyflink_compat import codec
    if values.null_count:
        present = values.is_valid()
        values, timestamps = values.filter(present), timestamps.filter(present)
        offsets = np.asarray(offsets, np.int64)[codec.numpy_of(present)]
    decoded = deserializer._deserialize_arrow(values)
    if decoded is not None:
        return codec.make_batch(decoded.cast(codec.arrow_type(element_type)), timestamps)
    elements, kept_ts = [], []
    for value, timestamp, offset in zip(values.to_pylist(), timestamps.to_pylist(), offsets):
        try:
            element = deserializer.deserialize(value)
        except Exception as e:
            raise ValueError("Failed to deserialize the record of Kafka topic %s partition %d offset %d: %s"
                             % (task.topic, task.partition, offset, e)) from e
        if element is None:          # Flink's contract: a null result skips the record
            continue
        elements.append(element)
        kept_ts.append(timestamp)
    return codec.make_batch(codec.from_python(elements, element_type), pa.array(kept_ts, pa.int64()))

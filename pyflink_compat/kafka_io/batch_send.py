"""Handing whole record batches to a kafka-python producer instead of calling send() per record.

``KafkaProducer.send()`` spends 25-30 µs of Python per record (argument checks, the partitioner,
metadata lookups, a future per record, a debug-log call): at 100-byte records that is most of a
task's time. Here records go straight into record batches, built with kafka-python's own batch
builder (about 3 µs per record), which are queued in the producer's accumulator. From there the
producer's sender thread sends, retries, expires and (with idempotence or transactions) sequences
them exactly as it does batches it built itself; success and failure arrive per batch.

Partitioning is Kafka's default, as for a Flink ``KafkaSink`` without a partitioner: a record with
a key goes to ``murmur2(key) % partitions``; records without a key fill one batch for one
partition, then the next batch goes to the next partition (uniform sticky partitioning). As in Kafka's
producer, the rotation belongs to the producer, not to one task's sends, and starts at a random partition:
tasks that each write less than a batch per micro-batch then still spread over all partitions.

This reaches into the producer's internals (kafka-python 3.0: ``_accumulator``, ``_sender``,
``_transaction_manager``, ``ProducerBatch``). ``supports()`` checks the version and that they are
there, and proves once per process, on a batch that is never sent, how a batch reports failure:
in kafka-python 3.0 a failed batch's ``produce_future`` completes as a *success* whose third item
maps a record to its error (only per-record futures fail), so watching it with an errback sees
nothing. Where the version or that behaviour differs, the sink logs a warning and sends record by
record through the public API (slower, same result). Tests pin the fast path and its failure
reporting against the kafka-python version we install.

Every batch queued here is accounted for: ``BatchSender.unconfirmed()`` lists the records whose
batch has not completed (not acknowledged, or split by the producer after the broker refused it
as too large, which leaves no way to learn the split batches' fate) so that the caller fails
rather than counts them as written.

``send_arrow()`` is the columnar form: keys, values and timestamps as Arrow arrays. The records
of a batch are encoded with numpy in bulk (sizes from vectorised varint sizes, positions by
cumulative sums, varint bytes written one byte index at a time for all records, key and value
bytes copied through a byte mask) straight into the buffer of kafka-python's
``DefaultRecordBatchBuilder``, whose state (first/max timestamp, last offset, record count) is set
as its ``append()`` would have set it; its own ``build()`` then writes the header, compresses and
computes the CRC as usual. The bytes are the same as record-by-record ``append()`` would produce
(a unit test checks this); if the builder is not the v2 builder this expects, that batch is built
with ``append()`` instead.
"""
import logging
import random
import threading
import time
import weakref
from typing import List, Optional, Sequence, Tuple

import numpy as np
import pyarrow as pa

from kafka.errors import KafkaError, MessageSizeTooLargeError
from kafka.partitioner.default import murmur2
from kafka.structs import TopicPartition

from pyflink_compat import codec

try:
    from kafka.producer.producer_batch import ProducerBatch
    from kafka.record.memory_records import MemoryRecordsBuilder
except ImportError:                                     # another kafka-python layout: use send()
    ProducerBatch = MemoryRecordsBuilder = None
try:
    from kafka.record.default_records import DefaultRecordBatchBuilder
except ImportError:                                     # send_arrow() then appends record by record
    DefaultRecordBatchBuilder = None

NO_HEADERS = ()
# An upper bound on a record's bytes beyond its key and value in a v2 batch (varints, attributes).
RECORD_OVERHEAD_BOUND = 100
# send_arrow() encodes batches in bulk this many bytes of batches at a time (bounds the temporary memory).
ENCODE_CHUNK_BYTES = 4 << 20
# The builder state send_arrow() sets directly (what DefaultRecordBatchBuilder.append() updates).
_BUILDER_STATE = ("_batch_size", "_first_timestamp", "_max_timestamp", "_last_offset", "_num_records", "_buffer")


log = logging.getLogger("pyflink_compat")

# The kafka-python versions whose producer internals this module was written and tested against.
TESTED_KAFKA_PYTHON = ("3.0.",)
_fast_path_verdict: Optional[str] = None            # None: not checked yet; "": usable; else why not


def supports(producer) -> bool:
    """Whether ``producer`` has the internals batch sending relies on, and they report failures as expected.

    The first time it is not so in a process, a warning says why and that records go one by one.
    """
    global _fast_path_verdict
    if _fast_path_verdict is None:
        _fast_path_verdict = _why_not_usable(producer)
        if _fast_path_verdict:
            log.warning("Kafka sink: batch sending is off, records are sent one by one through "
                        "KafkaProducer.send() (slower, same result): %s", _fast_path_verdict)
    if _fast_path_verdict:
        return False
    return _has_internals(producer)


def _has_internals(producer) -> bool:
    accumulator = getattr(producer, "_accumulator", None)
    return (accumulator is not None and hasattr(producer, "_sender") and hasattr(producer, "_transaction_manager")
            and all(hasattr(accumulator, name) for name in ("_tp_lock", "_batches", "_incomplete",
                                                             "_appends_in_progress", "config"))
            and all(key in accumulator.config for key in ("message_version", "compression_attrs", "batch_size")))


def _why_not_usable(producer) -> str:
    """"" if the fast path can run with this kafka-python, else the reason it cannot."""
    import kafka
    version = getattr(kafka, "__version__", "unknown")
    if not version.startswith(TESTED_KAFKA_PYTHON):
        return "kafka-python %s is not a version it was tested with (%s)" % (
            version, ", ".join(v + "x" for v in TESTED_KAFKA_PYTHON))
    if ProducerBatch is None or MemoryRecordsBuilder is None:
        return "kafka-python %s has no ProducerBatch / MemoryRecordsBuilder where expected" % version
    if not _has_internals(producer):
        return "kafka-python %s's producer lacks the accumulator internals it queues batches in" % version
    problem = failure_reporting_problem()
    if problem:
        return "kafka-python %s reports a batch's outcome differently: %s" % (version, problem)
    return ""


def failure_reporting_problem() -> str:
    """Check, on two batches that are never sent, that ``watch()`` sees a failed batch fail and a
    sent one succeed, as the producer's sender completes them; "" if so, else what differs."""
    # kafka-python logs every failed batch at WARNING: the probe's is no news to anyone.
    batch_log = logging.getLogger(ProducerBatch.__module__)
    level = batch_log.level
    batch_log.setLevel(logging.ERROR)
    try:
        tp = TopicPartition("pyflink-compat-probe", 0)
        tracker = FailureTracker()
        failed = ProducerBatch(tp, MemoryRecordsBuilder(2, 0, 1024))
        watch(failed, tracker, 3)
        error = KafkaError("probe")
        failed.complete_exceptionally(error, lambda index: error)
        succeeded = ProducerBatch(tp, MemoryRecordsBuilder(2, 0, 1024))
        watch(succeeded, tracker, 5)
        succeeded.complete(0, -1)
    except Exception as e:                           # noqa: BLE001 - any surprise means "do not rely on it"
        return "completing a probe batch raised %s: %s" % (type(e).__name__, e)
    finally:
        batch_log.setLevel(level)
    if tracker.failures != 3 or tracker.first_error is not error or tracker.first_partition != tp:
        return "a failed batch was reported as %d failed records (%r), not 3 (probe)" % (
            tracker.failures, tracker.first_error)
    if not (failed.produce_future.is_done and succeeded.produce_future.is_done):
        return "a completed batch's future is not done"
    return ""


def watch(batch, tracker: "FailureTracker", count: int):
    """Report ``batch``'s ``count`` records to ``tracker`` if it fails.

    kafka-python 3.0 completes a failed batch's ``produce_future`` as a success whose third item maps
    a record's index to its error (an aborted batch likewise); only a failed future is a failure too.
    """
    tp = batch.topic_partition

    def completed(result):
        record_errors = result[2] if isinstance(result, tuple) and len(result) == 3 else None
        if record_errors is not None:
            tracker.record_failed(record_errors(0), count, tp)

    batch.produce_future.add_callback(completed)
    batch.produce_future.add_errback(lambda error: tracker.record_failed(error, count, tp))


_STICKY_TURNS = weakref.WeakKeyDictionary()              # producer -> {topic: index of its next partition}


def _sticky_turns(producer) -> dict:
    """The unkeyed-partition rotation of ``producer``, shared by every sender on it (a worker's tasks)."""
    try:
        return _STICKY_TURNS.setdefault(producer, {})
    except TypeError:                                     # not weakly referable: a rotation of this sender's own
        return {}


class FailureTracker:
    """Counts records whose batch failed, and keeps the first error and its partition (callbacks run on
    the producer's sender thread)."""

    def __init__(self):
        self.lock = threading.Lock()
        self.failures = 0
        self.first_error = None
        self.first_partition = None

    def record_failed(self, error, count: int = 1, partition: Optional[TopicPartition] = None):
        with self.lock:
            self.failures += count
            if self.first_error is None:
                self.first_error = error
                self.first_partition = partition


def _too_large(size: int) -> MessageSizeTooLargeError:
    """send()'s error for a record whose key and value are ``size`` bytes."""
    return MessageSizeTooLargeError(
        "The message is %d bytes when serialized which is larger than the maximum request size "
        "you have configured with the max_request_size configuration" % (size + RECORD_OVERHEAD_BOUND))


NEITHER_KEY_NOR_VALUE = "Need at least one: key or value"


class BatchSender:
    """Sends lists of (key, value, timestamp) for one topic as record batches through ``producer``."""

    def __init__(self, producer, tracker: FailureTracker):
        self.producer = producer
        self.tracker = tracker
        self.accumulator = producer._accumulator
        config = self.accumulator.config
        self.message_version = config["message_version"]
        self.compression_attrs = config["compression_attrs"]
        self.batch_size = config["batch_size"]
        self.max_request_size = producer.config["max_request_size"]
        self.sticky = _sticky_turns(producer)             # topic -> index of the next unkeyed partition
        self.queued = []                                  # (produce future, partition, records) of every batch

    def send(self, topic: str, keys: Optional[Sequence[Optional[bytes]]], values: Sequence[Optional[bytes]],
             timestamps: Sequence[Optional[int]], partition: Optional[int] = None):
        """Queue the records; failures are reported to the tracker as the batches complete.

        ``partition`` given: every record goes to that partition (a fixed partitioner's choice).
        """
        if not values:
            return
        self._check_records(keys, values)
        partitions = sorted(self.producer.partitions_for(topic))   # waits for metadata, as send() does

        def fill(indexes):
            return lambda tp, position: self._enqueue_batch(tp, indexes, position, keys, values, timestamps)

        if partition is not None:
            everything = range(len(values))
            self._send_to(TopicPartition(topic, partition), len(values), fill(everything))
            return
        if keys is None or all(k is None for k in keys):
            self._send_sticky(topic, partitions, len(values), fill(range(len(values))))
            return
        by_partition = {}
        unkeyed: List[int] = []
        count = len(partitions)
        for i, key in enumerate(keys):
            if key is None:
                unkeyed.append(i)
            else:
                by_partition.setdefault(partitions[(murmur2(key) & 0x7FFFFFFF) % count], []).append(i)
        for partition, indexes in by_partition.items():
            self._send_to(TopicPartition(topic, partition), len(indexes), fill(indexes))
        if unkeyed:
            self._send_sticky(topic, partitions, len(unkeyed), fill(unkeyed))

    def send_arrow(self, topic: str, keys: Optional[pa.Array], values: pa.Array, timestamps: Optional[pa.Array],
                   partition: Optional[int] = None):
        """``send()`` for Arrow columns: the records' batches are encoded in bulk.

        ``values``: binary (nulls are tombstones); ``keys``: None or binary (nulls: no key);
        ``timestamps``: None or int64 milliseconds, None and nulls meaning now. String, large and
        chunked arrays are accepted too.
        """
        values = _as_binary(values, "values")
        keys = None if keys is None else _as_binary(keys, "keys")
        size = len(values)
        if keys is not None and len(keys) != size:
            raise ValueError("keys and values differ in length: %d and %d" % (len(keys), size))
        stamps = _timestamp_column(timestamps, size)
        if not size:
            return
        columns = _Columns(keys, values, stamps)
        columns.check(self.max_request_size)
        partitions = sorted(self.producer.partitions_for(topic))   # waits for metadata, as send() does

        def fill(part):
            batches = ColumnBatches(part, self._new_records())
            return lambda tp, position: self._enqueue_columns(tp, batches, position)

        if partition is not None:
            self._send_to(TopicPartition(topic, partition), size, fill(columns))
            return
        if keys is None or keys.null_count == size:
            self._send_sticky(topic, partitions, size, fill(columns))
            return
        count = len(partitions)
        hashes = murmur2_columns(columns.key_data, columns.key_offsets, columns.key_lengths)
        slots = np.where(columns.key_lengths < 0, -1, (hashes & np.uint32(0x7FFFFFFF)).astype(np.int64) % count)
        order = np.argsort(slots, kind="stable")                       # each group keeps the records' order
        groups, starts, lengths = np.unique(slots[order], return_index=True, return_counts=True)
        unkeyed = None
        keyed = []
        for slot, start, length in zip(groups.tolist(), starts.tolist(), lengths.tolist()):
            indexes = order[start:start + length]
            if slot < 0:
                unkeyed = indexes
            else:
                keyed.append((int(indexes[0]), partitions[slot], indexes))
        keyed.sort(key=lambda group: group[0])                          # send()'s order: first appearance
        for _, partition, indexes in keyed:
            part = columns if len(indexes) == size else columns.take(indexes)
            self._send_to(TopicPartition(topic, partition), len(part), fill(part))
        if unkeyed is not None:
            part = columns.take(unkeyed)
            self._send_sticky(topic, partitions, len(part), fill(part))

    @staticmethod
    def _send_to(tp, total, fill):
        position = 0
        while position < total:
            position = fill(tp, position)

    def _send_sticky(self, topic, partitions, total, fill):
        """Batches of ``total`` records, each to the next partition; ``fill(tp, position)`` builds one."""
        position = 0
        while position < total:
            turn = self.sticky.get(topic)
            if turn is None:
                turn = random.randrange(len(partitions))
            self.sticky[topic] = turn + 1
            tp = TopicPartition(topic, partitions[turn % len(partitions)])
            position = fill(tp, position)

    def _new_records(self):
        return MemoryRecordsBuilder(self.message_version, self.compression_attrs, self.batch_size)

    def _enqueue_batch(self, tp, indexes, position, keys, values, timestamps) -> int:
        """Build one batch for ``tp`` from ``indexes[position:]`` until it is full; return the next position."""
        records = self._new_records()
        append = records.append
        end = len(indexes)
        start = position
        while position < end:
            i = indexes[position]
            if append(timestamps[i], None if keys is None else keys[i], values[i], NO_HEADERS) is None:
                break                                   # full (the first record always fits)
            position += 1
        self._enqueue(tp, records, position - start)
        return position

    def _enqueue_columns(self, tp, batches: "ColumnBatches", position) -> int:
        """``_enqueue_batch()`` for columns: one batch from ``position``; return the next position."""
        records = self._new_records()
        count = batches.fill(records, position)
        self._enqueue(tp, records, count)
        return position + count

    def _enqueue(self, tp, records, count):
        """Queue a built batch of ``count`` records in the accumulator, as the producer queues its own."""
        batch = ProducerBatch(tp, records)
        watch(batch, self.tracker, count)
        self.queued.append((batch.produce_future, tp, count))   # the future only: the batch's buffer is freed
        transactions = self.producer._transaction_manager
        if transactions is not None and transactions.is_transactional():
            transactions.maybe_add_partition_to_transaction(tp)
        accumulator = self.accumulator
        accumulator._appends_in_progress.increment()
        try:
            with accumulator._tp_lock(tp):
                accumulator._batches[tp].append(batch)
                accumulator._incomplete.add(batch)
        finally:
            accumulator._appends_in_progress.decrement()
        self.producer._sender.wakeup()

    def unconfirmed(self) -> Tuple[int, Optional[TopicPartition]]:
        """After a flush: how many queued records have no outcome, and the partition of the first of them.

        Such a batch was not acknowledged in time, or the producer split it after the broker refused it as
        too large: its records then travel in new batches whose outcome this sender cannot learn.
        """
        count, first = 0, None
        for future, tp, records in self.queued:
            if not future.is_done:
                count += records
                first = first or tp
        return count, first

    def _check_records(self, keys, values):
        """What send() checks per record: a key or a value, and the producer's size limit."""
        if None in values and (keys is None or any(k is None and v is None for k, v in zip(keys, values))):
            raise ValueError(NEITHER_KEY_NOR_VALUE)
        limit = self.max_request_size - RECORD_OVERHEAD_BOUND
        largest_value = max((len(v) for v in values if v is not None), default=0)
        largest_key = 0 if keys is None else max((len(k) for k in keys if k is not None), default=0)
        if largest_key + largest_value <= limit:            # the common case: no need to look closer
            return
        for key, value in zip(keys if keys is not None else [None] * len(values), values):
            size = (len(key) if key is not None else 0) + (len(value) if value is not None else 0)
            if size > limit:
                raise _too_large(size)


# --- Columns -------------------------------------------------------------------------------------------------

def _as_binary(array, name: str) -> pa.Array:
    if isinstance(array, pa.ChunkedArray):
        array = array.combine_chunks()
    if not isinstance(array, pa.Array):
        raise TypeError("%s must be a pyarrow binary array, not %s" % (name, type(array).__name__))
    kind = array.type
    if pa.types.is_binary(kind) or pa.types.is_large_binary(kind):
        return array
    if pa.types.is_string(kind):
        return array.cast(pa.binary())
    if (pa.types.is_large_string(kind) or pa.types.is_fixed_size_binary(kind) or pa.types.is_binary_view(kind)
            or pa.types.is_string_view(kind)):
        return array.cast(pa.large_binary())
    raise TypeError("%s must be a pyarrow binary array, not %s" % (name, kind))


def _timestamp_column(timestamps, size: int) -> np.ndarray:
    """int64 milliseconds; None and nulls become one reading of the clock (the producer stamps at send)."""
    if timestamps is None:
        return np.full(size, int(time.time() * 1000), dtype=np.int64)
    if isinstance(timestamps, pa.ChunkedArray):
        timestamps = timestamps.combine_chunks()
    if not isinstance(timestamps, pa.Array) or not pa.types.is_integer(timestamps.type):
        raise TypeError("timestamps must be None or a pyarrow int64 array of milliseconds")
    if len(timestamps) != size:
        raise ValueError("timestamps and values differ in length: %d and %d" % (len(timestamps), size))
    if timestamps.null_count:
        timestamps = timestamps.fill_null(pa.scalar(int(time.time() * 1000), timestamps.type))
    return np.asarray(codec.numpy_of(timestamps.cast(pa.int64())), dtype=np.int64)


def _binary_parts(array: pa.Array):
    """(data bytes, n+1 offsets into them, lengths with -1 for null) of a binary array, as numpy."""
    size = len(array)
    buffers = array.buffers()
    if buffers[1] is None:                                      # e.g. pa.nulls(): no offsets at all
        offsets = np.zeros(size + 1, dtype=np.int64)
    else:
        wide = pa.types.is_large_binary(array.type)
        offsets = np.frombuffer(buffers[1], dtype=np.int64 if wide else np.int32)
        offsets = offsets[array.offset:array.offset + size + 1].astype(np.int64)
    data = np.frombuffer(buffers[2], dtype=np.uint8) if buffers[2] is not None else np.zeros(0, np.uint8)
    lengths = np.diff(offsets)
    if array.null_count:
        null = codec.numpy_of(array.is_null())
        if lengths[null].any():                                 # allowed by Arrow, never made by pyarrow
            return _binary_parts(pa.array(array.to_pylist(), type=array.type))
        lengths[null] = -1
    return data, offsets, lengths


_M = np.uint32(0x5BD1E995)                          # murmur2's multiplier


def murmur2_columns(data: np.ndarray, offsets: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """Kafka's murmur2 (as kafka.partitioner.default.murmur2) of every key at once, as uint32.

    The keys are ``data[offsets[i]:offsets[i] + lengths[i]]``; a negative length (no key) hashes
    as empty. The 4-byte blocks are mixed for all keys with a block at that index at once.
    """
    lengths = np.maximum(lengths, 0)
    low = int(offsets[0]) if len(offsets) else 0
    data = np.concatenate((data[low:int(offsets[-1]) if len(offsets) else 0], np.zeros(3, np.uint8)))
    starts = offsets[:-1] - low
    # the little-endian uint32 starting at every byte
    words = (data[:-3].astype(np.uint32) | (data[1:-2].astype(np.uint32) << 8)
             | (data[2:-1].astype(np.uint32) << 16) | (data[3:].astype(np.uint32) << 24))
    with np.errstate(over="ignore"):
        hashes = np.uint32(0x9747B28C) ^ lengths.astype(np.uint32)
        blocks = lengths // 4
        order = np.argsort(-blocks, kind="stable")          # the keys with a block j come first
        ordered_starts, ordered_blocks = starts[order], blocks[order]
        ordered = hashes[order]
        for j in range(int(blocks.max()) if len(blocks) else 0):
            active = int(np.count_nonzero(ordered_blocks > j))
            k = words[ordered_starts[:active] + 4 * j] * _M
            k ^= k >> np.uint32(24)
            k *= _M
            ordered[:active] = (ordered[:active] * _M) ^ k
        hashes[order] = ordered
        tail = starts + 4 * blocks
        extra = lengths % 4
        for index, shift in ((2, 16), (1, 8), (0, 0)):
            has = extra > index
            hashes[has] ^= data[tail[has] + index].astype(np.uint32) << np.uint32(shift)
        has = extra > 0
        hashes[has] *= _M
        hashes ^= hashes >> np.uint32(13)
        hashes *= _M
        hashes ^= hashes >> np.uint32(15)
    return hashes


_VARINT_LIMITS = np.array([(1 << (7 * i)) - 1 for i in range(1, 10)], dtype=np.uint64)   # 1 .. 9 bytes


def _varint_sizes(encoded: np.ndarray) -> np.ndarray:
    """Bytes of the varint of each (already zigzag-encoded, uint64) value."""
    return np.searchsorted(_VARINT_LIMITS, encoded, side="left").astype(np.int64) + 1


def _zigzag(values: np.ndarray) -> np.ndarray:
    values = values.astype(np.int64, copy=False)
    return ((values << 1) ^ (values >> 63)).view(np.uint64)


def _put_varints(out: np.ndarray, positions: np.ndarray, encoded: np.ndarray, sizes: np.ndarray):
    """Write each zigzag-encoded value's varint at its position, all records' byte i at once."""
    while True:
        more = sizes > 1
        byte = (encoded & np.uint64(0x7F)).astype(np.uint8)
        byte[more] |= 0x80
        out[positions] = byte
        if not more.any():
            return
        positions = positions[more] + 1
        encoded = encoded[more] >> np.uint64(7)
        sizes = sizes[more] - 1


def _put_bytes(out: np.ndarray, positions: np.ndarray, lengths: np.ndarray, block: np.ndarray):
    """Copy ``block`` (the records' keys or values back to back) to runs of ``lengths`` at ``positions``."""
    if not len(block):
        return
    ends = positions + lengths                  # runs never touch: record framing bytes lie between them
    runs = np.empty(2 * len(positions) + 1, dtype=np.int64)   # gap, run, gap, run, ..., gap
    runs[0] = positions[0]
    runs[2:-1:2] = positions[1:] - ends[:-1]
    runs[1::2] = lengths
    runs[-1] = len(out) - ends[-1]
    inside = np.zeros(len(runs), dtype=np.bool_)
    inside[1::2] = True
    out[np.repeat(inside, runs)] = block


class _Columns:
    """Records as numpy arrays over Arrow buffers, with each record's batch-independent encoded size."""

    def __init__(self, keys: Optional[pa.Array], values: pa.Array, timestamps: np.ndarray):
        self.keys, self.values, self.timestamps = keys, values, timestamps
        size = len(values)
        if keys is None:
            self.key_data, self.key_offsets = np.zeros(0, np.uint8), np.zeros(size + 1, np.int64)
            self.key_lengths = np.full(size, -1, dtype=np.int64)
        else:
            self.key_data, self.key_offsets, self.key_lengths = _binary_parts(keys)
        self.value_data, self.value_offsets, self.value_lengths = _binary_parts(values)
        self.key_encoded = _zigzag(self.key_lengths)
        self.key_sizes = _varint_sizes(self.key_encoded)
        self.value_encoded = _zigzag(self.value_lengths)
        self.value_sizes = _varint_sizes(self.value_encoded)
        # attributes + key length + key + value length + value + header count: all but the length,
        # timestamp delta and offset delta varints, which depend on the batch
        self.fixed = (2 + self.key_sizes + np.maximum(self.key_lengths, 0)
                      + self.value_sizes + np.maximum(self.value_lengths, 0))
        self.lower_bound = np.concatenate(([0], np.cumsum(self.fixed + 3)))   # those three: >= 1 byte each

    def __len__(self):
        return len(self.timestamps)

    def take(self, indexes: np.ndarray) -> "_Columns":
        taken = pa.array(indexes, type=pa.int64())
        return _Columns(None if self.keys is None else self.keys.take(taken), self.values.take(taken),
                        self.timestamps[indexes])

    def check(self, max_request_size: int):
        """send()'s checks (``_check_records``), vectorised, with its errors."""
        no_value = self.value_lengths < 0
        if no_value.any() and (no_value & (self.key_lengths < 0)).any():
            raise ValueError(NEITHER_KEY_NOR_VALUE)
        sizes = np.maximum(self.key_lengths, 0) + np.maximum(self.value_lengths, 0)
        over = np.flatnonzero(sizes > max_request_size - RECORD_OVERHEAD_BOUND)
        if len(over):
            raise _too_large(int(sizes[over[0]]))

    def key(self, i: int) -> Optional[bytes]:
        if self.key_lengths[i] < 0:
            return None
        return self.key_data[self.key_offsets[i]:self.key_offsets[i + 1]].tobytes()

    def value(self, i: int) -> Optional[bytes]:
        if self.value_lengths[i] < 0:
            return None
        return self.value_data[self.value_offsets[i]:self.value_offsets[i + 1]].tobytes()

    def plan(self, start: int, budget: int, most: int) -> Tuple[List[int], int]:
        """Where append() would start each batch of ``budget`` record bytes (at least one record each):
        up to ``most`` batches from ``start``; and where the last of them ends."""
        starts = []
        lower, fixed, stamps, size = self.lower_bound, self.fixed, self.timestamps, len(self)
        position = start
        while position < size and len(starts) < most:
            starts.append(position)
            end = int(np.searchsorted(lower, lower[position] + budget, side="right")) - 1   # no more can fit
            end = min(size, max(end, position + 1))
            body = (fixed[position:end] + _varint_sizes(_zigzag(stamps[position:end] - stamps[position]))
                    + _offset_sizes(end - position))
            ends = np.cumsum(body + _varint_sizes((body << 1).view(np.uint64)))
            position += max(1, int(np.searchsorted(ends, budget, side="right")))   # the first always fits
        return starts, position

    def encode(self, starts: List[int], stop: int) -> "_Encoded":
        """The v2 records of the batches beginning at ``starts``, the last ending at ``stop``, in bulk."""
        start = starts[0]
        firsts = np.asarray(starts, dtype=np.int64)
        counts = np.diff(np.append(firsts, stop))
        stamps = self.timestamps[start:stop]
        batch_starts = firsts - start
        first_stamps = stamps[batch_starts]
        stamp_encoded = _zigzag(stamps - np.repeat(first_stamps, counts))
        stamp_sizes = _varint_sizes(stamp_encoded)
        offset_encoded = (np.arange(stop - start, dtype=np.int64) - np.repeat(batch_starts, counts)) << 1
        offset_encoded = offset_encoded.view(np.uint64)
        offset_sizes = _varint_sizes(offset_encoded)
        body = self.fixed[start:stop] + stamp_sizes + offset_sizes
        body_encoded = (body << 1).view(np.uint64)
        body_sizes = _varint_sizes(body_encoded)
        total_sizes = body_sizes + body
        ends = np.cumsum(total_sizes)
        out = np.zeros(int(ends[-1]), dtype=np.uint8)        # attributes and header counts stay 0
        at = ends - total_sizes
        _put_varints(out, at, body_encoded, body_sizes)
        at = at + body_sizes + 1                             # past the attributes
        _put_varints(out, at, stamp_encoded, stamp_sizes)
        at += stamp_sizes
        _put_varints(out, at, offset_encoded, offset_sizes)
        at += offset_sizes
        for data, offsets, lengths, encoded, sizes in (
                (self.key_data, self.key_offsets, self.key_lengths, self.key_encoded, self.key_sizes),
                (self.value_data, self.value_offsets, self.value_lengths, self.value_encoded, self.value_sizes)):
            _put_varints(out, at, encoded[start:stop], sizes[start:stop])
            at += sizes[start:stop]
            runs = np.maximum(lengths[start:stop], 0)
            _put_bytes(out, at, runs, data[offsets[start]:offsets[stop]])
            at += runs
        byte_ends = ends[batch_starts + counts - 1]
        return _Encoded(out, firsts.tolist(), counts.tolist(), np.append(0, byte_ends[:-1]).tolist(),
                        byte_ends.tolist(), first_stamps.tolist(), np.maximum.reduceat(stamps, batch_starts).tolist())


_OFFSET_SIZES = np.zeros(0, dtype=np.int64)


def _offset_sizes(count: int) -> np.ndarray:
    """Varint sizes of the offset deltas 0 .. count-1."""
    global _OFFSET_SIZES
    if len(_OFFSET_SIZES) < count:
        _OFFSET_SIZES = _varint_sizes(np.arange(0, 2 * max(count, 4096), 2, dtype=np.uint64))
    return _OFFSET_SIZES[:count]


class _Encoded:
    """Encoded records and, per batch (by its first record's position), what goes into its builder."""

    def __init__(self, out, starts, counts, byte_starts, byte_ends, first_stamps, max_stamps):
        self.out = out
        self.batches = {start: batch for start, batch in
                        zip(starts, zip(counts, byte_starts, byte_ends, first_stamps, max_stamps))}

    def write(self, records, position: int) -> Optional[int]:
        """Put the batch starting at ``position`` into ``records`` (an empty MemoryRecordsBuilder).

        None (nothing written) if no batch starts there or ``records`` is not the builder expected.
        """
        batch = self.batches.get(position)
        builder = _fresh_v2_builder(records)
        if batch is None or builder is None:
            return None
        count, begin, end, first, largest = batch
        builder._buffer += memoryview(self.out[begin:end])
        builder._first_timestamp = first                   # what append() sets: at the first record...
        builder._max_timestamp = largest
        builder._num_records = count                       # ...and at each
        builder._last_offset = count - 1
        records._next_offset = count
        return count


def _fresh_v2_builder(records, check_state: bool = False):
    """The ``DefaultRecordBatchBuilder`` of an empty ``records`` (a MemoryRecordsBuilder), else None.

    ``check_state``: also that it has every attribute bulk writing sets (checked once per call, on a probe).
    """
    try:
        builder = records._builder
        if (DefaultRecordBatchBuilder is None or type(builder) is not DefaultRecordBatchBuilder
                or records._magic != 2 or records._closed or records._next_offset != 0):
            return None
        if check_state and not all(hasattr(builder, name) for name in _BUILDER_STATE):
            return None
        if (builder._num_records != 0 or builder._first_timestamp is not None
                or len(builder._buffer) != DefaultRecordBatchBuilder.HEADER_STRUCT.size):
            return None
        return builder
    except AttributeError:
        return None


class ColumnBatches:
    """Fills empty MemoryRecordsBuilders with consecutive batches of ``columns``: ``fill(records, position)``.

    The batches are planned and encoded in bulk when the builders are kafka-python's v2 builder
    (``probe``: an empty one made as the others will be); otherwise, or if a builder turns out
    different, that batch is appended record by record.
    """

    def __init__(self, columns: "_Columns", probe):
        self.columns = columns
        builder = _fresh_v2_builder(probe, check_state=True)
        self.budget = None if builder is None else builder._batch_size - len(builder._buffer)
        stamps = columns.timestamps
        if self.budget is not None and int(stamps.max()) - int(stamps.min()) >= 1 << 63:
            self.budget = None                             # deltas beyond int64: append() handles them
        # encoded a few MiB at a time, not the whole call's records at once
        self.most = max(1, ENCODE_CHUNK_BYTES // max(self.budget or 1, 1))
        self.encoded = None

    def fill(self, records, position: int) -> int:
        """Fill ``records`` from ``position``; return how many records went in (at least one)."""
        if self.budget is not None:
            if self.encoded is None or position not in self.encoded.batches:
                self.encoded = self.columns.encode(*self.columns.plan(position, self.budget, self.most))
            count = self.encoded.write(records, position)
            if count is not None:
                return count
        return append_each(records, self.columns, position)


def append_each(records, columns: "_Columns", start: int) -> int:
    """Fill ``records`` with ``columns[start:]`` record by record through ``append()``; return the count."""
    position, end = start, len(columns)
    append = records.append
    while position < end:
        if append(int(columns.timestamps[position]), columns.key(position), columns.value(position),
                  NO_HEADERS) is None:
            break                                       # full (the first record always fits)
        position += 1
    return position - start

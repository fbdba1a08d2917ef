"""Handing whole record batches to a kafka-python producer instead of calling send() per record.

``KafkaProducer.send()`` spends 25-30 µs of Python per record (argument checks, the partitioner,
metadata lookups, a future per record, a debug-log call): at 100-byte records that is most of a
task's time. Here records go straight into record batches, built with kafka-python's own batch
builder (about 3 µs per record), which are queued in the producer's accumulator. From there the
producer's sender thread sends, retries, expires and (with idempotence or transactions) sequences
them exactly as it does batches it built itself; success and failure arrive per batch.

Partitioning is Kafka's default, as for a Flink ``KafkaSink`` without a partitioner: a record with
a key goes to ``murmur2(key) % partitions``; records without a key fill one batch for one
partition, then the next batch goes to the next partition (uniform sticky partitioning).

This reaches into the producer's internals (kafka-python 3.x: ``_accumulator``, ``_sender``,
``_transaction_manager``). ``supports()`` checks that they are there; without them the sink sends
record by record through the public API (slower, same result). A test asserts the fast path is
active with the kafka-python version we install.
"""
import threading
from typing import List, Optional, Sequence

from kafka.errors import MessageSizeTooLargeError
from kafka.partitioner.default import murmur2
from kafka.structs import TopicPartition

try:
    from kafka.producer.producer_batch import ProducerBatch
    from kafka.record.memory_records import MemoryRecordsBuilder
except ImportError:                                     # another kafka-python layout: use send()
    ProducerBatch = MemoryRecordsBuilder = None

NO_HEADERS = ()
# An upper bound on a record's bytes beyond its key and value in a v2 batch (varints, attributes).
RECORD_OVERHEAD_BOUND = 100


def supports(producer) -> bool:
    """Whether ``producer`` has the internals batch sending relies on."""
    if ProducerBatch is None:
        return False
    accumulator = getattr(producer, "_accumulator", None)
    return (accumulator is not None and hasattr(producer, "_sender") and hasattr(producer, "_transaction_manager")
            and all(hasattr(accumulator, name) for name in ("_tp_lock", "_batches", "_incomplete",
                                                             "_appends_in_progress", "config"))
            and all(key in accumulator.config for key in ("message_version", "compression_attrs", "batch_size")))


class FailureTracker:
    """Counts records whose batch failed, and keeps the first error (callbacks run on the sender thread)."""

    def __init__(self):
        self.lock = threading.Lock()
        self.failures = 0
        self.first_error = None

    def record_failed(self, error, count: int = 1):
        with self.lock:
            self.failures += count
            if self.first_error is None:
                self.first_error = error


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
        self.sticky = {}                                  # topic -> index of the next unkeyed partition

    def send(self, topic: str, keys: Optional[Sequence[Optional[bytes]]], values: Sequence[Optional[bytes]],
             timestamps: Sequence[Optional[int]], partition: Optional[int] = None):
        """Queue the records; failures are reported to the tracker as the batches complete.

        ``partition`` given: every record goes to that partition (a fixed partitioner's choice).
        """
        if not values:
            return
        self._check_records(keys, values)
        partitions = sorted(self.producer.partitions_for(topic))   # waits for metadata, as send() does
        if partition is not None:
            everything = range(len(values))
            position = 0
            while position < len(values):
                position = self._enqueue_batch(TopicPartition(topic, partition), everything, position,
                                               keys, values, timestamps)
            return
        if keys is None or all(k is None for k in keys):
            self._send_sticky(topic, partitions, range(len(values)), keys, values, timestamps)
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
            position = 0
            while position < len(indexes):
                position = self._enqueue_batch(TopicPartition(topic, partition), indexes, position,
                                               keys, values, timestamps)
        if unkeyed:
            self._send_sticky(topic, partitions, unkeyed, keys, values, timestamps)

    def _send_sticky(self, topic, partitions, indexes, keys, values, timestamps):
        position = 0
        while position < len(indexes):
            turn = self.sticky.get(topic, 0)
            self.sticky[topic] = turn + 1
            tp = TopicPartition(topic, partitions[turn % len(partitions)])
            position = self._enqueue_batch(tp, indexes, position, keys, values, timestamps)

    def _enqueue_batch(self, tp, indexes, position, keys, values, timestamps) -> int:
        """Build one batch for ``tp`` from ``indexes[position:]`` until it is full; return the next position."""
        records = MemoryRecordsBuilder(self.message_version, self.compression_attrs, self.batch_size)
        append = records.append
        end = len(indexes)
        start = position
        while position < end:
            i = indexes[position]
            if append(timestamps[i], None if keys is None else keys[i], values[i], NO_HEADERS) is None:
                break                                   # full (the first record always fits)
            position += 1
        batch = ProducerBatch(tp, records)
        count = position - start
        batch.produce_future.add_errback(lambda error: self.tracker.record_failed(error, count))
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
        return position

    def _check_records(self, keys, values):
        """What send() checks per record: a key or a value, and the producer's size limit."""
        if None in values and (keys is None or any(k is None and v is None for k, v in zip(keys, values))):
            raise ValueError("Need at least one: key or value")
        limit = self.max_request_size - RECORD_OVERHEAD_BOUND
        largest_value = max((len(v) for v in values if v is not None), default=0)
        largest_key = 0 if keys is None else max((len(k) for k in keys if k is not None), default=0)
        if largest_key + largest_value <= limit:            # the common case: no need to look closer
            return
        for key, value in zip(keys if keys is not None else [None] * len(values), values):
            size = (len(key) if key is not None else 0) + (len(value) if value is not None else 0)
            if size > limit:
                raise MessageSizeTooLargeError(
                    "The message is %d bytes when serialized which is larger than the maximum request size "
                    "you have configured with the max_request_size configuration" % (size + RECORD_OVERHEAD_BOUND))

"""BatchSender.send_arrow(): batches encoded in bulk with numpy must be the bytes kafka-python's append() builds.

The reference is BatchSender.send() (kafka-python's MemoryRecordsBuilder.append() per record) on the
same records with the same explicit timestamps: the same batches must go to the same partitions,
in the same order, byte for byte once kafka-python's own build() (header, compression, CRC) ran.
"""
import collections
import contextlib
import gzip
import time
from unittest import mock

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import given, settings, strategies as st
from kafka.errors import MessageSizeTooLargeError
from kafka.partitioner.default import murmur2
from kafka.record.memory_records import MemoryRecordsBuilder
from kafka.record.util import encode_varint
from kafka.structs import TopicPartition

from pyflink_compat.kafka_io import batch_send

HEADER = 61                                              # a v2 batch header's bytes


# --- a producer with just the internals BatchSender uses --------------------------------------------------

class _Counter:
    def increment(self):
        pass

    def decrement(self):
        pass


class _Accumulator:
    def __init__(self, config):
        self.config = config
        self._batches = collections.defaultdict(collections.deque)
        self._appends_in_progress = _Counter()
        self.queued = []                                 # every batch, in the order queued

    @contextlib.contextmanager
    def _tp_lock(self, tp):
        yield

    @property
    def _incomplete(self):
        return self

    def add(self, batch):
        self.queued.append(batch)


class _Sender:
    def wakeup(self):
        pass


class FakeProducer:
    def __init__(self, partitions=1, batch_size=16384, compression=0, message_version=2, max_request_size=1048576):
        self._accumulator = _Accumulator({"message_version": message_version, "compression_attrs": compression,
                                          "batch_size": batch_size})
        self._sender = _Sender()
        self._transaction_manager = None
        self.config = {"max_request_size": max_request_size}
        self.partitions = partitions

    def partitions_for(self, topic):
        return set(range(self.partitions))


def _built(producer):
    """(partition, record count, built bytes) of each queued batch, in queue order."""
    out = []
    for batch in producer._accumulator.queued:
        batch.records.close()
        out.append((batch.topic_partition.partition, batch.record_count, bytes(batch.records.buffer())))
    return out


@contextlib.contextmanager
def _fixed_clock():
    """gzip writes the time into its header: fix it so both ways compress to the same bytes."""
    with mock.patch.object(gzip.time, "time", return_value=1_700_000_000.0):
        yield


def _both_ways(keys, values, timestamps, partition=None, **producer_config):
    """send() with lists and send_arrow() with Arrow arrays on fresh senders: their queued batches."""
    results = []
    for columnar in (False, True):
        producer = FakeProducer(**producer_config)
        sender = batch_send.BatchSender(producer, batch_send.FailureTracker())
        # both rotations start at partition 0 (a producer's own start is random)
        with _fixed_clock(), mock.patch.object(batch_send.random, "randrange", lambda n: 0), \
                mock.patch.object(batch_send, "append_each", wraps=batch_send.append_each) as appended:
            if columnar:
                sender.send_arrow("t", None if keys is None else pa.array(keys, pa.binary()),
                                  pa.array(values, pa.binary()), pa.array(timestamps, pa.int64()), partition)
            else:
                sender.send("t", keys, values, timestamps, partition)
            results.append(_built(producer))
        # the columnar batches were encoded in bulk (unless the format is v0/v1 or deltas overflow int64)
        bulk_possible = producer_config.get("message_version", 2) == 2 and max(timestamps) - min(timestamps) < 2 ** 63
        assert not (appended.called and bulk_possible)
    return results


# --- byte-for-byte equality ---------------------------------------------------------------------------------

_payload = st.one_of(st.none(), st.binary(max_size=40), st.binary(min_size=60, max_size=300))
_timestamp = st.one_of(st.integers(0, 2 ** 41), st.integers(-(2 ** 62), 2 ** 62),
                       st.sampled_from([0, -1, 1, 63, 64, 8191, 8192, 2 ** 40]))


@st.composite
def _records(draw):
    count = draw(st.integers(1, 60))
    keyed = draw(st.sampled_from(["none", "all", "some"]))
    values = draw(st.lists(_payload, min_size=count, max_size=count))
    if keyed == "none":
        keys = None
        values = [b"" if v is None else v for v in values]
    else:
        keys = draw(st.lists(_payload if keyed == "some" else st.binary(max_size=30), min_size=count, max_size=count))
        keys = [b"k" if k is None and v is None else k for k, v in zip(keys, values)]
    base = draw(st.integers(0, 2 ** 41))
    stamps = draw(st.lists(st.one_of(_timestamp, st.integers(base, base + 10 ** 6)), min_size=count,
                           max_size=count))
    return keys, values, stamps


@settings(max_examples=150)
@given(records=_records(), batch_size=st.sampled_from([1, 100, 300, 1000, 16384]), compression=st.sampled_from([0, 1]),
       partitions=st.integers(1, 4), fixed=st.booleans())
def test_send_arrow_queues_the_batches_send_queues_byte_for_byte(records, batch_size, compression, partitions, fixed):
    keys, values, stamps = records
    partition = partitions - 1 if fixed else None
    by_append, in_bulk = _both_ways(keys, values, stamps, partition, partitions=partitions,
                                    batch_size=batch_size, compression=compression)
    assert in_bulk == by_append
    assert sum(count for _, count, _ in in_bulk) == len(values)


def _fill_both_ways(keys, values, stamps, batch_size=16384, compression=0):
    """(count, pre-build buffer) per batch: ColumnBatches.fill() vs append() per record."""
    columns = batch_send._Columns(None if keys is None else pa.array(keys, pa.binary()), pa.array(values, pa.binary()),
                                  np.asarray(stamps, dtype=np.int64))
    batches = batch_send.ColumnBatches(columns, MemoryRecordsBuilder(2, compression, batch_size))
    assert batches.budget == batch_size - HEADER                    # the bulk path is the one tested
    bulk, by_append = [], []
    position = 0
    while position < len(values):
        records = MemoryRecordsBuilder(2, compression, batch_size)
        count = batches.fill(records, position)
        bulk.append((count, bytes(records._builder._buffer), records._builder._first_timestamp,
                     records._builder._max_timestamp, records.next_offset()))
        position += count
    position = 0
    while position < len(values):
        records = MemoryRecordsBuilder(2, compression, batch_size)
        start = position
        while position < len(values) and records.append(
                stamps[position], None if keys is None else keys[position], values[position], ()) is not None:
            position += 1
        by_append.append((position - start, bytes(records._builder._buffer), records._builder._first_timestamp,
                          records._builder._max_timestamp, records.next_offset()))
    return bulk, by_append


@pytest.mark.parametrize("length", [0, 1, 63, 64, 8191, 8192, 2 ** 20 - 1, 2 ** 20])
def test_value_and_key_lengths_needing_one_to_four_varint_bytes(length):
    values = [b"v" * length, b"", b"w" * (length // 2)]
    keys = [b"k" * (length // 3), None, b"k" * length]
    bulk, by_append = _fill_both_ways(keys, values, [5, 6, 7], batch_size=4 * 2 ** 20)
    assert bulk == by_append


def test_a_value_needing_a_five_byte_length_varint():
    values = [b"x" * 2 ** 27, b"y"]                          # zigzag(2**27) needs 5 bytes
    bulk, by_append = _fill_both_ways(None, values, [1, 2])
    assert [b[0] for b in bulk] == [1, 1]
    assert bulk == by_append


@pytest.mark.parametrize("value", [0, 1, -1, 63, 64, -64, -65, 8191, 8192, 2 ** 20, 2 ** 27, 2 ** 34, 2 ** 35, 2 ** 41,
                                   2 ** 48, 2 ** 55, 2 ** 62, 2 ** 63 - 1, -(2 ** 63)])
def test_varints_are_kafkas_varints(value):
    expected = bytearray()
    encode_varint(value, expected.append)
    encoded = batch_send._zigzag(np.array([value], dtype=np.int64))
    sizes = batch_send._varint_sizes(encoded)
    out = np.zeros(12, dtype=np.uint8)
    batch_send._put_varints(out, np.array([1]), encoded, sizes)
    assert sizes[0] == len(expected)
    assert out[1:1 + len(expected)].tobytes() == bytes(expected) and not out[1 + len(expected):].any()


def test_timestamp_deltas_of_every_varint_size():
    stamps = [2 ** 40] + [2 ** 40 + d for d in (0, -1, 100, 10 ** 5, 10 ** 7, 10 ** 9, 10 ** 11, 10 ** 12, -(2 ** 39),
                                                 2 ** 50, -(2 ** 40) - 2 ** 60)]
    bulk, by_append = _fill_both_ways(None, [b"v%d" % i for i in range(len(stamps))], stamps)
    assert bulk == by_append


def test_timestamps_spanning_more_than_int64_deltas_fall_back_to_append():
    stamps = [-(2 ** 63), 2 ** 63 - 1]
    columns = batch_send._Columns(None, pa.array([b"a", b"b"]), np.array(stamps, dtype=np.int64))
    batches = batch_send.ColumnBatches(columns, MemoryRecordsBuilder(2, 0, 16384))
    assert batches.budget is None
    records = MemoryRecordsBuilder(2, 0, 16384)
    assert batches.fill(records, 0) == 2 and records._builder._max_timestamp == 2 ** 63 - 1


def test_batches_split_where_append_splits_them():
    values = [bytes([i % 256]) * (i * 7 % 300) for i in range(400)]
    for batch_size in (1, HEADER, HEADER + 7, 500, 1000, 4096):
        bulk, by_append = _fill_both_ways(None, values, list(range(400)), batch_size=batch_size)
        assert [b[0] for b in bulk] == [b[0] for b in by_append]
        assert bulk == by_append


def test_offset_deltas_beyond_one_varint_byte():
    values = [b"%d" % i for i in range(20000)]                 # offsets up to 2-3 byte varints in one batch
    bulk, by_append = _fill_both_ways([b"k"] * 20000, values, [7] * 20000, batch_size=1 << 20)
    assert len(bulk) == 1 and bulk == by_append


# --- semantics shared with send() ---------------------------------------------------------------------------

def test_nulls_tombstones_and_empty_payloads():
    keys = [b"a", None, b"", b"b", b"", None]
    values = [None, b"x", b"", b"", None, b""]
    by_append, in_bulk = _both_ways(keys, values, [1, 2, 3, 4, 5, 6], partitions=3)
    assert in_bulk == by_append


def test_keyed_records_go_where_send_and_kafkas_partitioner_put_them():
    keys = [("key-%d" % (i % 23)).encode() for i in range(300)] + [None] * 20
    values = [b"v%d" % i for i in range(320)]
    by_append, in_bulk = _both_ways(keys, values, list(range(320)), partitions=5, batch_size=200)
    assert in_bulk == by_append
    producer = FakeProducer(partitions=5)
    batch_send.BatchSender(producer, batch_send.FailureTracker()).send_arrow(
        "t", pa.array(keys), pa.array(values), None)
    for batch in producer._accumulator.queued:
        batch.records.close()
        for batch_records in batch.records.records():
            for record in batch_records:
                if record.key is not None:
                    assert batch.topic_partition.partition == (murmur2(record.key) & 0x7FFFFFFF) % 5


def test_sticky_rotation_continues_across_send_and_send_arrow():
    producer = FakeProducer(partitions=3, batch_size=200)
    sender = batch_send.BatchSender(producer, batch_send.FailureTracker())
    values = [b"x" * 50] * 10                                    # 2 records per 200-byte batch
    sender.send("t", None, values, [1] * 10)
    sender.send_arrow("t", None, pa.array(values), pa.array([1] * 10))
    sender.send_arrow("t", pa.array([None] * 10, pa.binary()), pa.array(values), None)
    partitions = [b.topic_partition.partition for b in producer._accumulator.queued]
    assert [b.record_count for b in producer._accumulator.queued] == [2] * 15
    start = partitions[0]
    assert partitions == [(start + i) % 3 for i in range(15)]
    assert sender.sticky == {"t": start + 15}


def test_the_sticky_rotation_belongs_to_the_producer_and_starts_anywhere():
    # Tasks writing less than a batch each must not all land on partition 0: the next task's sender on the
    # same producer goes on where the last one stopped, and producers start at a random partition.
    producer = FakeProducer(partitions=3, batch_size=200)
    first = batch_send.BatchSender(producer, batch_send.FailureTracker())
    first.send("t", None, [b"x"], [1])
    batch_send.BatchSender(producer, batch_send.FailureTracker()).send("t", None, [b"y"], [1])
    partitions = [b.topic_partition.partition for b in producer._accumulator.queued]
    assert partitions[1] == (partitions[0] + 1) % 3
    starts = set()
    for _ in range(60):
        other = FakeProducer(partitions=3, batch_size=200)
        batch_send.BatchSender(other, batch_send.FailureTracker()).send("t", None, [b"z"], [1])
        starts.add(other._accumulator.queued[0].topic_partition.partition)
    assert starts == {0, 1, 2}


def test_a_fixed_partition_takes_every_record():
    producer = FakeProducer(partitions=4, batch_size=300)
    sender = batch_send.BatchSender(producer, batch_send.FailureTracker())
    sender.send_arrow("t", pa.array([b"k%d" % i for i in range(50)]), pa.array([b"v" * 30] * 50), None, partition=2)
    queued = producer._accumulator.queued
    assert len(queued) > 1 and {b.topic_partition for b in queued} == {TopicPartition("t", 2)}
    assert sum(b.record_count for b in queued) == 50 and sender.sticky == {}


def test_a_record_with_neither_key_nor_value_is_refused_as_send_refuses_it():
    sender = batch_send.BatchSender(FakeProducer(), batch_send.FailureTracker())
    for keys in (None, pa.array([b"k", None], pa.binary())):
        with pytest.raises(ValueError, match="^Need at least one: key or value$"):
            sender.send_arrow("t", keys, pa.array([b"a", None], pa.binary()), None)
    sender.send_arrow("t", pa.array([None, b"k"], pa.binary()), pa.array([b"a", None], pa.binary()), None)


def test_a_record_over_max_request_size_is_refused_with_sends_error():
    producer = FakeProducer(max_request_size=10_000)
    sender = batch_send.BatchSender(producer, batch_send.FailureTracker())
    keys, values = [b"k", b"kk"], [b"x", b"x" * 20_000]
    with pytest.raises(MessageSizeTooLargeError) as by_list:
        sender.send("t", keys, values, [None, None])
    with pytest.raises(MessageSizeTooLargeError) as by_arrow:
        sender.send_arrow("t", pa.array(keys), pa.array(values), None)
    assert str(by_arrow.value) == str(by_list.value) and "20102 bytes" in str(by_arrow.value)
    sender.send_arrow("t", pa.array([b"k" * 4000]), pa.array([b"x" * 5900]), None)   # at the limit: fine
    assert producer._accumulator.queued[-1].record_count == 1


def test_missing_and_null_timestamps_are_the_clock_at_send():
    producer = FakeProducer()
    sender = batch_send.BatchSender(producer, batch_send.FailureTracker())
    before = int(time.time() * 1000)
    sender.send_arrow("t", None, pa.array([b"a", b"b"]), None)
    sender.send_arrow("t", None, pa.array([b"c", b"d"]), pa.array([None, 42], pa.int64()))
    after = int(time.time() * 1000)
    stamps = []
    for batch in producer._accumulator.queued:
        batch.records.close()
        stamps.extend(r.timestamp for b in batch.records.records() for r in b)
    assert all(before <= s <= after for s in stamps[:3]) and stamps[3] == 42


def test_arrow_input_forms():
    values = [b"one", None, b"three", b"four"]
    keys = [b"k1", b"k2", None, b"k4"]
    expected = _both_ways(keys, values, [1, 2, 3, 4], partitions=2)[0]
    forms = [
        (pa.array(keys, pa.large_binary()), pa.array(values, pa.large_binary())),
        (pa.array([k and k.decode() for k in keys], pa.string()), pa.array([v and v.decode() for v in values])),
        (pa.chunked_array([keys[:1], keys[1:]], pa.binary()), pa.chunked_array([values[:3], values[3:]], pa.binary())),
        (pa.array([b"zz"] + keys, pa.binary()).slice(1), pa.array([b"zz", b"yy"] + values, pa.binary()).slice(2)),
    ]
    for arrow_keys, arrow_values in forms:
        producer = FakeProducer(partitions=2)
        with mock.patch.object(batch_send.random, "randrange", lambda n: 0):
            batch_send.BatchSender(producer, batch_send.FailureTracker()).send_arrow(
                "t", arrow_keys, arrow_values, pa.chunked_array([[1, 2], [3, 4]], pa.int64()))
        assert _built(producer) == expected
    with pytest.raises(TypeError):
        batch_send.BatchSender(FakeProducer(), batch_send.FailureTracker()).send_arrow(
            "t", None, pa.array([1, 2]), None)
    with pytest.raises(ValueError):
        batch_send.BatchSender(FakeProducer(), batch_send.FailureTracker()).send_arrow(
            "t", pa.array([b"k"]), pa.array([b"a", b"b"]), None)


def test_nothing_to_send_queues_nothing():
    producer = FakeProducer()
    batch_send.BatchSender(producer, batch_send.FailureTracker()).send_arrow("t", None, pa.array([], pa.binary()), None)
    assert producer._accumulator.queued == []


def test_old_message_formats_are_appended_record_by_record_as_send_does():
    keys = [b"a", None, b"c"] * 20
    values = [b"x" * 40, b"y", None] * 20
    by_append, in_bulk = _both_ways(keys, values, list(range(60)), partitions=2, batch_size=500, message_version=1)
    assert in_bulk == by_append and len(in_bulk) > 2
    by_append, in_bulk = _both_ways(None, [b"v" * 30] * 60, list(range(60)), batch_size=500, message_version=0,
                                    compression=1)
    assert in_bulk == by_append


def test_batch_failures_reach_the_tracker_with_the_record_count():
    producer = FakeProducer(batch_size=200)
    tracker = batch_send.FailureTracker()
    batch_send.BatchSender(producer, tracker).send_arrow("t", None, pa.array([b"x" * 50] * 10), None)
    error = RuntimeError("broker said no")
    for batch in producer._accumulator.queued:
        batch.produce_future.failure(error)
    assert tracker.failures == 10 and tracker.first_error is error


def test_producer_fields_set_later_by_the_sender_still_work():
    producer = FakeProducer(batch_size=500)
    batch_send.BatchSender(producer, batch_send.FailureTracker()).send_arrow(
        "t", None, pa.array([b"v%d" % i for i in range(100)]), pa.array(list(range(100)), pa.int64()))
    reference = MemoryRecordsBuilder(2, 0, 500)
    batch = producer._accumulator.queued[0]
    for i in range(100):
        if reference.append(i, None, b"v%d" % i, ()) is None:
            break
    assert batch.record_count == reference.next_offset() < 100
    for records in (batch.records, reference):
        records.set_producer_state(1234, 5, 77, False)
        records.close()
    assert bytes(batch.records.buffer()) == bytes(reference.buffer())
    assert batch.records.producer_id == 1234 and batch.records.base_sequence == 77


@settings(max_examples=100)
@given(keys=st.lists(st.one_of(st.none(), st.binary(max_size=70)), min_size=1, max_size=80),
       skip=st.integers(0, 3))
def test_murmur2_of_columns_is_kafkas_murmur2(keys, skip):
    array = pa.array([b"pad"] * skip + keys, pa.binary()).slice(skip)     # a slice: offsets not from 0
    data, offsets, lengths = batch_send._binary_parts(array)
    hashes = batch_send.murmur2_columns(data, offsets, lengths)
    assert [h for h, k in zip(hashes.tolist(), keys) if k is not None] == [murmur2(k) for k in keys if k is not None]


def test_encoding_a_few_batches_at_a_time_gives_the_same_batches(monkeypatch):
    monkeypatch.setattr(batch_send, "ENCODE_CHUNK_BYTES", 1000)          # 3 batches of 300 bytes per chunk
    keys = [None if i % 3 else b"k%d" % (i % 7) for i in range(500)]
    values = [b"v" * (i % 90) for i in range(500)]
    by_append, in_bulk = _both_ways(keys, values, [i * 1000 for i in range(500)], partitions=3, batch_size=300)
    assert in_bulk == by_append and len(in_bulk) > 20


def test_null_slots_with_bytes_behind_them_are_still_null():
    # Arrow lets a null slot of a binary array span bytes; pyarrow never makes one, another producer may
    data = pa.py_buffer(b"aaGARBAGEbb")
    offsets = pa.py_buffer(np.array([0, 2, 9, 11], dtype=np.int32).tobytes())
    validity = pa.py_buffer(bytes([0b101]))
    values = pa.Array.from_buffers(pa.binary(), 3, [validity, offsets, data], null_count=1)
    assert values.to_pylist() == [b"aa", None, b"bb"]
    producer = FakeProducer()
    batch_send.BatchSender(producer, batch_send.FailureTracker()).send_arrow(
        "t", pa.array([b"k1", b"k2", b"k3"]), values, pa.array([1, 2, 3], pa.int64()), partition=0)
    expected = _both_ways([b"k1", b"k2", b"k3"], [b"aa", None, b"bb"], [1, 2, 3])[0]
    assert _built(producer) == expected

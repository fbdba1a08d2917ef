"""Columnar decoding of Kafka record batches (kafka_io.record_columns) against kafka-python's own
per-record iteration, and the Kafka source's read_split on both consumer paths (columnar and per record)
with a fake consumer over real record batches."""
import collections
import logging
import struct
import types

import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from kafka import TopicPartition
from kafka.consumer.fetcher import Fetcher
from kafka.errors import CorruptRecordError
from kafka.protocol.consumer import IsolationLevel
from kafka.record.default_records import DefaultRecordBatch
from kafka.record.memory_records import MemoryRecords, MemoryRecordsBuilder
from kafka.record.util import calc_crc32c, encode_varint
import kafka.codec

from pyflink_compat.common import Types
from pyflink_compat.common.serialization import DeserializationSchema, SimpleStringSchema
from pyflink_compat.kafka_io import record_columns as rc
from pyflink_compat.kafka_io import source

TP = TopicPartition("t", 0)

CODECS = [0, 1] + [c for c, ok in ((2, kafka.codec.has_snappy()), (3, kafka.codec.has_lz4()),
                                   (4, kafka.codec.has_zstd())) if ok]


# -- building batches ---------------------------------------------------------------------------------

def build_batch(records, base_offset=0, compression=0, log_append_time=None, gaps=(), transactional=False,
                producer_id=-1, control=False) -> bytes:
    """One v2 batch of (timestamp, key, value, headers) records; ``gaps``: indexes before which one offset
    is skipped (as compaction leaves them); ``log_append_time``: make it a LOG_APPEND_TIME batch with
    that max timestamp."""
    builder = MemoryRecordsBuilder(2, compression, 1 << 30, offset=0, transactional=transactional,
                                   producer_id=producer_id, producer_epoch=0 if producer_id >= 0 else -1,
                                   base_sequence=0 if producer_id >= 0 else -1)
    for i, (ts, key, value, headers) in enumerate(records):
        if i in gaps:
            builder.skip(1)
        assert builder.append(ts, key, value, headers) is not None
    builder.close()
    buf = bytearray(builder.buffer())
    struct.pack_into(">q", buf, 0, base_offset)
    attrs_at = DefaultRecordBatch.ATTRIBUTES_OFFSET
    if log_append_time is not None or control:
        attrs, = struct.unpack_from(">h", buf, attrs_at)
        if log_append_time is not None:
            attrs |= DefaultRecordBatch.TIMESTAMP_TYPE_MASK
            struct.pack_into(">q", buf, attrs_at + 2 + 4 + 8, log_append_time)       # MaxTimestamp
        if control:
            attrs |= DefaultRecordBatch.CONTROL_MASK
        struct.pack_into(">h", buf, attrs_at, attrs)
        struct.pack_into(">I", buf, DefaultRecordBatch.CRC_OFFSET, calc_crc32c(memoryview(buf)[attrs_at:]))
    return bytes(buf)


def control_batch(base_offset, producer_id, abort) -> bytes:
    """A transaction marker: one record whose key is (version 0, type 0 = abort / 1 = commit)."""
    return build_batch([(0, struct.pack(">hh", 0, 0 if abort else 1), b"\0\0\0\0\0\0", [])],
                       base_offset=base_offset, transactional=True, producer_id=producer_id, control=True)


def kafka_python_records(data: bytes):
    """Every record of ``data`` (batches) as kafka-python iterates them."""
    out = []
    records = MemoryRecords(data)
    while True:
        batch = records.next_batch()
        if batch is None:
            return out
        out.extend((r.offset, r.timestamp, r.key, r.value) for r in batch)


def chunk_records(chunks):
    out = []
    for c in chunks:
        out.extend(zip(c.offsets.tolist(), c.timestamps.tolist(), c.keys.to_pylist(), c.values.to_pylist()))
    return out


def columnar_records(data: bytes):
    records = MemoryRecords(data)
    chunks = []
    while True:
        batch = records.next_batch()
        if batch is None:
            return chunk_records(chunks)
        chunks.append(rc._decode_v2_batch(batch))


# -- strategies ---------------------------------------------------------------------------------------

def _long(n, byte):
    return bytes([byte]) * n


payloads = st.one_of(
    st.none(),
    st.just(b""),
    st.binary(max_size=80),
    st.text(max_size=20).map(lambda t: t.encode("utf-8")),
    st.builds(_long, st.sampled_from([63, 64, 100, 8191, 8192, 20000]), st.integers(0, 255)),
)
headers = st.lists(st.tuples(st.text(max_size=5), st.one_of(st.none(), st.binary(max_size=10))), max_size=3)
record = st.tuples(st.integers(-(1 << 20), 1 << 20), payloads, payloads, headers)


@st.composite
def batches(draw):
    base_ts = draw(st.integers(0, 1 << 41))
    recs = [(base_ts + d, k, v, h) for d, k, v, h in draw(st.lists(record, min_size=1, max_size=30))]
    # the first record's timestamp is the batch's base; later ones may be before it
    return dict(records=recs, base_offset=draw(st.integers(0, 1 << 40)), compression=draw(st.sampled_from(CODECS)),
                log_append_time=draw(st.one_of(st.none(), st.integers(0, 1 << 41))),
                gaps=set(draw(st.lists(st.integers(1, 29), max_size=3))))


# -- decoding -----------------------------------------------------------------------------------------

@settings(max_examples=150)
@given(batches())
def test_batch_decoding_matches_kafka_python(spec):
    data = build_batch(**spec)
    expected = kafka_python_records(data)
    assert columnar_records(data) == expected
    assert len(expected) == len(spec["records"])


@settings(max_examples=60)
@given(st.lists(batches(), min_size=1, max_size=4), st.data())
def test_partition_records_match_kafka_python(specs, data):
    """Several batches one after the other, read from a fetch offset anywhere in them (mid-batch too):
    the same records, next fetch offset and counters as kafka-python's PartitionRecords."""
    blobs, base = [], data.draw(st.integers(0, 1000))
    for spec in specs:
        spec = dict(spec, base_offset=base)
        blob = build_batch(**spec)
        blobs.append(blob)
        base = DefaultRecordBatch(blob).next_offset + data.draw(st.integers(0, 3))
    joined = b"".join(blobs)
    fetch_offset = data.draw(st.integers(0, base + 1))
    take = data.draw(st.integers(1, 5))

    theirs = Fetcher.PartitionRecords(fetch_offset, TP, MemoryRecords(joined))
    expected = []
    while theirs:
        expected.extend((r.offset, r.timestamp, r.key, r.value) for r in theirs.take(10_000))
    ours = rc.ColumnarPartitionRecords(fetch_offset, TP, MemoryRecords(joined))
    chunks = []
    while ours:
        got = ours.take(take)
        assert all(isinstance(c, rc.RecordChunk) and len(c) for c in got)
        chunks.extend(got)
    assert chunk_records(chunks) == expected
    assert all(c.offset >= fetch_offset for c in chunks)
    for name in ("next_fetch_offset", "records_read", "bytes_read", "leader_epoch"):
        assert getattr(ours, name) == getattr(theirs, name), name


@settings(max_examples=60)
@given(st.lists(batches(), min_size=1, max_size=4), st.data())
def test_raw_chunks_decoded_together(specs, data):
    """Chunks of several batches (LOG_APPEND_TIME or not), some sliced, some decoded on their own first,
    decoded in one pass by concat_chunks: the records kafka-python reads, in order."""
    chunks, expected = [], []
    for spec in specs:
        blob = build_batch(**spec)
        records = kafka_python_records(blob)
        chunk = rc._decode_v2_batch(MemoryRecords(blob).next_batch(), raw=True)
        assert chunk.is_raw and len(chunk) == len(records)
        assert (chunk.offset, chunk.last_offset) == (records[0][0], records[-1][0])
        i = data.draw(st.integers(0, len(records)))
        j = data.draw(st.integers(i, len(records)))
        chunk = chunk.slice(i, j)
        if data.draw(st.booleans()):
            chunk.values                                 # decoded alone
        if len(chunk):
            chunks.append(chunk)
            expected.extend(records[i:j])
    whole = rc.concat_chunks(chunks)
    assert chunk_records([whole]) == expected


def test_fetch_offset_mid_batch_and_control_batch_skipped():
    one = build_batch([(1000 + i, None, b"a%d" % i, []) for i in range(5)], base_offset=10)
    marker = control_batch(15, producer_id=7, abort=False)
    two = build_batch([(2000 + i, b"k", b"b%d" % i, [("h", b"x")]) for i in range(4)], base_offset=16)
    part = rc.ColumnarPartitionRecords(12, TP, MemoryRecords(one + marker + two))
    chunks = part.take(10)
    assert [c.offsets.tolist() for c in chunks] == [[12, 13, 14], [16, 17, 18, 19]]
    assert [c.offset for c in chunks] == [12, 16]
    assert chunks[0].values.to_pylist() == [b"a2", b"a3", b"a4"]
    assert chunks[1].keys.to_pylist() == [b"k"] * 4
    assert chunks[1].timestamps.tolist() == [2000, 2001, 2002, 2003]
    assert not part                                    # drained
    assert part.next_fetch_offset == 20
    assert part.records_read == 9


def test_read_committed_skips_aborted_batches_like_kafka_python():
    Aborted = collections.namedtuple("Aborted", "producer_id first_offset")
    data = b"".join([
        build_batch([(1, None, b"t1", [])] * 2, base_offset=0, transactional=True, producer_id=5),
        build_batch([(1, None, b"plain", [])], base_offset=2),
        control_batch(3, producer_id=5, abort=True),
        build_batch([(1, None, b"t2", [])] * 2, base_offset=4, transactional=True, producer_id=6),
        control_batch(6, producer_id=6, abort=False),
    ])
    aborted = [Aborted(5, 0)]
    kw = dict(isolation_level=IsolationLevel.READ_COMMITTED, aborted_transactions=aborted)
    theirs = Fetcher.PartitionRecords(0, TP, MemoryRecords(data), **kw)
    expected = [(r.offset, r.timestamp, r.key, r.value) for r in theirs.take(100)]
    ours = rc.ColumnarPartitionRecords(0, TP, MemoryRecords(data), **kw)
    got = chunk_records(ours.take(100))
    assert got == expected
    assert [o for o, *_ in got] == [2, 4, 5]
    assert (ours.next_fetch_offset, ours.records_read) == (theirs.next_fetch_offset, theirs.records_read)


def test_legacy_message_sets_become_chunks():
    for magic in (0, 1):
        builder = MemoryRecordsBuilder(magic, 0, 1 << 20, offset=0)
        for i in range(4):
            builder.append(1000 + i if magic else None, None if i == 1 else b"k", b"v%d" % i)
        builder.close()
        data = bytes(builder.buffer())
        theirs = Fetcher.PartitionRecords(1, TP, MemoryRecords(data))
        expected = [(r.offset, -1 if r.timestamp is None else r.timestamp, r.key, r.value)
                    for r in theirs.take(100)]
        ours = rc.ColumnarPartitionRecords(1, TP, MemoryRecords(data))
        assert chunk_records(ours.take(100)) == expected


def test_crc_mismatch_is_reported():
    data = bytearray(build_batch([(1, None, b"abc", [])]))
    data[-1] ^= 0xff
    with pytest.raises(CorruptRecordError, match="failed crc check"):
        rc.ColumnarPartitionRecords(0, TP, MemoryRecords(bytes(data))).take(1)


def _record(body: bytes) -> bytes:
    out = bytearray()
    encode_varint(len(body), out.append)
    return bytes(out) + body


def _fields(key_len, key, value_len, value, headers=b"\x00"):
    out = bytearray(b"\x00")                     # attributes
    encode_varint(0, out.append)                 # timestamp delta
    encode_varint(0, out.append)                 # offset delta
    encode_varint(key_len, out.append)
    out += key
    encode_varint(value_len, out.append)
    out += value
    return bytes(out) + headers


@pytest.mark.parametrize("body", [
    _fields(-1, b"", 10, b"abc"),                      # value length past the record's end
    _fields(40, b"abc", -1, b""),                      # key length past the record's end
    _fields(-1, b"", 3, b"abc", headers=b""),          # header count missing
    _fields(-1, b"", 3, b"abc", headers=b"\x03"),      # a negative header count
    _fields(-1, b"", 3, b"abc", headers=b"\x02\x02h"),  # a header running past the end
    _fields(-1, b"", 1, b"abc"),                       # bytes left over in the record
])
def test_malformed_records_raise_corrupt_record_error(body):
    good = _record(_fields(-1, b"", 2, b"ok"))
    buffer = good + _record(body)
    with pytest.raises(CorruptRecordError):
        rc.decode_records(buffer, 0, 2, 0, 0)
    assert rc.decode_records(good, 0, 1, 0, 0).values.to_pylist() == [b"ok"]


def test_truncated_and_trailing_bytes():
    good = _record(_fields(-1, b"", 2, b"ok"))
    with pytest.raises(CorruptRecordError):
        rc.decode_records(good[:-1], 0, 1, 0, 0)
    with pytest.raises(CorruptRecordError):
        rc.decode_records(good + b"\x00", 0, 1, 0, 0)
    with pytest.raises(CorruptRecordError):
        rc.decode_records(good, 0, 2, 0, 0)            # more records announced than present


def test_install_is_idempotent_and_refuses_unknown_internals():
    fetcher = types.SimpleNamespace(PartitionRecords=Fetcher.PartitionRecords, _parse_fetched_data=None,
                                    config={"key_deserializer": None, "value_deserializer": None})
    consumer = types.SimpleNamespace(_fetcher=fetcher)
    assert rc.install(consumer) and rc.install(consumer)
    assert fetcher.PartitionRecords is rc.ColumnarPartitionRecords and rc.installed(consumer)
    assert not rc.install(types.SimpleNamespace())
    other = types.SimpleNamespace(PartitionRecords=object, _parse_fetched_data=None, config={})
    assert not rc.install(types.SimpleNamespace(_fetcher=other))
    with_deser = types.SimpleNamespace(PartitionRecords=Fetcher.PartitionRecords, _parse_fetched_data=None,
                                       config={"key_deserializer": None, "value_deserializer": object()})
    assert not rc.install(types.SimpleNamespace(_fetcher=with_deser))


def test_install_on_a_real_consumer():
    from kafka import KafkaConsumer
    consumer = KafkaConsumer(bootstrap_servers="127.0.0.1:1", api_version=(2, 5), enable_auto_commit=False)
    try:
        assert rc.install(consumer)
        assert consumer._fetcher.PartitionRecords is rc.ColumnarPartitionRecords
    finally:
        consumer.close()


# -- read_split over a fake consumer ------------------------------------------------------------------

class FakeConsumer:
    """Serves record batches like a fetcher: each poll builds the fetcher's PartitionRecords over the
    batches from the position on (the batch holding the position included) and takes from it."""

    def __init__(self, batches, per_fetch=3):
        self.batches = batches                       # bytes of v2 batches, in offset order
        self.per_fetch = per_fetch
        self._fetcher = types.SimpleNamespace(PartitionRecords=Fetcher.PartitionRecords, _parse_fetched_data=None,
                                              config={"key_deserializer": None, "value_deserializer": None})
        self.part = None
        self.pos = None
        self.polls = 0

    def assign(self, tps):
        pass

    def seek(self, tp, offset):
        self.pos, self.part = offset, None

    def position(self, tp):
        return self.pos

    def poll(self, timeout_ms=0, max_records=None):
        self.polls += 1
        if not self.part:
            todo = [b for b in self.batches if DefaultRecordBatch(b).next_offset > self.pos][:self.per_fetch]
            if not todo:
                return {}
            self.part = self._fetcher.PartitionRecords(self.pos, TP, MemoryRecords(b"".join(todo)))
        got = self.part.take(max_records)
        self.pos = self.part.next_fetch_offset
        return {TP: got} if got else {}


def make_batches(values, per_batch=4, base=0):
    out = []
    for i in range(0, len(values), per_batch):
        recs = [(1000 + base + j if j % 4 != 3 else -1, None, v, []) for j, v in enumerate(values[i:i + per_batch], i)]
        out.append(build_batch(recs, base_offset=base + i))
    return out


class Recording(DeserializationSchema):
    """Per record only; bad values fail, or are skipped and counted when ``ignore``."""

    def __init__(self, ignore=False):
        super().__init__()
        self.ignore, self.skipped = ignore, 0

    def deserialize(self, message):
        if message.startswith(b"bad"):
            if self.ignore:
                self.skipped += 1
                return None
            raise ValueError("cannot read %r" % message)
        return message.decode() + "!"

    def _take_skipped(self):
        n, self.skipped = self.skipped, 0
        return n


def run_split(monkeypatch, consumer, deserializer, start, end, columnar=True, **props):
    monkeypatch.setattr(source, "per_worker_client", lambda kind, properties, build: consumer)
    if not columnar:
        monkeypatch.setattr(rc, "install", lambda c: False)
    properties = {"bootstrap.servers": "fake:9092"}
    properties.update(props)
    spec = types.SimpleNamespace(value_deserializer=deserializer, properties=properties)
    batches = list(source.read_split(spec, Types.STRING(), source.KafkaSplit("t", 0, start, end)))
    return batches, pa.Table.from_batches(batches) if batches else None


VALUES = [b"v%d" % i for i in range(30)]
VALUES[7] = None                                    # a tombstone


@pytest.mark.parametrize("columnar", [True, False])
@pytest.mark.parametrize("deserializer", [SimpleStringSchema(), Recording()], ids=["vectorised", "per-record"])
def test_read_split_exact_range(monkeypatch, columnar, deserializer):
    consumer = FakeConsumer(make_batches(VALUES))
    batches, table = run_split(monkeypatch, consumer, deserializer, 5, 22, columnar=columnar)
    assert rc.installed(consumer) is columnar
    suffix = "!" if isinstance(deserializer, Recording) else ""
    expected = [v.decode() + suffix for v in VALUES[5:22] if v is not None]
    assert table.column(0).to_pylist() == expected
    ts = [None if i % 4 == 3 else 1000 + i for i in range(5, 22) if VALUES[i] is not None]
    assert table.column(1).to_pylist() == ts


@pytest.mark.parametrize("columnar", [True, False])
def test_read_split_batches_of_arrow_batch_rows(monkeypatch, columnar):
    monkeypatch.setattr(source, "ARROW_BATCH_ROWS", 7)
    values = [b"x%d" % i for i in range(40)]
    consumer = FakeConsumer(make_batches(values, per_batch=5))
    batches, table = run_split(monkeypatch, consumer, SimpleStringSchema(), 2, 39, columnar=columnar)
    assert [b.num_rows for b in batches] == [7, 7, 7, 7, 7, 2]
    assert table.column(0).to_pylist() == [v.decode() for v in values[2:39]]


@pytest.mark.parametrize("columnar", [True, False])
def test_read_split_names_the_offset_of_a_bad_record(monkeypatch, columnar):
    values = [b"v%d" % i for i in range(20)]
    values[13] = b"bad!"
    consumer = FakeConsumer(make_batches(values, base=100))
    with pytest.raises(ValueError, match="Failed to deserialize the record of Kafka topic t partition 0 offset 113: "
                                         "cannot read"):
        run_split(monkeypatch, consumer, Recording(), 101, 120, columnar=columnar)


@pytest.mark.parametrize("columnar", [True, False])
def test_read_split_counts_skipped_records(monkeypatch, caplog, columnar):
    values = [b"v%d" % i for i in range(12)]
    values[2] = values[9] = b"bad"
    consumer = FakeConsumer(make_batches(values))
    with caplog.at_level(logging.WARNING, logger="pyflink_compat.kafka"):
        _, table = run_split(monkeypatch, consumer, Recording(ignore=True), 0, 12, columnar=columnar)
    assert table.num_rows == 10
    assert "Skipped 2 malformed Recording records in topic t partition 0" in caplog.text


@pytest.mark.parametrize("columnar", [True, False])
def test_read_split_stall_times_out(monkeypatch, columnar):
    consumer = FakeConsumer(make_batches([b"a", b"b"]))
    with pytest.raises(TimeoutError, match=r"No progress reading Kafka topic t partition 0 at offset 2 \(reading up "
                                           r"to 5\) from bootstrap servers 'fake:9092' for 0 s"):
        run_split(monkeypatch, consumer, SimpleStringSchema(), 0, 5, columnar=columnar, **{"request.timeout.ms": "200"})

"""Columnar decoding of Kafka record batches for the source's kafka-python consumer.

kafka-python decodes every record of a fetched v2 record batch in Python (varints,
one ``ConsumerRecord`` each). Here a whole batch becomes one ``RecordChunk`` of
columns: offsets and timestamps (numpy int64), keys and values (``pa.BinaryArray``,
null for a -1 length). Only the walk over record boundaries (each record starts
with its length) is a Python loop; every field inside the records is decoded
with numpy across all records at once.

The chunks the consumer yields are *raw* (boundaries walked, the batch's bytes
kept): their columns are decoded when first used, and ``concat_chunks`` decodes
the raw chunks of a whole poll in one vectorised pass, so numpy's per-call cost
is paid per poll, not per (often small: 16 KiB by default) batch. A malformed
record inside a batch therefore raises ``CorruptRecordError`` when the chunk is
decoded rather than from ``poll()``; batch-level errors (CRC, truncated records)
still come from ``poll()``.

``install(consumer)`` makes a ``KafkaConsumer``'s fetcher build
``ColumnarPartitionRecords``: kafka-python's own per-partition record holder with
the same batch-level logic (CRC checks, leader epoch, READ_COMMITTED aborted
transactions, control batches, next fetch offset, metrics), yielding one chunk per
batch instead of one record per record. ``consumer.poll()`` then returns chunks.
"""
import logging

import numpy as np
import pyarrow as pa

from kafka.errors import CorruptRecordError

log = logging.getLogger("pyflink_compat.kafka")

_INT32_MAX = (1 << 31) - 1
_MAX_VARINT_BYTES = 10


class RecordChunk:
    """The records of one batch (or of several, once combined), as columns: ``offsets`` and
    ``timestamps`` (numpy int64), ``keys`` and ``values`` (``pa.BinaryArray``, null for a -1 length).

    A chunk made by ``ColumnarPartitionRecords`` is first *raw*: only the record boundaries of its batch
    are known (walked when the batch was read) and its columns are decoded on first use, or, by
    ``concat_chunks``, together with other raw chunks in one vectorised pass (numpy's per-call cost is
    then paid per poll rather than per batch).

    ``offset`` is the first record's offset: kafka-python's fetcher skips records below its fetch offset
    by looking at ``.offset`` of what the record iterator yields. ``size_in_bytes`` is the total of the
    records' sizes (kafka-python's metrics)."""

    __slots__ = ("_offsets", "_timestamps", "_values", "_keys", "_key_source", "_raw", "size_in_bytes")

    def __init__(self, offsets=None, timestamps=None, values=None, keys=None, key_source=None, size_in_bytes=0,
                 raw=None):
        self._offsets = offsets
        self._timestamps = timestamps
        self._values = values
        self._keys = keys
        self._key_source = key_source       # a function building the keys: they are decoded on demand
        self._raw = raw
        self.size_in_bytes = raw.size_in_bytes if raw is not None else size_in_bytes

    def _decoded(self):
        if self._raw is not None:
            whole = _decode_raw([self._raw])
            self._offsets, self._timestamps, self._values = whole._offsets, whole._timestamps, whole._values
            self._keys, self._key_source = whole._keys, whole._key_source
            self._raw = None
        return self

    @property
    def is_raw(self) -> bool:
        return self._raw is not None

    @property
    def offsets(self) -> np.ndarray:
        return self._decoded()._offsets

    @property
    def timestamps(self) -> np.ndarray:
        return self._decoded()._timestamps

    @property
    def values(self) -> pa.BinaryArray:
        return self._decoded()._values

    @property
    def keys(self) -> pa.BinaryArray:
        self._decoded()
        if self._keys is None:
            self._keys = self._key_source()
            self._key_source = None
        return self._keys

    @property
    def offset(self) -> int:
        return self._raw.first_offset() if self._raw is not None else int(self._offsets[0])

    @property
    def last_offset(self) -> int:
        return self._raw.last_offset() if self._raw is not None else int(self._offsets[-1])

    def __len__(self):
        return len(self._raw.ends) if self._raw is not None else len(self._offsets)

    def slice(self, start: int, stop: int = None) -> "RecordChunk":
        """The records [start, stop) (indexes, not offsets) of this chunk."""
        n = len(self)
        stop = n if stop is None else min(stop, n)
        start = min(max(start, 0), stop)
        if start == 0 and stop == n:
            return self
        if start == stop:
            return _empty_chunk()
        if self._raw is not None:
            return RecordChunk(raw=self._raw.slice(start, stop))
        if self._keys is None:
            whole = self._key_source
            keys, source = None, lambda: whole().slice(start, stop - start)
        else:
            keys, source = self._keys.slice(start, stop - start), None
        return RecordChunk(self._offsets[start:stop], self._timestamps[start:stop],
                           self._values.slice(start, stop - start), keys, source, self.size_in_bytes)

    def __repr__(self):
        if not len(self):
            return "RecordChunk(empty)"
        return "RecordChunk(offsets %d..%d, %d records%s)" % (self.offset, self.last_offset, len(self),
                                                             ", raw" if self.is_raw else "")


class _RawRecords:
    """The records of a v2 batch body not decoded yet: the buffer, where the first record starts and the
    position after each record (ascending; records [i] spans ends[i-1] (or ``pos``) to ends[i])."""

    __slots__ = ("buffer", "pos", "ends", "base_offset", "base_timestamp", "log_append_time", "size_in_bytes")

    def __init__(self, buffer, pos, ends, base_offset, base_timestamp, log_append_time, size_in_bytes):
        self.buffer, self.pos, self.ends = buffer, pos, ends
        self.base_offset, self.base_timestamp, self.log_append_time = base_offset, base_timestamp, log_append_time
        self.size_in_bytes = size_in_bytes

    def _offset_at(self, head):
        """The offset of the record whose length varint is at ``head`` (decoded on its own)."""
        buf = self.buffer
        try:
            p = head
            for _ in range(3):                            # length, attributes, timestamp delta
                while buf[p] >= 0x80:
                    p += 1
                p += 1
            raw, shift = 0, 0
            while True:
                b = buf[p]
                raw |= (b & 0x7f) << shift
                p += 1
                if b < 0x80:
                    break
                shift += 7
                if shift >= 7 * _MAX_VARINT_BYTES:
                    raise _corrupt("Found invalid record structure: varint of more than 10 bytes")
        except IndexError:
            raise _corrupt("Found invalid record structure: a record runs past the end of the batch") from None
        return self.base_offset + ((raw >> 1) ^ -(raw & 1))

    def first_offset(self):
        return self._offset_at(self.pos)

    def last_offset(self):
        return self._offset_at(int(self.ends[-2]) if len(self.ends) > 1 else self.pos)

    def slice(self, start, stop):
        pos = self.pos if start == 0 else int(self.ends[start - 1])
        ends = self.ends[start:stop]
        return _RawRecords(self.buffer, pos, ends, self.base_offset, self.base_timestamp, self.log_append_time,
                           0)


def concat_chunks(chunks) -> RecordChunk:
    """One chunk of the records of ``chunks``, in order (values copied into one contiguous array). Raw
    chunks are decoded together."""
    chunks = [c for c in chunks if len(c)]
    if not chunks:
        return _empty_chunk()
    if all(c._raw is not None for c in chunks):
        return _decode_raw([c._raw for c in chunks])
    if len(chunks) == 1:
        return chunks[0]._decoded()
    decoded, run = [], []
    for c in chunks + [None]:
        if c is not None and c._raw is not None:
            run.append(c._raw)
            continue
        if run:
            decoded.append(_decode_raw(run))
            run = []
        if c is not None:
            decoded.append(c)
    parts = decoded
    return RecordChunk(np.concatenate([c.offsets for c in parts]),
                       np.concatenate([c.timestamps for c in parts]),
                       pa.concat_arrays([c.values for c in parts]),
                       key_source=lambda: pa.concat_arrays([c.keys for c in parts]),
                       size_in_bytes=sum(c.size_in_bytes for c in parts))


# -- decoding ----------------------------------------------------------------------------------------

def _corrupt(message):
    return CorruptRecordError(message)


# Bytes from a record's first byte to its end, by the record's first byte when that is its whole length
# varint (below 0x80), and the same less (second byte << 6) when the varint has two bytes.
_SPAN_1 = tuple(1 + (b >> 1) for b in range(256))
_SPAN_2 = tuple(2 + ((b & 0x7f) >> 1) for b in range(256))


def _record_ends(buf, pos, count, _span_1=_SPAN_1, _span_2=_SPAN_2):
    """Walk the ``count`` records from ``pos``: the position after each record, and the total size of
    the records without their length varints (kafka-python's bytes_read). The only per-record Python
    loop of the decoding. A record starts with its length as a zigzag varint; the sign is ignored here
    (a negative length is caught when the lengths are decoded again, vectorised)."""
    ends = [0] * count
    start = pos
    length_bytes = count                                  # bytes of the length varints
    try:
        for i in range(count):
            b = buf[pos]
            if b < 0x80:                                  # a one-byte length: below 64
                pos += _span_1[b]
            else:
                b2 = buf[pos + 1]
                length_bytes += 1
                if b2 < 0x80:                             # two bytes: below 8192
                    pos += _span_2[b] + (b2 << 6)
                else:
                    n = (b & 0x7f) | ((b2 & 0x7f) << 7)
                    pos += 2
                    shift = 14
                    while True:
                        b = buf[pos]
                        pos += 1
                        length_bytes += 1
                        n |= (b & 0x7f) << shift
                        if b < 0x80:
                            break
                        shift += 7
                        if shift >= 7 * _MAX_VARINT_BYTES:
                            raise _corrupt("Found invalid record structure: varint of more than 10 bytes")
                    pos += n >> 1
            ends[i] = pos
    except IndexError:
        raise _corrupt("Found invalid record structure: record %d of %d runs past the end of the batch"
                       % (i, count)) from None
    return ends, pos - start - length_bytes


def _varints(data, positions):
    """Decode the zigzag varints (or varlongs) starting at ``positions`` of the uint8 array ``data``:
    (values as int64, the positions after them). Reads past the end of ``data`` are clamped to its
    last byte; callers check that positions stay within their records."""
    first = data.take(positions, mode="clip")
    if first.max() < 0x80:                                # all one byte
        v = first.astype(np.int64)
        return (v >> 1) ^ -(v & 1), positions + 1
    more = np.flatnonzero(first >= 0x80)
    raw = (first & 0x7f).astype(np.uint64)
    ends = positions + 1
    shift = 7
    while more.size:
        if shift >= 7 * _MAX_VARINT_BYTES:
            raise _corrupt("Found invalid record structure: varint of more than 10 bytes")
        at = ends[more]
        b = data.take(at, mode="clip")
        raw[more] |= (b & 0x7f).astype(np.uint64) << np.uint64(shift)
        ends[more] = at + 1
        more = more[b >= 0x80]
        shift += 7
    values = (raw >> np.uint64(1)).view(np.int64) ^ -(raw & np.uint64(1)).view(np.int64)
    return values, ends


def _gather_binary(data, positions, lengths) -> pa.BinaryArray:
    """A BinaryArray of the byte ranges [positions, positions + lengths) of ``data`` (uint8; the ranges
    ascending, not overlapping; null where the length is negative), the bytes gathered into one buffer
    without a per-record loop.

    The ranges and the gaps between them, alternating, are the values of a binary array over ``data``
    itself (offsets need only be ascending); Arrow's ``take`` of its even values copies the ranges side by
    side (measured several times faster than a numpy mask over the bytes: +1/-1 marks, cumsum, mask)."""
    n = len(lengths)
    valid = lengths >= 0
    sizes = np.where(valid, lengths, 0)
    offsets = np.empty(n + 1, np.int64)
    offsets[0] = 0
    np.cumsum(sizes, out=offsets[1:])
    total = int(offsets[-1])
    if total > _INT32_MAX:
        raise _corrupt("Record batch holds more than 2 GiB of keys or values")
    if total == 0:
        payload = pa.py_buffer(b"")
    else:
        lo = int(positions[0])
        hi = int(positions[-1] + sizes[-1])
        if hi - lo == total:                              # one contiguous range (e.g. a single record)
            payload = pa.py_buffer(data[lo:hi])
        else:
            bounds = np.empty(2 * n + 1, np.int64)
            bounds[0:2 * n:2] = positions
            bounds[1:2 * n:2] = positions + sizes
            bounds[2 * n] = bounds[2 * n - 1]
            if (np.diff(bounds) < 0).any():
                raise _corrupt("Found invalid record structure: overlapping record fields")
            spans = pa.LargeBinaryArray.from_buffers(pa.large_binary(), 2 * n,
                                                     [None, pa.py_buffer(bounds), pa.py_buffer(data)])
            taken = spans.take(pa.array(np.arange(0, 2 * n, 2, dtype=np.int64)))
            payload = taken.buffers()[2]
            if payload.size < total:                      # pragma: no cover - Arrow's take packs the values
                raise AssertionError("unexpected layout of Arrow's take result")
    nulls = n - int(np.count_nonzero(valid))
    bitmap = pa.py_buffer(np.packbits(valid, bitorder="little")) if nulls else None
    return pa.BinaryArray.from_buffers(pa.binary(), n, [bitmap, pa.py_buffer(offsets.astype(np.int32)), payload],
                                       null_count=nulls)


def decode_records(buffer, pos: int, count: int, base_offset: int, base_timestamp: int,
                   log_append_time: int = None, end: int = None) -> RecordChunk:
    """Decode the ``count`` records of an uncompressed (or decompressed) v2 record batch body that start
    at ``pos`` of ``buffer`` (bytes, bytearray or memoryview).

    Timestamps are ``base_timestamp`` + each record's delta, or ``log_append_time`` (the batch's max
    timestamp) for every record of a LOG_APPEND_TIME batch. The records must end exactly at ``end``
    (default: the end of ``buffer``). Raises ``CorruptRecordError`` for malformed records."""
    return raw_records(buffer, pos, count, base_offset, base_timestamp, log_append_time, end)._decoded()


def raw_records(buffer, pos: int, count: int, base_offset: int, base_timestamp: int,
                log_append_time: int = None, end: int = None) -> RecordChunk:
    """Like ``decode_records`` but only walks the record boundaries: a raw chunk, decoded when used."""
    end = len(buffer) if end is None else end
    if count <= 0:
        if pos != end:
            raise _corrupt("%d unconsumed bytes after all records consumed" % (end - pos))
        return _empty_chunk()
    if count > end - pos:                                # each record takes a byte at least
        raise _corrupt("Found invalid record structure: %d records announced in %d bytes" % (count, end - pos))
    ends, size = _record_ends(buffer, pos, count)
    stop = ends[-1]
    if stop != end:
        if stop > end:
            raise _corrupt("Found invalid record structure: the last record runs past the end of the batch")
        raise _corrupt("%d unconsumed bytes after all records consumed" % (end - stop))
    raw = _RawRecords(buffer, pos, np.array(ends, np.int64), base_offset, base_timestamp, log_append_time, size)
    return RecordChunk(raw=raw)


def _decode_raw(raws) -> RecordChunk:
    """Decode the records of raw chunks in one vectorised pass over their bytes, copied side by side."""
    if len(raws) == 1:
        r = raws[0]
        data = np.frombuffer(r.buffer, np.uint8)
        record_end = r.ends
        heads = np.empty(len(record_end), np.int64)
        heads[0] = r.pos
        heads[1:] = record_end[:-1]
        base_offset, base_timestamp = r.base_offset, r.base_timestamp
        append_time = None if r.log_append_time is None else r.log_append_time
        appended = r.log_append_time is not None
    else:
        counts = np.array([len(r.ends) for r in raws], np.int64)
        data = np.concatenate([np.frombuffer(r.buffer, np.uint8)[r.pos:int(r.ends[-1])] for r in raws])
        lengths = np.array([int(r.ends[-1]) - r.pos for r in raws], np.int64)
        shifts = np.cumsum(lengths) - lengths - np.array([r.pos for r in raws], np.int64)
        record_end = np.concatenate([r.ends for r in raws]) + np.repeat(shifts, counts)
        heads = np.empty(len(record_end), np.int64)
        heads[0] = 0
        heads[1:] = record_end[:-1]
        base_offset = np.repeat(np.array([r.base_offset for r in raws], np.int64), counts)
        base_timestamp = np.repeat(np.array([r.base_timestamp for r in raws], np.int64), counts)
        flags = [r.log_append_time is not None for r in raws]
        appended = any(flags)
        if appended:
            append_time = np.repeat(np.array([r.log_append_time or 0 for r in raws], np.int64), counts)
            if not all(flags):
                appended = np.repeat(np.array(flags), counts)
    return _decode_columns(data, heads, record_end, base_offset, base_timestamp,
                           append_time if appended is not False else None, appended)


def _decode_columns(data, heads, record_end, base_offset, base_timestamp, append_time, appended) -> RecordChunk:
    """The vectorised decoding of the records whose length varints are at ``heads`` and which end at
    ``record_end`` in ``data`` (uint8). ``appended``: False, True (all records take ``append_time``) or a
    boolean array (the records that do)."""
    count = len(heads)
    size, body = _varints(data, heads)
    if (size < 0).any():
        raise _corrupt("Found invalid record structure: negative record length %d" % int(size.min()))
    if (body + size != record_end).any():
        raise _corrupt("Found invalid record structure: inconsistent record lengths")

    attributes = data.take(body, mode="clip")            # unused; a varint, one byte in practice
    p = body + 1 if attributes.max() < 0x80 else _varints(data, body)[1]
    ts_delta, p = _varints(data, p)
    offset_delta, p = _varints(data, p)
    key_len, key_pos = _varints(data, p)
    p = key_pos + np.maximum(key_len, 0)
    value_len, value_pos = _varints(data, p)
    p = value_pos + np.maximum(value_len, 0)
    header_count, p = _varints(data, p)
    offsets = offset_delta + base_offset
    if (p > record_end).any():
        i = int(np.argmax(p > record_end))
        raise _corrupt("Invalid record size: the fields of the record at offset %d run past its length %d"
                       % (int(offsets[i]), int(size[i])))
    if (header_count < 0).any():
        raise _corrupt("Found invalid number of record headers %d" % int(header_count.min()))
    if header_count.any():
        p = _skip_headers(data, p, header_count, record_end)
    if (p != record_end).any():
        i = int(np.argmax(p != record_end))
        raise _corrupt("Invalid record size: expected to read %d bytes in record payload, but instead read %d"
                       % (int(size[i]), int(p[i] - body[i])))

    if appended is True:
        timestamps = np.broadcast_to(np.asarray(append_time, np.int64), (count,)).copy()
    elif appended is False:
        timestamps = ts_delta + base_timestamp
    else:
        timestamps = np.where(appended, append_time, ts_delta + base_timestamp)
    values = _gather_binary(data, value_pos, value_len)
    if (key_len < 0).all():
        keys, key_source = pa.nulls(count, pa.binary()), None
    else:
        keys, key_source = None, lambda: _gather_binary(data, key_pos, key_len)
    return RecordChunk(offsets, timestamps, values, keys, key_source, size_in_bytes=int(size.sum()))


def _skip_headers(data, p, header_count, record_end):
    """Step over the headers of the records that have some (all records' header i at once), checking
    every header stays within its record: the positions after them."""
    p = p.copy()
    todo = np.flatnonzero(header_count > 0)
    at = p[todo]
    left = header_count[todo]
    while todo.size:
        key_len, at = _varints(data, at)
        if (key_len < 0).any():
            raise _corrupt("Invalid negative header key size %d" % int(key_len.min()))
        at = at + key_len
        value_len, at = _varints(data, at)
        at = at + np.maximum(value_len, 0)
        if (at > record_end[todo]).any():
            raise _corrupt("Invalid record size: record headers run past the record's length")
        left = left - 1
        done = left == 0
        p[todo[done]] = at[done]
        keep = ~done
        todo, at, left = todo[keep], at[keep], left[keep]
    return p


def _empty_chunk():
    return RecordChunk(np.empty(0, np.int64), np.empty(0, np.int64), pa.array([], pa.binary()),
                       keys=pa.array([], pa.binary()))


def _chunk_of_records(records) -> RecordChunk:
    """A chunk of kafka-python record objects (legacy message sets, or batches whose internals are not
    the expected ones)."""
    offsets, timestamps, keys, values, size = [], [], [], [], 0
    for record in records:
        offsets.append(record.offset)
        ts = record.timestamp
        timestamps.append(-1 if ts is None else ts)
        keys.append(record.key)
        values.append(record.value)
        size += record.size_in_bytes
    if not offsets:
        return _empty_chunk()
    return RecordChunk(np.array(offsets, np.int64), np.array(timestamps, np.int64),
                       pa.array(values, pa.binary()), keys=pa.array(keys, pa.binary()), size_in_bytes=size)


def _decode_v2_batch(batch, raw=False) -> RecordChunk:
    """The records of a kafka-python ``DefaultRecordBatch`` (decompressed first when needed); ``raw``:
    only walk their boundaries, decode them when used."""
    try:
        batch._maybe_uncompress()
        buffer, pos, count = batch._buffer, batch._pos, batch._num_records
    except AttributeError:                               # other kafka-python internals: its own iteration
        return _chunk_of_records(batch)
    log_append_time = batch.max_timestamp if batch.timestamp_type == 1 else None
    chunk = raw_records(buffer, pos, count, batch.base_offset, batch.first_timestamp, log_append_time)
    return chunk if raw else chunk._decoded()


# -- kafka-python integration ------------------------------------------------------------------------

try:
    from kafka.consumer.fetcher import Fetcher as _Fetcher
    from kafka.protocol.consumer import IsolationLevel as _IsolationLevel
    _BasePartitionRecords = _Fetcher.PartitionRecords
except (ImportError, AttributeError):                    # a kafka-python without these internals
    _Fetcher = _IsolationLevel = _BasePartitionRecords = None


if _BasePartitionRecords is not None:

    class ColumnarPartitionRecords(_BasePartitionRecords):
        """kafka-python's PartitionRecords yielding a ``RecordChunk`` per record batch."""

        def _unpack_records(self, tp, records, key_deserializer, value_deserializer):
            if key_deserializer is not None or value_deserializer is not None:
                # Deserializers work on records one by one: kafka-python's own iteration.
                yield from super()._unpack_records(tp, records, key_deserializer, value_deserializer)
                return
            try:
                yield from self._chunks(records)
            except StopIteration:
                log.exception("StopIteration raised unpacking messageset")
                raise RuntimeError("StopIteration raised unpacking messageset")

        def _chunks(self, records):
            last_batch = None
            skipping = True                              # leading records below fetch_offset are dropped
            while True:
                batch = records.next_batch()
                if batch is None:
                    break
                last_batch = batch
                if self.check_crcs and not batch.validate_crc():
                    raise CorruptRecordError("Record batch for partition %s at offset %s failed crc check"
                                             % (self.topic_partition, batch.base_offset))
                if batch.magic == 2:
                    self.leader_epoch = batch.leader_epoch
                    if (self.isolation_level == _IsolationLevel.READ_COMMITTED and batch.has_producer_id()):
                        self._consume_aborted_transactions_up_to(batch.last_offset)
                        if self._contains_abort_marker(batch):
                            self.aborted_producer_ids.discard(batch.producer_id)
                        elif self._is_batch_aborted(batch):
                            log.debug("Skipping aborted record batch from partition %s with producer_id %s"
                                      " and offsets %s to %s", self.topic_partition, batch.producer_id,
                                      batch.base_offset, batch.last_offset)
                            self.next_fetch_offset = batch.next_offset
                            continue
                    if batch.is_control_batch:       # transaction markers are not records for the consumer
                        self.next_fetch_offset = batch.next_offset
                        continue
                    chunk = _decode_v2_batch(batch, raw=True)
                else:
                    chunk = _chunk_of_records(self._checked_legacy_records(batch))
                n = len(chunk)
                if not n:
                    continue
                self.records_read += n
                self.bytes_read += chunk.size_in_bytes
                self.next_fetch_offset = chunk.last_offset + 1
                if skipping:
                    if chunk.offset < self.fetch_offset:
                        below = chunk.offsets < self.fetch_offset
                        first = int(np.argmin(below)) if not below.all() else n
                        if first == n:
                            continue
                        chunk = chunk.slice(first)
                    skipping = False
                yield chunk
            # A v2 batch keeps its last offset even when compaction removed its last records: continue
            # after it rather than fetch it again.
            if last_batch is not None and last_batch.magic == 2:
                self.next_fetch_offset = last_batch.next_offset
            self.drain()

        def _checked_legacy_records(self, batch):
            for record in batch:
                if self.check_crcs and not record.validate_crc():
                    raise CorruptRecordError("Record for partition %s at offset %s failed crc check"
                                             % (self.topic_partition, record.offset))
                yield record

else:                                                     # pragma: no cover
    ColumnarPartitionRecords = None


def install(consumer) -> bool:
    """Make ``consumer`` (a kafka-python KafkaConsumer) return ``RecordChunk``s from ``poll()``.

    True when installed (or already), False when the consumer lacks the expected internals or has key
    or value deserializers (then its records stay ConsumerRecords)."""
    if ColumnarPartitionRecords is None:
        return False
    fetcher = getattr(consumer, "_fetcher", None)
    if fetcher is None or not hasattr(fetcher, "_parse_fetched_data"):
        return False
    current = getattr(fetcher, "PartitionRecords", None)
    if current is ColumnarPartitionRecords:
        return True
    if current is not _BasePartitionRecords:
        return False
    config = getattr(fetcher, "config", None)
    if not isinstance(config, dict):
        return False
    if config.get("key_deserializer") is not None or config.get("value_deserializer") is not None:
        return False
    fetcher.PartitionRecords = ColumnarPartitionRecords
    return True


def installed(consumer) -> bool:
    fetcher = getattr(consumer, "_fetcher", None)
    return ColumnarPartitionRecords is not None and getattr(fetcher, "PartitionRecords", None) is \
        ColumnarPartitionRecords

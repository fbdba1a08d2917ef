"""Handing records to a keyed stage: from a read task to the keyed subtasks, as one payload per subtask.

A read task runs the per-element chain before ``key_by``, computes each element's key and the keyed
subtask it belongs to, and emits ONE row per subtask: ``(route, payload)``. The payload is an Arrow IPC
stream of the subtask's records (element, timestamp, key), in the input's order, plus its progress in this
micro-batch (which input, the highest record timestamp, how many records, whether the input has ended),
which the keyed subtask needs for Flink's watermark (the minimum over inputs). A row goes to every
subtask, also with no records, so that each subtask hears from each input in each micro-batch.
"""
import pickle
import zlib
from typing import List, Optional

import attrs
import pyarrow as pa

from pyflink_compat import codec

PAYLOAD = "payload"
KEY = "key"


@attrs.frozen
class BatchProgress:
    """What one input (a Kafka partition, a collection, an upstream keyed subtask) produced in one micro-batch.

    An upstream keyed subtask forwards its ``watermark`` and whether it is ``idle``; a source input has
    None there and its watermark is generated from ``max_timestamp``."""
    input_id: str
    max_timestamp: Optional[int]
    records: int
    finished: bool
    watermark: Optional[int] = None
    idle: bool = False
    part: Optional[str] = None         # the partition, when the input is a reader of several
    side: int = 0                      # the input of a two-input operator the records are for (1 or 2), else 0


LINES_MAGIC = b"LINES\0"          # starts a payload of printed lines passed through the stages to the driver


def encode_lines(batch: pa.RecordBatch) -> bytes:
    """A payload of print() lines (runtime/fan_out.py's (sink, line) batch) that stages pass on unchanged."""
    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, batch.schema) as writer:
        writer.write_batch(batch)
    return LINES_MAGIC + sink.getvalue().to_pybytes()


def is_lines(payload: bytes) -> bool:
    return payload[:len(LINES_MAGIC)] == LINES_MAGIC


ADDRESS_MAGIC = b"STAGE\0"        # starts a payload for a later stage than the first one it reaches


def addressed(payload: bytes, depth: int, lane: int = 0) -> bytes:
    """The payload marked for the operation at ``depth`` and ``lane`` (runtime/stage_graph.py): the stages
    before it pass it on unchanged."""
    return ADDRESS_MAGIC + bytes([depth, lane]) + payload


def address(payload: bytes) -> Optional[tuple]:
    """(depth, lane) of the operation an addressed payload is for, or None for a payload of the first lane of
    the stage it reaches."""
    if payload[:len(ADDRESS_MAGIC)] != ADDRESS_MAGIC:
        return None
    return payload[len(ADDRESS_MAGIC)], payload[len(ADDRESS_MAGIC) + 1]


def unaddressed(payload: bytes) -> bytes:
    return payload[len(ADDRESS_MAGIC) + 2:]


OUTLET_MAGIC = b"OUTLET\0"         # starts a sink's output of an operation before the query's last depth


def for_outlet(payload: bytes, outlet: int, subtask: int) -> bytes:
    """An outlet's packed outputs, made by ``subtask`` of an operation whose outputs also go on to later
    operations: the later depths pass it on to the driver unchanged."""
    return OUTLET_MAGIC + outlet.to_bytes(4, "big") + subtask.to_bytes(4, "big") + payload


def outlet_payload(payload: bytes) -> Optional[tuple]:
    """(outlet, subtask, packed outputs) of a ``for_outlet`` payload, else None."""
    if payload[:len(OUTLET_MAGIC)] != OUTLET_MAGIC:
        return None
    start = len(OUTLET_MAGIC)
    return (int.from_bytes(payload[start:start + 4], "big"), int.from_bytes(payload[start + 4:start + 8], "big"),
            payload[start + 8:])


def decode_lines(payload: bytes) -> List[str]:
    lines = []
    for batch in pa.ipc.open_stream(pa.py_buffer(payload[len(LINES_MAGIC):])):
        lines.extend(batch.column(1).to_pylist())
    return lines


def key_bytes(key) -> bytes:
    """A key's identity: equal keys (as PyFlink compares them, by their serialized form) give equal bytes."""
    return pickle.dumps(key, protocol=4)


def subtask_of(key_data: bytes, parallelism: int) -> int:
    return zlib.crc32(key_data) % parallelism


def encode_payload(elements: pa.Array, timestamps: pa.Array, keys: pa.Array, progress: BatchProgress) -> bytes:
    metadata = {b"input": progress.input_id.encode(), b"records": str(progress.records).encode(),
                b"max_ts": b"" if progress.max_timestamp is None else str(progress.max_timestamp).encode(),
                b"finished": b"1" if progress.finished else b"0", b"idle": b"1" if progress.idle else b"0",
                b"watermark": b"" if progress.watermark is None else str(progress.watermark).encode(),
                b"part": b"" if progress.part is None else progress.part.encode(),
                b"side": str(progress.side).encode()}
    batch = pa.RecordBatch.from_arrays([elements, timestamps, keys], names=[codec.ELEMENT, codec.EVENT_TS, KEY])
    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, batch.schema.with_metadata(metadata)) as writer:
        writer.write_batch(batch)
    return sink.getvalue().to_pybytes()


def decode_payload(payload: bytes):
    """(record batch, BatchProgress) of one payload."""
    reader = pa.ipc.open_stream(pa.py_buffer(payload))
    batches = list(reader)
    metadata = reader.schema.metadata or {}
    batch = batches[0] if batches else pa.RecordBatch.from_arrays(
        [pa.array([], f.type) for f in reader.schema], schema=reader.schema)
    max_ts = metadata.get(b"max_ts", b"")
    watermark = metadata.get(b"watermark", b"")
    progress = BatchProgress(metadata[b"input"].decode(), int(max_ts) if max_ts else None,
                             int(metadata[b"records"]), metadata[b"finished"] == b"1",
                             int(watermark) if watermark else None, metadata.get(b"idle") == b"1",
                             metadata.get(b"part", b"").decode() or None, int(metadata.get(b"side", b"0")))
    return batch, progress


class SubtaskAssigner:
    """Which keyed subtask a key goes to: the one PyFlink runs it on (Flink's key groups of the key's Java
    hash code, runtime/keyed/key_groups.py). ``many`` computes a batch of keys of a basic key type (STRING,
    INT, LONG, ...) with numpy and remembers nothing; otherwise (pickled keys, ...) each key's subtask is
    computed in Python and remembered per distinct key, for at most ``CACHE_LIMIT`` keys (each costs about
    170 bytes for as long as the Python worker lives)."""

    CACHE_LIMIT = 100_000

    def __init__(self, parallelism: int, key_type=None, max_parallelism: int = None):
        from pyflink_compat.common.typeinfo import PickledBytesTypeInfo
        self.parallelism = parallelism
        self.max_parallelism = max_parallelism
        self.key_type = None if key_type is None or isinstance(key_type, PickledBytesTypeInfo) else key_type
        self.known = {}

    def __call__(self, key) -> int:
        from pyflink_compat.runtime.keyed.key_groups import subtask_for_key
        from pyflink_compat.runtime.keyed.keys import key_identity
        identity = key_identity(key)
        subtask = self.known.get(identity)
        if subtask is None:
            try:
                subtask = subtask_for_key(key, self.parallelism, self.max_parallelism, key_type=self.key_type)
            except NotImplementedError:             # a key type without Flink's hash here: any stable choice
                subtask = subtask_of(key_bytes(key), self.parallelism)
            if len(self.known) < self.CACHE_LIMIT:
                self.known[identity] = subtask
        return subtask

    def many(self, keys: list) -> list:
        """The subtask of each key."""
        from pyflink_compat.runtime.keyed.key_groups import subtasks_for_keys
        subtasks = subtasks_for_keys(keys, self.parallelism, self.max_parallelism, key_type=self.key_type)
        if subtasks is None:
            return [self(key) for key in keys]
        return subtasks.tolist()


def payloads_by_subtask(columns: list, targets: list, element_type, parallelism: int,
                        progress: BatchProgress) -> List[bytes]:
    """The payload of each subtask 0..parallelism-1 for one input in one micro-batch.

    ``columns``: per source batch, the Arrow columns (element, timestamp, key bytes) of its records;
    ``targets``: the subtask of each record, in the same order, or None: every record to every subtask (a
    broadcast input). Records keep their order per subtask."""
    import numpy as np
    if columns:
        elements, timestamps, keys = (pa.concat_arrays([c[i] for c in columns]) for i in range(3))
    else:
        elements = pa.array([], codec.arrow_type(element_type))
        timestamps, keys = pa.array([], pa.int64()), pa.array([], pa.binary())
    if targets is None:
        return [encode_payload(elements, timestamps, keys, progress)] * parallelism
    target = np.asarray(targets, dtype=np.int64)
    payloads = []
    for subtask in range(parallelism):
        take = pa.array(np.flatnonzero(target == subtask), pa.int64())
        payloads.append(encode_payload(elements.take(take), timestamps.take(take), keys.take(take), progress))
    return payloads

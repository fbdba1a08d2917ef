"""What this process's Kafka reads and writes did since they were last taken: records and bytes read per
partition (and the newest record timestamp), records and bytes written, failed sends and the time of the last
flush per topic. kafka_io only counts; whoever reports metrics takes the counts at the end of each task."""
import threading
import time

_lock = threading.Lock()
_reads = {}      # (topic, partition) -> [records, bytes, newest timestamp ms or None, fetch time s]
_writes = {}     # topic -> [records, bytes, failed records, last flush ms]


def count_read(topic: str, partition: int, records: int, size: int, newest_timestamp_ms=None):
    with _lock:
        entry = _reads.setdefault((topic, partition), [0, 0, None, 0.0])
        entry[0] += records
        entry[1] += size
        if newest_timestamp_ms is not None and (entry[2] is None or newest_timestamp_ms > entry[2]):
            entry[2] = newest_timestamp_ms
        entry[3] = time.time()


def count_write(topic: str, records: int = 0, size: int = 0, failed: int = 0, flush_ms: float = None):
    with _lock:
        entry = _writes.setdefault(topic, [0, 0, 0, None])
        entry[0] += records
        entry[1] += size
        entry[2] += failed
        if flush_ms is not None:
            entry[3] = flush_ms


def take():
    """(reads, writes) since the last take, and start again from zero."""
    global _reads, _writes
    with _lock:
        reads, writes, _reads, _writes = _reads, _writes, {}, {}
    return reads, writes

"""What a ``read_committed`` consumer should return, worked out from the log itself.

Tansu (the test broker) sends no aborted-transaction list in its fetch responses, so kafka-python's
``read_committed`` consumer returns the records of aborted transactions too
(/work/notes/kafka_transactions_spike.md). The log has everything needed to do it right: every record
batch carries its producer id and a transactional flag, and a transaction ends with a control batch whose
record says COMMIT or ABORT. This reader keeps each producer's transactional records until its marker:
kept on COMMIT, dropped on ABORT, never shown while still open. Non-transactional records are shown as they
come. On Apache Kafka it returns what ``read_committed`` returns.

It relies on kafka-python's fetcher internals (``Fetcher.PartitionRecords``): a test tool only.
"""
import collections
import struct
import time
from typing import Dict, List, Tuple

from kafka import KafkaConsumer, TopicPartition
from kafka.consumer.fetcher import Fetcher

LogEntry = collections.namedtuple("LogEntry", "offset producer_id transactional control value")
CommittedRecord = collections.namedtuple("CommittedRecord", "partition offset value")
COMMIT, ABORT = 1, 0


class _LogPartitionRecords(Fetcher.PartitionRecords):
    """Yields a LogEntry for every record, control records included."""

    def _unpack_records(self, tp, records, key_deserializer, value_deserializer):
        batch = records.next_batch()
        last = None
        while batch is not None:
            last = batch
            if batch.magic != 2:
                raise AssertionError("only message format v2 carries producer ids")
            for record in batch:
                control = None
                if batch.is_control_batch:
                    _version, control = struct.unpack(">hh", record.key[:4])
                self.next_fetch_offset = record.offset + 1
                yield LogEntry(record.offset, batch.producer_id, batch.is_transactional, control, record.value)
            self.next_fetch_offset = batch.next_offset
            batch = records.next_batch()
        if last is not None:
            self.next_fetch_offset = last.next_offset
        self.drain()


def _log_entries(bootstrap: str, topic: str, timeout_s: float) -> Dict[int, List[LogEntry]]:
    consumer = KafkaConsumer(bootstrap_servers=bootstrap, enable_auto_commit=False, fetch_max_wait_ms=10,
                             isolation_level="read_uncommitted")
    consumer._fetcher.PartitionRecords = _LogPartitionRecords
    try:
        deadline = time.monotonic() + timeout_s
        known = consumer.partitions_for_topic(topic)
        while not known and time.monotonic() < deadline:       # a restarted broker's metadata may lag
            time.sleep(0.2)
            known = consumer.partitions_for_topic(topic)
        partitions = [TopicPartition(topic, p) for p in sorted(known or ())]
        ends = consumer.end_offsets(partitions)
        consumer.assign(partitions)
        consumer.seek_to_beginning(*partitions)
        entries = {tp.partition: [] for tp in partitions}
        while time.monotonic() < deadline:
            for tp, batch in consumer.poll(timeout_ms=200).items():
                entries[tp.partition].extend(batch)
            if all(consumer.position(tp) >= ends[tp] for tp in partitions):
                return entries
        raise TimeoutError("reading %s to its end offsets %s took longer than %.0f s" % (topic, ends, timeout_s))
    finally:
        consumer.close()


def read_committed(bootstrap: str, topic: str, timeout_s: float = 120.0,
                   wait_for_open_s: float = 60.0) -> Tuple[List[CommittedRecord], int]:
    committed, aborted, _ = read_transactions(bootstrap, topic, timeout_s, wait_for_open_s)
    return committed, aborted


def read_transactions(bootstrap: str, topic: str, timeout_s: float = 120.0,
                      wait_for_open_s: float = 60.0) -> Tuple[List[CommittedRecord], int, int]:
    """(the records a read_committed reader sees, in per-partition order; how many aborted records the log
    holds; how many records belong to transactions still open after ``wait_for_open_s``).

    A transaction's commit marker is written by the broker after the producer's commit returned (on Apache
    Kafka too, asynchronously); Tansu was seen to write some only much later. A read_committed consumer
    waits at the last stable offset meanwhile; this reader likewise reads the log again, for up to
    ``wait_for_open_s``, while a transaction in it is still open, and then leaves open ones out."""
    deadline = time.monotonic() + wait_for_open_s
    while True:
        committed, aborted, still_open = _committed_in_log(_log_entries(bootstrap, topic, timeout_s))
        if not still_open or time.monotonic() >= deadline:
            return committed, aborted, still_open
        time.sleep(1.0)


def _committed_in_log(log: Dict[int, List[LogEntry]]) -> Tuple[List[CommittedRecord], int, int]:
    """(committed records, aborted records, records of transactions still open)."""
    committed, aborted, still_open = [], 0, 0
    for partition, entries in log.items():
        open_transactions: Dict[int, List[LogEntry]] = collections.defaultdict(list)
        for entry in sorted(entries, key=lambda e: e.offset):
            if entry.control is not None:
                finished = open_transactions.pop(entry.producer_id, [])
                if entry.control == COMMIT:
                    committed.extend(CommittedRecord(partition, e.offset, e.value) for e in finished)
                else:
                    aborted += len(finished)
            elif entry.transactional:
                open_transactions[entry.producer_id].append(entry)
            else:
                committed.append(CommittedRecord(partition, entry.offset, entry.value))
        still_open += sum(len(records) for records in open_transactions.values())
    committed.sort(key=lambda r: (r.partition, r.offset))
    return committed, aborted, still_open


def explain_missing(bootstrap: str, topic: str, missing: List[str], timeout_s: float = 60.0) -> str:
    """Where the records ``missing`` from what a read_committed reader sees stand in the log: in a transaction
    that was aborted, in one still open, outside any transaction, or absent; with each producer's markers. A
    failing exactly-once test says so in its message, so a loss on a loaded CI machine can be told apart
    from a broker that never wrote a commit marker."""
    wanted = {value.encode() if isinstance(value, str) else value for value in missing}
    log = _log_entries(bootstrap, topic, timeout_s)
    lines = []
    for partition, entries in sorted(log.items()):
        entries = sorted(entries, key=lambda e: e.offset)
        found = [e for e in entries if e.control is None and (e.value or b"").upper() in
                 {w.upper() for w in wanted}]
        producers = sorted({e.producer_id for e in found})
        lines.append("partition %d: %d of the %d missing records are in the log (offsets %s), producers %s"
                     % (partition, len(found), len(wanted),
                        "%d..%d" % (found[0].offset, found[-1].offset) if found else "-", producers))
        for producer in producers:
            markers = [(e.offset, "COMMIT" if e.control == COMMIT else "ABORT") for e in entries
                       if e.producer_id == producer and e.control is not None]
            data = [e.offset for e in entries if e.producer_id == producer and e.control is None]
            lines.append("  producer %d: %d records at %s, transactional %s, markers %s"
                         % (producer, len(data), "%d..%d" % (data[0], data[-1]) if data else "-",
                            sorted({e.transactional for e in entries if e.producer_id == producer}), markers))
    return "\n".join(lines)

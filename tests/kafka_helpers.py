"""Producing test input and reading output from a real Kafka-protocol broker.

Tansu (the test broker) reports end offsets as "base offset of the last batch
+ 1", so the last record of every partition is sent alone and acknowledged:
then end offsets are exact on Tansu and on Apache Kafka alike
(shared/reference/test-broker.md). Output is verified by consuming until the
expected count arrives, with a deadline, never by end offsets.
"""
import time
import uuid
from typing import Dict, Iterable, List, Optional, Tuple

from kafka import KafkaAdminClient, KafkaConsumer, KafkaProducer, TopicPartition
from kafka.admin import NewPartitions, NewTopic


def unique_topic(prefix: str) -> str:
    return "%s-%s" % (prefix, uuid.uuid4().hex[:10])


def create_topic(bootstrap: str, name: str, partitions: int = 1) -> str:
    admin = KafkaAdminClient(bootstrap_servers=bootstrap)
    try:
        admin.create_topics([NewTopic(name, partitions, 1)])
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            described = admin.describe_topics([name])
            if described and described[0]["error_code"] == 0 and len(described[0]["partitions"]) == partitions:
                return name
            time.sleep(0.1)
        raise TimeoutError("topic %s not ready" % name)
    finally:
        admin.close()


def add_partitions(bootstrap: str, name: str, total: int):
    admin = KafkaAdminClient(bootstrap_servers=bootstrap)
    try:
        admin.create_partitions({name: NewPartitions(total_count=total)})
    finally:
        admin.close()


def produce(bootstrap: str, topic: str, records: Iterable, partition: Optional[int] = None,
            timestamp_ms: Optional[int] = None) -> None:
    """Send (key, value) pairs or plain values to one partition; the last one alone, acknowledged."""
    records = [r if isinstance(r, tuple) else (None, r) for r in records]
    producer = KafkaProducer(bootstrap_servers=bootstrap, linger_ms=5, batch_size=256 * 1024)
    try:
        target = 0 if partition is None else partition
        for key, value in records[:-1]:
            producer.send(topic, value=_b(value), key=_b(key), partition=target, timestamp_ms=timestamp_ms)
        producer.flush()
        if records:
            key, value = records[-1]
            producer.send(topic, value=_b(value), key=_b(key), partition=target,
                          timestamp_ms=timestamp_ms).get(timeout=30)
    finally:
        producer.close()


def _b(value):
    if value is None or isinstance(value, bytes):
        return value
    return str(value).encode("utf-8")


def consume(bootstrap: str, topic: str, expected: int, timeout_s: float = 60.0,
            settle_s: float = 0.5, isolation_level: str = "read_uncommitted") -> List:
    """Read records from every partition of ``topic`` until ``expected`` arrived (then ``settle_s`` more
    to catch extras), or the deadline passes. Returns kafka-python ConsumerRecords, per-partition order."""
    consumer = KafkaConsumer(bootstrap_servers=bootstrap, enable_auto_commit=False, fetch_max_wait_ms=10,
                             isolation_level=isolation_level)
    try:
        deadline = time.monotonic() + timeout_s
        partitions = None
        while partitions is None and time.monotonic() < deadline:
            partitions = consumer.partitions_for_topic(topic)
            if not partitions:
                partitions = None
                time.sleep(0.2)
        if partitions is None:
            return []
        tps = [TopicPartition(topic, p) for p in sorted(partitions)]
        consumer.assign(tps)
        consumer.seek_to_beginning(*tps)
        records = []
        settle_until = None
        while time.monotonic() < deadline:
            for batch in consumer.poll(timeout_ms=200).values():
                records.extend(batch)
            if len(records) >= expected:
                if settle_until is None:
                    settle_until = time.monotonic() + settle_s
                elif time.monotonic() >= settle_until:
                    break
        return sorted(records, key=lambda r: (r.partition, r.offset))
    finally:
        consumer.close()


def upsert_state(bootstrap: str, topic: str) -> Dict[str, str]:
    """What an upsert topic holds once read to its end: each key's last value, keys whose last record is a
    tombstone left out (keys and values as text)."""
    consumer = KafkaConsumer(bootstrap_servers=bootstrap, enable_auto_commit=False)
    try:
        tps = [TopicPartition(topic, p) for p in sorted(consumer.partitions_for_topic(topic) or ())]
        expected = sum(consumer.end_offsets(tps).values())
    finally:
        consumer.close()
    state: Dict[str, str] = {}
    for record in consume(bootstrap, topic, expected, settle_s=0.0):
        key = record.key.decode("utf-8")
        if record.value is None:
            state.pop(key, None)
        else:
            state[key] = record.value.decode("utf-8")
    return state


def values(records) -> List[str]:
    return [r.value.decode("utf-8") for r in records]


def by_partition(records) -> Dict[int, List[str]]:
    result: Dict[int, List[str]] = {}
    for r in records:
        result.setdefault(r.partition, []).append(r.value.decode("utf-8"))
    return result


def commit_group_offsets(bootstrap: str, group: str, offsets: Dict[Tuple[str, int], int]):
    from kafka.structs import OffsetAndMetadata
    admin = KafkaAdminClient(bootstrap_servers=bootstrap)
    try:
        admin.alter_group_offsets(group, {TopicPartition(t, p): OffsetAndMetadata(o, "", -1)
                                          for (t, p), o in offsets.items()})
    finally:
        admin.close()

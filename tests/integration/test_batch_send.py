"""Batch sending into kafka-python's producer (kafka_io/batch_send.py) against the real broker."""
import pytest
from kafka import KafkaProducer
from kafka.errors import MessageSizeTooLargeError
from kafka.partitioner.default import murmur2

from kafka_helpers import consume, create_topic, unique_topic
from pyflink_compat.kafka_io import batch_send
from pyflink_compat.kafka_io.sink import _send

pytestmark = pytest.mark.integration


@pytest.fixture
def producer(bootstrap):
    producer = KafkaProducer(bootstrap_servers=bootstrap, linger_ms=5, batch_size=16 * 1024)
    yield producer
    producer.close()


def test_the_installed_kafka_python_has_what_batch_sending_needs(producer):
    # If an upgrade of kafka-python moves these internals, this fails (the sink would fall back to
    # one send() per record: correct, but several times slower).
    assert batch_send.supports(producer)


def test_records_without_keys_all_arrive_in_order_spread_batch_by_batch(bootstrap, producer):
    topic = create_topic(bootstrap, unique_topic("bs-sticky"), partitions=3)
    tracker = batch_send.FailureTracker()
    sender = batch_send.BatchSender(producer, tracker)
    values = [("%06d" % i).encode() + b"x" * 200 for i in range(3000)]   # ~0.7 MB: dozens of 16 KiB batches
    sender.send(topic, None, values, [1_700_000_000_000 + i for i in range(3000)])
    producer.flush(timeout=30)
    assert tracker.failures == 0
    records = consume(bootstrap, topic, 3000)
    assert sorted(r.value for r in records) == values
    assert len({r.partition for r in records}) == 3                      # sticky per batch, not one partition
    for partition in range(3):                                           # order kept within each partition
        mine = [r.value for r in records if r.partition == partition]
        assert mine == sorted(mine)
    assert {r.value: r.timestamp for r in records} == {v: 1_700_000_000_000 + i for i, v in enumerate(values)}


def test_keyed_records_go_to_the_partition_kafkas_default_partitioner_picks(bootstrap, producer):
    topic = create_topic(bootstrap, unique_topic("bs-keyed"), partitions=3)
    tracker = batch_send.FailureTracker()
    keys = [("key-%d" % (i % 17)).encode() for i in range(500)] + [None] * 5
    values = [("v%d" % i).encode() for i in range(505)]
    batch_send.BatchSender(producer, tracker).send(topic, keys, values, [None] * 505)
    producer.flush(timeout=30)
    records = consume(bootstrap, topic, 505)
    assert len(records) == 505 and tracker.failures == 0
    for record in records:
        if record.key is not None:
            assert record.partition == (murmur2(record.key) & 0x7FFFFFFF) % 3
    per_key = {}
    for record in records:                                               # per key: the order they were sent
        per_key.setdefault(record.key, []).append(int(record.value[1:]))
    assert all(seq == sorted(seq) for seq in per_key.values())
    assert all(r.timestamp > 0 for r in records)                         # None: the producer's clock


def test_a_record_with_neither_key_nor_value_is_refused_as_send_refuses_it(producer):
    sender = batch_send.BatchSender(producer, batch_send.FailureTracker())
    with pytest.raises(ValueError, match="Need at least one: key or value"):
        sender.send("any-topic", None, [b"a", None], [None, None])


def test_a_record_larger_than_max_request_size_is_refused_before_sending(bootstrap):
    producer = KafkaProducer(bootstrap_servers=bootstrap, max_request_size=10_000)
    try:
        sender = batch_send.BatchSender(producer, batch_send.FailureTracker())
        with pytest.raises(MessageSizeTooLargeError):
            sender.send("any-topic", [b"k"], [b"x" * 20_000], [None])
    finally:
        producer.close()


def test_without_the_internals_the_sink_sends_record_by_record(bootstrap, producer):
    topic = create_topic(bootstrap, unique_topic("bs-fallback"))
    tracker = batch_send.FailureTracker()
    _send(producer, None, tracker, topic, [b"k1", b"k2"], [b"one", b"two"], [5, None])
    producer.flush(timeout=30)
    records = consume(bootstrap, topic, 2)
    assert [(r.key, r.value) for r in records] == [(b"k1", b"one"), (b"k2", b"two")]
    assert records[0].timestamp == 5 and tracker.failures == 0

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
    import pyarrow as pa

    _send(producer, None, tracker, topic, pa.array([b"k1", b"k2"]), pa.array([b"one", b"two"]),
          pa.array([5, None], pa.int64()))
    producer.flush(timeout=30)
    records = consume(bootstrap, topic, 2)
    assert [(r.key, r.value) for r in records] == [(b"k1", b"one"), (b"k2", b"two")]
    assert records[0].timestamp == 5 and tracker.failures == 0


def test_arrow_columns_arrive_with_their_keys_values_timestamps_and_partitions(bootstrap, producer):
    import time

    import pyarrow as pa

    topic = create_topic(bootstrap, unique_topic("bs-arrow"), partitions=3)
    tracker = batch_send.FailureTracker()
    sender = batch_send.BatchSender(producer, tracker)
    count, base = 2000, 1_700_000_000_000
    keys = [None if i % 5 == 0 else ("key-%d" % (i % 37)).encode() for i in range(count)]
    tombstone = [i % 97 == 1 and keys[i] is not None and i % 11 != 0 for i in range(count)]
    values = [None if tombstone[i] else ("%06d" % i).encode() + b"y" * (i % 300) for i in range(count)]
    stamps = [None if i % 11 == 0 else base + i for i in range(count)]
    before = int(time.time() * 1000)
    sender.send_arrow(topic, pa.array(keys, pa.binary()), pa.array(values, pa.binary()), pa.array(stamps, pa.int64()))
    after = int(time.time() * 1000)
    fixed = create_topic(bootstrap, unique_topic("bs-arrow-fixed"), partitions=3)
    sender.send_arrow(fixed, None, pa.array(values[:300]).fill_null(b""), None, partition=1)
    producer.flush(timeout=30)
    assert tracker.failures == 0

    records = consume(bootstrap, topic, count)
    assert len(records) == count
    by_index = {}
    for record in records:
        index = record.timestamp - base if record.value is None else int(record.value[:6])
        by_index[index] = record
    assert sorted(by_index) == list(range(count))
    for i, record in by_index.items():
        assert (record.key, record.value) == (keys[i], values[i])
        if stamps[i] is None:
            assert before <= record.timestamp <= after
        else:
            assert record.timestamp == stamps[i]
        if keys[i] is not None:
            assert record.partition == (murmur2(keys[i]) & 0x7FFFFFFF) % 3
    assert len({by_index[i].partition for i in range(count) if keys[i] is None}) > 1   # sticky, batch by batch
    in_log_order = [i for i, r in sorted(by_index.items(), key=lambda item: (item[1].partition, item[1].offset))]
    for key in set(keys):                                               # per key (and unkeyed): the order sent
        mine = [i for i in in_log_order if keys[i] == key]
        assert mine == sorted(mine) or key is None                    # a key: one partition
        for partition in range(3):                                      # unkeyed: per partition
            part = [i for i in mine if by_index[i].partition == partition]
            assert part == sorted(part)

    fixed_records = consume(bootstrap, fixed, 300)
    assert [r.value for r in fixed_records] == [b"" if v is None else v for v in values[:300]]
    assert {r.partition for r in fixed_records} == {1}
    assert all(before <= r.timestamp for r in fixed_records)


def test_the_installed_kafka_python_reports_a_failed_batch_the_way_batch_sending_reads_it():
    # kafka-python 3.0 completes a failed batch's produce_future as a success carrying the record errors;
    # batch_send.watch() relies on that. A kafka-python that reports differently turns the fast path off.
    assert batch_send.failure_reporting_problem() == ""


def test_a_kafka_python_version_batch_sending_was_not_tested_with_turns_it_off_with_a_warning(
        producer, monkeypatch, caplog):
    import kafka
    monkeypatch.setattr(kafka, "__version__", "9.9.9")
    monkeypatch.setattr(batch_send, "_fast_path_verdict", None)
    with caplog.at_level("WARNING", logger="pyflink_compat"):
        assert not batch_send.supports(producer)
    assert "kafka-python 9.9.9 is not a version it was tested with" in caplog.text
    assert "records are sent one by one" in caplog.text


@pytest.fixture
def own_broker(tmp_path):
    import os
    from broker import TansuBroker
    if os.environ.get("KAFKA_BOOTSTRAP_SERVERS"):
        pytest.skip("restarting needs a broker process of the test's own (Tansu)")
    broker = TansuBroker().start(log_path=str(tmp_path / "tansu.log"))
    yield broker
    broker.stop()


def test_a_batch_the_broker_refuses_is_counted_as_failed_with_its_partition(own_broker):
    # A broker that restarted without its state answers the idempotent producer's next batch with
    # UnknownProducerIdError, which kafka-python does not retry: every record of that batch is lost unless
    # the sender sees the failure.
    servers = own_broker.bootstrap_servers
    topic = create_topic(servers, unique_topic("bs-refused"), partitions=1)
    producer = KafkaProducer(bootstrap_servers=servers, linger_ms=5)
    try:
        producer.send(topic, b"before").get(timeout=30)
        own_broker.stop()
        own_broker.start()
        create_topic(servers, topic, partitions=1)
        tracker = batch_send.FailureTracker()
        sender = batch_send.BatchSender(producer, tracker)
        sender.send(topic, None, [b"after-%d" % i for i in range(50)], [None] * 50)
        producer.flush(timeout=60)
    finally:
        producer.close(timeout=5)
    assert tracker.failures == 50, "the refused batch was not reported (%d failures)" % tracker.failures
    assert type(tracker.first_error).__name__ == "UnknownProducerIdError"
    assert (tracker.first_partition.topic, tracker.first_partition.partition) == (topic, 0)
    assert sender.unconfirmed() == (0, None)

"""Pure logic of the EXACTLY_ONCE sink: ids, deadlines around calls that have none, the timeout message."""
import threading

import pytest
from kafka.errors import KafkaError

from pyflink_compat.kafka_io import transactions


def test_ids_and_marker_groups_are_per_task():
    assert transactions.transactional_id("orders", 3) == "orders-3"
    assert transactions.marker_group("orders", 3) == "orders-3"


def test_a_call_past_its_deadline_fails_naming_what_and_where():
    release = threading.Event()
    with pytest.raises(transactions.TransactionError,
                       match=r"Committing Kafka transaction 'p-0' did not finish within 0 s .*'broker:9092'"):
        transactions._with_deadline("Committing Kafka transaction 'p-0'", release.wait, deadline_s=0.2,
                                    servers="broker:9092")
    release.set()


def test_a_call_within_its_deadline_returns_or_raises_as_itself():
    assert transactions._with_deadline("x", lambda: 42, deadline_s=5) == 42
    with pytest.raises(KeyError):
        transactions._with_deadline("x", lambda: {}["missing"], deadline_s=5)


@pytest.mark.parametrize("error, refused", [
    (KafkaError("Unexpected error in InitProducerIdResponse: [Error 50] InvalidTransactionTimeoutError"), True),
    (KafkaError("The transaction timeout is larger than the maximum value allowed by the broker"), True),
    (KafkaError("NodeNotReadyError"), False),
])
def test_a_refused_transaction_timeout_is_recognised(error, refused):
    assert transactions._timeout_refused(error) == refused


def test_a_refused_timeout_says_what_to_set(monkeypatch):
    class RefusingProducer:
        def init_transactions(self):
            raise KafkaError("Unexpected error in InitProducerIdResponse: [Error 50] InvalidTransactionTimeoutError")

        def close(self, timeout=None):
            pass

    monkeypatch.setattr(transactions, "new_transactional_producer", lambda properties, tid: RefusingProducer())
    with pytest.raises(transactions.TransactionError) as raised:
        transactions.init_producer({"transaction.timeout.ms": "3600000"}, "p-0", "broker:9092")
    message = str(raised.value)
    assert "transaction.timeout.ms=3600000" in message and "transaction.max.timeout.ms" in message

"""Kafka clients kept per Python worker (kafka_io/clients.py): reused while sound, thrown away after a failure."""
from pyflink_compat.kafka_io import clients


class _Client:
    def __init__(self, properties):
        self.properties = properties
        self.closed_with = None

    def close(self, timeout=None):
        self.closed_with = timeout


def test_a_worker_reuses_its_client_of_one_kind_and_configuration():
    properties = {"bootstrap.servers": "127.0.0.1:1", "client.id": "reuse"}
    first = clients.per_worker_client("test-kind", properties, _Client)
    assert clients.per_worker_client("test-kind", dict(properties), _Client) is first
    assert clients.per_worker_client("other-kind", properties, _Client) is not first
    clients.discard_client("test-kind", properties)
    clients.discard_client("other-kind", properties)


def test_a_discarded_client_is_closed_at_once_and_never_handed_out_again():
    properties = {"bootstrap.servers": "127.0.0.1:1", "client.id": "discard"}
    failed = clients.per_worker_client("test-kind", properties, _Client)
    clients.discard_client("test-kind", properties, failed)
    assert failed.closed_with == 0
    fresh = clients.per_worker_client("test-kind", properties, _Client)
    assert fresh is not failed and fresh.closed_with is None
    clients.discard_client("test-kind", properties)


def test_discarding_a_client_that_was_already_replaced_leaves_the_new_one_alone():
    properties = {"bootstrap.servers": "127.0.0.1:1", "client.id": "replaced"}
    old = clients.per_worker_client("test-kind", properties, _Client)
    clients.discard_client("test-kind", properties, old)
    new = clients.per_worker_client("test-kind", properties, _Client)
    clients.discard_client("test-kind", properties, old)          # a second failure report of the old one
    assert clients.per_worker_client("test-kind", properties, _Client) is new and new.closed_with is None
    clients.discard_client("test-kind", properties)

"""kafka-python clients kept for the life of a Spark Python worker, one per kind and configuration.

Spark reuses its Python workers across micro-batches; keeping the client saves a
connection and metadata round trip per task. A client that saw an error it cannot be
trusted after (a producer with a failed send) is discarded and closed, never reused.
"""
import json
from typing import Callable, Dict, Mapping, Tuple

_clients: Dict[Tuple[str, str], object] = {}


def _key(kind: str, properties: Mapping[str, str]) -> Tuple[str, str]:
    return kind, json.dumps(sorted(properties.items()))


def per_worker_client(kind: str, properties: Mapping[str, str], build: Callable[[Mapping[str, str]], object]):
    key = _key(kind, properties)
    client = _clients.get(key)
    if client is None:
        client = start_client(kind, properties, build)
        _clients[key] = client
    return client


def start_client(kind: str, properties: Mapping[str, str], build: Callable[[Mapping[str, str]], object]):
    """``build(properties)``; a failure to reach the brokers is raised as ``KafkaConnectionError`` naming
    the bootstrap servers and the cause kafka-python logged (it only says "Unable to bootstrap from [...]")."""
    from pyflink_compat.kafka_io.cluster import ConnectionFailures, KafkaConnectionError
    with ConnectionFailures() as failures:
        try:
            return build(properties)
        except Exception as e:
            from kafka.errors import KafkaError
            if not isinstance(e, KafkaError):
                raise
            raise KafkaConnectionError(failures.explain("Could not start a Kafka %s" % kind,
                                                        properties.get("bootstrap.servers"), e)) from e


def discard_client(kind: str, properties: Mapping[str, str], client=None):
    """Forget this worker's client of ``kind`` (only if it is ``client``, when given) and close it at once."""
    key = _key(kind, properties)
    kept = _clients.get(key)
    if kept is None or (client is not None and kept is not client):
        return
    del _clients[key]
    try:
        kept.close(timeout=0)
    except Exception:                      # noqa: BLE001 - it is being thrown away; a close error changes nothing
        pass

"""kafka-python clients kept for the life of a Spark Python worker, one per kind and configuration.

Spark reuses its Python workers across micro-batches; keeping the client saves a
connection and metadata round trip per task.
"""
import json
from typing import Callable, Dict, Mapping, Tuple

_clients: Dict[Tuple[str, str], object] = {}


def per_worker_client(kind: str, properties: Mapping[str, str], build: Callable[[Mapping[str, str]], object]):
    key = (kind, json.dumps(sorted(properties.items())))
    client = _clients.get(key)
    if client is None:
        try:
            client = build(properties)
        except Exception as e:
            from kafka.errors import KafkaError
            if not isinstance(e, KafkaError):
                raise
            # kafka-python says "Unable to bootstrap from [...]": say which servers, in our words.
            from pyflink_compat.kafka_io.cluster import KafkaConnectionError
            raise KafkaConnectionError("Could not start a Kafka %s for bootstrap servers '%s': %s"
                                       % (kind, properties.get("bootstrap.servers"), e)) from e
        _clients[key] = client
    return client

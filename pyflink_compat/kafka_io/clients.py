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
        client = _clients[key] = build(properties)
    return client

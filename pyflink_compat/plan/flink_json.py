"""``get_execution_plan()``: the job graph as JSON, shaped like Flink's plan (no properties, no secrets)."""
import json
from typing import List

from pyflink_compat.plan import graph

_PACT = {graph.KAFKA_SOURCE: "Data Source", graph.COLLECTION_SOURCE: "Data Source",
         graph.KAFKA_SINK: "Data Sink", graph.PRINT_SINK: "Data Sink", graph.COLLECT_SINK: "Data Sink"}


def execution_plan(sinks: List[graph.Node], default_parallelism: int) -> str:
    nodes, seen = [], set()
    for sink in sinks:
        for node in sink.chain():
            if node.id in seen:
                continue
            seen.add(node.id)
            entry = {"id": node.id, "type": node.name, "pact": _PACT.get(node.kind, "Operator"),
                     "contents": node.name, "parallelism": node.parallelism or default_parallelism}
            if node.input is not None:
                entry["predecessors"] = [{"id": node.input.id, "ship_strategy": "FORWARD", "side": "second"}]
            nodes.append(entry)
    return json.dumps({"nodes": nodes}, indent=2)

"""The plan's Flink view (plan/flink_json.py): the checks Flink makes when it builds the graph, and the layout."""
import json

import pytest

from pyflink_compat.common.typeinfo import Types
from pyflink_compat.datastream import StreamExecutionEnvironment
from pyflink_compat.plan import flink_json, graph
from pyflink_compat.util.exceptions import JavaStyleError


def test_forward_between_operators_of_different_parallelism_fails_as_in_flink():
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    env.from_collection([1, 2]).map(lambda x: x).forward().map(lambda x: x).set_parallelism(3).print()
    with pytest.raises(JavaStyleError, match="Forward partitioning does not allow change of parallelism. "
                                             r"Upstream operation: Map-\d+ parallelism: 1, downstream operation: "
                                             r"Map-\d+ parallelism: 3 You must use another partitioning"):
        env.get_execution_plan()
    with pytest.raises(JavaStyleError, match="Forward partitioning"):
        env.execute()                 # refused before anything runs


def test_partitioning_calls_are_plan_nodes_the_runtime_does_not_see():
    env = StreamExecutionEnvironment.get_execution_environment()
    stream = env.from_collection([1, 2], Types.INT()).rebalance().map(lambda x: x, Types.INT()).shuffle()
    sink = stream.print()._node
    assert [n.kind for n in sink.lineage()] == [graph.COLLECTION_SOURCE, graph.PARTITION, graph.MAP,
                                                graph.PARTITION, graph.PRINT_SINK]
    assert [n.kind for n in sink.chain()] == [graph.COLLECTION_SOURCE, graph.MAP, graph.PRINT_SINK]
    nodes = json.loads(env.get_execution_plan())["nodes"]
    assert [(n["type"], [p["ship_strategy"] for p in n.get("predecessors", [])]) for n in nodes] == [
        ("Source: Collection Source", []), ("Map", ["REBALANCE"]), ("Sink: Print to Std. Out", ["SHUFFLE"])]


def test_operator_settings_are_recorded_and_checked():
    env = StreamExecutionEnvironment.get_execution_environment()
    mapped = env.from_collection([1]).map(lambda x: x)
    mapped.set_max_parallelism(7).set_uid_hash("abc").set_buffer_timeout(5).slot_sharing_group("g") \
        .disable_chaining()
    node = mapped._node
    assert (node.max_parallelism, node.uid_hash, node.buffer_timeout, node.slot_sharing_group, node.chaining) == (
        7, "abc", 5, "g", graph.CHAIN_NEVER)
    with pytest.raises(JavaStyleError, match="The maximum parallelism must be greater than 0."):
        mapped.set_max_parallelism(0)
    with pytest.raises(JavaStyleError, match="Maximum parallelism must be between 1 and 32768. Found: 40000"):
        mapped.set_max_parallelism(40000)


def test_jackson_layout():
    assert flink_json.jackson_pretty({"nodes": [{"id": 1, "p": [{"a": "x"}]}, {"id": 2, "p": []}]}) == (
        '{\n  "nodes" : [ {\n    "id" : 1,\n    "p" : [ {\n      "a" : "x"\n    } ]\n  }, {\n    "id" : 2,\n'
        '    "p" : [ ]\n  } ]\n}')

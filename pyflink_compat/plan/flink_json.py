"""``get_execution_plan()``: the job graph as the JSON Flink prints for a PyFlink job (no properties, no secrets).

What PyFlink 2.3 shows, reproduced from the plan graph:

- one node per Flink operator (a side output is read through a ``Map``): ``Source: <name>`` (pact ``Data Source``); Python operators named as PyFlink
  names them (``Map``, ``PROCESS``, ``KEYED PROCESS``, ``Reduce``, the window assigner's class); ``key_by`` adds
  ``_stream_key_by_map_operator`` at its input's parallelism; ``print()`` of Python objects adds a ``Map``
  converting them to text; ``sink_to`` is ``<name>: Writer`` then ``<name>: Committer``; ``print()`` is
  ``Sink: Print to Std. Out`` (pact ``Data Sink``);
- consecutive Python operators fused into one node named ``A, B`` (PyFlink's Python operator chaining) when the
  edge is forward, parallelism and max parallelism agree, the upstream has that one consumer, and neither
  ``start_new_chain`` nor ``disable_chaining`` separates them; fused nodes take new ids, after the job's own;
- edges: ``HASH`` after ``key_by``, the partitioner asked for (``SHUFFLE``, ``REBALANCE``, ``RESCALE``,
  ``FORWARD``), else ``FORWARD`` at equal parallelism and ``REBALANCE`` otherwise;
- a node's contents: its description (``set_description``, a window's ``Window(assigner, trigger, function)``),
  those of a fused node's members joined, else its name;
- nodes ordered by id, sinks last; Jackson's pretty printing.

Node ids are ours (Flink's count its Java transformations); their order is Flink's.
"""
from typing import Dict, List, Optional

import attrs

from pyflink_compat.plan import graph
from pyflink_compat.util.exceptions import JavaStyleError

_PYTHON_OPERATORS = (graph.MAP, graph.FLAT_MAP, graph.FILTER, graph.PROCESS, graph.KEY_BY, graph.KEYED_PROCESS,
                     graph.WINDOW, graph.PARTITION_CUSTOM) + graph.TWO_INPUT_KINDS


@attrs.define(eq=False)
class _Vertex:
    id: int
    name: str
    parallelism: int
    pact: str = "Operator"
    python: bool = False                  # a Python operator PyFlink may fuse with its neighbours
    max_parallelism: Optional[int] = None
    slot_sharing_group: Optional[str] = None
    chaining: str = graph.CHAIN_DEFAULT
    inputs: list = attrs.Factory(list)    # [(vertex, ship strategy)]
    sink: bool = False
    description: Optional[str] = None     # set_description, or the window's; shown as the node's contents

    @property
    def contents(self) -> str:
        return self.description or self.name


def _forward_error(upstream: _Vertex, downstream: _Vertex) -> JavaStyleError:
    return JavaStyleError(
        "java.lang.UnsupportedOperationException",
        "Forward partitioning does not allow change of parallelism. Upstream operation: %s-%d parallelism: %d, "
        "downstream operation: %s-%d parallelism: %d You must use another partitioning strategy, such as "
        "broadcast, rebalance, shuffle or global." % (upstream.name, upstream.id, upstream.parallelism,
                                                       downstream.name, downstream.id, downstream.parallelism),
        "getStreamGraph")


class _Builder:
    def __init__(self, default_parallelism: int):
        self.default_parallelism = default_parallelism
        self.vertices: List[_Vertex] = []
        self.last: Dict[int, _Vertex] = {}        # graph node id -> the vertex its consumers read
        self.committing: list = []                # (sink_to node, parallelism): expanded after fusion

    def parallelism(self, node: graph.Node) -> int:
        return node.parallelism or self.default_parallelism

    def add(self, vertex: _Vertex) -> _Vertex:
        self.vertices.append(vertex)
        return vertex

    def upstreams(self, node: graph.Node):
        """The vertices feeding ``node`` (several through a union), each with the partitioner asked for on the
        way (None: Flink chooses)."""
        if node.kind in graph.TWO_INPUT_KINDS:                 # both ports, first input first
            return [pair for port in node.inputs for pair in self._feeding(port.input, None)]
        return self._feeding(node.input, None)

    def _feeding(self, current: graph.Node, partitioner):
        while current.kind == graph.PARTITION:
            partitioner = partitioner or current.payload       # the one nearest the consumer wins, as in Flink
            current = current.input
        if current.kind == graph.UNION:                        # not an operator: its inputs feed the consumer
            return [pair for stream in current.inputs for pair in self._feeding(stream, partitioner)]
        vertex = self.vertex_of(current)
        return [(vertex, "HASH" if current.kind == graph.KEY_BY else partitioner)]

    def upstream(self, node: graph.Node):
        return self.upstreams(node)[0]

    def connect(self, vertex: _Vertex, node: graph.Node, default: Optional[str] = None):
        """``default``: the partitioner where the job asked for none (None: forward or rebalance, by parallelism)."""
        for upstream, partitioner in self.upstreams(node):
            partitioner = partitioner or default
            if partitioner is None:
                partitioner = "FORWARD" if upstream.parallelism == vertex.parallelism else "REBALANCE"
            elif partitioner == "FORWARD" and upstream.parallelism != vertex.parallelism:
                raise _forward_error(upstream, vertex)
            vertex.inputs.append((upstream, partitioner))

    def vertex_of(self, node: graph.Node) -> _Vertex:
        if node.id in self.last:
            return self.last[node.id]
        kind = node.kind
        if kind in graph.SOURCE_KINDS:
            parallelism = 1 if kind == graph.COLLECTION_SOURCE else self.parallelism(node)
            vertex = self.add(_Vertex(node.id, node.name, parallelism, pact="Data Source",
                                      description=node.description))
        elif kind == graph.KEY_BY:
            # PyFlink's key-adding map runs beside its input, forward-connected: after a union of inputs of
            # another parallelism than the first one's, Flink refuses the job
            upstream, _ = self.upstream(node)
            vertex = self.add(self.operator(node, upstream.parallelism))
            self.connect(vertex, node, default="FORWARD")
        elif kind == graph.PARTITION_CUSTOM:
            # PyFlink's Python map adding each element's partition, beside its input, then the custom
            # partitioning to the Python map that drops it again (this node)
            upstream, _ = self.upstream(node)
            tagging = self.add(_Vertex(node.reserved_ids[0], "_partition_custom_map_operator", upstream.parallelism,
                                       python=True))
            self.connect(tagging, node)
            # at the environment's parallelism: PyFlink 2.3 ignores set_parallelism on the stream it returns
            vertex = self.add(self.operator(node, self.default_parallelism))
            vertex.inputs.append((tagging, "CUSTOM"))
        elif kind == graph.ASSIGN_TIMESTAMPS and node.payload is None:
            upstream, _ = self.upstream(node)      # the strategy's own: a Java operator beside its input
            vertex = self.add(_Vertex(node.id, node.name, upstream.parallelism))
            self.connect(vertex, node)
        elif kind == graph.ASSIGN_TIMESTAMPS:
            # a Python TimestampAssigner: PyFlink extracts in Python, generates watermarks in Java, then strips
            parallelism = self.parallelism(node)
            extract = self.add(_Vertex(node.id, "Extract-Timestamp", parallelism))
            self.connect(extract, node)
            generate_id, remove_id = node.reserved_ids
            generate = self.add(_Vertex(generate_id, node.name, parallelism, inputs=[(extract, "FORWARD")]))
            vertex = self.add(_Vertex(remove_id, "Remove-Timestamp", parallelism, inputs=[(generate, "FORWARD")]))
        elif kind == graph.SIDE_OUTPUT:
            # PyFlink reads a side output through a Map giving it the tag's type; it cannot chain to the producer
            vertex = self.add(_Vertex(node.id, "Map", self.parallelism(node), python=True,
                                      chaining=graph.CHAIN_HEAD))
            self.connect(vertex, node)
        else:
            vertex = self.add(self.operator(node, self.parallelism(node)))
            self.connect(vertex, node)
        self.last[node.id] = vertex
        return vertex

    def operator(self, node: graph.Node, parallelism: int) -> _Vertex:
        return _Vertex(node.id, node.name, parallelism, python=node.kind in _PYTHON_OPERATORS,
                       max_parallelism=node.max_parallelism, slot_sharing_group=node.slot_sharing_group,
                       chaining=node.chaining, description=node.description)

    def sink(self, node: graph.Node):
        if node.kind == graph.COLLECT_SINK:
            return
        if node.kind == graph.DISCARD_SINK:         # Flink lists the operators nothing reads, without a sink
            self.vertex_of(node.input)
            return
        upstream_node = node
        parallelism = self.parallelism(node)
        if node.kind == graph.PRINT_SINK:
            feeding = None
            for conversion_id in node.reserved_ids:         # print's str() map, at the environment's parallelism
                feeding = self.add(_Vertex(conversion_id, "Map", self.default_parallelism, python=True))
                self.connect(feeding, node)
            vertex = self.add(_Vertex(node.id, "Sink: %s" % node.name, parallelism, pact="Data Sink", sink=True,
                                      chaining=node.chaining, description=node.description))
            if feeding is None:
                self.connect(vertex, upstream_node)
            else:
                strategy = "FORWARD" if feeding.parallelism == parallelism else "REBALANCE"
                vertex.inputs.append((feeding, strategy))
        elif node.kind == graph.KAFKA_SINK and node.name.endswith(": Unnamed"):   # legacy add_sink
            vertex = self.add(_Vertex(node.id, node.name, parallelism, pact="Data Sink", sink=True))
            self.connect(vertex, node)
        else:
            self.upstream(node)                    # its operators exist before fusion; the writer comes after
            self.committing.append((node, parallelism))

    def fused(self, fused_into: Dict[int, _Vertex]):
        self.last = {node_id: fused_into.get(vertex.id, vertex) for node_id, vertex in self.last.items()}

    def committing_sinks(self):
        """``sink_to``: Flink expands the sink into writer and committer when it builds the graph, after the
        Python operators were fused, so their ids come last."""
        for node, parallelism in self.committing:
            base = "Sink" if node.name == "Sink: Writer" else node.name
            writer = self.add(_Vertex(graph.new_id(), "%s: Writer" % base, parallelism, chaining=node.chaining))
            self.connect(writer, node)
            self.add(_Vertex(graph.new_id(), "%s: Committer" % base, parallelism, inputs=[(writer, "FORWARD")]))


def _fusable(upstream: _Vertex, downstream: _Vertex, strategy: str, consumers: Dict[int, list]) -> bool:
    return (upstream.python and downstream.python and strategy == "FORWARD"
            and upstream.parallelism == downstream.parallelism
            and upstream.max_parallelism == downstream.max_parallelism
            and upstream.slot_sharing_group == downstream.slot_sharing_group
            and len(consumers[upstream.id]) == 1 and len(downstream.inputs) == 1
            and upstream.chaining != graph.CHAIN_NEVER
            and downstream.chaining not in (graph.CHAIN_HEAD, graph.CHAIN_NEVER))


def _fuse(vertices: List[_Vertex]):
    """PyFlink's Python operator chaining: maximal runs of fusable Python operators become one node.
    Returns the vertices and, per fused vertex id, the node replacing it."""
    consumers: Dict[int, list] = {v.id: [] for v in vertices}
    for vertex in vertices:
        for upstream, _ in vertex.inputs:
            consumers[upstream.id].append(vertex)
    follower = {}
    for vertex in vertices:
        if len(vertex.inputs) == 1:
            upstream, strategy = vertex.inputs[0]
            if _fusable(upstream, vertex, strategy, consumers):
                follower[upstream.id] = vertex
    fused_into = {}
    followers = {v.id for v in follower.values()}
    heads = sorted((v for v in vertices if v.id in follower and v.id not in followers), key=lambda v: v.id)
    for head in heads:
        run = [head]
        while run[-1].id in follower:
            run.append(follower[run[-1].id])
        fused = _Vertex(graph.new_id(), ", ".join(v.name for v in run), head.parallelism, python=True,
                        max_parallelism=head.max_parallelism, inputs=head.inputs,
                        description=", ".join(v.description for v in run if v.description) or None)
        for vertex in run:
            fused_into[vertex.id] = fused
    result = []
    for vertex in vertices:
        target = fused_into.get(vertex.id)
        if target is None:
            result.append(vertex)
        elif target not in result:
            result.append(target)
    for vertex in result:
        vertex.inputs = [(fused_into.get(upstream.id, upstream), strategy) for upstream, strategy in vertex.inputs]
    return result, fused_into


def stream_graph(sinks: List[graph.Node], default_parallelism: int, python_chaining: bool = True) -> List[_Vertex]:
    """Flink's operators for the job of ``sinks``, in the order Flink lists them. Raises Flink's error for a
    forward partitioning between operators of different parallelism."""
    builder = _Builder(default_parallelism)
    for sink in sorted(sinks, key=lambda node: node.id):
        builder.sink(sink)
    builder.vertices.sort(key=lambda v: v.id)
    if python_chaining:
        builder.vertices, fused_into = _fuse(builder.vertices)
        builder.fused(fused_into)
    builder.committing_sinks()
    return sorted(builder.vertices, key=lambda v: (v.sink, v.id))


def execution_plan(sinks: List[graph.Node], default_parallelism: int, python_chaining: bool = True) -> str:
    nodes = []
    for vertex in stream_graph(sinks, default_parallelism, python_chaining):
        entry = {"id": vertex.id, "type": vertex.name, "pact": vertex.pact, "contents": vertex.contents,
                 "parallelism": vertex.parallelism}
        if vertex.pact != "Data Source":
            entry["predecessors"] = [{"id": upstream.id, "ship_strategy": strategy, "side": "second"}
                                     for upstream, strategy in vertex.inputs]
        nodes.append(entry)
    return jackson_pretty({"nodes": nodes})


def jackson_pretty(value, indent: int = 0) -> str:
    """JSON as Jackson's default pretty printer writes it (what Flink returns): ``"key" : value``, objects
    one field per line indented by two, array elements on one line (``[ {``, ``}, {``)."""
    import json
    if isinstance(value, dict):
        if not value:
            return "{ }"
        pad = "  " * (indent + 1)
        fields = ",\n".join("%s%s : %s" % (pad, json.dumps(k), jackson_pretty(v, indent + 1))
                            for k, v in value.items())
        return "{\n%s\n%s}" % (fields, "  " * indent)
    if isinstance(value, list):
        if not value:
            return "[ ]"
        return "[ %s ]" % ", ".join(jackson_pretty(v, indent) for v in value)
    return json.dumps(value)

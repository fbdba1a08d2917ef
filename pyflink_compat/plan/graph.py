"""The job graph the mirror builds and the translation reads.

A node is one Flink transformation. Sources have no input; sinks are where
``execute()`` starts walking back. This is deliberately plain data: no Spark here.
"""
import collections
import itertools
from typing import Any, List, Optional, Tuple

import attrs

# Node kinds
KAFKA_SOURCE = "kafka_source"
COLLECTION_SOURCE = "collection_source"
DATAGEN_SOURCE = "datagen_source"      # Flink SQL's 'datagen' connector (payload: DataGenSpec)
MAP = "map"
FLAT_MAP = "flat_map"
FILTER = "filter"
PROCESS = "process"                    # a ProcessFunction on a non-keyed stream
ASSIGN_TIMESTAMPS = "assign_timestamps"  # assign_timestamps_and_watermarks (payload: the WatermarkStrategy)
SIDE_OUTPUT = "side_output"            # get_side_output (payload: the OutputTag) of the PROCESS node before it
KEY_BY = "key_by"                      # payload: KeySelection
KEYED_PROCESS = "keyed_process"        # a KeyedProcessFunction on a keyed stream
WINDOW = "window"                      # a window operation on a keyed (or all) stream (payload: WindowSpec)
KAFKA_SINK = "kafka_sink"
PRINT_SINK = "print_sink"
COLLECT_SINK = "collect_sink"
# Added by execute() after an operator nothing reads (Flink runs those too): its outputs are dropped.
DISCARD_SINK = "discard_sink"
PARTITION = "partition"                # shuffle/rebalance/rescale/forward (payload: one of PARTITIONERS)
PROJECT = "project"                    # DataStream.project on a tuple stream (payload: the field indexes)
# partition_custom: each element goes to the subtask its partitioner picks (payload: CustomPartitioning). It
# runs as a stage, as Flink sends the elements over a network exchange to the chosen parallel instance.
PARTITION_CUSTOM = "partition_custom"
UNION = "union"                        # DataStream.union: several inputs (``inputs``), no input
# Two-input operators (``inputs``: their two CO_INPUT ports, first and second, no input)
CO_INPUT = "co_input"                  # one input of a two-input operator (payload: 1 or 2), in every route to it
CO_PROCESS = "co_process"              # connect + map/flat_map/process, non-keyed (payload: a CoProcessFunction)
KEYED_CO_PROCESS = "keyed_co_process"  # connect + key_by + map/flat_map/process (payload: KeyedCoProcessFunction)
BROADCAST_PROCESS = "broadcast_process"               # connect(broadcast stream).process (payload: BroadcastSpec)
KEYED_BROADCAST_PROCESS = "keyed_broadcast_process"   # the same with a keyed first input

PARTITIONERS = ("SHUFFLE", "REBALANCE", "RESCALE", "FORWARD", "BROADCAST")
# Operator chaining as the job asked for it (start_new_chain / disable_chaining)
CHAIN_DEFAULT, CHAIN_HEAD, CHAIN_NEVER = "default", "head", "never"

SOURCE_KINDS = (KAFKA_SOURCE, COLLECTION_SOURCE, DATAGEN_SOURCE)
FUNCTION_KINDS = (MAP, FLAT_MAP, FILTER, PROCESS, ASSIGN_TIMESTAMPS, SIDE_OUTPUT, PROJECT)   # per element, no state
KEYED_KINDS = (KEY_BY, KEYED_PROCESS, WINDOW)
SINK_KINDS = (KAFKA_SINK, PRINT_SINK, COLLECT_SINK, DISCARD_SINK)
TWO_INPUT_KINDS = (CO_PROCESS, KEYED_CO_PROCESS, BROADCAST_PROCESS, KEYED_BROADCAST_PROCESS)
BROADCAST_KINDS = (BROADCAST_PROCESS, KEYED_BROADCAST_PROCESS)
# Operators that run as a stage of subtasks (state, timers, or both inputs meeting in one instance)
STAGE_OPERATOR_KINDS = (KEYED_PROCESS, WINDOW) + TWO_INPUT_KINDS + (PARTITION_CUSTOM,)
# Where a stage starts: its key_by, a port of its two-input operator, or a custom partitioning (its own operator)
STAGE_ENTRY_KINDS = (KEY_BY, CO_INPUT, PARTITION_CUSTOM)

_ids = itertools.count(1)


@attrs.define(eq=False)
class Node:
    kind: str
    name: str
    output_type: Any                     # TypeInformation of the elements this node emits
    input: Optional["Node"] = None
    payload: Any = None                  # source spec, user function, or sink spec
    parallelism: Optional[int] = None    # None: the environment's
    uid: Optional[str] = None
    description: Optional[str] = None
    watermark_spec: Any = None           # sources, ASSIGN_TIMESTAMPS: the WatermarkSpec of the strategy given
    side_output_tags: dict = attrs.Factory(dict)   # tag id -> OutputTag asked for with get_side_output
    max_parallelism: Optional[int] = None   # set_max_parallelism: keyed operators' key groups
    chaining: str = CHAIN_DEFAULT
    # Deployment hints Flink uses and Spark has no counterpart for: kept so the plan shows them.
    uid_hash: Optional[str] = None
    buffer_timeout: Optional[int] = None
    slot_sharing_group: Optional[str] = None
    # Ids of the operators PyFlink adds for this one (print's str() conversion map): allocated when the job
    # creates it, as Flink's transformation ids are, so the plan lists nodes in Flink's order.
    reserved_ids: tuple = ()
    inputs: tuple = ()                   # UNION: the streams merged, in order; two-input kinds: their CO_INPUTs
    id: int = attrs.field(factory=lambda: next(_ids))
    # How many nodes read this one's output (operations, partitionings, unions, sinks), and whether the job
    # lets PyFlink chain Python functions (python.operator-chaining.enabled): set by count_readers when the job
    # is planned (PyFlink chains a Python function only to an operator with no other reader).
    readers: int = 0
    python_chaining: bool = True

    def chain(self) -> List["Node"]:
        """The nodes the runtime runs for this node: it and its inputs, source first, without PARTITION nodes
        (Spark places records itself; a partitioner only decides which subtask handles an element). For a
        node with a union on its way, see ``routes``."""
        routes = self.routes()
        if len(routes) != 1:
            raise ValueError("%s has %d routes from its sources (a union on the way)" % (self.name, len(routes)))
        return routes[0]

    def routes(self) -> List[List["Node"]]:
        """Every path from a source to this node, as ``chain`` gives it, one per input of each union on the
        way (the union itself left out: each element reaches the node through one of them)."""
        if self.kind == UNION:
            return [route for stream in self.inputs for route in stream.routes()]
        if self.kind in TWO_INPUT_KINDS:
            return [route + [self] for port in self.inputs for route in port.routes()]
        before = [[]] if self.input is None else self.input.routes()
        own = [] if self.kind == PARTITION else [self]
        return [route + own for route in before]

    def lineage(self) -> List["Node"]:
        """This node and all its inputs (through unions, each node once), sources first."""
        seen, ordered = set(), []

        def visit(node):
            if node is None or node.id in seen:
                return
            seen.add(node.id)
            for upstream in (node.inputs if node.inputs else (node.input,)):
                visit(upstream)
            ordered.append(node)
        visit(self)
        return ordered


def count_readers(sinks: List[Node], python_chaining: bool = True):
    """Set ``readers`` of every node the sinks read, directly or not (how many distinct nodes read it), and
    their ``python_chaining``."""
    edges, reached = set(), {}

    def visit(node):
        reached[node.id] = node
        for upstream in (node.inputs if node.inputs else (node.input,)):
            if upstream is not None and (upstream.id, node.id) not in edges:
                edges.add((upstream.id, node.id))
                visit(upstream)
    for sink in sinks:
        visit(sink)
    counts = collections.Counter(upstream for upstream, _ in edges)
    for node in reached.values():
        node.readers = counts.get(node.id, 0)
        node.python_chaining = python_chaining


def dangling_ends(streams: List[Node], sinks: List[Node]) -> List[Node]:
    """The operators among ``streams`` (every stream a job created) that nothing reads, in creation order:
    Flink runs them although their outputs go nowhere. A source, partitioning or union is no operator of its
    own there: one nothing reads runs only the operators before it."""
    readers = {}                          # node id -> how many streams and sinks read it
    for node in list(streams) + list(sinks):
        for upstream in (node.inputs if node.inputs else (node.input,)):
            if upstream is not None and upstream.kind == CO_INPUT:      # a two-input operation's port
                upstream = upstream.input
            if upstream is not None:
                readers[upstream.id] = readers.get(upstream.id, 0) + 1
    ends = []

    def add(node):
        if node.kind in (PARTITION, UNION):   # on to the streams only it reads
            for stream in (node.inputs if node.kind == UNION else (node.input,)):
                if readers.get(stream.id) == 1:
                    add(stream)
        elif node.kind not in SOURCE_KINDS and node.kind not in SINK_KINDS and node not in ends:
            ends.append(node)
    for node in streams:
        if node.id not in readers:
            add(node)
    return ends


def discard_sink(end: Node) -> Node:
    """A sink dropping the outputs of a dangling stream, so that its operators run (a key_by or partitioning
    nothing reads runs up to its input: no keyed operation follows)."""
    return Node(kind=DISCARD_SINK, name="Discard", output_type=end.output_type, input=end)


def new_id() -> int:
    """A node id, from the counter every Node takes its own from."""
    return next(_ids)


@attrs.frozen
class KeySelection:
    """``key_by``: how to get an element's key, and the key's type (pickled when not given)."""
    selector: Any                        # a KeySelector or a callable
    key_type: Any


@attrs.frozen
class CustomPartitioning:
    """``partition_custom``: the partitioner (a Partitioner or a callable ``(key, num_partitions)``) and the key
    selector giving it each element's key."""
    partitioner: Any
    key_selector: Any

    def opened(self, runtime_context):
        """(get_key, partition) callables, the Partitioner and KeySelector opened as Flink opens them."""
        for function in (self.partitioner, self.key_selector):
            if hasattr(function, "open"):
                function.open(runtime_context)
        return (getattr(self.key_selector, "get_key", None) or self.key_selector,
                getattr(self.partitioner, "partition", None) or self.partitioner)


@attrs.frozen
class BroadcastSpec:
    """A broadcast process function and the broadcast states (MapStateDescriptors) of its broadcast stream."""
    function: Any
    descriptors: tuple


@attrs.frozen
class CollectionSourceSpec:
    elements: tuple                      # already converted to the stream type (PyFlink converts eagerly)


@attrs.frozen
class FieldGenerator:
    """How the 'datagen' connector makes one column's values: ``kind`` "random" or "sequence"; ``type_name``
    the column's SQL type (INT, STRING, TIMESTAMP_LTZ, ...)."""
    kind: str
    type_name: str
    minimum: Any = None                  # random numbers: the range, inclusive (None: the type's)
    maximum: Any = None
    length: int = 100                    # random strings: hexadecimal digits
    variable_length: bool = False        # random strings: a length from 1 to ``length``
    max_past_ms: int = 0                 # random timestamps: now, minus up to this
    null_rate: float = 0.0
    start: Optional[int] = None          # sequences: start to end, inclusive
    end: Optional[int] = None


@attrs.frozen
class DataGenSpec:
    """A 'datagen' table's rows: one generator per physical column. Each subtask emits ``rows_per_second``
    divided by the parallelism, rounded up, per second; the source is bounded by ``number_of_rows`` and by its
    sequences (each subtask's share of them)."""
    fields: Tuple[FieldGenerator, ...]
    rows_per_second: int = 10000
    number_of_rows: Optional[int] = None
    seed: int = 0                        # of the random values (a re-read micro-batch has the same ones)

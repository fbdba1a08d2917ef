"""The keyed and two-input operations of one query as a graph of stages (the compiler's cut at exchanges).

A query's routes (source -> ... -> sink paths, translate.Route) go through stage operations: keyed operations,
two-input operations, custom partitionings. Each operation is a stage; the records between two of them cross an
exchange (a key_by, the port of a two-input operation, a partitioning). The operations form a DAG: two
aggregations joined, a union of two keyed outputs keyed again, a source connected with a stage's output.

Each operation gets a depth (the longest way from a source to it, in stages) and a lane (its place among the
operations of that depth). The query runs one ``transformWithState`` per depth; each runs the lanes of its
depth side by side in the same Spark tasks (runtime/keyed_stage.py). Records for a deeper stage than the next
one pass through the depths between, as records of a source merged into a later stage do.

Any operation may feed sinks (its main and side outputs, through per-element nodes: its tails) besides the
operations after it: it still runs once, and what its sinks get passes through the later depths to the driver.
"""
from typing import Dict, List, Optional

import attrs

from pyflink_compat.plan import graph


def stage_operators(chain) -> List[int]:
    """The indexes of a route's stage operations."""
    return [i for i, node in enumerate(chain) if node.kind in graph.STAGE_OPERATOR_KINDS]


def stage_entry(chain) -> int:
    """Where a route enters its first stage: its first key_by, the port of a two-input operator, or a custom
    partitioning."""
    return next(i for i, node in enumerate(chain) if node.kind in graph.STAGE_ENTRY_KINDS)


def operator_at(chain, start: int) -> int:
    """The index of the stage operator a stage entered at ``start`` runs."""
    return next(i for i in range(start, len(chain)) if chain[i].kind in graph.STAGE_OPERATOR_KINDS)


def stage_start(chain, previous: int, operator: int) -> int:
    """Where the stage of the operator at ``operator`` starts, after the operator at ``previous``: its key_by,
    its custom partitioning or, for a two-input operation without key_by, the port the stream enters by."""
    for i in range(previous + 1, operator + 1):
        kind = chain[i].kind
        if kind in (graph.KEY_BY, graph.PARTITION_CUSTOM) or (kind == graph.CO_INPUT
                                                              and chain[i - 1].kind != graph.KEY_BY):
            return i
    return operator


def _entered(nodes):
    """(the key_by node or None, the two-input port (1 or 2) or 0) of the nodes a stream enters a stage by."""
    key_node = nodes[0] if nodes and nodes[0].kind == graph.KEY_BY else None
    side = next((node.payload for node in nodes if node.kind == graph.CO_INPUT), 0)
    return key_node, side


@attrs.frozen
class Head:
    """A source's way into the stages: a read of it, its per-element nodes, the stage it enters and how."""
    route: object                  # the first route taking this way (translate.Route)
    source: graph.Node
    pre_nodes: tuple               # per-element nodes between the source and the exchange
    operator: graph.Node           # the operation it enters
    key_node: Optional[graph.Node]
    side: int


@attrs.frozen
class Handoff:
    """One operation's output (main or side output, through per-element nodes) into another operation."""
    sender: graph.Node
    side_tag: Optional[str]
    post_nodes: tuple              # per-element nodes after the sender, before the exchange
    operator: graph.Node           # the operation it enters
    key_node: Optional[graph.Node]
    side: int
    chain: tuple                   # a route's chain holding this handoff (types and parallelism are read off it)


@attrs.frozen
class Tail:
    """One sink's way out of an operation: the output it reads (through per-element nodes)."""
    sink: graph.Node
    operator: graph.Node           # the operation read (a sibling: itself, not the one whose lane it runs in)
    stage: graph.Node              # the operation whose stage holds the outlet (its lane's)
    nodes: tuple                   # per-element nodes between the operation and the sink (a side output first)
    branch: int                    # the first route taking this way (its index among its sink's routes)


@attrs.frozen
class StageGraph:
    operators: tuple               # every operation, in the order the routes meet them
    depth: Dict[int, int]          # operation id -> depth
    lane: Dict[int, int]           # operation id -> lane at its depth
    heads: tuple                   # Head, one per distinct way from a source
    handoffs: tuple                # Handoff, one per distinct edge between operations
    siblings: tuple                # several keyed operations of one key_by run side by side (one stage)
    tails: tuple                   # Tail, one per distinct way from an operation to a sink
    chains: Dict[int, tuple]       # operation id -> a route chain through it, and the operation's index there

    @property
    def depths(self) -> int:
        return max(self.depth.values()) + 1

    def at_depth(self, depth: int) -> List[graph.Node]:
        """The operations of a depth, by lane."""
        return sorted((op for op in self.operators if self.depth[op.id] == depth), key=lambda op: self.lane[op.id])

    def tails_of(self, operator: graph.Node) -> List[Tail]:
        """The sinks' ways out of the operation's stage (with siblings: of every sibling)."""
        return [tail for tail in self.tails if tail.stage is operator]

    def handoffs_of(self, operator: graph.Node) -> List[Handoff]:
        return [each for each in self.handoffs if each.sender is operator]

    def handoffs_into(self, operator: graph.Node) -> List[Handoff]:
        return [each for each in self.handoffs if each.operator is operator]

    def heads_into(self, operator: graph.Node) -> List[Head]:
        return [head for head in self.heads if head.operator is operator]

    def sources_of(self, operator: graph.Node) -> List[Head]:
        """The heads whose records reach the operation, directly or through others."""
        reaching, seen = [], set()

        def visit(op):
            if op.id in seen:
                return
            seen.add(op.id)
            reaching.extend(head for head in self.heads_into(op) if head not in reaching)
            for handoff in self.handoffs_into(op):
                visit(handoff.sender)
        visit(operator)
        return reaching


def sibling_operators(routes) -> List[graph.Node]:
    """The last stage operation of each route, each once, in the order of the routes (the operations sinks
    read)."""
    operators = []
    for route in routes:
        chain = list(route.chain)
        operator = chain[stage_operators(chain)[-1]]
        if all(operator is not other for other in operators):
            operators.append(operator)
    return operators


def build(routes) -> StageGraph:
    """The stage graph of one query's routes (routes of one group: connected by the operations they share, or
    ending in keyed operations of one key_by side by side, each the only stage of its routes: siblings)."""
    ends = sibling_operators(routes)
    single = all(len(stage_operators(list(route.chain))) == 1 for route in routes)
    siblings = ends if single and len(ends) > 1 else []
    standing_for = {op.id: siblings[0] for op in siblings}    # a sibling runs in the first one's lane
    operators, heads, handoffs, tails, chains = [], {}, {}, {}, {}

    def known(op):
        op = standing_for.get(op.id, op)
        if all(op is not other for other in operators):
            operators.append(op)
        return op

    for route in routes:
        chain = list(route.chain)
        indexes = stage_operators(chain)
        for index in indexes:
            chains.setdefault(standing_for.get(chain[index].id, chain[index]).id, (tuple(chain), index))
        entry = stage_entry(chain)
        first = known(chain[indexes[0]])
        key_node, side = _entered(chain[entry:indexes[0]])
        heads.setdefault(tuple(node.id for node in chain[:indexes[0]]),
                         Head(route, chain[0], tuple(chain[1:entry]), first, key_node, side))
        for previous, following in zip(indexes, indexes[1:]):
            sender, operator = known(chain[previous]), known(chain[following])
            start = stage_start(chain, previous, following)
            side_tag, post_nodes = side_output_first(chain[previous + 1:start])
            key_node, side = _entered(chain[start:following])
            handoffs.setdefault((sender.id, tuple(node.id for node in chain[previous + 1:following + 1])),
                                Handoff(sender, side_tag, tuple(post_nodes), operator, key_node, side, tuple(chain)))
        nodes = tuple(chain[indexes[-1] + 1:-1])
        read = chain[indexes[-1]]
        tails.setdefault((route.sink.id, read.id, tuple(node.id for node in nodes)),
                         Tail(route.sink, read, standing_for.get(read.id, read), nodes, route.branch))
    handoffs = list(handoffs.values())
    depth = {}

    def depth_of(op) -> int:
        if op.id not in depth:
            senders = [each.sender for each in handoffs if each.operator is op]
            depth[op.id] = 1 + max(depth_of(sender) for sender in senders) if senders else 0
        return depth[op.id]

    lane, lanes_used = {}, {}
    for op in operators:
        number = depth_of(op)
        lane[op.id] = lanes_used.get(number, 0)
        lanes_used[number] = lane[op.id] + 1
    return StageGraph(tuple(operators), depth, lane, tuple(heads.values()), tuple(handoffs), tuple(siblings),
                      tuple(tails.values()), chains)


def side_output_first(nodes):
    """(side output tag id, the other nodes) when ``nodes`` start by reading a side output, else (None, nodes)."""
    nodes = list(nodes)
    if nodes and nodes[0].kind == graph.SIDE_OUTPUT:
        return nodes[0].payload.tag_id, nodes[1:]
    return None, nodes

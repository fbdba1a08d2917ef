"""One pass over a source's records for every sink it feeds.

In Flink a job is one dataflow: a source feeding ``print()`` and ``sink_to(...)`` is read once, and every
function before the split runs once per element. Here the read task does the same for the sinks of one source
(without a keyed stage): it runs each node of the tree of functions once per element, hands each sink its
elements, sends the Kafka sinks' records itself and returns the print sinks' lines to the driver.

Where a stream has several consumers, each consumer gets its own copy of the elements, as PyFlink's operators
do (each receives them serialized): a function changing an element in place does not change it for the other
branch.
"""
from typing import Dict, List, Optional

import attrs
import pyarrow as pa

from pyflink_compat.plan import graph
from pyflink_compat import codec
from pyflink_compat.runtime import live_functions, printing
from pyflink_compat.runtime.chain import chained, converted, copied

SINK_COLUMN, LINE_COLUMN = "sink", "line"
#: The rows the read task returns: a print sink's index and one printed line.
SCHEMA_DDL = "%s int, %s string" % (SINK_COLUMN, LINE_COLUMN)

_SOURCE = 0          # tree key of the source's own elements (node ids start at 1)


@attrs.frozen
class Outlet:
    """One sink of the pass, with the per-element nodes between the source and it."""
    index: int
    kind: str                              # graph.KAFKA_SINK or graph.PRINT_SINK
    nodes: tuple
    element_type: object                   # the type of the elements the sink receives
    parallelism: int
    spec: object = None                    # Kafka sink: its prepared spec
    identifier: Optional[str] = None       # print sink: its sink_identifier


def _chains_on(tree_node: "_TreeNode", default_parallelism: Optional[int]) -> bool:
    """Whether the node's outputs go on unconverted: to one function PyFlink chains to it (runtime/chain.py's
    ``chained``). Several consumers (a sink among them) or a side output end its chain."""
    if len(tree_node.consumers) != 1:
        return False
    return chained(tree_node.node, tree_node.consumers[0].node, default_parallelism)


@attrs.define
class _TreeNode:
    node: Optional[graph.Node]             # None: the source
    output_type: object
    consumers: List["_TreeNode"] = attrs.Factory(list)
    step: object = None
    key: object = _SOURCE                  # the path from the source: (the parent's key, the node's id)
    default_parallelism: Optional[int] = None   # the job's (a node without its own runs at it)


def _tree(input_type, outlets: List[Outlet], default_parallelism: Optional[int] = None):
    """The nodes of all outlets as one tree rooted at the source, each outlet's last tree node, and the tree
    nodes in the order they were made. A tree node is a node on one path from the source: a node after a union
    of two branches of the source is on two paths (each branch's elements pass it once), and both share the
    node's one function."""
    from pyflink_compat.runtime.chain import build_steps
    root = _TreeNode(None, input_type, default_parallelism=default_parallelism)
    by_key: Dict[object, _TreeNode] = {_SOURCE: root}
    steps: Dict[int, object] = {}          # graph node id -> its function's step, one per node
    ends, made = [], []
    for outlet in outlets:
        parent = root
        for position, node in enumerate(outlet.nodes):
            key = (parent.key, node.id)
            current = by_key.get(key)
            if current is None:
                current = _TreeNode(node, node.output_type, key=key)
                if node.kind != graph.SIDE_OUTPUT:
                    if node.id not in steps:
                        steps[node.id] = build_steps([node])[0]
                    current.step = steps[node.id]
                by_key[key] = current
                made.append(current)
                parent.consumers.append(current)
            parent = current
        ends.append(parent)
    # A PROCESS node keeps every side output one of its consumers asks for, in one call per element.
    for tree_node in made:
        if tree_node.node.kind == graph.PROCESS:
            tree_node.step.side_tag = None
    return root, ends, made


def _evaluate(root: _TreeNode, elements: list, timestamps: list, read_after: frozenset = frozenset()) \
        -> Dict[int, tuple]:
    """(elements, timestamps) leaving every tree node for one batch of source elements. ``read_after``: the
    keys of the tree nodes whose outputs are read once the tree has run (by sinks, a keyed stage)."""
    outputs = {}

    def visit(tree_node, elements, timestamps, side_outputs):
        outputs[tree_node.key] = (elements, timestamps)
        # Side outputs read the producer's tagged outputs, every other consumer the elements themselves: each
        # of those gets a copy, made before any runs (one may change elements in place), but the first when
        # nothing reads these elements later.
        readers = [c for c in tree_node.consumers if c.node.kind != graph.SIDE_OUTPUT]
        shared = tree_node.key not in read_after
        inputs = {id(c): elements if i == 0 and shared else copied(elements, tree_node.output_type)
                  for i, c in enumerate(readers)}
        for consumer in tree_node.consumers:
            kind = consumer.node.kind
            if kind == graph.SIDE_OUTPUT:
                tagged, tagged_ts = side_outputs.get(consumer.node.payload.tag_id, ([], []))
                # a copy (typed: converted to the tag's type): another side output may read the same tag
                visit(consumer, copied(tagged, consumer.output_type), tagged_ts, {})
                continue
            consumer_elements = inputs[id(consumer)]
            if kind == graph.PROCESS:
                wanted = {c.node.payload.tag_id for c in consumer.consumers if c.node.kind == graph.SIDE_OUTPUT}
                results = consumer.step.apply_tagged(consumer_elements, timestamps, wanted)
                out, out_ts = results[None]
            else:
                out, out_ts = consumer.step.apply(consumer_elements, timestamps)
                results = {}
            if not _chains_on(consumer, root.default_parallelism):
                out = converted(out, consumer.output_type)
            visit(consumer, out, out_ts, results)

    visit(root, elements, timestamps, {})
    return outputs


class SharedPass:
    """What a read task runs for the sinks of one source: the tree of their functions, opened once, each node
    called once per element. ``extra_ends``: further tree ends whose elements the caller takes (a keyed
    stage's input, graph nodes, or None for the source's own elements)."""

    def __init__(self, input_type, outlets: List[Outlet], extra_nodes=(), default_parallelism: Optional[int] = None):
        self.input_type = input_type
        self.outlets = outlets
        self.extra = _ExtraOutlet(tuple(extra_nodes))
        self.root, ends, self.made = _tree(input_type, list(outlets) + [self.extra], default_parallelism)
        self.ends, self.extra_end = ends[:-1], ends[-1]
        self.read_after = frozenset(end.key for end in ends)
        self.writers = {}
        unique = {id(tree_node.step): tree_node for tree_node in self.made if tree_node.step is not None}
        self.steps = [(tree_node.step, tree_node.node) for tree_node in unique.values()]

    def functions(self) -> list:
        return [step.function for step, _ in self.steps]

    def start_task(self):
        """A writer per Kafka sink for the read task about to run (the functions may outlive the task)."""
        self.writers = _writers(self.outlets)

    def open(self, parallelism: int):
        from pyflink_compat.datastream.functions import SimpleRuntimeContext
        from pyflink_compat.kafka_io import source as ksource
        for step, node in self.steps:
            own = node.parallelism or parallelism
            step.instance = (node.name, ksource.reader_index(own))
            if hasattr(step.function, "open"):
                step.function.open(SimpleRuntimeContext(node.name, ksource.reader_index(own), own, {}))

    def process(self, batch):
        """One Arrow batch of (element, event_ts): queues the Kafka sinks' records; returns the print sinks'
        (sink indexes, lines), and every tree node's (elements, timestamps) by its key (0: the source's)."""
        from pyflink_compat.kafka_io import source as ksource
        elements = codec.to_python(codec.column(batch, codec.ELEMENT), self.input_type)
        timestamps = codec.column(batch, codec.EVENT_TS).to_pylist()
        outputs = _evaluate(self.root, elements, timestamps, self.read_after)
        sinks, lines = [], []
        for outlet, end in zip(self.outlets, self.ends):
            out, out_ts = outputs[end.key]
            if not out or outlet.kind == graph.DISCARD_SINK:
                continue
            if outlet.kind == graph.KAFKA_SINK:
                self.writers[outlet.index].add(codec.make_batch(
                    codec.from_python(out, outlet.element_type), pa.array(out_ts, pa.int64())))
            else:
                prefix = printing.line_prefix(outlet.identifier, ksource.reader_index(outlet.parallelism),
                                              outlet.parallelism)
                lines.extend(prefix + printing.element_string(e, outlet.element_type) for e in out)
                sinks.extend([outlet.index] * len(out))
        return sinks, lines, outputs

    def extra_output(self, outputs) -> tuple:
        """The (elements, timestamps) reaching the extra end."""
        return outputs[self.extra_end.key]

    def extra_path_output(self, outputs, node: graph.Node) -> tuple:
        """The (elements, timestamps) leaving ``node`` on the way to the extra end."""
        key = self.extra_end.key
        while key != _SOURCE and key[1] != node.id:
            key = key[0]
        return outputs[key]

    def flush(self):
        """Flush every Kafka sink's sends and check them; raises if any send is not acknowledged."""
        for index in list(self.writers):
            self.writers[index].finish()
            del self.writers[index]

    def abandon_sends(self):
        """Writers not flushed (the task failed) give up their sends."""
        for writer in self.writers.values():
            writer.abort()
        self.writers.clear()

    def close(self):
        for step, _ in self.steps:
            if hasattr(step.function, "close"):
                step.function.close()


def _writers(outlets) -> dict:
    """A writer per Kafka sink, sending while the task runs (EXACTLY_ONCE sinks have transactional ids of
    their own: translate._prepared_kafka_sink)."""
    from pyflink_compat.kafka_io import sink as ksink
    return {outlet.index: ksink.BatchWriter(outlet.spec, outlet.element_type)
            for outlet in outlets if outlet.kind == graph.KAFKA_SINK}


@attrs.frozen
class _ExtraOutlet:
    nodes: tuple


def lines_batch(sinks: list, lines: list) -> pa.RecordBatch:
    return pa.RecordBatch.from_arrays([pa.array(sinks, pa.int32()), pa.array(lines, pa.string())],
                                      [SINK_COLUMN, LINE_COLUMN])


def shared_pass(input_type, outlets: List[Outlet], default_parallelism: Optional[int] = None):
    """The read task's function: Arrow batches of the source's (element, event_ts) in, Arrow batches of
    (sink, line) out for the print sinks; the Kafka sinks' records are sent before the task ends, and the task
    fails if any send fails (so does the micro-batch: nothing is marked done)."""
    pass_id = live_functions.new_pass_id()
    parallelism = outlets[0].parallelism

    def run(batches):
        from pyflink_compat.kafka_io import source as ksource
        from pyflink_compat.runtime import gc_pause
        with live_functions.lease(pass_id, ksource.reader_index(parallelism), live_functions.current_batch_id(),
                                  SharedPass(input_type, outlets, default_parallelism=default_parallelism),
                                  SharedPass.functions,
                                  lambda fresh: fresh.open(parallelism), SharedPass.close,
                                  ksource.reader_tasks_if_final(parallelism),
                                  ksource.current_split_name()) as shared:
            shared.start_task()
            try:
                for batch in batches:
                    with gc_pause.paused():
                        sinks, lines, _ = shared.process(batch)
                    if lines:
                        yield lines_batch(sinks, lines)
                shared.flush()
            finally:
                shared.abandon_sends()

    return run


def print_lines_writer(out):
    """The driver's foreachBatch function: the print sinks' lines of a micro-batch, written at once."""
    def write(batch_df, batch_id):
        table = batch_df.toArrow()
        if table.num_rows:
            stream = out()
            stream.write("".join(line + "\n" for line in table.column(LINE_COLUMN).to_pylist()))
            stream.flush()

    return write

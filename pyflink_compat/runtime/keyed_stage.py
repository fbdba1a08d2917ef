"""A keyed operation (a KeyedProcessFunction, a rolling reduce, a window) as a Spark stage.

The read tasks run the chain before ``key_by`` and hand each keyed subtask its records as one payload
per micro-batch (runtime/exchange.py). ``groupBy(route).transformWithState`` then calls
:class:`KeyedSubtaskProcessor` once per subtask per micro-batch with the payloads of every input. It
restores the subtask's operator (runtime/keyed/, our own Flink operators) and watermark tracker
(runtime/event_time.py), processes the records in input order, advances Flink's watermark (minimum over
the inputs, a finished bounded input counting as Long.MAX_VALUE), fires the timers, runs the chain after
the operator, and saves everything as one state blob in Spark's state store (checkpointed with the
query). Records therefore meet the previous batch's watermark, as they would meet the last periodic
watermark in Flink.

A second ``key_by`` after the keyed operation makes a second stage, chained in the same query: the first
stage's subtask runs the nodes up to it, keys its outputs and hands every subtask of the next stage one
payload per micro-batch, as the read tasks do, with its watermark forwarded in the payload's progress
(``KeyedStagePlan.handoffs``). The next stage's watermark is the minimum over the first stage's subtasks,
as over input channels in Flink. The stages form a graph (runtime/stage_graph.py: two aggregations joined):
the operations of one depth run as lanes of one ``transformWithState``, each with its own state, and each
payload names the depth and lane it is for unless it is for the first lane of the next depth.

Spark groups rows by hashing the group value; ``route_values`` picks, for each subtask, an int that Spark
sends to its own partition (so two subtasks never share one task).
"""
import collections
import itertools
import pickle
import time
from typing import List, Optional

import attrs
import pyarrow as pa

from pyflink_compat.plan import graph
from pyflink_compat import codec
from pyflink_compat.metrics import group as metric_group
from pyflink_compat.runtime import exchange, gc_pause, live_functions
from pyflink_compat.runtime.chain import converted, copied, count_records
from pyflink_compat.runtime.event_time import LONG_MAX, LONG_MIN, WatermarkTracker

CHUNK_ROWS = 20_000            # records a keyed subtask holds as Python objects at a time (all its inputs together)
ROUTE = "subtask"              # the group column: a route value (see route_values), not the subtask number
STATE_SCHEMA = "blob binary"
BY_KEY, FORWARD, ROUND_ROBIN, TO_ALL, CUSTOM = "key", "forward", "round-robin", "broadcast", "custom"
OUTLET = "outlet"
LINES_OUTLET = -1                 # the outlet number of rows carrying print lines of sinks outside the stages
OUTPUT_SCHEMA_DDL = "subtask int, outlet int, payload binary"


# -- routing ----------------------------------------------------------------------------------------

def _rotl(x: int, r: int) -> int:
    return ((x << r) | (x >> (32 - r))) & 0xFFFFFFFF


def spark_int_hash(value: int, seed: int = 42) -> int:
    """Spark's ``hash()`` of an int column (Murmur3, seed 42): how it hash-partitions an int group key."""
    k = (value & 0xFFFFFFFF) * 0xCC9E2D51 & 0xFFFFFFFF
    k = _rotl(k, 15) * 0x1B873593 & 0xFFFFFFFF
    h = _rotl(seed ^ k, 13)
    h = (h * 5 + 0xE6546B64) & 0xFFFFFFFF
    h ^= 4
    h ^= h >> 16
    h = h * 0x85EBCA6B & 0xFFFFFFFF
    h ^= h >> 13
    h = h * 0xC2B2AE35 & 0xFFFFFFFF
    h ^= h >> 16
    return h - (1 << 32) if h & 0x80000000 else h


def route_values(parallelism: int, partitions: int) -> List[int]:
    """For each subtask s, an int group value Spark places in partition s % partitions."""
    values, candidate = [], 0
    for subtask in range(parallelism):
        while spark_int_hash(candidate) % partitions != subtask % partitions:
            candidate += 1
        values.append(candidate)
        candidate += 1
    return values


# -- the plan ---------------------------------------------------------------------------------------

@attrs.frozen
class StageOutlet:
    """One consumer of a stage's operator: the next stage, or a sink (several sinks may read one operator: its
    main output and side outputs, each through its own per-element nodes)."""
    index: int                     # the outlet's number among the stage's (its output rows carry it)
    side_tag: Optional[str]        # the operator's side output it reads, None: the main output
    post_nodes: tuple              # per-element nodes between the operator and the sink (or the next key_by)
    output_type: object            # the element type it hands on
    sink_spec: object = None       # a Kafka sink written directly from the subtask, or None (rows out)
    operator: int = 0              # which of the stage's operations it reads (KeyedStagePlan.operator_nodes)


@attrs.frozen
class KeyedStagePlan:
    """Everything both sides of the stage need (pickled into the query)."""
    pre_nodes: tuple               # per-element nodes between the source and key_by
    key_selection: graph.KeySelection
    operator_node: graph.Node      # a graph.STAGE_OPERATOR_KINDS node
    outlets: tuple                 # StageOutlet: the one of a stage followed by another, else one per sink
    input_type: object             # the source's element type
    keyed_type: object             # the element type entering the operator
    parallelism: int
    routes: tuple                  # route value of each subtask
    watermark_spec: object         # the WatermarkSpec generating the watermark the operator sees
    assigner_in_chain: bool        # timestamps come from assign_timestamps_and_watermarks before key_by
    job_name: str
    # The operations this one's outputs go to (StageHandoff: an outlet and the receiving stage as entered by it);
    # none for the last operation, whose outlets are sinks.
    handoffs: tuple = ()
    plan_id: str = ""              # this stage's identity in the query (its live subtasks are kept by it)
    # Inputs that never send records (readers owning no partition: parallelism above the partition count,
    # unbounded KafkaSource): each holds the watermark back, idleness or not (seen on Flink 2.3 with the
    # source's strategy and with assign_timestamps_and_watermarks: no event-time window fires).
    silent_inputs: tuple = ()
    # Put before the read side's input names when several sources feed the stage (a union before key_by).
    input_prefix: str = ""
    # The operator's number of key groups (set_max_parallelism on it or on the environment); None: Flink's
    # default for the parallelism. Which subtask a key goes to depends on it.
    max_parallelism: Optional[int] = None
    # A two-input operator: which of its inputs the read side feeds (1 or 2; 0: a one-input operator), and
    # the element type of its second input.
    input_side: int = 0
    second_type: object = None
    # How the read side hands records to subtasks: by key, each reader to its own subtask (a non-keyed
    # two-input operator at the source's parallelism), round robin, every record to every subtask, or where
    # partition_custom's partitioner says.
    distribution: str = "key"
    # The watermark strategy of each route's input, by input-name prefix, where routes differ.
    input_specs: tuple = ()
    # Read side: sinks of the same source outside the stages (fan_out.Outlet): the read task feeds them in the
    # same pass (each function once per element), sends their Kafka records and passes print lines through.
    pass_outlets: tuple = ()
    # The stage's place in the query (0: the first), and its lane among the operations of that depth. A read
    # side feeding a later stage (a source connected or merged with a stage's output) sends its payloads through
    # the stages before, which pass them on.
    depth: int = 0
    lane: int = 0
    # How many parallel instances hand records to the stage: the source's readers, or the subtasks of the stage
    # before (0: as many as the stage has).
    sender_parallelism: int = 0
    # Further keyed operations reading the same key_by, run beside ``operator_node`` in each subtask (each its
    # own state and outputs; a one-stage query).
    sibling_nodes: tuple = ()

    @property
    def senders(self) -> int:
        return self.sender_parallelism or self.parallelism

    @property
    def operator_nodes(self) -> tuple:
        return (self.operator_node,) + self.sibling_nodes


@attrs.frozen
class StageHandoff:
    """Where one outlet of an operation goes: the receiving stage's plan as this outlet enters it (its key_by,
    port, distribution and senders)."""
    outlet: int
    target: KeyedStagePlan


def _addressed_for(plan: KeyedStagePlan, payloads: List[bytes], from_depth: int) -> List[bytes]:
    """Payloads sent from a stage at ``from_depth`` (-1: a read task) to ``plan``: marked with its depth and
    lane unless they are for the first lane of the next depth."""
    if plan.depth == from_depth + 1 and plan.lane == 0:
        return payloads
    return [exchange.addressed(payload, plan.depth, plan.lane) for payload in payloads]


def state_name(lane: int) -> str:
    """The Spark value state of a lane's subtask (the first lane's keeps the single-lane name)."""
    return "subtask" if lane == 0 else "subtask-%d" % lane


# -- read-task side ---------------------------------------------------------------------------------

def reader_input(reader: int) -> str:
    """The input name of a source reader's watermark generator."""
    return "reader:%d" % reader


class _ReadPass:
    """The read side's functions before the exchange: the chain before ``key_by``, or, when other sinks of the
    source share the pass, their tree (which includes that chain)."""

    def __init__(self, plan: KeyedStagePlan):
        from pyflink_compat.runtime.chain import build_steps
        from pyflink_compat.runtime.fan_out import SharedPass
        self.shared = SharedPass(plan.input_type, list(plan.pass_outlets), plan.pre_nodes, plan.senders) \
            if plan.pass_outlets else None
        self.steps = [] if self.shared is not None else build_steps(list(plan.pre_nodes), plan.senders)

    def functions(self) -> list:
        return self.shared.functions() if self.shared is not None else [step.function for step in self.steps]

    def open(self, plan: KeyedStagePlan):
        from pyflink_compat.datastream.functions import SimpleRuntimeContext
        from pyflink_compat.kafka_io import source as ksource
        if self.shared is not None:
            self.shared.open(plan.senders)
        nodes = [node for node in plan.pre_nodes if node.kind != graph.SIDE_OUTPUT]
        for step, node in zip(self.steps, nodes):
            own = node.parallelism or plan.senders
            step.instance = (node.name, ksource.reader_index(own))
            if hasattr(step.function, "open"):
                step.function.open(SimpleRuntimeContext(node.name, ksource.reader_index(own), own, {}))

    def close(self):
        if self.shared is not None:
            self.shared.close()
        for step in self.steps:
            if hasattr(step.function, "close"):
                step.function.close()


def exchange_transform(plan: KeyedStagePlan):
    """The read task's function: chain, keys, one payload per subtask for the whole split."""
    pass_id = live_functions.new_pass_id()

    def run(batches):
        from pyflink_compat.third_party_patches import arrow_without_pandas
        arrow_without_pandas()
        from pyflink_compat.kafka_io import source as ksource
        with live_functions.lease(pass_id, ksource.reader_index(plan.senders), live_functions.current_batch_id(),
                                  _ReadPass(plan), _ReadPass.functions, lambda fresh: fresh.open(plan),
                                  _ReadPass.close, ksource.reader_tasks_if_final(plan.senders),
                                  ksource.current_split_name()) as read_pass:
            yield from _exchange(plan, read_pass, batches)

    return run


def read_batch_form(plan: KeyedStagePlan, steps):
    """The batch form (chain.batch_form_of) the read side runs its chain with, or None: the steps of a route
    with its own timestamp assigner into a one-input stage."""
    from pyflink_compat.runtime.chain import batch_form_of
    return batch_form_of(steps) if plan.assigner_in_chain and plan.input_side == 0 else None


def _exchange(plan: KeyedStagePlan, read_pass: _ReadPass, batches):
    from pyflink_compat.kafka_io import source as ksource
    from pyflink_compat.runtime.chain import AssignTimestampsStep
    from pyflink_compat.runtime.fan_out import lines_batch
    shared, steps = read_pass.shared, read_pass.steps
    batch_form = read_batch_form(plan, steps)
    batched = batch_form.start() if batch_form is not None else None
    assigners = [node for node in plan.pre_nodes if node.kind == graph.ASSIGN_TIMESTAMPS]
    get_key, assign, distributing = _distribution(plan, ksource.reader_index(plan.senders))
    # Per batch: the records as Arrow columns (element, timestamp, key bytes) and their subtasks;
    # Python objects live only while their batch is processed.
    columns, targets = [], []
    printed_sinks, printed = [], []
    max_ts = None
    records = 0

    def seen(present_stamps):
        nonlocal max_ts
        present = [t for t in present_stamps if t is not None]
        if present:
            max_ts = max(max(present), max_ts if max_ts is not None else LONG_MIN)

    def take_batched():
        items, stamps = batched.take()
        if items:
            keyed_columns(items, stamps, get_key, assign, plan.keyed_type, columns, targets)

    def handle(batch):
        nonlocal records
        if shared is not None:
            sinks, lines, outputs = shared.process(batch)
            printed_sinks.extend(sinks)
            printed.extend(lines)
            items, stamps = shared.extra_output(outputs)
            records += batch.num_rows
            # the generator sees what reaches it: the source's records, or the assigner's outputs
            seen(shared.extra_path_output(outputs, assigners[-1])[1] if plan.assigner_in_chain else codec.column(
                batch, codec.EVENT_TS).to_pylist())
        else:
            if batched is not None:         # the whole chain at once, for the split's batches (chain.batch_form_of)
                if batched.add(codec.column(batch, codec.ELEMENT)):
                    records += batch.num_rows
                    seen([batched.largest])
                    return
                take_batched()              # this batch goes through the steps, after what came before it
            items = codec.to_python(codec.column(batch, codec.ELEMENT), plan.input_type)
            stamps = codec.column(batch, codec.EVENT_TS).to_pylist()
            records += len(items)
            if not plan.assigner_in_chain:          # the source's generator sees every record read
                seen(stamps)
            for step in steps:
                items, stamps = step.apply(items, stamps)
                if isinstance(step, AssignTimestampsStep) and stamps:
                    seen(stamps)    # the assigner's generator sees what reaches it, with the new timestamps
                items = converted(items, step.convert_to)
        if not items:
            return
        keyed_columns(items, stamps, get_key, assign,
                      plan.second_type if plan.input_side == 2 else plan.keyed_type, columns, targets)

    if shared is not None:
        shared.start_task()
    try:
        for batch in batches:
            with gc_pause.paused():
                handle(batch)
        if shared is not None:
            shared.flush()
        if batched is not None:
            take_batched()
    finally:
        for function in distributing:
            if hasattr(function, "close"):
                function.close()
        if shared is not None:
            shared.abandon_sends()
    split = ksource.current_split
    prefix = plan.input_prefix
    if split is not None:
        partition = "%s%s" % (prefix, split.input_name())
        finished = bool(getattr(split, "finished", False))
        if plan.assigner_in_chain:      # one generator per reader, fed by all of the reader's partitions
            reader = "%s%s" % (prefix, reader_input(split.reader(plan.senders)))
            progress = exchange.BatchProgress(reader, max_ts, records, finished, part=partition)
        else:                           # the source's generator: one per partition
            progress = exchange.BatchProgress(partition, max_ts, records, finished)
    else:                                            # from_collection: one batch holds everything
        progress = exchange.BatchProgress(prefix + "collection", max_ts, records, True)
    progress = attrs.evolve(progress, side=plan.input_side)
    read_type = plan.second_type if plan.input_side == 2 else plan.keyed_type
    payloads = exchange.payloads_by_subtask(columns, None if plan.distribution == TO_ALL else targets,
                                            read_type, plan.parallelism, progress)
    payloads = _addressed_for(plan, payloads, -1)
    routes = list(plan.routes)
    if printed:                         # to the reader's own subtask, which passes them on
        routes.append(plan.routes[ksource.reader_index(plan.senders) % plan.parallelism])
        payloads.append(exchange.encode_lines(lines_batch(printed_sinks, printed)))
    yield pa.RecordBatch.from_arrays(
        [pa.array(routes, pa.int32()), pa.array(payloads, pa.binary())], names=[ROUTE, exchange.PAYLOAD])


def _no_key(element):
    return None


def _distribution(plan: KeyedStagePlan, sender: int):
    """(get_key, assign, opened): how the parallel instance ``sender`` (a source reader, or a subtask of the
    stage before) hands records to ``plan``'s subtasks: each element's key, the subtask of each key, and the
    user functions it opened for that (the caller closes them)."""
    from pyflink_compat.datastream.functions import SimpleRuntimeContext
    if plan.distribution == BY_KEY:
        selector = plan.key_selection.selector
        if hasattr(selector, "open"):
            selector.open(SimpleRuntimeContext("KeyBy", sender, plan.senders, {}))
        return getattr(selector, "get_key", None) or selector, _assigner(plan), (selector,)
    if plan.distribution == FORWARD:
        own = sender % plan.parallelism
        return _no_key, lambda key: own, ()
    if plan.distribution == ROUND_ROBIN:
        turns = itertools.count()
        return _no_key, lambda key: next(turns) % plan.parallelism, ()
    if plan.distribution == CUSTOM:
        context = SimpleRuntimeContext("_partition_custom_map_operator", sender, plan.senders, {})
        spec = plan.operator_node.payload
        return _custom_partitioning(plan, context) + ((spec.partitioner, spec.key_selector),)
    return _no_key, lambda key: 0, ()        # TO_ALL: every subtask gets every record anyway


def _custom_partitioning(plan: KeyedStagePlan, runtime_context):
    """partition_custom's (get_key, assign): the partition its partitioner picks for the element's key is the
    subtask (the operator ignores the key)."""
    get_key, partition = plan.operator_node.payload.opened(runtime_context)
    count = plan.parallelism

    def subtask(element):
        chosen = partition(get_key(element), count)
        if not isinstance(chosen, int):
            raise TypeError("an integer is required")
        if not 0 <= chosen < count:          # the text of Flink's failure
            raise IndexError("java.lang.ArrayIndexOutOfBoundsException: Index %d out of bounds for length %d"
                             % (chosen, count))
        return chosen

    return subtask, int


def keyed_columns(items: list, stamps: list, get_key, assign, keyed_type, columns: list, targets: list):
    """Append the records' Arrow columns (element, timestamp, key bytes) to ``columns`` and their subtasks
    to ``targets``."""
    keys = [get_key(e) for e in items]
    many = getattr(assign, "many", None)           # a SubtaskAssigner: the whole batch at once
    targets.extend(many(keys) if many is not None else (assign(k) for k in keys))
    columns.append((codec.from_python(items, keyed_type), pa.array(stamps, pa.int64()),
                    pa.array([exchange.key_bytes(k) for k in keys], pa.binary())))


_ASSIGNERS = {}


def _assigner(plan: KeyedStagePlan):
    """The worker's SubtaskAssigner for this plan (its key cache lives as long as the Python worker)."""
    key = (plan.job_name, plan.parallelism, plan.max_parallelism, repr(plan.key_selection.key_type))
    if key not in _ASSIGNERS:
        _ASSIGNERS[key] = exchange.SubtaskAssigner(plan.parallelism, plan.key_selection.key_type,
                                                   plan.max_parallelism)
    return _ASSIGNERS[key]


# -- keyed side -------------------------------------------------------------------------------------

def make_operators(plan: KeyedStagePlan, subtask: int):
    """(the subtask's operator, its collector): with siblings, a SiblingOperators and their Collectors."""
    from pyflink_compat.runtime.keyed.operators import ListCollector
    if not plan.sibling_nodes:
        collector = ListCollector()
        return make_operator(plan, subtask, collector), collector
    collectors = Collectors([ListCollector() for _ in plan.operator_nodes])
    return SiblingOperators([make_operator(plan, subtask, collector, node)
                             for node, collector in zip(plan.operator_nodes, collectors.each)]), collectors


class Collectors:
    """The collectors of sibling operations, one each."""

    def __init__(self, each: list):
        self.each = each

    def clear(self):
        for collector in self.each:
            collector.clear()


class SiblingOperators:
    """Keyed operations reading one key_by, side by side in one subtask: each gets every record (decoded for it
    alone, as each of Flink's consumers deserializes its own) and the watermark, and has its own state."""

    def __init__(self, operators: list):
        self.operators = operators

    def open(self):
        for operator in self.operators:
            operator.open()

    def close(self):
        for operator in self.operators:
            operator.close()

    def current_watermark(self) -> int:
        return min(operator.current_watermark() for operator in self.operators)

    def advance_watermark(self, watermark: int):
        for operator in self.operators:
            if watermark > operator.current_watermark():
                operator.advance_watermark(watermark)

    def advance_processing_time(self, now: int = None):
        for operator in self.operators:
            operator.advance_processing_time(now)

    def snapshot(self) -> list:
        return [operator.snapshot() for operator in self.operators]

    def restore(self, data: list):
        for operator, each in zip(self.operators, data):
            operator.restore(each)


def make_operator(plan: KeyedStagePlan, subtask: int, collector, node: graph.Node = None):
    from pyflink_compat.runtime.keyed.operators import KeyedProcessOperator
    node = node or plan.operator_node
    settings = dict(output=collector, subtask_index=subtask, parallelism=plan.parallelism,
                    max_parallelism=plan.max_parallelism,
                    has_side_output=bool(node.side_output_tags) or node.kind == graph.WINDOW)
    if node.kind == graph.WINDOW:
        from pyflink_compat.runtime.keyed.window_operator import WindowOperator
        return WindowOperator(node.payload, **settings)
    if node.kind == graph.KEYED_PROCESS:
        return KeyedProcessOperator(node.payload, task_name=node.name, **settings)
    if node.kind == graph.PARTITION_CUSTOM:
        from pyflink_compat.runtime.keyed.operators import ForwardingOperator
        return ForwardingOperator(**settings)
    from pyflink_compat.runtime.keyed import two_input
    from pyflink_compat.runtime.keyed.operators import KeyedCoProcessOperator
    operator_class = {graph.KEYED_CO_PROCESS: KeyedCoProcessOperator, graph.CO_PROCESS: two_input.CoProcessOperator,
                      graph.BROADCAST_PROCESS: two_input.BroadcastProcessOperator,
                      graph.KEYED_BROADCAST_PROCESS: two_input.KeyedBroadcastProcessOperator}[node.kind]
    return operator_class(node.payload, task_name=node.name, **settings)


@attrs.frozen
class SubtaskResult:
    """One subtask's micro-batch: each outlet's (elements, timestamps), the state to save, and its watermark
    status after it."""
    outputs: list
    state: bytes
    watermark: int
    idle: bool
    finished: bool


@attrs.define
class SubtaskRun:
    """One subtask's live operator between micro-batches (kept in the Python worker when possible), and the
    steps of each outlet's per-element nodes (their functions opened as this subtask's)."""
    operator: object
    collector: object
    tracker: WatermarkTracker
    batch_id: Optional[int]
    outlet_steps: list = attrs.Factory(list)
    carrier: object = None          # the user's instance attributes, saved with the state (live_functions)
    instances: list = attrs.Factory(list)     # the (operator, subtask) of its metric groups (metrics/group.py)

    def open(self, plan: "KeyedStagePlan", subtask: int):
        from pyflink_compat.datastream.functions import SimpleRuntimeContext
        from pyflink_compat.runtime.chain import build_steps
        self.operator.open()
        for outlet in plan.outlets:
            nodes = [node for node in outlet.post_nodes if node.kind != graph.SIDE_OUTPUT]
            steps = build_steps(list(outlet.post_nodes), plan.parallelism)
            for step, node in zip(steps, nodes):
                parallelism = node.parallelism or plan.parallelism
                step.instance = (node.name, subtask % parallelism)
                if hasattr(step.function, "open"):
                    step.function.open(SimpleRuntimeContext(node.name, subtask % parallelism, parallelism, {}))
            self.outlet_steps.append(steps)
        functions = ([node.payload for node in plan.operator_nodes]
                     + [step.function for steps in self.outlet_steps for step in steps])
        self.carrier = live_functions.AttributeCarrier(live_functions.stateful_objects(functions))

    def close(self):
        self.operator.close()
        for steps in self.outlet_steps:
            for step in steps:
                if hasattr(step.function, "close"):
                    step.function.close()


# Live subtasks of this Python worker, by (plan identity, subtask): reused by the subtask's later micro-batches
# in this worker, so user functions are opened once, as in Flink. When another worker ran the batch before (or
# the batch is run again), the operator's state, the watermark tracker and the functions' attributes are
# restored from the state store into it first.
_LIVE = {}


def run_subtask(plan: KeyedStagePlan, plan_id: str, subtask: int, payloads: List[bytes], saved: Optional[bytes],
                batch_id: Optional[int], now_ms: int) -> SubtaskResult:
    """Process one micro-batch of one subtask."""
    with gc_pause.paused():
        return _run_subtask(plan, plan_id, subtask, payloads, saved, batch_id, now_ms)


def _run_subtask(plan, plan_id, subtask, payloads, saved, batch_id, now_ms):
    live = _LIVE.get((plan_id, subtask))
    continuous = (live is not None and live.batch_id is not None and batch_id is not None
                  and live.batch_id == batch_id - 1)
    if not continuous and saved is not None:
        state = pickle.loads(saved)
        if state["tracker"].all_finished:     # a batch after every input ended (a tick): the functions stay closed
            tracker = state["tracker"]
            return SubtaskResult([([], []) for _ in plan.outlets], saved, tracker.current, tracker.all_idle, True)
    if not continuous:
        if live is not None and saved is None:    # the first batch run again: nothing to restore into it
            live.close()
            live = None
        if live is None:
            with metric_group.instances_opened() as instances:
                operator, collector = make_operators(plan, subtask)
                tracker = WatermarkTracker(plan.watermark_spec, specs=dict(plan.input_specs))
                live = SubtaskRun(operator, collector, tracker, batch_id)
                live.open(plan, subtask)
            live.instances = instances
            _LIVE[(plan_id, subtask)] = live
        if saved is not None:
            live.operator.restore(state["operator"])
            live.tracker = state["tracker"]
            live.carrier.take(state.get("attributes", {}))
        live.collector.clear()
    metric_group.ran(live.instances)
    live.carrier.begin()
    operator, tracker = live.operator, live.tracker

    # A broadcast input first: its elements (rules, configuration) apply to the other input's of the same batch.
    broadcast_side = 2 if plan.operator_node.kind in graph.BROADCAST_KINDS else None
    received = sorted((exchange.decode_payload(p) for p in payloads),
                      key=lambda item: (item[1].side != broadcast_side, item[1].input_id))
    for input_id in plan.silent_inputs:
        tracker.declare(input_id, now_ms, can_idle=False)
    for _, progress in received:
        tracker.declare(progress.input_id, now_ms)
    if plan.operator_node.kind in (graph.CO_PROCESS, graph.KEYED_CO_PROCESS):
        # Two connected inputs take turns, record by record, as Flink's two-input tasks interleave their inputs
        # (a function keeping the latest element of each side sees them alternate, not one side's batch first).
        # Each payload is decoded a share of CHUNK_ROWS at a time, so all of them together hold CHUNK_ROWS.
        share = max(1, CHUNK_ROWS // max(1, len(received)))
        turns = [_records(plan, batch, progress, share) for batch, progress in received]
        while turns:
            for turn in list(turns):
                record = next(turn, None)
                if record is None:
                    turns.remove(turn)
                else:
                    operator.process_input(record[0], (record[1:],))
    else:
        for each in getattr(operator, "operators", [operator]):
            for batch, progress in received:
                for side, keys, elements, stamps in _chunks(plan, batch, progress):
                    each.process_input(side, zip(keys, elements, stamps))
    for _, progress in received:
        if progress.watermark is not None:              # from a keyed subtask of the stage before
            tracker.observe_forwarded(progress.input_id, progress.watermark, progress.idle, progress.finished)
        else:
            tracker.observe(progress.input_id, progress.max_timestamp, progress.records, now_ms,
                            progress.finished, progress.part)
    watermark = tracker.advance(now_ms)
    if watermark > operator.current_watermark():
        operator.advance_watermark(watermark)
    operator.advance_processing_time(now_ms)

    collector = live.collector
    records_in = sum(batch.num_rows for batch, _ in received)
    for node, each in zip(plan.operator_nodes, collector.each if isinstance(collector, Collectors) else [collector]):
        count_records((node.name, subtask), records_in, len(each.records) + len(each.side))
    main_readers = collections.Counter(outlet.operator for outlet in plan.outlets if outlet.side_tag is None)
    outputs = [_outlet_output(plan, outlet, collector, steps,
                              outlet.side_tag is None and main_readers[outlet.operator] > 1)
               for outlet, steps in zip(plan.outlets, live.outlet_steps)]
    collector.clear()
    live.batch_id = batch_id
    saved = pickle.dumps({"operator": operator.snapshot(), "tracker": tracker,
                          "attributes": live.carrier.hand_over()}, protocol=4)
    if tracker.all_finished:            # every input is done (bounded sources): the functions are closed, as in Flink
        _LIVE.pop((plan_id, subtask), None)
        live.close()
    return SubtaskResult(outputs, saved, tracker.current, tracker.all_idle, tracker.all_finished)


def _outlet_output(plan: KeyedStagePlan, outlet: StageOutlet, collector, steps, shared: bool = False):
    """What the operator emitted in this batch for one outlet, through the outlet's per-element steps.
    ``shared``: other outlets read the same main output; this one gets its own copy of the elements, as each
    reader of a PyFlink operator gets them serialized (a function changing them in place changes them for
    this outlet only)."""
    if isinstance(collector, Collectors):
        collector = collector.each[outlet.operator]
    if outlet.side_tag is None:
        emitted = collector.records
    else:
        emitted = [(value, ts) for tag, value, ts in collector.side if tag == outlet.side_tag]
    elements = [value for value, _ in emitted]
    timestamps = [None if ts == LONG_MIN else ts for _, ts in emitted]
    del emitted
    if outlet.side_tag is not None and elements:
        tag_type = plan.operator_nodes[outlet.operator].side_output_tags[outlet.side_tag].type_info
        elements = codec.to_python(codec.from_python(elements, tag_type), tag_type)
    elif shared and elements:
        elements = copied(elements, plan.operator_nodes[outlet.operator].output_type)
    for step in steps:
        elements, timestamps = step.apply(elements, timestamps)
        elements = converted(elements, step.convert_to)
    return elements, timestamps


def _chunks(plan: KeyedStagePlan, batch, progress, rows: int = CHUNK_ROWS):
    """(side, keys, elements, timestamps) of a payload's records, ``rows`` at a time (Python objects for one
    chunk only)."""
    element_type = plan.second_type if progress.side == 2 else plan.keyed_type
    for start in range(0, batch.num_rows, rows):
        part = batch.slice(start, rows)
        yield (progress.side, [pickle.loads(k) for k in part.column(2).to_pylist()],
               codec.to_python(part.column(0), element_type), part.column(1).to_pylist())


def _records(plan: KeyedStagePlan, batch, progress, rows: int = CHUNK_ROWS):
    """(side, key, element, timestamp) of a payload's records, one by one (decoded ``rows`` at a time)."""
    for side, keys, elements, stamps in _chunks(plan, batch, progress, rows):
        for key, element, stamp in zip(keys, elements, stamps):
            yield side, key, element, stamp


def stateful_processor(lanes: tuple, tz: str = None, reporting=None, last: bool = True):
    """The StatefulProcessor for ``transformWithState`` of one depth (row based, one blob ValueState per lane
    of a subtask): it runs each lane's subtask on the payloads for it and passes the rest on, in the job's
    session time zone ``tz`` (util/session_zone.py; None: the machine's). ``reporting``
    (runtime/metrics.Reporting, None outside a job run) sends the metrics of what each call did. ``last``: the
    query's last depth, whose rows go to the driver (an earlier depth's sink outputs are wrapped to pass the
    depths after it)."""
    from pyspark.sql import Row
    from pyspark.sql.streaming.stateful_processor import StatefulProcessor
    depth = lanes[0].depth

    class KeyedSubtaskProcessor(StatefulProcessor):

        def init(self, handle):
            from pyflink_compat.third_party_patches import arrow_without_pandas
            arrow_without_pandas()
            self.states = [handle.getValueState(state_name(plan.lane), STATE_SCHEMA) for plan in lanes]

        def handleInputRows(self, key, rows, timerValues):
            from pyflink_compat.util.session_zone import applied
            with applied(tz):
                if reporting is None:
                    yield from self._handle(key, rows)
                else:
                    yield from reporting(self._handle(key, rows))

        def _handle(self, key, rows):
            route = int(key[0])
            own, lines, passing = [[] for _ in lanes], [], []
            for row in rows:
                payload = row[exchange.PAYLOAD]
                if exchange.is_lines(payload):
                    lines.append(payload)
                    continue
                delivered = exchange.outlet_payload(payload)
                if delivered is not None:   # a sink's outputs of an earlier depth
                    if last:
                        yield Row(subtask=delivered[1], outlet=delivered[0], payload=delivered[2])
                    else:
                        yield Row(subtask=route, outlet=0, payload=payload)
                    continue
                address = exchange.address(payload)
                if address is None:
                    own[0].append(payload)
                elif address[0] == depth:
                    own[address[1]].append(exchange.unaddressed(payload))
                else:                       # for a later stage: on to the same route of the next depth
                    passing.append(payload)
            for payload in passing:
                yield Row(subtask=route, outlet=0, payload=payload)
            for payload in lines:           # print lines of sinks outside the stages: on to the driver
                yield Row(subtask=route, outlet=LINES_OUTLET, payload=payload)
            for plan, payloads, state in zip(lanes, own, self.states):
                # A route beyond a lane's subtasks (a narrower stage) carries records for others only; a lane
                # beside others runs when records (or progress) came for it.
                if route not in plan.routes or (not payloads and len(lanes) > 1):
                    continue
                subtask = plan.routes.index(route)
                saved = state.get()[0] if state.exists() else None
                result = run_subtask(plan, plan.plan_id, subtask, payloads, saved, live_functions.current_batch_id(),
                                     int(time.time() * 1000))
                state.update((result.state,))
                for handoff in plan.handoffs:
                    for onward, payload in zip(handoff.target.routes, _forward(plan, handoff, subtask, result)):
                        yield Row(subtask=onward, outlet=0, payload=payload)
                handed = {handoff.outlet for handoff in plan.handoffs}
                for position, (outlet, (elements, timestamps)) in enumerate(zip(plan.outlets, result.outputs)):
                    if position in handed:
                        continue
                    payload = _deliver(outlet, subtask, elements, timestamps)
                    if last:
                        yield Row(subtask=subtask, outlet=outlet.index, payload=payload)
                    elif payload and elements:
                        yield Row(subtask=route, outlet=0, payload=exchange.for_outlet(payload, outlet.index, subtask))

        def close(self):
            pass

    return KeyedSubtaskProcessor()


def _forward(plan: KeyedStagePlan, handoff: StageHandoff, subtask: int, result: SubtaskResult) -> List[bytes]:
    """The payload of each subtask of the receiving stage: this subtask's outputs of the handoff's outlet keyed
    as it enters that stage, and its watermark, as a read task's payloads carry a source partition's progress."""
    following = handoff.target
    columns, targets = [], []
    elements, timestamps = result.outputs[handoff.outlet]
    handed_type = following.second_type if following.input_side == 2 else following.keyed_type
    get_key, assign, closing = _distribution(following, subtask)
    try:
        if elements:
            keyed_columns(elements, timestamps, get_key, assign, handed_type, columns, targets)
    finally:
        for function in closing:
            if hasattr(function, "close"):
                function.close()
    # An operator whose output rows may be older than its watermark (an interval join's) holds the watermark
    # it hands on back by that much, as Flink's does, so that they are not late for a window after it.
    delay = max(getattr(node.payload, "output_watermark_delay_ms", 0) for node in plan.operator_nodes)
    watermark = result.watermark
    if delay and LONG_MIN + delay < watermark < LONG_MAX:
        watermark -= delay
    progress = exchange.BatchProgress("%s:%d" % (plan.plan_id, subtask), None, len(elements),
                                      result.finished, watermark=watermark, idle=result.idle,
                                      side=following.input_side)
    payloads = exchange.payloads_by_subtask(columns, None if following.distribution == TO_ALL else targets,
                                            handed_type, following.parallelism, progress)
    return _addressed_for(following, payloads, plan.depth)


def _deliver(outlet: StageOutlet, subtask: int, elements: list, timestamps: list) -> bytes:
    """Send an outlet's outputs to its Kafka sink directly (returns no payload), or pack them for the driver."""
    batch = codec.make_batch(codec.from_python(elements, outlet.output_type), pa.array(timestamps, pa.int64()))
    if outlet.sink_spec is not None:
        from pyflink_compat.kafka_io.sink import send_batches
        if elements:
            send_batches(outlet.sink_spec, outlet.output_type, iter([batch]), task=subtask)
        return b""
    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, batch.schema) as writer:
        writer.write_batch(batch)
    return sink.getvalue().to_pybytes()


def unpack_outputs(payloads: List[bytes]) -> List[pa.RecordBatch]:
    """The (element, event_ts) batches in the payloads of the stage's output rows."""
    batches = []
    for payload in payloads:
        if payload:
            batches.extend(pa.ipc.open_stream(pa.py_buffer(payload)))
    return batches

"""The per-element operators of a chain (map, flat_map, filter, process, timestamps, side outputs), run
over the Python elements of one Arrow batch at a time.

Each step takes and returns parallel lists (elements, timestamps). A timestamp is the element's event
time in epoch ms, or None when it has none (Flink: a record without timestamp, which user code sees as
``Long.MIN_VALUE``). Outputs keep the timestamp of the element they came from, as in Flink.
"""
import pickle
import time
from itertools import compress
from typing import List, Optional

from pyflink_compat.metrics.group import record_io
from pyflink_compat.plan import graph
from pyflink_compat.runtime.event_time import LONG_MIN


class Step:
    """One operator of the chain. ``convert_to``: the declared type its outputs are converted to before the
    next step sees them (PyFlink converts at every operator boundary), or None. ``instance``: the (operator
    name, subtask) whose numRecordsIn / numRecordsOut it counts, once the runtime opened it in a job's task."""

    kind: str
    convert_to = None
    function = None
    instance = None

    def apply(self, elements: list, timestamps: list):
        out = self._apply(elements, timestamps)
        if self.instance is not None:
            count_records(self.instance, len(elements), len(out[0]))
        return out

    def _apply(self, elements: list, timestamps: list):
        raise NotImplementedError


def count_records(instance: tuple, records_in: int, records_out: int):
    """An operator instance's record counts of one batch, as Flink's numRecordsIn / numRecordsOut."""
    operator, subtask = instance
    record_io(operator, subtask, "numRecordsIn", records_in)
    record_io(operator, subtask, "numRecordsOut", records_out)


def counted(steps, nodes, subtask_of):
    """Mark the steps of ``nodes`` (per-element nodes, a side output node reading the step before) as counting
    their records for the instance ``subtask_of(node)`` of their operator."""
    for step, node in zip(steps, [node for node in nodes if node.kind != graph.SIDE_OUTPUT]):
        step.instance = (node.name, subtask_of(node))


class MapStep(Step):
    kind = graph.MAP

    def __init__(self, function):
        self.function = function

    def _apply(self, elements, timestamps):
        apply = self.function.map
        return [apply(e) for e in elements], timestamps


class FilterStep(Step):
    kind = graph.FILTER

    def __init__(self, function):
        self.function = function
        self.last_flags = None

    def _apply(self, elements, timestamps):
        keep = self.function.filter
        flags = [keep(e) for e in elements]
        self.last_flags = flags
        return list(compress(elements, flags)), list(compress(timestamps, flags))


class FlatMapStep(Step):
    kind = graph.FLAT_MAP

    def __init__(self, function):
        self.function = function

    def _apply(self, elements, timestamps):
        expand = self.function.flat_map
        pairs = [(out, t) for e, t in zip(elements, timestamps) for out in _outputs(expand(e))]
        return [e for e, _ in pairs], [t for _, t in pairs]


class ProjectStep(Step):
    """``project``: the chosen fields of each tuple, in the given order."""
    kind = graph.PROJECT

    def __init__(self, field_indexes):
        self.field_indexes = tuple(field_indexes)

    def _apply(self, elements, timestamps):
        indexes = self.field_indexes
        return [tuple(e[i] for i in indexes) for e in elements], timestamps


class AssignTimestampsStep(Step):
    """``assign_timestamps_and_watermarks``: the assigner's timestamp replaces the element's (without an
    assigner, from a strategy that has none, the elements keep theirs)."""
    kind = graph.ASSIGN_TIMESTAMPS

    def __init__(self, assigner):
        self.function = assigner

    def _apply(self, elements, timestamps):
        if self.function is None:
            return elements, timestamps
        extract = self.function.extract_timestamp
        stamps = [extract(e, LONG_MIN if t is None else t) for e, t in zip(elements, timestamps)]
        # Flink keeps a timestamp as a long: a float is cut to its integer part (PyFlink 2.3.0: 1500.7 -> 1500).
        return elements, [t if type(t) is int else int(t) for t in stamps]


class ProcessStep(Step):
    """A ``ProcessFunction``. Yielded ``(output_tag, value)`` pairs whose tag was asked for with
    ``get_side_output`` are side outputs; anything else yielded is a main output (PyFlink: a pair with
    another tag too). ``side_tag``: None keeps the main outputs, a tag id keeps that side output."""
    kind = graph.PROCESS

    def __init__(self, function, side_output_tags, side_tag: Optional[str] = None):
        self.function = function
        self.side_output_tags = frozenset(side_output_tags)
        self.side_tag = side_tag

    def apply(self, elements, timestamps):
        wanted = self.side_tag
        return self.apply_tagged(elements, timestamps, () if wanted is None else (wanted,))[wanted]

    def apply_tagged(self, elements, timestamps, wanted_tags) -> dict:
        """One call per element: the main outputs under None, each side output of ``wanted_tags`` under its
        tag id, as (elements, timestamps)."""
        results = self._apply_tagged(elements, timestamps, wanted_tags)
        if self.instance is not None:
            count_records(self.instance, len(elements), sum(len(out) for out, _ in results.values()))
        return results

    def _apply_tagged(self, elements, timestamps, wanted_tags) -> dict:
        from pyflink_compat.datastream.output_tag import OutputTag
        process = self.function.process_element
        context = _NonKeyedContext()
        tags = self.side_output_tags
        results = {tag: ([], []) for tag in wanted_tags}
        main_elements, main_timestamps = results[None] = ([], [])
        for element, timestamp in zip(elements, timestamps):
            context._timestamp = LONG_MIN if timestamp is None else timestamp
            for out in _outputs(process(element, context)):
                if type(out) is tuple and len(out) == 2 and isinstance(out[0], OutputTag) \
                        and out[0].tag_id in tags:
                    bucket = results.get(out[0].tag_id)
                    if bucket is not None:
                        bucket[0].append(out[1])
                        bucket[1].append(timestamp)
                else:
                    main_elements.append(out)
                    main_timestamps.append(timestamp)
        return results


def _outputs(result):
    """What a function returned or yielded, as an iterable (None: nothing)."""
    return () if result is None else result


class _NonKeyedTimerService:
    """A non-keyed operator's timer service: times can be read, timers cannot be set (as in PyFlink)."""

    def current_processing_time(self) -> int:
        return int(time.time() * 1000)

    def current_watermark(self) -> int:
        # The chain runs before any watermark is combined (see the porting guide, event-time).
        return LONG_MIN

    def register_processing_time_timer(self, timestamp: int):
        raise Exception("Register timers is only supported on a keyed stream.")

    register_event_time_timer = register_processing_time_timer
    delete_processing_time_timer = register_processing_time_timer
    delete_event_time_timer = register_processing_time_timer


class _NonKeyedContext:
    """``ProcessFunction.Context``."""

    def __init__(self):
        self._timestamp = LONG_MIN
        self._timer_service = _NonKeyedTimerService()

    def timestamp(self) -> int:
        return self._timestamp

    def timer_service(self):
        return self._timer_service


def chained(previous: graph.Node, node: graph.Node, default_parallelism: Optional[int] = None) -> bool:
    """Whether PyFlink runs ``node`` in one Python operator with ``previous`` (its only consumer): its Python
    operator chaining joins per-element functions of one parallelism, unless the job starts a new chain or
    disables chaining there; a timestamp assigner ends its chain (its timestamp function still sees the objects
    the function before it returned). Elements cross a boundary serialized with the declared type of the
    operator before it (a FLOAT field is then rounded to 32 bits); inside a chain the next function gets the
    very objects the previous one returned. ``python.operator-chaining.enabled=false`` ends a chain at every
    function (``disable_operator_chaining`` does not: it concerns Flink's own operators)."""
    if previous.kind == graph.ASSIGN_TIMESTAMPS or node.kind == graph.SIDE_OUTPUT or not previous.python_chaining:
        return False
    if node.chaining in (graph.CHAIN_HEAD, graph.CHAIN_NEVER) or previous.chaining == graph.CHAIN_NEVER:
        return False
    if previous.readers > 1:                 # read by others too (another function, a sink): its own operator
        return False
    between = node.input
    if between is not previous and not (between is not None and between.kind == graph.PARTITION
                                        and between.payload == "FORWARD" and between.input is previous):
        return False                         # a union or a partitioning other than forward() in between
    return (previous.parallelism or default_parallelism) == (node.parallelism or default_parallelism)


def build_steps(nodes: List[graph.Node], default_parallelism: Optional[int] = None) -> List[Step]:
    """The steps for a chain of per-element nodes (graph.FUNCTION_KINDS), in order. A SIDE_OUTPUT node
    turns the PROCESS step before it into one that keeps that side output. A step's ``convert_to`` is the type
    its outputs are converted to before the next step: where PyFlink's chain of Python functions ends (see
    ``chained``) and for a side output; the last step's outputs are converted by whatever reads them."""
    steps: List[Step] = []
    for i, node in enumerate(nodes):
        if node.kind == graph.MAP:
            step = MapStep(node.payload)
        elif node.kind == graph.FILTER:
            step = FilterStep(node.payload)
        elif node.kind == graph.FLAT_MAP:
            step = FlatMapStep(node.payload)
        elif node.kind == graph.ASSIGN_TIMESTAMPS:
            step = AssignTimestampsStep(node.payload)
        elif node.kind == graph.PROJECT:
            step = ProjectStep(node.payload)
        elif node.kind == graph.PROCESS:
            following = nodes[i + 1] if i + 1 < len(nodes) else None
            side_tag = following.payload.tag_id if following is not None and following.kind == graph.SIDE_OUTPUT \
                else None
            step = ProcessStep(node.payload, node.side_output_tags, side_tag)
        elif node.kind == graph.SIDE_OUTPUT:
            if not nodes[i - 1:i] or nodes[i - 1].kind != graph.PROCESS:
                from pyflink_compat.util.exceptions import UnsupportedFeatureError
                raise UnsupportedFeatureError("get_side_output() of a %s" % (nodes[i - 1].name if i else "source"),
                                              "state-and-windows")
            steps[-1].convert_to = node.output_type            # the side output's elements, typed by its tag
            continue
        else:
            raise ValueError("not a per-element node: %r" % (node.kind,))
        following = nodes[i + 1] if i + 1 < len(nodes) else None
        if following is not None and not chained(node, following, default_parallelism):
            step.convert_to = node.output_type
        steps.append(step)
    return steps


def declares(type_info) -> bool:
    """Whether elements of this type are converted at a boundary (a declared type, not a pickled one)."""
    from pyflink_compat.common.typeinfo import PickledBytesTypeInfo
    return type_info is not None and not isinstance(type_info, PickledBytesTypeInfo)


def converted(elements: list, type_info) -> list:
    """The elements as the next operator sees them after a boundary: converted to the declared type (fresh
    objects), or as they are for none or a pickled type."""
    from pyflink_compat import codec
    if not elements or not declares(type_info):
        return elements
    return codec.to_python(codec.from_python(elements, type_info), type_info)


def copied(elements: list, type_info) -> list:
    """A copy of the elements for one of several readers, as each reader of a PyFlink operator gets them
    serialized: converted to the declared type, or unpickled from their pickles."""
    if declares(type_info):
        return converted(elements, type_info)
    return pickle.loads(pickle.dumps(elements, protocol=pickle.HIGHEST_PROTOCOL))


def batch_form_of(steps: List[Step]):
    """The batch form of a whole chain from the source, or None: a function of the chain's last step may offer
    one (``batch_form``, with ``chain_length`` the number of steps it stands for). ``batch_form.start()`` gives
    an object for one split: ``add(element column)`` takes a batch (False: that batch goes through the steps),
    ``largest`` is then the largest timestamp the chain's timestamp assigner saw in it (None: none), and
    ``take()`` gives the (elements, timestamps) of the batches taken, which stand for what the steps would give
    for them (elements of several records may be combined, as the chain's consumer allows)."""
    if not steps:
        return None
    form = getattr(steps[-1].function, "batch_form", None)
    if form is None or form.chain_length != len(steps):
        return None
    return form

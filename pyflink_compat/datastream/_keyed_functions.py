"""The KeyedProcessFunctions behind KeyedStream's map / flat_map / filter / reduce / sum / min / max /
min_by / max_by, as PyFlink builds them: every operation on a keyed stream is a keyed process function
(ours are written from PyFlink's documented behaviour, not copied).
"""
import uuid

from pyflink_compat.common.types import Row
from pyflink_compat.datastream.functions import KeyedProcessFunction, ReduceFunction
from pyflink_compat.datastream.state import ReducingStateDescriptor

LONG_MAX = (1 << 63) - 1


def _parts(function, method_name):
    """(open, close, the per-element method) of a Function object or a plain callable."""
    if callable(getattr(function, method_name, None)) and not isinstance(function, type):
        return (getattr(function, "open", None), getattr(function, "close", None), getattr(function, method_name))
    return None, None, function


class _Adapter(KeyedProcessFunction):
    METHOD = None

    def __init__(self, function):
        self._open, self._close, self._call = _parts(function, self.METHOD)

    def open(self, runtime_context):
        if self._open is not None:
            self._open(runtime_context)

    def close(self):
        if self._close is not None:
            self._close()


class KeyedMap(_Adapter):
    METHOD = "map"

    def process_element(self, value, ctx):
        yield self._call(value)


class KeyedFlatMap(_Adapter):
    METHOD = "flat_map"

    def process_element(self, value, ctx):
        result = self._call(value)
        if result is not None:
            yield from result


class KeyedFilter(_Adapter):
    METHOD = "filter"

    def process_element(self, value, ctx):
        if self._call(value):
            yield value


class KeyedReduce(_Adapter):
    """A rolling reduce: each element's updated result is emitted (STREAMING); in BATCH execution mode
    only the final result per key, at the end of the input (as PyFlink does)."""
    METHOD = "reduce"

    def __init__(self, function, output_type, batch_mode: bool):
        super().__init__(function)
        self._output_type = output_type
        self._batch_mode = batch_mode
        self._state = None

    def open(self, runtime_context):
        super().open(runtime_context)
        self._state = runtime_context.get_reducing_state(
            ReducingStateDescriptor("_reduce_state" + str(uuid.uuid4()), self._call, self._output_type))

    def process_element(self, value, ctx):
        if self._batch_mode:
            if self._state.get() is None:
                ctx.timer_service().register_event_time_timer(LONG_MAX)
            self._state.add(value)
            return
        self._state.add(value)
        yield self._state.get()

    def on_timer(self, timestamp, ctx):
        current = self._state.get()
        if current is not None:
            yield current


MIN, MAX, MIN_BY, MAX_BY, SUM = "min", "max", "min_by", "max_by", "sum"


class Accumulate(ReduceFunction):
    """sum / min / max / min_by / max_by at a position (int) or field name (str).

    As in PyFlink, the way values combine is decided by the type of the second value of the first
    reduction: tuples are copied, lists and Rows are updated in place (the first value is kept and
    changed), other values must be selected with position 0. ``min`` / ``max`` only replace the
    field; ``min_by`` / ``max_by`` keep the whole element with the smaller / larger field (the
    earlier one on ties).
    """

    def __init__(self, position, kind: str):
        self._position = position
        self._kind = kind
        self._combine = None

    def reduce(self, value1, value2):
        if self._combine is None:
            self._combine = self._choose(value2)
        return self._combine(value1, value2)

    def _choose(self, sample):
        pos, kind = self._position, self._kind
        structured = isinstance(sample, (tuple, list, Row))
        if kind in (MIN_BY, MAX_BY):
            smaller = kind == MIN_BY

            def by(v1, v2):
                a, b = (v1[pos], v2[pos]) if structured else (v1, v2)
                return v2 if (b < a if smaller else b > a) else v1
            return by
        if not structured and pos != 0:
            raise TypeError("The %s field selected on a basic type. A field expression on a basic type can only "
                            "select the 0th field (which means selecting the entire basic type)." % pos)

        def pick(a, b):
            if kind == MIN:
                return b if b < a else a
            if kind == MAX:
                return b if b > a else a
            return a + b

        if isinstance(sample, tuple):
            def on_tuple(v1, v2):
                fields = list(v1)
                fields[pos] = pick(v1[pos], v2[pos])
                return tuple(fields)
            return on_tuple
        if structured:
            def in_place(v1, v2):
                v1[pos] = pick(v1[pos], v2[pos])
                return v1
            return in_place
        return pick

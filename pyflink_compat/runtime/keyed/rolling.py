"""Rolling aggregations of a KeyedStream: ``reduce`` and ``sum``/``min``/``max``/``min_by``/``max_by``.

As in PyFlink 2.3.0 these are a KeyedProcessFunction over a ReducingState: every element
is added to its key's reducing state and (in streaming mode) the updated value is
emitted with the element's timestamp. In batch execution mode the value is emitted once
per key, by an event-time timer at Long.MAX_VALUE (the end of the input).

The field aggregations follow PyFlink's rules exactly (checked with real PyFlink 2.3.0,
see tests/unit/test_keyed_rolling.py):

- the kind of reduction is chosen once per operator from the first pair reduced (the
  second value's type): tuple, list/Row, or a basic value (position must be 0);
- ``sum``/``min``/``max`` on a tuple build a new tuple with only that field changed (the
  other fields are the first element's); on a list or Row they change the accumulated
  value in place; on a basic value they return the sum / smaller / larger value
  (``min`` keeps the accumulated value on ties, ``max`` too);
- ``min_by``/``max_by`` return the whole element holding the smaller / larger field,
  keeping the earlier one on ties;
- the position is an int (index) or a str (field name: works for named Rows only).
"""
import copy

from pyflink_compat.common.types import Row
from pyflink_compat.datastream.functions import KeyedProcessFunction, ReduceFunction
from pyflink_compat.datastream.state import ReducingStateDescriptor
from pyflink_compat.common.typeinfo import Types

__all__ = ['ReduceKeyedProcessFunction', 'AccumulateReduceFunction', 'rolling_reduce_operator',
           'rolling_accumulate_operator', 'SUM', 'MIN', 'MAX', 'MIN_BY', 'MAX_BY']

SUM, MIN, MAX, MIN_BY, MAX_BY = 'sum', 'min', 'max', 'min_by', 'max_by'

REDUCE_STATE_NAME = "_reduce_state"


class _CallableReduce(ReduceFunction):
    def __init__(self, func):
        self._func = func

    def reduce(self, value1, value2):
        return self._func(value1, value2)


class ReduceKeyedProcessFunction(KeyedProcessFunction):
    """``KeyedStream.reduce``: a reducing state per key; emits the updated value per element."""

    def __init__(self, reduce_function, output_type=None, in_batch_execution_mode: bool = False,
                 state_name: str = REDUCE_STATE_NAME):
        if isinstance(reduce_function, ReduceFunction):
            self._user = reduce_function
        elif callable(reduce_function):
            self._user = None
            reduce_function = _CallableReduce(reduce_function)
        else:
            raise TypeError("The input must be a ReduceFunction or a callable function")
        self._reduce_function = reduce_function
        self._output_type = output_type
        self._batch = in_batch_execution_mode
        self._state_name = state_name
        self._state = None

    def open(self, runtime_context):
        if self._user is not None:
            self._user.open(runtime_context)
        self._state = runtime_context.get_reducing_state(ReducingStateDescriptor(
            self._state_name, self._reduce_function,
            self._output_type if self._output_type is not None else Types.PICKLED_BYTE_ARRAY()))

    def close(self):
        if self._user is not None:
            self._user.close()

    def process_element(self, value, ctx):
        state = self._state
        if self._batch:
            if state.get() is None:
                from pyflink_compat.runtime.keyed.timers import MAX_WATERMARK
                ctx.timer_service().register_event_time_timer(MAX_WATERMARK)
            state.add(value)
        else:
            state.add(value)
            yield _snapshot(state.get())

    def on_timer(self, timestamp, ctx):
        current = self._state.get()
        if current is not None:
            yield current


def _snapshot(value):
    """The accumulated value as it is now. Outputs are converted once the micro-batch's elements are all
    processed, and the next reduction may change the accumulated list or Row in place (``sum`` does, and
    so may a user's reduce function); PyFlink serializes each output as it is emitted."""
    if isinstance(value, Row):
        copied = copy.copy(value)
        copied._values = list(value._values)
        return copied
    if type(value) in (list, dict):
        return type(value)(value)
    return value


class AccumulateReduceFunction(ReduceFunction):
    """The reduce function behind ``sum``/``min``/``max``/``min_by``/``max_by`` (PyFlink's rules)."""

    def __init__(self, position, kind: str):
        if not isinstance(position, (int, str)):
            raise TypeError("The field position must be of int or str type to locate the value to "
                            "calculate for min, max, min_by, max_by and sum."
                            "The given type is: %s" % type(position))
        if kind not in (SUM, MIN, MAX, MIN_BY, MAX_BY):
            raise ValueError("unknown aggregation %r" % (kind,))
        self._pos = position
        self._kind = kind
        self._reduce = None

    def reduce(self, value1, value2):
        if self._reduce is None:
            self._reduce = self._choose(value2)
        return self._reduce(value1, value2)

    def _choose(self, sample):
        pos, kind = self._pos, self._kind
        composite = isinstance(sample, (tuple, list, Row))
        if kind == MIN_BY:
            if composite:
                return lambda v1, v2: v2 if v2[pos] < v1[pos] else v1
            return lambda v1, v2: v2 if v2 < v1 else v1
        if kind == MAX_BY:
            if composite:
                return lambda v1, v2: v2 if v2[pos] > v1[pos] else v1
            return lambda v1, v2: v2 if v2 > v1 else v1
        if isinstance(sample, tuple):
            def on_tuple(v1, v2):
                fields = list(v1)
                fields[pos] = _combine(kind, v1[pos], v2[pos])
                return tuple(fields)
            return on_tuple
        if isinstance(sample, (list, Row)):
            def in_place(v1, v2):
                v1[pos] = _combine(kind, v1[pos], v2[pos])
                return v1
            return in_place
        if pos != 0:
            raise TypeError("The %s field selected on a basic type. A field expression on a basic "
                            "type can only select the 0th field (which means selecting the entire "
                            "basic type)." % pos)
        return lambda v1, v2: _combine(kind, v1, v2)


def _combine(kind, a, b):
    if kind == MIN:
        return b if b < a else a
    if kind == MAX:
        return b if b > a else a
    return a + b


def rolling_reduce_operator(reduce_function, output_type=None, in_batch_execution_mode=False,
                            **operator_kwargs) -> 'KeyedProcessOperator':
    """A KeyedProcessOperator running ``KeyedStream.reduce(reduce_function)``."""
    from pyflink_compat.runtime.keyed.operators import KeyedProcessOperator     # it imports the mirror, which imports us
    return KeyedProcessOperator(
        ReduceKeyedProcessFunction(reduce_function, output_type, in_batch_execution_mode),
        **operator_kwargs)


def rolling_accumulate_operator(position, kind: str, output_type=None,
                                in_batch_execution_mode=False, **operator_kwargs):
    """A KeyedProcessOperator running ``KeyedStream.sum/min/max/min_by/max_by(position)``;
    ``kind`` is one of SUM, MIN, MAX, MIN_BY, MAX_BY."""
    return rolling_reduce_operator(AccumulateReduceFunction(position, kind), output_type,
                                   in_batch_execution_mode, **operator_kwargs)

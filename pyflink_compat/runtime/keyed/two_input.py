"""Operators of connected streams that are not KeyedCoProcessOperator (operators.py): the non-keyed
co-process operator and the two broadcast process operators.

They are driven like the keyed operators (``process_input(side, records)`` with side 1 or 2, watermarks,
processing time, snapshots), so that a stage runs any of them alike. The non-keyed ones run one instance
per parallel subtask: an element of the first input reaches the instance its source reader forwards to,
and state lives in the instance (a Python attribute, as in PyFlink, or the broadcast states).

Broadcast state is a dict per MapStateDescriptor named in ``broadcast(...)``, one copy per subtask:
every subtask receives every broadcast element, so the copies stay equal, as in Flink. The broadcast side
writes it (``BroadcastState``); the other side reads it (``ReadOnlyBroadcastState``, no mutators). It is
part of the operator's snapshot, so it survives restarts with the rest of the stage's state.
"""
from pyflink_compat.datastream.functions import (BroadcastProcessFunction, CoProcessFunction,
                                                 KeyedBroadcastProcessFunction, SimpleRuntimeContext)
from pyflink_compat.datastream.state import BroadcastState, ReadOnlyBroadcastState
from pyflink_compat.datastream.time_domain import TimeDomain
from pyflink_compat.runtime.keyed.operators import (NO_TIMESTAMP, KeyedOperator, UserFunctionOperator,
                                                    _TimerServiceImpl, call_on_timer)

__all__ = ['CoProcessOperator', 'BroadcastProcessOperator', 'KeyedBroadcastProcessOperator']


class _ReadOnlyBroadcastStateView(ReadOnlyBroadcastState):
    """What the non-broadcast side sees of one broadcast state."""

    def __init__(self, entries: dict):
        self._entries = entries

    def get(self, key):
        return self._entries.get(key)

    def contains(self, key) -> bool:
        return key in self._entries

    def items(self):
        return list(self._entries.items())

    def keys(self):
        return list(self._entries.keys())

    def values(self):
        return list(self._entries.values())

    def is_empty(self) -> bool:
        return not self._entries

    def clear(self) -> None:
        raise Exception("The broadcast state is read-only on the non-broadcast side.")


class _BroadcastStateView(_ReadOnlyBroadcastStateView, BroadcastState):
    """What the broadcast side sees of one broadcast state: it may change it."""

    def put(self, key, value) -> None:
        self._entries[key] = value

    def put_all(self, dict_value) -> None:
        self._entries.update(dict_value)

    def remove(self, key) -> None:
        self._entries.pop(key, None)

    def clear(self) -> None:
        self._entries.clear()


class _BroadcastStates(object):
    """The broadcast states of one operator instance, by descriptor name."""

    def __init__(self, descriptors):
        self.declared = {descriptor.get_name() for descriptor in descriptors}
        self.entries = {name: {} for name in self.declared}

    def _entries_of(self, descriptor) -> dict:
        name = descriptor.get_name()
        if name not in self.declared:
            raise Exception(
                "The requested state does not exist. Check for typos in your state descriptor, or specify the "
                "state descriptor in the datastream.broadcast(...) call if you forgot to register it.")
        return self.entries[name]

    def writable(self, descriptor) -> BroadcastState:
        return _BroadcastStateView(self._entries_of(descriptor))

    def read_only(self, descriptor) -> ReadOnlyBroadcastState:
        return _ReadOnlyBroadcastStateView(self._entries_of(descriptor))


class _NonKeyedTimers(object):
    """A non-keyed operator's timer service: times can be read, timers cannot be set (as in PyFlink)."""

    def __init__(self, operator: KeyedOperator):
        self._operator = operator

    def current_processing_time(self) -> int:
        return self._operator.current_processing_time()

    def current_watermark(self) -> int:
        return self._operator.current_watermark()

    def register_processing_time_timer(self, timestamp: int):
        raise Exception("Register timers is only supported on a keyed stream.")

    register_event_time_timer = register_processing_time_timer
    delete_processing_time_timer = register_processing_time_timer
    delete_event_time_timer = register_processing_time_timer


class _Context(object):
    """The contexts of all operators here: the element's timestamp, the times, and what each context adds."""

    def __init__(self, operator: KeyedOperator, broadcast_states=None, writable: bool = False, timers=None):
        self._operator = operator
        self._states = broadcast_states
        self._writable = writable
        self._timers = timers
        self._timestamp = NO_TIMESTAMP
        self._time_domain = None

    def timestamp(self) -> int:
        return self._timestamp

    def current_processing_time(self) -> int:
        return self._operator.current_processing_time()

    def current_watermark(self) -> int:
        return self._operator.current_watermark()

    def timer_service(self):
        return self._timers

    def get_current_key(self):
        return self._operator.get_current_key()

    def time_domain(self) -> TimeDomain:
        return self._time_domain

    def get_broadcast_state(self, state_descriptor):
        if self._writable:
            return self._states.writable(state_descriptor)
        return self._states.read_only(state_descriptor)


class _CoProcessContext(_Context, CoProcessFunction.Context):
    pass


class _BroadcastContext(_Context, BroadcastProcessFunction.Context, KeyedBroadcastProcessFunction.Context):
    pass


class _ReadOnlyContext(_Context, BroadcastProcessFunction.ReadOnlyContext,
                       KeyedBroadcastProcessFunction.OnTimerContext):
    pass


class _TwoInputOperator(UserFunctionOperator):
    """Non-keyed variants get a RuntimeContext without keyed state."""

    keyed = True

    def __init__(self, function, task_name: str, **kwargs):
        super(_TwoInputOperator, self).__init__(function, task_name=task_name, **kwargs)
        if not self.keyed:
            self.runtime_context = SimpleRuntimeContext(
                task_name, kwargs.get("subtask_index", 0), kwargs.get("parallelism", 1),
                job_parameters=kwargs.get("job_parameters"), max_parallelism=kwargs.get("max_parallelism"))

    def _run(self, method, context, value, timestamp):
        context._timestamp = timestamp
        self._emit(method(value, context), timestamp)


class CoProcessOperator(_TwoInputOperator):
    """Runs a CoProcessFunction (CoMap / CoFlatMap / CoProcess) on two non-keyed inputs."""

    keyed = False

    def __init__(self, function, **kwargs):
        super(CoProcessOperator, self).__init__(function, **kwargs)
        self._ctx = _CoProcessContext(self, timers=_NonKeyedTimers(self))

    def process_input(self, side: int, records) -> None:
        method = self.function.process_element1 if side == 1 else self.function.process_element2
        for _, value, timestamp in records:
            self._run(method, self._ctx, value, NO_TIMESTAMP if timestamp is None else timestamp)


class _BroadcastOperator(_TwoInputOperator):
    """The broadcast side writes the broadcast states; the other side reads them."""

    def __init__(self, spec, **kwargs):
        super(_BroadcastOperator, self).__init__(spec.function, **kwargs)
        self.states = _BroadcastStates(spec.descriptors)
        self._broadcast_ctx = _BroadcastContext(self, self.states, writable=True)

    def process_input(self, side: int, records) -> None:
        if side == 2:
            method = self.function.process_broadcast_element
            for _, value, timestamp in records:
                self._run(method, self._broadcast_ctx, value, NO_TIMESTAMP if timestamp is None else timestamp)
            return
        self._process_records(records)

    def _process_records(self, records):
        raise NotImplementedError

    def _snapshot_extra(self):
        return {"broadcast": self.states.entries}

    def _restore_extra(self, obj):
        # In place: a restore may come after open(), into an operator that processed other batches.
        restored = (obj or {}).get("broadcast", {})
        for name in self.states.declared:
            entries = self.states.entries[name]
            entries.clear()
            entries.update(restored.get(name, {}))


class BroadcastProcessOperator(_BroadcastOperator):
    """Runs a BroadcastProcessFunction: a non-keyed stream connected with a broadcast stream."""

    keyed = False

    def __init__(self, spec, **kwargs):
        super(BroadcastProcessOperator, self).__init__(spec, **kwargs)
        self._read_ctx = _ReadOnlyContext(self, self.states)

    def _process_records(self, records):
        method = self.function.process_element
        for _, value, timestamp in records:
            self._run(method, self._read_ctx, value, NO_TIMESTAMP if timestamp is None else timestamp)


class KeyedBroadcastProcessOperator(_BroadcastOperator):
    """Runs a KeyedBroadcastProcessFunction: keyed state and timers on the keyed side, broadcast state."""

    def __init__(self, spec, **kwargs):
        super(KeyedBroadcastProcessOperator, self).__init__(spec, **kwargs)
        timers = _TimerServiceImpl(self.timer_service)
        self._read_ctx = _ReadOnlyContext(self, self.states, timers=timers)
        self._timer_ctx = _ReadOnlyContext(self, self.states, timers=timers)

    def _process_records(self, records):
        backend, method, ctx = self.backend, self.function.process_element, self._read_ctx
        for key, value, timestamp in records:
            backend.set_current_key(key)
            self._run(method, ctx, value, NO_TIMESTAMP if timestamp is None else timestamp)

    def _on_event_time(self, timer):
        call_on_timer(self, self._timer_ctx, timer, TimeDomain.EVENT_TIME)

    def _on_processing_time(self, timer):
        call_on_timer(self, self._timer_ctx, timer, TimeDomain.PROCESSING_TIME)

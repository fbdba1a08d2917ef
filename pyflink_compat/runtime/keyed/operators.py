"""Keyed operators: the common driver (:class:`KeyedOperator`) and :class:`KeyedProcessOperator`.

How a caller drives an operator (one instance per keyed subtask)::

    op = KeyedProcessOperator(my_keyed_process_function, output=collector, clock=clock)
    op.restore(saved_bytes)                    # optional: state of the previous batch
    op.open()
    for key, value, timestamp in records:      # in order; watermarks in between
        op.process_element(key, value, timestamp)
    op.advance_watermark(watermark)            # fires due event-time timers
    op.advance_processing_time()               # fires due processing-time timers (clock or now=)
    op.end_input()                             # bounded input: the final MAX watermark
    saved_bytes = op.snapshot()
    op.close()

Outputs go to ``output.collect(value, timestamp)`` and side outputs to
``output.collect_side(tag_id, value, timestamp)``, called synchronously as the user
function yields each result (so a collector that encodes at once never sees a value
the function mutates later). Output timestamps follow PyFlink: the element's timestamp
for results of ``process_element``, the timer's timestamp for results of ``on_timer``.
A record without timestamp (None) gets PyFlink's Long.MIN_VALUE, so outputs carry
``NO_TIMESTAMP`` (-2**63) for "no timestamp". ``pyflink_timers`` / ``pyflink_merge`` choose
PyFlink's behaviour where it differs from Flink's Java operators (see timers.py and
state_backend.py); both default to True. ``apply_ttl`` (default True: Flink's TTL) can be
turned off to reproduce PyFlink's cached state, which ignores TTL (see state_backend.py).

Side outputs are PyFlink's ``yield output_tag, value``: with ``has_side_output`` (the
default; PyFlink sets it when the stream's side output is used) a tuple whose first item
is an ``OutputTag`` goes to the side output named by its tag id, otherwise it is an
ordinary result.
"""
from pyflink_compat.datastream.functions import (KeyedProcessFunction, SimpleRuntimeContext)
from pyflink_compat.datastream.output_tag import OutputTag
from pyflink_compat.datastream.time_domain import TimeDomain
from pyflink_compat.datastream.timerservice import TimerService
from pyflink_compat.runtime.keyed.keys import key_identity
from pyflink_compat.runtime.keyed.state_backend import (VOID_NAMESPACE, KeyedStateBackend, dumps,
                                                        loads, system_clock)
from pyflink_compat.runtime.keyed.timers import MAX_WATERMARK, MIN_WATERMARK, InternalTimerService

__all__ = ['KeyedOperator', 'ForwardingOperator', 'UserFunctionOperator', 'KeyedProcessOperator', 'KeyedCoProcessOperator', 'ListCollector',
           'KeyedRuntimeContext']

_SNAPSHOT_VERSION = 1

NO_TIMESTAMP = MIN_WATERMARK     # what PyFlink gives a record without timestamp: Long.MIN_VALUE


class ListCollector(object):
    """A collector that keeps outputs in lists: ``records`` = [(value, timestamp)],
    ``side`` = [(tag_id, value, timestamp)]. With ``copy_values`` each value is deep-copied
    when collected (use it when a function may mutate a value it already emitted)."""

    def __init__(self, copy_values: bool = False):
        self.records = []
        self.side = []
        self._copy = copy_values

    def collect(self, value, timestamp):
        if self._copy:
            import copy
            value = copy.deepcopy(value)
        self.records.append((value, timestamp))

    def collect_side(self, tag_id, value, timestamp):
        if self._copy:
            import copy
            value = copy.deepcopy(value)
        self.side.append((tag_id, value, timestamp))

    def values(self):
        return [v for v, _ in self.records]

    def side_values(self, tag_id):
        return [v for t, v, _ in self.side if t == tag_id]

    def clear(self):
        self.records = []
        self.side = []


class KeyedRuntimeContext(SimpleRuntimeContext):
    """The RuntimeContext of a keyed operator: keyed state from the operator's backend
    (in the void namespace)."""

    def __init__(self, backend: KeyedStateBackend, *args, **kwargs):
        super(KeyedRuntimeContext, self).__init__(*args, **kwargs)
        self._backend = backend

    def _state(self, descriptor):
        state = self._backend.get_state(descriptor)
        state.set_current_namespace(VOID_NAMESPACE)
        return state

    def get_state(self, state_descriptor):
        return self._state(state_descriptor)

    def get_list_state(self, state_descriptor):
        return self._state(state_descriptor)

    def get_map_state(self, state_descriptor):
        return self._state(state_descriptor)

    def get_reducing_state(self, state_descriptor):
        return self._state(state_descriptor)

    def get_aggregating_state(self, state_descriptor):
        return self._state(state_descriptor)


KeyedRuntimeContext.__name__ = KeyedRuntimeContext.__qualname__ = "StreamingRuntimeContext"   # as PyFlink's


class KeyedOperator(object):
    """What every keyed operator shares: state backend, timers, output, driving and snapshots.

    Subclasses implement ``open``, ``close``, ``_process(value, timestamp)`` (current key
    set), ``_on_event_time(timer)`` and ``_on_processing_time(timer)`` (current key set),
    and may add operator fields to snapshots with ``_snapshot_extra`` / ``_restore_extra``.
    """

    def __init__(self, output=None, clock=None, has_side_output: bool = True,
                 pyflink_timers: bool = True, pyflink_merge: bool = True, apply_ttl: bool = True,
                 key_identity_fn=key_identity, task_name: str = "KEYED PROCESS",
                 subtask_index: int = 0, parallelism: int = 1, max_parallelism: int = None,
                 job_parameters=None):
        self.output = output if output is not None else ListCollector()
        self.clock = clock if clock is not None else system_clock
        self.has_side_output = has_side_output
        self.backend = KeyedStateBackend(clock=self.clock, key_identity_fn=key_identity_fn,
                                         pyflink_merge=pyflink_merge, apply_ttl=apply_ttl)
        self.timer_service = InternalTimerService(self.backend, clock=self.clock,
                                                  pyflink_timers=pyflink_timers)
        self.timer_service.on_event_time = self._fire_event_time
        self.timer_service.on_processing_time = self._fire_processing_time
        self.runtime_context = KeyedRuntimeContext(
            self.backend, task_name, subtask_index, parallelism, job_parameters=job_parameters,
            max_parallelism=max_parallelism)

    # lifecycle (subclasses) ------------------------------------------------------------------

    def open(self):
        pass

    def close(self):
        pass

    # driving ---------------------------------------------------------------------------------

    def set_current_key(self, key) -> None:
        self.backend.set_current_key(key)

    def get_current_key(self):
        return self.backend.get_current_key()

    def process_element(self, key, value, timestamp=None) -> None:
        """Processes one record of ``key`` (sets the current key first). A record without
        timestamp (None) has PyFlink's Long.MIN_VALUE (``ctx.timestamp()`` returns it and
        the outputs carry it)."""
        self.backend.set_current_key(key)
        self._process(value, NO_TIMESTAMP if timestamp is None else timestamp)

    def process_elements(self, records) -> None:
        """Processes (key, value, timestamp) records in order."""
        backend = self.backend
        process = self._process
        for key, value, timestamp in records:
            backend.set_current_key(key)
            process(value, NO_TIMESTAMP if timestamp is None else timestamp)

    def process_input(self, side: int, records) -> None:
        """Processes (key, value, timestamp) records of one input (0: a one-input operator; 1 or 2: the
        input of a two-input operator)."""
        self.process_elements(records)

    def advance_watermark(self, watermark: int) -> None:
        """A watermark arrived: fires the due event-time timers (in timestamp order)."""
        self.timer_service.advance_watermark(watermark)

    def advance_processing_time(self, now: int = None) -> None:
        """Fires the processing-time timers due at ``now`` (default: the clock)."""
        self.timer_service.advance_processing_time(now)

    def end_input(self) -> None:
        """End of a bounded input: the final MAX watermark fires every event-time timer."""
        self.advance_watermark(MAX_WATERMARK)

    def current_watermark(self) -> int:
        return self.timer_service.current_watermark()

    def current_processing_time(self) -> int:
        return self.timer_service.current_processing_time()

    def _fire_event_time(self, timer):
        self.backend.set_current_key_with_id(timer.key, timer.key_id)
        self._on_event_time(timer)

    def _fire_processing_time(self, timer):
        self.backend.set_current_key_with_id(timer.key, timer.key_id)
        self._on_processing_time(timer)

    def _process(self, value, timestamp):
        raise NotImplementedError

    def _on_event_time(self, timer):
        pass

    def _on_processing_time(self, timer):
        pass

    # output ----------------------------------------------------------------------------------

    def _emit(self, results, timestamp) -> None:
        """Sends a user function's results (an iterable or None) to the output, as PyFlink."""
        if not results:
            return
        output = self.output
        if self.has_side_output:
            for result in results:
                if isinstance(result, tuple) and len(result) > 0 and isinstance(result[0], OutputTag):
                    output.collect_side(result[0].tag_id, result[1], timestamp)
                else:
                    output.collect(result, timestamp)
        else:
            for result in results:
                output.collect(result, timestamp)

    # snapshots -------------------------------------------------------------------------------

    def snapshot(self) -> bytes:
        """The operator's whole state (keyed state, timers, watermark) as bytes."""
        return dumps({'v': _SNAPSHOT_VERSION,
                      'state': self.backend.snapshot_object(),
                      'timers': self.timer_service.snapshot_object(),
                      'extra': self._snapshot_extra()})

    def restore(self, data: bytes) -> None:
        """Loads a snapshot (before or after ``open``)."""
        obj = loads(data)
        self.backend.restore_object(obj['state'])
        self.timer_service.restore_object(obj['timers'])
        self._restore_extra(obj.get('extra'))

    def _snapshot_extra(self):
        return None

    def _restore_extra(self, obj):
        pass


# ---------------------------------------------------------------------------------------------
# KeyedProcessFunction
# ---------------------------------------------------------------------------------------------

class _TimerServiceImpl(TimerService):
    """The TimerService a KeyedProcessFunction sees (void namespace, current key)."""

    def __init__(self, internal: InternalTimerService):
        self._internal = internal

    def current_processing_time(self):
        return self._internal.current_processing_time()

    def current_watermark(self):
        return self._internal.current_watermark()

    def register_processing_time_timer(self, timestamp: int):
        self._internal.register_processing_time_timer(VOID_NAMESPACE, timestamp)

    def register_event_time_timer(self, timestamp: int):
        self._internal.register_event_time_timer(VOID_NAMESPACE, timestamp)

    def delete_processing_time_timer(self, timestamp: int):
        self._internal.delete_processing_time_timer(VOID_NAMESPACE, timestamp)

    def delete_event_time_timer(self, timestamp: int):
        self._internal.delete_event_time_timer(VOID_NAMESPACE, timestamp)


class _KeyedProcessContext(KeyedProcessFunction.Context):

    def __init__(self, timer_service: TimerService, backend: KeyedStateBackend):
        self._timer_service = timer_service
        self._backend = backend
        self._timestamp = None

    def get_current_key(self):
        return self._backend.get_current_key()

    def timer_service(self) -> TimerService:
        return self._timer_service

    def timestamp(self) -> int:
        return self._timestamp


class _KeyedProcessOnTimerContext(_KeyedProcessContext, KeyedProcessFunction.OnTimerContext):

    def __init__(self, timer_service: TimerService, backend: KeyedStateBackend):
        super().__init__(timer_service, backend)
        self._time_domain = None

    def time_domain(self) -> TimeDomain:
        return self._time_domain


def call_on_timer(operator: KeyedOperator, ctx, timer, domain) -> None:
    """A timer fired: the function's ``on_timer`` with the timer's timestamp and domain in its context."""
    ctx._timestamp = timer.timestamp
    ctx._time_domain = domain
    operator._emit(operator.function.on_timer(timer.timestamp, ctx), timer.timestamp)


class ForwardingOperator(KeyedOperator):
    """The parallel instance a custom partitioning sends elements to: it hands them on as they are."""

    def process_input(self, side: int, records) -> None:
        collect = self.output.collect
        for _, value, timestamp in records:
            collect(value, NO_TIMESTAMP if timestamp is None else timestamp)


class UserFunctionOperator(KeyedOperator):
    """An operator running one user function: opened and closed with the operator."""

    def __init__(self, function, **kwargs):
        super(UserFunctionOperator, self).__init__(**kwargs)
        self.function = function

    def open(self):
        if hasattr(self.function, 'open'):
            self.function.open(self.runtime_context)

    def close(self):
        if hasattr(self.function, 'close'):
            self.function.close()


class KeyedProcessOperator(UserFunctionOperator):
    """Runs a ``KeyedProcessFunction`` (``KeyedStream.process``)."""

    def __init__(self, function: KeyedProcessFunction, **kwargs):
        super(KeyedProcessOperator, self).__init__(function, **kwargs)
        timer_service = _TimerServiceImpl(self.timer_service)
        self._ctx = _KeyedProcessContext(timer_service, self.backend)
        self._on_timer_ctx = _KeyedProcessOnTimerContext(timer_service, self.backend)

    def _process(self, value, timestamp):
        self._ctx._timestamp = timestamp
        self._emit(self.function.process_element(value, self._ctx), timestamp)

    def _on_timer(self, timer, domain):
        call_on_timer(self, self._on_timer_ctx, timer, domain)

    def _on_event_time(self, timer):
        self._on_timer(timer, TimeDomain.EVENT_TIME)

    def _on_processing_time(self, timer):
        self._on_timer(timer, TimeDomain.PROCESSING_TIME)


# ---------------------------------------------------------------------------------------------
# KeyedCoProcessFunction (two keyed inputs sharing key, state and timers)
# ---------------------------------------------------------------------------------------------

class KeyedCoProcessOperator(KeyedProcessOperator):
    """Runs a ``KeyedCoProcessFunction`` (``ConnectedStreams.key_by(...).process``): records of
    the first input go to ``process_element1(key, value, ts)``, of the second to
    ``process_element2``; state, timers and contexts are shared as in PyFlink.

    A function of our own SQL operators may give its results' timestamps (``output_timestamp(result, ts)``):
    an interval join's rows carry their rowtime column as a time attribute, whichever input joined them."""

    def __init__(self, function, **kwargs):
        super(KeyedCoProcessOperator, self).__init__(function, **kwargs)
        self._output_timestamp = getattr(function, "output_timestamp", None)

    def _emit(self, results, timestamp) -> None:
        stamp = self._output_timestamp
        if stamp is None or not results:
            return super(KeyedCoProcessOperator, self)._emit(results, timestamp)
        for result in results:
            self.output.collect(result, stamp(result, timestamp))

    def process_element1(self, key, value, timestamp=None) -> None:
        self.backend.set_current_key(key)
        timestamp = NO_TIMESTAMP if timestamp is None else timestamp
        self._ctx._timestamp = timestamp
        self._emit(self.function.process_element1(value, self._ctx), timestamp)

    def process_element2(self, key, value, timestamp=None) -> None:
        self.backend.set_current_key(key)
        timestamp = NO_TIMESTAMP if timestamp is None else timestamp
        self._ctx._timestamp = timestamp
        self._emit(self.function.process_element2(value, self._ctx), timestamp)

    def process_element(self, key, value, timestamp=None) -> None:
        raise TypeError("a KeyedCoProcessOperator takes process_element1 / process_element2")

    def process_input(self, side: int, records) -> None:
        process = self.process_element1 if side == 1 else self.process_element2
        for key, value, timestamp in records:
            process(key, value, timestamp)

    def process_elements(self, records) -> None:
        """Processes (input, key, value, timestamp) records in order; input is 1 or 2."""
        for side, key, value, timestamp in records:
            if side == 1:
                self.process_element1(key, value, timestamp)
            else:
                self.process_element2(key, value, timestamp)

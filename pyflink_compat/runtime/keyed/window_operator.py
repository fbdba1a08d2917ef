"""The window operator (``KeyedStream.window(...)`` / ``count_window`` / ``window_all``).

It follows PyFlink 2.3.0's Python window operator, which is what runs a PyFlink window job
(checked against real PyFlink: see tests/unit/test_keyed_window.py):

- each element is assigned windows; for merging assigners (sessions) the new window is
  merged with the key's in-flight windows (:class:`MergingWindowSet`), the merged windows'
  contents, trigger state and timers are combined;
- a window whose cleanup time (``max_timestamp + allowed_lateness`` for event time,
  ``max_timestamp`` for processing time) is ``<=`` the watermark is late: the element is
  not added to it; an element added to no window that is itself late
  (``timestamp + allowed_lateness <= watermark``) goes to the late-data side output when
  one is set, else it is dropped (and counted in ``num_late_records_dropped``);
- the trigger decides firing and purging (the assigner's default trigger unless given);
  with the event-time trigger a window fires when the watermark reaches its
  ``max_timestamp``, and an element arriving within the allowed lateness fires it again
  at once;
- a cleanup timer at the cleanup time clears the window's state;
- output timestamps are PyFlink's: results of a firing caused by a timer carry the timer's
  timestamp (``window.max_timestamp()`` for the event-time trigger), results of a firing
  caused by an element (late firing, count triggers) and late side outputs carry the
  element's timestamp.

Window functions are InternalWindowFunctions from ``pyflink_compat.datastream.functions``
(the ``Internal*WindowFunction`` wrappers); :func:`window_operation_descriptor` builds the
descriptor exactly as PyFlink's ``WindowedStream.reduce/aggregate/apply/process`` do.
"""
from typing import Optional

from pyflink_compat.common.typeinfo import Types
from pyflink_compat.datastream.functions import (AggregateFunction, AllWindowFunction,
                                                 InternalIterableAllWindowFunction,
                                                 InternalIterableProcessAllWindowFunction,
                                                 InternalIterableProcessWindowFunction,
                                                 InternalIterableWindowFunction,
                                                 InternalSingleValueAllWindowFunction,
                                                 InternalSingleValueProcessAllWindowFunction,
                                                 InternalSingleValueProcessWindowFunction,
                                                 InternalSingleValueWindowFunction,
                                                 InternalWindowFunction, KeyedStateStore,
                                                 PassThroughAllWindowFunction,
                                                 PassThroughWindowFunction,
                                                 ProcessAllWindowFunction, ProcessWindowFunction,
                                                 ReduceFunction,
                                                 WindowFunction)
from pyflink_compat.datastream.output_tag import OutputTag
from pyflink_compat.datastream.state import (AggregatingStateDescriptor, ListState,
                                             ListStateDescriptor, MapStateDescriptor,
                                             ReducingStateDescriptor)
from pyflink_compat.datastream.window import (MergingWindowAssigner, TimeWindow, Trigger,
                                              WindowAssigner, WindowOperationDescriptor)
from pyflink_compat.runtime.keyed.operators import KeyedOperator
from pyflink_compat.runtime.keyed.timers import MAX_WATERMARK

__all__ = ['WindowOperator', 'MergingWindowSet', 'window_operation_descriptor',
           'WINDOW_STATE_NAME', 'ALL_WINDOW_KEY']

WINDOW_STATE_NAME = "window-contents"
MERGING_WINDOW_SET_NAME = "merging-window-set"
ALL_WINDOW_KEY = 0            # window_all: every element has this key (NullByteKeySelector)


# ---------------------------------------------------------------------------------------------
# Merging window set
# ---------------------------------------------------------------------------------------------

def _pyflink_mod_inverse(x: int) -> int:
    inverse = x * x * x
    for _ in range(3):
        inverse *= 2 - x * inverse
    return inverse


class _HashedAsPyFlink(object):
    """A TimeWindow with PyFlink's TimeWindow hash, so that a set of them iterates in the
    same order as PyFlink's sets of windows (that order decides which window's state is kept
    and the order contents are merged in)."""

    __slots__ = ('window', '_hash')

    def __init__(self, window):
        self.window = window
        self._hash = window.start + _pyflink_mod_inverse((window.end << 1) + 1)

    def __hash__(self):
        return self._hash

    def __eq__(self, other):
        return self.window == other.window


def _as_pyflink_set_order(windows):
    """The windows in the order PyFlink's ``set`` of them (filled in sorted order) iterates."""
    windows = list(windows)
    if not all(type(w) is TimeWindow for w in windows):
        unique = []
        for w in windows:
            if w not in unique:
                unique.append(w)
        return unique
    ordered = sorted(windows, key=lambda w: (w.start, w.end))
    return [h.window for h in set(_HashedAsPyFlink(w) for w in ordered)]


class _MergeResults(MergingWindowAssigner.MergeCallback):
    """Collects the assigner's merges: {merge result: merged windows in PyFlink's order}."""

    def __init__(self, results):
        self._results = results

    def merge(self, to_be_merged, merge_result):
        members = _as_pyflink_set_order(to_be_merged)
        if len(members) > 1:        # PyFlink's sets: a duplicate is no merge
            self._results[merge_result] = members


class MergingWindowSet(object):
    """The key's in-flight windows of a merging assigner, each mapped to the window whose
    namespace holds its state (kept across merges, so that state need not be moved).

    ``mapping`` is persisted in a map state of the operator's backend.
    """

    def __init__(self, assigner: MergingWindowAssigner, state):
        self._assigner = assigner
        self._state = state
        self.mapping = dict(state.items())
        self._initial = dict(self.mapping)

    def persist(self) -> None:
        if self.mapping != self._initial:
            self._state.clear()
            if self.mapping:
                self._state.put_all(self.mapping)

    def get_state_window(self, window):
        return self.mapping.get(window)

    def retire_window(self, window) -> None:
        if window not in self.mapping:
            raise Exception("Window %s is not in in-flight window set." % window)
        del self.mapping[window]

    def add_window(self, new_window, merge_function):
        """Adds ``new_window``, merging it with in-flight windows as the assigner says; calls
        ``merge_function(merge_result, merged_windows, state_window, merged_state_windows)``
        for each merge and returns the window ``new_window`` ended up in."""
        merge_results = {}
        candidates = list(self.mapping.keys())
        candidates.append(new_window)
        self._assigner.merge_windows(candidates, _MergeResults(merge_results))

        result_window = new_window
        merged_new_window = False
        for merge_result, merged_windows in merge_results.items():
            if new_window in merged_windows:
                merged_new_window = True
                merged_windows.remove(new_window)
                result_window = merge_result
            kept_state_window = self.mapping[merged_windows[0]]
            merged_state_windows = []
            for window in merged_windows:
                if window in self.mapping:
                    merged_state_windows.append(self.mapping.pop(window))
            self.mapping[merge_result] = kept_state_window
            merged_state_windows.remove(kept_state_window)
            if merge_result not in merged_windows or len(merged_windows) != 1:
                merge_function(merge_result, merged_windows, kept_state_window,
                               merged_state_windows)
        if not merge_results or (result_window == new_window and not merged_new_window):
            self.mapping[result_window] = result_window
        return result_window


# ---------------------------------------------------------------------------------------------
# Contexts
# ---------------------------------------------------------------------------------------------

class _PerWindowStateStore(KeyedStateStore):
    """``window_state()``: keyed state scoped to the window being evaluated."""

    def __init__(self, backend):
        self._backend = backend
        self.window = None

    def _scoped(self, descriptor):
        state = self._backend.get_state(descriptor)
        state.set_current_namespace(self.window)
        return state

    get_state = get_list_state = get_map_state = _scoped
    get_reducing_state = get_aggregating_state = _scoped


class _MergingWindowStateStore(KeyedStateStore):
    def _refuse(self, descriptor):
        raise Exception("Per-window state is not allowed when using merging windows.")

    get_state = get_list_state = get_map_state = _refuse
    get_reducing_state = get_aggregating_state = _refuse


class _TriggerContext(Trigger.OnMergeContext):

    def __init__(self, operator: 'WindowOperator'):
        self._op = operator
        self._timers = operator.timer_service
        self.window = None
        self.merged_windows = None

    def get_current_processing_time(self) -> int:
        return self._timers.current_processing_time()

    def get_metric_group(self):
        return self._op.runtime_context.get_metrics_group()

    def get_current_watermark(self) -> int:
        return self._timers.current_watermark()

    def register_processing_time_timer(self, time: int) -> None:
        self._timers.register_processing_time_timer(self.window, time)

    def register_event_time_timer(self, time: int) -> None:
        self._timers.register_event_time_timer(self.window, time)

    def delete_processing_time_timer(self, time: int) -> None:
        self._timers.delete_processing_time_timer(self.window, time)

    def delete_event_time_timer(self, time: int) -> None:
        self._timers.delete_event_time_timer(self.window, time)

    def get_partitioned_state(self, state_descriptor):
        state = self._op.backend.get_state(state_descriptor)
        state.set_current_namespace(self.window)
        return state

    def merge_partitioned_state(self, state_descriptor) -> None:
        if self.merged_windows:
            state = self._op.backend.get_state(state_descriptor)
            if not hasattr(state, 'merge_namespaces'):
                raise Exception("The given state descriptor does not refer to a mergeable state "
                                "(MergingState)")
            state.merge_namespaces(self.window, self.merged_windows)


class _WindowContext(InternalWindowFunction.InternalWindowContext):

    def __init__(self, operator: 'WindowOperator', merging: bool):
        self._op = operator
        self._timers = operator.timer_service
        self.window = None
        self._window_state = (_MergingWindowStateStore() if merging
                              else _PerWindowStateStore(operator.backend))

    def current_processing_time(self) -> int:
        return self._timers.current_processing_time()

    def current_watermark(self) -> int:
        return self._timers.current_watermark()

    def window_state(self) -> KeyedStateStore:
        self._window_state.window = self.window
        return self._window_state

    def global_state(self) -> KeyedStateStore:
        return self._op.runtime_context


class _AssignerContext(WindowAssigner.WindowAssignerContext):

    def __init__(self, operator: 'WindowOperator'):
        self._op = operator

    def get_current_processing_time(self) -> int:
        return self._op.timer_service.current_processing_time()

    def get_runtime_context(self):
        return self._op.runtime_context


# ---------------------------------------------------------------------------------------------
# The operator
# ---------------------------------------------------------------------------------------------

class WindowOperator(KeyedOperator):
    """Runs a window operation (a ``WindowOperationDescriptor``) for one keyed subtask.

    ``num_late_records_dropped`` counts the late elements dropped (no late-data tag).
    """

    def __init__(self, descriptor: WindowOperationDescriptor, **kwargs):
        kwargs.setdefault('task_name', "Window(%s)" % type(descriptor.assigner).__name__)
        super(WindowOperator, self).__init__(**kwargs)
        self.assigner = descriptor.assigner
        self.trigger = descriptor.trigger
        self.allowed_lateness = descriptor.allowed_lateness or 0
        self.late_data_output_tag = descriptor.late_data_output_tag
        self.window_state_descriptor = descriptor.window_state_descriptor
        self.window_function = descriptor.internal_window_function
        self.is_event_time = self.assigner.is_event_time()
        self.merging = isinstance(self.assigner, MergingWindowAssigner)
        self.num_late_records_dropped = 0
        self._trigger_ctx = _TriggerContext(self)
        self._process_ctx = _WindowContext(self, self.merging)
        self._assigner_ctx = _AssignerContext(self)
        self.window_state = self.backend.get_state(self.window_state_descriptor)
        self._list_contents = isinstance(self.window_state, ListState)
        if self.merging:
            self._merging_sets_state = self.backend.get_state(MapStateDescriptor(
                MERGING_WINDOW_SET_NAME, Types.PICKLED_BYTE_ARRAY(), Types.PICKLED_BYTE_ARRAY()))
        else:
            self._merging_sets_state = None

    def open(self):
        self.window_function.open(self.runtime_context)

    def close(self):
        self.window_function.close()

    # elements --------------------------------------------------------------------------------

    def _process(self, value, timestamp):
        windows = self.assigner.assign_windows(value, timestamp, self._assigner_ctx)
        skipped = True
        trigger_ctx = self._trigger_ctx
        state = self.window_state
        if self.merging:
            merging_windows = self._merging_window_set()
            for window in windows:
                actual_window = merging_windows.add_window(window, self._merge)
                if self._is_window_late(actual_window):
                    merging_windows.retire_window(actual_window)
                    continue
                skipped = False
                state_window = merging_windows.get_state_window(actual_window)
                if state_window is None:
                    raise Exception("Window %s is not in in-flight window set." % state_window)
                state.set_current_namespace(state_window)
                state.add(value)
                trigger_ctx.window = actual_window
                result = self.trigger.on_element(value, timestamp, actual_window, trigger_ctx)
                if result.is_fire():
                    contents = self._contents()
                    if contents is None:
                        continue
                    self._emit_window(actual_window, contents, timestamp)
                if result.is_purge():
                    state.clear()
                self._register_cleanup_timer(actual_window)
            merging_windows.persist()
        else:
            for window in windows:
                if self._is_window_late(window):
                    continue
                skipped = False
                state.set_current_namespace(window)
                state.add(value)
                trigger_ctx.window = window
                result = self.trigger.on_element(value, timestamp, window, trigger_ctx)
                if result.is_fire():
                    contents = self._contents()
                    if contents is None:
                        continue
                    self._emit_window(window, contents, timestamp)
                if result.is_purge():
                    state.clear()
                self._register_cleanup_timer(window)

        if skipped and self._is_element_late(timestamp):
            if self.late_data_output_tag is not None:
                self._emit(((self.late_data_output_tag, value),), timestamp)
            else:
                self.num_late_records_dropped += 1

    # timers ----------------------------------------------------------------------------------

    def _on_event_time(self, timer):
        self._on_timer(timer, True)

    def _on_processing_time(self, timer):
        self._on_timer(timer, False)

    def _on_timer(self, timer, event_time: bool):
        window = timer.namespace
        trigger_ctx = self._trigger_ctx
        trigger_ctx.window = window
        state = self.window_state
        if self.merging:
            merging_windows = self._merging_window_set()
            state_window = merging_windows.get_state_window(window)
            if state_window is None:
                return
            state.set_current_namespace(state_window)
        else:
            merging_windows = None
            state.set_current_namespace(window)

        if event_time:
            result = self.trigger.on_event_time(timer.timestamp, window, trigger_ctx)
        else:
            result = self.trigger.on_processing_time(timer.timestamp, window, trigger_ctx)
        if result.is_fire():
            contents = self._contents()
            if contents is not None:
                self._emit_window(window, contents, timer.timestamp)
        if result.is_purge():
            state.clear()
        if self.is_event_time == event_time and timer.timestamp == self._cleanup_time(window):
            self._clear_all_state(window, merging_windows)
        if merging_windows is not None:
            merging_windows.persist()

    # helpers ---------------------------------------------------------------------------------

    def _merging_window_set(self) -> MergingWindowSet:
        self._merging_sets_state.set_current_namespace(None)
        return MergingWindowSet(self.assigner, self._merging_sets_state)

    def _merge(self, merge_result, merged_windows, state_window_result, merged_state_windows):
        timers = self.timer_service
        if self.is_event_time:
            if merge_result.max_timestamp() + self.allowed_lateness <= timers.current_watermark():
                raise Exception(
                    "The end timestamp of an event-time window cannot become earlier than the "
                    "current watermark by merging. Current watermark: %d window: %s"
                    % (timers.current_watermark(), merge_result))
        else:
            now = timers.current_processing_time()
            if merge_result.max_timestamp() <= now:
                raise Exception(
                    "The end timestamp of a processing-time window cannot become earlier than "
                    "the current processing time by merging. Current processing time: %d "
                    "window: %s" % (now, merge_result))
        ctx = self._trigger_ctx
        ctx.window = merge_result
        ctx.merged_windows = merged_windows
        self.trigger.on_merge(merge_result, ctx)
        for window in merged_windows:
            ctx.window = window
            self.trigger.clear(window, ctx)
            self._delete_cleanup_timer(window)
        self.window_state.merge_namespaces(state_window_result, merged_state_windows)

    def _contents(self):
        contents = self.window_state.get()
        if self._list_contents:
            contents = list(contents)
            if not contents:
                return None
        return contents

    def _emit_window(self, window, contents, timestamp):
        self._process_ctx.window = window
        key = self.backend.get_current_key()
        self._emit(self.window_function.process(key, window, self._process_ctx, contents),
                   timestamp)

    def _cleanup_time(self, window) -> int:
        if self.is_event_time:
            time = window.max_timestamp() + self.allowed_lateness
            return time if time >= window.max_timestamp() else MAX_WATERMARK
        return window.max_timestamp()

    def _register_cleanup_timer(self, window) -> None:
        time = self._cleanup_time(window)
        if time >= MAX_WATERMARK:
            return
        if self.is_event_time:
            self._trigger_ctx.register_event_time_timer(time)
        else:
            self._trigger_ctx.register_processing_time_timer(time)

    def _delete_cleanup_timer(self, window) -> None:
        time = self._cleanup_time(window)
        if time >= MAX_WATERMARK:
            return
        if self.is_event_time:
            self._trigger_ctx.delete_event_time_timer(time)
        else:
            self._trigger_ctx.delete_processing_time_timer(time)

    def _is_window_late(self, window) -> bool:
        return (self.is_event_time
                and self._cleanup_time(window) <= self.timer_service.current_watermark())

    def _is_element_late(self, timestamp) -> bool:
        return (self.is_event_time
                and timestamp + self.allowed_lateness <= self.timer_service.current_watermark())

    def _clear_all_state(self, window, merging_windows) -> None:
        self.window_state.clear()
        self._trigger_ctx.window = window
        self.trigger.clear(window, self._trigger_ctx)
        self._process_ctx.window = window
        self.window_function.clear(window, self._process_ctx)
        if merging_windows is not None:
            merging_windows.retire_window(window)
            merging_windows.persist()

    def _snapshot_extra(self):
        return {'late_dropped': self.num_late_records_dropped}

    def _restore_extra(self, obj):
        if obj:
            self.num_late_records_dropped = obj.get('late_dropped', 0)


# ---------------------------------------------------------------------------------------------
# Building descriptors as PyFlink's WindowedStream / AllWindowedStream do
# ---------------------------------------------------------------------------------------------

def window_operation_descriptor(assigner: WindowAssigner, kind: str, function,
                                window_function=None, trigger: Optional[Trigger] = None,
                                allowed_lateness: int = 0,
                                late_data_output_tag: Optional[OutputTag] = None,
                                input_type=None, accumulator_type=None,
                                all_window: bool = False, env=None) -> WindowOperationDescriptor:
    """The WindowOperationDescriptor of ``WindowedStream.<kind>(function, window_function)``
    (or of ``AllWindowedStream`` with ``all_window``); ``kind`` is 'reduce', 'aggregate',
    'apply' or 'process'."""
    if all_window:
        single = {AllWindowFunction: InternalSingleValueAllWindowFunction,
                  ProcessAllWindowFunction: InternalSingleValueProcessAllWindowFunction}
        iterable = {AllWindowFunction: InternalIterableAllWindowFunction,
                    ProcessAllWindowFunction: InternalIterableProcessAllWindowFunction}
        pass_through = InternalSingleValueAllWindowFunction(PassThroughAllWindowFunction())
    else:
        single = {WindowFunction: InternalSingleValueWindowFunction,
                  ProcessWindowFunction: InternalSingleValueProcessWindowFunction}
        iterable = {WindowFunction: InternalIterableWindowFunction,
                    ProcessWindowFunction: InternalIterableProcessWindowFunction}
        pass_through = InternalSingleValueWindowFunction(PassThroughWindowFunction())

    def wrap(table, func):
        for cls, wrapper in table.items():
            if isinstance(func, cls):
                return wrapper(func)
        if all_window:
            raise TypeError("window_function should be a AllWindowFunction or "
                            "ProcessAllWindowFunction")
        raise TypeError("window_function should be a WindowFunction or ProcessWindowFunction")

    if input_type is None:
        input_type = Types.PICKLED_BYTE_ARRAY()
    if kind == 'reduce':
        internal = pass_through if window_function is None else wrap(single, window_function)
        if not isinstance(function, ReduceFunction):
            if not callable(function):
                raise TypeError("The input must be a ReduceFunction or a callable function!")
        state_descriptor = ReducingStateDescriptor(WINDOW_STATE_NAME, function, input_type)
    elif kind == 'aggregate':
        if not isinstance(function, AggregateFunction):
            raise TypeError("The input must be a pyflink.datastream.functions.AggregateFunction!")
        internal = pass_through if window_function is None else wrap(single, window_function)
        if accumulator_type is None:
            accumulator_type = Types.PICKLED_BYTE_ARRAY()
        elif isinstance(accumulator_type, list):
            accumulator_type = Types.ROW(accumulator_type)
        state_descriptor = AggregatingStateDescriptor(WINDOW_STATE_NAME, function,
                                                      accumulator_type)
    elif kind in ('apply', 'process'):
        internal = wrap(iterable, function)
        state_descriptor = ListStateDescriptor(WINDOW_STATE_NAME, input_type)
    else:
        raise ValueError("unknown window operation %r" % (kind,))
    if trigger is None:
        trigger = assigner.get_default_trigger(env)
    return WindowOperationDescriptor(assigner, trigger, allowed_lateness, late_data_output_tag,
                                     state_descriptor, assigner.get_window_serializer(), internal)

"""Windows, window assigners and triggers (mirror of ``pyflink.datastream.window``).

In PyFlink this module is pure Python, and so is ours: window assignment and
the triggers' decisions follow PyFlink/Flink exactly, e.g. a tumbling window
starts at ``ts - (ts - offset + size) % size`` (Python ``%``), sliding windows
are returned newest first, and an event-time window fires once the watermark
reaches ``end - 1``. Sizes given to the ``of``/``with_gap`` factories are
``Time`` objects (``to_milliseconds()`` is called on them).
"""
import struct
from abc import ABC, abstractmethod
from enum import Enum
from io import BytesIO
from typing import Any, Collection, Generic, Iterable, Optional, TypeVar

from pyflink_compat.common.time import Time
from pyflink_compat.common.typeinfo import Types
from pyflink_compat.datastream.functions import (InternalWindowFunction, ReduceFunction,
                                                 RuntimeContext)
from pyflink_compat.datastream.output_tag import OutputTag
from pyflink_compat.datastream.state import (ReducingState, ReducingStateDescriptor, State,
                                             StateDescriptor, ValueStateDescriptor)

try:  # a common serializer base may be added to pyflink_compat.common later
    from pyflink_compat.common.serializer import TypeSerializer  # type: ignore
except ImportError:  # pragma: no cover - depends on what else exists
    class TypeSerializer(ABC):
        """Writes values of one type to a byte stream and reads them back."""

        def __class_getitem__(cls, item):
            return cls

        @abstractmethod
        def serialize(self, element, stream: BytesIO) -> None:
            pass

        @abstractmethod
        def deserialize(self, stream: BytesIO):
            pass

        def __eq__(self, other):
            return type(self) is type(other)

        def __hash__(self):
            return hash(type(self).__name__)

        def __repr__(self):
            return "%s()" % type(self).__name__

__all__ = ['Window',
           'TimeWindow',
           'CountWindow',
           'GlobalWindow',
           'WindowAssigner',
           'TumblingProcessingTimeWindows',
           'TumblingEventTimeWindows',
           'SlidingProcessingTimeWindows',
           'SlidingEventTimeWindows',
           'ProcessingTimeSessionWindows',
           'EventTimeSessionWindows',
           'DynamicProcessingTimeSessionWindows',
           'DynamicEventTimeSessionWindows',
           'GlobalWindows',
           'MergingWindowAssigner',
           'CountTumblingWindowAssigner',
           'CountSlidingWindowAssigner',
           'TriggerResult',
           'Trigger',
           'EventTimeTrigger',
           'ProcessingTimeTrigger',
           'ContinuousEventTimeTrigger',
           'ContinuousProcessingTimeTrigger',
           'NeverTrigger',
           'PurgingTrigger',
           'CountTrigger',
           'TimeWindowSerializer',
           'CountWindowSerializer',
           'GlobalWindowSerializer',
           'SessionWindowTimeGapExtractor']

MAX_LONG_VALUE = 0x7fffffffffffffff
MIN_LONG_VALUE = -MAX_LONG_VALUE - 1

_MASK64 = 0xffffffffffffffff
_MASK32 = 0xffffffff

_NO_TIMESTAMP_MESSAGE = ("Record has Java Long.MIN_VALUE timestamp (= no timestamp marker). "
                         "Is the time characteristic set to 'ProcessingTime', or did you forget "
                         "to call 'data_stream.assign_timestamps_and_watermarks(...)'?")

T = TypeVar('T')
W = TypeVar('W')
W2 = TypeVar('W2')


def _to_signed(value: int, bits: int) -> int:
    value &= (1 << bits) - 1
    return value - (1 << bits) if value >> (bits - 1) else value


def long_to_int_with_bit_mixing(x: int) -> int:
    """Java's ``MathUtils.longToIntWithBitMixing``: a 64-bit finalizer mix, truncated to int."""
    x &= _MASK64
    x = ((x ^ (x >> 33)) * 0xff51afd7ed558ccd) & _MASK64
    x = ((x ^ (x >> 33)) * 0xc4ceb9fe1a85ec53) & _MASK64
    x = x ^ (x >> 33)
    return _to_signed(x, 32)


def mod_inverse(x: int) -> int:
    """Java's ``MathUtils.modInverse``: the inverse of odd ``x`` modulo 2^32, as a signed int."""
    x &= _MASK32
    inverse = (x * x * x) & _MASK32
    for _ in range(3):  # Newton steps double the number of correct bits each time
        inverse = (inverse * (2 - x * inverse)) & _MASK32
    return _to_signed(inverse, 32)


def _check_timestamp(timestamp) -> None:
    # ``None`` (no timestamp at all) is treated like Java's Long.MIN_VALUE marker.
    if timestamp is None or timestamp <= MIN_LONG_VALUE:
        raise Exception(_NO_TIMESTAMP_MESSAGE)


# ---------------------------------------------------------------------------------------------
# Windows
# ---------------------------------------------------------------------------------------------

class Window(ABC):
    """A finite bucket of elements with a maximum timestamp."""

    @abstractmethod
    def max_timestamp(self) -> int:
        pass


class TimeWindow(Window):
    """The time interval [start, end)."""

    def __init__(self, start: int, end: int):
        super(TimeWindow, self).__init__()
        self.start = start
        self.end = end

    def max_timestamp(self) -> int:
        return self.end - 1

    def intersects(self, other: 'TimeWindow') -> bool:
        """True if the windows overlap or are adjacent."""
        return self.start <= other.end and self.end >= other.start

    def cover(self, other: 'TimeWindow') -> 'TimeWindow':
        """The smallest window containing both."""
        return TimeWindow(min(self.start, other.start), max(self.end, other.end))

    @staticmethod
    def get_window_start_with_offset(timestamp: int, offset: int, window_size: int):
        """Start of the window (of ``window_size``, shifted by ``offset``) containing ``timestamp``."""
        return timestamp - (timestamp - offset + window_size) % window_size

    @staticmethod
    def merge_windows(windows: Iterable['TimeWindow'],
                      callback: 'MergingWindowAssigner.MergeCallback[TimeWindow]') -> None:
        """Merges overlapping windows; calls ``callback.merge(merged, result)`` for each group
        of two or more windows."""
        groups = []  # [cover, [members]]
        for candidate in sorted(windows, key=lambda w: w.start):
            if groups and groups[-1][0].intersects(candidate):
                groups[-1][0] = groups[-1][0].cover(candidate)
                groups[-1][1].append(candidate)
            else:
                groups.append([candidate, [candidate]])
        for merge_result, members in groups:
            if len(members) > 1:
                callback.merge(members, merge_result)

    def __hash__(self):
        return long_to_int_with_bit_mixing(self.start + self.end)

    def __eq__(self, other):
        return (self.__class__ == other.__class__ and self.end == other.end
                and self.start == other.start)

    def __lt__(self, other: 'TimeWindow'):
        if not isinstance(other, TimeWindow):
            raise Exception("Does not support comparison with non-TimeWindow %s" % other)
        return self.start < other.start or (self.start == other.start and self.end < other.end)

    def __le__(self, other: 'TimeWindow'):
        return self.__eq__(other) or self.__lt__(other)

    def __repr__(self):
        return "TimeWindow(start={}, end={})".format(self.start, self.end)


class CountWindow(Window):
    """A count window, identified by a number."""

    def __init__(self, id: int):
        super(CountWindow, self).__init__()
        self.id = id

    def max_timestamp(self) -> int:
        return MAX_LONG_VALUE

    def __hash__(self):
        return long_to_int_with_bit_mixing(self.id)

    def __eq__(self, other):
        return self.__class__ == other.__class__ and self.id == other.id

    def __repr__(self):
        return "CountWindow(id={})".format(self.id)


class GlobalWindow(Window):
    """The single window of GlobalWindows."""

    _instance = None

    def __init__(self):
        super(GlobalWindow, self).__init__()

    @staticmethod
    def get() -> 'GlobalWindow':
        if GlobalWindow._instance is None:
            GlobalWindow._instance = GlobalWindow()
        return GlobalWindow._instance

    def max_timestamp(self) -> int:
        return MAX_LONG_VALUE

    def __eq__(self, other):
        return self.__class__ == other.__class__

    def __hash__(self):
        return 0

    def __repr__(self):
        return "GlobalWindow"


class TimeWindowSerializer(TypeSerializer):
    """Writes a TimeWindow as two big-endian longs (start, end)."""

    def __init__(self):
        super(TimeWindowSerializer, self).__init__()

    def serialize(self, element: TimeWindow, stream: BytesIO) -> None:
        stream.write(struct.pack('>qq', element.start, element.end))

    def deserialize(self, stream: BytesIO) -> TimeWindow:
        start, end = struct.unpack('>qq', stream.read(16))
        return TimeWindow(start, end)


class CountWindowSerializer(TypeSerializer):
    """Writes a CountWindow as one big-endian long (its id)."""

    def __init__(self):
        super(CountWindowSerializer, self).__init__()

    def serialize(self, element: CountWindow, stream: BytesIO) -> None:
        stream.write(struct.pack('>q', element.id))

    def deserialize(self, stream: BytesIO) -> CountWindow:
        return CountWindow(struct.unpack('>q', stream.read(8))[0])


class GlobalWindowSerializer(TypeSerializer):
    """Writes the GlobalWindow as a single zero byte."""

    def __init__(self):
        super(GlobalWindowSerializer, self).__init__()

    def serialize(self, element: GlobalWindow, stream: BytesIO) -> None:
        stream.write(b'\x00')

    def deserialize(self, stream: BytesIO) -> GlobalWindow:
        stream.read(1)
        return GlobalWindow.get()


# ---------------------------------------------------------------------------------------------
# Triggers
# ---------------------------------------------------------------------------------------------

class TriggerResult(Enum):
    """What a trigger decides: fire the window function and/or purge the window's contents."""

    CONTINUE = (False, False)
    FIRE_AND_PURGE = (True, True)
    FIRE = (True, False)
    PURGE = (False, True)

    def is_fire(self) -> bool:
        return self.value[0]

    def is_purge(self) -> bool:
        return self.value[1]


class Trigger(ABC, Generic[T, W]):
    """Decides when a window's pane is evaluated (and purged)."""

    class TriggerContext(ABC):
        """Lets a trigger query time, register timers and use per-window state."""

        @abstractmethod
        def get_current_processing_time(self) -> int:
            pass

        @abstractmethod
        def get_metric_group(self):
            pass

        @abstractmethod
        def get_current_watermark(self) -> int:
            pass

        @abstractmethod
        def register_processing_time_timer(self, time: int) -> None:
            pass

        @abstractmethod
        def register_event_time_timer(self, time: int) -> None:
            pass

        @abstractmethod
        def delete_processing_time_timer(self, time: int) -> None:
            pass

        @abstractmethod
        def delete_event_time_timer(self, time: int) -> None:
            pass

        @abstractmethod
        def get_partitioned_state(self, state_descriptor: StateDescriptor) -> State:
            pass

    class OnMergeContext(TriggerContext):
        """The TriggerContext given to ``on_merge``; can merge per-window state."""

        @abstractmethod
        def merge_partitioned_state(self, state_descriptor: StateDescriptor) -> None:
            pass

    @abstractmethod
    def on_element(self, element: T, timestamp: int, window: W,
                   ctx: 'Trigger.TriggerContext') -> TriggerResult:
        pass

    @abstractmethod
    def on_processing_time(self, time: int, window: W,
                           ctx: 'Trigger.TriggerContext') -> TriggerResult:
        pass

    @abstractmethod
    def on_event_time(self, time: int, window: W, ctx: 'Trigger.TriggerContext') -> TriggerResult:
        pass

    def can_merge(self) -> bool:
        """Whether the trigger supports merging windows (sessions); False by default."""
        return False

    @abstractmethod
    def on_merge(self, window: W, ctx: 'Trigger.OnMergeContext') -> None:
        pass

    @abstractmethod
    def clear(self, window: W, ctx: 'Trigger.TriggerContext') -> None:
        pass


class Min(ReduceFunction):
    """The smaller of two values (the fire-time state of the continuous triggers)."""

    def reduce(self, value1, value2):
        return min(value1, value2)


class EventTimeTrigger(Trigger[T, TimeWindow]):
    """Fires once the watermark passes the end of the window."""

    def on_element(self, element: T, timestamp: int, window: TimeWindow,
                   ctx: 'Trigger.TriggerContext') -> TriggerResult:
        if window.max_timestamp() <= ctx.get_current_watermark():
            # the watermark is already past the window: fire at once
            return TriggerResult.FIRE
        ctx.register_event_time_timer(window.max_timestamp())
        return TriggerResult.CONTINUE

    def on_processing_time(self, time: int, window: TimeWindow,
                           ctx: 'Trigger.TriggerContext') -> TriggerResult:
        return TriggerResult.CONTINUE

    def on_event_time(self, time: int, window: TimeWindow,
                      ctx: 'Trigger.TriggerContext') -> TriggerResult:
        return TriggerResult.FIRE if time == window.max_timestamp() else TriggerResult.CONTINUE

    def can_merge(self) -> bool:
        return True

    def on_merge(self, window: TimeWindow, ctx: 'Trigger.OnMergeContext') -> None:
        if window.max_timestamp() > ctx.get_current_watermark():
            ctx.register_event_time_timer(window.max_timestamp())

    def clear(self, window: TimeWindow, ctx: 'Trigger.TriggerContext') -> None:
        ctx.delete_event_time_timer(window.max_timestamp())

    @staticmethod
    def create() -> 'EventTimeTrigger':
        return EventTimeTrigger()

    def __repr__(self):
        return "EventTimeTrigger()"


class ContinuousEventTimeTrigger(Trigger[T, TimeWindow]):
    """Fires every ``interval`` ms of event time, and at the end of the window."""

    def __init__(self, interval: int):
        self.interval = interval
        self.state_desc = ReducingStateDescriptor("fire-time", Min(), Types.LONG())

    @staticmethod
    def of(interval: Time) -> 'ContinuousEventTimeTrigger':
        return ContinuousEventTimeTrigger(interval.to_milliseconds())

    def on_element(self, element: T, timestamp: int, window: TimeWindow,
                   ctx: 'Trigger.TriggerContext') -> TriggerResult:
        if window.max_timestamp() <= ctx.get_current_watermark():
            return TriggerResult.FIRE
        ctx.register_event_time_timer(window.max_timestamp())
        fire_timestamp_state = ctx.get_partitioned_state(self.state_desc)
        if fire_timestamp_state.get() is None:
            self.register_next_fire_timestamp(timestamp - (timestamp % self.interval), window,
                                              ctx, fire_timestamp_state)
        return TriggerResult.CONTINUE

    def on_processing_time(self, time: int, window: TimeWindow,
                           ctx: 'Trigger.TriggerContext') -> TriggerResult:
        return TriggerResult.CONTINUE

    def on_event_time(self, time: int, window: TimeWindow,
                      ctx: 'Trigger.TriggerContext') -> TriggerResult:
        if time == window.max_timestamp():
            return TriggerResult.FIRE
        fire_timestamp_state = ctx.get_partitioned_state(self.state_desc)
        fire_timestamp = fire_timestamp_state.get()
        if fire_timestamp is not None and fire_timestamp == time:
            fire_timestamp_state.clear()
            self.register_next_fire_timestamp(time, window, ctx, fire_timestamp_state)
            return TriggerResult.FIRE
        return TriggerResult.CONTINUE

    def on_merge(self, window: TimeWindow, ctx: 'Trigger.OnMergeContext') -> None:
        ctx.merge_partitioned_state(self.state_desc)
        next_fire_timestamp = ctx.get_partitioned_state(self.state_desc).get()
        if next_fire_timestamp is not None:
            ctx.register_event_time_timer(next_fire_timestamp)

    def clear(self, window: TimeWindow, ctx: 'Trigger.TriggerContext') -> None:
        fire_timestamp_state = ctx.get_partitioned_state(self.state_desc)
        fire_timestamp = fire_timestamp_state.get()
        if fire_timestamp is not None:
            ctx.delete_event_time_timer(fire_timestamp)
            fire_timestamp_state.clear()

    def can_merge(self) -> bool:
        return True

    def register_next_fire_timestamp(self, time: int, window: TimeWindow,
                                     ctx: 'Trigger.TriggerContext',
                                     fire_timestamp_state: ReducingState):
        next_fire_timestamp = min(time + self.interval, window.max_timestamp())
        fire_timestamp_state.add(next_fire_timestamp)
        ctx.register_event_time_timer(next_fire_timestamp)

    def __repr__(self):
        return "ContinuousEventTimeTrigger(%s)" % self.interval


class ProcessingTimeTrigger(Trigger[T, TimeWindow]):
    """Fires once processing time passes the end of the window."""

    def on_element(self, element: T, timestamp: int, window: TimeWindow,
                   ctx: 'Trigger.TriggerContext') -> TriggerResult:
        ctx.register_processing_time_timer(window.max_timestamp())
        return TriggerResult.CONTINUE

    def on_processing_time(self, time: int, window: TimeWindow,
                           ctx: 'Trigger.TriggerContext') -> TriggerResult:
        return TriggerResult.FIRE

    def on_event_time(self, time: int, window: TimeWindow,
                      ctx: 'Trigger.TriggerContext') -> TriggerResult:
        return TriggerResult.CONTINUE

    def can_merge(self) -> bool:
        return True

    def on_merge(self, window: TimeWindow, ctx: 'Trigger.OnMergeContext') -> None:
        if window.max_timestamp() > ctx.get_current_processing_time():
            ctx.register_processing_time_timer(window.max_timestamp())

    def clear(self, window: TimeWindow, ctx: 'Trigger.TriggerContext') -> None:
        ctx.delete_processing_time_timer(window.max_timestamp())

    @staticmethod
    def create() -> 'ProcessingTimeTrigger':
        return ProcessingTimeTrigger()

    def __repr__(self):
        return "ProcessingTimeTrigger()"


class ContinuousProcessingTimeTrigger(Trigger[T, TimeWindow]):
    """Fires every ``interval`` ms of processing time."""

    def __init__(self, interval: int):
        self.interval = interval
        self.state_desc = ReducingStateDescriptor("fire-time", Min(), Types.LONG())

    @staticmethod
    def of(interval: Time) -> 'ContinuousProcessingTimeTrigger':
        return ContinuousProcessingTimeTrigger(interval.to_milliseconds())

    def on_element(self, element: T, timestamp: int, window: TimeWindow,
                   ctx: 'Trigger.TriggerContext') -> TriggerResult:
        fire_timestamp_state = ctx.get_partitioned_state(self.state_desc)
        now = ctx.get_current_processing_time()
        if fire_timestamp_state.get() is None:
            self.register_next_fire_timestamp(now - (now % self.interval), window, ctx,
                                              fire_timestamp_state)
        return TriggerResult.CONTINUE

    def on_processing_time(self, time: int, window: TimeWindow,
                           ctx: 'Trigger.TriggerContext') -> TriggerResult:
        fire_timestamp_state = ctx.get_partitioned_state(self.state_desc)
        if fire_timestamp_state.get() == time:
            fire_timestamp_state.clear()
            self.register_next_fire_timestamp(time, window, ctx, fire_timestamp_state)
            return TriggerResult.FIRE
        return TriggerResult.CONTINUE

    def on_event_time(self, time: int, window: TimeWindow,
                      ctx: 'Trigger.TriggerContext') -> TriggerResult:
        return TriggerResult.CONTINUE

    def on_merge(self, window: TimeWindow, ctx: 'Trigger.OnMergeContext') -> None:
        ctx.merge_partitioned_state(self.state_desc)
        next_fire_timestamp = ctx.get_partitioned_state(self.state_desc).get()
        if next_fire_timestamp is not None:
            ctx.register_processing_time_timer(next_fire_timestamp)

    def clear(self, window: TimeWindow, ctx: 'Trigger.TriggerContext') -> None:
        fire_timestamp_state = ctx.get_partitioned_state(self.state_desc)
        fire_timestamp = fire_timestamp_state.get()
        if fire_timestamp is not None:
            ctx.delete_processing_time_timer(fire_timestamp)
            fire_timestamp_state.clear()

    def can_merge(self) -> bool:
        return True

    def register_next_fire_timestamp(self, time: int, window: TimeWindow,
                                     ctx: 'Trigger.TriggerContext',
                                     fire_timestamp_state: ReducingState):
        next_fire_timestamp = min(time + self.interval, window.max_timestamp())
        fire_timestamp_state.add(next_fire_timestamp)
        ctx.register_processing_time_timer(next_fire_timestamp)

    def __repr__(self):
        return "ContinuousProcessingTimeTrigger(%s)" % self.interval


class PurgingTrigger(Trigger[T, Window]):
    """Turns the nested trigger's FIRE into FIRE_AND_PURGE."""

    def __init__(self, nested_trigger: Trigger[T, Window]):
        self.nested_trigger = nested_trigger

    @staticmethod
    def of(nested_trigger: Trigger[T, Window]) -> 'PurgingTrigger':
        return PurgingTrigger(nested_trigger)

    @staticmethod
    def _purging(result: TriggerResult) -> TriggerResult:
        return TriggerResult.FIRE_AND_PURGE if result.is_fire() else result

    def on_element(self, element: T, timestamp: int, window: Window,
                   ctx: 'Trigger.TriggerContext') -> TriggerResult:
        return self._purging(self.nested_trigger.on_element(element, timestamp, window, ctx))

    def on_event_time(self, time: int, window: Window,
                      ctx: 'Trigger.TriggerContext') -> TriggerResult:
        return self._purging(self.nested_trigger.on_event_time(time, window, ctx))

    def on_processing_time(self, time: int, window: Window,
                           ctx: 'Trigger.TriggerContext') -> TriggerResult:
        return self._purging(self.nested_trigger.on_processing_time(time, window, ctx))

    def clear(self, window: Window, ctx: 'Trigger.TriggerContext') -> None:
        self.nested_trigger.clear(window, ctx)

    def can_merge(self) -> bool:
        return self.nested_trigger.can_merge()

    def on_merge(self, window: Window, ctx: 'Trigger.OnMergeContext') -> None:
        self.nested_trigger.on_merge(window, ctx)

    def __repr__(self):
        return "PurgingTrigger(%r)" % (self.nested_trigger,)


class CountTrigger(Trigger[T, CountWindow]):
    """Fires once ``window_size`` elements arrived in the pane (and restarts counting)."""

    def __init__(self, window_size: int):
        self._window_size = int(window_size)
        self._count_state_descriptor = ReducingStateDescriptor(
            "trigger_counter", lambda a, b: a + b, Types.LONG())

    @staticmethod
    def of(window_size: int) -> 'CountTrigger':
        return CountTrigger(window_size)

    def on_element(self, element: T, timestamp: int, window: CountWindow,
                   ctx: Trigger.TriggerContext) -> TriggerResult:
        state = ctx.get_partitioned_state(self._count_state_descriptor)
        state.add(1)
        if state.get() >= self._window_size:
            state.clear()
            return TriggerResult.FIRE
        return TriggerResult.CONTINUE

    def on_processing_time(self, time: int, window: CountWindow,
                           ctx: Trigger.TriggerContext) -> TriggerResult:
        return TriggerResult.CONTINUE

    def on_event_time(self, time: int, window: CountWindow,
                      ctx: Trigger.TriggerContext) -> TriggerResult:
        return TriggerResult.CONTINUE

    def can_merge(self) -> bool:
        return True

    def on_merge(self, window: CountWindow, ctx: Trigger.OnMergeContext) -> None:
        ctx.merge_partitioned_state(self._count_state_descriptor)

    def clear(self, window: CountWindow, ctx: Trigger.TriggerContext) -> None:
        ctx.get_partitioned_state(self._count_state_descriptor).clear()

    def __repr__(self):
        return "CountTrigger(%s)" % self._window_size


class NeverTrigger(Trigger[T, GlobalWindow]):
    """Never fires: the default trigger of GlobalWindows."""

    def on_element(self, element: T, timestamp: int, window: GlobalWindow,
                   ctx: 'Trigger.TriggerContext') -> TriggerResult:
        return TriggerResult.CONTINUE

    def on_processing_time(self, time: int, window: GlobalWindow,
                           ctx: 'Trigger.TriggerContext') -> TriggerResult:
        return TriggerResult.CONTINUE

    def on_event_time(self, time: int, window: GlobalWindow,
                      ctx: 'Trigger.TriggerContext') -> TriggerResult:
        return TriggerResult.CONTINUE

    def on_merge(self, window: GlobalWindow, ctx: 'Trigger.OnMergeContext') -> None:
        pass

    def clear(self, window: GlobalWindow, ctx: 'Trigger.TriggerContext') -> None:
        pass

    def __repr__(self):
        return "NeverTrigger()"


# ---------------------------------------------------------------------------------------------
# Assigners
# ---------------------------------------------------------------------------------------------

class WindowAssigner(ABC, Generic[T, W]):
    """Assigns zero or more windows to each element."""

    class WindowAssignerContext(ABC):
        """Lets an assigner query processing time and the runtime context."""

        @abstractmethod
        def get_current_processing_time(self) -> int:
            pass

        @abstractmethod
        def get_runtime_context(self) -> RuntimeContext:
            pass

    @abstractmethod
    def assign_windows(self, element: T, timestamp: int,
                       context: 'WindowAssigner.WindowAssignerContext') -> Collection[W]:
        pass

    @abstractmethod
    def get_default_trigger(self, env) -> Trigger[T, W]:
        pass

    @abstractmethod
    def get_window_serializer(self) -> TypeSerializer:
        pass

    @abstractmethod
    def is_event_time(self) -> bool:
        pass


class MergingWindowAssigner(WindowAssigner[T, W]):
    """A WindowAssigner whose windows can be merged (sessions)."""

    class MergeCallback(ABC, Generic[W2]):
        """Receives each group of windows to merge and the resulting window."""

        @abstractmethod
        def merge(self, to_be_merged: Iterable[W2], merge_result: W2) -> None:
            pass

    @abstractmethod
    def merge_windows(self, windows: Iterable[W],
                      callback: 'MergingWindowAssigner.MergeCallback[W]') -> None:
        pass


class WindowOperationDescriptor(object):
    """Everything a window operator needs (assembled by WindowedStream)."""

    def __init__(self,
                 assigner: WindowAssigner,
                 trigger: Trigger,
                 allowed_lateness: int,
                 late_data_output_tag: Optional[OutputTag],
                 window_state_descriptor: StateDescriptor,
                 window_serializer: TypeSerializer,
                 internal_window_function: InternalWindowFunction):
        self.assigner = assigner
        self.trigger = trigger
        self.allowed_lateness = allowed_lateness
        self.late_data_output_tag = late_data_output_tag
        self.window_state_descriptor = window_state_descriptor
        self.internal_window_function = internal_window_function
        self.window_serializer = window_serializer

    def generate_op_name(self):
        return type(self.assigner).__name__

    def generate_op_desc(self, windowed_stream_type, func_desc):
        return "%s(%s, %s, %s)" % (windowed_stream_type, self.assigner,
                                   type(self.trigger).__name__, func_desc)


class SessionWindowTimeGapExtractor(ABC):
    """Gives the session gap (ms) for an element, for dynamic session windows."""

    @abstractmethod
    def extract(self, element: Any) -> int:
        pass


class CountTumblingWindowAssigner(WindowAssigner[T, CountWindow]):
    """Consecutive, non-overlapping windows of ``window_size`` elements (per key)."""

    def __init__(self, window_size: int):
        self._window_size = window_size
        self._count_descriptor = ValueStateDescriptor('tumble-count-assigner', Types.LONG())

    @staticmethod
    def of(window_size: int) -> 'CountTumblingWindowAssigner':
        return CountTumblingWindowAssigner(window_size)

    def assign_windows(self, element: T, timestamp: int,
                       context: 'WindowAssigner.WindowAssignerContext') -> Collection[CountWindow]:
        count_state = context.get_runtime_context().get_state(self._count_descriptor)
        seen = count_state.value() or 0
        count_state.update(seen + 1)
        return [CountWindow(seen // self._window_size)]

    def get_default_trigger(self, env) -> Trigger[T, CountWindow]:
        return CountTrigger(self._window_size)

    def get_window_serializer(self) -> TypeSerializer:
        return CountWindowSerializer()

    def is_event_time(self) -> bool:
        return False

    def __repr__(self) -> str:
        return "CountTumblingWindowAssigner(%s)" % self._window_size


class CountSlidingWindowAssigner(WindowAssigner[T, CountWindow]):
    """Windows of ``window_size`` elements starting every ``window_slide`` elements (per key).

    Element number ``n`` (from 0) belongs to every window ``i >= 0`` with
    ``i * slide <= n <= i * slide + size - 1``, newest window first.
    """

    def __init__(self, window_size: int, window_slide: int):
        self._window_size = window_size
        self._window_slide = window_slide
        self._count_descriptor = ValueStateDescriptor('slide-count-assigner', Types.LONG())

    @staticmethod
    def of(window_size: int, window_slide: int) -> 'CountSlidingWindowAssigner':
        return CountSlidingWindowAssigner(window_size, window_slide)

    def assign_windows(self, element: T, timestamp: int,
                       context: 'WindowAssigner.WindowAssignerContext') -> Collection[CountWindow]:
        count_state = context.get_runtime_context().get_state(self._count_descriptor)
        seen = count_state.value() or 0
        count_state.update(seen + 1)
        windows = []
        window_id = seen // self._window_slide
        while window_id >= 0:
            first = window_id * self._window_slide
            if not first <= seen <= first + self._window_size - 1:
                break
            windows.append(CountWindow(window_id))
            window_id -= 1
        return windows

    def get_default_trigger(self, env) -> Trigger[T, CountWindow]:
        return CountTrigger(self._window_size)

    def get_window_serializer(self) -> TypeSerializer:
        return CountWindowSerializer()

    def is_event_time(self) -> bool:
        return False

    def __repr__(self):
        return "CountSlidingWindowAssigner(%s, %s)" % (self._window_size, self._window_slide)


def _millis(time: Optional[Time]) -> int:
    return 0 if time is None else time.to_milliseconds()


class TumblingProcessingTimeWindows(WindowAssigner[T, TimeWindow]):
    """Non-overlapping windows of ``size`` ms of processing time, shifted by ``offset`` ms."""

    def __init__(self, size: int, offset: int):
        if abs(offset) >= size:
            raise Exception("TumblingProcessingTimeWindows parameters must satisfy "
                            "abs(offset) < size")
        self._size = size
        self._offset = offset

    @staticmethod
    def of(size: Time, offset: Time = None) -> 'TumblingProcessingTimeWindows':
        return TumblingProcessingTimeWindows(size.to_milliseconds(), _millis(offset))

    def assign_windows(self, element: T, timestamp: int,
                       context: WindowAssigner.WindowAssignerContext) -> Collection[TimeWindow]:
        now = context.get_current_processing_time()
        start = TimeWindow.get_window_start_with_offset(now, self._offset, self._size)
        return [TimeWindow(start, start + self._size)]

    def get_default_trigger(self, env) -> Trigger[T, TimeWindow]:
        return ProcessingTimeTrigger()

    def get_window_serializer(self) -> TypeSerializer:
        return TimeWindowSerializer()

    def is_event_time(self) -> bool:
        return False

    def __repr__(self):
        return "TumblingProcessingTimeWindows(%s, %s)" % (self._size, self._offset)


class TumblingEventTimeWindows(WindowAssigner[T, TimeWindow]):
    """Non-overlapping windows of ``size`` ms of event time, shifted by ``offset`` ms."""

    def __init__(self, size: int, offset: int):
        if abs(offset) >= size:
            raise Exception("TumblingEventTimeWindows parameters must satisfy abs(offset) < size")
        self._size = size
        self._offset = offset

    @staticmethod
    def of(size: Time, offset: Time = None) -> 'TumblingEventTimeWindows':
        return TumblingEventTimeWindows(size.to_milliseconds(), _millis(offset))

    def assign_windows(self, element: T, timestamp: int,
                       context: WindowAssigner.WindowAssignerContext) -> Collection[TimeWindow]:
        _check_timestamp(timestamp)
        start = TimeWindow.get_window_start_with_offset(timestamp, self._offset, self._size)
        return [TimeWindow(start, start + self._size)]

    def get_default_trigger(self, env) -> Trigger[T, TimeWindow]:
        return EventTimeTrigger()

    def get_window_serializer(self) -> TypeSerializer:
        return TimeWindowSerializer()

    def is_event_time(self) -> bool:
        return True

    def __repr__(self):
        return "TumblingEventTimeWindows(%s, %s)" % (self._size, self._offset)


def _sliding_windows(timestamp: int, size: int, slide: int, offset: int):
    last_start = TimeWindow.get_window_start_with_offset(timestamp, offset, slide)
    # every window [s, s + size) containing timestamp, newest (largest s) first
    return [TimeWindow(start, start + size)
            for start in range(last_start, timestamp - size, -slide)]


class SlidingProcessingTimeWindows(WindowAssigner[T, TimeWindow]):
    """Windows of ``size`` ms of processing time starting every ``slide`` ms."""

    def __init__(self, size: int, slide: int, offset: int):
        if abs(offset) >= slide or size <= 0:
            raise Exception("SlidingProcessingTimeWindows parameters must satisfy "
                            "abs(offset) < slide and size > 0")
        self._size = size
        self._slide = slide
        self._offset = offset

    @staticmethod
    def of(size: Time, slide: Time, offset: Time = None) -> 'SlidingProcessingTimeWindows':
        return SlidingProcessingTimeWindows(size.to_milliseconds(), slide.to_milliseconds(),
                                            _millis(offset))

    def assign_windows(self, element: T, timestamp: int,
                       context: 'WindowAssigner.WindowAssignerContext') -> Collection[TimeWindow]:
        return _sliding_windows(context.get_current_processing_time(), self._size, self._slide,
                                self._offset)

    def get_default_trigger(self, env) -> Trigger[T, TimeWindow]:
        return ProcessingTimeTrigger()

    def get_window_serializer(self) -> TypeSerializer:
        return TimeWindowSerializer()

    def is_event_time(self) -> bool:
        return False

    def __repr__(self) -> str:
        return "SlidingProcessingTimeWindows(%s, %s, %s)" % (self._size, self._slide, self._offset)


class SlidingEventTimeWindows(WindowAssigner[T, TimeWindow]):
    """Windows of ``size`` ms of event time starting every ``slide`` ms."""

    def __init__(self, size: int, slide: int, offset: int):
        if abs(offset) >= slide or size <= 0:
            raise Exception("SlidingEventTimeWindows parameters must satisfy "
                            "abs(offset) < slide and size > 0")
        self._size = size
        self._slide = slide
        self._offset = offset

    @staticmethod
    def of(size: Time, slide: Time, offset: Time = None) -> 'SlidingEventTimeWindows':
        return SlidingEventTimeWindows(size.to_milliseconds(), slide.to_milliseconds(),
                                       _millis(offset))

    def assign_windows(self, element: T, timestamp: int,
                       context: 'WindowAssigner.WindowAssignerContext') -> Collection[TimeWindow]:
        _check_timestamp(timestamp)
        return _sliding_windows(timestamp, self._size, self._slide, self._offset)

    def get_default_trigger(self, env) -> Trigger[T, TimeWindow]:
        return EventTimeTrigger()

    def get_window_serializer(self) -> TypeSerializer:
        return TimeWindowSerializer()

    def is_event_time(self) -> bool:
        return True

    def __repr__(self) -> str:
        return "SlidingEventTimeWindows(%s, %s, %s)" % (self._size, self._slide, self._offset)


class ProcessingTimeSessionWindows(MergingWindowAssigner[T, TimeWindow]):
    """Sessions of processing time: windows closer than ``session_gap`` ms are merged."""

    def __init__(self, session_gap: int):
        if session_gap <= 0:
            raise Exception("ProcessingTimeSessionWindows parameters must satisfy 0 < size")
        self._session_gap = session_gap

    @staticmethod
    def with_gap(size: Time) -> 'ProcessingTimeSessionWindows':
        return ProcessingTimeSessionWindows(size.to_milliseconds())

    @staticmethod
    def with_dynamic_gap(
            extractor: SessionWindowTimeGapExtractor) -> 'DynamicProcessingTimeSessionWindows':
        return DynamicProcessingTimeSessionWindows(extractor)

    def merge_windows(self, windows: Iterable[TimeWindow],
                      callback: 'MergingWindowAssigner.MergeCallback[TimeWindow]') -> None:
        TimeWindow.merge_windows(windows, callback)

    def assign_windows(self, element: T, timestamp: int,
                       context: 'WindowAssigner.WindowAssignerContext') -> Collection[TimeWindow]:
        now = context.get_current_processing_time()
        return [TimeWindow(now, now + self._session_gap)]

    def get_default_trigger(self, env) -> Trigger[T, TimeWindow]:
        return ProcessingTimeTrigger()

    def get_window_serializer(self) -> TypeSerializer:
        return TimeWindowSerializer()

    def is_event_time(self) -> bool:
        return False

    def __repr__(self):
        return "ProcessingTimeSessionWindows(%s)" % self._session_gap


class EventTimeSessionWindows(MergingWindowAssigner[T, TimeWindow]):
    """Sessions of event time: each element gets [ts, ts + gap), overlapping windows merge."""

    def __init__(self, session_gap: int):
        if session_gap <= 0:
            raise Exception("EventTimeSessionWindows parameters must satisfy 0 < size")
        self._session_gap = session_gap

    @staticmethod
    def with_gap(size: Time) -> 'EventTimeSessionWindows':
        return EventTimeSessionWindows(size.to_milliseconds())

    @staticmethod
    def with_dynamic_gap(
            extractor: SessionWindowTimeGapExtractor) -> 'DynamicEventTimeSessionWindows':
        return DynamicEventTimeSessionWindows(extractor)

    def merge_windows(self, windows: Iterable[TimeWindow],
                      callback: 'MergingWindowAssigner.MergeCallback[TimeWindow]') -> None:
        TimeWindow.merge_windows(windows, callback)

    def assign_windows(self, element: T, timestamp: int,
                       context: 'WindowAssigner.WindowAssignerContext') -> Collection[TimeWindow]:
        return [TimeWindow(timestamp, timestamp + self._session_gap)]

    def get_default_trigger(self, env) -> Trigger[T, TimeWindow]:
        return EventTimeTrigger()

    def get_window_serializer(self) -> TypeSerializer:
        return TimeWindowSerializer()

    def is_event_time(self) -> bool:
        return True

    def __repr__(self):
        return "EventTimeSessionWindows(%s)" % self._session_gap


def _dynamic_gap(extractor: SessionWindowTimeGapExtractor, element) -> int:
    gap = extractor.extract(element)
    if gap <= 0:
        raise Exception("Dynamic session time gap must satisfy 0 < gap")
    return gap


class DynamicProcessingTimeSessionWindows(MergingWindowAssigner[T, TimeWindow]):
    """Processing-time sessions whose gap is extracted from each element."""

    def __init__(self, session_window_time_gap_extractor: SessionWindowTimeGapExtractor):
        self._session_gap = session_window_time_gap_extractor

    @staticmethod
    def with_dynamic_gap(
            extractor: SessionWindowTimeGapExtractor) -> 'DynamicProcessingTimeSessionWindows':
        return DynamicProcessingTimeSessionWindows(extractor)

    def merge_windows(self, windows: Iterable[TimeWindow],
                      callback: 'MergingWindowAssigner.MergeCallback[TimeWindow]') -> None:
        TimeWindow.merge_windows(windows, callback)

    def assign_windows(self, element: T, timestamp: int,
                       context: 'WindowAssigner.WindowAssignerContext') -> Collection[TimeWindow]:
        gap = _dynamic_gap(self._session_gap, element)
        now = context.get_current_processing_time()
        return [TimeWindow(now, now + gap)]

    def get_default_trigger(self, env) -> Trigger[T, TimeWindow]:
        return ProcessingTimeTrigger()

    def get_window_serializer(self) -> TypeSerializer:
        return TimeWindowSerializer()

    def is_event_time(self) -> bool:
        return False

    def __repr__(self):
        return "DynamicProcessingTimeSessionWindows(%s)" % self._session_gap


class DynamicEventTimeSessionWindows(MergingWindowAssigner[T, TimeWindow]):
    """Event-time sessions whose gap is extracted from each element."""

    def __init__(self, session_window_time_gap_extractor: SessionWindowTimeGapExtractor):
        self._session_gap = session_window_time_gap_extractor

    @staticmethod
    def with_dynamic_gap(
            extractor: SessionWindowTimeGapExtractor) -> 'DynamicEventTimeSessionWindows':
        return DynamicEventTimeSessionWindows(extractor)

    def merge_windows(self, windows: Iterable[TimeWindow],
                      callback: 'MergingWindowAssigner.MergeCallback[TimeWindow]') -> None:
        TimeWindow.merge_windows(windows, callback)

    def assign_windows(self, element: T, timestamp: int,
                       context: 'WindowAssigner.WindowAssignerContext') -> Collection[TimeWindow]:
        gap = _dynamic_gap(self._session_gap, element)
        return [TimeWindow(timestamp, timestamp + gap)]

    def get_default_trigger(self, env) -> Trigger[T, TimeWindow]:
        return EventTimeTrigger()

    def get_window_serializer(self) -> TypeSerializer:
        return TimeWindowSerializer()

    def is_event_time(self) -> bool:
        return True

    def __repr__(self):
        return "DynamicEventTimeSessionWindows(%s)" % self._session_gap


class GlobalWindows(WindowAssigner[T, GlobalWindow]):
    """Puts every element into the one GlobalWindow; never fires unless given a trigger."""

    def __init__(self) -> None:
        super().__init__()

    def assign_windows(self, element: T, timestamp: int,
                       context: 'WindowAssigner.WindowAssignerContext') -> Collection[GlobalWindow]:
        return [GlobalWindow.get()]

    @staticmethod
    def create() -> 'GlobalWindows':
        return GlobalWindows()

    def get_default_trigger(self, env) -> Trigger[T, GlobalWindow]:
        return NeverTrigger()

    def get_window_serializer(self) -> TypeSerializer:
        return GlobalWindowSerializer()

    def is_event_time(self) -> bool:
        return False

    def __repr__(self) -> str:
        return "GlobalWindows()"

"""Unit tests of the pure-Python DataStream support modules: windows, triggers, functions,
state descriptors, OutputTag, CheckpointConfig, enums, slot sharing groups (no Spark, no broker)."""
import asyncio
from io import BytesIO

import pytest
from py4j.protocol import Py4JJavaError

from pyflink_compat.common.time import Duration, Time
from pyflink_compat.common.typeinfo import (ListTypeInfo, MapTypeInfo, RowTypeInfo, TypeInformation,
                                            Types)
from pyflink_compat.datastream.checkpoint_config import (CheckpointConfig,
                                                         ExternalizedCheckpointRetention)
from pyflink_compat.datastream.checkpoint_storage import (FileSystemCheckpointStorage,
                                                          JobManagerCheckpointStorage)
from pyflink_compat.datastream.checkpointing_mode import CheckpointingMode
from pyflink_compat.datastream.execution_mode import RuntimeExecutionMode
from pyflink_compat.datastream import functions as fn
from pyflink_compat.datastream.functions import (AggregateFunction, AsyncFunction,
                                                 AsyncFunctionDescriptor, AsyncRetryStrategy,
                                                 CoMapFunction, FilterFunction, FlatMapFunction,
                                                 Function, KeyedProcessFunction, KeySelector,
                                                 MapFunction, Partitioner, ProcessFunction,
                                                 ProcessWindowFunction, ReduceFunction,
                                                 RuntimeContext, SimpleRuntimeContext,
                                                 SinkFunction, SourceFunction, WindowFunction)
from pyflink_compat.datastream.output_tag import OutputTag
from pyflink_compat.datastream.slot_sharing_group import MemorySize, SlotSharingGroup
from pyflink_compat.datastream.state import (AggregatingStateDescriptor, ListStateDescriptor,
                                             MapState, MapStateDescriptor, ReducingState,
                                             ReducingStateDescriptor, StateTtlConfig, ValueState,
                                             ValueStateDescriptor)
from pyflink_compat.datastream.state_backend import EmbeddedRocksDBStateBackend, PredefinedOptions
from pyflink_compat.datastream.time_domain import TimeDomain
from pyflink_compat.datastream.timerservice import TimerService
from pyflink_compat.datastream import window as win
from pyflink_compat.datastream.window import (ContinuousEventTimeTrigger, CountSlidingWindowAssigner,
                                              CountTrigger, CountTumblingWindowAssigner,
                                              CountWindow, CountWindowSerializer,
                                              DynamicEventTimeSessionWindows,
                                              DynamicProcessingTimeSessionWindows,
                                              EventTimeSessionWindows, EventTimeTrigger,
                                              GlobalWindow, GlobalWindows, GlobalWindowSerializer,
                                              MergingWindowAssigner, NeverTrigger,
                                              ProcessingTimeSessionWindows, ProcessingTimeTrigger,
                                              PurgingTrigger, SessionWindowTimeGapExtractor,
                                              SlidingEventTimeWindows,
                                              SlidingProcessingTimeWindows, TimeWindow,
                                              TimeWindowSerializer, Trigger, TriggerResult,
                                              TumblingEventTimeWindows,
                                              TumblingProcessingTimeWindows, WindowAssigner)
from pyflink_compat.util.exceptions import JavaStyleError, UnsupportedFeatureError

MIN_LONG = -2 ** 63
NO_TS = ("Record has Java Long.MIN_VALUE timestamp (= no timestamp marker). Is the time "
         "characteristic set to 'ProcessingTime', or did you forget to call "
         "'data_stream.assign_timestamps_and_watermarks(...)'?")


# ------------------------------------------------------------------ fakes

class _Value(ValueState):
    def __init__(self):
        self._v = None

    def value(self):
        return self._v

    def update(self, value):
        self._v = value

    def clear(self):
        self._v = None


class _Reducing(ReducingState):
    def __init__(self, reduce):
        self._reduce = reduce
        self._v = None

    def get(self):
        return self._v

    def add(self, value):
        self._v = value if self._v is None else self._reduce(self._v, value)

    def clear(self):
        self._v = None


class _StateStore(RuntimeContext):
    """A runtime context / trigger state store keeping state in dicts (one key, one window)."""

    def __init__(self):
        self.states = {}

    def get_state(self, state_descriptor):
        return self.states.setdefault(state_descriptor.get_name(), _Value())

    def get_reducing_state(self, state_descriptor):
        return self.states.setdefault(
            state_descriptor.get_name(),
            _Reducing(state_descriptor.get_reduce_function().reduce))

    get_list_state = get_map_state = get_aggregating_state = None
    get_task_name = get_number_of_parallel_subtasks = get_max_number_of_parallel_subtasks = None
    get_index_of_this_subtask = get_attempt_number = get_task_name_with_subtasks = None
    get_job_parameter = get_metrics_group = None


class _AssignerContext(WindowAssigner.WindowAssignerContext):
    def __init__(self, now=0):
        self.now = now
        self.runtime_context = _StateStore()

    def get_current_processing_time(self):
        return self.now

    def get_runtime_context(self):
        return self.runtime_context


class _TriggerContext(Trigger.OnMergeContext):
    def __init__(self, watermark=MIN_LONG, now=0):
        self.watermark = watermark
        self.now = now
        self.event_timers = set()
        self.processing_timers = set()
        self.store = _StateStore()

    def get_current_processing_time(self):
        return self.now

    def get_metric_group(self):
        return None

    def get_current_watermark(self):
        return self.watermark

    def register_processing_time_timer(self, time):
        self.processing_timers.add(time)

    def register_event_time_timer(self, time):
        self.event_timers.add(time)

    def delete_processing_time_timer(self, time):
        self.processing_timers.discard(time)

    def delete_event_time_timer(self, time):
        self.event_timers.discard(time)

    def get_partitioned_state(self, state_descriptor):
        if isinstance(state_descriptor, ReducingStateDescriptor):
            return self.store.get_reducing_state(state_descriptor)
        return self.store.get_state(state_descriptor)

    def merge_partitioned_state(self, state_descriptor):
        pass


class _Collect(MergingWindowAssigner.MergeCallback):
    def __init__(self):
        self.merges = []

    def merge(self, to_be_merged, merge_result):
        self.merges.append((sorted(to_be_merged), merge_result))


def _raises(exc_type, message, func, *args):
    with pytest.raises(exc_type) as info:
        func(*args)
    assert str(info.value) == message
    return info.value


# ------------------------------------------------------------------ enums

def test_enum_values():
    assert [(m.name, m.value) for m in RuntimeExecutionMode] == [
        ('STREAMING', 0), ('BATCH', 1), ('AUTOMATIC', 2)]
    assert [(m.name, m.value) for m in CheckpointingMode] == [
        ('EXACTLY_ONCE', 0), ('AT_LEAST_ONCE', 1)]
    assert [(m.name, m.value) for m in TimeDomain] == [('EVENT_TIME', 0), ('PROCESSING_TIME', 1)]
    assert [(m.name, m.value) for m in ExternalizedCheckpointRetention] == [
        ('DELETE_ON_CANCELLATION', 0), ('RETAIN_ON_CANCELLATION', 1),
        ('NO_EXTERNALIZED_CHECKPOINTS', 2)]
    assert [m.value for m in PredefinedOptions] == [0, 1, 2, 3]
    assert AsyncFunctionDescriptor.OutputMode.ORDERED.value == 0
    assert AsyncFunctionDescriptor.OutputMode.UNORDERED.value == 1
    assert StateTtlConfig.UpdateType.OnReadAndWrite.value == 2
    assert StateTtlConfig.StateVisibility.NeverReturnExpired.value == 1
    assert StateTtlConfig.TtlTimeCharacteristic.ProcessingTime.value == 0


def test_trigger_result():
    assert TriggerResult.CONTINUE.value == (False, False)
    assert (TriggerResult.FIRE.is_fire(), TriggerResult.FIRE.is_purge()) == (True, False)
    assert (TriggerResult.PURGE.is_fire(), TriggerResult.PURGE.is_purge()) == (False, True)
    assert (TriggerResult.FIRE_AND_PURGE.is_fire(),
            TriggerResult.FIRE_AND_PURGE.is_purge()) == (True, True)


# ------------------------------------------------------------------ windows

def test_time_window_methods():
    w = TimeWindow(0, 10)
    assert w.max_timestamp() == 9
    assert w.intersects(TimeWindow(10, 20))          # adjacent windows intersect
    assert w.intersects(TimeWindow(5, 7))
    assert not w.intersects(TimeWindow(11, 20))
    assert w.cover(TimeWindow(5, 30)) == TimeWindow(0, 30)
    assert TimeWindow(5, 30).cover(w) == TimeWindow(0, 30)
    assert w == TimeWindow(0, 10) and hash(w) == hash(TimeWindow(0, 10))
    assert w != TimeWindow(0, 11) and w != CountWindow(0)
    assert repr(w) == 'TimeWindow(start=0, end=10)'
    assert {TimeWindow(0, 10), TimeWindow(0, 10), TimeWindow(1, 10)} == {w, TimeWindow(1, 10)}


def test_time_window_ordering_and_fixed_le():
    a, b, c = TimeWindow(0, 10), TimeWindow(0, 20), TimeWindow(5, 6)
    assert a < b < c
    assert not b < a
    assert sorted([c, b, a]) == [a, b, c]
    assert a <= TimeWindow(0, 10)                     # equal: True (2.3.0 uses "or")
    assert a <= b and a <= c
    assert not c <= a
    _raises(Exception, "Does not support comparison with non-TimeWindow 3", a.__lt__, 3)


def test_window_start_with_offset_uses_floor_modulo():
    start = TimeWindow.get_window_start_with_offset
    assert start(12345, 0, 10000) == 10000
    assert start(-1, 0, 10000) == -10000
    assert start(12345, 2000, 10000) == 12000
    assert start(12345, -3000, 10000) == 7000
    assert start(10000, 0, 10000) == 10000


def test_count_and_global_windows():
    assert CountWindow(3).max_timestamp() == 2 ** 63 - 1
    assert repr(CountWindow(3)) == 'CountWindow(id=3)'
    assert CountWindow(3) == CountWindow(3) and CountWindow(3) != CountWindow(4)
    assert hash(CountWindow(3)) == hash(CountWindow(3))
    assert GlobalWindow.get() == GlobalWindow() and GlobalWindow.get().max_timestamp() == 2 ** 63 - 1
    assert repr(GlobalWindow.get()) == 'GlobalWindow'


def test_bit_mixing_helpers():
    assert win.mod_inverse(3) * 3 % 2 ** 32 == 1
    assert win.mod_inverse(-1) == -1
    assert -2 ** 31 <= win.long_to_int_with_bit_mixing(2 ** 62) < 2 ** 31


def test_window_serializers_round_trip():
    for serializer, value in [(TimeWindowSerializer(), TimeWindow(-5, 2 ** 40)),
                              (CountWindowSerializer(), CountWindow(7)),
                              (GlobalWindowSerializer(), GlobalWindow.get())]:
        out = BytesIO()
        serializer.serialize(value, out)
        assert serializer.deserialize(BytesIO(out.getvalue())) == value
    out = BytesIO()
    TimeWindowSerializer().serialize(TimeWindow(1, 2), out)
    assert out.getvalue() == b'\x00' * 7 + b'\x01' + b'\x00' * 7 + b'\x02'


# ------------------------------------------------------------------ assigners

def test_tumbling_event_time_windows():
    assigner = TumblingEventTimeWindows.of(Time.seconds(10))
    assert assigner.assign_windows(None, 12345, None) == [TimeWindow(10000, 20000)]
    assert assigner.assign_windows(None, -1, None) == [TimeWindow(-10000, 0)]
    assert assigner.assign_windows(None, 0, None) == [TimeWindow(0, 10000)]
    assert repr(assigner) == 'TumblingEventTimeWindows(10000, 0)'
    assert assigner.is_event_time()
    assert isinstance(assigner.get_default_trigger(None), EventTimeTrigger)
    assert isinstance(assigner.get_window_serializer(), TimeWindowSerializer)
    with_offset = TumblingEventTimeWindows.of(Time.seconds(10), Time.seconds(2))
    assert with_offset.assign_windows(None, 12345, None) == [TimeWindow(12000, 22000)]
    assert with_offset.assign_windows(None, 11999, None) == [TimeWindow(2000, 12000)]
    negative = TumblingEventTimeWindows.of(Time.hours(24), Time.hours(-8))
    day = 24 * 3600 * 1000
    assert negative.assign_windows(None, day, None) == [TimeWindow(day - 8 * 3600 * 1000,
                                                                   2 * day - 8 * 3600 * 1000)]


def test_tumbling_validation_and_missing_timestamp():
    msg = "TumblingEventTimeWindows parameters must satisfy abs(offset) < size"
    _raises(Exception, msg, TumblingEventTimeWindows.of, Time.seconds(10), Time.seconds(10))
    _raises(Exception, msg, TumblingEventTimeWindows.of, Time.seconds(10), Time.seconds(-11))
    _raises(Exception, msg, TumblingEventTimeWindows, 0, 0)
    _raises(Exception, "TumblingProcessingTimeWindows parameters must satisfy abs(offset) < size",
            TumblingProcessingTimeWindows.of, Time.seconds(1), Time.seconds(1))
    assigner = TumblingEventTimeWindows.of(Time.seconds(10))
    _raises(Exception, NO_TS, assigner.assign_windows, None, MIN_LONG, None)
    _raises(Exception, NO_TS, assigner.assign_windows, None, None, None)


def test_tumbling_processing_time_uses_context_clock():
    assigner = TumblingProcessingTimeWindows.of(Time.seconds(10), Time.seconds(1))
    ctx = _AssignerContext(now=25000)
    assert assigner.assign_windows('x', MIN_LONG, ctx) == [TimeWindow(21000, 31000)]
    assert not assigner.is_event_time()
    assert isinstance(assigner.get_default_trigger(None), ProcessingTimeTrigger)
    assert repr(assigner) == 'TumblingProcessingTimeWindows(10000, 1000)'


def test_sliding_event_time_windows_newest_first():
    assigner = SlidingEventTimeWindows.of(Time.seconds(10), Time.seconds(5))
    assert assigner.assign_windows(None, 12345, None) == [TimeWindow(10000, 20000),
                                                          TimeWindow(5000, 15000)]
    offset = SlidingEventTimeWindows.of(Time.seconds(10), Time.seconds(5), Time.seconds(1))
    assert offset.assign_windows(None, 12345, None) == [TimeWindow(11000, 21000),
                                                        TimeWindow(6000, 16000)]
    uneven = SlidingEventTimeWindows.of(Time.seconds(10), Time.seconds(3))
    assert uneven.assign_windows(None, 12345, None) == [
        TimeWindow(12000, 22000), TimeWindow(9000, 19000), TimeWindow(6000, 16000),
        TimeWindow(3000, 13000)]
    assert repr(assigner) == 'SlidingEventTimeWindows(10000, 5000, 0)'
    _raises(Exception, NO_TS, assigner.assign_windows, None, MIN_LONG, None)


def test_sliding_validation_and_processing_time():
    msg = "SlidingEventTimeWindows parameters must satisfy abs(offset) < slide and size > 0"
    _raises(Exception, msg, SlidingEventTimeWindows.of, Time.seconds(10), Time.seconds(5),
            Time.seconds(5))
    _raises(Exception, msg, SlidingEventTimeWindows, 0, 5, 0)
    _raises(Exception, "SlidingProcessingTimeWindows parameters must satisfy abs(offset) < slide "
                       "and size > 0", SlidingProcessingTimeWindows, -1, 5, 0)
    assigner = SlidingProcessingTimeWindows.of(Time.seconds(4), Time.seconds(2))
    assert assigner.assign_windows(None, None, _AssignerContext(now=5000)) == [
        TimeWindow(4000, 8000), TimeWindow(2000, 6000)]


def test_session_windows_and_merging():
    assigner = EventTimeSessionWindows.with_gap(Time.seconds(3))
    assert assigner.assign_windows(None, 1000, None) == [TimeWindow(1000, 4000)]
    assert repr(assigner) == 'EventTimeSessionWindows(3000)'
    assert isinstance(assigner, MergingWindowAssigner) and assigner.is_event_time()
    _raises(Exception, "EventTimeSessionWindows parameters must satisfy 0 < size",
            EventTimeSessionWindows.with_gap, Time.seconds(0))
    _raises(Exception, "ProcessingTimeSessionWindows parameters must satisfy 0 < size",
            ProcessingTimeSessionWindows, -5)
    callback = _Collect()
    windows = [TimeWindow(1000, 4000), TimeWindow(9000, 12000), TimeWindow(3000, 6000),
               TimeWindow(6000, 7000), TimeWindow(20000, 21000)]
    assigner.merge_windows(windows, callback)
    assert callback.merges == [
        ([TimeWindow(1000, 4000), TimeWindow(3000, 6000), TimeWindow(6000, 7000)],
         TimeWindow(1000, 7000))]
    processing = ProcessingTimeSessionWindows.with_gap(Time.milliseconds(500))
    assert processing.assign_windows(None, 1, _AssignerContext(now=100)) == [TimeWindow(100, 600)]


def test_dynamic_session_windows():
    class Gap(SessionWindowTimeGapExtractor):
        def extract(self, element):
            return element

    dynamic = EventTimeSessionWindows.with_dynamic_gap(Gap())
    assert isinstance(dynamic, DynamicEventTimeSessionWindows)
    assert dynamic.assign_windows(250, 1000, None) == [TimeWindow(1000, 1250)]
    _raises(Exception, "Dynamic session time gap must satisfy 0 < gap",
            dynamic.assign_windows, 0, 1000, None)
    processing = ProcessingTimeSessionWindows.with_dynamic_gap(Gap())
    assert isinstance(processing, DynamicProcessingTimeSessionWindows)
    assert processing.assign_windows(10, 0, _AssignerContext(now=7)) == [TimeWindow(7, 17)]
    with pytest.raises(TypeError):
        SessionWindowTimeGapExtractor()


def test_global_and_count_assigners():
    assert GlobalWindows.create().assign_windows('x', 0, None) == [GlobalWindow.get()]
    assert isinstance(GlobalWindows.create().get_default_trigger(None), NeverTrigger)
    ctx = _AssignerContext()
    tumbling = CountTumblingWindowAssigner.of(2)
    assert [tumbling.assign_windows(i, 0, ctx) for i in range(5)] == [
        [CountWindow(0)], [CountWindow(0)], [CountWindow(1)], [CountWindow(1)], [CountWindow(2)]]
    assert repr(CountTumblingWindowAssigner.of(2)) == 'CountTumblingWindowAssigner(2)'
    sliding = CountSlidingWindowAssigner.of(3, 2)
    ctx = _AssignerContext()
    assert [[w.id for w in sliding.assign_windows(i, 0, ctx)] for i in range(6)] == [
        [0], [0], [1, 0], [1], [2, 1], [2]]
    trigger = sliding.get_default_trigger(None)
    assert isinstance(trigger, CountTrigger) and repr(trigger) == 'CountTrigger(3)'


# ------------------------------------------------------------------ triggers

def test_event_time_trigger():
    trigger = EventTimeTrigger.create()
    window = TimeWindow(0, 10)
    ctx = _TriggerContext(watermark=5)
    assert trigger.on_element('a', 3, window, ctx) == TriggerResult.CONTINUE
    assert ctx.event_timers == {9}
    assert trigger.on_event_time(8, window, ctx) == TriggerResult.CONTINUE
    assert trigger.on_event_time(9, window, ctx) == TriggerResult.FIRE
    assert trigger.on_processing_time(9, window, ctx) == TriggerResult.CONTINUE
    ctx.watermark = 9                                  # late element: fire at once
    assert trigger.on_element('b', 3, window, ctx) == TriggerResult.FIRE
    trigger.clear(window, ctx)
    assert ctx.event_timers == set()
    assert trigger.can_merge()


def test_processing_time_purging_and_never_triggers():
    window = TimeWindow(0, 10)
    ctx = _TriggerContext(now=2)
    trigger = ProcessingTimeTrigger.create()
    assert trigger.on_element('a', 0, window, ctx) == TriggerResult.CONTINUE
    assert ctx.processing_timers == {9}
    assert trigger.on_processing_time(9, window, ctx) == TriggerResult.FIRE
    purging = PurgingTrigger.of(EventTimeTrigger.create())
    assert purging.on_event_time(9, window, ctx) == TriggerResult.FIRE_AND_PURGE
    assert purging.on_event_time(3, window, ctx) == TriggerResult.CONTINUE
    assert purging.can_merge()
    never = NeverTrigger()
    assert never.on_element('a', 0, GlobalWindow.get(), ctx) == TriggerResult.CONTINUE
    assert not never.can_merge()


def test_count_trigger_fires_every_n():
    trigger = CountTrigger.of(3)
    ctx = _TriggerContext()
    results = [trigger.on_element(i, 0, CountWindow(0), ctx) for i in range(7)]
    assert [r.is_fire() for r in results] == [False, False, True, False, False, True, False]


def test_continuous_event_time_trigger():
    trigger = ContinuousEventTimeTrigger.of(Time.milliseconds(100))
    window = TimeWindow(0, 1000)
    ctx = _TriggerContext(watermark=0)
    assert trigger.on_element('a', 250, window, ctx) == TriggerResult.CONTINUE
    assert ctx.event_timers == {999, 300}
    assert trigger.on_event_time(300, window, ctx) == TriggerResult.FIRE
    assert 400 in ctx.event_timers
    assert trigger.on_event_time(350, window, ctx) == TriggerResult.CONTINUE
    assert trigger.on_event_time(999, window, ctx) == TriggerResult.FIRE


# ------------------------------------------------------------------ functions

def test_function_base_classes_are_abstract():
    for cls in (MapFunction, FlatMapFunction, FilterFunction, ReduceFunction, KeySelector,
                AggregateFunction, ProcessFunction, KeyedProcessFunction, CoMapFunction,
                WindowFunction, ProcessWindowFunction, Partitioner, RuntimeContext, TimerService,
                Trigger, WindowAssigner, ValueState, MapState):
        with pytest.raises(TypeError):
            cls()


def test_functions_can_be_subclassed_and_called():
    class Upper(MapFunction):
        def open(self, runtime_context):
            self.prefix = runtime_context.get_job_parameter('prefix', '?')

        def map(self, value):
            return self.prefix + value.upper()

    upper = Upper()
    upper.open(SimpleRuntimeContext('Map', 0, 1, {'prefix': '>'}))
    assert upper.map('ab') == '>AB'
    assert upper.close() is None

    class Split(FlatMapFunction):
        def flat_map(self, value):
            yield from value.split()

    assert list(Split().flat_map('a b c')) == ['a', 'b', 'c']

    class Avg(AggregateFunction):
        def create_accumulator(self):
            return (0, 0)

        def add(self, value, accumulator):
            return accumulator[0] + value, accumulator[1] + 1

        def get_result(self, accumulator):
            return accumulator[0] / accumulator[1]

        def merge(self, acc_a, acc_b):
            return acc_a[0] + acc_b[0], acc_a[1] + acc_b[1]

    avg = Avg()
    acc = avg.create_accumulator()
    for v in (1, 2, 6):
        acc = avg.add(v, acc)
    assert avg.get_result(avg.merge(acc, (3, 1))) == 3.0

    class Keyed(KeyedProcessFunction):
        def process_element(self, value, ctx):
            yield ctx.get_current_key(), value

    assert Keyed().on_timer(1, None) is None          # on_timer defaults to nothing
    assert fn.NullByteKeySelector().get_key('anything') == 0
    assert fn.ReduceFunctionWrapper(lambda a, b: a + b).reduce(2, 3) == 5


def test_window_function_adapters():
    class Count(WindowFunction):
        def apply(self, key, window, inputs):
            return [(key, window.start, len(list(inputs)))]

    class Describe(ProcessWindowFunction):
        def process(self, key, context, elements):
            yield key, context.window(), context.current_watermark(), list(elements)

    class InternalCtx(fn.InternalWindowFunction.InternalWindowContext):
        def current_processing_time(self):
            return 1

        def current_watermark(self):
            return 42

        def window_state(self):
            return None

        def global_state(self):
            return None

    w = TimeWindow(0, 10)
    assert list(fn.InternalIterableWindowFunction(Count()).process('k', w, InternalCtx(),
                                                                    [1, 2])) == [('k', 0, 2)]
    assert list(fn.InternalSingleValueWindowFunction(Count()).process('k', w, InternalCtx(),
                                                                       7)) == [('k', 0, 1)]
    assert list(fn.InternalIterableProcessWindowFunction(Describe()).process(
        'k', w, InternalCtx(), [1])) == [('k', w, 42, [1])]
    assert list(fn.PassThroughWindowFunction().apply('k', w, [1, 2])) == [1, 2]
    assert list(fn.PassThroughAllWindowFunction().apply(w, [3])) == [3]


def test_java_function_wrappers_keep_their_argument():
    assert SourceFunction('org.example.MySource').get_java_function() == 'org.example.MySource'
    assert SinkFunction(sink_func='org.example.MySink').get_java_function() == 'org.example.MySink'


def test_async_function_and_retry_strategies():
    class Echo(AsyncFunction):
        async def async_invoke(self, value):
            return [value]

    assert asyncio.run(Echo().async_invoke(5)) == [5]
    _raises(TimeoutError, "Async function call has timed out for input: 5", Echo().timeout, 5)
    none = AsyncRetryStrategy.no_restart()
    assert not none.can_retry(1)
    fixed = AsyncRetryStrategy.fixed_delay(3, 100, None, lambda e: True)
    assert fixed.can_retry(3) and not fixed.can_retry(4)
    assert fixed.get_backoff_time_millis(2) == 100
    assert fixed.get_retry_predicate().result_predicate() is None
    assert fixed.get_retry_predicate().exception_predicate()(ValueError())
    backoff = AsyncRetryStrategy.exponential_backoff(5, 100, 350, 2.0, None, None)
    assert [backoff.get_backoff_time_millis(n) for n in (1, 2, 3, 4)] == [100, 200, 350, 350]


def test_simple_runtime_context():
    ctx = SimpleRuntimeContext('Map -> Filter', 2, 4, {'k': 'v'})
    assert ctx.get_task_name() == 'Map -> Filter'
    assert ctx.get_index_of_this_subtask() == 2
    assert ctx.get_number_of_parallel_subtasks() == 4
    assert ctx.get_max_number_of_parallel_subtasks() == 128
    assert SimpleRuntimeContext('t', 0, 200, {}).get_max_number_of_parallel_subtasks() == 512
    assert SimpleRuntimeContext('t', 0, 1, {}, max_parallelism=7) \
        .get_max_number_of_parallel_subtasks() == 7
    assert ctx.get_attempt_number() == 0
    assert ctx.get_task_name_with_subtasks() == 'Map -> Filter (3/4)#0'
    assert ctx.get_job_parameter('k', 'd') == 'v'
    assert ctx.get_job_parameter('missing', 'd') == 'd'
    counter = ctx.get_metrics_group().add_group('g').counter('c')
    counter.inc()
    counter.inc(2)
    assert counter.get_count() == 3
    with pytest.raises(UnsupportedFeatureError, match="RuntimeContext.get_state"):
        ctx.get_state(ValueStateDescriptor('s', Types.INT()))
    with pytest.raises(UnsupportedFeatureError):
        ctx.get_map_state(MapStateDescriptor('m', Types.STRING(), Types.INT()))


# ------------------------------------------------------------------ state

def test_state_descriptors():
    value = ValueStateDescriptor('v', Types.INT())
    assert value.get_name() == 'v' and value.type_info == Types.INT()
    assert value.get_type_info() == Types.INT()
    lst = ListStateDescriptor('l', Types.STRING())
    assert isinstance(lst.type_info, ListTypeInfo)
    mp = MapStateDescriptor('m', Types.STRING(), Types.LONG())
    assert isinstance(mp.type_info, MapTypeInfo)
    reducing = ReducingStateDescriptor('r', lambda a, b: a + b, Types.INT())
    assert reducing.get_reduce_function().reduce(1, 2) == 3
    _raises(TypeError, "The input must be a ReduceFunction or a callable function!",
            ReducingStateDescriptor, 'r', 5, Types.INT())

    class Sum(AggregateFunction):
        def create_accumulator(self):
            return 0

        def add(self, value, accumulator):
            return value + accumulator

        def get_result(self, accumulator):
            return accumulator

        def merge(self, acc_a, acc_b):
            return acc_a + acc_b

    agg = Sum()
    assert AggregatingStateDescriptor('a', agg, Types.INT()).get_agg_function() is agg
    _raises(TypeError, "The input must be a pyflink.datastream.functions.AggregateFunction!",
            AggregatingStateDescriptor, 'a', lambda a, b: a, Types.INT())


def test_state_ttl_config_builder():
    ttl = StateTtlConfig.new_builder(Time.seconds(1)).build()
    assert ttl.get_update_type() == StateTtlConfig.UpdateType.OnCreateAndWrite
    assert ttl.get_state_visibility() == StateTtlConfig.StateVisibility.NeverReturnExpired
    assert ttl.get_ttl() == Time.seconds(1) and ttl.is_enabled()
    strategies = ttl.get_cleanup_strategies()
    assert strategies.is_cleanup_in_background() and not strategies.in_full_snapshot()
    assert strategies.get_incremental_cleanup_strategy().get_cleanup_size() == 5
    assert strategies.get_rocksdb_compact_filter_cleanup_strategy() \
        .get_periodic_compaction_time() == Duration.of_days(30)
    custom = StateTtlConfig.new_builder(Time.seconds(1)) \
        .update_ttl_on_read_and_write() \
        .return_expired_if_not_cleaned_up() \
        .cleanup_full_snapshot() \
        .cleanup_incrementally(10, True) \
        .cleanup_in_rocksdb_compact_filter(500, Duration.of_hours(1)) \
        .set_ttl(Time.minutes(2)) \
        .build()
    assert custom.get_update_type() == StateTtlConfig.UpdateType.OnReadAndWrite
    assert custom.get_ttl() == Time.minutes(2)
    s = custom.get_cleanup_strategies()
    assert s.in_full_snapshot()
    assert s.get_incremental_cleanup_strategy().run_cleanup_for_every_record()
    assert s.get_rocksdb_compact_filter_cleanup_strategy().get_query_time_after_num_entries() == 500
    disabled = StateTtlConfig.new_builder(Time.seconds(1)) \
        .set_update_type(StateTtlConfig.UpdateType.Disabled).disable_cleanup_in_background().build()
    assert not disabled.is_enabled()
    assert disabled.get_cleanup_strategies().get_incremental_cleanup_strategy() is None
    descriptor = ValueStateDescriptor('v', Types.INT())
    descriptor.enable_time_to_live(custom)
    assert descriptor.get_ttl_config() is custom


def test_map_state_dunder_methods():
    class DictState(MapState):
        def __init__(self):
            self.d = {}

        def get(self, key):
            return self.d.get(key)

        def put(self, key, value):
            self.d[key] = value

        def put_all(self, dict_value):
            self.d.update(dict_value)

        def remove(self, key):
            self.d.pop(key, None)

        def contains(self, key):
            return key in self.d

        def items(self):
            return self.d.items()

        def keys(self):
            return self.d.keys()

        def values(self):
            return self.d.values()

        def is_empty(self):
            return not self.d

        def clear(self):
            self.d.clear()

    state = DictState()
    state.put_all({'a': 1, 'b': 2})
    assert state['a'] == 1 and 'b' in state and 'c' not in state
    assert sorted(state) == ['a', 'b']


# ------------------------------------------------------------------ OutputTag

def test_output_tag():
    _raises(ValueError, "OutputTag tag_id cannot be None or empty string", OutputTag, None)
    _raises(ValueError, "OutputTag tag_id cannot be None or empty string", OutputTag, '')
    _raises(TypeError, "OutputTag type_info must be None, list or TypeInformation",
            OutputTag, 'late', 'STRING')
    assert OutputTag('late').type_info == Types.PICKLED_BYTE_ARRAY()
    assert OutputTag('late', Types.STRING()).type_info == Types.STRING()
    row = OutputTag('late', [Types.STRING(), Types.INT()]).type_info
    assert isinstance(row, RowTypeInfo) and row == Types.ROW([Types.STRING(), Types.INT()])
    assert OutputTag('late').tag_id == 'late'
    assert isinstance(Types.STRING(), TypeInformation)


# ------------------------------------------------------------------ CheckpointConfig

def test_checkpoint_config_defaults():
    config = CheckpointConfig(None)
    assert not config.is_checkpointing_enabled()
    assert config.get_checkpoint_interval() == -1
    assert config.get_checkpointing_mode() == CheckpointingMode.EXACTLY_ONCE
    assert config.get_checkpoint_timeout() == 600000
    assert config.get_min_pause_between_checkpoints() == 0
    assert config.get_max_concurrent_checkpoints() == 1
    assert config.get_tolerable_checkpoint_failure_number() == 0
    assert config.is_fail_on_checkpointing_errors()
    assert not config.is_externalized_checkpoints_enabled()
    assert config.get_externalized_checkpoint_retention() == \
        ExternalizedCheckpointRetention.NO_EXTERNALIZED_CHECKPOINTS
    assert not config.is_unaligned_checkpoints_enabled()
    assert not config.is_force_unaligned_checkpoints()
    assert config.get_aligned_checkpoint_timeout() == Duration.of_millis(0)
    assert config.get_alignment_timeout() == Duration.of_seconds(0)


def test_checkpoint_config_setters_return_self():
    config = CheckpointConfig(None)
    chained = (config.set_checkpoint_interval(1000)
               .set_checkpointing_mode(CheckpointingMode.AT_LEAST_ONCE)
               .set_checkpoint_timeout(300000)
               .set_min_pause_between_checkpoints(500)
               .set_max_concurrent_checkpoints(2)
               .set_tolerable_checkpoint_failure_number(3)
               .set_externalized_checkpoint_retention(
                   ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION)
               .enable_unaligned_checkpoints()
               .set_aligned_checkpoint_timeout(Duration.of_seconds(5))
               .set_force_unaligned_checkpoints())
    assert chained is config
    assert config.is_checkpointing_enabled() and config.get_checkpoint_interval() == 1000
    assert config.get_checkpointing_mode() == CheckpointingMode.AT_LEAST_ONCE
    assert config.get_checkpoint_timeout() == 300000
    assert config.get_min_pause_between_checkpoints() == 500
    assert config.get_max_concurrent_checkpoints() == 2
    assert config.get_tolerable_checkpoint_failure_number() == 3
    assert config.is_externalized_checkpoints_enabled()
    assert config.get_externalized_checkpoint_retention() == \
        ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION
    assert config.is_unaligned_checkpoints_enabled()
    assert config.get_alignment_timeout() == Duration.of_seconds(5)
    assert config.is_force_unaligned_checkpoints()
    assert config.disable_unaligned_checkpoints() is config
    assert not config.is_unaligned_checkpoints_enabled()
    assert config.set_alignment_timeout(Duration.of_minutes(1)) is config
    assert config.get_aligned_checkpoint_timeout() == Duration.of_minutes(1)
    # set_fail_on_checkpointing_errors is ignored once a tolerable number was set
    assert config.set_fail_on_checkpointing_errors(True) is config
    assert config.get_tolerable_checkpoint_failure_number() == 3
    fresh = CheckpointConfig(None).set_fail_on_checkpointing_errors(False)
    assert not fresh.is_fail_on_checkpointing_errors()
    assert fresh.get_tolerable_checkpoint_failure_number() == 2 ** 31 - 1


def test_checkpoint_config_validation():
    config = CheckpointConfig(None)
    error = _raises(Py4JJavaError,
                    "An error occurred while calling setCheckpointInterval.\n: "
                    "java.lang.IllegalArgumentException: Checkpoint interval must be larger than "
                    "or equal to 10 ms", config.set_checkpoint_interval, 5)
    assert isinstance(error, JavaStyleError)
    with pytest.raises(JavaStyleError, match="Checkpoint timeout must be larger"):
        config.set_checkpoint_timeout(0)
    with pytest.raises(JavaStyleError, match="Pause value must be zero or positive"):
        config.set_min_pause_between_checkpoints(-1)
    with pytest.raises(JavaStyleError, match="at least one"):
        config.set_max_concurrent_checkpoints(0)
    with pytest.raises(JavaStyleError, match="must be non-negative"):
        config.set_tolerable_checkpoint_failure_number(-1)
    assert config.get_checkpoint_interval() == -1


# ------------------------------------------------------------------ backends, storage, slots

def test_state_backend_and_checkpoint_storage_holders():
    rocks = EmbeddedRocksDBStateBackend(True)
    assert rocks.is_incremental_checkpoints_enabled()
    assert rocks.get_predefined_options() == PredefinedOptions.DEFAULT
    rocks.set_predefined_options(PredefinedOptions.FLASH_SSD_OPTIMIZED)
    assert rocks.get_predefined_options() == PredefinedOptions.FLASH_SSD_OPTIMIZED
    with pytest.raises(TypeError):
        EmbeddedRocksDBStateBackend('yes')
    assert JobManagerCheckpointStorage().get_max_state_size() == 5 * 1024 * 1024
    assert FileSystemCheckpointStorage('file:///tmp/chk').get_checkpoint_path() == 'file:/tmp/chk'   # Flink's Path
    _raises(ValueError, "checkpoint_path must not be None", FileSystemCheckpointStorage)


def test_slot_sharing_group_and_memory_size():
    heap = MemorySize.of_mebi_bytes(100)
    group = SlotSharingGroup.builder('ssg') \
        .set_cpu_cores(1.0) \
        .set_task_heap_memory(heap) \
        .set_managed_memory_mb(300) \
        .set_external_resource('gpu', 1.0) \
        .build()
    assert group.get_name() == 'ssg' and group.get_cpu_cores() == 1.0
    assert group.get_task_heap_memory() == heap
    assert group.get_task_off_heap_memory() == MemorySize(bytes_size=0)
    assert group.get_managed_memory() == MemorySize.of_mebi_bytes(300)
    assert group.get_external_resources() == {'gpu': 1.0}
    bare = SlotSharingGroup.builder('bare').build()
    assert bare.get_cpu_cores() is None and bare.get_task_heap_memory() is None
    assert bare.get_external_resources() == {}
    with pytest.raises(JavaStyleError):
        SlotSharingGroup.builder('x').set_cpu_cores(1.0).set_task_off_heap_memory_mb(10).build()
    with pytest.raises(JavaStyleError):
        SlotSharingGroup.builder('x').set_task_heap_memory(MemorySize(bytes_size=0))
    m1, m3 = MemorySize.of_mebi_bytes(100), MemorySize.of_mebi_bytes(200)
    assert m1 <= MemorySize.of_mebi_bytes(100) and m1 <= m3 and not m3 <= m1
    assert m1.get_kibi_bytes() == 102400 and m1.get_mebi_bytes() == 100
    assert str(m1) == '100 mb' and str(MemorySize(bytes_size=1500)) == '1500 bytes'

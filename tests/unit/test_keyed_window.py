"""The keyed engine's WindowOperator.

The scenarios marked "oracle" replay jobs run under real PyFlink 2.3.0 (parallelism 1,
from_collection -> slow map -> assign_timestamps_and_watermarks(bounded out-of-orderness
2 ms) -> key_by(x[0]) -> window ...; a logging trigger recorded the watermark the window
operator saw at each element; outputs printed with ctx.timestamp() downstream; the bounded
job ends with the MAX watermark). Each replay feeds the same elements with the same
watermarks and checks the exact outputs, their order and their timestamps.
"""
import pytest

from pyflink_compat.common.time import Time
from pyflink_compat.common.typeinfo import Types
from pyflink_compat.datastream.functions import (AggregateFunction, ProcessAllWindowFunction,
                                                 ProcessWindowFunction, WindowFunction)
from pyflink_compat.datastream.output_tag import OutputTag
from pyflink_compat.datastream.state import ValueStateDescriptor
from pyflink_compat.datastream.window import (CountSlidingWindowAssigner,
                                              CountTumblingWindowAssigner,
                                              EventTimeSessionWindows, GlobalWindows,
                                              ProcessingTimeSessionWindows, PurgingTrigger,
                                              CountTrigger, SessionWindowTimeGapExtractor,
                                              SlidingEventTimeWindows,
                                              TumblingEventTimeWindows,
                                              TumblingProcessingTimeWindows)
from pyflink_compat.runtime.keyed import ListCollector, MIN_WATERMARK
from pyflink_compat.runtime.keyed.window_operator import (ALL_WINDOW_KEY, WindowOperator,
                                                          window_operation_descriptor)

MIN = MIN_WATERMARK
LATE = OutputTag("late", Types.TUPLE([Types.STRING(), Types.INT()]))


def red(a, b):
    return (a[0], a[1] + b[1])


class SumAgg(AggregateFunction):
    def create_accumulator(self):
        return [0, 0]

    def add(self, v, acc):
        return [acc[0] + v[1], acc[1] + 1]

    def get_result(self, acc):
        return (acc[0], acc[1])

    def merge(self, a, b):
        return [a[0] + b[0], a[1] + b[1]]


class PWF(ProcessWindowFunction):
    def process(self, key, context, elements):
        yield (key, context.window().start, context.window().end, [e[1] for e in elements],
               context.current_watermark())


class PWF1(ProcessWindowFunction):
    def process(self, key, context, elements):
        yield (key, context.window().start, context.window().end, list(elements))


class WF(WindowFunction):
    def apply(self, key, window, inputs):
        yield (key, window.start, window.end, [e[1] for e in inputs])


class Elements(ProcessWindowFunction):
    def process(self, key, context, elements):
        yield (key, context.window(), [e[1] for e in elements])


def make(assigner, kind, function, window_function=None, **kwargs):
    op_kwargs = {k: kwargs.pop(k) for k in ('clock', 'has_side_output') if k in kwargs}
    desc = window_operation_descriptor(assigner, kind, function, window_function, **kwargs)
    out = ListCollector()
    op = WindowOperator(desc, output=out, **op_kwargs)
    op.open()
    return op, out


def replay(op, events, end=True):
    """events: (key, ts, watermark seen before the element); the value is (key, ts)."""
    for key, ts, wm in events:
        op.advance_watermark(wm)
        op.process_element(key, (key, ts), ts)
    if end:
        op.end_input()


def test_oracle_tumbling_reduce_lateness_and_late_side_output():
    op, out = make(TumblingEventTimeWindows.of(Time.milliseconds(10)), 'reduce', red,
                   allowed_lateness=10, late_data_output_tag=LATE)
    replay(op, [("a", 1, MIN), ("a", 4, -2), ("a", 12, -2), ("a", 3, 9), ("a", 25, 9),
                ("a", 7, 22), ("a", 14, 22), ("a", 40, 22), ("a", 2, 22), ("a", 33, 22),
                ("a", 19, 37)])
    assert out.records == [(("a", 5), 9), (("a", 8), 3), (("a", 12), 19), (("a", 26), 14),
                           (("a", 25), 29), (("a", 33), 39), (("a", 40), 49)]
    assert out.side == [("late", ("a", 7), 7), ("late", ("a", 2), 2), ("late", ("a", 19), 19)]


def test_oracle_tumbling_reduce_with_process_window_function_two_keys():
    op, out = make(TumblingEventTimeWindows.of(Time.milliseconds(10)), 'reduce', red, PWF1(),
                   allowed_lateness=5, late_data_output_tag=LATE)
    replay(op, [("a", 1, MIN), ("b", 2, MIN), ("a", 8, -1), ("b", 9, -1), ("a", 5, 6),
                ("b", 30, 6), ("a", 16, 27), ("b", 5, 27), ("a", 12, 27), ("a", 27, 27),
                ("b", 14, 27), ("a", 6, 27)])
    assert out.records == [(("a", 0, 10, [("a", 14)]), 9), (("b", 0, 10, [("b", 11)]), 9),
                           (("a", 20, 30, [("a", 27)]), 29), (("b", 30, 40, [("b", 30)]), 39)]
    assert [(v, t) for _, v, t in out.side] == [
        (("a", 16), 16), (("b", 5), 5), (("a", 12), 12), (("b", 14), 14), (("a", 6), 6)]


def test_oracle_sliding_aggregate():
    op, out = make(SlidingEventTimeWindows.of(Time.milliseconds(10), Time.milliseconds(5)),
                   'aggregate', SumAgg(), late_data_output_tag=LATE)
    replay(op, [("a", 1, MIN), ("b", 2, -2), ("a", 8, -1), ("b", 9, 5), ("a", 5, 5),
                ("b", 30, 6), ("a", 16, 6), ("b", 5, 27), ("a", 12, 27), ("a", 27, 27),
                ("b", 14, 27), ("a", 6, 27)])
    assert out.records == [((1, 1), 4), ((2, 1), 4), ((14, 3), 9), ((11, 2), 9), ((13, 2), 14),
                           ((9, 1), 14), ((16, 1), 19), ((16, 1), 24), ((27, 1), 29),
                           ((30, 1), 34), ((27, 1), 34), ((30, 1), 39)]
    assert [(v, t) for _, v, t in out.side] == [
        (("b", 5), 5), (("a", 12), 12), (("b", 14), 14), (("a", 6), 6)]


def test_oracle_sliding_aggregate_with_window_function_lateness_dropped():
    op, out = make(SlidingEventTimeWindows.of(Time.milliseconds(10), Time.milliseconds(5)),
                   'aggregate', SumAgg(), PWF1(), allowed_lateness=4)
    replay(op, [("a", 1, MIN), ("a", 4, MIN), ("a", 12, 1), ("a", 3, 9), ("a", 25, 9),
                ("a", 7, 22), ("a", 14, 22), ("a", 40, 22), ("a", 2, 22), ("a", 33, 22),
                ("a", 19, 37)])
    assert out.records == [
        (("a", -5, 5, [(5, 2)]), 4), (("a", 0, 10, [(5, 2)]), 9), (("a", 0, 10, [(8, 3)]), 3),
        (("a", 5, 15, [(12, 1)]), 14), (("a", 10, 20, [(12, 1)]), 19),
        (("a", 10, 20, [(26, 2)]), 14), (("a", 20, 30, [(25, 1)]), 29),
        (("a", 25, 35, [(58, 2)]), 34), (("a", 30, 40, [(33, 1)]), 39),
        (("a", 35, 45, [(40, 1)]), 44), (("a", 40, 50, [(40, 1)]), 49)]
    assert out.side == [] and op.num_late_records_dropped == 3


def test_oracle_tumbling_apply():
    op, out = make(TumblingEventTimeWindows.of(Time.milliseconds(10)), 'apply', WF(),
                   allowed_lateness=3, late_data_output_tag=LATE)
    replay(op, [("a", 1, MIN), ("b", 2, MIN), ("a", 8, -1), ("b", 9, 5), ("a", 5, 5),
                ("b", 30, 5), ("a", 16, 5), ("b", 5, 27), ("a", 12, 27), ("a", 27, 27),
                ("b", 14, 27), ("a", 6, 27)])
    assert out.records == [(("a", 0, 10, [1, 8, 5]), 9), (("b", 0, 10, [2, 9]), 9),
                           (("a", 10, 20, [16]), 19), (("a", 20, 30, [27]), 29),
                           (("b", 30, 40, [30]), 39)]
    assert [(v, t) for _, v, t in out.side] == [
        (("b", 5), 5), (("a", 12), 12), (("b", 14), 14), (("a", 6), 6)]


def test_oracle_session_process_merging_order_and_lateness():
    op, out = make(EventTimeSessionWindows.with_gap(Time.milliseconds(4)), 'process', PWF(),
                   allowed_lateness=3, late_data_output_tag=LATE)
    replay(op, [("a", 1, MIN), ("a", 9, -2), ("b", 3, -2), ("a", 5, 6), ("b", 20, 6),
                ("a", 30, 6), ("b", 10, 6), ("a", 21, 27), ("a", 18, 27), ("b", 40, 27),
                ("a", 11, 37)])
    mx = 0x7fffffffffffffff
    assert out.records == [
        (("a", 1, 5, [1], 6), 4), (("b", 3, 7, [3], 6), 6),
        (("a", 1, 13, [9, 1, 5], 27), 12),        # merged contents in PyFlink's order
        (("b", 10, 14, [10], 27), 13), (("b", 20, 24, [20], 27), 23),
        (("a", 30, 34, [30], 37), 33), (("b", 40, 44, [40], mx), 43)]
    assert [(v, t) for _, v, t in out.side] == [(("a", 21), 21), (("a", 18), 18),
                                                (("a", 11), 11)]


def test_oracle_session_reduce():
    op, out = make(EventTimeSessionWindows.with_gap(Time.milliseconds(4)), 'reduce', red,
                   late_data_output_tag=LATE)
    replay(op, [("a", 1, MIN), ("a", 9, -2), ("b", 3, 6), ("a", 5, 6), ("b", 20, 6),
                ("a", 30, 6), ("b", 10, 6), ("a", 21, 27), ("a", 18, 27), ("b", 40, 27),
                ("a", 11, 37)])
    assert out.records == [(("a", 1), 4), (("a", 14), 12), (("b", 10), 13), (("b", 20), 23),
                           (("a", 30), 33), (("b", 40), 43)]
    assert [(v, t) for _, v, t in out.side] == [(("b", 3), 3), (("a", 21), 21),
                                                (("a", 18), 18), (("a", 11), 11)]


def test_oracle_session_aggregate():
    op, out = make(EventTimeSessionWindows.with_gap(Time.milliseconds(4)), 'aggregate',
                   SumAgg())
    replay(op, [("a", 1, MIN), ("a", 9, -2), ("b", 3, -2), ("a", 5, 6), ("b", 20, 6),
                ("a", 30, 6), ("b", 10, 27), ("a", 21, 27), ("a", 18, 27), ("b", 40, 27),
                ("a", 11, 37)])
    assert out.records == [((1, 1), 4), ((3, 1), 6), ((14, 2), 12), ((20, 1), 23),
                           ((30, 1), 33), ((40, 1), 43)]
    assert op.num_late_records_dropped == 4


def test_oracle_session_aggregate_bridging_keeps_one_accumulator():
    # a5 bridges the sessions [1,5) and [9,13): PyFlink 2.3.0 keeps only the accumulator of the
    # window its set order puts first ([9,13): 9), loses [1,5)'s, and outputs (14, 2), not (15, 3)
    op, out = make(EventTimeSessionWindows.with_gap(Time.milliseconds(4)), 'aggregate',
                   SumAgg())
    replay(op, [("a", 1, MIN), ("a", 9, -2), ("a", 5, -2), ("b", 1, 6), ("b", 9, 6),
                ("b", 20, 6), ("b", 5, 6), ("a", 30, 6)])
    assert out.records == [((14, 2), 12), ((14, 2), 12), ((20, 1), 23), ((30, 1), 33)]


def test_flink_merge_semantics_when_asked():
    op, out = make(EventTimeSessionWindows.with_gap(Time.milliseconds(4)), 'aggregate',
                   SumAgg())
    op.backend.pyflink_merge = False
    replay(op, [("a", 1, MIN), ("a", 9, -2), ("a", 5, -2)])
    assert out.records == [((15, 3), 12)]


# ---------------------------------------------------------------------------------------------
# Not replayed from the oracle: behaviour derived from PyFlink's window operator
# ---------------------------------------------------------------------------------------------

def test_snapshot_restore_mid_window_continues_identically():
    events = [("a", 1, MIN), ("b", 2, MIN), ("a", 8, -1), ("b", 9, -1), ("a", 5, 6),
              ("b", 30, 6), ("a", 16, 27), ("b", 5, 27), ("a", 12, 27), ("a", 27, 27),
              ("b", 14, 27), ("a", 6, 27)]

    def build():
        return make(TumblingEventTimeWindows.of(Time.milliseconds(10)), 'process', PWF(),
                    allowed_lateness=5, late_data_output_tag=LATE)

    op, whole = build()
    replay(op, events)
    for cut in (3, 6, 9):
        op1, first = build()
        replay(op1, events[:cut], end=False)
        data = op1.snapshot()
        desc_op, second = build()
        desc_op.restore(data)
        replay(desc_op, events[cut:])
        assert first.records + second.records == whole.records
        assert first.side + second.side == whole.side


def test_session_snapshot_restore_mid_session():
    events = [("a", 1, MIN), ("a", 9, -2), ("b", 3, -2), ("a", 5, 6), ("b", 20, 6),
              ("a", 30, 6), ("b", 10, 6), ("a", 21, 27)]

    def build():
        return make(EventTimeSessionWindows.with_gap(Time.milliseconds(4)), 'process', PWF(),
                    allowed_lateness=3, late_data_output_tag=LATE)

    op, whole = build()
    replay(op, events)
    op1, first = build()
    replay(op1, events[:3], end=False)
    op2, second = build()
    op2.restore(op1.snapshot())
    replay(op2, events[3:])
    assert first.records + second.records == whole.records


class Gap(SessionWindowTimeGapExtractor):
    def extract(self, element):
        return 3 if element[0] == 'a' else 6


def test_oracle_dynamic_gap_sessions():
    op, out = make(EventTimeSessionWindows.with_dynamic_gap(Gap()), 'process', PWF())
    replay(op, [("a", 1, MIN), ("a", 9, -2), ("b", 3, -2), ("a", 5, 6), ("b", 20, 6),
                ("a", 30, 17), ("b", 10, 17), ("a", 21, 27), ("a", 18, 27), ("b", 40, 27),
                ("a", 11, 37)])
    mx = 0x7fffffffffffffff
    assert out.records == [
        (("a", 1, 4, [1], 6), 3), (("a", 5, 8, [5], 17), 7), (("b", 3, 9, [3], 17), 8),
        (("a", 9, 12, [9], 17), 11), (("b", 20, 26, [20], 27), 25), (("a", 30, 33, [30], 37), 32),
        (("b", 40, 46, [40], mx), 45)]
    assert op.num_late_records_dropped == 4


def test_oracle_count_sliding_window_reduce():
    # count_window(3, 2).reduce: outputs carry the timestamp of the element that fired them
    op, out = make(CountSlidingWindowAssigner.of(3, 2), 'reduce', red)
    for key, ts in (("a", 1), ("b", 2), ("a", 8), ("b", 9), ("a", 5), ("b", 30), ("a", 16),
                    ("b", 5), ("a", 12), ("a", 27), ("b", 14), ("a", 6)):
        op.process_element(key, (key, ts), ts)
    op.end_input()
    assert out.records == [(("a", 14), 5), (("b", 41), 30), (("a", 33), 12), (("b", 49), 14),
                           (("a", 45), 6)]


def test_oracle_window_all_tumbling_process():
    op, out = make(TumblingEventTimeWindows.of(Time.milliseconds(10)), 'process', AllPWF(),
                   all_window=True)
    for key, ts, wm in (("a", 1, MIN), ("b", 2, MIN), ("a", 8, -1), ("b", 9, -1), ("a", 5, 6),
                        ("b", 30, 6), ("a", 16, 27), ("b", 5, 27), ("a", 12, 27), ("a", 27, 27),
                        ("b", 14, 27), ("a", 6, 27)):
        op.advance_watermark(wm)
        op.process_element(ALL_WINDOW_KEY, (key, ts), ts)
    op.end_input()
    assert out.records == [((0, 10, [1, 2, 5, 8, 9]), 9), ((20, 30, [27]), 29),
                           ((30, 40, [30]), 39)]


def test_dynamic_gap_sessions():
    op, out = make(EventTimeSessionWindows.with_dynamic_gap(Gap()), 'process', PWF())
    replay(op, [("a", 1, MIN), ("a", 3, MIN), ("a", 7, MIN), ("b", 1, MIN), ("b", 6, MIN)])
    mx = 0x7fffffffffffffff
    assert sorted(v for v, _ in out.records) == [("a", 1, 6, [1, 3], mx), ("a", 7, 10, [7], mx),
                                                 ("b", 1, 12, [1, 6], mx)]


def test_count_tumbling_window_fires_with_element_timestamp():
    # oracle (count_window(3).reduce, one key): outputs ('a', 17)@12, ('a', 35)@7, ('a', 56)@2
    op, out = make(CountTumblingWindowAssigner.of(3), 'reduce', red)
    data = [1, 4, 12, 3, 25, 7, 14, 40, 2, 33, 19]
    for ts in data:
        op.process_element("a", ("a", ts), ts)
    op.end_input()
    assert out.records == [(("a", 17), 12), (("a", 35), 7), (("a", 56), 2)]


def test_count_sliding_window():
    op, out = make(CountSlidingWindowAssigner.of(3, 2), 'process', Elements())
    for ts in [10, 11, 12, 13, 14, 15]:
        op.process_element("k", ("k", ts), ts)
    assert [(v[1].id, v[2], t) for v, t in out.records] == [
        (0, [10, 11, 12], 12), (1, [12, 13, 14], 14)]


def test_global_window_with_purging_count_trigger():
    desc_trigger = PurgingTrigger.of(CountTrigger.of(2))
    op, out = make(GlobalWindows.create(), 'process', Elements(), trigger=desc_trigger)
    for ts in range(5):
        op.process_element("k", ("k", ts), ts)
    op.end_input()
    assert [(v[2], t) for v, t in out.records] == [([0, 1], 1), ([2, 3], 3)]


class Clock(object):
    def __init__(self, now=0):
        self.now = now

    def __call__(self):
        return self.now


def test_processing_time_tumbling_windows():
    clock = Clock(1000)
    op, out = make(TumblingProcessingTimeWindows.of(Time.milliseconds(100)), 'reduce', red,
                   clock=clock)
    op.process_element("a", ("a", 1), None)
    clock.now = 1050
    op.process_element("a", ("a", 2), None)
    op.process_element("b", ("b", 5), None)
    op.advance_processing_time()
    assert out.records == []
    clock.now = 1099
    op.advance_processing_time()
    assert out.records == [(("a", 3), 1099), (("b", 5), 1099)]
    clock.now = 1120
    op.process_element("a", ("a", 7), None)
    clock.now = 1200
    op.advance_processing_time()
    assert out.records[-1] == (("a", 7), 1199)
    assert op.timer_service.num_processing_time_timers() == 0


def test_processing_time_sessions():
    clock = Clock(0)
    op, out = make(ProcessingTimeSessionWindows.with_gap(Time.milliseconds(10)), 'apply', WF(),
                   clock=clock)
    for now, ts in ((0, 1), (5, 2), (20, 3)):
        clock.now = now
        op.advance_processing_time()
        op.process_element("k", ("k", ts), None)
    clock.now = 100
    op.advance_processing_time()
    assert [v for v, _ in out.records] == [("k", 0, 15, [1, 2]), ("k", 20, 30, [3])]


class WindowStateCounter(ProcessWindowFunction):
    """Counts firings per window (window state) and per key (global state)."""

    def process(self, key, context, elements):
        per_window = context.window_state().get_state(ValueStateDescriptor("fires", Types.INT()))
        per_key = context.global_state().get_state(ValueStateDescriptor("all", Types.INT()))
        per_window.update((per_window.value() or 0) + 1)
        per_key.update((per_key.value() or 0) + 1)
        yield (context.window().start, per_window.value(), per_key.value())

    def clear(self, context):
        context.window_state().get_state(ValueStateDescriptor("fires", Types.INT())).clear()


def test_window_and_global_state_and_clear():
    op, out = make(TumblingEventTimeWindows.of(Time.milliseconds(10)), 'process',
                   WindowStateCounter(), allowed_lateness=100)
    op.process_element("k", ("k", 1), 1)
    op.advance_watermark(10)
    op.process_element("k", ("k", 2), 2)          # late firing of [0, 10)
    op.process_element("k", ("k", 12), 12)
    op.advance_watermark(20)
    assert [v for v, _ in out.records] == [(0, 1, 1), (0, 2, 2), (10, 1, 3)]
    op.advance_watermark(200)                      # cleanup: clear() drops the window state
    assert op.backend.get_state(ValueStateDescriptor("fires", Types.INT()))._table == {}


def test_merging_window_state_is_refused():
    op, out = make(EventTimeSessionWindows.with_gap(Time.milliseconds(4)), 'process',
                   WindowStateCounter())
    op.process_element("k", ("k", 1), 1)
    with pytest.raises(Exception, match="Per-window state is not allowed"):
        op.end_input()


class AllPWF(ProcessAllWindowFunction):
    def process(self, context, elements):
        yield (context.window().start, context.window().end, sorted(e[1] for e in elements))


def test_window_all_uses_one_key():
    op, out = make(TumblingEventTimeWindows.of(Time.milliseconds(10)), 'process', AllPWF(),
                   all_window=True)
    for key, ts in (("a", 1), ("b", 2), ("a", 12)):
        op.process_element(ALL_WINDOW_KEY, (key, ts), ts)
    op.end_input()
    assert out.records == [((0, 10, [1, 2]), 9), ((10, 20, [12]), 19)]


def test_late_data_without_side_output_consumer_is_a_main_output():
    op, out = make(TumblingEventTimeWindows.of(Time.milliseconds(10)), 'reduce', red,
                   late_data_output_tag=LATE, has_side_output=False)
    op.advance_watermark(50)
    op.process_element("a", ("a", 1), 1)
    assert out.records == [((LATE, ("a", 1)), 1)]


def test_oracle_sessions_bridging_with_lateness():
    # b1 arrives within the allowed lateness after its window's end: it fires at once, with the
    # element's timestamp. Both keys' sessions bridge to [1,13) with contents [9, 1, 5]; at the
    # equal timestamp 12 PyFlink fires b's before a's (Flink's timer heap order).
    op, out = make(EventTimeSessionWindows.with_gap(Time.milliseconds(4)), 'process', PWF(),
                   allowed_lateness=3, late_data_output_tag=LATE)
    replay(op, [("a", 1, MIN), ("a", 9, MIN), ("a", 5, 6), ("b", 1, 6), ("b", 9, 6),
                ("b", 20, 6), ("b", 5, 6), ("a", 30, 17)], end=False)
    op.advance_watermark(27)
    op.end_input()
    mx = 0x7fffffffffffffff
    assert out.records == [
        (("a", 1, 5, [1], 6), 4), (("b", 1, 5, [1], 6), 1), (("b", 1, 13, [9, 1, 5], 17), 12),
        (("a", 1, 13, [9, 1, 5], 17), 12), (("b", 20, 24, [20], 27), 23),
        (("a", 30, 34, [30], mx), 33)]


class SortedPWF(ProcessWindowFunction):
    def process(self, key, context, elements):
        yield (key, context.window().start, sorted(e[1] for e in elements),
               context.current_watermark())


def test_oracle_continuous_trigger_timers_registered_while_firing_wait():
    # ContinuousEventTimeTrigger(5) on 40 ms tumbling windows: when the watermark jumps from 1
    # to 49, PyFlink fires at 5 and at the window end 39 only -- the next fire timer (10),
    # registered while firing, waits for the next watermark and is deleted by the cleanup
    from pyflink_compat.datastream.window import ContinuousEventTimeTrigger
    op, out = make(TumblingEventTimeWindows.of(Time.milliseconds(40)), 'process', SortedPWF(),
                   trigger=ContinuousEventTimeTrigger(5))
    replay(op, [("a", 1, MIN), ("a", 2, 0), ("a", 3, 1), ("a", 50, 1), ("a", 51, 49),
                ("a", 52, 50)])
    mx = 0x7fffffffffffffff
    assert out.records == [(("a", 0, [1, 2, 3], 49), 5), (("a", 0, [1, 2, 3], 49), 39),
                           (("a", 40, [50, 51, 52], mx), 55), (("a", 40, [50, 51, 52], mx), 79)]
    assert op.timer_service.num_event_time_timers() == 0


@pytest.mark.parametrize("seed", range(6))
def test_restore_after_every_batch_equals_one_run(seed):
    """Random keys, out-of-order timestamps and watermarks through tumbling, sliding and
    session windows (lateness, late side output): snapshotting and restoring into a new
    operator after every small batch gives exactly the outputs of one uninterrupted run."""
    import random
    rnd = random.Random(seed)
    events = []
    max_ts = 0
    for _ in range(120):
        ts = max(0, max_ts + rnd.randint(-15, 6))
        max_ts = max(max_ts, ts)
        events.append((rnd.choice("abcd"), ts, max_ts - 5 if rnd.random() < 0.3 else None))
    assigners = [
        (TumblingEventTimeWindows.of(Time.milliseconds(10)), 'process', PWF()),
        (SlidingEventTimeWindows.of(Time.milliseconds(10), Time.milliseconds(4)), 'aggregate',
         SumAgg()),
        (EventTimeSessionWindows.with_gap(Time.milliseconds(3)), 'reduce', red),
        (EventTimeSessionWindows.with_gap(Time.milliseconds(5)), 'apply', WF()),
    ]
    for assigner, kind, fn in assigners:
        def build():
            return make(assigner, kind, fn, allowed_lateness=rnd_lateness,
                        late_data_output_tag=LATE)

        rnd_lateness = seed % 3 * 4

        def feed(op, batch):
            for key, ts, wm in batch:
                if wm is not None:
                    op.advance_watermark(wm)
                op.process_element(key, (key, ts), ts)

        op, whole = build()
        feed(op, events)
        op.end_input()

        records, side = [], []
        blob = None
        i = 0
        while i < len(events):
            n = rnd.randint(1, 15)
            op, out = build()
            if blob is not None:
                op.restore(blob)
            feed(op, events[i:i + n])
            i += n
            if i >= len(events):
                op.end_input()
            blob = op.snapshot()
            op.close()
            records += out.records
            side += out.side
        assert records == whole.records, (kind, seed)
        assert side == whole.side, (kind, seed)


class SideOutputPWF(ProcessWindowFunction):
    tag = OutputTag("sizes", Types.INT())

    def process(self, key, context, elements):
        elements = list(elements)
        yield self.tag, len(elements)
        yield (key, context.window().start)


def test_window_function_side_outputs_and_descriptor_errors():
    op, out = make(TumblingEventTimeWindows.of(Time.milliseconds(10)), 'process',
                   SideOutputPWF())
    op.process_element("k", ("k", 1), 1)
    op.process_element("k", ("k", 2), 2)
    op.end_input()
    assert out.records == [(("k", 0), 9)] and out.side == [("sizes", 2, 9)]
    with pytest.raises(TypeError, match="should be a WindowFunction or ProcessWindowFunction"):
        window_operation_descriptor(TumblingEventTimeWindows.of(Time.milliseconds(10)), 'reduce',
                                    red, AllPWF())
    with pytest.raises(TypeError, match="should be a AllWindowFunction or ProcessAllWindowFunction"):
        window_operation_descriptor(TumblingEventTimeWindows.of(Time.milliseconds(10)), 'reduce',
                                    red, PWF(), all_window=True)


def test_oracle_processing_time_tumbling_windows():
    # Real PyFlink 2.3.0: 500 ms processing-time tumbling windows; the elements arrived (and the
    # windows fired) at these processing times; outputs carry window.max_timestamp() and the
    # elements carry no timestamp (Long.MIN_VALUE)
    clock = Clock(0)
    op, out = make(TumblingProcessingTimeWindows.of(Time.milliseconds(500)), 'process',
                   PWF1(), clock=clock)
    base = 1795344870000
    for now, element in ((6003, ("a", 0)), (6384, ("a", 300)), (6509, None), (6687, ("b", 300)),
                         (7006, None), (7486, ("a", 700)), (7505, None), (7687, ("a", 200)),
                         (7959, ("b", 300)), (8060, None)):
        clock.now = base + now
        if element is None:
            op.advance_processing_time()
        else:
            op.process_element(element[0], element, None)
    op.end_input()
    b = base
    assert [((k, s - b, e - b, [x[1] for x in els]), t - b) for (k, s, e, els), t in out.records] == [
        (("a", 6000, 6500, [0, 300]), 6499), (("b", 6500, 7000, [300]), 6999),
        (("a", 7000, 7500, [700]), 7499), (("a", 7500, 8000, [200]), 7999),
        (("b", 7500, 8000, [300]), 7999)]


def test_oracle_processing_time_timers_not_fired_at_end_of_input():
    # Real PyFlink 2.3.0: on_timer(t) outputs carry t; timers still pending when the bounded
    # input ends do not fire (only the final MAX watermark is sent)
    from pyflink_compat.datastream.functions import KeyedProcessFunction
    from pyflink_compat.runtime.keyed import KeyedProcessOperator

    class Timers(KeyedProcessFunction):
        def process_element(self, value, ctx):
            ctx.timer_service().register_processing_time_timer(
                ctx.timer_service().current_processing_time() + 400)
            return []

        def on_timer(self, timestamp, ctx):
            yield ("timer", timestamp)

    clock = Clock(0)
    out = ListCollector()
    op = KeyedProcessOperator(Timers(), output=out, clock=clock)
    op.open()
    for now, key in ((6769, "a"), (7059, "a"), (7177, None), (7364, "b"), (7466, None),
                     (7769, None), (8163, "a"), (8366, "a"), (8567, None), (8642, "b")):
        clock.now = now
        if key is None:
            op.advance_processing_time()
        else:
            op.process_element(key, (key, now), None)
    op.end_input()
    assert out.records == [(("timer", 7169), 7169), (("timer", 7459), 7459),
                           (("timer", 7764), 7764), (("timer", 8563), 8563)]
    assert op.timer_service.num_processing_time_timers() == 2

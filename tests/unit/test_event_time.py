"""Watermarks per input and combined, as Flink generates them (pure logic)."""
from pyflink_compat.common.time import Duration
from pyflink_compat.common.watermark_strategy import WatermarkStrategy
from pyflink_compat.runtime.event_time import LONG_MAX, LONG_MIN, WatermarkTracker


def tracker(strategy):
    return WatermarkTracker(strategy._j_watermark_strategy)


def test_bounded_out_of_orderness_is_max_minus_bound_minus_one_and_min_over_inputs():
    t = tracker(WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_seconds(5)))
    t.declare("p0", 0)
    t.declare("p1", 0)
    t.observe("p0", 20_000, 3, now_ms=1)
    assert t.advance(1) == LONG_MIN                 # p1 has no records yet: it holds the watermark back
    t.observe("p1", 12_000, 1, now_ms=2)
    assert t.advance(2) == 12_000 - 5_000 - 1
    t.observe("p1", 11_000, 1, now_ms=3)              # an older record does not move it back
    assert t.advance(3) == 6_999
    t.observe("p1", 30_000, 1, now_ms=4)
    assert t.advance(4) == 20_000 - 5_001            # now p0 is the slowest


def test_monotonous_timestamps_and_no_watermarks():
    t = tracker(WatermarkStrategy.for_monotonous_timestamps())
    t.observe("p", 1_000, 1, now_ms=0)
    assert t.advance(0) == 999
    n = tracker(WatermarkStrategy.no_watermarks())
    n.observe("p", 1_000, 1, now_ms=0)
    assert n.advance(0) == LONG_MIN
    n.observe("p", None, 0, now_ms=1, finished=True)
    assert n.advance(1) == LONG_MAX and n.all_finished       # the end of a bounded input fires everything


def test_an_idle_input_stops_holding_back_and_returns_when_records_arrive():
    t = tracker(WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_millis(0))
                .with_idleness(Duration.of_seconds(10)))
    t.declare("busy", 0)
    t.declare("quiet", 0)
    t.observe("busy", 5_000, 1, now_ms=1_000)
    assert t.advance(1_000) == LONG_MIN
    t.observe("busy", 8_000, 1, now_ms=10_500)
    assert t.advance(10_500) == 7_999               # "quiet" had nothing for 10 s: idle
    t.observe("quiet", 3_000, 1, now_ms=11_000)     # active again, but the watermark never goes back
    t.observe("busy", 9_000, 1, now_ms=11_000)
    assert t.advance(11_000) == 7_999
    t.observe("quiet", 9_500, 1, now_ms=12_000)
    assert t.advance(12_000) == 8_999


def test_all_idle_keeps_the_watermark_and_finished_inputs_count_as_max():
    t = tracker(WatermarkStrategy.for_monotonous_timestamps().with_idleness(Duration.of_seconds(1)))
    t.observe("a", 100, 1, now_ms=0)
    assert t.advance(0) == 99
    assert t.advance(5_000) == 99                    # everything idle: no change
    t.observe("b", 50, 1, now_ms=5_000, finished=True)
    t.observe("a", 400, 1, now_ms=5_000)
    assert t.advance(5_000) == 399


def test_when_every_input_goes_idle_the_highest_watermark_any_reached_is_flushed():
    # Flink's watermark valve: a reader whose records all came before its neighbour (which never had any)
    # went idle still moves event time on once both are idle (Kafka partitions without data at parallelism 2)
    t = tracker(WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_seconds(5))
                .with_idleness(Duration.of_seconds(2)))
    t.observe("reader:0", 60_000, 8, now_ms=0)
    t.observe("reader:1", None, 0, now_ms=0)
    assert t.advance(0) == LONG_MIN                  # reader 1 holds it back while it is not idle
    t.observe("reader:0", None, 0, now_ms=2_500)
    t.observe("reader:1", None, 0, now_ms=2_500)
    assert t.advance(2_500) == 60_000 - 5_001 and t.all_idle
    t.observe("reader:1", 10_000, 1, now_ms=3_000)   # back, behind: the watermark never goes back
    assert t.advance(3_000) == 54_999


def test_a_later_keyed_stage_takes_the_minimum_of_the_watermarks_its_upstream_subtasks_forward():
    # The idleness timeout is the source's: it never applies to an upstream subtask, which says itself
    # whether it is idle.
    t = tracker(WatermarkStrategy.for_monotonous_timestamps().with_idleness(Duration.of_millis(1)))
    t.declare("stage0:0", 0)
    t.declare("stage0:1", 0)
    t.observe_forwarded("stage0:0", 9_999, idle=False, finished=False)
    t.observe_forwarded("stage0:1", LONG_MIN, idle=False, finished=False)
    assert t.advance(60_000) == LONG_MIN                   # subtask 1 has no watermark yet: held back
    t.observe_forwarded("stage0:1", 4_999, idle=False, finished=False)
    assert t.advance(60_001) == 4_999
    t.observe_forwarded("stage0:1", 3_000, idle=True, finished=False)   # idle: left out, never goes back
    assert t.advance(60_002) == 9_999 and not t.all_idle
    t.observe_forwarded("stage0:0", LONG_MAX, idle=False, finished=True)
    t.observe_forwarded("stage0:1", LONG_MAX, idle=False, finished=True)
    assert t.advance(60_003) == LONG_MAX and t.all_finished


def test_a_stage_whose_inputs_are_all_idle_says_so():
    t = tracker(WatermarkStrategy.for_monotonous_timestamps().with_idleness(Duration.of_seconds(1)))
    t.observe("p0", 100, 1, now_ms=0)
    t.observe("p1", 200, 1, now_ms=0)
    t.advance(0)
    assert not t.all_idle
    t.advance(2_000)
    assert t.all_idle and t.current == 199          # both idle: the highest watermark is flushed (Flink's valve)


def test_a_reader_of_several_partitions_generates_one_watermark_and_ends_when_all_its_partitions_have():
    """assign_timestamps_and_watermarks: one generator per reader, fed by every partition it reads."""
    t = tracker(WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_seconds(0)))
    t.observe("reader:0", 25_000, 4, now_ms=1, part="t:0")
    t.observe("reader:0", 3_000, 2, now_ms=1, part="t:1")
    assert t.advance(1) == 24_999                    # the maximum over both partitions, not the minimum
    t.observe("reader:0", None, 0, now_ms=2, finished=True, part="t:0")
    t.observe("reader:0", None, 0, now_ms=2, part="t:1")
    assert t.advance(2) == 24_999 and not t.all_finished
    t.observe("reader:0", None, 0, now_ms=3, finished=True, part="t:0")
    t.observe("reader:0", None, 0, now_ms=3, finished=True, part="t:1")
    assert t.advance(3) == LONG_MAX and t.all_finished


def test_an_input_that_cannot_idle_holds_the_watermark_back_whatever_the_idle_timeout():
    """A source reader given no partition: no per-split generator, so nothing to measure idleness on."""
    t = tracker(WatermarkStrategy.for_monotonous_timestamps().with_idleness(Duration.of_millis(100)))
    t.declare("reader:2", 0, can_idle=False)
    t.observe("t:0", 5_000, 1, now_ms=0)
    assert t.advance(10_000) == LONG_MIN


def test_a_float_timestamp_from_an_assigner_is_cut_to_its_integer_part():
    """PyFlink 2.3.0 keeps a timestamp as a long: an assigner returning 1500.7 stamps the element 1500 (probed)."""
    from pyflink_compat.common.watermark_strategy import TimestampAssigner
    from pyflink_compat.runtime.chain import AssignTimestampsStep

    class FromField(TimestampAssigner):
        def extract_timestamp(self, value, record_timestamp):
            return value[1]

    elements = [("a", 1500.7), ("b", 2500.0), ("c", 7)]
    assert AssignTimestampsStep(FromField()).apply(elements, [None, 5, None]) == (elements, [1500, 2500, 7])

"""WatermarkStrategy: the spec the runtime reads, PyFlink's assigner quirks and Java's validation."""
import pickle

import pytest
from py4j.protocol import Py4JJavaError

from pyflink_compat.common import AssignerWithPeriodicWatermarksWrapper, Duration, WatermarkStrategy
from pyflink_compat.common.watermark_strategy import (BOUNDED_OUT_OF_ORDERNESS, MONOTONOUS_TIMESTAMPS,
                                                      NO_WATERMARKS, TimestampAssigner, WatermarkAlignment,
                                                      WatermarkSpec)
from pyflink_compat.util.exceptions import UnsupportedFeatureError


class FirstFieldAssigner(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[0]


def test_factories_describe_the_watermarks():
    assert WatermarkStrategy.for_monotonous_timestamps()._j_watermark_strategy == WatermarkSpec(MONOTONOUS_TIMESTAMPS)
    bounded = WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_seconds(5))._j_watermark_strategy
    assert bounded == WatermarkSpec(BOUNDED_OUT_OF_ORDERNESS, max_out_of_orderness_ms=5000)
    assert WatermarkStrategy.no_watermarks()._j_watermark_strategy == WatermarkSpec(NO_WATERMARKS)


def test_new_strategies_have_no_assigner_idleness_or_alignment():
    spec = WatermarkStrategy.for_monotonous_timestamps()._j_watermark_strategy
    assert (spec.max_out_of_orderness_ms, spec.idle_timeout_ms, spec.alignment) == (0, None, None)
    assert WatermarkStrategy.for_monotonous_timestamps()._timestamp_assigner is None


def test_with_timestamp_assigner_mutates_and_returns_self():
    strategy = WatermarkStrategy.for_monotonous_timestamps()
    assigner = FirstFieldAssigner()
    assert strategy.with_timestamp_assigner(assigner) is strategy
    assert strategy._timestamp_assigner is assigner


def test_with_idleness_returns_a_new_strategy_without_the_assigner():
    strategy = WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_millis(100))
    strategy.with_timestamp_assigner(FirstFieldAssigner())
    idle = strategy.with_idleness(Duration.of_seconds(30))
    assert idle is not strategy
    assert idle._timestamp_assigner is None
    assert idle._j_watermark_strategy == WatermarkSpec(BOUNDED_OUT_OF_ORDERNESS, 100, idle_timeout_ms=30_000)
    assert strategy._j_watermark_strategy.idle_timeout_ms is None


def test_assigner_set_after_with_idleness_is_kept():
    assigner = FirstFieldAssigner()
    strategy = (WatermarkStrategy.for_monotonous_timestamps()
                .with_idleness(Duration.of_seconds(1))
                .with_timestamp_assigner(assigner))
    assert strategy._timestamp_assigner is assigner
    assert strategy._j_watermark_strategy.idle_timeout_ms == 1000


@pytest.mark.parametrize("timeout", [Duration.of_millis(0), Duration.of_seconds(-1)])
def test_with_idleness_rejects_non_positive_timeouts_like_java(timeout):
    with pytest.raises(Py4JJavaError) as error:
        WatermarkStrategy.for_monotonous_timestamps().with_idleness(timeout)
    assert error.value.java_class == "java.lang.IllegalArgumentException"
    assert error.value.message == "idleTimeout must be greater than zero"


def test_with_watermark_alignment_defaults_the_update_interval_to_one_second():
    strategy = WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(FirstFieldAssigner())
    aligned = strategy.with_watermark_alignment("group", Duration.of_seconds(20))
    assert aligned is not strategy
    assert aligned._timestamp_assigner is None
    assert aligned._j_watermark_strategy.alignment == WatermarkAlignment("group", 20_000, 1000)


def test_with_watermark_alignment_with_update_interval():
    aligned = WatermarkStrategy.no_watermarks().with_watermark_alignment(
        "g", Duration.of_millis(500), update_interval=Duration.of_millis(250))
    assert aligned._j_watermark_strategy.alignment == WatermarkAlignment("g", 500, 250)
    assert aligned._j_watermark_strategy.kind == NO_WATERMARKS


def test_idleness_and_alignment_combine():
    strategy = (WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_seconds(1))
                .with_idleness(Duration.of_seconds(2))
                .with_watermark_alignment("g", Duration.of_seconds(3)))
    assert strategy._j_watermark_strategy == WatermarkSpec(BOUNDED_OUT_OF_ORDERNESS, 1000, 2000,
                                                           WatermarkAlignment("g", 3000, 1000))


def test_strategies_pickle():
    strategy = WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_seconds(1)) \
        .with_idleness(Duration.of_seconds(2)).with_timestamp_assigner(FirstFieldAssigner())
    restored = pickle.loads(pickle.dumps(strategy))
    assert restored._j_watermark_strategy == strategy._j_watermark_strategy
    assert isinstance(restored._timestamp_assigner, FirstFieldAssigner)


def test_timestamp_assigner_is_abstract():
    with pytest.raises(TypeError):
        TimestampAssigner()
    assert FirstFieldAssigner().extract_timestamp((42, "x"), -1) == 42


def test_assigner_with_periodic_watermarks_wrapper_is_unsupported():
    with pytest.raises(UnsupportedFeatureError, match="AssignerWithPeriodicWatermarksWrapper"):
        AssignerWithPeriodicWatermarksWrapper(None)

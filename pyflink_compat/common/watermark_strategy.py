"""Watermark strategies (mirror of ``pyflink.common.watermark_strategy``).

A PyFlink ``WatermarkStrategy`` wraps a Java strategy plus an optional Python
``TimestampAssigner``. Ours wraps a ``WatermarkSpec``, a plain description the
runtime reads (``strategy._j_watermark_strategy.kind`` ...). Reproduced quirks:

* ``with_timestamp_assigner`` sets the assigner on ``self`` and returns ``self``;
* ``with_idleness`` and ``with_watermark_alignment`` return a *new* strategy
  without the assigner, so ``...with_timestamp_assigner(a).with_idleness(d)``
  loses ``a`` while ``...with_idleness(d).with_timestamp_assigner(a)`` keeps it.

Watermark semantics (applied by the runtime): bounded out-of-orderness ``B``
emits ``max_timestamp - B - 1``; monotonous timestamps are ``B = 0``.
"""
import abc
import dataclasses
from typing import Any, Optional

from pyflink_compat.common.time import Duration
from pyflink_compat.util.exceptions import illegal_argument, unsupported_class

__all__ = ['WatermarkStrategy', 'TimestampAssigner', 'AssignerWithPeriodicWatermarksWrapper']

MONOTONOUS_TIMESTAMPS = "monotonous_timestamps"
BOUNDED_OUT_OF_ORDERNESS = "bounded_out_of_orderness"
NO_WATERMARKS = "no_watermarks"

# Java's WatermarksWithWatermarkAlignment.DEFAULT_UPDATE_INTERVAL.
DEFAULT_ALIGNMENT_UPDATE_INTERVAL_MS = 1000


@dataclasses.dataclass(frozen=True)
class WatermarkAlignment:
    """``with_watermark_alignment`` settings, in milliseconds."""

    watermark_group: str
    max_allowed_watermark_drift_ms: int
    update_interval_ms: int


@dataclasses.dataclass(frozen=True)
class WatermarkSpec:
    """What a strategy asks for; stands in for PyFlink's Java ``WatermarkStrategy`` object.

    ``kind`` is one of ``MONOTONOUS_TIMESTAMPS``, ``BOUNDED_OUT_OF_ORDERNESS``
    and ``NO_WATERMARKS``; ``max_out_of_orderness_ms`` is 0 unless bounded;
    ``idle_timeout_ms`` and ``alignment`` are None unless set.
    """

    kind: str
    max_out_of_orderness_ms: int = 0
    idle_timeout_ms: Optional[int] = None
    alignment: Optional[WatermarkAlignment] = None


class WatermarkStrategy(object):
    """How a stream assigns event timestamps and generates watermarks."""

    def __init__(self, j_watermark_strategy: WatermarkSpec):
        self._j_watermark_strategy = j_watermark_strategy
        self._timestamp_assigner = None

    def with_timestamp_assigner(self, timestamp_assigner: 'TimestampAssigner') -> 'WatermarkStrategy':
        """Sets the assigner on this strategy and returns it (only ``assign_timestamps_and_watermarks`` uses it)."""
        self._timestamp_assigner = timestamp_assigner
        return self

    def with_idleness(self, idle_timeout: Duration) -> 'WatermarkStrategy':
        """A new strategy (without the timestamp assigner) marking inputs idle after ``idle_timeout``."""
        if idle_timeout._nanos <= 0:
            raise illegal_argument("idleTimeout must be greater than zero", "withIdleness")
        spec = dataclasses.replace(self._j_watermark_strategy, idle_timeout_ms=idle_timeout._to_millis())
        return WatermarkStrategy(spec)

    def with_watermark_alignment(self, watermark_group: str, max_allowed_watermark_drift: Duration,
                                 update_interval: Optional[Duration] = None) -> 'WatermarkStrategy':
        """A new strategy (without the timestamp assigner) aligning watermarks within ``watermark_group``."""
        if update_interval is None:
            update_interval_ms = DEFAULT_ALIGNMENT_UPDATE_INTERVAL_MS
        else:
            update_interval_ms = update_interval._to_millis()
        alignment = WatermarkAlignment(watermark_group, max_allowed_watermark_drift._to_millis(), update_interval_ms)
        return WatermarkStrategy(dataclasses.replace(self._j_watermark_strategy, alignment=alignment))

    @staticmethod
    def for_monotonous_timestamps() -> 'WatermarkStrategy':
        """Watermark = highest timestamp seen - 1."""
        return WatermarkStrategy(WatermarkSpec(MONOTONOUS_TIMESTAMPS))

    @staticmethod
    def for_bounded_out_of_orderness(max_out_of_orderness: Duration) -> 'WatermarkStrategy':
        """Watermark = highest timestamp seen - ``max_out_of_orderness`` - 1."""
        return WatermarkStrategy(WatermarkSpec(BOUNDED_OUT_OF_ORDERNESS, max_out_of_orderness._to_millis()))

    @staticmethod
    def no_watermarks() -> 'WatermarkStrategy':
        return WatermarkStrategy(WatermarkSpec(NO_WATERMARKS))


class TimestampAssigner(abc.ABC):
    """Assigns event-time timestamps (epoch ms) to elements."""

    @abc.abstractmethod
    def extract_timestamp(self, value: Any, record_timestamp: int) -> int:
        """The timestamp of ``value``; ``record_timestamp`` is the one it already has (or Long.MIN_VALUE)."""
        pass


AssignerWithPeriodicWatermarksWrapper = unsupported_class(
    "AssignerWithPeriodicWatermarksWrapper", "unsupported-apis",
    "it wraps a Java AssignerWithPeriodicWatermarks; use WatermarkStrategy")

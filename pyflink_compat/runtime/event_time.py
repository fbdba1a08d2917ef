"""Flink's watermarks, computed from what each input partition produced in a micro-batch.

Flink generates watermarks per source split (Kafka partition): a bounded out-of-orderness generator
emits ``max_timestamp - B - 1`` (monotonous timestamps: ``B = 0``); an input with no records yet holds
the watermark at ``Long.MIN_VALUE``; ``with_idleness(d)`` marks an input idle after ``d`` of processing
time without records, and an idle input no longer holds the others back; a finished bounded input
counts as ``Long.MAX_VALUE``. A downstream operator's watermark is the minimum over its inputs, and
never goes back.

``assign_timestamps_and_watermarks`` generates per parallel source instance (reader) instead of per split:
the reader of several partitions sees the maximum over all of them, is idle only when all of them are, and
has ended when all of them have. The runtime passes such a reader as one input here, each of its
partitions as a ``part`` of it.

A keyed stage after another one has the upstream stage's subtasks as inputs instead: each forwards its
own watermark and whether it is idle (all of its inputs idle), and the downstream watermark is again the
minimum over them (``observe_forwarded``).

Flink emits periodically (every 200 ms); here the watermark advances once per micro-batch, after the
batch's records, which gives the same results for records that arrive in one batch as they would within
one emission interval.
"""
from typing import Dict, Hashable, Optional

import attrs

from pyflink_compat.common.watermark_strategy import NO_WATERMARKS, WatermarkSpec

LONG_MIN = -(1 << 63)
LONG_MAX = (1 << 63) - 1


@attrs.define
class InputProgress:
    """One input's generator state (what must survive between micro-batches)."""
    max_timestamp: Optional[int] = None       # highest event timestamp seen, None before the first record
    last_record_ms: Optional[int] = None      # processing time of the last batch with records
    idle: bool = False
    finished: bool = False
    forwarded: Optional[int] = None           # an upstream keyed subtask's watermark (None: a source input)
    parts: Dict[Hashable, bool] = attrs.Factory(dict)   # a reader's partitions: has each ended


@attrs.define
class WatermarkTracker:
    """The combined watermark of several inputs, each generated under its ``WatermarkSpec``: the one of
    ``specs`` whose key (an input-name prefix) the input's name starts with, else ``spec``."""
    spec: WatermarkSpec
    inputs: Dict[Hashable, InputProgress] = attrs.Factory(dict)
    current: int = LONG_MIN                   # the last combined watermark handed out
    specs: Dict[str, WatermarkSpec] = attrs.Factory(dict)

    def spec_of(self, input_id: Hashable) -> WatermarkSpec:
        for prefix, spec in self.specs.items():
            if str(input_id).startswith(prefix):
                return spec
        return self.spec

    def declare(self, input_id: Hashable, now_ms: int, can_idle: bool = True):
        """An input exists (it holds the watermark back until it has records, is idle or finished). One that
        cannot idle holds it back for good until records come (a source reader without splits: its
        per-split generators, where idleness is measured, do not exist)."""
        if input_id not in self.inputs:
            self.inputs[input_id] = InputProgress(last_record_ms=now_ms if can_idle else None)

    def observe(self, input_id: Hashable, max_timestamp: Optional[int], records: int, now_ms: int,
                finished: bool = False, part: Hashable = None):
        """What ``input_id`` produced in one batch: the highest timestamp of its records (None if they had
        none), how many records, and whether it has ended (a bounded input at its stopping offset). With
        ``part``, that is what one part of the input produced, and the input ends when all its parts have."""
        progress = self.inputs.setdefault(input_id, InputProgress(last_record_ms=now_ms))
        if records:
            progress.last_record_ms = now_ms
            progress.idle = False
            if max_timestamp is not None and (progress.max_timestamp is None
                                              or max_timestamp > progress.max_timestamp):
                progress.max_timestamp = max_timestamp
        if part is not None:
            progress.parts[part] = progress.parts.get(part, False) or finished
            progress.finished = all(progress.parts.values())
        elif finished:
            progress.finished = True

    def observe_forwarded(self, input_id: Hashable, watermark: int, idle: bool, finished: bool):
        """An upstream keyed subtask's watermark after its batch, and whether it is idle or has ended."""
        progress = self.inputs.setdefault(input_id, InputProgress())
        progress.forwarded = watermark if progress.forwarded is None else max(progress.forwarded, watermark)
        progress.idle = idle
        progress.finished = progress.finished or finished

    def advance(self, now_ms: int) -> int:
        """The combined watermark after the batch (monotonic), with idleness applied at ``now_ms``."""
        candidates, idle_marks = [], []
        for input_id, progress in self.inputs.items():
            spec = self.spec_of(input_id)
            timeout = spec.idle_timeout_ms
            if progress.finished:
                candidates.append(LONG_MAX)
                continue
            if timeout is not None and progress.forwarded is None and progress.last_record_ms is not None \
                    and now_ms - progress.last_record_ms >= timeout:
                progress.idle = True
            if progress.idle:
                idle_marks.append(self._generated(progress, spec))
                continue
            candidates.append(self._generated(progress, spec))
        if candidates:
            self.current = max(self.current, min(candidates))
        elif idle_marks:
            # every input idle: as Flink's watermark valve, the highest watermark any of them reached is flushed
            # (an input whose data all came before its neighbours went idle still moves event time on)
            self.current = max(self.current, max(idle_marks))
        return self.current

    @staticmethod
    def _generated(progress: InputProgress, spec: WatermarkSpec) -> int:
        if progress.forwarded is not None:
            return progress.forwarded
        if spec.kind == NO_WATERMARKS or progress.max_timestamp is None:
            return LONG_MIN
        return max(LONG_MIN, progress.max_timestamp - spec.max_out_of_orderness_ms - 1)

    @property
    def all_idle(self) -> bool:
        """Every input is idle (a downstream stage then leaves this one out of its minimum)."""
        return bool(self.inputs) and all(p.idle and not p.finished for p in self.inputs.values())

    @property
    def all_finished(self) -> bool:
        return bool(self.inputs) and all(p.finished for p in self.inputs.values())

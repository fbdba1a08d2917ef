"""Flink SQL's regular joins as KeyedCoProcessFunctions over (join key, row values) of each side."""
from pyflink_compat.datastream.functions import KeyedCoProcessFunction


class InnerJoin(KeyedCoProcessFunction):
    """An inner join of two insert-only inputs: every row of a side kept per join key (a ListState each), a row
    joined with each kept row of the other side (in the order they came) when it comes, the joined rows
    passing the join's further condition emitted as insertions."""

    def __init__(self, condition):
        self.condition = condition

    def open(self, runtime_context):
        from pyflink_compat.datastream.state import ListStateDescriptor
        self.left = runtime_context.get_list_state(ListStateDescriptor("left-records", None))
        self.right = runtime_context.get_list_state(ListStateDescriptor("right-records", None))

    def _joined(self, left_values, right_values):
        from pyflink_compat.common.types import Row
        values = tuple(left_values) + tuple(right_values)
        if self.condition is None or self.condition(values) is True:
            yield Row(*values)

    def process_element1(self, value, ctx):
        _, values = value
        self.left.add(values)
        for other in self.right.get() or ():
            yield from self._joined(values, other)

    def process_element2(self, value, ctx):
        _, values = value
        self.right.add(values)
        for other in self.left.get() or ():
            yield from self._joined(other, values)


class OuterJoin(KeyedCoProcessFunction):
    """A regular join as Flink's Join operator runs it when it is an outer join or a side is a changelog (an outer
    join's rows, a GROUP BY's, an upsert table's). Each side's rows are kept per join key with how many rows of
    the other side they match, in the order they came.

    An insertion (``+I`` / ``+U``) joins the kept rows of the other side that match; with none, an outer side's
    row is padded with NULLs (``+I``). A row that comes to match rows of an outer other side padded so far first
    retracts them (``-D``); joined rows come as ``+I``, or in the insertion's own kind when neither side is outer.
    A retraction (``-U`` / ``-D``) takes its joined rows back (``-D`` when its side is outer, else its own kind),
    then pads again (``+I``) the rows of an outer other side it was the last match of.
    Changes come out as (row kind, values). ``changelogs``: per side, whether its elements are
    (key, (kind, values)) rather than (key, values) insertions."""

    def __init__(self, condition, left_width: int, right_width: int, left_outer: bool, right_outer: bool,
                 changelogs=(False, False)):
        self.condition = condition
        self.widths = (left_width, right_width)
        self.outer = (left_outer, right_outer)
        self.changelogs = tuple(changelogs)

    def open(self, runtime_context):
        from pyflink_compat.datastream.state import ValueStateDescriptor
        # per side: [values, how many rows of the other side it matched] in the order they came
        self.kept = (runtime_context.get_state(ValueStateDescriptor("left-records", None)),
                     runtime_context.get_state(ValueStateDescriptor("right-records", None)))

    def _row(self, side: int, values, other) -> tuple:
        """The joined row of ``values`` of ``side`` (0: left, 1: right) and ``other`` (None: NULLs)."""
        if other is None:
            other = (None,) * self.widths[1 - side]
        return tuple(values) + tuple(other) if side == 0 else tuple(other) + tuple(values)

    def _matches(self, side: int, values, other) -> bool:
        return self.condition is None or self.condition(self._row(side, values, other)) is True

    def _process(self, side: int, value):
        if self.changelogs[side]:
            key, (kind, values) = value
        else:
            (key, values), kind = value, "+I"
        values = tuple(values)
        accumulate = kind in ("+I", "+U")
        if None in key:             # joins nothing: padded at once (only an outer side's such rows come here)
            yield ("+I" if accumulate else "-D"), self._row(side, values, None)
            return
        other_side = 1 - side
        own_outer, other_outer = self.outer[side], self.outer[other_side]
        others = self.kept[other_side].value() or []
        matching = [entry for entry in others if self._matches(side, values, entry[0])]
        own = self.kept[side].value() or []
        if accumulate:
            if other_outer and matching:
                for entry in matching:
                    if entry[1] == 0:
                        yield "-D", self._row(other_side, entry[0], None)
                    entry[1] += 1
                self.kept[other_side].update(others)
            joined_kind = "+I" if own_outer or other_outer else kind
            for entry in matching:
                yield joined_kind, self._row(side, values, entry[0])
            if not matching and own_outer:
                yield "+I", self._row(side, values, None)
            self.kept[side].update(own + [[values, len(matching)]])
            return
        position = next((i for i, entry in enumerate(own) if entry[0] == values), None)
        if position is None:        # a retraction of a row never kept (a filter before it passed its insertion)
            return
        del own[position]
        self.kept[side].update(own)
        if own_outer and not matching:
            yield "-D", self._row(side, values, None)
            return
        joined_kind = "-D" if own_outer else kind
        for entry in matching:
            yield joined_kind, self._row(side, values, entry[0])
        if other_outer and matching:
            for entry in matching:
                if entry[1] == 1:
                    yield "+I", self._row(other_side, entry[0], None)
                entry[1] -= 1
            self.kept[other_side].update(others)

    def process_element1(self, value, ctx):
        yield from self._process(0, value)

    def process_element2(self, value, ctx):
        yield from self._process(1, value)


class IntervalJoin(KeyedCoProcessFunction):
    """An event-time interval join (inner or outer) of two insert-only inputs, as Flink's IntervalJoin: a left row
    at time ``tl`` joins the right rows at ``tr`` of its key with ``lower_ms <= tl - tr <= upper_ms`` (and the
    join's further condition). A row is kept only while rows of the other side that are not late (after the
    watermark) could still join it; once the watermark passes its last partner time it is dropped, and a row of an
    outer side that joined nothing is then emitted padded with NULLs. So the output is insert-only (no retraction
    of padded rows, unlike a regular outer join) and the state stays bounded by the interval."""

    def __init__(self, condition, left_width: int, right_width: int, left_outer: bool, right_outer: bool,
                 left_time: int, right_time: int, lower_ms: int, upper_ms: int):
        self.condition = condition
        self.widths = (left_width, right_width)
        self.outer = (left_outer, right_outer)
        self.times = (left_time, right_time)          # position of each side's rowtime in its own row
        self.lower_ms, self.upper_ms = lower_ms, upper_ms
        # a joined row's left time may be up to -lower before the watermark, its right time up to upper
        self.output_watermark_delay_ms = max(-lower_ms, upper_ms, 0)

    def open(self, runtime_context):
        from pyflink_compat.datastream.state import ValueStateDescriptor
        # per side: [values, joined anything, time after which no row of the other side can join it]
        self.kept = (runtime_context.get_state(ValueStateDescriptor("left-records", None)),
                     runtime_context.get_state(ValueStateDescriptor("right-records", None)))

    def _row(self, side: int, values, other):
        from pyflink_compat.common.types import Row
        if other is None:
            other = (None,) * self.widths[1 - side]
        return Row(*(tuple(values) + tuple(other) if side == 0 else tuple(other) + tuple(values)))

    def output_timestamp(self, row, timestamp: int) -> int:
        """A joined row's timestamp: its left rowtime (the time attribute a window after the join reads)."""
        from pyflink_compat.runtime.keyed.operators import NO_TIMESTAMP
        from pyflink_compat.table.sql.planner import epoch_ms_of
        moment = row[self.times[0]]
        return NO_TIMESTAMP if moment is None else epoch_ms_of(moment)

    def _last_partner_ms(self, side: int, at: int) -> int:
        # a left row at tl joins right rows up to tl - lower; a right row at tr joins left rows up to tr + upper
        return at - self.lower_ms if side == 0 else at + self.upper_ms

    def _process(self, side: int, value, ctx):
        from pyflink_compat.table.sql.planner import epoch_ms_of
        key, values = value
        values = tuple(values)
        moment = values[self.times[side]]
        if None in key or moment is None:         # joins nothing (only an outer side's such rows come here)
            yield self._row(side, values, None)
            return
        other_side = 1 - side
        others = self.kept[other_side].value() or []
        joined, marked = False, False
        for entry in others:
            row = self._row(side, values, entry[0])
            if self.condition is None or self.condition(tuple(row)) is True:
                joined = True
                if not entry[1]:
                    entry[1] = marked = True
                yield row
        if marked and self.outer[other_side]:
            self.kept[other_side].update(others)
        last_partner = self._last_partner_ms(side, epoch_ms_of(moment))
        timers = ctx.timer_service()
        if last_partner > timers.current_watermark():
            self.kept[side].update((self.kept[side].value() or []) + [[values, joined, last_partner]])
            timers.register_event_time_timer(last_partner)
        elif self.outer[side] and not joined:
            yield self._row(side, values, None)

    def process_element1(self, value, ctx):
        yield from self._process(0, value, ctx)

    def process_element2(self, value, ctx):
        yield from self._process(1, value, ctx)

    def on_timer(self, timestamp, ctx):
        # every row whose last partner time is at or before the timer's can no longer join
        watermark = max(timestamp, ctx.timer_service().current_watermark())
        for side in (0, 1):
            entries = self.kept[side].value()
            if not entries:
                continue
            remaining = [entry for entry in entries if entry[2] > watermark]
            if len(remaining) == len(entries):
                continue
            if self.outer[side]:
                for values, joined, last_partner in entries:
                    if last_partner <= watermark and not joined:
                        yield self._row(side, values, None)
            if remaining:
                self.kept[side].update(remaining)
            else:
                self.kept[side].clear()

"""Flink SQL's Top-N (ROW_NUMBER() OVER (PARTITION BY ... ORDER BY ...) filtered on the row number) and
deduplication (the same with ``rn = 1`` ordered by a time attribute) over insert-only input, as Flink's Rank and
Deduplicate operators emit their changes. Their input is (partition key, (sort key, row values)); changes come out
as (row kind, values), the row number put in at ``rank_position`` when the query selects it."""
import functools
from typing import Optional, Tuple

from pyflink_compat.common.constants import MAX_LONG_VALUE as _END_OF_INPUT   # the watermark at the end of input
from pyflink_compat.datastream.functions import KeyedProcessFunction


def compare_sort_keys(a: tuple, b: tuple, descending: Tuple[bool, ...], nulls_first: Tuple[bool, ...] = None) -> int:
    """-1, 0 or 1 as ``a`` sorts before, with or after ``b``; NULL first where ``nulls_first`` says so (by default
    as Flink SQL sorts it: before any value ascending, after descending)."""
    if nulls_first is None:
        nulls_first = tuple(not desc for desc in descending)
    for x, y, desc, null_first in zip(a, b, descending, nulls_first):
        if x == y:
            continue
        if x is None or y is None:
            return (-1 if x is None else 1) * (1 if null_first else -1)
        order = -1 if x < y else 1
        return -order if desc else order
    return 0


class AppendOnlyTopN(KeyedProcessFunction):
    """The best ``limit`` rows per partition key. A row better than the worst kept (or any row while fewer are
    kept; equal sort keys keep their arrival order) enters. Without the row number: the row pushed out is deleted
    (``-D``), then the new one inserted (``+I``). With it: each rank from the new row's down changes its row
    (``-U`` old, ``+U`` new, with that rank), and a rank that had no row gets one (``+I``)."""

    def __init__(self, limit: int, descending: Tuple[bool, ...], rank_position: Optional[int], first: int = 1,
                 nulls_first: Tuple[bool, ...] = None):
        self.limit, self.descending, self.rank_position = limit, descending, rank_position
        self.nulls_first = nulls_first
        self.first = first             # ranks before it are kept but not emitted (an offset)

    def open(self, runtime_context):
        from pyflink_compat.datastream.state import ValueStateDescriptor
        self.kept = runtime_context.get_state(ValueStateDescriptor("top-n", None))   # [(sort key, values)] sorted

    def _emitted(self, kind: str, values, rank: int):
        if rank >= self.first:
            yield kind, self._row(values, rank)

    def _row(self, values, rank: int) -> tuple:
        if self.rank_position is None:
            return tuple(values)
        values = list(values)
        values.insert(self.rank_position, rank)
        return tuple(values)

    def process_element(self, value, ctx):
        _, (sort_key, values) = value
        rows = list(self.kept.value() or [])
        position = len(rows)
        for index, (other, _) in enumerate(rows):
            if compare_sort_keys(sort_key, other, self.descending, self.nulls_first) < 0:
                position = index
                break
        if position >= self.limit:
            return
        rows.insert(position, (tuple(sort_key), tuple(values)))
        if self.rank_position is None and self.first == 1:
            if len(rows) > self.limit:
                yield "-D", self._row(rows.pop()[1], 0)
            yield "+I", self._row(values, 0)
        else:                                  # numbered (the number selected, or ranks from an offset)
            current, rank = tuple(values), position + 1
            while rank <= self.limit and rank < len(rows):
                previous = rows[rank][1]
                yield from self._emitted("-U", previous, rank)
                yield from self._emitted("+U", current, rank)
                current, rank = previous, rank + 1
            if rank <= self.limit:
                yield from self._emitted("+I", current, rank)
            del rows[self.limit:]
        self.kept.update(rows)


class Deduplicate(KeyedProcessFunction):
    """One row per partition key, ordered by a time attribute: the first (``keep_last`` False) or the last. On
    processing time the first row stays (later ones dropped), or each row replaces the last one; on event time
    a row replaces the kept one when it is earlier (first row) or not earlier (last row). A replacement retracts
    the kept row (``-U``) before the new one (``+U``); the first row of a key is an insertion (``+I``). The sort
    key is the row's time (None: processing time)."""

    def __init__(self, keep_last: bool):
        self.keep_last = keep_last

    def open(self, runtime_context):
        from pyflink_compat.datastream.state import ValueStateDescriptor
        self.kept = runtime_context.get_state(ValueStateDescriptor("deduplicate", None))   # (time, values)

    def process_element(self, value, ctx):
        _, (sort_key, values) = value
        at = sort_key[0]
        kept = self.kept.value()
        values = tuple(values)
        if kept is None:
            self.kept.update((at, values))
            yield "+I", values
            return
        kept_at, kept_values = kept
        if at is None or kept_at is None:          # processing time: arrival order decides
            replaces = self.keep_last
        else:
            replaces = at >= kept_at if self.keep_last else at < kept_at
        if replaces:
            self.kept.update((at, values))
            yield "-U", kept_values
            yield "+U", values


class FirstRowAtWatermark(KeyedProcessFunction):
    """Deduplication keeping each key's first row in event time: the earliest row of a key is kept until the
    watermark passes its time, then inserted (``+I``); later rows of the key, and rows behind the watermark, are
    dropped. Its output is insert-only, as Flink's."""

    def open(self, runtime_context):
        from pyflink_compat.datastream.state import ValueStateDescriptor
        self.kept = runtime_context.get_state(ValueStateDescriptor("first-row", None))   # (time ms, values, emitted)

    def process_element(self, value, ctx):
        _, (_, values) = value
        at = ctx.timestamp()
        if at is None or at <= ctx.timer_service().current_watermark():
            return
        kept = self.kept.value()
        if kept is not None and (kept[2] or kept[0] <= at):
            return
        self.kept.update((at, tuple(values), False))
        ctx.timer_service().register_event_time_timer(at)

    def on_timer(self, timestamp, ctx):
        kept = self.kept.value()
        if kept is not None and not kept[2] and kept[0] == timestamp:
            self.kept.update((kept[0], kept[1], True))
            yield "+I", kept[1]


class RetractableTopN(AppendOnlyTopN):
    """Top-N over an updating input (a GROUP BY's changelog), as Flink's Rank with its retract strategy: every
    row of a partition is kept in sort order; an insertion (+I / +U) goes after the rows sorting equal to it, a
    retraction (-U / -D) takes its row out, and what changed in the best ``limit`` rows is emitted. With the row
    number (or ranks from an offset), rank by rank: ``-U`` the old row and ``+U`` the new one, ``+I`` for a rank
    that had none, ``-D`` for one left empty; without it, the rows that left (``-D``) before those that came in
    (``+I``)."""

    def open(self, runtime_context):
        from pyflink_compat.datastream.state import ValueStateDescriptor
        self.kept = runtime_context.get_state(ValueStateDescriptor("retractable-top-n", None))   # all, sorted

    def process_element(self, value, ctx):
        _, (kind, sort_key, values) = value
        rows = list(self.kept.value() or [])
        before = [row_values for _, row_values in rows[:self.limit]]
        entry = (tuple(sort_key), tuple(values))
        if kind in ("+I", "+U"):
            position = len(rows)
            for index, (other, _) in enumerate(rows):
                if compare_sort_keys(entry[0], other, self.descending, self.nulls_first) < 0:
                    position = index
                    break
            rows.insert(position, entry)
        elif entry in rows:
            rows.remove(entry)
        else:
            return                        # a retraction of a row never kept (filtered out before)
        self.kept.update(rows)
        after = [row_values for _, row_values in rows[:self.limit]]
        if self.rank_position is None and self.first == 1:
            left, came = list(before), []
            for row_values in after:
                if row_values in left:
                    left.remove(row_values)
                else:
                    came.append(row_values)
            for row_values in left:
                yield "-D", self._row(row_values, 0)
            for row_values in came:
                yield "+I", self._row(row_values, 0)
            return
        for index in range(self.limit):
            old = before[index] if index < len(before) else None
            new = after[index] if index < len(after) else None
            if old == new:
                continue
            rank = index + 1
            if old is not None and new is not None:
                yield from self._emitted("-U", old, rank)
                yield from self._emitted("+U", new, rank)
            elif new is not None:
                yield from self._emitted("+I", new, rank)
            else:
                yield from self._emitted("-D", old, rank)


def _sorted_rows(rows, order):
    """``rows`` (Rows) sorted by ``order`` ([(function of the row values, descending, NULL first)]), stably."""
    if not order:
        return rows
    functions = [function for function, _, _ in order]
    descending = tuple(desc for _, desc, _ in order)
    nulls_first = tuple(first for _, _, first in order)

    def compare(a, b):
        return compare_sort_keys(a[0], b[0], descending, nulls_first)
    keyed = [(tuple(function(tuple(row)) for function in functions), row) for row in rows]
    return [row for _, row in sorted(keyed, key=functools.cmp_to_key(compare))]


def keep_until_watermark(pending, ctx, at: int, item):
    """Keep ``item`` in ``pending`` (MapState: time -> items) under its time ``at``, with an event-time timer there
    when it is the first of that time."""
    items = pending.get(at)
    if items is None:
        items = []
        ctx.timer_service().register_event_time_timer(at)
    items.append(item)
    pending.put(at, items)


def take_kept(pending, at: int):
    """The items kept under time ``at`` (None when there are none), taken out of ``pending``."""
    items = pending.get(at)
    if items is not None:
        pending.remove(at)
    return items


class RowTimeSort(KeyedProcessFunction):
    """ORDER BY an event-time attribute (then ``order``), as Flink's temporal sort: each row is kept until the
    watermark passes its time, then the rows of that time come out sorted by the other keys (in the order they came
    where those are equal); a row not after the last time emitted is dropped. Insert-only, one instance (the input is
    keyed by one constant)."""

    def __init__(self, order):
        self.order = order

    def open(self, runtime_context):
        from pyflink_compat.datastream.state import MapStateDescriptor, ValueStateDescriptor
        self.pending = runtime_context.get_map_state(MapStateDescriptor("sort-pending", None, None))
        self.last_emitted = runtime_context.get_state(ValueStateDescriptor("sort-last-emitted", None))

    def process_element(self, value, ctx):
        at = ctx.timestamp()
        last = self.last_emitted.value()
        if at is None or (last is not None and at <= last):
            return
        keep_until_watermark(self.pending, ctx, at, value)

    def on_timer(self, timestamp, ctx):
        rows = take_kept(self.pending, timestamp)
        if rows is None:
            return
        self.last_emitted.update(timestamp)
        yield from _sorted_rows(rows, self.order)


class ProcessingTimeSort(KeyedProcessFunction):
    """ORDER BY a processing-time attribute (then ``order``), as Flink's: the rows that came since the last
    processing-time tick come out at the next, sorted by the other keys (else in the order they came)."""

    def __init__(self, order):
        self.order = order

    def open(self, runtime_context):
        from pyflink_compat.datastream.state import ValueStateDescriptor
        self.pending = runtime_context.get_state(ValueStateDescriptor("sort-pending", None))

    def process_element(self, value, ctx):
        rows = self.pending.value()
        if not rows:
            rows = []
            now = ctx.timer_service().current_processing_time()
            ctx.timer_service().register_processing_time_timer(now + 1)
            # a bounded input may end before that tick: its end (the watermark's last value) flushes them too
            ctx.timer_service().register_event_time_timer(_END_OF_INPUT)
        rows.append(value)
        self.pending.update(rows)

    def on_timer(self, timestamp, ctx):
        rows = self.pending.value()
        self.pending.clear()
        yield from _sorted_rows(rows or [], self.order)


class SortAtEndOfInput(KeyedProcessFunction):
    """ORDER BY / LIMIT in batch mode: a bounded query's final rows, sorted by ``order``, ranks ``first`` to
    ``last`` of them, once its input has ended (Flink's batch Sort / Limit). Input: changes (row kind, values), applied to the rows kept (an update or a deletion takes its row
    back); output: an insertion (+I) per row, in order (rows of equal keys in the order they came). One instance."""

    def __init__(self, order, first: int = 1, last: Optional[int] = None, width: Optional[int] = None):
        self.order = order
        self.first, self.last = first, last      # the ranks emitted (LIMIT / OFFSET)
        self.width = width                       # the values emitted: those before the sort's own columns

    def open(self, runtime_context):
        from pyflink_compat.datastream.state import ValueStateDescriptor
        self.kept = runtime_context.get_state(ValueStateDescriptor("batch-sort", None))

    def process_element(self, value, ctx):
        kind, values = value
        rows = self.kept.value()
        if rows is None:
            rows = []
            ctx.timer_service().register_event_time_timer(_END_OF_INPUT)
        values = tuple(values)
        if kind in ("+I", "+U"):
            rows.append(values)
        elif values in rows:
            rows.remove(values)
        self.kept.update(rows)

    def on_timer(self, timestamp, ctx):
        rows = self.kept.value() or []
        self.kept.clear()
        ranked = _sorted_rows(rows, self.order)[self.first - 1:self.last]
        for values in ranked:
            yield "+I", tuple(values[:self.width])


class NumberAtEndOfInput(KeyedProcessFunction):
    """ROW_NUMBER(), RANK() or DENSE_RANK() OVER (PARTITION BY ... ORDER BY ...) in batch mode, without a filter
    on it: every row of a bounded input with its number, once the input has ended, as Flink's batch OverAggregate
    gives them (sorted by the partition keys, then the order). Input: (partition key, (sort key, row values));
    output: insertions (+I) of the values with the number put in at ``position``. One instance."""

    def __init__(self, function: str, descending: Tuple[bool, ...], nulls_first: Tuple[bool, ...], position: int):
        self.function, self.descending, self.nulls_first = function, descending, nulls_first
        self.position = position

    def open(self, runtime_context):
        from pyflink_compat.datastream.state import ValueStateDescriptor
        self.kept = runtime_context.get_state(ValueStateDescriptor("batch-numbering", None))

    def process_element(self, value, ctx):
        rows = self.kept.value()
        if rows is None:
            rows = []
            ctx.timer_service().register_event_time_timer(_END_OF_INPUT)
        partition, (sort_key, values) = value
        rows.append((tuple(partition), tuple(sort_key), tuple(values)))
        self.kept.update(rows)

    def on_timer(self, timestamp, ctx):
        rows = self.kept.value() or []
        self.kept.clear()

        def compare(a, b):
            by_partition = compare_sort_keys(a[0], b[0], (False,) * len(a[0]))
            return by_partition or compare_sort_keys(a[1], b[1], self.descending, self.nulls_first)
        previous, number, rank = None, 0, 0
        for partition, sort_key, values in sorted(rows, key=functools.cmp_to_key(compare)):
            if previous is None or previous[0] != partition:
                number, rank, dense = 0, 0, 0
            number += 1
            if previous is None or previous[0] != partition or previous[1] != sort_key:
                rank, dense = number, dense + 1
            previous = (partition, sort_key)
            numbered = list(values)
            numbered.insert(self.position, {"ROW_NUMBER": number, "RANK": rank, "DENSE_RANK": dense}[self.function])
            yield "+I", tuple(numbered)

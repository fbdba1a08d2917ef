"""OVER aggregations: ``agg(x) OVER (PARTITION BY k ORDER BY time {ROWS | RANGE} BETWEEN ... PRECEDING AND CURRENT
ROW)``, as Flink's over-window operators compute them on a stream.

A query with OVER aggregates is planned as a view of its source with one column per aggregate (``over_as_view``:
``SELECT a, SUM(x) OVER w FROM t WHERE c`` reads ``SELECT *, SUM(x) OVER w AS $over0 FROM t WHERE c``). Its rows
come from ``OverAggregate``, keyed by the partition: on event time a row waits until the watermark passes its
time (rows behind the watermark are dropped), then the rows of one time are taken in arrival order; on processing
time a row is taken when it comes. ROWS: each row's aggregates cover it and the n rows before it (the oldest
retracted, then the row accumulated, as Flink does); RANGE: the rows of the same time are accumulated together
and share their aggregates, rows older than the time minus the interval retracted. Every row comes out once
(``+I``), with the aggregates after it.
"""
from typing import List, Optional

from sqlglot import exp

from pyflink_compat.datastream.functions import KeyedProcessFunction
from pyflink_compat.table.sql import aggregates
from pyflink_compat.table.sql.ranking import keep_until_watermark, take_kept

OVER_PREFIX = "$over"


def _aggregate_windows(item) -> List[exp.Window]:
    return [window for window in item.find_all(exp.Window)
            if not isinstance(window.this, (exp.RowNumber,) + RANKINGS)]


# ranking functions Flink's streaming planner refuses (a Top-N takes ROW_NUMBER only)
RANKINGS = (exp.Rank, exp.DenseRank)


def over_as_view(node):
    """A SELECT with OVER aggregates as the projection of a view computing them (see the module's doc)."""
    if not isinstance(node, exp.Select) or node.args.get("group"):
        return node
    if not any(_aggregate_windows(item) for item in node.expressions):
        return node
    named = {window.name: window for window in node.args.get("windows") or []}
    outer = node.copy()
    inner = exp.Select(expressions=[exp.Star()])
    for clause in ("from", "from_", "joins", "where"):
        if node.args.get(clause) is not None:
            inner.set(clause, node.args[clause].copy())
    for clause in ("where", "windows", "joins"):
        outer.set(clause, None)
    number = 0
    for item in outer.expressions:
        for window in _aggregate_windows(item):
            definition = named.get(window.alias) if window.args.get("alias") is not None else None
            source = definition or window
            spec = source.args.get("spec")
            resolved = exp.Window(this=window.this.copy(),
                                  partition_by=[each.copy() for each in source.args.get("partition_by") or []],
                                  order=(source.args.get("order") or exp.Order(expressions=[])).copy(),
                                  spec=spec.copy() if spec is not None else None)
            name = "%s%d" % (OVER_PREFIX, number)
            number += 1
            inner.append("expressions", exp.alias_(resolved, exp.to_identifier(name, quoted=True)))
            window.replace(exp.column(exp.to_identifier(name, quoted=True)))
    for position, item in enumerate(outer.expressions):      # an unnamed aggregate: Flink's EXPR$<position>
        if isinstance(item, exp.Column) and item.name.startswith(OVER_PREFIX):
            item.replace(exp.alias_(item.copy(), exp.to_identifier("EXPR$%d" % position)))
    source = node.args.get("from") or node.args.get("from_")
    relation = source.this if source is not None else None
    alias = relation.alias_or_name if isinstance(relation, (exp.Table, exp.Subquery)) and relation.alias_or_name \
        else "t"
    outer.set("from" if node.args.get("from") is not None else "from_",
              exp.From(this=exp.Subquery(this=inner, alias=exp.TableAlias(this=exp.to_identifier(alias)))))
    return outer


# -- accumulators that take values back (bounded windows) -----------------------------------------------

def initial(name: str):
    if name in ("COUNT", "COUNT(*)"):
        return 0
    if name.startswith("SUM"):
        return None, 0                 # the sum, how many values are in it (NULL when none)
    if name.startswith("AVG"):
        return 0, 0
    return {}                          # MIN / MAX: value -> how many times it is in the window


def add(name: str, accumulator, value):
    if name == "COUNT(*)":
        return accumulator + 1
    if value is None:
        return accumulator
    if name == "COUNT":
        return accumulator + 1
    if name.startswith("SUM"):
        total, count = accumulator
        total = value if total is None else _rounded(name, total + value)
        return total, count + 1
    if name.startswith("AVG"):
        return accumulator[0] + value, accumulator[1] + 1
    accumulator[value] = accumulator.get(value, 0) + 1
    return accumulator


def retract(name: str, accumulator, value):
    if name == "COUNT(*)":
        return accumulator - 1
    if value is None:
        return accumulator
    if name == "COUNT":
        return accumulator - 1
    if name.startswith("SUM"):
        total, count = accumulator
        return _rounded(name, total - value), count - 1
    if name.startswith("AVG"):
        return accumulator[0] - value, accumulator[1] - 1
    left = accumulator[value] - 1
    if left:
        accumulator[value] = left
    else:
        del accumulator[value]
    return accumulator


def result(name: str, accumulator):
    if name in ("COUNT", "COUNT(*)"):
        return accumulator
    if name.startswith("SUM"):
        total, count = accumulator
        return total if count else None
    if name.startswith("AVG"):
        return aggregates.result_of(name, accumulator)
    if not accumulator:
        return None
    return min(accumulator) if name.startswith("MIN") else max(accumulator)


def _rounded(name: str, value):
    if name.endswith(":float"):
        from pyflink_compat.table.sql.values import single_precision
        return single_precision(value)
    return value


class OverAggregate(KeyedProcessFunction):
    """The rows of one partition key with their OVER aggregates. Input: (key, (row values, argument values));
    output: the row with the aggregates' results put in at ``positions``.

    ``kind``: "ROWS" or "RANGE"; ``preceding``: rows (ROWS) or milliseconds (RANGE) before the current row,
    None for UNBOUNDED; ``event_time``: wait for the watermark (else take rows as they come)."""

    def __init__(self, names, positions, kind: str, preceding: Optional[int], event_time: bool):
        self.names, self.positions, self.kind = names, positions, kind
        self.preceding, self.event_time = preceding, event_time

    def open(self, runtime_context):
        from pyflink_compat.datastream.state import MapStateDescriptor, ValueStateDescriptor
        self.pending = runtime_context.get_map_state(MapStateDescriptor("over-pending", None, None))
        # bounded windows: the time last taken (a row not after it is dropped; 0 before the first, as Flink's)
        self.last_taken = runtime_context.get_state(ValueStateDescriptor("over-last-taken", None))
        # (accumulators, the rows in the window: [(time, argument values)] oldest first)
        self.window = runtime_context.get_state(ValueStateDescriptor("over-window", None))

    def process_element(self, value, ctx):
        _, (values, arguments) = value
        if not self.event_time:
            yield from self._take(ctx.timer_service().current_processing_time(), [(values, arguments)])
            return
        at = ctx.timestamp()
        if self.preceding is None:        # unbounded: a row behind the watermark is late
            late = at is None or at <= ctx.timer_service().current_watermark()
        else:                             # bounded: one not after the last time taken of its key (0 at first)
            late = at is None or at <= (self.last_taken.value() or 0)
        if late:
            return                        # dropped, as Flink's over windows do
        keep_until_watermark(self.pending, ctx, at, (values, arguments))

    def on_timer(self, timestamp, ctx):
        rows = take_kept(self.pending, timestamp)
        if rows is None:
            return
        if self.preceding is not None:
            self.last_taken.update(timestamp)
        yield from self._take(timestamp, rows)

    def _take(self, at: int, rows):
        from pyflink_compat.common.types import Row
        state = self.window.value()
        names = self.names
        bounded = self.preceding is not None
        if state is None:
            state = ([initial(name) if bounded else aggregates.initial_of(name) for name in names], [])
        accumulators, kept = state
        accumulators = list(accumulators)

        def accumulate(arguments):
            for i, name in enumerate(names):
                accumulators[i] = add(name, accumulators[i], arguments[i]) if bounded \
                    else aggregates.accumulate_of(name, accumulators[i], arguments[i])

        def results():
            return [result(name, accumulators[i]) if bounded else aggregates.result_of(name, accumulators[i])
                    for i, name in enumerate(names)]

        def retract_oldest():
            _, old = kept.pop(0)
            for i, name in enumerate(names):
                accumulators[i] = retract(name, accumulators[i], old[i])

        outputs = []
        if self.kind == "ROWS":
            for values, arguments in rows:
                if bounded and len(kept) > self.preceding:
                    retract_oldest()
                accumulate(arguments)
                if bounded:
                    kept.append((at, arguments))
                outputs.append((values, results()))
        else:
            if bounded:
                while kept and kept[0][0] < at - self.preceding:
                    retract_oldest()
            for values, arguments in rows:
                accumulate(arguments)
                if bounded:
                    kept.append((at, arguments))
            shared = results()
            outputs = [(values, shared) for values, _ in rows]
        self.window.update((accumulators, kept))
        for values, over_values in outputs:
            row = list(values)
            for position, over_value in zip(self.positions, over_values):
                row.insert(position, over_value)
            yield Row(*row)

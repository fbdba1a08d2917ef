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
    """A left, right or full outer join of two insert-only inputs, as Flink's Join operator: a row joined with the
    kept rows of the other side that match, or, with none, padded with NULLs on an outer side (``+I``); a row that
    comes to match rows of an outer other side padded so far first retracts them (``-D``), then joins them
    (``+I``). An outer side's rows are kept with how many rows they matched. Changes come out as (row kind,
    values)."""

    def __init__(self, condition, left_width: int, right_width: int, left_outer: bool, right_outer: bool):
        self.condition = condition
        self.widths = (left_width, right_width)
        self.outer = (left_outer, right_outer)

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
        key, values = value
        values = tuple(values)
        if None in key:             # joins nothing: padded at once (only an outer side's such rows come here)
            yield "+I", self._row(side, values, None)
            return
        other_side = 1 - side
        others = self.kept[other_side].value() or []
        matched, retractions, joined = 0, [], []
        for entry in others:
            other_values, count = entry
            if self._matches(side, values, other_values):
                if self.outer[other_side] and count == 0:
                    retractions.append(("-D", self._row(other_side, other_values, None)))
                entry[1] = count + 1
                joined.append(("+I", self._row(side, values, other_values)))
                matched += 1
        if matched:
            if self.outer[other_side]:
                self.kept[other_side].update(others)
            yield from retractions
            yield from joined
        elif self.outer[side]:
            yield "+I", self._row(side, values, None)
        self.kept[side].update((self.kept[side].value() or []) + [[values, matched]])

    def process_element1(self, value, ctx):
        yield from self._process(0, value)

    def process_element2(self, value, ctx):
        yield from self._process(1, value)

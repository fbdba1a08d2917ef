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


class LeftOuterJoin(KeyedCoProcessFunction):
    """A left outer join of two insert-only inputs, as Flink's Join operator: a left row joined with the kept
    right rows that match, or, with none, padded with NULLs (``+I``); a right row that comes to match a left row
    padded so far retracts that row (``-D``) before its join (``+I``). Each left row is kept with how many right
    rows it matched. Changes come out as (row kind, values)."""

    def __init__(self, condition, right_width: int):
        self.condition, self.right_width = condition, right_width

    def open(self, runtime_context):
        from pyflink_compat.datastream.state import ListStateDescriptor, ValueStateDescriptor
        self.left = runtime_context.get_state(ValueStateDescriptor("left-records", None))
        self.right = runtime_context.get_list_state(ListStateDescriptor("right-records", None))

    def _matches(self, left_values, right_values) -> bool:
        values = tuple(left_values) + tuple(right_values)
        return self.condition is None or self.condition(values) is True

    def process_element1(self, value, ctx):
        _, values = value
        values = tuple(values)
        matched = 0
        for other in self.right.get() or ():
            if self._matches(values, other):
                matched += 1
                yield "+I", values + tuple(other)
        if not matched:
            yield "+I", values + (None,) * self.right_width
        self.left.update((self.left.value() or []) + [(values, matched)])

    def process_element2(self, value, ctx):
        _, values = value
        values = tuple(values)
        self.right.add(values)
        kept = []
        for left_values, matched in self.left.value() or []:
            if self._matches(left_values, values):
                if not matched:
                    yield "-D", tuple(left_values) + (None,) * self.right_width
                yield "+I", tuple(left_values) + values
                matched += 1
            kept.append((left_values, matched))
        if kept:
            self.left.update(kept)

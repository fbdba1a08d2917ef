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

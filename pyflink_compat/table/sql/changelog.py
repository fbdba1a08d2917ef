"""Reading an 'upsert-kafka' table: Flink's ChangelogNormalize. Per primary key, the last row in keyed state; a
record with a new row for the key updates it (``-U`` of the old row, ``+U`` of the new; ``+I`` for a key without
one), a tombstone deletes it (``-D`` of the last row), a record repeating the key's row or deleting a key without
one changes nothing. A query's filter is applied to the rows before and after, as Flink's planner moves it into
the operator: a row that comes to match is an insertion, one that stops matching a deletion."""
from pyflink_compat.datastream.functions import KeyedProcessFunction


class ChangelogNormalize(KeyedProcessFunction):

    def __init__(self, condition=None):
        self.condition = condition            # the query's WHERE over the table's row, or None

    def open(self, runtime_context):
        from pyflink_compat.datastream.state import ValueStateDescriptor
        self.state = runtime_context.get_state(ValueStateDescriptor("last row", None))

    def _matches(self, row) -> bool:
        return row is not None and (self.condition is None or self.condition(row) is True)

    def process_element(self, value, ctx):
        _, row = value
        new = None if row is None else tuple(row)
        old = self.state.value()
        if new == old:
            return
        if new is None:
            self.state.clear()
        else:
            self.state.update(new)
        before, after = self._matches(old), self._matches(new)
        if before and after:
            yield "-U", old
            yield "+U", new
        elif after:
            yield "+I", new
        elif before:
            yield "-D", old


def keys_of(change):
    return change[0]

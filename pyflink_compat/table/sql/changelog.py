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


class SinkUpsertMaterializer(KeyedProcessFunction):
    """Flink's sink upsert materializer, before an upsert sink whose primary key the query's rows are not keyed by
    (a GROUP BY of more columns than the key): per primary key, every row of the changelog that is still there,
    in the order they came, so that the sink always holds the key's latest row. An insertion or update replaces the
    row of the same upsert key (else is added last) and is written (``+I`` for the key's only row, else ``+U``); a
    retraction removes its row and, when that was the last one, writes the row before it (``+U``) or deletes the
    key (``-D``) when none is left. Elements are (primary key, (row kind, values)); ``upsert_key``: the positions
    identifying a row (None: the whole row)."""

    def __init__(self, upsert_key=None):
        self.upsert_key = tuple(upsert_key) if upsert_key is not None else None

    def open(self, runtime_context):
        from pyflink_compat.datastream.state import ValueStateDescriptor
        self.rows = runtime_context.get_state(ValueStateDescriptor("values", None))

    def _identity(self, values):
        return tuple(values) if self.upsert_key is None else tuple(values[i] for i in self.upsert_key)

    def process_element(self, value, ctx):
        _, (kind, values) = value
        values = tuple(values)
        rows = self.rows.value() or []
        identity = self._identity(values)
        index = next((i for i, row in enumerate(rows) if self._identity(row) == identity), None)
        if kind in ("+I", "+U"):
            if index is None:
                rows.append(values)
            else:
                rows[index] = values
            self.rows.update(rows)
            yield ("+I" if len(rows) == 1 else "+U"), values
            return
        if index is None:                 # a retraction of a row never written here
            return
        was_last = index == len(rows) - 1
        del rows[index]
        if rows:
            self.rows.update(rows)
        else:
            self.rows.clear()
        if was_last:
            if rows:
                yield "+U", rows[-1]
            else:
                yield "-D", values

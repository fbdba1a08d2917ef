"""GROUP BY over a changelog (an upsert-kafka table, a join of changelogs, a view of a GROUP BY): Flink's
GroupAggregate with retraction. Each aggregate can take a row back (``-U`` / ``-D`` of its input), so its
accumulator keeps what it needs for that: a count beside a sum, a count per value for MIN / MAX and DISTINCT.
A count of the key's rows decides when the key's result is deleted (``-D``) and its state dropped."""
from pyflink_compat.datastream.functions import KeyedProcessFunction
from pyflink_compat.table.sql import aggregates
from pyflink_compat.util.exceptions import UnsupportedFeatureError

_ADDING = ("+I", "+U")


def check_retractable(names, section: str):
    """Refuses the aggregates that cannot take a row back here yet."""
    for name in names:
        if isinstance(name, aggregates.BuiltinAggregate):
            continue
        if not isinstance(name, str):
            raise UnsupportedFeatureError("A Python aggregate function (udaf) in a GROUP BY of a changelog "
                                          "(an outer join, a GROUP BY view, an 'upsert-kafka' table)", section)
        if name in ("FIRST_VALUE", "LAST_VALUE"):
            raise UnsupportedFeatureError("%s in a GROUP BY of a changelog (an outer join, a GROUP BY view, an "
                                          "'upsert-kafka' table)" % name, section)


def _counted(name: str) -> bool:
    """Whether the aggregate's accumulator is a count per distinct value (MIN, MAX and the DISTINCT ones)."""
    return name.startswith(aggregates.DISTINCT) or name.startswith("MIN") or name.startswith("MAX")


def initial(name: str):
    if isinstance(name, aggregates.BuiltinAggregate):
        return name.initial()
    if _counted(name):
        return {}
    if name in ("COUNT", "COUNT(*)"):
        return 0
    return (0, 0)                        # SUM and AVG: the total and the count of values in it


def update(name: str, accumulator, value, sign: int):
    """The accumulator with ``value`` added (sign 1) or taken back (sign -1); NULLs count only for COUNT(*)."""
    if isinstance(name, aggregates.BuiltinAggregate):
        return name.accumulate(accumulator, value) if sign > 0 else name.retract(accumulator, value)
    if name == "COUNT(*)":
        return accumulator + sign
    if value is None:
        return accumulator
    if name == "COUNT":
        return accumulator + sign
    if _counted(name):
        count = accumulator.get(value, 0) + sign
        changed = dict(accumulator)
        if count == 0:
            del changed[value]
        else:
            changed[value] = count
        return changed
    total, count = accumulator
    total = total + value if sign > 0 else total - value
    if name.endswith(":float"):
        total = aggregates._single(total)
    return total, count + sign


def result(name: str, accumulator):
    if isinstance(name, aggregates.BuiltinAggregate):
        return name.result(accumulator)
    if name in ("COUNT", "COUNT(*)"):
        return accumulator
    if name.startswith(aggregates.DISTINCT):
        values = frozenset(value for value, count in accumulator.items() if count > 0)
        return aggregates._distinct_result(name[len(aggregates.DISTINCT):], values)
    if _counted(name):
        present = [value for value, count in accumulator.items() if count > 0]
        if not present:
            return None
        return min(present) if name.startswith("MIN") else max(present)
    total, count = accumulator
    if name.startswith("SUM"):
        return total if count > 0 else None
    return aggregates._result(name, (total, count))          # AVG: None without values


class RetractingGroupAggregate(KeyedProcessFunction):
    """Per key the row count and the accumulators; an input ``+I`` / ``+U`` adds its row, ``-U`` / ``-D`` takes
    it back. The key's first row sends ``+I``; a later change ``-U`` of the previous result and ``+U`` of the new
    one (nothing when unchanged); the last row taken back ``-D`` of the previous result, and the key's state is
    dropped. A retraction of a key without state is ignored, as Flink's operator ignores it."""

    def __init__(self, names, output):
        self.names, self.output = names, output

    def open(self, runtime_context):
        from pyflink_compat.datastream.state import ValueStateDescriptor
        self.state = runtime_context.get_state(ValueStateDescriptor("retracting-accumulators", None))

    def process_element(self, value, ctx):
        key, (kind, arguments) = value
        adding = kind in _ADDING
        stored = self.state.value()
        if stored is None:
            if not adding:
                return
            count, accumulators = 0, tuple(initial(name) for name in self.names)
        else:
            count, accumulators = stored
        before = None if stored is None else tuple(result(name, accumulator)
                                                   for name, accumulator in zip(self.names, accumulators))
        sign = 1 if adding else -1
        accumulators = tuple(update(name, accumulator, argument, sign)
                             for name, accumulator, argument in zip(self.names, accumulators, arguments))
        count += sign
        if count <= 0:
            self.state.clear()
            if stored is not None:
                old = self.output.row(key, before)
                if old is not None:
                    yield "-D", old
            return
        self.state.update((count, accumulators))
        after = tuple(result(name, accumulator) for name, accumulator in zip(self.names, accumulators))
        new = self.output.row(key, after)
        if stored is None:
            if new is not None:
                yield "+I", new
            return
        if aggregates.unchanged(before, after):
            return
        old = self.output.row(key, before)
        if old is not None:
            yield "-U", old
        if new is not None:
            yield "+U", new

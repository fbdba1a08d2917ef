"""Aggregate functions of GROUP BY and Flink's GroupAggregate operator (a KeyedProcessFunction here): the
accumulators of a key in keyed state, a changelog of its results."""
from typing import Optional, Tuple

from sqlglot import exp

from pyflink_compat.datastream.functions import KeyedProcessFunction
from pyflink_compat.table.sql import expressions

# sqlglot's node -> Flink's aggregate name
_AGGREGATES = {exp.Count: "COUNT", exp.Sum: "SUM", exp.Min: "MIN", exp.Max: "MAX", exp.Avg: "AVG"}


def call_of(node: exp.Expr, compiler) -> Optional[Tuple[str, object]]:
    """(aggregate name, compiled argument or None for COUNT(*)) of an aggregate call, else None."""
    name = _AGGREGATES.get(type(node))
    if name is None:
        return None
    argument = node.this
    if isinstance(argument, exp.Distinct):
        from pyflink_compat.util.exceptions import UnsupportedFeatureError
        raise UnsupportedFeatureError("%s(DISTINCT ...)" % name, "table-api")
    if name == "COUNT" and (argument is None or isinstance(argument, exp.Star)):
        return "COUNT(*)", None
    function, argument_type = compiler.compile(argument)
    return (name + (":int" if argument_type.name in expressions.INTEGERS else "")), function


def _initial(name: str):
    if name in ("COUNT", "COUNT(*)"):
        return 0
    if name.startswith("AVG"):
        return (0, 0)
    return None


def _accumulate(name: str, accumulator, value):
    if name == "COUNT(*)":
        return accumulator + 1
    if value is None:
        return accumulator
    if name == "COUNT":
        return accumulator + 1
    if name.startswith("SUM"):
        return value if accumulator is None else accumulator + value
    if name.startswith("MIN"):
        return value if accumulator is None or value < accumulator else accumulator
    if name.startswith("MAX"):
        return value if accumulator is None or value > accumulator else accumulator
    total, count = accumulator                      # AVG
    return total + value, count + 1


def _result(name: str, accumulator):
    if not name.startswith("AVG"):
        return accumulator
    total, count = accumulator
    if count == 0:
        return None
    if name.endswith(":int"):                       # AVG of an integer column is an integer, truncated
        return expressions.integer_division(total, count)
    return total / count


class GroupAggregate(KeyedProcessFunction):
    """Per key: the accumulators in a ValueState; each input row emits the key's new result: ``+I`` for its
    first row, else ``-U`` of the previous result and ``+U`` of the new one, nothing when they are equal."""

    def __init__(self, names, outputs, column_types):
        self.names, self.outputs, self.column_types = names, outputs, column_types

    def open(self, runtime_context):
        from pyflink_compat.datastream.state import ValueStateDescriptor
        self.state = runtime_context.get_state(ValueStateDescriptor("accumulators", None))

    def _row(self, key, accumulators):
        values = []
        for (kind, index), column_type in zip(self.outputs, self.column_types):
            value = key[index] if kind == "key" else _result(self.names[index], accumulators[index])
            values.append(expressions.cast_value(value, column_type))
        return values

    def process_element(self, value, ctx):
        key, arguments = value
        previous = self.state.value()
        accumulators = list(previous) if previous is not None else [_initial(name) for name in self.names]
        before = self._row(key, accumulators) if previous is not None else None
        accumulators = [_accumulate(name, accumulator, argument)
                        for name, accumulator, argument in zip(self.names, accumulators, arguments)]
        self.state.update(tuple(accumulators))
        after = self._row(key, accumulators)
        if before is None:
            yield "+I", after
        elif before != after:
            yield "-U", before
            yield "+U", after

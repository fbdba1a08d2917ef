"""Aggregate functions of GROUP BY and Flink's GroupAggregate operator (a KeyedProcessFunction here): the
accumulators of a key in keyed state, a changelog of its results."""
from typing import Optional, Tuple

from sqlglot import exp

from pyflink_compat.common.constants import MAX_LONG_VALUE as _END_OF_INPUT   # the watermark at the end of input
from pyflink_compat.datastream.functions import AggregateFunction, KeyedProcessFunction, ProcessWindowFunction
from pyflink_compat.datastream.window import (EventTimeTrigger, ProcessingTimeTrigger, TimeWindow, TimeWindowSerializer,
                                              WindowAssigner)
from pyflink_compat.table.sql import expressions, operand_types
from pyflink_compat.table.sql.builtin_aggregates import (ArrayAgg, BuiltinAggregate, Filtered, JsonArrayAgg,
                                                        JsonObjectAgg, ListAgg, Variance)
from pyflink_compat.table.sql.catalog import SECTION, SqlType, interval_ms
from pyflink_compat.util.exceptions import UnsupportedFeatureError, table_exception

GROUP_WINDOWS = ("TUMBLE", "HOP", "SESSION")

# sqlglot's node -> Flink's aggregate name
_AGGREGATES = {exp.Count: "COUNT", exp.Sum: "SUM", exp.Min: "MIN", exp.Max: "MAX", exp.Avg: "AVG",
               exp.FirstValue: "FIRST_VALUE", exp.LastValue: "LAST_VALUE"}
_VARIANCES = {exp.VariancePop: "VAR_POP", exp.Variance: "VAR_SAMP", exp.StddevPop: "STDDEV_POP",
              exp.StddevSamp: "STDDEV_SAMP", exp.Stddev: "STDDEV_SAMP"}


def call_of(node: exp.Expr, compiler) -> Optional[Tuple[str, object, SqlType]]:
    """(aggregate name, compiled argument or None for COUNT(*), result type) of an aggregate call, else None;
    a Python aggregate function's "name" is the aggregate itself (udf._Aggregate), its argument the tuple of its
    arguments' values."""
    from pyflink_compat.table.udf import UserDefinedAggregateFunctionWrapper
    wrapper = node.args.get("function") if isinstance(node, exp.Anonymous) else None
    if isinstance(wrapper, UserDefinedAggregateFunctionWrapper):
        from pyflink_compat.table.sql.catalog import sql_type_of
        compiled = [compiler.compile(each) for each in node.expressions]
        arguments = [function for function, _ in compiled]
        # the function given alone to aggregate / flat_aggregate takes the whole row, as a Row of its columns
        row_names = [each.alias_or_name for each in node.expressions] if wrapper._takes_row_as_input else None

        def argument_values(values):
            given = tuple(argument(values) for argument in arguments)
            if row_names is None:
                return given
            from pyflink_compat.common.types import Row
            row = Row(*given)
            row.set_field_names(row_names)
            return (row,)
        return wrapper._aggregate(tuple(argument_type for _, argument_type in compiled)), argument_values, \
            sql_type_of(wrapper._result_type)
    if type(node) in _VARIANCES:
        return _variance_call(node, _VARIANCES[type(node)], compiler)
    from pyflink_compat.table.sql.dialect import JsonArrayAggCall, ListAggCall, is_array_agg
    if isinstance(node, ListAggCall):
        return _listagg_call(node, compiler)
    if isinstance(node, JsonArrayAggCall):
        return _json_arrayagg_call(node, compiler)
    if isinstance(node, exp.Filter) and isinstance(node.expression, exp.Where):
        return _filtered_call(node, compiler)
    if is_array_agg(node):
        return _array_agg_call(node, compiler)
    if isinstance(node, exp.JSONObjectAgg):
        return _json_objectagg_call(node, compiler)
    name = _AGGREGATES.get(type(node))
    if name is None:
        return None
    argument = node.this
    distinct = isinstance(argument, exp.Distinct)
    if distinct:
        if len(argument.expressions) != 1:
            raise expressions.validation_error("SQL validation failed. Invalid number of arguments to function "
                                               "'%s'." % name)
        argument = argument.expressions[0]
    if name == "COUNT" and (argument is None or isinstance(argument, exp.Star)):
        return "COUNT(*)", None, SqlType("BIGINT", nullable=False)
    function, argument_type = compiler.compile(argument)
    operand_types.check_aggregate(node, name, argument_type)
    if name == "COUNT":
        result_type = SqlType("BIGINT", nullable=False)
    elif argument_type.name == "DECIMAL" and name in ("SUM", "AVG"):
        # Flink's SUM of a DECIMAL(p, s) is a DECIMAL(38, s); its AVG a DECIMAL(38, max(6, s)), rounded half up
        scale = argument_type.scale if name == "SUM" else max(6, argument_type.scale)
        result_type = SqlType("DECIMAL", precision=38, scale=scale)
        if name == "AVG":
            return (DISTINCT if distinct else "") + "AVG:decimal%d" % scale, function, result_type
    else:                    # Flink's SUM, MIN, MAX and AVG keep their argument's type (AVG of an INT: an INT)
        result_type = SqlType(argument_type.name, precision=argument_type.precision, scale=argument_type.scale)
    # AVG of an integer column is an integer; a SUM of FLOAT adds in single precision, as Java's floats do
    suffix = ":int" if name == "AVG" and argument_type.name in expressions.INTEGERS else \
        ":float" if name == "SUM" and argument_type.name == "FLOAT" else \
        ":double" if name == "SUM" and argument_type.name == "DOUBLE" else ""
    return (DISTINCT if distinct else "") + name + suffix, function, result_type


def _variance_call(node, function: str, compiler):
    """VAR_POP / VAR_SAMP / STDDEV_POP / STDDEV_SAMP (and STDDEV, VARIANCE) of a numeric column."""
    from pyflink_compat.table.sql.dialect import Flink
    argument = node.this
    if isinstance(argument, exp.Distinct):
        raise UnsupportedFeatureError("%s with DISTINCT" % node.sql(dialect=Flink), SECTION)
    compiled, argument_type = compiler.compile(argument)
    if argument_type.name not in expressions.INTEGERS + expressions.APPROXIMATE + ("DECIMAL",):
        written = node.sql(dialect=Flink).split("(")[0].upper()
        raise expressions.validation_error(
            "SQL validation failed. Cannot apply '%s' to arguments of type '%s(<%s>)'. Supported form(s): "
            "'%s(<NUMERIC>)'" % (written, written, _calcite_type_name(argument_type), written))
    aggregate = Variance(function, argument_type.name, argument_type.scale)
    return aggregate, compiled, aggregate.result_type()


def _calcite_type_name(sql_type: SqlType) -> str:
    return {"STRING": "VARCHAR(2147483647)", "INT": "INTEGER"}.get(sql_type.name, sql_type.name)


def _listagg_call(node, compiler):
    """LISTAGG([DISTINCT] s [, 'separator']) of a string column."""
    from pyflink_compat.table.sql.dialect import Flink
    argument, separator = node.this, node.args.get("separator")
    distinct = isinstance(argument, exp.Distinct)
    if distinct:
        argument = argument.expressions[0]
    if separator is not None and not (isinstance(separator, exp.Literal) and separator.is_string):
        raise UnsupportedFeatureError("LISTAGG with a separator that is not a string literal (%s)"
                                      % separator.sql(dialect=Flink), SECTION)
    compiled, argument_type = compiler.compile(argument)
    if argument_type.name != "STRING":
        raise expressions.validation_error(
            "SQL validation failed. Cannot apply 'LISTAGG' to arguments of type 'LISTAGG(<%s>)'. Supported "
            "form(s): 'LISTAGG(<CHARACTER>)'\n'LISTAGG(<CHARACTER>, <CHARACTER>)'" % _calcite_type_name(argument_type))
    aggregate = ListAgg("," if separator is None else separator.this, distinct)
    # Flink types it as its argument (CHAR(1) NOT NULL for a literal's column) without cutting the joined text to it
    return aggregate, compiled, SqlType("STRING", nullable=argument_type.nullable)


# the type of JSON_ARRAYAGG and JSON_OBJECTAGG (Calcite's)
JSON_AGGREGATE_TYPE = SqlType("STRING", nullable=False, length=2000)


def _json_writer(sql_type: SqlType):
    """The JSON writer of a JSON aggregate's values; Flink's code generation error for a type it cannot write."""
    from pyflink_compat.table.sql import json_functions
    from pyflink_compat.util.exceptions import JavaStyleError
    try:
        return json_functions.writer(sql_type)
    except json_functions.NotJsonType as e:
        raise JavaStyleError("org.apache.flink.table.planner.codegen.CodeGenException", str(e), "executeSql")


def _json_arrayagg_call(node, compiler):
    """JSON_ARRAYAGG(value [NULL | ABSENT ON NULL]) of a value JSON functions can write."""
    from pyflink_compat.table.sql.dialect import Flink
    if isinstance(node.this, exp.Distinct):
        raise UnsupportedFeatureError("%s with DISTINCT" % node.sql(dialect=Flink), SECTION)
    compiled, argument_type = compiler.compile(node.this)
    aggregate = JsonArrayAgg(_json_writer(argument_type), node.args.get("null_handling") == "NULL ON NULL")
    return aggregate, compiled, JSON_AGGREGATE_TYPE


def _filtered_call(node, compiler):
    """``AGG(...) FILTER (WHERE c)`` of an aggregate that takes NULLs in (the others' FILTER is a CASE of their
    argument, dialect.aggregate_filter_as_case): the rows ``c`` does not keep are not given to it."""
    inner = node.this
    if isinstance(inner, exp.ArrayAgg) and isinstance(inner.this, (exp.IgnoreNulls, exp.RespectNulls)):
        raise expressions.validation_error("SQL validation failed. FILTER must be applied to aggregate function")
    call = call_of(inner, compiler)
    if call is None or not isinstance(call[0], BuiltinAggregate):
        from pyflink_compat.table.sql.dialect import Flink
        raise UnsupportedFeatureError("A FILTER clause on %s" % node.this.sql(dialect=Flink), SECTION)
    aggregate, argument, result_type = call
    condition, _ = compiler.compile(node.expression.this)
    return Filtered(aggregate), lambda values: (condition(values) is True, argument(values)), result_type


def _array_agg_call(node, compiler):
    """ARRAY_AGG([DISTINCT] value [RESPECT NULLS | IGNORE NULLS]): an ARRAY of the argument's type."""
    ignore_nulls = isinstance(node, exp.IgnoreNulls)
    call = node.this if isinstance(node, (exp.IgnoreNulls, exp.RespectNulls)) else node
    argument = call.this
    if isinstance(argument, exp.Order):       # accepted and not applied by Flink 2.3: the values in arrival order
        argument = argument.this
    if isinstance(argument, (exp.IgnoreNulls, exp.RespectNulls)):     # so parsed before a FILTER clause
        ignore_nulls, argument = isinstance(argument, exp.IgnoreNulls), argument.this
    distinct = isinstance(argument, exp.Distinct)
    if distinct:
        if len(argument.expressions) != 1:
            raise expressions.validation_error("SQL validation failed. Invalid number of arguments to function "
                                               "'ARRAY_AGG'.")
        argument = argument.expressions[0]
    compiled, argument_type = compiler.compile(argument)
    # NOT NULL when its argument is (each row adds its value); a ROW's only when its fields are too (as Flink types it)
    nullable = argument_type.nullable or (argument_type.name == "ROW"
                                          and any(field.nullable for _, field in argument_type.fields))
    return ArrayAgg(distinct, ignore_nulls), compiled, SqlType("ARRAY", nullable=nullable, element=argument_type)


def _json_objectagg_call(node, compiler):
    """JSON_OBJECTAGG([KEY] key VALUE value [NULL | ABSENT ON NULL]) of a string key and a value JSON functions can
    write: a STRING NOT NULL."""
    pairs = node.expressions
    if len(pairs) != 1 or not isinstance(pairs[0], exp.JSONKeyValue):
        raise expressions.validation_error("SQL validation failed. Invalid number of arguments to function "
                                           "'JSON_OBJECTAGG'.")
    keep_nulls = node.args.get("null_handling") != "ABSENT ON NULL"
    key, key_type = compiler.compile(pairs[0].this)
    value, value_type = compiler.compile(pairs[0].expression)
    if key_type.name != "STRING":
        written = "JSON_OBJECTAGG_%s_ON_NULL" % ("NULL" if keep_nulls else "ABSENT")
        raise expressions.validation_error(
            "SQL validation failed. Cannot apply '%s' to arguments of type '%s(<%s>, <%s>)'. Supported form(s): "
            "'%s(<CHARACTER>, <ANY>)'" % (written, written, _calcite_type_name(key_type),
                                          _calcite_type_name(value_type), written))
    return JsonObjectAgg(_json_writer(value_type), keep_nulls), lambda values: (key(values), value(values)), \
        JSON_AGGREGATE_TYPE


def order_sensitive(names) -> bool:
    """Whether some aggregate's result depends on the order values are added in (floating-point sums)."""
    return any(getattr(name, "order_sensitive", False) if isinstance(name, BuiltinAggregate)
               else isinstance(name, str) and not name.startswith(DISTINCT)
               and (name in ("SUM:float", "SUM:double", "AVG", "FIRST_VALUE", "LAST_VALUE")) for name in names)


def _single(value: float) -> float:
    """Java's float arithmetic: each sum of two floats is rounded to a float."""
    from pyflink_compat.table.sql.values import single_precision
    return single_precision(value)


# An aggregate of the distinct values of its argument (COUNT(DISTINCT x)): its accumulator is the set of them.
DISTINCT = "DISTINCT "


def _python(name) -> bool:
    """Whether the aggregate is a Python aggregate function (udaf)."""
    return not isinstance(name, (str, BuiltinAggregate))


def _has_methods(name) -> bool:
    return not isinstance(name, str)


def _initial(name: str):
    if _has_methods(name):
        return name.initial()
    if name.startswith(DISTINCT):
        return frozenset()
    if name in ("COUNT", "COUNT(*)"):
        return 0
    if name.startswith("AVG"):
        return (0, 0)
    return None


def _accumulate(name: str, accumulator, value):
    if _has_methods(name):
        return name.accumulate(accumulator, value)
    if name == "COUNT(*)":
        return accumulator + 1
    if value is None:
        return accumulator
    if name.startswith(DISTINCT):
        return accumulator | {value}
    if name == "COUNT":
        return accumulator + 1
    if name.startswith("SUM"):
        total = value if accumulator is None else accumulator + value
        return _single(total) if name.endswith(":float") else total
    if name == "FIRST_VALUE":           # the first non-null value, in the order the rows came
        return value if accumulator is None else accumulator
    if name == "LAST_VALUE":
        return value
    if name.startswith("MIN"):
        return value if accumulator is None or value < accumulator else accumulator
    if name.startswith("MAX"):
        return value if accumulator is None or value > accumulator else accumulator
    total, count = accumulator                      # AVG
    return total + value, count + 1


def partial_of(name: str, value):
    """One row's contribution to an aggregate, as an accumulator that ``_merge`` adds to another (merging it into
    an accumulator equals accumulating the row)."""
    return _accumulate(name, _initial(name), value)


def _result(name: str, accumulator):
    if _has_methods(name):
        return name.result(accumulator)
    if name.startswith(DISTINCT):
        return _distinct_result(name[len(DISTINCT):], accumulator)
    if not name.startswith("AVG"):
        return accumulator
    total, count = accumulator
    if count == 0:
        return None
    if name.endswith(":int"):                       # AVG of an integer column is an integer, truncated
        return expressions.integer_division(total, count)
    if name.startswith("AVG:decimal"):
        from pyflink_compat.table.sql.values import DECIMAL_CONTEXT, decimal_of
        return decimal_of(DECIMAL_CONTEXT.divide(total, count), 38, int(name[len("AVG:decimal"):]))
    return total / count




class GroupOutput:
    """How a grouping's output row is made of a key, its aggregates' results and its window's bounds. Per column:
    ("key", i), ("agg", i), ("window", "start" / "end" / "rowtime"), ("constant", value) or ("expression", i),
    the i-th of ``expressions``: a function of the row (start, end, rowtime, *key, *results), as Flink's Calc
    after the aggregation computes ``SUM(a) * 2``; ``having`` a condition over that row (HAVING)."""

    def __init__(self, outputs, column_types, expressions=(), having=None, types=None):
        self.outputs, self.column_types = outputs, column_types
        self.expressions, self.having = tuple(expressions), having
        # a TIMESTAMP_LTZ column's value is an instant already (a UTC date-time), not a local one to convert
        self.sources = [each if each is not None and each.name == "TIMESTAMP_LTZ" else None
                        for each in (types or [None] * len(outputs))]

    def row(self, key, results, bounds=None) -> Optional[list]:
        """The output row, or None where HAVING filters it out."""
        whole = None
        if self.expressions or self.having is not None:
            whole = ((bounds["start"], bounds["end"], bounds["rowtime"]) if bounds else (None, None, None)) \
                + tuple(key) + tuple(results)
            if self.having is not None and self.having(whole) is not True:
                return None
        values = []
        for (kind, index), column_type, source in zip(self.outputs, self.column_types, self.sources):
            if kind == "key":
                value = key[index]
            elif kind == "agg":
                value = results[index]
            elif kind == "window":
                value = bounds[index]
            elif kind == "constant":
                value = index
            else:
                value = self.expressions[index](whole)
            values.append(expressions.cast_value(value, column_type, source))
        return values


def unchanged(before, after) -> bool:
    """Whether a key's new aggregate results are its previous ones, as Flink's equaliser finds them: an ARRAY
    result holding a NULL (ARRAY_AGG's) never equals the previous one, so that such a key's every row updates it."""
    return before == after and not any(isinstance(value, list) and None in value for value in after)


def results_of(names, accumulators) -> tuple:
    return tuple(_result(name, accumulator) for name, accumulator in zip(names, accumulators))


class GroupAggregate(KeyedProcessFunction):
    """Per key: the accumulators in a ValueState; each input row emits the key's new result: ``+I`` for its
    first row, else ``-U`` of the previous result and ``+U`` of the new one, nothing when the aggregates' results
    are unchanged (as Flink compares them, before the projection after the aggregation). A HAVING clause drops the
    changes whose row it filters out, each on its own, as Flink's Calc after the aggregation does."""

    def __init__(self, names, output: GroupOutput, final_only: bool = False):
        self.names, self.output = names, output
        # With a Python aggregate function, Flink's Python operator emits a key's result once per bundle of
        # records: here once per micro-batch (a processing-time timer due now fires at its end). In batch mode
        # (``final_only``) a key's one result comes at the end of the input.
        self.final_only = final_only
        self.bundled = final_only or any(_python(name) for name in names)

    def open(self, runtime_context):
        from pyflink_compat.datastream.state import ValueStateDescriptor
        self.state = runtime_context.get_state(ValueStateDescriptor("accumulators", None))
        if self.bundled:
            self.emitted = runtime_context.get_state(ValueStateDescriptor("emitted", None))
            self.pending = runtime_context.get_state(ValueStateDescriptor("pending", None))
            self.sequence = 0

    def on_timer(self, timestamp, ctx):
        if not self.pending.value():
            return
        self.pending.clear()
        previous = self.emitted.value()
        after = results_of(self.names, self.state.value())
        self.emitted.update(after)
        yield from self._changes(ctx.get_current_key(), previous, after)

    def _changes(self, key, before, after):
        if unchanged(before, after):
            return
        new = self.output.row(key, after)
        old = None if before is None else self.output.row(key, before)
        if before is None:
            if new is not None:
                yield "+I", new
            return
        if old is not None:
            yield "-U", old
        if new is not None:
            yield "+U", new

    def process_element(self, value, ctx):
        key, arguments = value
        previous = self.state.value()
        accumulators = list(previous) if previous is not None else [_initial(name) for name in self.names]
        if self.bundled:
            accumulators = [_accumulate(name, accumulator, argument)
                            for name, accumulator, argument in zip(self.names, accumulators, arguments)]
            self.state.update(tuple(accumulators))
            _emit_with_bundle(self, ctx)
            return
        before = results_of(self.names, accumulators) if previous is not None else None
        accumulators = [_accumulate(name, accumulator, argument)
                        for name, accumulator, argument in zip(self.names, accumulators, arguments)]
        self.state.update(tuple(accumulators))
        yield from self._changes(key, before, results_of(self.names, accumulators))


def _emit_with_bundle(operator, ctx):
    """Have the key's result emitted at the end of this micro-batch (Flink's bundle), or at the end of a bounded
    input, whichever comes first; at the end of the input in the order the keys came, as Flink's bundle emits
    them. ``operator``: a KeyedProcessFunction with a ``pending`` ValueState, a ``sequence`` and ``final_only``."""
    if operator.pending.value():
        return
    operator.pending.update(True)
    operator.sequence += 1
    if not operator.final_only:
        ctx.timer_service().register_processing_time_timer(ctx.timer_service().current_processing_time())
    ctx.timer_service().register_event_time_timer(_END_OF_INPUT - 2 ** 40 + operator.sequence)


class TableAggregate(KeyedProcessFunction):
    """Flink's GroupTableAggregate of a Python table aggregate function (``flat_aggregate``): per key, once per
    bundle (a micro-batch here; in batch mode at the end of the input), the rows it emitted before taken back
    (``-D``, the key's first time none) and the rows ``emit_value`` gives now inserted (``+I``): the key's values
    followed by each row's, converted to ``column_types``."""

    def __init__(self, function, column_types, final_only: bool = False):
        self.function, self.column_types, self.final_only = function, column_types, final_only

    def open(self, runtime_context):
        from pyflink_compat.datastream.state import ValueStateDescriptor
        self.state = runtime_context.get_state(ValueStateDescriptor("accumulators", None))
        self.emitted = runtime_context.get_state(ValueStateDescriptor("emitted", None))
        self.pending = runtime_context.get_state(ValueStateDescriptor("pending", None))
        self.sequence = 0

    def process_element(self, value, ctx):
        _, (arguments,) = value           # the one call's argument values
        accumulator = self.state.value()
        if accumulator is None:
            accumulator = self.function.initial()
        self.state.update(self.function.accumulate(accumulator, arguments))
        _emit_with_bundle(self, ctx)
        return ()

    def on_timer(self, timestamp, ctx):
        if not self.pending.value():
            return
        self.pending.clear()
        for row in self.emitted.value() or ():
            yield "-D", row
        key = list(ctx.get_current_key())
        rows = []
        for fields in self.function.rows(self.state.value()):
            values = key + fields
            if len(values) != len(self.column_types):
                raise table_exception(
                    "The table aggregate function emitted a row of %d fields where its result type has %d"
                    % (len(fields), len(self.column_types) - len(key)))
            rows.append([expressions.cast_value(each, column_type)
                         for each, column_type in zip(values, self.column_types)])
        self.emitted.update(rows)
        for row in rows:
            yield "+I", row


class GroupWindow:
    """TUMBLE(ts, size), HOP(ts, slide, size) or SESSION(ts, gap) of a GROUP BY, over the table's rowtime."""

    def __init__(self, kind: str, column: str, intervals: list, processing: bool = False, partition: tuple = (),
                 local: bool = False):
        self.kind, self.column, self.intervals = kind, column, intervals
        self.processing = processing          # over a processing-time attribute (PROCTIME())
        self.partition = partition            # SESSION(TABLE t PARTITION BY keys, ...): the keys
        # over a TIMESTAMP_LTZ or processing-time attribute: Flink aligns the windows to the session time zone's
        # days and shows their start and end as its wall-clock times
        self.local = local or processing
        self.offset_ms = -_local_offset_ms() if self.local else 0

    def assigner(self):
        from pyflink_compat.common.time import Time
        from pyflink_compat.datastream import window as windows
        if self.kind == "TUMBLE":
            tumbling = windows.TumblingProcessingTimeWindows if self.processing else windows.TumblingEventTimeWindows
            size = self.intervals[0]
            return tumbling.of(Time.milliseconds(size), Time.milliseconds(self.offset_ms % size))
        if self.kind == "HOP":
            slide, size = self.intervals
            sliding = windows.SlidingProcessingTimeWindows if self.processing else windows.SlidingEventTimeWindows
            return sliding.of(Time.milliseconds(size), Time.milliseconds(slide), Time.milliseconds(self.offset_ms % slide))
        if self.kind == "CUMULATE":
            step, size = self.intervals
            return CumulativeWindows(step, size, self.processing, self.offset_ms % size)
        session = windows.ProcessingTimeSessionWindows if self.processing else windows.EventTimeSessionWindows
        return session.with_gap(Time.milliseconds(self.intervals[0]))

    def bound_of(self, node) -> Optional[str]:
        """"start" / "end" for TUMBLE_START(...) / TUMBLE_END(...) of this window, else None."""
        if not isinstance(node, exp.Anonymous):
            return None
        name = node.name.upper()
        for bound in ("START", "END", "ROWTIME"):
            if name == "%s_%s" % (self.kind, bound):
                if bound == "ROWTIME":
                    return "rowtime"
                return bound.lower()
        return None


class CumulativeWindows(WindowAssigner):
    """Flink SQL's CUMULATE(step, size): windows that start every ``size`` ms and end after one step, two steps,
    ... up to ``size``; a row is in each of them that ends after it."""

    def __init__(self, step: int, size: int, processing: bool = False, offset: int = 0):
        self.step, self.size, self.processing, self.offset = step, size, processing, offset

    def assign_windows(self, element, timestamp, context):
        at = context.get_current_processing_time() if self.processing else timestamp
        start = TimeWindow.get_window_start_with_offset(at, self.offset, self.size)
        return [TimeWindow(start, end) for end in range(start + self.step, start + self.size + 1, self.step)
                if end > at]

    def get_default_trigger(self, env):
        return ProcessingTimeTrigger() if self.processing else EventTimeTrigger()

    def get_window_serializer(self):
        return TimeWindowSerializer()

    def is_event_time(self) -> bool:
        return not self.processing

    def __repr__(self):
        return "CumulativeWindows(%d, %d)" % (self.step, self.size)


def _local_offset_ms() -> int:
    """The session time zone's (this machine's) offset from UTC now, in milliseconds."""
    import datetime
    return int(datetime.datetime.now().astimezone().utcoffset().total_seconds() * 1000)


def is_local_time(table, column: str) -> bool:
    """Whether a window over the table's column runs in the session time zone: a TIMESTAMP_LTZ rowtime."""
    return any(each.name == column and each.type.name == "TIMESTAMP_LTZ" for each in table.columns)


def group_window(node: exp.Anonymous, source) -> GroupWindow:
    kind = node.name.upper()
    arguments = node.expressions
    if not arguments or not isinstance(arguments[0], exp.Column):
        raise UnsupportedFeatureError("%s over '%s'" % (kind, arguments[0].sql() if arguments else ""), SECTION)
    column = arguments[0].name
    processing = is_proctime(source, column)
    if not processing and (source.watermark is None or source.watermark[0] != column):
        raise expressions.validation_error(
            "Window aggregate can only be defined over a time attribute column, but TIMESTAMP(3) encountered.")
    expected = 2 if kind == "HOP" else 1
    if len(arguments) != expected + 1:
        raise expressions.validation_error("Invalid number of arguments to function '%s'." % kind)
    return GroupWindow(kind, column, [interval_ms(each) for each in arguments[1:]], processing,
                       local=is_local_time(source, column))


def is_proctime(table, column: str) -> bool:
    """Whether the table's column is a processing-time attribute (PROCTIME())."""
    found = next((each for each in table.columns if each.name == column), None)
    return found is not None and found.type is not None and found.type.time_attribute == "PROCTIME"


def _utc(epoch_ms: int):
    import datetime
    return datetime.datetime(1970, 1, 1) + datetime.timedelta(milliseconds=epoch_ms)


class Accumulate(AggregateFunction):
    """The aggregates of a group window, kept as accumulators while the window is open (one tuple per key and
    window in state, not its elements)."""

    def __init__(self, names, partials: bool = False, sliced: bool = False):
        self.names = names
        self.partials = partials          # the input is (keys, partial accumulators) of some rows (window_input)
        # the input is (keys, partial accumulators, slice): the accumulators are kept per slice and merged in
        # the slices' order when the window fires, as Flink's sliced hopping and cumulative windows add them up
        # (floating-point sums come out to the same bits)
        self.sliced = sliced

    def create_accumulator(self):
        if self.sliced:
            return {}
        return tuple(_initial(name) for name in self.names)

    def add(self, value, accumulator):
        if self.sliced:
            _, arguments, slice_index = value
            current = accumulator.get(slice_index)
            accumulator[slice_index] = arguments if current is None else tuple(
                _merge(name, each, partial) for name, each, partial in zip(self.names, current, arguments))
            return accumulator
        _, arguments = value
        if self.partials:
            return tuple(_merge(name, each, partial) for name, each, partial in zip(self.names, accumulator, arguments))
        return tuple(_accumulate(name, each, argument)
                     for name, each, argument in zip(self.names, accumulator, arguments))

    def get_result(self, accumulator):
        if self.sliced:
            merged = tuple(_initial(name) for name in self.names)
            for slice_index in sorted(accumulator):
                merged = tuple(_merge(name, x, y) for name, x, y in zip(self.names, merged, accumulator[slice_index]))
            return merged
        return accumulator

    def merge(self, a, b):
        if self.sliced:
            merged = dict(a)
            for slice_index, partial in b.items():
                current = merged.get(slice_index)
                merged[slice_index] = partial if current is None else tuple(
                    _merge(name, x, y) for name, x, y in zip(self.names, current, partial))
            return merged
        return tuple(_merge(name, x, y) for name, x, y in zip(self.names, a, b))


def _distinct_result(name: str, values: frozenset):
    if name == "COUNT":
        return len(values)
    if not values:
        return None
    if name.startswith("SUM"):
        return sum(values)
    if name.startswith("MIN"):
        return min(values)
    if name.startswith("MAX"):
        return max(values)
    return _result(name, (sum(values), len(values)))         # AVG


def _merge(name: str, a, b):
    """Two accumulators of one aggregate as one (session windows merge)."""
    if _has_methods(name):
        return name.merge(a, b)
    if name.startswith(DISTINCT):
        return a | b
    if name in ("COUNT", "COUNT(*)"):
        return a + b
    if name.startswith("AVG"):
        return a[0] + b[0], a[1] + b[1]
    if a is None or b is None:
        return b if a is None else a
    if name.startswith("SUM"):
        return _single(a + b) if name.endswith(":float") else a + b
    if name in ("FIRST_VALUE", "LAST_VALUE"):     # a's rows came before b's
        return a if name == "FIRST_VALUE" else b
    if name.startswith("MIN"):
        return min(a, b)
    return max(a, b)


class WindowAggregate(ProcessWindowFunction):
    """A group window's result when it fires: one insertion (+I) per key and window, from its accumulators
    (none where HAVING filters the row out)."""

    def __init__(self, names, output: GroupOutput, local: bool = False):
        self.names, self.output = names, output
        self.local = local                # start and end shown in the session time zone (GroupWindow.local)

    _bounds = (None, None, None)          # the last window's (start, end, bounds): many keys fire one window

    def process(self, key, context, accumulators):
        accumulators = next(iter(accumulators))
        window = context.window()
        start, end, bounds = self._bounds
        if (start, end) != (window.start, window.end):
            bounds = {"start": _utc(window.start), "end": _utc(window.end), "rowtime": _utc(window.end - 1)}
            if self.local:
                from pyflink_compat.table.sql.values import local_of_utc
                bounds["start"], bounds["end"] = local_of_utc(bounds["start"]), local_of_utc(bounds["end"])
            self._bounds = (window.start, window.end, bounds)
        row = self.output.row(key, results_of(self.names, accumulators), bounds)
        if row is not None:
            yield "+I", row


class SessionAggregate(WindowAggregate):
    """A session window's result from its elements (merging windows keep them rather than accumulators)."""

    def process(self, key, context, elements):
        accumulate = Accumulate(self.names)
        accumulators = accumulate.create_accumulator()
        for element in elements:
            accumulators = accumulate.add(element, accumulators)
        yield from super().process(key, context, [accumulators])


# the accumulator steps of the built-in aggregates, for operators of their own (over.OverAggregate)
initial_of, accumulate_of, result_of = _initial, _accumulate, _result

"""pyflink.table.expressions: the Table API's functions making expressions (``col``, ``lit``, ``call``...).
Those listed here are implemented; the others are PyFlink's stand-ins and raise ``UnsupportedFeatureError``."""
import sys

from sqlglot import exp

from pyflink_compat import missing
from pyflink_compat.table.expression import (Expression, JsonOnNull, _row_fields_named_f, not_null_of_not_null_operands,
                                              function_call, placeholders, sql_call, to_node)

_StandIns = missing.stand_ins(__name__)
__all__ = list(_StandIns.__all__)


# Over windows' bounds (Over...preceding(...) / following(...))
UNBOUNDED_ROW = Expression(exp.Var(this="UNBOUNDED_ROW"))
UNBOUNDED_RANGE = Expression(exp.Var(this="UNBOUNDED_RANGE"))
CURRENT_ROW = Expression(exp.Var(this="CURRENT_ROW"))
CURRENT_RANGE = Expression(exp.Var(this="CURRENT_RANGE"))


def row_interval(rows: int) -> Expression:
    """A row-count interval for an over window's preceding: ``row_interval(2)``."""
    return Expression(exp.Anonymous(this="ROW_INTERVAL", expressions=[exp.Literal.number(rows)]))


def col(name: str) -> Expression:
    """The column ``name``."""
    return Expression(exp.column(name, quoted=True))


def lit(v, data_type=None) -> Expression:
    """The literal value ``v`` (of ``data_type`` when given)."""
    literal = Expression(to_node(v))
    return literal.cast(data_type) if data_type is not None else literal


def and_(predicate0, predicate1, *predicates) -> Expression:
    node = exp.and_(*[to_node(each) for each in (predicate0, predicate1) + predicates], copy=False)
    return Expression(node)


def or_(predicate0, predicate1, *predicates) -> Expression:
    node = exp.or_(*[to_node(each) for each in (predicate0, predicate1) + predicates], copy=False)
    return Expression(node)


def not_(expression) -> Expression:
    return Expression(exp.Not(this=exp.Paren(this=to_node(expression))))


def if_then_else(condition, if_true, if_false) -> Expression:
    return Expression(exp.Case(ifs=[exp.If(this=to_node(condition), true=to_node(if_true))],
                               default=to_node(if_false)))


def coalesce(*args) -> Expression:
    nodes = [to_node(each) for each in args]
    return Expression(exp.Coalesce(this=nodes[0], expressions=nodes[1:]))


def concat(first, *others) -> Expression:
    return Expression(exp.Concat(expressions=[to_node(each) for each in (first,) + others]))


def concat_ws(separator, first, *others) -> Expression:
    return Expression(exp.ConcatWs(expressions=[to_node(each) for each in (separator, first) + others]))


def negative(v) -> Expression:
    return Expression(exp.Neg(this=to_node(v)))


def pi() -> Expression:
    return Expression(exp.Pi())


def e() -> Expression:
    return Expression(exp.Anonymous(this="E", expressions=[]))


def log(v, base=None) -> Expression:
    return Expression(to_node(v)).log(base)


def atan2(y, x) -> Expression:
    return Expression(exp.Atan2(this=to_node(y), expression=to_node(x)))


def row(head, *tail) -> Expression:
    return sql_call("ROW(%s)" % placeholders(len(tail) + 1), "row", head, *tail, result=_row_fields_named_f)


def array(head, *tail) -> Expression:
    return sql_call("ARRAY[%s]" % placeholders(len(tail) + 1), "array", head, *tail)


def map_(key, value, *tail) -> Expression:
    return sql_call("MAP[%s]" % placeholders(len(tail) + 2), "map", key, value, *tail)


def map_from_arrays(key, value) -> Expression:
    return sql_call("MAP_FROM_ARRAYS({0}, {1})", "mapFromArrays", key, value)


def null_of(data_type) -> Expression:
    return lit(None, data_type)


def call_sql(sql_expression: str) -> Expression:
    """A SQL expression's text, resolved against the table it is used in."""
    import sqlglot
    from pyflink_compat.table.sql.dialect import Flink
    return Expression(sqlglot.parse_one(sql_expression, read=Flink))


def current_database() -> Expression:
    return sql_call("CURRENT_DATABASE()", "currentDatabase")


def current_date() -> Expression:
    return sql_call("CURRENT_DATE", "currentDate")




def current_timestamp() -> Expression:
    return sql_call("CURRENT_TIMESTAMP", "currentTimestamp")




def local_timestamp() -> Expression:
    return sql_call("LOCALTIMESTAMP", "localTimestamp")




def date_format(timestamp, format) -> Expression:
    return sql_call("DATE_FORMAT({0}, {1})", "dateFormat", timestamp, format)


def from_unixtime(unixtime, format=None) -> Expression:
    return function_call("FROM_UNIXTIME", "fromUnixtime", unixtime, format, result=not_null_of_not_null_operands)


def unix_timestamp(date_str=None, format=None) -> Expression:
    return function_call("UNIX_TIMESTAMP", "unixTimestamp", date_str, format)


def to_date(date_str, format=None) -> Expression:
    return function_call("TO_DATE", "toDate", date_str, format, result=not_null_of_not_null_operands)


def to_timestamp(timestamp_str, format=None) -> Expression:
    return function_call("TO_TIMESTAMP", "toTimestamp", timestamp_str, format, result=not_null_of_not_null_operands)


def to_timestamp_ltz(*args) -> Expression:
    return sql_call("TO_TIMESTAMP_LTZ(%s)" % placeholders(len(args)), "toTimestampLtz", *args)


def convert_tz(date_str, tz_from, tz_to) -> Expression:
    return sql_call("CONVERT_TZ({0}, {1}, {2})", "convertTz", date_str, tz_from, tz_to)


def timestamp_diff(time_point_unit, time_point1, time_point2) -> Expression:
    return sql_call("TIMESTAMPDIFF(%s, {0}, {1})" % time_point_unit.name, "timestampDiff", time_point1, time_point2)


def temporal_overlaps(left_time_point, left_temporal, right_time_point, right_temporal) -> Expression:
    """Whether two anchored time ranges overlap: each a time point and a second time point or an interval."""
    given = [left_time_point, left_temporal, right_time_point, right_temporal]

    def end(point: int) -> str:
        if isinstance(to_node(given[point + 1]), exp.Interval):
            return "{%d} + {%d}" % (point, point + 1)
        return "{%d}" % (point + 1)
    left_end, right_end = end(0), end(2)
    template = ("GREATEST({0}, %s) >= LEAST({2}, %s) AND GREATEST({2}, %s) >= LEAST({0}, %s)"
                % (left_end, right_end, right_end, left_end))
    return sql_call(template, "temporalOverlaps", *given)






def uuid() -> Expression:
    return sql_call("UUID()", "uuid")


def json_string(value) -> Expression:
    return sql_call("JSON_STRING({0})", "jsonString", value)


def json_object(on_null=JsonOnNull.NULL, *args) -> Expression:
    pairs = ", ".join("KEY {%d} VALUE {%d}" % (n, n + 1) for n in range(0, len(args), 2))
    return sql_call("JSON_OBJECT(%s %s ON NULL)" % (pairs, on_null.name), "jsonObject", *args)


def json_array(on_null=JsonOnNull.ABSENT, *args) -> Expression:
    return sql_call("JSON_ARRAY(%s %s ON NULL)" % (placeholders(len(args)), on_null.name), "jsonArray", *args)


class ColumnSelection(exp.Expression):
    """``with_columns(...)`` / ``without_columns(...)`` / ``with_all_columns()``: columns of the table the
    expression is used in, chosen by name, by position (from 1) or by ``range_``; expanded by the table."""
    arg_types = {"expressions": False, "without": False, "all": False}


def range_(start, end) -> Expression:
    return Expression(exp.Tuple(expressions=[exp.Literal.number(start) if isinstance(start, int) else
                                             exp.column(start, quoted=True),
                                             exp.Literal.number(end) if isinstance(end, int) else
                                             exp.column(end, quoted=True)]))


def with_columns(head, *tails) -> Expression:
    return Expression(ColumnSelection(expressions=[to_node(each) for each in (head,) + tails]))


def without_columns(head, *tails) -> Expression:
    return Expression(ColumnSelection(expressions=[to_node(each) for each in (head,) + tails], without=True))


def with_all_columns() -> Expression:
    return Expression(ColumnSelection(all=True))


def selected_columns(selection: ColumnSelection, names) -> list:
    """The column names ``selection`` stands for in a table of the columns ``names``."""
    if selection.args.get("all"):
        return list(names)
    chosen = []

    def position(node):
        if isinstance(node, exp.Literal) and not node.is_string:
            return int(node.this) - 1
        return names.index(node.name) if node.name in names else None
    for each in selection.expressions:
        if isinstance(each, exp.Tuple):
            first, last = (position(bound) for bound in each.expressions)
            if first is not None and last is not None:
                chosen.extend(names[first:last + 1])
        elif isinstance(each, exp.Literal) and not each.is_string:
            chosen.append(names[int(each.this) - 1])
        elif isinstance(each, exp.Column):
            chosen.append(each.name)
        else:
            from pyflink_compat.table.sql.expressions import validation_error
            raise validation_error("The parameters of withColumns() or withoutColumns() only accept column names or "
                                   "column indices.")
    if selection.args.get("without"):
        return [name for name in names if name not in chosen]
    return chosen


#: marks a call made by ``call(name, ...)``: a name no function has fails when a table uses it (Table._bound)
CALLED_BY_NAME = "pyflink_compat_called_by_name"


def call(f, *args) -> Expression:
    """A call of the function ``f``: a built-in or registered function's name, or a Python user-defined
    function."""
    if isinstance(f, str):
        from pyflink_compat.table.sql.dialect import CALLED_AS, WRONG_ARGUMENT_COUNT, Flink
        arguments = [to_node(each) for each in args]
        try:
            node = exp.func(f, *arguments, dialect=Flink)       # a built-in by name, as in SQL text
            if isinstance(node, exp.Anonymous):
                node.meta[CALLED_BY_NAME] = True
            else:
                node.meta[CALLED_AS] = f          # the name Flink's errors give the call
        except ValueError:          # a built-in with an argument count it does not take: the planner says so
            node = exp.Anonymous(this=f.upper(), expressions=arguments)
            node.meta[WRONG_ARGUMENT_COUNT] = True
        return Expression(node)
    return f(*args)


missing.complete(sys.modules[__name__])

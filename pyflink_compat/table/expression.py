"""pyflink.table.expression: the Table API's expressions. An Expression holds the SQL expression it stands for
(a sqlglot node), so a Table API query is planned as the SQL query it is equivalent to. The operators and
methods listed here are implemented; the others are PyFlink's stand-ins and raise ``UnsupportedFeatureError``."""
import datetime
import decimal
import math
import sys
from enum import Enum

from sqlglot import exp

from pyflink_compat import missing

__all__ = ['Expression', 'TimeIntervalUnit', 'TimePointUnit', 'JsonType', 'JsonExistsOnError',
           'JsonValueOnEmptyOrError', 'JsonQueryWrapper', 'JsonQueryOnEmptyOrError', 'JsonOnNull']

_StandIns = missing.stand_ins(__name__)


# PyFlink's enums of the JSON functions' behaviours (their values are one-element tuples, as PyFlink's are)
class JsonValueOnEmptyOrError(Enum):
    """What json_value gives where it finds no scalar: NULL, an ERROR, or a DEFAULT value."""
    NULL = 0,
    ERROR = 1,
    DEFAULT = 2


class JsonQueryWrapper(Enum):
    """How json_query wraps what it finds in an array."""
    WITHOUT_ARRAY = 0,
    CONDITIONAL_ARRAY = 1,
    UNCONDITIONAL_ARRAY = 2


class JsonQueryOnEmptyOrError(Enum):
    """What json_query gives where it finds nothing: NULL, an EMPTY_ARRAY, an EMPTY_OBJECT or an ERROR."""
    NULL = 0,
    EMPTY_ARRAY = 1,
    EMPTY_OBJECT = 2,
    ERROR = 3


class WindowProperty(exp.Expression, exp.Func):
    """``w.start`` / ``w.end`` / ``w.rowtime`` of a group window aliased ``w`` (``this``: the alias column,
    ``kind``: a Var START, END or ROWTIME)."""
    arg_types = {"this": True, "kind": True}


def to_node(value) -> exp.Expr:
    """The SQL node of an expression or of a Python value (a literal)."""
    if isinstance(value, Expression):
        return value._node
    if value is None:
        return exp.Null()
    if isinstance(value, bool):
        return exp.Boolean(this=value)
    if isinstance(value, float):         # a DOUBLE, as PyFlink's lit(1.5); 1.5 in SQL would be a DECIMAL
        text = repr(value)
        return exp.Literal.number(text if "e" in text or not math.isfinite(value) else text + "E0")
    if isinstance(value, (int, decimal.Decimal)):
        return exp.Literal.number(value)
    if isinstance(value, str):
        return exp.Literal.string(value)
    if isinstance(value, datetime.datetime):
        return exp.Cast(this=exp.Literal.string(value.isoformat(sep=" ")), to=exp.DataType.build("TIMESTAMP"))
    from pyflink_compat.util.exceptions import UnsupportedFeatureError
    raise UnsupportedFeatureError("A literal of Python type %s in a Table API expression" % type(value).__name__,
                                  "table-api")


def _binary(node_class, reverse: bool = False):
    def operation(self, other):
        left, right = (to_node(other), self._node) if reverse else (self._node, to_node(other))
        return Expression(node_class(this=_paren(left), expression=_paren(right)))
    return operation


def _paren(node):
    return exp.Paren(this=node) if isinstance(node, (exp.Binary, exp.Not)) else node


def _interval(unit: str):
    def make(self):
        return Expression(exp.Interval(this=exp.Literal.string(str(_literal_value(self))), unit=exp.Var(this=unit)))
    return property(make)


def _literal_value(expression):
    node = expression._node
    if isinstance(node, exp.Literal) and not node.is_string:
        return int(node.this) if node.this.lstrip("-").isdigit() else float(node.this)
    from pyflink_compat.util.exceptions import UnsupportedFeatureError
    raise UnsupportedFeatureError("A time interval of '%s' (not a number literal)" % node.sql(), "table-api")


def _aggregate(node_class):
    return property(lambda self: Expression(node_class(this=self._node)))


def _unary(make):
    return property(lambda self: Expression(make(self._node)))


def _string_type():
    from pyflink_compat.table.types import DataTypes
    return DataTypes.STRING()


_STRING = _string_type()


class Expression(_StandIns.Expression):
    """An expression of the Table API: a column, a literal, an operation or a function call."""

    def __init__(self, j_expr_or_property_name):
        self._node = j_expr_or_property_name
        if isinstance(j_expr_or_property_name, exp.Expr):
            from pyflink_compat.table.sql.operand_types import TABLE_API
            j_expr_or_property_name.meta.setdefault(TABLE_API, True)     # its errors are the Table API's
        self._names = None             # alias(name, *more): the names of a table function's columns

    def _named(self, names) -> 'Expression':
        self._names = tuple(names) if names else None
        return self

    def __str__(self):
        from pyflink_compat.table.sql.dialect import Flink
        return self._node.sql(dialect=Flink)

    __repr__ = __str__

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        return self.get(name)

    __hash__ = None

    # comparison and logic
    __eq__ = _binary(exp.EQ)
    __ne__ = _binary(exp.NEQ)
    __lt__ = _binary(exp.LT)
    __gt__ = _binary(exp.GT)
    __le__ = _binary(exp.LTE)
    __ge__ = _binary(exp.GTE)
    __and__ = _binary(exp.And)
    __or__ = _binary(exp.Or)
    __rand__ = _binary(exp.And)
    __ror__ = _binary(exp.Or)

    def __invert__(self):
        # Flink's isNotTrue: NULL is "not true"
        return Expression(exp.Not(this=exp.Is(this=_paren(self._node), expression=exp.true())))

    # arithmetic
    __add__ = _binary(exp.Add)
    __sub__ = _binary(exp.Sub)
    __mul__ = _binary(exp.Mul)
    __truediv__ = _binary(exp.Div)
    __mod__ = _binary(exp.Mod)
    __radd__ = _binary(exp.Add, True)
    __rsub__ = _binary(exp.Sub, True)
    __rmul__ = _binary(exp.Mul)
    __rtruediv__ = _binary(exp.Div, True)
    __rmod__ = _binary(exp.Mod, True)

    def __neg__(self):
        return Expression(exp.Neg(this=_paren(self._node)))

    def __abs__(self):
        return self.abs

    abs = _unary(lambda node: exp.Abs(this=node))
    __pow__ = _binary(exp.Pow)
    __rpow__ = _binary(exp.Pow, True)

    # numeric functions
    def round(self, places):
        return Expression(exp.Round(this=self._node, decimals=to_node(places)))

    def truncate(self, n=0):
        return Expression(exp.Trunc(this=self._node, decimals=to_node(n)))

    def floor(self, time_interval_unit=None) -> 'Expression':
        return self._floor_or_ceil(exp.Floor, time_interval_unit)

    def ceil(self, time_interval_unit=None) -> 'Expression':
        return self._floor_or_ceil(exp.Ceil, time_interval_unit)

    def _floor_or_ceil(self, node_class, time_interval_unit):
        if time_interval_unit is not None:
            from pyflink_compat.util.exceptions import UnsupportedFeatureError
            raise UnsupportedFeatureError("Expression.%s(time_interval_unit)" % node_class.__name__.lower(),
                                          "table-api")
        return Expression(node_class(this=self._node))

    def log(self, base=None) -> 'Expression':
        if base is None:
            return Expression(exp.Log(this=self._node))
        return Expression(exp.Log(this=to_node(base), expression=self._node))

    sqrt = _unary(lambda node: exp.Sqrt(this=node))
    ln = _unary(lambda node: exp.Ln(this=node))
    log10 = _unary(lambda node: exp.Log(this=exp.Literal.number(10), expression=node))
    log2 = _unary(lambda node: exp.Log(this=exp.Literal.number(2), expression=node))
    sign = _unary(lambda node: exp.Sign(this=node))
    sin = _unary(lambda node: exp.Sin(this=node))
    cos = _unary(lambda node: exp.Cos(this=node))
    tan = _unary(lambda node: exp.Tan(this=node))
    cot = _unary(lambda node: exp.Cot(this=node))
    asin = _unary(lambda node: exp.Asin(this=node))
    acos = _unary(lambda node: exp.Acos(this=node))
    atan = _unary(lambda node: exp.Atan(this=node))
    sinh = _unary(lambda node: exp.Sinh(this=node))
    cosh = _unary(lambda node: exp.Cosh(this=node))
    tanh = _unary(lambda node: exp.Tanh(this=node))
    degrees = _unary(lambda node: exp.Degrees(this=node))
    radians = _unary(lambda node: exp.Radians(this=node))

    # null and truth tests
    is_null = _unary(lambda node: exp.Is(this=_paren(node), expression=exp.Null()))
    is_not_null = _unary(lambda node: exp.Not(this=exp.Is(this=_paren(node), expression=exp.Null())))
    is_true = _unary(lambda node: exp.Is(this=_paren(node), expression=exp.true()))
    is_false = _unary(lambda node: exp.Is(this=_paren(node), expression=exp.false()))
    is_not_true = _unary(lambda node: exp.Not(this=exp.Is(this=_paren(node), expression=exp.true())))
    is_not_false = _unary(lambda node: exp.Not(this=exp.Is(this=_paren(node), expression=exp.false())))

    # aggregates
    sum = _aggregate(exp.Sum)
    min = _aggregate(exp.Min)
    max = _aggregate(exp.Max)
    count = _aggregate(exp.Count)
    avg = _aggregate(exp.Avg)

    @property
    def distinct(self):
        """An aggregate of the distinct values of its argument: ``col('b').count.distinct``."""
        node = self._node.copy()
        if not isinstance(node, exp.AggFunc):
            from pyflink_compat.util.exceptions import UnsupportedFeatureError
            raise UnsupportedFeatureError("Expression.distinct of '%s' (not an aggregate)" % node.sql(), "table-api")
        node.set("this", exp.Distinct(expressions=[node.this]))
        return Expression(node)

    # strings
    upper_case = _unary(lambda node: exp.Upper(this=node))
    lower_case = _unary(lambda node: exp.Lower(this=node))
    char_length = _unary(lambda node: exp.Length(this=node))

    def trim(self, character=None):
        return Expression(exp.Trim(this=self._node, **({} if character is None else
                                                        {"expression": to_node(character)})))

    def like(self, pattern=None, escape=None):
        if escape is not None:
            from pyflink_compat.util.exceptions import UnsupportedFeatureError
            raise UnsupportedFeatureError("Expression.like with an escape character", "table-api")
        return Expression(exp.Like(this=self._node, expression=to_node(pattern)))

    def substring(self, begin_index, length=None):
        arguments = {"this": self._node, "start": to_node(begin_index)}
        if length is not None:
            arguments["length"] = to_node(length)
        return Expression(exp.Substring(**arguments))

    substr = substring

    def replace(self, search=None, replacement=None):
        return Expression(exp.Replace(this=self._node, expression=to_node(search),
                                      replacement=to_node(replacement)))

    def left(self, length):
        return Expression(exp.Left(this=self._node, expression=to_node(length)))

    def right(self, length):
        return Expression(exp.Right(this=self._node, expression=to_node(length)))

    def split_index(self, separator, index):
        return Expression(exp.Anonymous(this="SPLIT_INDEX", expressions=[self._node, to_node(separator),
                                                                         to_node(index)]))

    # conditions
    def between(self, lower_bound, upper_bound):
        return Expression(exp.Between(this=self._node, low=to_node(lower_bound), high=to_node(upper_bound)))

    def not_between(self, lower_bound, upper_bound):
        return Expression(exp.Not(this=self.between(lower_bound, upper_bound)._node))

    def in_(self, first_element_or_table, *remaining_elements):
        return Expression(exp.In(this=self._node, expressions=[to_node(each) for each in
                                                               (first_element_or_table,) + remaining_elements]))

    def then(self, if_true, if_false):
        return Expression(exp.Case(ifs=[exp.If(this=self._node, true=to_node(if_true))], default=to_node(if_false)))

    def if_null(self, null_replacement):
        return Expression(exp.Coalesce(this=self._node, expressions=[to_node(null_replacement)]))

    # naming and types
    def alias(self, name: str, *extra_names: str):
        if extra_names:
            return Expression(self._node)._named((name,) + extra_names)
        return Expression(exp.Alias(this=self._node, alias=exp.to_identifier(name)))

    def cast(self, data_type):
        return Expression(exp.Cast(this=self._node, to=_data_type_node(data_type)))

    def try_cast(self, data_type):
        return Expression(exp.TryCast(this=self._node, to=_data_type_node(data_type)))

    # order_by(col('a').asc, col('b').desc): NULL sorts as the greatest value in the Table API (last ascending,
    # first descending), where Flink SQL's ORDER BY sorts it as the least
    asc = _unary(lambda node: exp.Ordered(this=node, nulls_first=False))
    desc = _unary(lambda node: exp.Ordered(this=node, desc=True, nulls_first=True))

    def over(self, alias) -> 'Expression':
        """This aggregate over the table's over window ``alias`` (``col('w')``)."""
        return Expression(exp.Window(this=self._node, alias=exp.to_identifier(to_node(alias).name)))

    # JSON
    def json_value(self, path: str, returning_type=_STRING, on_empty=JsonValueOnEmptyOrError.NULL,
                   default_on_empty=None, on_error=JsonValueOnEmptyOrError.NULL, default_on_error=None):
        """JSON_VALUE(self, path RETURNING returning_type {NULL | ERROR | DEFAULT x} ON EMPTY ... ON ERROR)."""
        from pyflink_compat.table.sql.dialect import JsonValue
        args = {"this": self._node, "path": exp.Literal.string(path)}
        if returning_type is not None:
            args["returning"] = _data_type_node(returning_type)
        for target, behaviour, default in (("empty", on_empty, default_on_empty),
                                           ("error", on_error, default_on_error)):
            kind = getattr(behaviour, "name", "NULL") if behaviour is not None else "NULL"
            args["on_" + target] = exp.Var(this=kind)
            if kind == "DEFAULT":
                args[target + "_default"] = to_node(default)
        return Expression(JsonValue(**args))

    def json_query(self, path: str, wrapping_behavior=JsonQueryWrapper.WITHOUT_ARRAY,
                   on_empty=JsonQueryOnEmptyOrError.NULL, on_error=JsonQueryOnEmptyOrError.NULL):
        """JSON_QUERY(self, path) (without an array wrapper, NULL on empty and on error)."""
        for given, default in ((wrapping_behavior, "WITHOUT_ARRAY"), (on_empty, "NULL"), (on_error, "NULL")):
            if given is not None and getattr(given, "name", None) != default:
                from pyflink_compat.util.exceptions import UnsupportedFeatureError
                raise UnsupportedFeatureError("json_query with %s" % getattr(given, "name", given), "table-api")
        return Expression(exp.Anonymous(this="JSON_QUERY", expressions=[self._node, exp.Literal.string(path)]))

    def json_exists(self, path: str, on_error=None):
        """JSON_EXISTS(self, path) (FALSE on error)."""
        if on_error is not None and getattr(on_error, "name", None) != "FALSE":
            from pyflink_compat.util.exceptions import UnsupportedFeatureError
            raise UnsupportedFeatureError("json_exists with %s ON ERROR" % getattr(on_error, "name", on_error),
                                          "table-api")
        return Expression(exp.Anonymous(this="JSON_EXISTS", expressions=[self._node, exp.Literal.string(path)]))

    # group windows
    start = _unary(lambda node: WindowProperty(this=node, kind=exp.Var(this="START")))
    end = _unary(lambda node: WindowProperty(this=node, kind=exp.Var(this="END")))
    rowtime = _unary(lambda node: WindowProperty(this=node, kind=exp.Var(this="ROWTIME")))

    # time intervals of literals: lit(10).seconds
    milli = millis = _interval("MILLISECOND")
    second = seconds = _interval("SECOND")
    minute = minutes = _interval("MINUTE")
    hour = hours = _interval("HOUR")
    day = days = _interval("DAY")


# set after the class body, where the name ``exp`` is the sqlglot module the body uses
Expression.exp = _unary(lambda node: exp.Exp(this=node))


def _data_type_node(data_type) -> exp.DataType:
    from pyflink_compat.table.sql import dialect
    text = data_type.sql() if hasattr(data_type, "sql") else str(data_type)
    return dialect.parse_type(text)


missing.complete(sys.modules[__name__])

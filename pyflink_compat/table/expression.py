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


class TimeIntervalUnit(Enum):
    """The units of ``extract``, ``floor`` and ``ceil`` of a time point."""
    YEAR = 0,
    YEAR_TO_MONTH = 1,
    QUARTER = 2,
    MONTH = 3,
    WEEK = 4,
    DAY = 5,
    DAY_TO_HOUR = 6,
    DAY_TO_MINUTE = 7,
    DAY_TO_SECOND = 8,
    HOUR = 9,
    SECOND = 10,
    HOUR_TO_MINUTE = 11,
    HOUR_TO_SECOND = 12,
    MINUTE = 13,
    MINUTE_TO_SECOND = 14


class TimePointUnit(Enum):
    """The units of ``timestamp_diff``."""
    YEAR = 0,
    MONTH = 1,
    DAY = 2,
    HOUR = 3,
    MINUTE = 4,
    SECOND = 5,
    QUARTER = 6,
    WEEK = 7,
    MILLISECOND = 8,
    MICROSECOND = 9


class JsonType(Enum):
    """What ``is_json`` tests for."""
    VALUE = 0,
    SCALAR = 1,
    ARRAY = 2,
    OBJECT = 3


class JsonExistsOnError(Enum):
    """What json_exists gives on an error."""
    TRUE = 0,
    FALSE = 1,
    UNKNOWN = 2,
    ERROR = 3


class JsonOnNull(Enum):
    """What json_object / json_array do with a NULL value: write a JSON null, or leave the entry out."""
    NULL = 0,
    ABSENT = 1


class WindowProperty(exp.Expression, exp.Func):
    """``w.start`` / ``w.end`` / ``w.rowtime`` of a group window aliased ``w`` (``this``: the alias column,
    ``kind``: a Var START, END or ROWTIME); in from_data_stream, ``col('t').rowtime`` / ``col('p').proctime``."""
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


def _interval(unit: str, times: int = 1):
    def make(self):
        count = _literal_value(self) * times
        return Expression(exp.Interval(this=exp.Literal.string(str(count)), unit=exp.Var(this=unit)))
    return property(make)


def _literal_value(expression):
    node = expression._node
    if isinstance(node, exp.Literal) and not node.is_string:
        return int(node.this) if node.this.lstrip("-").isdigit() else float(node.this)
    from pyflink_compat.util.exceptions import UnsupportedFeatureError
    raise UnsupportedFeatureError("A time interval of '%s' (not a number literal)" % node.sql(), "table-api")


def _aggregate(node_class):
    return property(lambda self: Expression(node_class(this=self._node)))


_OPERAND = "pyflink_compat_operand_%d"


def sql_call(template: str, name, *operands, result=None) -> 'Expression':
    """A Table API call as the Flink SQL it is equivalent to: ``template`` with ``{0}``, ``{1}``... standing for
    the operands (expressions or Python values); ``name`` is the function's name in the Table API's errors;
    ``result(SQL's result type, operand types)``, where given, is the Table API's result type."""
    import sqlglot
    from pyflink_compat.table.sql.dialect import CALLED_AS, Flink
    nodes = [to_node(each) for each in operands]
    parsed = sqlglot.parse_one(template.format(*[_OPERAND % n for n in range(len(nodes))]), read=Flink)

    def substitute(node):
        if isinstance(node, exp.Column) and not node.table and node.name.startswith(_OPERAND[:-2]):
            return nodes[int(node.name[len(_OPERAND) - 2:])].copy()
        return node
    call = parsed.transform(substitute)
    if name is not None:
        call.meta[CALLED_AS] = name
    if result is not None:
        from pyflink_compat.table.sql.expressions import RESULT_TYPE
        call.meta[RESULT_TYPE] = (result, [each.copy() for each in nodes])
    return Expression(call)


def not_null_of_not_null_operands(result_type, operand_types):
    """The Table API's type of a function SQL types nullable: NOT NULL where no operand is nullable."""
    import attrs
    return attrs.evolve(result_type, nullable=any(each.nullable for each in operand_types))


def _retyped(name: str, **more):
    """A Table API result type of the type name ``name`` (SQL's ASCII is an INT, the Table API's a TINYINT)."""
    def adjust(result_type, operand_types):
        import attrs
        return attrs.evolve(result_type, name=name, **more)
    return adjust


def _nullable(result_type, operand_types):
    """A Table API result type that is nullable whatever the operands (ARRAY_APPEND's, unlike SQL's)."""
    import attrs
    return attrs.evolve(result_type, nullable=True)


def _row_fields_named_f(result_type, operand_types):
    """The Table API's ``row(...)`` names its fields f0, f1, ... (SQL's ROW(...) EXPR$0, ...)."""
    import attrs
    return attrs.evolve(result_type, fields=tuple(("f%d" % n, t) for n, (_, t) in enumerate(result_type.fields)))


def placeholders(count: int) -> str:
    """``{0}, {1}, ...``: the operands of a ``sql_call`` template of ``count`` operands."""
    return ", ".join("{%d}" % n for n in range(count))


def function_call(function: str, name, *operands, result=None) -> 'Expression':
    """``function(operands...)`` as a ``sql_call``, the trailing operands left out that are None (optional
    arguments not given)."""
    given = list(operands)
    while given and given[-1] is None:
        given.pop()
    return sql_call("%s(%s)" % (function, placeholders(len(given))), name, *given, result=result)


def _sql_property(template: str, name: str, result=None):
    return property(lambda self: sql_call(template, name, self, result=result))


def _one_optional(self, name: str, without: str, with_one: str, argument) -> 'Expression':
    """A call of one optional argument: ``without`` it, or ``with_one`` it (templates of {0}: self, {1})."""
    if argument is None:
        return sql_call(without, name, self)
    return sql_call(with_one, name, self, argument)


def _time_unit(unit) -> str:
    name = getattr(unit, "name", str(unit))
    return name.replace("_TO_", " TO ")


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
            return sql_call("%s({0} TO %s)" % (node_class.__name__.upper(), _time_unit(time_interval_unit)),
                            node_class.__name__.lower(), self)
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

    # aggregates
    sum0 = _sql_property("COALESCE(SUM({0}), 0)", "sum0")
    first_value = _sql_property("FIRST_VALUE({0})", "firstValue")
    last_value = _sql_property("LAST_VALUE({0})", "lastValue")
    stddev_pop = _sql_property("STDDEV_POP({0})", "stddevPop")
    stddev_samp = _sql_property("STDDEV_SAMP({0})", "stddevSamp")
    var_pop = _sql_property("VAR_POP({0})", "varPop")
    var_samp = _sql_property("VAR_SAMP({0})", "varSamp")
    collect = _sql_property("COLLECT({0})", "collect")
    array_agg = _sql_property("ARRAY_AGG({0})", "arrayAgg")
    def list_agg(self, separator=None):
        return function_call("LISTAGG", "listAgg", self, separator)

    def percentile(self, percentage, frequency=None):
        from pyflink_compat.util.exceptions import UnsupportedFeatureError
        raise UnsupportedFeatureError("The aggregate function PERCENTILE", "table-api")

    # numbers
    bin = _sql_property("BIN({0})", "bin")
    hex = _sql_property("HEX({0})", "hex")
    unhex = _sql_property("UNHEX({0})", "unhex")

    # strings
    init_cap = _sql_property("INITCAP({0})", "initCap")
    from_base64 = _sql_property("FROM_BASE64({0})", "fromBase64")
    to_base64 = _sql_property("TO_BASE64({0})", "toBase64")
    ascii = _sql_property("ASCII({0})", "ascii", result=_retyped("TINYINT"))
    chr = _sql_property("CHR({0})", "chr", result=_retyped("STRING", length=1, fixed_length=True))
    reverse = _sql_property("REVERSE({0})", "reverse")
    md5 = _sql_property("MD5({0})", "md5")
    sha1 = _sql_property("SHA1({0})", "sha1")
    sha224 = _sql_property("SHA224({0})", "sha224")
    sha256 = _sql_property("SHA256({0})", "sha256")
    sha384 = _sql_property("SHA384({0})", "sha384")
    sha512 = _sql_property("SHA512({0})", "sha512")

    def sha2(self, hash_length):
        return sql_call("SHA2({0}, {1})", "sha2", self, hash_length)

    def concat(self, other):
        return sql_call("CONCAT({0}, {1})", "concat", self, other)

    def starts_with(self, start_expr):
        return sql_call("STARTSWITH({0}, {1})", "startsWith", self, start_expr)

    def ends_with(self, end_expr):
        return sql_call("ENDSWITH({0}, {1})", "endsWith", self, end_expr)

    def trim_leading(self, character=None):
        return _one_optional(self, "trimLeading", "TRIM(LEADING FROM {0})", "TRIM(LEADING {1} FROM {0})", character)

    def trim_trailing(self, character=None):
        return _one_optional(self, "trimTrailing", "TRIM(TRAILING FROM {0})", "TRIM(TRAILING {1} FROM {0})",
                             character)

    def ltrim(self, trim_str=None):
        return function_call("LTRIM", "ltrim", self, trim_str)

    def rtrim(self, trim_str=None):
        return function_call("RTRIM", "rtrim", self, trim_str)

    def btrim(self, trim_str=None):
        return function_call("BTRIM", "btrim", self, trim_str)

    def translate(self, from_str, to_str):
        return sql_call("TRANSLATE({0}, {1}, {2})", "translate", self, from_str, to_str)

    def similar(self, pattern=None):
        return sql_call("{0} SIMILAR TO {1}", "similar", self, pattern)

    def position(self, haystack=None):
        return sql_call("POSITION({0} IN {1})", "position", self, haystack)

    def lpad(self, length, pad):
        return sql_call("LPAD({0}, {1}, {2})", "lpad", self, length, pad)

    def rpad(self, length, pad):
        return sql_call("RPAD({0}, {1}, {2})", "rpad", self, length, pad)

    def overlay(self, new_string, starting, length=None):
        if length is None:
            return sql_call("OVERLAY({0} PLACING {1} FROM {2})", "overlay", self, new_string, starting)
        return sql_call("OVERLAY({0} PLACING {1} FROM {2} FOR {3})", "overlay", self, new_string, starting, length)

    def regexp(self, regex):
        return sql_call("REGEXP({0}, {1})", "regexp", self, regex)

    def regexp_count(self, regex):
        return sql_call("REGEXP_COUNT({0}, {1})", "regexpCount", self, regex)

    def regexp_replace(self, regex, replacement):
        return sql_call("REGEXP_REPLACE({0}, {1}, {2})", "regexpReplace", self, regex, replacement)

    def regexp_extract(self, regex, extract_index=None):
        return function_call("REGEXP_EXTRACT", "regexpExtract", self, regex, extract_index)

    def regexp_extract_all(self, regex, extract_index=None):
        return function_call("REGEXP_EXTRACT_ALL", "regexpExtractAll", self, regex, extract_index)

    def regexp_instr(self, regex):
        return sql_call("REGEXP_INSTR({0}, {1})", "regexpInstr", self, regex)

    def regexp_substr(self, regex):
        return sql_call("REGEXP_SUBSTR({0}, {1})", "regexpSubstr", self, regex)

    def decode(self, charset):
        return sql_call("DECODE({0}, {1})", "decode", self, charset)

    def encode(self, charset):
        return sql_call("ENCODE({0}, {1})", "encode", self, charset)

    def instr(self, s):
        return sql_call("INSTR({0}, {1})", "instr", self, s)

    def locate(self, s, pos=None):
        return function_call("LOCATE", "locate", self, s, pos)

    def url_decode(self):
        return sql_call("URL_DECODE({0})", "urlDecode", self)

    def url_encode(self):
        return sql_call("URL_ENCODE({0})", "urlEncode", self)

    def inet_aton(self):
        return sql_call("INET_ATON({0})", "inetAton", self)

    def inet_ntoa(self):
        return sql_call("INET_NTOA({0})", "inetNtoa", self)

    def parse_url(self, part_to_extract, key=None):
        return function_call("PARSE_URL", "parseUrl", self, part_to_extract, key)

    def printf(self, *obj):
        return sql_call("PRINTF(%s)" % placeholders(len(obj) + 1), "printf", self, *obj)

    def repeat(self, n):
        return sql_call("REPEAT({0}, {1})", "repeat", self, n)

    def str_to_map(self, list_delimiter=None, key_value_delimiter=None):
        # the Table API's STR_TO_MAP is NOT NULL of NOT NULL operands (SQL's is always nullable)
        if list_delimiter is None and key_value_delimiter is None:
            return sql_call("STR_TO_MAP({0})", "strToMap", self, result=not_null_of_not_null_operands)
        return sql_call("STR_TO_MAP({0}, {1}, {2})", "strToMap", self, list_delimiter, key_value_delimiter,
                        result=not_null_of_not_null_operands)

    def elt(self, expr, *exprs):
        return sql_call("ELT(%s)" % placeholders(len(exprs) + 2), "elt", self, expr, *exprs)

    def split(self, delimiter):
        return sql_call("SPLIT({0}, {1})", "split", self, delimiter)

    # time points
    to_date = _sql_property("CAST({0} AS DATE)", "toDate")
    to_time = _sql_property("CAST({0} AS TIME)", "toTime")
    to_timestamp = _sql_property("CAST({0} AS TIMESTAMP(3))", "toTimestamp")

    def extract(self, time_interval_unit):
        return sql_call("EXTRACT(%s FROM {0})" % _time_unit(time_interval_unit), "extract", self)

    # values of arrays, maps and rows
    def get(self, name_or_index):
        if isinstance(name_or_index, int):           # a row's field by position from 0; ROW[i] counts from 1
            return Expression(exp.Bracket(this=self._node, expressions=[exp.Literal.number(name_or_index + 1)]))
        return Expression(exp.Dot(this=_paren(self._node), expression=exp.to_identifier(name_or_index)))

    def at(self, index):
        return Expression(exp.Bracket(this=self._node, expressions=[to_node(index)]))

    cardinality = _sql_property("CARDINALITY({0})", "cardinality")
    element = _sql_property("ELEMENT({0})", "element")

    def array_append(self, addition):
        return sql_call("ARRAY_APPEND({0}, {1})", "arrayAppend", self, addition, result=_nullable)

    def array_contains(self, needle):
        return sql_call("ARRAY_CONTAINS({0}, {1})", "arrayContains", self, needle)

    def array_distinct(self):
        return sql_call("ARRAY_DISTINCT({0})", "arrayDistinct", self)

    def array_position(self, needle):
        return sql_call("ARRAY_POSITION({0}, {1})", "arrayPosition", self, needle, result=_nullable)

    def array_prepend(self, addition):
        return sql_call("ARRAY_PREPEND({0}, {1})", "arrayPrepend", self, addition, result=_nullable)

    def array_remove(self, needle):
        return sql_call("ARRAY_REMOVE({0}, {1})", "arrayRemove", self, needle)

    def array_reverse(self):
        return sql_call("ARRAY_REVERSE({0})", "arrayReverse", self)

    def array_slice(self, start_offset, end_offset=None):
        return function_call("ARRAY_SLICE", "arraySlice", self, start_offset, end_offset)

    def array_sort(self, ascending_order=None, null_first=None):
        given = [each for each in (ascending_order, null_first) if each is not None]
        return sql_call("ARRAY_SORT(%s)" % placeholders(len(given) + 1), "arraySort", self, *given)

    def array_union(self, array):
        return sql_call("ARRAY_UNION({0}, {1})", "arrayUnion", self, array)

    def array_concat(self, *arrays):
        return sql_call("ARRAY_CONCAT(%s)" % placeholders(len(arrays) + 1), "arrayConcat", self, *arrays)

    def array_max(self):
        return sql_call("ARRAY_MAX({0})", "arrayMax", self)

    def array_min(self):
        return sql_call("ARRAY_MIN({0})", "arrayMin", self)

    def array_join(self, delimiter, null_replacement=None):
        return function_call("ARRAY_JOIN", "arrayJoin", self, delimiter, null_replacement)

    def array_except(self, array):
        return sql_call("ARRAY_EXCEPT({0}, {1})", "arrayExcept", self, array)

    def array_intersect(self, array):
        return sql_call("ARRAY_INTERSECT({0}, {1})", "arrayIntersect", self, array)

    map_keys = _sql_property("MAP_KEYS({0})", "mapKeys")
    map_values = _sql_property("MAP_VALUES({0})", "mapValues")
    map_entries = _sql_property("MAP_ENTRIES({0})", "mapEntries")

    def map_union(self, *maps):
        return sql_call("MAP_UNION(%s)" % placeholders(len(maps) + 1), "mapUnion", self, *maps)

    # JSON texts
    def is_json(self, json_type=None):
        if json_type is None:
            return sql_call("{0} IS JSON", "isJson", self)
        return sql_call("{0} IS JSON %s" % json_type.name, "isJson", self)

    def json_quote(self):
        return sql_call("JSON_QUOTE({0})", "jsonQuote", self)

    def json_unquote(self):
        return sql_call("JSON_UNQUOTE({0})", "jsonUnquote", self)

    # group windows
    start = _unary(lambda node: WindowProperty(this=node, kind=exp.Var(this="START")))
    end = _unary(lambda node: WindowProperty(this=node, kind=exp.Var(this="END")))
    rowtime = _unary(lambda node: WindowProperty(this=node, kind=exp.Var(this="ROWTIME")))
    # a processing-time attribute of from_data_stream (col('pt').proctime)
    proctime = _unary(lambda node: WindowProperty(this=node, kind=exp.Var(this="PROCTIME")))

    # time intervals of literals: lit(10).seconds
    milli = millis = _interval("MILLISECOND")
    second = seconds = _interval("SECOND")
    minute = minutes = _interval("MINUTE")
    hour = hours = _interval("HOUR")
    day = days = _interval("DAY")
    week = weeks = _interval("DAY", 7)
    month = months = _interval("MONTH")
    quarter = quarters = _interval("MONTH", 3)
    year = years = _interval("YEAR")


# set after the class body, where the name ``exp`` is the sqlglot module the body uses
Expression.exp = _unary(lambda node: exp.Exp(this=node))


def _data_type_node(data_type) -> exp.DataType:
    from pyflink_compat.table.sql import dialect
    text = data_type.sql() if hasattr(data_type, "sql") else str(data_type)
    return dialect.parse_type(text)


missing.complete(sys.modules[__name__])

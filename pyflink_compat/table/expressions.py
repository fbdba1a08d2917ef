"""pyflink.table.expressions: the Table API's functions making expressions (``col``, ``lit``, ``call``...).
Those listed here are implemented; the others are PyFlink's stand-ins and raise ``UnsupportedFeatureError``."""
import sys

from sqlglot import exp

from pyflink_compat import missing
from pyflink_compat.table.expression import Expression, to_node

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

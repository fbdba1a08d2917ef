"""The operand type checks of Flink's built-in SQL functions and operators, with Flink's messages.

Flink's validator (Calcite's operand type checkers, no implicit casts for these) refuses ``UPPER(an_int)``,
``ABS(a_string)``, ``a_string + 1``, ``SUM(a_boolean)`` or ``a_timestamp > 1`` with "Cannot apply 'UPPER' to
arguments of type 'UPPER(<INTEGER>)'. Supported form(s): 'UPPER(<CHARACTER>)'", naming each argument by its
Calcite type and listing the forms the function takes. :func:`check` is called by the expression compiler for
each node before it compiles the node: it compiles the node's operands (the compiler keeps those results for
the node's own compilation) and raises that error when no form takes their types. A call with a NULL operand is
left to the function (Flink's message differs there), as are functions and operand types not listed here.
"""
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from sqlglot import exp

from pyflink_compat.table.sql.catalog import SqlType
from pyflink_compat.table.sql.dialect import CALLED_AS, MOD_FUNCTION

_INTEGERS = ("TINYINT", "SMALLINT", "INT", "BIGINT")
_FAMILIES: Dict[str, Callable[[SqlType], bool]] = {
    "CHARACTER": lambda t: t.name == "STRING",
    "STRING": lambda t: t.name in ("STRING", "BYTES"),
    "INTEGER": lambda t: t.name in _INTEGERS,
    "EXACT_NUMERIC": lambda t: t.name in _INTEGERS + ("DECIMAL",),
    "NUMERIC": lambda t: t.name in _INTEGERS + ("DECIMAL", "FLOAT", "DOUBLE"),
    "BOOLEAN": lambda t: t.name == "BOOLEAN",
    "DATETIME": lambda t: t.name in ("DATE", "TIME", "TIMESTAMP", "TIMESTAMP_LTZ"),
    "DATETIME_INTERVAL": lambda t: t.name == "INTERVAL",
}


def calcite_type(t: SqlType) -> str:
    """The type as Calcite writes it in these messages: ``INTEGER``, ``VARCHAR(2147483647)`` for a STRING,
    ``CHAR(1)`` for a one-character literal, ``DECIMAL(10, 2)``, ``TIMESTAMP(3)``."""
    if t.name == "STRING":
        if t.length is not None:
            return "%s(%d)" % ("CHAR" if t.fixed_length else "VARCHAR", t.length)
        return "VARCHAR(2147483647)"
    if t.name == "BYTES":
        return "VARBINARY(2147483647)"
    if t.name == "DECIMAL":
        return "DECIMAL(%d, %d)" % (t.precision, t.scale)
    if t.name == "TIMESTAMP_LTZ":
        return "TIMESTAMP_WITH_LOCAL_TIME_ZONE(%d)" % (3 if t.precision is None else t.precision)
    if t.name in ("TIMESTAMP", "TIME") and t.precision is not None:
        return "%s(%d)" % (t.name, t.precision)
    if t.name == "ARRAY" and t.element is not None:
        return "%s ARRAY" % calcite_type(t.element)
    return {"INT": "INTEGER"}.get(t.name, t.name)


class _Signature:
    """A function's or operator's forms: each a tuple of operand families; ``style`` says how its calls are
    written ("call": F(<A>, <B>), "infix": <A> F <B>, "prefix": F<A>); ``forms_text`` is Flink's list of them."""

    def __init__(self, name: str, forms: Sequence[Tuple[str, ...]], forms_text: str, style: str = "call"):
        self.name, self.forms, self.forms_text, self.style = name, tuple(forms), forms_text, style

    def accepts(self, types: List[SqlType]) -> bool:
        return any(len(form) == len(types) and all(_FAMILIES[family](t) for family, t in zip(form, types))
                   for form in self.forms)

    def written(self, types: List[SqlType]) -> str:
        shown = ["<%s>" % calcite_type(t) for t in types]
        if self.style == "infix":
            return "%s %s %s" % (shown[0], self.name, shown[1])
        if self.style == "prefix":
            return "%s%s" % (self.name, shown[0])
        return "%s(%s)" % (self.name, ", ".join(shown))


def _one(name: str, family: str) -> _Signature:
    return _Signature(name, [(family,)], "'%s(<%s>)'" % (name, family))


def _character(name: str, count: int = 1) -> _Signature:
    families = ("CHARACTER",) * count
    return _Signature(name, [families], "'%s(%s)'" % (name, ", ".join("<%s>" % f for f in families)))


def _arithmetic(operator: str, forms: Sequence[Tuple[str, str]]) -> _Signature:
    text = "\n".join("'<%s> %s <%s>'" % (left, operator, right) for left, right in forms)
    return _Signature(operator, forms, text, style="infix")


def _rounding(name: str) -> _Signature:
    units = "\n".join("'%s(<%s> TO <TIME_UNIT>)'" % (name, kind) for kind in ("DATE", "TIME", "TIMESTAMP"))
    return _Signature(name, [("NUMERIC",), ("DATETIME_INTERVAL",)],
                      "'%s(<NUMERIC>)'\n'%s(<DATETIME_INTERVAL>)'\n%s" % (name, name, units))


_SUBSTRING = _Signature("SUBSTRING", [("CHARACTER", "INTEGER"), ("CHARACTER", "INTEGER", "INTEGER")],
                        "'SUBSTRING(<CHARACTER>, <INTEGER>)'\n'SUBSTRING(<CHARACTER>, <INTEGER>, <INTEGER>)'")
_NUMERIC_ARITHMETIC = {
    "+": [("NUMERIC", "NUMERIC"), ("DATETIME_INTERVAL", "DATETIME_INTERVAL"), ("DATETIME", "DATETIME_INTERVAL"),
          ("DATETIME_INTERVAL", "DATETIME")],
    "-": [("NUMERIC", "NUMERIC"), ("DATETIME_INTERVAL", "DATETIME_INTERVAL"), ("DATETIME", "DATETIME_INTERVAL")],
    "*": [("NUMERIC", "NUMERIC"), ("DATETIME_INTERVAL", "NUMERIC"), ("NUMERIC", "DATETIME_INTERVAL")],
    "/": [("NUMERIC", "NUMERIC"), ("DATETIME_INTERVAL", "NUMERIC")],
}
_SIGNATURES = {
    exp.Upper: _character("UPPER"), exp.Lower: _character("LOWER"), exp.Initcap: _character("INITCAP"),
    exp.Reverse: _character("REVERSE"), exp.Length: _character("CHAR_LENGTH"),
    exp.Replace: _character("REPLACE", 3), exp.RegexpReplace: _character("REGEXP_REPLACE", 3),
    exp.Substring: _SUBSTRING,
    exp.Abs: _Signature("ABS", [("NUMERIC",), ("DATETIME_INTERVAL",)], "'ABS(<NUMERIC>)'\n'ABS(<DATETIME_INTERVAL>)'"),
    exp.Sqrt: _one("SQRT", "NUMERIC"), exp.Exp: _one("EXP", "NUMERIC"), exp.Ln: _one("LN", "NUMERIC"),
    exp.Pow: _Signature("POWER", [("NUMERIC", "NUMERIC")], "'POWER(<NUMERIC>, <NUMERIC>)'"),
    exp.Round: _Signature("ROUND", [("NUMERIC", "INTEGER"), ("NUMERIC",)],
                          "'ROUND(<NUMERIC>, <INTEGER>)'\n'ROUND(<NUMERIC>)'"),
    exp.Ceil: _rounding("CEIL"), exp.Floor: _rounding("FLOOR"),
    exp.Add: _arithmetic("+", _NUMERIC_ARITHMETIC["+"]), exp.Sub: _arithmetic("-", _NUMERIC_ARITHMETIC["-"]),
    exp.Mul: _arithmetic("*", _NUMERIC_ARITHMETIC["*"]), exp.Div: _arithmetic("/", _NUMERIC_ARITHMETIC["/"]),
    exp.Neg: _Signature("-", [("NUMERIC",), ("DATETIME_INTERVAL",)], "'-<NUMERIC>'\n'-<DATETIME_INTERVAL>'",
                        style="prefix"),
    exp.Not: _Signature("NOT", [("BOOLEAN",)], "'NOT<BOOLEAN>'", style="prefix"),
    exp.And: _Signature("AND", [("BOOLEAN", "BOOLEAN")], "'<BOOLEAN> AND <BOOLEAN>'", style="infix"),
    exp.Or: _Signature("OR", [("BOOLEAN", "BOOLEAN")], "'<BOOLEAN> OR <BOOLEAN>'", style="infix"),
    exp.Like: _Signature("LIKE", [("STRING", "STRING")], "'LIKE(<STRING>, <STRING>, <STRING>)'"),
    exp.Sum: _one("SUM", "NUMERIC"), exp.Avg: _one("AVG", "NUMERIC"),
}
_NOT_LIKE = _Signature("NOT LIKE", [("STRING", "STRING")], "'NOT LIKE(<STRING>, <STRING>, <STRING>)'")
_MOD = _Signature("MOD", [("EXACT_NUMERIC", "EXACT_NUMERIC")], "'MOD(<EXACT_NUMERIC>, <EXACT_NUMERIC>)'")
_PERCENT = _Signature("%", [("EXACT_NUMERIC", "EXACT_NUMERIC")], "'<EXACT_NUMERIC> % <EXACT_NUMERIC>'",
                      style="infix")
_CONCAT_FORM = "'CONCAT(<CHARACTER>)'"


class _Concatenation(_Signature):
    """``a || b``: of two strings (or binary strings), or of two operands of one type."""

    def accepts(self, types: List[SqlType]) -> bool:
        return super().accepts(types) or types[0].name == types[1].name


_CONCATENATION = _Concatenation("||", [("STRING", "STRING")],
                                "'<STRING> || <STRING>'\n'<EQUIVALENT_TYPE> || <EQUIVALENT_TYPE>'", style="infix")
_PAD_FORMS = (("CHARACTER", "INTEGER", "CHARACTER"),)
_COMPARISONS = {exp.GT: ">", exp.GTE: ">=", exp.LT: "<", exp.LTE: "<=", exp.EQ: "=", exp.NEQ: "<>"}
# operand families Flink's comparisons never compare (a string compares with anything: it is cast)
_INCOMPARABLE = ({"NUMERIC", "DATETIME"}, {"NUMERIC", "BOOLEAN"}, {"DATETIME", "BOOLEAN"})

def _operands(node) -> Optional[Tuple[_Signature, List]]:
    """The signature checked for ``node`` and its operand nodes, or None (nothing checked)."""
    kind = type(node)
    if kind is exp.Like and node.args.get("negate"):
        return _NOT_LIKE, [node.this, node.expression]
    if kind is exp.Length and node.meta.get(CALLED_AS) == "CHARACTER_LENGTH":
        return _character("CHARACTER_LENGTH"), [node.this]
    if kind is exp.Log:
        base_ten = isinstance(node.this, exp.Literal) and node.this.this == "10"
        if str(node.meta.get(CALLED_AS, "")).upper() == "LOG10" or (node.meta.get(TABLE_API) and base_ten):
            return _one("LOG10", "NUMERIC"), [node.expression]
        return None
    if kind is exp.DPipe:
        return _CONCATENATION, [node.this, node.expression]
    if kind is exp.Mod:
        return (_MOD if node.meta.get(MOD_FUNCTION) else _PERCENT), [node.this, node.expression]
    if kind is exp.Concat:
        operands = list(node.expressions)
        return _Signature("CONCAT", [("CHARACTER",) * len(operands)], _CONCAT_FORM), operands
    if kind is exp.Pad:
        name = "LPAD" if node.args.get("is_left") else "RPAD"
        return _Signature(name, _PAD_FORMS, "'%s(<CHARACTER>, <INTEGER>, <CHARACTER>)'" % name), \
            [node.this, node.expression, node.args.get("fill_pattern")]
    if kind in _COMPARISONS:
        return None                     # see _check_comparison
    signature = _SIGNATURES.get(kind)
    if signature is None:
        return None
    if kind in (exp.Ceil, exp.Floor) and node.args.get("to") is not None:
        return None                     # FLOOR(t TO unit)
    if kind is exp.Substring:
        return signature, [node.this, node.args.get("start"), node.args.get("length")]
    if kind is exp.Round:
        return signature, [node.this, node.args.get("decimals")]
    if kind in (exp.Replace, exp.RegexpReplace):
        return signature, [node.this, node.expression, node.args.get("replacement")]
    if kind in (exp.Add, exp.Sub, exp.Mul, exp.Div, exp.And, exp.Or, exp.Like, exp.Pow):
        return signature, [node.this, node.expression]
    return signature, [node.this]


#: Set in the meta of the nodes the Table API builds: their errors are those of Flink's Table API type inference,
#: ``Invalid function call:`` and the call with Flink's names of the function and of the argument types.
TABLE_API = "table_api"
_TABLE_API_NAMES = {exp.Upper: "upper", exp.Lower: "lower", exp.Length: "charLength", exp.Initcap: "initCap",
                    exp.Reverse: "reverse", exp.Abs: "abs", exp.Sqrt: "sqrt", exp.Exp: "exp", exp.Ln: "ln",
                    exp.Log: "log10", exp.Sum: "sum", exp.Avg: "avg", exp.Substring: "substring",
                    exp.Replace: "replace", exp.RegexpReplace: "regexpReplace", exp.Round: "round",
                    exp.Sub: "minus", exp.Mul: "times", exp.Div: "divide", exp.Mod: "mod", exp.Add: "plus",
                    exp.And: "and", exp.Or: "or", exp.Like: "LIKE", exp.GT: "greaterThan", exp.GTE: "greaterThanOrEqual",
                    exp.LT: "lessThan", exp.LTE: "lessThanOrEqual"}


def _table_api_call(node) -> Optional[str]:
    """The name Flink's Table API gives ``node``'s function in its errors (None: not a Table API call checked)."""
    if not node.meta.get(TABLE_API):
        return None
    if node.meta.get(CALLED_AS):
        return node.meta[CALLED_AS]               # call("UPPER", ...): the name as the job wrote it
    if isinstance(node, exp.Pad):
        return "lpad" if node.args.get("is_left") else "rpad"
    if isinstance(node, exp.Log) and not (isinstance(node.this, exp.Literal) and node.this.this == "10"):
        return None
    return _TABLE_API_NAMES.get(type(node))


def _cannot_apply(signature: _Signature, types: List[SqlType]):
    from pyflink_compat.table.sql.expressions import validation_error
    return validation_error("SQL validation failed. Cannot apply '%s' to arguments of type '%s'. Supported "
                            "form(s): %s" % (signature.name, signature.written(types), signature.forms_text))


def _invalid_table_api_call(name: str, types: Sequence[SqlType]):
    from pyflink_compat.table.sql.expressions import validation_error
    return validation_error("Invalid function call:\n%s(%s)" % (name, ", ".join(t.text() for t in types)))


def check(compile_operand: Callable, node) -> None:
    """Raise Flink's validation error when ``node``'s operands (compiled by ``compile_operand``) have types no
    form of its function takes."""
    if type(node) in _COMPARISONS:
        _check_comparison(compile_operand, node)
        return
    table_api = _table_api_call(node)
    found = _operands(node) if table_api is not None or not node.meta.get(TABLE_API) else None
    if found is None:
        return
    signature, operands = found
    operands = [operand for operand in operands if operand is not None]
    if not any(len(form) == len(operands) for form in signature.forms):
        return                          # a count no form takes: the function's own error says so
    types = [compile_operand(operand)[1] for operand in operands]
    if any(t.name == "NULL" for t in types) or signature.accepts(types):
        return
    if table_api is not None:
        if table_api == "plus" and any(t.name == "STRING" for t in types):
            return                      # the Table API's plus of a string concatenates
        raise _invalid_table_api_call(table_api, types)
    raise _cannot_apply(signature, types)


def _family(t: SqlType) -> Optional[str]:
    for family in ("NUMERIC", "DATETIME", "BOOLEAN"):
        if _FAMILIES[family](t):
            return family
    return None


def _check_comparison(compile_operand: Callable, node) -> None:
    from pyflink_compat.table.sql.expressions import validation_error
    types = [compile_operand(node.this)[1], compile_operand(node.expression)[1]]
    table_api = _table_api_call(node)
    if table_api is not None:
        # the Table API compares a string with strings only
        families = {"CHARACTER" if t.name == "STRING" else _family(t) for t in types}
        if len(families) == 2 and None not in families:
            raise _invalid_table_api_call(table_api, types)
        return
    if {_family(t) for t in types} in _INCOMPARABLE:
        operator = _COMPARISONS[type(node)]
        raise validation_error("SQL validation failed. Cannot apply '%s' to arguments of type '<%s> %s <%s>'. "
                               "Supported form(s): '<COMPARABLE_TYPE> %s <COMPARABLE_TYPE>'"
                               % (operator, calcite_type(types[0]), operator, calcite_type(types[1]), operator))


def check_case_conditions(types: Sequence[SqlType]) -> None:
    """A searched CASE's WHEN conditions must be BOOLEAN (or NULL)."""
    from pyflink_compat.table.sql.expressions import validation_error
    if any(t.name not in ("BOOLEAN", "NULL") for t in types):
        raise validation_error("SQL validation failed. Expected a boolean type")


def check_aggregate(node, name: str, argument_type: SqlType) -> None:
    """SUM and AVG take numbers only (an aggregate compiled apart from the expression compiler)."""
    signature = _SIGNATURES[exp.Sum] if name == "SUM" else _SIGNATURES[exp.Avg] if name == "AVG" else None
    if signature is None or argument_type.name == "NULL" or signature.accepts([argument_type]):
        return
    table_api = _table_api_call(node)
    if table_api is not None:
        raise _invalid_table_api_call(table_api, [argument_type])
    raise _cannot_apply(signature, [argument_type])

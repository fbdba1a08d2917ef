"""The operand type checks of Flink's built-in SQL functions and operators, with Flink's messages.

Flink's validator (Calcite's operand type checkers, no implicit casts for these) refuses ``UPPER(an_int)``,
``ABS(a_string)``, ``a_string + 1``, ``SUM(a_boolean)`` or ``a_timestamp > 1`` with "Cannot apply 'UPPER' to
arguments of type 'UPPER(<INTEGER>)'. Supported form(s): 'UPPER(<CHARACTER>)'", naming each argument by its
Calcite type and listing the forms the function takes. :func:`check` is called by the expression compiler for
each node before it compiles the node: it compiles the node's operands (the compiler keeps those results for
the node's own compilation) and raises that error when no form takes their types. A NULL literal where these
functions take a typed operand is "Illegal use of 'NULL'" (LIKE names it <NULL>; comparisons, BETWEEN and IN
take it). Comparisons, BETWEEN and IN need comparable operands (a string compares with a number, a boolean or a
date, not with a binary string or an array; a DATE not with a TIMESTAMP), CAST refuses the conversions of
``_REFUSED_CASTS``, and SPLIT is typed by Flink's own inference ("Invalid function call:", as the compiler's
GREATEST, LEAST and COALESCE are). Functions and operand types not listed here are left to the function.
"""
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from sqlglot import exp

from pyflink_compat.table.sql.catalog import SqlType
from pyflink_compat.table.sql.dialect import CALLED_AS, MOD_FUNCTION

_INTEGERS = ("TINYINT", "SMALLINT", "INT", "BIGINT")
_NUMBERS = _INTEGERS + ("DECIMAL", "FLOAT", "DOUBLE")
# a type's kind: the types Flink compares, casts and finds a common type of alike
_KINDS = {**{name: "NUMERIC" for name in _NUMBERS}, "STRING": "CHARACTER", "BYTES": "BINARY",
          "TIMESTAMP_LTZ": "TIMESTAMP"}


def _kind(t: SqlType) -> str:
    return _KINDS.get(t.name, t.name)


_FAMILIES: Dict[str, Callable[[SqlType], bool]] = {
    "ANY": lambda t: True,
    "CHARACTER": lambda t: t.name == "STRING",
    "STRING": lambda t: t.name in ("STRING", "BYTES"),
    "INTEGER": lambda t: t.name in _INTEGERS,
    "EXACT_NUMERIC": lambda t: t.name in _INTEGERS + ("DECIMAL",),
    "NUMERIC": lambda t: t.name in _NUMBERS,
    "DATETIME": lambda t: t.name in ("DATE", "TIME", "TIMESTAMP", "TIMESTAMP_LTZ"),
    "DATETIME_INTERVAL": lambda t: t.name == "INTERVAL",
    **{family: (lambda wanted: lambda t: _kind(t) == wanted)(family)
       for family in ("BOOLEAN", "BINARY", "DATE", "TIME", "TIMESTAMP", "ARRAY", "MAP", "MULTISET")},
}


def calcite_type(t: SqlType) -> str:
    """The type as Calcite writes it in these messages: ``INTEGER``, ``VARCHAR(2147483647)`` for a STRING,
    ``CHAR(1)`` for a one-character literal, ``DECIMAL(10, 2)``, ``TIMESTAMP(3)``, ``INTEGER ARRAY``."""
    if t.name == "STRING":
        if t.length is not None:
            return "%s(%d)" % ("CHAR" if t.fixed_length else "VARCHAR", t.length)
        return "VARCHAR(2147483647)"
    if t.name == "BYTES":
        if t.length is not None:
            return "%s(%d)" % ("BINARY" if t.fixed_length else "VARBINARY", t.length)
        return "VARBINARY(2147483647)"
    if t.name == "DECIMAL":
        return "DECIMAL(%d, %d)" % (t.precision, t.scale)
    if t.name == "TIMESTAMP_LTZ":
        return "TIMESTAMP_WITH_LOCAL_TIME_ZONE(%d)" % (3 if t.precision is None else t.precision)
    if t.name in ("TIMESTAMP", "TIME") and t.precision is not None:
        return "%s(%d)" % (t.name, t.precision)
    if t.name == "ARRAY" and t.element is not None:
        return "%s ARRAY" % calcite_type(t.element)
    if t.name == "MAP" and t.key is not None:
        return "(%s, %s) MAP" % (calcite_type(t.key), calcite_type(t.element))
    return {"INT": "INTEGER"}.get(t.name, t.name)


def _shown(t) -> str:
    """An operand as the messages show it: ``<INTEGER>``; a time unit comes as its text (``<INTERVAL HOUR>``)."""
    return t if isinstance(t, str) else "<%s>" % calcite_type(t)


def _is_null(t) -> bool:
    return isinstance(t, SqlType) and t.name == "NULL"


# how a call is written in the messages, from its name and its operands as shown
_WRITTEN = {
    "call": lambda name, shown: "%s(%s)" % (name, ", ".join(shown)),
    "infix": lambda name, shown: "%s %s %s" % (shown[0], name, shown[1]),
    "prefix": lambda name, shown: name + shown[0],
    "postfix": lambda name, shown: "%s %s" % (shown[0], name),
    "between": lambda name, shown: "%s %s %s AND %s" % (shown[0], name, shown[1], shown[2]),
    "in": lambda name, shown: "%s(%s)" % (name, " IN ".join(shown[:2]) + "".join(" FROM " + s for s in shown[2:])),
    "from": lambda name, shown: "%s(%s FROM %s)" % (name, shown[0], shown[1]),
    "trim": lambda name, shown: "%s([BOTH|LEADING|TRAILING] <SYMBOL> FROM %s)" % (name, shown[0]),
}


def _by_forms(signature: "_Signature", types: List[SqlType]) -> bool:
    return any(len(form) == len(types) and all(_FAMILIES[family](t) for family, t in zip(form, types))
               for form in signature.forms)


class _Signature:
    """A function's or operator's forms: each a tuple of operand families; ``style`` says how its calls are
    written (a key of _WRITTEN); ``forms_text`` is Flink's list of the forms (by default each form written in
    the style); ``rule`` (signature, types) -> bool replaces the check of the forms; ``nulls``: what a NULL
    operand is ("illegal": Flink's "Illegal use of 'NULL'", "refused": shown as the first operand's type and
    refused, as LIKE does, None: an operand as any other)."""

    def __init__(self, name: str, forms: Sequence[Tuple[str, ...]], forms_text: Optional[str] = None,
                 style: str = "call", rule: Callable = _by_forms, nulls: Optional[str] = "illegal"):
        self.name, self.forms, self.style, self.rule, self.nulls = name, tuple(forms), style, rule, nulls
        self.forms_text = forms_text if forms_text is not None else "\n".join(
            "'%s'" % _WRITTEN[style](name, ["<%s>" % family for family in form]) for form in self.forms)

    def accepts(self, types: List[SqlType]) -> bool:
        return self.rule(self, types)

    def written(self, types: List[SqlType]) -> str:
        return _WRITTEN[self.style](self.name, [_shown(t) for t in types])

    def check(self, types: List[SqlType]) -> None:
        """Raise Flink's validation error when no form takes ``types``."""
        nulls = [_is_null(t) for t in types]
        if any(nulls) and self.nulls == "illegal":
            raise _validation_error("SQL validation failed. Illegal use of 'NULL'")
        if any(nulls) and self.nulls == "refused":
            raise _cannot_apply(self, [types[0] if null else t for null, t in zip(nulls, types)])
        if not self.accepts(types):
            raise _cannot_apply(self, types)


def _call(name: str, *forms: Tuple[str, ...], **options) -> _Signature:
    return _Signature(name, forms, **options)


def _one(name: str, family: str) -> _Signature:
    return _call(name, (family,))


def _character(name: str, count: int = 1) -> _Signature:
    return _call(name, ("CHARACTER",) * count)


def _arithmetic(operator: str, forms: Sequence[Tuple[str, str]]) -> _Signature:
    return _Signature(operator, forms, style="infix")


def _rounding(name: str) -> _Signature:
    units = "\n".join("'%s(<%s> TO <TIME_UNIT>)'" % (name, kind) for kind in ("DATE", "TIME", "TIMESTAMP"))
    return _Signature(name, [("NUMERIC",), ("DATETIME_INTERVAL",)],
                      "'%s(<NUMERIC>)'\n'%s(<DATETIME_INTERVAL>)'\n%s" % (name, name, units))


def _comparable(a: SqlType, b: SqlType) -> bool:
    """Whether Flink compares values of the two types (NULL compares with anything)."""
    kinds = {_kind(a), _kind(b)}
    if len(kinds) == 1 or "NULL" in kinds or not kinds <= _COMPARED:
        return True
    return "CHARACTER" in kinds and kinds <= _WITH_STRINGS


# the kinds a string compares with (it is cast to them), and the kinds whose comparability is known
_WITH_STRINGS = {"CHARACTER", "NUMERIC", "BOOLEAN", "DATE", "TIME", "TIMESTAMP", "INTERVAL"}
_COMPARED = _WITH_STRINGS | {"BINARY", "ARRAY"}


def _consecutive_comparable(signature: _Signature, types: List[SqlType]) -> bool:
    return all(_comparable(a, b) for a, b in zip(types, types[1:]))


def _position_rule(signature: _Signature, types: List[SqlType]) -> bool:
    if not _consecutive_comparable(signature, types):
        raise _validation_error("SQL validation failed. Parameters must be of the same type")
    return _by_forms(signature, types)


def _item_rule(signature: _Signature, types: List[SqlType]) -> bool:
    """``array[integer]``, ``map[a key's kind]``; a ROW's field access is left to the compiler."""
    container, index = types
    if container.name == "ARRAY":
        return _FAMILIES["INTEGER"](index)
    if container.name == "MAP":
        return _kind(index) == _kind(container.key)
    return container.name == "ROW"


_SUBSTRING = _call("SUBSTRING", ("CHARACTER", "INTEGER"), ("CHARACTER", "INTEGER", "INTEGER"))
_NUMERIC_ARITHMETIC = {
    "+": [("NUMERIC", "NUMERIC"), ("DATETIME_INTERVAL", "DATETIME_INTERVAL"), ("DATETIME", "DATETIME_INTERVAL"),
          ("DATETIME_INTERVAL", "DATETIME")],
    "-": [("NUMERIC", "NUMERIC"), ("DATETIME_INTERVAL", "DATETIME_INTERVAL"), ("DATETIME", "DATETIME_INTERVAL")],
    "*": [("NUMERIC", "NUMERIC"), ("DATETIME_INTERVAL", "NUMERIC"), ("NUMERIC", "DATETIME_INTERVAL")],
    "/": [("NUMERIC", "NUMERIC"), ("DATETIME_INTERVAL", "NUMERIC")],
}
_IF = _call("IF", *[("BOOLEAN", family, family) for family in
                    ("NUMERIC", "CHARACTER", "BOOLEAN", "BINARY", "DATE", "TIMESTAMP", "TIME")],
            forms_text="\n".join("'IF(<%s>, <%s>, <%s>)'" % (condition, family, family) for condition, family in (
                ("ANY_TYPE", "NUMERIC_TYPE"), ("BOOLEAN", "CHARACTER"), ("BOOLEAN", "BOOLEAN"),
                ("BOOLEAN", "CHARACTER"), ("BOOLEAN", "BINARY"), ("BOOLEAN", "DATE"), ("BOOLEAN", "TIMESTAMP"),
                ("BOOLEAN", "TIME"))))
_EXTRACT = _call("EXTRACT", ("ANY", "DATETIME_INTERVAL"), ("ANY", "DATETIME"), style="from",
                 forms_text="'EXTRACT(<DATETIME_INTERVAL> FROM <DATETIME_INTERVAL>)'\n"
                            "'EXTRACT(<DATETIME_INTERVAL> FROM <DATETIME>)'")
_SIGNATURES = {
    exp.Upper: _character("UPPER"), exp.Lower: _character("LOWER"), exp.Initcap: _character("INITCAP"),
    exp.Reverse: _character("REVERSE"), exp.Length: _character("CHAR_LENGTH"), exp.Ascii: _character("ASCII"),
    exp.Replace: _character("REPLACE", 3), exp.RegexpReplace: _character("REGEXP_REPLACE", 3),
    exp.Substring: _SUBSTRING, exp.Repeat: _call("REPEAT", ("CHARACTER", "INTEGER")),
    exp.Left: _call("LEFT", ("CHARACTER", "INTEGER")), exp.Right: _call("RIGHT", ("CHARACTER", "INTEGER")),
    exp.RegexpExtract: _call("REGEXP_EXTRACT", ("CHARACTER", "CHARACTER", "INTEGER"), ("CHARACTER", "CHARACTER")),
    exp.Chr: _one("CHR", "INTEGER"), exp.Hex: _call("HEX", ("INTEGER",), ("CHARACTER",)),
    exp.MD5: _one("MD5", "STRING"), exp.SHA: _one("SHA1", "STRING"), exp.SHA2: _call("SHA2", ("STRING", "INTEGER")),
    exp.ToBase64: _one("TO_BASE64", "STRING"), exp.FromBase64: _one("FROM_BASE64", "STRING"),
    exp.Abs: _call("ABS", ("NUMERIC",), ("DATETIME_INTERVAL",)),
    exp.Sqrt: _one("SQRT", "NUMERIC"), exp.Exp: _one("EXP", "NUMERIC"), exp.Ln: _one("LN", "NUMERIC"),
    **{kind: _one(kind.__name__.upper(), "NUMERIC") for kind in (
        exp.Sin, exp.Cos, exp.Tan, exp.Cot, exp.Asin, exp.Acos, exp.Atan, exp.Sinh, exp.Cosh, exp.Tanh, exp.Degrees,
        exp.Radians, exp.Sign)},
    exp.Atan2: _call("ATAN2", ("NUMERIC", "NUMERIC")), exp.Pow: _call("POWER", ("NUMERIC", "NUMERIC")),
    exp.Round: _call("ROUND", ("NUMERIC", "INTEGER"), ("NUMERIC",)),
    exp.Trunc: _call("TRUNCATE", ("NUMERIC", "INTEGER"), ("NUMERIC",)),
    exp.Ceil: _rounding("CEIL"), exp.Floor: _rounding("FLOOR"),
    exp.Add: _arithmetic("+", _NUMERIC_ARITHMETIC["+"]), exp.Sub: _arithmetic("-", _NUMERIC_ARITHMETIC["-"]),
    exp.Mul: _arithmetic("*", _NUMERIC_ARITHMETIC["*"]), exp.Div: _arithmetic("/", _NUMERIC_ARITHMETIC["/"]),
    exp.Neg: _Signature("-", [("NUMERIC",), ("DATETIME_INTERVAL",)], style="prefix"),
    exp.Not: _Signature("NOT", [("BOOLEAN",)], style="prefix"),
    exp.And: _Signature("AND", [("BOOLEAN", "BOOLEAN")], style="infix"),
    exp.Or: _Signature("OR", [("BOOLEAN", "BOOLEAN")], style="infix"),
    exp.Like: _Signature("LIKE", [("STRING", "STRING")], "'LIKE(<STRING>, <STRING>, <STRING>)'", nulls="refused"),
    exp.Sum: _one("SUM", "NUMERIC"), exp.Avg: _one("AVG", "NUMERIC"), exp.If: _IF, exp.Extract: _EXTRACT,
    exp.Bracket: _Signature("ITEM", [("ANY", "ANY")], "<ARRAY>[<INTEGER>]\n<MAP>[<ANY>]\n"
                            "<ROW>[<CHARACTER>|<INTEGER>]\n<VARIANT>[<CHARACTER>|<INTEGER>]", rule=_item_rule),
}
# the arguments of a node that are its operands, in the order Flink's messages name them (default: "this")
_ARGUMENTS = {
    exp.Substring: ("this", "start", "length"), exp.Round: ("this", "decimals"), exp.Trunc: ("this", "decimals"),
    exp.Replace: ("this", "expression", "replacement"), exp.RegexpReplace: ("this", "expression", "replacement"),
    exp.RegexpExtract: ("this", "expression", "position", "group"), exp.Repeat: ("this", "times"),
    exp.SHA2: ("this", "length"), exp.If: ("this", "true", "false"), exp.Extract: ("expression",),
    **{kind: ("this", "expression") for kind in (exp.Add, exp.Sub, exp.Mul, exp.Div, exp.And, exp.Or, exp.Like,
                                                  exp.Pow, exp.Atan2, exp.Left, exp.Right)},
}
# functions sqlglot keeps as calls of their name (exp.Anonymous)
_NAMED = {
    "BIN": _one("BIN", "INTEGER"), "REGEXP": _character("REGEXP", 2),
    "SPLIT_INDEX": _call("SPLIT_INDEX", ("CHARACTER", "INTEGER", "INTEGER"), ("CHARACTER", "CHARACTER", "INTEGER")),
    "DATE_FORMAT": _call("DATE_FORMAT", ("TIMESTAMP", "CHARACTER"), ("CHARACTER", "CHARACTER")),
    "TIMESTAMPADD": _call("TIMESTAMPADD", ("ANY", "INTEGER", "DATETIME")),
    "TIMESTAMPDIFF": _call("TIMESTAMPDIFF", ("ANY", "DATETIME", "DATETIME")),
    "CARDINALITY": _call("CARDINALITY", ("MULTISET",), ("ARRAY",), ("MAP",)),
    "ELEMENT": _call("ELEMENT", ("MULTISET",), ("ARRAY",)),
    "RAND_INTEGER": _call("RAND_INTEGER", ("NUMERIC",), ("NUMERIC", "NUMERIC")),
    **{name: _one(name, "STRING") for name in ("SHA224", "SHA256", "SHA384", "SHA512")},
}
_TIME_UNIT_FUNCTIONS = {exp.Year: "YEAR", exp.Quarter: "QUARTER", exp.Month: "MONTH", exp.Week: "WEEK",
                        exp.DayOfYear: "DOY", exp.DayOfMonth: "DAY", exp.DayOfWeek: "DOW", exp.Hour: "HOUR",
                        exp.Minute: "MINUTE", exp.Second: "SECOND"}
_NOT_LIKE = _Signature("NOT LIKE", [("STRING", "STRING")], "'NOT LIKE(<STRING>, <STRING>, <STRING>)'", nulls="refused")
_MOD = _call("MOD", ("EXACT_NUMERIC", "EXACT_NUMERIC"))
_PERCENT = _Signature("%", [("EXACT_NUMERIC", "EXACT_NUMERIC")], style="infix")
_POSITION = _call("POSITION", ("STRING", "STRING"), ("STRING", "STRING", "INTEGER"), style="in", rule=_position_rule,
                  forms_text="'POSITION(<STRING> IN <STRING>)'\n'POSITION(<STRING> IN <STRING> FROM <INTEGER>)'\n"
                             "INSTR(<STRING>, <STRING>, <INTEGER>, <INTEGER>)")
_LOCATE = _call("LOCATE", ("CHARACTER", "CHARACTER"), ("CHARACTER", "CHARACTER", "INTEGER"))
_TRIM = _call("TRIM", ("STRING", "STRING"), style="trim",
              forms_text="'TRIM([BOTH|LEADING|TRAILING] <ANY> FROM <STRING>)'")
_TRIMMED_SPACE = SqlType("STRING", nullable=False, length=1, fixed_length=True)     # TRIM's default ' '


def _concatenation_rule(signature: _Signature, types: List[SqlType]) -> bool:
    """``a || b``: of two strings (or binary strings), or of two operands of one type."""
    return _by_forms(signature, types) or types[0].name == types[1].name


_CONCATENATION = _Signature("||", [("STRING", "STRING")],
                            "'<STRING> || <STRING>'\n'<EQUIVALENT_TYPE> || <EQUIVALENT_TYPE>'", style="infix",
                            rule=_concatenation_rule)
_PAD_FORMS = (("CHARACTER", "INTEGER", "CHARACTER"),)
_COMPARISONS = {exp.GT: ">", exp.GTE: ">=", exp.LT: "<", exp.LTE: "<=", exp.EQ: "=", exp.NEQ: "<>"}


def _name_length(node) -> Optional[int]:
    """The length of the name a function was called by (sqlglot keeps its token's positions; none for the
    calls of a syntax of their own, as TRIM(... FROM s) or POSITION(a IN b))."""
    if "start" in node.meta and "end" in node.meta:
        return node.meta["end"] - node.meta["start"] + 1
    return None


def _offset(node) -> int:
    return next((each.meta["start"] for each in node.walk() if "start" in each.meta), -1)


def _is_signature(node, negated: bool) -> _Signature:
    name = "IS %s%s" % ("NOT " if negated else "", "TRUE" if node.expression.this else "FALSE")
    return _Signature(name, [("BOOLEAN",)], style="postfix")


def _between_signature(node, negated: bool) -> _Signature:
    written = "NOT BETWEEN" if negated else "BETWEEN"
    return _Signature("%s %s" % (written, "SYMMETRIC" if node.args.get("symmetric") else "ASYMMETRIC"),
                      [("ANY", "ANY", "ANY")], "'<COMPARABLE_TYPE> %s <COMPARABLE_TYPE> AND <COMPARABLE_TYPE>'"
                      % written, style="between", rule=_consecutive_comparable, nulls=None)


def _operands(node) -> Optional[Tuple[_Signature, List]]:
    """The signature checked for ``node`` and its operands (nodes, or types and time units already known), or
    None (nothing checked)."""
    kind = type(node)
    if kind is exp.Like and node.args.get("negate"):
        return _NOT_LIKE, [node.this, node.expression]
    if kind is exp.Length and node.meta.get(CALLED_AS) == "CHARACTER_LENGTH":
        return _character("CHARACTER_LENGTH"), [node.this]
    if kind is exp.Log:
        called = str(node.meta.get(CALLED_AS, "")).upper()
        base_ten = isinstance(node.this, exp.Literal) and node.this.this == "10"
        if called == "LOG10" or (node.meta.get(TABLE_API) and base_ten):
            return _one("LOG10", "NUMERIC"), [node.expression]
        if called == "LOG2":
            return _one("LOG2", "NUMERIC"), [node.expression]
        if called == "LOG":
            return _call("LOG", ("NUMERIC",), ("NUMERIC", "NUMERIC")), [node.this, node.expression]
        return None
    if kind is exp.DPipe:
        return _CONCATENATION, [node.this, node.expression]
    if kind is exp.Mod:
        return (_MOD if node.meta.get(MOD_FUNCTION) else _PERCENT), [node.this, node.expression]
    if kind in (exp.Concat, exp.ConcatWs):
        operands = list(node.expressions)
        name = "CONCAT" if kind is exp.Concat else "CONCAT_WS"
        return _Signature(name, [("CHARACTER",) * len(operands)], "'%s(<CHARACTER>)'" % name), operands
    if kind is exp.Chr:
        return _SIGNATURES[kind], list(node.expressions)
    if kind is exp.Pad:
        name = "LPAD" if node.args.get("is_left") else "RPAD"
        return _Signature(name, _PAD_FORMS), [node.this, node.expression, node.args.get("fill_pattern")]
    if kind is exp.Trim:
        if _name_length(node) is not None:          # LTRIM(s [, characters]) / RTRIM
            name = "LTRIM" if str(node.args.get("position")).upper() == "LEADING" else "RTRIM"
            return _call(name, ("CHARACTER",), ("CHARACTER", "CHARACTER")), [node.this, node.expression]
        return _TRIM, [node.expression if node.expression is not None else _TRIMMED_SPACE, node.this]
    if kind is exp.StrPosition and node.args.get("occurrence") is None:
        substring, text = node.args.get("substr"), node.this
        if _name_length(node) is None:
            return _POSITION, [substring, text, node.args.get("position")]
        if _name_length(node) == len("LOCATE") and _offset(substring) < _offset(text):     # not STRPOS(text, part)
            return _LOCATE, [substring, text, node.args.get("position")]
        return None
    if kind in _TIME_UNIT_FUNCTIONS:
        return _EXTRACT, ["<INTERVAL %s>" % _TIME_UNIT_FUNCTIONS[kind], node.this]
    if kind is exp.Anonymous:
        signature = _NAMED.get(node.name.upper())
        operands = list(node.expressions)
        if signature is not None and signature.name.startswith("TIMESTAMP") and operands:
            operands[0] = "<INTERVAL %s>" % operands[0].name.upper()          # the time unit
        return (signature, operands) if signature is not None else None
    if kind is exp.Not and isinstance(node.this, exp.Is) and isinstance(node.this.expression, exp.Boolean):
        return _is_signature(node.this, True), [node.this.this]
    if kind is exp.Not and isinstance(node.this, exp.Between):
        return _between_signature(node.this, True), [node.this.this, node.this.args["low"], node.this.args["high"]]
    if kind is exp.Is:
        return (_is_signature(node, False), [node.this]) if isinstance(node.expression, exp.Boolean) else None
    if kind is exp.Between:
        return _between_signature(node, False), [node.this, node.args["low"], node.args["high"]]
    if kind is exp.Bracket and (len(node.expressions) != 1 or (
            isinstance(node.this, exp.Column) and node.this.name.upper() == "MAP")):
        return None                     # MAP[k, v, ...] makes a map
    if kind in (exp.Ceil, exp.Floor) and node.args.get("to") is not None:
        return None                     # FLOOR(t TO unit)
    signature = _SIGNATURES.get(kind)
    if signature is None:
        return None
    if kind is exp.Extract:
        return signature, ["<INTERVAL %s>" % node.this.name.upper(), node.expression]
    if kind is exp.Bracket:
        return signature, [node.this, node.expressions[0]]
    return signature, [node.args.get(name) for name in _ARGUMENTS.get(kind, ("this",))]


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


def _built_by_table_api(node) -> bool:
    """A node of a Table API expression (the Table API's NOT of IS TRUE, BETWEEN, IN is one node with those)."""
    return bool(node.meta.get(TABLE_API)) or (isinstance(node.parent, exp.Not) and
                                               bool(node.parent.meta.get(TABLE_API)))


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


def _validation_error(message: str):
    from pyflink_compat.table.sql.expressions import validation_error
    return validation_error(message)


def _cannot_apply(signature: _Signature, types: List[SqlType]):
    return _validation_error("SQL validation failed. Cannot apply '%s' to arguments of type '%s'. Supported "
                             "form(s): %s" % (signature.name, signature.written(types), signature.forms_text))


def _invalid_table_api_call(name: str, types: Sequence[SqlType]):
    return _validation_error("Invalid function call:\n%s(%s)" % (name, ", ".join(t.text() for t in types)))


def check(compile_operand: Callable, node) -> None:
    """Raise Flink's validation error when ``node``'s operands (compiled by ``compile_operand``) have types no
    form of its function takes."""
    table_api = _table_api_call(node)
    if table_api is None and _built_by_table_api(node):
        return
    special = _SPECIAL_CHECKS.get(type(node))
    if special is not None:
        special(compile_operand, node, table_api)
        return
    found = _operands(node)
    if found is None:
        return
    signature, operands = found
    operands = [operand for operand in operands if operand is not None]
    if not any(len(form) == len(operands) for form in signature.forms):
        return                          # a count no form takes: the function's own error says so
    types = [compile_operand(operand)[1] if isinstance(operand, exp.Expr) else operand for operand in operands]
    if table_api is None:
        signature.check(types)
        return
    if any(_is_null(t) for t in types) or signature.accepts(types):
        return
    if table_api == "plus" and any(t.name == "STRING" for t in types):
        return                          # the Table API's plus of a string concatenates
    raise _invalid_table_api_call(table_api, types)


def _family(t: SqlType) -> Optional[str]:
    for family in ("NUMERIC", "DATETIME", "BOOLEAN"):
        if _FAMILIES[family](t):
            return family
    return None


def _check_comparison(compile_operand: Callable, node, table_api: Optional[str]) -> None:
    types = [compile_operand(node.this)[1], compile_operand(node.expression)[1]]
    if table_api is not None:
        # the Table API compares a string with strings only
        families = {"CHARACTER" if t.name == "STRING" else _family(t) for t in types}
        if len(families) == 2 and None not in families:
            raise _invalid_table_api_call(table_api, types)
        return
    if not _comparable(*types):
        operator = _COMPARISONS[type(node)]
        raise _validation_error("SQL validation failed. Cannot apply '%s' to arguments of type '<%s> %s <%s>'. "
                                "Supported form(s): '<COMPARABLE_TYPE> %s <COMPARABLE_TYPE>'"
                                % (operator, calcite_type(types[0]), operator, calcite_type(types[1]), operator))


def _check_in(compile_operand: Callable, node, table_api: Optional[str]) -> None:
    """``x IN (a, b)``: the list's values have one kind (a NULL in it is of x's type), which x compares with."""
    if table_api is not None or not node.expressions:
        return
    left = compile_operand(node.this)[1]
    listed = [compile_operand(each)[1] for each in node.expressions]
    listed = [t for t in (left if _is_null(t) else t for t in listed) if not _is_null(t)]
    if len({_kind(t) for t in listed}) > 1:
        raise _validation_error("SQL validation failed. Values in expression list must have compatible types")
    if listed and not _comparable(left, listed[0]):
        raise _validation_error("SQL validation failed. Values passed to IN operator must have compatible types")


# a source type's kind -> the kinds of the types CAST refuses to convert it to
_REFUSED_CASTS = {
    "NUMERIC": {"DATE", "TIME", "BINARY", "ARRAY"},
    "BOOLEAN": {"DATE", "TIME", "TIMESTAMP", "BINARY", "ARRAY"},
    "DATE": {"NUMERIC", "BOOLEAN", "TIME", "BINARY", "ARRAY"},
    "TIME": {"NUMERIC", "BOOLEAN", "DATE", "BINARY", "ARRAY"},
    "TIMESTAMP": {"BOOLEAN", "BINARY", "ARRAY"},
    "BINARY": {"NUMERIC", "BOOLEAN", "ARRAY"},
    "ARRAY": {"NUMERIC", "BOOLEAN", "DATE", "TIME", "TIMESTAMP", "BINARY"},
}
# Flink's planner refuses a CAST of a numeric literal to a timestamp
_NUMERIC_TO_TIMESTAMP = {
    "TIMESTAMP": "The cast from NUMERIC type to TIMESTAMP type is not allowed. It's recommended to use "
                 "TO_TIMESTAMP(FROM_UNIXTIME(numeric_col)) instead, note the numeric is in seconds.",
    "TIMESTAMP_LTZ": "The cast from NUMERIC type to TIMESTAMP_LTZ type is not allowed. It's recommended to use "
                     "TO_TIMESTAMP_LTZ(numeric_col, precision) instead."}


def _cast_target(data_type: exp.DataType) -> Optional[Tuple[str, str, str]]:
    """(kind, name, Calcite's text) of a CAST's target type, None for a type not known here."""
    from pyflink_compat.table.sql.catalog import sql_type
    from pyflink_compat.util.exceptions import UnsupportedFeatureError
    try:
        target = sql_type(data_type, data_type.sql())
        return _kind(target), target.name, calcite_type(target)
    except UnsupportedFeatureError:    # types the engine has no values of
        pass
    size = data_type.expressions[0].this.this if data_type.expressions else None
    if data_type.this == exp.DType.TIME:
        return "TIME", "TIME", "TIME(%s)" % (size or 0)
    if data_type.this in (exp.DType.BINARY, exp.DType.VARBINARY):
        return "BINARY", "BYTES", "%s(%s)" % (data_type.this.name, size or 1)
    if data_type.this == exp.DType.USERDEFINED and str(data_type.args.get("kind")).upper() == "BYTES":
        return "BINARY", "BYTES", "VARBINARY(2147483647)"
    return None


def _numeric_literal(node) -> bool:
    while isinstance(node, (exp.Paren, exp.Neg, exp.Cast)):
        node = node.this
    return isinstance(node, exp.Literal) and not node.is_string


def _check_cast(compile_operand: Callable, node, table_api: Optional[str]) -> None:
    target = _cast_target(node.args["to"])
    if target is None:
        return
    source = compile_operand(node.this)[1]
    target_kind, target_name, target_text = target
    if target_kind in _REFUSED_CASTS.get(_kind(source), ()):
        raise _validation_error("SQL validation failed. Cast function cannot convert value of type %s to type %s"
                                % (calcite_type(source), target_text))
    if type(node) is exp.Cast and _kind(source) == "NUMERIC" and target_name in _NUMERIC_TO_TIMESTAMP \
            and _numeric_literal(node.this):
        raise _validation_error(_NUMERIC_TO_TIMESTAMP[target_name])


def _check_split(compile_operand: Callable, node, table_api: Optional[str]) -> None:
    """SPLIT(text, delimiter) of strings, typed by Flink's own inference."""
    types = [compile_operand(node.this)[1], compile_operand(node.expression)[1]]
    if table_api is None and any(t.name not in ("STRING", "NULL") for t in types):
        raise _validation_error("SQL validation failed. Invalid function call:\nSPLIT(%s)"
                                % ", ".join(t.text() for t in types))


_SPECIAL_CHECKS = {**{kind: _check_comparison for kind in _COMPARISONS}, exp.In: _check_in, exp.Cast: _check_cast,
                   exp.TryCast: _check_cast, exp.Split: _check_split}


def check_case_conditions(types: Sequence[SqlType]) -> None:
    """A searched CASE's WHEN conditions must be BOOLEAN (or NULL)."""
    if any(t.name not in ("BOOLEAN", "NULL") for t in types):
        raise _validation_error("SQL validation failed. Expected a boolean type")


def check_aggregate(node, name: str, argument_type: SqlType) -> None:
    """SUM and AVG take numbers only (an aggregate compiled apart from the expression compiler)."""
    signature = _SIGNATURES[exp.Sum] if name == "SUM" else _SIGNATURES[exp.Avg] if name == "AVG" else None
    if signature is None:
        return
    table_api = _table_api_call(node)
    if table_api is None:
        signature.check([argument_type])
    elif not _is_null(argument_type) and not signature.accepts([argument_type]):
        raise _invalid_table_api_call(table_api, [argument_type])

"""SQL expressions compiled to Python functions of a row's values, with SQL's NULL semantics (an operation on
NULL is NULL; AND, OR and NOT use three-valued logic) and Flink's typing of the results (INT / INT is an INT
truncated toward zero, a comparison is BOOLEAN)."""
import datetime
import math
import re
from typing import Callable, Dict, Optional, Tuple

import attrs
from sqlglot import exp

from pyflink_compat.table.sql import dialect, operand_types
from pyflink_compat.table.sql.catalog import SECTION, SqlType, flink_type_name, sql_type
from pyflink_compat.table.sql.collection_functions import CollectionFunctions
from pyflink_compat.table.sql.nulls import null_safe as _null_safe
from pyflink_compat.table.sql.string_functions import StringFunctions
from pyflink_compat.table.sql.time_functions import TimeFunctions
from pyflink_compat.util.exceptions import JavaStyleError, UnsupportedFeatureError

Compiled = Tuple[Callable, SqlType]      # (function of the row's values, the result's type)

INTEGERS = ("TINYINT", "SMALLINT", "INT", "BIGINT")
APPROXIMATE = ("FLOAT", "DOUBLE")
_WIDTH = {name: rank for rank, name in enumerate(INTEGERS + APPROXIMATE)}


_MIXED_TYPES = "SQL validation failed. Illegal mixing of types in CASE or COALESCE statement"


def validation_error(message: str, method: str = "executeSql") -> JavaStyleError:
    """Flink's planner's ValidationException (raised by the Java method ``method`` of the table environment)."""
    return JavaStyleError("org.apache.flink.table.api.ValidationException", message, method)


def _string_kept(operand_type: SqlType) -> SqlType:
    return operand_type if operand_type.name == "STRING" else SqlType("STRING")


def _wider(a: SqlType, b: SqlType) -> SqlType:
    if a.name in _WIDTH and b.name in _WIDTH:
        return a if _WIDTH[a.name] >= _WIDTH[b.name] else b
    return a


# an exact number's type as a DECIMAL (Flink's view of an integer in decimal arithmetic)
_INTEGER_DIGITS = {"TINYINT": 3, "SMALLINT": 5, "INT": 10, "BIGINT": 19}


def _as_decimal(t: SqlType) -> Tuple[int, int]:
    return (_INTEGER_DIGITS[t.name], 0) if t.name in _INTEGER_DIGITS else (t.precision, t.scale)


def common_type(types, incompatible: str) -> SqlType:
    """The least restrictive type of ``types`` as Flink's planner finds it for CASE, COALESCE, IF and VALUES:
    NULLs only make it nullable; integers widen, an exact number with a DECIMAL is a DECIMAL wide enough for
    both, anything with an approximate number is a DOUBLE; CHAR(n)s of one length stay CHAR(n), other strings
    are a VARCHAR of the longest (STRING when one has no length); a TIMESTAMP takes the finest precision.
    ``incompatible``: the validation message for types that have none."""
    nullable = any(t.nullable for t in types)
    known = [t for t in types if t.name != "NULL"]
    if not known:
        return SqlType("NULL")
    names = {t.name for t in known}
    if names <= set(INTEGERS + APPROXIMATE + ("DECIMAL",)):
        if names == {"FLOAT"}:
            return SqlType("FLOAT", nullable=nullable)
        if names & set(APPROXIMATE):
            return SqlType("DOUBLE", nullable=nullable)
        if "DECIMAL" in names:
            digits = [_as_decimal(t) for t in known]
            scale = max(s for _, s in digits)
            return _bounded_decimal(max(p - s for p, s in digits) + scale, scale, nullable)
        return attrs.evolve(max(known, key=lambda t: _WIDTH[t.name]), nullable=nullable)
    if len(names) != 1:
        raise validation_error(incompatible)
    first = known[0]
    if first.name == "STRING":
        lengths = [t.length for t in known]
        if None in lengths:
            return SqlType("STRING", nullable=nullable)
        fixed = all(t.fixed_length for t in known) and len(set(lengths)) == 1
        return SqlType("STRING", nullable=nullable, length=max(lengths), fixed_length=fixed)
    if first.name in ("TIMESTAMP", "TIMESTAMP_LTZ"):
        precisions = [6 if t.precision is None else t.precision for t in known]
        return attrs.evolve(first, nullable=nullable, precision=max(precisions))
    # containers: of the common type of their elements (keys, fields)
    if first.name in ("ARRAY", "MAP") and all(t.element is not None for t in known):
        element = common_type([t.element for t in known], incompatible)
        key = common_type([t.key for t in known], incompatible) if first.name == "MAP" else None
        return attrs.evolve(first, nullable=nullable, element=element, key=key)
    if first.name == "ROW" and all(t.fields is not None and len(t.fields) == len(first.fields) for t in known):
        fields = tuple((name, common_type([t.fields[n][1] for t in known], incompatible))
                       for n, (name, _) in enumerate(first.fields))
        return attrs.evolve(first, nullable=nullable, fields=fields)
    return attrs.evolve(first, nullable=nullable)


# what each type casts to implicitly, besides itself (Flink's implicit casts, as an INSERT's columns need them)
_IMPLICIT = {"TINYINT": ("SMALLINT", "INT", "BIGINT", "DECIMAL", "FLOAT", "DOUBLE"),
             "SMALLINT": ("INT", "BIGINT", "DECIMAL", "FLOAT", "DOUBLE"),
             "INT": ("BIGINT", "DECIMAL", "FLOAT", "DOUBLE"), "BIGINT": ("DECIMAL", "FLOAT", "DOUBLE"),
             "DECIMAL": ("FLOAT", "DOUBLE"), "FLOAT": ("DECIMAL", "DOUBLE"), "DOUBLE": ("DECIMAL",),
             "TIMESTAMP": ("DATE", "TIME", "TIMESTAMP_LTZ"), "TIMESTAMP_LTZ": ("TIMESTAMP",),
             "BOOLEAN": (), "DATE": (), "STRING": (), "ARRAY": (), "MAP": (), "ROW": ()}


def assignable(source: SqlType, target: SqlType) -> bool:
    """Whether a query column of type ``source`` may be written to a sink column of type ``target``: the
    same type (any precision, any CHAR / VARCHAR length, but no VARCHAR into a CHAR), a wider number, a
    TIMESTAMP into a DATE, a TIME or a TIMESTAMP_LTZ, ARRAYs, MAPs and ROWs field by field (ROW field names do
    not matter), as PyFlink 2.3's planner allows them."""
    if source.name == "NULL" or source.name not in _IMPLICIT or target.name not in _IMPLICIT:
        return True
    if source.name != target.name:
        return target.name in _IMPLICIT[source.name]
    if source.name == "STRING":
        return not target.fixed_length or source.fixed_length      # a VARCHAR into a CHAR(n) is refused
    if source.name == "ARRAY":
        return assignable(source.element, target.element)
    if source.name == "MAP":
        return assignable(source.key, target.key) and assignable(source.element, target.element)
    if source.name == "ROW":
        return len(source.fields) == len(target.fields) and all(
            assignable(a, b) for (_, a), (_, b) in zip(source.fields, target.fields))
    return True


def as_common(compiled: Compiled, target: SqlType) -> Callable:
    """``compiled``'s function giving its values as ``target`` holds them (an INT branch of a DECIMAL CASE as a
    Decimal of its scale, an integer of a DOUBLE COALESCE as a float)."""
    function, own = compiled
    if own.name == "NULL" or (own.name, own.precision, own.scale) == (target.name, target.precision, target.scale) \
            or target.name == "STRING":
        return function
    return lambda values: cast_value(function(values), target, own)


def _bounded_decimal(precision: int, scale: int, nullable: bool = True) -> SqlType:
    """DECIMAL(precision, scale) within Flink's 38 digits: beyond them the scale gives way, down to 6 digits."""
    from pyflink_compat.table.sql.catalog import MAX_DECIMAL_PRECISION
    if precision > MAX_DECIMAL_PRECISION:
        scale = max(MAX_DECIMAL_PRECISION - (precision - scale), min(scale, 6))
        precision = MAX_DECIMAL_PRECISION
    return SqlType("DECIMAL", nullable=nullable, precision=precision, scale=scale)


def decimal_result_type(operator: str, a: SqlType, b: SqlType) -> Optional[SqlType]:
    """The DECIMAL type of ``a operator b`` when one operand is a DECIMAL and the other an exact number (Flink's
    LogicalTypeMerging rules); None for other operands."""
    if "DECIMAL" not in (a.name, b.name) or not all(t.name == "DECIMAL" or t.name in INTEGERS for t in (a, b)):
        return None
    (p1, s1), (p2, s2) = _as_decimal(a), _as_decimal(b)
    nullable = a.nullable or b.nullable
    if operator in "+-":
        scale = max(s1, s2)
        return _bounded_decimal(max(p1 - s1, p2 - s2) + scale + 1, scale, nullable)
    if operator == "*":
        return _bounded_decimal(p1 + p2 + 1, s1 + s2, nullable)
    if operator == "/":
        scale = max(6, s1 + p2 + 1)
        return _bounded_decimal(p1 - s1 + s2 + scale, scale, nullable)
    scale = max(s1, s2)                                            # %
    return _bounded_decimal(min(p1 - s1, p2 - s2) + scale, scale, nullable)


def _decimal_operation(operator: str, result: SqlType):
    from pyflink_compat.table.sql.values import DECIMAL_CONTEXT, decimal_of
    context = DECIMAL_CONTEXT

    def divide(a, b):
        if b == 0:
            raise ArithmeticError("Division by zero")
        return context.divide(a, b)

    def remainder(a, b):
        if b == 0:
            raise ArithmeticError("Division by zero")
        return context.remainder(a, b)        # the dividend's sign, as Java's BigDecimal.remainder
    operation = {"+": context.add, "-": context.subtract, "*": context.multiply, "/": divide,
                 "%": remainder}[operator]
    precision, scale = result.precision, result.scale
    return lambda a, b: decimal_of(operation(a, b), precision, scale)


def _as_double(value):
    import decimal
    return float(value) if isinstance(value, decimal.Decimal) else value


def _now_utc():
    """The current time as a UTC date-time to the millisecond (a TIMESTAMP_LTZ(3))."""
    import datetime
    now = datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None)
    return now.replace(microsecond=now.microsecond // 1000 * 1000)


def split_text(text: str, delimiter: str) -> list:
    if text == "":
        return []
    if delimiter == "":
        return list(text)
    return text.split(delimiter)




# Flink's aggregate functions that sqlglot does not know as aggregates and that do not run here (refused by name)
FLINK_AGGREGATES_NOT_RUN = ("COLLECT", "PERCENTILE", "APPROX_COUNT_DISTINCT", "MODE")
AGGREGATES_RUN = ("COUNT, SUM, MIN, MAX, AVG, FIRST_VALUE, LAST_VALUE, LISTAGG, ARRAY_AGG, JSON_ARRAYAGG, "
                  "JSON_OBJECTAGG, STDDEV_POP, STDDEV_SAMP, VAR_POP and VAR_SAMP run")


def _json_or_null(write, value) -> str:
    return "null" if value is None else write(value)


def integer_division(a, b):
    if b == 0:
        raise ArithmeticError("/ by zero")
    quotient = abs(a) // abs(b)
    return quotient if (a >= 0) == (b >= 0) else -quotient


def _modulo(a, b):
    if isinstance(a, int) and isinstance(b, int):
        if b == 0:
            raise ArithmeticError("/ by zero")
        remainder = abs(a) % abs(b)       # exact for any size (math.fmod goes through floats)
        return remainder if a >= 0 else -remainder      # Java's sign: the dividend's
    return math.fmod(a, b)


def _substring_of(text: str, start: int, count=None) -> str:
    """Flink's SUBSTRING: from the 1-based ``start`` (0 is 1; a negative one counts from the end, and before the
    start gives ''), ``count`` characters."""
    if count is not None and count < 0:
        raise ValueError("SUBSTRING length must not be negative")
    if start == 0:
        start = 1
    elif start < 0:
        start = len(text) + start + 1
        if start <= 0:
            return ""
    begin = start - 1
    return text[begin:] if count is None else text[begin:begin + count]


def fitted(text: str, target: SqlType) -> str:
    """A text as a CHAR(n) or VARCHAR(n) holds it: cut to n characters, a CHAR(n) padded with spaces to n, as
    Flink's CAST and its sinks fit strings to their length (a STRING has none)."""
    if text is None or target.length is None:
        return text
    text = text[:target.length]
    return text.ljust(target.length) if target.fixed_length else text


def cast_value(value, target: SqlType, source: SqlType = None):
    if value is None:
        return None
    if target.name == "STRING" and target.length is not None:
        return fitted(_cast_value(value, target, source), target)
    return _cast_value(value, target, source)


def _cast_value(value, target: SqlType, source: SqlType = None):
    if value is None:
        return None
    name = target.name
    from pyflink_compat.table.sql import values as sql_values
    if source is not None and source.name == "TIMESTAMP_LTZ":      # an instant, seen in the session time zone
        if name == "TIMESTAMP_LTZ":
            return value
        value, source = sql_values.local_of_utc(value), attrs.evolve(source, name="TIMESTAMP")
    if name == "TIMESTAMP_LTZ":
        local = cast_value(value, attrs.evolve(target, name="TIMESTAMP"), source)
        return None if local is None else sql_values.utc_of_local(local)
    if source is not None and source.name == "TIMESTAMP" and name == "STRING":
        return sql_values.timestamp_cast_text(value, source.precision)
    if name == "STRING" and source is not None and source.name in ("DECIMAL", "DATE", "ROW", "MAP", "ARRAY"):
        return sql_values.cast_text(value, source)
    if name == "DECIMAL":
        import decimal
        if isinstance(value, str):
            try:
                value = decimal.Decimal(value.strip())
            except decimal.InvalidOperation:
                value = decimal.Decimal(0)        # Flink 2.3 casts a text that is no number to zero
        elif isinstance(value, bool):
            value = int(value)
        return sql_values.decimal_of(value, target.precision, target.scale)
    if name == "DATE":
        import datetime
        if isinstance(value, str):
            return datetime.date.fromisoformat(value.strip())
        return value.date() if isinstance(value, datetime.datetime) else value
    if name == "TIMESTAMP" and source is not None and source.name == "DATE":
        import datetime
        return datetime.datetime.combine(value, datetime.time())
    if name == "TIMESTAMP":
        if isinstance(value, str):
            from pyflink_compat.table.sql.values import parse_sql_timestamp
            value = parse_sql_timestamp(value.strip())
        if target.precision is not None and target.precision < 6 and getattr(value, "microsecond", 0):
            step = 10 ** (6 - target.precision)         # a narrower TIMESTAMP(p) truncates, as Flink's cast
            value = value.replace(microsecond=value.microsecond - value.microsecond % step)
        return value
    if name in INTEGERS:
        if isinstance(value, str):
            return int(value.strip())
        return int(value)           # a DOUBLE cast to INT is truncated toward zero, as Java's
    if name in APPROXIMATE:
        if isinstance(value, str):
            value = value.strip()
        import decimal
        if isinstance(value, decimal.Decimal):
            value = float(value)
        return sql_values.single_precision(float(value)) if name == "FLOAT" else float(value)
    if name == "STRING":
        if isinstance(value, bool):
            return "TRUE" if value else "FALSE"      # Flink's cast of a BOOLEAN to a string
        from pyflink_compat.common.types import _java_str
        return _java_str(value)
    if name == "BOOLEAN":
        if isinstance(value, str):
            lowered = value.strip().lower()
            return True if lowered == "true" else False if lowered == "false" else None
        return bool(value)
    if name in ("ROW", "MAP", "ARRAY") and (source is None or source.name == name):
        return value                # a Python function's structured result, as it gave it
    raise UnsupportedFeatureError("CAST to %s" % name, SECTION)


def cast_to(compiled: Compiled, target: SqlType) -> Callable:
    """The function converting the compiled expression's values to ``target`` (INSERT into a column)."""
    function, own = compiled
    if own.name == target.name and (own.name not in ("DECIMAL", "TIMESTAMP") or (
            own.precision, own.scale) == (target.precision, target.scale)):
        return function
    return lambda values: cast_value(function(values), target, own)


#: node meta: (adjust, operand nodes), the result type of a Table API call is ``adjust(SQL's type, operand types)``
RESULT_TYPE = "pyflink_compat_result_type"


class Compiler(TimeFunctions, StringFunctions, CollectionFunctions):
    """Compiles expressions over the columns of one input (name -> (position, type))."""

    def __init__(self, columns: Dict[str, Tuple[int, SqlType]], ambiguous=frozenset()):
        self.columns = columns               # by name, and by "table.name" where a join has two inputs
        self.ambiguous = ambiguous           # names both inputs of a join have: only qualified ones resolve
        self._checked_operands = {}          # id(node) -> (node, compiled): see _compiled_for_check

    def compile(self, node: exp.Expr) -> Compiled:
        kept = self._checked_operands.pop(id(node), None)
        if kept is not None and kept[0] is node:
            return kept[1]
        handler = getattr(self, "_" + type(node).__name__.lower(), None)
        if handler is None:
            raise UnsupportedFeatureError("The SQL expression '%s'" % node.sql(), SECTION)
        operand_types.check(self._compiled_for_check, node)
        compiled = handler(node)
        typed = node.meta.get(RESULT_TYPE)
        if typed is not None:          # the Table API's type of a call that SQL types otherwise
            adjust, operands = typed
            compiled = compiled[0], adjust(compiled[1], [self.compile(each)[1] for each in operands])
        return compiled

    def _compiled_for_check(self, operand: exp.Expr) -> Compiled:
        """An operand compiled for operand_types.check, kept for the compilation of the node it belongs to (which
        compiles it next): each node is compiled once however deep the expression is."""
        compiled = self.compile(operand)
        self._checked_operands[id(operand)] = (operand, compiled)
        return compiled

    # leaves ----------------------------------------------------------------------------------------
    def _column(self, node):
        field_access = self._field_access(node)
        if field_access is not None:
            return field_access
        name = node.name
        qualified = "%s.%s" % (node.table, name) if node.table else None
        if qualified in self.columns:
            position, column_type = self.columns[qualified]
            return (lambda values: values[position]), column_type
        peeked = self._peeked_row_column(node.table or None, name) \
            if qualified is not None or (name not in self.columns and name not in self.ambiguous) else None
        if peeked is not None:
            position, row_type = self.columns[peeked]
            return self._row_field(node, ((lambda values: values[position]), row_type), name)
        if name in self.ambiguous:
            raise validation_error("SQL validation failed. From line 1, column 1 to line 1, column %d: Column "
                                   "'%s' is ambiguous" % (len(name), name))
        if name not in self.columns and name.upper() == "LOCALTIMESTAMP" and not node.table:
            return self._function_localtimestamp([])          # Flink's niladic function, written bare
        if name not in self.columns:
            raise validation_error("SQL validation failed. From line 1, column 1 to line 1, column %d: "
                                      "Column '%s' not found in any table" % (len(name), name))
        position, column_type = self.columns[name]
        return (lambda values: values[position]), column_type

    def _peeked_row_column(self, qualifier: Optional[str], field_name: str) -> Optional[str]:
        """The ROW column whose field ``field_name`` a name without the row's own name reads (``t.id`` for
        ``t.payload.id``), as Flink's validator finds it when one ROW column of the table has such a field."""
        keys = [key for key in self.columns if qualifier and key.startswith(qualifier + ".")] or \
            [key for key in self.columns if "." not in key]     # a table's columns, or those of the only one
        found = {}
        for key in keys:
            position, column_type = self.columns[key]
            if column_type.name == "ROW" and any(each == field_name for each, _ in column_type.fields):
                found.setdefault(position, key)
        return next(iter(found.values())) if len(found) == 1 else None

    def column_key(self, node) -> Optional[str]:
        """The name in ``columns`` of the column a column reference reads: the column itself, or the ROW column
        of a field access (``t.payload.id``, ``payload.id``, a peeked ``t.id``); None for an unknown one."""
        parts = [part.name for part in node.parts]
        qualified = len(parts) > 1 and any(key.startswith(parts[0] + ".") for key in self.columns)
        # with its table qualifier; without it when the columns are not qualified (one table)
        for skipped in (0,) if qualified else (0, 1):
            for width in range(len(parts), skipped, -1):
                key = ".".join(parts[skipped:width])
                if key in self.columns:
                    return key
        return self._peeked_row_column(parts[0] if len(parts) > 1 else None, parts[-1])

    def _field_access(self, node) -> Optional[Compiled]:
        """``row_column.field`` (also ``table.row_column.field``, nested ``a.b.c``): a field of a ROW column."""
        parts = [part.name for part in node.parts]
        if len(parts) < 2 or (len(parts) == 2 and ".".join(parts) in self.columns):
            return None                          # a column, or a table's column
        if parts[0] in self.columns and self.columns[parts[0]][1].name == "ROW" and \
                ".".join(parts[:2]) not in self.columns:
            width = 1                            # row_column.field...
        elif len(parts) > 2 and (".".join(parts[:2]) in self.columns or parts[1] in self.columns):
            width = 2                            # table.row_column.field...
        else:
            return None
        compiled = self._column(exp.column(parts[width - 1], table=parts[0] if width == 2 else None))
        for field_name in parts[width:]:
            compiled = self._row_field(node, compiled, field_name)
        return compiled

    def _dot(self, node):
        """``expression.field``: a field of a ROW value that is no column (``items[1].name``)."""
        return self._row_field(node, self.compile(node.this), node.expression.name)

    def _row_field(self, node, compiled: Compiled, field_name: str) -> Compiled:
        """The field ``field_name`` of the ROW values ``compiled`` gives (NULL of a NULL row)."""
        function, row_type = compiled
        if row_type.name != "ROW":
            raise validation_error("SQL validation failed. From line 1, column 1 to line 1, column %d: Column '%s' "
                                   "of type %s has no fields" % (len(node.sql()), node.sql(), row_type.text()))
        position = next((i for i, (each, _) in enumerate(row_type.fields) if each == field_name), None)
        if position is None:
            raise validation_error("SQL validation failed. From line 1, column 1 to line 1, column %d: Unknown "
                                   "field '%s'" % (len(node.sql()), field_name))

        def field(values):
            row = function(values)
            return None if row is None else row[position]
        return field, attrs.evolve(row_type.fields[position][1], nullable=True, origin=field_name)

    # value constructors ----------------------------------------------------------------------------
    def _position_error(self, node, message: str):
        return validation_error("SQL validation failed. From line 1, column 1 to line 1, column %d: %s"
                                % (len(node.sql()), message))

    def _array(self, node):
        """``ARRAY[e1, ...]``: a NOT NULL array of the elements' common type."""
        compiled = [self.compile(each) for each in node.expressions]
        if not compiled:
            raise self._position_error(node, "Require at least 1 argument")
        element = self._common_parameter_type(node, [each_type for _, each_type in compiled])
        functions = [as_common(each, element) for each in compiled]
        return (lambda values: [function(values) for function in functions]), \
            SqlType("ARRAY", nullable=False, element=element)

    def _common_parameter_type(self, node, types) -> SqlType:
        message = "SQL validation failed. From line 1, column 1 to line 1, column %d: Parameters must be of the same " \
                  "type" % len(node.sql())
        common = common_type(types, message)
        if common.name == "NULL":
            raise validation_error(message)
        return common

    def _map_constructor(self, node):
        """``MAP[k1, v1, ...]``: a NOT NULL map of the keys' and the values' common types (a later value of a
        key replaces an earlier one)."""
        arguments = node.expressions
        if len(arguments) % 2:
            raise self._position_error(node, "Map requires an even number of arguments")
        compiled = [self.compile(each) for each in arguments]
        keys, items = compiled[0::2], compiled[1::2]
        key_type = self._common_parameter_type(node, [t for _, t in keys])
        item_type = self._common_parameter_type(node, [t for _, t in items])
        pairs = [(as_common(key, key_type), as_common(item, item_type)) for key, item in zip(keys, items)]
        return (lambda values: {key(values): item(values) for key, item in pairs}), \
            SqlType("MAP", nullable=False, key=key_type, element=item_type)

    def _row_constructor(self, expressions):
        from pyflink_compat.common.types import Row
        compiled = [self.compile(each) for each in expressions]
        names = ["EXPR$%d" % i for i in range(len(compiled))]
        functions = [function for function, _ in compiled]

        def row(values):                # without field names, as PyFlink's collect() gives a ROW(...)'s value
            return Row(*[function(values) for function in functions])
        return row, SqlType("ROW", nullable=False, fields=tuple(zip(names, [t for _, t in compiled])))

    def _function_row(self, arguments):
        """``ROW(e1, ...)``: a NOT NULL row of fields EXPR$0, EXPR$1, ..."""
        return self._row_constructor(arguments)

    def _tuple(self, node):
        """``(e1, e2, ...)``: a row, as ROW(e1, e2, ...)."""
        return self._row_constructor(node.expressions)

    def _bracket(self, node):
        """``map[key]`` (NULL for a missing key) and ``array[index]`` (from 1; NULL beyond the last); ``MAP[k, v,
        ...]`` makes a map."""
        if isinstance(node.this, exp.Column) and not node.this.table and node.this.name.upper() == "MAP" \
                and not node.this.this.quoted and "MAP" not in self.columns and "map" not in self.columns:
            return self._map_constructor(node)
        container, container_type = self.compile(node.this)
        if len(node.expressions) != 1:
            raise UnsupportedFeatureError("The SQL expression '%s'" % node.sql(), SECTION)
        index_node = node.expressions[0]
        if container_type.name == "ROW" and isinstance(index_node, exp.Literal):
            if index_node.is_string:                  # row['name']
                return self._row_field(node, (container, container_type), index_node.this)
            position = int(index_node.this)           # row[i], from 1
            if not 1 <= position <= len(container_type.fields):
                from pyflink_compat.table.sql.operand_types import calcite_type
                from pyflink_compat.util.exceptions import JavaStyleError
                fields = ", ".join("%s %s" % (calcite_type(t), name) for name, t in container_type.fields)
                raise JavaStyleError("java.lang.AssertionError", "Cannot infer type of field at position %d within "
                                     "ROW type: RecordType:peek_no_expand(%s)" % (position, fields), "sqlQuery")
            return self._row_field(node, (container, container_type), container_type.fields[position - 1][0])
        index, _ = self.compile(index_node)
        if container_type.name == "MAP":
            return _null_safe(lambda mapping, key: mapping.get(key), container, index), \
                attrs.evolve(container_type.element, nullable=True)
        if container_type.name == "ARRAY":
            if isinstance(index_node, exp.Literal) and not index_node.is_string and int(index_node.this) < 1:
                raise validation_error("Array element access needs an index starting at 1 but was %s."
                                       % index_node.this)
            return _null_safe(lambda items, at: items[at - 1] if 1 <= at <= len(items) else None, container, index), \
                attrs.evolve(container_type.element, nullable=True)
        raise validation_error("SQL validation failed. From line 1, column 1 to line 1, column %d: Cannot apply "
                               "'ITEM' to arguments of type 'ITEM(<%s>, <...>)'" % (len(node.sql()),
                                                                                container_type.text()))

    def _literal(self, node):
        if node.is_string:
            text = node.this                # Flink types a string literal CHAR(its length) NOT NULL
            return (lambda values: text), SqlType("STRING", nullable=False, length=len(text), fixed_length=True)
        text = node.this
        if any(c in text for c in "eE"):
            value = float(text)
            return (lambda values: value), SqlType("DOUBLE", nullable=False)
        if "." in text:              # an exact literal: a DECIMAL of its digits (1.5: DECIMAL(2, 1))
            import decimal
            value = decimal.Decimal(text)
            scale = max(0, -value.as_tuple().exponent)
            precision = max(len(str(abs(int(value.scaleb(scale))))), scale + 1)
            return (lambda values: value), SqlType("DECIMAL", nullable=False, precision=precision, scale=scale)
        value = int(text)
        return (lambda values: value), SqlType("INT" if -2**31 <= value < 2**31 else "BIGINT", nullable=False)

    def _boolean(self, node):
        value = bool(node.this)
        return (lambda values: value), SqlType("BOOLEAN", nullable=False)

    def _null(self, node):
        return (lambda values: None), SqlType("NULL")

    def _paren(self, node):
        return self.compile(node.this)

    def _alias(self, node):
        return self.compile(node.this)

    # arithmetic ------------------------------------------------------------------------------------
    def _arithmetic(self, node, operation, operator: str):
        (left, left_type), (right, right_type) = self.compile(node.this), self.compile(node.expression)
        if left_type.name == "INTERVAL" and right_type.name != "INTERVAL":     # INTERVAL + ts: the time's type
            return _null_safe(operation, left, right), right_type
        decimal_type = decimal_result_type(operator, left_type, right_type)
        if decimal_type is not None:
            return _null_safe(_decimal_operation(operator, decimal_type), left, right), decimal_type
        if "DECIMAL" in (left_type.name, right_type.name):      # with a DOUBLE or FLOAT: a DOUBLE
            left, right = (lambda f: lambda values: _as_double(f(values)))(left), \
                (lambda f: lambda values: _as_double(f(values)))(right)
            return _null_safe(operation, left, right), SqlType("DOUBLE", nullable=left_type.nullable or
                                                               right_type.nullable)
        return _null_safe(operation, left, right), _wider(left_type, right_type)

    def _interval(self, node):
        """INTERVAL 'n' UNIT: a day-time interval (a timedelta) or a year-month one (a number of months), added to
        or taken from a date or a timestamp."""
        import datetime
        from pyflink_compat.table.sql.catalog import interval_ms
        from pyflink_compat.table.sql.time_functions import MonthInterval
        unit = node.args["unit"].name.upper().rstrip("S") if node.args.get("unit") is not None else ""
        if unit in ("YEAR", "MONTH") and re.fullmatch(r"[+-]?\d+", node.this.name.strip()):
            value = MonthInterval(int(node.this.name) * (12 if unit == "YEAR" else 1))
        else:
            value = datetime.timedelta(milliseconds=interval_ms(node))
        return (lambda values: value), SqlType("INTERVAL", nullable=False)

    def _add(self, node):
        return self._arithmetic(node, lambda a, b: a + b, "+")

    def _sub(self, node):
        return self._arithmetic(node, lambda a, b: a - b, "-")

    def _mul(self, node):
        return self._arithmetic(node, lambda a, b: a * b, "*")

    def _div(self, node):
        (left, left_type), (right, right_type) = self.compile(node.this), self.compile(node.expression)
        if "DECIMAL" in (left_type.name, right_type.name):
            return self._arithmetic(node, lambda a, b: a / b if b else (math.copysign(math.inf, a) if a else math.nan),
                                    "/")
        result = _wider(left_type, right_type)
        if result.name in INTEGERS:
            return _null_safe(integer_division, left, right), result
        return _null_safe(lambda a, b: a / b if b else (math.copysign(math.inf, a) if a else math.nan),
                          left, right), result

    def _mod(self, node):
        """MOD(a, b) / a % b: of integers, the type of b (Calcite's MOD: MOD(BIGINT, INT) is an INT)."""
        function, result = self._arithmetic(node, _modulo, "%")
        right_type = self.compile(node.expression)[1]
        if result.name in INTEGERS and right_type.name in INTEGERS:
            result = SqlType(right_type.name, nullable=result.nullable)
        return function, result

    def _neg(self, node):
        operand, operand_type = self.compile(node.this)
        return _null_safe(lambda a: -a, operand), operand_type

    # comparisons and logic -------------------------------------------------------------------------
    def _comparison(self, node, operation):
        (left, _), (right, _) = self.compile(node.this), self.compile(node.expression)
        return _null_safe(operation, left, right), SqlType("BOOLEAN")

    def _eq(self, node):
        return self._comparison(node, lambda a, b: a == b)

    def _neq(self, node):
        return self._comparison(node, lambda a, b: a != b)

    def _gt(self, node):
        return self._comparison(node, lambda a, b: a > b)

    def _gte(self, node):
        return self._comparison(node, lambda a, b: a >= b)

    def _lt(self, node):
        return self._comparison(node, lambda a, b: a < b)

    def _lte(self, node):
        return self._comparison(node, lambda a, b: a <= b)

    def _kleene(self, node, deciding: bool):
        """AND (``deciding`` False) or OR (True) in three-valued logic: an operand equal to ``deciding`` decides,
        else NULL if either is NULL."""
        (left, _), (right, _) = self.compile(node.this), self.compile(node.expression)

        def combined(values):
            a = left(values)
            if a is deciding:
                return deciding
            b = right(values)
            if b is deciding:
                return deciding
            return None if a is None or b is None else not deciding
        return combined, SqlType("BOOLEAN")

    def _and(self, node):
        return self._kleene(node, False)

    def _or(self, node):
        return self._kleene(node, True)

    def _not(self, node):
        operand, operand_type = self.compile(node.this)
        return _null_safe(lambda a: not a, operand), SqlType("BOOLEAN", nullable=operand_type.nullable)

    def _is(self, node):
        operand, _ = self.compile(node.this)
        if isinstance(node.expression, exp.Null):
            return (lambda values: operand(values) is None), SqlType("BOOLEAN", nullable=False)
        if isinstance(node.expression, exp.JSON):           # x IS JSON [VALUE | SCALAR | ARRAY | OBJECT]
            from pyflink_compat.table.sql import json_functions
            kind = node.expression.this
            kind = "VALUE" if not kind else str(kind.name if isinstance(kind, exp.Expr) else kind).upper()
            return (lambda values: json_functions.is_json(operand(values), kind)), SqlType("BOOLEAN", nullable=False)
        expected = bool(node.expression.this)
        return (lambda values: operand(values) is expected), SqlType("BOOLEAN", nullable=False)

    def _in(self, node):
        operand, _ = self.compile(node.this)
        options = [self.compile(each)[0] for each in node.expressions]

        def member(values):
            value = operand(values)
            if value is None:
                return None
            found = [option(values) for option in options]
            if value in found:
                return True
            return None if None in found else False
        return member, SqlType("BOOLEAN")

    def _between(self, node):
        operand, _ = self.compile(node.this)
        low, _ = self.compile(node.args["low"])
        high, _ = self.compile(node.args["high"])
        return _null_safe(lambda v, a, b: a <= v <= b, operand, low, high), SqlType("BOOLEAN")

    def _like(self, node):
        import re
        operand, _ = self.compile(node.this)
        pattern, _ = self.compile(node.expression)

        def matches(value, text):
            regex = "".join(".*" if c == "%" else "." if c == "_" else re.escape(c) for c in text)
            return re.fullmatch(regex, value, re.DOTALL) is not None
        return _null_safe(matches, operand, pattern), SqlType("BOOLEAN")

    # CASE, CAST, functions -------------------------------------------------------------------------
    def _case(self, node):
        subject = self.compile(node.this)[0] if node.this is not None else None
        compiled_conditions = [self.compile(branch.this) for branch in node.args["ifs"]]
        if subject is None:
            operand_types.check_case_conditions([t for _, t in compiled_conditions])
        conditions = [condition for condition, _ in compiled_conditions]
        results = [self.compile(branch.args["true"]) for branch in node.args["ifs"]]
        default = self.compile(node.args["default"]) if node.args.get("default") is not None else None
        result_type = common_type([t for _, t in results] + [(default or (None, SqlType("NULL")))[1]],
                                  _MIXED_TYPES)
        branches = list(zip(conditions, [as_common(each, result_type) for each in results]))
        otherwise = as_common(default, result_type) if default is not None else None

        def choose(values):
            key = subject(values) if subject is not None else None
            for condition, value in branches:
                test = condition(values)
                if (test == key and key is not None) if subject is not None else test is True:
                    return value(values)
            return otherwise(values) if otherwise is not None else None
        return choose, result_type

    def _cast(self, node):
        operand, source = self.compile(node.this)
        # a CAST is nullable as its operand is (a CAST of NULL is nullable)
        target = attrs.evolve(sql_type(node.args["to"], node.sql()), nullable=source.nullable or source.name == "NULL")
        return (lambda values: cast_value(operand(values), target, source)), target

    def _trycast(self, node):
        operand, source = self.compile(node.this)
        target = sql_type(node.args["to"], node.sql())

        def attempt(values):
            try:
                return cast_value(operand(values), target, source)
            except (ValueError, TypeError):
                return None
        return attempt, target

    def _upper(self, node):
        operand, operand_type = self.compile(node.this)     # Flink's UPPER / LOWER keep their argument's type
        return _null_safe(str.upper, operand), _string_kept(operand_type)

    def _lower(self, node):
        operand, operand_type = self.compile(node.this)
        return _null_safe(str.lower, operand), _string_kept(operand_type)

    def _length(self, node):
        if node.args.get("binary") is not None:          # CHAR_LENGTH(a, b)
            raise self._wrong_arguments("CHAR_LENGTH", node, "1")
        operand, operand_type = self.compile(node.this)
        return _null_safe(len, operand), SqlType("INT", nullable=operand_type.nullable)

    def _abs(self, node):
        operand, operand_type = self.compile(node.this)
        return _null_safe(abs, operand), operand_type

    # numeric functions (math_functions: Flink's types, Java's results) ---------------------------------
    def _digits(self, node, operand_type):
        """The digits argument of ROUND / TRUNCATE: (its value when constant, else None; its compiled function)."""
        digits = node.args.get("decimals")
        if digits is None:
            return 0, lambda values: 0
        function, _ = self.compile(digits)
        if digits.find(exp.Column) is None:
            value = function(())
            return value, lambda values: value
        if operand_type.name == "DECIMAL":
            raise UnsupportedFeatureError("%s of a DECIMAL to a number of digits that is not a constant"
                                          % node.sql(), SECTION)
        return None, function

    def _rounding(self, node, operation):
        from pyflink_compat.table.sql import math_functions
        operand, operand_type = self.compile(node.this)
        constant, digits = self._digits(node, operand_type)
        result_type = math_functions.rounded_type(operand_type, constant if constant is not None else 0)
        return _null_safe(lambda value, places: operation(value, places, result_type), operand, digits), result_type

    def _round(self, node):
        from pyflink_compat.table.sql import math_functions
        return self._rounding(node, math_functions.round_half_up)

    def _trunc(self, node):
        from pyflink_compat.table.sql import math_functions
        return self._rounding(node, math_functions.truncate)

    def _floor_or_ceil(self, node, ceiling: bool):
        from pyflink_compat.table.sql import math_functions
        if node.args.get("to") is not None:
            return self._time_rounding(node, ceiling)
        if node.args.get("decimals") is not None:
            raise UnsupportedFeatureError("The SQL expression '%s'" % node.sql(), SECTION)
        operand, operand_type = self.compile(node.this)
        result_type = math_functions.floored_type(operand_type)
        return _null_safe(lambda value: math_functions.floor_or_ceil(value, ceiling, result_type), operand), \
            result_type

    def _floor(self, node):
        return self._floor_or_ceil(node, ceiling=False)

    def _ceil(self, node):
        return self._floor_or_ceil(node, ceiling=True)

    def _sign(self, node):
        from pyflink_compat.table.sql import math_functions
        from pyflink_compat.table.sql.values import decimal_of
        operand, operand_type = self.compile(node.this)
        if operand_type.name == "DECIMAL":
            return _null_safe(lambda value: decimal_of(math_functions.sign(value), operand_type.precision,
                                                       operand_type.scale), operand), operand_type
        return _null_safe(math_functions.sign, operand), SqlType(operand_type.name, nullable=operand_type.nullable)

    def _double_function(self, function, *nodes):
        """A function of doubles with a DOUBLE result (DECIMAL arguments taken as doubles)."""
        compiled = [self.compile(each) for each in nodes]
        operands = [(lambda f: lambda values: _as_double(f(values)))(each) for each, _ in compiled]
        return _null_safe(lambda *arguments: function(*(float(a) for a in arguments)), *operands), \
            SqlType("DOUBLE", nullable=any(t.nullable for _, t in compiled))

    def _pow(self, node):
        from pyflink_compat.table.sql import math_functions
        return self._double_function(math_functions.power, node.this, node.expression)

    def _sqrt(self, node):
        from pyflink_compat.table.sql import math_functions
        return self._double_function(math_functions.square_root, node.this)

    def _exp(self, node):
        from pyflink_compat.table.sql import math_functions
        return self._double_function(math_functions.exponential, node.this)

    def _ln(self, node):
        from pyflink_compat.table.sql import math_functions
        return self._double_function(math_functions.natural_log, node.this)

    def _log(self, node):
        """LOG(x) is LN(x); LOG(b, x) and LOG2(x) (parsed as LOG(2, x)) ln(x) / ln(b); LOG10(x) Java's log10."""
        from pyflink_compat.table.sql import math_functions
        if node.expression is None:
            return self._double_function(math_functions.natural_log, node.this)
        if isinstance(node.this, exp.Literal) and node.this.this == "10":         # Java's Math.log10
            return self._double_function(lambda value: math.log10(value) if value > 0 else
                                         math_functions.natural_log(value), node.expression)
        return self._double_function(math_functions.log_base, node.this, node.expression)

    def _pi(self, node):
        return (lambda values: math.pi), SqlType("DOUBLE", nullable=False)

    def _function_e(self, arguments):
        return (lambda values: math.e), SqlType("DOUBLE", nullable=False)

    def _trigonometric(self, node):
        from pyflink_compat.table.sql import math_functions
        return self._double_function(math_functions.TRIGONOMETRIC[type(node).__name__.upper()], node.this)

    _sin = _cos = _tan = _asin = _acos = _atan = _degrees = _radians = _cot = _sinh = _cosh = _tanh = _trigonometric

    def _atan2(self, node):
        return self._double_function(math.atan2, node.this, node.expression)

    def _concat(self, node):
        compiled = [self.compile(each) for each in node.expressions]
        parts = [function for function, _ in compiled]
        return _null_safe(lambda *texts: "".join(texts), *parts), \
            SqlType("STRING", nullable=any(t.nullable for _, t in compiled))

    def _dpipe(self, node):
        (left, left_type), (right, right_type) = self.compile(node.this), self.compile(node.expression)
        nullable = left_type.nullable or right_type.nullable
        if left_type.length is None or right_type.length is None:      # Flink: VARCHAR(n) || CHAR(m) is VARCHAR(n + m)
            result_type = SqlType("STRING", nullable=nullable)
        else:
            result_type = SqlType("STRING", nullable=nullable, length=left_type.length + right_type.length,
                                  fixed_length=left_type.fixed_length and right_type.fixed_length)
        return _null_safe(lambda a, b: a + b, left, right), result_type

    def _coalesce(self, node):
        compiled = [self.compile(node.this)] + [self.compile(each) for each in node.expressions]
        result_type = common_type([t for _, t in compiled], "SQL validation failed. Invalid function call:\n"
                                  "COALESCE(%s)" % ", ".join(t.text() for _, t in compiled))
        # NOT NULL when any argument is: that one's value comes out at the latest
        result_type = attrs.evolve(result_type, nullable=all(t.nullable for _, t in compiled))
        parts = [as_common(each, result_type) for each in compiled]

        def first(values):
            for part in parts:
                value = part(values)
                if value is not None:
                    return value
            return None
        return first, result_type

    def _trim(self, node):
        """TRIM / LTRIM / RTRIM: of the operand's type as a VARCHAR (CHAR(n) gives VARCHAR(n)), nullable where an
        operand is."""
        operand, operand_type = self.compile(node.this)
        characters = node.args.get("expression")
        nullable = operand_type.nullable
        if characters is not None:
            characters, characters_type = self.compile(characters)
            nullable = nullable or characters_type.nullable
        result_type = attrs.evolve(operand_type, nullable=nullable, fixed_length=False, origin=None) \
            if operand_type.name == "STRING" else SqlType("STRING")
        position = (node.args.get("position") or "BOTH").upper()
        strip = {"LEADING": str.lstrip, "TRAILING": str.rstrip}.get(position, str.strip)

        def trimmed(values):
            text = operand(values)
            removed = characters(values) if characters is not None else " "
            return None if text is None or removed is None else strip(text, removed)
        return trimmed, result_type

    def _substring(self, node):
        if node.args.get("start") is None or node.args.get("zero_start") is not None:
            # Flink's grammar takes SUBSTRING(s, start[, length]) (or FROM ... FOR ...) only
            raise dialect.parse_error("Encountered \"%s\" in %s" % (")" if node.args.get("start") is None else ",",
                                                                      node.sql(dialect="flink")))
        operand, _ = self.compile(node.this)
        start, _ = self.compile(node.args["start"])
        length = self.compile(node.args["length"])[0] if node.args.get("length") is not None else None

        def part(values):
            text, first = operand(values), start(values)
            count = length(values) if length is not None else None
            if text is None or first is None or (length is not None and count is None):
                return None
            return _substring_of(text, first, count)
        return part, SqlType("STRING")

    def _replace(self, node):
        if node.args.get("replacement") is None:
            raise self._wrong_arguments("REPLACE", node, "3")
        compiled = [self.compile(each) for each in (node.this, node.expression, node.args["replacement"])]
        return _null_safe(lambda text, old, new: text.replace(old, new), *[function for function, _ in compiled]), \
            SqlType("STRING", nullable=any(each_type.nullable for _, each_type in compiled))

    def _concatws(self, node):
        separator, *parts = [self.compile(each)[0] for each in node.expressions]

        def joined(values):
            glue = separator(values)
            if glue is None:
                return None
            return glue.join(text for text in (part(values) for part in parts) if text is not None)
        return joined, SqlType("STRING")

    def _if(self, node):
        condition, _ = self.compile(node.this)
        compiled = [self.compile(node.args["true"])]
        if node.args.get("false") is not None:
            compiled.append(self.compile(node.args["false"]))
        else:
            compiled.append((lambda values: None, SqlType("NULL")))
        result_type = common_type([t for _, t in compiled], _MIXED_TYPES)
        when_true, when_false = (as_common(each, result_type) for each in compiled)

        def choose(values):
            return when_true(values) if condition(values) is True else when_false(values)
        return choose, result_type

    def _split(self, node):
        """SPLIT(text, delimiter): every piece, empty ones too ('a  b' -> [a, , b]); an empty text has none, an
        empty delimiter splits into characters, as Flink's."""
        (text, text_type), (delimiter, delimiter_type) = self.compile(node.this), self.compile(node.expression)
        return _null_safe(split_text, text, delimiter), SqlType("ARRAY", element=SqlType("STRING"),
                                                                nullable=text_type.nullable or delimiter_type.nullable)

    def _function_cardinality(self, arguments):
        operand, operand_type = self.compile(arguments[0])
        return _null_safe(len, operand), SqlType("INT", nullable=operand_type.nullable)

    def _function_to_timestamp(self, arguments):
        """TO_TIMESTAMP(text [, Java pattern]): NULL when the text does not match, as Flink's."""
        from pyflink_compat.table.sql.values import java_pattern_parser
        text, _ = self.compile(arguments[0])
        pattern = arguments[1].this if len(arguments) > 1 and isinstance(arguments[1], exp.Literal) \
            else "yyyy-MM-dd HH:mm:ss"
        parse = java_pattern_parser(pattern)
        return _null_safe(parse, text), SqlType("TIMESTAMP", precision=3)

    def _function_date_format(self, arguments):
        """DATE_FORMAT(timestamp or text, Java pattern): the date-time as text in the pattern; a text argument is
        read as 'yyyy-MM-dd HH:mm:ss[.fraction]' (NULL when it is not one), a TIMESTAMP_LTZ in the session time
        zone."""
        from pyflink_compat.table.sql.values import java_pattern_formatter, local_of_utc, parse_sql_timestamp
        if len(arguments) != 2:
            raise validation_error("SQL validation failed. Invalid number of arguments to function 'DATE_FORMAT'. "
                                   "Was expecting 2 arguments")
        operand, operand_type = self.compile(arguments[0])
        pattern, _ = self.compile(arguments[1])
        if isinstance(arguments[1], exp.Literal):
            try:
                java_pattern_formatter(arguments[1].this)
            except ValueError as error:
                raise validation_error("SQL validation failed. %s in the pattern '%s' of DATE_FORMAT"
                                       % (error, arguments[1].this)) from None

        def formatted(value, pattern_text):
            formatter = java_pattern_formatter(pattern_text)
            if operand_type.name in ("STRING", "VARCHAR", "CHAR"):
                try:
                    value = parse_sql_timestamp(value.strip())
                except ValueError:
                    return None
            elif operand_type.name == "TIMESTAMP_LTZ":
                value = local_of_utc(value)
            elif operand_type.name == "DATE":
                value = datetime.datetime(value.year, value.month, value.day)
            return formatter(value)
        return _null_safe(formatted, operand, pattern), SqlType("STRING")

    def _function_from_unixtime(self, arguments):
        """FROM_UNIXTIME(seconds [, Java pattern]): the moment as text in the session time zone ('yyyy-MM-dd
        HH:mm:ss' by default)."""
        from pyflink_compat.table.sql.values import java_pattern_formatter, local_of_utc, utc_of_epoch_ms
        seconds, _ = self.compile(arguments[0])
        pattern = self.compile(arguments[1])[0] if len(arguments) > 1 else (lambda values: "yyyy-MM-dd HH:mm:ss")

        def formatted(value, pattern_text):
            return java_pattern_formatter(pattern_text)(local_of_utc(utc_of_epoch_ms(int(value) * 1000)))
        return _null_safe(formatted, seconds, pattern), SqlType("STRING")

    def _function_unix_timestamp(self, arguments):
        """UNIX_TIMESTAMP(): now in epoch seconds; UNIX_TIMESTAMP(text [, Java pattern]): the text's date-time,
        read in the session time zone ('yyyy-MM-dd HH:mm:ss' by default), in epoch seconds; Long.MIN_VALUE when it
        does not match, as Flink's."""
        from pyflink_compat.table.sql.values import java_pattern_parser, utc_of_local
        if not arguments:
            return (lambda values: int(_now_utc().replace(tzinfo=datetime.timezone.utc).timestamp())), \
                SqlType("BIGINT", nullable=False)
        text, _ = self.compile(arguments[0])
        pattern = arguments[1].this if len(arguments) > 1 and isinstance(arguments[1], exp.Literal) \
            else "yyyy-MM-dd HH:mm:ss"
        parse = java_pattern_parser(pattern)

        def seconds(value):
            moment = parse(value)
            if moment is None:
                return -2 ** 63
            return int(utc_of_local(moment).replace(tzinfo=datetime.timezone.utc).timestamp())
        return _null_safe(seconds, text), SqlType("BIGINT")

    def _function_to_date(self, arguments):
        """TO_DATE(text [, Java pattern]): the text's date ('yyyy-MM-dd' by default), NULL when it does not match."""
        from pyflink_compat.table.sql.values import java_pattern_parser
        text, _ = self.compile(arguments[0])
        pattern = arguments[1].this if len(arguments) > 1 and isinstance(arguments[1], exp.Literal) else "yyyy-MM-dd"
        parse = java_pattern_parser(pattern)

        def to_date(value):
            moment = parse(value)
            return None if moment is None else moment.date()
        return _null_safe(to_date, text), SqlType("DATE")

    def _left(self, node):
        return self._function_left([node.this, node.expression])

    def _right(self, node):
        return self._function_right([node.this, node.expression])

    def _function_left(self, arguments):
        """LEFT(text, n): the first n characters ('' for a negative n)."""
        (text, _), (count, _) = [self.compile(each) for each in arguments]
        return _null_safe(lambda t, n: t[:n] if n > 0 else "", text, count), SqlType("STRING")

    def _function_right(self, arguments):
        """RIGHT(text, n): the last n characters ('' for a negative n)."""
        (text, _), (count, _) = [self.compile(each) for each in arguments]
        return _null_safe(lambda t, n: t[-n:] if n > 0 else "", text, count), SqlType("STRING")

    def _function_to_timestamp_ltz(self, arguments):
        """TO_TIMESTAMP_LTZ(epoch [, precision]): epoch milliseconds (precision 3, the default) or seconds (0)."""
        from pyflink_compat.table.sql.values import utc_of_epoch_ms
        epoch, _ = self.compile(arguments[0])
        precision = int(arguments[1].this) if len(arguments) > 1 and isinstance(arguments[1], exp.Literal) else 3
        if precision not in (0, 3):
            raise validation_error("The precision value '%d' for function TO_TIMESTAMP_LTZ(numeric, precision) is "
                                   "unsupported, the supported value is '0' for second or '3' for millisecond."
                                   % precision)
        factor = 1000 if precision == 0 else 1
        return _null_safe(lambda value: utc_of_epoch_ms(int(value * factor)), epoch), \
            SqlType("TIMESTAMP_LTZ", precision=3)

    def _function_localtimestamp(self, arguments):
        """LOCALTIMESTAMP: the current date-time in the session time zone (this machine's), a TIMESTAMP(3)."""
        from pyflink_compat.table.sql.values import local_of_utc
        return (lambda values: local_of_utc(_now_utc())), SqlType("TIMESTAMP", nullable=False, precision=3)

    def _currenttimestamp(self, node):
        """CURRENT_TIMESTAMP: the current instant, a TIMESTAMP_LTZ(3)."""
        return (lambda values: _now_utc()), SqlType("TIMESTAMP_LTZ", nullable=False, precision=3)

    def _function_now(self, arguments):
        """NOW(): as CURRENT_TIMESTAMP."""
        return self._currenttimestamp(None)

    def _function_proctime(self, arguments):
        """PROCTIME(): the processing time at which the row is read (a processing-time attribute)."""
        return (lambda values: _now_utc()), SqlType("TIMESTAMP_LTZ", nullable=False, precision=3,
                                                    time_attribute="PROCTIME")

    def _jsonvalue(self, node):
        """JSON_VALUE(json, path [RETURNING type] [... ON EMPTY] [... ON ERROR]) (json_functions)."""
        from pyflink_compat.table.sql import json_functions
        from pyflink_compat.table.sql.dialect import Flink
        text, _ = self.compile(node.this)
        path = self._json_path(node.args["path"], "JSON_VALUE")
        returning = node.args.get("returning")
        if returning is None:
            result_type = SqlType("STRING")
        else:
            name = flink_type_name(returning)
            if name not in json_functions.RETURNING_TYPES:
                raise JavaStyleError("org.apache.flink.table.planner.codegen.CodeGenException",
                                     "Unsupported type '%s' for RETURNING in JSON_VALUE()."
                                     % returning.sql(dialect=Flink).upper(), "executeSql")
            result_type = SqlType(name)
        on_error = node.args.get("on_error")
        default = node.args.get("error_default")
        behaviour = json_functions.Behaviour(on_error.name if on_error is not None else "NULL")
        if default is not None:
            compiled_default = self.compile(default)
            behaviour.default = lambda values: cast_value(compiled_default[0](values), result_type,
                                                          compiled_default[1])
        returning_name = result_type.name

        def value(values):
            return json_functions.json_value(text(values), path, returning_name, behaviour, values)
        return value, result_type

    # JSON text of values ---------------------------------------------------------------------------
    def _json_member(self, node):
        """The function giving the JSON text of a value (``null`` for NULL) and whether it is NULL: a nested
        JSON_OBJECT / JSON_ARRAY goes in as JSON, any other value by its type (json_functions.writer)."""
        from pyflink_compat.table.sql import json_functions
        function, value_type = self.compile(node)
        if isinstance(node, (exp.JSONObject, dialect.JsonArrayCall)):
            return function
        try:
            write = json_functions.writer(value_type)
        except json_functions.NotJsonType as e:
            raise JavaStyleError("org.apache.flink.table.planner.codegen.CodeGenException", str(e), "executeSql")
        return lambda values: _json_or_null(write, function(values))

    def _jsonobject(self, node):
        """JSON_OBJECT([KEY] k VALUE v, ... [{NULL | ABSENT} ON NULL]): an object of sorted keys (NULL ON NULL
        by default)."""
        from pyflink_compat.table.sql.dialect import Flink
        from pyflink_compat.util.json_strings import quote_in_text
        if node.args.get("unique_keys") or node.args.get("return_type") or node.args.get("encoding"):
            raise UnsupportedFeatureError("The SQL expression '%s'" % node.sql(dialect=Flink), SECTION)
        absent = node.args.get("null_handling") == "ABSENT ON NULL"
        members = []
        for pair in node.expressions:
            key, key_type = self.compile(pair.this)
            if key_type.nullable:
                raise validation_error("SQL validation failed. Argument to function '%s' must not be NULL"
                                       % pair.this.sql(dialect=Flink))
            if key_type.name != "STRING":
                raise validation_error("SQL validation failed. Cannot apply 'JSON_OBJECT' to arguments of type "
                                       "'JSON_OBJECT(<%s>, ...)'" % key_type.text())
            members.append((key, self._json_member(pair.expression)))

        def json_object(values):
            texts = {}
            for key, value in members:
                text = value(values)
                if text == "null" and absent:          # a nested JSON_OBJECT / JSON_ARRAY is never "null"
                    continue
                texts[key(values)] = text
            return "{%s}" % ",".join("%s:%s" % (quote_in_text(name), texts[name]) for name in sorted(texts))
        return json_object, SqlType("STRING", nullable=False)

    def _jsonarraycall(self, node):
        """JSON_ARRAY([v, ...] [{NULL | ABSENT} ON NULL]): an array of the values (ABSENT ON NULL by default)."""
        keep_null = node.args.get("null_handling") == "NULL ON NULL"
        members = [self._json_member(each) for each in node.expressions]

        def json_array(values):
            texts = [member(values) for member in members]
            return "[%s]" % ",".join(text for text in texts if keep_null or text != "null")
        return json_array, SqlType("STRING", nullable=False)

    def _function_json_string(self, arguments):
        """JSON_STRING(value): the value's JSON text, NULL for NULL."""
        from pyflink_compat.table.sql import json_functions
        if len(arguments) != 1:
            raise self._argument_count_error(exp.Anonymous(this="JSON_STRING", expressions=arguments))
        function, value_type = self.compile(arguments[0])
        try:
            write = json_functions.writer(value_type)
        except json_functions.NotJsonType:          # its argument's type is checked in validation
            raise validation_error("SQL validation failed. Invalid function call:\nJSON_STRING(%s)"
                                   % value_type.text()) from None
        return _null_safe(write, function), SqlType("STRING", nullable=value_type.nullable)

    def _json_path(self, node, function: str) -> str:
        if not isinstance(node, exp.Literal) or not node.is_string:
            raise UnsupportedFeatureError("%s with a path that is not a string literal (%s)" % (function, node.sql()),
                                          SECTION)
        return node.this

    def _function_json_query(self, arguments):
        from pyflink_compat.table.sql import json_functions
        if len(arguments) != 2:
            raise UnsupportedFeatureError("JSON_QUERY with a wrapper or ON EMPTY / ON ERROR clause", SECTION)
        text, _ = self.compile(arguments[0])
        path = self._json_path(arguments[1], "JSON_QUERY")
        return (lambda values: json_functions.json_query(text(values), path)), SqlType("STRING")

    def _function_json_exists(self, arguments):
        from pyflink_compat.table.sql import json_functions
        if len(arguments) != 2:
            raise UnsupportedFeatureError("JSON_EXISTS with an ON ERROR clause", SECTION)
        text, _ = self.compile(arguments[0])
        path = self._json_path(arguments[1], "JSON_EXISTS")
        return (lambda values: json_functions.json_exists(text(values), path)), SqlType("BOOLEAN")

    def _anonymous(self, node):
        python_function = node.args.get("function")
        if python_function is not None:
            return self._python_call(node, python_function)
        if node.meta.get(dialect.WRONG_ARGUMENT_COUNT):
            raise self._argument_count_error(node)
        function = getattr(self, "_function_" + node.name.lower(), None)
        if function is not None:
            return function(node.expressions)
        if node.name.upper() in FLINK_AGGREGATES_NOT_RUN:
            raise UnsupportedFeatureError("The aggregate function %s" % node.sql(), SECTION, AGGREGATES_RUN)
        raise validation_error("SQL validation failed. From line 1, column 1 to line 1, column %d: No match "
                                  "found for function signature %s(<ANY>)" % (len(node.sql()), node.name))

    def _argument_count_error(self, node):
        """Flink's validation error of a call with an argument count the function does not take: Calcite's
        functions expect their (least) count, the others have no signature of these arguments' types."""
        name = node.name.upper()
        if any(isinstance(each, exp.Null) for each in node.expressions):
            return validation_error("SQL validation failed. From line 1, column 1 to line 1, column %d: Illegal use "
                                    "of 'NULL'" % len(node.sql()))
        expected = _EXPECTED_ARGUMENTS.get(name)
        if expected is not None:
            return self._wrong_arguments(name, node, str(expected))
        families = ", ".join("<%s>" % _type_family(self.compile(each)[1]) for each in node.expressions)
        return validation_error("SQL validation failed. From line 1, column 1 to line 1, column %d: No match found "
                                "for function signature %s(%s)." % (len(node.sql()), _SIGNATURE_NAMES.get(name, name),
                                                                    families))

    def _python_call(self, node, wrapper):
        """A Python scalar function's call: its ``eval`` with the argument values (NULL passed as None), its
        declared result type."""
        from pyflink_compat.table.sql.catalog import sql_type_of
        from pyflink_compat.table.udf import UserDefinedScalarFunctionWrapper
        if not isinstance(wrapper, UserDefinedScalarFunctionWrapper):
            raise validation_error("SQL validation failed. From line 1, column 1 to line 1, column %d: No match "
                                   "found for function signature %s(<ANY>)" % (len(node.name), node.name))
        arguments = [self.compile(each)[0] for each in node.expressions]
        invoke = wrapper._invoker()

        def call(values):
            return invoke(*[argument(values) for argument in arguments])
        return call, sql_type_of(wrapper._result_type)


# the argument count Flink 2.3 names ("Was expecting n arguments") for a call of one of its Calcite functions with
# another count (the least it takes); the functions of Flink's own type inference have no match instead
_EXPECTED_ARGUMENTS = {"LPAD": 3, "RPAD": 3, "REPEAT": 2, "LEFT": 2, "RIGHT": 2, "REPLACE": 3, "LOCATE": 2,
                       "SPLIT_INDEX": 3, "REGEXP_REPLACE": 3, "REGEXP_EXTRACT": 2, "INSTR": 2, "SHA2": 2, "POWER": 2,
                       "ATAN2": 2, "NULLIF": 2, "IF": 3, "REGEXP": 2, "DATE_FORMAT": 2, "MD5": 1, "UPPER": 1,
                       "HEX": 1, "CHR": 1, "LTRIM": 1, "RTRIM": 1, "INITCAP": 1, "BIN": 1, "REVERSE": 1,
                       "TO_BASE64": 1, "LOG": 1, "TRUNCATE": 1, "ROUND": 1, "SUBSTR": 2, "CONCAT": 1, "LOWER": 1,
                       "ABS": 1, "MOD": 2}
_SIGNATURE_NAMES = {"TRANSLATE": "TRANSLATE3"}          # Flink's validator names TRANSLATE so


def _type_family(t: SqlType) -> str:
    """The type family Flink's "No match found for function signature" message names an argument by."""
    if t.name in INTEGERS + APPROXIMATE + ("DECIMAL",):
        return "NUMERIC"
    if t.name == "STRING":
        return "CHARACTER"
    return t.name

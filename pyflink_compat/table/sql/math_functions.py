"""Flink SQL's numeric functions (ROUND, FLOOR, CEIL, TRUNCATE, POWER, SQRT, EXP, LN, LOG, SIGN, the
trigonometric ones) with Flink's result types and Java's results: rounding half up, as BigDecimal rounds; NaN or
an infinity where Java's Math gives one (Python's math raises instead)."""
import decimal
import math

from pyflink_compat.table.sql.catalog import SqlType

_INTEGERS = ("TINYINT", "SMALLINT", "INT", "BIGINT")


def rounded_type(operand: SqlType, digits: int) -> SqlType:
    """The type of ROUND(x, digits) / TRUNCATE(x, digits): a DECIMAL keeps the digits it can still have (Flink's
    rule: DECIMAL(1 + p - s + d, d) for 0 <= d < s, DECIMAL(1 + p - s, 0) for d < 0); other types are kept."""
    if operand.name != "DECIMAL":
        return SqlType(operand.name, nullable=operand.nullable)
    precision, scale = operand.precision, operand.scale
    if digits >= scale:
        return SqlType("DECIMAL", nullable=operand.nullable, precision=precision, scale=scale)
    if digits < 0:
        return SqlType("DECIMAL", nullable=operand.nullable, precision=min(38, 1 + precision - scale), scale=0)
    return SqlType("DECIMAL", nullable=operand.nullable, precision=min(38, 1 + precision - scale + digits),
                   scale=digits)


def floored_type(operand: SqlType) -> SqlType:
    """FLOOR / CEIL: a DECIMAL(p, s) is a DECIMAL(p, 0); other types are kept."""
    if operand.name == "DECIMAL":
        return SqlType("DECIMAL", nullable=operand.nullable, precision=operand.precision, scale=0)
    return SqlType(operand.name, nullable=operand.nullable)


def _exact(value) -> decimal.Decimal:
    """A number as BigDecimal.valueOf sees it (a double by its shortest decimal form)."""
    if isinstance(value, decimal.Decimal):
        return value
    if isinstance(value, float):
        return decimal.Decimal(repr(value))
    return decimal.Decimal(value)


def _scaled(value, digits: int, rounding: str, result: SqlType):
    if isinstance(value, float) and not math.isfinite(value):
        return value
    exact = _exact(value)
    quantum = decimal.Decimal(1).scaleb(-digits)
    with decimal.localcontext() as context:
        context.prec = 80
        moved = exact.quantize(quantum, rounding=rounding)
    if result.name in _INTEGERS:
        return int(moved)
    if result.name == "DECIMAL":
        from pyflink_compat.table.sql.values import decimal_of
        return decimal_of(moved, result.precision, result.scale)
    number = float(moved)
    if result.name == "FLOAT":
        from pyflink_compat.table.sql.values import single_precision
        return single_precision(number)
    return number


def round_half_up(value, digits: int, result: SqlType):
    return _scaled(value, digits, decimal.ROUND_HALF_UP, result)


def truncate(value, digits: int, result: SqlType):
    return _scaled(value, digits, decimal.ROUND_DOWN, result)


def floor_or_ceil(value, ceiling: bool, result: SqlType):
    if isinstance(value, int):
        return value
    if isinstance(value, decimal.Decimal):
        return _scaled(value, 0, decimal.ROUND_CEILING if ceiling else decimal.ROUND_FLOOR, result)
    if not math.isfinite(value):
        return value
    number = float(math.ceil(value) if ceiling else math.floor(value))
    return number + 0.0 if number else math.copysign(0.0, value)        # Java keeps -0.0 for FLOOR(-0.0)


def sign(value):
    if isinstance(value, float) and math.isnan(value):
        return value
    if isinstance(value, decimal.Decimal):
        return (value > 0) - (value < 0)
    result = (value > 0) - (value < 0)
    return float(result) if isinstance(value, float) else result


def power(base: float, exponent: float) -> float:
    """Java's Math.pow: NaN for a negative base and a fractional exponent, infinite on overflow or 0 ** -n."""
    try:
        return math.pow(base, exponent)
    except OverflowError:
        return math.inf if base > 0 or float(exponent).is_integer() and exponent % 2 == 0 else -math.inf
    except ValueError:
        if base == 0:
            return math.copysign(math.inf, base) if float(exponent).is_integer() and exponent % 2 == 1 \
                else math.inf
        return math.nan


def square_root(value: float) -> float:
    return math.sqrt(value) if value >= 0 else math.nan


def natural_log(value: float) -> float:
    if value > 0:
        return math.log(value)
    return -math.inf if value == 0 else math.nan


def log_base(base: float, value: float) -> float:
    """LOG(base, x): ln(x) / ln(base), as Flink computes it."""
    return natural_log(value) / natural_log(base)


def exponential(value: float) -> float:
    try:
        return math.exp(value)
    except OverflowError:
        return math.inf


def _java(function):
    """A math function of one double: NaN where Python's raises for an argument out of its domain."""
    def run(value):
        try:
            return function(value)
        except ValueError:
            return math.nan
    return run


TRIGONOMETRIC = {"SIN": _java(math.sin), "COS": _java(math.cos), "TAN": _java(math.tan), "ASIN": _java(math.asin),
                 "ACOS": _java(math.acos), "ATAN": math.atan, "DEGREES": math.degrees, "RADIANS": math.radians,
                 "COT": _java(lambda value: 1.0 / math.tan(value) if math.tan(value) else math.inf),
                 "SINH": _java(math.sinh), "COSH": _java(math.cosh), "TANH": math.tanh}

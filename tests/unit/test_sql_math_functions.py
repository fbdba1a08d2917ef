"""Flink SQL's numeric functions: Flink's result types, Java's rounding (half up, a DOUBLE as its shortest
decimal form) and Java's NaN / infinities where Python's math raises."""
import decimal
import math

from hypothesis import given, strategies as st

from pyflink_compat.table.sql import math_functions
from pyflink_compat.table.sql.catalog import SqlType
from pyflink_compat.table.sql.dialect import Flink
from pyflink_compat.table.sql.expressions import Compiler
from sqlglot import parse_one

DOUBLE, INT, DECIMAL = SqlType("DOUBLE"), SqlType("INT"), SqlType("DECIMAL", precision=10, scale=3)


def _compiled(expression: str, row=(), types=()):
    columns = {name: (position, column_type) for position, (name, column_type) in enumerate(types)}
    function, result_type = Compiler(columns).compile(parse_one("SELECT %s FROM t" % expression,
                                                                read=Flink).expressions[0])
    return function(tuple(row)), result_type.text()


def test_round_is_half_up_of_the_shortest_decimal_form_with_flinks_types():
    row, types = (2.5, 15, decimal.Decimal("-0.055")), [("d", DOUBLE), ("i", INT), ("m", DECIMAL)]
    assert _compiled("ROUND(d)", row, types) == (3.0, "DOUBLE")
    assert _compiled("ROUND(-d)", row, types) == (-3.0, "DOUBLE")
    assert _compiled("ROUND(d * 0.05, 2)", row, types) == (0.13, "DOUBLE")        # 0.125 -> 0.13
    assert _compiled("ROUND(i, -1)", row, types) == (20, "INT")
    assert _compiled("ROUND(-i - 10, -1)", row, types) == (-30, "INT")
    assert _compiled("ROUND(m, 1)", row, types) == (decimal.Decimal("-0.1"), "DECIMAL(9, 1)")
    assert _compiled("ROUND(m, -1)", row, types) == (decimal.Decimal("0"), "DECIMAL(8, 0)")
    assert _compiled("ROUND(m, 5)", row, types) == (decimal.Decimal("-0.055"), "DECIMAL(10, 3)")
    assert _compiled("TRUNCATE(m, 1)", row, types) == (decimal.Decimal("0.0"), "DECIMAL(9, 1)")
    assert _compiled("TRUNCATE(-d, 0)", row, types) == (-2.0, "DOUBLE")


def test_floor_ceil_and_sign_keep_the_type_a_decimal_losing_its_scale():
    row, types = (-2.5, decimal.Decimal("-0.055")), [("d", DOUBLE), ("m", DECIMAL)]
    assert _compiled("FLOOR(d)", row, types) == (-3.0, "DOUBLE")
    assert _compiled("CEIL(d)", row, types) == (-2.0, "DOUBLE")
    assert _compiled("FLOOR(m)", row, types) == (decimal.Decimal("-1"), "DECIMAL(10, 0)")
    assert _compiled("CEILING(m)", row, types) == (decimal.Decimal("0"), "DECIMAL(10, 0)")
    assert _compiled("SIGN(m)", row, types) == (decimal.Decimal("-1.000"), "DECIMAL(10, 3)")
    assert _compiled("SIGN(d)", row, types) == (-1.0, "DOUBLE")


def test_functions_of_doubles_give_javas_nan_and_infinities_and_null_for_null():
    row, types = (-3.75, 0.0, None), [("n", DOUBLE), ("z", DOUBLE), ("x", DOUBLE)]
    assert math.isnan(_compiled("POWER(n, 0.5)", row, types)[0])
    assert math.isnan(_compiled("SQRT(n)", row, types)[0])
    assert _compiled("LN(z)", row, types)[0] == -math.inf
    assert math.isnan(_compiled("LOG10(n)", row, types)[0])
    assert _compiled("POWER(z, -1)", row, types)[0] == math.inf
    assert _compiled("EXP(x)", row, types) == (None, "DOUBLE")
    assert _compiled("LOG(2, 0.125)", row, types) == (-3.0, "DOUBLE NOT NULL")
    assert _compiled("POWER(2, 10)", row, types) == (1024.0, "DOUBLE NOT NULL")


@given(st.integers(-10 ** 12, 10 ** 12), st.integers(-6, 0))
def test_round_of_an_integer_is_the_nearest_multiple_halves_away_from_zero(value, digits):
    step = 10 ** -digits
    rounded = math_functions.round_half_up(value, digits, INT)
    assert rounded % step == 0 and abs(rounded - value) * 2 <= step
    if abs(rounded - value) * 2 == step:
        assert abs(rounded) > abs(value)


@given(st.floats(-1e9, 1e9, allow_nan=False), st.integers(0, 6))
def test_round_of_a_double_is_within_half_a_unit_of_its_decimal_form(value, digits):
    rounded = math_functions.round_half_up(value, digits, DOUBLE)
    exact = decimal.Decimal(repr(value))
    assert abs(decimal.Decimal(repr(rounded)) - exact) <= decimal.Decimal(5).scaleb(-digits - 1) + \
        decimal.Decimal(repr(abs(rounded))) * decimal.Decimal("1e-15")

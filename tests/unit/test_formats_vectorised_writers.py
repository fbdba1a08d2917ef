"""Vectorised JSON / CSV row writers (``_serialize_arrow``): for every supported type the whole-column text
must equal the per-record ``serialize()`` of each element, byte for byte; unsupported types give None."""
import decimal
import struct

import numpy
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pyflink_compat.common import Row, Types
from pyflink_compat.datastream.formats.csv import CsvRowSerializationSchema
from pyflink_compat.datastream.formats.json import JsonRowSerializationSchema
from pyflink_compat import codec

EDGE_DOUBLES = [0.0, -0.0, 1.0, -1.0, 100.0, 0.1, 1e7, -1e7, 9999999.999, 9999999.0, 1e-3, -1e-3, 0.00099,
                0.0009999999999999998, 1e-7, 1.234e-7, 1e16, 1e21, 1e22, 123456789.0, 12345678.9,
                1.7976931348623157e308, -1.7976931348623157e308, 5e-324, -5e-324, 2.2250738585072014e-308,
                2.225073858507201e-308, 2.0 ** 87, 2.0 ** -96, 1.5e300, float("nan"), float("inf"),
                float("-inf")]
EDGE_FLOATS = [0.0, -0.0, 1.0, 0.1, 1e7, 9999999.0, 1e-3, 0.00099, 1e-7, 123456789.0, 16777217.0,
               3.4028234663852886e+38, 1.401298464324817e-45, 1.1754943508222875e-38, 2.0 ** 87, 2.0 ** 90,
               2.0 ** -96, -2.0 ** -149, float("nan"), float("inf"), float("-inf")]
EDGE_FLOATS = [float(numpy.float32(x)) for x in EDGE_FLOATS]

TRICKY_CHARS = '"\\\'\n\r\t\b\f\x00\x01\x1f\x7f,;|:-# é€😀\u2028'
texts = st.one_of(st.text(max_size=12),
                  st.text(alphabet=st.sampled_from(TRICKY_CHARS + "ab1"), max_size=12),
                  st.sampled_from(["", " ", "NULL", "null", "a,b", 'say "hi"', "back\\slash", "line\nbreak"]))

doubles = st.one_of(st.floats(), st.sampled_from(EDGE_DOUBLES),
                    st.floats(min_value=1e-4, max_value=1e8), st.integers(-10 ** 9, 10 ** 9).map(float))
floats32 = st.one_of(st.floats(width=32), st.sampled_from(EDGE_FLOATS),
                     st.floats(min_value=0.0001220703125, max_value=2.0 ** 27, width=32))
decimals = st.one_of(
    st.decimals(allow_nan=False, allow_infinity=False),
    st.decimals(allow_nan=False, allow_infinity=False, places=3),
    st.sampled_from(["0", "-0", "1.50", "0.000001", "0.0000001", "0.0000010", "1E+3", "1E-7", "-0.00",
                     "123456789012345678901234567890", "0E-8", "12.3E+7"]).map(decimal.Decimal))


def scalar_types(csv=False):
    """(type, strategy of its values) for the scalar types the writers vectorise."""
    types = [
        (Types.STRING(), texts), (Types.BOOLEAN(), st.booleans()),
        (Types.BYTE(), st.integers(-128, 127)), (Types.SHORT(), st.integers(-2 ** 15, 2 ** 15 - 1)),
        (Types.INT(), st.integers(-2 ** 31, 2 ** 31 - 1)), (Types.LONG(), st.integers(-2 ** 63, 2 ** 63 - 1)),
        (Types.DOUBLE(), doubles), (Types.FLOAT(), floats32), (Types.BIG_DEC(), decimals),
        (Types.BIG_INT(), st.integers(-10 ** 38 + 1, 10 ** 38 - 1)), (Types.SQL_DATE(), st.dates()),
        (Types.SQL_TIME(), st.times()),
    ]
    if not csv:
        types.append((Types.CHAR(), st.characters(codec="utf-8")))
    return types


FIELD_NAMES = ["id", "name", 'q"uote', "back\\slash", "é", "ctl\x01", "a b", "x"]


@st.composite
def row_type_and_values(draw, csv=False, nested=True, max_fields=6):
    """A ROW_NAMED type mixing scalar types (and nested rows of them) and a list of its values."""
    scalars = scalar_types(csv)
    count = draw(st.integers(1, max_fields))
    types, strategies = [], []
    for _ in range(count):
        if nested and draw(st.integers(0, 5)) == 0:
            inner = draw(st.lists(st.sampled_from(scalars), min_size=1, max_size=3))
            inner_type = Types.ROW_NAMED(["f%d" % i for i in range(len(inner))], [t for t, _ in inner])
            inner_values = st.tuples(*[st.one_of(st.none(), s) for _, s in inner]).map(
                lambda vs, names=inner_type.get_field_names(): _named_row(names, vs))
            types.append(inner_type)
            strategies.append(inner_values)
        else:
            t, s = draw(st.sampled_from(scalars))
            types.append(t)
            strategies.append(s)
    names = ["%s%d" % (draw(st.sampled_from(FIELD_NAMES)), i) for i in range(count)]
    row_type = Types.ROW_NAMED(names, types)
    row = st.tuples(*[st.one_of(st.none(), s) for s in strategies]).map(lambda vs: _named_row(names, vs))
    values = draw(st.lists(st.one_of(st.none(), row) if not csv else row, min_size=0, max_size=25))
    return row_type, values


def _named_row(names, values):
    row = Row(*values)
    row.set_field_names(names)
    return row


def assert_same(schema, type_info, values):
    array = codec.from_python(values, type_info)
    expected = [schema.serialize(v) for v in codec.to_python(array, type_info)]
    result = schema._serialize_arrow(array)
    assert result is not None, "not vectorised: %r" % (type_info,)
    assert result.type == pa.binary()
    assert result.to_pylist() == expected
    if len(array) > 2:                                # a slice (non-zero offset) gives the same texts
        assert schema._serialize_arrow(array.slice(1)).to_pylist() == expected[1:]


def json_schema(type_info):
    return JsonRowSerializationSchema.builder().with_type_info(type_info).build()


CSV_OPTIONS = [
    {},
    {"field_delimiter": ";"},
    {"field_delimiter": "\t", "null_literal": "NULL"},
    {"field_delimiter": "|", "array_element_delimiter": "::"},
    {"quote_character": "'", "escape_character": "\\"},
    {"escape_character": "#", "null_literal": "n/a"},
    {"escape_character": '"'},
    {"disable_quote": True, "line_delimiter": ""},
    {"line_delimiter": "\r\n", "array_element_delimiter": ","},
    {"line_delimiter": "\r", "field_delimiter": "é", "quote_character": "~"},
]


def csv_schema(type_info, options):
    builder = CsvRowSerializationSchema.Builder(type_info)
    for key, value in options.items():
        if key == "disable_quote":
            builder = builder.disable_quote_character()
        else:
            builder = getattr(builder, "set_" + key)(value)
    return builder.build()


# -- JSON -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("type_info,strategy", scalar_types(), ids=lambda x: repr(x)[:20])
@settings(max_examples=60)
@given(data=st.data())
def test_json_scalar_field(type_info, strategy, data):
    values = data.draw(st.lists(st.one_of(st.none(), strategy), max_size=30))
    row_type = Types.ROW_NAMED(["v"], [type_info])
    assert_same(json_schema(row_type), row_type, [None if v is None else _named_row(["v"], [v])
                                                 for v in values])
    assert_same(json_schema(type_info), type_info, values)         # a top-level scalar


@settings(max_examples=200)
@given(row_type_and_values())
def test_json_rows(case):
    row_type, values = case
    assert_same(json_schema(row_type), row_type, values)


@settings(max_examples=40)
@given(row_type_and_values(max_fields=3))
def test_json_doubly_nested_rows(case):
    inner_type, inner_values = case
    row_type = Types.ROW_NAMED(["outer", "n"], [inner_type, Types.INT()])
    values = [_named_row(["outer", "n"], [v, i]) for i, v in enumerate(inner_values)] + [None]
    assert_same(json_schema(row_type), row_type, values)


def test_json_layout():
    row_type = Types.ROW_NAMED(["a", "b", "c", "d"], [Types.INT(), Types.STRING(), Types.DOUBLE(), Types.FLOAT()])
    array = codec.from_python([Row(a=1, b="x", c=None, d=float("nan")), None,
                               Row(a=None, b='"\\\x01', c=-0.0, d=1e7)], row_type)
    assert json_schema(row_type)._serialize_arrow(array).to_pylist() == [
        b'{"a":1,"b":"x","c":null,"d":"NaN"}', b'{}', b'{"a":null,"b":"\\"\\\\\\u0001","c":-0.0,"d":1.0E7}']


def test_json_random_bit_patterns():
    """Doubles and floats from random bit patterns (subnormals, huge, tiny), in bulk."""
    rng = numpy.random.default_rng(7)
    doubles_ = rng.integers(0, 2 ** 63, 20000, dtype=numpy.uint64).view(numpy.float64).tolist()
    doubles_ += [-d for d in doubles_[:5000]]
    bits = rng.integers(0, 2 ** 32, 20000, dtype=numpy.uint64).astype(numpy.uint32)
    powers = [struct.unpack("I", struct.pack("f", 2.0 ** k))[0] for k in range(-149, 128)]
    bits = numpy.concatenate([bits, numpy.array(powers, numpy.uint32)])
    floats_ = bits.view(numpy.float32).astype(numpy.float64).tolist()
    row_type = Types.ROW_NAMED(["d"], [Types.DOUBLE()])
    assert_same(json_schema(row_type), row_type, [Row(d=v) for v in doubles_])
    row_type = Types.ROW_NAMED(["f"], [Types.FLOAT()])
    assert_same(json_schema(row_type), row_type, [Row(f=v) for v in floats_])


def test_json_chunked_and_empty():
    row_type = Types.ROW_NAMED(["a", "b"], [Types.LONG(), Types.STRING()])
    schema = json_schema(row_type)
    array = codec.from_python([Row(a=1, b="x"), Row(a=2, b=None)], row_type)
    chunked = pa.chunked_array([array.slice(0, 1), array.slice(1)])
    assert schema._serialize_arrow(chunked).to_pylist() == [b'{"a":1,"b":"x"}', b'{"a":2,"b":null}']
    assert schema._serialize_arrow(array.slice(0, 0)).to_pylist() == []


@pytest.mark.parametrize("type_info", [
    Types.SQL_TIMESTAMP(), Types.INSTANT(), Types.PRIMITIVE_ARRAY(Types.BYTE()), Types.LIST(Types.INT()),
    Types.BASIC_ARRAY(Types.STRING()), Types.MAP(Types.STRING(), Types.INT()),
    Types.ROW_NAMED(["a", "t"], [Types.INT(), Types.SQL_TIMESTAMP()]),
    Types.ROW_NAMED(["a", "r"], [Types.INT(), Types.ROW_NAMED(["l"], [Types.LIST(Types.INT())])]),
], ids=repr)
def test_json_unsupported_types_give_none(type_info):
    array = pa.array([None], codec.arrow_type(type_info))
    assert json_schema(type_info)._serialize_arrow(array) is None


def test_json_mismatched_arrow_type_gives_none():
    row_type = Types.ROW_NAMED(["a"], [Types.LONG()])
    array = pa.array([{"a": 1}], pa.struct([("a", pa.int32())]))
    assert json_schema(row_type)._serialize_arrow(array) is None


# -- CSV ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("options", CSV_OPTIONS, ids=repr)
@settings(max_examples=40)
@given(case=row_type_and_values(csv=True))
def test_csv_rows(options, case):
    row_type, values = case
    assert_same(csv_schema(row_type, options), row_type, values)


@pytest.mark.parametrize("type_info,strategy", scalar_types(csv=True), ids=lambda x: repr(x)[:20])
@settings(max_examples=40)
@given(data=st.data())
def test_csv_scalar_field(type_info, strategy, data):
    options = data.draw(st.sampled_from(CSV_OPTIONS))
    values = data.draw(st.lists(st.one_of(st.none(), strategy), max_size=30))
    row_type = Types.ROW_NAMED(["v", "w"], [type_info, Types.ROW_NAMED(["x", "y"], [type_info, Types.INT()])])
    rows = [_named_row(["v", "w"], [v, None if i % 3 == 0 else _named_row(["x", "y"], [v, i])])
            for i, v in enumerate(values)]
    assert_same(csv_schema(row_type, options), row_type, rows)


def test_csv_random_bit_patterns():
    rng = numpy.random.default_rng(11)
    doubles_ = rng.integers(0, 2 ** 64, 20000, dtype=numpy.uint64).view(numpy.float64).tolist()
    bits = rng.integers(0, 2 ** 32, 20000, dtype=numpy.uint64).astype(numpy.uint32)
    powers = [struct.unpack("I", struct.pack("f", 2.0 ** k))[0] for k in range(-149, 128)]
    floats_ = numpy.concatenate([bits, numpy.array(powers, numpy.uint32)]).view(numpy.float32)
    floats_ = floats_.astype(numpy.float64).tolist()
    row_type = Types.ROW_NAMED(["d", "f"], [Types.DOUBLE(), Types.FLOAT()])
    rows = [Row(d=d, f=f) for d, f in zip(doubles_, floats_)]
    assert_same(csv_schema(row_type, {}), row_type, rows)


def test_csv_layout():
    row_type = Types.ROW_NAMED(["a", "b", "c", "d"], [Types.INT(), Types.STRING(), Types.DOUBLE(),
                                                      Types.ROW_NAMED(["x", "y"], [Types.STRING(), Types.INT()])])
    array = codec.from_python([Row(a=1, b="x y", c=None, d=Row(x="p", y=2)),
                               Row(a=None, b='say "hi"', c=1e7, d=None)], row_type)
    assert csv_schema(row_type, {})._serialize_arrow(array).to_pylist() == [
        b'1,"x y",,p;2\n', b',"say ""hi""",1.0E7,\n']


def test_csv_null_row_gives_none():
    row_type = Types.ROW_NAMED(["a"], [Types.INT()])
    array = codec.from_python([Row(a=1), None], row_type)
    assert csv_schema(row_type, {})._serialize_arrow(array) is None


@pytest.mark.parametrize("type_info", [
    Types.ROW_NAMED(["a", "t"], [Types.INT(), Types.SQL_TIMESTAMP()]),
    Types.ROW_NAMED(["a", "b"], [Types.INT(), Types.PRIMITIVE_ARRAY(Types.BYTE())]),
    Types.ROW_NAMED(["a", "l"], [Types.INT(), Types.BASIC_ARRAY(Types.STRING())]),
    Types.ROW_NAMED(["a", "r"], [Types.INT(), Types.ROW_NAMED(["t"], [Types.SQL_TIMESTAMP()])]),
], ids=repr)
def test_csv_unsupported_types_give_none(type_info):
    array = pa.array([{name: None for name in type_info.get_field_names()}], codec.arrow_type(type_info))
    assert csv_schema(type_info, {})._serialize_arrow(array) is None


def test_big_dec_non_canonical_texts():
    """BIG_DEC values are stored as text: texts not in BigDecimal.toString() form are formatted per value."""
    row_type = Types.ROW_NAMED(["v"], [Types.BIG_DEC()])
    values = ["1.50", "+1", "001.0", "1e3", "-0.0000001", " 2", "0.1000"]
    array = pa.array([{"v": v} for v in values], codec.arrow_type(row_type))
    expected = [json_schema(row_type).serialize(r) for r in codec.to_python(array, row_type)]
    assert json_schema(row_type)._serialize_arrow(array).to_pylist() == expected
    expected = [csv_schema(row_type, {}).serialize(r) for r in codec.to_python(array, row_type)]
    assert csv_schema(row_type, {})._serialize_arrow(array).to_pylist() == expected


def test_spark_flavoured_arrow_types_are_cast():
    """Large strings and not-nullable fields (as Spark may hand them over) are vectorised too."""
    row_type = Types.ROW_NAMED(["a", "b"], [Types.LONG(), Types.STRING()])
    spark_type = pa.struct([pa.field("a", pa.int64(), nullable=False), pa.field("b", pa.large_string())])
    array = pa.array([{"a": 1, "b": "x,y"}, {"a": 2, "b": None}], spark_type)
    assert json_schema(row_type)._serialize_arrow(array).to_pylist() == [b'{"a":1,"b":"x,y"}',
                                                                         b'{"a":2,"b":null}']
    assert csv_schema(row_type, {})._serialize_arrow(array).to_pylist() == [b'1,"x,y"\n', b'2,\n']

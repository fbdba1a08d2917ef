"""Type infos: reprs, value equality, pickling and the Python <-> internal conversions."""
import datetime
import pickle
import time

import pytest
from hypothesis import assume, given, strategies as st

from pyflink_compat.common import Instant, Row, RowKind, Types
from pyflink_compat.common.typeinfo import (BasicType, BasicTypeInfo, DateTypeInfo, ExternalTypeInfo,
                                            InstantTypeInfo, LocalTimeTypeInfo, SqlTimeTypeInfo, TimestampTypeInfo,
                                            TimeTypeInfo, TupleTypeInfo, TypeInformation)
from pyflink_compat.util.exceptions import UnsupportedFeatureError


@pytest.mark.parametrize("type_info, text", [
    (Types.STRING(), "String"), (Types.BYTE(), "Byte"), (Types.BOOLEAN(), "Boolean"),
    (Types.SHORT(), "Short"), (Types.INT(), "Integer"), (Types.LONG(), "Long"), (Types.FLOAT(), "Float"),
    (Types.DOUBLE(), "Double"), (Types.CHAR(), "Char"), (Types.BIG_INT(), "BigInteger"),
    (Types.BIG_DEC(), "BigDecimal"), (Types.INSTANT(), "Instant"),
    (Types.SQL_DATE(), "DateTypeInfo"), (Types.SQL_TIME(), "TimeTypeInfo"),
    (Types.SQL_TIMESTAMP(), "TimestampTypeInfo"), (Types.PICKLED_BYTE_ARRAY(), "PickledByteArrayTypeInfo"),
    (Types.ROW([Types.STRING()]), "RowTypeInfo(String)"),
    (Types.ROW_NAMED(['a', 'b'], [Types.STRING(), Types.INT()]), "RowTypeInfo(a: String, b: Integer)"),
    (Types.TUPLE([Types.INT(), Types.LONG()]), "TupleTypeInfo(Integer, Long)"),
    (Types.LIST(Types.INT()), "ListTypeInfo<Integer>"),
    (Types.MAP(Types.STRING(), Types.INT()), "MapTypeInfo<String, Integer>"),
    (Types.PRIMITIVE_ARRAY(Types.BYTE()), "PrimitiveArrayTypeInfo<Byte>"),
    (Types.BASIC_ARRAY(Types.STRING()), "BasicArrayTypeInfo<String>"),
    (Types.OBJECT_ARRAY(Types.ROW([Types.INT()])), "ObjectArrayTypeInfo<RowTypeInfo(Integer)>"),
    (LocalTimeTypeInfo(LocalTimeTypeInfo.TimeType.LOCAL_DATE_TIME), "LocalTimeTypeInfo<LOCAL_DATE_TIME>"),
    (ExternalTypeInfo(Types.INT()), "ExternalTypeInfo<Integer>"),
    (Types.ROW_NAMED(['r'], [Types.ROW_NAMED(['x'], [Types.LIST(Types.DOUBLE())])]),
     "RowTypeInfo(r: RowTypeInfo(x: ListTypeInfo<Double>))"),
])
def test_repr(type_info, text):
    assert repr(type_info) == text
    assert str(type_info) == text


def _all_type_infos():
    return [
        Types.STRING(), Types.BYTE(), Types.BOOLEAN(), Types.SHORT(), Types.INT(), Types.LONG(), Types.FLOAT(),
        Types.DOUBLE(), Types.CHAR(), Types.BIG_INT(), Types.BIG_DEC(), Types.INSTANT(), Types.SQL_DATE(),
        Types.SQL_TIME(), Types.SQL_TIMESTAMP(), Types.PICKLED_BYTE_ARRAY(),
        Types.ROW([Types.STRING(), Types.INT()]), Types.ROW_NAMED(['a'], [Types.SQL_DATE()]),
        Types.TUPLE([Types.INT(), Types.STRING()]), Types.PRIMITIVE_ARRAY(Types.INT()),
        Types.BASIC_ARRAY(Types.INT()), Types.OBJECT_ARRAY(Types.STRING()), Types.MAP(Types.STRING(), Types.LONG()),
        Types.LIST(Types.ROW([Types.INT()])), LocalTimeTypeInfo(LocalTimeTypeInfo.TimeType.LOCAL_TIME),
        ExternalTypeInfo(Types.STRING()),
    ]


@pytest.mark.parametrize("type_info", _all_type_infos(), ids=repr)
def test_value_equality_hash_and_pickling(type_info):
    same = [t for t in _all_type_infos() if repr(t) == repr(type_info)][0]
    assert same is not type_info
    assert same == type_info
    assert hash(same) == hash(type_info)
    restored = pickle.loads(pickle.dumps(type_info))
    assert restored == type_info
    assert repr(restored) == repr(type_info)


def test_distinct_type_infos_are_not_equal():
    infos = _all_type_infos()
    for i, left in enumerate(infos):
        for right in infos[i + 1:]:
            assert left != right, (left, right)


def test_type_infos_are_not_equal_to_other_objects():
    for type_info in _all_type_infos():
        assert type_info != "String"
        assert type_info != None  # noqa: E711


def test_row_type_info_equality_ignores_names():
    assert Types.ROW_NAMED(['a'], [Types.STRING()]) == Types.ROW_NAMED(['b'], [Types.STRING()])
    assert Types.ROW_NAMED(['a'], [Types.STRING()]) == Types.ROW([Types.STRING()])
    assert hash(Types.ROW_NAMED(['a'], [Types.STRING()])) == hash(Types.ROW([Types.STRING()]))
    assert Types.ROW([Types.STRING()]) != Types.ROW([Types.INT()])


def test_array_kinds_differ():
    assert Types.PRIMITIVE_ARRAY(Types.INT()) != Types.BASIC_ARRAY(Types.INT())
    assert Types.BASIC_ARRAY(Types.INT()) != Types.OBJECT_ARRAY(Types.INT())
    assert Types.LIST(Types.INT()) != Types.BASIC_ARRAY(Types.INT())


def test_type_infos_work_as_dict_keys():
    by_type = {Types.STRING(): "s", Types.ROW([Types.INT()]): "r"}
    assert by_type[Types.STRING()] == "s"
    assert by_type[Types.ROW_NAMED(['x'], [Types.INT()])] == "r"


def test_factory_classes():
    assert isinstance(Types.INSTANT(), InstantTypeInfo)
    assert BasicTypeInfo.INSTANT_TYPE_INFO() == BasicTypeInfo(BasicType.INSTANT)
    assert isinstance(Types.STRING(), BasicTypeInfo)
    assert SqlTimeTypeInfo.DATE() == Types.SQL_DATE() == DateTypeInfo()
    assert SqlTimeTypeInfo.TIME() == TimeTypeInfo()
    assert SqlTimeTypeInfo.TIMESTAMP() == TimestampTypeInfo()
    assert Types.LIST(Types.INT()).elem_type == Types.INT()
    assert isinstance(Types.TUPLE([]), TupleTypeInfo)
    assert isinstance(Types.ROW([]), TypeInformation)


def test_get_java_type_info_is_unsupported():
    with pytest.raises(UnsupportedFeatureError, match="TypeInformation.get_java_type_info"):
        Types.STRING().get_java_type_info()
    with pytest.raises(UnsupportedFeatureError):
        Types.ROW([Types.INT()]).get_java_type_info()


# -- RowTypeInfo fields ---------------------------------------------------------------------------

def test_row_named_takes_names_first():
    row_type = Types.ROW_NAMED(['name', 'age'], [Types.STRING(), Types.INT()])
    assert row_type.get_field_names() == ['name', 'age']
    assert row_type.get_field_types() == [Types.STRING(), Types.INT()]
    assert row_type.get_field_index('age') == 1


def test_unnamed_row_fields_default_to_f0_f1():
    row_type = Types.ROW([Types.STRING(), Types.INT()])
    assert row_type.get_field_names() == ['f0', 'f1']
    assert repr(row_type) == "RowTypeInfo(String, Integer)"
    assert row_type.get_field_index('f0') == -1


def test_get_field_index_of_unknown_name_raises():
    with pytest.raises(ValueError):
        Types.ROW_NAMED(['a'], [Types.INT()]).get_field_index('b')


# -- conversions ----------------------------------------------------------------------------------

class _Person(object):
    def __init__(self, name, age):
        self.name = name
        self.age = age


@pytest.mark.parametrize("obj", [
    {'name': 'Alice', 'age': 11},
    Row(age=11, name='Alice'),
    Row('Alice', 11),
    ('Alice', 11),
    ['Alice', 11],
    _Person('Alice', 11),
], ids=type)
def test_row_to_internal_type_accepts_dicts_rows_sequences_and_objects(obj):
    row_type = Types.ROW_NAMED(['name', 'age'], [Types.STRING(), Types.INT()])
    assert row_type.to_internal_type(obj) == (0, 'Alice', 11)


def test_row_to_internal_type_keeps_the_row_kind():
    row_type = Types.ROW([Types.INT()])
    assert row_type.to_internal_type(Row.of_kind(RowKind.DELETE, 1)) == (3, 1)


def test_row_to_internal_type_fills_missing_dict_keys_with_none():
    row_type = Types.ROW_NAMED(['a', 'b'], [Types.INT(), Types.INT()])
    assert row_type.to_internal_type({'a': 1}) == (0, 1, None)


def test_named_row_missing_a_field_raises():
    row_type = Types.ROW_NAMED(['a', 'b'], [Types.INT(), Types.INT()])
    with pytest.raises(ValueError):
        row_type.to_internal_type(Row(a=1))


def test_row_to_internal_type_rejects_other_objects():
    with pytest.raises(ValueError, match="^Unexpected tuple 5 with RowTypeInfo$"):
        Types.ROW([Types.INT()]).to_internal_type(5)


def test_row_from_internal_type_gives_named_row_with_kind():
    row = Types.ROW([Types.STRING(), Types.INT()]).from_internal_type((2, 'a', 1))
    assert row == Row.of_kind(RowKind.UPDATE_AFTER, f0='a', f1=1)
    assert repr(row) == "Row(f0='a', f1=1)"


def test_row_conversion_of_none():
    assert Types.ROW([Types.INT()]).to_internal_type(None) is None
    assert Types.ROW([Types.INT()]).from_internal_type(None) is None


def test_row_converts_nested_fields():
    row_type = Types.ROW_NAMED(['day', 'inner'], [Types.SQL_DATE(), Types.ROW([Types.SQL_DATE()])])
    value = Row(day=datetime.date(1970, 1, 11), inner=Row(datetime.date(1970, 1, 2)))
    internal = row_type.to_internal_type(value)
    assert internal == (0, 10, (0, 1))
    assert row_type.from_internal_type(internal) == Row(day=datetime.date(1970, 1, 11),
                                                        inner=Row(f0=datetime.date(1970, 1, 2)))


def test_tuple_conversions():
    tuple_type = Types.TUPLE([Types.INT(), Types.SQL_DATE()])
    assert tuple_type.to_internal_type([1, datetime.date(1970, 1, 3)]) == (1, 2)
    assert tuple_type.to_internal_type(Row(1, None)) == (1, None)
    assert tuple_type.from_internal_type((1, 2)) == (1, datetime.date(1970, 1, 3))
    assert tuple_type.to_internal_type(None) is None
    with pytest.raises(ValueError, match="^Unexpected tuple 'ab' with TupleTypeInfo$"):
        tuple_type.to_internal_type('ab')


def test_basic_types_need_no_conversion():
    assert not Types.STRING().need_conversion()
    assert Types.STRING().to_internal_type('x') == 'x'
    assert Types.LIST(Types.INT()).from_internal_type([1]) == [1]
    assert Types.ROW([]).need_conversion()


@given(st.dates())
def test_date_round_trip(day):
    date_type = Types.SQL_DATE()
    assert date_type.from_internal_type(date_type.to_internal_type(day)) == day


def test_date_internal_value_is_days_since_epoch():
    assert Types.SQL_DATE().to_internal_type(datetime.date(1970, 1, 2)) == 1
    assert Types.SQL_DATE().to_internal_type(datetime.date(1969, 12, 31)) == -1


@given(st.times())
def test_time_round_trip(moment):
    time_type = Types.SQL_TIME()
    assert time_type.from_internal_type(time_type.to_internal_type(moment)) == moment


@given(st.datetimes(min_value=datetime.datetime(1971, 1, 1), max_value=datetime.datetime(2100, 1, 1)))
def test_timestamp_round_trip(moment):
    # Naive timestamps are local time: skip the ones a daylight-saving change makes ambiguous.
    local_seconds = time.mktime(moment.timetuple())
    assume(datetime.datetime.fromtimestamp(local_seconds) == moment.replace(microsecond=0))
    timestamp_type = Types.SQL_TIMESTAMP()
    assert timestamp_type.from_internal_type(timestamp_type.to_internal_type(moment)) == moment


def test_timestamp_with_time_zone_is_epoch_micros():
    moment = datetime.datetime(1970, 1, 1, 0, 0, 1, 5, tzinfo=datetime.timezone.utc)
    assert Types.SQL_TIMESTAMP().to_internal_type(moment) == 1_000_005


def test_instant_conversion_is_epoch_micros_with_milli_precision():
    instant_type = Types.INSTANT()
    assert instant_type.to_internal_type(Instant(1, 2_000_000)) == 1_002_000
    assert instant_type.from_internal_type(1_002_999) == Instant(1, 2_000_000)
    assert instant_type.to_internal_type(None) is None

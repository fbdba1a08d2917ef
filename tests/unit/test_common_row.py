"""Row and RowKind: PyFlink's pure-Python semantics, reprs, errors, pickling and print format."""
import copy
import datetime
import decimal
import pickle

import pytest
from hypothesis import given, strategies as st

from pyflink_compat.common import Instant, Row, RowKind
from pyflink_compat.util.exceptions import UnsupportedFeatureError


# -- RowKind ------------------------------------------------------------------------------------

@pytest.mark.parametrize("kind, value, short", [
    (RowKind.INSERT, 0, "+I"), (RowKind.UPDATE_BEFORE, 1, "-U"),
    (RowKind.UPDATE_AFTER, 2, "+U"), (RowKind.DELETE, 3, "-D"),
])
def test_row_kind_values_and_short_strings(kind, value, short):
    assert kind.value == value
    assert str(kind) == short


def test_row_kind_has_four_members_and_no_java_conversion():
    assert len(RowKind) == 4
    with pytest.raises(UnsupportedFeatureError, match="RowKind.to_j_row_kind"):
        RowKind.INSERT.to_j_row_kind()


# -- construction and repr ---------------------------------------------------------------------

def test_named_row_keeps_keyword_order_in_repr_and_fields():
    row = Row(name='Alice', age=11)
    assert repr(row) == "Row(name='Alice', age=11)"
    assert str(row) == "Row(name='Alice', age=11)"
    assert row.as_dict() == {'name': 'Alice', 'age': 11}
    assert list(row.as_dict()) == ['name', 'age']
    assert list(row) == ['Alice', 11]


def test_positional_row_repr():
    assert repr(Row('a', 1)) == "<Row('a', 1)>"


def test_row_without_fields_is_positional():
    assert repr(Row()) == "<Row()>"
    assert repr(Row(**{})) == "<Row()>"


def test_args_and_kwargs_together_raise():
    with pytest.raises(ValueError, match="^Can not use both args and kwargs to create Row$"):
        Row(1, name='Alice')


def test_new_rows_are_inserts():
    assert Row(1).get_row_kind() is RowKind.INSERT
    assert Row(a=1).get_row_kind() is RowKind.INSERT


def test_row_class_creates_named_rows():
    person = Row("name", "age")
    assert repr(person) == "<Row('name', 'age')>"
    alice = person("Alice", 11)
    assert repr(alice) == "Row(name='Alice', age=11)"
    assert alice == Row(name='Alice', age=11)
    assert alice.name == 'Alice'


def test_row_class_passes_its_row_kind_on():
    person = Row.of_kind(RowKind.DELETE, "name")
    assert person("Bob").get_row_kind() is RowKind.DELETE


def test_row_class_rejects_too_many_values():
    person = Row("name", "age")
    with pytest.raises(ValueError) as error:
        person("Alice", 11, "extra")
    assert str(error.value) == ("Can not create Row with fields <Row('name', 'age')>, "
                                "expected 2 values but got ('Alice', 11, 'extra')")


def test_row_class_accepts_fewer_values():
    assert list(Row("name", "age")("Alice")) == ["Alice"]


# -- as_dict ------------------------------------------------------------------------------------

def test_as_dict_of_positional_row_raises():
    with pytest.raises(TypeError, match="^Cannot convert a Row class into dict$"):
        Row(1, 2).as_dict()


def test_as_dict_recursive_converts_nested_rows_in_lists_and_dicts():
    row = Row(key=1, value=Row(name='a', age=2), items=[Row(x=1)], mapping={'k': Row(y=2)})
    assert row.as_dict() == {'key': 1, 'value': Row(name='a', age=2), 'items': [Row(x=1)],
                             'mapping': {'k': Row(y=2)}}
    assert row.as_dict(True) == {'key': 1, 'value': {'name': 'a', 'age': 2}, 'items': [{'x': 1}],
                                 'mapping': {'k': {'y': 2}}}


# -- kinds, names -------------------------------------------------------------------------------

def test_set_and_get_row_kind():
    row = Row(1)
    row.set_row_kind(RowKind.UPDATE_BEFORE)
    assert row.get_row_kind() is RowKind.UPDATE_BEFORE


def test_of_kind_with_args_and_kwargs():
    assert Row.of_kind(RowKind.DELETE, 1, 2).get_row_kind() is RowKind.DELETE
    named = Row.of_kind(RowKind.UPDATE_AFTER, a=1)
    assert named.get_row_kind() is RowKind.UPDATE_AFTER
    assert named.as_dict() == {'a': 1}


def test_set_field_names_turns_a_positional_row_into_a_named_one():
    row = Row('Alice', 11)
    row.set_field_names(['name', 'age'])
    assert repr(row) == "Row(name='Alice', age=11)"
    assert row['age'] == 11


def test_get_fields_by_names():
    row = Row(a=1, b=2, c=3)
    assert row.get_fields_by_names(['a', 'b', 'c']) == [1, 2, 3]
    assert row.get_fields_by_names(['c', 'a']) == [3, 1]
    assert Row(1, 2).get_fields_by_names(['x']) == [1, 2]


def test_get_fields_by_names_with_unknown_name_raises():
    with pytest.raises(Exception) as error:
        Row(a=1).get_fields_by_names(['a', 'zz'])
    assert str(error.value) == "Field names ['zz'] not exist in ['a']."


# -- access -------------------------------------------------------------------------------------

def test_contains_looks_at_names_of_named_rows_and_values_of_positional_rows():
    assert 'name' in Row(name='Alice')
    assert 'Alice' not in Row(name='Alice')
    assert 'name' in Row('name', 'age')
    assert 'wrong_key' not in Row('name', 'age')


def test_getitem_by_position_slice_and_name():
    row = Row(a=1, b=2, c=3)
    assert row[0] == 1
    assert row[-1] == 3
    assert row[1:] == [2, 3]
    assert row['b'] == 2


def test_getitem_with_unknown_name_raises_value_error():
    with pytest.raises(ValueError, match="^zz$"):
        Row(a=1)['zz']


def test_getitem_by_name_on_positional_row_raises_attribute_error():
    with pytest.raises(AttributeError):
        Row(1)['a']


def test_getitem_out_of_range_raises_index_error():
    with pytest.raises(IndexError):
        Row(1)[5]


def test_setitem_by_position_and_name():
    row = Row(a=1, b=2)
    row[0] = 10
    row['b'] = 20
    assert row == Row(a=10, b=20)


def test_setitem_errors():
    with pytest.raises(ValueError, match="^99$"):
        Row(a=1)['zz'] = 99
    with pytest.raises(KeyError):
        Row(1)['a'] = 2


def test_fields_read_as_attributes():
    row = Row(name='Alice', age=11)
    assert (row.name, row.age) == ('Alice', 11)
    with pytest.raises(AttributeError, match="^missing$"):
        row.missing
    with pytest.raises(AttributeError):
        Row(1).name
    with pytest.raises(AttributeError, match="^_private$"):
        row._private


def test_only_the_internal_attributes_can_be_set():
    row = Row(name='Alice')
    with pytest.raises(AttributeError, match="^name$"):
        row.name = 'Bob'
    with pytest.raises(AttributeError, match="^other$"):
        row.other = 1
    row._values = ['Bob']
    assert row.name == 'Bob'


def test_iter_and_len():
    row = Row(1, 'a', None)
    assert list(row) == [1, 'a', None]
    assert len(row) == 3


# -- equality and hashing -----------------------------------------------------------------------

def test_named_equality_ignores_field_order():
    assert Row(a=1, b=2) == Row(b=2, a=1)
    assert Row(a=1, b=2) != Row(a=2, b=1)
    assert Row(a=1) != Row(b=1)


def test_equality_compares_row_kind():
    assert Row(1, 2) != Row.of_kind(RowKind.DELETE, 1, 2)
    assert Row.of_kind(RowKind.DELETE, a=1) == Row.of_kind(RowKind.DELETE, a=1)


def test_named_and_positional_rows_are_never_equal():
    assert Row(a=1) != Row(1)
    assert Row(1) != Row(a=1)


def test_rows_are_not_equal_to_tuples_or_lists():
    assert Row(1, 2) != (1, 2)
    assert Row(1, 2) != [1, 2]


def test_hash_is_consistent_with_equality():
    assert hash(Row(1, 'a')) == hash((1, 'a'))
    assert hash(Row(a=1, b=2)) == hash(Row(b=2, a=1))
    assert len({Row(a=1, b=2), Row(b=2, a=1)}) == 1


# -- pickling and copying -----------------------------------------------------------------------

def test_pickle_keeps_names_values_and_row_kind():
    row = Row.of_kind(RowKind.UPDATE_BEFORE, name='Alice', nested=Row(1, 2))
    restored = pickle.loads(pickle.dumps(row))
    assert restored == row
    assert repr(restored) == repr(row)
    assert restored.get_row_kind() is RowKind.UPDATE_BEFORE


def test_deepcopy_is_independent():
    row = Row(a=[1])
    copied = copy.deepcopy(row)
    copied.a.append(2)
    assert row.a == [1]
    assert copied == Row(a=[1, 2])


_FIELD_NAMES = st.from_regex(r"[a-z][a-z0-9_]{0,8}", fullmatch=True).filter(lambda name: name != "self")
_VALUES = st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=10),
                    st.floats(allow_nan=False), st.binary(max_size=8))


@given(fields=st.dictionaries(_FIELD_NAMES, _VALUES, max_size=6), kind=st.sampled_from(RowKind))
def test_named_row_pickle_round_trip(fields, kind):
    row = Row.of_kind(kind, **fields)
    restored = pickle.loads(pickle.dumps(row))
    assert restored == row
    assert restored.get_row_kind() is kind
    assert repr(restored) == repr(row)


@given(values=st.lists(_VALUES, max_size=6), kind=st.sampled_from(RowKind))
def test_positional_row_pickle_round_trip(values, kind):
    row = Row.of_kind(kind, *values)
    restored = pickle.loads(pickle.dumps(row))
    assert restored == row
    assert repr(restored) == repr(row)


@given(fields=st.dictionaries(_FIELD_NAMES, _VALUES, min_size=1, max_size=6))
def test_as_dict_round_trip_keeps_order(fields):
    as_dict = Row(**fields).as_dict()
    assert as_dict == fields
    assert list(as_dict) == list(fields)
    assert Row(**as_dict) == Row(**fields)


# -- print() format (Java Row.toString) ---------------------------------------------------------

def test_flink_str_of_simple_rows():
    assert Row('a', 1)._flink_str() == "+I[a, 1]"
    assert Row(name='Alice', age=11)._flink_str() == "+I[Alice, 11]"
    assert Row()._flink_str() == "+I[]"
    assert Row.of_kind(RowKind.DELETE, 'x')._flink_str() == "-D[x]"


def test_flink_str_prints_values_as_java_does():
    row = Row(None, True, False, Row('n', None), [1, 'b'], {'k': 2}, ('t', 1), b'\x01\xff')
    assert row._flink_str() == "+I[null, true, false, +I[n, null], [1, b], {k=2}, (t,1), [1, -1]]"


@pytest.mark.parametrize("value, text", [
    (1.0, "1.0"), (0.5, "0.5"), (-2.25, "-2.25"), (0.001, "0.001"), (1234567.0, "1234567.0"),
    (1e7, "1.0E7"), (1.5e10, "1.5E10"), (-1.25e-4, "-1.25E-4"), (0.0, "0.0"), (-0.0, "-0.0"),
    (float("nan"), "NaN"), (float("inf"), "Infinity"), (float("-inf"), "-Infinity"),
])
def test_flink_str_formats_floats_like_java_double(value, text):
    assert Row(value)._flink_str() == "+I[%s]" % text


def test_flink_str_formats_dates_times_decimals_and_instants():
    row = Row(datetime.date(2024, 1, 2), datetime.time(3, 4, 5, 600),
              datetime.datetime(2024, 1, 2, 3, 4, 5), datetime.datetime(2024, 1, 2, 3, 4, 5, 120000),
              decimal.Decimal("1.50"), Instant(1, 0), Instant(0, 120_000_000))
    assert row._flink_str() == ("+I[2024-01-02, 03:04:05, 2024-01-02 03:04:05.0, 2024-01-02 03:04:05.12, "
                                "1.50, 1970-01-01T00:00:01Z, 1970-01-01T00:00:00.120Z]")

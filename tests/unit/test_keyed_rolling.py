"""Rolling aggregations (KeyedStream.reduce/sum/min/max/min_by/max_by) in the keyed engine.

Expected values were confirmed with real PyFlink 2.3.0 (parallelism 1, from_collection with
a timestamp assigner ts = 100 + x[2] (or 100 + x for ints), key_by(x[0]) (or x % 2), then
the aggregation; outputs printed with ctx.timestamp()).
"""
import pytest

from pyflink_compat.common.types import Row
from pyflink_compat.datastream.functions import ReduceFunction
from pyflink_compat.runtime.keyed import ListCollector
from pyflink_compat.runtime.keyed.rolling import (MAX, MAX_BY, MIN, MIN_BY, SUM,
                                                  AccumulateReduceFunction,
                                                  rolling_accumulate_operator,
                                                  rolling_reduce_operator)

TUP = [('a', 3, 1), ('b', 1, 2), ('a', 1, 3), ('a', 5, 4), ('b', 1, 5), ('a', 1, 6)]
INTS = [3, 1, 4, 1, 5, 9, 2, 6]

# oracle outputs (values, in order; the timestamps are the elements')
EXPECTED = {
    SUM: [('a', 3, 1), ('b', 1, 2), ('a', 4, 1), ('a', 9, 1), ('b', 2, 2), ('a', 10, 1)],
    MIN: [('a', 3, 1), ('b', 1, 2), ('a', 1, 1), ('a', 1, 1), ('b', 1, 2), ('a', 1, 1)],
    MAX: [('a', 3, 1), ('b', 1, 2), ('a', 3, 1), ('a', 5, 1), ('b', 1, 2), ('a', 5, 1)],
    MIN_BY: [('a', 3, 1), ('b', 1, 2), ('a', 1, 3), ('a', 1, 3), ('b', 1, 2), ('a', 1, 3)],
    MAX_BY: [('a', 3, 1), ('b', 1, 2), ('a', 3, 1), ('a', 5, 4), ('b', 1, 2), ('a', 5, 4)],
}
EXPECTED_INTS = {
    SUM: [3, 4, 4, 5, 10, 19, 6, 12],
    MIN: [3, 1, 4, 1, 1, 1, 2, 2],
    MAX: [3, 3, 4, 3, 5, 9, 4, 6],
    MIN_BY: [3, 1, 4, 1, 1, 1, 2, 2],
    MAX_BY: [3, 3, 4, 3, 5, 9, 4, 6],
}


def run(op, records):
    out = ListCollector(copy_values=True)
    op.output = out
    op.open()
    for key, value, ts in records:
        op.process_element(key, value, ts)
    return out


@pytest.mark.parametrize("kind", [SUM, MIN, MAX, MIN_BY, MAX_BY])
def test_oracle_tuples(kind):
    out = run(rolling_accumulate_operator(1, kind), [(t[0], t, 100 + t[2]) for t in TUP])
    assert out.records == [(v, 100 + t[2]) for v, t in zip(EXPECTED[kind], TUP)]


@pytest.mark.parametrize("kind", [SUM, MIN, MAX, MIN_BY, MAX_BY])
def test_oracle_named_rows_by_field_name(kind):
    rows = [Row(k=t[0], v=t[1], w=t[2]) for t in TUP]
    out = run(rolling_accumulate_operator("v", kind), [(r[0], r, 100 + r[2]) for r in rows])
    assert [tuple(v) for v, _ in out.records] == EXPECTED[kind]
    assert all(isinstance(v, Row) for v, _ in out.records)


@pytest.mark.parametrize("kind", [SUM, MIN, MAX, MIN_BY, MAX_BY])
def test_oracle_lists(kind):
    out = run(rolling_accumulate_operator(1, kind), [(t[0], list(t), 100 + t[2]) for t in TUP])
    assert out.values() == [list(v) for v in EXPECTED[kind]]


@pytest.mark.parametrize("kind", [SUM, MIN, MAX, MIN_BY, MAX_BY])
def test_oracle_plain_numbers(kind):
    out = run(rolling_accumulate_operator(0, kind), [(x % 2, x, 100 + x) for x in INTS])
    assert out.records == [(v, 100 + x) for v, x in zip(EXPECTED_INTS[kind], INTS)]


def test_oracle_reduce_emits_per_element():
    out = run(rolling_reduce_operator(lambda a, b: (a[0], a[1] * 10 + b[1], b[2])),
              [(t[0], t, 100 + t[2]) for t in TUP])
    assert out.records == [(('a', 3, 1), 101), (('b', 1, 2), 102), (('a', 31, 3), 103),
                           (('a', 315, 4), 104), (('b', 11, 5), 105), (('a', 3151, 6), 106)]


def test_list_aggregation_mutates_the_accumulated_value_in_place():
    # as PyFlink: the first element of a key is the accumulator and is changed in place
    first = ['a', 1]
    out = run(rolling_accumulate_operator(1, SUM), [('a', first, 1), ('a', ['a', 2], 2)])
    assert out.values() == [['a', 1], ['a', 3]] and first == ['a', 3]


@pytest.mark.parametrize("kind", [SUM, MIN, MAX, MIN_BY, MAX_BY])
def test_each_output_keeps_its_value_when_the_accumulator_changes_later(kind):
    """Outputs are converted after the micro-batch: a Row or list emitted earlier must not show a later sum
    (key_by(...).sum(1) over (1,1),(1,2),(1,3),(2,5),(2,1) gives 1,3,6,5,6 on PyFlink)."""
    out = ListCollector(copy_values=False)
    op = rolling_accumulate_operator(1, kind)
    op.output = out
    op.open()
    for key, amount in [(1, 1), (1, 2), (1, 3), (2, 5), (2, 1)]:
        op.process_element(key, Row(key, amount), None)
    expected = {SUM: [1, 3, 6, 5, 6], MIN: [1, 1, 1, 5, 1], MAX: [1, 2, 3, 5, 5], MIN_BY: [1, 1, 1, 5, 1],
                MAX_BY: [1, 2, 3, 5, 5]}[kind]
    assert [row[1] for row in out.values()] == expected


def test_basic_type_position_must_be_zero():
    op = rolling_accumulate_operator(1, SUM)
    op.open()
    op.process_element(0, 5, None)
    with pytest.raises(TypeError, match="The 1 field selected on a basic type"):
        op.process_element(0, 6, None)


def test_position_type_checked():
    with pytest.raises(TypeError, match="must be of int or str type"):
        AccumulateReduceFunction(1.5, SUM)


class Concat(ReduceFunction):
    def open(self, runtime_context):
        self.opened = True

    def reduce(self, a, b):
        return a + b


def test_reduce_function_object_and_snapshot_restore():
    f = Concat()
    op = rolling_reduce_operator(f)
    out = run(op, [("k", "x", 1), ("j", "y", 2)])
    assert f.opened
    op2 = rolling_reduce_operator(Concat())
    op2.restore(op.snapshot())
    out2 = run(op2, [("k", "z", 3), ("j", "w", 4)])
    assert out.values() + out2.values() == ["x", "y", "xz", "yw"]


def test_batch_mode_emits_once_per_key_at_the_end():
    op = rolling_reduce_operator(lambda a, b: a + b, in_batch_execution_mode=True)
    out = run(op, [("a", 1, 1), ("b", 2, 2), ("a", 3, 3)])
    assert out.records == []
    op.end_input()
    assert out.records == [(4, 0x7fffffffffffffff), (2, 0x7fffffffffffffff)]

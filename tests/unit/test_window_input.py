"""A SQL group window's input summed up a batch at a time (table/sql/window_input.py) gives, per key and
window, the accumulators the row-by-row steps give, the same largest timestamp for the watermark, and hands a
batch back to the steps wherever its reading could differ. The chain is the one the planner builds for the
query; the steps run as the read task runs them."""
import json

import pyarrow as pa
import pytest
from hypothesis import given, settings, strategies as st

from pyflink_compat.datastream import StreamExecutionEnvironment
from pyflink_compat.plan import graph
from pyflink_compat.runtime.chain import AssignTimestampsStep, batch_form_of, build_steps
from pyflink_compat.table.sql import aggregates, catalog, dialect, planner

EVENTS = ("CREATE TABLE events (k STRING, n INT, ts BIGINT, amount BIGINT, flag BOOLEAN, x DOUBLE, "
          "rt AS TO_TIMESTAMP_LTZ(ts, 3), WATERMARK FOR rt AS rt - INTERVAL '1' SECOND) WITH ("
          "'connector' = 'kafka', 'topic' = 't', 'properties.bootstrap.servers' = 'b:9092', 'scan.startup.mode' = 'earliest-offset', "
          "'format' = 'json'%s)")
OUT = "CREATE TABLE out (a STRING, b BIGINT, c BIGINT, d BIGINT, e INT, f STRING) WITH ('connector' = 'print')"
NAMES = ["COUNT(*)", "SUM", "AVG:int", "MAX", "MIN"]      # QUERY's aggregates as the planner names them
QUERY = ("INSERT INTO out SELECT k, COUNT(*), SUM(amount), AVG(amount), MAX(n), MIN(k) FROM events "
         "WHERE amount > 2 OR k IS NULL GROUP BY %s(rt, %s), k")


def _chain(window="TUMBLE", sizes="INTERVAL '10' SECOND", options=""):
    """(the per-element steps before key_by, the window assigner, the aggregate names) of the planned query."""
    env = StreamExecutionEnvironment.get_execution_environment()
    tables = {}
    for ddl in (EVENTS % options, OUT):
        table = catalog.table_of(dialect.parse(ddl)[0])
        tables[table.name] = table
    builder = planner.JobBuilder(env, tables)
    builder.add_insert(dialect.parse(QUERY % (window, sizes))[0])
    chain = env._sinks[0].routes()[0]
    key_by = next(i for i, node in enumerate(chain) if node.kind == graph.KEY_BY)
    window_node = chain[key_by + 1]
    return build_steps(chain[1:key_by]), window_node.payload.assigner, NAMES


def _by_steps(steps, messages):
    items, stamps, largest = list(messages), [None] * len(messages), None
    for step in steps:
        items, stamps = step.apply(items, stamps)
        if isinstance(step, AssignTimestampsStep) and stamps:
            largest = max(stamps)
    return items, stamps, largest


def _windowed(assigner, names, items, stamps):
    """Accumulators per (key, window), and the order keys first came in."""
    merged, order = {}, []
    for (key, partial), stamp in zip(items, stamps):
        if key not in order:
            order.append(key)
        for window in assigner.assign_windows(None, stamp, None):
            slot = (key, window.start, window.end)
            before = merged.get(slot, tuple(aggregates._initial(name) for name in names))
            merged[slot] = tuple(aggregates._merge(name, a, b) for name, a, b in zip(names, before, partial))
    return merged, order


_keys = st.sampled_from(["a", "b", "é", "日本", None])
_event = st.fixed_dictionaries(
    {"k": _keys, "n": st.one_of(st.none(), st.integers(-2 ** 31, 2 ** 31 - 1)),
     "ts": st.one_of(st.none(), st.integers(0, 200_000)),
     "amount": st.one_of(st.none(), st.integers(-10, 10), st.integers(-2 ** 40, 2 ** 40)),
     "flag": st.one_of(st.none(), st.booleans()), "x": st.one_of(st.none(), st.floats(allow_nan=False))},
    optional={"extra": st.one_of(st.integers(), st.text(max_size=3), st.lists(st.integers(), max_size=2))})


def _message(event):
    return json.dumps(event, ensure_ascii=False)


@pytest.mark.parametrize("window, sizes", [("TUMBLE", "INTERVAL '10' SECOND"),
                                           ("HOP", "INTERVAL '4' SECOND, INTERVAL '10' SECOND")])
@settings(max_examples=60, deadline=None)
@given(events=st.lists(_event, max_size=40))
def test_well_formed_batches_are_summed_up_as_the_steps_accumulate_them(window, sizes, events):
    steps, assigner, names = _chain(window, sizes)
    form = batch_form_of(steps)
    assert form is not None
    messages = [_message(event) for event in events]
    expected = _by_steps(steps, messages)
    got = form(pa.array(messages, pa.string()))
    assert got is not None
    assert got[2] == expected[2]
    assert _windowed(assigner, names, *got[:2]) == _windowed(assigner, names, *expected[:2])


_odd = st.sampled_from([
    '{"k":"a","ts":1000,"amount":5}', '{"k":"a","ts":"1000","amount":5}', '{"k":"a","ts":1000,"amount":5.5}',
    '{"k":5,"ts":1000,"amount":3}', '{"k":"a","k":"b","ts":1,"amount":3}', '[1,2]', '', '{}{}', 'not json',
    '{"k":"a",\n"ts":1000,"amount":4}', '\ufeff{"k":"a","ts":7,"amount":3}', '{"ts":99999999999999999,"amount":3}',
    '{"k":"a","ts":1000,"amount":9223372036854775807}', '{"k":"a","ts":-1,"amount":3}', '{"flag":"true","ts":5}',
    '{"x":"1.5","ts":5,"amount":3}', '{"x":1e400,"ts":5}', '{"k":{"x":1},"ts":5,"amount":3}', 'null', '{"n":1.0}'])


@pytest.mark.parametrize("options", ["", ", 'json.ignore-parse-errors' = 'true'"])
@settings(max_examples=80, deadline=None)
@given(messages=st.lists(_odd, max_size=8))
def test_any_batch_gives_the_steps_result_or_goes_through_the_steps(options, messages):
    steps, assigner, names = _chain(options=options)
    form = batch_form_of(steps)
    try:
        expected = _by_steps(steps, messages)
    except Exception:                       # the steps fail the job: the batch form must not decide otherwise
        assert form(pa.array(messages, pa.string())) is None
        return
    got = form(pa.array(messages, pa.string()))
    if got is not None:
        assert got[2] == expected[2]
        assert _windowed(assigner, names, *got[:2]) == _windowed(assigner, names, *expected[:2])


def test_the_batch_form_applies_only_where_its_result_is_the_steps():
    steps, _, _ = _chain()
    assert batch_form_of(steps) is not None
    assert batch_form_of(steps[1:]) is None                    # not the whole chain from the source
    assert batch_form_of(_chain(options=", 'json.fail-on-missing-field' = 'true'")[0]) is None


def test_a_window_of_python_aggregates_or_double_sums_keeps_the_row_path():
    env = StreamExecutionEnvironment.get_execution_environment()
    tables = {}
    for ddl in (EVENTS % "", "CREATE TABLE o2 (a STRING, s DOUBLE) WITH ('connector' = 'print')"):
        table = catalog.table_of(dialect.parse(ddl)[0])
        tables[table.name] = table
    planner.JobBuilder(env, tables).add_insert(dialect.parse(
        "INSERT INTO o2 SELECT k, SUM(x) FROM events GROUP BY TUMBLE(rt, INTERVAL '1' SECOND), k")[0])
    chain = env._sinks[0].routes()[0]
    key_by = next(i for i, node in enumerate(chain) if node.kind == graph.KEY_BY)
    steps = build_steps(chain[1:key_by])
    assert batch_form_of(steps) is None             # a double's sum depends on the order it is added in
    assert steps[-1].function.flat_map is not None  # the partials still run row by row


@settings(max_examples=60, deadline=None)
@given(chunks=st.lists(st.lists(st.one_of(_event.map(_message), _odd), max_size=6), max_size=6),
       merge_at=st.integers(1, 8))
def test_a_splits_batches_are_merged_across_batches_and_a_refused_one_keeps_its_place(chunks, merge_at):
    """As the read task runs them: each batch the split's SplitPartials refuses goes through the steps after
    the partials taken so far; pending partials are merged every few rows (here 1 to 8)."""
    from pyflink_compat.table.sql import window_input
    steps, assigner, names = _chain(options=", 'json.ignore-parse-errors' = 'true'")
    try:
        expected = _by_steps(steps, [message for chunk in chunks for message in chunk])
    except Exception as failure:        # the job fails: so must it with the batch form, in a batch it refuses
        expected = failure
    previous = window_input._MERGE_AT_ROWS
    window_input._MERGE_AT_ROWS = merge_at
    try:
        split = batch_form_of(steps).start()
        items, stamps, largest = [], [], []
        for chunk in chunks:
            column = pa.array(chunk, pa.string())
            if split.add(column):
                largest.append(split.largest)
                continue
            taken = split.take()
            items += taken[0]
            stamps += taken[1]
            by_steps = _by_steps(steps, chunk)
            items += by_steps[0]
            stamps += by_steps[1]
            largest.append(by_steps[2])
        taken = split.take()
        items += taken[0]
        stamps += taken[1]
    except Exception as failure:
        assert type(failure) is type(expected)
        return
    finally:
        window_input._MERGE_AT_ROWS = previous
    assert not isinstance(expected, Exception)
    present = [each for each in largest if each is not None]
    assert (max(present) if present else None) == expected[2]
    assert _windowed(assigner, names, items, stamps)[0] == _windowed(assigner, names, *expected[:2])[0]

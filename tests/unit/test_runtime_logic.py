"""Pure logic of the runner and the translation: no Spark, no broker."""
import importlib
import sys

import pyarrow as pa
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pyflink_compat import aliasing
from pyflink_compat.cli import UsageError, parse_run_args
from pyflink_compat.common import Row, Types
from pyflink_compat.datastream import StreamExecutionEnvironment
from pyflink_compat.kafka_io.offsets import from_json, to_json
from pyflink_compat.kafka_io.source import _cap
from pyflink_compat import codec
from pyflink_compat.runtime import printing
from pyflink_compat.runtime.translate import offsets_reached
from pyflink_compat.util.exceptions import UnsupportedFeatureError


# -- CLI --------------------------------------------------------------------------------------------

def test_run_args_like_flink_run():
    options = parse_run_args(["-p", "3", "-D", "a.b=1", "-Dc=x=y", "-py", "job.py", "--input", "-p", "t"])
    assert (options.job_file, options.job_args, options.configuration, options.parallelism) == (
        "job.py", ["--input", "-p", "t"], {"a.b": "1", "c": "x=y"}, 3)
    plain = parse_run_args(["job.py"])
    assert (plain.job_file, plain.job_args, plain.configuration, plain.parallelism) == ("job.py", [], {}, None)


def test_run_args_python_dependencies_detached_and_savepoints():
    options = parse_run_args(["-pyfs", "a.py,lib", "--pyFiles", "b.zip", "-pyreq", "req.txt#pkgs",
                              "-pyexec", "/usr/bin/python3", "-d", "-s", "/sp/1", "-n", "-sae",
                              "-pym", "my.job", "-d", "-s"])
    assert options.py_files == ["a.py", "lib", "b.zip"]
    assert options.requirements == "req.txt#pkgs" and options.python_executable == "/usr/bin/python3"
    assert options.detached is True and options.module == "my.job" and options.job_file is None
    assert options.configuration == {"execution.savepoint.path": "/sp/1",
                                     "execution.savepoint.ignore-unclaimed-state": "true"}
    assert options.job_args == ["-d", "-s"]                # after the job: the job's own arguments


@pytest.mark.parametrize("argv, message", [
    ([], "no job file"), (["-p"], "needs a value"), (["-p", "x", "j.py"], "must be a number"),
    (["-m", "host:8081", "j.py"], "spark.master"), (["-j", "x.jar"], "only Python jobs"),
    (["-D", "novalue", "j.py"], "key=value"), (["--bogus", "j.py"], "unknown option --bogus"),
])
def test_run_args_errors(argv, message):
    with pytest.raises(UsageError, match=message):
        parse_run_args(argv)


def test_pyflink_imports_resolve_to_the_same_modules():
    aliasing.install()
    try:
        common = importlib.import_module("pyflink.common")
        kafka = importlib.import_module("pyflink.datastream.connectors.kafka")
        from pyflink.datastream.connectors.kafka import KafkaSource  # noqa: F401 - the import itself is the test
        assert common is importlib.import_module("pyflink_compat.common")
        assert kafka.KafkaSource is importlib.import_module("pyflink_compat.datastream.connectors.kafka").KafkaSource
        with pytest.raises(ImportError):
            from pyflink.datastream.connectors import KafkaSink  # noqa: F401 - as in PyFlink
        with pytest.raises(ModuleNotFoundError):
            importlib.import_module("pyflink.no_such_module")
    finally:
        sys.meta_path[:] = [f for f in sys.meta_path if not isinstance(f, aliasing.PyFlinkAliasFinder)]
        for name in [n for n in sys.modules if n == "pyflink" or n.startswith("pyflink.")]:
            del sys.modules[name]


# -- offsets ----------------------------------------------------------------------------------------

@given(st.dictionaries(st.tuples(st.sampled_from(["a", "b.c", "d-e"]), st.integers(0, 50)),
                       st.integers(0, 2**62)))
def test_offsets_json_round_trip(offsets):
    assert from_json(to_json(offsets)) == offsets


@given(st.lists(st.tuples(st.integers(0, 1000), st.integers(0, 1000)), min_size=1, max_size=6),
       st.integers(1, 3000))
def test_record_cap_is_respected_and_spread(ranges, cap):
    current = {("t", i): start for i, (start, _) in enumerate(ranges)}
    available = {("t", i): start + extra for i, (start, extra) in enumerate(ranges)}
    capped = _cap(current, available, cap)
    total_available = sum(available[tp] - current[tp] for tp in current)
    total = sum(capped[tp] - current[tp] for tp in current)
    assert total == min(cap, total_available)
    assert all(current[tp] <= capped[tp] <= available[tp] for tp in current)


def test_offsets_reached():
    assert offsets_reached({"t": {"0": 5, "1": 3}}, {"t": {"0": 5, "1": 2}})
    assert not offsets_reached({"t": {"0": 4}}, {"t": {"0": 5}})
    assert not offsets_reached({"t": {"0": 9}}, {"t": {"0": 5, "1": 1}})
    assert offsets_reached({"index": 3}, {"index": 3})


# -- element encoding -------------------------------------------------------------------------------

PERSON = Types.ROW_NAMED(["name", "age", "score"], [Types.STRING(), Types.INT(), Types.DOUBLE()])


@given(st.lists(st.one_of(st.none(), st.text())))
def test_strings_round_trip_through_arrow(items):
    assert codec.to_python(codec.from_python(items, Types.STRING()), Types.STRING()) == items


@given(st.lists(st.integers(-2**63, 2**63 - 1)))
def test_longs_round_trip_through_arrow(items):
    assert codec.to_python(codec.from_python(items, Types.LONG()), Types.LONG()) == items


@given(st.lists(st.recursive(st.one_of(st.integers(), st.text(), st.none(), st.floats(allow_nan=False)),
                             lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner), max_leaves=8)))
def test_pickled_elements_round_trip(items):
    assert codec.to_python(codec.from_python(items, Types.PICKLED_BYTE_ARRAY()),
                           Types.PICKLED_BYTE_ARRAY()) == items


@given(st.lists(st.tuples(st.text(), st.integers(-2**31, 2**31 - 1), st.floats(allow_nan=False))))
def test_rows_round_trip_and_keep_field_names(items):
    rows = [Row(name=n, age=a, score=s) for n, a, s in items]
    back = codec.to_python(codec.from_python(rows, PERSON), PERSON)
    assert back == rows
    assert all(r.as_dict() == {"name": n, "age": a, "score": s} for r, (n, a, s) in zip(back, items))


def test_rows_accept_tuples_and_dicts_and_reject_other_values():
    arr = codec.from_python([("a", 1, 0.5), {"name": "b", "age": 2, "score": 1.5}], PERSON)
    assert codec.to_python(arr, PERSON) == [Row(name="a", age=1, score=0.5), Row(name="b", age=2, score=1.5)]
    with pytest.raises(TypeError, match="declared output type"):
        codec.from_python(["not a number"], Types.INT())


NESTED = Types.ROW_NAMED(["id", "person", "tags"], [Types.LONG(), PERSON, Types.LIST(Types.STRING())])


@given(st.lists(st.one_of(st.none(), st.tuples(st.integers(-2**63, 2**63 - 1),
                                                st.one_of(st.none(), st.tuples(st.text(), st.integers(0, 99),
                                                                              st.floats(allow_nan=False))),
                                                st.lists(st.one_of(st.none(), st.text()), max_size=3)))))
def test_nested_rows_and_null_rows_round_trip(items):
    rows = [None if item is None else
            Row(id=item[0], person=None if item[1] is None else Row(name=item[1][0], age=item[1][1],
                                                                     score=item[1][2]), tags=item[2])
            for item in items]
    assert codec.to_python(codec.from_python(rows, NESTED), NESTED) == rows


def test_rows_are_read_by_name_whatever_their_field_order():
    arr = codec.from_python([Row(score=0.5, name="a", age=1), Row("b", 2, 1.5)], PERSON)
    assert arr.to_pylist() == [{"name": "a", "age": 1, "score": 0.5}, {"name": "b", "age": 2, "score": 1.5}]
    with pytest.raises(ValueError, match="has no field"):
        codec.from_python([Row(name="a", age=1)], PERSON)
    with pytest.raises(TypeError, match="declared output type"):
        codec.from_python([("a", 1)], PERSON)                 # a positional row of the wrong arity


def _run_fused(steps, element_type, rows, timestamps):
    """Run map/filter nodes over one Arrow batch the way a read task does (no Spark needed)."""
    from pyflink_compat.plan import graph
    from pyflink_compat.runtime.translate import fused_functions
    from pyflink_compat.datastream.functions import FilterFunction, MapFunction

    class Filter(FilterFunction):
        def __init__(self, f):
            self.f = f

        def filter(self, value):
            return self.f(value)

    class Map(MapFunction):
        def __init__(self, f):
            self.f = f

        def map(self, value):
            return self.f(value)

    nodes = [graph.Node(kind=kind, name=kind, payload=(Filter(f) if kind == graph.FILTER else Map(f)),
                        output_type=element_type) for kind, f in steps]
    run = fused_functions(nodes, element_type, element_type, "job", 1)
    batch = codec.make_batch(codec.from_python(rows, element_type), pa.array(timestamps, pa.int64()))
    out = list(run(iter([batch])))
    return ([r for b in out for r in codec.to_python(codec.column(b, codec.ELEMENT), element_type)],
            [t for b in out for t in codec.column(b, codec.EVENT_TS).to_pylist()])


def test_filters_keep_elements_and_timestamps():
    from pyflink_compat.plan import graph
    rows = [Row(name="n%d" % i, age=i, score=i / 2) for i in range(10)]
    kept, ts = _run_fused([(graph.FILTER, lambda r: r.age % 2), (graph.FILTER, lambda r: r.age > 4)],
                          PERSON, rows, list(range(100, 110)))
    assert kept == [rows[5], rows[7], rows[9]] and ts == [105, 107, 109]


def test_a_filter_that_changes_rows_passes_the_changed_rows_on():
    from pyflink_compat.plan import graph

    def shout(row):
        row["name"] = row.name.upper()
        return True
    rows = [Row(name="a", age=1, score=0.5), Row(name="b", age=2, score=1.0)]
    kept, ts = _run_fused([(graph.FILTER, shout)], PERSON, rows, [None, 7])
    assert kept == [Row(name="A", age=1, score=0.5), Row(name="B", age=2, score=1.0)] and ts == [None, 7]


def test_a_filter_after_a_map_sees_and_keeps_mapped_rows():
    from pyflink_compat.plan import graph
    rows = [Row(name="a", age=1, score=0.5), Row(name="b", age=2, score=1.0)]
    kept, _ = _run_fused([(graph.MAP, lambda r: Row(name=r.name * 2, age=r.age + 1, score=r.score)),
                          (graph.FILTER, lambda r: r.age == 3)], PERSON, rows, [1, 2])
    assert kept == [Row(name="bb", age=3, score=1.0)]


def test_stream_schema_has_element_and_timestamp():
    assert codec.stream_schema(Types.STRING()) == pa.schema([("element", pa.string()), ("event_ts", pa.int64())])
    assert "struct<`name`:string,`age`:int,`score`:double>" in codec.spark_ddl(PERSON)


def test_stream_schema_ddl_quotes_field_names_spark_would_not_read_bare():
    odd = Types.ROW_NAMED(["EXPR$0", "a b", "back`tick"], [Types.INT(), Types.STRING(), Types.LONG()])
    odd._row_kinds = True                         # a changelog stream's rows carry a "$row_kind" field
    ddl = codec.spark_ddl(odd)
    assert ddl == ("struct<`element`:struct<`EXPR$0`:int,`a b`:string,`back``tick`:bigint,`$row_kind`:tinyint>,"
                   "`event_ts`:bigint>")


# -- print() ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("identifier, subtask, parallelism, prefix", [
    (None, 0, 1, ""), ("out", 0, 1, "out> "), (None, 1, 2, "2> "), ("out", 0, 4, "out:1> ")])
def test_print_prefix(identifier, subtask, parallelism, prefix):
    assert printing.line_prefix(identifier, subtask, parallelism) == prefix


def test_print_element_strings():
    assert printing.element_string(Row("a", 1, None), PERSON) == "+I[a,1,None]"
    assert printing.element_string({"k": (1, 2)}, Types.PICKLED_BYTE_ARRAY()) == "{'k': (1, 2)}"
    assert printing.element_string(True, Types.BOOLEAN()) == "true"
    assert printing.element_string("s", Types.STRING()) == "s"


# -- the mirror's errors ----------------------------------------------------------------------------

def test_transformations_reject_non_callables_with_pyflink_messages():
    ds = StreamExecutionEnvironment.get_execution_environment().from_collection([1])
    with pytest.raises(TypeError, match="^The input must be a MapFunction or a callable function$"):
        ds.map(1)
    with pytest.raises(TypeError, match="^The input must be a FlatMapFunction or a callable function$"):
        ds.flat_map("x")
    with pytest.raises(TypeError, match="^The input must be a FilterFunction or a callable function$"):
        ds.filter(None)


@pytest.mark.parametrize("method, section", [("add_sink", "legacy-kafka-api")])
def test_methods_not_provided_yet_name_themselves_and_the_guide(method, section):
    ds = StreamExecutionEnvironment.get_execution_environment().from_collection([1])
    with pytest.raises(UnsupportedFeatureError) as error:
        getattr(ds, method)(lambda x: x)
    assert "DataStream.%s" % method in str(error.value)
    assert "porting_guide/README.md#%s" % section in str(error.value)


def test_broadcast_without_state_descriptors_is_refused_by_name():
    ds = StreamExecutionEnvironment.get_execution_environment().from_collection([1])
    with pytest.raises(UnsupportedFeatureError) as error:
        ds.broadcast()
    assert "DataStream.broadcast() without broadcast state descriptors" in str(error.value)
    assert "porting_guide/README.md#multi-input-streams" in str(error.value)
    with pytest.raises(TypeError, match="^broadcast_state_descriptor must be MapStateDescriptor$"):
        ds.broadcast("not a descriptor")


def test_types_and_names_follow_pyflink():
    env = StreamExecutionEnvironment.get_execution_environment()
    ds = env.from_collection(["a"], type_info=Types.STRING())
    assert ds.get_type() == Types.STRING()
    assert ds.map(str.upper).get_type() == Types.PICKLED_BYTE_ARRAY()
    assert ds.filter(bool).get_type() == Types.STRING()
    assert ds.name("n").uid("u").set_parallelism(2) is ds and ds.get_name() == "n"


PAIR = Types.TUPLE([Types.STRING(), Types.INT()])


@given(st.lists(st.one_of(st.none(), st.tuples(st.text(), st.integers(-2**31, 2**31 - 1)))))
def test_tuples_round_trip_as_tuples(items):
    assert codec.to_python(codec.from_python(items, PAIR), PAIR) == items


def test_tuples_accept_lists_and_rows_and_refuse_null_fields_like_flink():
    assert codec.to_python(codec.from_python([["a", 1], Row("b", 2)], PAIR), PAIR) == [("a", 1), ("b", 2)]
    assert codec.arrow_type(PAIR) == pa.struct([("f0", pa.string()), ("f1", pa.int32())])
    with pytest.raises(TypeError, match="Field 1 is null, but expected to hold a value"):
        codec.from_python([("a", None)], PAIR)
    with pytest.raises(TypeError, match="has 1 field"):
        codec.from_python([("a",)], PAIR)


def test_tuples_print_as_java_tuples():
    triple = Types.TUPLE([Types.STRING(), Types.FLOAT(), Types.BOOLEAN()])
    assert printing.element_string(("x", 0.10000000149011612, True), triple) == "(x,0.1,true)"


def test_keyed_queries_read_smaller_micro_batches_unless_the_user_sets_the_size():
    from pyflink_compat.options import (DEFAULT_MAX_RECORDS_PER_BATCH, KEYED_MAX_RECORDS_PER_BATCH,
                                        MAX_RECORDS_PER_BATCH, max_records_per_batch)
    assert max_records_per_batch({}, keyed=False) == DEFAULT_MAX_RECORDS_PER_BATCH == 500_000
    assert max_records_per_batch({}, keyed=True) == KEYED_MAX_RECORDS_PER_BATCH == 100_000
    assert max_records_per_batch({MAX_RECORDS_PER_BATCH.key: "7000"}, keyed=True) == 7000
    assert max_records_per_batch({MAX_RECORDS_PER_BATCH.key: "7000"}, keyed=False) == 7000


def test_an_exchange_payload_carries_a_forwarded_watermark_and_idleness():
    import pyarrow as pa
    from pyflink_compat.runtime import exchange
    source = exchange.BatchProgress("t:0", 1_000, 2, False)
    upstream = exchange.BatchProgress("stage-0:1", None, 0, False, watermark=4_999, idle=True)
    for progress in (source, upstream):
        payload = exchange.encode_payload(pa.array([], pa.int64()), pa.array([], pa.int64()),
                                          pa.array([], pa.binary()), progress)
        assert exchange.decode_payload(payload)[1] == progress


def test_sql_time_is_stored_as_microseconds_of_the_day_and_reaches_functions_at_millisecond_precision():
    import datetime
    times = [datetime.time(1, 2, 3, 456789), datetime.time(23, 59, 59), None]
    stored = codec.from_python(times, Types.SQL_TIME())
    assert stored.type == pa.int64()          # Spark's TIME type cannot cross a streaming query
    assert stored.to_pylist() == [3_723_456_789, 86_399_000_000, None]
    assert codec.to_python(stored, Types.SQL_TIME()) == [datetime.time(1, 2, 3, 456000),
                                                         datetime.time(23, 59, 59), None]
    row_type = Types.ROW_NAMED(["t", "n"], [Types.SQL_TIME(), Types.INT()])
    rows = codec.to_python(codec.from_python([Row(t=datetime.time(12, 0, 0, 1500), n=1)], row_type), row_type)
    assert rows[0].t == datetime.time(12, 0, 0, 1000) and rows[0].n == 1
    assert "bigint" in codec.spark_ddl(Types.SQL_TIME())
    with pytest.raises(TypeError, match="SQL_TIME"):
        codec.from_python(["12:00"], Types.SQL_TIME())


def test_a_payload_addressed_to_a_later_stage_comes_back_unchanged_there():
    import pyarrow as pa
    from pyflink_compat.runtime import exchange
    progress = exchange.BatchProgress("orders:0", 5, 1, False, side=2)
    payload = exchange.encode_payload(pa.array([b"x"]), pa.array([5], pa.int64()), pa.array([b"k"]), progress)
    assert exchange.address(payload) is None                      # for the stage it reaches
    addressed = exchange.addressed(payload, 3)
    assert exchange.address(addressed) == (3, 0) and not exchange.is_lines(addressed)
    assert exchange.address(exchange.addressed(payload, 1, 2)) == (1, 2)          # the third lane of depth 1
    assert exchange.unaddressed(addressed) == payload
    assert exchange.decode_payload(exchange.unaddressed(addressed))[1] == progress

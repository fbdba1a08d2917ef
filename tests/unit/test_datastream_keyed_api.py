"""KeyedStream / WindowedStream / AllWindowedStream build the job graph as PyFlink's do (no Spark here)."""
import pytest

from pyflink_compat.common import Row, Time, Types
from pyflink_compat.datastream import StreamExecutionEnvironment
from pyflink_compat.runtime.keyed.rolling import MAX, MAX_BY, MIN, MIN_BY, SUM, AccumulateReduceFunction as Accumulate
from pyflink_compat.datastream.functions import KeyedProcessFunction, ProcessWindowFunction
from pyflink_compat.datastream.output_tag import OutputTag
from pyflink_compat.datastream.window import (CountTrigger, EventTimeTrigger, TumblingEventTimeWindows,
                                              CountTumblingWindowAssigner, CountSlidingWindowAssigner)
from pyflink_compat.plan import graph


@pytest.fixture
def stream():
    env = StreamExecutionEnvironment.get_execution_environment()
    return env.from_collection([("a", 1), ("b", 2)], type_info=Types.TUPLE([Types.STRING(), Types.INT()]))


def test_key_by_checks_its_selector_and_keeps_the_element_type(stream):
    with pytest.raises(TypeError, match="^Parameter key_selector should be type of KeySelector or a callable "
                                        "function.$"):
        stream.key_by(3)
    keyed = stream.key_by(lambda x: x[0], key_type=Types.STRING())
    assert keyed._node.kind == graph.KEY_BY and keyed._node.payload.key_type == Types.STRING()
    assert stream.key_by(lambda x: x[0])._node.payload.key_type == Types.PICKLED_BYTE_ARRAY()
    assert keyed.get_type() == stream.get_type()


def test_keyed_operations_are_keyed_process_nodes_with_pyflinks_types(stream):
    keyed = stream.key_by(lambda x: x[0])
    assert keyed.reduce(lambda a, b: a).get_type() == stream.get_type()
    assert keyed.filter(lambda x: True).get_type() == stream.get_type()
    assert keyed.map(lambda x: x).get_type() == Types.PICKLED_BYTE_ARRAY()
    assert keyed.sum(1)._node.kind == graph.KEYED_PROCESS
    with pytest.raises(TypeError, match="^KeyedProcessFunction is required for KeyedStream.$"):
        keyed.process(lambda x: x)
    with pytest.raises(TypeError, match="must be of int or str type"):
        keyed.sum(1.5)
    with pytest.raises(TypeError, match="^The input must be a ReduceFunction or a callable function$"):
        keyed.reduce(None)
    assert stream.key_by(lambda x: x).key_by(lambda x: x[1])._node.input is stream._node   # re-keys the origin


@pytest.mark.parametrize("call, message", [
    (lambda k: k.shuffle(), "Cannot override partitioning for KeyedStream."),
    (lambda k: k.partition_custom(None, None), "Cannot override partitioning for KeyedStream."),
    (lambda k: k.set_parallelism(2), "Set parallelism for KeyedStream is not supported."),
    (lambda k: k.name("x"), "Set name for KeyedStream is not supported."),
    (lambda k: k.cache(), "Cache for KeyedStream is not supported."),
])
def test_keyed_streams_refuse_partitioning_and_settings(stream, call, message):
    with pytest.raises(Exception) as error:
        call(stream.key_by(lambda x: x[0]))
    assert str(error.value) == message


def test_windows_default_triggers_descriptions_and_errors(stream):
    keyed = stream.key_by(lambda x: x[0])
    late = OutputTag("late", Types.TUPLE([Types.STRING(), Types.INT()]))
    result = (keyed.window(TumblingEventTimeWindows.of(Time.seconds(5))).allowed_lateness(1000)
              .side_output_late_data(late).reduce(lambda a, b: a))
    descriptor = result._node.payload
    assert result._node.kind == graph.WINDOW and isinstance(descriptor.trigger, EventTimeTrigger)
    assert descriptor.allowed_lateness == 1000 and descriptor.late_data_output_tag is late
    assert result.get_type() == stream.get_type()
    assert result._node.description.startswith("Window(TumblingEventTimeWindows(5000, 0), EventTimeTrigger")

    class Count(ProcessWindowFunction):
        def process(self, key, context, elements):
            yield key, len(list(elements))
    assert keyed.window(TumblingEventTimeWindows.of(Time.seconds(5))).process(Count()).get_type() == \
        Types.PICKLED_BYTE_ARRAY()
    with pytest.raises(TypeError, match="^window_function should be a WindowFunction or ProcessWindowFunction$"):
        keyed.window(TumblingEventTimeWindows.of(Time.seconds(5))).reduce(lambda a, b: a, window_function=3)
    assert isinstance(keyed.count_window(3)._window_assigner, CountTumblingWindowAssigner)
    assert isinstance(keyed.count_window(3, 1)._window_assigner, CountSlidingWindowAssigner)
    assert isinstance(keyed.count_window(3).reduce(lambda a, b: a)._node.payload.trigger, CountTrigger)
    everything = stream.window_all(TumblingEventTimeWindows.of(Time.seconds(1))).reduce(lambda a, b: a)
    assert everything._node.description.startswith("AllWindow(") and everything._node.input.kind == graph.KEY_BY
    with pytest.raises(TypeError, match="AllWindowFunction or ProcessAllWindowFunction"):
        stream.window_all(TumblingEventTimeWindows.of(Time.seconds(1))).reduce(lambda a, b: a, Count())


def test_a_key_by_may_follow_another_keyed_stage(stream):
    from pyflink_compat.runtime.translate import _check_chain

    class Noop(KeyedProcessFunction):
        def process_element(self, value, ctx):
            yield value
    once = stream.key_by(lambda x: x[0]).process(Noop())
    _check_chain(once.print()._node.chain(), None)                     # one keyed stage
    _check_chain(once.key_by(lambda x: x).process(Noop()).print()._node.chain(), None)    # two


@pytest.mark.parametrize("kind, pairs, expected", [
    (SUM, [(("a", 1), ("a", 2))], ("a", 3)),
    (MIN, [(("a", 5, "x"), ("a", 2, "y"))], ("a", 2, "x")),           # only the field changes
    (MAX, [(("a", 5, "x"), ("a", 2, "y"))], ("a", 5, "x")),
    (MIN_BY, [(("a", 5, "x"), ("a", 2, "y"))], ("a", 2, "y")),        # the whole element
    (MAX_BY, [(("a", 5, "x"), ("a", 5, "y"))], ("a", 5, "x")),        # ties keep the earlier one
])
def test_rolling_aggregations_on_tuples(kind, pairs, expected):
    function = Accumulate(1, kind)
    assert [function.reduce(a, b) for a, b in pairs] == [expected]


def test_rolling_aggregations_on_rows_lists_and_plain_values():
    total = Accumulate("n", SUM)
    first = Row(k="a", n=1)
    result = total.reduce(first, Row(k="a", n=4))
    assert result is first and result == Row(k="a", n=5)               # Rows are updated in place
    assert Accumulate(0, SUM).reduce(2, 3) == 5
    assert Accumulate(0, MAX).reduce([1, 9], [4, 2]) == [4, 9]
    with pytest.raises(TypeError, match="The 1 field selected on a basic type"):
        Accumulate(1, SUM).reduce(2, 3)

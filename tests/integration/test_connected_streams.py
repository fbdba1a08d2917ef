"""connect and broadcast on real Spark: what PyFlink's own data stream tests check of CoMap/CoFlatMap/CoProcess,
KeyedCoProcess and (Keyed)BroadcastProcess functions (their intent, our code), and the errors for misuse.

PyFlink's tests run with parallelism 2 where broadcast elements are seen once per parallel instance; so do
these. The Kafka end-to-end cases against real PyFlink are in tests/side_by_side (connect-comap,
co-process-join, broadcast-rules).
"""
import sys
from collections import defaultdict

import pytest
from pyspark import cloudpickle

from pyflink_compat.common import Row, Types, WatermarkStrategy
from pyflink_compat.common.watermark_strategy import TimestampAssigner
from pyflink_compat.datastream import OutputTag, StreamExecutionEnvironment
from pyflink_compat.datastream.functions import (BroadcastProcessFunction, CoFlatMapFunction, CoMapFunction,
                                                 CoProcessFunction, KeyedBroadcastProcessFunction,
                                                 KeyedCoProcessFunction, KeySelector, MapFunction)
from pyflink_compat.datastream.state import MapStateDescriptor, ReducingStateDescriptor, ValueStateDescriptor
from pyflink_compat.util.exceptions import UnsupportedFeatureError

pytestmark = pytest.mark.integration

# The functions below run in Spark's Python workers, which cannot import this test module.
cloudpickle.register_pickle_by_value(sys.modules[__name__])


def collected(stream):
    with stream.execute_and_collect() as results:
        return sorted(str(value) for value in results)


@pytest.fixture
def env():
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(2)
    return env


class SecondColumnTime(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return int(value[1])


class FirstField(KeySelector):
    def get_key(self, value):
        return value[1]


# -- non-keyed connect --------------------------------------------------------------------------------

class PlusMinus(CoFlatMapFunction):
    def flat_map1(self, value):
        yield value + 1

    def flat_map2(self, value):
        yield value - 1


class AddTwoAddOne(CoMapFunction):
    def map1(self, value):
        return value + 2

    def map2(self, value):
        return value + 1


def test_co_flat_map_and_co_map_of_a_stream_and_its_own_derivative(spark, env):
    ds_1 = env.from_collection([1, 2, 3, 4, 5], type_info=Types.INT())
    ds_2 = ds_1.map(lambda x: x * 2, output_type=Types.INT())
    flat = ds_1.connect(ds_2).flat_map(PlusMinus(), output_type=Types.INT())
    assert collected(flat) == sorted(str(v) for v in [2, 3, 4, 5, 6, 1, 3, 5, 7, 9])
    mapped = ds_1.connect(ds_2).map(AddTwoAddOne(), output_type=Types.INT())
    assert collected(mapped) == sorted(str(v) for v in [3, 4, 5, 6, 7, 3, 5, 7, 9, 11])


def test_a_connect_after_a_connect(spark, env):
    ds_1 = env.from_collection([1, 2, 3], type_info=Types.INT())
    ds_2 = ds_1.map(lambda x: x * 2, output_type=Types.INT())
    chained = ds_1.connect(ds_2).flat_map(PlusMinus(), output_type=Types.INT()).connect(ds_2) \
        .map(AddTwoAddOne(), output_type=Types.INT())
    # PlusMinus: 2, 3, 4 and 1, 3, 5; then +2 on those, +1 on ds_2's 2, 4, 6
    assert collected(chained) == sorted(str(v) for v in [4, 5, 6, 3, 5, 7, 3, 5, 7])


def test_a_connect_of_two_streams_each_out_of_its_own_keyed_operation(spark, env):
    ds_1 = env.from_collection([1, 2, 3], type_info=Types.INT())
    sums = ds_1.key_by(lambda x: x % 2).reduce(lambda x, y: x + y)            # 1, 2, 4
    maxima = ds_1.key_by(lambda x: x % 3).reduce(lambda x, y: max(x, y))      # 1, 2, 3
    mapped = sums.connect(maxima).map(AddTwoAddOne(), output_type=Types.INT())
    assert collected(mapped) == sorted(str(v) for v in [3, 4, 6, 2, 3, 4])
    # and keyed again after a union of the two: a running sum per parity over everything both emitted (the
    # intermediate sums depend on how the two interleave; the number of them and the last ones do not)
    pairs = Types.TUPLE([Types.INT(), Types.INT()])
    merged = sums.union(maxima).map(lambda x: (x % 2, x), output_type=pairs).key_by(lambda pair: pair[0]) \
        .reduce(lambda a, b: (a[0], a[1] + b[1]))
    with merged.execute_and_collect() as results:
        sums_by_parity = [tuple(value) for value in results]
    assert len(sums_by_parity) == 6
    assert {parity: max(total for p, total in sums_by_parity if p == parity) for parity in (0, 1)} == {0: 8, 1: 5}


def test_a_co_maps_output_merged_with_another_stream_into_a_sink_and_into_a_keyed_operation(spark, env):
    env.set_parallelism(1)
    ints, more, others = (env.from_collection(values, type_info=Types.INT()) for values in ([1, 2], [3], [4, 5]))
    mapped = ints.connect(more).map(AddTwoAddOne(), output_type=Types.INT())          # 3, 4 and 4
    assert collected(mapped.union(others)) == sorted(str(v) for v in [3, 4, 4, 4, 5])
    # then keyed: a rolling count per value over both
    counted = mapped.union(others).map(lambda v: (v, 1), output_type=Types.TUPLE([Types.INT(), Types.INT()])) \
        .key_by(lambda pair: pair[0]).reduce(lambda a, b: (a[0], a[1] + b[1]))
    with counted.execute_and_collect() as results:
        counts = [tuple(value) for value in results]
    assert sorted(counts) == [(3, 1), (4, 1), (4, 2), (4, 3), (5, 1)]


class Mark(CoMapFunction):
    def map1(self, value):
        return None if value == 0 else "one:%d" % value       # a None result is dropped, as in PyFlink

    def map2(self, value):
        return "two:%s" % value


def test_co_map_drops_none_results(spark, env):
    ints = env.from_collection([0, 1, 2], type_info=Types.INT())
    words = env.from_collection(["x"], type_info=Types.STRING())
    assert collected(ints.connect(words).map(Mark(), output_type=Types.STRING())) == ["one:1", "one:2", "two:x"]


SIDE = OutputTag("side", Types.INT())


class SplitBoth(CoProcessFunction):
    def process_element1(self, value, ctx):
        yield value[0]
        yield SIDE, value[1]

    def process_element2(self, value, ctx):
        yield value[1]
        yield SIDE, value[0]


def test_co_process_function_side_output(spark, env):
    def job():
        ds1 = env.from_collection([('a', 0), ('b', 1), ('c', 2)], type_info=Types.ROW([Types.STRING(), Types.INT()]))
        ds2 = env.from_collection([(3, 'c'), (1, 'a'), (0, 'd')], type_info=Types.ROW([Types.INT(), Types.STRING()]))
        main = ds1.connect(ds2).process(SplitBoth(), output_type=Types.STRING())
        return main, main.get_side_output(SIDE)
    assert collected(job()[0]) == ['a', 'a', 'b', 'c', 'c', 'd']
    assert collected(job()[1]) == ['0', '0', '1', '1', '2', '3']


class TimerAttempt(CoProcessFunction):
    def process_element1(self, value, ctx):
        ctx.timer_service().register_event_time_timer(10)
        yield value

    def process_element2(self, value, ctx):
        yield value


def test_timers_on_a_non_keyed_connect_fail_with_pyflinks_message(spark, env):
    ints = env.from_collection([1], type_info=Types.INT())
    stream = ints.connect(ints).process(TimerAttempt(), output_type=Types.INT())
    with pytest.raises(Exception, match="Register timers is only supported on a keyed stream"):
        collected(stream)


# -- keyed connect ------------------------------------------------------------------------------------

class CountAndRemind(KeyedCoProcessFunction):
    """Both inputs count into one state per key; the first element of a key sets an event-time timer."""

    def open(self, runtime_context):
        self.count = runtime_context.get_state(ValueStateDescriptor("count", Types.INT()))

    def process_element1(self, value, ctx):
        yield from self._count(value, ctx, "left")

    def process_element2(self, value, ctx):
        yield from self._count(value, ctx, "right")

    def _count(self, value, ctx, side):
        count = (self.count.value() or 0) + 1
        self.count.update(count)
        if count == 1:
            ctx.timer_service().register_event_time_timer(ctx.timestamp() + 1)
        yield Row(ctx.get_current_key(), count, side)

    def on_timer(self, timestamp, ctx):
        yield Row("timer:%s" % ctx.get_current_key(), timestamp, str(ctx.time_domain()))


def test_keyed_co_process_shares_state_and_timers_between_inputs(spark, env):
    row = Types.ROW([Types.STRING(), Types.INT()])
    strategy = WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(SecondColumnTime())
    ds1 = env.from_collection([("a", 1), ("b", 2), ("c", 3)], type_info=row).assign_timestamps_and_watermarks(strategy)
    ds2 = env.from_collection([("b", 2), ("c", 3), ("d", 4)], type_info=row).assign_timestamps_and_watermarks(strategy)
    out = ds1.connect(ds2).key_by(lambda x: x[0], lambda x: x[0]) \
        .process(CountAndRemind(), output_type=Types.ROW([Types.STRING(), Types.LONG(), Types.STRING()])) \
        .map(lambda r: "%s %d %s" % (r[0], r[1], r[2]), output_type=Types.STRING())
    got = collected(out)
    counts = [line for line in got if not line.startswith("timer")]
    assert sorted(counts) == sorted(["a 1 left", "b 1 left", "b 2 right", "c 1 left", "c 2 right", "d 1 right"]) \
        or sorted(counts) == sorted(["a 1 left", "b 1 right", "b 2 left", "c 1 right", "c 2 left", "d 1 right"]) \
        or sorted(counts) == sorted(["a 1 left", "b 1 left", "b 2 right", "c 1 right", "c 2 left", "d 1 right"]) \
        or sorted(counts) == sorted(["a 1 left", "b 1 right", "b 2 left", "c 1 left", "c 2 right", "d 1 right"])
    # one timer per key, set by whichever input came first, at its timestamp + 1
    assert sorted(line for line in got if line.startswith("timer")) == [
        "timer:a 2 TimeDomain.EVENT_TIME", "timer:b 3 TimeDomain.EVENT_TIME", "timer:c 4 TimeDomain.EVENT_TIME",
        "timer:d 5 TimeDomain.EVENT_TIME"]


class KeyedCountSide(KeyedCoProcessFunction):
    def open(self, context):
        self.reducing = context.get_reducing_state(ReducingStateDescriptor("reduce", lambda i, j: i + j, Types.INT()))

    def process_element1(self, value, ctx):
        yield ctx.get_current_key(), value[1]
        self.reducing.add(1)
        yield SIDE, self.reducing.get()

    def process_element2(self, value, ctx):
        yield ctx.get_current_key(), value[0]
        self.reducing.add(1)
        yield SIDE, self.reducing.get()


def test_keyed_co_process_side_output_of_two_keyed_streams(spark, env):
    def job():
        row1 = Types.ROW([Types.STRING(), Types.INT()])
        row2 = Types.ROW([Types.INT(), Types.STRING()])
        ds1 = env.from_collection([('a', 1), ('b', 2), ('a', 3), ('b', 4)], type_info=row1)
        ds2 = env.from_collection([(8, 'a'), (7, 'b'), (6, 'a'), (5, 'b')], type_info=row2)
        main = ds1.key_by(lambda e: e[0]).connect(ds2.key_by(lambda e: e[1])) \
            .process(KeyedCountSide(), output_type=Types.TUPLE([Types.STRING(), Types.INT()]))
        return main, main.get_side_output(SIDE)
    assert collected(job()[0]) == sorted(str(v) for v in [('a', 1), ('b', 2), ('a', 3), ('b', 4), ('b', 5),
                                                          ('a', 6), ('b', 7), ('a', 8)])
    assert collected(job()[1]) == ['1', '1', '2', '2', '3', '3', '4', '4']


class PreviousPerInput(CoMapFunction):
    """Keyed state per input: each input sees its own previous element of the key."""

    def open(self, runtime_context):
        self.pre1 = runtime_context.get_state(ValueStateDescriptor("pre1", Types.STRING()))
        self.pre2 = runtime_context.get_state(ValueStateDescriptor("pre2", Types.STRING()))

    def map1(self, value):
        previous = self.pre1.value()
        self.pre1.update(value[0])
        return "1:%s after %s" % (value[0], previous)

    def map2(self, value):
        previous = self.pre2.value()
        self.pre2.update(value[0])
        return "2:%s after %s" % (value[0], previous)


def test_keyed_co_map_has_keyed_state(spark, env):
    row = Types.ROW([Types.STRING(), Types.INT()])
    data = [('a', 0), ('b', 0), ('c', 1), ('d', 1), ('e', 2)]
    ds1 = env.from_collection(data, type_info=row).key_by(FirstField(), key_type=Types.INT())
    ds2 = env.from_collection(data, type_info=row)
    out = ds1.connect(ds2).key_by(FirstField(), FirstField(), key_type=Types.INT()) \
        .map(PreviousPerInput(), output_type=Types.STRING())
    assert collected(out) == sorted(["%d:%s" % (side, text) for side in (1, 2) for text in
                                     ["a after None", "b after a", "c after None", "d after c", "e after None"]])


class Numbered(CoFlatMapFunction):
    def open(self, runtime_context):
        self.seen = runtime_context.get_state(ValueStateDescriptor("seen", Types.INT()))

    def flat_map1(self, value):
        self.seen.update((self.seen.value() or 0) + 1)
        yield str(value[0] + self.seen.value())

    def flat_map2(self, value):
        yield value[0]


def test_keyed_co_flat_map_with_one_key_for_everything(spark, env):
    ds1 = env.from_collection([(1, 1), (2, 2), (3, 3)], type_info=Types.ROW([Types.INT(), Types.INT()]))
    ds2 = env.from_collection([("a", "a"), ("b", "b"), ("c", "c"), ("a", "a")],
                              type_info=Types.ROW([Types.STRING(), Types.STRING()]))
    out = ds1.connect(ds2).key_by(lambda x: 1, lambda x: 1).flat_map(Numbered(), output_type=Types.STRING())
    assert collected(out) == ['2', '4', '6', 'a', 'a', 'b', 'c']


# -- broadcast ----------------------------------------------------------------------------------------

MAPPING = MapStateDescriptor("mapping", key_type_info=Types.INT(), value_type_info=Types.STRING())


class ParityNames(BroadcastProcessFunction):
    """Elements wait in the instance until the broadcast side names their parity."""

    def __init__(self, descriptor):
        self.descriptor = descriptor
        self.cache = defaultdict(list)

    def process_element(self, value, ctx):
        names = ctx.get_broadcast_state(self.descriptor)
        key = value % 2
        if names.contains(key):
            for waiting in self.cache.pop(key, []):
                yield names.get(key) + str(waiting)
            yield names.get(key) + str(value)
        else:
            self.cache[key].append(value)

    def process_broadcast_element(self, value, ctx):
        yield str(value[0]) + value[1]
        ctx.get_broadcast_state(self.descriptor).put(value[0], value[1])
        for waiting in self.cache.pop(value[0], []):
            yield value[1] + str(waiting)


def test_broadcast_process_function_sees_every_broadcast_element_per_instance(spark, env):
    ds = env.from_collection([1, 2, 3, 4, 5], type_info=Types.INT())
    names = env.from_collection([(0, "a"), (1, "b")], type_info=Types.TUPLE([Types.INT(), Types.STRING()]))
    out = ds.connect(names.broadcast(MAPPING)).process(ParityNames(MAPPING), output_type=Types.STRING())
    # the broadcast side runs in both parallel instances: its own outputs come twice
    assert collected(out) == ["0a", "0a", "1b", "1b", "a2", "a4", "b1", "b3", "b5"]


class ReadOnlyAttempt(BroadcastProcessFunction):
    def process_element(self, value, ctx):
        state = ctx.get_broadcast_state(MAPPING)
        yield "put" if hasattr(state, "put") else "read-only"
        yield "empty" if state.is_empty() else "filled"

    def process_broadcast_element(self, value, ctx):
        ctx.get_broadcast_state(MAPPING).put(value, "x")
        return []


def test_the_non_broadcast_side_reads_broadcast_state_only(spark, env):
    env.set_parallelism(1)
    ds = env.from_collection([1], type_info=Types.INT())
    rules = env.from_collection([7], type_info=Types.INT())
    out = ds.connect(rules.broadcast(MAPPING)).process(ReadOnlyAttempt(), output_type=Types.STRING())
    assert collected(out) == ["filled", "read-only"]


class UndeclaredState(BroadcastProcessFunction):
    def process_element(self, value, ctx):
        yield value

    def process_broadcast_element(self, value, ctx):
        ctx.get_broadcast_state(MapStateDescriptor("other", Types.INT(), Types.INT())).put(1, 1)
        return []


def test_a_broadcast_state_not_named_in_broadcast_fails_with_flinks_message(spark, env):
    ds = env.from_collection([1], type_info=Types.INT())
    out = ds.connect(env.from_collection([1], type_info=Types.INT()).broadcast(MAPPING)) \
        .process(UndeclaredState(), output_type=Types.INT())
    with pytest.raises(Exception, match="The requested state does not exist"):
        collected(out)


def _text(s, t):
    return "value: {}, ts: {}".format(s, t)


class KeyedParityNames(KeyedBroadcastProcessFunction):
    def __init__(self, descriptor):
        self.descriptor = descriptor
        self.cache = None

    def open(self, runtime_context):
        self.cache = defaultdict(list)

    def process_element(self, value, ctx):
        names = ctx.get_broadcast_state(self.descriptor)
        key = value[0] % 2
        if names.contains(key):
            for waiting in self.cache.pop(key, []):
                yield _text(names.get(key) + str(waiting[0]), waiting[1])
            yield _text(names.get(key) + str(value[0]), value[1])
        else:
            self.cache[key].append(value)
        ctx.timer_service().register_event_time_timer(ctx.timestamp() + 10000)

    def process_broadcast_element(self, value, ctx):
        key = value[0]
        yield _text(str(key) + value[2], ctx.timestamp())
        ctx.get_broadcast_state(self.descriptor).put(key, value[2])
        for waiting in self.cache.pop(key, []):
            yield _text(value[2] + str(waiting[0]), waiting[1])

    def on_timer(self, timestamp, ctx):
        yield _text(ctx.get_current_key(), timestamp)


def test_keyed_broadcast_process_function_with_timers(spark, env):
    ds = env.from_collection([(1, '1603708211000'), (2, '1603708212000'), (3, '1603708213000'),
                              (4, '1603708214000')], type_info=Types.ROW([Types.INT(), Types.STRING()]))
    names = env.from_collection([(0, '1603708215000', 'a'), (1, '1603708215000', 'b')],
                                type_info=Types.ROW([Types.INT(), Types.STRING(), Types.STRING()]))
    strategy = WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(SecondColumnTime())
    ds = ds.assign_timestamps_and_watermarks(strategy)
    names = names.assign_timestamps_and_watermarks(strategy)
    out = ds.key_by(lambda t: t[0]).connect(names.broadcast(MAPPING)) \
        .process(KeyedParityNames(MAPPING), output_type=Types.STRING())
    assert collected(out) == sorted([
        'value: 0a, ts: 1603708215000', 'value: 0a, ts: 1603708215000', 'value: 1, ts: 1603708221000',
        'value: 1b, ts: 1603708215000', 'value: 1b, ts: 1603708215000', 'value: 2, ts: 1603708222000',
        'value: 3, ts: 1603708223000', 'value: 4, ts: 1603708224000', 'value: a2, ts: 1603708212000',
        'value: a4, ts: 1603708214000', 'value: b1, ts: 1603708211000', 'value: b3, ts: 1603708213000'])


class SideBoth(KeyedBroadcastProcessFunction):
    def open(self, context):
        self.reducing = context.get_reducing_state(ReducingStateDescriptor("reduce", lambda i, j: i + j, Types.INT()))

    def process_element(self, value, ctx):
        self.reducing.add(value[1])
        yield value[0]
        yield SIDE, self.reducing.get()

    def process_broadcast_element(self, value, ctx):
        yield value[1]
        yield SIDE, value[0]


def test_keyed_broadcast_side_output(spark, env):
    def job():
        ds = env.from_collection([('a', 0), ('b', 1), ('a', 2), ('b', 3)],
                                 type_info=Types.ROW([Types.STRING(), Types.INT()]))
        rules = env.from_collection([(5, 'c'), (6, 'd')], type_info=Types.ROW([Types.INT(), Types.STRING()]))
        main = ds.key_by(lambda e: e[0]).connect(rules.broadcast(MAPPING)) \
            .process(SideBoth(), output_type=Types.STRING())
        return main, main.get_side_output(SIDE)
    assert collected(job()[0]) == ['a', 'a', 'b', 'b', 'c', 'c', 'd', 'd']
    assert collected(job()[1]) == ['0', '1', '2', '4', '5', '5', '6', '6']


# -- misuse -------------------------------------------------------------------------------------------

class JustMap(MapFunction):
    def map(self, value):
        return value


def test_wrong_function_types_fail_with_pyflinks_messages(env):
    ints = env.from_collection([1], type_info=Types.INT())
    connected = ints.connect(ints)
    with pytest.raises(TypeError, match="^The input function must be a CoMapFunction!$"):
        connected.map(JustMap())
    with pytest.raises(TypeError, match="^The input must be a CoFlatMapFunction!$"):
        connected.flat_map(AddTwoAddOne())
    with pytest.raises(TypeError, match="^The input must be a CoProcessFunction or KeyedCoProcessFunction!$"):
        connected.process(AddTwoAddOne())
    broadcast = ints.connect(ints.broadcast(MAPPING))
    with pytest.raises(TypeError, match="^KeyedBroadcastProcessFunction should be applied to keyed DataStream$"):
        broadcast.process(SideBoth())
    keyed = ints.key_by(lambda x: x).connect(ints.broadcast(MAPPING))
    with pytest.raises(TypeError, match="^BroadcastProcessFunction should be applied to non-keyed DataStream$"):
        keyed.process(ParityNames(MAPPING))
    with pytest.raises(Exception, match="^Cannot override partitioning for KeyedStream.$"):
        ints.key_by(lambda x: x).broadcast(MAPPING)

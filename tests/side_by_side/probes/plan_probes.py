"""Job graphs and the plans ``get_execution_plan()`` prints for them: one block per job, node ids renumbered
in the order the plan lists them (Flink's ids count its Java transformations; the order is what matters).
Run under real PyFlink and under pyflink-compat (``--compat``) and compared by test_execution_plan.py."""
import json
import os
import re
import sys

if "--compat" in sys.argv:
    from pyflink_compat import aliasing
    aliasing.install()
import pyflink
from pyflink.common import SimpleStringSchema, Time, Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import (KeyedProcessFunction, OutputTag, ProcessFunction, StreamExecutionEnvironment)
from pyflink.datastream.connectors.kafka import (KafkaOffsetsInitializer, KafkaRecordSerializationSchema,
                                                 KafkaSink, KafkaSource)
from pyflink.datastream.functions import (AggregateFunction, BroadcastProcessFunction, CoMapFunction,
                                          KeyedBroadcastProcessFunction, KeyedCoProcessFunction,
                                          ProcessWindowFunction)
from pyflink.datastream.state import MapStateDescriptor
from pyflink.datastream.window import (TumblingEventTimeWindows, TumblingProcessingTimeWindows)

PAIR = Types.TUPLE([Types.INT(), Types.STRING()])


class Both(CoMapFunction):
    def map1(self, value):
        return value

    def map2(self, value):
        return value


class BothKeyed(KeyedCoProcessFunction):
    def process_element1(self, value, ctx):
        yield value

    def process_element2(self, value, ctx):
        yield value


class Rules(BroadcastProcessFunction):
    def process_element(self, value, ctx):
        yield value

    def process_broadcast_element(self, value, ctx):
        pass


class KeyedRules(KeyedBroadcastProcessFunction):
    def process_element(self, value, ctx):
        yield value

    def process_broadcast_element(self, value, ctx):
        pass


class Passing(ProcessFunction):
    def process_element(self, value, ctx):
        yield value


class KeyedPassing(KeyedProcessFunction):
    def process_element(self, value, ctx):
        yield value


class First(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[0]


class Keys(ProcessWindowFunction):
    def process(self, key, context, elements):
        yield key


class Count(AggregateFunction):
    def create_accumulator(self):
        return 0

    def add(self, value, accumulator):
        return accumulator + 1

    def get_result(self, accumulator):
        return accumulator

    def merge(self, a, b):
        return a + b


def environment(parallelism=2):
    env = StreamExecutionEnvironment.get_execution_environment()
    if "--compat" not in sys.argv:       # the oracle loads the Kafka connector's classes from its jar
        env.add_jars("file://" + os.path.join(os.path.dirname(pyflink.__file__), "lib", "flink-connector-kafka.jar"))
    env.set_parallelism(parallelism)
    return env


def collection(env):
    return env.from_collection([(1, "a"), (2, "b")], PAIR)


def kafka(env, name="kafka-in"):
    source = (KafkaSource.builder().set_bootstrap_servers("localhost:9092").set_topics("in").set_group_id("g")
              .set_value_only_deserializer(SimpleStringSchema())
              .set_starting_offsets(KafkaOffsetsInitializer.earliest()).build())
    return env.from_source(source, WatermarkStrategy.no_watermarks(), name)


def kafka_sink():
    return (KafkaSink.builder().set_bootstrap_servers("localhost:9092")
            .set_record_serializer(KafkaRecordSerializationSchema.builder().set_topic("out")
                                   .set_value_serialization_schema(SimpleStringSchema()).build()).build())


def partitioners(env):
    up = kafka(env).map(lambda s: s.upper(), Types.STRING()).name("up").map(lambda s: s + "!", Types.STRING())
    mixed = up.filter(lambda s: len(s) > 1).set_parallelism(3).rebalance().map(lambda s: s, Types.STRING()) \
        .set_parallelism(1)
    tail = mixed.shuffle().map(lambda s: s, Types.STRING()).rescale().map(lambda s: s, Types.STRING()) \
        .forward().map(lambda s: s, Types.STRING())
    tail.key_by(lambda s: s[0], Types.STRING()).reduce(lambda a, b: a + b).print()
    tail.map(lambda s: s, Types.STRING()).disable_chaining().map(lambda s: s, Types.STRING()) \
        .sink_to(kafka_sink()).name("ksink")


def keyed_chain(env):
    collection(env).map(lambda x: x).name("m1").key_by(lambda x: x[1]).process(KeyedPassing()).name("kp") \
        .map(lambda x: x).print()


def side_outputs(env):
    tag = OutputTag("late", PAIR)
    processed = collection(env).process(Passing(), PAIR).name("p")
    processed.get_side_output(tag).print()
    processed.map(lambda x: x).print()


def event_time_window(env):
    collection(env).assign_timestamps_and_watermarks(
        WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(First())) \
        .key_by(lambda x: x[1]).window(TumblingEventTimeWindows.of(Time.seconds(1))).reduce(lambda a, b: a).print()


def chaining_settings(env):
    collection(env).map(lambda x: x).start_new_chain().map(lambda x: x).set_parallelism(2).map(lambda x: x) \
        .uid("u").set_max_parallelism(10).print().set_parallelism(1)
    collection(env).map(lambda x: x).name("a").slot_sharing_group("g1").map(lambda x: x).name("b").print()


def rolling(env):
    collection(env).filter(lambda x: True).flat_map(lambda x: [x]).key_by(lambda x: x[1]).sum(0) \
        .key_by(lambda x: x[1]).max(0).print()


def sinks_and_windows(env):
    data = collection(env)
    data.map(lambda x: str(x)).sink_to(kafka_sink())
    data.map(lambda x: str(x), Types.STRING()).print("ident")
    data.key_by(lambda x: x[1]).window(TumblingProcessingTimeWindows.of(Time.seconds(1))).process(Keys()) \
        .name("pw").print()
    data.key_by(lambda x: x[1]).count_window(2).reduce(lambda a, b: a).print()
    data.window_all(TumblingProcessingTimeWindows.of(Time.seconds(1))).reduce(lambda a, b: a).print()


def operator_names(env):
    data = collection(env)
    data.process(Passing()).print()
    data.key_by(lambda x: x[1]).process(KeyedPassing(), Types.STRING()).print()
    data.assign_timestamps_and_watermarks(WatermarkStrategy.for_monotonous_timestamps()) \
        .map(lambda x: x, PAIR).print()
    data.key_by(lambda x: x[1]).min_by(0).print()
    data.key_by(lambda x: x[1]).window(TumblingProcessingTimeWindows.of(Time.seconds(1))).aggregate(Count()).print()
    data.map(lambda x: x).set_parallelism(3).print().name("named print")


def late_data(env):
    # its own type object: PyFlink cannot pickle a window whose tag's type a stream already uses
    tag = OutputTag("late", Types.TUPLE([Types.INT(), Types.STRING()]))
    windowed = collection(env).key_by(lambda x: x[1]).window(TumblingProcessingTimeWindows.of(Time.seconds(1))) \
        .side_output_late_data(tag).reduce(lambda a, b: a)
    windowed.get_side_output(tag).map(lambda x: x).print()
    windowed.print()


def forward_with_new_parallelism(env):
    env.set_parallelism(1)
    collection(env).map(lambda x: x).forward().map(lambda x: x).set_parallelism(3).print()


def unions(env):
    first, second = collection(env), collection(env).map(lambda x: x, PAIR)
    merged = first.union(second, first).map(lambda x: x, PAIR)
    merged.print()
    second.union(merged.rebalance()).filter(lambda x: True).print()


def connected(env):
    first, second = collection(env), collection(env).map(lambda x: x, PAIR)
    first.connect(second).map(Both(), PAIR).print()
    first.connect(second).key_by(lambda x: x[0], lambda x: x[0]).process(BothKeyed(), PAIR).map(lambda x: x).print()


def broadcasts(env):
    rules = collection(env)
    descriptor = MapStateDescriptor("rules", Types.STRING(), Types.STRING())
    events = kafka(env)
    events.connect(rules.broadcast(descriptor)).process(Rules(), Types.STRING()).print()
    events.key_by(lambda x: x).connect(rules.broadcast(descriptor)).process(KeyedRules(), Types.STRING()).print()


def custom_partitioning(env):
    projected = collection(env).map(lambda x: x, PAIR).project(1, 0)
    projected.partition_custom(lambda key, n: len(key) % n, lambda x: x[0]).map(lambda x: x).print()
    routed = kafka(env).partition_custom(lambda key, n: 0, lambda x: x).set_parallelism(3)
    routed.key_by(lambda x: x).reduce(lambda a, b: a + b).partition_custom(lambda key, n: 1, lambda x: x).print()
    projected.cache().print()


def union_then_key_by(env):
    # the key-adding map is forward-connected to every input of the union: a source of parallelism 1 is refused
    collection(env).map(lambda x: x, PAIR).union(collection(env)).key_by(lambda x: x[0]) \
        .reduce(lambda a, b: a).print()


def connect_after_keyed(env):
    totals = kafka(env).map(lambda x: (1, x), PAIR).key_by(lambda x: x[1]).reduce(lambda a, b: a)
    totals.connect(collection(env)).map(Both(), PAIR).print()
    totals.connect(kafka(env, "second").map(lambda x: (2, x), PAIR)).key_by(lambda x: x[1], lambda x: x[1]) \
        .process(BothKeyed(), PAIR).print()


def dangling_operators(env):
    # operators nothing reads are listed (and run) too
    mapped = collection(env).map(lambda x: x, PAIR)
    mapped.print()
    mapped.filter(lambda x: True).map(lambda x: x)
    mapped.key_by(lambda x: x[0])
    kafka(env).key_by(lambda x: x).reduce(lambda a, b: a)


def renumbered(plan: str) -> str:
    """The plan text with ids replaced by their position in the node list."""
    order = {node["id"]: position for position, node in enumerate(json.loads(plan)["nodes"], 1)}
    return re.sub(r'"id" : (\d+)', lambda m: '"id" : %d' % order[int(m.group(1))], plan)


for job in (partitioners, keyed_chain, side_outputs, event_time_window, chaining_settings, rolling,
            sinks_and_windows, operator_names, late_data, forward_with_new_parallelism, unions, connected,
            broadcasts, custom_partitioning, union_then_key_by,
            dangling_operators, connect_after_keyed):
    env = environment()
    print("== %s" % job.__name__)
    try:
        job(env)
        print(renumbered(env.get_execution_plan()))
    except Exception as e:      # Flink's error, from the Java exception's first line on both engines
        message = next((line for line in str(e).splitlines() if "Exception:" in line), str(e))
        print("raises: %s" % re.sub(r"-\d+ parallelism", "-<id> parallelism", message.split("Exception: ", 1)[-1]))

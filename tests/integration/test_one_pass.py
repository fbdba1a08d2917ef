"""Several sinks of one source run as one pass (runtime/fan_out.py): the source is read once, every function
before the split is called once per element (non-deterministic functions agree between sinks), and the group's
offsets are committed once."""
import logging
import uuid

import pytest

from kafka_helpers import consume, create_topic, produce, unique_topic
from pyflink_compat.common import SimpleStringSchema, Types, WatermarkStrategy
from pyflink_compat.datastream import (KeyedProcessFunction, OutputTag, ProcessFunction,
                                       StreamExecutionEnvironment)
from pyflink_compat.datastream.state import ValueStateDescriptor
from pyflink_compat.datastream.connectors.base import DeliveryGuarantee
from pyflink_compat.datastream.connectors.kafka import (KafkaOffsetsInitializer, KafkaRecordSerializationSchema,
                                                        KafkaSink, KafkaSource)

pytestmark = pytest.mark.integration


def _source(bootstrap, topic, group=None):
    builder = (KafkaSource.builder().set_bootstrap_servers(bootstrap).set_topics(topic)
               .set_value_only_deserializer(SimpleStringSchema())
               .set_starting_offsets(KafkaOffsetsInitializer.earliest())
               .set_bounded(KafkaOffsetsInitializer.latest()))
    if group:       # without checkpointing, Kafka's auto-commit commits after each micro-batch
        builder = builder.set_group_id(group).set_property("enable.auto.commit", "true")
    return builder.build()


def _sink(bootstrap, topic):
    return (KafkaSink.builder().set_bootstrap_servers(bootstrap)
            .set_record_serializer(KafkaRecordSerializationSchema.builder().set_topic(topic)
                                   .set_value_serialization_schema(SimpleStringSchema()).build())
            .set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE).build())


def _tagging():
    """A function whose result differs at every call (defined in a function: workers cannot import this
    module, so it travels by value)."""
    def tagged(value):
        return "%s@%s" % (value, uuid.uuid4().hex)
    return tagged


def test_print_and_two_kafka_sinks_see_one_call_per_element(spark, bootstrap, capsys, caplog):
    source_topic = create_topic(bootstrap, unique_topic("one-pass-in"), partitions=3)
    all_topic = create_topic(bootstrap, unique_topic("one-pass-all"))
    long_topic = create_topic(bootstrap, unique_topic("one-pass-long"))
    words = ["w%03d%s" % (i, "x" * (i % 4)) for i in range(90)]
    for partition in range(3):
        produce(bootstrap, source_topic, words[partition::3], partition=partition)
    group = unique_topic("one-pass-group")

    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    tagged = env.from_source(_source(bootstrap, source_topic, group), WatermarkStrategy.no_watermarks(), "words") \
        .map(_tagging(), output_type=Types.STRING())
    tagged.print("all")
    tagged.sink_to(_sink(bootstrap, all_topic))
    tagged.filter(lambda s: s.split("@")[0].endswith("xxx")).sink_to(_sink(bootstrap, long_topic))
    with caplog.at_level(logging.INFO, logger="pyflink_compat"):
        env.execute("one pass")

    printed = sorted(line[len("all> "):] for line in capsys.readouterr().out.splitlines() if line.startswith("all> "))
    written = sorted(r.value.decode() for r in consume(bootstrap, all_topic, 90))
    assert len(printed) == 90 and printed == written           # the same call's value in both sinks
    assert sorted(p.split("@")[0] for p in printed) == sorted(words)
    long_written = sorted(r.value.decode() for r in consume(bootstrap, long_topic, 22))
    assert long_written == [p for p in printed if p.split("@")[0].endswith("xxx")]
    assert any("running 1 Spark query" in r.getMessage() for r in caplog.records)
    from kafka import KafkaAdminClient, TopicPartition
    admin = KafkaAdminClient(bootstrap_servers=bootstrap)
    try:
        answer = admin.list_group_offsets({group: [TopicPartition(source_topic, p) for p in range(3)]})
    finally:
        admin.close()
    assert {tp.partition: meta.offset for tp, meta in answer[group].items()} == {0: 30, 1: 30, 2: 30}


def test_main_and_side_output_come_from_one_call(spark, bootstrap, capsys):
    odd, tagged = OutputTag("odd", Types.STRING()), _tagging()

    class Split(ProcessFunction):
        def process_element(self, value, ctx):
            value = tagged(value)
            if int(value[1:4]) % 2:
                yield odd, value
            yield value

    source_topic = create_topic(bootstrap, unique_topic("one-pass-side-in"))
    side_topic = create_topic(bootstrap, unique_topic("one-pass-side-out"))
    produce(bootstrap, source_topic, ["w%03d" % i for i in range(20)])
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    processed = env.from_source(_source(bootstrap, source_topic), WatermarkStrategy.no_watermarks(), "words") \
        .process(Split(), output_type=Types.STRING())
    processed.print("main")
    processed.get_side_output(odd).sink_to(_sink(bootstrap, side_topic))
    env.execute("side and main")
    main = sorted(line[len("main> "):] for line in capsys.readouterr().out.splitlines())
    side = sorted(r.value.decode() for r in consume(bootstrap, side_topic, 10))
    assert len(main) == 20 and len(side) == 10
    assert side == [m for m in main if int(m[1:4]) % 2]


def test_a_failed_send_to_one_sink_of_a_pass_fails_the_job(spark, bootstrap, capsys):
    # Fault injected: one of the pass's Kafka sinks sends to an illegal topic. The task, hence the job, fails;
    # nothing is reported written.
    good = create_topic(bootstrap, unique_topic("one-pass-good"))
    bad = (KafkaSink.builder().set_bootstrap_servers(bootstrap)
           .set_record_serializer(KafkaRecordSerializationSchema.builder().set_topic("no/such topic")
                                  .set_value_serialization_schema(SimpleStringSchema()).build())
           .set_property("max.block.ms", "5000").set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE).build())
    env = StreamExecutionEnvironment.get_execution_environment()
    words = env.from_collection(["a", "b"], type_info=Types.STRING())
    words.sink_to(_sink(bootstrap, good))
    words.sink_to(bad)
    with pytest.raises(Exception, match='Topic name "no/such topic" is illegal'):
        env.execute("one pass, one failing sink")


def test_a_source_feeding_a_keyed_operation_and_other_sinks_is_read_once(spark, bootstrap, capsys, caplog):
    source_topic = create_topic(bootstrap, unique_topic("one-pass-keyed-in"), partitions=2)
    all_topic = create_topic(bootstrap, unique_topic("one-pass-keyed-all"))
    keyed_topic = create_topic(bootstrap, unique_topic("one-pass-keyed-out"))
    words = ["k%d-%03d" % (i % 5, i) for i in range(60)]
    for partition in range(2):
        produce(bootstrap, source_topic, words[partition::2], partition=partition)

    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(2)
    tagged = env.from_source(_source(bootstrap, source_topic), WatermarkStrategy.no_watermarks(), "words") \
        .map(_tagging(), output_type=Types.STRING())
    tagged.print("all")
    tagged.sink_to(_sink(bootstrap, all_topic))
    keyed = tagged.key_by(lambda s: s[:2], key_type=Types.STRING()).map(lambda s: "keyed " + s,
                                                                         output_type=Types.STRING())
    keyed.sink_to(_sink(bootstrap, keyed_topic))
    keyed.print("keyed")
    with caplog.at_level(logging.INFO, logger="pyflink_compat"):
        env.execute("one pass with a keyed stage")

    lines = capsys.readouterr().out.splitlines()
    printed = sorted(line.split("> ", 1)[1] for line in lines if line.startswith("all:"))
    printed_keyed = sorted(line.split("> ", 1)[1] for line in lines if line.startswith("keyed:"))
    written = sorted(r.value.decode() for r in consume(bootstrap, all_topic, 60))
    written_keyed = sorted(r.value.decode() for r in consume(bootstrap, keyed_topic, 60))
    # one call of the map per element: the keyed operation got the very values the other sinks did
    assert len(printed) == 60 and printed == written
    assert sorted(p.split("@")[0] for p in printed) == sorted(words)
    assert written_keyed == printed_keyed == sorted("keyed " + p for p in printed)
    assert any("running 1 Spark query" in r.getMessage() for r in caplog.records)


def test_keyed_operations_of_one_key_by_run_side_by_side_in_one_query(spark, bootstrap, capsys, caplog):
    # A rolling reduce, a count window and a KeyedProcessFunction's side output, all reading one key_by: one read
    # of the source, one call of the map per element (every operation sees the same tagged values), each
    # operation with its own state.
    source_topic = create_topic(bootstrap, unique_topic("siblings-in"), partitions=2)
    windows_topic = create_topic(bootstrap, unique_topic("siblings-windows"))
    words = ["k%d-%03d" % (i % 3, i) for i in range(30)]
    for partition in range(2):
        produce(bootstrap, source_topic, words[partition::2], partition=partition)
    odd = OutputTag("odd", Types.STRING())

    class Numbered(KeyedProcessFunction):
        def open(self, runtime_context):
            self.seen = runtime_context.get_state(ValueStateDescriptor("seen", Types.INT()))

        def process_element(self, value, ctx):
            seen = (self.seen.value() or 0) + 1
            self.seen.update(seen)
            if seen % 2:
                yield odd, "%s #%d" % (value[1], seen)

    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(2)
    tagged = env.from_source(_source(bootstrap, source_topic), WatermarkStrategy.no_watermarks(), "words") \
        .map(_tagging(), output_type=Types.STRING()) \
        .map(lambda s: (s[:2], s), output_type=Types.TUPLE([Types.STRING(), Types.STRING()]))
    keyed = tagged.key_by(lambda t: t[0], key_type=Types.STRING())
    keyed.reduce(lambda a, b: (a[0], a[1] + "|" + b[1])).map(lambda t: t[1], output_type=Types.STRING()) \
        .print("rolling")
    keyed.count_window(10).reduce(lambda a, b: (a[0], a[1] + "|" + b[1])) \
        .map(lambda t: t[1], output_type=Types.STRING()).sink_to(_sink(bootstrap, windows_topic))
    keyed.process(Numbered(), output_type=Types.STRING()).get_side_output(odd).print("odd")
    with caplog.at_level(logging.INFO, logger="pyflink_compat"):
        env.execute("keyed operations side by side")

    lines = capsys.readouterr().out.splitlines()
    rolling = [line.split("> ", 1)[1] for line in lines if line.startswith("rolling:")]
    odd_lines = [line.split("> ", 1)[1] for line in lines if line.startswith("odd:")]
    windows = [r.value.decode() for r in consume(bootstrap, windows_topic, 3)]
    assert len(rolling) == 30 and len(windows) == 3 and len(odd_lines) == 15
    tags_of = {}                       # key -> its 10 tagged values, as the count windows saw them
    for window in windows:
        tags = window.split("|")
        assert len(tags) == 10
        tags_of[tags[0][:2]] = set(tags)
    # the rolling reduce's last value per key holds the very same calls' values
    for key, tags in tags_of.items():
        assert set(max((r for r in rolling if r.startswith(key)), key=len).split("|")) == tags
    # ... and so does the process function's side output (every other element of a key)
    assert {line.split(" #")[0] for line in odd_lines} <= set().union(*tags_of.values())
    assert sorted(int(line.split(" #")[1]) for line in odd_lines) == sorted([1, 3, 5, 7, 9] * 3)
    assert sorted(tag.split("@")[0] for tags in tags_of.values() for tag in tags) == sorted(words)
    assert any("running 1 Spark query" in r.getMessage() for r in caplog.records)


@pytest.mark.parametrize("where", ["beside the keyed operation", "after the keyed operation"])
def test_a_failed_send_in_a_keyed_query_fails_the_job(spark, bootstrap, capsys, where):
    # Fault injected: a Kafka sink of a keyed query sends to an illegal topic, either riding along the stage's
    # read of the source or written by the keyed subtasks. The task, hence the job, fails.
    good = create_topic(bootstrap, unique_topic("keyed-pass-good"))
    bad = (KafkaSink.builder().set_bootstrap_servers(bootstrap)
           .set_record_serializer(KafkaRecordSerializationSchema.builder().set_topic("no/such topic")
                                  .set_value_serialization_schema(SimpleStringSchema()).build())
           .set_property("max.block.ms", "5000").set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE).build())
    env = StreamExecutionEnvironment.get_execution_environment()
    words = env.from_collection(["a", "b", "a"], type_info=Types.STRING())
    keyed = words.key_by(lambda w: w, key_type=Types.STRING()).map(lambda w: w.upper(), output_type=Types.STRING())
    if where == "beside the keyed operation":
        keyed.sink_to(_sink(bootstrap, good))
        words.sink_to(bad)
    else:
        words.sink_to(_sink(bootstrap, good))
        keyed.sink_to(bad)
    with pytest.raises(Exception, match='Topic name "no/such topic" is illegal'):
        env.execute("keyed query, one failing sink")


def test_a_union_of_two_branches_of_one_stream_passes_each_branchs_elements_through_the_nodes_after_it(
        spark, bootstrap, capsys):
    """source -> parse -> two filters -> union -> map -> print: the map after the union is on two paths of the
    one pass, each branch's elements pass it once (not the first branch's twice)."""
    topic = create_topic(bootstrap, unique_topic("one-pass-union"))
    produce(bootstrap, topic, ["ann 1", "bob 2", "ann 3", "carla 4"])
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    parsed = env.from_source(_source(bootstrap, topic), WatermarkStrategy.no_watermarks(), "lines") \
        .map(lambda line: line.upper(), output_type=Types.STRING())
    anns = parsed.filter(lambda line: line.startswith("ANN"))
    others = parsed.filter(lambda line: not line.startswith("ANN")).map(lambda line: "other " + line,
                                                                        output_type=Types.STRING())
    anns.union(others).map(lambda line: "<%s>" % line, output_type=Types.STRING()).print("u")
    env.execute("union of branches")
    printed = [line for line in capsys.readouterr().out.splitlines() if line.startswith("u> ")]
    assert sorted(printed) == ["u> <ANN 1>", "u> <ANN 3>", "u> <other BOB 2>", "u> <other CARLA 4>"]


def test_an_operation_feeding_sinks_and_a_later_operation_runs_once(spark, bootstrap, capsys, caplog):
    """A KeyedProcessFunction whose outputs (main and side) go to sinks and on to a second keyed operation: one
    instance of it (one call per element, one state), whatever reads its outputs; a sink reading both operations
    (a union) gets each one's outputs."""
    source_topic = create_topic(bootstrap, unique_topic("shared-op-in"), partitions=2)
    first_topic = create_topic(bootstrap, unique_topic("shared-op-first"))
    second_topic = create_topic(bootstrap, unique_topic("shared-op-second"))
    words = ["k%d-%03d" % (i % 3, i) for i in range(40)]
    for partition in range(2):
        produce(bootstrap, source_topic, words[partition::2], partition=partition)
    seen_tag = OutputTag("seen", Types.STRING())

    class Numbered(KeyedProcessFunction):
        """Each element with its number among its key's and a tag unique to this call."""

        def open(self, runtime_context):
            self.count = runtime_context.get_state(ValueStateDescriptor("count", Types.INT()))

        def process_element(self, value, ctx):
            count = (self.count.value() or 0) + 1
            self.count.update(count)
            tagged = "%s #%d @%s" % (value, count, uuid.uuid4().hex)
            yield tagged
            yield seen_tag, tagged

    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(2)
    numbered = env.from_source(_source(bootstrap, source_topic), WatermarkStrategy.no_watermarks(), "words") \
        .key_by(lambda s: s[:2], key_type=Types.STRING()).process(Numbered(), output_type=Types.STRING())
    numbered.print("first")
    numbered.sink_to(_sink(bootstrap, first_topic))
    numbered.get_side_output(seen_tag).print("side")
    second = numbered.key_by(lambda s: s.split(" #")[1], key_type=Types.STRING()) \
        .map(lambda s: "second " + s, output_type=Types.STRING())
    second.sink_to(_sink(bootstrap, second_topic))
    numbered.union(second).print("both")
    with caplog.at_level(logging.INFO, logger="pyflink_compat"):
        env.execute("an operation feeding sinks and a later operation")

    lines = capsys.readouterr().out.splitlines()

    def printed(name):
        return sorted(line.split("> ", 1)[1] for line in lines if line.startswith(name + ":"))

    first = printed("first")
    assert len(first) == 40
    assert sorted(tag.split(" #")[0] for tag in first) == sorted(words)
    # one state: each key's elements numbered 1..n once
    for key in ("k0", "k1", "k2"):
        numbers = sorted(int(tag.split(" #")[1].split(" ")[0]) for tag in first if tag.startswith(key))
        assert numbers == list(range(1, len(numbers) + 1))
    # one call per element: every sink and the later operation got the very same tagged values
    assert printed("side") == first
    assert sorted(r.value.decode() for r in consume(bootstrap, first_topic, 40)) == first
    assert sorted(r.value.decode() for r in consume(bootstrap, second_topic, 40)) == sorted(
        "second " + tag for tag in first)
    assert printed("both") == sorted(first + ["second " + tag for tag in first])
    assert any("running 1 Spark query" in r.getMessage() for r in caplog.records)

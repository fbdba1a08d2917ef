"""The legacy Kafka API end to end on real Spark and the real test broker: FlinkKafkaConsumer via
env.add_source, FlinkKafkaProducer via ds.add_sink, with the Flink 1.13 connector's semantics.

The legacy consumer is unbounded, so every job runs with execute_async and is cancelled once its
output has been checked. Several pipelines share one job where possible (one Spark query each).
"""
import re
import time
import warnings

import pytest

from kafka_helpers import (by_partition, commit_group_offsets, consume, create_topic, produce, unique_topic,
                           values)
from pyflink_compat.common import JobStatus, SimpleStringSchema, Types
from pyflink_compat.datastream import StreamExecutionEnvironment
from pyflink_compat.datastream.connectors.kafka import (FlinkKafkaConsumer, FlinkKafkaProducer,
                                                        KafkaTopicPartition, Semantic)
from pyflink_compat.kafka_io.sink import assigned_subtask, fixed_partition

pytestmark = pytest.mark.integration


def legacy_consumer(topics, bootstrap, **props):
    properties = {"bootstrap.servers": bootstrap}
    properties.update({k.replace("_", "."): v for k, v in props.items()})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return FlinkKafkaConsumer(topics, SimpleStringSchema(), properties)


def legacy_producer(topic, bootstrap, semantic=Semantic.AT_LEAST_ONCE, **props):
    properties = {"bootstrap.servers": bootstrap}
    properties.update({k.replace("_", "."): v for k, v in props.items()})
    return FlinkKafkaProducer(topic, SimpleStringSchema(), properties, semantic=semantic)


def wait_for_status(client, status, timeout_s=60):
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if client.get_job_status().result() == status:
            return True
        time.sleep(0.2)
    return False


def test_start_modes_and_records_produced_after_the_start(spark, bootstrap):
    # phases: a0..a4, then (more than 1 s later) b0..b4 on one partition
    phases = create_topic(bootstrap, unique_topic("legacy-phases"))
    produce(bootstrap, phases, ["a%d" % i for i in range(5)])
    time.sleep(1.2)
    middle_ms = int(time.time() * 1000)
    time.sleep(1.2)
    produce(bootstrap, phases, ["b%d" % i for i in range(5)])
    committed_group = unique_topic("legacy-group")
    commit_group_offsets(bootstrap, committed_group, {(phases, 0): 7})

    # three partitions: p0 has a specific offset, p1 a committed offset, p2 neither (auto.offset.reset)
    three = create_topic(bootstrap, unique_topic("legacy-three"), 3)
    for partition, letter in enumerate("xyz"):
        produce(bootstrap, three, ["%s%d" % (letter, i) for i in range(5)], partition=partition)
    specific_group = unique_topic("legacy-group")
    commit_group_offsets(bootstrap, specific_group, {(three, 1): 2})

    a_and_b = ["a%d" % i for i in range(5)] + ["b%d" % i for i in range(5)]
    cases = {
        "earliest": (legacy_consumer(phases, bootstrap).set_start_from_earliest(), a_and_b),
        "latest": (legacy_consumer(phases, bootstrap).set_start_from_latest(), []),
        "timestamp": (legacy_consumer(phases, bootstrap).set_start_from_timestamp(middle_ms),
                      ["b%d" % i for i in range(5)]),
        # the default start: committed offsets of group.id
        "group": (legacy_consumer(phases, bootstrap, group_id=committed_group), ["b2", "b3", "b4"]),
        # no committed offset: auto.offset.reset decides, default latest
        "group-reset-earliest": (legacy_consumer(phases, bootstrap, group_id=unique_topic("fresh"),
                                                 auto_offset_reset="earliest").set_start_from_group_offsets(),
                                 a_and_b),
        "group-reset-default": (legacy_consumer(phases, bootstrap, group_id=unique_topic("fresh")), []),
        "no-group": (legacy_consumer(phases, bootstrap), []),
        "specific": (legacy_consumer(three, bootstrap, group_id=specific_group, auto_offset_reset="earliest")
                     .set_start_from_specific_offsets({KafkaTopicPartition(three, 0): 3}),
                     ["x3", "x4", "y2", "y3", "y4", "z0", "z1", "z2", "z3", "z4"]),
    }
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    outputs = {}
    for name, (consumer, _) in cases.items():
        outputs[name] = create_topic(bootstrap, unique_topic("legacy-out-" + name))
        env.add_source(consumer, "Kafka " + name).add_sink(legacy_producer(outputs[name], bootstrap))
    client = env.execute_async("legacy start modes")
    try:
        assert client.get_job_status().result() == JobStatus.RUNNING
        for name, (_, expected) in cases.items():
            if expected:
                # the first wait covers the start of eight sources' queries: room for a loaded machine
                got = values(consume(bootstrap, outputs[name], len(expected), timeout_s=180))
                if name == "specific":        # three input partitions written concurrently to partition 0
                    got = sorted(got)
                assert got == expected, name
        # every consumer is unbounded: a record produced now reaches them all, "latest" included
        produce(bootstrap, phases, ["late"])
        for name, (_, expected) in cases.items():
            if name != "specific":
                assert values(consume(bootstrap, outputs[name], len(expected) + 1)) == expected + ["late"], name
        assert client.get_job_status().result() == JobStatus.RUNNING
    finally:
        client.cancel().result()
    assert client.get_job_status().result() == JobStatus.CANCELED


def test_topic_list_pattern_and_partition_discovery(spark, bootstrap):
    prefix = unique_topic("legacy-pat")
    first = create_topic(bootstrap, prefix + "-a")
    second = create_topic(bootstrap, unique_topic("legacy-list"))
    produce(bootstrap, first, ["a0", "a1"])
    produce(bootstrap, second, ["s0"])
    out_list, out_discovery, out_static = (create_topic(bootstrap, unique_topic("legacy-out")) for _ in range(3))

    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    env.add_source(legacy_consumer([first, second], bootstrap).set_start_from_earliest()) \
        .add_sink(legacy_producer(out_list, bootstrap))
    # discovery on: topics created later that match the pattern are read from their earliest offset
    env.add_source(legacy_consumer(re.compile(re.escape(prefix) + "-.*"), bootstrap,
                                   **{"flink.partition-discovery.interval-millis": "500"})
                   .set_start_from_earliest()) \
        .map(lambda s: "discovered:" + s, output_type=Types.STRING()) \
        .add_sink(legacy_producer(out_discovery, bootstrap))
    # discovery off (the legacy default): the pattern is resolved once, at the start
    env.add_source(legacy_consumer(re.compile(re.escape(prefix) + "-.*"), bootstrap).set_start_from_earliest()) \
        .add_sink(legacy_producer(out_static, bootstrap))
    client = env.execute_async("legacy subscriptions")
    try:
        assert sorted(values(consume(bootstrap, out_list, 3))) == ["a0", "a1", "s0"]
        assert values(consume(bootstrap, out_discovery, 2, settle_s=0)) == ["discovered:a0", "discovered:a1"]
        assert values(consume(bootstrap, out_static, 2, settle_s=0)) == ["a0", "a1"]
        later = create_topic(bootstrap, prefix + "-b")
        produce(bootstrap, later, ["b0"])
        assert sorted(values(consume(bootstrap, out_discovery, 3))) == [
            "discovered:a0", "discovered:a1", "discovered:b0"]
        time.sleep(2)                         # several discovery intervals of the other pipeline
        assert values(consume(bootstrap, out_static, 2, settle_s=1.0)) == ["a0", "a1"]
    finally:
        client.cancel().result()


def test_producer_timestamps_and_fixed_partitioner(spark, bootstrap):
    source = create_topic(bootstrap, unique_topic("legacy-ts"), 2)
    produce(bootstrap, source, ["p0-%d" % i for i in range(3)], partition=0, timestamp_ms=1000)
    produce(bootstrap, source, ["p1-%d" % i for i in range(3)], partition=1, timestamp_ms=2000)
    out_default, out_timestamps, out_parallel = (create_topic(bootstrap, unique_topic("legacy-out"), 3)
                                                 for _ in range(3))
    started_ms = int(time.time() * 1000)

    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    # defaults: no record timestamp written; one sink instance -> every record in partition 0
    env.add_source(legacy_consumer(source, bootstrap).set_start_from_earliest()) \
        .add_sink(legacy_producer(out_default, bootstrap))
    # set_write_timestamp_to_kafka(True): the Kafka timestamps read are written
    env.add_source(legacy_consumer(source, bootstrap).set_start_from_earliest()) \
        .add_sink(legacy_producer(out_timestamps, bootstrap).set_write_timestamp_to_kafka(True))
    # two sink instances: each input partition is read by the instance Flink's legacy consumer assigns it
    # to, which writes everything to its one output partition
    env.add_source(legacy_consumer(source, bootstrap).set_start_from_earliest()) \
        .add_sink(legacy_producer(out_parallel, bootstrap)).set_parallelism(2)
    client = env.execute_async("legacy producer")
    try:
        records = consume(bootstrap, out_default, 6)
        assert by_partition(records) == {0: ["p0-0", "p0-1", "p0-2", "p1-0", "p1-1", "p1-2"]} or \
            by_partition(records) == {0: ["p1-0", "p1-1", "p1-2", "p0-0", "p0-1", "p0-2"]}
        assert all(started_ms <= r.timestamp <= int(time.time() * 1000) for r in records), \
            [r.timestamp for r in records]

        records = consume(bootstrap, out_timestamps, 6)
        assert sorted((r.value.decode(), r.timestamp) for r in records) == [
            ("p0-0", 1000), ("p0-1", 1000), ("p0-2", 1000), ("p1-0", 2000), ("p1-1", 2000), ("p1-2", 2000)]
        assert len(by_partition(records)) == 1

        target = {p: fixed_partition({0, 1, 2}, assigned_subtask(source, p, 2)) for p in (0, 1)}
        expected = {}
        for p in (0, 1):
            expected.setdefault(target[p], []).extend("p%d-%d" % (p, i) for i in range(3))
        assert by_partition(consume(bootstrap, out_parallel, 6)) == expected
        # a micro-batch with data from input partition 1 only: same instance, same output partition
        produce(bootstrap, source, ["p1-late"], partition=1)
        expected[target[1]].append("p1-late")
        assert by_partition(consume(bootstrap, out_parallel, 7)) == expected
    finally:
        client.cancel().result()


def test_log_failures_only_drops_failed_records_and_keeps_running(spark, bootstrap):
    source = create_topic(bootstrap, unique_topic("legacy-fail"))
    produce(bootstrap, source, ["small-1", "x" * 2000, "small-2"])
    out = create_topic(bootstrap, unique_topic("legacy-out"))
    env = StreamExecutionEnvironment.get_execution_environment()
    env.add_source(legacy_consumer(source, bootstrap).set_start_from_earliest()) \
        .add_sink(legacy_producer(out, bootstrap, max_request_size="1000").set_log_failures_only(True))
    client = env.execute_async("legacy log failures")
    try:
        assert values(consume(bootstrap, out, 2, settle_s=1.0)) == ["small-1", "small-2"]
        assert client.get_job_status().result() == JobStatus.RUNNING
    finally:
        client.cancel().result()


def test_failed_send_fails_the_job_by_default(spark, bootstrap):
    source = create_topic(bootstrap, unique_topic("legacy-fail"))
    produce(bootstrap, source, ["small-1", "x" * 2000])
    out = create_topic(bootstrap, unique_topic("legacy-out"))
    env = StreamExecutionEnvironment.get_execution_environment()
    env.add_source(legacy_consumer(source, bootstrap).set_start_from_earliest()) \
        .add_sink(legacy_producer(out, bootstrap, max_request_size="1000"))
    with pytest.raises(Exception, match="MessageSizeTooLarge"):
        env.execute("legacy failing")


def test_consumer_properties_are_checked_when_the_job_executes(spark, bootstrap):
    source = create_topic(bootstrap, unique_topic("legacy-props"))
    env = StreamExecutionEnvironment.get_execution_environment()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        consumer = FlinkKafkaConsumer(source, SimpleStringSchema(), {"group.id": "g"})    # accepted, as in Java
    env.add_source(consumer).add_sink(legacy_producer("out", bootstrap))
    with pytest.raises(Exception) as e:
        env.execute("legacy no servers")
    assert str(e.value).endswith('org.apache.kafka.common.config.ConfigException: Missing required configuration '
                                 '"bootstrap.servers" which has no default value.')

    env.add_source(legacy_consumer(source, bootstrap, auto_offset_reset="smallest")) \
        .add_sink(legacy_producer("out", bootstrap))
    with pytest.raises(Exception) as e:
        env.execute("legacy bad reset")
    assert str(e.value).endswith("org.apache.kafka.common.config.ConfigException: Invalid value smallest for "
                                 "configuration auto.offset.reset: String must be one of: latest, earliest, none")


def test_each_partition_is_read_by_the_instance_flink_assigns_it_to(spark, bootstrap, capsys):
    """Flink's legacy consumer gives partition p of a topic to instance (start + p) % parallelism, start taken
    from the topic name's hash: functions chained to it and print() are numbered by that instance."""
    from pyflink_compat.datastream import MapFunction

    class ReadBy(MapFunction):        # defined here: pickled by value for the Python workers

        def open(self, runtime_context):
            self.index = runtime_context.get_index_of_this_subtask()

        def map(self, value):
            return "%s@%d" % (value, self.index)

    source = create_topic(bootstrap, unique_topic("legacy-readers"), 3)
    for p in range(3):
        produce(bootstrap, source, ["p%d-%d" % (p, i) for i in range(2)], partition=p)
    out = create_topic(bootstrap, unique_topic("legacy-readers-out"))
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(2)
    read = env.add_source(legacy_consumer(source, bootstrap).set_start_from_earliest())
    read.print()
    read.map(ReadBy(), output_type=Types.STRING()).add_sink(legacy_producer(out, bootstrap))
    client = env.execute_async("legacy readers")
    try:
        expected = sorted("p%d-%d@%d" % (p, i, assigned_subtask(source, p, 2)) for p in range(3) for i in range(2))
        assert sorted(values(consume(bootstrap, out, 6, settle_s=1.0))) == expected
        deadline = time.monotonic() + 30
        printed = ""
        while time.monotonic() < deadline and len(printed.splitlines()) < 6:
            printed += capsys.readouterr().out
            time.sleep(0.2)
        assert sorted(line for line in printed.splitlines() if re.match(r"\d> p", line)) == sorted(
            "%d> p%d-%d" % (assigned_subtask(source, p, 2) + 1, p, i) for p in range(3) for i in range(2))
    finally:
        client.cancel().result()

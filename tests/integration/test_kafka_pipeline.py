"""End to end on real Spark and the real test broker: KafkaSource -> map/filter/flat_map -> KafkaSink."""
import time

import pytest
from kafka.errors import IncompatibleBrokerVersion

from job_progress import wait_for_completed_batches
from kafka_helpers import (add_partitions, by_partition, commit_group_offsets, consume, create_topic, produce,
                           unique_topic, values)
from pyflink_compat.common import Configuration, JobStatus, SimpleStringSchema, Types, WatermarkStrategy
from pyflink_compat.datastream import StreamExecutionEnvironment
from pyflink_compat.datastream.connectors.base import DeliveryGuarantee
from pyflink_compat.datastream.connectors.kafka import (KafkaOffsetResetStrategy, KafkaOffsetsInitializer,
                                                        KafkaRecordSerializationSchema, KafkaSink, KafkaSource,
                                                        KafkaTopicPartition)

pytestmark = pytest.mark.integration


def kafka_sink(bootstrap, topic, guarantee=DeliveryGuarantee.AT_LEAST_ONCE):
    return (KafkaSink.builder().set_bootstrap_servers(bootstrap)
            .set_record_serializer(KafkaRecordSerializationSchema.builder().set_topic(topic)
                                   .set_value_serialization_schema(SimpleStringSchema()).build())
            .set_delivery_guarantee(guarantee).build())


def source_builder(bootstrap):
    return (KafkaSource.builder().set_bootstrap_servers(bootstrap)
            .set_value_only_deserializer(SimpleStringSchema()))


def run_bounded(source, out_topic, bootstrap, transform=lambda ds: ds):
    env = StreamExecutionEnvironment.get_execution_environment()
    ds = env.from_source(source, WatermarkStrategy.no_watermarks(), "Kafka Source")
    transform(ds).sink_to(kafka_sink(bootstrap, out_topic))
    env.execute("test job")


def test_issue_example_job_upper_cases_every_record(spark, bootstrap):
    src, out = create_topic(bootstrap, unique_topic("in")), create_topic(bootstrap, unique_topic("out"))
    produce(bootstrap, src, ["a", "", "bc", "dé"])
    source = (source_builder(bootstrap).set_topics(src).set_group_id("g")
              .set_starting_offsets(KafkaOffsetsInitializer.earliest())
              .set_bounded(KafkaOffsetsInitializer.latest()).build())
    run_bounded(source, out, bootstrap,
                lambda ds: ds.filter(lambda s: s).map(lambda s: s.upper(), output_type=Types.STRING()))
    assert values(consume(bootstrap, out, 3)) == ["A", "BC", "DÉ"]


def test_flat_map_and_untyped_map_then_typed(spark, bootstrap):
    src, out = create_topic(bootstrap, unique_topic("in")), create_topic(bootstrap, unique_topic("out"))
    produce(bootstrap, src, ["a b", "c"])
    source = source_builder(bootstrap).set_topics(src).set_bounded(KafkaOffsetsInitializer.latest()).build()
    run_bounded(source, out, bootstrap,
                lambda ds: ds.flat_map(lambda s: s.split(" "))          # pickled
                             .map(lambda w: (w, len(w)))                 # pickled tuples
                             .map(lambda t: "%s=%d" % t, output_type=Types.STRING()))
    assert values(consume(bootstrap, out, 3)) == ["a=1", "b=1", "c=1"]


def test_several_partitions_keep_per_partition_order(spark, bootstrap):
    src, out = create_topic(bootstrap, unique_topic("in"), 3), create_topic(bootstrap, unique_topic("out"), 3)
    for p in range(3):
        produce(bootstrap, src, ["p%d-%d" % (p, i) for i in range(50)], partition=p)
    source = source_builder(bootstrap).set_topics(src).set_bounded(KafkaOffsetsInitializer.latest()).build()
    run_bounded(source, out, bootstrap, lambda ds: ds.map(str.upper, output_type=Types.STRING()))
    records = consume(bootstrap, out, 150)
    assert sorted(values(records)) == sorted("P%d-%d" % (p, i) for p in range(3) for i in range(50))
    # Within each output partition, the records of each input partition keep their order.
    for written in by_partition(records).values():
        for p in range(3):
            indexes = [int(v.split("-")[1]) for v in written if v.startswith("P%d-" % p)]
            assert indexes == sorted(indexes)


def test_unkeyed_records_of_small_micro_batches_spread_over_every_partition(spark, bootstrap):
    # Each task writes far less than a record batch per micro-batch: Kafka's sticky partitioning still goes round
    # the partitions (its rotation is the producer's, not the task's), so no partition is left empty.
    src, out = create_topic(bootstrap, unique_topic("in"), 2), create_topic(bootstrap, unique_topic("out"), 3)
    for p in range(2):
        produce(bootstrap, src, ["p%d-%d" % (p, i) for i in range(60)], partition=p)
    configuration = Configuration()
    configuration.set_string("pyflink-compat.source.max-records-per-batch", "10")
    env = StreamExecutionEnvironment.get_execution_environment(configuration)
    source = source_builder(bootstrap).set_topics(src).set_bounded(KafkaOffsetsInitializer.latest()).build()
    env.from_source(source, WatermarkStrategy.no_watermarks(), "Kafka Source") \
        .map(str.upper, output_type=Types.STRING()).sink_to(kafka_sink(bootstrap, out))
    env.execute("small batches")
    records = consume(bootstrap, out, 120)
    assert sorted(values(records)) == sorted("P%d-%d" % (p, i) for p in range(2) for i in range(60))
    assert sorted(by_partition(records)) == [0, 1, 2]


@pytest.mark.parametrize("mode", ["topics", "pattern", "partitions"])
def test_subscription_modes(spark, bootstrap, mode):
    prefix = unique_topic("sub")
    t1 = create_topic(bootstrap, prefix + "-one", 2)
    t2 = create_topic(bootstrap, prefix + "-two", 1)
    other = create_topic(bootstrap, unique_topic("other"))
    produce(bootstrap, t1, ["one-0"], partition=0)
    produce(bootstrap, t1, ["one-1"], partition=1)
    produce(bootstrap, t2, ["two-0"])
    produce(bootstrap, other, ["other"])
    builder = source_builder(bootstrap).set_bounded(KafkaOffsetsInitializer.latest())
    if mode == "topics":
        builder.set_topics(t1, t2)
        expected = ["one-0", "one-1", "two-0"]
    elif mode == "pattern":
        builder.set_topic_pattern(prefix + "-.*")
        expected = ["one-0", "one-1", "two-0"]
    else:
        builder.set_partitions({KafkaTopicPartition(t1, 1), KafkaTopicPartition(t2, 0)})
        expected = ["one-1", "two-0"]
    out = create_topic(bootstrap, unique_topic("out"))
    run_bounded(builder.build(), out, bootstrap)
    assert sorted(values(consume(bootstrap, out, len(expected)))) == expected


def _two_phase_topic(bootstrap):
    """A topic with records a0..a4 (then a pause of >1 s, so timestamps and append times differ) and b0..b4."""
    topic = create_topic(bootstrap, unique_topic("phases"))
    produce(bootstrap, topic, ["a%d" % i for i in range(5)])
    time.sleep(1.2)
    middle_ms = int(time.time() * 1000)
    time.sleep(1.2)
    produce(bootstrap, topic, ["b%d" % i for i in range(5)])
    return topic, middle_ms


def test_every_offsets_initializer_as_start(spark, bootstrap):
    topic, middle_ms = _two_phase_topic(bootstrap)
    group = unique_topic("group")
    commit_group_offsets(bootstrap, group, {(topic, 0): 7})
    cases = {
        "earliest": (KafkaOffsetsInitializer.earliest(), None, ["a0", "a1", "a2", "a3", "a4", "b0", "b1", "b2",
                                                                 "b3", "b4"]),
        "timestamp": (KafkaOffsetsInitializer.timestamp(middle_ms), None, ["b0", "b1", "b2", "b3", "b4"]),
        "committed": (KafkaOffsetsInitializer.committed_offsets(), group, ["b2", "b3", "b4"]),
        "committed-reset": (KafkaOffsetsInitializer.committed_offsets(KafkaOffsetResetStrategy.EARLIEST),
                            unique_topic("fresh-group"), ["a%d" % i for i in range(5)] +
                            ["b%d" % i for i in range(5)]),
        "offsets": (KafkaOffsetsInitializer.offsets({KafkaTopicPartition(topic, 0): 3}), None,
                    ["a3", "a4", "b0", "b1", "b2", "b3", "b4"]),
    }
    for name, (initializer, group_id, expected) in cases.items():
        builder = source_builder(bootstrap).set_topics(topic).set_starting_offsets(initializer)
        if group_id:
            builder.set_group_id(group_id)
        out = create_topic(bootstrap, unique_topic("out-" + name))
        run_bounded(builder.set_bounded(KafkaOffsetsInitializer.latest()).build(), out, bootstrap)
        assert values(consume(bootstrap, out, len(expected))) == expected, name


def test_latest_start_reads_only_new_records_and_offsets_fall_back_to_reset_strategy(spark, bootstrap):
    topic = create_topic(bootstrap, unique_topic("latest"), 2)
    produce(bootstrap, topic, ["old0"], partition=0)
    produce(bootstrap, topic, ["old1"], partition=1)
    # partition 1 is not listed: it falls back to the reset strategy LATEST -> nothing from it
    source = (source_builder(bootstrap).set_topics(topic)
              .set_starting_offsets(KafkaOffsetsInitializer.offsets({KafkaTopicPartition(topic, 0): 0},
                                                                    KafkaOffsetResetStrategy.LATEST))
              .set_bounded(KafkaOffsetsInitializer.latest()).build())
    out = create_topic(bootstrap, unique_topic("out"))
    run_bounded(source, out, bootstrap)
    assert values(consume(bootstrap, out, 1)) == ["old0"]

    env = StreamExecutionEnvironment.get_execution_environment()
    latest_source = (source_builder(bootstrap).set_topics(topic)
                     .set_starting_offsets(KafkaOffsetsInitializer.latest()).build())
    out2 = create_topic(bootstrap, unique_topic("out"))
    env.from_source(latest_source, WatermarkStrategy.no_watermarks(), "src").sink_to(kafka_sink(bootstrap, out2))
    client = env.execute_async("latest")
    try:
        wait_for_completed_batches(client, 1)    # the query is running and has resolved "latest"
        produce(bootstrap, topic, ["new0"], partition=0)
        assert values(consume(bootstrap, out2, 1, timeout_s=60)) == ["new0"]
    finally:
        client.cancel().result()


def test_every_offsets_initializer_as_stop(spark, bootstrap):
    topic, middle_ms = _two_phase_topic(bootstrap)
    group = unique_topic("group")
    commit_group_offsets(bootstrap, group, {(topic, 0): 2})
    cases = {
        "latest": (KafkaOffsetsInitializer.latest(), None, 10),
        "earliest": (KafkaOffsetsInitializer.earliest(), None, 0),
        "timestamp": (KafkaOffsetsInitializer.timestamp(middle_ms), None, 5),
        "committed": (KafkaOffsetsInitializer.committed_offsets(), group, 2),
        "offsets": (KafkaOffsetsInitializer.offsets({KafkaTopicPartition(topic, 0): 8}), None, 8),
    }
    everything = ["a%d" % i for i in range(5)] + ["b%d" % i for i in range(5)]
    for name, (initializer, group_id, count) in cases.items():
        builder = source_builder(bootstrap).set_topics(topic).set_bounded(initializer)
        if group_id:
            builder.set_group_id(group_id)
        out = create_topic(bootstrap, unique_topic("out-" + name))
        run_bounded(builder.build(), out, bootstrap)     # returns only once the job finished
        assert values(consume(bootstrap, out, count, settle_s=1.0, timeout_s=5 if count == 0 else 60)) \
            == everything[:count], name


def test_set_unbounded_without_discovery_stops_at_stopping_offsets(spark, bootstrap):
    topic = create_topic(bootstrap, unique_topic("unb"))
    produce(bootstrap, topic, ["x%d" % i for i in range(6)])
    source = (source_builder(bootstrap).set_topics(topic)
              .set_property("partition.discovery.interval.ms", "-1")
              .set_unbounded(KafkaOffsetsInitializer.offsets({KafkaTopicPartition(topic, 0): 4})).build())
    out = create_topic(bootstrap, unique_topic("out"))
    run_bounded(source, out, bootstrap)
    assert values(consume(bootstrap, out, 4, settle_s=1.0)) == ["x0", "x1", "x2", "x3"]


def test_streaming_job_picks_up_records_produced_after_it_started(spark, bootstrap):
    topic = create_topic(bootstrap, unique_topic("stream"), 1)
    out = create_topic(bootstrap, unique_topic("out"))
    produce(bootstrap, topic, ["before"])
    source = source_builder(bootstrap).set_topics(topic).build()
    env = StreamExecutionEnvironment.get_execution_environment()
    env.from_source(source, WatermarkStrategy.no_watermarks(), "src") \
        .map(lambda s: s + "!", output_type=Types.STRING()).sink_to(kafka_sink(bootstrap, out))
    client = env.execute_async("streaming")
    try:
        assert values(consume(bootstrap, out, 1, settle_s=0)) == ["before!"]
        produce(bootstrap, topic, ["after"])
        assert values(consume(bootstrap, out, 2, settle_s=0)) == ["before!", "after!"]
        assert client.get_job_status().result() == JobStatus.RUNNING
    finally:
        client.cancel().result()
    assert client.get_job_status().result() == JobStatus.CANCELED


def test_idle_planning_workers_end_once_the_job_runs_and_later_jobs_still_plan(spark, bootstrap):
    # Spark keeps the Python workers that planned the query alive, idle (runtime/idle_planners.py).
    from pyflink_compat.runtime import idle_planners
    topic = create_topic(bootstrap, unique_topic("planners"), 1)
    out = create_topic(bootstrap, unique_topic("out"))
    produce(bootstrap, topic, ["before"])
    env = StreamExecutionEnvironment.get_execution_environment()
    env.from_source(source_builder(bootstrap).set_topics(topic).build(), WatermarkStrategy.no_watermarks(), "src") \
        .map(lambda s: s + "!", output_type=Types.STRING()).sink_to(kafka_sink(bootstrap, out))
    client = env.execute_async("planners released")
    try:
        assert values(consume(bootstrap, out, 1, settle_s=0)) == ["before!"]
        deadline = time.monotonic() + 30
        while idle_planners.idle_planning_workers() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert idle_planners.idle_planning_workers() == []
        produce(bootstrap, topic, ["after"])
        assert values(consume(bootstrap, out, 2, settle_s=0)) == ["before!", "after!"]
    finally:
        client.cancel().result()
    # The next job of this process gets new planning workers from Spark.
    later = create_topic(bootstrap, unique_topic("out"))
    bounded = (source_builder(bootstrap).set_topics(topic).set_starting_offsets(KafkaOffsetsInitializer.earliest())
               .set_bounded(KafkaOffsetsInitializer.latest()).build())
    run_bounded(bounded, later, bootstrap)
    assert values(consume(bootstrap, later, 2)) == ["before", "after"]


def _broker_can_add_partitions(bootstrap, topic) -> bool:
    try:
        add_partitions(bootstrap, topic, 2)
        return True
    except IncompatibleBrokerVersion:       # Tansu 0.6 has no CreatePartitions API
        return False


def test_partition_added_while_running_is_read_from_its_start(spark, bootstrap):
    """A partition added to a subscribed topic is discovered and read from its earliest offset.

    Tansu 0.6 cannot add partitions (no CreatePartitions API): there the same discovery path is
    shown with a second topic matching the subscribed pattern. Against a real Kafka cluster
    (KAFKA_BOOTSTRAP_SERVERS) the partition is really added."""
    prefix = unique_topic("grow")
    topic = create_topic(bootstrap, prefix + "-main", 1)
    out = create_topic(bootstrap, unique_topic("out"))
    produce(bootstrap, topic, ["p0-a"])
    source = (source_builder(bootstrap).set_topic_pattern(prefix + "-.*")
              .set_property("partition.discovery.interval.ms", "500").build())
    env = StreamExecutionEnvironment.get_execution_environment()
    env.from_source(source, WatermarkStrategy.no_watermarks(), "src").sink_to(kafka_sink(bootstrap, out))
    client = env.execute_async("grow")
    try:
        assert values(consume(bootstrap, out, 1, settle_s=0)) == ["p0-a"]
        if _broker_can_add_partitions(bootstrap, topic):
            target_topic, target_partition = topic, 1
        else:
            target_topic, target_partition = create_topic(bootstrap, prefix + "-extra", 1), 0
        # produced before discovery runs: still read, since new partitions start at their earliest offset
        produce(bootstrap, target_topic, ["new-1", "new-2"], partition=target_partition)
        assert sorted(values(consume(bootstrap, out, 3, settle_s=0))) == ["new-1", "new-2", "p0-a"]
    finally:
        client.cancel().result()


def test_pattern_subscription_picks_up_topics_created_later(spark, bootstrap):
    prefix = unique_topic("pat")
    first = create_topic(bootstrap, prefix + "-a")
    produce(bootstrap, first, ["a"])
    out = create_topic(bootstrap, unique_topic("out"))
    source = (source_builder(bootstrap).set_topic_pattern(prefix + "-.*")
              .set_property("partition.discovery.interval.ms", "1000").build())
    env = StreamExecutionEnvironment.get_execution_environment()
    env.from_source(source, WatermarkStrategy.no_watermarks(), "src").sink_to(kafka_sink(bootstrap, out))
    client = env.execute_async("pattern")
    try:
        assert values(consume(bootstrap, out, 1, settle_s=0)) == ["a"]
        later = create_topic(bootstrap, prefix + "-b")
        produce(bootstrap, later, ["b"])
        assert sorted(values(consume(bootstrap, out, 2, settle_s=0))) == ["a", "b"]
    finally:
        client.cancel().result()


def test_out_of_range_start_offsets_follow_the_reset_strategy(spark, bootstrap):
    topic = create_topic(bootstrap, unique_topic("range"))
    produce(bootstrap, topic, ["r0", "r1", "r2"])
    out = create_topic(bootstrap, unique_topic("out"))
    source = (source_builder(bootstrap).set_topics(topic)
              .set_starting_offsets(KafkaOffsetsInitializer.offsets({KafkaTopicPartition(topic, 0): 100},
                                                                    KafkaOffsetResetStrategy.EARLIEST))
              .set_bounded(KafkaOffsetsInitializer.latest()).build())
    run_bounded(source, out, bootstrap)
    assert values(consume(bootstrap, out, 3)) == ["r0", "r1", "r2"]

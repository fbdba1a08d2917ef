"""Sinks on real Spark and the real broker: Kafka sink features, print(), execute_and_collect, errors."""
import os
import socket
import time

import pytest

from kafka_helpers import consume, create_topic, produce, unique_topic, values
from pyflink_compat.common import Configuration, Row, SimpleStringSchema, Types, WatermarkStrategy
from pyflink_compat.datastream import StreamExecutionEnvironment
from pyflink_compat.datastream.connectors.base import DeliveryGuarantee
from pyflink_compat.datastream.connectors.kafka import (KafkaOffsetsInitializer, KafkaRecordSerializationSchema,
                                                        KafkaSink, KafkaSource, KafkaTopicSelector)
from pyflink_compat.kafka_io.cluster import KafkaConnectionError, KafkaTopicNotFoundError

pytestmark = pytest.mark.integration


def bounded_source(bootstrap, topic):
    return (KafkaSource.builder().set_bootstrap_servers(bootstrap).set_topics(topic)
            .set_value_only_deserializer(SimpleStringSchema())
            .set_bounded(KafkaOffsetsInitializer.latest()).build())


def test_topic_selector_and_key_schema_reach_kafka(spark, bootstrap):
    src = create_topic(bootstrap, unique_topic("in"))
    out_a, out_b = create_topic(bootstrap, unique_topic("a")), create_topic(bootstrap, unique_topic("b"))
    produce(bootstrap, src, ["apple", "banana", "avocado"])

    class ByFirstLetter(KafkaTopicSelector):
        def apply(self, data):
            return out_a if data.startswith("A") else out_b

    serializer = (KafkaRecordSerializationSchema.builder().set_topic_selector(ByFirstLetter())
                  .set_key_serialization_schema(SimpleStringSchema())
                  .set_value_serialization_schema(SimpleStringSchema()).build())
    sink = (KafkaSink.builder().set_bootstrap_servers(bootstrap).set_record_serializer(serializer)
            .set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE).build())
    env = StreamExecutionEnvironment.get_execution_environment()
    env.from_source(bounded_source(bootstrap, src), WatermarkStrategy.no_watermarks(), "src") \
        .map(str.upper, output_type=Types.STRING()).sink_to(sink)
    env.execute("selector")
    a_records = consume(bootstrap, out_a, 2)
    assert [(r.key, r.value) for r in a_records] == [(b"APPLE", b"APPLE"), (b"AVOCADO", b"AVOCADO")]
    assert [(r.key, r.value) for r in consume(bootstrap, out_b, 1)] == [(b"BANANA", b"BANANA")]


def test_callable_topic_selector_without_key_gives_null_keys_and_keeps_record_timestamps(spark, bootstrap):
    src = create_topic(bootstrap, unique_topic("in"))
    out = create_topic(bootstrap, unique_topic("out"))
    produce(bootstrap, src, ["x", "y"], timestamp_ms=1_600_000_000_123)
    serializer = (KafkaRecordSerializationSchema.builder().set_topic_selector(lambda v: out)
                  .set_value_serialization_schema(SimpleStringSchema()).build())
    sink = KafkaSink.builder().set_bootstrap_servers(bootstrap).set_record_serializer(serializer).build()
    env = StreamExecutionEnvironment.get_execution_environment()
    env.from_source(bounded_source(bootstrap, src), WatermarkStrategy.no_watermarks(), "src").sink_to(sink)
    env.execute("null keys")                       # default delivery guarantee NONE still delivers normally
    records = consume(bootstrap, out, 2)
    assert [(r.key, r.value, r.timestamp) for r in records] == [
        (None, b"x", 1_600_000_000_123), (None, b"y", 1_600_000_000_123)]


def test_100k_records_at_least_once_none_lost(spark, bootstrap):
    src = create_topic(bootstrap, unique_topic("big"), 2)
    out = create_topic(bootstrap, unique_topic("out"), 2)
    for p in range(2):
        produce(bootstrap, src, ["r%d-%06d" % (p, i) for i in range(50_000)], partition=p)
    sink = (KafkaSink.builder().set_bootstrap_servers(bootstrap)
            .set_record_serializer(KafkaRecordSerializationSchema.builder().set_topic(out)
                                   .set_value_serialization_schema(SimpleStringSchema()).build())
            .set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE).build())
    config = Configuration()
    config.set_string("pyflink-compat.source.max-records-per-batch", "30000")     # several micro-batches
    env = StreamExecutionEnvironment.get_execution_environment(config)
    env.from_source(bounded_source(bootstrap, src), WatermarkStrategy.no_watermarks(), "src") \
        .map(str.upper, output_type=Types.STRING()).sink_to(sink)
    env.execute("100k")
    got = values(consume(bootstrap, out, 100_000, timeout_s=120))
    assert len(got) == 100_000
    assert set(got) == {"R%d-%06d" % (p, i) for p in range(2) for i in range(50_000)}


def test_print_formats_like_pyflink(spark, capsys):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(1)
    env.from_collection(["a", "b"], type_info=Types.STRING()).print()
    env.from_collection([Row(name="x", n=1), Row(name="y", n=None)],
                        type_info=Types.ROW_NAMED(["name", "n"], [Types.STRING(), Types.INT()])).print("rows")
    env.from_collection([{"k": 1}]).map(lambda d: d).print()          # pickled: str() of the object
    env.execute("print")
    lines = capsys.readouterr().out.splitlines()
    assert sorted(lines) == sorted(["a", "b", "rows> +I[x,1]", "rows> +I[y,None]", "{'k': 1}"])


def test_print_prefixes_subtask_at_parallelism_above_one(spark, capsys):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(2)
    env.from_collection([1, 2, 3], type_info=Types.INT()).print("n")
    env.execute("print p2")
    lines = capsys.readouterr().out.splitlines()
    assert sorted(line.split("> ", 1)[1] for line in lines) == ["1", "2", "3"]
    assert all(line.split("> ", 1)[0] in ("n:1", "n:2") for line in lines)


def test_execute_and_collect_on_a_keyed_stream_returns_its_elements(spark):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(2)
    rows = env.from_collection([(1, 1), (1, 2), (2, 5), (1, 3), (2, 1)],
                               type_info=Types.TUPLE([Types.INT(), Types.INT()]))
    with rows.key_by(lambda r: r[0]).execute_and_collect() as results:
        collected = list(results)
    assert sorted(collected) == [(1, 1), (1, 2), (1, 3), (2, 1), (2, 5)]
    assert [r for r in collected if r[0] == 1] == [(1, 1), (1, 2), (1, 3)]      # per key, in input order


def test_execute_and_collect_with_and_without_limit(spark):
    env = StreamExecutionEnvironment.get_execution_environment()
    doubled = env.from_collection([1, 2, 3]).map(lambda x: x * 2, output_type=Types.LONG())
    assert doubled.execute_and_collect(limit=2) == [2, 4]
    env2 = StreamExecutionEnvironment.get_execution_environment()
    words = env2.from_collection(["a b", "c"]).flat_map(lambda s: s.split())
    with words.execute_and_collect() as results:
        assert list(results) == ["a", "b", "c"]


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_unreachable_bootstrap_servers_fail_fast_naming_them(spark):
    servers = "127.0.0.1:%d" % _closed_port()
    source = (KafkaSource.builder().set_bootstrap_servers(servers).set_topics("t")
              .set_value_only_deserializer(SimpleStringSchema()).build())
    env = StreamExecutionEnvironment.get_execution_environment()
    env.from_source(source, WatermarkStrategy.no_watermarks(), "src").print()
    started = time.monotonic()
    with pytest.raises(KafkaConnectionError, match=servers):
        env.execute("unreachable")
    assert time.monotonic() - started < 30          # the bound; it takes about 10 s


def test_missing_topic_fails_naming_it(spark, bootstrap):
    missing = unique_topic("missing")
    source = (KafkaSource.builder().set_bootstrap_servers(bootstrap).set_topics(missing)
              .set_value_only_deserializer(SimpleStringSchema()).build())
    env = StreamExecutionEnvironment.get_execution_environment()
    env.from_source(source, WatermarkStrategy.no_watermarks(), "src").print()
    with pytest.raises(KafkaTopicNotFoundError, match=missing):
        env.execute("missing")


def test_a_failing_user_function_fails_the_job_with_its_error(spark):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.from_collection([1, 0]).map(lambda x: 1 // x).print()
    with pytest.raises(Exception, match="ZeroDivisionError"):
        env.execute("boom")


def test_a_job_started_with_execute_async_logs_its_failure_and_its_client_raises_it(spark, caplog):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.from_collection([1, 0]).map(lambda x: 1 // x).print()
    with caplog.at_level("ERROR", logger="pyflink_compat"):
        client = env.execute_async("async boom")
        with pytest.raises(Exception, match="ZeroDivisionError"):
            client.get_job_execution_result().result()
    failures = [r.getMessage() for r in caplog.records if r.levelname == "ERROR" and "async boom" in r.getMessage()]
    assert len(failures) == 1 and "failed" in failures[0] and "ZeroDivisionError" in failures[0], failures


def test_execute_without_sinks_fails_as_flink_does(spark):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.from_collection([1])
    with pytest.raises(RuntimeError, match="No operators defined in streaming topology. Cannot execute."):
        env.execute()


def _selector_sink(bootstrap, selector, guarantee):
    serializer = (KafkaRecordSerializationSchema.builder().set_topic_selector(selector)
                  .set_value_serialization_schema(SimpleStringSchema()).build())
    return (KafkaSink.builder().set_bootstrap_servers(bootstrap).set_record_serializer(serializer)
            .set_property("max.block.ms", "5000").set_delivery_guarantee(guarantee).build())


@pytest.mark.parametrize("guarantee", [DeliveryGuarantee.AT_LEAST_ONCE, DeliveryGuarantee.NONE])
def test_a_failed_send_fails_the_job(spark, bootstrap, guarantee):
    """As Flink's Kafka writer: a send error fails the job, whatever the delivery guarantee."""
    good = create_topic(bootstrap, unique_topic("good"))
    env = StreamExecutionEnvironment.get_execution_environment()
    env.from_collection(["ok", "bad"], type_info=Types.STRING()) \
        .sink_to(_selector_sink(bootstrap, lambda v: good if v == "ok" else "no/such topic", guarantee))
    with pytest.raises(Exception, match='Topic name "no/such topic" is illegal'):
        env.execute("failed send")


def test_committed_offsets_without_reset_strategy_fail_naming_the_partitions(spark, bootstrap):
    topic = create_topic(bootstrap, unique_topic("nocommit"))
    produce(bootstrap, topic, ["a"])
    source = (KafkaSource.builder().set_bootstrap_servers(bootstrap).set_topics(topic)
              .set_group_id(unique_topic("group"))
              .set_starting_offsets(KafkaOffsetsInitializer.committed_offsets())
              .set_value_only_deserializer(SimpleStringSchema()).build())
    env = StreamExecutionEnvironment.get_execution_environment()
    env.from_source(source, WatermarkStrategy.no_watermarks(), "src").print()
    with pytest.raises(Exception, match="Undefined offset with no reset policy for partitions: \\[%s-0\\]" % topic):
        env.execute("no committed offsets")


def test_spark_side_kafka_writer_when_direct_writes_are_off(spark, bootstrap):
    """pyflink-compat.sink.direct=false: records go through Spark to the Python stream writer."""
    src = create_topic(bootstrap, unique_topic("in"), 2)
    out = create_topic(bootstrap, unique_topic("out"))
    produce(bootstrap, src, ["p0-%d" % i for i in range(100)], partition=0)
    produce(bootstrap, src, ["p1-%d" % i for i in range(100)], partition=1)
    config = Configuration()
    config.set_string("pyflink-compat.sink.direct", "false")
    env = StreamExecutionEnvironment.get_execution_environment(config)
    sink = (KafkaSink.builder().set_bootstrap_servers(bootstrap)
            .set_record_serializer(KafkaRecordSerializationSchema.builder().set_topic(out)
                                   .set_key_serialization_schema(SimpleStringSchema())
                                   .set_value_serialization_schema(SimpleStringSchema()).build())
            .set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE).build())
    env.from_source(bounded_source(bootstrap, src), WatermarkStrategy.no_watermarks(), "src") \
        .map(str.upper, output_type=Types.STRING()).sink_to(sink)
    env.execute("spark-side writer")
    records = consume(bootstrap, out, 200)
    assert sorted((r.key, r.value) for r in records) == sorted(
        (v.encode(), v.encode()) for p in range(2) for v in ("P%d-%d" % (p, i) for i in range(100)))


def test_the_python_worker_warm_up_source_reads(spark):
    from pyflink_compat.runtime import warm_up
    assert [tuple(r) for r in spark.read.format(warm_up.FORMAT_NAME).load().collect()] == [(True,)]


def test_the_job_a_class_archive_recording_runs_before_it_ends_is_a_working_keyed_job(spark):
    # jvm_archive runs it in the session it records, so that the archive holds what typical jobs load.
    from pyflink_compat.runtime import jvm_archive
    assert sorted(jvm_archive._run_typical_job()) == [("a", 2), ("a", 8), ("b", 4)]


def test_python_workers_allocate_arrow_memory_with_malloc(spark):
    # jemalloc (pyarrow's default) keeps freed buffers mapped: 20-25 MiB per worker (runtime/session.py).
    def arrow_pool(_):
        import pyarrow
        return pyarrow.default_memory_pool().backend_name
    env = StreamExecutionEnvironment.get_execution_environment()
    pools = env.from_collection([1, 2]).map(arrow_pool, output_type=Types.STRING())
    with pools.execute_and_collect() as results:
        assert list(results) == ["system", "system"]


def test_python_workers_give_freed_big_blocks_back_to_the_system(spark):
    # A fixed glibc mmap threshold (runtime/session.py): 25-30 MiB less per worker on a keyed job.
    def mmap_threshold(_):
        return os.environ.get("MALLOC_MMAP_THRESHOLD_", "unset")
    env = StreamExecutionEnvironment.get_execution_environment()
    thresholds = env.from_collection([1, 2]).map(mmap_threshold, output_type=Types.STRING())
    with thresholds.execute_and_collect() as results:
        assert list(results) == ["131072", "131072"]


def test_numpy_values_still_convert_to_java_values(spark):
    # runtime/numpy_converters.py replaces pyspark's py4j NumPy converters by ones that do not import pandas.
    import numpy
    jvm = spark.sparkContext._jvm
    assert jvm.java.util.Arrays.toString(numpy.array([1, 2, 3], dtype=numpy.int64)) == "[1, 2, 3]"
    assert jvm.java.util.Arrays.toString(numpy.array([0.5, 2.0])) == "[0.5, 2.0]"
    assert jvm.java.lang.String.valueOf(numpy.int32(7)) == "7"
    assert jvm.java.lang.String.valueOf([1, 2]) == "[1, 2]"          # a list is still a java.util.List


def test_spark_does_not_start_a_process_to_look_for_installed_data_sources(spark):
    # runtime/session.py skips Spark's lookup of pip-installed Python data sources; ours are registered.
    from pyflink_compat.runtime import idle_planners
    children = idle_planners._children_by_parent()
    commands, todo = [], [os.getpid()]
    while todo:
        pid = todo.pop()
        commands.append(idle_planners._cmdline(pid) or [])
        todo.extend(children.get(pid, ()))
    assert not [c for c in commands if "pyspark.sql.worker.lookup_data_sources" in c]
    from pyflink_compat.runtime import warm_up
    assert [tuple(r) for r in spark.read.format(warm_up.FORMAT_NAME).load().collect()] == [(True,)]

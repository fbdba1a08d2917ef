"""Keyed state, timers and event-time windows end to end on real Spark and the real test broker: what Flink
does and Spark's own streaming engine does not (its watermark is the maximum over partitions)."""
import os
import sys
import time

import pytest
from pyspark import cloudpickle

from job_progress import wait_for_completed_batches
from kafka_helpers import consume, create_topic, produce, unique_topic, values
from pyflink_compat.common import Duration, SimpleStringSchema, Time, Types, WatermarkStrategy
from pyflink_compat.common.watermark_strategy import TimestampAssigner
from pyflink_compat.datastream import KeyedProcessFunction, StreamExecutionEnvironment
from pyflink_compat.datastream.connectors.base import DeliveryGuarantee
from pyflink_compat.datastream.connectors.kafka import (KafkaOffsetsInitializer, KafkaRecordSerializationSchema,
                                                        KafkaSink, KafkaSource)
from pyflink_compat.datastream.state import ListStateDescriptor, ValueStateDescriptor
from pyflink_compat.datastream.window import TumblingEventTimeWindows, TumblingProcessingTimeWindows

pytestmark = pytest.mark.integration

# The classes and functions below run in Spark's Python workers, which cannot import this test module:
# ship them by value (a job file run by ``pyflink-compat run`` is ``__main__``, shipped by value anyway).
cloudpickle.register_pickle_by_value(sys.modules[__name__])

EVENT = Types.TUPLE([Types.STRING(), Types.LONG(), Types.INT()])


class FromRecord(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[1]


def parse(line):
    key, ts, amount = line.split(",")
    return key, int(ts), int(amount)


def kafka_sink(bootstrap, topic):
    return (KafkaSink.builder().set_bootstrap_servers(bootstrap)
            .set_record_serializer(KafkaRecordSerializationSchema.builder().set_topic(topic)
                                   .set_value_serialization_schema(SimpleStringSchema()).build())
            .set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE).build())


def window_sums(env, source, strategy, bootstrap, out):
    events = env.from_source(source, WatermarkStrategy.no_watermarks(), "events") \
        .map(parse, output_type=EVENT).assign_timestamps_and_watermarks(strategy.with_timestamp_assigner(FromRecord()))
    events.key_by(lambda e: e[0], key_type=Types.STRING()) \
        .window(TumblingEventTimeWindows.of(Time.seconds(10))) \
        .reduce(lambda a, b: (a[0], max(a[1], b[1]), a[2] + b[2])) \
        .map(lambda e: "%s:%d" % (e[0], e[2]), output_type=Types.STRING()).sink_to(kafka_sink(bootstrap, out))


def test_the_watermark_is_the_minimum_over_partitions(spark, bootstrap):
    # Two records per micro-batch, one from each partition. After the second batch partition 0 is at 30 s and
    # partition 1 at 2.5 s: Flink's watermark (the minimum) is 2.5 s, so "a,5000" in the third batch still
    # counts in window [0, 10 s). With Spark's watermark (the maximum) it would be late and lost.
    topic = create_topic(bootstrap, unique_topic("wm-min"), 2)
    out = create_topic(bootstrap, unique_topic("wm-min-out"))
    produce(bootstrap, topic, ["a,1000,1", "a,30000,10", "a,31000,100"], partition=0)
    produce(bootstrap, topic, ["b,2000,1", "b,2500,10", "a,5000,1000"], partition=1)
    source = (KafkaSource.builder().set_bootstrap_servers(bootstrap).set_topics(topic)
              .set_value_only_deserializer(SimpleStringSchema())
              .set_bounded(KafkaOffsetsInitializer.latest()).build())
    env = StreamExecutionEnvironment.get_execution_environment()
    env.get_config()          # noqa: B018 (the environment's configuration is read at execute)
    env._configuration.set_string("pyflink-compat.source.max-records-per-batch", "2")
    window_sums(env, source, WatermarkStrategy.for_monotonous_timestamps(), bootstrap, out)
    env.execute("watermark minimum")
    assert sorted(values(consume(bootstrap, out, 3))) == ["a:1001", "a:110", "b:11"]


def test_an_idle_partition_stops_holding_the_watermark_back(spark, bootstrap):
    # Partition 1 never gets a record. Without idleness the window would never fire; with_idleness lets the
    # watermark follow partition 0 once partition 1 has been quiet for 1 s (records keep coming on partition 0
    # so that micro-batches keep running).
    topic = create_topic(bootstrap, unique_topic("idle"), 2)
    out = create_topic(bootstrap, unique_topic("idle-out"))
    produce(bootstrap, topic, ["a,1000,1", "a,2000,2", "a,30000,4"], partition=0)
    source = (KafkaSource.builder().set_bootstrap_servers(bootstrap).set_topics(topic)
              .set_value_only_deserializer(SimpleStringSchema()).build())
    env = StreamExecutionEnvironment.get_execution_environment()
    window_sums(env, source, WatermarkStrategy.for_monotonous_timestamps().with_idleness(Duration.of_seconds(1)),
                bootstrap, out)
    client = env.execute_async("idle partition")
    try:
        deadline = time.monotonic() + 90
        got = []
        n = 0
        while not got and time.monotonic() < deadline:
            n += 1
            produce(bootstrap, topic, ["a,%d,0" % (31000 + n)], partition=0)
            got = values(consume(bootstrap, out, 1, timeout_s=1.5, settle_s=0))
        assert got == ["a:3"]
    finally:
        client.cancel().result()


class Sessions(KeyedProcessFunction):
    """Counts per key in ValueState, keeps the values in ListState, and reports them from an event-time timer
    one second after each key's first element."""

    def open(self, runtime_context):
        self.count = runtime_context.get_state(ValueStateDescriptor("count", Types.INT()))
        self.seen = runtime_context.get_list_state(ListStateDescriptor("seen", Types.INT()))

    def process_element(self, value, ctx):
        count = (self.count.value() or 0) + 1
        self.count.update(count)
        self.seen.add(value[2])
        if count == 1:
            ctx.timer_service().register_event_time_timer(ctx.timestamp() + 1000)
        yield "%s#%d" % (ctx.get_current_key(), count)

    def on_timer(self, timestamp, ctx):
        yield "%s@%d:%s" % (ctx.get_current_key(), timestamp, sorted(self.seen.get()))


def test_keyed_process_function_state_and_timers_with_collect(spark):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(2)
    events = env.from_collection([("a", 1000, 1), ("b", 1500, 2), ("a", 1800, 3), ("a", 5000, 4)], type_info=EVENT) \
        .assign_timestamps_and_watermarks(WatermarkStrategy.for_monotonous_timestamps()
                                          .with_timestamp_assigner(FromRecord()))
    result = events.key_by(lambda e: e[0]).process(Sessions(), output_type=Types.STRING()).execute_and_collect()
    with result:
        got = sorted(result)
    assert got == ["a#1", "a#2", "a#3", "a@2000:[1, 3, 4]", "b#1", "b@2500:[2]"]


class RemindLater(KeyedProcessFunction):
    """A processing-time timer half a second after each key's first element."""

    def open(self, runtime_context):
        self.first = runtime_context.get_state(ValueStateDescriptor("first", Types.INT()))

    def process_element(self, value, ctx):
        if self.first.value() is None:
            self.first.update(value[2])
            ctx.timer_service().register_processing_time_timer(ctx.timer_service().current_processing_time() + 500)
        return []

    def on_timer(self, timestamp, ctx):
        yield "%s:%d" % (ctx.get_current_key(), self.first.value())


def _unbounded_events(bootstrap, topic):
    return (KafkaSource.builder().set_bootstrap_servers(bootstrap).set_topics(topic)
            .set_starting_offsets(KafkaOffsetsInitializer.earliest())
            .set_value_only_deserializer(SimpleStringSchema()).build())


@pytest.mark.parametrize("operation", ["processing-time window", "processing-time timer"])
def test_processing_time_fires_on_time_while_no_records_come(spark, bootstrap, operation):
    # Three records, then nothing: the window (2 s) and the timer (0.5 s) must still fire, on time, without a
    # further record (the quiet source moves a tick so that micro-batches keep running).
    topic = create_topic(bootstrap, unique_topic("ptime"), 2)
    out = create_topic(bootstrap, unique_topic("ptime-out"))
    env = StreamExecutionEnvironment.get_execution_environment()
    events = env.from_source(_unbounded_events(bootstrap, topic), WatermarkStrategy.no_watermarks(), "events") \
        .map(parse, output_type=EVENT).key_by(lambda e: e[0], key_type=Types.STRING())
    if operation == "processing-time window":
        results = events.window(TumblingProcessingTimeWindows.of(Time.seconds(2))) \
            .reduce(lambda a, b: (a[0], a[1], a[2] + b[2])) \
            .map(lambda e: "%s:%d" % (e[0], e[2]), output_type=Types.STRING())
    else:
        results = events.process(RemindLater(), output_type=Types.STRING())
    results.sink_to(kafka_sink(bootstrap, out))
    client = env.execute_async("processing time, quiet source")
    try:
        produce(bootstrap, topic, ["a,0,1", "a,0,2", "a,0,3"], partition=0)
        got = values(consume(bootstrap, out, 1, timeout_s=60, settle_s=1))
        assert got == (["a:6"] if operation == "processing-time window" else ["a:1"])
    finally:
        client.cancel().result()


def test_an_idle_partition_is_found_idle_while_no_records_come(spark, bootstrap):
    # As above, but nothing comes after the first records: partition 1 is found idle 1 s (in processing time)
    # after the job started, the watermark follows partition 0 to 30 s and window [0, 10 s) fires.
    topic = create_topic(bootstrap, unique_topic("idle-quiet"), 2)
    out = create_topic(bootstrap, unique_topic("idle-quiet-out"))
    env = StreamExecutionEnvironment.get_execution_environment()
    window_sums(env, _unbounded_events(bootstrap, topic),
                WatermarkStrategy.for_monotonous_timestamps().with_idleness(Duration.of_seconds(1)), bootstrap, out)
    client = env.execute_async("idle partition, quiet source")
    try:
        # Records only once partition 1 has been quiet past the timeout: as in Flink, an input goes idle a
        # timeout after its last record (or its start), and when every input went idle at once the
        # watermark would not move. The inputs start with the first micro-batch, which on a loaded machine
        # can come many seconds after execute_async returns: wait for it, then for the timeout.
        wait_for_completed_batches(client, 1)
        time.sleep(2)
        produce(bootstrap, topic, ["a,1000,1", "a,2000,2", "a,30000,4"], partition=0)
        assert values(consume(bootstrap, out, 1, timeout_s=60, settle_s=1)) == ["a:3"]
    finally:
        client.cancel().result()


def test_a_second_keyed_stage_fires_on_the_watermark_the_first_one_forwards(spark, bootstrap):
    # Per key 10 s sums, then keyed by window end, the window's top key. The input runs on (unbounded): the
    # second window fires only because the first stage's subtasks forward their watermark (29,999 ms, the
    # minimum over the two partitions) with the sums. Window [30 s, 40 s) has not ended on either stage.
    topic = create_topic(bootstrap, unique_topic("two-stages"), 2)
    out = create_topic(bootstrap, unique_topic("two-stages-out"))
    produce(bootstrap, topic, ["a,1000,1", "b,2000,2", "a,30000,5"], partition=0)
    produce(bootstrap, topic, ["b,3000,4", "c,31000,1"], partition=1)
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(2)
    events = env.from_source(_unbounded_events(bootstrap, topic), WatermarkStrategy.no_watermarks(), "events") \
        .map(parse, output_type=EVENT) \
        .assign_timestamps_and_watermarks(WatermarkStrategy.for_monotonous_timestamps()
                                          .with_timestamp_assigner(FromRecord()))
    events.key_by(lambda e: e[0], key_type=Types.STRING()) \
        .window(TumblingEventTimeWindows.of(Time.seconds(10))) \
        .reduce(lambda a, b: (a[0], max(a[1], b[1]), a[2] + b[2])) \
        .key_by(lambda e: e[1] // 10_000, key_type=Types.LONG()) \
        .window(TumblingEventTimeWindows.of(Time.seconds(10))) \
        .reduce(lambda a, b: a if (a[2], a[0]) >= (b[2], b[0]) else b) \
        .map(lambda e: "top %s=%d" % (e[0], e[2]), output_type=Types.STRING()) \
        .sink_to(kafka_sink(bootstrap, out))
    client = env.execute_async("two keyed stages")
    try:
        assert values(consume(bootstrap, out, 1, timeout_s=90, settle_s=3)) == ["top b=6"]
    finally:
        client.cancel().result()


def test_two_keyed_stages_from_a_bounded_source_give_every_result(spark, bootstrap):
    # A running total per key (KeyedProcessFunction), then per parity of the total a rolling sum of the
    # totals: the last output per parity is deterministic, whatever order the second stage sees.
    topic = create_topic(bootstrap, unique_topic("two-stages-bounded"), 2)
    out = create_topic(bootstrap, unique_topic("two-stages-bounded-out"))
    produce(bootstrap, topic, ["a,1000,1", "b,2000,2", "a,3000,3"], partition=0)
    produce(bootstrap, topic, ["c,1500,5", "b,2500,4", "c,4000,2"], partition=1)
    source = (KafkaSource.builder().set_bootstrap_servers(bootstrap).set_topics(topic)
              .set_value_only_deserializer(SimpleStringSchema())
              .set_bounded(KafkaOffsetsInitializer.latest()).build())
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(2)

    class Total(KeyedProcessFunction):
        def open(self, runtime_context):
            self.total = runtime_context.get_state(ValueStateDescriptor("total", Types.INT()))

        def process_element(self, value, ctx):
            self.total.update((self.total.value() or 0) + value[2])
            yield ctx.get_current_key(), self.total.value()

    env.from_source(source, WatermarkStrategy.no_watermarks(), "events").map(parse, output_type=EVENT) \
        .key_by(lambda e: e[0], key_type=Types.STRING()) \
        .process(Total(), output_type=Types.TUPLE([Types.STRING(), Types.INT()])) \
        .key_by(lambda t: t[1] % 2, key_type=Types.INT()) \
        .reduce(lambda a, b: ("%s+%s" % (a[0], b[0]), a[1] + b[1])) \
        .map(lambda t: "%d:%d" % (len(t[0].split("+")), t[1]), output_type=Types.STRING()) \
        .sink_to(kafka_sink(bootstrap, out))
    env.execute("two keyed stages, bounded")
    # Totals: a 1, 4; b 2, 6; c 5, 7. Odd totals 1, 5, 7 (sum 13), even ones 4, 2, 6 (sum 12). The rolling
    # reduce outputs once per element: per parity after 1, 2 and 3 totals, the last one complete.
    got = values(consume(bootstrap, out, 6))
    assert sorted(int(v.split(":")[0]) for v in got) == [1, 1, 2, 2, 3, 3]
    assert sorted(v for v in got if v.startswith("3:")) == ["3:12", "3:13"]


def _python_task_worker_pools():
    """Spark's fork servers of Python task workers under this process (one per pool of workers)."""
    from pyflink_compat.runtime import idle_planners
    children = idle_planners._children_by_parent()
    servers, todo = [], [os.getpid()]
    while todo:
        pid = todo.pop()
        command = idle_planners._cmdline(pid) or []
        parent_command = idle_planners._cmdline(_parent(pid)) or []
        if command[-2:] == ["pyspark.daemon", "pyspark.worker"] and parent_command != command:
            servers.append(pid)
        todo.extend(children.get(pid, ()))
    return servers


def _parent(pid):
    with open("/proc/%d/stat" % pid) as f:
        return int(f.read().rsplit(")", 1)[1].split()[1])


def test_read_tasks_and_keyed_subtasks_share_one_pool_of_python_workers(spark, bootstrap):
    # runtime/session.py: with one pool, a keyed subtask reuses an idle read task's worker (about 200 MiB
    # each) instead of Spark starting a second fork server and workers of its own.
    topic = create_topic(bootstrap, unique_topic("one-pool"), 2)
    out = create_topic(bootstrap, unique_topic("one-pool-out"))
    produce(bootstrap, topic, ["a,1000,1", "b,2000,2", "a,12000,3"], partition=0)
    source = (KafkaSource.builder().set_bootstrap_servers(bootstrap).set_topics(topic)
              .set_value_only_deserializer(SimpleStringSchema())
              .set_bounded(KafkaOffsetsInitializer.latest()).build())
    env = StreamExecutionEnvironment.get_execution_environment()
    window_sums(env, source, WatermarkStrategy.for_monotonous_timestamps(), bootstrap, out)
    env.execute("one pool of python workers")
    assert sorted(values(consume(bootstrap, out, 3))) == ["a:1", "a:3", "b:2"]
    assert len(_python_task_worker_pools()) == 1

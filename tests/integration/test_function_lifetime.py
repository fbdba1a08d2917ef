"""A user function lives as long as the job, as in Flink (runtime/live_functions.py): its instance attributes carry
on from one micro-batch to the next whichever Python worker runs it, open() is not called per micro-batch, and
close() is called once when a bounded source is done. Several micro-batches are forced with a small batch size."""
import os

import pytest

from kafka_helpers import consume, create_topic, produce, unique_topic
from pyflink_compat.common import Configuration, SimpleStringSchema, Types, WatermarkStrategy
from pyflink_compat.datastream import StreamExecutionEnvironment
from pyflink_compat.datastream.connectors.base import DeliveryGuarantee
from pyflink_compat.datastream.connectors.kafka import (KafkaOffsetsInitializer, KafkaRecordSerializationSchema,
                                                        KafkaSink, KafkaSource)
from pyflink_compat.datastream.functions import MapFunction

pytestmark = pytest.mark.integration

RECORDS = 60
BATCH_RECORDS = 7


def _environment(parallelism=1):
    configuration = Configuration()
    configuration.set_string("pyflink-compat.source.max-records-per-batch", str(BATCH_RECORDS))
    env = StreamExecutionEnvironment.get_execution_environment(configuration)
    env.set_parallelism(parallelism)
    return env


def _source(bootstrap, topic):
    return (KafkaSource.builder().set_bootstrap_servers(bootstrap).set_topics(topic)
            .set_value_only_deserializer(SimpleStringSchema())
            .set_starting_offsets(KafkaOffsetsInitializer.earliest())
            .set_bounded(KafkaOffsetsInitializer.latest()).build())


def _sink(bootstrap, topic):
    return (KafkaSink.builder().set_bootstrap_servers(bootstrap)
            .set_record_serializer(KafkaRecordSerializationSchema.builder().set_topic(topic)
                                   .set_value_serialization_schema(SimpleStringSchema()).build())
            .set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE).build())


def _numbering(log_dir):
    """A MapFunction numbering its calls per parallel instance (an instance attribute), logging its open() and
    close() calls to files (defined in a function: workers cannot import this module, so it travels by value)."""
    class NumberCalls(MapFunction):
        def open(self, runtime_context):
            self.calls = 0
            self.seen = []                      # changed in place: handed over too
            self.subtask = runtime_context.get_index_of_this_subtask()
            with open(os.path.join(log_dir, "open-%d" % self.subtask), "a") as f:
                f.write("%d\n" % os.getpid())
            with open(os.path.join(log_dir, "events-%d" % self.subtask), "a") as f:
                f.write("open\n")

        def map(self, value):
            self.calls += 1
            self.seen.append(value)
            return "%d:%s#%d/%d" % (self.subtask, value, self.calls, len(self.seen))

        def close(self):
            with open(os.path.join(log_dir, "close-%d" % self.subtask), "a") as f:
                f.write("%d\n" % self.calls)
            with open(os.path.join(log_dir, "events-%d" % self.subtask), "a") as f:
                f.write("close\n")

    return NumberCalls()


def _lines(path):
    with open(path) as f:
        return f.read().split()


def _numbers(values):
    """"subtask:value#calls/seen" -> {subtask: [(calls, seen), ...]} in output order."""
    numbered = {}
    for value in values:
        subtask, _, rest = value.partition(":")
        counts = rest.rpartition("#")[2].split("/")
        numbered.setdefault(int(subtask), []).append((int(counts[0]), int(counts[1])))
    return numbered


@pytest.mark.parametrize("layout", ["one-sink", "print-and-kafka"])
def test_instance_attributes_carry_on_across_micro_batches(spark, bootstrap, tmp_path, capsys, layout):
    topic_in = create_topic(bootstrap, unique_topic("lifetime-in"))
    topic_out = create_topic(bootstrap, unique_topic("lifetime-out"))
    produce(bootstrap, topic_in, ["v%02d" % i for i in range(RECORDS)])

    env = _environment()
    numbered = env.from_source(_source(bootstrap, topic_in), WatermarkStrategy.no_watermarks(), "in") \
        .map(_numbering(str(tmp_path)), output_type=Types.STRING())
    numbered.sink_to(_sink(bootstrap, topic_out))
    if layout == "print-and-kafka":
        numbered.print()
    env.execute("numbered %s" % layout)

    values = [r.value.decode() for r in consume(bootstrap, topic_out, RECORDS)]
    assert _numbers(values) == {0: [(i, i) for i in range(1, RECORDS + 1)]}
    assert [v.partition(":")[2].partition("#")[0] for v in values] == ["v%02d" % i for i in range(RECORDS)]
    if layout == "print-and-kafka":
        assert capsys.readouterr().out.split() == values
    # opened once per Python worker that ran the reader at most (never per micro-batch); closed once, at the end
    assert len(_lines(tmp_path / "open-0")) <= len(set(_lines(tmp_path / "open-0")))
    assert _lines(tmp_path / "close-0") == [str(RECORDS)]


def test_a_reader_of_several_partitions_numbers_them_in_turn(spark, bootstrap, tmp_path):
    """Parallelism 1 over three partitions: the reader's tasks of a micro-batch run one after the other, and one
    instance numbers all records (as Flink's one subtask reading three splits)."""
    topic_in = create_topic(bootstrap, unique_topic("lifetime-parts-in"), partitions=3)
    topic_out = create_topic(bootstrap, unique_topic("lifetime-parts-out"))
    for partition in range(3):
        produce(bootstrap, topic_in, ["p%d-%02d" % (partition, i) for i in range(20)], partition=partition)

    env = _environment()
    env.from_source(_source(bootstrap, topic_in), WatermarkStrategy.no_watermarks(), "in") \
        .map(_numbering(str(tmp_path)), output_type=Types.STRING()) \
        .sink_to(_sink(bootstrap, topic_out))
    env.execute("numbered partitions")

    numbers = _numbers(r.value.decode() for r in consume(bootstrap, topic_out, 60))
    assert sorted(numbers[0]) == [(i, i) for i in range(1, 61)]
    assert _lines(tmp_path / "close-0") == ["60"]


def test_two_readers_keep_their_own_instances(spark, bootstrap, tmp_path):
    topic_in = create_topic(bootstrap, unique_topic("lifetime-two-in"), partitions=2)
    topic_out = create_topic(bootstrap, unique_topic("lifetime-two-out"))
    for partition in range(2):
        produce(bootstrap, topic_in, ["p%d-%02d" % (partition, i) for i in range(25)], partition=partition)

    env = _environment(parallelism=2)
    env.from_source(_source(bootstrap, topic_in), WatermarkStrategy.no_watermarks(), "in") \
        .map(_numbering(str(tmp_path)), output_type=Types.STRING()) \
        .sink_to(_sink(bootstrap, topic_out))
    env.execute("numbered readers")

    numbers = _numbers(r.value.decode() for r in consume(bootstrap, topic_out, 50))
    assert {subtask: sorted(pairs) for subtask, pairs in numbers.items()} == \
        {0: [(i, i) for i in range(1, 26)], 1: [(i, i) for i in range(1, 26)]}
    assert sorted(_lines(tmp_path / "close-0") + _lines(tmp_path / "close-1")) == ["25", "25"]


def test_an_attribute_that_cannot_be_pickled_stays_with_its_worker(spark, bootstrap, tmp_path, caplog):
    """A lock made lazily in map() cannot be handed over: the job still runs, the counter still carries on."""
    topic_in = create_topic(bootstrap, unique_topic("lifetime-lock-in"))
    topic_out = create_topic(bootstrap, unique_topic("lifetime-lock-out"))
    produce(bootstrap, topic_in, ["v%02d" % i for i in range(30)])

    def with_lock():
        import threading

        class Locked(MapFunction):
            def __init__(self):
                self.calls = 0
                self.lock = None

            def map(self, value):
                if self.lock is None:
                    self.lock = threading.Lock()
                with self.lock:
                    self.calls += 1
                return "%s#%d" % (value, self.calls)

        return Locked()

    env = _environment()
    env.from_source(_source(bootstrap, topic_in), WatermarkStrategy.no_watermarks(), "in") \
        .map(with_lock(), output_type=Types.STRING()).sink_to(_sink(bootstrap, topic_out))
    env.execute("unpicklable attribute")

    values = [r.value.decode() for r in consume(bootstrap, topic_out, 30)]
    assert values == ["v%02d#%d" % (i, i + 1) for i in range(30)]


def test_a_keyed_function_keeps_its_attributes_is_opened_once_per_worker_and_closed_at_the_end(spark, bootstrap, tmp_path):
    """A KeyedProcessFunction (a keyed stage's subtask may run in another Python worker each micro-batch): its
    attribute counts every call of the subtask; its keyed state counts per key."""
    from pyflink_compat.common.typeinfo import Types as T
    from pyflink_compat.datastream.functions import KeyedProcessFunction
    from pyflink_compat.datastream.state import ValueStateDescriptor

    topic_in = create_topic(bootstrap, unique_topic("lifetime-keyed-in"))
    topic_out = create_topic(bootstrap, unique_topic("lifetime-keyed-out"))
    produce(bootstrap, topic_in, ["k%d-%02d" % (i % 3, i) for i in range(RECORDS)])
    log_dir = str(tmp_path)

    def counting():
        class CountPerSubtaskAndKey(KeyedProcessFunction):
            def open(self, runtime_context):
                self.calls = 0
                self.per_key = runtime_context.get_state(ValueStateDescriptor("n", T.INT()))
                with open(os.path.join(log_dir, "open-keyed"), "a") as f:
                    f.write("%d\n" % os.getpid())

            def process_element(self, value, ctx):
                self.calls += 1
                self.per_key.update((self.per_key.value() or 0) + 1)
                yield "%s#%d/%d" % (value, self.calls, self.per_key.value())

            def close(self):
                with open(os.path.join(log_dir, "close-keyed"), "a") as f:
                    f.write("%d\n" % self.calls)

        return CountPerSubtaskAndKey()

    env = _environment()
    # quiet micro-batches every 50 ms (a KeyedProcessFunction may have processing-time timers), also after the
    # source's last one: they neither open nor close anything again
    env._configuration.set_string("pyflink-compat.processing-time.tick-interval-ms", "50")
    env.from_source(_source(bootstrap, topic_in), WatermarkStrategy.no_watermarks(), "in") \
        .map(_numbering(log_dir), output_type=Types.STRING()) \
        .key_by(lambda v: v.split(":")[1].split("-")[0], key_type=Types.STRING()) \
        .process(counting(), output_type=Types.STRING()) \
        .sink_to(_sink(bootstrap, topic_out))
    env.execute("numbered keyed")

    values = [r.value.decode() for r in consume(bootstrap, topic_out, RECORDS)]
    assert values == ["0:k%d-%02d#%d/%d#%d/%d" % (i % 3, i, i + 1, i + 1, i + 1, i // 3 + 1) for i in range(RECORDS)]
    assert _lines(tmp_path / "close-0") == [str(RECORDS)]
    assert _lines(tmp_path / "events-0")[-1] == "close"        # nothing opened again after the end
    opened_by = _lines(tmp_path / "open-keyed")
    assert len(opened_by) == len(set(opened_by))
    assert _lines(tmp_path / "close-keyed") == [str(RECORDS)]      # closed once, when the bounded source is done

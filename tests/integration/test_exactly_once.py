"""EXACTLY_ONCE through Kafka transactions, on the real broker and Spark: each task's output of a micro-batch
is one transaction with a marker, a re-run of a committed micro-batch writes nothing, and transactions left
open by an earlier run are ended when the job starts.

Tansu shows records of *aborted* transactions to read_committed readers (it sends no aborted-transaction
list; /work/notes/kafka_transactions_spike.md), so these tests avoid aborts: they check commits, markers,
re-runs and the last stable offset, which Tansu does implement.
"""
import os

import pytest
from kafka import KafkaAdminClient, KafkaProducer, TopicPartition

from kafka_helpers import by_partition, consume, create_topic, produce, unique_topic, values
from transaction_log_reader import explain_missing
from pyflink_compat.common import Configuration, SimpleStringSchema, Types, WatermarkStrategy
from pyflink_compat.datastream import ExternalizedCheckpointRetention, StreamExecutionEnvironment
from pyflink_compat.datastream.connectors.base import DeliveryGuarantee
from pyflink_compat.datastream.connectors.kafka import (FlinkKafkaProducer, KafkaOffsetsInitializer,
                                                        KafkaRecordSerializationSchema, KafkaSink, KafkaSource,
                                                        Semantic)

pytestmark = pytest.mark.integration


def exactly_once_sink(bootstrap, topic, prefix, guarantee=DeliveryGuarantee.EXACTLY_ONCE):
    return (KafkaSink.builder().set_bootstrap_servers(bootstrap)
            .set_record_serializer(KafkaRecordSerializationSchema.builder().set_topic(topic)
                                   .set_value_serialization_schema(SimpleStringSchema()).build())
            .set_delivery_guarantee(guarantee)
            .set_transactional_id_prefix(prefix)
            .set_property("transaction.timeout.ms", "900000")
            .build())


def environment(tmp_path, savepoint=None, batch_records=None, direct=True):
    configuration = Configuration()
    if not direct:       # records go through Spark to the separate Python stream writer
        configuration.set_string("pyflink-compat.sink.direct", "false")
    configuration.set_string("execution.checkpointing.dir", str(tmp_path / "checkpoints"))
    if savepoint:
        configuration.set_string("execution.savepoint.path", savepoint)
    if batch_records:
        configuration.set_string("pyflink-compat.source.max-records-per-batch", str(batch_records))
    env = StreamExecutionEnvironment.get_execution_environment(configuration)
    env.enable_checkpointing(1000)
    env.get_checkpoint_config().set_externalized_checkpoint_retention(
        ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION)
    return env


def kafka_source(bootstrap, topic):
    return (KafkaSource.builder().set_bootstrap_servers(bootstrap).set_topics(topic)
            .set_starting_offsets(KafkaOffsetsInitializer.earliest())
            .set_bounded(KafkaOffsetsInitializer.latest())
            .set_value_only_deserializer(SimpleStringSchema()).build())


def upper_job(env, bootstrap, topic_in, topic_out, prefix, guarantee=DeliveryGuarantee.EXACTLY_ONCE):
    (env.from_source(kafka_source(bootstrap, topic_in), WatermarkStrategy.no_watermarks(), "Kafka Source")
     .map(lambda v: v.upper(), output_type=Types.STRING())
     .sink_to(exactly_once_sink(bootstrap, topic_out, prefix, guarantee)).uid("upper-out"))
    return env.execute("exactly once test")


def committed_values(bootstrap, topic, expected):
    """What a read_committed reader sees, worked out from the log's transaction markers (as the crash tests
    do), waiting while a transaction is still open: CI runs saw Tansu write a committed transaction's
    markers, and so move its last stable offset, long after the job's commit had returned (a later read
    found every record committed once). ``expected`` is unused by the log reader; the test that a
    transaction left open is ended uses Kafka's own read_committed consumer."""
    from transaction_log_reader import read_committed
    committed, _ = read_committed(bootstrap, topic, timeout_s=90, wait_for_open_s=120)
    return committed


@pytest.mark.parametrize("direct", [True, False], ids=["written-by-read-tasks", "spark-stream-writer"])
def test_every_record_is_committed_once_in_order_per_partition(spark, bootstrap, tmp_path, direct):
    topic_in = create_topic(bootstrap, unique_topic("eo-in"), partitions=2)
    topic_out = create_topic(bootstrap, unique_topic("eo-out"), partitions=2)
    for partition in (0, 1):
        produce(bootstrap, topic_in, ["p%d-%04d" % (partition, i) for i in range(300)], partition=partition)
    upper_job(environment(tmp_path, batch_records=100, direct=direct), bootstrap, topic_in, topic_out,
              unique_topic("eo"))
    output = committed_values(bootstrap, topic_out, 600)
    assert sorted(values(output)) == sorted("P%d-%04d" % (p, i) for p in (0, 1) for i in range(300))
    # Each input partition's records keep their order in the output (one writing task per input partition).
    for records in by_partition(output).values():
        for prefix in ("P0-", "P1-"):
            mine = [v for v in records if v.startswith(prefix)]
            assert mine == sorted(mine)


@pytest.mark.parametrize("shared_prefix", [False, True], ids=["own-prefixes", "one-prefix"])
def test_two_exactly_once_sinks_of_one_source_each_commit_every_record_once(spark, bootstrap, tmp_path,
                                                                           shared_prefix):
    # One pass feeds both sinks (runtime/fan_out.py): each task commits one transaction per sink. Sinks given
    # one transactional id prefix still get ids of their own (one id's transactions back to back, the first's
    # commit marker not yet written when the second's producer started, was seen to lose the second's records).
    topic_in = create_topic(bootstrap, unique_topic("eo2-in"), partitions=2)
    upper_out = create_topic(bootstrap, unique_topic("eo2-upper"))
    even_out = create_topic(bootstrap, unique_topic("eo2-even"))
    for partition in (0, 1):
        produce(bootstrap, topic_in, ["p%d-%04d" % (partition, i) for i in range(200)], partition=partition)
    env = environment(tmp_path, batch_records=100)
    # One writing task, so two transactional producers at a time (one per sink). With four (two tasks x two
    # sinks) Tansu 0.6.0 itself loses transactional writes: a stand-alone script of four kafka-python
    # transactional producers, a new one per batch as our tasks start them, lost a task's first batch from the
    # log, or left read_committed readers stuck behind records it had, in 5-10 of 40-60 trials; with two, 0 of 60.
    # (Its memory storage keeps all producers and transactions in one JSON object updated by compare-and-swap.)
    env.set_parallelism(1)
    upper = env.from_source(kafka_source(bootstrap, topic_in), WatermarkStrategy.no_watermarks(), "Kafka Source") \
        .map(lambda v: v.upper(), output_type=Types.STRING())
    first_prefix = unique_topic("eo2-a")
    upper.sink_to(exactly_once_sink(bootstrap, upper_out, first_prefix)).uid("upper-out")
    upper.filter(lambda v: int(v[-4:]) % 2 == 0) \
        .sink_to(exactly_once_sink(bootstrap, even_out, first_prefix if shared_prefix else unique_topic("eo2-b"))) \
        .uid("even-out")
    env.execute("two exactly-once sinks")
    expected = sorted("P%d-%04d" % (p, i) for p in (0, 1) for i in range(200))
    upper = sorted(values(committed_values(bootstrap, upper_out, 400)))
    even = sorted(values(committed_values(bootstrap, even_out, 200)))
    expected_even = [v for v in expected if int(v[-4:]) % 2 == 0]
    for topic, got, wanted in ((upper_out, upper, expected), (even_out, even, expected_even)):
        missing = sorted(set(wanted) - set(got))
        assert got == wanted, "%s: %d records missing, %d extra\n%s\n%s" % (
            topic, len(missing), len(got) - len(wanted) + len(missing), missing[:5] + ["..."] + missing[-5:],
            explain_missing(bootstrap, topic, missing))
    # The second sink's markers (and transactions) are its own: the group <prefix>-sink-1-<task> when the
    # prefix is shared.
    even_group = "%s-sink-1-0" % first_prefix if shared_prefix else None
    if even_group:
        admin = KafkaAdminClient(bootstrap_servers=bootstrap)
        try:
            markers = admin.list_group_offsets({even_group: [TopicPartition(even_out, 0)]})[even_group]
        finally:
            admin.close()
        assert [meta.offset for meta in markers.values()] and min(meta.offset for meta in markers.values()) >= 1


def _drop_last_spark_commit(job_directory):
    """What a crash after the Kafka commit and before Spark's batch commit leaves: the batch's offsets are
    logged, its commit is not; a restore runs that batch again."""
    sink_dir = os.path.join(job_directory, "sink-upper-out")
    commits = os.path.join(sink_dir, "commits")
    last = max(int(name) for name in os.listdir(commits) if name.isdigit())
    os.remove(os.path.join(commits, str(last)))
    crc = os.path.join(commits, ".%d.crc" % last)
    if os.path.exists(crc):
        os.remove(crc)
    return last


@pytest.mark.parametrize("guarantee", [DeliveryGuarantee.EXACTLY_ONCE, DeliveryGuarantee.AT_LEAST_ONCE])
def test_a_micro_batch_run_again_after_a_crash_is_written_once_with_exactly_once(spark, bootstrap, tmp_path,
                                                                                 guarantee):
    topic_in = create_topic(bootstrap, unique_topic("eo-rerun-in"))
    topic_out = create_topic(bootstrap, unique_topic("eo-rerun-out"))
    produce(bootstrap, topic_in, ["r%03d" % i for i in range(250)])
    prefix = unique_topic("eo-rerun")
    first = upper_job(environment(tmp_path, batch_records=100), bootstrap, topic_in, topic_out, prefix, guarantee)
    job_directory = str(tmp_path / "checkpoints" / str(first.get_job_id()))
    assert len(committed_values(bootstrap, topic_out, 250)) == 250
    rerun_batch = _drop_last_spark_commit(job_directory)
    assert rerun_batch == 2                      # batches of 100, 100 and 50 records

    upper_job(environment(tmp_path, savepoint=job_directory), bootstrap, topic_in, topic_out, prefix, guarantee)
    output = values(committed_values(bootstrap, topic_out, 300))
    assert set(output) == {"R%03d" % i for i in range(250)}
    if guarantee == DeliveryGuarantee.EXACTLY_ONCE:
        assert len(output) == 250                # the re-run found its output committed and wrote nothing
    else:
        assert len(output) == 300                # the control: AT_LEAST_ONCE writes the re-run's 50 again


def test_a_transaction_left_open_by_an_earlier_run_is_ended_when_the_job_starts(spark, bootstrap, tmp_path):
    topic_in = create_topic(bootstrap, unique_topic("eo-open-in"))
    topic_out = create_topic(bootstrap, unique_topic("eo-open-out"))
    produce(bootstrap, topic_in, ["x", "y"])
    prefix = unique_topic("eo-open")
    # A "crashed" task of an earlier run: its transaction (id <prefix>-0) is open and holds nothing visible.
    # A read_committed reader stops in front of it, so nothing written after it would be seen.
    crashed = KafkaProducer(bootstrap_servers=bootstrap, transactional_id="%s-0" % prefix)
    crashed.init_transactions()
    crashed.begin_transaction()
    crashed.send(topic_out, b"from-the-crashed-run", partition=0)
    crashed.flush()
    try:
        upper_job(environment(tmp_path), bootstrap, topic_in, topic_out, prefix)
        output = values(consume(bootstrap, topic_out, 2, timeout_s=90, settle_s=1, isolation_level="read_committed"))
        assert "X" in output and "Y" in output
    finally:
        crashed.close(timeout=1)


def test_a_keyed_running_sum_is_written_exactly_once(spark, bootstrap, tmp_path):
    topic_in = create_topic(bootstrap, unique_topic("eo-keyed-in"))
    topic_out = create_topic(bootstrap, unique_topic("eo-keyed-out"))
    produce(bootstrap, topic_in, ["a:1", "b:2", "a:3", "b:4", "a:5"])
    env = environment(tmp_path)
    env.set_parallelism(2)
    (env.from_source(kafka_source(bootstrap, topic_in), WatermarkStrategy.no_watermarks(), "Kafka Source")
     .map(lambda v: (v.split(":")[0], int(v.split(":")[1])), output_type=Types.TUPLE([Types.STRING(), Types.LONG()]))
     .key_by(lambda pair: pair[0], key_type=Types.STRING())
     .reduce(lambda a, b: (a[0], a[1] + b[1]))
     .map(lambda pair: "%s=%d" % pair, output_type=Types.STRING())
     .sink_to(exactly_once_sink(bootstrap, topic_out, unique_topic("eo-keyed"))))
    env.execute("exactly once keyed")
    assert sorted(values(committed_values(bootstrap, topic_out, 5))) == ["a=1", "a=4", "a=9", "b=2", "b=6"]


def test_a_keyed_operation_feeding_a_sink_and_a_later_one_writes_both_exactly_once(spark, bootstrap, tmp_path):
    # the running sums go to their sink from the first depth's tasks, and on to a second keyed operation
    topic_in = create_topic(bootstrap, unique_topic("eo-two-depths-in"))
    sums_topic = create_topic(bootstrap, unique_topic("eo-two-depths-sums"))
    counts_topic = create_topic(bootstrap, unique_topic("eo-two-depths-counts"))
    produce(bootstrap, topic_in, ["a:1", "b:2", "a:3", "b:4", "a:5"])
    env = environment(tmp_path)
    env.set_parallelism(2)
    sums = (env.from_source(kafka_source(bootstrap, topic_in), WatermarkStrategy.no_watermarks(), "Kafka Source")
            .map(lambda v: (v.split(":")[0], int(v.split(":")[1])),
                 output_type=Types.TUPLE([Types.STRING(), Types.LONG()]))
            .key_by(lambda pair: pair[0], key_type=Types.STRING())
            .reduce(lambda a, b: (a[0], a[1] + b[1])))
    sums.map(lambda pair: "%s=%d" % pair, output_type=Types.STRING()) \
        .sink_to(exactly_once_sink(bootstrap, sums_topic, unique_topic("eo-sums")))
    parity = Types.TUPLE([Types.STRING(), Types.LONG()])
    sums.map(lambda pair: ("odd" if pair[1] % 2 else "even", 1), output_type=parity) \
        .key_by(lambda pair: pair[0], key_type=Types.STRING()) \
        .reduce(lambda a, b: (a[0], a[1] + b[1])) \
        .map(lambda pair: "%s#%d" % pair, output_type=Types.STRING()) \
        .sink_to(exactly_once_sink(bootstrap, counts_topic, unique_topic("eo-counts")))
    env.execute("exactly once at two depths")
    assert sorted(values(committed_values(bootstrap, sums_topic, 5))) == ["a=1", "a=4", "a=9", "b=2", "b=6"]
    # parities of the sums 1, 4, 9 and 2, 6: odd twice, even three times
    assert sorted(values(committed_values(bootstrap, counts_topic, 5))) == ["even#1", "even#2", "even#3", "odd#1",
                                                                            "odd#2"]


def test_the_legacy_producer_is_transactional_with_checkpointing_and_falls_back_without(spark, bootstrap,
                                                                                         tmp_path):
    topic_in = create_topic(bootstrap, unique_topic("eo-legacy-in"))
    produce(bootstrap, topic_in, ["m", "n"])
    for checkpointing in (True, False):
        topic_out = create_topic(bootstrap, unique_topic("eo-legacy-out"))
        env = environment(tmp_path) if checkpointing else StreamExecutionEnvironment.get_execution_environment()
        producer = FlinkKafkaProducer(topic_out, SimpleStringSchema(),
                                      {"bootstrap.servers": bootstrap, "transaction.timeout.ms": "900000"},
                                      semantic=Semantic.EXACTLY_ONCE)
        (env.from_source(kafka_source(bootstrap, topic_in), WatermarkStrategy.no_watermarks(), "Kafka Source")
         .add_sink(producer))
        env.execute("legacy exactly once")
        assert sorted(values(committed_values(bootstrap, topic_out, 2))) == ["m", "n"], checkpointing


def test_the_test_reader_keeps_committed_and_plain_records_and_drops_aborted_and_open_ones(bootstrap):
    """The log-based read_committed of tests/transaction_log_reader.py, which the crash tests rely on."""
    from transaction_log_reader import read_committed
    topic = create_topic(bootstrap, unique_topic("txn-reader"))
    plain = KafkaProducer(bootstrap_servers=bootstrap)
    plain.send(topic, b"plain-1", partition=0).get(timeout=30)
    transactional = KafkaProducer(bootstrap_servers=bootstrap, transactional_id=unique_topic("reader-test"))
    transactional.init_transactions()
    for value, commit in ((b"committed-1", True), (b"aborted-1", False), (b"committed-2", True)):
        transactional.begin_transaction()
        transactional.send(topic, value, partition=0)
        transactional.flush()
        if commit:
            transactional.commit_transaction()
        else:
            transactional.abort_transaction()
    plain.send(topic, b"plain-2", partition=0).get(timeout=30)
    transactional.begin_transaction()
    transactional.send(topic, b"still-open", partition=0)
    transactional.flush()
    try:
        committed, aborted = read_committed(bootstrap, topic, timeout_s=60, wait_for_open_s=5)
        assert [r.value for r in committed] == [b"plain-1", b"committed-1", b"committed-2", b"plain-2"]
        assert aborted == 1
    finally:
        transactional.close(timeout=1)
        plain.close()


def test_two_jobs_with_different_prefixes_do_not_interfere(spark, bootstrap, tmp_path):
    """Both write the same input to one topic: each job's markers are its own, so neither takes the other's
    committed micro-batches for its own (with one shared prefix the second job would write nothing)."""
    topic_in = create_topic(bootstrap, unique_topic("eo-two-in"))
    topic_out = create_topic(bootstrap, unique_topic("eo-two-out"))
    produce(bootstrap, topic_in, ["q%02d" % i for i in range(40)])
    for prefix in (unique_topic("job-a"), unique_topic("job-b")):
        upper_job(environment(tmp_path, batch_records=10), bootstrap, topic_in, topic_out, prefix)
    output = values(committed_values(bootstrap, topic_out, 80))
    assert sorted(output) == sorted(["Q%02d" % i for i in range(40)] * 2)

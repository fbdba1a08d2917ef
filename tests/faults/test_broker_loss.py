"""Faults that cannot be ridden out end in a clear failure, soon, never in a silent hang or an exit 0 with
records missing:

- the source's broker comes back empty (its topics gone): the job fails naming the topic, partition and
  offset, and the source does not re-create the topic;
- the source's topic is re-created on it, its log now ending below the source's position: the source follows
  ``auto.offset.reset`` as Kafka's consumer does (set from the starting offsets, as Flink's builder does):
  earliest reads the new log from its start, none fails the job naming the topic and partition;
- the sink's broker comes back empty: records sent to it after the restart are acknowledged or the job fails;
  none is counted as written without the broker's acknowledgement;
- the sink's broker dies for good: the job fails within the sink's delivery.timeout.ms and the task's retries,
  naming the bootstrap servers, and prints where its checkpoints are at the default log level.

Brokers here use memory storage, so a restart loses everything (tests/faults/fault_env.py).
"""
import pytest
from kafka import KafkaAdminClient

from fault_env import job_error, run_through_fault, wait_for_values
from job_processes import tail
from kafka_helpers import consume, create_topic, produce, values
from transaction_log_reader import read_transactions

pytestmark = pytest.mark.integration

RECORDS = 60_000
FULL = pytest.mark.faults_full
# Failing is expected within about a minute; the wait is longer so that a slow machine shows how long it took.
FAILURE_WAIT_S = 150.0


def _restart_empty(broker):
    return lambda *_topics: broker.restart(down_s=0.5)


def test_a_source_broker_that_comes_back_empty_fails_the_job_naming_the_topic(bootstrap, memory_broker, tmp_path):
    source = memory_broker.bootstrap_servers
    run = run_through_fault("empty-source", source, bootstrap, "at-least-once", _restart_empty(memory_broker),
                            tmp_path, RECORDS, deadline_s=FAILURE_WAIT_S)
    assert run.exit_code not in (0, None), "the job ended with %s although its input is gone:\n%s" % (
        run.exit_code, tail(run.log_path))
    error = job_error(run.log_path)
    assert "failed in Source: Kafka Source: KafkaTopicNotFoundError" in error, error
    assert "no longer exists" in error and source in error and "empty-source-in-" in error, error
    admin = KafkaAdminClient(bootstrap_servers=source)
    try:
        assert not [t for t in admin.list_topics() if t.startswith("empty-source-in-")], \
            "the job re-created its vanished input topic"
    finally:
        admin.close()
    print("source broker came back empty: the job failed %.0f s later: %s" % (run.seconds_after_fault, error[:300]))


FIRST_NEW_RECORDS = 1000          # per partition: well below where the source had read to when the broker restarted


def _restart_and_recreate(broker, then=None):
    """Restart the broker empty, re-create the input topic at once and put FIRST_NEW_RECORDS "new-NNNNNN" records
    in each partition (then ``then(input_topic, output_topic, new_values)``)."""
    def inject(input_topic, output_topic):
        broker.restart(down_s=0.5)
        create_topic(broker.bootstrap_servers, input_topic, partitions=2)
        new = ["new-%06d" % i for i in range(2 * FIRST_NEW_RECORDS)]
        for partition in (0, 1):
            produce(broker.bootstrap_servers, input_topic, new[partition::2], partition=partition)
        if then is not None:
            then(input_topic, output_topic, new)
    return inject


def test_a_re_created_source_topic_is_read_from_its_start_under_auto_offset_reset_earliest(bootstrap, memory_broker,
                                                                                           tmp_path):
    """KafkaOffsetsInitializer.earliest() sets auto.offset.reset=earliest: the source reads the new log from offset
    0, all of it, and the bounded job ends at its stopping offsets."""
    source = memory_broker.bootstrap_servers

    def fill_up(input_topic, output_topic, first):
        # Only once the job read the first new records (so after it moved back to the start) does the new log
        # grow past the old position: before, a lookup would find the position within the log again.
        wait_for_values(bootstrap, output_topic, {v.upper() for v in first}, deadline_s=90)
        rest = ["new-%06d" % i for i in range(len(first), RECORDS)]
        for partition in (0, 1):
            produce(source, input_topic, rest[partition::2], partition=partition)

    run = run_through_fault("reset-earliest", source, bootstrap, "at-least-once",
                            _restart_and_recreate(memory_broker, fill_up), tmp_path, RECORDS,
                            deadline_s=FAILURE_WAIT_S)
    assert run.exit_code == 0, "the job did not go on from the re-created topic's start:\n" + tail(run.log_path)
    got = set(values(consume(bootstrap, run.topic_out, RECORDS, timeout_s=60, settle_s=2)))
    missing = {"NEW-%06d" % i for i in range(RECORDS)} - got
    assert not missing, "%d records of the new log are missing, e.g. %s" % (len(missing), sorted(missing)[:5])
    assert "auto.offset.reset is earliest" in tail(run.log_path, lines=2000)


def test_a_re_created_source_topic_fails_the_job_under_auto_offset_reset_none(bootstrap, memory_broker, tmp_path):
    source = memory_broker.bootstrap_servers
    run = run_through_fault("reset-none", source, bootstrap, "at-least-once", _restart_and_recreate(memory_broker),
                            tmp_path, RECORDS, deadline_s=FAILURE_WAIT_S, starting="zero-no-reset")
    assert run.exit_code not in (0, None), "the job ended with %s although its position is gone:\n%s" % (
        run.exit_code, tail(run.log_path))
    error = job_error(run.log_path)
    assert "failed in Source: Kafka Source: KafkaOffsetOutOfRangeError" in error, error
    assert "auto.offset.reset is none" in error and "reset-none-in-" in error and source in error, error
    print("re-created source topic, reset none: the job failed %.0f s later: %s" % (run.seconds_after_fault,
                                                                                 error[:300]))


# exactly-once under this fault in the full matrix: the default run covers a lost sink broker with transactions in
# test_network_outage's sink path cut (exactly-once) and test_freeze_and_kill's frozen sink (exactly-once)
@pytest.mark.parametrize("guarantee", [pytest.param("none", marks=FULL), "at-least-once",
                                       pytest.param("exactly-once", marks=FULL)])
def test_a_sink_broker_that_comes_back_empty_loses_nothing_sent_after_it(guarantee, bootstrap, memory_broker,
                                                                         tmp_path):
    """What the broker lost is lost; what the job sent after the restart is acknowledged or the job fails.
    EXACTLY_ONCE: no transaction is left open and no record is committed twice."""
    sink = memory_broker.bootstrap_servers
    # A run that cannot write to the new broker fails only once its records' delivery timeout has passed (two
    # minutes by default; such a run took 141 s): a shorter one bounds it, the outcomes stay acknowledged or failed.
    run = run_through_fault("empty-sink", bootstrap, sink, guarantee, _restart_empty(memory_broker), tmp_path,
                            RECORDS, deadline_s=FAILURE_WAIT_S,
                            sink_properties=[("delivery.timeout.ms", 30000), ("request.timeout.ms", 10000)])
    assert run.exit_code is not None, "the job neither failed nor finished:\n" + tail(run.log_path)
    if run.exit_code != 0:
        print("sink broker came back empty: the job failed: %s" % job_error(run.log_path)[:300])
        return
    if guarantee == "exactly-once":
        committed, _, still_open = read_transactions(sink, run.topic_out)
        assert still_open == 0, "%d records are in transactions left open" % still_open
        output = [r.value.decode() for r in committed]
        assert len(output) == len(set(output)), "%d records committed twice" % (len(output) - len(set(output)))
        got = set(output)
    else:
        got = set(values(consume(sink, run.topic_out, 1, timeout_s=30, settle_s=5)))
    # The job went on: from the first record each input partition has after the restart, every later one is there.
    for partition in (0, 1):
        mine = sorted(int(v.split("-")[1]) for v in got if int(v.split("-")[1]) % 2 == partition)
        assert mine, "nothing of input partition %d was written after the restart:\n%s" % (partition,
                                                                                          tail(run.log_path))
        expected = {"RECORD-%06d" % i for i in range(mine[0], RECORDS, 2)}
        missing = expected - got
        assert not missing, "%d records sent after the restart are missing, e.g. %s" % (len(missing),
                                                                                       sorted(missing)[:5])
    print("sink broker came back empty, %s: the job went on; %d records written after the restart"
          % (guarantee, len(got)))


@pytest.mark.parametrize("guarantee", [pytest.param("none", marks=FULL), "at-least-once",
                                       pytest.param("exactly-once", marks=FULL)])
def test_a_dead_sink_broker_fails_the_job_within_the_delivery_timeout(guarantee, bootstrap, memory_broker, tmp_path):
    sink = memory_broker.bootstrap_servers
    delivery_timeout_ms = 10000
    run = run_through_fault("dead-sink", bootstrap, sink, guarantee, lambda *_: memory_broker.stop(), tmp_path,
                            RECORDS, deadline_s=FAILURE_WAIT_S, held_back=RECORDS // 2,
                            sink_properties=[("delivery.timeout.ms", delivery_timeout_ms),
                                             ("request.timeout.ms", 5000)])
    assert run.exit_code not in (0, None), "the job ended with %s although its sink broker is gone:\n%s" % (
        run.exit_code, tail(run.log_path))
    error = job_error(run.log_path)
    assert sink in error, "the error does not name the sink's bootstrap servers '%s': %s" % (sink, error)
    assert "Checkpoints of this job kept in" in tail(run.log_path, lines=400)
    print("sink broker died, %s: the job failed %.0f s later (delivery.timeout.ms %d ms): %s"
          % (guarantee, run.seconds_after_fault, delivery_timeout_ms, error[:300]))

"""Faults that cannot be ridden out end in a clear failure, soon, never in a silent hang or an exit 0 with
records missing:

- the source's broker comes back empty (its topics gone): the job fails naming the topic, partition and
  offset, and the source does not re-create the topic;
- the sink's broker comes back empty: records sent to it after the restart are acknowledged or the job fails;
  none is counted as written without the broker's acknowledgement;
- the sink's broker dies for good: the job fails within the sink's delivery.timeout.ms and the task's retries,
  naming the bootstrap servers, and prints where its checkpoints are at the default log level.

Brokers here use memory storage, so a restart loses everything (tests/faults/fault_env.py).
"""
import pytest
from kafka import KafkaAdminClient

from fault_env import job_error, run_through_fault
from job_processes import tail
from kafka_helpers import consume, values
from transaction_log_reader import read_transactions

pytestmark = pytest.mark.integration

RECORDS = 60_000
# Failing is expected within about a minute; the wait is longer so that a slow machine shows how long it took.
FAILURE_WAIT_S = 150.0


def _restart_empty(broker):
    return lambda: broker.restart(down_s=0.5)


def test_a_source_broker_that_comes_back_empty_fails_the_job_naming_the_topic(bootstrap, memory_broker, tmp_path):
    source = memory_broker.bootstrap_servers
    run = run_through_fault("empty-source", source, bootstrap, "at-least-once", _restart_empty(memory_broker),
                            tmp_path, RECORDS, deadline_s=FAILURE_WAIT_S)
    assert run.exit_code not in (0, None), "the job ended with %s although its input is gone:\n%s" % (
        run.exit_code, tail(run.log_path))
    error = job_error(run.log_path)
    assert "no longer exists" in error and source in error and "empty-source-in-" in error, error
    admin = KafkaAdminClient(bootstrap_servers=source)
    try:
        assert not [t for t in admin.list_topics() if t.startswith("empty-source-in-")], \
            "the job re-created its vanished input topic"
    finally:
        admin.close()
    print("source broker came back empty: the job failed %.0f s later: %s" % (run.seconds_after_fault, error[:300]))


@pytest.mark.parametrize("guarantee", ["at-least-once", "exactly-once"])
def test_a_sink_broker_that_comes_back_empty_loses_nothing_sent_after_it(guarantee, bootstrap, memory_broker,
                                                                         tmp_path):
    """What the broker lost is lost; what the job sent after the restart is acknowledged or the job fails.
    EXACTLY_ONCE: no transaction is left open and no record is committed twice."""
    sink = memory_broker.bootstrap_servers
    run = run_through_fault("empty-sink", bootstrap, sink, guarantee, _restart_empty(memory_broker), tmp_path,
                            RECORDS, deadline_s=FAILURE_WAIT_S)
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


def test_a_dead_sink_broker_fails_the_job_within_the_delivery_timeout(bootstrap, memory_broker, tmp_path):
    sink = memory_broker.bootstrap_servers
    delivery_timeout_ms = 20000
    run = run_through_fault("dead-sink", bootstrap, sink, "at-least-once", memory_broker.stop, tmp_path, RECORDS,
                            deadline_s=FAILURE_WAIT_S,
                            sink_properties=[("delivery.timeout.ms", delivery_timeout_ms), ("request.timeout.ms", 10000)])
    assert run.exit_code not in (0, None), "the job ended with %s although its sink broker is gone:\n%s" % (
        run.exit_code, tail(run.log_path))
    error = job_error(run.log_path)
    assert sink in error, "the error does not name the sink's bootstrap servers '%s': %s" % (sink, error)
    assert "Checkpoints of this job kept in" in tail(run.log_path, lines=400)
    print("sink broker died: the job failed %.0f s later (delivery.timeout.ms %d ms): %s"
          % (run.seconds_after_fault, delivery_timeout_ms, error[:300]))

"""Faults that cannot be ridden out end in a clear failure, soon, never in a silent hang or an exit 0 with
records missing:

- the source's broker comes back empty (its topics gone): the job fails naming the topic, partition and
  offset, and the source does not re-create the topic;
- the sink's broker comes back empty: records sent to it after the restart are acknowledged or the job fails;
  none is counted as written without the broker's acknowledgement;
- the sink's broker dies for good: the job fails within the sink's delivery.timeout.ms and a micro-batch,
  naming the bootstrap servers.

Brokers here use memory storage, so a restart loses everything (tests/faults/fault_env.py).
"""
import os
import time

import pytest
from kafka import KafkaAdminClient

from fault_env import FaultBroker, start_fault_job
from job_processes import kill_job, output_size, tail
from kafka_helpers import consume, create_topic, produce, unique_topic, values
from test_broker_restart import wait_for_output

pytestmark = pytest.mark.integration

RECORDS = 60_000
# Failing is expected within about a minute; the wait is longer so that a slow machine shows how long it took.
FAILURE_WAIT_S = 150.0


@pytest.fixture
def memory_broker(tmp_path):
    if os.environ.get("KAFKA_BOOTSTRAP_SERVERS"):
        pytest.skip("restarting needs a broker process of the test's own (Tansu)")
    broker = FaultBroker(str(tmp_path / "tansu.log"))
    try:
        yield broker
    finally:
        broker.close()


def _input(servers, name):
    topic = create_topic(servers, unique_topic(name + "-in"), partitions=2)
    inputs = ["record-%06d" % i for i in range(RECORDS)]
    for partition in (0, 1):
        produce(servers, topic, inputs[partition::2], partition=partition)
    return topic, inputs


def _wait_for_exit(process, log_path):
    started = time.monotonic()
    try:
        exit_code = process.wait(timeout=FAILURE_WAIT_S)
    except Exception:
        kill_job(process)
        pytest.fail("the job neither failed nor finished within %.0f s of the fault:\n%s"
                    % (FAILURE_WAIT_S, tail(log_path)))
    return exit_code, time.monotonic() - started


def _job_error(log_path):
    """The last line the runner printed for the failure (``JobExecutionError: ...``)."""
    with open(log_path, "rb") as f:
        lines = f.read().decode(errors="replace").splitlines()
    errors = [line for line in lines if "JobExecutionError: " in line]
    assert errors, "the job failed without a JobExecutionError:\n" + tail(log_path)
    return errors[-1]


def test_a_source_broker_that_comes_back_empty_fails_the_job_naming_the_topic(bootstrap, memory_broker, tmp_path):
    source = memory_broker.bootstrap_servers
    topic_in, _ = _input(source, "empty-source")
    topic_out = create_topic(bootstrap, unique_topic("empty-source-out"), partitions=2)
    log_path = str(tmp_path / "job.log")
    process = start_fault_job(source, bootstrap, topic_in, topic_out, str(tmp_path / "checkpoints"), log_path,
                              "at-least-once", RECORDS // 2)
    try:
        wait_for_output(bootstrap, topic_out, process, RECORDS // 5, log_path)
        memory_broker.restart(down_s=0.5)
        exit_code, took_s = _wait_for_exit(process, log_path)
    finally:
        if process.poll() is None:
            kill_job(process)
    assert exit_code not in (0, None), "the job ended with %s although its input is gone:\n%s" % (
        exit_code, tail(log_path))
    error = _job_error(log_path)
    assert topic_in in error and "no longer" in error and source in error, error
    admin = KafkaAdminClient(bootstrap_servers=source)
    try:
        assert topic_in not in admin.list_topics(), "the job re-created its vanished input topic"
    finally:
        admin.close()
    print("source broker came back empty: the job failed %.0f s later: %s" % (took_s, error[:300]))


def test_a_sink_broker_that_comes_back_empty_loses_nothing_sent_after_it(bootstrap, memory_broker, tmp_path):
    """What the broker lost is lost; what the job sent after the restart is acknowledged or the job fails."""
    sink = memory_broker.bootstrap_servers
    topic_in, inputs = _input(bootstrap, "empty-sink")
    topic_out = create_topic(sink, unique_topic("empty-sink-out"), partitions=2)
    log_path = str(tmp_path / "job.log")
    process = start_fault_job(bootstrap, sink, topic_in, topic_out, str(tmp_path / "checkpoints"), log_path,
                              "at-least-once", RECORDS // 2)
    try:
        wait_for_output(sink, topic_out, process, RECORDS // 5, log_path)
        memory_broker.restart(down_s=0.5)
        exit_code, _ = _wait_for_exit(process, log_path)
    finally:
        if process.poll() is None:
            kill_job(process)
    output = values(consume(sink, topic_out, 1, timeout_s=30, settle_s=5))
    if exit_code != 0:
        print("sink broker came back empty: the job failed: %s" % _job_error(log_path)[:300])
        return
    # The job went on: from the first record each input partition has after the restart, every later one is there.
    got = set(output)
    for partition in (0, 1):
        mine = sorted(int(v.split("-")[1]) for v in got if int(v.split("-")[1]) % 2 == partition)
        assert mine, "nothing of input partition %d was written after the restart:\n%s" % (partition,
                                                                                          tail(log_path))
        expected = {"RECORD-%06d" % i for i in range(mine[0], RECORDS, 2)}
        missing = expected - got
        assert not missing, "%d records sent after the restart are missing, e.g. %s" % (len(missing),
                                                                                       sorted(missing)[:5])
    print("sink broker came back empty: the job went on; %d records written after the restart" % len(output))


def test_a_dead_sink_broker_fails_the_job_within_the_delivery_timeout(bootstrap, memory_broker, tmp_path):
    sink = memory_broker.bootstrap_servers
    topic_in, _ = _input(bootstrap, "dead-sink")
    topic_out = create_topic(sink, unique_topic("dead-sink-out"), partitions=2)
    log_path = str(tmp_path / "job.log")
    delivery_timeout_ms = 20000
    process = start_fault_job(bootstrap, sink, topic_in, topic_out, str(tmp_path / "checkpoints"), log_path,
                              "at-least-once", RECORDS // 2,
                              sink_properties=[("delivery.timeout.ms", delivery_timeout_ms),
                                               ("request.timeout.ms", 10000)])
    try:
        wait_for_output(sink, topic_out, process, RECORDS // 5, log_path)
        memory_broker.stop()
        exit_code, took_s = _wait_for_exit(process, log_path)
    finally:
        if process.poll() is None:
            kill_job(process)
    assert exit_code not in (0, None), "the job ended with %s although its sink broker is gone:\n%s" % (
        exit_code, tail(log_path))
    error = _job_error(log_path)
    assert sink in error, "the error does not name the sink's bootstrap servers '%s': %s" % (sink, error)
    print("sink broker died: the job failed %.0f s later (delivery.timeout.ms %d ms): %s"
          % (took_s, delivery_timeout_ms, error[:300]))

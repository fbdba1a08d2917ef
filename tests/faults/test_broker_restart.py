"""The sink's broker restarts in the middle of a job, with its data (as a Kafka broker with its log on disk):
the job rides it out within Kafka's client timeouts and exits 0, and the output holds every input record,
at least once.

The broker is killed with SIGKILL (a crash), stays down 2 s and comes back on the same address. It keeps its
data in an S3 bucket (tests/faults/fault_env.py). The job reads from the session's broker. The source side is
tested with network outages instead (test_network_outage.py): a Tansu broker on S3 storage reports end offsets
far behind its log, and a source plans its micro-batches by end offsets.
"""
import os
import time

import pytest

from fault_env import FaultBroker, OutputWatcher, start_fault_job
from job_processes import kill_job, tail
from kafka_helpers import consume, create_topic, produce, unique_topic, values
from transaction_log_reader import read_transactions

pytestmark = pytest.mark.integration

RECORDS = 60_000
RUN_DEADLINE_S = 300.0
FULL = pytest.mark.faults_full


def _input(servers, name):
    topic = create_topic(servers, unique_topic(name + "-in"), partitions=2)
    inputs = ["record-%06d" % i for i in range(RECORDS)]
    for partition in (0, 1):
        produce(servers, topic, inputs[partition::2], partition=partition)
    return topic, inputs


def wait_for_output(servers, topic, process, at_least, log_path, deadline_s=180.0):
    """Wait until the job wrote ``at_least`` records (it is well under way); fail if it ends first."""
    watcher = OutputWatcher(servers, topic)
    try:
        deadline = time.monotonic() + deadline_s
        while time.monotonic() < deadline:
            assert process.poll() is None, "the job ended before the fault:\n" + tail(log_path)
            if watcher.read() >= at_least:
                return
        pytest.fail("the job wrote fewer than %d records within %.0f s:\n%s" % (at_least, deadline_s,
                                                                                tail(log_path)))
    finally:
        watcher.close()


def assert_delivered(servers, topic, inputs, guarantee):
    """The output against the guarantee: EXACTLY_ONCE every record once and no open transaction; the others
    every record at least once (our NONE writer fails on send errors as the others do) and nothing else."""
    expected = sorted(v.upper() for v in inputs)
    if guarantee == "exactly-once":
        committed, aborted, still_open = read_transactions(servers, topic, quiet_s=10.0)
        output = sorted(r.value.decode() for r in committed)
        assert still_open == 0, "%d records are in transactions left open" % still_open
        assert output == expected, "%s; %d aborted; %d records in the log" % (
            _difference(output, expected), aborted, len(consume(servers, topic, len(expected), timeout_s=30)))
        return output
    output = values(consume(servers, topic, len(expected), timeout_s=120, settle_s=2))
    missing = set(expected) - set(output)
    assert not missing, "%d records lost, e.g. %s" % (len(missing), sorted(missing)[:5])
    assert set(output) <= set(expected)
    return output


def _difference(output, expected):
    lost = set(expected) - set(output)
    duplicated = len(output) - len(set(output))
    return "%d records lost (e.g. %s), %d duplicates" % (len(lost), sorted(lost)[:3], duplicated)


@pytest.fixture
def fault_broker(object_store, tmp_path):
    if os.environ.get("KAFKA_BOOTSTRAP_SERVERS"):
        pytest.skip("restarting needs a broker process of the test's own (Tansu)")
    broker = FaultBroker(str(tmp_path / "tansu.log"), object_store)
    try:
        yield broker
    finally:
        broker.close()


def _run_with_restart(side, guarantee, bootstrap, fault_broker, tmp_path):
    source = fault_broker.bootstrap_servers if side in ("source", "both") else bootstrap
    sink = fault_broker.bootstrap_servers if side in ("sink", "both") else bootstrap
    topic_in, inputs = _input(source, "restart-%s" % side)
    topic_out = create_topic(sink, unique_topic("restart-%s-out" % side), partitions=2)
    log_path = str(tmp_path / "job.log")
    process = start_fault_job(source, sink, topic_in, topic_out, str(tmp_path / "checkpoints"), log_path, guarantee,
                              RECORDS // 2)
    try:
        wait_for_output(sink, topic_out, process, RECORDS // 5, log_path)
        fault_broker.restart()
        exit_code = process.wait(timeout=RUN_DEADLINE_S)
    finally:
        if process.poll() is None:
            kill_job(process)
    assert exit_code == 0, "the job did not ride out the broker restart:\n" + tail(log_path)
    output = assert_delivered(sink, topic_out, inputs, guarantee)
    print("%s broker restarted, %s: %d output records for %d inputs" % (side, guarantee, len(output), len(inputs)))


# EXACTLY_ONCE is not in this matrix: Tansu on S3 storage was seen to come back from a kill in the middle of
# a transactional job without the output topic (its cluster metadata, rewritten at every transaction and
# offset commit, lost the topic), which is the broker losing data. EXACTLY_ONCE under a sink-side outage is
# in test_network_outage.py.
@pytest.mark.parametrize("guarantee", [pytest.param("none", marks=FULL), "at-least-once"])
def test_sink_broker_restart_with_its_data(guarantee, bootstrap, fault_broker, tmp_path):
    _run_with_restart("sink", guarantee, bootstrap, fault_broker, tmp_path)

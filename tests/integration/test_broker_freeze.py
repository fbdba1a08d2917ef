"""The broker freezing mid-run: its process is stopped with SIGSTOP and resumed with SIGCONT (memory storage
keeps its data meanwhile). Open connections stay open and nothing answers, as with a broker stuck in a long
GC pause or a network partition.

A short freeze: the job waits and goes on, nothing lost. A freeze longer than the job's Kafka client timeouts:
the job fails within a deadline with an error naming the bootstrap servers, and restarted with ``-s`` from
its checkpoint it goes on without loss.

Each test freezes a broker of its own, never the session's shared one. The job runs in its own process
(``python -m pyflink_compat run``), as in test_checkpoints.py.
"""
import os
import signal
import subprocess
import sys
import time

import pytest

from broker import TansuBroker
from job_processes import kill_job, newest_job_directory, output_size
from kafka_helpers import consume, create_topic, produce, unique_topic, values

pytestmark = pytest.mark.integration

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
JOB = os.path.join(REPO, "tests", "jobs", "freeze_job.py")
RECORDS = 50_000
# Small micro-batches make the run last long enough (and checkpoint often enough) to freeze it in the middle.
BATCH_OPTION = "-Dpyflink-compat.source.max-records-per-batch=2000"
SHORT_FREEZE_S = 5.0
# The long-freeze job's Kafka client timeouts; the freeze outlasts them, whatever the job is doing.
CLIENT_TIMEOUT_MS = 5000
# How long a job may take to notice the frozen broker and exit: the client timeouts, plus retries,
# plus the time Spark needs to fail the micro-batch and stop, on a slow shared machine.
FAILURE_DEADLINE_S = 150.0
RUN_DEADLINE_S = 300.0


@pytest.fixture
def own_broker(tmp_path):
    """A broker for this test alone (it gets frozen); resumed and stopped whatever happens."""
    if os.environ.get("KAFKA_BOOTSTRAP_SERVERS"):
        pytest.skip("freezing needs a broker process of the test's own (Tansu)")
    broker = TansuBroker().start(log_path=str(tmp_path / "tansu.log"))
    try:
        yield broker
    finally:
        _resume(broker)
        broker.stop()


def _freeze(broker):
    os.kill(broker.process.pid, signal.SIGSTOP)


def _resume(broker):
    if broker.process is not None and broker.process.poll() is None:
        os.kill(broker.process.pid, signal.SIGCONT)


def _start(bootstrap, topic_in, topic_out, checkpoint_dir, log_path, timeout_ms=None, restore=None):
    env = dict(os.environ, PYTHONPATH=REPO + os.pathsep + os.environ.get("PYTHONPATH", ""),
               PYFLINK_COMPAT_LOG_LEVEL="INFO")
    command = [sys.executable, "-m", "pyflink_compat", "run", BATCH_OPTION]
    if restore:
        command += ["-s", restore]
    command += [JOB, bootstrap, topic_in, topic_out, checkpoint_dir]
    if timeout_ms:
        command.append(str(timeout_ms))
    with open(log_path, "ab") as log:
        log.write(("\n=== %s\n" % " ".join(command)).encode())
        log.flush()
        return subprocess.Popen(command, env=env, cwd=REPO, stdout=log, stderr=subprocess.STDOUT,
                                start_new_session=True)


def _wait(process, deadline_s):
    """The process's exit code, or None if it was still running at the deadline (it is killed then)."""
    try:
        return process.wait(timeout=deadline_s)
    except subprocess.TimeoutExpired:
        kill_job(process)
        return None
def _wait_for_output(bootstrap, topic, process, at_least, deadline_s=180.0):
    """Wait until the job has written ``at_least`` records (roughly: Tansu's end offsets lag by up to a batch),
    so it is well under way, its Kafka clients connected; fail if it ends or never gets there."""
    deadline = time.monotonic() + deadline_s
    while time.monotonic() < deadline:
        assert process.poll() is None, "the job ended before it could be frozen mid-run"
        if output_size(bootstrap, topic) >= at_least:
            return
        time.sleep(0.2)
    pytest.fail("the job wrote fewer than %d records within %.0f s" % (at_least, deadline_s))

def _tail(path, lines=80):
    """The last ``lines`` lines of a log (all of it with None)."""
    with open(path, "rb") as f:
        text = f.read().decode(errors="replace").splitlines()
    return "\n".join(text if lines is None else text[-lines:])


def _input(bootstrap, prefix):
    topic_in = create_topic(bootstrap, unique_topic(prefix + "-in"), partitions=2)
    topic_out = create_topic(bootstrap, unique_topic(prefix + "-out"), partitions=2)
    inputs = ["record-%06d" % i for i in range(RECORDS)]
    for partition in (0, 1):
        produce(bootstrap, topic_in, inputs[partition::2], partition=partition)
    return topic_in, topic_out, inputs


def _assert_nothing_lost(bootstrap, topic_out, inputs, log_path):
    # read all the topic holds: a batch replayed after the freeze adds duplicates, and stopping at the input's
    # count would then leave records unread
    written = output_size(bootstrap, topic_out)
    records = consume(bootstrap, topic_out, max(len(inputs), written), timeout_s=120, settle_s=2)
    output = values(records)
    expected = set(v.upper() for v in inputs)
    missing = expected - set(output)
    if missing:
        # Tell a record never stored from one not read: the offsets the topic holds, and a second reading.
        again = values(consume(bootstrap, topic_out, len(inputs), timeout_s=60, settle_s=2))
        # and where the job started and stopped reading (its source logs the offsets at INFO)
        offsets = [line for line in _tail(log_path, lines=None).splitlines() if "start offsets" in line]
        pytest.fail("%d records lost, e.g. %s; output read: %s; a second reading found %d of them; the job's "
                    "source: %s" % (len(missing), sorted(missing)[:5], _offsets_held(records),
                                    len(missing & set(again)), offsets))
    assert set(output) <= expected
    return output


def _offsets_held(records):
    """Per partition: how many records, their first and last offset and any gaps between offsets."""
    by_partition = {}
    for record in records:
        by_partition.setdefault(record.partition, []).append(record.offset)
    parts = []
    for partition, offsets in sorted(by_partition.items()):
        offsets.sort()
        gaps = [(a + 1, b - 1) for a, b in zip(offsets, offsets[1:]) if b > a + 1]
        parts.append("partition %d: %d records, offsets %d..%d, gaps %s" % (
            partition, len(offsets), offsets[0], offsets[-1], gaps[:5]))
    return "; ".join(parts) or "nothing"


def test_a_short_freeze_is_waited_out_and_nothing_is_lost(own_broker, tmp_path):
    bootstrap = own_broker.bootstrap_servers
    topic_in, topic_out, inputs = _input(bootstrap, "freeze-short")
    log_path = str(tmp_path / "job.log")
    process = _start(bootstrap, topic_in, topic_out, str(tmp_path / "checkpoints"), log_path)
    try:
        _wait_for_output(bootstrap, topic_out, process, RECORDS // 4)
        assert process.poll() is None, "the job ended before it could be frozen mid-run"
        _freeze(own_broker)
        time.sleep(SHORT_FREEZE_S)
        _resume(own_broker)
        assert _wait(process, RUN_DEADLINE_S) == 0, _tail(log_path)
    finally:
        _resume(own_broker)
        if process.poll() is None:
            kill_job(process)
    output = _assert_nothing_lost(bootstrap, topic_out, inputs, log_path)
    print("short freeze: %d output records for %d inputs" % (len(output), len(inputs)))


def test_a_freeze_beyond_the_timeouts_fails_naming_the_broker_and_a_restart_loses_nothing(own_broker, tmp_path):
    bootstrap = own_broker.bootstrap_servers
    topic_in, topic_out, inputs = _input(bootstrap, "freeze-long")
    checkpoint_dir = str(tmp_path / "checkpoints")
    log_path = str(tmp_path / "job.log")
    process = _start(bootstrap, topic_in, topic_out, checkpoint_dir, log_path, timeout_ms=CLIENT_TIMEOUT_MS)
    try:
        _wait_for_output(bootstrap, topic_out, process, RECORDS // 4)
        _freeze(own_broker)
        frozen_at = time.monotonic()
        exit_code = _wait(process, FAILURE_DEADLINE_S)
        failed_after_s = time.monotonic() - frozen_at
    finally:
        _resume(own_broker)
        if process.poll() is None:
            kill_job(process)
    log = _tail(log_path)
    assert exit_code is not None, "the job did not fail within %.0f s of the freeze:\n%s" % (FAILURE_DEADLINE_S, log)
    assert exit_code != 0, "the job finished although the broker was frozen:\n" + log
    # The error the user sees: the last line of the job's traceback, e.g. "JobExecutionError: Job '...' failed
    # in Sink: Writer: KafkaConnectionError: Looking up offsets failed on Kafka bootstrap servers '...': ..."
    job_errors = [line for line in _tail(log_path, lines=None).splitlines() if "JobExecutionError: " in line]
    assert job_errors, "the job failed without a JobExecutionError:\n" + log
    assert bootstrap in job_errors[-1], "the job's error does not name the bootstrap servers '%s': %s" % (
        bootstrap, job_errors[-1])
    print("long freeze: the job failed %.0f s after the freeze: %s" % (failed_after_s, job_errors[-1][:400]))

    restore = newest_job_directory(checkpoint_dir)
    assert restore, "the failed job left no checkpoint to restore:\n" + log
    # Restarted with the clients' default timeouts: the short ones served to fail fast, and could trip on a
    # slow machine now that the broker answers again.
    process = _start(bootstrap, topic_in, topic_out, checkpoint_dir, log_path, restore=restore)
    try:
        assert _wait(process, RUN_DEADLINE_S) == 0, _tail(log_path)
    finally:
        if process.poll() is None:
            kill_job(process)
    output = _assert_nothing_lost(bootstrap, topic_out, inputs, log_path)
    print("long freeze, restored: %d output records for %d inputs" % (len(output), len(inputs)))

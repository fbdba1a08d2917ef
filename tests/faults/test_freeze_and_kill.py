"""The broker frozen (SIGSTOP) for a while, and the job killed with SIGKILL, under the guarantees that
tests/integration (test_broker_freeze.py, test_checkpoints.py) do not cover with AT_LEAST_ONCE alone:

- a sink broker frozen for less than the client timeouts: the job waits and goes on; NONE and AT_LEAST_ONCE
  write every record at least once, EXACTLY_ONCE every record once for read_committed readers;
- a sink broker frozen for longer than the client timeouts: the job fails naming the broker, and restarted
  with ``-s`` it delivers as its guarantee promises (AT_LEAST_ONCE: tests/integration/test_broker_freeze.py);
- NONE killed a few times and restored with ``-s``: our NONE writer checks every send as AT_LEAST_ONCE does,
  so every record arrives at least once (Flink promises nothing for NONE).
"""
import random
import time

import pytest

from fault_env import assert_delivered, job_error, run_through_fault, start_fault_job
from job_processes import kill_job, newest_job_directory, run_with_kills, tail, two_partition_input
from kafka_helpers import consume, values

pytestmark = pytest.mark.integration

RECORDS = 60_000
SHORT_FREEZE_S = 5.0
# Longer than the sink's client timeouts below, whatever the job is doing when the broker stops answering.
LONG_FREEZE_S = 40.0
SHORT_TIMEOUTS = [("request.timeout.ms", 8000), ("delivery.timeout.ms", 16000), ("max.block.ms", 8000),
                  ("transaction.timeout.ms", 900000)]
FULL = pytest.mark.faults_full


@pytest.mark.parametrize("guarantee", [pytest.param("none", marks=FULL), pytest.param("at-least-once", marks=FULL),
                                       "exactly-once"])
def test_a_sink_broker_frozen_briefly_is_waited_out(guarantee, bootstrap, memory_broker, tmp_path):
    run = run_through_fault("freeze-" + guarantee, bootstrap, memory_broker.bootstrap_servers, guarantee,
                            lambda *_: memory_broker.freeze(SHORT_FREEZE_S), tmp_path, RECORDS)
    assert run.exit_code == 0, "the job did not ride out a %.0f s freeze:\n%s" % (SHORT_FREEZE_S,
                                                                                tail(run.log_path))
    output = assert_delivered(memory_broker.bootstrap_servers, run.topic_out, run.inputs, guarantee)
    print("sink broker frozen for %.0f s, %s: %d output records for %d inputs" % (SHORT_FREEZE_S, guarantee,
                                                                                  len(output), len(run.inputs)))


# faults_full keeps the default run in time; the crash tests of tests/integration/test_checkpoints.py kill
# AT_LEAST_ONCE and EXACTLY_ONCE jobs by default
@pytest.mark.faults_full
def test_none_killed_and_restored_writes_every_record_at_least_once(bootstrap, tmp_path):
    records = 60_000
    kills = 3
    seed = int(time.time())
    topic_in, topic_out, inputs = two_partition_input(bootstrap, "crash-none", records)
    killed, _ = run_with_kills("upper", bootstrap, topic_in, topic_out, str(tmp_path / "checkpoints"),
                               str(tmp_path / "job.log"), random.Random(seed), kills=kills, guarantee="none")
    output = values(consume(bootstrap, topic_out, records, timeout_s=120, settle_s=3))
    expected = set(v.upper() for v in inputs)
    missing = expected - set(output)
    assert not missing, "seed %d: %d records lost, e.g. %s" % (seed, len(missing), sorted(missing)[:5])
    assert set(output) <= expected
    print("seed %d, NONE: %d kills, %d output records for %d inputs" % (seed, killed, len(output), records))


@pytest.mark.parametrize("guarantee", [pytest.param("none", marks=FULL), pytest.param("exactly-once", marks=FULL)])
def test_a_sink_broker_frozen_beyond_the_timeouts_fails_the_job_and_a_restart_delivers(guarantee, bootstrap,
                                                                                      memory_broker, tmp_path):
    sink = memory_broker.bootstrap_servers
    run = run_through_fault("long-freeze-" + guarantee, bootstrap, sink, guarantee,
                            lambda *_: memory_broker.freeze(LONG_FREEZE_S), tmp_path, RECORDS, deadline_s=150,
                            sink_properties=SHORT_TIMEOUTS, held_back=RECORDS // 2)
    assert run.exit_code not in (0, None), "the job ended with %s although its sink broker was frozen:\n%s" % (
        run.exit_code, tail(run.log_path))
    error = job_error(run.log_path)
    assert sink in error, "the error does not name the sink's bootstrap servers '%s': %s" % (sink, error)
    restore = newest_job_directory(str(tmp_path / "checkpoints"))
    assert restore, "the failed job left no checkpoint to restore:\n" + tail(run.log_path)
    process = start_fault_job(bootstrap, sink, run.topic_in, run.topic_out, str(tmp_path / "checkpoints"), run.log_path,
                              guarantee, RECORDS // 2, restore=restore)
    try:
        assert process.wait(timeout=300) == 0, tail(run.log_path)
    finally:
        if process.poll() is None:
            kill_job(process)
    output = assert_delivered(sink, run.topic_out, run.inputs, guarantee)
    print("sink broker frozen for %.0f s, %s: failed %.0f s after the freeze began (%s); after -s: %d output "
          "records for %d inputs" % (LONG_FREEZE_S, guarantee, run.seconds_after_fault, error[:200], len(output),
                                     len(run.inputs)))


@FULL
def test_a_broker_serving_source_and_sink_that_comes_back_empty_fails_the_job_naming_the_topic(memory_broker,
                                                                                              tmp_path):
    servers = memory_broker.bootstrap_servers
    run = run_through_fault("empty-both", servers, servers, "at-least-once",
                            lambda *_: memory_broker.restart(down_s=0.5), tmp_path, RECORDS, deadline_s=150)
    assert run.exit_code not in (0, None), "the job ended with %s although its topics are gone:\n%s" % (
        run.exit_code, tail(run.log_path))
    error = job_error(run.log_path)
    assert servers in error and ("empty-both-in-" in error or "empty-both-out-" in error), error
    print("broker of both sides came back empty: the job failed %.0f s later: %s" % (run.seconds_after_fault,
                                                                                   error[:300]))

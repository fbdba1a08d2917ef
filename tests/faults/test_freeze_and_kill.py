"""The broker frozen (SIGSTOP) for a while, and the job killed with SIGKILL, under the guarantees that
tests/integration (test_broker_freeze.py, test_checkpoints.py) do not cover with AT_LEAST_ONCE alone:

- a sink broker frozen for less than the client timeouts: the job waits and goes on; NONE and AT_LEAST_ONCE
  write every record at least once, EXACTLY_ONCE every record once for read_committed readers;
- NONE killed a few times and restored with ``-s``: our NONE writer checks every send as AT_LEAST_ONCE does,
  so every record arrives at least once (Flink promises nothing for NONE).
"""
import random
import time

import pytest

from fault_env import assert_delivered, run_through_fault
from job_processes import run_with_kills, tail, two_partition_input
from kafka_helpers import consume, values

pytestmark = pytest.mark.integration

RECORDS = 60_000
SHORT_FREEZE_S = 5.0
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

"""Checkpoints and restarts, proven by killing jobs: the job runs in its own process (``pyflink-compat run``),
is killed with SIGKILL (its whole process group: driver, JVM, Python workers) at random points, and is
started again from its checkpoint with ``-s``, as a Flink user resumes a job from a retained checkpoint.

AT_LEAST_ONCE: every input record is in the output. EXACTLY_ONCE: a read_committed reader sees every record
exactly once, in order per partition (read from the log's transaction markers: tests/transaction_log_reader.py).
A keyed running sum: every output is one of the key's true running sums and each of them appears, so state
was restored, never lost or counted twice.
"""
import collections
import os
import random
import subprocess
import sys
import time

import pytest

from job_processes import kill_job, newest_job_directory, output_size
from kafka_helpers import consume, create_topic, produce, unique_topic, values
from transaction_log_reader import read_committed

pytestmark = pytest.mark.integration

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
JOB = os.path.join(REPO, "tests", "jobs", "checkpointed_job.py")
# Small micro-batches make many checkpoints, so kills land between and inside them.
BATCH_OPTION = "-Dpyflink-compat.source.max-records-per-batch=2000"
KILLS = int(os.environ.get("PYFLINK_COMPAT_CRASH_KILLS", "20"))
SEED = int(os.environ.get("PYFLINK_COMPAT_CRASH_SEED", str(int(time.time()))))


def _start(mode, bootstrap, topic_in, topic_out, checkpoint_dir, log_path, restore=None, guarantee="at-least-once"):
    env = dict(os.environ, PYTHONPATH=REPO + os.pathsep + os.environ.get("PYTHONPATH", ""),
               PYFLINK_COMPAT_LOG_LEVEL="INFO")
    command = [sys.executable, "-m", "pyflink_compat", "run", BATCH_OPTION]
    if restore:
        command += ["-s", restore]
    command += [JOB, mode, bootstrap, topic_in, topic_out, checkpoint_dir, guarantee]
    log = open(log_path, "ab")
    log.write(("\n=== %s\n" % " ".join(command)).encode())
    log.flush()
    return subprocess.Popen(command, env=env, cwd=REPO, stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True)
def _committed_batches(job_directory) -> int:
    """Micro-batches committed in a job directory's checkpoints (Spark's commits/N files)."""
    if not job_directory:
        return 0
    total = 0
    for name in os.listdir(job_directory):
        commits = os.path.join(job_directory, name, "commits")
        if name.startswith("sink-") and os.path.isdir(commits):
            total += sum(1 for entry in os.listdir(commits) if entry.isdigit())
    return total

def _wait_for_new_output(bootstrap, topic, before, process, deadline_s=120.0):
    deadline = time.monotonic() + deadline_s
    while time.monotonic() < deadline and process.poll() is None:
        if output_size(bootstrap, topic) > before:
            return
        time.sleep(0.2)


def _run_with_kills(mode, bootstrap, topic_in, topic_out, checkpoint_dir, log_path, kills, rng,
                    guarantee="at-least-once"):
    """Kill the job ``kills`` times, restarting from the newest checkpoint each time; then let the last
    restart finish. Most kills come at a random moment after the run wrote new output (so work is lost
    mid-stream), some at a random moment of its start. Returns how many runs were killed and the most
    micro-batches a restored checkpoint held (so the test knows restores had progress to resume)."""
    restore, killed, resumed_batches = None, 0, 0
    for _ in range(kills):
        before = output_size(bootstrap, topic_out)
        process = _start(mode, bootstrap, topic_in, topic_out, checkpoint_dir, log_path, restore, guarantee)
        if rng.random() < 0.25:
            time.sleep(rng.uniform(2.0, 10.0))
        else:
            _wait_for_new_output(bootstrap, topic_out, before, process)
            time.sleep(rng.uniform(0.0, 1.2))
        if process.poll() is not None:
            assert process.returncode == 0, _tail(log_path)
            restore = newest_job_directory(checkpoint_dir)
            break
        kill_job(process)
        killed += 1
        restore = newest_job_directory(checkpoint_dir) or restore
        resumed_batches = max(resumed_batches, _committed_batches(restore))
    process = _start(mode, bootstrap, topic_in, topic_out, checkpoint_dir, log_path, restore, guarantee)
    try:
        assert process.wait(timeout=600) == 0, _tail(log_path)
    finally:
        if process.poll() is None:
            kill_job(process)
    return killed, resumed_batches


def _tail(path, lines=60):
    with open(path, "rb") as f:
        return "\n".join(f.read().decode(errors="replace").splitlines()[-lines:])


def _two_partition_input(bootstrap, name, records):
    topic_in = create_topic(bootstrap, unique_topic(name + "-in"), partitions=2)
    topic_out = create_topic(bootstrap, unique_topic(name + "-out"), partitions=2)
    inputs = ["record-%06d" % i for i in range(records)]
    for partition in (0, 1):
        produce(bootstrap, topic_in, inputs[partition::2], partition=partition)
    return topic_in, topic_out, inputs


def test_a_job_killed_20_times_and_restored_from_its_checkpoint_loses_nothing(bootstrap, tmp_path):
    records = 100_000
    topic_in, topic_out, inputs = _two_partition_input(bootstrap, "crash", records)
    rng = random.Random(SEED)
    log_path = str(tmp_path / "job.log")
    killed, resumed_batches = _run_with_kills("upper", bootstrap, topic_in, topic_out, str(tmp_path / "checkpoints"),
                                              log_path, KILLS, rng)

    output = values(consume(bootstrap, topic_out, records, timeout_s=120, settle_s=3))
    missing = set(v.upper() for v in inputs) - set(output)
    assert not missing, "seed %d: %d records lost, e.g. %s" % (SEED, len(missing), sorted(missing)[:5])
    assert set(output) <= set(v.upper() for v in inputs)
    print("seed %d: %d kills, %d output records for %d inputs (%d repeated, allowed with AT_LEAST_ONCE)"
          % (SEED, killed, len(output), records, len(output) - records))
    assert killed == KILLS, "the job finished after %d of %d kills: %s" % (killed, KILLS, _tail(log_path))
    assert resumed_batches >= 2, "no restart resumed a checkpoint with progress"


def test_exactly_once_killed_20_times_a_read_committed_reader_sees_every_record_once_in_order(bootstrap,
                                                                                              tmp_path):
    records = 100_000
    topic_in, topic_out, inputs = _two_partition_input(bootstrap, "crash-eo", records)
    rng = random.Random(SEED + 2)
    log_path = str(tmp_path / "job.log")
    killed, resumed_batches = _run_with_kills("upper", bootstrap, topic_in, topic_out, str(tmp_path / "checkpoints"),
                                              log_path, KILLS, rng, guarantee="exactly-once")

    committed, aborted = read_committed(bootstrap, topic_out)
    output = [r.value.decode() for r in committed]
    counts = collections.Counter(output)
    repeated = {value: n for value, n in counts.items() if n > 1}
    assert not repeated, "seed %d: %d records committed more than once, e.g. %s" % (
        SEED, len(repeated), sorted(repeated.items())[:5])
    assert sorted(output) == sorted(v.upper() for v in inputs), "seed %d: records lost" % SEED
    # In order per partition: the records of each input partition keep their order in every output partition.
    for partition in {r.partition for r in committed}:
        for parity in (0, 1):
            indexes = [int(r.value.decode()[len("RECORD-"):]) for r in committed if r.partition == partition]
            indexes = [i for i in indexes if i % 2 == parity]
            assert indexes == sorted(indexes), "seed %d: out of order in output partition %d" % (SEED, partition)
    print("seed %d: %d kills, %d records committed once each, %d records of aborted transactions skipped"
          % (SEED, killed, len(output), aborted))
    assert killed == KILLS, "the job finished after %d of %d kills: %s" % (killed, KILLS, _tail(log_path))
    assert resumed_batches >= 2, "no restart resumed a checkpoint with progress"


def test_keyed_state_survives_restarts_from_checkpoints(bootstrap, tmp_path):
    records, keys = 40_000, 50
    topic_in = create_topic(bootstrap, unique_topic("crash-keyed-in"), partitions=2)
    topic_out = create_topic(bootstrap, unique_topic("crash-keyed-out"), partitions=2)
    rng = random.Random(SEED + 1)
    # Each key lives in one input partition, so its records have one order and its running sums are known.
    per_partition = {0: [], 1: []}
    running = {}
    expected = {}
    for i in range(records):
        key = "k%02d" % (i % keys)
        amount = 1 + (i * 7919) % 97
        running[key] = running.get(key, 0) + amount
        expected.setdefault(key, []).append(running[key])
        per_partition[(i % keys) % 2].append("%s:%d" % (key, amount))
    for partition, items in per_partition.items():
        produce(bootstrap, topic_in, items, partition=partition)
    log_path = str(tmp_path / "job.log")
    killed, resumed_batches = _run_with_kills("keyed-sum", bootstrap, topic_in, topic_out,
                                              str(tmp_path / "checkpoints"), log_path, max(3, KILLS // 4), rng)

    output = values(consume(bootstrap, topic_out, records, timeout_s=120, settle_s=3))
    seen = {}
    for line in output:
        key, total = line.split(":")
        seen.setdefault(key, set()).add(int(total))
    for key, sums in expected.items():
        assert seen.get(key) == set(sums), (
            "seed %d, key %s: outputs that are no running sum %s, running sums never output %s"
            % (SEED, key, sorted(seen.get(key, set()) - set(sums))[:5], sorted(set(sums) - seen.get(key, set()))[:5]))
    print("seed %d: %d kills, %d outputs for %d inputs, up to %d batches resumed"
          % (SEED, killed, len(output), records, resumed_batches))
    assert resumed_batches >= 1, "no restart resumed a checkpoint with state in it"


def test_a_finished_job_deletes_its_checkpoints_unless_retained(bootstrap, tmp_path):
    topic_in = create_topic(bootstrap, unique_topic("ckpt-retain-in"))
    topic_out = create_topic(bootstrap, unique_topic("ckpt-retain-out"))
    produce(bootstrap, topic_in, ["a", "b"])
    checkpoint_dir = tmp_path / "checkpoints"
    log_path = str(tmp_path / "job.log")
    process = _start("upper", bootstrap, topic_in, topic_out, str(checkpoint_dir), log_path)
    assert process.wait(timeout=300) == 0, _tail(log_path)
    assert sorted(values(consume(bootstrap, topic_out, 2, timeout_s=60))) == ["A", "B"]
    # Flink's default (NO_EXTERNALIZED_CHECKPOINTS): a finished job leaves no checkpoint behind.
    assert os.listdir(checkpoint_dir) == []


def test_restoring_from_a_path_that_does_not_exist_fails_naming_it(bootstrap, tmp_path):
    topic_in = create_topic(bootstrap, unique_topic("ckpt-missing-in"))
    log_path = str(tmp_path / "job.log")
    missing = str(tmp_path / "no-such-checkpoint")
    process = _start("upper", bootstrap, topic_in, topic_in, str(tmp_path / "checkpoints"), log_path, missing)
    assert process.wait(timeout=300) != 0
    assert ("Cannot find checkpoint or savepoint file/directory '%s'" % missing) in _tail(log_path, 200)

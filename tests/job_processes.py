"""Helpers for tests that run jobs in their own process (pyflink-compat run), kill them and restore them.

Also used by benchmarks/soak_crash.py, the long version of the crash tests.
"""
import os
import signal
import subprocess
import sys
import time

from kafka import KafkaConsumer, TopicPartition

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHECKPOINTED_JOB = os.path.join(REPO, "tests", "jobs", "checkpointed_job.py")
# Small micro-batches make many checkpoints, so kills land between and inside them.
SMALL_BATCHES = "-Dpyflink-compat.source.max-records-per-batch=2000"


class JobFailed(AssertionError):
    """A job run that should have succeeded did not; the message ends with its log's tail."""


def start_checkpointed_job(mode, bootstrap, topic_in, topic_out, checkpoint_dir, log_path, restore=None,
                           guarantee="at-least-once", options=(SMALL_BATCHES,)):
    """``pyflink-compat run`` of tests/jobs/checkpointed_job.py in its own process group, appending to log_path."""
    env = dict(os.environ, PYTHONPATH=REPO + os.pathsep + os.environ.get("PYTHONPATH", ""),
               PYFLINK_COMPAT_LOG_LEVEL="INFO")
    command = [sys.executable, "-m", "pyflink_compat", "run", *options]
    if restore:
        command += ["-s", restore]
    command += [CHECKPOINTED_JOB, mode, bootstrap, topic_in, topic_out, checkpoint_dir, guarantee]
    log = open(log_path, "ab")
    log.write(("\n=== %s\n" % " ".join(command)).encode())
    log.flush()
    return subprocess.Popen(command, env=env, cwd=REPO, stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True)


def committed_batches(job_directory) -> int:
    """Micro-batches committed in a job directory's checkpoints (Spark's commits/N files)."""
    if not job_directory:
        return 0
    total = 0
    for name in os.listdir(job_directory):
        commits = os.path.join(job_directory, name, "commits")
        if name.startswith("sink-") and os.path.isdir(commits):
            total += sum(1 for entry in os.listdir(commits) if entry.isdigit())
    return total


def wait_for_committed_batches(checkpoint_dir, process, at_least, deadline_s=120.0):
    """Wait until the newest job directory holds ``at_least`` committed micro-batches (or the run ended)."""
    deadline = time.monotonic() + deadline_s
    while time.monotonic() < deadline and process.poll() is None:
        if committed_batches(newest_job_directory(checkpoint_dir)) >= at_least:
            return
        time.sleep(0.2)


def wait_for_new_output(bootstrap, topic, before, process, deadline_s=120.0):
    deadline = time.monotonic() + deadline_s
    while time.monotonic() < deadline and process.poll() is None:
        if output_size(bootstrap, topic) > before:
            return
        time.sleep(0.2)


def run_with_kills(mode, bootstrap, topic_in, topic_out, checkpoint_dir, log_path, rng, kills=None, until=None,
                   guarantee="at-least-once", final_timeout_s=600):
    """Kill the job ``kills`` times (or until the monotonic time ``until``), restarting from the newest
    checkpoint each time; then let the last restart finish. Most kills come at a random moment after the
    run wrote new output (so work is lost mid-stream), some at a random moment of its start; the first two
    once their checkpoint holds a micro-batch more than they resumed from. Returns how
    many runs were killed and the most micro-batches a restored checkpoint held (so a test knows that
    restores had progress to resume)."""
    restore, killed, resumed_batches = None, 0, 0
    while (kills is None or killed < kills) and (until is None or time.monotonic() < until):
        before = output_size(bootstrap, topic_out)
        process = start_checkpointed_job(mode, bootstrap, topic_in, topic_out, checkpoint_dir, log_path, restore,
                                         guarantee)
        if killed < 2:
            # The first two runs are killed only once they committed a micro-batch beyond what they resumed,
            # so restores resume progress, and a restore of a restored run's progress, however slow the
            # machine and however the random kills of the later runs fall.
            wait_for_committed_batches(checkpoint_dir, process, committed_batches(restore) + 1)
            time.sleep(rng.uniform(0.0, 1.2))
        elif rng.random() < 0.25:
            time.sleep(rng.uniform(2.0, 10.0))
        else:
            wait_for_new_output(bootstrap, topic_out, before, process)
            time.sleep(rng.uniform(0.0, 1.2))
        if process.poll() is not None:
            if process.returncode != 0:
                raise JobFailed("run %d exited with %d:\n%s" % (killed + 1, process.returncode, tail(log_path)))
            return killed, resumed_batches
        kill_job(process)
        killed += 1
        restore = newest_job_directory(checkpoint_dir) or restore
        resumed_batches = max(resumed_batches, committed_batches(restore))
    process = start_checkpointed_job(mode, bootstrap, topic_in, topic_out, checkpoint_dir, log_path, restore,
                                     guarantee)
    try:
        if process.wait(timeout=final_timeout_s) != 0:
            raise JobFailed("the last run exited with %d:\n%s" % (process.returncode, tail(log_path)))
    finally:
        if process.poll() is None:
            kill_job(process)
    return killed, resumed_batches


def two_partition_input(bootstrap, name, records):
    """Input and output topics of 2 partitions; ``records`` values "record-NNNNNN" (at least 6 digits), the
    even ones in input partition 0 and the odd ones in 1. Returns (input topic, output topic, values)."""
    from kafka_helpers import create_topic, produce, unique_topic
    topic_in = create_topic(bootstrap, unique_topic(name + "-in"), partitions=2)
    topic_out = create_topic(bootstrap, unique_topic(name + "-out"), partitions=2)
    digits = max(6, len(str(records - 1)))
    inputs = ["record-%0*d" % (digits, i) for i in range(records)]
    for partition in (0, 1):
        produce(bootstrap, topic_in, inputs[partition::2], partition=partition)
    return topic_in, topic_out, inputs


def tail(path, lines=60):
    with open(path, "rb") as f:
        return "\n".join(f.read().decode(errors="replace").splitlines()[-lines:])


def kill_job(process):
    """SIGKILL the job's whole process group (driver, JVM, Python workers), as a machine crash would."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait(timeout=30)


def newest_job_directory(checkpoint_dir):
    """The job directory of the latest run that got as far as recording itself (job.json)."""
    if not os.path.isdir(checkpoint_dir):
        return None
    candidates = [os.path.join(checkpoint_dir, name) for name in os.listdir(checkpoint_dir)]
    candidates = [path for path in candidates if os.path.isfile(os.path.join(path, "job.json"))]
    return max(candidates, key=lambda path: os.stat(os.path.join(path, "job.json")).st_mtime, default=None)


def output_size(bootstrap, topic):
    """Roughly how much output there is (Tansu's end offsets lag behind; enough to see that output grew)."""
    consumer = KafkaConsumer(bootstrap_servers=bootstrap, request_timeout_ms=10000)
    try:
        partitions = [TopicPartition(topic, p) for p in sorted(consumer.partitions_for_topic(topic) or ())]
        return sum(consumer.end_offsets(partitions).values())
    finally:
        consumer.close()

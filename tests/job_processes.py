"""Helpers for tests that run jobs in their own process (pyflink-compat run), kill them and restore them."""
import os
import signal

from kafka import KafkaConsumer, TopicPartition


def kill_job(process):
    """SIGKILL the job's whole process group (driver, JVM, Python workers), as a machine crash would."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait(timeout=30)


def newest_job_directory(checkpoint_dir):
    """The job directory of the latest run that got as far as recording itself (job.json)."""
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

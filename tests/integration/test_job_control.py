"""``pyflink-compat list`` and ``cancel`` on detached jobs, as ``flink list`` / ``flink cancel`` work: the
machine's running jobs listed with Flink's layout, a job cancelled by its JobID, and the record of a job whose
process was killed detected as stale."""
import os
import re
import signal
import subprocess
import sys
import time

import pytest

from kafka_helpers import create_topic, produce, unique_topic

pytestmark = pytest.mark.integration

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
UNBOUNDED_JOB = os.path.join(REPO, "tests", "jobs", "unbounded_job.py")


def cli(registry, *args, timeout=300):
    env = dict(os.environ, PYTHONPATH=REPO + os.pathsep + os.environ.get("PYTHONPATH", ""),
               PYFLINK_COMPAT_JOB_REGISTRY=str(registry))
    return subprocess.run([sys.executable, "-m", "pyflink_compat", *args], capture_output=True, text=True,
                          timeout=timeout, env=env, cwd=REPO)


def start_detached(registry, bootstrap):
    topic = create_topic(bootstrap, unique_topic("ctl-in"))
    produce(bootstrap, topic, ["a", "b"])
    result = cli(registry, "run", "-d", UNBOUNDED_JOB, bootstrap, topic)
    assert result.returncode == 0, result.stderr[-3000:]
    job_id = re.search(r"^Job has been submitted with JobID ([0-9a-f]{32})$", result.stdout, re.MULTILINE).group(1)
    pid = int(re.search(r"The job runs in process (\d+);", result.stdout).group(1))
    return job_id, pid


def process_gone(pid, timeout_s=60.0):
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            with open("/proc/%d/stat" % pid) as f:
                if f.read().rsplit(")", 1)[1].split()[0] == "Z":
                    return True
        except FileNotFoundError:
            return True
        time.sleep(0.2)
    return False


def test_a_detached_job_is_listed_cancelled_by_its_job_id_and_a_killed_ones_record_is_stale(bootstrap, tmp_path):
    registry = tmp_path / "registry"
    job_id, pid = start_detached(registry, bootstrap)
    try:
        listed = cli(registry, "list")
        assert listed.returncode == 0, listed.stderr[-2000:]
        lines = listed.stdout.splitlines()
        assert lines[0] == "Waiting for response..."
        assert lines[1] == "------------------ Running/Restarting Jobs -------------------"
        assert re.fullmatch(r"\d\d\.\d\d\.\d{4} \d\d:\d\d:\d\d : %s : unbounded job \(RUNNING\)" % job_id, lines[2])
        assert lines[3:] == ["--------------------------------------------------------------", "No scheduled jobs."]

        cancelled = cli(registry, "cancel", job_id)
        assert cancelled.returncode == 0, cancelled.stderr[-2000:]
        assert cancelled.stdout.splitlines() == ["Cancelling job %s." % job_id, "Cancelled job %s." % job_id]
        assert process_gone(pid)
        assert cli(registry, "list").stdout.splitlines()[1:] == ["No running jobs.", "No scheduled jobs."]
        unknown = cli(registry, "cancel", job_id)
        assert unknown.returncode == 1 and "Could not find Flink job (%s)" % job_id in unknown.stderr
    finally:
        if not process_gone(pid, timeout_s=0):
            os.killpg(pid, signal.SIGKILL)

    # A job whose process is killed leaves its record; list finds its process gone and drops it.
    job_id, pid = start_detached(registry, bootstrap)
    os.killpg(pid, signal.SIGKILL)           # the job's process and its Spark JVM
    assert process_gone(pid)
    assert (registry / ("%s.json" % job_id)).exists()
    assert cli(registry, "list").stdout.splitlines()[1:] == ["No running jobs.", "No scheduled jobs."]
    assert not (registry / ("%s.json" % job_id)).exists()

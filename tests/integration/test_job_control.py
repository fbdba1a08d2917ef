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
    while True:
        try:
            with open("/proc/%d/stat" % pid) as f:
                if f.read().rsplit(")", 1)[1].split()[0] == "Z":
                    return True
        except FileNotFoundError:
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.2)


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
            try:
                os.killpg(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

    # A job whose process is killed leaves its record; list finds its process gone and drops it.
    job_id, pid = start_detached(registry, bootstrap)
    os.killpg(pid, signal.SIGKILL)           # the job's process and its Spark JVM
    assert process_gone(pid)
    assert (registry / ("%s.json" % job_id)).exists()
    assert cli(registry, "list").stdout.splitlines()[1:] == ["No running jobs.", "No scheduled jobs."]
    assert not (registry / ("%s.json" % job_id)).exists()


def kill_all(pids):
    """Whatever of these job processes (and their Spark JVMs) is still there."""
    for each in pids:
        if not process_gone(each, timeout_s=0):
            try:
                os.killpg(each, signal.SIGKILL)
            except ProcessLookupError:
                pass


def wait_for_lines(log_path, wanted, timeout_s=120.0):
    """The values printed so far (print()'s 'N> ' prefix removed), once all of ``wanted`` are among them."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        with open(log_path, errors="replace") as f:
            printed = [re.sub(r"^\d+> ", "", line.rstrip("\n")) for line in f]
        if all(w in printed for w in wanted):
            return [p for p in printed if re.fullmatch(r"[A-Z]", p)]
        time.sleep(0.2)
    raise AssertionError("%s not printed within %.0f s:\n%s" % (wanted, timeout_s, open(log_path).read()[-3000:]))


def start_on(registry, bootstrap, topic, *options):
    result = cli(registry, "run", "-d", *options, UNBOUNDED_JOB, bootstrap, topic)
    assert result.returncode == 0, result.stderr[-3000:]
    job_id = re.search(r"^Job has been submitted with JobID ([0-9a-f]{32})$", result.stdout, re.MULTILINE).group(1)
    match = re.search(r"The job runs in process (\d+); its output goes to (\S+)", result.stdout)
    return job_id, int(match.group(1)), match.group(2)


def test_savepoint_while_running_and_stop_with_savepoint_then_resume_from_each(bootstrap, tmp_path):
    registry, savepoints = tmp_path / "registry", tmp_path / "savepoints"
    topic = create_topic(bootstrap, unique_topic("sp-in"))
    produce(bootstrap, topic, ["a", "b"])
    job_id, pid, log_path = start_on(registry, bootstrap, topic)
    pids = [pid]
    try:
        wait_for_lines(log_path, ["A", "B"])
        taken = cli(registry, "savepoint", job_id, str(savepoints))
        assert taken.returncode == 0, taken.stderr[-2000:]
        lines = taken.stdout.splitlines()
        assert lines[:2] == ["Triggering savepoint for job %s." % job_id, "Waiting for response..."]
        first = re.fullmatch(r"Savepoint completed\. Path: file:(\S+/savepoint-%s-[0-9a-f]{12})" % job_id[:6],
                             lines[2]).group(1)
        assert lines[3] == "You can resume your program from this savepoint with the run command."
        produce(bootstrap, topic, ["c"])                 # the job goes on after its savepoint
        assert wait_for_lines(log_path, ["C"]) == ["A", "B", "C"]

        stopped = cli(registry, "stop", "--savepointPath", str(savepoints), job_id)
        assert stopped.returncode == 0, stopped.stderr[-2000:]
        assert stopped.stdout.splitlines()[:3] == ['Suspending job "%s" with a CANONICAL savepoint.' % job_id,
                                                   "Triggering stop-with-savepoint for job %s." % job_id,
                                                   "Waiting for response..."]
        second = re.fullmatch(r"Savepoint completed\. Path: file:(\S+)", stopped.stdout.splitlines()[3]).group(1)
        assert process_gone(pid)
        with open(log_path) as f:
            assert "Job with JobID %s has finished." % job_id in f.read()   # stopped, not failed or cancelled
        produce(bootstrap, topic, ["d"])

        # Each savepoint resumes where it was taken: the second after C, the first after B.
        for savepoint, expected in ((second, ["D"]), (first, ["C", "D"])):
            resumed_id, resumed_pid, resumed_log = start_on(registry, bootstrap, topic, "-s", savepoint)
            pids.append(resumed_pid)
            assert wait_for_lines(resumed_log, expected) == expected
            time.sleep(2)                                # nothing else comes
            assert wait_for_lines(resumed_log, expected, timeout_s=0.5) == expected
            assert cli(registry, "cancel", resumed_id).returncode == 0
    finally:
        kill_all(pids)


def test_stop_with_savepoint_of_an_exactly_once_job_commits_its_output_and_the_resumed_job_adds_the_rest(
        bootstrap, tmp_path):
    from kafka_helpers import consume, values
    registry, savepoints = tmp_path / "registry", tmp_path / "savepoints"
    topic_in = create_topic(bootstrap, unique_topic("sp-eo-in"))
    topic_out = create_topic(bootstrap, unique_topic("sp-eo-out"))
    prefix = unique_topic("sp-eo")
    produce(bootstrap, topic_in, ["a", "b"])
    job = os.path.join(REPO, "tests", "jobs", "unbounded_exactly_once_job.py")
    started = cli(registry, "run", "-d", job, bootstrap, topic_in, topic_out, prefix)
    assert started.returncode == 0, started.stderr[-3000:]
    job_id = re.search(r"^Job has been submitted with JobID ([0-9a-f]{32})$", started.stdout, re.MULTILINE).group(1)
    pids = [int(re.search(r"The job runs in process (\d+);", started.stdout).group(1))]
    try:
        assert sorted(values(consume(bootstrap, topic_out, 2, isolation_level="read_committed"))) == ["A", "B"]
        stopped = cli(registry, "stop", "-p", str(savepoints), job_id)
        assert stopped.returncode == 0, stopped.stderr[-2000:]
        savepoint = re.fullmatch(r"Savepoint completed\. Path: file:(\S+)", stopped.stdout.splitlines()[3]).group(1)
        assert process_gone(pids[0])
        produce(bootstrap, topic_in, ["c"])
        resumed = cli(registry, "run", "-d", "-s", savepoint, job, bootstrap, topic_in, topic_out, prefix)
        assert resumed.returncode == 0, resumed.stderr[-3000:]
        resumed_id = re.search(r"JobID ([0-9a-f]{32})", resumed.stdout).group(1)
        pids.append(int(re.search(r"The job runs in process (\d+);", resumed.stdout).group(1)))
        # every input once in the committed output: nothing of before the savepoint again, nothing lost
        output = sorted(values(consume(bootstrap, topic_out, 3, isolation_level="read_committed", settle_s=3.0)))
        assert output == ["A", "B", "C"]
        assert cli(registry, "cancel", resumed_id).returncode == 0
    finally:
        kill_all(pids)

"""The job registry behind pyflink-compat list / cancel / savepoint / stop: Flink's list layout, stale records
of dead processes, and the savepoint request a job's process answers."""
import json
import os
import subprocess
import sys
import threading

import pytest

from pyflink_compat.runtime import job_registry


@pytest.fixture
def registry(tmp_path, monkeypatch):
    monkeypatch.setenv(job_registry.DIRECTORY_ENV, str(tmp_path))
    return tmp_path


def test_flinks_list_layout():
    entries = [{"job_id": "ab" * 16, "job_name": "orders", "started_ms": 0, "status": "RUNNING"},
               {"job_id": "cd" * 16, "job_name": "payments", "started_ms": 1000, "status": "RESTARTING"}]
    lines = job_registry.list_lines(entries)
    assert lines[0] == "------------------ Running/Restarting Jobs -------------------"
    assert lines[1].endswith(" : %s : orders (RUNNING)" % ("ab" * 16))
    assert lines[2].endswith(" : %s : payments (RESTARTING)" % ("cd" * 16))
    assert lines[3:] == ["--------------------------------------------------------------", "No scheduled jobs."]
    assert job_registry.list_lines([]) == ["No running jobs.", "No scheduled jobs."]


def test_a_job_of_this_process_is_listed_until_unregistered(registry):
    job_registry.register("1" * 32, "mine", "RUNNING")
    job_registry.register("1" * 32, "mine", "RESTARTING")
    assert [(e["job_id"], e["status"], e["pid"]) for e in job_registry.running()] == [("1" * 32, "RESTARTING",
                                                                                      os.getpid())]
    job_registry.unregister("1" * 32)
    assert job_registry.running() == []


def test_the_record_of_a_dead_process_is_stale_and_dropped(registry):
    ended = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    dead_pid = int(ended.stdout)
    (registry / ("2" * 32 + ".json")).write_text(json.dumps(
        {"job_id": "2" * 32, "job_name": "gone", "pid": dead_pid, "started_ms": 0, "status": "RUNNING"}))
    assert job_registry.running() == []
    assert not (registry / ("2" * 32 + ".json")).exists()
    with pytest.raises(job_registry.JobNotFound, match=r"Could not find Flink job \(2{32}\)"):
        job_registry.cancel("2" * 32)


def test_a_pid_reused_by_another_process_is_not_the_job(registry):
    job_registry.register("3" * 32, "mine", "RUNNING")
    entry = job_registry.read("3" * 32)
    entry["process_start"] = "1"             # this PID, but a process started at another time
    assert not job_registry.alive(entry)


def test_a_savepoint_request_is_answered_by_the_jobs_process(registry):
    job_registry.register("4" * 32, "mine", "RUNNING")

    def job_side():
        while True:
            request = job_registry.take_request("4" * 32)
            if request is not None:
                job_registry.respond("4" * 32, {"path": os.path.join(request["directory"], "sp-1")})
                return

    serving = threading.Thread(target=job_side)
    serving.start()
    assert job_registry.request_savepoint("4" * 32, "/data/sp", stop=False, deadline_s=30) == "/data/sp/sp-1"
    serving.join()


def test_a_failed_savepoint_is_reported(registry):
    job_registry.register("5" * 32, "mine", "RUNNING")
    threading.Timer(0.2, lambda: job_registry.take_request("5" * 32) and
                    job_registry.respond("5" * 32, {"error": "The savepoint failed: disk full"})).start()
    with pytest.raises(RuntimeError, match="disk full"):
        job_registry.request_savepoint("5" * 32, "/data/sp", stop=True, deadline_s=30)


def test_an_ended_job_is_listed_with_all_for_an_hour(registry, monkeypatch):
    job_registry.register("ef" * 16, "orders", "RUNNING")
    job_registry.unregister("ef" * 16, "FINISHED")
    assert job_registry.running() == []
    (ended,) = job_registry.terminated()
    lines = job_registry.list_lines([], [ended])
    assert lines[:2] == ["No running jobs.", "No scheduled jobs."]
    assert lines[2] == "---------------------- Terminated Jobs -----------------------"
    assert lines[3].endswith(" : %s : orders (FINISHED)" % ("ef" * 16))
    assert lines[4] == "--------------------------------------------------------------"
    monkeypatch.setattr(job_registry, "TERMINATED_KEEP_S", -1)
    assert job_registry.terminated() == [] and not any(p.name.endswith(".ended") for p in registry.iterdir())

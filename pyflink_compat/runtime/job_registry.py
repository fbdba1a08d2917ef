"""The jobs ``pyflink-compat run`` is running on this machine, for ``pyflink-compat list`` and ``cancel``.

Each running job has a small JSON file in ``~/.cache/pyflink-compat/jobs/`` (``<JobID>.json``: its name, its
process, when it started, its status), written when it starts and removed when it ends. A file whose process
is gone (killed with SIGKILL, the machine restarted) is stale: ``list`` leaves it out and removes it.
A job is cancelled by sending its process SIGTERM, which the runner handles as Ctrl-C: the job is cancelled
and the process exits.
"""
import json
import os
import signal
import time
from typing import Dict, List, Optional

from pyflink_compat.runtime import jvm_archive
from pyflink_compat.util.files import write_atomically

DIRECTORY_ENV = "PYFLINK_COMPAT_JOB_REGISTRY"


def directory() -> str:
    return os.environ.get(DIRECTORY_ENV) or os.path.join(jvm_archive.cache_dir(), "jobs")


def _path(job_id: str) -> str:
    return os.path.join(directory(), "%s.json" % job_id)


def register(job_id: str, job_name: str, status: str) -> None:
    """Record a job of this process (replaces its earlier record)."""
    os.makedirs(directory(), exist_ok=True)
    entry = {"job_id": job_id, "job_name": job_name, "pid": os.getpid(), "process_start": _process_start(os.getpid()),
             "started_ms": int(time.time() * 1000), "status": status}
    previous = read(job_id)
    if previous is not None and previous.get("pid") == os.getpid():
        entry["started_ms"] = previous["started_ms"]
    _write_json(_path(job_id), entry)


#: How long ``list -a`` shows an ended job, as Flink's ``jobstore.expiration-time`` (default 1 hour).
TERMINATED_KEEP_S = 3600


def _ended_path(job_id: str) -> str:
    return os.path.join(directory(), "%s.ended" % job_id)


def unregister(job_id: str, final_status: Optional[str] = None) -> None:
    """The job ended (``final_status``: FINISHED, CANCELED, FAILED) or its record is stale (None)."""
    if final_status is not None:
        entry = read(job_id)
        if entry is not None:
            entry.update(status=final_status, ended_ms=int(time.time() * 1000))
            _write_json(_ended_path(job_id), entry)
    for path in (_path(job_id), os.path.join(directory(), "%s.request" % job_id)):
        try:
            os.remove(path)
        except FileNotFoundError:
            pass


def read(job_id: str) -> Optional[Dict]:
    try:
        with open(_path(job_id)) as f:
            return json.load(f)
    except (FileNotFoundError, ValueError):
        return None


def _stat_field(pid: int, index: int) -> Optional[str]:
    """A field of /proc/<pid>/stat after the command name (0: the state, 19: the start time); None where /proc
    is not available or the process is gone."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[index]
    except (OSError, IndexError):
        return None


def _process_start(pid: int) -> Optional[str]:
    """The process's start time, so that a new process reusing the PID of a dead job is not taken for it."""
    return _stat_field(pid, 19)


def alive(entry: Dict) -> bool:
    pid = entry.get("pid")
    if not isinstance(pid, int):
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:              # another user's process has the PID now
        return False
    if _process_state(pid) == "Z":       # ended, not yet reaped by its parent
        return False
    recorded = entry.get("process_start")
    return recorded is None or _process_start(pid) in (None, recorded)


def _process_state(pid: int) -> Optional[str]:
    return _stat_field(pid, 0)


def _names(suffix: str) -> List[str]:
    try:
        return [name for name in os.listdir(directory()) if name.endswith(suffix)]
    except FileNotFoundError:
        return []


def running() -> List[Dict]:
    """The live jobs, oldest first; stale records are removed."""
    entries = []
    for name in _names(".json"):
        entry = read(name[:-len(".json")])
        if entry is None:
            continue
        if alive(entry):
            entries.append(entry)
        else:
            unregister(entry.get("job_id", name[:-len(".json")]))
    return sorted(entries, key=lambda e: e.get("started_ms", 0))


def terminated() -> List[Dict]:
    """The jobs that ended within ``TERMINATED_KEEP_S``, oldest first; older records are removed."""
    entries = []
    horizon = (time.time() - TERMINATED_KEEP_S) * 1000
    for name in _names(".ended"):
        path = os.path.join(directory(), name)
        try:
            with open(path) as f:
                entry = json.load(f)
        except (OSError, ValueError):
            continue
        if entry.get("ended_ms", 0) < horizon:
            try:
                os.remove(path)
            except OSError:
                pass
            continue
        entries.append(entry)
    return sorted(entries, key=lambda e: e.get("started_ms", 0))


_RULE = "--------------------------------------------------------------"


def _job_line(entry: Dict) -> str:
    started = time.strftime("%d.%m.%Y %H:%M:%S", time.localtime(entry.get("started_ms", 0) / 1000.0))
    return "%s : %s : %s (%s)" % (started, entry["job_id"], entry.get("job_name", ""), entry.get("status", "RUNNING"))


def list_lines(entries: List[Dict], ended: Optional[List[Dict]] = None) -> List[str]:
    """``flink list``'s text for these jobs (all of them running or restarting: none is scheduled here), and
    with ``ended`` (``list -a``) the terminated ones."""
    if not entries:
        lines = ["No running jobs.", "No scheduled jobs."]
    else:
        lines = ["------------------ Running/Restarting Jobs -------------------"]
        lines += [_job_line(entry) for entry in entries]
        lines += [_RULE, "No scheduled jobs."]
    if ended:
        lines.append("---------------------- Terminated Jobs -----------------------")
        lines += [_job_line(entry) for entry in ended]
        lines.append(_RULE)
    return lines


class JobNotFound(LookupError):
    pass


def cancel(job_id: str, deadline_s: float = 120.0) -> None:
    """Cancel a running job: SIGTERM to its process, then wait (up to ``deadline_s``) until it has ended."""
    entry = read(job_id)
    if entry is None or not alive(entry):
        if entry is not None:
            unregister(job_id)
        raise JobNotFound("Could not find Flink job (%s)" % job_id)
    pid = entry["pid"]
    os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + deadline_s
    while time.monotonic() < deadline:
        if not alive(entry):
            unregister(job_id)
            return
        time.sleep(0.1)
    raise TimeoutError("Job %s (process %d) did not end within %.0f s of SIGTERM" % (job_id, pid, deadline_s))


# -- savepoints: the CLI asks a running job's process through files beside its record ----------------------

def _request_path(job_id: str) -> str:
    return os.path.join(directory(), "%s.request" % job_id)


def _response_path(job_id: str) -> str:
    return os.path.join(directory(), "%s.response" % job_id)


def _write_json(path: str, value: Dict) -> None:
    write_atomically(path, json.dumps(value))


def take_request(job_id: str) -> Optional[Dict]:
    """The savepoint request waiting for this job, removed from the registry; None if there is none."""
    path = _request_path(job_id)
    try:
        with open(path) as f:
            request = json.load(f)
    except (FileNotFoundError, ValueError):
        return None
    os.remove(path)
    return request


def respond(job_id: str, response: Dict) -> None:
    _write_json(_response_path(job_id), response)


def request_savepoint(job_id: str, target_directory: str, stop: bool, deadline_s: float = 600.0) -> str:
    """Ask a running job for a savepoint in ``target_directory`` (and to stop after it when ``stop``); return the
    savepoint's path once the job has written it."""
    entry = read(job_id)
    if entry is None or not alive(entry):
        raise JobNotFound("Could not find Flink job (%s)" % job_id)
    try:
        os.remove(_response_path(job_id))
    except FileNotFoundError:
        pass
    _write_json(_request_path(job_id), {"directory": os.path.abspath(target_directory), "stop": stop})
    deadline = time.monotonic() + deadline_s
    while time.monotonic() < deadline:
        try:
            with open(_response_path(job_id)) as f:
                response = json.load(f)
        except (FileNotFoundError, ValueError):
            response = None
        if response is not None:
            os.remove(_response_path(job_id))
            if "error" in response:
                raise RuntimeError(response["error"])
            return response["path"]
        if not alive(entry):
            raise RuntimeError("Job %s ended (process %d) before its savepoint was written" % (job_id, entry["pid"]))
        time.sleep(0.1)
    raise TimeoutError("Job %s did not write its savepoint within %.0f s" % (job_id, deadline_s))

"""Ending Spark's idle Python planning workers once a job's queries are running.

To plan a query over a Python data source, Spark forks Python workers (from one fork server per kind) that
look the source up, create it and plan its reads. It keeps each forked worker for reuse, so they stay
alive, idle, for the whole job: about 250 MiB of summed RSS on the windows benchmark (each has imported
pyspark, pyarrow and our modules). Once a job has run for ``RELEASE_AFTER_S`` and every query of it has run
Spark jobs (its first micro-batch is planned; later micro-batches do not use these workers), this ends those
idle workers; a shorter job leaves them to the next job of the process, which plans faster with them. Spark checks a pooled
worker before reusing it and forks a new one when it is gone (a later ``execute()`` in the same process
plans as before, a fork slower). The fork servers themselves are kept: Spark cannot replace a dead one.

Only the planning kinds below are ended, only workers forked under this process's JVM, and never while
this process is planning a query (``planning()``) or warming up, so no worker is ended in the middle of a
call.
"""
import contextlib
import logging
import os
import signal
import threading
from typing import Optional

from pyflink_compat import options

log = logging.getLogger("pyflink_compat")


#: Worker modules Spark uses only while a query is being planned (not per micro-batch).
PLANNING_MODULES = frozenset({
    "pyspark.sql.worker.lookup_data_sources",
    "pyspark.sql.worker.create_data_source",
    "pyspark.sql.worker.plan_data_source_read",
})
#: Those used only while a query's DataFrames are built (looking a data source up, creating it for its schema):
#: idle once the queries are planned, before they start (their first micro-batch then plans its reads with
#: plan_data_source_read). About 90 MiB each; a keyed job over two sources had two alive at its first batch.
CREATING_MODULES = frozenset({
    "pyspark.sql.worker.lookup_data_sources",
    "pyspark.sql.worker.create_data_source",
})

#: Seconds a job runs before its idle planning workers are ended (short jobs leave them to the next one).
RELEASE_AFTER_S = 8.0
#: A job whose bounded Kafka sources read at least this many records ends them as soon as it can: its peak
#: memory comes while it reads, long before 8 s are up, and it runs too long for 1.5 s of re-forking to count.
LARGE_INPUT_RECORDS = 50_000


def release_delay_s(records_to_read) -> float:
    """Seconds after its start a job ends its idle planning workers; ``records_to_read``: what its sources read
    in all, None when unknown (an unbounded or generated source)."""
    return 0.0 if records_to_read is not None and records_to_read >= LARGE_INPUT_RECORDS else RELEASE_AFTER_S

_planning_lock = threading.RLock()
# Jobs of this process whose queries have not all run their first micro-batch: Spark may still be planning
# their reads in its own threads, with the workers release() ends (a second job running beside a first).
_starting_jobs = set()
_starting_lock = threading.Lock()


def job_starting(job_id):
    with _starting_lock:
        _starting_jobs.add(job_id)


def job_started(job_id):
    """The job's queries all run (or it ended): its planning workers are no longer needed for it."""
    with _starting_lock:
        _starting_jobs.discard(job_id)


@contextlib.contextmanager
def planning():
    """Held while this process plans or starts queries: no planning worker is ended meanwhile."""
    with _planning_lock:
        yield


def enabled(configuration: dict) -> bool:
    return options.RELEASE_PLANNER_WORKERS.get(configuration)


def _children_by_parent():
    children = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % entry) as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(entry))
    return children


def _cmdline(pid: int):
    try:
        with open("/proc/%d/cmdline" % pid, "rb") as f:
            return [a.decode(errors="replace") for a in f.read().split(b"\0") if a]
    except OSError:
        return None


def idle_planning_workers(root: int = None, children: dict = None, cmdline=_cmdline, modules=PLANNING_MODULES):
    """Pids of forked planning workers under ``root`` (default: this process): a process whose command
    line is ``python -m pyspark.daemon <planning module>`` (one of ``modules``) and whose parent, the fork
    server, has the same command line. ``children`` (parent pid -> child pids) and ``cmdline`` default to
    /proc's."""
    children = _children_by_parent() if children is None else children
    found, todo = [], [root or os.getpid()]
    while todo:
        pid = todo.pop()
        command = cmdline(pid)
        for child in children.get(pid, ()):
            child_command = cmdline(child)
            if (child_command and child_command == command and "pyspark.daemon" in child_command
                    and modules.intersection(child_command)):
                found.append(child)
            todo.append(child)
    return found


def release(warm_up_done: threading.Event = None, modules=PLANNING_MODULES, job_id=None) -> Optional[int]:
    """End the idle planning workers (of ``modules``); returns how many, or None when it must be tried again
    later: while another thread plans a query here, while another job than ``job_id`` is starting, or before
    the session's warm-up has finished. The planning thread itself may call it between two of its steps (the
    lock is re-entrant)."""
    if warm_up_done is not None and not warm_up_done.is_set():
        return None
    with _starting_lock:
        if _starting_jobs - {job_id}:
            return None
    if not _planning_lock.acquire(blocking=False):
        return None
    try:
        ended = 0
        for pid in idle_planning_workers(modules=modules):
            try:
                os.kill(pid, signal.SIGTERM)
                ended += 1
            except OSError:               # already gone
                pass
        if ended:
            log.debug("Ended %d idle Python planning worker(s)", ended)
        return ended
    finally:
        _planning_lock.release()

"""The job watcher tells a failed query from a finished one even when the query fails while it looks."""
import concurrent.futures
import threading

import pytest

from pyflink_compat.runtime import job as job_module
from pyflink_compat.runtime import restarts


class _Plan:
    name = "query"
    sources = []
    sink = type("Sink", (), {"name": "Sink: Writer"})()

    def source_ends(self, progress):
        return []

    def is_done(self, progress):
        return False


class _QueryFailingWhileLookedAt:
    """Fails at the moment its exception is first asked for (Spark sets the cause, then stops the query)."""

    def __init__(self):
        self.cause = None
        self.lastProgress = {}            # planned: the watcher need not ask Spark whether it ran
        self.runId = "run"

    @property
    def isActive(self):
        return self.cause is None

    def exception(self):
        cause, self.cause = self.cause, self.cause or RuntimeError("ValueError: bad record at offset 1")
        return cause

    def stop(self):
        pass


class _Checkpoints:
    def finish(self, outcome):
        self.outcome = outcome


def _run_with(query):
    run = object.__new__(job_module.JobRun)
    # no Spark here: nothing to release
    run.job = type("Job", (), {"configuration": {"pyflink-compat.planner-workers.release": "false"},
                               "sinks": ()})()
    run.job_name, run.job_id = "job", "id"
    run.error, run.status = None, None
    run.result_future = concurrent.futures.Future()
    run._cancel_requested = threading.Event()
    run._queries = [(_Plan(), query)]
    run._checkpoints = _Checkpoints()
    run._release_creators = False
    run._started_at = 0.0
    run.log_failure = False
    run._restart_strategy = restarts.NoRestart()
    run.restarts = 0
    run.metrics = None                 # no Spark: no accumulator
    run._progress = None
    return run


def test_a_query_failing_between_two_looks_fails_the_job():
    run = _run_with(_QueryFailingWhileLookedAt())
    run._watch()
    with pytest.raises(job_module.JobExecutionError, match="bad record at offset 1"):
        run.result_future.result(timeout=5)


def test_a_failure_the_strategy_does_not_restart_ends_with_flinks_recovery_line():
    run = _run_with(_QueryFailingWhileLookedAt())
    run._watch()
    with pytest.raises(job_module.JobExecutionError) as failure:
        run.result_future.result(timeout=5)
    lines = str(failure.value).splitlines()
    assert lines[0] == "Job 'job' failed in Sink: Writer: ValueError: bad record at offset 1"
    assert lines[-1] == ("Caused by: org.apache.flink.runtime.JobException: Recovery is suppressed by "
                         "NoRestartBackoffTimeStrategy")


class _QueryFinishing:
    """Ends by itself without a failure (a bounded query that read everything)."""
    lastProgress = {}
    runId = "run"
    isActive = False

    def exception(self):
        return None

    def stop(self):
        pass


def test_a_failure_while_restarting_is_judged_by_the_strategy_and_the_next_restart_can_succeed():
    run = _run_with(_QueryFailingWhileLookedAt())
    run._restart_strategy = restarts.FixedDelay(3, 0)
    run._checkpoints.restored_from = None
    run._checkpoints.directory = "unused"
    plannings = []

    def plan_queries():
        plannings.append(len(plannings))
        if len(plannings) == 1:
            raise OSError("broker unreachable")
        return [_Plan()]

    run._plan_queries = plan_queries
    run._start_queries = lambda planned: run._queries.extend((plan, _QueryFinishing()) for plan in planned)
    run._watch()
    run.result_future.result(timeout=5)
    assert (run.restarts, len(plannings)) == (2, 2)
    assert run.status == job_module.JobStatus.FINISHED

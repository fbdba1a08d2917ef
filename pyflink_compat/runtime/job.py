"""Running a job: start one Spark query per sink, watch them, finish, fail or cancel together.

A bounded query is stopped once its source's end offset reaches the stopping
offsets (Spark streaming queries never end by themselves); any query failing
stops the others, as a Flink job fails as a whole. The job's restart strategy
(``restarts``) then starts them all again from their last completed micro-batch,
or fails the job.
"""
import concurrent.futures
import logging
import queue
import re
import threading
import time
from typing import Callable, List, Optional

from py4j.protocol import Py4JError, Py4JJavaError

from pyflink_compat.common.job_client import CompletableFuture, JobClient, JobStatus
from pyflink_compat.common.job_execution_result import JobExecutionResult, JobID
from pyflink_compat.plan import flink_json, graph
from pyflink_compat.plan.job import JobPlan
from pyflink_compat.runtime import (checkpoints, fork_server, idle_planners, job_registry, launch, metrics, progress, reporters,
                                    restarts, session, translate, warm_up, worker_python)
from pyflink_compat.util.exceptions import PythonSideJavaError

log = logging.getLogger("pyflink_compat")

POLL_INTERVAL_S = 0.05
# Jobs this process has planned (the fork server starts with the second).
_jobs_planned = 0
# How often a job of pyflink-compat run looks for a savepoint request (pyflink-compat savepoint / stop)
REQUEST_CHECK_INTERVAL_S = 0.25
# How long an interrupted job may take to stop its queries before the interrupt is raised anyway.
STOP_DEADLINE_S = 60.0


class JobExecutionError(PythonSideJavaError):
    """The job failed; the message names the failing task and the cause. A ``Py4JJavaError``, as the error
    PyFlink's ``execute()`` raises, so that a job's ``except Py4JJavaError`` catches it."""

    # False for failures a restart cannot mend (the driver JVM is gone)
    restartable = True


class JobCancellationError(JobExecutionError):
    """The job was cancelled (its execution result fails with this, as Flink's does)."""


def _cause_of(exception) -> str:
    """The most telling line of a StreamingQueryException: the Python error raised in a task."""
    text = str(exception)
    # a Flink error reproduced in Python (JavaStyleError): its Java class and message, on the line after the call
    java_style = re.findall(r"JavaStyleError: An error occurred while calling [\w.]+\.\n: (.+)$", text, re.MULTILINE)
    if java_style:
        return java_style[-1]
    python_errors = re.findall(r"^(?:[\w.]+\.)?(\w*(?:Error|Exception|Exit)): (.+)$", text, re.MULTILINE)
    for name, message in reversed(python_errors):
        if name not in ("PythonException", "StreamingQueryException", "SparkException", "Py4JJavaError",
                        "BatchFunctionError"):
            return "%s: %s" % (name, message)
    return text.strip().splitlines()[0][:1000] if text.strip() else repr(exception)


def _failed_task(plan, cause: str, text: str = "", sinks=()) -> str:
    """The task to name for a failure: the source for errors only a source raises, the operator whose function
    raised (found from the traceback in ``text``), else the query's sink."""
    from pyflink_compat.kafka_io.source import SOURCE_ERROR_NAMES
    from pyflink_compat.runtime.failures import failing_operator
    if plan.sources and cause.split(":", 1)[0] in SOURCE_ERROR_NAMES:
        return ", ".join(source.name for source in plan.sources)
    try:
        operator = failing_operator(sinks, text)
    except Exception as e:            # noqa: B902 - naming the operator is a courtesy; the error is what counts
        log.debug("could not locate the failing operator: %s", e)
        operator = None
    return operator or plan.sink.name


# Frames of these files are the machinery between Spark and the user's function, not the user's code.
_MACHINERY = ("/pyspark/", "/pyflink_compat/", "/py4j/", "<frozen ", "/concurrent/futures/", "/runpy.py",
              "/threading.py", "/contextlib.py")


def user_traceback(error: BaseException) -> Optional[str]:
    """The Python traceback a failed task raised, with only the frames of the user's code (as PyFlink
    shows the function's own error), or None if the failure carries no Python traceback."""
    text = getattr(error, "cause_text", "") or ""
    if "Traceback (most recent call last):" not in text:
        return None
    lines = text.split("Traceback (most recent call last):")[-1].splitlines()
    frames, error_lines, keep = [], [], False
    for line in lines[1:]:
        frame = re.match(r'\s*File "([^"]+)", line \d+, in ', line)
        if frame:
            keep = not any(part in frame.group(1) for part in _MACHINERY)
            if keep:
                frames.append("  " + line.strip())
        elif line.startswith(" ") and not error_lines:
            if keep and line.strip() and set(line.strip()) - set("^~ "):
                frames.append("    " + line.strip())
        elif line.strip() and not line.startswith("\t") and not line.startswith("JVM stacktrace"):
            error_lines.append(line.rstrip())
        elif error_lines:
            break
    if not error_lines:
        return None
    return "\n".join(["Traceback (most recent call last):"] + frames + error_lines)


def _ran_tasks(query, progress) -> bool:
    """Whether the query has run Spark jobs: its first micro-batch is planned (or done)."""
    if progress is not None:
        return True
    try:
        from pyspark import SparkContext
        # Spark runs a streaming query's jobs in a job group named after its run id.
        return len(SparkContext.getOrCreate().statusTracker().getJobIdsForGroup(query.runId)) > 0
    except Exception:                    # noqa: B902 - only an earlier release is at stake
        return False


class JobRun:
    """One execution of an environment's sinks."""

    def __init__(self, job: JobPlan, job_name: str, deliver: Callable = None):
        if not job.sinks:
            raise RuntimeError("No operators defined in streaming topology. Cannot execute.")
        flink_json.stream_graph(job.sinks, job.parallelism, python_chaining=False)   # Flink's graph checks
        self.job = job
        self.sinks = list(job.sinks)
        self.job_name = job_name
        self.deliver = deliver
        self.job_id = JobID.generate()
        self.status = JobStatus.CREATED
        self.error: Optional[BaseException] = None
        self.result_future = concurrent.futures.Future()
        self._cancel_requested = threading.Event()
        self._queries = []
        self._thread = None
        self._checkpoints = None
        self._started_at = None
        self._restart_strategy: Optional[restarts.RestartStrategy] = None
        self.restarts = 0                 # Flink's numRestarts
        self.metrics: Optional[metrics.JobMetrics] = None
        self._progress = None             # the terminal's progress line of `pyflink-compat run`
        # execute_async: nobody waits on the job, so its failure is logged when it happens (execute() raises it)
        self.log_failure = False

    # -- lifecycle ----------------------------------------------------------------------------

    def start(self) -> "JobRun":
        """Plan and start every query; planning errors (broker, topic, config) raise here."""
        self._started_at = time.monotonic()
        configuration = self.job.configuration
        try:
            self._restart_strategy = restarts.from_configuration(configuration,
                                                                 checkpoints.checkpointing_enabled(self.job))
        except restarts.RestartConfigurationError as e:
            from pyflink_compat.util.exceptions import JavaStyleError
            raise JavaStyleError("java.lang.IllegalArgumentException", str(e), "execute") from None
        self._checkpoints = checkpoints.plan(self.job, self.job_name, str(self.job_id))
        idle_planners.job_starting(self.job_id)
        with idle_planners.planning():
            try:
                planned = self._plan_queries()
            except BaseException:
                idle_planners.job_started(self.job_id)
                self._checkpoints.discard()          # nothing ran: nothing to keep
                raise
            try:
                self._start_queries(planned)
            except BaseException:
                idle_planners.job_started(self.job_id)
                self._stop_all()
                self._checkpoints.finish(checkpoints.FAILED)
                raise
        self.status = JobStatus.RUNNING
        self._record_status()                # listed before the launcher of a detached job returns
        launch.report_submitted(self.job_id)
        if launch.client_output:
            launch.report_addresses(session.ui_url(), reporters.prometheus_port())
            if progress.wanted():
                self._progress = progress.start_for(self)
        log.info("Job '%s' (%s) running %d Spark quer%s", self.job_name, self.job_id, len(self._queries),
                 "y" if len(self._queries) == 1 else "ies")
        self._thread = threading.Thread(target=self._watch, name="pyflink-compat-job-%s" % self.job_id,
                                        daemon=True)
        self._thread.start()
        return self

    def _plan_queries(self):
        configuration = self.job.configuration
        worker = worker_python.resolve(configuration)
        spark = session.get_session(configuration, worker)
        global _jobs_planned
        _jobs_planned += 1
        if _jobs_planned > 1:
            # A process that runs one job (a DataStream program) gains too little from the server to pay for
            # its start and memory; one that runs several (a SQL script, a test session) starts queries often.
            session.start_fork_server(configuration, worker)
        if self.metrics is None:
            self.metrics = metrics.JobMetrics(str(self.job_id), self.job_name)
            reporters.start_configured(configuration)
            reporters.register(str(self.job_id), self._metric_values)
        with metrics.planning_with(self.metrics.channel, self.job):
            return translate.plan_queries(spark, self.job, self.job_name, self._checkpoints, self.deliver)

    def _metric_values(self) -> tuple:
        """(job name, operator metrics, job metrics) for the reporters."""
        return (self.job_name, self.metrics.values(),
                self.metrics.job_metric_values(self.restarts, self._started_at))

    def _start_queries(self, planned):
        for plan in planned:
            if plan.already_done:
                continue
            self._queries.append((plan, plan.start()))

    def _watch(self):
        try:
            while True:
                try:
                    request = self._watch_queries()
                    if request is None or self._take_savepoint(request):
                        break
                    continue
                except BaseException as e:       # noqa: B902 - the restart strategy decides
                    failure = e
                # A failure while restarting is judged like the one before it.
                while failure is not None:
                    if self._cancel_requested.is_set() or not getattr(failure, "restartable", False):
                        raise failure
                    delay_ms = self._restart_strategy.on_failure(int(time.time() * 1000))
                    if delay_ms is None:
                        raise self._recovery_suppressed(failure) from failure.__cause__
                    try:
                        self._restart(failure, delay_ms)
                        failure = None
                    except BaseException as e:   # noqa: B902
                        failure = e
            if self._cancel_requested.is_set():
                self.status = JobStatus.CANCELED
                self.error = JobCancellationError("Job '%s' (%s) was cancelled." % (self.job_name, self.job_id))
            else:
                self.status = JobStatus.FINISHED
        except BaseException as e:       # noqa: B902 - any failure fails the job
            if isinstance(e, (Py4JError, ConnectionError)) and not isinstance(e, Py4JJavaError):
                wrapped = self._driver_gone(e)     # a Spark call outside _query_call met the dead JVM
                wrapped.__cause__ = e
                e = wrapped
            self.error = e
            self.status = JobStatus.CANCELED if self._cancel_requested.is_set() else JobStatus.FAILED
        finally:
            idle_planners.job_started(self.job_id)
            if self._progress is not None:
                self._progress.stop()
            reporters.unregister(str(self.job_id))
            self._record_status(ended=True)
            try:
                self._stop_all()
                outcomes = {JobStatus.FINISHED: checkpoints.FINISHED, JobStatus.CANCELED: checkpoints.CANCELED}
                self._checkpoints.finish(outcomes.get(self.status, checkpoints.FAILED))
            except BaseException as e:   # noqa: B902 - the job's outcome must still be reported
                log.error("Job '%s' (%s): stopping failed: %s", self.job_name, self.job_id, e)
                if self.error is None:
                    self.error, self.status = e, JobStatus.FAILED
            if self.error is not None:
                if self.log_failure and self.status == JobStatus.FAILED:
                    text = str(self.error)
                    log.error("Job '%s' (%s) failed: %s", self.job_name, self.job_id,
                              text.splitlines()[0] if text else type(self.error).__name__)
                self.result_future.set_exception(self.error)
            else:
                runtime_ms = int((time.monotonic() - self._started_at) * 1000)
                self.result_future.set_result(JobExecutionResult._of(self.job_id, runtime_ms))

    def _recovery_suppressed(self, failure: BaseException) -> "JobExecutionError":
        """The job's final error: the failure, and Flink's line saying that the restart strategy gave up."""
        text = str(failure) or type(failure).__name__
        error = JobExecutionError("%s\nCaused by: %s" % (text, self._restart_strategy.suppressed_text()))
        error.cause_text = getattr(failure, "cause_text", "")
        return error

    def _take_savepoint(self, request: dict) -> bool:
        """Serve ``pyflink-compat savepoint`` / ``stop --savepointPath``: stop the queries (a micro-batch under way
        is abandoned, its transactions aborted: it runs again after a restore), copy the job's checkpoint
        directory, answer with its path, then start the queries again from it, or end the job (True) for a
        stop."""
        log.info("Job '%s' (%s): %s", self.job_name, self.job_id,
                 "stopping with a savepoint" if request.get("stop") else "taking a savepoint")
        self._stop_queries()
        stop = bool(request.get("stop"))
        try:
            path = self._checkpoints.copy_to(request["directory"], str(self.job_id))
        except Exception as e:           # noqa: BLE001 - answered to the requester; the job goes on
            log.error("Job '%s' (%s): the savepoint failed: %s", self.job_name, self.job_id, e)
            job_registry.respond(str(self.job_id), {"error": "The savepoint failed: %s" % e})
            stop = False
        else:
            log.warning("Savepoint of job %s written to %s", self.job_id, path)
            job_registry.respond(str(self.job_id), {"path": path})
        if stop:
            return True
        self._resume_queries()
        return False

    def _stop_queries(self):
        self._stop_all()
        self._queries = []

    def _resume_queries(self):
        """Plan and start the job's queries again on its checkpoint directory: each resumes after its last
        completed micro-batch, and bounded sources stop where the first run resolved their stopping offsets to,
        as after a restore."""
        self._checkpoints.restored_from = self._checkpoints.restored_from or self._checkpoints.directory
        with idle_planners.planning():
            self._start_queries(self._plan_queries())

    def _restart(self, failure: BaseException, delay_ms: int):
        """Stop the queries, wait ``delay_ms``, start them again from their last completed micro-batch. A failure
        while starting them again is raised as a failure of the job (for the restart strategy to judge)."""
        self.restarts += 1
        log.warning("%s. Restart %d of job %s in %d ms, from the last completed micro-batch (%s)",
                    (str(failure).splitlines() or [type(failure).__name__])[0], self.restarts, self.job_id, delay_ms,
                    self._restart_strategy.description())
        self.status = JobStatus.RESTARTING
        self._record_status()
        self._stop_queries()
        if self._cancel_requested.wait(delay_ms / 1000.0):
            return
        try:
            self._resume_queries()
        except BaseException as e:       # noqa: B902 - judged by the restart strategy like any failure
            if isinstance(e, (Py4JError, ConnectionError)) and not isinstance(e, Py4JJavaError):
                raise
            error = JobExecutionError("Job '%s' failed while restarting: %s" % (
                self.job_name, (str(e).splitlines() or [type(e).__name__])[0]))
            error.__cause__ = e
            raise error
        self.status = JobStatus.RUNNING
        self._record_status()

    def _record_status(self, ended: bool = False):
        """Jobs of ``pyflink-compat run`` are listed in the machine's job registry while they run."""
        if not launch.client_output:
            return
        try:
            if ended:
                job_registry.unregister(str(self.job_id), self.status.name)
            else:
                job_registry.register(str(self.job_id), self.job_name, self.status.name)
        except OSError as e:             # the registry is for list/cancel; the job goes on without it
            log.warning("Could not record job %s in %s: %s", self.job_id, job_registry.directory(), e)

    def _records_to_read(self) -> Optional[int]:
        """What the running queries' sources read in all; None when one of them is not a bounded Kafka source."""
        return translate.total_records([plan.records_to_read for plan, _ in self._queries])

    def _watch_queries(self) -> Optional[dict]:
        """Poll the running queries until all are done (or the job is cancelled), or a savepoint is asked for
        (returned); raise the first failure."""
        pending = list(self._queries)
        next_request_check = 0.0
        started = set()                   # queries that have run Spark jobs (their first batch is planned)
        release_planners = release_creators = idle_planners.enabled(self.job.configuration)
        # The idle planning workers are ended only once the job has run a while: a short job (one statement
        # of a SQL script, a collect()) is mostly followed by another, which plans with the same workers
        # (re-forking them costs a statement about 1.5 s); a long job gives their memory back, a job with a
        # large bounded input at once.
        release_from = self._started_at + (idle_planners.release_delay_s(self._records_to_read())
                                           if release_planners else 0.0)
        while pending and not self._cancel_requested.is_set():
            if release_creators and time.monotonic() >= release_from:
                release_creators = idle_planners.release(
                    warm_up.created, modules=idle_planners.CREATING_MODULES, job_id=self.job_id) is None
            if len(started) == len(self._queries):
                idle_planners.job_started(self.job_id)
                if release_planners and time.monotonic() >= release_from:
                    release_planners = idle_planners.release(warm_up.finished,
                                                             job_id=self.job_id) is None   # None: try again
                    if not release_planners:
                        fork_server.stop()          # started again by the next job of the process
            for plan, query in list(pending):
                # Read the state before the exception: a query failing between the two reads is then seen
                # failed, never taken for finished.
                active = self._query_call(query, lambda: query.isActive)
                self._raise_failure(plan, query)
                if not active:
                    pending.remove((plan, query))
                    continue
                progress = self._query_call(query, lambda: query.lastProgress)
                if id(query) not in started and _ran_tasks(query, progress):
                    started.add(id(query))
                for source, end in plan.source_ends(progress):
                    if end and source.offset_committer is not None:
                        source.offset_committer.batch_completed(end)
                self._observe(plan, progress)
                if plan.is_done(progress):
                    self._query_call(query, query.stop)
                    pending.remove((plan, query))
            if launch.client_output and pending and time.monotonic() >= next_request_check:
                next_request_check = time.monotonic() + REQUEST_CHECK_INTERVAL_S
                request = job_registry.take_request(str(self.job_id))
                if request is not None:
                    return request
            time.sleep(POLL_INTERVAL_S)
        return None

    def _observe(self, plan, progress):
        """The metrics measured on the driver after a micro-batch (never failing the job)."""
        if self.metrics is None or not progress:
            return
        try:
            self.metrics.observe_sources(plan.sources, progress)
            self.metrics.observe_checkpoint(plan.name, progress, self._checkpoints.directory)
        except Exception as e:           # noqa: BLE001 - metrics are for watching, not for the job's outcome
            log.debug("Job %s: metrics of query %s not updated: %s", self.job_id, plan.name, e)

    def _query_call(self, query, call):
        try:
            return call()
        except (Py4JError, ConnectionError) as e:
            if isinstance(e, Py4JJavaError):
                raise
            raise self._driver_gone(e) from e

    def _driver_gone(self, e: BaseException) -> "JobExecutionError":
        error = JobExecutionError(
            "Job '%s' failed: the Spark driver JVM of this process no longer answers (it was "
            "killed or crashed): %s" % (self.job_name, (str(e).splitlines() or [type(e).__name__])[0]))
        error.restartable = False
        return error

    def _raise_failure(self, plan, query):
        exception = self._query_call(query, query.exception)
        if exception is not None:
            cause = _cause_of(exception)
            error = JobExecutionError("Job '%s' failed in %s: %s" % (
                self.job_name, _failed_task(plan, cause, str(exception), self.job.sinks), cause))
            error.cause_text = str(exception)
            raise error

    def _stop_all(self):
        for plan, query in self._queries:
            try:
                if query.isActive:
                    query.stop()
            except Exception as e:       # stopping is best effort; the first error is what matters
                log.debug("stopping a query failed: %s", e)
            try:
                ends = plan.source_ends(query.lastProgress)
            except Exception as e:       # the Spark session is gone (the JVM died or was killed)
                log.warning("%s: no progress to commit offsets from: %s", plan.name, e)
                ends = [(source, None) for source in plan.sources]
            for source, end in ends:
                if source.offset_committer is not None:
                    try:
                        # The last completed micro-batch is committed too (Flink commits on the final checkpoint).
                        if end:
                            source.offset_committer.batch_completed(end)
                    finally:
                        source.offset_committer.close()
                        source.offset_committer = None

    def cancel(self):
        self.status = JobStatus.CANCELLING
        self._cancel_requested.set()

    def wait(self):
        """Block until the job ends; return its JobExecutionResult or raise its error."""
        try:
            while not self.result_future.done():
                try:
                    return self.result_future.result(timeout=0.5)
                except concurrent.futures.TimeoutError:
                    continue
            return self.result_future.result()
        except KeyboardInterrupt:
            self.cancel()
            try:
                self.result_future.exception(timeout=STOP_DEADLINE_S)
            except concurrent.futures.TimeoutError:
                log.error("Job '%s' (%s) did not stop within %.0f s", self.job_name, self.job_id, STOP_DEADLINE_S)
            raise

    @property
    def done(self) -> bool:
        return self.result_future.done()


def execute(job: JobPlan, job_name: str):
    return JobRun(job, job_name).start().wait()


# Jobs started without anyone waiting for them (execute_async, an INSERT's execute_sql), in start order.
_background: List["JobRun"] = []


def start_in_background(job: JobPlan, job_name: str) -> "JobRun":
    run = JobRun(job, job_name)
    run.log_failure = True
    run.start()
    _background.append(run)
    return run


def execute_async(job: JobPlan, job_name: str):
    return JobClient(start_in_background(job, job_name))


def wait_for_background_jobs():
    """Wait for the jobs started in the background that are still running. ``flink run`` leaves such jobs
    running on the cluster when the job file ends; the embedded cluster is this process, so the runner waits for
    them before it exits (a cancelled one is done; a failed one raises its error)."""
    while _background:
        run = _background.pop(0)
        if run.status == JobStatus.CANCELED or run._cancel_requested.is_set():
            continue
        try:
            run.wait()
        except JobCancellationError:
            continue


class CollectedResults:
    """Elements of a collect sink, in arrival order, while the job runs."""

    def __init__(self):
        self.queue = queue.Queue()
        self.run: Optional[JobRun] = None

    def deliver(self, elements):
        for element in elements:
            self.queue.put(element)

    def next_element(self):
        while True:
            try:
                return self.queue.get(timeout=0.1)
            except queue.Empty:
                if self.run.done:
                    if self.queue.empty():
                        error = self.run.result_future.exception()
                        if error is not None and not isinstance(error, JobCancellationError):
                            raise error
                        raise StopIteration('No more data.')

    def close(self):
        if not self.run.done:
            self.run.cancel()
            self.run.result_future.exception()


def execute_and_collect(job: JobPlan, collect_node: graph.Node, job_name: Optional[str], limit: Optional[int]):
    """Run ``job`` (its sinks end with ``collect_node``) and return its collected elements."""
    from pyflink_compat.datastream.data_stream import CloseableIterator
    results = CollectedResults()
    results.run = JobRun(job, job_name or "DataStream Collect", results.deliver).start()
    if limit is None:
        return CloseableIterator(results, collect_node.output_type)
    collected = []
    try:
        while len(collected) < limit:
            collected.append(results.next_element())
    except StopIteration:
        pass
    finally:
        results.close()
    return collected

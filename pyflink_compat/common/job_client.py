"""``JobClient``, ``JobStatus`` and ``CompletableFuture``.

Mirrors ``pyflink.common.job_client``, ``job_status`` and ``completable_future``.
``JobClient`` wraps the runtime's running job as PyFlink's wraps the Java client.
``CompletableFuture`` is backed by a ``concurrent.futures.Future`` instead of a
Java ``CompletableFuture``.
"""
import concurrent.futures
from enum import Enum

from pyflink_compat.util.exceptions import unsupported

__all__ = ['JobClient']  # as PyFlink; JobStatus, CompletableFuture: see job_status.py, completable_future.py


class JobStatus(Enum):
    """The states of a job, numbered as in PyFlink (Java's ``JobStatus`` without ``INITIALIZING``)."""

    CREATED = 0
    RUNNING = 1
    FAILING = 2
    FAILED = 3
    CANCELLING = 4
    CANCELED = 5
    FINISHED = 6
    RESTARTING = 7
    SUSPENDED = 8
    RECONCILING = 9

    def is_globally_terminal_state(self) -> bool:
        """True for FINISHED, CANCELED and FAILED: the job is over and will not be recovered."""
        return self in _GLOBALLY_TERMINAL

    def is_terminal_state(self) -> bool:
        """True for the globally terminal states and SUSPENDED."""
        return self in _GLOBALLY_TERMINAL or self is JobStatus.SUSPENDED


_GLOBALLY_TERMINAL = frozenset((JobStatus.FINISHED, JobStatus.CANCELED, JobStatus.FAILED))


class CompletableFuture(object):
    """A result that becomes available later.

    ``j_completable_future`` is a ``concurrent.futures.Future`` (None: a new, incomplete
    one, completed through ``set_result``/``set_exception``); ``py_class``, if
    given, converts its result (as PyFlink converts the Java result).
    """

    def __init__(self, j_completable_future: concurrent.futures.Future, py_class=None):
        self._future = j_completable_future if j_completable_future is not None else concurrent.futures.Future()
        self._py_class = py_class

    def cancel(self) -> bool:
        return self._future.cancel()

    def cancelled(self) -> bool:
        return self._future.cancelled()

    def done(self) -> bool:
        return self._future.done()

    def result(self):
        """Waits for the result; raises the failure, or ``CancelledError`` if cancelled."""
        value = self._future.result()
        return value if self._py_class is None else self._py_class(value)

    def exception(self):
        """The failure if the future completed exceptionally, else None (does not wait)."""
        if not self._future.done() or self._future.cancelled():
            return None
        return self._future.exception()

    def set_result(self, result) -> bool:
        """Completes the future with ``result``; False if it was already complete (Java ``complete``)."""
        if self._future.done():
            return False
        self._future.set_result(result)
        return True

    def set_exception(self, exception) -> bool:
        """Completes the future with a failure; False if it was already complete."""
        if self._future.done():
            return False
        self._future.set_exception(exception)
        return True

    def __str__(self):
        if not self._future.done():
            state = "Incomplete"
        elif self._future.cancelled():
            state = "Completed exceptionally: CancellationException"
        elif self._future.exception() is not None:
            state = "Completed exceptionally: %r" % (self._future.exception(),)
        else:
            state = "Completed normally"
        return "CompletableFuture@%x[%s]" % (id(self), state)


class JobClient(object):
    """A client scoped to one submitted job. ``j_job_client`` is the runtime's running job (PyFlink's is the
    Java client): its ``job_id``, ``status``, ``cancel()`` and ``result_future``."""

    def __init__(self, j_job_client):
        self._j_job_client = j_job_client

    def get_job_id(self):
        """The job's ``JobID``."""
        return self._j_job_client.job_id

    def get_job_status(self) -> CompletableFuture:
        """A future of the job's ``JobStatus``."""
        future = concurrent.futures.Future()
        future.set_result(self._j_job_client.status)
        return CompletableFuture(future)

    def cancel(self) -> CompletableFuture:
        """Cancels the job; the future completes once it is cancelled."""
        self._j_job_client.cancel()
        future = concurrent.futures.Future()
        self._j_job_client.result_future.add_done_callback(lambda _: future.set_result(None))
        return CompletableFuture(future)

    stop_with_savepoint = unsupported("JobClient.stop_with_savepoint", "checkpoints",
                                      "resume from a checkpoint directory with -s instead")
    trigger_savepoint = unsupported("JobClient.trigger_savepoint", "checkpoints",
                                    "resume from a checkpoint directory with -s instead")

    def get_job_execution_result(self) -> CompletableFuture:
        """A future of the job's ``JobExecutionResult``."""
        return CompletableFuture(self._j_job_client.result_future)

    def get_accumulators(self) -> CompletableFuture:
        """A future of the job's accumulators: always ``{}``, as a Python DataStream job registers none."""
        future = CompletableFuture(None, dict)
        future.set_result({})
        return future

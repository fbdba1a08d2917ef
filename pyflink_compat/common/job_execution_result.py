"""``JobExecutionResult`` and ``JobID`` (mirror of ``pyflink.common.job_execution_result`` and ``job_id``)."""
import re
import secrets

__all__ = ['JobExecutionResult']  # as PyFlink; JobID: see job_id.py

_HEX_JOB_ID = re.compile(r'[0-9a-fA-F]{32}')


class JobID(object):
    """A job's identifier: 16 random bytes, shown as 32 lower-case hex digits (Java ``JobID``)."""

    def __init__(self, j_job_id: str):
        if not isinstance(j_job_id, str) or not _HEX_JOB_ID.fullmatch(j_job_id):
            raise ValueError('Cannot parse JobID from "%s". The expected format is [0-9a-fA-F]{32}, '
                             'e.g. fd72014d4c864993a2e5a9287b4a9c5d.' % (j_job_id,))
        self._hex = j_job_id.lower()

    @staticmethod
    def generate() -> 'JobID':
        """A new random JobID (Java ``JobID.generate()``)."""
        return JobID(secrets.token_hex(16))

    def to_hex_string(self) -> str:
        return self._hex

    def __str__(self):
        return self._hex

    def __eq__(self, other):
        return isinstance(other, JobID) and self._hex == other._hex

    def __hash__(self):
        return hash(self._hex)


class _ExecutionResult(object):
    """What PyFlink keeps in the Java JobExecutionResult: job id, net runtime (ms), accumulators."""

    def __init__(self, job_id: JobID, net_runtime_ms: int, accumulators: dict = None):
        self.job_id = job_id
        self.net_runtime_ms = net_runtime_ms
        self.accumulators = dict(accumulators or {})


class JobExecutionResult(object):
    """The result of a finished job: its id, net runtime (ms) and accumulator values.

    ``j_job_execution_result`` is our own record of those (PyFlink passes a Java object);
    ``JobExecutionResult._of(job_id, net_runtime_ms, accumulators)`` builds one.
    """

    def __init__(self, j_job_execution_result):
        self._j_job_execution_result = j_job_execution_result
        self._job_id = j_job_execution_result.job_id
        self._net_runtime_ms = j_job_execution_result.net_runtime_ms
        self._accumulators = dict(j_job_execution_result.accumulators)

    @classmethod
    def _of(cls, job_id: JobID, net_runtime_ms: int, accumulators: dict = None) -> 'JobExecutionResult':
        return JobExecutionResult(_ExecutionResult(job_id, net_runtime_ms, accumulators))

    def get_job_id(self) -> JobID:
        return self._job_id

    def is_job_execution_result(self) -> bool:
        return True

    def get_job_execution_result(self) -> 'JobExecutionResult':
        return self

    def get_net_runtime(self) -> int:
        """The job's execution time in milliseconds."""
        return self._net_runtime_ms

    def get_accumulator_result(self, accumulator_name: str):
        """The value of the accumulator ``accumulator_name``, None if there is none."""
        return self._accumulators.get(accumulator_name)

    def get_all_accumulator_results(self) -> dict:
        return dict(self._accumulators)

    def to_string(self) -> str:
        """Java's ``JobExecutionResult.toString()``."""
        text = ("Program execution finished\n"
                "Job with JobID %s has finished.\n"
                "Job Runtime: %d ms\n" % (self._job_id, self._net_runtime_ms))
        if self._accumulators:
            text += "Accumulator Results: \n"
            text += "".join("- %s (%s): %s\n" % (name, type(value).__name__, value)
                            for name, value in self._accumulators.items())
            text += "\n"
        return text

"""TableResult of a DDL statement (OK) or of a job that ran INSERT statements."""
from pyflink_compat import missing
from pyflink_compat.util.exceptions import no_effect

__all__ = ["TableResult", "CloseableIterator"]

_StandIns = missing.stand_ins(__name__)
CloseableIterator = _StandIns.CloseableIterator


class TableResult(_StandIns.TableResult):

    def __init__(self, j_table_result):
        self._job_result = j_table_result     # pyflink-compat: the JobExecutionResult of the job, or None

    @staticmethod
    def ok() -> 'TableResult':
        return TableResult(None)

    @staticmethod
    def of_job(job_result) -> 'TableResult':
        return TableResult(job_result)

    @no_effect("the job has run to its end when its statement returned (porting guide: table-api)")
    def wait(self, timeout_ms: int = None):
        return None

    def get_job_client(self):
        if self._job_result is None:
            return None
        return getattr(self._job_result, "get_job_client", lambda: None)()

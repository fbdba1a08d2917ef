"""Mirror of ``pyflink.common.job_id`` (the class lives in ``job_execution_result``)."""
from pyflink_compat.common.job_execution_result import JobID

__all__ = ['JobID']

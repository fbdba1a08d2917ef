"""Mirror of ``pyflink.common.job_status`` (the enum lives in ``job_client``)."""
from pyflink_compat.common.job_client import JobStatus

__all__ = ['JobStatus']

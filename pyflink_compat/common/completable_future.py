"""Mirror of ``pyflink.common.completable_future`` (the class lives in ``job_client``)."""
from pyflink_compat.common.job_client import CompletableFuture

__all__ = ['CompletableFuture']

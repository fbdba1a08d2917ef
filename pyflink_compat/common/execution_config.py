"""Mirror of ``pyflink.common.execution_config`` (the class lives in ``configuration``)."""
from pyflink_compat.common.configuration import ExecutionConfig

__all__ = ['ExecutionConfig']

"""Mirror of ``pyflink.common.execution_mode`` (Flink 1.x; removed in 2.0 with the DataSet API).

``ExecutionMode`` chose how a DataSet (batch) program exchanged data. Only
``ExecutionConfig.set_execution_mode`` / ``get_execution_mode`` take it: they record it and warn
(porting_guide/README.md#flink-1-names). Importing the enum does not warn.
"""
from enum import Enum

__all__ = ['ExecutionMode']


class ExecutionMode(Enum):
    """How a batch program exchanges data (Flink 1.x's DataSet API; no effect here).

    :data:`PIPELINED` (Flink's default): pipelined, except exchanges that could deadlock;
    :data:`PIPELINED_FORCED`: pipelined everywhere;
    :data:`BATCH`: shuffles and broadcasts batched, local forwards pipelined;
    :data:`BATCH_FORCED`: every exchange batched.
    """

    PIPELINED = 0
    PIPELINED_FORCED = 1
    BATCH = 2
    BATCH_FORCED = 3

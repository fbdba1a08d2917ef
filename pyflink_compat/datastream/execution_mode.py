"""``RuntimeExecutionMode`` (mirror of ``pyflink.datastream.execution_mode``)."""
from enum import Enum

__all__ = ['RuntimeExecutionMode']


class RuntimeExecutionMode(Enum):
    """Runtime execution mode of DataStream programs.

    :data:`STREAMING`: the pipeline runs with continuous incremental processing
    (the default); :data:`BATCH`: bounded inputs are processed in stages;
    :data:`AUTOMATIC`: BATCH if all sources are bounded, else STREAMING.
    """

    STREAMING = 0
    BATCH = 1
    AUTOMATIC = 2

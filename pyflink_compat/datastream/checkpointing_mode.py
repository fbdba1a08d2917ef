"""``CheckpointingMode`` (mirror of ``pyflink.datastream.checkpointing_mode``)."""
from enum import Enum

__all__ = ['CheckpointingMode']


class CheckpointingMode(Enum):
    """The consistency guarantee checkpoints give in the presence of failures.

    :data:`EXACTLY_ONCE` (Flink's default) means every record affects state
    exactly once; :data:`AT_LEAST_ONCE` allows duplicates after recovery.
    """

    EXACTLY_ONCE = 0
    AT_LEAST_ONCE = 1

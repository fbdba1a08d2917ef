"""Mirror of ``pyflink.datastream.externalized_checkpoint_retention`` (the enum lives in ``checkpoint_config``)."""
from pyflink_compat.datastream.checkpoint_config import ExternalizedCheckpointRetention

__all__ = ['ExternalizedCheckpointRetention']

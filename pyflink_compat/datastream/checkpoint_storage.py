"""Checkpoint storage (mirror of ``pyflink.datastream.checkpoint_storage``).

Flink 2.x configures checkpoint storage through configuration
(``execution.checkpointing.dir``); these classes exist so imports keep working and
record their settings. Flink 1.x's ``CheckpointConfig.set_checkpoint_storage`` (and
``set_state_backend`` with a 1.x backend) turns one into that configuration, which decides
where the job's checkpoints go (porting_guide/README.md#checkpoints, #flink-1-names).
"""
from typing import Optional

__all__ = ['CheckpointStorage', 'JobManagerCheckpointStorage', 'FileSystemCheckpointStorage',
           'CustomCheckpointStorage']


class CheckpointStorage(object):
    """Base of the checkpoint storages: where checkpoint data is written."""

    def __init__(self, j_checkpoint_storage):
        self._j_checkpoint_storage = j_checkpoint_storage


class JobManagerCheckpointStorage(CheckpointStorage):
    """Checkpoints in the JobManager's memory; ``max_state_size`` defaults to 5 MiB."""

    DEFAULT_MAX_STATE_SIZE = 5 * 1024 * 1024

    def __init__(self, checkpoint_path=None, max_state_size=None,
                 j_jobmanager_checkpoint_storage=None):
        super(JobManagerCheckpointStorage, self).__init__(j_jobmanager_checkpoint_storage)
        self._checkpoint_path = checkpoint_path
        self._max_state_size = (self.DEFAULT_MAX_STATE_SIZE if max_state_size is None
                                else max_state_size)

    def get_checkpoint_path(self) -> Optional[str]:
        return self._checkpoint_path

    def get_max_state_size(self) -> int:
        return self._max_state_size

    def get_savepoint_path(self) -> Optional[str]:
        return None

    def __str__(self):
        return "JobManagerCheckpointStorage (checkpoints to JobManager) ( maxStateSize: %d)" % (
            self._max_state_size)


class FileSystemCheckpointStorage(CheckpointStorage):
    """Checkpoints as files under ``checkpoint_path`` (required)."""

    MAX_FILE_STATE_THRESHOLD = 1024 * 1024

    def __init__(self, checkpoint_path=None, file_state_size_threshold=None,
                 write_buffer_size=-1, j_filesystem_checkpoint_storage=None):
        if checkpoint_path is None and j_filesystem_checkpoint_storage is None:
            raise ValueError("checkpoint_path must not be None")
        super(FileSystemCheckpointStorage, self).__init__(j_filesystem_checkpoint_storage)
        self._checkpoint_path = checkpoint_path
        self._file_state_size_threshold = (-1 if file_state_size_threshold is None
                                           else file_state_size_threshold)
        self._write_buffer_size = write_buffer_size

    def get_checkpoint_path(self) -> str:
        return self._checkpoint_path

    def get_savepoint_path(self) -> Optional[str]:
        return None

    def get_min_file_size_threshold(self) -> int:
        return self._file_state_size_threshold

    def get_write_buffer_size(self) -> int:
        return self._write_buffer_size

    def __str__(self):
        return "FileSystemCheckpointStorage {checkpointsDirectory=%s}" % self._checkpoint_path


class CustomCheckpointStorage(CheckpointStorage):
    """A checkpoint storage implemented in Java (kept, never used: there is no JVM)."""

    def __init__(self, j_custom_checkpoint_storage):
        super(CustomCheckpointStorage, self).__init__(j_custom_checkpoint_storage)

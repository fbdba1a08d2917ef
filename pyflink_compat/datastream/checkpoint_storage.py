"""Checkpoint storage (mirror of ``pyflink.datastream.checkpoint_storage``).

Flink 2.x configures checkpoint storage through configuration
(``execution.checkpointing.dir``); these classes exist so imports keep working and
record their settings. Flink 1.x's ``CheckpointConfig.set_checkpoint_storage`` (and
``set_state_backend`` with a 1.x backend) turns one into that configuration, which decides
where the job's checkpoints go (porting_guide/README.md#checkpoints, #flink-1-names).
"""
from typing import Optional

from pyflink_compat.util.exceptions import illegal_argument

__all__ = ['CheckpointStorage', 'JobManagerCheckpointStorage', 'FileSystemCheckpointStorage',
           'CustomCheckpointStorage']


_DEFAULT_FILE_STATE_THRESHOLD = 20 * 1024      # CheckpointingOptions.FS_SMALL_FILE_THRESHOLD (20 kb)
_DEFAULT_WRITE_BUFFER_SIZE = 4 * 1024          # CheckpointingOptions.FS_WRITE_BUFFER_SIZE


def _checked_path(path) -> str:
    """A checkpoint directory as Flink's ``Path`` prints it (``file:///x/`` -> ``file:/x``); the root
    directory is refused, as Flink does."""
    from pyflink_compat.datastream.state_backend import _flink_path
    from urllib.parse import urlsplit
    normalised = _flink_path(path)
    if urlsplit(normalised).path in ("", "/"):
        raise illegal_argument("Cannot use the root directory for checkpoints.", "<init>")
    return normalised


class CheckpointStorage(object):
    """Base of the checkpoint storages: where checkpoint data is written."""

    def __init__(self, j_checkpoint_storage):
        self._j_checkpoint_storage = j_checkpoint_storage


class JobManagerCheckpointStorage(CheckpointStorage):
    """Checkpoints in the JobManager's memory; ``max_state_size`` defaults to 5 MiB."""

    DEFAULT_MAX_STATE_SIZE = 5 * 1024 * 1024

    def __init__(self, checkpoint_path=None, max_state_size=None,
                 j_jobmanager_checkpoint_storage=None):
        if max_state_size is not None and max_state_size <= 0:
            raise illegal_argument("maxStateSize must be > 0", "<init>")
        super(JobManagerCheckpointStorage, self).__init__(j_jobmanager_checkpoint_storage)
        self._checkpoint_path = _checked_path(checkpoint_path) if checkpoint_path is not None else None
        self._max_state_size = (self.DEFAULT_MAX_STATE_SIZE if max_state_size is None
                                else max_state_size)
        self._savepoint_path = None        # PyFlink's constructors take none (Java's can)

    def get_checkpoint_path(self) -> Optional[str]:
        return self._checkpoint_path

    def get_max_state_size(self) -> int:
        return self._max_state_size

    def get_savepoint_path(self) -> Optional[str]:
        return self._savepoint_path

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
        threshold = -1 if file_state_size_threshold is None else file_state_size_threshold
        if not -1 <= threshold <= self.MAX_FILE_STATE_THRESHOLD:
            raise illegal_argument("The threshold for file state size must be in [-1, %d], where '-1' means to "
                                   "use the value from the deployment's configuration."
                                   % self.MAX_FILE_STATE_THRESHOLD, "<init>")
        if write_buffer_size < -1:
            raise illegal_argument("The write buffer size must be not less than '-1', where '-1' means to use "
                                   "the value from the deployment's configuration.", "<init>")
        super(FileSystemCheckpointStorage, self).__init__(j_filesystem_checkpoint_storage)
        self._checkpoint_path = _checked_path(checkpoint_path) if checkpoint_path is not None else None
        # -1: the configuration's value (state.storage.fs.memory-threshold / write-buffer-size defaults).
        self._file_state_size_threshold = _DEFAULT_FILE_STATE_THRESHOLD if threshold == -1 else threshold
        self._write_buffer_size = _DEFAULT_WRITE_BUFFER_SIZE if write_buffer_size == -1 else write_buffer_size
        self._savepoint_path = None        # PyFlink's constructors take none (Java's can)

    def get_checkpoint_path(self) -> str:
        return self._checkpoint_path

    def get_savepoint_path(self) -> Optional[str]:
        return self._savepoint_path

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

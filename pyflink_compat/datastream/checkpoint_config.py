"""``CheckpointConfig`` and ``ExternalizedCheckpointRetention``
(mirror of ``pyflink.datastream.checkpoint_config`` and
``pyflink.datastream.externalized_checkpoint_retention``).

PyFlink's CheckpointConfig wraps Java's; ours is a plain Python object with the
same getters, setters (which return ``self``), defaults and argument checks
(Java's ``IllegalArgumentException`` messages, raised as
:class:`~pyflink_compat.util.exceptions.JavaStyleError`). The interval turns
durable checkpoints on and the externalized-checkpoint retention decides what is
kept when the job ends (runtime/checkpoints.py); the other settings are recorded
only (see porting_guide/README.md#checkpoints).

Flink 1.x names are accepted too, each warning once per use (porting_guide/README.md#flink-1-names):
``ExternalizedCheckpointCleanup`` and its methods work on the same setting as
``ExternalizedCheckpointRetention``; ``set_checkpoint_storage`` / ``set_checkpoint_storage_dir`` set the
2.x configuration (``execution.checkpointing.storage`` / ``.dir``) of the environment the config belongs to.
"""
from enum import Enum
from typing import Optional

from pyflink_compat.common.time import Duration
from pyflink_compat.datastream.checkpointing_mode import CheckpointingMode
from pyflink_compat.util.deprecation import removed_in_2
from pyflink_compat.util.exceptions import illegal_argument

# As PyFlink 1.20 (2.x lists only CheckpointConfig); ExternalizedCheckpointRetention is importable by name.
__all__ = ['CheckpointConfig', 'ExternalizedCheckpointCleanup']

# The 2.x configuration a 1.x checkpoint storage maps onto (Flink's CheckpointingOptions).
CHECKPOINT_STORAGE_KEY = "execution.checkpointing.storage"
CHECKPOINT_DIR_KEY = "execution.checkpointing.dir"

# Java's CheckpointConfig constants.
_MINIMAL_CHECKPOINT_TIME = 10
_DEFAULT_TIMEOUT = 10 * 60 * 1000
_DEFAULT_MIN_PAUSE_BETWEEN_CHECKPOINTS = 0
_DEFAULT_MAX_CONCURRENT_CHECKPOINTS = 1
_UNLIMITED_TOLERABLE_FAILURE_NUMBER = 2 ** 31 - 1


class ExternalizedCheckpointRetention(Enum):
    """What happens to externalized checkpoints when the job is cancelled.

    :data:`DELETE_ON_CANCELLATION`: delete them (kept if the job FAILED);
    :data:`RETAIN_ON_CANCELLATION`: keep them (delete them by hand);
    :data:`NO_EXTERNALIZED_CHECKPOINTS`: externalized checkpoints are disabled (Flink's default).
    """

    DELETE_ON_CANCELLATION = 0
    RETAIN_ON_CANCELLATION = 1
    NO_EXTERNALIZED_CHECKPOINTS = 2


class ExternalizedCheckpointCleanup(Enum):
    """Flink 1.x's name of :class:`ExternalizedCheckpointRetention` (same members and values).

    Deprecated since Flink 1.19, removed in 2.0: the ``CheckpointConfig`` methods that take or return it
    warn and work on the retention setting.
    """

    DELETE_ON_CANCELLATION = 0
    RETAIN_ON_CANCELLATION = 1
    NO_EXTERNALIZED_CHECKPOINTS = 2


class CheckpointConfig(object):
    """All checkpointing settings of a job.

    Defaults are Flink's: checkpointing disabled (interval -1), EXACTLY_ONCE,
    timeout 10 minutes, no minimum pause, one concurrent checkpoint, no tolerated
    failures, no externalized checkpoints, aligned checkpoints with a 0 s
    aligned-checkpoint timeout.

    ``j_checkpoint_config`` exists for signature compatibility; pass None (or
    another CheckpointConfig, whose settings are copied).
    """

    # Flink 1.x's constants (gone from 2.x's CheckpointConfig).
    DEFAULT_MODE = CheckpointingMode.EXACTLY_ONCE
    DEFAULT_TIMEOUT = _DEFAULT_TIMEOUT
    DEFAULT_MIN_PAUSE_BETWEEN_CHECKPOINTS = _DEFAULT_MIN_PAUSE_BETWEEN_CHECKPOINTS
    DEFAULT_MAX_CONCURRENT_CHECKPOINTS = _DEFAULT_MAX_CONCURRENT_CHECKPOINTS

    def __init__(self, j_checkpoint_config):
        self._checkpoint_interval = -1
        self._checkpointing_mode = CheckpointingMode.EXACTLY_ONCE
        self._checkpoint_timeout = _DEFAULT_TIMEOUT
        self._min_pause_between_checkpoints = _DEFAULT_MIN_PAUSE_BETWEEN_CHECKPOINTS
        self._max_concurrent_checkpoints = _DEFAULT_MAX_CONCURRENT_CHECKPOINTS
        self._tolerable_checkpoint_failure_number = 0
        self._tolerable_failure_number_set = False
        self._externalized_checkpoint_retention = \
            ExternalizedCheckpointRetention.NO_EXTERNALIZED_CHECKPOINTS
        self._unaligned_checkpoints = False
        self._force_unaligned_checkpoints = False
        self._aligned_checkpoint_timeout = Duration.of_millis(0)
        self._checkpoint_storage = None        # set by the 1.x set_checkpoint_storage(_dir)
        self._configuration = None             # the environment's Configuration (StreamExecutionEnvironment)
        if isinstance(j_checkpoint_config, CheckpointConfig):
            self.__dict__.update(j_checkpoint_config.__dict__)

    def is_checkpointing_enabled(self) -> bool:
        """True once a checkpoint interval was set (``enable_checkpointing``)."""
        return self._checkpoint_interval > 0

    def get_checkpointing_mode(self) -> CheckpointingMode:
        return self._checkpointing_mode

    def set_checkpointing_mode(self, checkpointing_mode: CheckpointingMode) -> 'CheckpointConfig':
        if not isinstance(checkpointing_mode, CheckpointingMode):
            raise TypeError("checkpointing_mode must be a CheckpointingMode, got %r"
                            % (checkpointing_mode,))
        self._checkpointing_mode = checkpointing_mode
        return self

    def get_checkpoint_interval(self) -> int:
        """The interval in ms between checkpoints; -1 (or less) if checkpointing is disabled."""
        return self._checkpoint_interval

    def set_checkpoint_interval(self, checkpoint_interval: int) -> 'CheckpointConfig':
        if checkpoint_interval < _MINIMAL_CHECKPOINT_TIME:
            raise illegal_argument("Checkpoint interval must be larger than or equal to %s ms"
                                   % _MINIMAL_CHECKPOINT_TIME, "setCheckpointInterval")
        self._checkpoint_interval = checkpoint_interval
        return self

    def get_checkpoint_timeout(self) -> int:
        return self._checkpoint_timeout

    def set_checkpoint_timeout(self, checkpoint_timeout: int) -> 'CheckpointConfig':
        if checkpoint_timeout < _MINIMAL_CHECKPOINT_TIME:
            raise illegal_argument("Checkpoint timeout must be larger than or equal to %s ms"
                                   % _MINIMAL_CHECKPOINT_TIME, "setCheckpointTimeout")
        self._checkpoint_timeout = checkpoint_timeout
        return self

    def get_min_pause_between_checkpoints(self) -> int:
        return self._min_pause_between_checkpoints

    def set_min_pause_between_checkpoints(self,
                                          min_pause_between_checkpoints: int) -> 'CheckpointConfig':
        if min_pause_between_checkpoints < 0:
            raise illegal_argument("Pause value must be zero or positive",
                                   "setMinPauseBetweenCheckpoints")
        self._min_pause_between_checkpoints = min_pause_between_checkpoints
        return self

    def get_max_concurrent_checkpoints(self) -> int:
        return self._max_concurrent_checkpoints

    def set_max_concurrent_checkpoints(self, max_concurrent_checkpoints: int) -> 'CheckpointConfig':
        if max_concurrent_checkpoints < 1:
            raise illegal_argument(
                "The maximum number of concurrent attempts must be at least one.",
                "setMaxConcurrentCheckpoints")
        self._max_concurrent_checkpoints = max_concurrent_checkpoints
        return self

    def is_fail_on_checkpointing_errors(self) -> bool:
        """True when no checkpoint failure is tolerated (tolerable failure number 0)."""
        return self._tolerable_checkpoint_failure_number == 0

    def set_fail_on_checkpointing_errors(self,
                                         fail_on_checkpointing_errors: bool) -> 'CheckpointConfig':
        """Deprecated in Flink: ignored once ``set_tolerable_checkpoint_failure_number`` was
        called; otherwise True means 0 tolerated failures and False means unlimited."""
        if self._tolerable_failure_number_set:
            return self
        self._tolerable_checkpoint_failure_number = (
            0 if fail_on_checkpointing_errors else _UNLIMITED_TOLERABLE_FAILURE_NUMBER)
        return self

    def get_tolerable_checkpoint_failure_number(self) -> int:
        return self._tolerable_checkpoint_failure_number

    def set_tolerable_checkpoint_failure_number(
            self, tolerable_checkpoint_failure_number: int) -> 'CheckpointConfig':
        if tolerable_checkpoint_failure_number < 0:
            raise illegal_argument(
                "The tolerable failure checkpoint number must be non-negative.",
                "setTolerableCheckpointFailureNumber")
        self._tolerable_checkpoint_failure_number = tolerable_checkpoint_failure_number
        self._tolerable_failure_number_set = True
        return self

    def set_externalized_checkpoint_retention(
            self, retention_mode: 'ExternalizedCheckpointRetention') -> 'CheckpointConfig':
        if not isinstance(retention_mode, ExternalizedCheckpointRetention):
            # PyFlink fails reading the enum's name; the same error, saying what was expected
            raise AttributeError("'%s' object has no attribute 'name' (retention_mode must be an "
                                 "ExternalizedCheckpointRetention, got %r)"
                                 % (type(retention_mode).__name__, retention_mode))
        self._externalized_checkpoint_retention = retention_mode
        return self

    def is_externalized_checkpoints_enabled(self) -> bool:
        return (self._externalized_checkpoint_retention
                != ExternalizedCheckpointRetention.NO_EXTERNALIZED_CHECKPOINTS)

    def get_externalized_checkpoint_retention(self) -> Optional['ExternalizedCheckpointRetention']:
        return self._externalized_checkpoint_retention

    # -- Flink 1.x names ---------------------------------------------------------------------

    def enable_externalized_checkpoints(
            self, cleanup_mode: 'ExternalizedCheckpointCleanup') -> 'CheckpointConfig':
        """Flink 1.x: sets the externalized-checkpoint retention (``set_externalized_checkpoint_retention``)."""
        removed_in_2("CheckpointConfig.enable_externalized_checkpoints",
                     "use set_externalized_checkpoint_retention(ExternalizedCheckpointRetention.%s)"
                     % getattr(cleanup_mode, "name", "..."), "1.15")
        return self._set_cleanup(cleanup_mode)

    def set_externalized_checkpoint_cleanup(
            self, cleanup_mode: 'ExternalizedCheckpointCleanup') -> 'CheckpointConfig':
        """Flink 1.x: sets the externalized-checkpoint retention (``set_externalized_checkpoint_retention``)."""
        removed_in_2("CheckpointConfig.set_externalized_checkpoint_cleanup",
                     "use set_externalized_checkpoint_retention(ExternalizedCheckpointRetention.%s)"
                     % getattr(cleanup_mode, "name", "..."), "1.19")
        return self._set_cleanup(cleanup_mode)

    def get_externalized_checkpoint_cleanup(self) -> Optional['ExternalizedCheckpointCleanup']:
        """Flink 1.x: the externalized-checkpoint retention, as an ``ExternalizedCheckpointCleanup``."""
        removed_in_2("CheckpointConfig.get_externalized_checkpoint_cleanup",
                     "use get_externalized_checkpoint_retention", "1.19")
        return ExternalizedCheckpointCleanup[self._externalized_checkpoint_retention.name]

    def _set_cleanup(self, cleanup_mode):
        if not isinstance(cleanup_mode, (ExternalizedCheckpointCleanup, ExternalizedCheckpointRetention)):
            raise TypeError("cleanup_mode must be an ExternalizedCheckpointCleanup, got %r" % (cleanup_mode,))
        self._externalized_checkpoint_retention = ExternalizedCheckpointRetention[cleanup_mode.name]
        return self

    def set_checkpoint_storage(self, storage) -> 'CheckpointConfig':
        """Flink 1.x: where checkpoints are written. A ``FileSystemCheckpointStorage`` (or a
        ``JobManagerCheckpointStorage`` with a path) sets the environment's ``execution.checkpointing.dir``,
        which is where this job's checkpoints go (porting_guide/README.md#checkpoints)."""
        removed_in_2("CheckpointConfig.set_checkpoint_storage",
                     "set execution.checkpointing.storage and execution.checkpointing.dir in the configuration "
                     "(StreamExecutionEnvironment.configure)", "1.19")
        self._set_storage(storage)
        return self

    def set_checkpoint_storage_dir(self, checkpoint_path: str) -> 'CheckpointConfig':
        """Flink 1.x: ``set_checkpoint_storage(FileSystemCheckpointStorage(checkpoint_path))``."""
        removed_in_2("CheckpointConfig.set_checkpoint_storage_dir",
                     "set execution.checkpointing.dir in the configuration (StreamExecutionEnvironment.configure)",
                     "1.19")
        from pyflink_compat.datastream.checkpoint_storage import FileSystemCheckpointStorage
        self._set_storage(FileSystemCheckpointStorage(checkpoint_path))
        return self

    def get_checkpoint_storage(self):
        """Flink 1.x: the checkpoint storage set on this config (also by ``set_state_backend`` with a 1.x
        backend), or None."""
        removed_in_2("CheckpointConfig.get_checkpoint_storage",
                     "read execution.checkpointing.storage / execution.checkpointing.dir from the configuration",
                     "1.19")
        return self._checkpoint_storage

    def _set_storage(self, storage):
        """Record ``storage`` and write its 2.x configuration into the environment's (no warning)."""
        from pyflink_compat.datastream.checkpoint_storage import (CheckpointStorage, FileSystemCheckpointStorage,
                                                                  JobManagerCheckpointStorage)
        if not isinstance(storage, CheckpointStorage):
            raise TypeError("storage must be a CheckpointStorage, got %r" % (storage,))
        self._checkpoint_storage = storage
        if self._configuration is None:
            return
        if isinstance(storage, FileSystemCheckpointStorage):
            self._configuration.set_string(CHECKPOINT_STORAGE_KEY, "filesystem")
        elif isinstance(storage, JobManagerCheckpointStorage):
            self._configuration.set_string(CHECKPOINT_STORAGE_KEY, "jobmanager")
        path = getattr(storage, "get_checkpoint_path", lambda: None)()
        if path is not None:
            self._configuration.set_string(CHECKPOINT_DIR_KEY, str(path))

    def is_unaligned_checkpoints_enabled(self) -> bool:
        return self._unaligned_checkpoints

    def enable_unaligned_checkpoints(self, enabled: bool = True) -> 'CheckpointConfig':
        self._unaligned_checkpoints = bool(enabled)
        return self

    def disable_unaligned_checkpoints(self) -> 'CheckpointConfig':
        return self.enable_unaligned_checkpoints(False)

    def set_aligned_checkpoint_timeout(self, alignment_timeout: Duration) -> 'CheckpointConfig':
        self._aligned_checkpoint_timeout = alignment_timeout
        return self

    def get_aligned_checkpoint_timeout(self) -> 'Duration':
        return self._aligned_checkpoint_timeout

    def set_alignment_timeout(self, alignment_timeout: Duration) -> 'CheckpointConfig':
        """Deprecated alias of :meth:`set_aligned_checkpoint_timeout`."""
        return self.set_aligned_checkpoint_timeout(alignment_timeout)

    def get_alignment_timeout(self) -> 'Duration':
        """Deprecated alias of :meth:`get_aligned_checkpoint_timeout`."""
        return self.get_aligned_checkpoint_timeout()

    def set_force_unaligned_checkpoints(self,
                                        force_unaligned_checkpoints: bool = True) \
            -> 'CheckpointConfig':
        self._force_unaligned_checkpoints = bool(force_unaligned_checkpoints)
        return self

    def is_force_unaligned_checkpoints(self) -> 'bool':
        return self._force_unaligned_checkpoints

    def __repr__(self):
        return ("CheckpointConfig(interval=%s, mode=%s, timeout=%s, min_pause=%s, "
                "max_concurrent=%s, tolerable_failures=%s, retention=%s, unaligned=%s)" % (
                    self._checkpoint_interval, self._checkpointing_mode.name,
                    self._checkpoint_timeout, self._min_pause_between_checkpoints,
                    self._max_concurrent_checkpoints, self._tolerable_checkpoint_failure_number,
                    self._externalized_checkpoint_retention.name, self._unaligned_checkpoints))

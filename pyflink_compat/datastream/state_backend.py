"""State backends (mirror of ``pyflink.datastream.state_backend``).

In Flink 2.x these can no longer be set on the environment from Python
(``set_state_backend`` was removed); jobs choose a backend through configuration
(``state.backend.type``). They exist here so imports keep working, as plain
configuration holders; nothing reads them yet (keyed state is not provided yet).

Flink 1.x's ``MemoryStateBackend``, ``FsStateBackend`` and ``RocksDBStateBackend`` are here too: each
stands for a 2.x backend plus a checkpoint storage, which Flink 1.x's
``StreamExecutionEnvironment.set_state_backend`` applies (porting_guide/README.md#flink-1-names).
"""
from enum import Enum
from typing import List, Optional

from pyflink_compat.util.exceptions import illegal_argument

__all__ = ['StateBackend', 'HashMapStateBackend', 'EmbeddedRocksDBStateBackend',
           'CustomStateBackend', 'PredefinedOptions',
           'MemoryStateBackend', 'FsStateBackend', 'RocksDBStateBackend']   # Flink 1.x's, as apache-flink 1.20

_DEFAULT_TRANSFER_THREADS = 4


class StateBackend(object):
    """Base of the state backends: how working state is stored and checkpointed."""

    def __init__(self, j_state_backend):
        self._j_state_backend = j_state_backend


class HashMapStateBackend(StateBackend):
    """Keeps working state as objects on the heap (Flink's default backend)."""

    def __init__(self, j_hashmap_state_backend=None):
        super(HashMapStateBackend, self).__init__(j_hashmap_state_backend)

    def __str__(self):
        return "HashMapStateBackend"


class PredefinedOptions(Enum):
    """Predefined RocksDB tuning profiles."""

    DEFAULT = 0
    SPINNING_DISK_OPTIMIZED = 1
    SPINNING_DISK_OPTIMIZED_HIGH_MEM = 2
    FLASH_SSD_OPTIMIZED = 3


class EmbeddedRocksDBStateBackend(StateBackend):
    """Keeps working state in an embedded RocksDB (here: only its settings are recorded)."""

    def __init__(self, enable_incremental_checkpointing=None,
                 j_embedded_rocks_db_state_backend=None):
        if enable_incremental_checkpointing not in (None, True, False):
            raise TypeError("Unsupported input for 'enable_incremental_checkpointing': %s, "
                            "the value of the parameter should be None or True or False."
                            % (enable_incremental_checkpointing,))
        super(EmbeddedRocksDBStateBackend, self).__init__(j_embedded_rocks_db_state_backend)
        self._incremental = bool(enable_incremental_checkpointing)
        self._db_storage_paths = []
        self._predefined_options = PredefinedOptions.DEFAULT
        self._options_factory = None
        self._transfer_threads = _DEFAULT_TRANSFER_THREADS

    def set_db_storage_paths(self, *paths: str):
        """Local directories, kept as Java does: ``file:`` URIs and plain paths as absolute local paths
        (``file:///x/`` -> ``/x``); a relative path or another file system is refused. Recorded only."""
        self._db_storage_paths = [_local_db_path(p) for p in paths if p is not None]

    def get_db_storage_paths(self) -> List[str]:
        return list(self._db_storage_paths)

    def is_incremental_checkpoints_enabled(self) -> bool:
        return self._incremental

    def set_predefined_options(self, options: 'PredefinedOptions'):
        if not isinstance(options, PredefinedOptions):
            raise TypeError("options must be a PredefinedOptions, got %r" % (options,))
        self._predefined_options = options

    def get_predefined_options(self) -> 'PredefinedOptions':
        return self._predefined_options

    def set_options(self, options_factory_class_name: str):
        self._options_factory = options_factory_class_name

    def get_options(self) -> Optional[str]:
        return self._options_factory

    def get_number_of_transfer_threads(self) -> int:
        return self._transfer_threads

    def set_number_of_transfer_threads(self, number_of_transfering_threads: int):
        self._transfer_threads = number_of_transfering_threads

    def __str__(self):
        return "EmbeddedRocksDBStateBackend{incremental=%s}" % self._incremental


class CustomStateBackend(StateBackend):
    """A state backend implemented in Java (kept, never used: there is no JVM)."""

    def __init__(self, j_custom_state_backend):
        super(CustomStateBackend, self).__init__(j_custom_state_backend)


# -- Flink 1.x state backends (deprecated since 1.13, removed in 2.0) ---------------------------------------
# Each is a 2.x state backend plus a checkpoint storage, as Flink's migration guide says
# (porting_guide/README.md#flink-1-names); constructing one warns. ``set_state_backend`` applies both.

_DEFAULT_FILE_STATE_THRESHOLD = 20 * 1024      # CheckpointingOptions.FS_SMALL_FILE_THRESHOLD (20 kb)
_DEFAULT_WRITE_BUFFER_SIZE = 4 * 1024          # CheckpointingOptions.FS_WRITE_BUFFER_SIZE


def _flink_path(uri: str) -> str:
    """A URI as Flink's ``Path`` prints it: ``file:///x/`` -> ``file:/x``, ``hdfs://nn:8020/x`` unchanged."""
    from urllib.parse import urlsplit
    text = str(uri)
    parts = urlsplit(text)
    if not parts.scheme or len(parts.scheme) == 1:      # a plain path (or a Windows drive letter)
        path = text
        prefix = ""
    else:
        path = parts.path
        prefix = parts.scheme + ":" + ("//" + parts.netloc if parts.netloc else "")
    while "//" in path:
        path = path.replace("//", "/")
    if len(path) > 1 and path.endswith("/"):
        path = path[:-1]
    return prefix + path


def _local_db_path(path: str) -> str:
    """A RocksDB storage directory as Java's ``setDbStoragePaths`` keeps it."""
    import posixpath
    from urllib.parse import urlsplit
    normalised = _flink_path(path)
    parts = urlsplit(normalised)
    if parts.scheme and len(parts.scheme) > 1:
        if parts.scheme != "file":
            raise illegal_argument("Path %s has a non-local scheme" % path, "setDbStoragePaths")
        local = parts.path
    else:
        local = normalised
    if not local.startswith("/"):
        raise illegal_argument("Relative paths are not supported", "setDbStoragePaths")
    return posixpath.normpath(local)


def _check_ternary(value, parameter: str):
    if value not in (None, True, False):
        raise TypeError("Unsupported input for '%s': %s, the value of the parameter should be None or "
                        "True or False." % (parameter, value))


class MemoryStateBackend(StateBackend):
    """Flink 1.x: state on the heap, checkpoints in the JobManager's memory. Deprecated since Flink 1.13,
    removed in 2.0: ``HashMapStateBackend`` with ``JobManagerCheckpointStorage``."""

    DEFAULT_MAX_STATE_SIZE = 5 * 1024 * 1024

    def __init__(self,
                 checkpoint_path=None,
                 savepoint_path=None,
                 max_state_size=None,
                 using_asynchronous_snapshots=None,
                 j_memory_state_backend=None):
        from pyflink_compat.util.deprecation import removed_in_2
        removed_in_2("MemoryStateBackend", "use HashMapStateBackend with JobManagerCheckpointStorage", "1.13")
        _check_ternary(using_asynchronous_snapshots, "using_asynchronous_snapshots")
        super(MemoryStateBackend, self).__init__(j_memory_state_backend)
        self._checkpoint_path = checkpoint_path
        self._savepoint_path = savepoint_path
        self._max_state_size = self.DEFAULT_MAX_STATE_SIZE if max_state_size is None else max_state_size
        self._asynchronous = using_asynchronous_snapshots

    def get_max_state_size(self) -> int:
        return self._max_state_size

    def is_using_asynchronous_snapshots(self) -> bool:
        return True if self._asynchronous is None else self._asynchronous

    def _migration(self):
        """The 2.x state backend and checkpoint storage this backend stands for."""
        from pyflink_compat.datastream.checkpoint_storage import JobManagerCheckpointStorage
        return HashMapStateBackend(), JobManagerCheckpointStorage(self._checkpoint_path, self._max_state_size)

    def __str__(self):
        return "MemoryStateBackend (data in heap memory / checkpoints to JobManager) (checkpoints: '%s', " \
               "savepoints: '%s', asynchronous: %s, maxStateSize: %d)" % (
                   self._checkpoint_path, self._savepoint_path,
                   "UNDEFINED" if self._asynchronous is None else str(self._asynchronous).upper(),
                   self._max_state_size)


class FsStateBackend(StateBackend):
    """Flink 1.x: state on the heap, checkpoints as files under ``checkpoint_directory_uri``. Deprecated since
    Flink 1.13, removed in 2.0: ``HashMapStateBackend`` with ``FileSystemCheckpointStorage``."""

    def __init__(self,
                 checkpoint_directory_uri=None,
                 default_savepoint_directory_uri=None,
                 file_state_size_threshold=None,
                 write_buffer_size=None,
                 using_asynchronous_snapshots=None,
                 j_fs_state_backend=None):
        from pyflink_compat.util.deprecation import removed_in_2
        removed_in_2("FsStateBackend", "use HashMapStateBackend with FileSystemCheckpointStorage", "1.13")
        self._setup(checkpoint_directory_uri, default_savepoint_directory_uri, file_state_size_threshold,
                    write_buffer_size, using_asynchronous_snapshots, j_fs_state_backend)

    @classmethod
    def _quietly(cls, checkpoint_directory_uri) -> 'FsStateBackend':
        """One made by ``RocksDBStateBackend(uri)`` (without a second warning)."""
        backend = cls.__new__(cls)
        backend._setup(checkpoint_directory_uri, None, None, None, None, None)
        return backend

    def _setup(self, checkpoint_directory_uri, default_savepoint_directory_uri, file_state_size_threshold,
               write_buffer_size, using_asynchronous_snapshots, j_fs_state_backend):
        if checkpoint_directory_uri is None:
            raise ValueError("The parameter 'checkpoint_directory_uri' is required!")
        _check_ternary(using_asynchronous_snapshots, "using_asynchronous_snapshots")
        super(FsStateBackend, self).__init__(j_fs_state_backend)
        self._checkpoint_path = _flink_path(checkpoint_directory_uri)
        self._savepoint_path = (None if default_savepoint_directory_uri is None
                                else _flink_path(default_savepoint_directory_uri))
        self._file_state_size_threshold = -1 if file_state_size_threshold is None else file_state_size_threshold
        self._write_buffer_size = -1 if write_buffer_size is None else write_buffer_size
        self._asynchronous = using_asynchronous_snapshots

    def get_checkpoint_path(self) -> str:
        """The checkpoint directory, as Flink's ``Path`` prints it (``file:///x`` -> ``file:/x``)."""
        return self._checkpoint_path

    def get_min_file_size_threshold(self) -> int:
        """State smaller than this goes into the checkpoint's metadata (Flink's default 20 KiB if unset)."""
        if self._file_state_size_threshold >= 0:
            return self._file_state_size_threshold
        return _DEFAULT_FILE_STATE_THRESHOLD

    def is_using_asynchronous_snapshots(self) -> bool:
        return True if self._asynchronous is None else self._asynchronous

    def get_write_buffer_size(self) -> int:
        """Flink's default 4 KiB if unset."""
        return self._write_buffer_size if self._write_buffer_size >= 0 else _DEFAULT_WRITE_BUFFER_SIZE

    def _migration(self):
        from pyflink_compat.datastream.checkpoint_storage import FileSystemCheckpointStorage
        return HashMapStateBackend(), FileSystemCheckpointStorage(
            self._checkpoint_path, None if self._file_state_size_threshold < 0 else self._file_state_size_threshold,
            self._write_buffer_size)

    def __str__(self):
        return "File State Backend (checkpoints: '%s', savepoints: '%s', asynchronous: %s, " \
               "fileStateThreshold: %d)" % (
                   self._checkpoint_path, self._savepoint_path,
                   "UNDEFINED" if self._asynchronous is None else str(self._asynchronous).upper(),
                   self._file_state_size_threshold)


class RocksDBStateBackend(StateBackend):
    """Flink 1.x: state in an embedded RocksDB, checkpoints through ``checkpoint_data_uri`` (an
    ``FsStateBackend``) or ``checkpoint_stream_backend``. Deprecated since Flink 1.13, removed in 2.0:
    ``EmbeddedRocksDBStateBackend`` with ``FileSystemCheckpointStorage``. Its RocksDB settings are those of an
    ``EmbeddedRocksDBStateBackend`` (recorded only)."""

    def __init__(self,
                 checkpoint_data_uri=None,
                 enable_incremental_checkpointing=None,
                 checkpoint_stream_backend=None,
                 j_rocks_db_state_backend=None):
        from pyflink_compat.util.deprecation import removed_in_2
        removed_in_2("RocksDBStateBackend", "use EmbeddedRocksDBStateBackend with FileSystemCheckpointStorage",
                     "1.13")
        _check_ternary(enable_incremental_checkpointing, "enable_incremental_checkpointing")
        if checkpoint_data_uri is not None:
            checkpoint_backend = FsStateBackend._quietly(checkpoint_data_uri)
        elif isinstance(checkpoint_stream_backend, StateBackend):
            checkpoint_backend = checkpoint_stream_backend
        else:
            raise ValueError("RocksDBStateBackend needs checkpoint_data_uri or checkpoint_stream_backend")
        super(RocksDBStateBackend, self).__init__(j_rocks_db_state_backend)
        self._checkpoint_backend = checkpoint_backend
        self._rocksdb = EmbeddedRocksDBStateBackend(enable_incremental_checkpointing)

    def get_checkpoint_backend(self):
        """The backend checkpoints are written through (an ``FsStateBackend`` for ``checkpoint_data_uri``)."""
        return self._checkpoint_backend

    def set_db_storage_paths(self, *paths: str):
        self._rocksdb.set_db_storage_paths(*paths)

    def get_db_storage_paths(self) -> List[str]:
        return self._rocksdb.get_db_storage_paths()

    def is_incremental_checkpoints_enabled(self) -> bool:
        return self._rocksdb.is_incremental_checkpoints_enabled()

    def set_predefined_options(self, options: PredefinedOptions):
        self._rocksdb.set_predefined_options(options)

    def get_predefined_options(self) -> PredefinedOptions:
        return self._rocksdb.get_predefined_options()

    def set_options(self, options_factory_class_name: str):
        self._rocksdb.set_options(options_factory_class_name)

    def get_options(self) -> Optional[str]:
        return self._rocksdb.get_options()

    def get_number_of_transfering_threads(self) -> int:
        return self._rocksdb.get_number_of_transfer_threads()

    def set_number_of_transfering_threads(self, number_of_transfering_threads: int):
        self._rocksdb.set_number_of_transfer_threads(number_of_transfering_threads)

    def _migration(self):
        backend = self._checkpoint_backend
        storage = backend._migration()[1] if hasattr(backend, "_migration") else None
        return self._rocksdb, storage

    def __str__(self):
        return "RocksDBStateBackend{checkpointStreamBackend=%s, incremental=%s}" % (
            self._checkpoint_backend, self._rocksdb.is_incremental_checkpoints_enabled())

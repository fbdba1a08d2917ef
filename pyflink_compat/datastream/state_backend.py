"""State backends (mirror of ``pyflink.datastream.state_backend``).

In Flink 2.x these can no longer be set on the environment from Python
(``set_state_backend`` was removed); jobs choose a backend through configuration
(``state.backend.type``). They exist here so imports keep working, as plain
configuration holders; nothing reads them yet (keyed state is not provided yet).
"""
from enum import Enum
from typing import List, Optional

__all__ = ['StateBackend', 'HashMapStateBackend', 'EmbeddedRocksDBStateBackend',
           'CustomStateBackend', 'PredefinedOptions']

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
        self._db_storage_paths = [p for p in paths if p is not None]

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

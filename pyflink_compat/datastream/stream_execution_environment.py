"""StreamExecutionEnvironment (mirror of ``pyflink.datastream.stream_execution_environment``).

Holds the job's configuration and the sinks registered so far; ``execute()``
hands them to the translation (``runtime.job``), which runs one Spark
Structured Streaming query per sink.
"""
import logging
import os
import pickle
import sys
from typing import Any, List

from pyflink_compat.common.configuration import Configuration
from pyflink_compat.common.typeinfo import Types, TypeInformation
from pyflink_compat.datastream.checkpoint_config import CheckpointConfig
from pyflink_compat.datastream.checkpointing_mode import CheckpointingMode
from pyflink_compat.datastream.data_stream import DataStream
from pyflink_compat.datastream.execution_mode import RuntimeExecutionMode
from pyflink_compat.datastream.functions import SourceFunction
from pyflink_compat.plan import graph
from pyflink_compat.plan.job import JobPlan
from pyflink_compat.runtime import launch
from pyflink_compat.util.deprecation import removed_in_2
from pyflink_compat.util.exceptions import illegal_argument, no_effect, unsupported

log = logging.getLogger("pyflink_compat")

__all__ = ['StreamExecutionEnvironment']

DEFAULT_JOB_NAME = "Flink Streaming Job"

# KeyGroupRangeAssignment.UPPER_BOUND_MAX_PARALLELISM
_UPPER_BOUND_MAX_PARALLELISM = 1 << 15

_DURATION_UNITS = {
    "ns": 1e-6, "nano": 1e-6, "nanos": 1e-6, "nanosecond": 1e-6, "nanoseconds": 1e-6,
    "us": 1e-3, "\u00b5s": 1e-3, "micro": 1e-3, "micros": 1e-3, "microsecond": 1e-3, "microseconds": 1e-3,
    "": 1, "ms": 1, "milli": 1, "millis": 1, "millisecond": 1, "milliseconds": 1,
    "s": 1000, "sec": 1000, "secs": 1000, "second": 1000, "seconds": 1000,
    "m": 60000, "min": 60000, "mins": 60000, "minute": 60000, "minutes": 60000,
    "h": 3600000, "hour": 3600000, "hours": 3600000,
    "d": 86400000, "day": 86400000, "days": 86400000,
}


def _spec_of(strategy):
    """The plan's form of a WatermarkStrategy (None stays None)."""
    return None if strategy is None else strategy._j_watermark_strategy


def _duration_millis(key: str, value) -> int:
    """A duration option as Flink's TimeUtils.parseDuration reads it ("1 min", "500ms", "12000" = ms)."""
    import re
    match = re.fullmatch(r"\s*(\d+)\s*([a-z\u00b5]*)\s*", str(value).lower())
    if not match or match.group(2) not in _DURATION_UNITS:
        raise illegal_argument("Could not parse value '%s' for key '%s'." % (value, key), "configure")
    return int(int(match.group(1)) * _DURATION_UNITS[match.group(2)])


def _boolean(key: str, value) -> bool:
    text = str(value).strip().lower()
    if text not in ("true", "false"):
        raise illegal_argument("Could not parse value '%s' for key '%s'." % (value, key), "configure")
    return text == "true"


def _integer(key: str, value) -> int:
    try:
        return int(str(value).strip())
    except ValueError:
        raise illegal_argument("Could not parse value '%s' for key '%s'." % (value, key), "configure") from None


def _job_parameters(value) -> dict:
    """``pipeline.global-job-parameters`` ("k1:v1,k2:v2", or a dict)."""
    if isinstance(value, dict):
        return {str(k): str(v) for k, v in value.items()}
    result = {}
    for entry in str(value).split(","):
        if entry.strip():
            key, _, val = entry.partition(":")
            result[key.strip()] = val.strip()
    return result


class PickleSerializer(object):
    """The default ``serializer`` of a StreamExecutionEnvironment, as in PyFlink (``pyflink.serializers``).

    Kept for the signature; pyflink-compat's runtime pickles elements itself.
    """

    def dumps(self, obj) -> bytes:
        return pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)

    def loads(self, data: bytes):
        return pickle.loads(data)

    def __eq__(self, other):
        return isinstance(other, self.__class__)

    def __hash__(self):
        return hash(self.__class__)

    def __repr__(self):
        return "%s()" % self.__class__.__name__


class StreamExecutionEnvironment(object):
    """The context a job runs in; ``get_execution_environment()`` creates one."""

    # Java's static default local parallelism: the parallelism of environments created from now on
    # (when parallelism.default does not set one). set_default_local_parallelism changes it.
    _default_local_parallelism = os.cpu_count() or 1

    def __init__(self, j_stream_execution_environment, serializer=PickleSerializer()):
        configuration: Configuration = j_stream_execution_environment
        self._configuration = configuration
        self._sinks: List[graph.Node] = []
        self._streams: dict = {}         # node id -> every stream node the job created (Flink runs them all)
        self._runtime_mode = RuntimeExecutionMode.STREAMING
        self._checkpoint_config = CheckpointConfig(None)
        self._checkpoint_config._configuration = configuration     # 1.x checkpoint storage -> 2.x keys
        self._state_backend = None                                 # Flink 1.x's set_state_backend
        self._time_characteristic = None                           # Flink 1.x's; EventTime when unset
        self._buffer_timeout = 100
        self._chaining = True
        self._changelog_state_backend = None                       # None: not configured
        self._savepoint_directory = None
        # One ExecutionConfig per environment, as in PyFlink; the parallelism and max parallelism live in it,
        # so that env.set_parallelism and get_config().set_parallelism are the same setting.
        from pyflink_compat.common import ExecutionConfig
        self._execution_config = ExecutionConfig(None)
        self._execution_config._configuration = configuration      # 1.x restart strategy -> 2.x keys
        self._parallelism = StreamExecutionEnvironment._default_local_parallelism
        self._apply_configuration(configuration)
        if launch.cli_parallelism is not None:
            self._parallelism = launch.cli_parallelism

    @property
    def _parallelism(self) -> int:
        return self._execution_config._parallelism

    @_parallelism.setter
    def _parallelism(self, parallelism: int):
        self._execution_config._parallelism = parallelism

    @property
    def _max_parallelism(self) -> int:
        return self._execution_config._max_parallelism

    @_max_parallelism.setter
    def _max_parallelism(self, max_parallelism: int):
        self._execution_config._max_parallelism = max_parallelism

    @staticmethod
    def get_execution_environment(configuration: Configuration = None) -> 'StreamExecutionEnvironment':
        merged = Configuration()
        for key, value in launch.cli_configuration.items():
            merged.set_string(key, value)
        if configuration is not None:
            merged.add_all(configuration)
        return StreamExecutionEnvironment(merged)

    # -- configuration ------------------------------------------------------------------------

    def get_config(self):
        # One per environment, as in PyFlink: settings made on it stay.
        return self._execution_config

    def configure(self, configuration: Configuration):
        """Adds ``configuration`` to the job's and, as Flink's ``configure``, applies the options it sets to
        the environment, its ExecutionConfig and its CheckpointConfig (their getters show them)."""
        self._configuration.add_all(configuration)
        self._apply_configuration(configuration)

    def _apply_configuration(self, configuration: Configuration):
        options = configuration.to_dict()

        def option(*keys):
            for key in keys:
                if key in options:
                    return key, options[key]
            return None, None

        config, checkpoints = self._execution_config, self._checkpoint_config
        key, value = option("pipeline.operator-chaining.enabled", "pipeline.operator-chaining")
        if key:
            self._chaining = _boolean(key, value)
        key, value = option("execution.buffer-timeout.interval", "execution.buffer-timeout")
        if key:
            self._buffer_timeout = _duration_millis(key, value)
        key, value = option("execution.buffer-timeout.enabled")
        if key and not _boolean(key, value):
            self._buffer_timeout = -1
        key, value = option("parallelism.default")
        if key:
            config.set_parallelism(_integer(key, value))
        key, value = option("pipeline.max-parallelism")
        if key:
            self.set_max_parallelism(_integer(key, value))
        key, value = option("pipeline.auto-watermark-interval")
        if key:
            config.set_auto_watermark_interval(_duration_millis(key, value))
        key, value = option("pipeline.object-reuse")
        if key:
            config._object_reuse = _boolean(key, value)
        key, value = option("pipeline.closure-cleaner-level")
        if key:
            config._closure_cleaner = str(value).strip().upper() != "NONE"
        key, value = option("pipeline.auto-generate-uids")
        if key:
            config._auto_generated_uids = _boolean(key, value)
        key, value = option("pipeline.global-job-parameters")
        if key:
            config.set_global_job_parameters(_job_parameters(value))
        key, value = option("state.changelog.enabled")
        if key:
            self._changelog_state_backend = _boolean(key, value)
        key, value = option("execution.runtime-mode")
        if key:
            try:
                self._runtime_mode = RuntimeExecutionMode[str(value).strip().upper()]
            except KeyError:
                raise illegal_argument("Could not parse value '%s' for key '%s'." % (value, key),
                                       "configure") from None
        key, value = option("execution.checkpointing.interval")
        if key:
            checkpoints.set_checkpoint_interval(_duration_millis(key, value))
        key, value = option("execution.checkpointing.mode")
        if key:
            try:
                checkpoints.set_checkpointing_mode(CheckpointingMode[str(value).strip().upper()])
            except KeyError:
                raise illegal_argument("Could not parse value '%s' for key '%s'." % (value, key),
                                       "configure") from None
        key, value = option("execution.checkpointing.timeout")
        if key:
            checkpoints.set_checkpoint_timeout(_duration_millis(key, value))
        key, value = option("execution.checkpointing.min-pause")
        if key:
            checkpoints.set_min_pause_between_checkpoints(_duration_millis(key, value))
        key, value = option("execution.checkpointing.max-concurrent-checkpoints")
        if key:
            checkpoints.set_max_concurrent_checkpoints(_integer(key, value))
        key, value = option("execution.checkpointing.tolerable-failed-checkpoints")
        if key:
            checkpoints.set_tolerable_checkpoint_failure_number(_integer(key, value))

    def set_parallelism(self, parallelism: int) -> 'StreamExecutionEnvironment':
        """At least 1, or -1 (``ExecutionConfig.PARALLELISM_DEFAULT``); the same setting as
        ``get_config().set_parallelism``."""
        self._execution_config.set_parallelism(parallelism)
        return self

    def get_parallelism(self) -> int:
        return self._parallelism

    def set_max_parallelism(self, max_parallelism: int) -> 'StreamExecutionEnvironment':
        if not 0 < max_parallelism <= _UPPER_BOUND_MAX_PARALLELISM:
            raise illegal_argument("maxParallelism is out of bounds 0 < maxParallelism <= %d. Found: %d"
                                   % (_UPPER_BOUND_MAX_PARALLELISM, max_parallelism), "setMaxParallelism")
        self._max_parallelism = max_parallelism
        return self

    def get_max_parallelism(self) -> int:
        return self._max_parallelism

    def get_default_local_parallelism(self) -> int:
        return StreamExecutionEnvironment._default_local_parallelism

    def set_default_local_parallelism(self, parallelism: int):
        """As Java's static setter: the parallelism of local environments created afterwards; this
        environment's parallelism does not change."""
        StreamExecutionEnvironment._default_local_parallelism = parallelism

    def set_runtime_mode(self, execution_mode: RuntimeExecutionMode):
        # PyFlink returns the Java environment here, not self; callers do not chain on it.
        self._runtime_mode = execution_mode
        return self

    def set_buffer_timeout(self, timeout_millis: int) -> 'StreamExecutionEnvironment':
        if timeout_millis < -1:
            raise illegal_argument("Timeout of buffer must be non-negative or -1", "setBufferTimeout")
        self._buffer_timeout = timeout_millis
        return self

    def get_buffer_timeout(self) -> int:
        return self._buffer_timeout

    def disable_operator_chaining(self) -> 'StreamExecutionEnvironment':
        self._chaining = False
        return self

    def is_chaining_enabled(self) -> bool:
        return self._chaining

    def is_chaining_of_operators_with_different_max_parallelism_enabled(self) -> bool:
        return True

    @no_effect("Spark has no task slots: it schedules tasks itself")
    def register_slot_sharing_group(self, slot_sharing_group) -> 'StreamExecutionEnvironment':
        return self

    def get_checkpoint_config(self) -> CheckpointConfig:
        return self._checkpoint_config

    def enable_checkpointing(self, interval: int, mode: CheckpointingMode = None) -> 'StreamExecutionEnvironment':
        self._checkpoint_config.set_checkpoint_interval(interval)
        if mode is not None:
            self._checkpoint_config.set_checkpointing_mode(mode)
        return self

    def get_checkpoint_interval(self) -> int:
        return self._checkpoint_config.get_checkpoint_interval()

    def get_checkpointing_mode(self) -> CheckpointingMode:
        return self._checkpoint_config.get_checkpointing_mode()

    def get_checkpointing_consistency_mode(self) -> CheckpointingMode:
        return self._checkpoint_config.get_checkpointing_mode()

    def is_unaligned_checkpoints_enabled(self):
        return self._checkpoint_config.is_unaligned_checkpoints_enabled()

    def is_force_unaligned_checkpoints(self):
        return self._checkpoint_config.is_force_unaligned_checkpoints()

    def enable_changelog_state_backend(self, enabled: bool) -> 'StreamExecutionEnvironment':
        """Recorded (``state.changelog.enabled``); Spark's state store has no changelog backend."""
        self._changelog_state_backend = bool(enabled)
        self._configuration.set_string("state.changelog.enabled", "true" if enabled else "false")
        return self

    def is_changelog_state_backend_enabled(self):
        """True/False once enabled or disabled (here or by ``state.changelog.enabled``); None until then."""
        return self._changelog_state_backend

    def set_default_savepoint_directory(self, directory: str) -> 'StreamExecutionEnvironment':
        """Recorded as Flink's ``Path`` prints it (``file:///x/`` -> ``file:/x``)."""
        from pyflink_compat.datastream.state_backend import _flink_path
        self._savepoint_directory = _flink_path(directory)
        return self

    def get_default_savepoint_directory(self):
        return self._savepoint_directory

    # -- Flink 1.x names (removed in 2.0): accepted, mapped onto the 2.x settings, each use warns -------------
    # (porting_guide/README.md#flink-1-names)

    def set_stream_time_characteristic(self, characteristic):
        """Flink 1.x. Event time is always on (as in Flink since 1.12): the value is recorded and, as in
        Flink, sets the automatic watermark interval (0 for ProcessingTime, else 200 ms)."""
        removed_in_2("StreamExecutionEnvironment.set_stream_time_characteristic",
                     "event time is always on; choose event or processing time per window assigner and set "
                     "watermarks with a WatermarkStrategy", "1.12")
        from pyflink_compat.datastream.time_characteristic import TimeCharacteristic
        if not isinstance(characteristic, TimeCharacteristic):
            raise TypeError("characteristic must be a TimeCharacteristic, got %r" % (characteristic,))
        self._time_characteristic = characteristic
        self.get_config().set_auto_watermark_interval(
            0 if characteristic is TimeCharacteristic.ProcessingTime else 200)

    def get_stream_time_characteristic(self):
        """Flink 1.x: what ``set_stream_time_characteristic`` set; ``EventTime`` (Flink 1.12+'s default)."""
        removed_in_2("StreamExecutionEnvironment.get_stream_time_characteristic",
                     "event time is always on (no replacement)", "1.12")
        from pyflink_compat.datastream.time_characteristic import TimeCharacteristic
        return self._time_characteristic or TimeCharacteristic.EventTime

    def set_state_backend(self, state_backend) -> 'StreamExecutionEnvironment':
        """Flink 1.x: sets ``state.backend.type`` and, for ``FsStateBackend`` / ``MemoryStateBackend`` /
        ``RocksDBStateBackend``, the checkpoint storage they stand for (``execution.checkpointing.storage`` and
        ``execution.checkpointing.dir``) unless one was set on the checkpoint config."""
        removed_in_2("StreamExecutionEnvironment.set_state_backend",
                     "set state.backend.type (hashmap or rocksdb) and execution.checkpointing.dir in the "
                     "configuration (configure)", "1.19")
        from pyflink_compat.datastream.state_backend import (EmbeddedRocksDBStateBackend, HashMapStateBackend,
                                                             StateBackend)
        if not isinstance(state_backend, StateBackend):
            raise TypeError("state_backend must be a StateBackend, got %r" % (state_backend,))
        self._state_backend = state_backend
        backend, storage = (state_backend._migration() if hasattr(state_backend, "_migration")
                            else (state_backend, None))
        if isinstance(backend, HashMapStateBackend):
            self._configuration.set_string("state.backend.type", "hashmap")
        elif isinstance(backend, EmbeddedRocksDBStateBackend):
            self._configuration.set_string("state.backend.type", "rocksdb")
            self._configuration.set_string("execution.checkpointing.incremental",
                                           "true" if backend.is_incremental_checkpoints_enabled() else "false")
        if storage is not None and self._checkpoint_config._checkpoint_storage is None:
            # As Flink 1.x: a checkpoint storage set explicitly wins over the one the backend implies; the
            # checkpoint config's get_checkpoint_storage() stays None, as in Flink.
            self._checkpoint_config._set_storage(storage)
            self._checkpoint_config._checkpoint_storage = None
        return self

    def get_state_backend(self):
        """Flink 1.x: the backend ``set_state_backend`` set, or None."""
        removed_in_2("StreamExecutionEnvironment.get_state_backend",
                     "read state.backend.type from the configuration", "1.19")
        return self._state_backend

    def set_restart_strategy(self, restart_strategy_configuration):
        """Flink 1.x: ``get_config().set_restart_strategy``: writes ``restart-strategy.type`` and its options.
        Recorded only: pyflink-compat does not restart a failed job."""
        removed_in_2("StreamExecutionEnvironment.set_restart_strategy",
                     "set restart-strategy.type and its options in the configuration (configure)", "1.19")
        self.get_config()._set_restart_strategy(restart_strategy_configuration)

    def get_restart_strategy(self):
        removed_in_2("StreamExecutionEnvironment.get_restart_strategy",
                     "read restart-strategy.type from the configuration", "1.19")
        return self.get_config()._get_restart_strategy()

    def add_default_kryo_serializer(self, type_class_name: str, serializer_class_name: str):
        """Flink 1.x: recorded on ``get_config()`` (no effect: pyflink-compat does not use Kryo)."""
        removed_in_2("StreamExecutionEnvironment.add_default_kryo_serializer",
                     "configure pipeline.serialization-config", "1.19")
        self.get_config()._default_kryo_serializers[type_class_name] = serializer_class_name

    def register_type_with_kryo_serializer(self, type_class_name: str, serializer_class_name: str):
        removed_in_2("StreamExecutionEnvironment.register_type_with_kryo_serializer",
                     "configure pipeline.serialization-config", "1.19")
        self.get_config()._kryo_serializers[type_class_name] = serializer_class_name

    def register_type(self, type_class_name: str):
        """Flink 1.x: recorded among ``get_config().get_registered_kryo_types()`` (Flink registered POJO
        classes as POJO types; without a JVM the class cannot be inspected)."""
        removed_in_2("StreamExecutionEnvironment.register_type", "configure pipeline.serialization-config",
                     "1.19")
        config = self.get_config()
        config._register(config._kryo_types, type_class_name)

    def read_text_file(self, file_path: str, charset_name: str = "UTF-8") -> DataStream:
        """Flink 1.x's file source: not provided (file sources are not; see the connectors section)."""
        removed_in_2("StreamExecutionEnvironment.read_text_file",
                     "use FileSource (pyflink.datastream.connectors.file_system)")
        unsupported("StreamExecutionEnvironment.read_text_file", "connectors",
                    "file sources are not provided")()

    # Jars and Python dependencies: Spark needs no connector jar, and the job's Python
    # environment is the one pyflink-compat runs in. Accepted and logged.
    def add_jars(self, *jars_path: str):
        log.info("add_jars(%s) accepted and ignored: pyflink-compat needs no connector jars", ", ".join(jars_path))

    def add_classpaths(self, *classpaths: str):
        log.info("add_classpaths(%s) accepted and ignored", ", ".join(classpaths))

    def add_python_file(self, file_path: str):
        """Put a ``.py`` file (its directory), a ``.zip``/``.whl``/``.egg`` or a directory on the path of the
        Python workers (``python.files``, as PyFlink); on this process's path too."""
        full = os.path.abspath(os.path.expanduser(file_path))
        path = os.path.dirname(full) if full.endswith(".py") and os.path.isfile(full) else full
        if path not in sys.path:
            sys.path.append(path)
        self._append_to("python.files", file_path)

    def set_python_requirements(self, requirements_file_path: str, requirements_cache_dir: str = None):
        """Install these requirements for the Python workers when the job runs (``python.requirements``;
        from ``requirements_cache_dir`` only, offline, when given)."""
        value = requirements_file_path
        if requirements_cache_dir is not None:
            value = "%s#%s" % (requirements_file_path, requirements_cache_dir)
        self._configuration.set_string("python.requirements", value)

    def add_python_archive(self, archive_path: str, target_dir: str = None):
        """Extract an archive for the Python workers, into a directory named ``target_dir`` (default: the
        archive's file name); ``set_python_executable`` may name a Python inside it (``python.archives``)."""
        if target_dir is not None:
            archive_path = "%s#%s" % (archive_path, target_dir)
        self._append_to("python.archives", archive_path)

    def set_python_executable(self, python_exec: str):
        """The Python that runs the workers (``python.executable``); it needs pyflink-compat installed."""
        self._configuration.set_string("python.executable", python_exec)

    def _append_to(self, key: str, entry: str):
        existing = self._configuration.get_string(key, "")
        self._configuration.set_string(key, ",".join([e for e in existing.split(",") if e] + [entry]))

    register_cached_file = unsupported("StreamExecutionEnvironment.register_cached_file", "unsupported-apis")
    create_input = unsupported("StreamExecutionEnvironment.create_input", "connectors")

    def add_source(self, source_func: SourceFunction, source_name: str = 'Custom Source',
                   type_info: TypeInformation = None) -> DataStream:
        """A stream from a legacy ``SourceFunction``: ``FlinkKafkaConsumer`` is provided (read as a
        KafkaSource with the legacy semantics); other source functions are not."""
        from pyflink_compat.datastream.connectors.kafka_legacy import FlinkKafkaConsumerBase
        if not isinstance(source_func, FlinkKafkaConsumerBase):
            unsupported("StreamExecutionEnvironment.add_source(%s)" % type(source_func).__name__,
                        "legacy-kafka-api", "only FlinkKafkaConsumer is provided")()
        produced = type_info or source_func.get_produced_type()
        node = graph.Node(kind=graph.KAFKA_SOURCE, name="Source: %s" % source_name, output_type=produced,
                          payload=source_func._to_source_spec(),
                          watermark_spec=_spec_of(source_func._settings.watermark_strategy))
        return DataStream((node, self))

    # -- sources ------------------------------------------------------------------------------

    def from_source(self, source, watermark_strategy, source_name: str,
                    type_info: TypeInformation = None) -> DataStream:
        from pyflink_compat.datastream.connectors.kafka import KafkaSource
        if not isinstance(source, KafkaSource):
            unsupported("StreamExecutionEnvironment.from_source(%s)" % type(source).__name__, "connectors")()
        produced = type_info or source._spec.value_deserializer.produced_type()
        # PyFlink passes only the Java strategy here: a Python timestamp assigner is ignored and
        # event time is the Kafka record timestamp.
        node = graph.Node(kind=graph.KAFKA_SOURCE, name="Source: %s" % source_name, output_type=produced,
                          payload=source._spec, watermark_spec=_spec_of(watermark_strategy))
        return DataStream((node, self))

    def from_collection(self, collection: List[Any], type_info: TypeInformation = None) -> DataStream:
        """A bounded, non-parallel source of ``collection`` (converted to ``type_info`` when given)."""
        if type_info is None:
            elements = tuple(collection)
            output_type = Types.PICKLED_BYTE_ARRAY()
        else:
            elements = tuple(type_info.from_internal_type(type_info.to_internal_type(e))
                             if e is not None else None for e in collection)
            output_type = type_info
        node = graph.Node(kind=graph.COLLECTION_SOURCE, name="Source: Collection Source",
                          output_type=output_type, payload=graph.CollectionSourceSpec(elements), parallelism=1)
        return DataStream((node, self))

    def _from_datagen(self, spec: graph.DataGenSpec, row_type: TypeInformation, source_name: str,
                      parallelism: int = None) -> DataStream:
        """The rows of a Flink SQL 'datagen' table (the Table API's planner makes these)."""
        node = graph.Node(kind=graph.DATAGEN_SOURCE, name="Source: %s" % source_name, output_type=row_type,
                          payload=spec, parallelism=parallelism)
        return DataStream((node, self))

    # -- execution ----------------------------------------------------------------------------

    def _created(self, node: graph.Node):
        self._streams[node.id] = node

    def _add_sink(self, node: graph.Node):
        self._sinks.append(node)

    def _dangling(self) -> List[graph.Node]:
        return graph.dangling_ends(list(self._streams.values()), self._sinks)

    def _take_sinks(self) -> List[graph.Node]:
        """The job's sinks, and a discarding sink after each stream nothing reads; the environment starts over."""
        sinks = self._sinks + [graph.discard_sink(end) for end in self._dangling()]
        self._sinks, self._streams = [], {}
        return sinks

    def _job_plan(self, sinks) -> JobPlan:
        """The job as the runtime gets it: the sinks and this environment's settings, as plain values."""
        checkpoint_config = self.get_checkpoint_config()
        return JobPlan(sinks=tuple(sinks), configuration=self._configuration.to_dict(),
                       parallelism=self.get_parallelism(), max_parallelism=self.get_max_parallelism(),
                       runtime_mode=self._runtime_mode,
                       checkpointing=checkpoint_config.is_checkpointing_enabled(),
                       checkpoint_retention=checkpoint_config.get_externalized_checkpoint_retention().name)

    def get_execution_plan(self) -> str:
        from pyflink_compat.plan import flink_json
        return flink_json.execution_plan(
            self._sinks + [graph.discard_sink(end) for end in self._dangling()], self._parallelism,
            python_chaining=self._configuration.get_boolean("python.operator-chaining.enabled", True))

    def execute(self, job_name: str = None):
        """Run the job until every bounded source is read (forever for unbounded ones)."""
        from pyflink_compat.runtime import job
        result = job.execute(self._job_plan(self._take_sinks()), job_name or DEFAULT_JOB_NAME)
        launch.report_result(result)
        return result

    def execute_async(self, job_name: str = 'Flink Streaming Job'):
        from pyflink_compat.runtime import job
        return job.execute_async(self._job_plan(self._take_sinks()), job_name)

    def close(self):
        self._sinks, self._streams = [], {}

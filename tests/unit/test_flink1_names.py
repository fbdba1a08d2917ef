"""Flink 1.x names (apache-flink 1.20) that Flink 2.0 removed: accepted, mapped onto the 2.x settings, and
each use warns once naming the replacement (porting_guide/README.md#flink-1-names)."""
import warnings
from datetime import timedelta

import pytest

from pyflink_compat.common import ExecutionMode, InputDependencyConstraint
from pyflink_compat.common.restart_strategy import RestartStrategies
from pyflink_compat.datastream import (CheckpointConfig, EmbeddedRocksDBStateBackend, ExternalizedCheckpointCleanup,
                                       ExternalizedCheckpointRetention, FileSystemCheckpointStorage, FsStateBackend,
                                       HashMapStateBackend, JobManagerCheckpointStorage, MemoryStateBackend,
                                       PredefinedOptions, RocksDBStateBackend, StreamExecutionEnvironment,
                                       TimeCharacteristic)
from pyflink_compat.util.exceptions import UnsupportedFeatureError


def one_warning(call, *names):
    """Run ``call``; exactly one DeprecationWarning, on one line, naming each of ``names``. Returns the result."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = call()
    deprecations = [w for w in caught if issubclass(w.category, DeprecationWarning)]
    assert len(deprecations) == 1, [str(w.message) for w in deprecations]
    text = str(deprecations[0].message)
    assert "\n" not in text and "removed in 2.0" in text
    for name in names:
        assert name in text, text
    assert deprecations[0].filename == __file__          # points at the job's line
    return result


def quietly(call):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return call()


@pytest.fixture
def env():
    return StreamExecutionEnvironment.get_execution_environment()


def test_enums_have_flink_1_20_values_and_importing_them_does_not_warn():
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        from pyflink_compat.common.execution_mode import ExecutionMode as Mode
        from pyflink_compat.datastream.time_characteristic import TimeCharacteristic as Characteristic
        assert [(m.name, m.value) for m in Mode] == [
            ('PIPELINED', 0), ('PIPELINED_FORCED', 1), ('BATCH', 2), ('BATCH_FORCED', 3)]
        assert [(m.name, m.value) for m in Characteristic] == [
            ('ProcessingTime', 0), ('IngestionTime', 1), ('EventTime', 2)]
        assert [(m.name, m.value) for m in ExternalizedCheckpointCleanup] == [
            ('DELETE_ON_CANCELLATION', 0), ('RETAIN_ON_CANCELLATION', 1), ('NO_EXTERNALIZED_CHECKPOINTS', 2)]
        assert CheckpointConfig.DEFAULT_MODE.name == "EXACTLY_ONCE"
        assert (CheckpointConfig.DEFAULT_TIMEOUT, CheckpointConfig.DEFAULT_MIN_PAUSE_BETWEEN_CHECKPOINTS,
                CheckpointConfig.DEFAULT_MAX_CONCURRENT_CHECKPOINTS) == (600000, 0, 1)


def test_the_pyflink_names_resolve_to_ours():
    from pyflink_compat import aliasing
    aliasing.install_finder()
    from pyflink.common import ExecutionMode as Mode
    from pyflink.datastream import TimeCharacteristic as Characteristic
    from pyflink.datastream.checkpoint_config import ExternalizedCheckpointCleanup as Cleanup
    from pyflink.datastream.state_backend import FsStateBackend as Fs
    assert (Mode, Characteristic, Cleanup, Fs) == (ExecutionMode, TimeCharacteristic,
                                                   ExternalizedCheckpointCleanup, FsStateBackend)


def test_time_characteristic_is_recorded_with_flink_s_watermark_interval(env):
    assert one_warning(env.get_stream_time_characteristic, "get_stream_time_characteristic") \
        is TimeCharacteristic.EventTime                               # Flink 1.12+'s default
    one_warning(lambda: env.set_stream_time_characteristic(TimeCharacteristic.ProcessingTime),
                "set_stream_time_characteristic", "WatermarkStrategy")
    assert quietly(env.get_stream_time_characteristic) is TimeCharacteristic.ProcessingTime
    assert env.get_config().get_auto_watermark_interval() == 0
    quietly(lambda: env.set_stream_time_characteristic(TimeCharacteristic.EventTime))
    assert env.get_config().get_auto_watermark_interval() == 200
    with pytest.raises(TypeError):
        quietly(lambda: env.set_stream_time_characteristic("EventTime"))


@pytest.mark.parametrize("setter", ["enable_externalized_checkpoints", "set_externalized_checkpoint_cleanup"])
def test_externalized_checkpoint_cleanup_is_the_retention(env, setter):
    config = env.get_checkpoint_config()
    assert one_warning(config.get_externalized_checkpoint_cleanup, "get_externalized_checkpoint_retention") \
        is ExternalizedCheckpointCleanup.NO_EXTERNALIZED_CHECKPOINTS
    result = one_warning(lambda: getattr(config, setter)(ExternalizedCheckpointCleanup.RETAIN_ON_CANCELLATION),
                         setter, "set_externalized_checkpoint_retention(ExternalizedCheckpointRetention."
                                 "RETAIN_ON_CANCELLATION)")
    assert result is config
    assert config.get_externalized_checkpoint_retention() is ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION
    assert config.is_externalized_checkpoints_enabled()
    config.set_externalized_checkpoint_retention(ExternalizedCheckpointRetention.DELETE_ON_CANCELLATION)
    assert quietly(config.get_externalized_checkpoint_cleanup) is ExternalizedCheckpointCleanup.DELETE_ON_CANCELLATION
    with pytest.raises(TypeError):
        quietly(lambda: getattr(config, setter)("RETAIN_ON_CANCELLATION"))


def test_checkpoint_storage_sets_the_2x_configuration(env):
    config = env.get_checkpoint_config()
    assert one_warning(config.get_checkpoint_storage, "get_checkpoint_storage") is None
    one_warning(lambda: config.set_checkpoint_storage_dir("file:///tmp/ckpt"), "execution.checkpointing.dir")
    storage = quietly(config.get_checkpoint_storage)
    # As Flink's Path prints it (PyFlink's test_checkpoint_storage: "file://var/checkpoints/" -> "file://var/checkpoints").
    assert isinstance(storage, FileSystemCheckpointStorage) and storage.get_checkpoint_path() == "file:/tmp/ckpt"
    settings = env._configuration.to_dict()
    assert (settings["execution.checkpointing.storage"], settings["execution.checkpointing.dir"]) == (
        "filesystem", "file:/tmp/ckpt")
    one_warning(lambda: config.set_checkpoint_storage(JobManagerCheckpointStorage()), "set_checkpoint_storage")
    assert env._configuration.to_dict()["execution.checkpointing.storage"] == "jobmanager"
    with pytest.raises(TypeError):
        quietly(lambda: config.set_checkpoint_storage("file:///tmp/x"))


def test_fs_state_backend_is_hashmap_with_file_system_storage(env):
    backend = one_warning(lambda: FsStateBackend("file:///tmp/fs-checkpoints/"), "FsStateBackend",
                          "HashMapStateBackend with FileSystemCheckpointStorage")
    assert backend.get_checkpoint_path() == "file:/tmp/fs-checkpoints"          # as Flink's Path prints it
    assert (backend.get_min_file_size_threshold(), backend.get_write_buffer_size()) == (20 * 1024, 4096)
    assert backend.is_using_asynchronous_snapshots()
    state, storage = backend._migration()
    assert isinstance(state, HashMapStateBackend) and isinstance(storage, FileSystemCheckpointStorage)
    assert storage.get_checkpoint_path() == "file:/tmp/fs-checkpoints"
    assert one_warning(lambda: env.set_state_backend(backend), "set_state_backend", "state.backend.type") is env
    assert one_warning(env.get_state_backend, "get_state_backend") is backend
    settings = env._configuration.to_dict()
    assert settings["state.backend.type"] == "hashmap"
    assert settings["execution.checkpointing.dir"] == "file:/tmp/fs-checkpoints"
    assert quietly(env.get_checkpoint_config().get_checkpoint_storage) is None   # as in Flink 1.20
    with pytest.raises(ValueError, match="checkpoint_directory_uri"):
        quietly(FsStateBackend)


def test_an_explicit_checkpoint_storage_wins_over_the_backend_s(env):
    quietly(lambda: env.get_checkpoint_config().set_checkpoint_storage_dir("/tmp/explicit"))
    quietly(lambda: env.set_state_backend(FsStateBackend("file:///tmp/from-backend")))
    assert env._configuration.to_dict()["execution.checkpointing.dir"] == "/tmp/explicit"


def test_memory_state_backend_is_hashmap_with_jobmanager_storage(env):
    backend = one_warning(MemoryStateBackend, "MemoryStateBackend", "JobManagerCheckpointStorage")
    assert backend.get_max_state_size() == MemoryStateBackend.DEFAULT_MAX_STATE_SIZE == 5 * 1024 * 1024
    state, storage = backend._migration()
    assert isinstance(state, HashMapStateBackend) and isinstance(storage, JobManagerCheckpointStorage)
    quietly(lambda: env.set_state_backend(backend))
    settings = env._configuration.to_dict()
    assert (settings["state.backend.type"], settings["execution.checkpointing.storage"]) == ("hashmap", "jobmanager")
    assert "execution.checkpointing.dir" not in settings


def test_rocksdb_state_backend_is_embedded_rocksdb_with_file_system_storage(env):
    backend = one_warning(lambda: RocksDBStateBackend("file:///tmp/rocks", True), "RocksDBStateBackend",
                          "EmbeddedRocksDBStateBackend with FileSystemCheckpointStorage")
    checkpoint_backend = backend.get_checkpoint_backend()
    assert isinstance(checkpoint_backend, FsStateBackend)
    assert checkpoint_backend.get_checkpoint_path() == "file:/tmp/rocks"
    assert backend.is_incremental_checkpoints_enabled()
    backend.set_number_of_transfering_threads(8)
    backend.set_predefined_options(PredefinedOptions.FLASH_SSD_OPTIMIZED)
    backend.set_db_storage_paths("/a", "/b")
    assert (backend.get_number_of_transfering_threads(), backend.get_predefined_options(),
            backend.get_db_storage_paths()) == (8, PredefinedOptions.FLASH_SSD_OPTIMIZED, ["/a", "/b"])
    state, storage = backend._migration()
    assert isinstance(state, EmbeddedRocksDBStateBackend) and state.get_number_of_transfer_threads() == 8
    assert storage.get_checkpoint_path() == "file:/tmp/rocks"
    quietly(lambda: env.set_state_backend(backend))
    settings = env._configuration.to_dict()
    assert (settings["state.backend.type"], settings["execution.checkpointing.incremental"],
            settings["execution.checkpointing.dir"]) == ("rocksdb", "true", "file:/tmp/rocks")
    assert not quietly(lambda: RocksDBStateBackend("file:///x")).is_incremental_checkpoints_enabled()


def test_restart_strategy_is_written_as_2x_configuration(env):
    assert isinstance(one_warning(env.get_restart_strategy, "get_restart_strategy"),
                      RestartStrategies.FallbackRestartStrategyConfiguration)      # Flink 1.20's default
    one_warning(lambda: env.set_restart_strategy(RestartStrategies.fixed_delay_restart(3, 10000)),
                "set_restart_strategy", "restart-strategy.type")
    settings = env._configuration.to_dict()
    assert (settings["restart-strategy.type"], settings["restart-strategy.fixed-delay.attempts"],
            settings["restart-strategy.fixed-delay.delay"]) == ("fixed-delay", "3", "10000 ms")
    strategy = quietly(env.get_restart_strategy)
    assert strategy == RestartStrategies.fixed_delay_restart(3, timedelta(seconds=10))
    assert strategy.get_restart_attempts() == 3
    assert strategy.get_delay_between_attempts_interval() == timedelta(seconds=10)
    assert strategy.get_description() == "Restart with fixed delay (PT10S). #3 restart attempts."
    config = env.get_config()
    one_warning(lambda: config.set_restart_strategy(RestartStrategies.failure_rate_restart(2, 60000, 500)),
                "ExecutionConfig.set_restart_strategy")
    settings = env._configuration.to_dict()
    assert settings["restart-strategy.type"] == "failure-rate"
    assert "restart-strategy.fixed-delay.attempts" not in settings
    rate = quietly(config.get_restart_strategy)
    assert (rate.get_max_failure_rate(), rate.get_failure_interval(), rate.get_delay_between_attempts_interval()) \
        == (2, timedelta(minutes=1), timedelta(milliseconds=500))
    quietly(lambda: env.set_restart_strategy(RestartStrategies.no_restart()))
    assert isinstance(quietly(env.get_restart_strategy), RestartStrategies.NoRestartStrategyConfiguration)
    quietly(lambda: env.set_restart_strategy(RestartStrategies.fall_back_restart()))
    assert "restart-strategy.type" not in env._configuration.to_dict()
    with pytest.raises(TypeError):
        RestartStrategies.fixed_delay_restart(3, "10 s")


def test_kryo_and_pojo_registrations_are_remembered(env):
    config = env.get_config()
    one_warning(lambda: env.register_type("com.example.Order"), "register_type", "pipeline.serialization-config")
    one_warning(lambda: env.add_default_kryo_serializer("com.example.A", "com.example.ASer"),
                "add_default_kryo_serializer")
    one_warning(lambda: env.register_type_with_kryo_serializer("com.example.B", "com.example.BSer"),
                "register_type_with_kryo_serializer")
    one_warning(lambda: config.register_kryo_type("com.example.C"), "register_kryo_type")
    quietly(lambda: config.register_kryo_type("com.example.C"))
    one_warning(lambda: config.register_pojo_type("com.example.P"), "register_pojo_type")
    assert config.get_registered_kryo_types() == ["com.example.Order", "com.example.C"]
    assert config.get_registered_pojo_types() == ["com.example.P"]
    assert config.get_default_kryo_serializer_classes() == {"com.example.A": "com.example.ASer"}
    assert one_warning(config.get_registered_types_with_kryo_serializer_classes,
                       "get_registered_types_with_kryo_serializer_classes") == {"com.example.B": "com.example.BSer"}


def test_execution_config_1x_settings(env):
    config = env.get_config()
    assert one_warning(config.get_execution_mode, "get_execution_mode", "set_runtime_mode") is ExecutionMode.PIPELINED
    one_warning(lambda: config.set_execution_mode(ExecutionMode.BATCH), "set_execution_mode")
    assert quietly(config.get_execution_mode) is ExecutionMode.BATCH
    assert quietly(config.get_default_input_dependency_constraint) is InputDependencyConstraint.ANY
    one_warning(lambda: config.set_default_input_dependency_constraint(InputDependencyConstraint.ALL),
                "set_default_input_dependency_constraint", "1.13")
    assert quietly(config.get_default_input_dependency_constraint) is InputDependencyConstraint.ALL
    assert one_warning(config.is_auto_type_registration_disabled, "pipeline.auto-type-registration") is False
    one_warning(config.disable_auto_type_registration, "disable_auto_type_registration")
    assert quietly(config.is_auto_type_registration_disabled) is True


def test_read_text_file_names_the_connectors_section(env):
    with pytest.raises(UnsupportedFeatureError, match="read_text_file") as e:
        one_warning(lambda: env.read_text_file("/tmp/in.txt"), "read_text_file", "FileSource")
    assert e.value.section == "connectors"


def test_a_flink_1_job_setup_builds(env, tmp_path):
    from pyflink_compat.common import Types
    from pyflink_compat.datastream import CheckpointingMode
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        env.set_stream_time_characteristic(TimeCharacteristic.EventTime)
        env.enable_checkpointing(10000, CheckpointingMode.EXACTLY_ONCE)
        env.set_state_backend(FsStateBackend(tmp_path.as_uri()))
        config = env.get_checkpoint_config()
        config.enable_externalized_checkpoints(ExternalizedCheckpointCleanup.RETAIN_ON_CANCELLATION)
        config.set_min_pause_between_checkpoints(500)
        env.set_restart_strategy(RestartStrategies.fixed_delay_restart(3, 10000))
        env.get_config().register_kryo_type("com.example.Order")
        stream = env.from_collection([1, 2, 3], type_info=Types.INT()).map(lambda x: x * 2, Types.INT())
        stream.print()
        plan = env.get_execution_plan()
    assert len([w for w in caught if issubclass(w.category, DeprecationWarning)]) == 6
    assert plan
    settings = env._configuration.to_dict()
    assert settings["execution.checkpointing.dir"] == "file:" + str(tmp_path)
    assert settings["restart-strategy.type"] == "fixed-delay"
    assert config.get_externalized_checkpoint_retention() is ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION
    # The runtime's checkpoint directory is the FsStateBackend's
    from pyflink_compat.runtime import checkpoints
    assert checkpoints._local_path(settings["execution.checkpointing.dir"]) == str(tmp_path)


def test_row_formats_import_from_pyflink_common_serialization_as_in_flink_1_15():
    import importlib
    old = importlib.import_module("pyflink_compat.common.serialization")
    for name, fmt in (("JsonRowSerializationSchema", "json"), ("JsonRowDeserializationSchema", "json"),
                      ("CsvRowSerializationSchema", "csv"), ("CsvRowDeserializationSchema", "csv"),
                      ("AvroRowSerializationSchema", "avro"), ("AvroRowDeserializationSchema", "avro")):
        with pytest.warns(DeprecationWarning, match="pyflink.datastream.formats.%s" % fmt) as caught:
            got = getattr(old, name)
        assert len(caught) == 1
        assert got is getattr(importlib.import_module("pyflink_compat.datastream.formats." + fmt), name)
    with pytest.raises(AttributeError, match="'pyflink.common.serialization' has no attribute 'Nope'"):
        old.Nope

"""Behaviours PyFlink's own unit tests check of CheckpointConfig, checkpoint storages and state backends.

Ported from what flink-python's ``datastream/tests/test_check_point_config.py``,
``test_checkpoint_storage.py`` and ``test_state_backend.py`` check (no JVM needed), with PyFlink 2.3.0's values
and Java's argument checks.
"""
import pytest
from py4j.protocol import Py4JJavaError

from pyflink_compat.common import Duration
from pyflink_compat.datastream import CheckpointingMode, StreamExecutionEnvironment
from pyflink_compat.datastream.checkpoint_config import ExternalizedCheckpointRetention
from pyflink_compat.datastream.checkpoint_storage import FileSystemCheckpointStorage, JobManagerCheckpointStorage
from pyflink_compat.datastream.state_backend import EmbeddedRocksDBStateBackend, PredefinedOptions


@pytest.fixture
def env():
    return StreamExecutionEnvironment.get_execution_environment()


@pytest.fixture
def checkpoint_config(env):
    return env.get_checkpoint_config()


# -- CheckpointConfig -----------------------------------------------------------------------------

def test_is_checkpointing_enabled(env, checkpoint_config):
    assert not checkpoint_config.is_checkpointing_enabled()
    env.enable_checkpointing(1000)
    assert checkpoint_config.is_checkpointing_enabled()
    assert checkpoint_config.get_checkpoint_interval() == 1000


def test_get_set_checkpointing_mode(env, checkpoint_config):
    env.enable_checkpointing(1000)
    assert checkpoint_config.get_checkpointing_mode() == CheckpointingMode.EXACTLY_ONCE
    checkpoint_config.set_checkpointing_mode(CheckpointingMode.AT_LEAST_ONCE)
    assert checkpoint_config.get_checkpointing_mode() == CheckpointingMode.AT_LEAST_ONCE
    checkpoint_config.set_checkpointing_mode(CheckpointingMode.EXACTLY_ONCE)
    assert checkpoint_config.get_checkpointing_mode() == CheckpointingMode.EXACTLY_ONCE


def test_get_set_interval_timeout_pause_and_concurrency(checkpoint_config):
    assert checkpoint_config.get_checkpoint_interval() == -1
    checkpoint_config.set_checkpoint_interval(1000)
    assert checkpoint_config.get_checkpoint_interval() == 1000
    assert checkpoint_config.get_checkpoint_timeout() == 600000
    checkpoint_config.set_checkpoint_timeout(300000)
    assert checkpoint_config.get_checkpoint_timeout() == 300000
    assert checkpoint_config.get_min_pause_between_checkpoints() == 0
    checkpoint_config.set_min_pause_between_checkpoints(100000)
    assert checkpoint_config.get_min_pause_between_checkpoints() == 100000
    assert checkpoint_config.get_max_concurrent_checkpoints() == 1
    checkpoint_config.set_max_concurrent_checkpoints(2)
    assert checkpoint_config.get_max_concurrent_checkpoints() == 2
    assert checkpoint_config.get_tolerable_checkpoint_failure_number() == 0
    checkpoint_config.set_tolerable_checkpoint_failure_number(3)
    assert checkpoint_config.get_tolerable_checkpoint_failure_number() == 3


@pytest.mark.parametrize("setter, value", [
    ("set_checkpoint_interval", 9), ("set_checkpoint_timeout", 9), ("set_min_pause_between_checkpoints", -1),
    ("set_max_concurrent_checkpoints", 0), ("set_tolerable_checkpoint_failure_number", -1)])
def test_checkpoint_config_argument_checks(checkpoint_config, setter, value):
    with pytest.raises(Py4JJavaError):
        getattr(checkpoint_config, setter)(value)


def test_externalized_checkpoint_retention(checkpoint_config):
    assert not checkpoint_config.is_externalized_checkpoints_enabled()
    assert checkpoint_config.get_externalized_checkpoint_retention() == \
        ExternalizedCheckpointRetention.NO_EXTERNALIZED_CHECKPOINTS
    checkpoint_config.set_externalized_checkpoint_retention(ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION)
    assert checkpoint_config.is_externalized_checkpoints_enabled()
    assert checkpoint_config.get_externalized_checkpoint_retention() == \
        ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION
    checkpoint_config.set_externalized_checkpoint_retention(ExternalizedCheckpointRetention.DELETE_ON_CANCELLATION)
    assert checkpoint_config.get_externalized_checkpoint_retention() == \
        ExternalizedCheckpointRetention.DELETE_ON_CANCELLATION


def test_unaligned_checkpoints(checkpoint_config):
    assert not checkpoint_config.is_unaligned_checkpoints_enabled()
    assert not checkpoint_config.is_force_unaligned_checkpoints()
    assert checkpoint_config.get_alignment_timeout() == Duration.of_millis(0)
    checkpoint_config.enable_unaligned_checkpoints()
    assert checkpoint_config.is_unaligned_checkpoints_enabled()
    checkpoint_config.disable_unaligned_checkpoints()
    assert not checkpoint_config.is_unaligned_checkpoints_enabled()
    checkpoint_config.enable_unaligned_checkpoints(True)
    assert checkpoint_config.is_unaligned_checkpoints_enabled()
    checkpoint_config.set_force_unaligned_checkpoints(True)
    assert checkpoint_config.is_force_unaligned_checkpoints()
    checkpoint_config.set_alignment_timeout(Duration.of_minutes(1))
    assert checkpoint_config.get_alignment_timeout() == Duration.of_minutes(1)
    assert checkpoint_config.get_aligned_checkpoint_timeout() == Duration.of_minutes(1)


# -- JobManagerCheckpointStorage --------------------------------------------------------------------

def test_jobmanager_checkpoint_storage_max_state_size():
    assert JobManagerCheckpointStorage.DEFAULT_MAX_STATE_SIZE == 5 * 1024 * 1024
    assert JobManagerCheckpointStorage().get_max_state_size() == JobManagerCheckpointStorage.DEFAULT_MAX_STATE_SIZE
    assert JobManagerCheckpointStorage(max_state_size=50000).get_max_state_size() == 50000
    for bad in (0, -5):
        with pytest.raises(Py4JJavaError, match="maxStateSize must be > 0"):
            JobManagerCheckpointStorage(max_state_size=bad)


def test_jobmanager_checkpoint_storage_path():
    assert JobManagerCheckpointStorage().get_checkpoint_path() is None
    assert JobManagerCheckpointStorage("file://var/checkpoints/").get_checkpoint_path() == "file://var/checkpoints"
    assert JobManagerCheckpointStorage("file:///tmp/cp/", 10000000).get_checkpoint_path() == "file:/tmp/cp"


# -- FileSystemCheckpointStorage ----------------------------------------------------------------------

def test_fs_checkpoint_storage_path_as_flink_path_prints_it():
    assert FileSystemCheckpointStorage("file://var/checkpoints/").get_checkpoint_path() == "file://var/checkpoints"
    assert FileSystemCheckpointStorage("file:///tmp/a/").get_checkpoint_path() == "file:/tmp/a"
    assert FileSystemCheckpointStorage("hdfs://nn:8020/cp/").get_checkpoint_path() == "hdfs://nn:8020/cp"
    assert FileSystemCheckpointStorage("s3://bucket/a//b/").get_checkpoint_path() == "s3://bucket/a/b"


def test_fs_checkpoint_storage_refuses_the_root_directory():
    with pytest.raises(Py4JJavaError, match="Cannot use the root directory for checkpoints"):
        FileSystemCheckpointStorage("file:///")


def test_fs_checkpoint_storage_min_file_size_threshold():
    assert FileSystemCheckpointStorage("file://var/checkpoints/").get_min_file_size_threshold() == 20480
    assert FileSystemCheckpointStorage("file://var/checkpoints/", -1).get_min_file_size_threshold() == 20480
    assert FileSystemCheckpointStorage("file://var/checkpoints/",
                                       file_state_size_threshold=2048).get_min_file_size_threshold() == 2048
    assert FileSystemCheckpointStorage("file://var/checkpoints/", 0).get_min_file_size_threshold() == 0
    assert FileSystemCheckpointStorage("file://var/checkpoints/", 1024 * 1024).get_min_file_size_threshold() == \
        1024 * 1024
    for bad in (-2, 1024 * 1024 + 1):
        with pytest.raises(Py4JJavaError, match=r"The threshold for file state size must be in \[-1, 1048576\]"):
            FileSystemCheckpointStorage("file://var/checkpoints/", bad)


def test_fs_checkpoint_storage_write_buffer_size():
    assert FileSystemCheckpointStorage("file://var/checkpoints/").get_write_buffer_size() == 4096
    assert FileSystemCheckpointStorage("file://var/checkpoints/", 2048, 4096).get_write_buffer_size() == 4096
    assert FileSystemCheckpointStorage("file://var/checkpoints/", 2048, 1024).get_write_buffer_size() == 1024
    with pytest.raises(Py4JJavaError, match="The write buffer size must be not less than '-1'"):
        FileSystemCheckpointStorage("file://var/checkpoints/", 10, -2)


def test_fs_checkpoint_storage_needs_a_path():
    with pytest.raises(ValueError, match="checkpoint_path must not be None"):
        FileSystemCheckpointStorage(None)


# -- EmbeddedRocksDBStateBackend -------------------------------------------------------------------------

def test_rocksdb_db_storage_paths_are_local_absolute_paths():
    backend = EmbeddedRocksDBStateBackend()
    backend.set_db_storage_paths("file://var/db_storage_dir1/", "file:///tmp/db2/", "/tmp/db3/")
    assert backend.get_db_storage_paths() == ["/db_storage_dir1", "/tmp/db2", "/tmp/db3"]


def test_rocksdb_db_storage_paths_refuse_relative_and_remote_paths():
    with pytest.raises(Py4JJavaError, match="Relative paths are not supported"):
        EmbeddedRocksDBStateBackend().set_db_storage_paths("rel/path")
    with pytest.raises(Py4JJavaError, match="Path hdfs://nn/x has a non-local scheme"):
        EmbeddedRocksDBStateBackend().set_db_storage_paths("hdfs://nn/x")


def test_rocksdb_settings():
    backend = EmbeddedRocksDBStateBackend()
    assert not backend.is_incremental_checkpoints_enabled()
    assert EmbeddedRocksDBStateBackend(True).is_incremental_checkpoints_enabled()
    assert backend.get_predefined_options() == PredefinedOptions.DEFAULT
    for options in (PredefinedOptions.SPINNING_DISK_OPTIMIZED_HIGH_MEM, PredefinedOptions.SPINNING_DISK_OPTIMIZED,
                    PredefinedOptions.FLASH_SSD_OPTIMIZED, PredefinedOptions.DEFAULT):
        backend.set_predefined_options(options)
        assert backend.get_predefined_options() == options
    assert backend.get_options() is None
    backend.set_options("org.apache.flink.contrib.streaming.state.DefaultConfigurableOptionsFactory")
    assert backend.get_options() == "org.apache.flink.contrib.streaming.state.DefaultConfigurableOptionsFactory"
    assert backend.get_number_of_transfer_threads() == 4
    backend.set_number_of_transfer_threads(8)
    assert backend.get_number_of_transfer_threads() == 8

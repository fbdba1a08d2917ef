"""Behaviours PyFlink's own unit tests check of StreamExecutionEnvironment and ExecutionConfig (no JVM needed).

Ported from what flink-python's ``datastream/tests/test_stream_execution_environment.py`` and
``common/tests/test_execution_config.py`` check, with the values PyFlink 2.3.0 gives where they differ from
the older tests (argument checks, configure() reflected by the getters).
"""
import pytest
from py4j.protocol import Py4JJavaError

from pyflink_compat.common import Configuration, ExecutionConfig
from pyflink_compat.datastream import CheckpointConfig, CheckpointingMode, StreamExecutionEnvironment
from pyflink_compat.datastream.execution_mode import RuntimeExecutionMode


@pytest.fixture
def env():
    saved = StreamExecutionEnvironment._default_local_parallelism
    yield StreamExecutionEnvironment.get_execution_environment()
    StreamExecutionEnvironment._default_local_parallelism = saved


# -- StreamExecutionEnvironment getters after setters -----------------------------------------------

def test_get_config_and_checkpoint_config_types(env):
    assert isinstance(env.get_config(), ExecutionConfig)
    assert env.get_config() is env.get_config()
    assert isinstance(env.get_checkpoint_config(), CheckpointConfig)


def test_get_set_parallelism_and_max_parallelism(env):
    env.set_parallelism(10)
    assert env.get_parallelism() == 10
    env.set_max_parallelism(12)
    assert env.get_max_parallelism() == 12


def test_parallelism_is_one_setting_with_the_execution_config(env):
    env.set_parallelism(3)
    assert env.get_config().get_parallelism() == 3
    env.get_config().set_parallelism(5)
    assert env.get_parallelism() == 5
    env.get_config().set_max_parallelism(20)
    assert env.get_max_parallelism() == 20


def test_default_local_parallelism_does_not_change_the_job_parallelism(env):
    env.set_parallelism(2)
    env.set_default_local_parallelism(8)
    assert env.get_default_local_parallelism() == 8
    assert env.get_parallelism() == 2
    # Java's setter is static: environments created afterwards start with it.
    later = StreamExecutionEnvironment.get_execution_environment()
    assert later.get_default_local_parallelism() == 8
    assert later.get_parallelism() == 8


def test_parallelism_argument_checks(env):
    for bad in (0, -3):
        with pytest.raises(Py4JJavaError, match="Parallelism must be at least one"):
            env.set_parallelism(bad)
    env.set_parallelism(4)
    env.set_parallelism(ExecutionConfig.PARALLELISM_UNKNOWN)      # ignored
    assert env.get_parallelism() == 4
    env.set_parallelism(ExecutionConfig.PARALLELISM_DEFAULT)
    assert env.get_parallelism() == -1


@pytest.mark.parametrize("bad", [0, -1, 32769])
def test_max_parallelism_bounds(env, bad):
    with pytest.raises(Py4JJavaError, match="maxParallelism is out of bounds 0 < maxParallelism <= 32768"):
        env.set_max_parallelism(bad)


def test_max_parallelism_upper_bound_is_allowed(env):
    env.set_max_parallelism(32768)
    assert env.get_max_parallelism() == 32768


def test_get_set_buffer_timeout(env):
    assert env.get_buffer_timeout() == 100
    env.set_buffer_timeout(12000)
    assert env.get_buffer_timeout() == 12000
    env.set_buffer_timeout(0)
    assert env.get_buffer_timeout() == 0
    env.set_buffer_timeout(-1)
    assert env.get_buffer_timeout() == -1
    with pytest.raises(Py4JJavaError, match="Timeout of buffer must be non-negative or -1"):
        env.set_buffer_timeout(-2)


def test_operator_chaining(env):
    assert env.is_chaining_enabled()
    env.disable_operator_chaining()
    assert not env.is_chaining_enabled()


def test_checkpoint_interval_and_mode_through_the_environment(env):
    assert env.get_checkpoint_interval() == -1
    env.enable_checkpointing(30000)
    assert env.get_checkpoint_interval() == 30000
    assert env.get_checkpointing_mode() == CheckpointingMode.EXACTLY_ONCE
    env.enable_checkpointing(30000, CheckpointingMode.AT_LEAST_ONCE)
    assert env.get_checkpointing_mode() == CheckpointingMode.AT_LEAST_ONCE
    assert env.get_checkpointing_consistency_mode() == CheckpointingMode.AT_LEAST_ONCE


def test_changelog_state_backend(env):
    assert env.is_changelog_state_backend_enabled() is None
    env.enable_changelog_state_backend(True)
    assert env.is_changelog_state_backend_enabled() is True
    env.enable_changelog_state_backend(False)
    assert env.is_changelog_state_backend_enabled() is False


def test_default_savepoint_directory_as_flink_path_prints_it(env):
    assert env.get_default_savepoint_directory() is None
    env.set_default_savepoint_directory("file:///tmp/sp/")
    assert env.get_default_savepoint_directory() == "file:/tmp/sp"
    env.set_default_savepoint_directory("s3://bucket/p//q/")
    assert env.get_default_savepoint_directory() == "s3://bucket/p/q"


def test_configure_is_reflected_by_the_getters(env):
    configuration = Configuration()
    configuration.set_string('pipeline.operator-chaining', 'false')
    configuration.set_string('execution.buffer-timeout', '1 min')
    configuration.set_string('execution.checkpointing.timeout', '12000')
    configuration.set_string('parallelism.default', '7')
    configuration.set_string('pipeline.max-parallelism', '64')
    configuration.set_string('pipeline.auto-watermark-interval', '300 ms')
    configuration.set_string('execution.checkpointing.interval', '5 s')
    configuration.set_string('execution.checkpointing.mode', 'AT_LEAST_ONCE')
    configuration.set_string('execution.checkpointing.min-pause', '2 s')
    configuration.set_string('execution.checkpointing.max-concurrent-checkpoints', '3')
    configuration.set_string('execution.checkpointing.tolerable-failed-checkpoints', '4')
    configuration.set_string('pipeline.object-reuse', 'true')
    configuration.set_string('pipeline.global-job-parameters', 'a:b')
    configuration.set_string('state.changelog.enabled', 'true')
    configuration.set_string('pipeline.closure-cleaner-level', 'NONE')
    env.configure(configuration)

    checkpoints, config = env.get_checkpoint_config(), env.get_config()
    assert env.is_chaining_enabled() is False
    assert env.get_buffer_timeout() == 60000
    assert checkpoints.get_checkpoint_timeout() == 12000
    assert env.get_parallelism() == 7 and config.get_parallelism() == 7
    assert env.get_max_parallelism() == 64
    assert config.get_auto_watermark_interval() == 300
    assert env.get_checkpoint_interval() == 5000 and checkpoints.is_checkpointing_enabled()
    assert env.get_checkpointing_mode() == CheckpointingMode.AT_LEAST_ONCE
    assert checkpoints.get_min_pause_between_checkpoints() == 2000
    assert checkpoints.get_max_concurrent_checkpoints() == 3
    assert checkpoints.get_tolerable_checkpoint_failure_number() == 4
    assert config.is_object_reuse_enabled() is True
    assert config.get_global_job_parameters() == {'a': 'b'}
    assert env.is_changelog_state_backend_enabled() is True
    assert config.is_closure_cleaner_enabled() is False


def test_configure_runtime_mode(env):
    configuration = Configuration()
    configuration.set_string('execution.runtime-mode', 'batch')
    env.configure(configuration)
    assert env._runtime_mode == RuntimeExecutionMode.BATCH


def test_configure_leaves_unset_options_alone(env):
    env.set_parallelism(3)
    env.set_buffer_timeout(5)
    env.configure(Configuration())
    assert env.get_parallelism() == 3
    assert env.get_buffer_timeout() == 5
    assert env.is_chaining_enabled()


def test_configure_rejects_an_unparsable_duration(env):
    configuration = Configuration()
    configuration.set_string('execution.buffer-timeout', 'soon')
    with pytest.raises(Py4JJavaError, match="Could not parse value 'soon' for key 'execution.buffer-timeout'"):
        env.configure(configuration)


def test_environment_created_with_a_configuration_shows_it():
    configuration = Configuration()
    configuration.set_string('pipeline.max-parallelism', '96')
    configuration.set_string('execution.checkpointing.interval', '1 min')
    env = StreamExecutionEnvironment.get_execution_environment(configuration)
    assert env.get_max_parallelism() == 96
    assert env.get_checkpoint_interval() == 60000


# -- ExecutionConfig ------------------------------------------------------------------------------

def test_execution_config_constants():
    assert ExecutionConfig.PARALLELISM_DEFAULT == -1
    assert ExecutionConfig.PARALLELISM_UNKNOWN == -2


def test_execution_config_defaults(env):
    config = env.get_config()
    assert config.is_closure_cleaner_enabled()
    assert config.get_auto_watermark_interval() == 200
    assert config.get_max_parallelism() == -1
    assert config.get_task_cancellation_interval() == 30000
    assert config.get_task_cancellation_timeout() == 180000
    assert config.has_auto_generated_uids_enabled()
    assert not config.is_object_reuse_enabled()
    assert config.get_global_job_parameters() == {}
    assert not config.is_use_snapshot_compression()
    assert config.get_latency_tracking_interval() == 0


def test_execution_config_getters_after_setters(env):
    config = env.get_config()
    config.disable_closure_cleaner()
    assert not config.is_closure_cleaner_enabled()
    config.enable_closure_cleaner()
    assert config.is_closure_cleaner_enabled()
    config.set_auto_watermark_interval(1000)
    assert config.get_auto_watermark_interval() == 1000
    config.set_parallelism(8)
    assert config.get_parallelism() == 8
    config.set_max_parallelism(16)
    assert config.get_max_parallelism() == 16
    config.set_task_cancellation_interval(1000)
    assert config.get_task_cancellation_interval() == 1000
    config.set_task_cancellation_timeout(3000)
    assert config.get_task_cancellation_timeout() == 3000
    config.disable_auto_generated_uids()
    assert not config.has_auto_generated_uids_enabled()
    config.enable_auto_generated_uids()
    assert config.has_auto_generated_uids_enabled()
    config.enable_object_reuse()
    assert config.is_object_reuse_enabled()
    config.disable_object_reuse()
    assert not config.is_object_reuse_enabled()
    config.set_global_job_parameters({"hello": "world"})
    assert config.get_global_job_parameters() == {"hello": "world"}
    config.set_use_snapshot_compression(True)
    assert config.is_use_snapshot_compression()
    config.set_use_snapshot_compression(False)
    assert not config.is_use_snapshot_compression()


def test_execution_config_argument_checks(env):
    config = env.get_config()
    with pytest.raises(Py4JJavaError, match="Auto watermark interval must not be negative"):
        config.set_auto_watermark_interval(-1)
    config.set_auto_watermark_interval(0)
    assert config.get_auto_watermark_interval() == 0
    with pytest.raises(Py4JJavaError, match="Parallelism must be at least one"):
        config.set_parallelism(0)
    with pytest.raises(Py4JJavaError, match="The maximum parallelism must be greater than 0"):
        config.set_max_parallelism(0)
    config.set_max_parallelism(32769)              # the environment's upper bound is not checked here
    assert config.get_max_parallelism() == 32769


def test_execution_config_equals_and_hash():
    config1 = StreamExecutionEnvironment.get_execution_environment().get_config()
    config2 = StreamExecutionEnvironment.get_execution_environment().get_config()
    config1.set_parallelism(4)
    config2.set_parallelism(4)
    assert config1 == config2
    assert hash(config1) == hash(config2)
    config1.set_parallelism(12)
    config2.set_parallelism(11)
    assert config1 != config2
    assert hash(config1) != hash(config2)
    config2.set_parallelism(12)
    assert config1 == config2
    assert hash(config1) == hash(config2)
    config2.enable_object_reuse()
    assert config1 != config2
    assert config1 != "not a config"

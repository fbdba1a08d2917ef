"""Names added to the mirror by the API parity work (tests/parity): they import and behave as in PyFlink."""
import pickle

import pytest

from pyflink_compat.common import ExecutionConfig, JobClient
from pyflink_compat.common.constants import DEFAULT_OUTPUT_TAG, MAX_LONG_VALUE, MIN_LONG_VALUE
from pyflink_compat.common.io import InputFormat
from pyflink_compat.common.restart_strategy import RestartStrategies
from pyflink_compat.common.serializer import TypeSerializer
from pyflink_compat.datastream import AsyncDataStream, KeyedStream
from pyflink_compat.datastream.async_retry_predicates import (empty_result_predicate, exception_type_predicate,
                                                              has_exception_predicate)
from pyflink_compat.datastream.async_retry_strategies import (ExponentialBackoffDelayRetryStrategy,
                                                              FixedDelayRetryStrategy, NoRetryStrategy)
from pyflink_compat.datastream.externalized_checkpoint_retention import ExternalizedCheckpointRetention
from pyflink_compat.datastream.formats.csv import CsvSchemaBuilder
from pyflink_compat.datastream.functions import AsyncRetryStrategy
from pyflink_compat.datastream.slot_sharing_group import SlotSharingGroup
from pyflink_compat.datastream.stream_execution_environment import StreamExecutionEnvironment
from pyflink_compat.util.exceptions import UnsupportedFeatureError


def test_constants():
    assert (MAX_LONG_VALUE, MIN_LONG_VALUE, DEFAULT_OUTPUT_TAG) == (2 ** 63 - 1, -2 ** 63, "")


def test_execution_config_flink_defaults_and_chaining_setters():
    config = ExecutionConfig(None)
    assert config.is_closure_cleaner_enabled() and config.has_auto_generated_uids_enabled()
    assert not (config.is_force_kryo_enabled() or config.is_force_avro_enabled()
                or config.has_generic_types_disabled() or config.is_use_snapshot_compression())
    assert (config.get_latency_tracking_interval(), config.get_task_cancellation_interval(),
            config.get_task_cancellation_timeout()) == (0, 30000, 180000)
    assert config.disable_generic_types().enable_force_avro().set_task_cancellation_timeout(5) is config
    assert config.has_generic_types_disabled() and config.is_force_avro_enabled()
    assert config.get_registered_kryo_types() == [] and config.get_default_kryo_serializer_classes() == {}


def test_input_format_wraps_its_object():
    assert InputFormat("handle").get_java_object() == "handle"


def test_type_serializer_is_an_abstract_base():
    with pytest.raises(TypeError):
        TypeSerializer()


def test_job_client_accumulators_are_empty():
    assert JobClient(None).get_accumulators().result() == {}


def test_environment_default_serializer_repr():
    import inspect
    default = inspect.signature(StreamExecutionEnvironment.__init__).parameters["serializer"].default
    assert repr(default) == "PickleSerializer()"
    assert default.loads(default.dumps({"a": 1})) == {"a": 1}


def test_slot_sharing_group_from_a_name():
    assert SlotSharingGroup("g").get_name() == "g"
    assert SlotSharingGroup(SlotSharingGroup("g")) == SlotSharingGroup("g")


def test_keyed_stream_accumulate_type():
    assert [(t.name, t.value) for t in KeyedStream.AccumulateType] == [
        ('MIN', 1), ('MAX', 2), ('MIN_BY', 3), ('MAX_BY', 4), ('SUM', 5)]
    assert pickle.loads(pickle.dumps(KeyedStream.AccumulateType.SUM)) is KeyedStream.AccumulateType.SUM


@pytest.mark.parametrize("call, name, section", [
    (lambda: AsyncDataStream.unordered_wait(None, None, 1), "AsyncDataStream.unordered_wait", "unsupported-apis"),
    (lambda: CsvSchemaBuilder.set_column_separator(None, ";"), "CsvSchemaBuilder.set_column_separator", "formats"),
    (lambda: RestartStrategies.exponential_delay_restart(), "RestartStrategies.exponential_delay_restart",
     "restarts"),
])
def test_added_stubs_name_themselves(call, name, section):
    with pytest.raises(UnsupportedFeatureError, match="^%s is not supported" % name.replace(".", r"\.")) as e:
        call()
    assert e.value.section == section


def test_async_retry_strategies():
    assert isinstance(AsyncRetryStrategy.no_restart(), NoRetryStrategy)
    fixed = AsyncRetryStrategy.fixed_delay(2, 50, empty_result_predicate, has_exception_predicate)
    assert isinstance(fixed, FixedDelayRetryStrategy)
    assert (fixed.can_retry(2), fixed.can_retry(3), fixed.get_backoff_time_millis(1)) == (True, False, 50)
    assert fixed.get_retry_predicate().result_predicate() is empty_result_predicate
    backoff = ExponentialBackoffDelayRetryStrategy(4, 100, 300, 2.0, None, None)
    assert [backoff.get_backoff_time_millis(n) for n in (1, 2, 3, 4, 1)] == [100, 200, 300, 300, 100]
    with pytest.raises(AssertionError, match="backoff_time_millis should be greater than zero."):
        FixedDelayRetryStrategy(1, 0, None, None)
    assert empty_result_predicate([]) and not empty_result_predicate([1])
    assert exception_type_predicate(KeyError("k"), LookupError) and not has_exception_predicate(None)


def test_externalized_checkpoint_retention_module():
    assert ExternalizedCheckpointRetention.NO_EXTERNALIZED_CHECKPOINTS.name == "NO_EXTERNALIZED_CHECKPOINTS"

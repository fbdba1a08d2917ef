"""Duration, Instant, Time, Configuration, ExecutionConfig and the ``pyflink_compat.common`` surface."""
import copy
import pickle

import pytest
from hypothesis import given, strategies as st
from py4j.protocol import Py4JJavaError

import pyflink_compat.common as common
from pyflink_compat.common import Configuration, Duration, ExecutionConfig, Instant, Time
from pyflink_compat.util.exceptions import JavaStyleError, UnsupportedFeatureError


# -- Duration -----------------------------------------------------------------------------------

def test_duration_factories_agree():
    assert Duration.of_millis(60_000) == Duration.of_seconds(60) == Duration.of_minutes(1)
    assert Duration.of_hours(24) == Duration.of_days(1)
    assert Duration.of_nanos(1_000_000) == Duration.of_millis(1)
    assert Duration.of_seconds(1) != Duration.of_seconds(2)


def test_duration_equality_and_hash():
    assert hash(Duration.of_seconds(1)) == hash(Duration.of_millis(1000))
    assert Duration.of_seconds(1) != Time.seconds(1)
    assert Duration.of_seconds(1) != 1000


@pytest.mark.parametrize("duration, millis", [
    (Duration.of_seconds(5), 5000), (Duration.of_nanos(1_999_999), 1), (Duration.of_nanos(-1), -1),
    (Duration.of_minutes(-2), -120_000), (Duration.of_days(1), 86_400_000),
])
def test_duration_to_millis_rounds_down_like_java(duration, millis):
    assert duration._to_millis() == millis


def test_duration_has_no_to_milliseconds_like_pyflink():
    assert not hasattr(Duration.of_seconds(1), "to_milliseconds")


def test_duration_pickles():
    assert pickle.loads(pickle.dumps(Duration.of_millis(1500))) == Duration.of_millis(1500)


# -- Instant ------------------------------------------------------------------------------------

def test_instant_repr_and_equality():
    assert repr(Instant(1, 5)) == "Instant<1, 5>"
    assert Instant(1, 5) == Instant(1, 5)
    assert Instant(1, 5) != Instant(1, 6)
    assert hash(Instant(1, 5)) == hash(Instant(1, 5))


def test_instant_epoch_millis():
    assert Instant(1, 500_000_000).to_epoch_milli() == 1500
    assert Instant.of_epoch_milli(1500) == Instant(1, 500_000_000)
    assert Instant.of_epoch_milli(-1) == Instant(-1, 999_000_000)
    assert Instant(-1, 999_000_000).to_epoch_milli() == -1


@given(st.integers(min_value=-10 ** 15, max_value=10 ** 15))
def test_instant_epoch_milli_round_trip(epoch_milli):
    assert Instant.of_epoch_milli(epoch_milli).to_epoch_milli() == epoch_milli


# -- Time ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("interval, millis", [
    (Time.milliseconds(7), 7), (Time.seconds(5), 5000), (Time.minutes(2), 120_000),
    (Time.hours(1), 3_600_000), (Time.days(1), 86_400_000), (Time(42), 42),
])
def test_time_factories(interval, millis):
    assert interval.to_milliseconds() == millis
    assert str(interval) == "%d ms" % millis


def test_time_equality():
    assert Time.seconds(1) == Time.milliseconds(1000)
    assert Time.seconds(1) != Time.seconds(2)
    assert Time.seconds(1) != Duration.of_seconds(1)
    assert hash(Time.seconds(1)) == hash(Time(1000))
    assert pickle.loads(pickle.dumps(Time.seconds(3))) == Time.seconds(3)


# -- Configuration ------------------------------------------------------------------------------

def test_configuration_init_copies_other():
    conf = Configuration()
    assert conf.to_dict() == {}
    conf.set_string("k1", "v1")
    copied = Configuration(conf)
    copied.set_string("k2", "v2")
    assert conf.to_dict() == {"k1": "v1"}
    assert copied.to_dict() == {"k1": "v1", "k2": "v2"}


def test_configuration_wraps_a_given_dict():
    data = {"k": "v"}
    conf = Configuration(j_configuration=data)
    conf.set_string("x", "y")
    assert data == {"k": "v", "x": "y"}


def test_from_dict():
    conf = Configuration.from_dict({"a": "1", "b": "true"})
    assert conf.to_dict() == {"a": "1", "b": "true"}
    assert conf.get_integer("a", 0) == 1
    assert conf.get_boolean("b", False) is True


def test_getters_and_setters():
    conf = Configuration()
    assert conf.set_string("str", "v1") is conf
    assert conf.set_integer("int", 2) is conf
    assert conf.set_boolean("bool", True) is conf
    assert conf.set_float("float", 0.5) is conf
    assert conf.set_bytearray("bytearray", bytearray([1, 2, 3])) is conf
    assert conf.get_string("str", "") == "v1"
    assert conf.get_integer("int", 0) == 2
    assert conf.get_boolean("bool", False) is True
    assert conf.get_float("float", 0) == 0.5
    assert conf.get_bytearray("bytearray", bytearray()) == bytearray([1, 2, 3])


def test_getters_return_the_default_when_missing():
    conf = Configuration()
    assert conf.get_string("k", "d") == "d"
    assert conf.get_integer("k", 7) == 7
    assert conf.get_boolean("k", True) is True
    assert conf.get_float("k", 1) == 1.0
    assert isinstance(conf.get_float("k", 1), float)
    assert conf.get_bytearray("k", b"ab") == bytearray(b"ab")


def test_getters_require_the_default():
    with pytest.raises(TypeError):
        Configuration().get_string("k")


def test_values_convert_between_types_like_java():
    conf = Configuration().set_string("n", "42").set_string("b", "TRUE").set_integer("i", 3)
    conf.set_boolean("flag", False).set_float("f", 2.5).set_string("d", "1e3")
    assert conf.get_integer("n", 0) == 42
    assert conf.get_float("n", 0) == 42.0
    assert conf.get_boolean("b", False) is True
    assert conf.get_string("i", "") == "3"
    assert conf.get_float("i", 0) == 3.0
    assert conf.get_string("flag", "") == "false"
    assert conf.get_string("f", "") == "2.5"
    assert conf.get_float("d", 0) == 1000.0


@pytest.mark.parametrize("raw, getter", [
    ("abc", "get_integer"), ("1.5", "get_integer"), (" 1", "get_integer"), (str(2 ** 63), "get_integer"),
    ("yes", "get_boolean"), ("abc", "get_float"),
])
def test_unparsable_values_raise_javas_illegal_argument_exception(raw, getter):
    conf = Configuration().set_string("key", raw)
    with pytest.raises(Py4JJavaError) as error:
        getattr(conf, getter)("key", 0)
    assert isinstance(error.value, JavaStyleError)
    assert error.value.java_class == "java.lang.IllegalArgumentException"
    assert error.value.message == "Could not parse value '%s' for key 'key'." % raw


def test_typed_values_do_not_parse_as_other_types():
    conf = Configuration().set_boolean("b", True).set_float("f", 1.5)
    with pytest.raises(JavaStyleError, match="Could not parse value 'true' for key 'b'."):
        conf.get_integer("b", 0)
    with pytest.raises(JavaStyleError, match="Could not parse value '1.5' for key 'f'."):
        conf.get_integer("f", 0)


def test_get_bytearray_of_a_string_raises():
    with pytest.raises(JavaStyleError, match="Configuration cannot evaluate value abc as a byte\\[\\] value"):
        Configuration().set_string("k", "abc").get_bytearray("k", bytearray())


def test_key_set_and_contains_key():
    conf = Configuration().set_string("k1", "v1").set_string("k2", "v2")
    assert conf.key_set() == {"k1", "k2"}
    assert conf.contains_key("k1")
    assert not conf.contains_key("k3")


def test_add_all_to_dict_keeps_the_value_types():
    conf = Configuration().set_string("k1", "v1").set_integer("k2", 1).set_float("k3", 1.2)
    conf.set_boolean("k4", True).set_bytearray("k5", bytearray([1, 2, 3]))
    target = {"other": 0}
    conf.add_all_to_dict(target)
    assert target == {"other": 0, "k1": "v1", "k2": 1, "k3": 1.2, "k4": True, "k5": bytearray([1, 2, 3])}


def test_add_all_with_and_without_prefix():
    conf = Configuration().set_string("k1", "v1")
    other = Configuration()
    assert other.add_all(conf) is other
    assert other.get_string("k1", "") == "v1"
    other.add_all(conf, "conf_")
    assert other.get_string("conf_k1", "") == "v1"


def test_to_dict_prints_values_as_java_does():
    conf = Configuration().set_string("k1", "v1").set_integer("k2", 1).set_float("k3", 1.2)
    conf.set_boolean("k4", True).set_float("k5", 1e10)
    assert conf.to_dict() == {"k1": "v1", "k2": "1", "k3": "1.2", "k4": "true", "k5": "1.0E10"}


def test_remove_config():
    conf = Configuration().set_string("k1", "v1")
    assert conf.remove_config("k1") is True
    assert conf.remove_config("k1") is False
    assert not conf.contains_key("k1")


def test_hash_equality_and_str():
    conf = Configuration().set_string("k1", "v1").set_integer("k2", 1)
    other = Configuration().set_string("k1", "v1")
    assert conf != other
    assert hash(conf) != hash(other)
    other.set_integer("k2", 1)
    assert conf == other
    assert hash(conf) == hash(other)
    assert str(conf) == "{k1=v1, k2=1}"


def test_equality_compares_value_types():
    assert Configuration().set_integer("k", 1) != Configuration().set_string("k", "1")
    assert Configuration().set_integer("k", 1) != Configuration().set_boolean("k", True)
    assert Configuration() != {}


def test_deepcopy_and_pickle():
    conf = Configuration().set_string("k1", "v1").set_bytearray("b", b"\x00")
    copied = copy.deepcopy(conf)
    assert copied == conf
    copied.set_string("k1", "v2")
    assert copied != conf
    assert pickle.loads(pickle.dumps(conf)) == conf


@pytest.mark.parametrize("value, items", [
    ("", []), (None, []),
    ("a.jar;b.jar", ["a.jar", "b.jar"]),
    ("file:///a.jar", ["file:///a.jar"]),
    ("[a, b]", ["a", "b"]),
    ("['a;b', \"c,d\"]", ["a;b", "c,d"]),
    ("[]", []),
    ("- x\n- y", ["x", "y"]),
])
def test_parse_list_value(value, items):
    assert Configuration.parse_list_value(value) == items


# -- ExecutionConfig ----------------------------------------------------------------------------

def test_execution_config_defaults_and_setters():
    config = ExecutionConfig(None)
    assert config.get_auto_watermark_interval() == 200
    assert config.get_parallelism() == ExecutionConfig.PARALLELISM_DEFAULT == -1
    assert config.get_max_parallelism() == -1
    assert not config.is_object_reuse_enabled()
    assert config.get_global_job_parameters() == {}
    assert config.set_auto_watermark_interval(50) is config
    assert config.set_parallelism(4) is config
    config.set_max_parallelism(128)
    assert config.enable_object_reuse() is config
    config.set_global_job_parameters({"a": "b"})
    assert config.get_auto_watermark_interval() == 50
    assert config.get_parallelism() == 4
    assert config.get_max_parallelism() == 128
    assert config.is_object_reuse_enabled()
    assert config.get_global_job_parameters() == {"a": "b"}
    assert config.disable_object_reuse().is_object_reuse_enabled() is False


# -- the pyflink_compat.common package ----------------------------------------------------------

PYFLINK_COMMON_ALL = [
    'Configuration', 'ConfigOption', 'ConfigOptions', 'ExecutionConfig', 'TypeInformation', 'TypeSerializer',
    'Types', 'SerializationSchema', 'DeserializationSchema', 'SimpleStringSchema', 'ByteArraySchema', 'Encoder',
    'CompletableFuture', 'InputDependencyConstraint', 'JobClient', 'JobExecutionResult', 'JobID', 'JobStatus',
    'RestartStrategies', 'RestartStrategyConfiguration', 'Row', 'RowKind', 'WatermarkStrategy', 'Duration',
    'Instant', 'Time', 'AssignerWithPeriodicWatermarksWrapper',
    'ExecutionMode',  # Flink 1.x's (apache-flink 1.20 exports it)
]


def test_package_exports_pyflinks_all():
    assert sorted(common.__all__) == sorted(PYFLINK_COMMON_ALL)
    for name in PYFLINK_COMMON_ALL:
        assert getattr(common, name).__name__ == name


def test_timestamp_assigner_is_not_on_the_package_and_row_formats_are():
    assert not hasattr(common, 'TimestampAssigner')
    # PyFlink 2.3.0 installs the row formats' schemas on pyflink.common (outside __all__), for backward compatibility
    from pyflink_compat.datastream.formats import avro, csv, json
    for module, name in ((json, 'JsonRowDeserializationSchema'), (csv, 'CsvRowSerializationSchema'),
                         (avro, 'AvroRowSerializationSchema')):
        assert getattr(common, name) is getattr(module, name)
        assert name not in common.__all__


@pytest.mark.parametrize("name", ['AssignerWithPeriodicWatermarksWrapper'])
def test_unimplemented_classes_raise_when_constructed(name):
    with pytest.raises(UnsupportedFeatureError, match=name):
        getattr(common, name)(None)


def test_config_options_build_typed_keys():
    option = common.ConfigOptions.key("a.b").int_type().default_value(3)
    assert isinstance(option, common.ConfigOption)
    assert (option.key(), option.default_value()) == ("a.b", 3)
    assert common.ConfigOptions.key("c").string_type().no_default_value().default_value() is None
    assert [c.name for c in common.InputDependencyConstraint] == ['ANY', 'ALL']


def test_restart_strategy_factories_build_recorded_configurations():
    # Flink 1.x's set_restart_strategy takes them (tests/unit/test_flink1_names.py); the job applies them.
    assert common.RestartStrategies.fixed_delay_restart(3, 1000).get_restart_attempts() == 3
    assert common.RestartStrategies.no_restart().get_description() == "Restart deactivated."
    with pytest.raises(UnsupportedFeatureError):
        common.RestartStrategies.exponential_delay_restart()

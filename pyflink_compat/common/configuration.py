"""``Configuration`` (mirror of ``pyflink.common.configuration``) and ``ExecutionConfig``.

Flink's Java ``Configuration`` keeps each value with the type it was set with
(String, Long, Double, Boolean, byte[]) and converts on read: ``get_integer``
parses a string, ``get_string`` prints a number. We keep the same typed raw
values in a dict, so:

* ``to_dict()`` and ``str()`` show values as Java prints them (``True`` -> ``'true'``);
* ``add_all_to_dict`` copies the raw typed values (as PyFlink's does);
* a value that does not parse raises Java's
  ``IllegalArgumentException("Could not parse value '<v>' for key '<k>'.")``.
"""
import re
from typing import Dict, List, Set

from pyflink_compat.common.types import _java_str
from pyflink_compat.util.deprecation import removed_in_2
from pyflink_compat.util.exceptions import illegal_argument

__all__ = ['Configuration']  # as PyFlink; ExecutionConfig is importable by name (pyflink.common.execution_config)

_JAVA_LONG_MIN, _JAVA_LONG_MAX = -2 ** 63, 2 ** 63 - 1
_JAVA_LONG = re.compile(r'[+-]?\d+')
_JAVA_DOUBLE = re.compile(r'[+-]?(NaN|Infinity|(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?)[fFdD]?')


class Configuration:
    """Lightweight configuration object which stores key/value pairs.

    ``j_configuration``, in pyflink-compat, is a dict of raw values to wrap (shared, not copied).
    """

    def __init__(self, other: 'Configuration' = None, j_configuration: dict = None):
        if j_configuration is not None:
            self._data = j_configuration
        elif other is not None:
            self._data = dict(other._data)
        else:
            self._data = {}

    @classmethod
    def from_dict(cls, map: dict) -> 'Configuration':
        """A configuration holding the string entries of ``map`` (since PyFlink 2.3)."""
        return cls(j_configuration=dict(map))

    def get_string(self, key: str, default_value: str) -> str:
        if key not in self._data:
            return default_value
        return _java_str(self._data[key])

    def set_string(self, key: str, value: str) -> 'Configuration':
        self._data[key] = value
        return self

    @staticmethod
    def parse_list_value(value: str):
        """A list value: a YAML list (``[a, b]`` or ``- a`` lines) or ``;``-separated items."""
        if not value:
            return []
        text = value.strip()
        if text.startswith('[') and text.endswith(']'):
            return [_unquote_yaml_scalar(item) for item in _split_flow_sequence(text[1:-1])]
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        if all(line == '-' or line.startswith('- ') for line in lines):
            return [_unquote_yaml_scalar(line[1:].strip()) for line in lines]
        return value.split(';')

    def get_integer(self, key: str, default_value: int) -> int:
        """The value as a Java ``long``."""
        return self._get_converted(key, default_value, _to_java_long)

    def set_integer(self, key: str, value: int) -> 'Configuration':
        self._data[key] = value
        return self

    def get_boolean(self, key: str, default_value: bool) -> bool:
        """The value as a boolean; strings must be ``true`` or ``false`` in any case."""
        return self._get_converted(key, default_value, _to_java_boolean)

    def set_boolean(self, key: str, value: bool) -> 'Configuration':
        self._data[key] = value
        return self

    def get_float(self, key: str, default_value: float) -> float:
        """The value as a Java ``double``."""
        return self._get_converted(key, float(default_value), _to_java_double)

    def set_float(self, key: str, value: float) -> 'Configuration':
        self._data[key] = float(value)
        return self

    def get_bytearray(self, key: str, default_value: bytearray) -> bytearray:
        if key not in self._data:
            return bytearray(default_value)
        value = self._data[key]
        if not isinstance(value, (bytes, bytearray)):
            raise illegal_argument("Configuration cannot evaluate value %s as a byte[] value"
                                   % _java_str(value), "getBytes")
        return bytearray(value)

    def set_bytearray(self, key: str, value: bytearray) -> 'Configuration':
        self._data[key] = bytes(value)
        return self

    def key_set(self) -> Set[str]:
        return set(self._data)

    def add_all_to_dict(self, target_dict: Dict):
        """Copies the entries, with their typed values (an int stays an int), into ``target_dict``."""
        target_dict.update(self._data)

    def add_all(self, other: 'Configuration', prefix: str = None) -> 'Configuration':
        """Copies the entries of ``other``, their keys prefixed with ``prefix`` when given."""
        for key, value in other._data.items():
            self._data[key if prefix is None else prefix + key] = value
        return self

    def contains_key(self, key: str) -> bool:
        return key in self._data

    def to_dict(self) -> Dict[str, str]:
        """The entries with their values as strings, as Java prints them."""
        return {key: _java_str(value) for key, value in self._data.items()}

    def remove_config(self, key: str) -> bool:
        """Removes ``key``; True if it was there."""
        return self._data.pop(key, _MISSING) is not _MISSING

    def _get_converted(self, key, default_value, convert):
        if key not in self._data:
            return default_value
        value = self._data[key]
        try:
            return convert(value)
        except ValueError:
            raise illegal_argument("Could not parse value '%s' for key '%s'." % (_java_str(value), key), "get")

    def _comparable_entries(self) -> dict:
        # Java compares the typed values: Long 1, Boolean true and String "1" all differ.
        return {key: (type(value), value) for key, value in self._data.items()}

    def __hash__(self):
        return hash(frozenset(self._data))

    def __eq__(self, other):
        return isinstance(other, Configuration) and self._comparable_entries() == other._comparable_entries()

    def __str__(self):
        """Java's ``Map.toString()`` of the entries, e.g. ``{k1=v1, k2=1}`` (in insertion order)."""
        return "{%s}" % ", ".join("%s=%s" % (key, _java_str(value)) for key, value in self._data.items())


_MISSING = object()
_SERIALIZATION_CONFIG = "configure pipeline.serialization-config (no effect here: pyflink-compat does not use Kryo)"
_RESTART_CONFIG = ("set restart-strategy.type and its options in the configuration "
                   "(StreamExecutionEnvironment.configure)")


def _to_java_long(value) -> int:
    if isinstance(value, bool):
        raise ValueError(value)
    if isinstance(value, int):
        return value
    text = _java_str(value)
    if not _JAVA_LONG.fullmatch(text) or not _JAVA_LONG_MIN <= int(text) <= _JAVA_LONG_MAX:
        raise ValueError(text)
    return int(text)


def _to_java_boolean(value) -> bool:
    if isinstance(value, bool):
        return value
    text = _java_str(value).upper()
    if text not in ('TRUE', 'FALSE'):
        raise ValueError(text)
    return text == 'TRUE'


def _to_java_double(value) -> float:
    if isinstance(value, bool):
        raise ValueError(value)
    if isinstance(value, (int, float)):
        return float(value)
    text = _java_str(value).strip()
    if not _JAVA_DOUBLE.fullmatch(text):
        raise ValueError(text)
    return float(text.rstrip('fFdD').replace('Infinity', 'inf'))


def _split_flow_sequence(text: str) -> list:
    """Splits the inside of a YAML ``[...]`` at commas outside quotes."""
    items, current, quote = [], '', None
    for char in text:
        if quote:
            quote = None if char == quote else quote
        elif char in '\'"':
            quote = char
        elif char == ',':
            items.append(current)
            current = ''
            continue
        current += char
    items.append(current)
    return [item.strip() for item in items if item.strip()]


def _unquote_yaml_scalar(text: str) -> str:
    if len(text) >= 2 and text[0] == text[-1] and text[0] in '\'"':
        return text[1:-1]
    return text


class ExecutionConfig(object):
    """The program's execution settings that pyflink-compat honours (a subset of PyFlink's).

    ``get_parallelism``/``get_max_parallelism`` return ``PARALLELISM_DEFAULT`` (-1)
    until set; the automatic watermark interval defaults to Flink's 200 ms.
    """

    PARALLELISM_DEFAULT = -1
    PARALLELISM_UNKNOWN = -2

    def __init__(self, j_execution_config):
        self._j_execution_config = j_execution_config
        self._auto_watermark_interval = 200
        self._closure_cleaner = True
        self._generic_types = True
        self._auto_generated_uids = True
        self._force_kryo = False
        self._force_avro = False
        self._latency_tracking_interval = 0           # metrics.latency.interval: off
        self._task_cancellation_interval = 30000      # task.cancellation.interval (ms)
        self._task_cancellation_timeout = 180000      # task.cancellation.timeout (ms)
        self._use_snapshot_compression = False
        self._parallelism = ExecutionConfig.PARALLELISM_DEFAULT
        self._max_parallelism = ExecutionConfig.PARALLELISM_DEFAULT
        self._object_reuse = False
        self._global_job_parameters = {}
        self._kryo_types = []
        self._pojo_types = []
        self._kryo_serializers = {}
        self._default_kryo_serializers = {}
        self._auto_type_registration = True
        from pyflink_compat.common.execution_mode import ExecutionMode
        from pyflink_compat.common.input_dependency_constraint import InputDependencyConstraint
        self._execution_mode = ExecutionMode.PIPELINED                     # Flink 1.x's defaults
        self._input_dependency_constraint = InputDependencyConstraint.ANY
        # The environment's Configuration (StreamExecutionEnvironment.get_config links it); its own otherwise.
        self._configuration = Configuration()

    def set_auto_watermark_interval(self, interval: int) -> 'ExecutionConfig':
        if interval < 0:
            raise illegal_argument("Auto watermark interval must not be negative.", "setAutoWatermarkInterval")
        self._auto_watermark_interval = interval
        return self

    def get_auto_watermark_interval(self) -> int:
        return self._auto_watermark_interval

    def set_parallelism(self, parallelism: int) -> 'ExecutionConfig':
        """As Java's: at least 1 or ``PARALLELISM_DEFAULT``; ``PARALLELISM_UNKNOWN`` leaves it unchanged."""
        if parallelism == ExecutionConfig.PARALLELISM_UNKNOWN:
            return self
        if parallelism < 1 and parallelism != ExecutionConfig.PARALLELISM_DEFAULT:
            raise illegal_argument("Parallelism must be at least one, or ExecutionConfig.PARALLELISM_DEFAULT "
                                   "(use system default).", "setParallelism")
        self._parallelism = parallelism
        return self

    def get_parallelism(self) -> int:
        return self._parallelism

    def set_max_parallelism(self, max_parallelism: int) -> 'ExecutionConfig':
        if max_parallelism <= 0:
            raise illegal_argument("The maximum parallelism must be greater than 0.", "setMaxParallelism")
        self._max_parallelism = max_parallelism
        return self

    def get_max_parallelism(self) -> int:
        return self._max_parallelism

    def enable_object_reuse(self) -> 'ExecutionConfig':
        self._object_reuse = True
        return self

    def disable_object_reuse(self) -> 'ExecutionConfig':
        self._object_reuse = False
        return self

    def is_object_reuse_enabled(self) -> bool:
        return self._object_reuse

    def set_global_job_parameters(self, global_job_parameters_dict: Dict) -> 'ExecutionConfig':
        self._global_job_parameters = dict(global_job_parameters_dict)
        return self

    def get_global_job_parameters(self) -> Dict[str, str]:
        return dict(self._global_job_parameters)

    # Settings Flink's runtime uses (serialization, metrics, cancellation). They are kept and read back;
    # Spark's execution does not consult them.

    def enable_closure_cleaner(self) -> 'ExecutionConfig':
        self._closure_cleaner = True
        return self

    def disable_closure_cleaner(self) -> 'ExecutionConfig':
        self._closure_cleaner = False
        return self

    def is_closure_cleaner_enabled(self) -> bool:
        return self._closure_cleaner

    def get_latency_tracking_interval(self) -> int:
        return self._latency_tracking_interval

    def set_latency_tracking_interval(self, interval: int) -> 'ExecutionConfig':
        self._latency_tracking_interval = interval
        return self

    def get_task_cancellation_interval(self) -> int:
        return self._task_cancellation_interval

    def set_task_cancellation_interval(self, interval: int) -> 'ExecutionConfig':
        self._task_cancellation_interval = interval
        return self

    def get_task_cancellation_timeout(self) -> int:
        return self._task_cancellation_timeout

    def set_task_cancellation_timeout(self, timeout: int) -> 'ExecutionConfig':
        self._task_cancellation_timeout = timeout
        return self

    def enable_force_kryo(self) -> 'ExecutionConfig':
        self._force_kryo = True
        return self

    def disable_force_kryo(self) -> 'ExecutionConfig':
        self._force_kryo = False
        return self

    def is_force_kryo_enabled(self) -> bool:
        return self._force_kryo

    def enable_generic_types(self) -> 'ExecutionConfig':
        self._generic_types = True
        return self

    def disable_generic_types(self) -> 'ExecutionConfig':
        self._generic_types = False
        return self

    def has_generic_types_disabled(self) -> bool:
        return not self._generic_types

    def enable_auto_generated_uids(self) -> 'ExecutionConfig':
        self._auto_generated_uids = True
        return self

    def disable_auto_generated_uids(self) -> 'ExecutionConfig':
        self._auto_generated_uids = False
        return self

    def has_auto_generated_uids_enabled(self) -> bool:
        return self._auto_generated_uids

    def enable_force_avro(self) -> 'ExecutionConfig':
        self._force_avro = True
        return self

    def disable_force_avro(self) -> 'ExecutionConfig':
        self._force_avro = False
        return self

    def is_force_avro_enabled(self) -> bool:
        return self._force_avro

    def get_registered_kryo_types(self) -> List[str]:
        """The class names given to Flink 1.x's ``register_kryo_type`` (and ``env.register_type``)."""
        return list(self._kryo_types)

    def get_registered_pojo_types(self) -> List[str]:
        """The class names given to Flink 1.x's ``register_pojo_type``."""
        return list(self._pojo_types)

    def get_default_kryo_serializer_classes(self) -> Dict[str, str]:
        """Type class name -> serializer class name, from Flink 1.x's ``add_default_kryo_serializer``."""
        return dict(self._default_kryo_serializers)

    # -- Flink 1.x names (removed in 2.0): accepted, recorded and read back; each use warns. Kryo and POJO
    # registrations have no effect (pyflink-compat does not serialize with Kryo). -----------------------

    def add_default_kryo_serializer(self, type_class_name: str, serializer_class_name: str):
        removed_in_2("ExecutionConfig.add_default_kryo_serializer", _SERIALIZATION_CONFIG, "1.19")
        self._default_kryo_serializers[type_class_name] = serializer_class_name

    def register_type_with_kryo_serializer(self, type_class_name: str, serializer_class_name: str):
        removed_in_2("ExecutionConfig.register_type_with_kryo_serializer", _SERIALIZATION_CONFIG, "1.19")
        self._kryo_serializers[type_class_name] = serializer_class_name

    def get_registered_types_with_kryo_serializer_classes(self) -> Dict[str, str]:
        removed_in_2("ExecutionConfig.get_registered_types_with_kryo_serializer_classes", _SERIALIZATION_CONFIG,
                     "1.19")
        return dict(self._kryo_serializers)

    def register_pojo_type(self, type_class_name: str):
        removed_in_2("ExecutionConfig.register_pojo_type", _SERIALIZATION_CONFIG, "1.19")
        self._register(self._pojo_types, type_class_name)

    def register_kryo_type(self, type_class_name: str):
        removed_in_2("ExecutionConfig.register_kryo_type", _SERIALIZATION_CONFIG, "1.19")
        self._register(self._kryo_types, type_class_name)

    @staticmethod
    def _register(registered: list, type_class_name: str):
        if type_class_name not in registered:           # Java keeps them in a LinkedHashSet
            registered.append(type_class_name)

    def disable_auto_type_registration(self):
        removed_in_2("ExecutionConfig.disable_auto_type_registration",
                     "set pipeline.auto-type-registration to false in the configuration")
        self._auto_type_registration = False

    def is_auto_type_registration_disabled(self) -> bool:
        removed_in_2("ExecutionConfig.is_auto_type_registration_disabled",
                     "read pipeline.auto-type-registration from the configuration")
        return not self._auto_type_registration

    def set_execution_mode(self, execution_mode: 'ExecutionMode'):
        """Flink 1.x (DataSet programs only): recorded, no effect."""
        removed_in_2("ExecutionConfig.set_execution_mode",
                     "it applied to the DataSet API only; use StreamExecutionEnvironment.set_runtime_mode")
        from pyflink_compat.common.execution_mode import ExecutionMode
        if not isinstance(execution_mode, ExecutionMode):
            raise TypeError("execution_mode must be an ExecutionMode, got %r" % (execution_mode,))
        self._execution_mode = execution_mode

    def get_execution_mode(self) -> 'ExecutionMode':
        removed_in_2("ExecutionConfig.get_execution_mode",
                     "it applied to the DataSet API only; use StreamExecutionEnvironment.set_runtime_mode")
        return self._execution_mode

    def set_default_input_dependency_constraint(self, input_dependency_constraint: 'InputDependencyConstraint'):
        """Flink 1.x: recorded, no effect (nor had it any in Flink since 1.13)."""
        removed_in_2("ExecutionConfig.set_default_input_dependency_constraint",
                     "it has no effect since Flink 1.13; remove the call", "1.13")
        self._input_dependency_constraint = input_dependency_constraint

    def get_default_input_dependency_constraint(self) -> 'InputDependencyConstraint':
        removed_in_2("ExecutionConfig.get_default_input_dependency_constraint",
                     "it has no effect since Flink 1.13; remove the call", "1.13")
        return self._input_dependency_constraint

    def set_restart_strategy(self, restart_strategy_configuration: 'RestartStrategyConfiguration'):
        """Flink 1.x: writes the strategy's Flink 2.x configuration (``restart-strategy.type`` ...) into the
        environment's configuration. Recorded only: pyflink-compat does not restart a failed job."""
        removed_in_2("ExecutionConfig.set_restart_strategy", _RESTART_CONFIG, "1.19")
        self._set_restart_strategy(restart_strategy_configuration)

    def get_restart_strategy(self) -> 'RestartStrategyConfiguration':
        """Flink 1.x: the strategy the configuration describes (``FallbackRestartStrategyConfiguration``, the
        cluster's, when none is set)."""
        removed_in_2("ExecutionConfig.get_restart_strategy", _RESTART_CONFIG, "1.19")
        return self._get_restart_strategy()

    def _set_restart_strategy(self, restart_strategy_configuration):
        from pyflink_compat.common.restart_strategy import write_configuration
        write_configuration(self._configuration, restart_strategy_configuration)

    def _get_restart_strategy(self):
        from pyflink_compat.common.restart_strategy import read_configuration
        return read_configuration(self._configuration)

    def is_use_snapshot_compression(self) -> bool:
        return self._use_snapshot_compression

    def set_use_snapshot_compression(self, use_snapshot_compression: bool) -> 'ExecutionConfig':
        self._use_snapshot_compression = use_snapshot_compression
        return self

    def _settings(self) -> tuple:
        """Every setting, for equality and hashing (the environment's Configuration aside)."""
        return (self._auto_watermark_interval, self._closure_cleaner, self._generic_types,
                self._auto_generated_uids, self._force_kryo, self._force_avro, self._latency_tracking_interval,
                self._task_cancellation_interval, self._task_cancellation_timeout,
                bool(self._use_snapshot_compression), self._parallelism, self._max_parallelism,
                self._object_reuse, tuple(sorted(self._global_job_parameters.items(), key=repr)),
                tuple(self._kryo_types), tuple(self._pojo_types),
                tuple(sorted(self._kryo_serializers.items())), tuple(sorted(self._default_kryo_serializers.items())),
                self._auto_type_registration, self._execution_mode, self._input_dependency_constraint)

    def __eq__(self, other):
        # By value, as PyFlink's tests expect of two configs with the same settings.
        return isinstance(other, self.__class__) and self._settings() == other._settings()

    def __hash__(self):
        return hash(self._settings())

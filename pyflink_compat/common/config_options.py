"""Mirror of ``pyflink.common.config_options``: typed configuration keys, in pure Python.

``ConfigOptions.key('k').int_type().default_value(3)`` builds a ``ConfigOption`` holding the key, the value
type and the default. The ``j_...`` constructor arguments hold our own small records instead of Java objects.
"""
from typing import Generic, TypeVar

__all__ = ['ConfigOptions', 'ConfigOption']

T = TypeVar('T')

_NO_DEFAULT = object()


class _OptionSpec(object):
    """What PyFlink keeps in a Java ConfigOption: key, value type, default (or none)."""

    def __init__(self, key, value_type=None, default=_NO_DEFAULT):
        self.key = key
        self.value_type = value_type
        self.default = default

    def __eq__(self, other):
        return isinstance(other, _OptionSpec) and (self.key, self.value_type, self.default) == (
            other.key, other.value_type, other.default)

    def __hash__(self):
        return hash((self.key, self.value_type))


class ConfigOptions(object):
    """Builds ``ConfigOption``s: ``ConfigOptions.key(key).<type>_type().default_value(value)``."""

    def __init__(self, j_config_options):
        self._j_config_options = j_config_options

    @staticmethod
    def key(key: str):
        if key is None:
            raise TypeError("Could not find the key of the config option: key must not be None")
        return ConfigOptions.OptionBuilder(_OptionSpec(key))

    class OptionBuilder(object):
        def __init__(self, j_option_builder):
            self._j_option_builder = j_option_builder

        def _typed(self, value_type):
            return ConfigOptions.TypedConfigOptionBuilder(_OptionSpec(self._j_option_builder.key, value_type))

        def boolean_type(self) -> 'ConfigOptions.TypedConfigOptionBuilder[bool]':
            return self._typed(bool)

        def int_type(self) -> 'ConfigOptions.TypedConfigOptionBuilder[int]':
            return self._typed(int)

        def long_type(self) -> 'ConfigOptions.TypedConfigOptionBuilder[int]':
            return self._typed(int)

        def float_type(self) -> 'ConfigOptions.TypedConfigOptionBuilder[float]':
            return self._typed(float)

        def double_type(self) -> 'ConfigOptions.TypedConfigOptionBuilder[float]':
            return self._typed(float)

        def string_type(self) -> 'ConfigOptions.TypedConfigOptionBuilder[str]':
            return self._typed(str)

    class TypedConfigOptionBuilder(Generic[T]):
        def __init__(self, j_typed_config_option_builder):
            self._j_typed_config_option_builder = j_typed_config_option_builder

        def default_value(self, value: T) -> 'ConfigOption[T]':
            spec = self._j_typed_config_option_builder
            return ConfigOption(_OptionSpec(spec.key, spec.value_type, value))

        def no_default_value(self) -> 'ConfigOption[str]':
            spec = self._j_typed_config_option_builder
            return ConfigOption(_OptionSpec(spec.key, spec.value_type))


class ConfigOption(Generic[T]):
    """A configuration key with its value type and default value."""

    def __init__(self, j_config_option):
        self._j_config_option = j_config_option

    def key(self) -> str:
        return self._j_config_option.key

    def default_value(self):
        default = self._j_config_option.default
        return None if default is _NO_DEFAULT else default

    def has_default_value(self) -> bool:
        return self._j_config_option.default is not _NO_DEFAULT

    def __eq__(self, other):
        return isinstance(other, ConfigOption) and self._j_config_option == other._j_config_option

    def __hash__(self):
        return hash(self._j_config_option)

    def __repr__(self):
        return "Key: '%s' , default: %s (fallback keys: [])" % (self.key(), self.default_value())

"""pyspark's py4j converters for NumPy values, checked without importing pandas.

pyspark registers two py4j input converters, for NumPy arrays and NumPy scalars. py4j asks every
converter about every argument of the driver's calls into the JVM, and pyspark's check first imports
``pyspark.testing.utils`` to learn whether NumPy is installed; that module imports pandas. So the
driver's first JVM call imports pandas: 40 MiB of the driver's 130 MiB and about 0.6 s of CPU, for
values that PyFlink jobs never pass to Spark.

A value can only be a NumPy array or scalar if NumPy is already imported. ``install`` replaces the
two converters by ones that ask ``sys.modules`` for NumPy and then make the same type checks; the
conversion itself stays pyspark's.
"""
import sys


class _NumpyValueConverter:
    """A pyspark NumPy converter whose ``can_convert`` does not import pandas."""

    def __init__(self, original, accepts):
        self.original = original
        self._accepts = accepts

    def can_convert(self, obj) -> bool:
        numpy = sys.modules.get("numpy")
        return numpy is not None and self._accepts(numpy, obj)

    def convert(self, obj, gateway_client):
        return self.original.convert(obj, gateway_client)


def _is_one_dimensional_array(numpy, obj) -> bool:
    return isinstance(obj, numpy.ndarray) and obj.ndim == 1


def _is_scalar(numpy, obj) -> bool:
    return isinstance(obj, numpy.generic)


def install():
    """Swap pyspark's NumPy converters in py4j's converter list (idempotent; call before the JVM starts)."""
    from py4j import protocol
    from pyspark.sql import types
    checks = {}
    for class_name, accepts in (("NumpyArrayConverter", _is_one_dimensional_array),
                                ("NumpyScalarConverter", _is_scalar)):
        converter_class = getattr(types, class_name, None)
        if converter_class is not None:          # a pyspark without it has nothing to swap
            checks[converter_class] = accepts
    converters = protocol.INPUT_CONVERTER        # the list py4j's gateway clients use
    for index, converter in enumerate(converters):
        accepts = checks.get(type(converter))
        if accepts is not None:
            converters[index] = _NumpyValueConverter(converter, accepts)

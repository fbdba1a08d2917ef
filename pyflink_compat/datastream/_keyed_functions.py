"""The KeyedProcessFunctions behind KeyedStream's map / flat_map / filter, as PyFlink builds them: every
operation on a keyed stream is a keyed process function (ours are written from PyFlink's documented
behaviour, not copied). reduce / sum / min / max / min_by / max_by: runtime/keyed/rolling.py.
"""
from pyflink_compat.datastream.functions import KeyedProcessFunction
from pyflink_compat.runtime.keyed.rolling import (MAX, MAX_BY, MIN, MIN_BY, SUM,  # noqa: F401 (re-exported)
                                                  AccumulateReduceFunction, ReduceKeyedProcessFunction)


def _parts(function, method_name):
    """(open, close, the per-element method) of a Function object or a plain callable."""
    if callable(getattr(function, method_name, None)) and not isinstance(function, type):
        return (getattr(function, "open", None), getattr(function, "close", None), getattr(function, method_name))
    return None, None, function


class _Adapter(KeyedProcessFunction):
    METHOD = None

    def __init__(self, function):
        self._open, self._close, self._call = _parts(function, self.METHOD)

    def open(self, runtime_context):
        if self._open is not None:
            self._open(runtime_context)

    def close(self):
        if self._close is not None:
            self._close()


class KeyedMap(_Adapter):
    METHOD = "map"

    def process_element(self, value, ctx):
        yield self._call(value)


class KeyedFlatMap(_Adapter):
    METHOD = "flat_map"

    def process_element(self, value, ctx):
        result = self._call(value)
        if result is not None:
            yield from result


class KeyedFilter(_Adapter):
    METHOD = "filter"

    def process_element(self, value, ctx):
        if self._call(value):
            yield value

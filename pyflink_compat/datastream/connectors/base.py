"""Base classes of unified sources and sinks (mirror of ``pyflink.datastream.connectors.base``).

PyFlink's ``Source``/``Sink`` wrap a Java object (or load a Java class by
name). Ours wrap the plain spec object our connectors build (for Kafka a
``kafka_io.spec.KafkaSourceSpec``/``KafkaSinkSpec``); there is no JVM, so a
Java class name cannot be loaded.
"""
from abc import ABC, abstractmethod
from enum import Enum
from typing import Optional

from pyflink_compat.util.exceptions import UnsupportedFeatureError

__all__ = ['Source', 'Sink', 'DeliveryGuarantee', 'StreamTransformer', 'SupportsPreprocessing']


def _reject_java_class_name(kind: str, value):
    if isinstance(value, str):
        raise UnsupportedFeatureError(
            "%s(%r)" % (kind, value), "unsupported-apis",
            "pyflink-compat has no JVM, so a Java %s cannot be loaded by class name" % kind.lower())


class Source(object):
    """Base class for all unified data sources.

    Keeps PyFlink's constructor signature ``__init__(self, source)``; ``source``
    is the connector's spec object and is kept in ``self._spec``.
    """

    def __init__(self, source):
        _reject_java_class_name("Source", source)
        self._spec = source

    def get_java_function(self):
        raise UnsupportedFeatureError("Source.get_java_function", "unsupported-apis",
                                      "pyflink-compat has no Java objects")

    def __repr__(self):
        return "%s(%r)" % (type(self).__name__, self._spec)


class Sink(object):
    """Base class for all unified data sinks.

    Keeps PyFlink's constructor signature ``__init__(self, sink)``; ``sink`` is
    the connector's spec object and is kept in ``self._spec``.
    """

    def __init__(self, sink):
        _reject_java_class_name("Sink", sink)
        self._spec = sink

    def get_java_function(self):
        raise UnsupportedFeatureError("Sink.get_java_function", "unsupported-apis",
                                      "pyflink-compat has no Java objects")

    def __repr__(self):
        return "%s(%r)" % (type(self).__name__, self._spec)


class DeliveryGuarantee(Enum):
    """Delivery guarantees a sink can offer.

    The values reproduce PyFlink's exactly, including the quirk of its
    definition: ``EXACTLY_ONCE.value == (0,)``, ``AT_LEAST_ONCE.value == (1,)``
    (tuples, from trailing commas) and ``NONE.value == 2``.
    """

    EXACTLY_ONCE = (0,)
    AT_LEAST_ONCE = (1,)
    NONE = 2

    def _to_string(self) -> str:
        """Java's ``DeliveryGuarantee.toString()``: "exactly-once", "at-least-once", "none"."""
        return _DELIVERY_GUARANTEE_STRINGS[self]


_DELIVERY_GUARANTEE_STRINGS = {
    DeliveryGuarantee.EXACTLY_ONCE: "exactly-once",
    DeliveryGuarantee.AT_LEAST_ONCE: "at-least-once",
    DeliveryGuarantee.NONE: "none",
}


class StreamTransformer(ABC):
    """A transformation a sink asks to have applied to the stream before it (PyFlink API)."""

    @abstractmethod
    def apply(self, ds):
        pass


class SupportsPreprocessing(ABC):
    """A sink that may need a preprocessing transformation (see ``DataStream.sink_to``)."""

    @abstractmethod
    def get_transformer(self) -> Optional[StreamTransformer]:
        pass

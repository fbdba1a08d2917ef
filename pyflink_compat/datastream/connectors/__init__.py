"""Connectors (mirror of ``pyflink.datastream.connectors``).

Like PyFlink, the package exports ``Sink``, ``Source`` and ``DeliveryGuarantee``
and, for backward compatibility, installs a few connector classes as package
attributes: ``KafkaSource``, ``FlinkKafkaConsumer``, ``FlinkKafkaProducer``,
``Semantic`` and the dynamic-kafka names, but **not** ``KafkaSink`` (so
``from ...connectors import KafkaSink`` raises ImportError, as in PyFlink).
The other connectors PyFlink installs here (number sequence, JDBC, Pulsar,
RabbitMQ, file system) exist but raise ``UnsupportedFeatureError`` when used.
"""
from pyflink_compat.datastream.connectors.base import Sink, Source, DeliveryGuarantee

__all__ = [
    'Sink',
    'Source',
    'DeliveryGuarantee'
]

# Connectors pyflink-compat does not provide, per backward-compatibility name PyFlink installs.
_UNSUPPORTED_CONNECTOR_NAMES = {
    "the number sequence source": ['NumberSequenceSource'],
    "the JDBC connector": ['JdbcSink', 'JdbcConnectionOptions', 'JdbcExecutionOptions'],
    "the Pulsar connector": ['PulsarSource', 'PulsarSourceBuilder', 'StartCursor', 'StopCursor'],
    "the RabbitMQ connector": ['RMQSource', 'RMQSink', 'RMQConnectionConfig'],
    "the file system connector": ['BucketAssigner', 'FileEnumeratorProvider', 'FileSink',
                                  'FileSplitAssignerProvider', 'FileSource', 'FileSourceBuilder',
                                  'OutputFileConfig', 'RollingPolicy', 'StreamFormat',
                                  'StreamingFileSink'],
}


def _install():
    import sys

    from pyflink_compat.util.exceptions import unsupported_class

    package = sys.modules[__name__]

    from pyflink_compat.datastream.connectors import kafka
    for name in ('KafkaSource', 'FlinkKafkaConsumer', 'FlinkKafkaProducer', 'Semantic'):
        setattr(package, name, getattr(kafka, name))

    from pyflink_compat.datastream.connectors import dynamic_kafka
    for name in dynamic_kafka.__all__:
        setattr(package, name, getattr(dynamic_kafka, name))

    for what, names in _UNSUPPORTED_CONNECTOR_NAMES.items():
        for name in names:
            setattr(package, name,
                    unsupported_class(name, "unsupported-apis", "%s is not provided" % what))


# for backward compatibility, as PyFlink does
_install()
del _install

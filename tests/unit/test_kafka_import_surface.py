"""Import surface of the connectors package, the legacy Kafka API and dynamic Kafka."""
import inspect
import warnings

import pytest

from pyflink_compat.common.serialization import SimpleStringSchema
from pyflink_compat.util.exceptions import UnsupportedFeatureError


def test_kafka_all_matches_pyflink():
    from pyflink_compat.datastream.connectors import kafka
    assert kafka.__all__ == [
        'FlinkKafkaConsumer', 'FlinkKafkaProducer', 'KafkaSource', 'KafkaSourceBuilder', 'KafkaSink',
        'KafkaSinkBuilder', 'Semantic', 'KafkaTopicPartition', 'KafkaOffsetsInitializer',
        'KafkaOffsetResetStrategy', 'KafkaRecordSerializationSchema',
        'KafkaRecordSerializationSchemaBuilder', 'KafkaTopicSelector']
    for name in kafka.__all__ + ['FlinkKafkaConsumerBase', 'FlinkKafkaProducerBase', 'DeliveryGuarantee']:
        assert hasattr(kafka, name), name


def test_star_import():
    ns = {}
    exec("from pyflink_compat.datastream.connectors.kafka import *", ns)
    assert "KafkaSink" in ns and "DeliveryGuarantee" not in ns


def test_package_all_and_installed_names():
    from pyflink_compat.datastream import connectors
    from pyflink_compat.datastream.connectors import dynamic_kafka, kafka
    assert connectors.__all__ == ['Sink', 'Source', 'DeliveryGuarantee']
    for name in ('KafkaSource', 'FlinkKafkaConsumer', 'FlinkKafkaProducer', 'Semantic'):
        assert getattr(connectors, name) is getattr(kafka, name)
    for name in dynamic_kafka.__all__:
        assert getattr(connectors, name) is getattr(dynamic_kafka, name)


def test_kafka_sink_is_not_on_the_package():
    with pytest.raises(ImportError):
        from pyflink_compat.datastream.connectors import KafkaSink  # noqa: F401
    for name in ('KafkaSourceBuilder', 'KafkaOffsetsInitializer', 'KafkaRecordSerializationSchema'):
        with pytest.raises(ImportError):
            exec("from pyflink_compat.datastream.connectors import %s" % name, {})


def test_package_imports_work():
    from pyflink_compat.datastream.connectors import (  # noqa: F401
        DeliveryGuarantee, FlinkKafkaConsumer, FlinkKafkaProducer, KafkaSource, Semantic, Sink, Source)


@pytest.mark.parametrize("name", [
    'NumberSequenceSource', 'JdbcSink', 'JdbcConnectionOptions', 'JdbcExecutionOptions',
    'PulsarSource', 'PulsarSourceBuilder', 'StartCursor', 'StopCursor',
    'RMQSource', 'RMQSink', 'RMQConnectionConfig',
    'BucketAssigner', 'FileEnumeratorProvider', 'FileSink', 'FileSplitAssignerProvider', 'FileSource',
    'FileSourceBuilder', 'OutputFileConfig', 'RollingPolicy', 'StreamFormat', 'StreamingFileSink'])
def test_other_backward_compat_names_exist_but_are_unsupported(name):
    from pyflink_compat.datastream import connectors
    cls = getattr(connectors, name)
    with pytest.raises(UnsupportedFeatureError) as e:
        cls()
    assert e.value.section == "unsupported-apis"
    assert name in str(e.value)


# --- legacy API --------------------------------------------------------------------------------

def test_flink_kafka_consumer_warns_deprecated():
    from pyflink_compat.datastream.connectors.kafka import FlinkKafkaConsumer
    with pytest.warns(DeprecationWarning, match=r"^Deprecated in 1\.16\. Use KafkaSource instead\.$"):
        FlinkKafkaConsumer("t", SimpleStringSchema(), {"bootstrap.servers": "b:1"})


def test_flink_kafka_producer_does_not_warn():
    from pyflink_compat.datastream.connectors.kafka import FlinkKafkaProducer
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        FlinkKafkaProducer("t", SimpleStringSchema(), {"bootstrap.servers": "b:1"})


def test_legacy_signatures():
    from pyflink_compat.datastream.connectors.kafka import FlinkKafkaConsumer, FlinkKafkaProducer, Semantic
    assert list(inspect.signature(FlinkKafkaConsumer.__init__).parameters) == [
        'self', 'topics', 'deserialization_schema', 'properties']
    params = inspect.signature(FlinkKafkaProducer.__init__).parameters
    assert list(params) == ['self', 'topic', 'serialization_schema', 'producer_config',
                            'kafka_producer_pool_size', 'semantic']
    assert params['kafka_producer_pool_size'].default == 5
    assert params['semantic'].default is Semantic.AT_LEAST_ONCE


def test_semantic_values():
    from pyflink_compat.datastream.connectors.kafka import Semantic
    assert Semantic.EXACTLY_ONCE.value == (0,)
    assert Semantic.AT_LEAST_ONCE.value == (1,)
    assert Semantic.NONE.value == 2


# --- dynamic kafka -----------------------------------------------------------------------------

def test_dynamic_kafka_names_and_all():
    from pyflink_compat.datastream.connectors import dynamic_kafka
    assert sorted(dynamic_kafka.__all__) == sorted([
        'DynamicKafkaSource', 'DynamicKafkaSourceBuilder', 'KafkaMetadataService',
        'KafkaRecordDeserializationSchema', 'KafkaStreamSetSubscriber', 'KafkaStreamSubscriber',
        'StreamPatternSubscriber', 'SingleClusterTopicMetadataService'])


@pytest.mark.parametrize("make", [
    lambda m: m.DynamicKafkaSource.builder(),
    lambda m: m.DynamicKafkaSourceBuilder(),
    lambda m: m.DynamicKafkaSource(None),
    lambda m: m.SingleClusterTopicMetadataService("c", {}),
    lambda m: m.KafkaMetadataService(None),
    lambda m: m.KafkaStreamSetSubscriber({"s"}),
    lambda m: m.StreamPatternSubscriber("s.*"),
    lambda m: m.KafkaStreamSubscriber(None),
    lambda m: m.KafkaRecordDeserializationSchema(None),
    lambda m: m.KafkaRecordDeserializationSchema.value_only(SimpleStringSchema()),
])
def test_dynamic_kafka_is_unsupported(make):
    from pyflink_compat.datastream.connectors import dynamic_kafka
    with pytest.raises(UnsupportedFeatureError) as e:
        make(dynamic_kafka)
    assert e.value.section == "dynamic-kafka"


# --- base --------------------------------------------------------------------------------------

def test_base_classes():
    from pyflink_compat.datastream.connectors.base import (
        Sink, Source, StreamTransformer, SupportsPreprocessing)
    assert list(inspect.signature(Source.__init__).parameters) == ['self', 'source']
    assert list(inspect.signature(Sink.__init__).parameters) == ['self', 'sink']
    with pytest.raises(TypeError):
        StreamTransformer()
    with pytest.raises(TypeError):
        SupportsPreprocessing()
    with pytest.raises(UnsupportedFeatureError):
        Source("org.example.MySource")

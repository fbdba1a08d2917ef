from pyflink.common import Types, WatermarkStrategy
from pyflink.common.serialization import SimpleStringSchema
from pyflink.datastream.connectors.kafka import (KafkaOffsetsInitializer, KafkaRecordSerializationSchema,
                                                 KafkaSink, KafkaSource)


def kafka_source(brokers, topic, group):
    return (KafkaSource.builder().set_bootstrap_servers(brokers).set_topics(topic).set_group_id(group)
            .set_starting_offsets(KafkaOffsetsInitializer.earliest())
            .set_bounded(KafkaOffsetsInitializer.latest())
            .set_value_only_deserializer(SimpleStringSchema()).build())


kafka_source.extra = (WatermarkStrategy.no_watermarks(), "Kafka Source")


def shout(value):
    return value.upper() + "!"


def kafka_sink(brokers, topic):
    return (KafkaSink.builder().set_bootstrap_servers(brokers)
            .set_record_serializer(KafkaRecordSerializationSchema.builder().set_topic(topic)
                                   .set_value_serialization_schema(SimpleStringSchema()).build()).build())


OUTPUT_TYPE = Types.STRING()

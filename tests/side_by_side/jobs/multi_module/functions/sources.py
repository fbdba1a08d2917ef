from pyflink.common.serialization import SimpleStringSchema
from pyflink.datastream.connectors.base import DeliveryGuarantee
from pyflink.datastream.connectors.kafka import (KafkaOffsetsInitializer, KafkaRecordSerializationSchema,
                                                 KafkaSink, KafkaSource)

import settings


def kafka_source(brokers, topic):
    return (KafkaSource.builder().set_bootstrap_servers(brokers).set_topics(topic).set_group_id(settings.GROUP_ID)
            .set_starting_offsets(KafkaOffsetsInitializer.earliest())
            .set_bounded(KafkaOffsetsInitializer.latest())
            .set_value_only_deserializer(SimpleStringSchema()).build())


def kafka_sink(brokers, topic):
    return (KafkaSink.builder().set_bootstrap_servers(brokers)
            .set_record_serializer(KafkaRecordSerializationSchema.builder().set_topic(topic)
                                   .set_value_serialization_schema(SimpleStringSchema()).build())
            .set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE).build())

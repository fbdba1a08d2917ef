"""An unbounded checkpointed Kafka job that upper-cases into an EXACTLY_ONCE Kafka sink: it runs until stopped.

    unbounded_exactly_once_job.py BOOTSTRAP INPUT_TOPIC OUTPUT_TOPIC TRANSACTIONAL_ID_PREFIX
"""
import sys

from pyflink.common import Types, WatermarkStrategy
from pyflink.common.serialization import SimpleStringSchema
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.base import DeliveryGuarantee
from pyflink.datastream.connectors.kafka import (KafkaOffsetsInitializer, KafkaRecordSerializationSchema,
                                                 KafkaSink, KafkaSource)

bootstrap, input_topic, output_topic, prefix = sys.argv[1:5]
env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
env.enable_checkpointing(1000)
source = (KafkaSource.builder().set_bootstrap_servers(bootstrap).set_topics(input_topic)
          .set_starting_offsets(KafkaOffsetsInitializer.earliest())
          .set_value_only_deserializer(SimpleStringSchema()).build())
sink = (KafkaSink.builder().set_bootstrap_servers(bootstrap)
        .set_record_serializer(KafkaRecordSerializationSchema.builder().set_topic(output_topic)
                               .set_value_serialization_schema(SimpleStringSchema()).build())
        .set_delivery_guarantee(DeliveryGuarantee.EXACTLY_ONCE).set_transactional_id_prefix(prefix).build())
env.from_source(source, WatermarkStrategy.no_watermarks(), "Kafka Source") \
    .map(lambda s: s.upper(), output_type=Types.STRING()).sink_to(sink).uid("upper-out")
env.execute("unbounded exactly-once job")

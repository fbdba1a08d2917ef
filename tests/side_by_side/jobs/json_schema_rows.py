"""Kafka JSON read with a row type from a JSON Schema (JsonRowDeserializationSchema json_schema()) -> print the
Python values -> Kafka JSON written with the same type.

Usage: json_schema_rows.py BOOTSTRAP INPUT_TOPIC OUTPUT_TOPIC
"""
import sys

from pyflink.common import WatermarkStrategy
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.base import DeliveryGuarantee
from pyflink.datastream.connectors.kafka import (KafkaOffsetsInitializer, KafkaRecordSerializationSchema,
                                                 KafkaSink, KafkaSource)
from pyflink.datastream.formats.json import JsonRowDeserializationSchema, JsonRowSerializationSchema

SCHEMA = """{
  "type": "object",
  "properties": {
    "id": {"type": "integer"},
    "name": {"type": ["string", "null"]},
    "price": {"type": "number"},
    "ok": {"type": "boolean"},
    "day": {"type": "string", "format": "date"},
    "tags": {"type": "array", "items": {"type": "string"}},
    "scores": {"type": "array", "items": {"type": "number"}},
    "where": {"$ref": "#/definitions/place"}
  },
  "definitions": {
    "place": {"type": "object", "properties": {"city": {"type": "string"}, "zip": {"type": "integer"}}}
  }
}"""

brokers, input_topic, output_topic = sys.argv[1:4]
builder = JsonRowDeserializationSchema.builder().json_schema(SCHEMA)
row_type = builder._type_info if hasattr(builder, "_type_info") else None
env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
source = (KafkaSource.builder().set_bootstrap_servers(brokers).set_topics(input_topic)
          .set_group_id("side-by-side-json-schema")
          .set_starting_offsets(KafkaOffsetsInitializer.earliest())
          .set_bounded(KafkaOffsetsInitializer.latest())
          .set_value_only_deserializer(builder.build()).build())
rows = env.from_source(source, WatermarkStrategy.no_watermarks(), "rows")
rows.map(lambda r: "%r" % (r,)).print("py")
rows.sink_to(KafkaSink.builder().set_bootstrap_servers(brokers)
             .set_record_serializer(KafkaRecordSerializationSchema.builder().set_topic(output_topic)
                                    .set_value_serialization_schema(
                                        JsonRowSerializationSchema.builder().with_type_info(row_type).build())
                                    .build())
             .set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE).build())
env.execute("side-by-side json schema rows")

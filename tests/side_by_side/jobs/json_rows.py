"""Kafka JSON (JsonRowDeserializationSchema) -> map -> filter on a field -> Kafka JSON (JsonRowSerializationSchema).

Usage: json_rows.py BOOTSTRAP MODE INPUT_TOPIC OUTPUT_TOPIC [MODE INPUT_TOPIC OUTPUT_TOPIC ...]
One pipeline per MODE, all in one job: "strict", or "ignore" where the deserializer skips malformed records
(ignore_parse_errors).
"""
import sys

from pyflink.common import Row, Types, WatermarkStrategy
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.base import DeliveryGuarantee
from pyflink.datastream.connectors.kafka import (KafkaOffsetsInitializer, KafkaRecordSerializationSchema,
                                                 KafkaSink, KafkaSource)
from pyflink.datastream.formats.json import JsonRowDeserializationSchema, JsonRowSerializationSchema

NAMES = ["id", "name", "price", "qty", "ok", "amount", "day", "at", "tags", "attrs", "where", "raw"]
ORDER = Types.ROW_NAMED(NAMES, [
    Types.INT(), Types.STRING(), Types.DOUBLE(), Types.LONG(), Types.BOOLEAN(), Types.BIG_DEC(), Types.SQL_DATE(),
    Types.SQL_TIMESTAMP(), Types.BASIC_ARRAY(Types.STRING()), Types.MAP(Types.STRING(), Types.INT()),
    Types.ROW_NAMED(["city", "zip"], [Types.STRING(), Types.INT()]), Types.STRING()])


def transform(order):
    return Row(id=order.id,
               name=None if order.name is None else order.name.upper(),
               price=None if order.price is None else order.price * 2,
               qty=None if order.qty is None else order.qty + 1,
               ok=order.ok, amount=order.amount, day=order.day, at=order.at,
               tags=None if order.tags is None else list(reversed(order.tags)),
               attrs=order.attrs, where=order.where, raw=order.raw)


brokers, specs = sys.argv[1], sys.argv[2:]
env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
for mode, input_topic, output_topic in zip(specs[0::3], specs[1::3], specs[2::3]):
    deserializer = JsonRowDeserializationSchema.builder().type_info(ORDER)
    if mode == "ignore":
        deserializer = deserializer.ignore_parse_errors()
    source = (KafkaSource.builder().set_bootstrap_servers(brokers).set_topics(input_topic)
              .set_group_id("side-by-side-json")
              .set_starting_offsets(KafkaOffsetsInitializer.earliest())
              .set_bounded(KafkaOffsetsInitializer.latest())
              .set_value_only_deserializer(deserializer.build()).build())
    orders = env.from_source(source, WatermarkStrategy.no_watermarks(), "orders " + mode)
    kept = orders.map(transform, output_type=ORDER).filter(lambda o: o.id is None or o.id % 3 != 0)
    kept.sink_to(KafkaSink.builder().set_bootstrap_servers(brokers)
                 .set_record_serializer(KafkaRecordSerializationSchema.builder().set_topic(output_topic)
                                        .set_value_serialization_schema(
                                            JsonRowSerializationSchema.builder().with_type_info(ORDER).build())
                                        .build())
                 .set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE).build())
env.execute("side-by-side json rows")

"""Two topics with different JSON schemas merged with union into one keyed event-time window.

Usage: union_window.py BOOTSTRAP ORDERS_TOPIC PAYMENTS_TOPIC OUT_TOPIC
(orders: {"user", "amount", "ts"}; payments: {"customer", "value", "time"}; times in ms)
"""
import json
import sys

from pyflink.common import Duration, SimpleStringSchema, Time, Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.base import DeliveryGuarantee
from pyflink.datastream.connectors.kafka import (KafkaOffsetsInitializer, KafkaRecordSerializationSchema,
                                                 KafkaSink, KafkaSource)
from pyflink.datastream.window import TumblingEventTimeWindows

brokers, orders_topic, payments_topic, out_topic = sys.argv[1:5]
EVENT = Types.TUPLE([Types.STRING(), Types.LONG(), Types.LONG()])      # who, amount, time


class EventTime(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[2]


def source(topic):
    return (KafkaSource.builder().set_bootstrap_servers(brokers).set_topics(topic)
            .set_group_id("side-by-side-union-window").set_starting_offsets(KafkaOffsetsInitializer.earliest())
            .set_bounded(KafkaOffsetsInitializer.latest())
            .set_value_only_deserializer(SimpleStringSchema()).build())


def order(text):
    record = json.loads(text)
    return record["user"], record["amount"], record["ts"]


def payment(text):
    record = json.loads(text)
    return record["customer"], record["value"], record["time"]


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
orders = env.from_source(source(orders_topic), WatermarkStrategy.no_watermarks(), "orders") \
    .map(order, output_type=EVENT)
payments = env.from_source(source(payments_topic), WatermarkStrategy.no_watermarks(), "payments") \
    .map(payment, output_type=EVENT)
# out-of-orderness wide enough that no element is late whichever way the two topics interleave
sums = orders.union(payments) \
    .assign_timestamps_and_watermarks(WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_seconds(3600))
                                      .with_timestamp_assigner(EventTime())) \
    .key_by(lambda e: e[0], key_type=Types.STRING()) \
    .window(TumblingEventTimeWindows.of(Time.seconds(10))) \
    .reduce(lambda a, b: (a[0], a[1] + b[1], max(a[2], b[2])), output_type=EVENT)
sums.print("window")
sums.map(lambda e: "%s:%d:%d" % e, output_type=Types.STRING()) \
    .sink_to(KafkaSink.builder().set_bootstrap_servers(brokers)
             .set_record_serializer(KafkaRecordSerializationSchema.builder().set_topic(out_topic)
                                    .set_value_serialization_schema(SimpleStringSchema()).build())
             .set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE).build())
env.execute("side-by-side union window")

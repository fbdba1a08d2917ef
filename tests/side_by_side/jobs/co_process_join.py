"""Orders enriched with their payments by a KeyedCoProcessFunction: state and event-time timers shared by
both inputs of one key; an order without payment times out when its timer fires (here when the inputs end),
a payment before its order waits for it.

Usage: co_process_join.py BOOTSTRAP ORDERS_TOPIC PAYMENTS_TOPIC OUT_TOPIC
(orders: "order_id,amount,ts"; payments: {"order": order_id, "paid": amount, "time": ts}; times in ms, all
within one timeout, so that timers fire only once both inputs have ended, whichever way they interleave)
"""
import json
import sys

from pyflink.common import Duration, SimpleStringSchema, Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.base import DeliveryGuarantee
from pyflink.datastream.connectors.kafka import (KafkaOffsetsInitializer, KafkaRecordSerializationSchema,
                                                 KafkaSink, KafkaSource)
from pyflink.datastream.functions import KeyedCoProcessFunction
from pyflink.datastream.state import ValueStateDescriptor

brokers, orders_topic, payments_topic, out_topic = sys.argv[1:5]
ORDER = Types.TUPLE([Types.STRING(), Types.INT(), Types.LONG()])
PAYMENT = Types.ROW_NAMED(["order", "paid", "time"], [Types.STRING(), Types.INT(), Types.LONG()])
TIMEOUT_MS = 60_000


class OrderTime(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[2]


class PaymentTime(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value.time


def source(topic):
    return (KafkaSource.builder().set_bootstrap_servers(brokers).set_topics(topic)
            .set_group_id("side-by-side-co-process").set_starting_offsets(KafkaOffsetsInitializer.earliest())
            .set_bounded(KafkaOffsetsInitializer.latest())
            .set_value_only_deserializer(SimpleStringSchema()).build())


def order(text):
    order_id, amount, ts = text.split(",")
    return order_id, int(amount), int(ts)


def payment(text):
    from pyflink.common import Row
    record = json.loads(text)
    return Row(order=record["order"], paid=record["paid"], time=record["time"])


class Enrich(KeyedCoProcessFunction):
    def open(self, runtime_context):
        # types made here: PyFlink cannot pickle a function holding a TypeInformation already used by the job
        order_type = Types.TUPLE([Types.STRING(), Types.INT(), Types.LONG()])
        self.order = runtime_context.get_state(ValueStateDescriptor("order", order_type))
        self.early = runtime_context.get_state(ValueStateDescriptor("early-payment", Types.INT()))
        self.early_time = runtime_context.get_state(ValueStateDescriptor("early-payment-time", Types.LONG()))

    def process_element1(self, value, ctx):
        early = self.early.value()
        if early is not None:                      # the payment came first
            self.early.clear()
            ctx.timer_service().delete_event_time_timer(self.early_time.value() + TIMEOUT_MS)
            yield "PAID %s amount=%d paid=%d key=%s" % (value[0], value[1], early, ctx.get_current_key())
            return
        self.order.update(value)
        ctx.timer_service().register_event_time_timer(ctx.timestamp() + TIMEOUT_MS)

    def process_element2(self, value, ctx):
        pending = self.order.value()
        if pending is None:
            self.early.update(value.paid)
            self.early_time.update(ctx.timestamp())
            ctx.timer_service().register_event_time_timer(ctx.timestamp() + TIMEOUT_MS)
            return
        self.order.clear()
        ctx.timer_service().delete_event_time_timer(pending[2] + TIMEOUT_MS)
        yield "PAID %s amount=%d paid=%d key=%s" % (pending[0], pending[1], value.paid, ctx.get_current_key())

    def on_timer(self, timestamp, ctx):
        pending = self.order.value()
        if pending is not None:
            self.order.clear()
            yield "TIMEOUT %s amount=%d at %d (%s)" % (pending[0], pending[1], timestamp, ctx.time_domain())
        if self.early.value() is not None:
            yield "UNMATCHED payment for %s paid=%d at %d" % (ctx.get_current_key(), self.early.value(), timestamp)
            self.early.clear()


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(2)
# a different watermark strategy per input
orders = env.from_source(source(orders_topic), WatermarkStrategy.no_watermarks(), "orders") \
    .map(order, output_type=ORDER) \
    .assign_timestamps_and_watermarks(WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_hours(1))
                                      .with_timestamp_assigner(OrderTime()))
payments = env.from_source(source(payments_topic), WatermarkStrategy.no_watermarks(), "payments") \
    .map(payment, output_type=PAYMENT) \
    .assign_timestamps_and_watermarks(WatermarkStrategy.for_monotonous_timestamps()
                                      .with_timestamp_assigner(PaymentTime()))
enriched = orders.connect(payments) \
    .key_by(lambda o: o[0], lambda p: p.order, key_type=Types.STRING()) \
    .process(Enrich(), output_type=Types.STRING())
enriched.print("enriched")
enriched.sink_to(KafkaSink.builder().set_bootstrap_servers(brokers)
                 .set_record_serializer(KafkaRecordSerializationSchema.builder().set_topic(out_topic)
                                        .set_value_serialization_schema(SimpleStringSchema()).build())
                 .set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE).build())
env.execute("side-by-side co-process join")

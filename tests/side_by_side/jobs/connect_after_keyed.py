"""A keyed operation's output connected with, and merged with, a second Kafka topic: running totals per name
(a keyed reduce) tagged beside the limits (CoMap, to Kafka), joined with them in a KeyedCoProcessFunction whose
timers report each name's final total against its limit at the end of input, and merged with them (union)
into a second keyed operation counting what each name saw; and the totals against the output of a second keyed
operation (the highest limit per name): two keyed operations meeting in a third.

Usage: connect_after_keyed.py BOOTSTRAP ORDERS_TOPIC LIMITS_TOPIC TAGGED_TOPIC
"""
import sys

from pyflink.common import SimpleStringSchema, Types, WatermarkStrategy
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.base import DeliveryGuarantee
from pyflink.datastream.connectors.kafka import (KafkaOffsetsInitializer, KafkaRecordSerializationSchema,
                                                 KafkaSink, KafkaSource)
from pyflink.datastream.functions import CoMapFunction, KeyedCoProcessFunction, KeyedProcessFunction, RuntimeContext
from pyflink.datastream.state import ValueStateDescriptor

brokers, orders_topic, limits_topic, tagged_topic = sys.argv[1:5]
PAIR = Types.TUPLE([Types.STRING(), Types.INT()])
END = 1000          # any time: event-time timers fire when the bounded inputs end


def source(topic, name):
    kafka = (KafkaSource.builder().set_bootstrap_servers(brokers).set_topics(topic)
             .set_group_id("side-by-side-connect-after-keyed")
             .set_starting_offsets(KafkaOffsetsInitializer.earliest())
             .set_bounded(KafkaOffsetsInitializer.latest())
             .set_value_only_deserializer(SimpleStringSchema()).build())
    return env.from_source(kafka, WatermarkStrategy.no_watermarks(), name) \
        .map(lambda line: (line.split(",")[0], int(line.split(",")[1])), output_type=PAIR)


class Tag(CoMapFunction):
    def map1(self, value):
        return "total %s %d" % value

    def map2(self, value):
        return "limit %s %d" % value


class AgainstLimit(KeyedCoProcessFunction):
    def open(self, runtime_context: RuntimeContext):
        self.total = runtime_context.get_state(ValueStateDescriptor("total", Types.INT()))
        self.limit = runtime_context.get_state(ValueStateDescriptor("limit", Types.INT()))

    def process_element1(self, value, ctx):
        self.total.update(value[1])
        ctx.timer_service().register_event_time_timer(END)

    def process_element2(self, value, ctx):
        self.limit.update(value[1])
        ctx.timer_service().register_event_time_timer(END)

    def on_timer(self, timestamp, ctx):
        total, limit = self.total.value(), self.limit.value()
        verdict = "over" if total is not None and limit is not None and total > limit else "ok"
        yield "%s %s total=%s limit=%s" % (verdict, ctx.get_current_key(), total, limit)


class Seen(KeyedProcessFunction):
    def open(self, runtime_context: RuntimeContext):
        self.count = runtime_context.get_state(ValueStateDescriptor("count", Types.INT()))
        self.most = runtime_context.get_state(ValueStateDescriptor("most", Types.INT()))

    def process_element(self, value, ctx):
        self.count.update((self.count.value() or 0) + 1)
        self.most.update(max(self.most.value() or 0, value[1]))
        ctx.timer_service().register_event_time_timer(END)

    def on_timer(self, timestamp, ctx):
        yield "seen %s %d most %d" % (ctx.get_current_key(), self.count.value(), self.most.value())


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(2)
orders, limits = source(orders_topic, "orders"), source(limits_topic, "limits")
totals = orders.key_by(lambda t: t[0]).reduce(lambda a, b: (a[0], a[1] + b[1]))
totals.connect(limits).map(Tag(), output_type=Types.STRING()).sink_to(
    KafkaSink.builder().set_bootstrap_servers(brokers)
    .set_record_serializer(KafkaRecordSerializationSchema.builder().set_topic(tagged_topic)
                           .set_value_serialization_schema(SimpleStringSchema()).build())
    .set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE).build())
totals.connect(limits).key_by(lambda t: t[0], lambda t: t[0]).process(AgainstLimit(), Types.STRING()).print()
totals.union(limits).key_by(lambda t: t[0]).process(Seen(), Types.STRING()).print()
# two keyed outputs meeting: the totals against each name's highest limit (a keyed reduce of its own), doubled
highest = limits.key_by(lambda t: t[0]).reduce(lambda a, b: (a[0], max(a[1], b[1]))) \
    .map(lambda t: (t[0], t[1] * 2), output_type=PAIR)
totals.connect(highest).key_by(lambda t: t[0], lambda t: t[0]).process(AgainstLimit(), Types.STRING()).print()
env.execute("side-by-side connect after keyed")

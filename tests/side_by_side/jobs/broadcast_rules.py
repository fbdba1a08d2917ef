"""A rule stream broadcast to a keyed stream (KeyedBroadcastProcessFunction): the broadcast side writes
thresholds per category into broadcast state, later rules replacing earlier ones; the keyed side buffers
each user's events in keyed state and judges them with an event-time timer (here once both inputs have
ended, so every rule is known whichever way the inputs interleave).

Usage: broadcast_rules.py BOOTSTRAP RULES_TOPIC EVENTS_TOPIC OUT_TOPIC
(rules: {"category": c, "threshold": n} or {"category": c, "delete": true}; events: "user,category,amount,ts")
"""
import json
import sys

from pyflink.common import Duration, SimpleStringSchema, Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.base import DeliveryGuarantee
from pyflink.datastream.connectors.kafka import (KafkaOffsetsInitializer, KafkaRecordSerializationSchema,
                                                 KafkaSink, KafkaSource)
from pyflink.datastream.functions import KeyedBroadcastProcessFunction
from pyflink.datastream.state import ListStateDescriptor, MapStateDescriptor

brokers, rules_topic, events_topic, out_topic = sys.argv[1:5]
EVENT = Types.TUPLE([Types.STRING(), Types.STRING(), Types.INT(), Types.LONG()])
THRESHOLDS = MapStateDescriptor("thresholds", Types.STRING(), Types.INT())
RULE_COUNT = MapStateDescriptor("rule-count", Types.STRING(), Types.INT())


class EventTime(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return value[3]


def source(topic):
    return (KafkaSource.builder().set_bootstrap_servers(brokers).set_topics(topic)
            .set_group_id("side-by-side-broadcast").set_starting_offsets(KafkaOffsetsInitializer.earliest())
            .set_bounded(KafkaOffsetsInitializer.latest())
            .set_value_only_deserializer(SimpleStringSchema()).build())


def event(text):
    user, category, amount, ts = text.split(",")
    return user, category, int(amount), int(ts)


class Judge(KeyedBroadcastProcessFunction):
    def open(self, runtime_context):
        # a type made here: PyFlink cannot pickle a function holding a TypeInformation already used by the job
        event_type = Types.TUPLE([Types.STRING(), Types.STRING(), Types.INT(), Types.LONG()])
        self.pending = runtime_context.get_list_state(ListStateDescriptor("pending", event_type))

    def process_element(self, value, ctx):
        self.pending.add(value)
        ctx.timer_service().register_event_time_timer(ctx.timestamp())

    def process_broadcast_element(self, value, ctx):
        rule = json.loads(value)
        thresholds = ctx.get_broadcast_state(THRESHOLDS)
        if rule.get("delete"):
            thresholds.remove(rule["category"])
        else:
            thresholds.put(rule["category"], rule["threshold"])
        counts = ctx.get_broadcast_state(RULE_COUNT)
        counts.put("rules", (counts.get("rules") or 0) + 1)

    def on_timer(self, timestamp, ctx):
        thresholds = ctx.get_broadcast_state(THRESHOLDS)
        seen = ctx.get_broadcast_state(RULE_COUNT).get("rules")
        keep = []
        for user, category, amount, ts in self.pending.get():
            if ts != timestamp:
                keep.append((user, category, amount, ts))
                continue
            if not thresholds.contains(category):
                yield "%s %s %d: no rule (%d rules seen)" % (user, category, amount, seen)
            elif amount > thresholds.get(category):
                yield "%s %s %d: ALERT over %d" % (user, category, amount, thresholds.get(category))
            else:
                yield "%s %s %d: ok" % (user, category, amount)
        self.pending.update(keep)


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(2)
rules = env.from_source(source(rules_topic), WatermarkStrategy.no_watermarks(), "rules")
events = env.from_source(source(events_topic), WatermarkStrategy.no_watermarks(), "events") \
    .map(event, output_type=EVENT) \
    .assign_timestamps_and_watermarks(WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_hours(1))
                                      .with_timestamp_assigner(EventTime()))
judged = events.key_by(lambda e: e[0], key_type=Types.STRING()) \
    .connect(rules.broadcast(THRESHOLDS, RULE_COUNT)) \
    .process(Judge(), output_type=Types.STRING())
judged.print("judged")
judged.sink_to(KafkaSink.builder().set_bootstrap_servers(brokers)
               .set_record_serializer(KafkaRecordSerializationSchema.builder().set_topic(out_topic)
                                      .set_value_serialization_schema(SimpleStringSchema()).build())
               .set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE).build())
env.execute("side-by-side broadcast rules")

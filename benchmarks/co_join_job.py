"""Orders joined with payments by a KeyedCoProcessFunction, bounded, AT_LEAST_ONCE: the join benchmark's job.

Orders ("id,amount") come from INPUT_TOPIC, payments ("id,paid") from INPUT_TOPIC-payments; each order is
written once its payment is there (or the other way round) as "id:amount:paid", and the key's state cleared.
A plain PyFlink job; runs unchanged on real PyFlink and on pyflink-compat:

    python -m pyflink_compat run benchmarks/co_join_job.py BOOTSTRAP INPUT_TOPIC OUTPUT_TOPIC
    python benchmarks/co_join_job.py BOOTSTRAP INPUT_TOPIC OUTPUT_TOPIC      # real PyFlink
"""
import sys

from pyflink.common import SimpleStringSchema, Types, WatermarkStrategy
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.base import DeliveryGuarantee
from pyflink.datastream.connectors.kafka import (KafkaOffsetsInitializer, KafkaRecordSerializationSchema,
                                                 KafkaSink, KafkaSource)
from pyflink.datastream.functions import KeyedCoProcessFunction
from pyflink.datastream.state import ValueStateDescriptor


class Join(KeyedCoProcessFunction):
    def open(self, runtime_context):
        self.amount = runtime_context.get_state(ValueStateDescriptor("amount", Types.INT()))
        self.paid = runtime_context.get_state(ValueStateDescriptor("paid", Types.INT()))

    def process_element1(self, value, ctx):
        paid = self.paid.value()
        if paid is None:
            self.amount.update(value[1])
        else:
            self.paid.clear()
            yield "%s:%d:%d" % (value[0], value[1], paid)

    def process_element2(self, value, ctx):
        amount = self.amount.value()
        if amount is None:
            self.paid.update(value[1])
        else:
            self.amount.clear()
            yield "%s:%d:%d" % (value[0], amount, value[1])


def pair(text):
    key, number = text.split(",")
    return key, int(number)


def main(bootstrap_servers, input_topic, output_topic):
    env = StreamExecutionEnvironment.get_execution_environment()

    def source(topic):
        return (KafkaSource.builder()
                .set_bootstrap_servers(bootstrap_servers)
                .set_topics(topic)
                .set_group_id("co-join-benchmark")
                .set_starting_offsets(KafkaOffsetsInitializer.earliest())
                .set_bounded(KafkaOffsetsInitializer.latest())
                .set_value_only_deserializer(SimpleStringSchema())
                .build())

    sink = (KafkaSink.builder()
            .set_bootstrap_servers(bootstrap_servers)
            .set_record_serializer(KafkaRecordSerializationSchema.builder()
                                   .set_topic(output_topic)
                                   .set_value_serialization_schema(SimpleStringSchema())
                                   .build())
            .set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE)
            .build())
    pair_type = Types.TUPLE([Types.STRING(), Types.INT()])
    orders = env.from_source(source(input_topic), WatermarkStrategy.no_watermarks(), "orders") \
        .map(pair, output_type=pair_type)
    payments = env.from_source(source(input_topic + "-payments"), WatermarkStrategy.no_watermarks(), "payments") \
        .map(pair, output_type=pair_type)
    orders.connect(payments) \
        .key_by(lambda o: o[0], lambda p: p[0], key_type=Types.STRING()) \
        .process(Join(), output_type=Types.STRING()) \
        .sink_to(sink)
    env.execute("co-join benchmark")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.stderr.write("usage: co_join_job.py BOOTSTRAP_SERVERS INPUT_TOPIC OUTPUT_TOPIC\n")
        sys.exit(2)
    main(*sys.argv[1:])

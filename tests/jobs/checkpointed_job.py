"""A checkpointed Kafka job for the crash tests: upper-case values (``upper``) or a running sum per key
(``keyed-sum``, values "key:amount", output "key:sum"), or that running sum passed to a second keyed stage
that counts the sums per key (``two-stage-sum``, output "key:sum:n"), or the running sum over the union of
two sources of the topic, one keeping the even keys and one the odd (``union-sum``), or that union keyed and
connected with a broadcast stream of labels read from the topic IN-rules (``broadcast-sum``: a
KeyedBroadcastProcessFunction keeps the running sum in keyed state and the label in broadcast state, output
"key:sum:label"), or the even and odd keys connected and keyed, one KeyedCoProcessFunction summing both
(``connect-sum``), or the running sums of the even keys (a first keyed stage) connected with the odd keys'
values, keyed, a KeyedCoProcessFunction passing the former on and summing the latter (``connect-after-keyed-sum``),
or, beside the running sum of one key_by, a KeyedProcessFunction reading the same key_by that counts and sums on
its own ("key:sum:n", ``sibling-sum``: two operations side by side in one stage, each with its own state),
bounded by the input's end offsets.

    pyflink-compat run [-s JOB_CHECKPOINT_DIR] tests/jobs/checkpointed_job.py MODE BOOTSTRAP IN OUT CHECKPOINT_DIR \
        [none|at-least-once|exactly-once]
"""
import sys

from pyflink.common import Configuration, Types, WatermarkStrategy
from pyflink.common.serialization import SimpleStringSchema
from pyflink.datastream import CheckpointingMode, StreamExecutionEnvironment
from pyflink.datastream.connectors.base import DeliveryGuarantee
from pyflink.datastream.connectors.kafka import (KafkaOffsetsInitializer, KafkaRecordSerializationSchema,
                                                 KafkaSink, KafkaSource)


def running_sums(values):
    def add(a, b):
        return a[0], a[1] + b[1]
    return (values.map(lambda v: (v.split(":")[0], int(v.split(":")[1])),
                       output_type=Types.TUPLE([Types.STRING(), Types.LONG()]))
            .key_by(lambda pair: pair[0], key_type=Types.STRING())
            .reduce(add)
            .map(lambda pair: "%s:%d" % pair, output_type=Types.STRING()))


def counted_sums(values):
    """A second keyed stage after running_sums: the n-th running sum of a key comes out as "key:sum:n"."""
    def count(a, b):
        return a[0], b[1], a[2] + b[2]
    return (running_sums(values)
            .map(lambda line: (line.split(":")[0], int(line.split(":")[1]), 1),
                 output_type=Types.TUPLE([Types.STRING(), Types.LONG(), Types.LONG()]))
            .key_by(lambda item: item[0], key_type=Types.STRING())
            .reduce(count)
            .map(lambda item: "%s:%d:%d" % item, output_type=Types.STRING()))


def sibling_counts(values):
    """A KeyedProcessFunction beside running_sums' reduce, reading the same key_by: "key:sum:n"."""
    from pyflink.datastream import KeyedProcessFunction
    from pyflink.datastream.state import ValueStateDescriptor

    class CountAndSum(KeyedProcessFunction):
        def open(self, runtime_context):
            self.count = runtime_context.get_state(ValueStateDescriptor("count", Types.LONG()))
            self.sum = runtime_context.get_state(ValueStateDescriptor("sum", Types.LONG()))

        def process_element(self, value, ctx):
            count, total = (self.count.value() or 0) + 1, (self.sum.value() or 0) + value[1]
            self.count.update(count)
            self.sum.update(total)
            yield "%s:%d:%d" % (value[0], total, count)

    keyed = (values.map(lambda v: (v.split(":")[0], int(v.split(":")[1])),
                        output_type=Types.TUPLE([Types.STRING(), Types.LONG()]))
             .key_by(lambda pair: pair[0], key_type=Types.STRING()))
    sums = keyed.reduce(lambda a, b: (a[0], a[1] + b[1])).map(lambda pair: "%s:%d" % pair, output_type=Types.STRING())
    return sums, keyed.process(CountAndSum(), output_type=Types.STRING())


def labelled_sums(env, even, odd, rules_source):
    from pyflink.datastream.functions import KeyedBroadcastProcessFunction
    from pyflink.datastream.state import MapStateDescriptor, ValueStateDescriptor
    labels = MapStateDescriptor("labels", Types.STRING(), Types.STRING())

    class LabelledSum(KeyedBroadcastProcessFunction):
        def open(self, runtime_context):
            self.sum = runtime_context.get_state(ValueStateDescriptor("sum", Types.LONG()))

        def process_element(self, value, ctx):
            total = (self.sum.value() or 0) + int(value.split(":")[1])
            self.sum.update(total)
            yield "%s:%d:%s" % (ctx.get_current_key(), total, ctx.get_broadcast_state(labels).get("label"))

        def process_broadcast_element(self, value, ctx):
            ctx.get_broadcast_state(labels).put("label", value)

    rules = env.from_source(rules_source, WatermarkStrategy.no_watermarks(), "Rules")
    return (even.union(odd).key_by(lambda v: v.split(":")[0], key_type=Types.STRING())
            .connect(rules.broadcast(labels)).process(LabelledSum(), output_type=Types.STRING()))


def connected_sums(even, odd):
    from pyflink.datastream.functions import KeyedCoProcessFunction
    from pyflink.datastream.state import ValueStateDescriptor

    class SumBoth(KeyedCoProcessFunction):
        def open(self, runtime_context):
            self.sum = runtime_context.get_state(ValueStateDescriptor("sum", Types.LONG()))

        def _add(self, value, ctx):
            total = (self.sum.value() or 0) + int(value.split(":")[1])
            self.sum.update(total)
            yield "%s:%d" % (ctx.get_current_key(), total)

        def process_element1(self, value, ctx):
            return self._add(value, ctx)

        def process_element2(self, value, ctx):
            return self._add(value, ctx)

    key = lambda v: v.split(":")[0]  # noqa: E731
    return even.connect(odd).key_by(key, key, key_type=Types.STRING()).process(SumBoth(), output_type=Types.STRING())


def sums_after_a_keyed_stage(even, odd):
    from pyflink.datastream.functions import KeyedCoProcessFunction
    from pyflink.datastream.state import ValueStateDescriptor

    class PassOrSum(KeyedCoProcessFunction):
        def open(self, runtime_context):
            self.sum = runtime_context.get_state(ValueStateDescriptor("sum", Types.LONG()))

        def process_element1(self, value, ctx):      # a running sum of the first keyed stage
            yield value

        def process_element2(self, value, ctx):      # a value: summed here
            total = (self.sum.value() or 0) + int(value.split(":")[1])
            self.sum.update(total)
            yield "%s:%d" % (ctx.get_current_key(), total)

    key = lambda v: v.split(":")[0]  # noqa: E731
    return running_sums(even).connect(odd).key_by(key, key, key_type=Types.STRING()) \
        .process(PassOrSum(), output_type=Types.STRING())


def main(mode, bootstrap, input_topic, output_topic, checkpoint_dir, guarantee="at-least-once"):
    configuration = Configuration()
    configuration.set_string("execution.checkpointing.dir", checkpoint_dir)
    env = StreamExecutionEnvironment.get_execution_environment(configuration)
    env.enable_checkpointing(1000, CheckpointingMode.AT_LEAST_ONCE)
    env.set_parallelism(2)
    source = (KafkaSource.builder().set_bootstrap_servers(bootstrap).set_topics(input_topic)
              .set_group_id("checkpointed-job")
              .set_starting_offsets(KafkaOffsetsInitializer.earliest())
              .set_bounded(KafkaOffsetsInitializer.latest())
              .set_value_only_deserializer(SimpleStringSchema()).build())
    sink = (KafkaSink.builder().set_bootstrap_servers(bootstrap)
            .set_record_serializer(KafkaRecordSerializationSchema.builder().set_topic(output_topic)
                                   .set_value_serialization_schema(SimpleStringSchema()).build()))
    if guarantee == "exactly-once":
        sink = (sink.set_delivery_guarantee(DeliveryGuarantee.EXACTLY_ONCE)
                .set_transactional_id_prefix("crash-" + output_topic)
                .set_property("transaction.timeout.ms", "900000"))
    elif guarantee == "none":
        sink = sink.set_delivery_guarantee(DeliveryGuarantee.NONE)
    else:
        sink = sink.set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE)
    sink = sink.build()
    values = env.from_source(source, WatermarkStrategy.no_watermarks(), "Kafka Source")
    if mode == "upper":
        out = values.map(lambda v: v.upper(), output_type=Types.STRING())
    elif mode == "two-stage-sum":
        out = counted_sums(values)
    elif mode == "sibling-sum":
        out, counts = sibling_counts(values)
        counts.sink_to(sink)
    elif mode in ("union-sum", "broadcast-sum", "connect-sum", "connect-after-keyed-sum"):
        odd = env.from_source(source, WatermarkStrategy.no_watermarks(), "Kafka Source 2") \
            .filter(lambda v: int(v.split(":")[0][1:]) % 2 == 1)
        even = values.filter(lambda v: int(v.split(":")[0][1:]) % 2 == 0)
        if mode == "union-sum":
            out = running_sums(even.union(odd))
        elif mode == "connect-sum":
            out = connected_sums(even, odd)
        elif mode == "connect-after-keyed-sum":
            out = sums_after_a_keyed_stage(even, odd)
        else:
            rules_source = (KafkaSource.builder().set_bootstrap_servers(bootstrap).set_topics(input_topic + "-rules")
                            .set_group_id("checkpointed-job")
                            .set_starting_offsets(KafkaOffsetsInitializer.earliest())
                            .set_bounded(KafkaOffsetsInitializer.latest())
                            .set_value_only_deserializer(SimpleStringSchema()).build())
            out = labelled_sums(env, even, odd, rules_source)
    else:
        out = running_sums(values)
    out.sink_to(sink)
    env.execute("checkpointed %s job" % mode)


if __name__ == "__main__":
    main(*sys.argv[1:])

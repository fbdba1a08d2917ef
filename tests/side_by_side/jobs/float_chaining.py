"""Where a FLOAT (32-bit) field is rounded: PyFlink hands the next Python function of its chain the very object
the previous one returned, and serializes elements with their declared type only where a chain ends (key_by,
a partitioning, another parallelism, start_new_chain / disable_chaining, after a timestamp assigner, a side
output, an operator several others read). Each line shows the value a function sees after one such pipeline.
Each reader of an operator with several gets its own copy of the elements.
A second run with python.operator-chaining.enabled=false: every function is an operator of its own.

Usage: float_chaining.py
"""
from pyflink.common import Configuration, WatermarkStrategy
from pyflink.common.typeinfo import Types
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import OutputTag, StreamExecutionEnvironment
from pyflink.datastream.functions import KeyedProcessFunction, ProcessFunction

PAIR = Types.TUPLE([Types.STRING(), Types.FLOAT()])
SIDE = OutputTag("side", Types.TUPLE([Types.STRING(), Types.FLOAT()]))


class FromField(TimestampAssigner):
    """The field's value as the element's timestamp: it sees the 64-bit value (chained), its output is rounded."""

    def extract_timestamp(self, value, record_timestamp):
        return int(value[1] * 1_000_000_000)


class ShowTimestamp(ProcessFunction):
    def process_element(self, value, ctx):
        yield "%s timestamp %d" % (value[0], ctx.timestamp())


class Keep(ProcessFunction):
    def process_element(self, value, ctx):
        yield value


class KeepAndSide(ProcessFunction):
    def process_element(self, value, ctx):
        yield value
        yield SIDE, value


class KeyedKeep(KeyedProcessFunction):
    def process_element(self, value, ctx):
        yield value


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
texts = env.from_collection(["22.6"], type_info=Types.STRING())


def typed(case):
    """The case's own typed operator (the source has many readers; this map has the case's only)."""
    return texts.map(lambda text: (case, float(text)), output_type=PAIR)


def show(stream, suffix=""):
    stream.map(lambda x: "%s%s %r" % (x[0], suffix, x[1]), output_type=Types.STRING()).print()


# one chain: no rounding
show(typed("map-map"))
show(typed("filter").filter(lambda x: True))
show(typed("flat-map").flat_map(lambda x: [x]))
show(typed("process").process(Keep()))
show(typed("process-typed").process(Keep(), output_type=PAIR))
show(typed("untyped-map").map(lambda x: x))
show(typed("same-parallelism").map(lambda x: x, output_type=PAIR).set_parallelism(1))
show(typed("forward").forward())
show(typed("untyped-then-key-by").map(lambda x: x).key_by(lambda x: x[0]))
# a chain ends: rounded
show(typed("key-by").key_by(lambda x: x[0]))
show(typed("reduce").key_by(lambda x: x[0]).reduce(lambda a, b: a))
show(typed("keyed-process").key_by(lambda x: x[0]).process(KeyedKeep(), output_type=PAIR))
show(typed("rebalance").rebalance())
show(typed("new-chain").map(lambda x: x).start_new_chain())
show(typed("disable-chaining").disable_chaining())
show(typed("other-parallelism").map(lambda x: x).set_parallelism(2))
assigned = typed("assigner").assign_timestamps_and_watermarks(
    WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(FromField()))
show(assigned)
assigned.process(ShowTimestamp(), output_type=Types.STRING()).print()
show(typed("side-output").process(KeepAndSide(), output_type=PAIR).get_side_output(SIDE))
fanned = typed("fan-out")
show(fanned, "-a")
show(fanned, "-b")
printed = typed("also-printed")
printed.print()
show(printed)
keyed_twice = typed("keyed-two-readers").key_by(lambda x: x[0]).process(KeyedKeep(), output_type=PAIR)
show(keyed_twice, "-a")
show(keyed_twice, "-b")


def tagged(values: dict):
    values["tagged"] = True
    return values


def show_dict(stream, case):
    stream.map(lambda d: "%s %r" % (case, sorted(d.items())), output_type=Types.STRING()).print()


# Every reader of an operator gets its own copy: a function changing an element in place changes it for its
# own branch only (untyped elements are pickled between operators).
dicts = texts.map(lambda text: {"value": text})
show_dict(dicts.map(tagged), "dict-changing-reader")
show_dict(dicts, "dict-other-reader")
dicts.print()
keyed_dicts = dicts.key_by(lambda d: d["value"]).map(lambda d: d)
show_dict(keyed_dicts.map(tagged), "keyed-dict-changing-reader")
show_dict(keyed_dicts, "keyed-dict-other-reader")
keyed_dicts.print()
env.execute("float chaining")

no_chains = Configuration()
no_chains.set_string("python.operator-chaining.enabled", "false")
env.configure(no_chains)
texts = env.from_collection(["22.6"], type_info=Types.STRING())
show(typed("unchained-map-map"))
show(typed("unchained-filter").filter(lambda x: True))
show(typed("unchained-untyped-map").map(lambda x: x))
env.execute("float chaining, no Python operator chaining")

"""The same PyFlink job files on real PyFlink (the oracle) and on pyflink-compat, outputs compared.

This comparison is what "compatible" means for pyflink-compat. See harness.py for how runs are made and
compared. Each case runs the oracle first (12-20 s of fixed start), then pyflink-compat.
"""
import pytest

from harness import Case, Input, Output, Prints, run_case

pytestmark = pytest.mark.side_by_side


def origin_and_sequence(value):
    """"P0-007" -> ("P0", 7): records of one input partition carry their position in it."""
    group, _, seq = value.rpartition("-")
    return group, int(seq)


TS = 1_600_000_000_123          # a record timestamp (CreateTime) the sinks must carry through

CASES = [
    Case(name="chain", job="chain.py", args=["{bootstrap}", "{in}", "{out}"],
         inputs={"in": Input(records={0: ["hello world", "#skip this", "a bb ccc", "", "  spaced   out  ",
                                          "Ünïcode ß"]}, timestamp_ms=TS)},
         outputs={"out": Output(count=10, timestamps=True)}),
    Case(name="collection-to-kafka", job="collection_to_kafka.py", args=["{bootstrap}", "{out}"],
         outputs={"out": Output(count=8)}),
    Case(name="key-and-value-schemas", job="keys.py", args=["{bootstrap}", "{in}", "{out}"],
         inputs={"in": Input(records={0: ["Alpha", " beta ", "GAMMA", "delta", "alpha", "epsilon", "zeta",
                                          "eta", "theta", "iota", "kappa", "lambda"]}, timestamp_ms=TS)},
         # keyed records: the output partition is murmur2(key) % 3 on both engines, order kept per partition
         outputs={"out": Output(count=12, partitions=3, keys=True, timestamps=True)}),
    Case(name="topic-selector", job="topic_selector.py", args=["{bootstrap}", "{in}", "{even}", "{odd}"],
         inputs={"in": Input(records={0: [str(i) for i in range(20)]})},
         outputs={"even": Output(count=10), "odd": Output(count=10)}),
    Case(name="bounded-partitions", job="bounded_partitions.py", args=["{bootstrap}", "{in}", "{out}"],
         inputs={"in": Input(partitions=3, records={0: ["p0-%03d" % i for i in range(30)], 1: [],
                                                     2: ["p2-%03d" % i for i in range(20)]})},
         # one reader interleaves the partitions: only the order within each input partition is guaranteed
         outputs={"out": Output(count=45, compare="multiset", order_key=origin_and_sequence)}),
    Case(name="unbounded", job="unbounded.py", args=["{bootstrap}", "{in}", "{out}"], bounded=False,
         inputs={"in": Input(records={0: ["e%d" % i for i in range(5)]},
                             late={0: ["l%d" % i for i in range(5)]})},
         outputs={"out": Output(count=10)}, prints=Prints(count=10)),
    Case(name="parallel-partitions", job="parallel_partitions.py",
         args=["{bootstrap}", "{in}", "{keyed}", "{unkeyed}"],
         inputs={"in": Input(partitions=3, records={p: ["%s-%02d" % ("abc"[p], i) for i in range(15)]
                                                    for p in range(3)})},
         outputs={
             # keyed: same partition per record on both engines; order kept per input partition
             "keyed": Output(count=45, partitions=3, compare="multiset", keys=True,
                             order_key=origin_and_sequence),
             # unkeyed: the sticky partitioner's choice is free on both engines
             "unkeyed": Output(count=45, partitions=2, compare="multiset", partitioned=False,
                               order_key=origin_and_sequence)},
         prints=Prints(count=45, strip_subtask=True, parallelism=2)),
    Case(name="two-sinks", job="two_sinks.py", args=["{bootstrap}", "{in}", "{all}", "{long}"],
         inputs={"in": Input(records={0: ["kafka", "spark", "flink", "io", "stream", "a", "batch"]})},
         outputs={"all": Output(count=7), "long": Output(count=5)}, prints=Prints(count=7)),
    Case(name="print-types", job="print_types.py", args=[], prints=Prints(count=21)),
    Case(name="row-output", job="row_output.py", args=["{bootstrap}", "{in}", "{out}"],
         inputs={"in": Input(records={0: ["ann,34,1.5", "tim,12,9.25", "bo,18,0.125", "zed,90,100.0",
                                          "kid,3,7.77"]}, timestamp_ms=TS)},
         outputs={"out": Output(count=3, timestamps=True)}, prints=Prints(count=3)),
    # the Python objects a function receives, and execute_and_collect() returns, for each field type
    Case(name="python-types", job="python_types.py", args=[], prints=Prints(count=50)),
]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_side_by_side(case, oracle_python, bootstrap):
    run_case(case, oracle_python, bootstrap)

"""Join benchmark: N orders and N payments in two 2-partition topics -> connect + key_by ->
KeyedCoProcessFunction -> Kafka, bounded.

    /work/venv/bin/python benchmarks/bench_co_join.py [--records N]
    PYFLINK_ORACLE_PYTHON=~/.cache/pyflink-compat/oracle-apache-flink-2.3.0/bin/python benchmarks/bench_co_join.py

Runs ``benchmarks/co_join_job.py`` on pyflink-compat and, when PYFLINK_ORACLE_PYTHON is set, on real PyFlink,
one after the other, each measured as ``bench_upper.py`` measures its runs. The output must hold
"id:amount:paid" exactly once for every id. Targets: ≥ 3× real PyFlink at no more than its peak memory.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_upper  # noqa: E402  (the shared measuring machinery)
import comparison  # noqa: E402

JOB = os.path.join(bench_upper.HERE, "co_join_job.py")
DIGITS = bench_upper.INDEX_DIGITS


def amount(index: int) -> int:
    return 1 + index % 997


def paid(index: int) -> int:
    return 1 + (index * 31) % 997


class JoinWatcher(bench_upper.OutputWatcher):
    """Slot ``index`` for "index:amount:paid" with the amounts of that index."""

    def _check(self, records):
        for record in records:
            value = record.value or b""
            slot = -1
            try:
                key, first, second = value.split(b":")
                index = int(key)
                if len(key) == DIGITS and int(first) == amount(index) and int(second) == paid(index):
                    slot = index
            except ValueError:
                slot = -1
            self.mark(slot, value)
        self.count += len(records)


def produce_input(bootstrap, topic, records):
    """Orders to ``topic``, payments to ``topic``-payments (created here), ids in the same order in both."""
    bench_upper.create_topics(bootstrap, [topic + "-payments"], bench_upper.PARTITIONS)
    return sum(comparison.produce_indexed(bootstrap, name, records,
                                          lambda index, number=number: b"%0*d,%d" % (DIGITS, index, number(index)))
               for name, number in ((topic, amount), (topic + "-payments", paid)))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--watch", choices=("consumer", "offsets"), default="offsets")
    parser.add_argument("--timeout", type=float, default=None)
    args = parser.parse_args(argv)
    records = args.records

    def describe(result):
        print("%s orders + %s payments, %d partitions each -> connect, key_by -> KeyedCoProcessFunction -> Kafka, "
              "bounded, AT_LEAST_ONCE; %s joined records out" % (format(records, ","), format(records, ","),
                                                                 bench_upper.PARTITIONS, format(records, ",")))

    return comparison.run_comparison(
        "co-join", JOB, records, records, lambda bootstrap, topic: produce_input(bootstrap, topic, records),
        JoinWatcher, args.watch, args.timeout or 240.0 + records / 500.0, target=3.0, describe=describe)


if __name__ == "__main__":
    sys.exit(main())

"""Fan-out benchmark: N records, 2-partition topic -> three maps -> three Kafka sinks, bounded.

    /work/venv/bin/python benchmarks/bench_fan_out.py [--records N]
    PYFLINK_ORACLE_PYTHON=~/.cache/pyflink-compat/oracle-apache-flink-2.3.0/bin/python benchmarks/bench_fan_out.py

Runs ``benchmarks/fan_out_job.py`` three times, one after the other, each measured as ``bench_upper.py``
measures its runs: on pyflink-compat (one pass over the source feeds the three sinks), on pyflink-compat with
``-Dpyflink-compat.shared-pass=false`` (one query per sink, each reading the source), and, when
PYFLINK_ORACLE_PYTHON is set, on real PyFlink. The output topic must hold, for every input record, exactly its
upper-cased value, its reversed value and "index:length", once each. Targets: ≥ 2.5× the per-sink plan and ≥ 3×
real PyFlink.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_upper  # noqa: E402  (the shared measuring machinery)
import comparison  # noqa: E402

JOB = os.path.join(bench_upper.HERE, "fan_out_job.py")
VALUE_BYTES = 100
DIGITS = bench_upper.INDEX_DIGITS


class FanOutWatcher(bench_upper.OutputWatcher):
    """Slot 3 * index + k for the k-th form of input ``index``: upper-cased, reversed, "index:length"."""

    def _check(self, records):
        tail = bench_upper.filler(VALUE_BYTES)
        for record in records:
            value = record.value or b""
            slot = -1
            try:
                if len(value) == DIGITS + 1 + len(tail) and value[DIGITS:DIGITS + 1] == b" ":
                    if value[DIGITS + 1:] == tail.upper():
                        slot = 3 * int(value[:DIGITS])
                    elif value[:len(tail)] == tail[::-1]:
                        slot = 3 * int(value[-DIGITS:][::-1]) + 1
                elif value[:len(tail)] == tail[::-1] and value[len(tail):len(tail) + 1] == b" ":
                    slot = 3 * int(value[-DIGITS:][::-1]) + 1
                elif value[DIGITS:DIGITS + 1] == b":" and int(value[DIGITS + 1:]) == DIGITS + 1 + len(tail):
                    slot = 3 * int(value[:DIGITS]) + 2
            except ValueError:
                slot = -1
            self.mark(slot, value)
        self.count += len(records)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--watch", choices=("consumer", "offsets"), default="offsets")
    parser.add_argument("--timeout", type=float, default=None)
    args = parser.parse_args(argv)
    records = args.records

    def describe(result):
        print("%s records of %d bytes, %d partitions -> 3 maps -> 3 Kafka sinks, bounded, AT_LEAST_ONCE; %s records "
              "out" % (format(records, ","), VALUE_BYTES, bench_upper.PARTITIONS, format(3 * records, ",")))

    return comparison.run_comparison(
        "fan-out", JOB, records, 3 * records,
        lambda bootstrap, topic: bench_upper.produce_input(bootstrap, topic, records, VALUE_BYTES),
        FanOutWatcher, args.watch, args.timeout or 180.0 + records / 500.0, target=3.0, describe=describe,
        compat_variants=[("pyflink-compat, one query per sink", ["-Dpyflink-compat.shared-pass=false"])])


if __name__ == "__main__":
    sys.exit(main())

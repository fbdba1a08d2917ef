"""Formats benchmark: N JSON rows of 5 fields, 2-partition topic -> filter on a field -> JSON -> Kafka, bounded.

    /work/venv/bin/python benchmarks/bench_json.py [--records N]
    PYFLINK_ORACLE_PYTHON=~/.cache/pyflink-compat/oracle-apache-flink-2.3.0/bin/python benchmarks/bench_json.py

Runs ``benchmarks/json_job.py`` on pyflink-compat and, when PYFLINK_ORACLE_PYTHON is set, on real PyFlink,
one after the other, each measured as ``bench_upper.py`` measures its runs (same process-tree sampling,
side consumer, output check): the output must hold exactly the rows with ``active`` true (even ids), each
once, with the JSON text the job's serializer writes. Target: pyflink-compat ≥ 3× real PyFlink's rate.
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_upper  # noqa: E402  (the shared measuring machinery)
import comparison  # noqa: E402

HERE = bench_upper.HERE
JOB = os.path.join(HERE, "json_job.py")
CITIES = ["Berlin", "Lisbon", "Osaka", "Quito", "Accra"]


def order_json(index: int) -> bytes:
    """Input row ``index``: active for even ids (the filter keeps those)."""
    return json.dumps({"id": index, "name": "customer-%07d" % index, "amount": index * 0.25,
                       "active": index % 2 == 0, "city": CITIES[index % len(CITIES)]},
                      separators=(",", ":")).encode()


def expected_output(index: int) -> bytes:
    """What Flink's JsonRowSerializationSchema writes for it: compact, field order, Java's double text."""
    amount = index * 0.25
    text = repr(amount) if 1e-3 <= abs(amount) < 1e7 or amount == 0 else None
    if text is None:                                   # Java's Double.toString uses E notation here
        mantissa, exponent = ("%.17g" % amount).split("e") if "e" in "%.17g" % amount else (repr(amount), "0")
        text = "%sE%d" % (repr(float(mantissa)), int(exponent))
    return ('{"id":%d,"name":"customer-%07d","amount":%s,"active":true,"city":"%s"}'
            % (index, index, text, CITIES[index % len(CITIES)])).encode()


class JsonOutputWatcher(bench_upper.OutputWatcher):
    """Checks output rows: slot ``id // 2`` for each kept (even) id, value exactly as expected."""

    def _check(self, records):
        for record in records:
            value = record.value
            try:
                index = json.loads(value)["id"]
            except (TypeError, ValueError, KeyError):
                index = -1
            slot = index // 2 if isinstance(index, int) and index >= 0 and index % 2 == 0 else -1
            self.mark(slot if slot >= 0 and value == expected_output(index) else -1, value)
        self.count += len(records)


def produce_input(bootstrap, topic, records):
    return comparison.produce_indexed(bootstrap, topic, records, order_json)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--watch", choices=("consumer", "offsets"), default="consumer")
    parser.add_argument("--timeout", type=float, default=None)
    args = parser.parse_args(argv)
    records = args.records
    kept = (records + 1) // 2

    def describe(result):
        print("%s JSON rows (5 fields), %d partitions -> filter(active) -> JSON -> Kafka, bounded, AT_LEAST_ONCE; "
              "%s rows out" % (format(records, ","), bench_upper.PARTITIONS, format(kept, ",")))

    return comparison.run_comparison(
        "json", JOB, records, kept, lambda bootstrap, topic: produce_input(bootstrap, topic, records),
        JsonOutputWatcher, args.watch, args.timeout or 180.0 + records / 1000.0, target=3.0, describe=describe)


if __name__ == "__main__":
    sys.exit(main())

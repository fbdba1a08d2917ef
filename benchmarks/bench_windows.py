"""Windows benchmark: N JSON events (default 1M) over 10k keys, 2-partition topic -> 10 s tumbling event-time
windows with a count and a sum per key -> JSON -> Kafka, bounded.

    /work/venv/bin/python benchmarks/bench_windows.py [--records N] [--keys K]
    PYFLINK_ORACLE_PYTHON=~/.cache/pyflink-compat/oracle-apache-flink-2.3.0/bin/python benchmarks/bench_windows.py

Runs ``benchmarks/windows_job.py`` on pyflink-compat and, when PYFLINK_ORACLE_PYTHON is set, on real PyFlink,
measured as ``bench_upper.py`` measures its runs. Event i has key ``k<i % K>`` and event time
``BASE + i * SPAN / N`` (the events span ``SPAN`` = 100 s: 10 windows), with every 7th event 500 ms early
(out of order within the 1 s bound, so none is late). The output must hold one row per (key, window) with
the exact count and sum. Target: pyflink-compat ≥ 2× real PyFlink's rate, peak memory no higher.
"""
import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_upper  # noqa: E402  (the shared measuring machinery)
import comparison  # noqa: E402

JOB = os.path.join(bench_upper.HERE, "windows_job.py")
BASE_MS = 1_700_000_000_000                 # a multiple of 10 s: windows start at BASE + 10 s * n
SPAN_MS = 100_000
WINDOW_MS = 10_000


def event(index: int, records: int, keys: int):
    ts = BASE_MS + index * SPAN_MS // records
    if index % 7 == 3:
        ts = max(BASE_MS, ts - 500)
    return "k%05d" % (index % keys), ts, index % 100


def expected_windows(records: int, keys: int) -> dict:
    """(key, window start) -> (count, sum), computed here from the same events."""
    windows = {}
    for index in range(records):
        key, ts, amount = event(index, records, keys)
        slot = (key, ts - ts % WINDOW_MS)
        count, total = windows.get(slot, (0, 0))
        windows[slot] = (count + 1, total + amount)
    return windows


def produce_input(bootstrap, topic, records, keys):
    from kafka import KafkaProducer
    producer = KafkaProducer(bootstrap_servers=bootstrap, linger_ms=20, batch_size=512 * 1024)
    try:
        for partition in range(bench_upper.PARTITIONS):
            indexes = list(range(partition, records, bench_upper.PARTITIONS))
            for index in indexes[:-1]:
                key, ts, amount = event(index, records, keys)
                producer.send(topic, json.dumps({"key": key, "ts": ts, "amount": amount},
                                                separators=(",", ":")).encode(), partition=partition)
            producer.flush(timeout=120)
            key, ts, amount = event(indexes[-1], records, keys)      # the last one alone (test-broker.md)
            producer.send(topic, json.dumps({"key": key, "ts": ts, "amount": amount}).encode(),
                          partition=partition).get(timeout=60)
    finally:
        producer.close()


def watcher_for(expected: dict, slot_of=lambda row: (row["key"], row["window_start"])):
    """A watcher of output rows keyed by ``slot_of(row)``: one per (key, window), with the expected count and
    sum."""
    slots = {slot: i for i, slot in enumerate(sorted(expected))}

    class WindowOutputWatcher(bench_upper.OutputWatcher):
        """Checks output rows: one per (key, window), with the expected count and sum."""

        def _check(self, records):
            for record in records:
                try:
                    row = json.loads(record.value)
                    slot = slot_of(row)
                    good = expected.get(slot) == (row["count"], row["total"])
                except (TypeError, ValueError, KeyError):
                    slot, good = None, False
                if good:
                    position = slots[slot]
                    if self.seen[position]:
                        self.duplicates += 1
                    else:
                        self.seen[position] = 1
                else:
                    self.bad += 1
                    if len(self.bad_examples) < 3:
                        self.bad_examples.append(repr(record.value[:100]))
            self.count += len(records)

    return WindowOutputWatcher


def main(argv=None, benchmark="windows", job=JOB, pipeline="10 s tumbling event-time windows (count, sum) -> JSON "
         "-> Kafka, bounded, AT_LEAST_ONCE", watcher=None, description=__doc__):
    """Run the benchmark: these events through ``job`` (``pipeline`` describes it), the output checked by
    ``watcher(expected windows)`` (this module's ``watcher_for`` by default)."""
    parser = argparse.ArgumentParser(description=description.splitlines()[0])
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--keys", type=int, default=10_000)
    parser.add_argument("--watch", choices=("consumer", "offsets"), default="consumer")
    parser.add_argument("--timeout", type=float, default=None)
    args = parser.parse_args(argv)
    expected = expected_windows(args.records, args.keys)

    def describe(result):
        print("%s JSON events, %s keys, %d partitions -> %s; %s window rows out" % (
            format(args.records, ","), format(args.keys, ","), bench_upper.PARTITIONS, pipeline,
            format(len(expected), ",")))

    return comparison.run_comparison(
        benchmark, job, args.records, len(expected),
        lambda bootstrap, topic: produce_input(bootstrap, topic, args.records, args.keys),
        (watcher or watcher_for)(expected), args.watch, args.timeout or 240.0 + args.records / 1000.0,
        target=2.0, describe=describe)


if __name__ == "__main__":
    sys.exit(main())

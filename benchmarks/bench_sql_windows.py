"""SQL windows benchmark: the events of bench_windows.py (default 1M JSON events over 10k keys, 2 partitions)
through Flink SQL: a 10 s TUMBLE group window with COUNT(*) and SUM per key -> Kafka JSON, bounded.

    /work/venv/bin/python benchmarks/bench_sql_windows.py [--records N] [--keys K]
    PYFLINK_ORACLE_PYTHON=~/.cache/pyflink-compat/oracle-apache-flink-2.3.0/bin/python benchmarks/bench_sql_windows.py

Runs ``benchmarks/sql_windows_job.py`` on pyflink-compat and, when PYFLINK_ORACLE_PYTHON is set, on real PyFlink
(Flink SQL's own window operator, no Python in the job), measured as ``bench_upper.py`` measures its runs. The
output must hold one row per (key, window) with the exact count and sum (the window start as the JSON format
writes a TIMESTAMP(3) in UTC).
"""
import argparse
import datetime
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_upper  # noqa: E402  (the shared measuring machinery)
import bench_windows  # noqa: E402  (the same events)
import comparison  # noqa: E402

JOB = os.path.join(bench_upper.HERE, "sql_windows_job.py")


def _timestamp_text(epoch_ms: int) -> str:
    moment = datetime.datetime(1970, 1, 1) + datetime.timedelta(milliseconds=epoch_ms)
    return moment.strftime("%Y-%m-%d %H:%M:%S")          # window starts are whole seconds


def watcher_for(expected: dict):
    """bench_windows' watcher, the window start read as the JSON format writes a TIMESTAMP(3)."""
    by_text = {(key, _timestamp_text(start)): value for (key, start), value in expected.items()}
    return bench_windows.watcher_for(by_text)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--keys", type=int, default=10_000)
    parser.add_argument("--watch", choices=("consumer", "offsets"), default="consumer")
    parser.add_argument("--timeout", type=float, default=None)
    args = parser.parse_args(argv)
    expected = bench_windows.expected_windows(args.records, args.keys)

    def describe(result):
        print("%s JSON events, %s keys, %d partitions -> Flink SQL 10 s TUMBLE group window (COUNT(*), SUM) -> "
              "Kafka JSON, bounded, at-least-once; %s window rows out" % (
                  format(args.records, ","), format(args.keys, ","), bench_upper.PARTITIONS,
                  format(len(expected), ",")))

    return comparison.run_comparison(
        "sql-windows", JOB, args.records, len(expected),
        lambda bootstrap, topic: bench_windows.produce_input(bootstrap, topic, args.records, args.keys),
        watcher_for(expected), args.watch, args.timeout or 240.0 + args.records / 1000.0, target=2.0,
        describe=describe)


if __name__ == "__main__":
    sys.exit(main())

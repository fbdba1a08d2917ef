"""SQL windows benchmark: the events of bench_windows.py (default 1M JSON events over 10k keys, 2 partitions)
through Flink SQL: a 10 s TUMBLE group window with COUNT(*) and SUM per key -> Kafka JSON, bounded.

    /work/venv/bin/python benchmarks/bench_sql_windows.py [--records N] [--keys K]
    PYFLINK_ORACLE_PYTHON=~/.cache/pyflink-compat/oracle-apache-flink-2.3.0/bin/python benchmarks/bench_sql_windows.py

Runs ``benchmarks/sql_windows_job.py`` on pyflink-compat and, when PYFLINK_ORACLE_PYTHON is set, on real PyFlink
(Flink SQL's own window operator, no Python in the job), measured as ``bench_upper.py`` measures its runs. The
output must hold one row per (key, window) with the exact count and sum (the window start as the JSON format
writes a TIMESTAMP(3) in UTC).
"""
import datetime
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_upper  # noqa: E402  (the shared measuring machinery)
import bench_windows  # noqa: E402  (the same events)

JOB = os.path.join(bench_upper.HERE, "sql_windows_job.py")


def _timestamp_text(epoch_ms: int) -> str:
    moment = datetime.datetime(1970, 1, 1) + datetime.timedelta(milliseconds=epoch_ms)
    return moment.strftime("%Y-%m-%d %H:%M:%S")          # window starts are whole seconds


def watcher_for(expected: dict):
    """bench_windows' watcher, the window start read as the JSON format writes a TIMESTAMP(3)."""
    by_text = {(key, _timestamp_text(start)): value for (key, start), value in expected.items()}
    return bench_windows.watcher_for(by_text)


def main(argv=None):
    return bench_windows.main(
        argv, "sql-windows", JOB, "Flink SQL 10 s TUMBLE group window (COUNT(*), SUM) -> Kafka JSON, bounded, "
        "at-least-once", watcher_for, __doc__)


if __name__ == "__main__":
    sys.exit(main())

"""The progress line's text from a job's metrics, and that it is drawn only on a terminal."""
import io

from pyflink_compat.common.job_client import JobStatus
from pyflink_compat.metrics.group import COUNTER, GAUGE, metric_key
from pyflink_compat.runtime import progress


class _Metrics:
    def __init__(self):
        self.completed_checkpoints = 0
        self.current = {}

    def values(self):
        return dict(self.current)


class _Run:
    def __init__(self):
        self.metrics = _Metrics()
        self.status = JobStatus.RUNNING
        self.job_name = "upper"
        self.restarts = 0


def test_rates_lag_checkpoint_and_restarts():
    run = _Run()
    line = progress.ProgressLine(run, stream=io.StringIO())
    source_in = metric_key(COUNTER, "Source: Kafka Source", 0, (), "numRecordsIn")
    other_in = metric_key(COUNTER, "my_map", 0, (), "numRecordsIn")       # not a source: not counted
    sent = metric_key(COUNTER, "Kafka Sink: Writer", 0, (), "numRecordsSend")
    pending = metric_key(GAUGE, "Source: Kafka Source", 0, (), "pendingRecords")
    run.metrics.current = {source_in: 1000, other_in: 5, sent: 900, pending: 7}
    assert line.line(10.0) == ("RUNNING upper · in 0 rec/s · out 0 rec/s · lag 7 · checkpoint none yet · "
                               "restarts 0")
    run.metrics.current = {source_in: 3000, other_in: 5, sent: 2900, pending: 0}
    run.metrics.completed_checkpoints = 3
    run.restarts = 1
    run.status = JobStatus.RESTARTING
    assert line.line(12.0) == ("RESTARTING upper · in 1,000 rec/s · out 1,000 rec/s · lag 0 · checkpoint 3, 0 s ago"
                               " · restarts 1")
    assert line.line(15.0).endswith("checkpoint 3, 3 s ago · restarts 1")


def test_only_on_a_terminal():
    assert not progress.wanted(io.StringIO())


def test_one_line_per_process():
    first, second = _Run(), _Run()
    line = progress.start_for(first)
    try:
        assert line is not None and progress.start_for(second) is None
    finally:
        line.stop()
    again = progress.start_for(second)
    assert again is not None
    again.stop()

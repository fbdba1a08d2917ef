"""Restart strategies applied on the real broker and Spark: a failed job restarts from its last completed
micro-batch as often as its strategy allows, and EXACTLY_ONCE output still holds every input once; when the
strategy gives up, the job fails with Flink's ``Recovery is suppressed by ...`` line."""
import logging
import os
import re

import pytest

from kafka_helpers import create_topic, produce, unique_topic, values
from test_exactly_once import committed_values, environment, exactly_once_sink, kafka_source
from pyflink_compat.common import Types, WatermarkStrategy
from pyflink_compat.common.restart_strategy import RestartStrategies

pytestmark = pytest.mark.integration


def spark_task_attempts(spark) -> int:
    """Spark tries a failed task this many times before the query (and so the job) fails."""
    match = re.fullmatch(r"local\[[^,\]]+,(\d+)\]", spark.sparkContext.master)
    return int(match.group(1)) if match else int(spark.sparkContext.getConf().get("spark.task.maxFailures", "4"))


def failing_upper(counts_dir: str, poison: tuple, failures_each: int):
    """upper-case; a value in ``poison`` raises on its first ``failures_each`` calls (counted in files, which
    every Python worker sees)."""
    def upper(value):
        if value in poison:
            path = os.path.join(counts_dir, value)
            with open(path, "a") as f:
                f.write("x")
            with open(path) as f:
                calls = len(f.read())
            if calls <= failures_each:
                raise ValueError("poison record %s (call %d)" % (value, calls))
        return value.upper()
    return upper


def restart_messages(caplog):
    return [r.getMessage() for r in caplog.records if re.search(r"\. Restart \d+ of job \w+ in \d+ ms", r.getMessage())]


def test_a_job_restarted_twice_under_exactly_once_commits_every_record_once(spark, bootstrap, tmp_path, caplog):
    caplog.set_level(logging.WARNING, logger="pyflink_compat")
    topic_in = create_topic(bootstrap, unique_topic("rs-in"), partitions=2)
    topic_out = create_topic(bootstrap, unique_topic("rs-out"), partitions=2)
    for partition in (0, 1):
        produce(bootstrap, topic_in, ["p%d-%03d" % (partition, i) for i in range(150)], partition=partition)
    counts = tmp_path / "counts"
    counts.mkdir()
    env = environment(tmp_path, batch_records=100)
    env.set_restart_strategy(RestartStrategies.fixed_delay_restart(3, 50))
    # One job-level failure per poison record: Spark's own task attempts all fail first.
    upper = failing_upper(str(counts), ("p0-020", "p1-120"), spark_task_attempts(spark))
    (env.from_source(kafka_source(bootstrap, topic_in), WatermarkStrategy.no_watermarks(), "Kafka Source")
     .map(upper, output_type=Types.STRING())
     .sink_to(exactly_once_sink(bootstrap, topic_out, unique_topic("rs"))).uid("upper-out"))
    env.execute("restarted twice")
    output = sorted(values(committed_values(bootstrap, topic_out, 300)))
    assert output == sorted("P%d-%03d" % (p, i) for p in (0, 1) for i in range(150))
    messages = restart_messages(caplog)
    assert [re.search(r"Restart (\d+) of job", m).group(1) for m in messages] == ["1", "2"], messages
    assert all("ValueError: poison record" in m for m in messages)
    assert all("FixedDelayRestartBackoffTimeStrategy(maxNumberRestartAttempts=3, backoffTimeMS=50)" in m
               for m in messages)


def test_when_the_attempts_run_out_the_job_fails_with_flinks_message(spark, bootstrap, tmp_path, caplog):
    caplog.set_level(logging.WARNING, logger="pyflink_compat")
    topic_in = create_topic(bootstrap, unique_topic("rs-fail-in"))
    topic_out = create_topic(bootstrap, unique_topic("rs-fail-out"))
    produce(bootstrap, topic_in, ["v%03d" % i for i in range(20)])
    counts = tmp_path / "counts"
    counts.mkdir()
    env = environment(tmp_path)
    from pyflink_compat.common import Configuration
    env.configure(Configuration().set_string("restart-strategy.type", "failure-rate")
                  .set_string("restart-strategy.failure-rate.max-failures-per-interval", "1")
                  .set_string("restart-strategy.failure-rate.delay", "20 ms"))
    upper = failing_upper(str(counts), ("v007",), 1_000_000)
    (env.from_source(kafka_source(bootstrap, topic_in), WatermarkStrategy.no_watermarks(), "Kafka Source")
     .map(upper, output_type=Types.STRING())
     .sink_to(exactly_once_sink(bootstrap, topic_out, unique_topic("rs-fail"))).uid("upper-out"))
    with pytest.raises(Exception) as failure:
        env.execute("restarted once, then failed")
    text = str(failure.value)
    assert "ValueError: poison record v007" in text.splitlines()[0]
    assert text.splitlines()[-1] == (
        "Caused by: org.apache.flink.runtime.JobException: Recovery is suppressed by "
        "FailureRateRestartBackoffTimeStrategy(FailureRateRestartBackoffTimeStrategy(failuresIntervalMS=60000,"
        "backoffTimeMS=20,maxFailuresPerInterval=1)")
    assert len(restart_messages(caplog)) == 1
    # Nothing of the failing micro-batches was committed.
    assert [v for v in values(committed_values(bootstrap, topic_out, 0)) if v >= "V007"] == []

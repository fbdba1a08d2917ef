"""Metric groups of user functions, the merge of tasks' updates, meters' rates and the Prometheus families
(names, labels, values as Flink's Prometheus reporter gives them), without Spark."""
import pytest

from pyflink_compat.datastream.functions import SimpleRuntimeContext
from pyflink_compat.metrics import Counter, Distribution, Meter, MetricGroup
from pyflink_compat.metrics import group as metric_group
from pyflink_compat.runtime import metrics, reporters


@pytest.fixture
def job():
    metric_group.set_current_job("job-1")
    yield "job-1"
    metric_group.set_current_job(None)
    metric_group._registered.pop("job-1", None)


def test_pyflink_metrics_module_names():
    import pyflink_compat.metrics as module
    assert module.__all__ == ["MetricGroup", "Metric", "Counter", "Meter", "Distribution"]


def test_a_runtime_contexts_group_hands_out_pyflinks_metric_types(job):
    group = SimpleRuntimeContext("my_map", 1, 2, {}).get_metrics_group()
    assert isinstance(group, MetricGroup)
    assert isinstance(group.counter("c"), Counter)
    assert isinstance(group.meter("m"), Meter)
    assert isinstance(group.distribution("d"), Distribution)
    assert group.counter("c") is group.counter("c")       # registered once, as Flink returns the same


def test_updates_are_what_changed_since_the_last_take(job):
    group = SimpleRuntimeContext("my_map", 1, 2, {}).get_metrics_group()
    counter = group.add_group("k", "v").counter("kv")
    meter = group.meter("m")
    distribution = group.distribution("d")
    seen = [0]
    group.gauge("g", lambda: seen[0])
    counter.inc(3)
    counter.dec()
    meter.mark_event(5)
    distribution.update(4)
    distribution.update(1)
    seen[0] = 7
    first = metric_group.take_updates(job)
    groups = (("k", "v"),)
    assert first[metric_group.metric_key(metric_group.COUNTER, "my_map", 1, groups, "kv")] == 2
    assert first[metric_group.metric_key(metric_group.METER, "my_map", 1, (), "m")] == 5
    assert first[metric_group.metric_key(metric_group.DISTRIBUTION, "my_map", 1, (), "d")] == (2, 5, 1, 4)
    assert first[metric_group.metric_key(metric_group.GAUGE, "my_map", 1, (), "g")][1] == 7
    counter.inc()
    second = metric_group.take_updates(job)
    assert second[metric_group.metric_key(metric_group.COUNTER, "my_map", 1, groups, "kv")] == 1
    assert metric_group.metric_key(metric_group.METER, "my_map", 1, (), "m") not in second


def test_a_kept_instances_gauge_is_reported_only_by_tasks_that_run_it(job):
    # A worker keeps an opened instance between tasks; when another worker ran it meanwhile, this copy's value
    # is stale: its gauges are reported only by the tasks that run it here.
    with metric_group.instances_opened() as instances:
        group = SimpleRuntimeContext("kept_map", 1, 2, {}).get_metrics_group()
        group.add_group("g").gauge("value", lambda: 5)
    assert instances == [("kept_map", 1), ("kept_map", 1)]
    key = metric_group.metric_key(metric_group.GAUGE, "kept_map", 1, (("g", None),), "value")
    assert metric_group.take_updates(job)[key][1] == 5          # made in this task
    assert key not in metric_group.take_updates(job)             # a task that did not run it
    metric_group.ran(instances)
    assert metric_group.take_updates(job)[key][1] == 5


def test_a_readers_kept_functions_report_their_gauges_in_the_tasks_that_lease_them(job, tmp_path, monkeypatch):
    from pyflink_compat.runtime import live_functions
    monkeypatch.setattr(live_functions, "_root", lambda: str(tmp_path))

    class Stateful:
        def __init__(self):
            self.seen = 0

        def open(self):
            SimpleRuntimeContext("stateful_map", 0, 1, {}).get_metrics_group().gauge("seen", lambda: self.seen)

    key = metric_group.metric_key(metric_group.GAUGE, "stateful_map", 0, (), "seen")
    pass_id = live_functions.new_pass_id()
    for batch_id in range(3):
        fresh = Stateful()
        with live_functions.lease(pass_id, 0, batch_id, fresh, lambda f: [f], Stateful.open, lambda f: None,
                                  None, "split-%d" % batch_id) as kept:
            kept.seen += 1
        assert metric_group.take_updates(job)[key][1] == batch_id + 1
    assert key not in metric_group.take_updates(job)


def test_metrics_outside_a_jobs_task_work_and_are_kept_nowhere():
    metric_group.set_current_job(None)
    counter = SimpleRuntimeContext("f", 0, 1, {}).get_metrics_group().counter("c")
    counter.inc(2)
    assert counter.get_count() == 2


def test_a_gauge_needs_a_callable(job):
    with pytest.raises(TypeError):
        SimpleRuntimeContext("f", 0, 1, {}).get_metrics_group().gauge("g", 3)


def test_tasks_updates_merge_counts_newest_gauges_and_statistics():
    counter = metric_group.metric_key(metric_group.COUNTER, "op", 0, (), "c")
    gauge = metric_group.metric_key(metric_group.GAUGE, "op", 0, (), "g")
    dist = metric_group.metric_key(metric_group.DISTRIBUTION, "op", 0, (), "d")
    merged = metrics._merge({}, {counter: 2, gauge: (10.0, 5), dist: (1, 3, 3, 3)})
    merged = metrics._merge(merged, {counter: 3, gauge: (9.0, 1), dist: (2, 3, 1, 2)})
    assert merged == {counter: 5, gauge: (10.0, 5), dist: (3, 6, 1, 3)}


def test_a_meters_rate_is_its_growth_over_the_time_span_from_zero_at_the_start():
    job_metrics = object.__new__(metrics.JobMetrics)
    job_metrics._meter_history = {}
    job_metrics._started = 0.0
    assert job_metrics._rate("m", 200, 10.0) == pytest.approx(200 / 60)
    assert job_metrics._rate("m", 260, 70.0) == pytest.approx(60 / 60)
    assert job_metrics._rate("m", 260, 200.0) == 0


def test_prometheus_families_have_flinks_names_labels_and_scopes():
    key = metric_group.metric_key
    operator_values = {
        key(metric_group.COUNTER, "my_map", 0, (("my_group", None),), "grp_counter"): 400,
        key(metric_group.COUNTER, "my_map", 0, (("k", "v"),), "kv_counter"): 600,
        key(metric_group.GAUGE, "Source: Kafka Source", 1,
            metrics.KAFKA_SOURCE_READER + (("topic", "m-in"), ("partition", "0")), "currentOffset"): 99,
        key(metric_group.GAUGE, "Source: Kafka Source", 1, metrics.KAFKA_CONSUMER, "records-lag-max"): 0.0,
    }
    reporters.register("abc", lambda: ("metrics-job", operator_values, {"numRestarts": 2}))
    try:
        families = {f.name: f for f in reporters._FlinkCollector().collect()}
    finally:
        reporters.unregister("abc")
    for family in families.values():         # jobs of other tests may be running in this process
        family.samples[:] = [s for s in family.samples if s.labels["job_id"] == "abc"]
    operator = "flink_taskmanager_job_task_operator_"
    assert families[operator + "my_group_grp_counter"].documentation == \
        "grp_counter (scope: taskmanager_job_task_operator_my_group)"
    (sample,) = families[operator + "k_kv_counter"].samples
    assert sample.labels["k"] == "v" and sample.value == 600
    (sample,) = families[operator + "KafkaSourceReader_topic_partition_currentOffset"].samples
    assert (sample.labels["topic"], sample.labels["partition"], sample.labels["operator_name"],
            sample.labels["subtask_index"], sample.labels["job_name"], sample.value) == \
        ("m_in", "0", "Source:_Kafka_Source", "1", "metrics_job", 99)
    assert operator + "KafkaSourceReader_KafkaConsumer_records_lag_max" in families
    (sample,) = families["flink_jobmanager_job_numRestarts"].samples
    assert set(sample.labels) == {"job_id", "host", "job_name"} and sample.value == 2
    assert all(f.type == "gauge" for f in families.values() if f.samples)


def test_reporter_configuration_flink_keys():
    configuration = {
        "metrics.reporter.prom.factory.class": reporters.PROMETHEUS_FACTORY,
        "metrics.reporter.prom.port": "9250-9260",
        "metrics.reporter.old.class": reporters.PROMETHEUS_CLASS,
        "metrics.reporter.jmx.factory.class": "org.apache.flink.metrics.jmx.JMXReporterFactory",
    }
    assert reporters._configured_reporters(configuration) == {
        "prom": reporters.PROMETHEUS_FACTORY, "old": reporters.PROMETHEUS_CLASS,
        "jmx": "org.apache.flink.metrics.jmx.JMXReporterFactory"}
    assert reporters._configured_reporters(dict(configuration, **{"metrics.reporters": "prom"})) == {
        "prom": reporters.PROMETHEUS_FACTORY}
    assert list(reporters._ports("9250-9252")) == [9250, 9251, 9252]

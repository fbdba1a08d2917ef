"""Flink's metrics of a running job, read from the Prometheus endpoint that Flink's reporter configuration starts:
user metrics of a function, the Kafka source's and sink's metrics and the job's, under Flink's names and labels
(as real PyFlink 2.3.0's Prometheus reporter names them)."""
import socket
import time
import urllib.request

import pytest
from prometheus_client.parser import text_string_to_metric_families

from kafka_helpers import consume, create_topic, produce, unique_topic
from pyflink_compat.common import Configuration, Types, WatermarkStrategy
from pyflink_compat.common.serialization import SimpleStringSchema
from pyflink_compat.datastream import MapFunction, StreamExecutionEnvironment
from pyflink_compat.datastream.connectors.kafka import (DeliveryGuarantee, KafkaOffsetsInitializer,
                                                        KafkaRecordSerializationSchema, KafkaSink, KafkaSource)

pytestmark = pytest.mark.integration

OPERATOR = "flink_taskmanager_job_task_operator_"
DEADLINE_S = 120


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("", 0))
        return s.getsockname()[1]


def reporting_environment(port: int, tmp_path, **settings):
    """An environment whose configuration starts Flink's Prometheus reporter on ``port`` (and has ``settings``)."""
    config = Configuration()
    for key, value in settings.items():
        config.set_string(key, value)
    config.set_string("metrics.reporter.prom.factory.class",
                      "org.apache.flink.metrics.prometheus.PrometheusReporterFactory")
    config.set_string("metrics.reporter.prom.port", str(port))
    config.set_string("execution.checkpointing.dir", str(tmp_path / "checkpoints"))
    return StreamExecutionEnvironment.get_execution_environment(config)


def unbounded_source(bootstrap: str, topic: str):
    return (KafkaSource.builder().set_bootstrap_servers(bootstrap).set_topics(topic)
            .set_starting_offsets(KafkaOffsetsInitializer.earliest())
            .set_value_only_deserializer(SimpleStringSchema()).build())


def string_sink(bootstrap: str, topic: str):
    return (KafkaSink.builder().set_bootstrap_servers(bootstrap)
            .set_record_serializer(KafkaRecordSerializationSchema.builder().set_topic(topic)
                                   .set_value_serialization_schema(SimpleStringSchema()).build())
            .build())


def scrape(port: int) -> dict:
    """name -> [(labels, value)] of every sample the endpoint serves."""
    text = urllib.request.urlopen("http://localhost:%d/metrics" % port, timeout=10).read().decode()
    samples = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            samples.setdefault(sample.name, []).append((sample.labels, sample.value))
    return samples


def value_of(samples: dict, name: str, **labels):
    found = [value for sample_labels, value in samples.get(name, ())
             if all(sample_labels.get(k) == v for k, v in labels.items())]
    return found[0] if len(found) == 1 else None


def test_a_running_jobs_metrics_are_served_with_flinks_names(spark, bootstrap, tmp_path):
    topic_in = create_topic(bootstrap, unique_topic("metrics-in"), partitions=2)
    topic_out = create_topic(bootstrap, unique_topic("metrics-out"))
    inputs = {p: ["p%d-%d" % (p, i) for i in range(100)] for p in (0, 1)}
    event_times = {0: 1_700_000_000_000, 1: 1_700_000_005_000}      # the record timestamps of each partition
    for partition, records in inputs.items():
        produce(bootstrap, topic_in, records, partition=partition, timestamp_ms=event_times[partition])

    class Measured(MapFunction):
        def open(self, runtime_context):
            group = runtime_context.get_metrics_group()
            self.seen = 0
            self.counter = group.counter("my_counter")
            group.gauge("my_gauge", lambda: self.seen)
            self.meter = group.meter("my_meter", time_span_in_seconds=60)
            self.distribution = group.distribution("my_dist")
            self.grouped = group.add_group("my_group").counter("grp_counter")
            self.keyed = group.add_group("k", "v").counter("kv_counter")

        def map(self, value):
            self.seen += 1
            self.counter.inc()
            self.meter.mark_event()
            self.distribution.update(len(value))
            self.grouped.inc(2)
            self.keyed.inc(3)
            return value.upper()

    port = free_port()
    env = reporting_environment(port, tmp_path)
    env.set_parallelism(1)
    env.enable_checkpointing(1000)
    source = (KafkaSource.builder().set_bootstrap_servers(bootstrap).set_topics(topic_in)
              .set_group_id(unique_topic("metrics-group"))
              .set_starting_offsets(KafkaOffsetsInitializer.earliest())
              .set_value_only_deserializer(SimpleStringSchema()).build())
    sink = (KafkaSink.builder().set_bootstrap_servers(bootstrap)
            .set_record_serializer(KafkaRecordSerializationSchema.builder().set_topic(topic_out)
                                   .set_value_serialization_schema(SimpleStringSchema()).build())
            .set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE).build())
    (env.from_source(source, WatermarkStrategy.for_monotonous_timestamps(), "Kafka Source")
     .map(Measured(), output_type=Types.STRING()).name("my_map")
     .sink_to(sink).name("Kafka Sink"))
    client = env.execute_async("metrics job")
    try:
        assert len(consume(bootstrap, topic_out, 200)) == 200
        deadline = time.monotonic() + DEADLINE_S
        while True:                      # the offsets commit after the micro-batch: wait for the last one
            before_scrape_ms = time.time() * 1000
            samples = scrape(port)
            after_scrape_ms = time.time() * 1000
            committed = [value for labels, value in
                         samples.get(OPERATOR + "KafkaSourceReader_topic_partition_committedOffset", ())]
            if committed == [100.0, 100.0] and value_of(samples, OPERATOR + "numRecordsSend") == 200:
                break
            assert time.monotonic() < deadline, "metrics not complete in %d s: %s" % (DEADLINE_S, samples)
            time.sleep(0.5)
    finally:
        client.cancel()

    job = {"job_id": str(client.get_job_id()), "job_name": "metrics_job"}
    user = dict(job, operator_name="my_map", subtask_index="0")
    assert value_of(samples, OPERATOR + "my_counter", **user) == 200
    assert value_of(samples, OPERATOR + "my_gauge", **user) == 200
    assert value_of(samples, OPERATOR + "my_group_grp_counter", **user) == 400
    assert value_of(samples, OPERATOR + "k_kv_counter", k="v", **user) == 600
    assert value_of(samples, OPERATOR + "my_meter", **user) > 0          # events per second over 60 s
    assert value_of(samples, OPERATOR + "my_dist", **user) == 0          # as Flink's reporter shows it
    assert value_of(samples, OPERATOR + "numRecordsIn", **user) == 200   # the operator's own record counts
    assert value_of(samples, OPERATOR + "numRecordsOut", **user) == 200

    source_labels = dict(job, operator_name="Source:_Kafka_Source")
    assert value_of(samples, OPERATOR + "numRecordsIn", **source_labels) == 200
    assert value_of(samples, OPERATOR + "numBytesIn", **source_labels) == sum(
        len(v) for records in inputs.values() for v in records)
    topic_label = topic_in.replace("-", "_")
    for partition in ("0", "1"):
        assert value_of(samples, OPERATOR + "KafkaSourceReader_topic_partition_currentOffset",
                        topic=topic_label, partition=partition, **source_labels) == 99
    assert value_of(samples, OPERATOR + "pendingRecords", **source_labels) == 0
    assert value_of(samples, OPERATOR + "KafkaSourceReader_KafkaConsumer_records_lag_max", **source_labels) == 0
    assert value_of(samples, OPERATOR + "KafkaSourceReader_commitsSucceeded", **source_labels) >= 1
    assert value_of(samples, OPERATOR + "KafkaSourceReader_commitsFailed", **source_labels) == 0
    assert value_of(samples, OPERATOR + "currentEmitEventTimeLag", **source_labels) >= 0
    # the reader's watermark: the least of its partitions' (monotonous timestamps: the highest seen, less 1 ms)
    watermark = min(event_times.values()) - 1
    assert before_scrape_ms - watermark <= value_of(samples, OPERATOR + "watermarkLag", **source_labels) \
        <= after_scrape_ms - watermark

    sink_labels = dict(job, operator_name="Kafka_Sink:_Writer")
    for name in ("numRecordsIn", "numRecordsOut", "numRecordsSend"):
        assert value_of(samples, OPERATOR + name, **sink_labels) == 200
    out_bytes = sum(len(v.upper()) for records in inputs.values() for v in records)
    assert value_of(samples, OPERATOR + "numBytesOut", **sink_labels) == out_bytes
    assert value_of(samples, OPERATOR + "numRecordsOutErrors", **sink_labels) == 0
    assert value_of(samples, OPERATOR + "currentSendTime", **sink_labels) >= 0

    job_labels = dict(job)
    assert value_of(samples, "flink_jobmanager_job_numRestarts", **job_labels) == 0
    assert value_of(samples, "flink_jobmanager_job_lastCheckpointDuration", **job_labels) > 0
    assert value_of(samples, "flink_jobmanager_job_lastCheckpointSize", **job_labels) > 0
    assert value_of(samples, "flink_jobmanager_job_numberOfCompletedCheckpoints", **job_labels) >= 1
    # the endpoint stays (as Flink's reporter stays with its cluster); the cancelled job's metrics are gone
    deadline = time.monotonic() + DEADLINE_S
    while value_of(scrape(port), "flink_jobmanager_job_numRestarts", **job_labels) is not None:
        assert time.monotonic() < deadline
        time.sleep(0.5)


def test_metrics_of_a_keyed_function_and_of_the_sink_after_it(spark, bootstrap, tmp_path):
    from pyflink_compat.datastream import KeyedProcessFunction
    topic_in = create_topic(bootstrap, unique_topic("metrics-keyed-in"))
    topic_out = create_topic(bootstrap, unique_topic("metrics-keyed-out"))
    produce(bootstrap, topic_in, ["k%d-%d" % (i % 3, i) for i in range(60)])

    class CountPerKey(KeyedProcessFunction):
        def open(self, runtime_context):
            self.seen = runtime_context.get_metrics_group().add_group("keyed").counter("seen")

        def process_element(self, value, ctx):
            self.seen.inc()
            yield value

    port = free_port()
    env = reporting_environment(port, tmp_path)
    env.set_parallelism(2)
    source, sink = unbounded_source(bootstrap, topic_in), string_sink(bootstrap, topic_out)
    (env.from_source(source, WatermarkStrategy.no_watermarks(), "Kafka Source")
     .key_by(lambda v: v.split("-")[0], key_type=Types.STRING())
     .process(CountPerKey(), output_type=Types.STRING()).name("per key")
     .sink_to(sink).name("Kafka Sink"))
    client = env.execute_async("keyed metrics job")
    try:
        assert len(consume(bootstrap, topic_out, 60)) == 60
        deadline = time.monotonic() + DEADLINE_S
        while True:
            samples = scrape(port)
            seen = [value for labels, value in samples.get(OPERATOR + "keyed_seen", ())
                    if labels["operator_name"] == "per_key"]
            sent = [value for labels, value in samples.get(OPERATOR + "numRecordsSend", ())
                    if labels["operator_name"] == "Kafka_Sink:_Writer"]
            if sum(seen) == 60 and sum(sent) == 60:
                break
            assert time.monotonic() < deadline, "metrics not complete in %d s: %s" % (DEADLINE_S, samples)
            time.sleep(0.5)
    finally:
        client.cancel()
    # per parallel instance, as Flink reports them: the keys' subtasks together saw every record once
    assert {labels["subtask_index"] for labels, value in samples[OPERATOR + "keyed_seen"]} <= {"0", "1"}
    for name in ("numRecordsIn", "numRecordsOut"):
        assert sum(value for labels, value in samples[OPERATOR + name] if labels["operator_name"] == "per_key") == 60


def test_the_sink_metrics_of_a_kafka_sink_written_by_spark_side_tasks(spark, bootstrap, tmp_path):
    # pyflink-compat.sink.direct=false: the records go to Spark's writer tasks, which report what they sent
    topic_in = create_topic(bootstrap, unique_topic("metrics-writer-in"))
    topic_out = create_topic(bootstrap, unique_topic("metrics-writer-out"))
    produce(bootstrap, topic_in, ["w%d" % i for i in range(30)])
    port = free_port()
    env = reporting_environment(port, tmp_path, **{"pyflink-compat.sink.direct": "false"})
    source, sink = unbounded_source(bootstrap, topic_in), string_sink(bootstrap, topic_out)
    (env.from_source(source, WatermarkStrategy.no_watermarks(), "Kafka Source")
     .map(lambda v: v.upper(), output_type=Types.STRING())
     .sink_to(sink).name("Kafka Sink"))
    client = env.execute_async("spark-side writer metrics job")
    try:
        assert sorted(r.value.decode() for r in consume(bootstrap, topic_out, 30)) == sorted(
            "W%d" % i for i in range(30))
        deadline = time.monotonic() + DEADLINE_S
        while True:
            samples = scrape(port)
            sent = [value for labels, value in samples.get(OPERATOR + "numRecordsSend", ())
                    if labels["operator_name"] == "Kafka_Sink:_Writer"]
            if sum(sent) == 30:
                break
            assert time.monotonic() < deadline, "sink metrics not complete in %d s: %s" % (DEADLINE_S, samples)
            time.sleep(0.5)
    finally:
        client.cancel()
    bytes_out = [value for labels, value in samples[OPERATOR + "numBytesOut"]
                 if labels["operator_name"] == "Kafka_Sink:_Writer"]
    assert sum(bytes_out) == sum(len("W%d" % i) for i in range(30))      # value bytes, no keys
    assert value_of(samples, OPERATOR + "numRecordsOutErrors", operator_name="Kafka_Sink:_Writer") == 0

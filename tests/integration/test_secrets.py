"""Secrets in Kafka properties never show up in logs, errors, plan dumps or Spark's query plans."""
import logging

import attrs
import pytest

from kafka_helpers import consume, create_topic, produce, unique_topic, values
from pyflink_compat.common import SimpleStringSchema, Types, WatermarkStrategy
from pyflink_compat.datastream import StreamExecutionEnvironment
from pyflink_compat.datastream.connectors.base import DeliveryGuarantee
from pyflink_compat.datastream.connectors.kafka import (KafkaOffsetsInitializer, KafkaRecordSerializationSchema,
                                                        KafkaSink, KafkaSource)
from pyflink_compat.runtime import checkpoints, translate

pytestmark = pytest.mark.integration

PASSWORD = "s3cr3t-Pa55word-do-not-log"
JAAS = ('org.apache.kafka.common.security.plain.PlainLoginModule required username="u" password="%s";'
        % PASSWORD)


def test_secret_properties_stay_out_of_logs_plans_and_errors(spark, bootstrap, caplog, capsys):
    caplog.set_level(logging.DEBUG)
    src, out = create_topic(bootstrap, unique_topic("in")), create_topic(bootstrap, unique_topic("out"))
    produce(bootstrap, src, ["a"])
    # PLAINTEXT: the SASL settings are carried (and translated) but not used against the test broker.
    source = (KafkaSource.builder().set_bootstrap_servers(bootstrap).set_topics(src)
              .set_property("sasl.jaas.config", JAAS).set_property("ssl.key.password", PASSWORD)
              .set_property("sasl.mechanism", "PLAIN").set_property("some.unknown.key", "harmless-value")
              .set_value_only_deserializer(SimpleStringSchema())
              .set_bounded(KafkaOffsetsInitializer.latest()).build())
    sink = (KafkaSink.builder().set_bootstrap_servers(bootstrap).set_property("sasl.jaas.config", JAAS)
            .set_record_serializer(KafkaRecordSerializationSchema.builder().set_topic(out)
                                   .set_value_serialization_schema(SimpleStringSchema()).build())
            .set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE).build())
    env = StreamExecutionEnvironment.get_execution_environment()
    env.from_source(source, WatermarkStrategy.no_watermarks(), "src").map(str.upper, Types.STRING()).sink_to(sink)
    texts = [env.get_execution_plan(), repr(source), repr(sink), repr(source._spec), repr(sink._spec)]

    # Spark's own plan of the source: the option carrying the spec is redacted by Spark.
    scratch = checkpoints.plan(attrs.evolve(env._job_plan(env._sinks), configuration={}), "secrets", "plan-only")
    try:
        df = translate._kafka_source(spark, env._sinks[0].chain()[0], {}, scratch, env._sinks[0]).df
        texts.append(df._jdf.queryExecution().toString())
    finally:
        scratch.discard()

    env.execute("secrets")
    assert values(consume(bootstrap, out, 1)) == ["A"]
    captured = capsys.readouterr()
    texts += [captured.out, captured.err, caplog.text]
    for text in texts:
        assert PASSWORD not in text
    assert "some.unknown.key" in caplog.text          # the unknown key is named, its value is not


def test_no_output_log_or_checkpoint_of_a_failing_run_holds_a_secret(bootstrap, tmp_path):
    """A job run as users run it (``pyflink-compat run``, DEBUG logs), with secrets in every property that
    holds one, restarted once and then failed: its stdout, stderr and every file of its checkpoints are
    searched for each secret."""
    import os
    import subprocess
    import sys
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    secret = "Zq9-secret-value-7Lx"
    topic_in, topic_out = create_topic(bootstrap, unique_topic("sec-in")), create_topic(bootstrap, unique_topic("sec-out"))
    produce(bootstrap, topic_in, ["a", "b", "poison", "c"])
    checkpoint_dir = tmp_path / "checkpoints"
    env = dict(os.environ, PYTHONPATH=repo + os.pathsep + os.environ.get("PYTHONPATH", ""),
               PYFLINK_COMPAT_LOG_LEVEL="DEBUG")
    result = subprocess.run([sys.executable, "-m", "pyflink_compat", "run",
                             os.path.join(repo, "tests", "jobs", "secrets_failing_job.py"), bootstrap, topic_in,
                             topic_out, str(checkpoint_dir), secret],
                            capture_output=True, text=True, timeout=300, env=env, cwd=repo)
    assert result.returncode == 1, result.stderr[-3000:]
    # It did fail as planned, after one restart, and said so.
    assert "poison record (the job's own error)" in result.stderr
    assert "Recovery is suppressed by FixedDelayRestartBackoffTimeStrategy(maxNumberRestartAttempts=1" in \
        result.stderr
    assert "KafkaSource" in result.stdout and "sasl.jaas.config" in result.stdout   # names shown, values not
    assert " POISON " in result.stdout and "SQL ERROR " in result.stdout and "no-such-format" in result.stdout
    checkpoint_files = [os.path.join(root, name) for root, _, names in os.walk(checkpoint_dir) for name in names]
    assert checkpoint_files, "the failed job kept no checkpoint"
    texts = {"stdout": result.stdout, "stderr": result.stderr}
    for path in checkpoint_files:
        with open(path, "rb") as f:
            texts[path] = f.read().decode("utf-8", errors="replace")
    leaks = {where: text[max(0, text.index(secret) - 200):text.index(secret) + 100]
             for where, text in texts.items() if secret in text}
    assert not leaks, leaks

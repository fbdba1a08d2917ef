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
        df, _, _ = translate._kafka_source(spark, env._sinks[0].chain()[0], {}, scratch, env._sinks[0])
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

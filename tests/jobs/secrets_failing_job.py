"""A checkpointed Kafka job carrying secrets in its source and sink properties whose map fails on one record,
restarted once and then failed; it also prints its plan and the reprs of its source and sink. Before it, a SQL
query over a Kafka table with the same secrets in its WITH options prints its rows, and a table whose format
does not exist fails with its error printed.

Usage: secrets_failing_job.py BOOTSTRAP INPUT_TOPIC OUTPUT_TOPIC CHECKPOINT_DIR SECRET
"""
import sys

from pyflink.common import Configuration, SimpleStringSchema, Types, WatermarkStrategy
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.base import DeliveryGuarantee
from pyflink.datastream.connectors.kafka import (KafkaOffsetsInitializer, KafkaRecordSerializationSchema,
                                                 KafkaSink, KafkaSource)
from pyflink.table import StreamTableEnvironment

bootstrap, input_topic, output_topic, checkpoint_dir, secret = sys.argv[1:6]

# Every kind of secret-bearing property; PLAINTEXT, so the broker never asks for them.
SECRET_PROPERTIES = {
    "sasl.jaas.config": 'org.apache.kafka.common.security.plain.PlainLoginModule required username="u" '
                        'password="%s-jaas";' % secret,
    "sasl.mechanism": "PLAIN",
    "ssl.key.password": secret + "-sslkey",
    "basic.auth.user.info": "user:%s-userinfo" % secret,
    "client.secret": secret + "-clientsecret",
    "oauth.token": secret + "-token",
}


def with_secrets(builder):
    for key, value in SECRET_PROPERTIES.items():
        builder = builder.set_property(key, value)
    return builder


def fail_on_poison(value):
    if value == "poison":
        raise ValueError("poison record (the job's own error)")
    return value.upper()


configuration = Configuration()
configuration.set_string("execution.checkpointing.dir", checkpoint_dir)
configuration.set_string("restart-strategy.type", "fixed-delay")
configuration.set_string("restart-strategy.fixed-delay.attempts", "1")
configuration.set_string("restart-strategy.fixed-delay.delay", "10 ms")
env = StreamExecutionEnvironment.get_execution_environment(configuration)
env.enable_checkpointing(1000)
source = with_secrets(KafkaSource.builder().set_bootstrap_servers(bootstrap).set_topics(input_topic)
                      .set_starting_offsets(KafkaOffsetsInitializer.earliest())
                      .set_bounded(KafkaOffsetsInitializer.latest())
                      .set_value_only_deserializer(SimpleStringSchema())).build()
sink = with_secrets(KafkaSink.builder().set_bootstrap_servers(bootstrap)
                    .set_record_serializer(KafkaRecordSerializationSchema.builder().set_topic(output_topic)
                                           .set_value_serialization_schema(SimpleStringSchema()).build())
                    .set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE)).build()
env.from_source(source, WatermarkStrategy.no_watermarks(), "Kafka Source") \
    .map(fail_on_poison, output_type=Types.STRING()).sink_to(sink)
t_env = StreamTableEnvironment.create(env)
with_options = ", ".join("'properties.%s' = '%s'" % (key, value.replace("'", "''"))
                         for key, value in SECRET_PROPERTIES.items())
t_env.execute_sql("CREATE TABLE secret_source (v STRING) WITH ('connector' = 'kafka', 'topic' = '%s', "
                  "'properties.bootstrap.servers' = '%s', 'scan.startup.mode' = 'earliest-offset', "
                  "'scan.bounded.mode' = 'latest-offset', 'format' = 'raw', %s)"
                  % (input_topic, bootstrap, with_options))
t_env.execute_sql("SELECT UPPER(v) AS v FROM secret_source").print()
t_env.execute_sql("CREATE TABLE broken_source (v STRING) WITH ('connector' = 'kafka', 'topic' = '%s', "
                  "'properties.bootstrap.servers' = '%s', 'format' = 'no-such-format', %s)"
                  % (input_topic, bootstrap, with_options))
try:
    t_env.execute_sql("SELECT v FROM broken_source").print()
except Exception as error:           # noqa: BLE001 - the error's text is what the test searches
    print("SQL ERROR %s" % error)
print(repr(source))
print(repr(sink))
print(env.get_execution_plan())
env.execute("secrets and a failure")

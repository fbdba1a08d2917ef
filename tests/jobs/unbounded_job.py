"""An unbounded Kafka job (no stopping offsets) that upper-cases and prints: it runs until stopped. The
upper-casing of "slow" takes a minute.

    unbounded_job.py BOOTSTRAP INPUT_TOPIC
"""
import sys
import time

from pyflink.common import Types, WatermarkStrategy
from pyflink.common.serialization import SimpleStringSchema
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.kafka import KafkaOffsetsInitializer, KafkaSource

env = StreamExecutionEnvironment.get_execution_environment()
source = (KafkaSource.builder().set_bootstrap_servers(sys.argv[1]).set_topics(sys.argv[2])
          .set_starting_offsets(KafkaOffsetsInitializer.earliest())
          .set_value_only_deserializer(SimpleStringSchema()).build())


def upper(text):
    if text == "slow":
        time.sleep(60)
    return text.upper()


env.from_source(source, WatermarkStrategy.no_watermarks(), "Kafka Source") \
    .map(upper, output_type=Types.STRING()).print()
env.execute("unbounded job")

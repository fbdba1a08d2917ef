"""A job whose own Kafka helpers are a package named ``kafka``, as some PyFlink projects have (under PyFlink
nothing else in the job's Python is called that): it must not hide kafka-python from pyflink-compat.

    job.py BOOTSTRAP INPUT_TOPIC OUTPUT_TOPIC
"""
import sys

from pyflink.datastream import StreamExecutionEnvironment

from kafka import DEFAULT_GROUP
from kafka.helpers import OUTPUT_TYPE, kafka_sink, kafka_source, shout

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
brokers, input_topic, output_topic = sys.argv[1:4]
env.from_source(kafka_source(brokers, input_topic, DEFAULT_GROUP), *kafka_source.extra) \
    .map(shout, output_type=OUTPUT_TYPE).sink_to(kafka_sink(brokers, output_topic))
env.execute("kafka named package")

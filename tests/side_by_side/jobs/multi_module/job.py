"""A job laid out like many real projects: this entry file, a models module, a settings module and a
functions package, each importing pyflink. Orders ("user,epoch_ms,amount") from Kafka; a running total per
user in keyed state; tumbling event-time windows per user; results printed and written to Kafka.

Usage: job.py BOOTSTRAP INPUT_TOPIC OUTPUT_TOPIC
"""
import sys

from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.window import TumblingEventTimeWindows

import settings
from functions import RunningTotal, describe_window
from functions.sources import kafka_sink, kafka_source
from models import ORDER_TYPE, order_key, order_watermarks, parse_order


def main(brokers, input_topic, output_topic):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(settings.PARALLELISM)
    lines = env.from_source(kafka_source(brokers, input_topic), settings.NO_WATERMARKS, "orders")
    orders = lines.map(parse_order, output_type=ORDER_TYPE).assign_timestamps_and_watermarks(order_watermarks())
    by_user = orders.key_by(order_key, key_type=Types.STRING())
    by_user.process(RunningTotal(), output_type=Types.STRING()).print("total")
    windows = by_user.window(TumblingEventTimeWindows.of(settings.WINDOW)) \
        .process(describe_window(), output_type=Types.STRING())
    windows.print("window")
    windows.sink_to(kafka_sink(brokers, output_topic))
    env.execute("multi-module job")


if __name__ == "__main__":
    main(*sys.argv[1:4])

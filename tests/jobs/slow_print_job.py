"""Prints twelve upper-cased words, half a second apart (a job that runs long enough to show progress)."""
import time

from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment


def slow_upper(value):
    time.sleep(0.5)
    return value.upper()


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
(env.from_collection(["w%d" % i for i in range(12)], type_info=Types.STRING())
 .map(slow_upper, output_type=Types.STRING())
 .print())
env.execute("slow printing")

"""A job whose map function raises on one element, for the failure report of ``pyflink-compat run``."""
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment


def reject_three(value):
    if value == 3:
        raise ValueError("element %d is not accepted" % value)
    return value


env = StreamExecutionEnvironment.get_execution_environment()
env.from_collection([1, 2, 3, 4], type_info=Types.INT()).map(reject_three, output_type=Types.INT()).print()
env.execute("failing job")

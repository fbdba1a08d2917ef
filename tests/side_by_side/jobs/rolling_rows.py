"""Rolling sum / min / max / min_by / max_by and a reduce that changes its accumulator in place, on a stream
of Rows: every output shows the key's value at that element.

Usage: rolling_rows.py
"""
from pyflink.common import Row, Types
from pyflink.datastream import StreamExecutionEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
ROW = Types.ROW([Types.INT(), Types.INT()])
rows = env.from_collection([Row(1, 1), Row(1, 2), Row(1, 3), Row(2, 5), Row(2, 1)], type_info=ROW)
keyed = rows.key_by(lambda r: r[0], key_type=Types.INT())
keyed.sum(1).print("sum")
keyed.min(1).print("min")
keyed.max(1).print("max")
keyed.min_by(1).print("min_by")
keyed.max_by(1).print("max_by")


def add_in_place(a, b):
    a[1] = a[1] + b[1]
    return a


keyed.reduce(add_in_place).print("reduce")
env.execute("side-by-side rolling rows")

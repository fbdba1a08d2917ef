"""Uses a module that only -pyfs makes importable (keyed_lib, which imports pyflink) in a keyed function."""
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment

import keyed_lib

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(2)
env.from_collection([("a", 1), ("b", 2), ("a", 3), ("b", 4)],
                    type_info=Types.TUPLE([Types.STRING(), Types.INT()])) \
    .key_by(lambda e: e[0], key_type=Types.STRING()) \
    .process(keyed_lib.Describe(), output_type=Types.STRING()) \
    .print()
env.execute("pyfs keyed job")

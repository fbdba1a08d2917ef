"""Uses a module that only -pyfs makes importable, inside a function Spark's Python workers run."""
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment

import shouting

env = StreamExecutionEnvironment.get_execution_environment()
env.from_collection(["hi", "there"], type_info=Types.STRING()) \
    .map(lambda s: shouting.shout(s), output_type=Types.STRING()).print()
env.execute("pyfs job")

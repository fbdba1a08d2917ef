"""A stateless PyFlink job that says, after it ran, whether the driver process imported pandas."""
import sys

from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.from_collection(["a", "bb"], type_info=Types.STRING()).map(str.upper, output_type=Types.STRING()).print()
env.execute("driver imports job")
print("DRIVER IMPORTED PANDAS %s" % ("pandas" in sys.modules))

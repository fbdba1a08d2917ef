"""A job run as a module (-pym module_job), found through -pyfs."""
import sys

from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.from_collection(sys.argv[1:], type_info=Types.STRING()).map(lambda s: "module:" + s,
                                                               output_type=Types.STRING()).print()
env.execute("module job")

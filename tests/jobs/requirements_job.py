"""Uses a package that only -pyreq installs, inside a function Spark's Python workers run."""
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment

env = StreamExecutionEnvironment.get_execution_environment()


def tag(s):
    import pfc_reqtest
    return pfc_reqtest.TAG + s


env.from_collection(["a", "b"], type_info=Types.STRING()).map(tag, output_type=Types.STRING()).print()
env.execute("requirements job")

"""A job that may set a JVM option and an environment variable in its own code (argv[1] == "set").

It prints what the driver JVM sees of both, so a test can tell whether the JVM that runs the job was
started with them.
"""
import os
import sys

from pyflink.common import Configuration, Types
from pyflink.datastream import StreamExecutionEnvironment

configuration = Configuration()
if sys.argv[1:] == ["set"]:
    configuration.set_string("spark.driver.extraJavaOptions", "-Dpfc.marker=from-code")
    os.environ["PFC_MARKER"] = "from-code"
env = StreamExecutionEnvironment.get_execution_environment(configuration)
env.from_collection(["a", "bb"], type_info=Types.STRING()).map(lambda s: s.upper(), output_type=Types.STRING()) \
    .print()
env.execute("launch settings job")

from pyflink_compat.runtime import session  # noqa: E402  (the test looks into the JVM that ran the job)
jvm = session.get_session().sparkContext._jvm
print("PROPERTY %s" % jvm.java.lang.System.getProperty("pfc.marker"))
print("ENVIRONMENT %s" % jvm.java.lang.System.getenv("PFC_MARKER"))

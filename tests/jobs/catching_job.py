"""A job that configures logging itself and catches its failure as PyFlink users do (``except Py4JJavaError``)."""
import logging

from py4j.protocol import Py4JJavaError
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment

logging.basicConfig(level=logging.INFO, format="JOBLOG %(levelname)s %(message)s")
log = logging.getLogger("my_job")


def reject_three(value):
    if value == 3:
        raise ValueError("element %d is not accepted" % value)
    return value


log.info("building the job")
env = StreamExecutionEnvironment.get_execution_environment()
env.from_collection([1, 2, 3, 4], type_info=Types.INT()).map(reject_three, output_type=Types.INT()).print()
try:
    env.execute("catching job")
except Py4JJavaError as error:
    print("CAUGHT %s: %s" % (type(error).__name__, "element 3 is not accepted" in str(error)))

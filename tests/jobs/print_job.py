"""A PyFlink job file (unchanged imports) that prints; used through the CLI."""
import sys

from pyflink.common import Row, Types
from pyflink.datastream import StreamExecutionEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
print("ARGS %s" % sys.argv[1:])
print("PARALLELISM %d" % env.get_parallelism())
print("CONFIG %s" % env._configuration.get_string("my.setting", "unset"))
print("SAME CLASS %s" % (Row.__module__,))
env.from_collection([Row(word=w, n=len(w)) for w in sys.argv[1:]],
                    type_info=Types.ROW_NAMED(["word", "n"], [Types.STRING(), Types.INT()])) \
    .filter(lambda r: r.n > 1).print()
env.execute("cli print job")

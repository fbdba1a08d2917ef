"""Key groups follow the max parallelism: the environment's and an operator's own.

Keys go to subtask (murmur(key hash) % max_parallelism) * parallelism // max_parallelism, so the print prefixes
and RuntimeContext values of keyed operators change with it. Partitioning calls on the way change nothing in
the results. Usage: max_parallelism.py (no input: a collection source)
"""
from pyflink.common import Types
from pyflink.datastream import KeyedProcessFunction, StreamExecutionEnvironment

PAIR = Types.TUPLE([Types.STRING(), Types.INT()])


class Where(KeyedProcessFunction):
    def open(self, runtime_context):
        self.context = runtime_context

    def process_element(self, value, ctx):
        yield "%s subtask=%d of %d, max %d" % (
            value[0], self.context.get_index_of_this_subtask(), self.context.get_number_of_parallel_subtasks(),
            self.context.get_max_number_of_parallel_subtasks())


env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(2)
env.set_max_parallelism(3)
pairs = env.from_collection([(chr(ord("a") + i % 8), i) for i in range(16)], PAIR) \
    .rebalance().map(lambda p: p, output_type=PAIR).shuffle().filter(lambda p: True)
# rebalance/shuffle reorder elements on Flink: only order-free outputs are printed
pairs.key_by(lambda p: p[0], key_type=Types.STRING()).process(Where(), output_type=Types.STRING()) \
    .print("env-max-3")
pairs.rescale().key_by(lambda p: p[0], key_type=Types.STRING()) \
    .process(Where(), output_type=Types.STRING()).set_max_parallelism(5).print("own-max-5")
env.execute("max parallelism")

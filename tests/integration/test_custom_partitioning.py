"""partition_custom on real Spark: each element reaches the parallel instance its partitioner picks, also
before a keyed operation and after one; a partition outside the range fails the job with Flink's message.
The Kafka end-to-end case against real PyFlink is tests/side_by_side (custom-partitioning)."""
import sys

import pytest
from pyspark import cloudpickle

from pyflink_compat.common import Types
from pyflink_compat.datastream import StreamExecutionEnvironment
from pyflink_compat.datastream.functions import MapFunction, Partitioner
from pyflink_compat.runtime.job import JobExecutionError

pytestmark = pytest.mark.integration

cloudpickle.register_pickle_by_value(sys.modules[__name__])


def collected(stream):
    with stream.execute_and_collect() as results:
        return sorted(results)


@pytest.fixture
def env():
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(3)
    return env


class Modulo(Partitioner):
    def open(self, runtime_context):
        self.opened = True

    def partition(self, key, num_partitions):
        assert self.opened
        return key % num_partitions


class WhereAmI(MapFunction):
    def open(self, runtime_context):
        self.index = runtime_context.get_index_of_this_subtask()

    def map(self, value):
        return "%s@%d" % (value, self.index)


def test_each_element_reaches_the_subtask_its_partitioner_picks(spark, env):
    numbers = env.from_collection(list(range(10)), type_info=Types.INT())
    routed = numbers.partition_custom(Modulo(), lambda x: x).map(WhereAmI(), output_type=Types.STRING())
    assert collected(routed) == sorted("%d@%d" % (x, x % 3) for x in range(10))


def test_a_custom_partitioning_before_and_after_a_keyed_operation(spark, env):
    pairs = env.from_collection([("a", 1), ("b", 2), ("a", 3), ("c", 4), ("b", 5)],
                                type_info=Types.TUPLE([Types.STRING(), Types.INT()]))
    sums = (pairs.partition_custom(lambda key, n: 2, lambda t: t[0])
            .key_by(lambda t: t[0]).reduce(lambda x, y: (x[0], x[1] + y[1]))
            .partition_custom(lambda key, n: ord(key) % n, lambda t: t[0])
            .project(1, 0).map(WhereAmI(), output_type=Types.STRING()))
    expected = [((1, "a"), 1), ((4, "a"), 1), ((2, "b"), 2), ((7, "b"), 2), ((4, "c"), 0)]
    assert collected(sums) == sorted("%s@%d" % (str(value), index) for value, index in expected)


def test_a_partition_outside_the_range_fails_the_job_with_flinks_message(spark, env):
    numbers = env.from_collection([1, 2, 3], type_info=Types.INT())
    numbers.partition_custom(lambda key, n: 5, lambda x: x).print()
    with pytest.raises(JobExecutionError) as failure:
        env.execute("out of range")
    assert "java.lang.ArrayIndexOutOfBoundsException: Index 5 out of bounds for length 3" in str(failure.value)

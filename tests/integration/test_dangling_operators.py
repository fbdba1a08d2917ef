"""Operators nothing reads run, as in Flink (their outputs are dropped): a job without any sink, a branch
beside a print() sharing its functions (each still called once per element), and a keyed operation whose
output nobody reads. Their side effects are counted in files (local mode: workers share the file system)."""
import os
import sys

import pytest
from pyspark import cloudpickle

from pyflink_compat.common import Types
from pyflink_compat.datastream import StreamExecutionEnvironment

pytestmark = pytest.mark.integration

cloudpickle.register_pickle_by_value(sys.modules[__name__])


class Noting:
    """A function that notes each call in a file, then returns its input."""

    def __init__(self, path, tag):
        self.path, self.tag = path, tag

    def __call__(self, value, *more):
        with open(self.path, "a") as f:
            f.write("%s %s\n" % (self.tag, value))
        return value


def noted(path):
    return sorted(open(path).read().split("\n")[:-1]) if os.path.exists(path) else []


@pytest.fixture
def env():
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_parallelism(2)
    return env


def test_a_job_without_sinks_runs_its_operators(spark, env, tmp_path):
    calls = str(tmp_path / "calls")
    env.from_collection([1, 2, 3], type_info=Types.INT()).map(Noting(calls, "map"), output_type=Types.INT())
    env.execute("no sinks")
    assert noted(calls) == ["map 1", "map 2", "map 3"]


def test_a_branch_nothing_reads_runs_beside_a_sink_sharing_its_functions_once(spark, env, tmp_path, capfd):
    calls = str(tmp_path / "calls")
    shared = env.from_collection([1, 2], type_info=Types.INT()).map(Noting(calls, "shared"), output_type=Types.INT())
    shared.print()
    shared.filter(lambda v: v > 1).map(Noting(calls, "dangling"), output_type=Types.INT())
    shared.key_by(lambda v: v)                            # a key_by nothing reads: nothing more to run
    env.execute("dangling branch")
    assert noted(calls) == ["dangling 2", "shared 1", "shared 2"]
    assert sorted(line.split("> ")[-1] for line in capfd.readouterr().out.splitlines()) == ["1", "2"]


def test_a_keyed_operation_nothing_reads_runs(spark, env, tmp_path):
    calls = str(tmp_path / "calls")
    env.from_collection([("a", 1), ("a", 2), ("b", 3)], type_info=Types.TUPLE([Types.STRING(), Types.INT()])) \
        .key_by(lambda t: t[0]).reduce(Noting(calls, "reduce"))
    env.execute("dangling keyed")
    assert noted(calls) == ["reduce ('a', 1)"]       # called with (first, second) of key a: noted the first

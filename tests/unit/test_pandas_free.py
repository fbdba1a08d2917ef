"""pandas stays out of processes that never use it (third_party_patches.arrow_without_pandas, codec.numpy_of)."""
import os
import subprocess
import sys
import textwrap

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _run(code: str) -> str:
    env = dict(os.environ, PYTHONPATH=REPO + os.pathsep + os.environ.get("PYTHONPATH", ""))
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env, capture_output=True, text=True,
                          timeout=120, cwd=REPO)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_what_read_tasks_subtasks_and_sinks_do_with_arrow_imports_no_pandas():
    out = _run("""
        import sys
        import pyarrow as pa
        import pyarrow.compute as pc
        import pyflink_compat.datastream
        from pyflink_compat import codec
        from pyflink_compat.common.typeinfo import Types
        from pyflink_compat.kafka_io import batch_send
        from pyflink_compat.runtime import exchange
        from pyflink_compat.third_party_patches import arrow_without_pandas
        assert arrow_without_pandas()
        keys = ["%04d" % i for i in range(100)]
        targets = exchange.SubtaskAssigner(2, Types.STRING()).many(keys)
        elements = codec.from_python([(k, 1) for k in keys], Types.TUPLE([Types.STRING(), Types.INT()]))
        stamps = pa.array([None] * 100, pa.int64())
        payloads = exchange.payloads_by_subtask([(elements, stamps, pa.array([b"k"] * 100, pa.binary()))],
                                                targets, Types.TUPLE([Types.STRING(), Types.INT()]), 2,
                                                exchange.BatchProgress("p", None, 100, False))
        batch, _ = exchange.decode_payload(payloads[0])
        codec.to_python(batch.column(0), Types.TUPLE([Types.STRING(), Types.INT()]))
        ts = pa.array([5, None, -1], pa.int64())
        pc.if_else(pc.less(ts, pa.scalar(0, pa.int64())), pa.scalar(None, pa.int64()), ts)
        batch_send._timestamp_column(ts, 3)
        batch_send._binary_parts(pa.array([b"a", None], pa.binary()))
        codec.numpy_of(pa.array([True, False], pa.bool_()))
        print("pandas" in sys.modules)
    """)
    assert out == "False"


def test_pyarrow_handles_pandas_objects_once_anything_imports_pandas():
    out = _run("""
        import sys
        import pyarrow as pa
        from pyflink_compat.third_party_patches import arrow_without_pandas
        assert arrow_without_pandas()
        pa.array([1, 2], pa.int64())
        assert "pandas" not in sys.modules
        import pandas as pd
        print(pa.array(pd.Series([1.0, float("nan")])).to_pylist(), pa.lib._pandas_api.have_pandas)
    """)
    assert out == "[1.0, None] True"


def test_numpy_of_reads_the_buffers_as_to_numpy_does():
    import numpy
    import pyarrow as pa
    from pyflink_compat import codec
    cases = [pa.array([1, 2, 3], pa.int64()).slice(1), pa.array([True, False, True] * 5, pa.bool_()).slice(3),
             pa.array([1.5, 2.0], pa.float32()), pa.array([], pa.int32()), pa.array([], pa.bool_()),
             pa.array([5, 6], pa.uint16()), pa.array([1, None], pa.int64()), pa.array(["a"], pa.string())]
    for array in cases:
        mine, theirs = codec.numpy_of(array), array.to_numpy(zero_copy_only=False)
        assert mine.dtype == theirs.dtype, array
        numpy.testing.assert_array_equal(mine, theirs)

"""A Python streaming-source runner of Spark's whose JVM went away first ends without printing tracebacks on the
job's terminal (third_party_patches.quiet_source_runner_at_jvm_exit, installed by the worker path's
sitecustomize)."""
import os
import socket
import subprocess
import sys

from pyflink_compat.runtime.worker_python import SHIM_DIRECTORY

PROJECT = os.path.dirname(os.path.dirname(SHIM_DIRECTORY))


def _runner_stderr(tmp_path, python_path: str) -> str:
    """Start the runner as Spark does, then end the 'JVM' side of its socket before it sends anything."""
    path = str(tmp_path / ("jvm-%d.sock" % len(python_path)))
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(path)
    server.listen(1)
    server.settimeout(60)
    env = dict(os.environ, PYTHON_WORKER_FACTORY_SOCK_PATH=path, PYTHONPATH=python_path)
    env.pop("PYTHON_WORKER_FACTORY_SECRET", None)
    runner = subprocess.Popen([sys.executable, "-m", "pyspark.sql.streaming.python_streaming_source_runner"],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        connection, _ = server.accept()
        assert len(connection.recv(4)) == 4          # the runner's pid: it is connected
        connection.close()
        _, stderr = runner.communicate(timeout=60)
    finally:
        runner.kill()
        server.close()
    return stderr.decode()


def test_a_source_runner_whose_jvm_is_gone_ends_without_a_traceback(tmp_path):
    without_patch = _runner_stderr(tmp_path, PROJECT)
    assert "Traceback" in without_patch and "BrokenPipeError" in without_patch   # what a user saw
    assert _runner_stderr(tmp_path, os.pathsep.join([SHIM_DIRECTORY, PROJECT])) == ""

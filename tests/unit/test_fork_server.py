"""The fork server (runtime/fork_server.py) runs Spark's one-by-one Python processes from preloaded ones: the process
Spark started (the stub) hands over its streams and environment and ends with the forked process's code; a stub
the server cannot serve starts as usual. Exercised with a streaming-source runner started as Spark starts it,
against a stand-in for the JVM's socket."""
import os
import socket
import struct
import subprocess
import sys
import time

import pytest

from pyflink_compat.runtime import fork_server
from pyflink_compat.runtime.worker_python import SHIM_DIRECTORY

PROJECT = os.path.dirname(os.path.dirname(SHIM_DIRECTORY))
RUNNER = "pyspark.sql.streaming.python_streaming_source_runner"


@pytest.fixture
def server(tmp_path):
    path = str(tmp_path / "forks" / "socket")
    process = subprocess.Popen([sys.executable, "-m", "pyflink_compat.runtime.fork_server", path],
                               env=dict(os.environ, PYTHONPATH=os.pathsep.join([SHIM_DIRECTORY, PROJECT])))
    deadline = time.monotonic() + 60
    while not os.path.exists(path):
        assert process.poll() is None and time.monotonic() < deadline, "the fork server did not start listening"
        time.sleep(0.05)
    yield path, process
    process.terminate()
    process.wait(10)


def _start_runner(tmp_path, server_path, python_path=None):
    """A runner started as Spark starts it; returns (stub process, the stand-in JVM's connection, the pid the
    runner reported)."""
    jvm_path = str(tmp_path / ("jvm-%d.sock" % time.monotonic_ns()))
    jvm = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    jvm.bind(jvm_path)
    jvm.listen(1)
    jvm.settimeout(60)
    env = dict(os.environ, PYTHON_WORKER_FACTORY_SOCK_PATH=jvm_path,
               PYTHONPATH=python_path or os.pathsep.join([SHIM_DIRECTORY, PROJECT]))
    env.pop("PYTHON_WORKER_FACTORY_SECRET", None)
    if server_path:
        env[fork_server.ENV_VAR] = server_path
    else:
        env.pop(fork_server.ENV_VAR, None)
    stub = subprocess.Popen([sys.executable, "-m", RUNNER], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    connection, _ = jvm.accept()
    jvm.close()
    reported = struct.unpack("!i", connection.recv(4))[0]
    return stub, connection, reported


def _parent_of(pid: int) -> int:
    with open("/proc/%d/stat" % pid) as f:
        stat = f.read()
    return int(stat[stat.rindex(")") + 2:].split()[1])


def test_a_served_runner_is_forked_by_the_server_and_its_stub_ends_with_it(tmp_path, server):
    path, process = server
    stub, connection, runner_pid = _start_runner(tmp_path, path)
    assert runner_pid != stub.pid and _parent_of(runner_pid) == process.pid
    connection.close()                   # the JVM goes away: the runner ends quietly, with code 1
    _, stderr = stub.communicate(timeout=60)
    assert stub.returncode == 1 and stderr.decode() == ""


def test_killing_the_stub_ends_the_forked_process(tmp_path, server):
    path, _ = server
    stub, connection, runner_pid = _start_runner(tmp_path, path)
    stub.kill()                          # as Spark stops a runner
    stub.wait(10)
    deadline = time.monotonic() + 30
    while os.path.exists("/proc/%d" % runner_pid) and _state(runner_pid) != "Z":
        assert time.monotonic() < deadline, "the forked runner outlived its stub"
        time.sleep(0.05)
    connection.close()


def _state(pid: int) -> str:
    try:
        with open("/proc/%d/stat" % pid) as f:
            stat = f.read()
    except FileNotFoundError:
        return "gone"
    return stat[stat.rindex(")") + 2:].split()[0]


def test_a_stub_waits_for_its_forked_process_when_the_server_ends_first(tmp_path, server):
    path, process = server
    stub, connection, runner_pid = _start_runner(tmp_path, path)
    process.terminate()
    process.wait(10)
    time.sleep(0.5)
    assert stub.poll() is None           # the runner still serves the JVM
    connection.close()
    stub.wait(60)
    assert _state(runner_pid) in ("gone", "Z")


def test_a_path_that_shadows_a_preloaded_package_is_not_served(tmp_path, server):
    path, _ = server
    shadowing = tmp_path / "job"
    (shadowing / "kafka").mkdir(parents=True)
    (shadowing / "kafka" / "__init__.py").write_text("from kafka_real_is_elsewhere import *\n")
    python_path = os.pathsep.join([SHIM_DIRECTORY, str(shadowing), PROJECT])
    stub, connection, runner_pid = _start_runner(tmp_path, path, python_path)
    assert runner_pid == stub.pid        # started as usual
    connection.close()
    stub.communicate(timeout=60)


def test_without_a_server_the_runner_starts_as_usual(tmp_path):
    stub, connection, runner_pid = _start_runner(tmp_path, str(tmp_path / "no-server" / "socket"))
    assert runner_pid == stub.pid
    connection.close()
    _, stderr = stub.communicate(timeout=60)
    assert stderr.decode() == ""


def test_the_socket_path_is_announced_once_per_process(monkeypatch):
    monkeypatch.delenv(fork_server.ENV_VAR, raising=False)
    first = fork_server.announce()
    assert os.environ[fork_server.ENV_VAR] == first and fork_server.announce() == first
    monkeypatch.setenv(fork_server.ENV_VAR, "/tmp/pyflink-compat-forks-another-process-1/socket")
    assert fork_server.announce() != "/tmp/pyflink-compat-forks-another-process-1/socket"

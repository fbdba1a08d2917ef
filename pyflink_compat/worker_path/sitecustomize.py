"""Imported first by every Python process Spark starts for a job (this directory leads their path).

It acts in Spark's Python daemons, which import our workers' modules before they fork
(pyflink_compat.runtime.daemon_preload); in the process that plans a transformWithState query (pyspark.sql.streaming
.transform_with_state_driver_worker), which prints its progress into the job's terminal (stderr): see
pyflink_compat.third_party_patches.quiet_driver_worker_stdout; and in a query's streaming-source runner, which
prints tracebacks when the JVM ends before it: quiet_source_runner_at_jvm_exit. Then it runs the sitecustomize it hides, if
the environment has one further along the path.

Both of those processes are first offered to the job's fork server (pyflink_compat.runtime.fork_server), which
runs them from a process that has already imported what they need; this process then only waits for that one
and ends with its exit code. Without a server, or one that declines, it goes on as usual.
"""
import os
import sys

_STARTED_AS = tuple(getattr(sys, "orig_argv", ())[-2:])
_FORKED_MODULES = ("pyspark.sql.streaming.transform_with_state_driver_worker",
                   "pyspark.sql.streaming.python_streaming_source_runner")


# The client side of fork_server's protocol, kept here with standard-library imports only: importing
# pyflink_compat first would cost each served process about 40 ms.
def _read_exactly(connection, size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk = connection.recv(size - len(data))
        if not chunk:
            break
        data += chunk
    return data


def _run_by_fork_server(module: str):
    """Have the fork server run ``module`` with this process's streams, environment and path, wait for it and
    exit with its code; return (to start as usual) when there is no server or it declines."""
    path = os.environ.get("PYFLINK_COMPAT_FORK_SERVER")
    if not path:
        return
    import pickle
    import signal
    import socket
    import struct
    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        connection.connect(path)
        cwd = os.getcwd()
        # The path as `-m` completes it after this file ran: the working directory first.
        request = pickle.dumps({"module": module, "env": dict(os.environ), "cwd": cwd, "path": [cwd] + sys.path,
                                "executable": sys.executable, "version": sys.version,
                                # Spark's JVM ignores Ctrl-C, and so do the processes it starts
                                "sigint_ignored": signal.getsignal(signal.SIGINT) == signal.SIG_IGN})
        socket.send_fds(connection, [struct.pack("!i", len(request))], [0, 1, 2])
        connection.sendall(request)
        reply = _read_exactly(connection, 4)
    except OSError:
        connection.close()
        return
    pid = struct.unpack("!i", reply)[0] if len(reply) == 4 else 0
    if pid <= 0:
        connection.close()
        return
    signal.signal(signal.SIGINT, signal.SIG_IGN)     # the forked process gets the terminal's Ctrl-C itself
    try:
        status = _read_exactly(connection, 4)
    except OSError:
        status = b""
    if len(status) == 4:
        os._exit(struct.unpack("!i", status)[0] & 0xFF)
    # The server ended before the process it forked: wait for that process, which Spark still talks to.
    try:
        import select
        select.select([os.pidfd_open(pid)], [], [])
    except (OSError, AttributeError):
        import time
        while True:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.2)
    os._exit(0)


if _STARTED_AS[0] == "-m" and _STARTED_AS[1] in _FORKED_MODULES:
    _run_by_fork_server(_STARTED_AS[1])
if _STARTED_AS == ("-m", "pyspark.sql.streaming.transform_with_state_driver_worker"):
    from pyflink_compat.third_party_patches import quiet_driver_worker_stdout
    quiet_driver_worker_stdout()
elif _STARTED_AS == ("-m", "pyspark.sql.streaming.python_streaming_source_runner"):
    from pyflink_compat.third_party_patches import quiet_source_runner_at_jvm_exit
    quiet_source_runner_at_jvm_exit()
elif tuple(getattr(sys, "orig_argv", ())[-3:-1]) == ("-m", "pyspark.daemon") \
        and _STARTED_AS[1].startswith("pyspark."):
    # one of Spark's Python daemons: import what the workers it forks need once, here
    from pyflink_compat.runtime.daemon_preload import preload
    preload(_STARTED_AS[1])


def _run_hidden_sitecustomize():
    here = os.path.dirname(os.path.abspath(__file__))
    for entry in sys.path:
        candidate = os.path.join(entry or os.getcwd(), "sitecustomize.py")
        if os.path.abspath(os.path.dirname(candidate)) != here and os.path.isfile(candidate):
            import importlib.util
            spec = importlib.util.spec_from_file_location("_environment_sitecustomize", candidate)
            spec.loader.exec_module(importlib.util.module_from_spec(spec))
            return


_run_hidden_sitecustomize()

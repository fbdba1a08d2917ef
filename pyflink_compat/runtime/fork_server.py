"""A fork server for the Python processes Spark starts one at a time next to the driver.

Spark starts two kinds of Python process as a fresh ``python -m <module>`` (not from its fork servers): a
runner per Python streaming source of a query (it answers the query's offset calls for the whole run), and
a process that prepares each ``transformWithState`` of a query before its first micro-batch. Each imports
pyspark, pyarrow, kafka-python and our modules before it does anything: about 0.9 s of CPU and of waiting,
twice or more per query start, and a SQL script starts a query per statement.

This server (started by a process's second job: runtime/job.py) imports those modules once and forks a ready
process for each such start: Spark's ``python -m`` process (the *stub*, see ``worker_path/sitecustomize.py``)
hands it its standard streams, environment, working directory and module path over a Unix socket and waits;
the forked process runs the module as ``__main__`` with them, and the stub ends with its exit code. The server only
serves a stub whose interpreter is its own and whose path finds each module it preloaded where it loaded it
from; any other stub (another Python, a job module shadowing one of them, no server running) starts as
before. A stub that ends (Spark stops it) ends its forked process; if the server ends first, the stub waits
for the forked process and ends with it.

Protocol (stub -> server): 4-byte length and the stub's file descriptors 0, 1, 2 in one message, then the
pickled request (``module``, ``env``, ``cwd``, ``path``, ``executable``, ``version``, ``sigint_ignored``).
Server -> stub: the forked process's pid as a 4-byte signed int (0: not served), then its exit code as a
4-byte signed int.
"""
import logging
import os
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
from typing import Optional

log = logging.getLogger("pyflink_compat")

#: The environment variable naming the server's socket (set before the driver JVM starts: Spark's Python
#: processes inherit it).
ENV_VAR = "PYFLINK_COMPAT_FORK_SERVER"
#: The modules Spark starts as ``python -m`` next to the driver that the server forks.
SERVED_MODULES = ("pyspark.sql.streaming.python_streaming_source_runner",
                  "pyspark.sql.streaming.transform_with_state_driver_worker")
#: Imported by the server before it forks: what those processes import for our sources and keyed stages.
PRELOADED = SERVED_MODULES + ("pyspark.worker", "pyarrow", "kafka", "google.protobuf",
                              "pyspark.sql.streaming.stateful_processor_api_client",
                              "pyflink_compat.kafka_io.source", "pyflink_compat.datastream",
                              "pyflink_compat.runtime.keyed_stage", "pyflink_compat.third_party_patches")
HEADER = struct.Struct("!i")
#: Seconds the server waits for a connected stub's request.
REQUEST_TIMEOUT_S = 10.0

_lock = threading.Lock()
_process: Optional[subprocess.Popen] = None


# -- the driver's side ---------------------------------------------------------------------------------------

def announce() -> str:
    """This process's server socket path, put in the environment the driver JVM (and so Spark's Python
    processes) inherits. Called before the JVM starts; the server itself starts later (or never)."""
    path = os.environ.get(ENV_VAR)
    if not path or not path.endswith("-%d%ssocket" % (os.getpid(), os.sep)):
        directory = os.path.join(tempfile.gettempdir(), "pyflink-compat-forks-%s-%d" % (os.urandom(4).hex(),
                                                                                        os.getpid()))
        path = os.path.join(directory, "socket")
        os.environ[ENV_VAR] = path
    return path


def start(executable: Optional[str], python_path: str):
    """Start the server (in the background: it imports for about a second) unless it runs."""
    global _process
    path = announce()
    with _lock:
        if _process is not None and _process.poll() is None:
            return
        env = dict(os.environ, PYTHONPATH=python_path)
        env.pop(ENV_VAR, None)
        try:
            _process = subprocess.Popen([executable or sys.executable, "-m", __name__, path], env=env,
                                        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL, close_fds=True)
        except OSError as e:             # Spark then starts its processes as usual
            log.debug("The fork server did not start: %s", e)
            _process = None


def stop():
    """End the server; processes it forked run on (their stubs wait for them)."""
    global _process
    with _lock:
        process, _process = _process, None
    if process is not None and process.poll() is None:
        process.terminate()
        try:
            process.wait(5)
        except subprocess.TimeoutExpired:
            process.kill()


def running() -> bool:
    with _lock:
        return _process is not None and _process.poll() is None


# -- the server ----------------------------------------------------------------------------------------------

def _preload():
    import importlib
    for name in PRELOADED:
        importlib.import_module(name)


def _servable(request: dict) -> bool:
    """The stub's interpreter is ours and its path finds every preloaded package where we loaded it from."""
    if request.get("module") not in SERVED_MODULES or request.get("executable") != sys.executable \
            or request.get("version") != sys.version:
        return False
    from importlib.machinery import PathFinder
    path = request.get("path") or []
    for name in {name.split(".")[0] for name in PRELOADED}:
        loaded = getattr(sys.modules.get(name), "__spec__", None)
        found = PathFinder.find_spec(name, path)
        if loaded is None or found is None or found.origin != loaded.origin:
            return False
    return True


def _receive_request(connection: socket.socket):
    """(request dict, [fd 0, fd 1, fd 2]) from a stub; None for a malformed one."""
    import pickle
    connection.settimeout(REQUEST_TIMEOUT_S)
    data, fds, _, _ = socket.recv_fds(connection, HEADER.size, 3)
    if len(data) != HEADER.size or len(fds) != 3:
        for fd in fds:
            os.close(fd)
        return None
    size = HEADER.unpack(data)[0]
    payload = b""
    while len(payload) < size:
        chunk = connection.recv(size - len(payload))
        if not chunk:
            break
        payload += chunk
    if len(payload) != size:
        for fd in fds:
            os.close(fd)
        return None
    connection.settimeout(None)
    return pickle.loads(payload), fds


def _run_forked(request: dict, fds, keep_closed) -> int:
    """In the forked process: become the stub's process and run its module as ``__main__``."""
    import io
    import runpy
    for item in keep_closed:
        try:
            item.close()
        except OSError:
            pass
    for signum in (signal.SIGTERM, signal.SIGHUP, signal.SIGCHLD):
        signal.signal(signum, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN if request.get("sigint_ignored") else signal.default_int_handler)
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
        os.close(fd)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    unbuffered = bool(os.environ.get("PYTHONUNBUFFERED"))
    encoding = sys.stdout.encoding if sys.stdout is not None else "utf-8"
    sys.stdin = io.TextIOWrapper(open(0, "rb", closefd=False), encoding=encoding)
    sys.stdout = io.TextIOWrapper(open(1, "wb", buffering=0 if unbuffered else -1, closefd=False),
                                  encoding=encoding, write_through=unbuffered)
    sys.stderr = io.TextIOWrapper(open(2, "wb", buffering=0, closefd=False), encoding=encoding,
                                  errors="backslashreplace", write_through=True)
    sys.argv = [""]                      # run_module puts the module's file first, as `-m` does
    sys.path[:] = request["path"]
    import importlib
    importlib.invalidate_caches()
    from pyflink_compat import third_party_patches
    module = request["module"]
    if module == "pyspark.sql.streaming.transform_with_state_driver_worker":
        third_party_patches.quiet_driver_worker_stdout()
    else:
        third_party_patches.quiet_source_runner_at_jvm_exit()
    # Preloaded for its imports; it runs as __main__ as under `-m` (runpy warns about a loaded copy).
    sys.modules.pop(module, None)
    code = 0
    try:
        runpy.run_module(module, run_name="__main__", alter_sys=True)
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
        if not isinstance(e.code, (int, type(None))):
            print(e.code, file=sys.stderr)
    except BaseException:                # noqa: B902 - as an interpreter would: report, exit 1
        sys.excepthook(*sys.exc_info())
        code = 1
    import atexit
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    return code


def serve(path: str):
    """Preload, listen on ``path`` (in a directory only this user may enter), fork for each stub; end when
    terminated or when the process that started us is gone."""
    import selectors
    parent = os.getppid()
    signal.signal(signal.SIGINT, signal.SIG_IGN)        # the terminal's Ctrl-C is the driver's to handle
    stopping = []
    signal.signal(signal.SIGTERM, lambda *_: stopping.append(True))
    _preload()
    directory = os.path.dirname(path)
    os.mkdir(directory, 0o700)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        listener.bind(path)
        listener.listen(64)
        listener.setblocking(False)
        selector = selectors.DefaultSelector()
        selector.register(listener, selectors.EVENT_READ)
        stubs = {}                       # connection -> pid of its forked process
        forked = {}                      # pid -> connection (None once its stub is gone)
        while not stopping and os.getppid() == parent:
            for key, _ in selector.select(timeout=0.2):
                if key.fileobj is listener:
                    try:
                        connection, _ = listener.accept()
                    except OSError:
                        continue
                    pid = _fork_for(connection, [listener, selector, *stubs])
                    if pid:
                        stubs[connection] = pid
                        forked[pid] = connection
                        selector.register(connection, selectors.EVENT_READ)
                    else:
                        connection.close()
                else:                    # a stub sends nothing more: readable means it is gone
                    connection = key.fileobj
                    pid = stubs.pop(connection)
                    selector.unregister(connection)
                    connection.close()
                    forked[pid] = None
                    try:
                        os.kill(pid, signal.SIGTERM)
                    except ProcessLookupError:
                        pass
            _reap(forked, stubs, selector)
    finally:
        listener.close()
        for leftover in (path,):
            try:
                os.unlink(leftover)
            except OSError:
                pass
        try:
            os.rmdir(directory)
        except OSError:
            pass


def _fork_for(connection: socket.socket, keep_closed) -> int:
    """Fork the process a stub asks for; its pid, or 0 (the stub then starts as usual)."""
    try:
        received = _receive_request(connection)
    except (OSError, ValueError, EOFError, ImportError, AttributeError):
        return 0
    if received is None:
        return 0
    request, fds = received
    if not _servable(request):
        for fd in fds:
            os.close(fd)
        try:
            connection.sendall(HEADER.pack(0))
        except OSError:
            pass
        return 0
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            code = _run_forked(request, fds, [*keep_closed, connection])
        finally:
            os._exit(code & 0xFF)
    for fd in fds:
        os.close(fd)
    try:
        connection.sendall(HEADER.pack(pid))
    except OSError:                      # the stub is already gone
        os.kill(pid, signal.SIGTERM)
    return pid


def _reap(forked: dict, stubs: dict, selector):
    while forked:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        connection = forked.pop(pid, None)
        if connection is not None:
            code = os.waitstatus_to_exitcode(status)
            try:
                connection.sendall(HEADER.pack(code if code >= 0 else 128 - code))
            except OSError:
                pass
            stubs.pop(connection, None)
            selector.unregister(connection)
            connection.close()


if __name__ == "__main__":
    serve(sys.argv[1])

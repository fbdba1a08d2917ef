"""What the fault tests inject faults into: brokers that restart with or without their data, a TCP proxy that
cuts the network path, and the fault job run in its own process.

- ``ObjectStore``: an S3-compatible server (moto's, from PyPI) on loopback, one per test session. A Tansu
  broker whose storage engine is a bucket of it keeps its topics, offsets and transactions across a restart,
  as a Kafka broker keeps its log on disk (Tansu's memory storage loses them).
- ``TcpProxy``: forwards a loopback port to the broker; ``cut()`` drops every connection and refuses new ones
  until ``restore()``. The broker advertises the proxy's port, so every client goes through it.
"""
import os
import selectors
import socket
import subprocess
import sys
import threading
import time
import urllib.request
import uuid

from broker import TansuBroker, free_port, wait_for_port

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FAULT_JOB = os.path.join(REPO, "tests", "faults", "jobs", "fault_job.py")


class ObjectStore:
    """moto's S3 server in its own process; ``new_bucket()`` gives each broker storage of its own."""

    def __init__(self, log_path: str):
        self.port = free_port()
        self.process = subprocess.Popen([sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(self.port)],
                                        stdout=open(log_path, "ab"), stderr=subprocess.STDOUT, start_new_session=True)
        wait_for_port(self.port)

    @property
    def endpoint(self) -> str:
        return "http://127.0.0.1:%d" % self.port

    def new_bucket(self) -> str:
        name = "tansu-%s" % uuid.uuid4().hex[:12]
        urllib.request.urlopen(urllib.request.Request("%s/%s" % (self.endpoint, name), method="PUT"), timeout=30)
        return name

    def broker_environment(self) -> dict:
        # Local test credentials of the loopback store (moto accepts any).
        return {"AWS_ENDPOINT": self.endpoint, "AWS_ALLOW_HTTP": "true", "AWS_DEFAULT_REGION": "eu-west-2",
                "AWS_ACCESS_KEY_ID": "test", "AWS_SECRET_ACCESS_KEY": "test"}

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)


class TcpProxy:
    """Forwards ``port`` to ``target_port`` on loopback, one thread, until ``close()``."""

    def __init__(self, target_port: int = None, port: int = None):
        self.port = port or free_port()
        self.target_port = target_port
        self._cut = threading.Event()
        self._closed = threading.Event()
        self._listener = socket.create_server(("127.0.0.1", self.port), reuse_port=False)
        self._listener.setblocking(False)
        self._selector = selectors.DefaultSelector()
        self._selector.register(self._listener, selectors.EVENT_READ, None)
        self._peers = {}
        self._thread = threading.Thread(target=self._run, name="fault-proxy", daemon=True)
        self._thread.start()

    def cut(self):
        """Drop every open connection and refuse new ones (until ``restore()``)."""
        self._cut.set()

    def restore(self):
        self._cut.clear()

    def close(self):
        self._closed.set()
        self._thread.join(timeout=10)

    def _run(self):
        while not self._closed.is_set():
            if self._cut.is_set():
                self._drop_all()
            for key, _ in self._selector.select(timeout=0.05):
                if key.data is None:
                    self._accept()
                else:
                    self._forward(key.fileobj)
        self._drop_all()
        self._selector.close()
        self._listener.close()

    def _accept(self):
        try:
            client, _ = self._listener.accept()
        except BlockingIOError:
            return
        if self._cut.is_set():
            client.close()
            return
        try:
            upstream = socket.create_connection(("127.0.0.1", self.target_port), timeout=5)
        except OSError:
            client.close()
            return
        for one, other in ((client, upstream), (upstream, client)):
            one.setblocking(False)
            self._peers[one] = other
            self._selector.register(one, selectors.EVENT_READ, "peer")

    def _forward(self, sock):
        other = self._peers.get(sock)
        if other is None:
            return
        try:
            data = sock.recv(1 << 16)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if not data:
            self._drop(sock)
            return
        try:
            other.setblocking(True)
            other.sendall(data)
            other.setblocking(False)
        except OSError:
            self._drop(sock)

    def _drop(self, sock):
        other = self._peers.pop(sock, None)
        for one in (sock, other):
            if one is None:
                continue
            self._peers.pop(one, None)
            try:
                self._selector.unregister(one)
            except (KeyError, ValueError):
                pass
            one.close()

    def _drop_all(self):
        for sock in list(self._peers):
            self._drop(sock)


class FaultBroker:
    """A Tansu broker behind a ``TcpProxy``: restart it with its data (S3 storage) or empty, stop it, cut it."""

    def __init__(self, log_path: str, store: ObjectStore = None):
        self.proxy = TcpProxy()
        storage = None
        environment = None
        if store is not None:
            storage = "s3://%s/" % store.new_bucket()
            environment = store.broker_environment()
        self.broker = TansuBroker(storage_url=storage, environment=environment, advertised_port=self.proxy.port)
        self.proxy.target_port = self.broker.port
        self.broker.start(log_path)

    @property
    def bootstrap_servers(self) -> str:
        return self.broker.bootstrap_servers

    def restart(self, down_s: float = 2.0, kill: bool = True):
        """Stop the broker (SIGKILL by default, as a crash), wait ``down_s``, start it again on the same port."""
        self.broker.stop(kill=kill)
        time.sleep(down_s)
        self.broker.start()

    def stop(self):
        self.broker.stop()

    def close(self):
        self.broker.stop()
        self.proxy.close()


def start_fault_job(source_servers, sink_servers, topic_in, topic_out, checkpoint_dir, log_path, guarantee,
                    stop_offset, sink_properties=(), source_properties=(), restore=None, options=()):
    """``pyflink-compat run`` of tests/faults/jobs/fault_job.py in its own process group, appending to log_path.

    ``*_properties``: (key, value) pairs for the source's / sink's builder ``set_property``.
    """
    env = dict(os.environ, PYTHONPATH=REPO + os.pathsep + os.environ.get("PYTHONPATH", ""),
               PYFLINK_COMPAT_LOG_LEVEL="INFO")
    command = [sys.executable, "-m", "pyflink_compat", "run", "-Dpyflink-compat.source.max-records-per-batch=2000",
               *options]
    if restore:
        command += ["-s", restore]
    command += [FAULT_JOB, source_servers, sink_servers, topic_in, topic_out, checkpoint_dir, guarantee, str(stop_offset),
                ",".join("%s=%s" % item for item in source_properties),
                ",".join("%s=%s" % item for item in sink_properties)]
    log = open(log_path, "ab")
    log.write(("\n=== %s\n" % " ".join(command)).encode())
    log.flush()
    return subprocess.Popen(command, env=env, cwd=REPO, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)


class OutputWatcher:
    """Counts the records of a topic by reading them (end offsets of a Tansu broker on S3 storage are stale)."""

    def __init__(self, servers: str, topic: str):
        from kafka import KafkaConsumer, TopicPartition
        self.consumer = KafkaConsumer(bootstrap_servers=servers, enable_auto_commit=False, fetch_max_wait_ms=10,
                                      request_timeout_ms=5000, reconnect_backoff_max_ms=500)
        partitions = [TopicPartition(topic, p) for p in sorted(self.consumer.partitions_for_topic(topic) or ())]
        self.consumer.assign(partitions)
        self.consumer.seek_to_beginning(*partitions)
        self.count = 0

    def read(self) -> int:
        for batch in self.consumer.poll(timeout_ms=200).values():
            self.count += len(batch)
        return self.count

    def close(self):
        self.consumer.close()

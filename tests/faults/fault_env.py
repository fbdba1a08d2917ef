"""What the fault tests inject faults into: a broker of the test's own behind a TCP proxy, and the fault job
run in its own process.

- ``TcpProxy``: forwards a loopback port to the broker; ``cut()`` drops every connection and refuses new ones
  until ``restore()``. The broker advertises the proxy's port, so every client goes through it. A cut and
  restored path stands for a broker that restarts with its data: Tansu's memory storage loses everything on
  a restart, and its S3 storage (tried with a loopback S3 server) reported end offsets far behind its log and
  once came back from a kill without a topic it had.
- ``FaultBroker``: the broker and its proxy; ``restart()`` brings it back empty, ``stop()`` ends it, ``freeze()``
  stops its process for a while.
"""
import os
import selectors
import signal
import socket
import subprocess
import sys
import threading
import time
from typing import Callable, List, NamedTuple, Optional

import pytest

from broker import TansuBroker, free_port, wait_for_port
from job_processes import kill_job, tail
from kafka_helpers import consume, create_topic, produce, unique_topic, values
from transaction_log_reader import read_transactions

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FAULT_JOB = os.path.join(REPO, "tests", "faults", "jobs", "fault_job.py")


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
    """A Tansu broker (memory storage) behind a ``TcpProxy``: restart it (empty), stop it, cut its network path."""

    def __init__(self, log_path: str):
        self.proxy = TcpProxy()
        self.broker = TansuBroker(advertised_port=self.proxy.port)
        self.proxy.target_port = self.broker.port
        self.broker.start(log_path)

    @property
    def bootstrap_servers(self) -> str:
        return self.broker.bootstrap_servers

    def restart(self, down_s: float = 2.0, kill: bool = True):
        """Stop the broker (SIGKILL by default, as a crash), wait ``down_s``, start it again on the same port,
        empty."""
        self.broker.stop(kill=kill)
        time.sleep(down_s)
        self.broker.start()

    def stop(self):
        self.broker.stop()

    def freeze(self, seconds: float):
        """SIGSTOP the broker for ``seconds``: connections stay open and nothing answers (a long GC pause);
        memory storage keeps its data."""
        os.kill(self.broker.process.pid, signal.SIGSTOP)
        try:
            time.sleep(seconds)
        finally:
            self.resume()

    def resume(self):
        if self.broker.process is not None and self.broker.process.poll() is None:
            os.kill(self.broker.process.pid, signal.SIGCONT)

    def close(self):
        self.broker.stop()
        self.proxy.close()


def start_fault_job(source_servers, sink_servers, topic_in, topic_out, checkpoint_dir, log_path, guarantee,
                    stop_offset, sink_properties=(), source_properties=(), restore=None, options=(),
                    starting="earliest"):
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
                ",".join("%s=%s" % item for item in sink_properties), starting]
    log = open(log_path, "ab")
    log.write(("\n=== %s\n" % " ".join(command)).encode())
    log.flush()
    return subprocess.Popen(command, env=env, cwd=REPO, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)


class OutputWatcher:
    """Counts the records of a topic by reading them (Tansu's end offsets lag behind multi-record batches)."""

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


def produce_input(servers: str, name: str, records: int, held_back: int = 0):
    """A new 2-partition topic holding "record-NNNNNN" values, the even ones in partition 0 and the odd ones in
    partition 1; the last ``held_back`` of them are not produced yet (see produce_held_back). Returns (topic,
    values)."""
    topic = create_topic(servers, unique_topic(name + "-in"), partitions=2)
    inputs = ["record-%06d" % i for i in range(records)]
    _produce_by_partition(servers, topic, inputs[:records - held_back])
    return topic, inputs


def produce_held_back(servers: str, topic: str, inputs, held_back: int):
    _produce_by_partition(servers, topic, inputs[len(inputs) - held_back:])


def _produce_by_partition(servers, topic, values):
    for partition in (0, 1):
        mine = [v for v in values if int(v.split("-")[1]) % 2 == partition]
        if mine:
            produce(servers, topic, mine, partition=partition)


def wait_for_output(servers, topic, process, at_least, log_path, deadline_s=180.0):
    """Wait until the job wrote ``at_least`` records (it is well under way); fail if it ends first."""
    watcher = OutputWatcher(servers, topic)
    try:
        deadline = time.monotonic() + deadline_s
        while time.monotonic() < deadline:
            assert process.poll() is None, "the job ended before the fault:\n" + tail(log_path)
            if watcher.read() >= at_least:
                return
        pytest.fail("the job wrote fewer than %d records within %.0f s:\n%s" % (at_least, deadline_s,
                                                                                tail(log_path)))
    finally:
        watcher.close()


def wait_for_values(servers, topic, wanted, deadline_s):
    """Wait until ``topic`` holds every value of ``wanted``."""
    from kafka import KafkaConsumer, TopicPartition
    consumer = KafkaConsumer(bootstrap_servers=servers, enable_auto_commit=False, fetch_max_wait_ms=10)
    try:
        partitions = [TopicPartition(topic, p) for p in sorted(consumer.partitions_for_topic(topic) or ())]
        consumer.assign(partitions)
        consumer.seek_to_beginning(*partitions)
        missing = set(wanted)
        deadline = time.monotonic() + deadline_s
        while missing and time.monotonic() < deadline:
            for batch in consumer.poll(timeout_ms=200).values():
                missing.difference_update(r.value.decode() for r in batch)
        assert not missing, "%d values did not reach %s within %.0f s, e.g. %s" % (len(missing), topic, deadline_s,
                                                                                 sorted(missing)[:3])
    finally:
        consumer.close()


class FaultRun(NamedTuple):
    exit_code: Optional[int]          # None: still running at the deadline (it was killed then)
    seconds_after_fault: float        # from the fault's injection to the job's end
    log_path: str
    topic_out: str
    inputs: List[str]
    topic_in: str = ""


def run_through_fault(name: str, source: str, sink: str, guarantee: str, inject: Callable[[str, str], None],
                      tmp_path, records: int, deadline_s: float = 300.0, sink_properties=(),
                      starting="earliest", held_back: int = 0) -> FaultRun:
    """Run the fault job from ``records`` new input records on ``source`` to a new topic on ``sink``; once it has
    written a fifth of them, ``inject(input_topic, output_topic)`` the fault; wait for the job to end (up to
    ``deadline_s``). ``starting``: the job's starting offsets (see tests/faults/jobs/fault_job.py).
    ``held_back``: that many of the input records are produced only after the fault, so that a fast job cannot
    have finished before it (the source broker must be up then)."""
    assert held_back <= records * 4 // 5, "the job must be able to write a fifth of the records before the fault"
    topic_in, inputs = produce_input(source, name, records, held_back)
    topic_out = create_topic(sink, unique_topic(name + "-out"), partitions=2)
    log_path = str(tmp_path / "job.log")
    process = start_fault_job(source, sink, topic_in, topic_out, str(tmp_path / "checkpoints"), log_path, guarantee,
                              records // 2, sink_properties=sink_properties, starting=starting)
    try:
        wait_for_output(sink, topic_out, process, records // 5, log_path)
        inject(topic_in, topic_out)
        injected = time.monotonic()
        if held_back:
            produce_held_back(source, topic_in, inputs, held_back)
        try:
            exit_code = process.wait(timeout=deadline_s)
        except subprocess.TimeoutExpired:
            exit_code = None
        return FaultRun(exit_code, time.monotonic() - injected, log_path, topic_out, inputs, topic_in)
    finally:
        if process.poll() is None:
            kill_job(process)


def assert_delivered(servers, topic, inputs, guarantee):
    """The output against the guarantee: EXACTLY_ONCE every record once and no open transaction; the others
    every record at least once (our NONE writer fails on send errors as the others do) and nothing else."""
    expected = sorted(v.upper() for v in inputs)
    if guarantee == "exactly-once":
        committed, aborted, still_open = read_transactions(servers, topic)
        output = sorted(r.value.decode() for r in committed)
        assert still_open == 0, "%d records are in transactions left open" % still_open
        assert output == expected, "%s; %d aborted; %d records in the log" % (
            _difference(output, expected), aborted, len(consume(servers, topic, len(expected), timeout_s=30)))
        return output
    output = values(consume(servers, topic, len(expected), timeout_s=120, settle_s=2))
    missing = set(expected) - set(output)
    assert not missing, "%d records lost, e.g. %s" % (len(missing), sorted(missing)[:5])
    assert set(output) <= set(expected)
    return output


def _difference(output, expected):
    lost = set(expected) - set(output)
    duplicated = len(output) - len(set(output))
    return "%d records lost (e.g. %s), %d duplicates" % (len(lost), sorted(lost)[:3], duplicated)


def job_error(log_path: str) -> str:
    """The last line the runner printed for the failure (``...JobExecutionError: ...``)."""
    with open(log_path, "rb") as f:
        lines = f.read().decode(errors="replace").splitlines()
    errors = [line for line in lines if "JobExecutionError: " in line]
    assert errors, "the job failed without a JobExecutionError:\n" + tail(log_path)
    return errors[-1]

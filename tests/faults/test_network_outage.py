"""The network path between the job and a broker is cut in the middle of a job and restored 8 s later (every
open connection dropped, new ones refused meanwhile), on the source's side, the sink's side or both: the job
rides it out within Kafka's client timeouts, exits 0, and the output holds every input record, once for
EXACTLY_ONCE (what a read_committed reader sees, no transaction left open), at least once otherwise.

The broker keeps running and keeps its data; a TCP proxy the test starts is what fails
(tests/faults/fault_env.py). The default run covers each side once; ``-m faults_full`` adds the rest of the
guarantee matrix.
"""
import os
import time

import pytest

from fault_env import FaultBroker, start_fault_job
from job_processes import kill_job, tail
from kafka_helpers import create_topic, produce, unique_topic
from test_broker_restart import assert_delivered, wait_for_output

pytestmark = pytest.mark.integration

RECORDS = 60_000
OUTAGE_S = 8.0
RUN_DEADLINE_S = 300.0
FULL = pytest.mark.faults_full


@pytest.fixture
def proxied_broker(tmp_path):
    if os.environ.get("KAFKA_BOOTSTRAP_SERVERS"):
        pytest.skip("cutting the network path needs a broker of the test's own behind a proxy (Tansu)")
    broker = FaultBroker(str(tmp_path / "tansu.log"))
    try:
        yield broker
    finally:
        broker.proxy.restore()
        broker.close()


def _run_with_outage(side, guarantee, bootstrap, proxied_broker, tmp_path):
    source = proxied_broker.bootstrap_servers if side in ("source", "both") else bootstrap
    sink = proxied_broker.bootstrap_servers if side in ("sink", "both") else bootstrap
    topic_in = create_topic(source, unique_topic("outage-%s-in" % side), partitions=2)
    inputs = ["record-%06d" % i for i in range(RECORDS)]
    for partition in (0, 1):
        produce(source, topic_in, inputs[partition::2], partition=partition)
    topic_out = create_topic(sink, unique_topic("outage-%s-out" % side), partitions=2)
    log_path = str(tmp_path / "job.log")
    process = start_fault_job(source, sink, topic_in, topic_out, str(tmp_path / "checkpoints"), log_path, guarantee,
                              RECORDS // 2)
    try:
        wait_for_output(sink, topic_out, process, RECORDS // 5, log_path)
        proxied_broker.proxy.cut()
        time.sleep(OUTAGE_S)
        proxied_broker.proxy.restore()
        exit_code = process.wait(timeout=RUN_DEADLINE_S)
    finally:
        proxied_broker.proxy.restore()
        if process.poll() is None:
            kill_job(process)
    assert exit_code == 0, "the job did not ride out the outage:\n" + tail(log_path)
    output = assert_delivered(sink, topic_out, inputs, guarantee)
    print("%s path cut for %.0f s, %s: %d output records for %d inputs" % (side, OUTAGE_S, guarantee, len(output),
                                                                           len(inputs)))


@pytest.mark.parametrize("guarantee", [pytest.param("none", marks=FULL), pytest.param("at-least-once", marks=FULL),
                                       "exactly-once"])
def test_the_sink_path_cut_and_restored(guarantee, bootstrap, proxied_broker, tmp_path):
    _run_with_outage("sink", guarantee, bootstrap, proxied_broker, tmp_path)


@pytest.mark.parametrize("guarantee", [pytest.param("none", marks=FULL), "at-least-once",
                                       pytest.param("exactly-once", marks=FULL)])
def test_the_source_path_cut_and_restored(guarantee, bootstrap, proxied_broker, tmp_path):
    _run_with_outage("source", guarantee, bootstrap, proxied_broker, tmp_path)


@pytest.mark.parametrize("guarantee", ["none", pytest.param("at-least-once", marks=FULL),
                                       pytest.param("exactly-once", marks=FULL)])
def test_both_paths_cut_and_restored(guarantee, bootstrap, proxied_broker, tmp_path):
    _run_with_outage("both", guarantee, bootstrap, proxied_broker, tmp_path)

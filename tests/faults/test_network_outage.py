"""The network path between the job and a broker is cut in the middle of a job and restored 8 s later (every
open connection dropped, new ones refused meanwhile), on the source's side, the sink's side or both: the job
rides it out within Kafka's client timeouts, exits 0, and the output holds every input record, once for
EXACTLY_ONCE (what a read_committed reader sees, no transaction left open), at least once otherwise.

The broker keeps running and keeps its data; a TCP proxy the test starts is what fails
(tests/faults/fault_env.py). The default run covers each side once; ``-m faults_full`` adds the rest of the
guarantee matrix.
"""
import time

import pytest

from fault_env import assert_delivered, run_through_fault
from job_processes import tail

pytestmark = pytest.mark.integration

RECORDS = 60_000
OUTAGE_S = 8.0
FULL = pytest.mark.faults_full


def _run_with_outage(side, guarantee, bootstrap, broker, tmp_path):
    source = broker.bootstrap_servers if side in ("source", "both") else bootstrap
    sink = broker.bootstrap_servers if side in ("sink", "both") else bootstrap

    def outage(*_topics):
        broker.proxy.cut()
        time.sleep(OUTAGE_S)
        broker.proxy.restore()

    run = run_through_fault("outage-" + side, source, sink, guarantee, outage, tmp_path, RECORDS)
    assert run.exit_code == 0, "the job did not ride out the outage:\n" + tail(run.log_path)
    output = assert_delivered(sink, run.topic_out, run.inputs, guarantee)
    print("%s path cut for %.0f s, %s: %d output records for %d inputs" % (side, OUTAGE_S, guarantee, len(output),
                                                                           len(run.inputs)))


@pytest.mark.parametrize("guarantee", [pytest.param("none", marks=FULL), pytest.param("at-least-once", marks=FULL),
                                       "exactly-once"])
def test_the_sink_path_cut_and_restored(guarantee, bootstrap, memory_broker, tmp_path):
    _run_with_outage("sink", guarantee, bootstrap, memory_broker, tmp_path)


@pytest.mark.parametrize("guarantee", [pytest.param("none", marks=FULL), "at-least-once",
                                       pytest.param("exactly-once", marks=FULL)])
def test_the_source_path_cut_and_restored(guarantee, bootstrap, memory_broker, tmp_path):
    _run_with_outage("source", guarantee, bootstrap, memory_broker, tmp_path)


@pytest.mark.parametrize("guarantee", ["none", pytest.param("at-least-once", marks=FULL),
                                       pytest.param("exactly-once", marks=FULL)])
def test_both_paths_cut_and_restored(guarantee, bootstrap, memory_broker, tmp_path):
    _run_with_outage("both", guarantee, bootstrap, memory_broker, tmp_path)

"""Fault injection on the real broker and Spark. Tests marked ``faults_full`` (the rest of the guarantee
matrix) are left out by default (setup.cfg); ``pytest tests/faults -m integration`` runs them all."""
import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))


@pytest.fixture
def memory_broker(tmp_path):
    """A broker of the test's own behind a proxy; memory storage, so a restart empties it."""
    from fault_env import FaultBroker
    if os.environ.get("KAFKA_BOOTSTRAP_SERVERS"):
        pytest.skip("this fault needs a broker process of the test's own (Tansu), behind a proxy of its own")
    broker = FaultBroker(str(tmp_path / "tansu.log"))
    try:
        yield broker
    finally:
        broker.proxy.restore()
        broker.resume()
        broker.close()

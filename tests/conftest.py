"""Session-wide real components: one Kafka-protocol broker and one Spark session.

``KAFKA_BOOTSTRAP_SERVERS`` points the suite at an existing cluster (Apache
Kafka, Redpanda) instead of starting Tansu.
"""
import os
import sys

import pytest
from hypothesis import HealthCheck, settings

# No per-example deadlines: timings on these shared 2-core machines are not stable.
settings.register_profile("pyflink-compat", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("pyflink-compat")

sys.path.insert(0, os.path.dirname(__file__))

from broker import TansuBroker  # noqa: E402


@pytest.fixture(scope="session")
def bootstrap():
    external = os.environ.get("KAFKA_BOOTSTRAP_SERVERS")
    if external:
        yield external
        return
    broker = TansuBroker().start(log_path=os.path.join(os.environ.get("TMPDIR", "/tmp"), "pyflink-compat-tansu.log"))
    try:
        yield broker.bootstrap_servers
    finally:
        broker.stop()


@pytest.fixture(scope="session")
def spark():
    from pyflink_compat.runtime import session, worker_python
    # With the workers' path a job without Python dependencies uses, so the session's warm-up read starts
    # the same pool of Python workers the tests' jobs use (otherwise which env it gets is a race).
    spark = session.get_session({}, worker_python.resolve({}))
    yield spark
    session.stop_session()

"""Fault injection on the real broker and Spark: the fixtures (an S3 store for brokers that keep their data
across restarts). Tests marked ``faults_full`` (the rest of the guarantee matrix) are left out by default
(setup.cfg); ``pytest tests/faults -m integration`` runs them all."""
import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))


@pytest.fixture(scope="session")
def object_store(tmp_path_factory):
    from fault_env import ObjectStore
    store = ObjectStore(str(tmp_path_factory.mktemp("object-store") / "moto.log"))
    try:
        yield store
    finally:
        store.stop()

"""ARRAY_AGG and JSON_OBJECTAGG give PyFlink's changelogs, types and errors: the same probe script runs under real
PyFlink and under pyflink-compat."""
import os

import pytest

from harness import run_probe_script

pytestmark = pytest.mark.side_by_side

PROBES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "probes", "collection_aggregate_probes.py")


def test_collection_aggregates_are_pyflinks(oracle_python):
    theirs, ours = run_probe_script(PROBES, oracle_python)
    assert len(theirs) == 192
    assert ours == theirs

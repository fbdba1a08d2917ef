"""``JsonRowDeserializationSchema.Builder.json_schema()`` gives the types and errors PyFlink gives: the same
probe script (one JSON Schema per line, its type or error) runs under real PyFlink and under pyflink-compat."""
import os

import pytest

from harness import run_probe_script

pytestmark = pytest.mark.side_by_side

PROBES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "probes", "json_schema_probes.py")


def test_json_schema_types_and_errors_are_pyflinks(oracle_python):
    theirs, ours = run_probe_script(PROBES, oracle_python)
    assert len(theirs) == 72
    assert ours == theirs

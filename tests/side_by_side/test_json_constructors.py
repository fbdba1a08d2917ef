"""JSON_OBJECT, JSON_ARRAY and JSON_STRING give PyFlink's JSON text and errors: the same probe script runs under
real PyFlink and under pyflink-compat."""
import os

import pytest

from harness import run_probe_script

pytestmark = pytest.mark.side_by_side

PROBES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "probes", "json_constructor_probes.py")


def test_json_constructors_are_pyflinks(oracle_python):
    theirs, ours = run_probe_script(PROBES, oracle_python)
    assert len(theirs) == 2 * 27 + 31
    assert ours == theirs

"""Flink's array and map functions give PyFlink's types, values and errors: the same probe script runs under real
PyFlink and under pyflink-compat."""
import os

import pytest

from harness import run_probe_script

pytestmark = pytest.mark.side_by_side

PROBES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "probes", "collection_function_probes.py")


def test_collection_functions_are_pyflinks(oracle_python):
    theirs, ours = run_probe_script(PROBES, oracle_python)
    assert len(theirs) == 46
    assert ours == theirs

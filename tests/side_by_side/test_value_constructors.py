"""ARRAY[...], MAP[...], ROW(...) and (a, b) give PyFlink's types, values and errors: the same probe script runs
under real PyFlink and under pyflink-compat."""
import os

import pytest

from harness import run_probe_script

pytestmark = pytest.mark.side_by_side

PROBES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "probes", "constructor_probes.py")


def test_value_constructors_are_pyflinks(oracle_python):
    theirs, ours = run_probe_script(PROBES, oracle_python)
    assert len(theirs) == 34
    assert ours == theirs

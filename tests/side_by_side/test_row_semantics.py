"""``Row`` behaves as PyFlink's: construction, named and positional fields, as_dict, kinds, equality, repr,
pickling. The same probe script runs under real PyFlink (no JVM needed) and under pyflink-compat."""
import os

import pytest

from harness import run_probe_script

pytestmark = pytest.mark.side_by_side

PROBES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "probes", "row_probes.py")


def test_row_behaves_as_pyflinks(oracle_python):
    theirs, ours = run_probe_script(PROBES, oracle_python)
    assert len(theirs) >= 30
    assert ours == theirs

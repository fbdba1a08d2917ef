"""``Row`` behaves as PyFlink's: construction, named and positional fields, as_dict, kinds, equality, repr,
pickling. The same probe script runs under real PyFlink (no JVM needed) and under pyflink-compat."""
import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.side_by_side

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PROBES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "probes", "row_probes.py")


def _run(command, env):
    result = subprocess.run(command, capture_output=True, text=True, timeout=120, env=env)
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stdout.splitlines()


def test_row_behaves_as_pyflinks(oracle_python):
    oracle_env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    theirs = _run([oracle_python, PROBES], oracle_env)
    ours = _run([sys.executable, PROBES, "--compat"], dict(os.environ, PYTHONPATH=REPO))
    assert len(theirs) >= 30
    assert ours == theirs

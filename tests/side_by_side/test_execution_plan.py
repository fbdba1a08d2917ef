"""``get_execution_plan()`` as PyFlink prints it: node names (fused Python operators, sources, sinks' writer and
committer), parallelism, ship strategies and the JSON layout, compared with real PyFlink on the same jobs."""
import os

import pytest

from harness import run_probe_script

pytestmark = pytest.mark.side_by_side

PROBES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "probes", "plan_probes.py")


def test_execution_plans_are_pyflinks(oracle_python):
    theirs, ours = run_probe_script(PROBES, oracle_python)
    assert sum(line.startswith("== ") for line in theirs) == 17
    assert sum(line.startswith('    "type" : ') for line in theirs) > 60
    assert ours == theirs

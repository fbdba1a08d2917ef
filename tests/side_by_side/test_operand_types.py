"""Built-in functions and operators called with operands of types they do not take fail with Flink's validation
errors, in SQL and in the Table API: the same probe script runs under real PyFlink and under pyflink-compat."""
import os

import pytest

from harness import run_probe_script

pytestmark = pytest.mark.side_by_side

PROBES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "probes", "operand_type_probes.py")


def test_operand_type_errors_are_pyflinks(oracle_python):
    theirs, ours = run_probe_script(PROBES, oracle_python)
    assert len(theirs) == 279 + 28
    assert sum("Cannot apply" in line for line in theirs) == 154
    assert sum(line.endswith("=> OK") for line in theirs) == 87          # calls Flink takes stay taken
    assert ours == theirs

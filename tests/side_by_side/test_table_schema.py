"""``Table.get_schema()`` (the deprecated TableSchema), ``get_resolved_schema()`` and ``TableSchema`` made in Python
give what PyFlink gives: the same probe script (one result per line) runs under real PyFlink and under
pyflink-compat."""
import os

import pytest

from harness import run_probe_script

pytestmark = pytest.mark.side_by_side

PROBES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "probes", "table_schema_probes.py")


def test_table_schemas_are_pyflinks(oracle_python):
    theirs, ours = run_probe_script(PROBES, oracle_python)
    assert len(theirs) == 30
    assert ours == theirs

"""The Table API's expression methods and functions (strings, hashes, regular expressions, URLs, arrays, maps,
JSON, time units, intervals, row / array / map_ / null_of / call_sql, with_columns, aggregates) give PyFlink's
result types and values: the same probe script runs under real PyFlink and under pyflink-compat."""
import os

import pytest

from harness import run_probe_script

pytestmark = pytest.mark.side_by_side

PROBES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "probes", "table_function_probes.py")


def test_table_api_functions_are_pyflinks(oracle_python):
    theirs, ours = run_probe_script(PROBES, oracle_python)
    assert len(theirs) == 152
    assert sum(" => ( `" in line for line in theirs) == 120         # calls typed, none refused
    assert ours == theirs

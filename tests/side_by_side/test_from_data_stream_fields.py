"""from_data_stream / create_temporary_view with field expressions (renamed by position, picked by name,
.rowtime and .proctime, the mistakes' ValidationExceptions) give PyFlink's schemas, rows and errors: the same
probe script runs under real PyFlink and under pyflink-compat."""
import os

import pytest

from harness import run_probe_script

pytestmark = pytest.mark.side_by_side

PROBES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "probes", "from_data_stream_fields.py")


def test_field_expressions_map_a_streams_fields_as_pyflink_does(oracle_python):
    theirs, ours = run_probe_script(PROBES, oracle_python)
    assert len(theirs) == 134
    assert sum(" fails: " in line for line in theirs) == 16
    assert sum("*ROWTIME*" in line for line in theirs) == 7
    assert ours == theirs

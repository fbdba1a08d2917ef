"""UNHEX, ENCODE / DECODE, INET_ATON / INET_NTOA, PARSE_URL, STR_TO_MAP, JSON_QUOTE / JSON_UNQUOTE, SIMILAR TO and
CURRENT_DATABASE give PyFlink's types, values and errors: the same probe script runs under real PyFlink and under
pyflink-compat."""
import os

import pytest

from harness import run_probe_script

pytestmark = pytest.mark.side_by_side

PROBES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "probes", "string_url_json_probes.py")


def test_string_url_json_functions_are_pyflinks(oracle_python):
    theirs, ours = run_probe_script(PROBES, oracle_python)
    assert len(theirs) == 697
    assert ours == theirs

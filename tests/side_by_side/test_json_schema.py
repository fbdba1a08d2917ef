"""``JsonRowDeserializationSchema.Builder.json_schema()`` gives the types and errors PyFlink gives: the same
probe script (one JSON Schema per line, its type or error) runs under real PyFlink and under pyflink-compat."""
import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.side_by_side

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PROBES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "probes", "json_schema_probes.py")


def _run(command, env):
    result = subprocess.run(command, capture_output=True, text=True, timeout=180, env=env)
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stdout.splitlines()


def test_json_schema_types_and_errors_are_pyflinks(oracle_python):
    oracle_env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    oracle_env["PATH"] = os.path.dirname(oracle_python) + os.pathsep + oracle_env.get("PATH", "")
    theirs = _run([oracle_python, PROBES], oracle_env)
    ours = _run([sys.executable, PROBES, "--compat"], dict(os.environ, PYTHONPATH=REPO))
    assert len(theirs) == 72
    assert ours == theirs

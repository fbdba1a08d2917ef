"""Side-by-side tests: the oracle (real PyFlink) must be there; a missing oracle fails, never skips."""
import os

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))


def pytest_collection_modifyitems(config, items):
    # One pytest-xdist worker runs them all, one at a time (--dist loadgroup): each runs two engines' JVMs, and
    # two cases at once on 2 cores starved Spark's Python workers past their fixed 10 s connect-back timeout.
    for item in items:
        if str(item.path).startswith(HERE + os.sep):
            item.add_marker(pytest.mark.xdist_group("side-by-side"))


def pytest_configure(config):
    config.addinivalue_line("markers", "side_by_side: runs each job on real PyFlink and on pyflink-compat "
                                       "against the same broker and compares the outputs")


@pytest.fixture(scope="session")
def oracle_python():
    import os
    from oracle_env import OracleUnavailable, oracle_python as find_oracle
    try:
        python = find_oracle()
    except OracleUnavailable as e:
        pytest.fail("The PyFlink oracle environment is not available and could not be built; side-by-side "
                    "tests need it (tests/oracle_env.py, or PYFLINK_ORACLE_PYTHON=/path/to/python):\n%s" % e,
                    pytrace=False)
    if not os.path.isfile(python):
        pytest.fail("PyFlink oracle interpreter %s does not exist (PYFLINK_ORACLE_PYTHON or a broken cache "
                    "in tests/oracle_env.default_dir())" % python, pytrace=False)
    return python

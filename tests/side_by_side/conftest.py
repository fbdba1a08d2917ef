"""Side-by-side tests: the oracle (real PyFlink) must be there; a missing oracle fails, never skips."""
import pytest


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
    from harness import oracle_java_options
    oracle_java_options(python)        # records the oracle's class-data archive once per machine, before any case
    return python

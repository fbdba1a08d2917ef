"""The ``parity`` marker, and the report's path in pytest's summary (tests/conftest.py puts tests/ on sys.path)."""


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "parity: compares pyflink-compat's API with apache-flink 2.3.0 (builds the oracle environment)")


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    path = getattr(config, "pyflink_compat_parity_report", None)
    if path:
        terminalreporter.write_line("API parity report (coverage per module): %s" % path)

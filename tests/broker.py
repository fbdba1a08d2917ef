"""The test broker lives in the package (the demo starts it too)."""
from pyflink_compat.demo.broker import TansuBroker, free_port, wait_for_port  # noqa: F401

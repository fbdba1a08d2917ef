"""Stand-in for PyFlink in the Python processes Spark starts for a pyflink-compat job.

This directory is put first on those processes' path (runtime/worker_python.py), so that the job's own
modules, imported there to run its functions, can ``import pyflink...`` as they do under PyFlink: this module
installs pyflink-compat's alias and answers as pyflink-compat's top-level package. It is never on the path of
the job's own process (the runner installs the alias there) nor of any other Python program.
"""
import importlib
import sys

from pyflink_compat import aliasing

aliasing.install_finder()
# The import of "pyflink" that ran this file returns what sys.modules holds under that name once it is done.
sys.modules[__name__] = importlib.import_module(aliasing.TARGET)

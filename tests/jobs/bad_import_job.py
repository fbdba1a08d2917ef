"""Imports a name PyFlink does not have: the error names the module as the job wrote it."""
from pyflink.datastream import NoSuchThing, StreamExecutionEnvironment  # noqa: F401

"""Imported first by every Python process Spark starts for a job (this directory leads their path).

It only acts in the process that plans a transformWithState query (pyspark.sql.streaming
.transform_with_state_driver_worker), which prints its progress into the job's terminal (stderr): see
pyflink_compat.third_party_patches.quiet_driver_worker_stdout; and in a query's streaming-source runner, which
prints tracebacks when the JVM ends before it: quiet_source_runner_at_jvm_exit. Then it runs the sitecustomize it hides, if
the environment has one further along the path.
"""
import os
import sys

_STARTED_AS = tuple(getattr(sys, "orig_argv", ())[-2:])
if _STARTED_AS == ("-m", "pyspark.sql.streaming.transform_with_state_driver_worker"):
    from pyflink_compat.third_party_patches import quiet_driver_worker_stdout
    quiet_driver_worker_stdout()
elif _STARTED_AS == ("-m", "pyspark.sql.streaming.python_streaming_source_runner"):
    from pyflink_compat.third_party_patches import quiet_source_runner_at_jvm_exit
    quiet_source_runner_at_jvm_exit()


def _run_hidden_sitecustomize():
    here = os.path.dirname(os.path.abspath(__file__))
    for entry in sys.path:
        candidate = os.path.join(entry or os.getcwd(), "sitecustomize.py")
        if os.path.abspath(os.path.dirname(candidate)) != here and os.path.isfile(candidate):
            import importlib.util
            spec = importlib.util.spec_from_file_location("_environment_sitecustomize", candidate)
            spec.loader.exec_module(importlib.util.module_from_spec(spec))
            return


_run_hidden_sitecustomize()

"""Imports for Spark's Python daemons, done once in the daemon before it forks a worker.

Spark starts one daemon per kind of Python worker (``python -m pyspark.daemon <worker module>``: the UDF and
stage workers, and the planners a query calls at each start, ``create_data_source`` and
``plan_data_source_read``) and forks a worker from it for each call. pyspark's daemon imports nothing but
itself, so each forked planner imported pyarrow, kafka-python and our modules again before it answered:
0.3-0.4 s of CPU per call, two calls per query start, and a SQL script starts a query per statement.
``worker_path/sitecustomize.py`` calls :func:`preload` in each daemon. pyspark's daemon imports after forking
because an import could start threads, which a fork does not copy; these modules start none on import (and
Arrow's allocator is the system's: ``ARROW_DEFAULT_MEMORY_POOL``), as the fork server's preloading shows.
"""
import importlib
import sys

#: What our workers and Spark's planners import for our sources and keyed stages.
PRELOADED = ("pyarrow", "kafka", "pyflink_compat.kafka_io.source", "pyflink_compat.runtime.keyed_stage",
             "pyflink_compat.third_party_patches")


def preload(worker_module: str):
    """Import the daemon's ``worker_module`` (a ``pyspark`` module) and :data:`PRELOADED`; a module that fails
    to import is left to the worker, which reports its error as it would have."""
    for name in (worker_module,) + PRELOADED:
        try:
            importlib.import_module(name)
        except Exception as e:          # noqa: BLE001 - the worker imports it again and shows the error
            print("pyflink-compat: %s not imported before the daemon forks: %s" % (name, e), file=sys.stderr)

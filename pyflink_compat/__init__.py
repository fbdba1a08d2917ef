"""pyflink-compat: run PyFlink DataStream Kafka jobs, unchanged, on Apache Spark.

The package mirrors PyFlink's module layout (``pyflink_compat.common``,
``pyflink_compat.datastream``, ``pyflink_compat.datastream.connectors.kafka``, ...).
``pyflink-compat run job.py`` makes ``import pyflink...`` resolve to these modules.

Layers, each changeable alone:
* the mirror (``common``, ``datastream``): the API users see; builds a job graph;
* the translation (``runtime``): turns the graph into Spark Structured Streaming queries;
* the Kafka I/O (``kafka_io``): Spark Python data sources on kafka-python.
"""
__version__ = "0.1.0"

from pyflink_compat import missing as _missing

# PyFlink's modules that pyflink-compat does not implement still import (every name raising when used).
_missing.install()

from pyflink_compat import dependency_guard as _dependency_guard

# A job's own package named "kafka" must not hide kafka-python from pyflink-compat (dependency_guard.py).
_dependency_guard.keep_kafka_python_importable()

"""The one Spark session a pyflink-compat process uses.

Spark local mode is the default (``local[*,3]``); ``spark.master`` from the job's
configuration (``-D spark.master=...``) or the ``SPARK_MASTER`` environment
variable runs the same job on a cluster. Every ``spark.*`` key of the job's
configuration is passed to Spark.
"""
import logging
import os
import sys
import threading

log = logging.getLogger("pyflink_compat")

_lock = threading.Lock()
_session = None

DEFAULTS = {
    "spark.ui.enabled": "false",
    "spark.ui.showConsoleProgress": "false",
    "spark.sql.shuffle.partitions": "2",
    "spark.sql.streaming.stopTimeout": "60s",
    # Python data sources and Arrow UDFs: use Arrow-native batches, avoid pandas conversions.
    "spark.sql.execution.arrow.pyspark.enabled": "true",
    # Python workers may start slowly on a loaded 2-core machine: give them time to connect back.
    "spark.python.authenticate.socketTimeout": "120s",
}


def spark_master(configuration: dict) -> str:
    # local[*,3]: all cores, and a failed task is tried up to 3 times, as on a cluster
    # (spark.task.maxFailures); a failing user function still fails the job.
    return configuration.get("spark.master") or os.environ.get("SPARK_MASTER") or "local[*,3]"


def get_session(configuration: dict = None):
    """The process's SparkSession, created on first use from ``configuration`` (Flink-style keys)."""
    global _session
    configuration = dict(configuration or {})
    with _lock:
        if _session is not None:
            return _session
        # Executors must run this interpreter, which has pyarrow and pyflink_compat.
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
        os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
        from pyspark.sql import SparkSession
        master = spark_master(configuration)
        builder = SparkSession.builder.appName(configuration.get("pipeline.name", "pyflink-compat"))
        builder = builder.master(master)
        settings = dict(DEFAULTS)
        if master.startswith("local"):
            # Embedded mode: keep every Spark endpoint on loopback.
            os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
            settings.update({"spark.driver.host": "127.0.0.1", "spark.driver.bindAddress": "127.0.0.1"})
        settings.update({k: v for k, v in configuration.items() if k.startswith("spark.") and k != "spark.master"})
        for key, value in settings.items():
            builder = builder.config(key, value)
        session = builder.getOrCreate()
        session.sparkContext.setLogLevel(configuration.get("spark.log.level", "ERROR"))
        _register_data_sources(session)
        _session = session
        log.info("Spark session started, master %s", session.sparkContext.master)
        return _session


def _register_data_sources(session):
    from pyflink_compat.kafka_io.source import KafkaDataSource
    from pyflink_compat.runtime.collection_source import CollectionDataSource
    session.dataSource.register(KafkaDataSource)
    session.dataSource.register(CollectionDataSource)


def stop_session():
    global _session
    with _lock:
        if _session is not None:
            _session.stop()
            _session = None

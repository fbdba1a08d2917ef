"""The one Spark session a pyflink-compat process uses.

Spark local mode is the default (``local[*,3]``); ``spark.master`` from the job's
configuration (``-D spark.master=...``) or the ``SPARK_MASTER`` environment
variable runs the same job on a cluster. Every ``spark.*`` key of the job's
configuration is passed to Spark.
"""
import logging
import os
import shutil
import sys
import threading
import zlib

from pyflink_compat.runtime import jvm_archive

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
    # Keyed stages (transformWithState) need the RocksDB state store; stateless queries have no state.
    "spark.sql.streaming.stateStore.providerClass":
        "org.apache.spark.sql.execution.streaming.state.RocksDBStateStoreProvider",
    # Every micro-batch is a state version: keep few (the default 100 would hold 100 copies of big state).
    "spark.sql.streaming.minBatchesToRetain": "10",
    # Python workers allocate Arrow buffers with malloc instead of jemalloc, which keeps freed memory
    # mapped: 20-25 MiB less per worker, no measurable change in speed (JSON benchmark, interleaved runs).
    "spark.executorEnv.ARROW_DEFAULT_MEMORY_POOL": "system",
}


# JVM start-up: the C1 compiler and the serial collector halve the JVM's CPU for short jobs on small
# machines (measured: 11-12 s instead of 20-23 s of JVM CPU per 1M-record job). Users' own
# spark.driver.extraJavaOptions replace this.
DEFAULT_DRIVER_JAVA_OPTIONS = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"


def _spark_home_without_zipped_python() -> str:
    """A SPARK_HOME whose workers import the installed, byte-compiled pyspark.

    The pyspark wheel's own SPARK_HOME has python/lib/pyspark.zip, which Spark puts first on every
    Python worker's path; it holds only .py files, so each of the ~10 Python processes of a query
    compiles pyspark again (several seconds before the first output). A directory of symlinks to
    everything but ``python/`` avoids that; workers then find pyspark in site-packages.
    """
    import pyspark
    source = os.path.dirname(os.path.abspath(pyspark.__file__))
    target = os.path.join(jvm_archive.cache_dir(), "spark-home-%s-%08x" % (pyspark.__version__,
                                                                          zlib.crc32(source.encode())))
    if os.path.isdir(os.path.join(target, "jars")):
        return target
    _remove_dangling_spark_homes(os.path.dirname(target))
    staging = "%s.%d" % (target, os.getpid())
    os.makedirs(staging, exist_ok=True)
    for name in os.listdir(source):
        if name != "python":
            os.symlink(os.path.join(source, name), os.path.join(staging, name))
    try:
        os.rename(staging, target)
    except OSError:                      # another process made it first
        shutil.rmtree(staging, ignore_errors=True)
    return target


def _remove_dangling_spark_homes(directory: str):
    """Symlink directories of pyspark installs that no longer exist (removed virtualenvs)."""
    if not os.path.isdir(directory):
        return
    for entry in os.listdir(directory):
        home = os.path.join(directory, entry)
        if entry.startswith("spark-home-") and os.path.islink(os.path.join(home, "jars")) \
                and not os.path.exists(os.path.join(home, "jars")):
            shutil.rmtree(home, ignore_errors=True)


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
            _warn_ignored_settings(_session, configuration)
            return _session
        # Executors must run this interpreter, which has pyarrow and pyflink_compat.
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
        os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
        # Local mode's workers inherit this process's environment (spark.executorEnv.* is for clusters).
        os.environ.setdefault("ARROW_DEFAULT_MEMORY_POOL", "system")
        if "SPARK_HOME" not in os.environ:
            try:
                os.environ["SPARK_HOME"] = _spark_home_without_zipped_python()
            except OSError as e:         # read-only home: run with the wheel's SPARK_HOME, just slower
                log.info("Using the pyspark wheel's SPARK_HOME (%s)", e)
        from pyspark.sql import SparkSession
        master = spark_master(configuration)
        builder = SparkSession.builder.appName(configuration.get("pipeline.name", "pyflink-compat"))
        builder = builder.master(master)
        settings = dict(DEFAULTS)
        settings["spark.driver.extraJavaOptions"] = DEFAULT_DRIVER_JAVA_OPTIONS
        if master.startswith("local"):
            # Embedded mode: keep every Spark endpoint on loopback.
            os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
            settings.update({"spark.driver.host": "127.0.0.1", "spark.driver.bindAddress": "127.0.0.1"})
        settings.update({k: v for k, v in configuration.items() if k.startswith("spark.") and k != "spark.master"})
        on_started = None
        if jvm_archive.enabled(configuration) and "SPARK_HOME" in os.environ:
            try:
                settings["spark.driver.extraJavaOptions"], on_started = jvm_archive.java_options(
                    os.environ["SPARK_HOME"], settings["spark.driver.extraJavaOptions"])
            except OSError as e:         # no writable cache: start without an archive
                log.info("No JVM class archive: %s", e)
        for key, value in settings.items():
            builder = builder.config(key, value)
        session = builder.getOrCreate()
        session.sparkContext.setLogLevel(configuration.get("spark.log.level", "ERROR"))
        _register_data_sources(session)
        if on_started is not None:
            on_started(session)
        from pyflink_compat.runtime import warm_up
        warm_up.start_in_background(session)
        _session = session
        log.info("Spark session started, master %s", session.sparkContext.master)
        return _session


def _warn_ignored_settings(session, configuration):
    """spark.* settings can only apply when the session starts: say which later ones are ignored."""
    conf = session.sparkContext.getConf()
    ignored = sorted(key for key, value in configuration.items()
                     if key.startswith("spark.") and conf.get(key, None) != str(value)
                     and not (key == "spark.master" and session.sparkContext.master == value))
    if ignored:
        log.warning("The Spark session is already running; these settings apply only at its start and are "
                    "ignored: %s", ", ".join(ignored))


def _register_data_sources(session):
    from pyflink_compat.kafka_io.source import KafkaDataSource
    from pyflink_compat.runtime.collection_source import CollectionDataSource
    from pyflink_compat.runtime.warm_up import WarmUpDataSource
    session.dataSource.register(KafkaDataSource)
    session.dataSource.register(CollectionDataSource)
    session.dataSource.register(WarmUpDataSource)


def stop_session():
    global _session
    with _lock:
        if _session is not None:
            _session.stop()
            _session = None

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
from typing import Optional, Tuple

import attrs

from pyflink_compat import options
from pyflink_compat.runtime import fork_server, jvm_archive, numpy_converters, worker_python
from pyflink_compat.util.files import write_atomically

log = logging.getLogger("pyflink_compat")

_lock = threading.Lock()
_session = None

DEFAULTS = {
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
    # glibc's malloc raises its mmap threshold (up to 32 MiB) whenever a big block is freed; from then
    # on a micro-batch's big buffers come from the heap and stay in the process when freed. A fixed
    # threshold (the initial 128 KiB) gives each big block its own mapping, returned when freed:
    # 25-30 MiB less per Python worker (windows benchmark, interleaved runs).
    "spark.executorEnv.MALLOC_MMAP_THRESHOLD_": "131072",
    # Spark keeps one pool of Python workers (and one fork server) per set of environment variables its
    # tasks pass. With simplified tracebacks on, Python data source read tasks pass one more variable than
    # transformWithState tasks, so a keyed job had two pools: four workers of about 200 MiB where two do.
    # Off, a keyed subtask reuses an idle read task's worker (windows benchmark: peak RSS 1.66 -> 1.31 GiB).
    # A failing user function's traceback then also shows pyspark's frames; its last line is the same.
    "spark.sql.execution.pyspark.udf.simplifiedTraceback.enabled": "false",
}


# JVM start-up: the C1 compiler and the serial collector halve the JVM's CPU for short jobs on small
# machines (measured: 11-12 s instead of 20-23 s of JVM CPU per 1M-record job). The heap starts at
# 64 MiB and grows as needed: the JVM's default start, 1/64 of the machine's memory (376 MiB on 24 GiB),
# sizes a young generation that gets touched in full (windows benchmark: JVM 511 -> 465 MiB RSS, JSON
# benchmark's time unchanged in 6 interleaved pairs). A fixed 16 MiB young generation (the default grows
# to 60-70 MiB, all of it touched) and a heap that gives memory back after a full collection: JVM about
# 60 MiB smaller on the windows benchmark, both benchmarks' times unchanged (interleaved runs).
# Users' own spark.driver.extraJavaOptions replace this.
DEFAULT_DRIVER_JAVA_OPTIONS = ("-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xms64m -Xmn16m "
                               "-XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=20")


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


def get_session(configuration: dict = None, worker=None):
    """The process's SparkSession, created on first use from ``configuration`` (Flink-style keys).
    ``worker``: the ``worker_python.WorkerPython`` the job's Python functions need (path, executable)."""
    global _session
    configuration = dict(configuration or {})
    with _lock:
        if _session is not None:
            _warn_ignored_settings(_session, configuration)
            if worker is not None and worker_python.apply(_session.sparkContext, worker):
                _register_data_sources(_session)      # registered data sources keep the path they had
            return _session
        _prepare_environment()
        from pyspark.sql import SparkSession
        launch = _launch_settings(configuration)
        settings, on_started = _early_jvm.take(launch), None
        if settings is None:
            settings, on_started = _with_class_archive(launch, configuration, may_record=True)
        builder = SparkSession.builder.appName(configuration.get("pipeline.name", "pyflink-compat"))
        builder = builder.master(launch.master)
        for key, value in settings.items():
            builder = builder.config(key, value)
        session = builder.getOrCreate()
        # Spark logs every failed task attempt with its trace; a failed job reports its cause once instead.
        session.sparkContext.setLogLevel(configuration.get("spark.log.level") or options.LOG_LEVEL.get(configuration))
        if worker is not None:
            worker_python.apply(session.sparkContext, worker)
        _register_data_sources(session)
        if on_started is not None:
            on_started(session)
        from pyflink_compat.runtime import warm_up
        warm_up.start_in_background(session)
        _session = session
        log.info("Spark session started, master %s", session.sparkContext.master)
        return _session


def start_fork_server(configuration: dict, worker=None):
    """Start the fork server for Spark's one-by-one Python processes (runtime/fork_server.py) unless it runs
    or is turned off; ``worker``: the workers' path and Python (None: a job's without Python dependencies)."""
    if options.FORK_SERVER.get(configuration) and not fork_server.running():
        worker = worker or worker_python.resolve({})
        fork_server.start(worker.executable, os.pathsep.join(worker.paths))


def ui_url() -> Optional[str]:
    """The address of the running session's Spark UI (None without a session or a UI)."""
    session = _session
    if session is None:
        return None
    try:
        return session.sparkContext.uiWebUrl
    except Exception:                    # noqa: BLE001 - the driver is stopping
        return None


def _prepare_environment():
    """What must be in place before the driver JVM starts: the environment variables the JVM and Spark's
    Python workers inherit, and py4j converters that do not import pandas."""
    numpy_converters.install()
    # py4j logs its callback server's start at INFO: machinery, which a job logging INFO to stdout would print.
    # A job setting the py4j logger's level itself keeps it.
    py4j_log = logging.getLogger("py4j")
    if py4j_log.level == logging.NOTSET:
        py4j_log.setLevel(logging.WARNING)
    from pyflink_compat.third_party_patches import arrow_without_pandas
    arrow_without_pandas()
    # Executors must run this interpreter, which has pyarrow and pyflink_compat.
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    # Local mode's workers inherit this process's environment (spark.executorEnv.* is for clusters).
    os.environ.setdefault("ARROW_DEFAULT_MEMORY_POOL", "system")
    fork_server.announce()
    if "SPARK_HOME" not in os.environ:
        try:
            os.environ["SPARK_HOME"] = _spark_home_without_zipped_python()
        except OSError as e:         # read-only home: run with the wheel's SPARK_HOME, just slower
            log.info("Using the pyspark wheel's SPARK_HOME (%s)", e)


@attrs.frozen
class LaunchSettings:
    """Everything the driver JVM's start depends on: equal settings give an equal JVM."""
    master: str
    settings: Tuple[Tuple[str, str], ...]      # the Spark settings, without the class archive's options
    class_archive: bool
    environment: Tuple[Tuple[str, str], ...]


def _launch_settings(configuration: dict) -> LaunchSettings:
    """The launch settings for ``configuration``; also sets SPARK_LOCAL_IP for the embedded mode."""
    master = spark_master(configuration)
    settings = dict(DEFAULTS)
    settings["spark.driver.extraJavaOptions"] = DEFAULT_DRIVER_JAVA_OPTIONS
    settings.update(_ui_settings(configuration))
    if master.startswith("local"):
        # Embedded mode: keep every Spark endpoint on loopback.
        os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
        settings.update({"spark.driver.host": "127.0.0.1", "spark.driver.bindAddress": "127.0.0.1"})
    settings.update({k: str(v) for k, v in configuration.items() if k.startswith("spark.") and k != "spark.master"})
    if master.startswith("local"):
        from pyflink_compat.third_party_patches import local_checkpoint_settings
        settings.update(local_checkpoint_settings(settings))
    java_options = settings["spark.driver.extraJavaOptions"]
    if "log4j" not in java_options:
        level = configuration.get("spark.log.level") or options.LOG_LEVEL.get(configuration)
        try:
            settings["spark.driver.extraJavaOptions"] = "%s -Dlog4j2.configurationFile=%s" % (
                java_options, log4j_configuration(level))
        except OSError as e:         # no writable cache: Spark's own log configuration
            log.info("No log4j2 configuration written: %s", e)
    return LaunchSettings(master, tuple(sorted(settings.items())), jvm_archive.enabled(configuration),
                          tuple(sorted(os.environ.items())))


def _ui_settings(configuration: dict) -> dict:
    """The Spark UI: on by default (Spark's port 4040, or Flink's ``rest.port``), off with port -1."""
    port = options.UI_PORT.get(configuration)
    if port is None and configuration.get("rest.port"):
        try:
            port = int(str(configuration["rest.port"]).split("-")[0])
        except ValueError:
            port = None
    if port is not None and port < 0:
        return {"spark.ui.enabled": "false"}
    return {"spark.ui.enabled": "true", **({"spark.ui.port": str(port)} if port is not None else {})}


# Spark's log lines go to standard error at this level from the JVM's start (not only once the session runs);
# the native-library warning of every start is noise on a machine without Hadoop's libraries.
_LOG4J_TEMPLATE = """\
# pyflink-compat: Spark's log lines at level %(level)s (option pyflink-compat.log-level)
rootLogger.level = %(level)s
rootLogger.appenderRef.console.ref = console
appender.console.type = Console
appender.console.name = console
appender.console.target = SYSTEM_ERR
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = %%d{yy/MM/dd HH:mm:ss} %%p %%c{1}: %%m%%n%%ex
logger.native.name = org.apache.hadoop.util.NativeCodeLoader
logger.native.level = ERROR
# A pyspark session counts as interactive: Spark gives its console the level of the gateway's logger (WARN
# when that logger is not configured) and announces it when it differs from the root's
logger.gateway.name = org.apache.spark.api.python.PythonGatewayServer
logger.gateway.level = %(level)s
"""


def log4j_configuration(level: str) -> str:
    """The path of a log4j2 configuration giving Spark's lines at ``level`` (written once per machine)."""
    level = options.LOG_LEVEL.parse(level)
    path = os.path.join(jvm_archive.cache_dir(), "log4j2-%s.properties" % level.lower())
    text = _LOG4J_TEMPLATE % {"level": level}
    try:
        with open(path) as f:
            if f.read() == text:
                return path
    except OSError:
        pass
    os.makedirs(os.path.dirname(path), exist_ok=True)
    write_atomically(path, text)
    return path


def _with_class_archive(launch: LaunchSettings, configuration: dict, may_record: bool):
    """The Spark settings with the JVM class archive's options, and what to call once the session runs.

    Returns (None, None) when ``may_record`` is false and there is no archive yet to start from.
    """
    settings = dict(launch.settings)
    on_started = None
    if launch.class_archive and "SPARK_HOME" in os.environ:
        try:
            class_path = settings.get("spark.driver.extraClassPath", "")
            if not may_record and not jvm_archive.has_archive(os.environ["SPARK_HOME"],
                                                              settings["spark.driver.extraJavaOptions"], class_path):
                return None, None
            settings["spark.driver.extraJavaOptions"], on_started = jvm_archive.java_options(
                os.environ["SPARK_HOME"], settings["spark.driver.extraJavaOptions"], class_path)
        except OSError as e:         # no writable cache: start without an archive
            log.info("No JVM class archive: %s", e)
    return settings, on_started


#: Configuration key: start the driver JVM while ``pyflink-compat run`` still runs the job file (default on).
# The JVM starts in 1-5 s; a much longer start means something is wrong, and the session's own start says what.
EARLY_START_TIMEOUT_S = 120.0


class _EarlyJvm:
    """The driver JVM, started while ``pyflink-compat run`` still imports and runs the job file.

    Starting the JVM takes about 1 s of a job's fixed start, and the job file's imports and graph
    building about as long again, mostly on another core: ``start`` runs the two side by side.
    ``take`` gives the JVM to the session only when the job asks for exactly the launch settings it
    was started with (Spark settings, class archive, environment). Otherwise it stops it and the
    session starts its own JVM, so a job that sets spark.* keys or environment variables in its
    code gets what it asked for.
    """

    def __init__(self):
        self._thread = None
        self._launch = None
        self._settings = None
        self._gateway = None

    def start(self, configuration: dict):
        if self._thread is not None:
            return
        _prepare_environment()
        launch = _launch_settings(configuration)
        settings, _ = _with_class_archive(launch, configuration, may_record=False)
        if settings is None:
            return                   # no class archive yet: the session records it, which takes the normal start
        self._launch, self._settings = launch, settings

        def launch_jvm():
            try:
                from pyspark import SparkConf
                from pyspark.java_gateway import launch_gateway
                self._gateway = launch_gateway(SparkConf(loadDefaults=False).setMaster(launch.master)
                                               .setAll(list(settings.items())))
            except Exception as e:   # the session's own start will report it
                log.debug("Starting the JVM early failed: %s", e)

        self._thread = threading.Thread(target=launch_jvm, name="pyflink-compat-jvm-start", daemon=True)
        self._thread.start()

    def take(self, launch: LaunchSettings):
        """The Spark settings to start the session with on the early JVM; None: start a JVM as usual."""
        thread, self._thread = self._thread, None
        if thread is None:
            return None
        thread.join(EARLY_START_TIMEOUT_S)
        gateway, self._gateway = self._gateway, None
        if gateway is None:
            return None
        from pyspark import SparkContext
        if SparkContext._gateway is not None:            # cannot happen from the CLI; never run two JVMs
            _stop_gateway(gateway)
            return None
        if launch != self._launch:
            changed = sorted({key for key, _ in set(launch.settings) ^ set(self._launch.settings)} |
                             {key for key, _ in set(launch.environment) ^ set(self._launch.environment)})
            # Key names only: values may be secrets.
            log.info("The job set Spark launch settings or environment variables in its code (%s): "
                     "starting the JVM again with them", ", ".join(changed) or "class archive")
            _stop_gateway(gateway)
            return None
        SparkContext._ensure_initialized(gateway=gateway)
        log.debug("The driver JVM was started while the job file ran")
        return self._settings


def _stop_gateway(gateway):
    try:
        gateway.shutdown()
    except Exception as e:
        log.debug("Closing the early JVM's gateway: %s", e)
    process = getattr(gateway, "proc", None)
    if process is not None:
        process.stdin.close()        # the JVM exits when its standard input closes
        try:
            process.wait(10)
        except Exception:
            process.kill()


_early_jvm = _EarlyJvm()


def start_jvm_early(configuration: dict):
    """Start the driver JVM now, in the background, for a session that ``get_session`` creates later.

    Called by ``pyflink-compat run`` before the job file runs; ``-D pyflink-compat.jvm.early-start=false``
    turns it off.
    """
    if options.JVM_EARLY_START.get(configuration):
        _early_jvm.start(configuration)


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
    _skip_installed_data_source_lookup(session)
    from pyflink_compat.kafka_io.source import KafkaDataSource
    from pyflink_compat.runtime.collection_source import CollectionDataSource
    from pyflink_compat.runtime.datagen_source import DataGenDataSource
    from pyflink_compat.runtime.warm_up import WarmUpDataSource
    session.dataSource.register(KafkaDataSource)
    session.dataSource.register(CollectionDataSource)
    session.dataSource.register(DataGenDataSource)
    session.dataSource.register(WarmUpDataSource)


def _skip_installed_data_source_lookup(session):
    """Keep Spark from looking for pip-installed Python data sources when the first one is registered.

    That lookup starts a Python process of its own (0.5-0.7 s of every job's start, and a fork server
    kept for the whole job) to find data sources that PyFlink jobs never use: they only use ours,
    which are registered by name. Spark keeps the lookup's result in a field of its
    ``DataSourceManager``; setting it to "none found" first skips the lookup. If a Spark version has
    no such field, the lookup simply runs.
    """
    jvm = session.sparkContext._jvm
    try:
        manager = getattr(getattr(jvm.org.apache.spark.sql.execution.datasources, "DataSourceManager$"), "MODULE$")
        nothing_installed = getattr(getattr(jvm.scala.collection.immutable, "Map$"), "MODULE$").empty()
        if manager.dataSourceBuilders().isEmpty():
            getattr(manager, "dataSourceBuilders_$eq")(jvm.scala.Some(nothing_installed))
    except Exception as e:
        log.debug("Spark will look for installed Python data sources: %s", e)


def stop_session():
    global _session
    fork_server.stop()
    with _lock:
        if _session is not None:
            _session.stop()
            _session = None

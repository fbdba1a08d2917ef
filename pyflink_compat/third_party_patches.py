"""Changes to third-party objects' internals, kept in one place.

Each patch checks the version it was written for and what it touches; where either differs it does nothing,
logs a warning once saying what is lost, and the caller goes on without it.
"""
import contextlib
import logging

log = logging.getLogger("pyflink_compat")

_warned = set()


def _warn_once(key: str, message: str, *args):
    if key not in _warned:
        _warned.add(key)
        log.warning(message, *args)


# kafka-python versions the client patches below were checked against.
KAFKA_PYTHON_TESTED = ("3.0.",)


def forbid_topic_creation(client) -> bool:
    """Make a kafka-python client's metadata requests never ask the broker to create a topic.

    kafka-python 3.0 accepts ``allow_auto_create_topics=False`` but never hands it to the cluster metadata
    that builds the requests, so a consumer polling a topic that vanished re-creates it on a broker that
    auto-creates topics. Flink's source sends allow.auto.create.topics=false. Returns whether it applied.
    """
    import kafka
    version = getattr(kafka, "__version__", "unknown")
    cluster = getattr(client, "_cluster", None)
    if cluster is None:
        cluster = getattr(getattr(client, "_manager", None), "cluster", None)
    config = getattr(cluster, "config", None)
    if not version.startswith(KAFKA_PYTHON_TESTED) or not isinstance(config, dict) \
            or "allow_auto_create_topics" not in config:
        _warn_once("forbid_topic_creation",
                   "kafka-python %s: cannot turn off topic auto-creation in its metadata requests; a source "
                   "reading a topic that vanished may re-create it on a broker that creates topics on demand",
                   version)
        return False
    config["allow_auto_create_topics"] = False
    return True


# -- pandas stays out of processes that never use it ---------------------------------------------------------
#
# A process with pyspark, pyarrow and our modules grows from 71 to 116 MiB of RSS when it imports pandas. Two
# things import it although pyflink-compat never uses it:
#
# - pyarrow, the first time anything builds an Arrow array from Python objects: its pandas shim is asked whether
#   the object is a pandas Series and imports pandas to know. Every read task and keyed subtask builds arrays, so
#   every Python worker imported pandas. arrow_without_pandas() lets that first look find no pandas. pyarrow
#   treats lists as lists, as before; its shim tries again (and succeeds) whenever one of pyarrow's pandas
#   functions is called (to_pandas, from_pandas, ...), and a watcher on `import pandas` tells the shim at once
#   when anything else imports pandas, so a user function using pandas with pyarrow works as it did.
# - pyspark's transformWithState, whose pandas_udf checks pandas' version by importing it (the row-based
#   processor never uses pandas): pandas_version_checked_without_import() reads the installed version instead.

# pyspark versions the version-check patch was written for (its pandas_udf path).
PYSPARK_TESTED = ("4.3.",)
PANDAS_MINIMUM = "2.2.0"              # pyspark 4.3's require_minimum_pandas_version

_arrow_checked = False


def _tell_pyarrow_pandas_is_there():
    try:
        import pyarrow.lib
        pyarrow.lib._pandas_api.pd          # the shim's raising check imports pandas and records it
    except Exception:                       # a broken pandas: pyarrow reports it when it is used
        pass


class _LoaderTellingPyarrow:
    """The pandas package's loader: once pandas has run, pyarrow's shim hears of it."""

    def __init__(self, loader):
        self._loader = loader

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module):
        self._loader.exec_module(module)
        _tell_pyarrow_pandas_is_there()

    def __getattr__(self, name):
        return getattr(self._loader, name)


class _PandasImportWatcher:
    """A one-shot meta path finder: finds pandas as the other finders do, with a loader that tells pyarrow."""

    def find_spec(self, name, path=None, target=None):
        if name != "pandas":
            return None
        import importlib.util
        import sys
        try:
            sys.meta_path.remove(self)
        except ValueError:
            pass
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.loader is not None and hasattr(spec.loader, "exec_module"):
            spec.loader = _LoaderTellingPyarrow(spec.loader)
        return spec


def arrow_without_pandas() -> bool:
    """Make pyarrow's first pandas check find no pandas when nothing has imported pandas yet (idempotent and
    cheap: call it before the process builds its first Arrow array). Returns whether pandas stays out."""
    global _arrow_checked
    import sys
    if _arrow_checked or "pandas" in sys.modules:
        return False
    _arrow_checked = True
    import pyarrow
    import pyarrow.lib
    shim = getattr(pyarrow.lib, "_pandas_api", None)
    if shim is None or not hasattr(type(shim), "have_pandas") or not hasattr(type(shim), "pd"):
        _warn_once("arrow_without_pandas", "pyarrow %s: its pandas shim is not as expected; each Python worker "
                   "imports pandas (about 45 MiB more each)", getattr(pyarrow, "__version__", "unknown"))
        return False
    sys.meta_path.insert(0, _PandasImportWatcher())
    sys.modules["pandas"] = None            # `import pandas` raises ImportError during this one check
    try:
        shim.have_pandas
    except Exception:
        pass
    finally:
        if "pandas" in sys.modules and sys.modules["pandas"] is None:
            del sys.modules["pandas"]
    return True


def _pandas_at_least(minimum: str) -> bool:
    from importlib import metadata
    try:
        from pyspark.loose_version import LooseVersion
        return LooseVersion(metadata.version("pandas")) >= LooseVersion(minimum)
    except Exception:                       # not installed, unreadable: pyspark's own check decides
        return False


@contextlib.contextmanager
def pandas_version_checked_without_import():
    """While ``transformWithState`` is planned: pyspark's pandas version check reads the installed version
    instead of importing pandas. A missing or too old pandas still fails with pyspark's own error."""
    import sys
    if "pandas" in sys.modules:
        yield
        return
    import pyspark
    from pyspark.sql.pandas import functions
    original = getattr(functions, "require_minimum_pandas_version", None)
    if original is None or not pyspark.__version__.startswith(PYSPARK_TESTED):
        _warn_once("pandas_version_check", "pyspark %s: planning a keyed stage imports pandas in the driver "
                   "(about 45 MiB)", pyspark.__version__)
        yield
        return

    def check():
        if not _pandas_at_least(PANDAS_MINIMUM):
            original()

    functions.require_minimum_pandas_version = check
    try:
        yield
    finally:
        functions.require_minimum_pandas_version = original

# pyspark versions whose transformWithState driver worker was checked to print only progress to stdout.
PYSPARK_DRIVER_WORKER_TESTED = ("4.",)


def quiet_driver_worker_stdout():
    """In Spark's transformWithState driver worker (started once per keyed query to plan it): it prints its
    progress ("Starting Streaming TransformWithStateInPandas Python worker." and four more blocks of text) to
    its stdout, which Spark passes on to the job's stderr. It talks to the JVM over a socket, never stdout, so
    stdout goes to /dev/null. Another pyspark version keeps printing, with a warning."""
    import os
    import sys
    import pyspark
    version = getattr(pyspark, "__version__", "unknown")
    if not version.startswith(PYSPARK_DRIVER_WORKER_TESTED):
        _warn_once("driver-worker-stdout", "pyspark %s was not checked: its transformWithState driver worker "
                   "keeps printing to the job's stdout", version)
        return
    sys.stdout = open(os.devnull, "w")


# pyspark versions whose streaming-source runner was checked to report its errors to the JVM over its socket.
PYSPARK_SOURCE_RUNNER_TESTED = ("4.",)
_PEER_GONE = (BrokenPipeError, ConnectionResetError, EOFError)


def quiet_source_runner_at_jvm_exit():
    """In Spark's Python streaming-source runner (one per running query over our Kafka source): when the JVM
    ends before it (the end of a ``pyflink-compat run`` whose queries were still being stopped), its next read
    of the socket fails, reporting that failure over the same socket fails too, and Python prints both
    tracebacks on the job's terminal. Errors while the JVM lives go over the socket, as before; a runner whose
    JVM is gone now ends silently. Another pyspark version keeps the tracebacks, with a warning."""
    import os
    import sys
    import pyspark
    version = getattr(pyspark, "__version__", "unknown")
    if not version.startswith(PYSPARK_SOURCE_RUNNER_TESTED):
        _warn_once("source-runner-exit", "pyspark %s was not checked: its streaming-source runners may print "
                   "tracebacks when the JVM ends first", version)
        return
    previous = sys.excepthook

    def peer_gone(error) -> bool:
        while error is not None:
            if isinstance(error, _PEER_GONE):
                return True
            error = error.__context__
        return False

    def hook(kind, error, traceback):
        if peer_gone(error):
            os._exit(1)           # nobody is left to read the error; flushing the dead socket would print more
        previous(kind, error, traceback)

    sys.excepthook = hook


# Hadoop versions whose local file system was checked to set permissions with a process per file (no native
# library) and to take a subclass by `fs.file.impl`; and the Spark versions whose checkpoint file managers were
# compared on it.
HADOOP_LOCAL_FS_TESTED = ("3.",)
PYSPARK_CHECKPOINT_MANAGER_TESTED = ("4.",)
SHELL_FREE_LOCAL_FS = "pyflink_compat.hadoop.ShellFreeLocalFileSystem"
FILE_SYSTEM_CHECKPOINT_MANAGER = \
    "org.apache.spark.sql.execution.streaming.checkpointing.FileSystemBasedCheckpointFileManager"


def local_checkpoint_settings(settings: dict) -> dict:
    """Spark settings for checkpoints on the local disk of Spark's local mode, given the session's ``settings``
    (keys it already has are left alone).

    Hadoop's local file system without its native library starts a ``chmod`` process for each file and
    directory it creates, and Spark's default (FileContext-based) checkpoint manager a ``readlink`` process for
    each rename: a GROUP BY statement's query made about twenty, 0.5-0.6 s of its ~2.2 s (measured: a
    five-row GROUP BY, statements 2-8 of one process, interleaved runs). Our ``ShellFreeLocalFileSystem``
    (jars/pyflink-compat-hadoop.jar) sets permissions through java.nio and the FileSystem-based manager renames
    without a process. Another Hadoop or pyspark version, or a missing jar: Spark's defaults, with a warning."""
    import glob
    import os
    import pyspark
    from pyflink_compat import jars
    extra = {}
    if not pyspark.__version__.startswith(PYSPARK_CHECKPOINT_MANAGER_TESTED):
        _warn_once("checkpoint-manager", "pyspark %s was not checked: checkpoints use Spark's default file "
                   "manager (a process per renamed file)", pyspark.__version__)
    else:
        extra["spark.sql.streaming.checkpointFileManagerClass"] = FILE_SYSTEM_CHECKPOINT_MANAGER
    hadoop = [os.path.basename(path) for path in glob.glob(os.path.join(
        os.path.dirname(pyspark.__file__), "jars", "hadoop-client-api-*.jar"))]
    hadoop_version = hadoop[0][len("hadoop-client-api-"):-len(".jar")] if len(hadoop) == 1 else "unknown"
    if not hadoop_version.startswith(HADOOP_LOCAL_FS_TESTED) or not os.path.isfile(jars.HADOOP_JAR):
        _warn_once("local-fs", "Hadoop %s (%s) was not checked: Spark's local file system starts a chmod process "
                   "per checkpoint file", hadoop_version, jars.HADOOP_JAR)
    elif "spark.hadoop.fs.file.impl" not in settings:
        extra["spark.hadoop.fs.file.impl"] = SHELL_FREE_LOCAL_FS
        class_path = settings.get("spark.driver.extraClassPath")
        extra["spark.driver.extraClassPath"] = os.pathsep.join(filter(None, (class_path, jars.HADOOP_JAR)))
    return {key: value for key, value in extra.items()
            if key not in settings or key == "spark.driver.extraClassPath"}

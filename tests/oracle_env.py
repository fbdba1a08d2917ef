"""The oracle: real PyFlink (apache-flink 2.3.0) with its Kafka connector, in a virtualenv of its own.

Built as /work/shared/reference/pyflink-oracle.md describes: apache-flink and kafka-python from PyPI, plus the
two jars a Kafka job needs (flink-connector-kafka 4.0.1-2.0 and kafka-clients 3.9.1) taken from the
shigawire-apache-flink-libraries wheel and copied into the environment's ``pyflink/lib`` (so job files need no
``add_jars`` and stay identical for both engines). apache-flink 2.3.0 serves both the API parity test (its
Python modules) and the side-by-side runs (its engine).

The environment is built once per machine and cached (about 1.5 minutes and 900 MB):
``$PYFLINK_COMPAT_ORACLE_DIR`` or ``~/.cache/pyflink-compat/oracle-apache-flink-<version>``. ``PYFLINK_ORACLE_PYTHON``
points at an existing oracle interpreter instead. A lock file keeps two processes from building it at once; a
marker file says it is complete.

    python tests/oracle_env.py          # build it (prints the interpreter's path)
"""
import fcntl
import glob
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile

FLINK_VERSION = "2.3.0"
KAFKA_PYTHON_VERSION = "3.0.12"
JARS_WHEEL = "shigawire-apache-flink-libraries==2.0.0.post1"
JARS = ("flink-connector-kafka.jar", "kafka-clients.jar")
BUILD_TIMEOUT_S = 1200


class OracleUnavailable(RuntimeError):
    """The oracle environment could not be built (no network to PyPI, no disk, ...)."""


def cache_dir() -> str:
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(cache, "pyflink-compat")


def default_dir() -> str:
    explicit = os.environ.get("PYFLINK_COMPAT_ORACLE_DIR")
    if explicit:
        return explicit
    return os.path.join(cache_dir(), "oracle-apache-flink-%s" % FLINK_VERSION)


def oracle_python(build: bool = True) -> str:
    """The oracle interpreter, built first if needed. Raises OracleUnavailable when that fails."""
    explicit = os.environ.get("PYFLINK_ORACLE_PYTHON")
    if explicit:
        return explicit
    directory = default_dir()
    python = os.path.join(directory, "bin", "python")
    marker = os.path.join(directory, ".complete")
    if os.path.isfile(marker):
        return python
    if not build:
        raise OracleUnavailable("no oracle environment at %s" % directory)
    os.makedirs(os.path.dirname(directory), exist_ok=True)
    with open(directory + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)              # another process may be building it: wait for it
        if not os.path.isfile(marker):
            _build(directory)
            open(marker, "w").close()
    return python


def _run(command, **kwargs):
    result = subprocess.run(command, capture_output=True, text=True, timeout=BUILD_TIMEOUT_S, **kwargs)
    if result.returncode != 0:
        raise OracleUnavailable("%s failed:\n%s" % (" ".join(command), (result.stdout + result.stderr)[-3000:]))
    return result


def _pyflink_dir(python: str) -> str:
    """The directory of the pyflink package of the interpreter ``python`` (found without importing it)."""
    return _run([python, "-c", "import importlib.util; "
                 "print(importlib.util.find_spec('pyflink').submodule_search_locations[0])"]).stdout.strip()


def _build(directory: str):
    shutil.rmtree(directory, ignore_errors=True)
    base_python = shutil.which("python3.11") or sys.executable
    _run([base_python, "-m", "venv", directory])
    python = os.path.join(directory, "bin", "python")
    _run([python, "-m", "pip", "install", "-q", "apache-flink==%s" % FLINK_VERSION,
          "kafka-python==%s" % KAFKA_PYTHON_VERSION])
    lib = os.path.join(_pyflink_dir(python), "lib")
    with tempfile.TemporaryDirectory() as download:
        _run([python, "-m", "pip", "download", "-q", "--no-deps", "-d", download, JARS_WHEEL])
        wheels = glob.glob(os.path.join(download, "*.whl"))
        if not wheels:
            raise OracleUnavailable("pip download %s produced no wheel" % JARS_WHEEL)
        with zipfile.ZipFile(wheels[0]) as wheel:
            for jar in JARS:
                member = "pyflink/lib/%s" % jar
                with wheel.open(member) as source, open(os.path.join(lib, jar), "wb") as target:
                    shutil.copyfileobj(source, target)


# -- a class-data archive for the oracle's JVM ----------------------------------------------------------------

#: The client-side JIT and the serial collector: the same results for about 30 % less of the oracle JVM's CPU on
#: the suite's short jobs (it runs both engines at once on two cores). Benchmarks keep Flink's defaults.
BASE_JAVA_OPTIONS = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"
# The JVM says nothing about an archive it cannot use (it then loads classes from the jars, as without one).
QUIET_CDS = "-Xlog:cds=off -Xlog:cds+dynamic=off"
ARCHIVE_TIMEOUT_S = 180

# Run by the oracle's interpreter to record the archive: it loads what the side-by-side jobs load (a DataStream job
# with a Python function, a SQL aggregation, the Kafka connector's builders and table factory, the JSON format),
# then has the JVM write the classes it loaded (Java 17's jcmd VM.cds dynamic_dump).
_RECORDING_SCRIPT = r"""
import os, subprocess, sys
from pyflink.common import SimpleStringSchema, WatermarkStrategy
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.kafka import KafkaSource, KafkaSink, KafkaRecordSerializationSchema
from pyflink.table import StreamTableEnvironment
env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(2)
env.from_collection([1, 2, 3]).key_by(lambda x: x % 2).map(lambda x: x * 2).print()
env.execute("record-classes")
KafkaSource.builder().set_bootstrap_servers("localhost:9").set_topics("t") \
    .set_value_only_deserializer(SimpleStringSchema()).build()
KafkaSink.builder().set_bootstrap_servers("localhost:9").set_record_serializer(
    KafkaRecordSerializationSchema.builder().set_topic("t").set_value_serialization_schema(SimpleStringSchema())
    .build()).build()
t_env = StreamTableEnvironment.create(env)
t_env.execute_sql("CREATE TABLE k (a STRING, n INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts) WITH ("
                  "'connector'='kafka', 'topic'='t', 'properties.bootstrap.servers'='localhost:9', "
                  "'format'='json', 'scan.startup.mode'='earliest-offset')")
t_env.explain_sql("SELECT a, COUNT(*), SUM(n) FROM k GROUP BY a, TUMBLE(ts, INTERVAL '1' SECOND)")
t_env.execute_sql("SELECT a, COUNT(*) FROM (VALUES ('x'), ('y'), ('x')) AS v(a) GROUP BY a").print()
gateway = subprocess.run(["pgrep", "-P", str(os.getpid()), "java"], capture_output=True, text=True).stdout.split()
if len(gateway) != 1:
    sys.exit("expected one java child process, found %r" % gateway)
dump = subprocess.run([sys.argv[1], gateway[0], "VM.cds", "dynamic_dump", sys.argv[2]], capture_output=True,
                      text=True, env={k: v for k, v in os.environ.items() if k != "JAVA_TOOL_OPTIONS"})
if dump.returncode != 0 or not os.path.isfile(sys.argv[2]):
    sys.exit("jcmd failed: %s %s" % (dump.stdout, dump.stderr))
"""


def _java_home_tool(name: str) -> str:
    java = shutil.which("java")
    return os.path.join(os.path.dirname(os.path.realpath(java)), name) if java else ""


def _archive_path(python: str) -> str:
    """Named after what it depends on: the java binary, the oracle (its interpreter and jars) and the JVM options."""
    lib = _pyflink_dir(python)
    digest = hashlib.sha1(os.path.realpath(shutil.which("java") or "").encode())
    digest.update(BASE_JAVA_OPTIONS.encode())
    for jar in sorted(glob.glob(os.path.join(lib, "lib", "*.jar")) + glob.glob(os.path.join(lib, "opt", "*.jar"))):
        digest.update(("%s:%d" % (os.path.basename(jar), os.path.getsize(jar))).encode())
    digest.update(os.path.realpath(python).encode())
    return os.path.join(cache_dir(), "oracle-classes-%s.jsa" % digest.hexdigest()[:16])


def oracle_java_options(python: str) -> str:
    """JAVA_TOOL_OPTIONS for the oracle's JVM: the base options, plus a class-data archive of the classes a
    PyFlink Kafka job loads (recorded once per machine, about 15 s; later JVMs start 2-3 s faster and spend less
    CPU). Without jcmd, or when recording fails, the base options alone (the archive only saves time)."""
    jcmd = _java_home_tool("jcmd")
    if not os.path.isfile(jcmd):
        return BASE_JAVA_OPTIONS
    try:
        archive = _archive_path(python)
    except (OSError, subprocess.SubprocessError, OracleUnavailable):
        return BASE_JAVA_OPTIONS
    if not os.path.isfile(archive):
        os.makedirs(os.path.dirname(archive), exist_ok=True)
        with open(archive + ".lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not os.path.isfile(archive):
                _record_archive(python, jcmd, archive)
    if not os.path.isfile(archive):
        return BASE_JAVA_OPTIONS
    return "%s -XX:SharedArchiveFile=%s %s" % (BASE_JAVA_OPTIONS, archive, QUIET_CDS)


def _record_archive(python: str, jcmd: str, archive: str):
    partial = archive + ".partial"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYSPARK_PYTHON")}
    env["PATH"] = os.path.dirname(python) + os.pathsep + env.get("PATH", "")
    env["VIRTUAL_ENV"] = os.path.dirname(os.path.dirname(python))
    env["JAVA_TOOL_OPTIONS"] = "%s -XX:+RecordDynamicDumpInfo %s" % (BASE_JAVA_OPTIONS, QUIET_CDS)
    try:
        result = subprocess.run([python, "-c", _RECORDING_SCRIPT, jcmd, partial], capture_output=True, text=True,
                                timeout=ARCHIVE_TIMEOUT_S, env=env)
    except subprocess.TimeoutExpired:
        result = None
    if result is not None and result.returncode == 0 and os.path.isfile(partial):
        os.replace(partial, archive)
        for older in glob.glob(os.path.join(os.path.dirname(archive), "oracle-classes-*.jsa")):
            if older != archive:              # recorded for another java or oracle (a JVM mapping it keeps it)
                os.remove(older)
    else:
        sys.stderr.write("oracle class archive not recorded (the oracle runs without it):\n%s\n"
                         % ("timed out" if result is None else (result.stdout + result.stderr)[-2000:]))
        if os.path.exists(partial):
            os.remove(partial)


if __name__ == "__main__":
    print(oracle_python())

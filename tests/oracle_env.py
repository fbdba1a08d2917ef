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


def default_dir() -> str:
    explicit = os.environ.get("PYFLINK_COMPAT_ORACLE_DIR")
    if explicit:
        return explicit
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(cache, "pyflink-compat", "oracle-apache-flink-%s" % FLINK_VERSION)


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


def _build(directory: str):
    shutil.rmtree(directory, ignore_errors=True)
    base_python = shutil.which("python3.11") or sys.executable
    _run([base_python, "-m", "venv", directory])
    python = os.path.join(directory, "bin", "python")
    _run([python, "-m", "pip", "install", "-q", "apache-flink==%s" % FLINK_VERSION,
          "kafka-python==%s" % KAFKA_PYTHON_VERSION])
    lib = _run([python, "-c", "import os, pyflink; print(os.path.join(os.path.dirname(pyflink.__file__), 'lib'))"]
               ).stdout.strip()
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


if __name__ == "__main__":
    print(oracle_python())

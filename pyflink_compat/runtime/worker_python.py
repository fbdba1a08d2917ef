"""What the Python processes Spark starts for a job can import, and which Python runs them.

PyFlink's Python dependencies, by the same configuration keys (set by ``-pyfs``, ``-pyreq``, ``-pyarch``,
``-pyexec`` or by ``add_python_file``, ``set_python_requirements``, ``add_python_archive``,
``set_python_executable``):

- ``python.files``: files and directories put on the workers' path (``.py`` files by their directory,
  ``.zip``/``.egg``/``.whl`` files and directories as they are);
- ``python.requirements``: ``requirements.txt[#cache_dir]``, installed with pip into a directory kept per
  requirements file, which goes on the path;
- ``python.archives``: ``archive[#target_dir]``, extracted (once per archive) into a directory of their own;
  a relative ``python.executable`` inside one (``venv.zip/venv/bin/python``) names the extracted file;
- ``python.executable``: the Python that runs the workers.

Besides those, like ``python job.py`` under PyFlink, the job file's directory is on the path (so its own
modules import), and first of all the stand-in for ``pyflink`` (``pyflink_compat/worker_path``), so that those
modules' ``import pyflink...`` works in every worker: read tasks, keyed subtasks, the processes that plan a
source's micro-batches.

Every Python process Spark starts receives the Python functions it runs with an environment and a list of
files to put on its path, taken when the function is handed to Spark. The paths are the ``PYTHONPATH`` of
that environment (directories as they are, for processes on the driver's machine); on a cluster they are
also shipped as files (``addPyFile``; directories zipped) for the executors. The job's paths are therefore set before its functions and data sources
are handed to Spark (runtime/session.py).
"""
import hashlib
import logging
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from typing import List, Optional, Tuple

import attrs

log = logging.getLogger("pyflink_compat")

FILES_KEY = "python.files"
REQUIREMENTS_KEY = "python.requirements"
ARCHIVES_KEY = "python.archives"
EXECUTABLE_KEY = "python.executable"

#: The stand-in for ``pyflink`` that workers import (a directory holding ``pyflink/__init__.py``).
SHIM_DIRECTORY = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "worker_path")

#: The directory the job's process imports pyflink_compat from: workers import the same code (last on their
#: path, so a module of the job never loses to a name there; before site-packages, so a source checkout
#: wins over an installed copy).
PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

#: The job file's directory, set by ``pyflink-compat run``.
job_directory: Optional[str] = None


class PythonDependencyError(RuntimeError):
    """A configured Python file, archive or requirements file cannot be used."""


@attrs.frozen
class WorkerPython:
    paths: Tuple[str, ...]              # in path order, the stand-in for pyflink first
    executable: Optional[str] = None


def entries(value) -> List[str]:
    """The comma-separated entries of a ``python.files``-like setting."""
    return [item.strip() for item in str(value or "").split(",") if item.strip()]


def resolve(configuration: dict) -> WorkerPython:
    """The workers' path and Python for a job with ``configuration`` (Flink keys); installs requirements and
    extracts archives as needed. Raises ``PythonDependencyError`` for a file that does not exist."""
    paths = [SHIM_DIRECTORY]
    if job_directory:
        paths.append(job_directory)
    for entry in entries(configuration.get(FILES_KEY)):
        paths.append(path_entry(entry))
    requirements = configuration.get(REQUIREMENTS_KEY)
    if requirements:
        paths.append(install_requirements(str(requirements)))
    extracted = {}
    for entry in entries(configuration.get(ARCHIVES_KEY)):
        archive, _, target = entry.partition("#")
        target = target or os.path.basename(archive)
        extracted[target] = extract_archive(archive, target)
    paths.append(PACKAGE_ROOT)
    executable = configuration.get(EXECUTABLE_KEY) or None
    if executable:
        executable = _executable(str(executable), extracted)
    unique = []
    for path in paths:
        if path not in unique:
            unique.append(path)
    return WorkerPython(tuple(unique), executable)


def local_path(entry: str) -> str:
    """A dependency's path on this machine: Flink takes ``file://`` URIs as well as plain paths."""
    if entry.startswith("file://"):
        return entry[len("file://"):]
    if entry.startswith("file:/"):
        return entry[len("file:"):]
    return entry


def path_entry(entry: str) -> str:
    """What a ``python.files`` entry puts on the path: a ``.py`` file's directory, anything else as it is."""
    full = os.path.abspath(os.path.expanduser(local_path(entry)))
    if not os.path.exists(full):
        raise PythonDependencyError("Python file %s (python.files) does not exist" % entry)
    return os.path.dirname(full) if full.endswith(".py") and os.path.isfile(full) else full


def _executable(executable: str, extracted: dict) -> str:
    first = executable.split("/", 1)[0]
    if not os.path.isabs(executable) and first in extracted:
        return os.path.join(os.path.dirname(extracted[first]), executable)
    return executable


def _cached(kind: str, digest: str) -> str:
    from pyflink_compat.runtime.jvm_archive import cache_dir
    return os.path.join(cache_dir(), kind, digest)


def _digest(path: str, *extra: str) -> str:
    sha = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            sha.update(block)
    for item in extra:
        sha.update(item.encode())
    return sha.hexdigest()[:16]


def install_requirements(spec: str) -> str:
    """``requirements.txt[#cache_dir]`` installed with pip into a directory kept per requirements file (and
    Python version); ``cache_dir`` holds the packages to install from, offline (PyFlink's meaning)."""
    requirements, _, offline_dir = spec.partition("#")
    requirements, offline_dir = local_path(requirements), local_path(offline_dir)
    if not os.path.isfile(requirements):
        raise PythonDependencyError("Python requirements file %s (python.requirements) does not exist"
                                    % requirements)
    target = _cached("requirements", _digest(requirements, sys.version, offline_dir))
    if os.path.isfile(os.path.join(target, ".complete")):
        return target
    command = [sys.executable, "-m", "pip", "install", "-q", "--disable-pip-version-check", "-r", requirements,
               "--target", target, "--upgrade"]
    if offline_dir:
        command += ["--no-index", "--find-links", offline_dir]
    shutil.rmtree(target, ignore_errors=True)
    result = subprocess.run(command, capture_output=True, text=True, timeout=1800)
    if result.returncode != 0:
        raise PythonDependencyError("Installing the Python requirements %s failed:\n%s"
                                    % (requirements, (result.stdout + result.stderr)[-2000:]))
    open(os.path.join(target, ".complete"), "w").close()
    return target


def extract_archive(archive: str, target: str) -> str:
    """The directory ``target`` holding ``archive``'s contents, extracted once per archive."""
    archive = local_path(archive)
    if not os.path.isfile(archive):
        raise PythonDependencyError("Python archive %s (python.archives) does not exist" % archive)
    root = _cached("archives", _digest(archive, target))
    directory = os.path.join(root, target)
    if os.path.isfile(os.path.join(root, ".complete")):
        return directory
    shutil.rmtree(root, ignore_errors=True)
    os.makedirs(directory)
    try:
        shutil.unpack_archive(archive, directory)
    except (shutil.ReadError, ValueError) as e:
        raise PythonDependencyError("Python archive %s (python.archives) cannot be extracted: %s" % (archive, e))
    _keep_executable_bits(archive, directory)
    open(os.path.join(root, ".complete"), "w").close()
    return directory


def _keep_executable_bits(archive: str, directory: str):
    """zipfile drops Unix permissions: restore them, so that a Python inside a zipped venv runs."""
    if not zipfile.is_zipfile(archive):
        return
    with zipfile.ZipFile(archive) as z:
        for info in z.infolist():
            mode = info.external_attr >> 16
            if mode & 0o111:
                path = os.path.join(directory, info.filename)
                if os.path.exists(path):
                    os.chmod(path, mode & 0o7777)


# -- handing it to Spark -------------------------------------------------------------------------------

_shipped = {}                           # path -> the file addPyFile shipped for it (cluster mode)


def apply(spark_context, worker: WorkerPython) -> bool:
    """Make the Python functions handed to Spark from now on run with ``worker``'s path and Python.
    True if that changed anything (functions handed over earlier, e.g. registered data sources, keep the
    old settings and must be handed over again)."""
    changed = False
    # The Python processes Spark starts next to the driver need the paths as they are (some, like the one
    # that prepares a keyed stage, never look at shipped files); elsewhere a path that does not exist is
    # skipped.
    value = os.pathsep.join(worker.paths)
    if spark_context.environment.get("PYTHONPATH") != value:
        spark_context.environment["PYTHONPATH"] = value
        changed = True
    if not spark_context.master.startswith("local"):
        for path in worker.paths:
            # Executors run their own installed pyflink-compat: its directory is not shipped.
            if path not in _shipped and path != PACKAGE_ROOT:
                shipped = _zipped(path) if os.path.isdir(path) else path
                spark_context.addPyFile(shipped)
                _shipped[path] = shipped
                changed = True
    if worker.executable and spark_context.pythonExec != worker.executable:
        spark_context.pythonExec = worker.executable
        changed = True
    return changed


def _zipped(directory: str) -> str:
    """A zip of ``directory``'s Python sources (its packages and modules, no caches, no hidden or virtual
    environment directories), importable like the directory."""
    target = os.path.join(tempfile.mkdtemp(prefix="pyflink-compat-python-"),
                          (os.path.basename(directory.rstrip(os.sep)) or "files") + ".zip")
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as z:
        for root, dirs, files in os.walk(directory):
            dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in ("__pycache__", "venv")
                             and not os.path.isfile(os.path.join(root, d, "pyvenv.cfg")))
            for name in sorted(files):
                if not name.endswith((".pyc", ".pyo")):
                    path = os.path.join(root, name)
                    z.write(path, os.path.relpath(path, directory))
    return target

"""A class-data archive for the driver JVM: Spark starts in about 4 s instead of 6-7 s.

Most of Spark's start-up is the JVM loading and verifying some 14,000 classes from its jars. Java
17's dynamic class-data sharing (CDS) can record the classes one run loaded into an archive file
and map them, already parsed and verified, into later JVMs. The first session on a machine
records the archive (``-XX:ArchiveClassesAtExit``; writing it costs 10-15 s when that process
ends, once); every later session uses it (``-XX:SharedArchiveFile``). An archive that does not
match the JVM (another Java, other options) is ignored by the JVM itself, silently.

The archive lives in ``~/.cache/pyflink-compat/`` (or ``$XDG_CACHE_HOME``), named after what it
depends on: the java binary, the Spark jars and the JVM options. ``pyflink-compat.jvm.class-archive``
(or ``PYFLINK_COMPAT_JVM_CLASS_ARCHIVE``) set to ``false`` turns it off.
"""
import atexit
import logging
import os
import re
import shutil
import threading
import time
import zlib
from typing import Callable, Optional, Tuple

from pyflink_compat import options

log = logging.getLogger("pyflink_compat")

ENV_VAR = options.JVM_CLASS_ARCHIVE_ENV
# The JVM says nothing about classes it cannot archive (signed jars, ...) or an archive it cannot use.
QUIET = "-Xlog:cds=off -Xlog:cds+dynamic=off"
# A recording left by a process that died before finishing it is retried after this long.
STALE_RECORDING_S = 600
# Archives kept in the cache (the most recently used ones).
KEEP_ARCHIVES = 3
# Part of the archive's name: raised when what a recording holds changes (2: the typical job), so that
# archives recorded by older versions are recorded again once.
RECORDING_VERSION = 2
# Deadline for the job run at the end of a recording session to load typical classes.
TYPICAL_JOB_TIMEOUT_S = 90.0


#: Set when the runner was sent SIGTERM. The signal reaches the JVM too (it is in the runner's process group) and
#: stops it, so no typical job is run on it then: its query would fail, with Spark's traces, against a JVM going
#: away. (Ctrl-C does not reach the JVM: PySpark starts it ignoring SIGINT.)
_terminated = threading.Event()


def job_terminated():
    """The runner was sent SIGTERM: a recording in progress loads no further classes at exit."""
    _terminated.set()


def cache_dir() -> str:
    root = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(root, "pyflink-compat")


def enabled(configuration: dict) -> bool:
    return options.jvm_class_archive(configuration)


def _java_binary() -> Optional[str]:
    java_home = os.environ.get("JAVA_HOME")
    candidate = os.path.join(java_home, "bin", "java") if java_home else shutil.which("java")
    return os.path.realpath(candidate) if candidate and os.path.exists(candidate) else None


def _class_path_key(class_path: str) -> str:
    """The driver's extra class path entries with their sizes and times: the JVM uses an archive only with the
    class path it was recorded with, each jar unchanged."""
    entries = []
    for entry in filter(None, class_path.split(os.pathsep)):
        try:
            stat = os.stat(entry)
            entries.append("%s:%d:%d" % (os.path.realpath(entry), stat.st_size, int(stat.st_mtime)))
        except OSError:
            entries.append(entry)
    return ",".join(entries)


def archive_path(spark_home: str, java_options: str, class_path: str = "") -> Optional[str]:
    """Where the archive for this java, these Spark jars, these options and this extra class path
    (``spark.driver.extraClassPath``) lives (None: no java found)."""
    java = _java_binary()
    if java is None:
        return None
    stat = os.stat(java)
    jars = os.path.realpath(os.path.join(spark_home, "jars"))
    # The log configuration does not change which classes load: every log level shares one archive.
    options = re.sub(r"\s*-Dlog4j2?\.configurationFile=\S+", "", java_options)
    key = "%s|%d|%d|%s|%s|%d" % (java, stat.st_size, int(stat.st_mtime), jars, options, RECORDING_VERSION)
    if class_path:
        key += "|" + _class_path_key(class_path)
    return os.path.join(cache_dir(), "jvm-classes-%08x.jsa" % zlib.crc32(key.encode()))


def has_archive(spark_home: str, java_options: str, class_path: str = "") -> bool:
    """Whether the archive for these Spark jars, JVM options and extra class path has been recorded."""
    path = archive_path(spark_home, java_options, class_path)
    return path is not None and os.path.isfile(path)


def java_options(spark_home: str, java_options: str,
                 class_path: str = "") -> Tuple[str, Optional[Callable[[object], None]]]:
    """The JVM options with the archive's, and what to call once the session runs (None: nothing).

    Only one process records at a time (a lock file); the others meanwhile start without an archive.
    """
    path = archive_path(spark_home, java_options, class_path)
    if path is None:
        return java_options, None
    if os.path.isfile(path):
        try:
            os.utime(path)                           # most recently used: kept by _prune_old_archives
        except OSError:
            pass
        return "%s -XX:SharedArchiveFile=%s %s" % (java_options, path, QUIET), None
    os.makedirs(os.path.dirname(path), exist_ok=True)
    lock = path + ".recording"
    if not _take_lock(lock):
        return java_options, None
    _remove_stale_partials(path)
    partial = "%s.%d.partial" % (path, os.getpid())
    log.info("Recording the JVM class archive %s (once per machine; it makes Spark start faster)", path)

    def finish_when_session_ends(session):
        atexit.register(_finish_recording, session, partial, path, lock)

    return "%s -XX:ArchiveClassesAtExit=%s %s" % (java_options, partial, QUIET), finish_when_session_ends


def _take_lock(lock: str) -> bool:
    """The recording lock holds the recording process's id: a lock whose process is gone (a job killed
    while it recorded) is taken over at once, any other after STALE_RECORDING_S."""
    try:
        if time.time() - os.stat(lock).st_mtime > STALE_RECORDING_S or not _holder_alive(lock):
            os.unlink(lock)
    except OSError:
        pass
    try:
        descriptor = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except OSError:
        return False
    try:
        os.write(descriptor, str(os.getpid()).encode())
    finally:
        os.close(descriptor)
    return True


def _holder_alive(lock: str) -> bool:
    try:
        with open(lock) as f:
            pid = int(f.read().strip())
    except (OSError, ValueError):    # being written, or an old empty lock: let it age
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:                  # exists, owned by someone else
        pass
    return True


def _remove_stale_partials(path: str):
    """Partial archives of processes that ended without finishing their recording (killed, os._exit)."""
    directory, name = os.path.split(path)
    for entry in os.listdir(directory):
        if entry.startswith(name + ".") and entry.endswith(".partial"):
            full = os.path.join(directory, entry)
            try:
                if time.time() - os.stat(full).st_mtime > STALE_RECORDING_S:
                    os.unlink(full)
            except OSError:
                pass


def _prune_old_archives(directory: str, keep: int = KEEP_ARCHIVES):
    """Each archive is ~150 MB and each new pyspark install (a fresh virtualenv) needs its own:
    keep only the most recently used few."""
    archives = []
    for entry in os.listdir(directory):
        if entry.startswith("jvm-classes-") and entry.endswith(".jsa"):
            full = os.path.join(directory, entry)
            try:
                archives.append((os.stat(full).st_mtime, full))
            except OSError:
                pass
    for _, old in sorted(archives, reverse=True)[keep:]:
        try:
            os.unlink(old)
        except OSError:
            pass


def _run_typical_job():
    from pyflink_compat.common import Configuration
    from pyflink_compat.common.typeinfo import Types
    from pyflink_compat.datastream import StreamExecutionEnvironment
    # A bare environment: not get_execution_environment(), which adds the command line's settings (a
    # savepoint to restore, the user's checkpoint directory) that belong to the user's job only.
    env = StreamExecutionEnvironment(Configuration())
    pair = Types.TUPLE([Types.STRING(), Types.INT()])
    rows = env.from_collection([("a", 1), ("b", 2), ("a", 3)], type_info=pair)
    totals = (rows.map(lambda r: (r[0], r[1] * 2), output_type=pair)
              .key_by(lambda r: r[0], key_type=Types.STRING())
              .reduce(lambda a, b: (a[0], a[1] + b[1])))
    from pyflink_compat.runtime import launch
    # The machine's job, not the user's: `pyflink-compat run` neither prints nor lists it.
    client_output, launch.client_output = launch.client_output, False
    try:
        with totals.execute_and_collect("pyflink-compat class archive") as results:
            return list(results)
    finally:
        launch.client_output = client_output


def _load_typical_classes(timeout_s: float):
    """Run ``_run_typical_job`` in the session being recorded, within ``timeout_s`` (best effort)."""
    def run():
        try:
            _run_typical_job()
        except Exception as e:                       # the archive is then only less complete
            log.debug("class archive: the typical job failed: %s", e)

    worker = threading.Thread(target=run, name="pyflink-compat-class-archive", daemon=True)
    worker.start()
    worker.join(timeout_s)


def _finish_recording(session, partial: str, path: str, lock: str, timeout_s: float = 120.0):
    """At exit: stop the JVM, let it write the archive, publish the file under its final name."""
    try:
        # The session's own gateway (not SparkContext's class attribute): only the JVM this recording started.
        gateway = getattr(getattr(session, "sparkContext", None), "_gateway", None)
        process = getattr(gateway, "proc", None)
        if not _terminated.is_set():
            _load_typical_classes(TYPICAL_JOB_TIMEOUT_S)
        try:
            session.stop()
        except Exception:                            # already stopped, or the JVM is gone
            pass
        if process is not None and process.poll() is None:
            try:
                gateway.shutdown()
            except Exception:
                pass
            if process.stdin is not None:
                process.stdin.close()                # Spark's gateway exits when its stdin closes
            try:
                process.wait(timeout=timeout_s)
            except Exception:
                process.kill()
        if os.path.isfile(partial) and os.path.getsize(partial) > 0 and process is not None \
                and process.returncode == 0:
            os.replace(partial, path)
            _prune_old_archives(os.path.dirname(path))
    except Exception as e:                           # never fail the job's exit over a cache file
        log.debug("JVM class archive not recorded: %s", e)
    finally:
        for leftover in (partial, lock):
            try:
                os.unlink(leftover)
            except OSError:
                pass

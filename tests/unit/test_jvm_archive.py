"""The driver JVM's class-data archive: naming, using, recording once (runtime/jvm_archive.py)."""
import os
import subprocess
import sys
import time

import pytest

from pyflink_compat.runtime import jvm_archive


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    spark_home = tmp_path / "spark"
    (spark_home / "jars").mkdir(parents=True)
    return str(spark_home)


def test_the_archive_depends_on_the_jvm_options_and_the_jars(cache, tmp_path):
    first = jvm_archive.archive_path(cache, "-XX:+UseSerialGC")
    assert first is not None and first.startswith(str(tmp_path / "pyflink-compat"))
    assert jvm_archive.archive_path(cache, "-XX:+UseSerialGC") == first
    assert jvm_archive.archive_path(cache, "-XX:+UseG1GC") != first
    other = tmp_path / "other-spark"
    (other / "jars").mkdir(parents=True)
    assert jvm_archive.archive_path(str(other), "-XX:+UseSerialGC") != first


def test_an_existing_archive_is_used_quietly(cache):
    path = jvm_archive.archive_path(cache, "-Xss4m")
    os.makedirs(os.path.dirname(path))
    open(path, "wb").close()
    options, on_started = jvm_archive.java_options(cache, "-Xss4m")
    assert options == "-Xss4m -XX:SharedArchiveFile=%s %s" % (path, jvm_archive.QUIET)
    assert on_started is None


def test_without_an_archive_one_process_records_it_and_the_others_do_not_wait(cache):
    options, on_started = jvm_archive.java_options(cache, "-Xss4m")
    assert "-XX:ArchiveClassesAtExit=" in options and on_started is not None
    again, second = jvm_archive.java_options(cache, "-Xss4m")        # the lock is taken
    assert again == "-Xss4m" and second is None


def test_a_recording_lock_left_by_a_dead_process_expires(cache):
    path = jvm_archive.archive_path(cache, "-Xss4m")
    os.makedirs(os.path.dirname(path))
    lock = path + ".recording"
    open(lock, "w").close()
    old = time.time() - jvm_archive.STALE_RECORDING_S - 5
    os.utime(lock, (old, old))
    options, on_started = jvm_archive.java_options(cache, "-Xss4m")
    assert "-XX:ArchiveClassesAtExit=" in options and on_started is not None


def test_a_recording_lock_whose_process_is_gone_is_taken_over_at_once(cache):
    path = jvm_archive.archive_path(cache, "-Xss4m")
    os.makedirs(os.path.dirname(path))
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    with open(path + ".recording", "w") as f:
        f.write(str(gone.pid))
    options, on_started = jvm_archive.java_options(cache, "-Xss4m")
    assert "-XX:ArchiveClassesAtExit=" in options and on_started is not None


def test_a_recording_lock_of_a_running_process_is_respected(cache):
    path = jvm_archive.archive_path(cache, "-Xss4m")
    os.makedirs(os.path.dirname(path))
    with open(path + ".recording", "w") as f:
        f.write(str(os.getpid()))
    options, on_started = jvm_archive.java_options(cache, "-Xss4m")
    assert options == "-Xss4m" and on_started is None


@pytest.mark.parametrize("configuration, env, expected", [
    ({}, None, True),
    ({"pyflink-compat.jvm.class-archive": "false"}, None, False),
    ({}, "false", False),
    ({"pyflink-compat.jvm.class-archive": "true"}, "false", True),
])
def test_it_can_be_turned_off(configuration, env, expected, monkeypatch):
    if env is None:
        monkeypatch.delenv(jvm_archive.ENV_VAR, raising=False)
    else:
        monkeypatch.setenv(jvm_archive.ENV_VAR, env)
    assert jvm_archive.enabled(configuration) is expected


def test_only_the_most_recently_used_archives_are_kept(tmp_path):
    for i in range(5):
        archive = tmp_path / ("jvm-classes-%08x.jsa" % i)
        archive.write_bytes(b"x")
        os.utime(archive, (1000 + i, 1000 + i))
    (tmp_path / "unrelated.txt").write_text("kept")
    jvm_archive._prune_old_archives(str(tmp_path), keep=3)
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "jvm-classes-00000002.jsa", "jvm-classes-00000003.jsa", "jvm-classes-00000004.jsa", "unrelated.txt"]


def test_after_sigterm_a_recording_runs_no_typical_job_on_the_stopping_jvm(tmp_path, monkeypatch):
    """SIGTERM to the runner's process group stops the JVM too: the typical job's query would fail noisily."""
    typical_jobs, stops = [], []
    monkeypatch.setattr(jvm_archive, "_load_typical_classes", lambda timeout_s: typical_jobs.append(timeout_s))

    class Session:
        def stop(self):
            stops.append(True)

    def finish():
        partial, path, lock = (str(tmp_path / name) for name in ("archive.partial", "archive.jsa", "archive.lock"))
        jvm_archive._finish_recording(Session(), partial, path, lock)

    monkeypatch.setattr(jvm_archive, "_terminated", jvm_archive.threading.Event())
    # Another JVM of the process (here, the test session's) is left alone: only the recording session's is stopped.
    from pyspark import SparkContext
    other_jvm = []

    class OtherProcess:
        returncode, stdin = None, None

        def poll(self):
            return None

        def wait(self, timeout):
            other_jvm.append("waited for")

    class OtherGateway:
        proc = OtherProcess()

        def shutdown(self):
            other_jvm.append("shut down")

    monkeypatch.setattr(SparkContext, "_gateway", OtherGateway())
    finish()
    assert len(typical_jobs) == 1 and len(stops) == 1
    jvm_archive.job_terminated()
    finish()
    assert len(typical_jobs) == 1 and len(stops) == 2
    assert other_jvm == []


def test_the_archive_depends_on_the_extra_class_path_and_its_jars(cache, tmp_path):
    jar = tmp_path / "extra.jar"
    jar.write_bytes(b"one")
    plain = jvm_archive.archive_path(cache, "-Xss4m")
    with_jar = jvm_archive.archive_path(cache, "-Xss4m", str(jar))
    assert with_jar != plain
    assert jvm_archive.archive_path(cache, "-Xss4m", str(jar)) == with_jar
    jar.write_bytes(b"changed")          # the JVM would not use an archive recorded with the old jar
    assert jvm_archive.archive_path(cache, "-Xss4m", str(jar)) != with_jar

"""``pyflink-compat run`` with the 'flink run' options a migrating user passes, and execute() twice."""
import contextlib
import os
import re
import signal
import subprocess
import sys
import time
import zipfile

import pytest
from kafka.partitioner.default import murmur2

from kafka_helpers import consume, create_topic, produce, unique_topic, values

pytestmark = pytest.mark.integration

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
JOBS = os.path.join(REPO, "tests", "jobs")


# What pyflink-compat run prints of each job, as flink run does
CLIENT_LINE = re.compile(r"^(Job has been submitted with JobID|Program execution finished$|Job with JobID|Job Runtime: )")


def run_cli(*args, timeout=300, extra_env=None):
    env = dict(os.environ, PYTHONPATH=REPO + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.update(extra_env or {})
    return subprocess.run([sys.executable, "-m", "pyflink_compat", "run", *args], capture_output=True,
                          text=True, timeout=timeout, env=env, cwd=REPO)


def printed(result):
    """print() output lines without the 'N> ' subtask prefix (it depends on the machine's core count)."""
    return sorted(re.sub(r"^\d+> ", "", line) for line in result.stdout.splitlines()
                  if line and not line.startswith(("ARGS", "BOTH")) and not CLIENT_LINE.match(line))


def test_py_files_reach_the_job_and_sparks_python_workers():
    result = run_cli("-pyfs", os.path.join(JOBS, "pyfs_lib"), os.path.join(JOBS, "pyfs_job.py"))
    assert result.returncode == 0, result.stderr[-3000:]
    assert printed(result) == ["HI!", "THERE!"]


def test_a_job_module_found_through_py_files():
    result = run_cli("-pyfs", os.path.join(JOBS, "pyfs_lib"), "-pym", "module_job", "x", "y")
    assert result.returncode == 0, result.stderr[-3000:]
    assert printed(result) == ["module:x", "module:y"]


def _wheel(directory, name="pfc_reqtest", version="1.0"):
    """A minimal pure-Python wheel, built by hand so the test needs no network and no build tools."""
    path = os.path.join(directory, "%s-%s-py3-none-any.whl" % (name, version))
    info = "%s-%s.dist-info" % (name, version)
    files = {
        "%s/__init__.py" % name: 'TAG = "req:"\n',
        "%s/METADATA" % info: "Metadata-Version: 2.1\nName: %s\nVersion: %s\n" % (name, version),
        "%s/WHEEL" % info: "Wheel-Version: 1.0\nGenerator: hand\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
    }
    files["%s/RECORD" % info] = "".join("%s,,\n" % f for f in list(files) + ["%s/RECORD" % info])
    with zipfile.ZipFile(path, "w") as wheel:
        for member, text in files.items():
            wheel.writestr(member, text)
    return path


# A job with a cache directory of its own would record a JVM class archive there first (about 25 s of a test)
_NO_NEW_CLASS_ARCHIVE = {"PYFLINK_COMPAT_JVM_CLASS_ARCHIVE": "false"}


def test_requirements_are_installed_offline_from_a_directory_and_used_by_the_workers(tmp_path):
    packages = tmp_path / "packages"
    packages.mkdir()
    _wheel(str(packages))
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("pfc_reqtest==1.0\n")
    cache = tmp_path / "cache"
    result = run_cli("-pyreq", "%s#%s" % (requirements, packages), os.path.join(JOBS, "requirements_job.py"),
                     extra_env={"XDG_CACHE_HOME": str(cache), **_NO_NEW_CLASS_ARCHIVE})
    assert result.returncode == 0, result.stderr[-3000:]
    assert printed(result) == ["req:a", "req:b"]
    installed = list((cache / "pyflink-compat" / "requirements").iterdir())
    assert len(installed) == 1 and (installed[0] / "pfc_reqtest" / "__init__.py").is_file()


KEYED_LIB = """
import os

from pyflink.common import Types
from pyflink.datastream import KeyedProcessFunction
from pyflink.datastream.state import ValueStateDescriptor


class Describe(KeyedProcessFunction):
    def open(self, runtime_context):
        self.total = runtime_context.get_state(ValueStateDescriptor("total", Types.INT()))

    def process_element(self, value, ctx):
        import pfc_reqtest
        total = (self.total.value() or 0) + value[1]
        self.total.update(total)
        yield "%s%s total %d python %s" % (pfc_reqtest.TAG, value[0], total, os.environ.get("PFC_ARCHIVE_PYTHON"))
"""


def _python_archive(directory):
    """A zip holding bin/python: a script that runs this Python with PFC_ARCHIVE_PYTHON=yes (so a function can
    tell which Python runs it)."""
    path = os.path.join(directory, "py_env.zip")
    info = zipfile.ZipInfo("bin/python")
    info.external_attr = 0o755 << 16
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr(info, '#!/bin/sh\nPFC_ARCHIVE_PYTHON=yes exec "%s" "$@"\n' % sys.executable)
    return path


def test_dependencies_declared_in_the_job_reach_keyed_workers(tmp_path):
    lib = tmp_path / "lib"
    lib.mkdir()
    (lib / "keyed_lib.py").write_text(KEYED_LIB)
    packages = tmp_path / "packages"
    packages.mkdir()
    _wheel(str(packages))
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("pfc_reqtest==1.0\n")
    result = run_cli(os.path.join(JOBS, "python_dependencies_job.py"), str(lib), str(requirements), str(packages),
                     _python_archive(str(tmp_path)), extra_env={"XDG_CACHE_HOME": str(tmp_path / "cache"),
                                                                       **_NO_NEW_CLASS_ARCHIVE})
    assert result.returncode == 0, result.stderr[-3000:]
    assert printed(result) == ["req:a total 1 python yes", "req:a total 4 python yes", "req:b total 2 python yes",
                               "req:b total 6 python yes"]


def test_py_files_reach_keyed_workers(tmp_path):
    lib = tmp_path / "lib"
    lib.mkdir()
    (lib / "keyed_lib.py").write_text(KEYED_LIB)
    (lib / "pfc_reqtest.py").write_text('TAG = "pyfs:"\n')
    result = run_cli("-pyfs", str(lib), os.path.join(JOBS, "pyfs_keyed_job.py"))
    assert result.returncode == 0, result.stderr[-3000:]
    assert "TransformWithStateInPandas" not in result.stderr      # Spark's planning worker kept quiet
    assert printed(result) == ["pyfs:a total 1 python None", "pyfs:a total 4 python None",
                               "pyfs:b total 2 python None", "pyfs:b total 6 python None"]


def test_an_import_error_names_the_pyflink_module_the_job_wrote():
    result = run_cli(os.path.join(JOBS, "bad_import_job.py"))
    assert result.returncode == 1
    assert "ImportError: cannot import name 'NoSuchThing' from 'pyflink.datastream'" in result.stderr
    assert "pyflink_compat" not in result.stderr.splitlines()[-1]


def test_a_failed_job_is_a_py4j_java_error_and_the_jobs_own_logging_configuration_works():
    result = run_cli(os.path.join(JOBS, "catching_job.py"))
    assert result.returncode == 0, result.stderr[-3000:]
    assert "CAUGHT JobExecutionError: True" in result.stdout.splitlines()
    assert "JOBLOG INFO building the job" in result.stderr


@contextlib.contextmanager
def _unbounded_job_printing(bootstrap, tmp_path, own_session=False):
    """A running unbounded print job (stdout and stderr in tmp_path's out and err), once it printed its input;
    killed on the way out if still running."""
    src = create_topic(bootstrap, unique_topic("running-in"))
    produce(bootstrap, src, ["a", "b"])
    env = dict(os.environ, PYTHONPATH=REPO + os.pathsep + os.environ.get("PYTHONPATH", ""))
    with open(tmp_path / "out", "wb") as out, open(tmp_path / "err", "wb") as err:
        process = subprocess.Popen([sys.executable, "-m", "pyflink_compat", "run",
                                    os.path.join(JOBS, "unbounded_job.py"), bootstrap, src],
                                   stdout=out, stderr=err, env=env, cwd=REPO, start_new_session=own_session)
        try:
            deadline = time.monotonic() + 120
            while "B" not in (tmp_path / "out").read_text() and time.monotonic() < deadline:
                assert process.poll() is None, (tmp_path / "err").read_text()[-3000:]
                time.sleep(0.2)
            yield process, src
        finally:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL) if own_session else process.kill()


@pytest.mark.parametrize("signal_name, exit_code, said, in_batch", [
    ("SIGINT", 130, "Ctrl-C", False), ("SIGTERM", 143, "SIGTERM", False),
    # stopped inside a micro-batch: the print sink's batch function fails on the cancelled Spark job
    ("SIGTERM", 143, "SIGTERM", True)])
def test_an_unbounded_job_stopped_by_a_signal_exits_without_a_trace(signal_name, exit_code, said, in_batch,
                                                                    bootstrap, tmp_path):
    with _unbounded_job_printing(bootstrap, tmp_path) as (process, topic):
        if in_batch:
            produce(bootstrap, topic, ["slow"])
            time.sleep(5)
        process.send_signal(getattr(signal, signal_name))
        assert process.wait(timeout=60) == exit_code
    errors = (tmp_path / "err").read_text()
    assert "Traceback" not in errors, errors[-3000:]
    assert "Exception in thread" not in errors and "StackOverflowError" not in errors, errors[:3000]
    assert "pyflink-compat: the job was cancelled (%s)" % said in errors


def _session_processes(session: int, name: str):
    """The pids of processes of a session whose command line contains ``name``."""
    pids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            if os.getsid(int(entry)) != session:
                continue
            with open("/proc/%s/cmdline" % entry, "rb") as f:
                if name.encode() in f.read():
                    pids.append(int(entry))
        except (OSError, ProcessLookupError):
            continue
    return pids


def test_a_job_whose_spark_jvm_is_killed_fails_instead_of_hanging(bootstrap, tmp_path):
    with _unbounded_job_printing(bootstrap, tmp_path, own_session=True) as (process, _):
        jvms = _session_processes(process.pid, "java")
        assert jvms, "no Spark JVM found in the job's session"
        for pid in jvms:
            os.kill(pid, signal.SIGKILL)
        assert process.wait(timeout=90) == 1, (tmp_path / "err").read_text()[-3000:]
    errors = (tmp_path / "err").read_text()
    assert "JobExecutionError" in errors, errors[-3000:]


def test_detached_returns_with_the_job_id_while_the_job_goes_on(bootstrap):
    src, out = create_topic(bootstrap, unique_topic("det-in")), create_topic(bootstrap, unique_topic("det-out"))
    produce(bootstrap, src, ["a", "bb"])
    result = run_cli("-d", os.path.join(REPO, "pyflink_compat", "demo", "upper_job.py"), bootstrap, src, out)
    assert result.returncode == 0, result.stderr[-3000:]
    assert re.search(r"^Job has been submitted with JobID [0-9a-f]{32}$", result.stdout, re.MULTILINE)
    assert values(consume(bootstrap, out, 2, timeout_s=120)) == ["A", "BB"]


def test_restoring_from_a_savepoint_that_does_not_exist_fails_as_flink_does(tmp_path):
    missing = str(tmp_path / "savepoint-1")
    result = run_cli("-s", missing, "-n", os.path.join(JOBS, "print_job.py"), "abc")
    assert result.returncode != 0
    assert ("java.io.FileNotFoundException: Cannot find checkpoint or savepoint file/directory '%s'" % missing
            in result.stderr)


@pytest.mark.parametrize("option, hint", [("-m", "spark.master"), ("-c", "Python jobs")])
def test_flink_options_without_meaning_here_say_what_to_do(option, hint):
    result = run_cli(option, "value", "job.py")
    assert result.returncode == 2
    assert ("option %s is not supported" % option) in result.stderr and hint in result.stderr


def _words_in_distinct_partitions(count):
    """Words whose murmur2 key hashes land in partitions 0..count-1, one each."""
    chosen = {}
    i = 0
    while len(chosen) < count:
        word = "w%d" % i
        chosen.setdefault((murmur2(word.encode()) & 0x7FFFFFFF) % count, word)
        i += 1
    return [chosen[p] for p in range(count)]


def test_execute_twice_write_phase_then_read_phase(bootstrap):
    topic = create_topic(bootstrap, unique_topic("two-phase"), partitions=3)
    out = create_topic(bootstrap, unique_topic("two-phase-out"))
    words = _words_in_distinct_partitions(3)
    result = run_cli(os.path.join(JOBS, "two_phase_job.py"), bootstrap, topic, out, *words)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "BOTH PHASES DONE" in result.stdout
    assert sorted(values(consume(bootstrap, topic, 3))) == sorted(words)
    assert sorted(values(consume(bootstrap, out, 3))) == sorted("read:" + w for w in words)


# The driver JVM starts while the job file runs (runtime/session.py, _EarlyJvm). These runs leave the class
# archive out: a job whose JVM options differ would otherwise record an archive of its own.
NO_ARCHIVE = ("-D", "pyflink-compat.jvm.class-archive=false")


def test_the_jvm_started_beside_the_job_file_runs_the_job():
    result = run_cli(*NO_ARCHIVE, os.path.join(JOBS, "launch_settings_job.py"),
                     extra_env={"PYFLINK_COMPAT_LOG_LEVEL": "DEBUG"})
    assert result.returncode == 0, result.stderr[-3000:]
    assert "The driver JVM was started while the job file ran" in result.stderr
    assert printed(result) == ["A", "BB", "ENVIRONMENT None", "PROPERTY None"]


def test_jvm_options_and_environment_set_in_the_job_code_reach_the_jvm_that_runs_it():
    result = run_cli(*NO_ARCHIVE, os.path.join(JOBS, "launch_settings_job.py"), "set",
                     extra_env={"PYFLINK_COMPAT_LOG_LEVEL": "DEBUG"})
    assert result.returncode == 0, result.stderr[-3000:]
    assert ("The job set Spark launch settings or environment variables in its code "
            "(PFC_MARKER, spark.driver.extraJavaOptions): starting the JVM again with them") in result.stderr
    assert "The driver JVM was started while the job file ran" not in result.stderr
    assert printed(result) == ["A", "BB", "ENVIRONMENT from-code", "PROPERTY from-code"]


def test_a_stateless_job_runs_without_the_driver_importing_pandas():
    # runtime/numpy_converters.py: pyspark's py4j NumPy converters import pandas on the driver's first
    # JVM call (40 MiB). A keyed job still imports it (pyspark's transformWithState requires it).
    result = run_cli(os.path.join(JOBS, "driver_imports_job.py"))
    assert result.returncode == 0, result.stderr[-3000:]
    assert printed(result) == ["A", "BB", "DRIVER IMPORTED PANDAS False"]


def test_a_failed_job_reports_the_functions_traceback_once_and_its_error():
    result = run_cli(os.path.join(JOBS, "failing_job.py"))
    assert result.returncode == 1, result.stderr[-3000:]
    report = result.stderr
    assert report.count("Traceback (most recent call last):") == 1, report
    assert 'failing_job.py", line 8, in reject_three' in report
    assert 'raise ValueError("element %d is not accepted" % value)' in report
    assert report.count("ValueError: element 3 is not accepted") == 2, report    # the traceback's and the job's
    assert report.rstrip().splitlines()[-2:] == [
        "pyflink_compat.runtime.job.JobExecutionError: Job 'failing job' failed in Map: ValueError: element 3 is not "
        "accepted",
        # no restart strategy is set and checkpointing is off: Flink's default, no restart
        "Caused by: org.apache.flink.runtime.JobException: Recovery is suppressed by NoRestartBackoffTimeStrategy"]
    # Neither pyspark's frames nor Spark's logs of each failed task attempt.
    assert "pyspark" not in report and "ERROR Executor" not in report and "py4j" not in report, report


def test_a_failed_job_at_debug_level_shows_pythons_whole_traceback():
    result = run_cli(os.path.join(JOBS, "failing_job.py"), extra_env={"PYFLINK_COMPAT_LOG_LEVEL": "DEBUG"})
    assert result.returncode == 1
    assert "JobExecutionError: Job 'failing job' failed" in result.stderr
    assert "pyflink_compat/runtime/job.py" in result.stderr          # the runner's own frames are there too


def run_cli_on_terminal(*args, timeout=300, columns=160):
    """``pyflink-compat run`` with standard error on a pseudo-terminal of ``columns`` columns:
    (exit code, stdout text, everything written to the terminal)."""
    import fcntl
    import pty
    import select
    import struct
    import termios
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, columns, 0, 0))
    env = dict(os.environ, PYTHONPATH=REPO + os.pathsep + os.environ.get("PYTHONPATH", ""))
    process = subprocess.Popen([sys.executable, "-m", "pyflink_compat", "run", *args], stdout=subprocess.PIPE,
                               stderr=slave, stdin=subprocess.DEVNULL, env=env, cwd=REPO)
    os.close(slave)
    terminal, stdout = b"", b""
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master, process.stdout], [], [], 0.5)
            if master in ready:
                try:
                    terminal += os.read(master, 65536)
                except OSError:           # the other end closed
                    pass
            if process.stdout in ready:
                chunk = os.read(process.stdout.fileno(), 65536)
                stdout += chunk
                if not chunk and process.poll() is not None:
                    break
    finally:
        if process.poll() is None:
            process.kill()
        process.wait()
        os.close(master)
    return process.returncode, stdout.decode(), terminal.decode(errors="replace")


def test_on_a_terminal_one_progress_line_the_spark_ui_and_no_spark_log_lines():
    code, stdout, terminal = run_cli_on_terminal(os.path.join(JOBS, "slow_print_job.py"))
    assert code == 0, terminal[-3000:]
    assert sorted(re.sub(r"^\d+> ", "", line) for line in stdout.splitlines()
                  if line and not CLIENT_LINE.match(line)) == sorted("W%d" % i for i in range(12))
    redraws = re.findall(r"\r\x1b\[K([^\r\n]*)", terminal)
    assert any(re.fullmatch(r"RUNNING slow printing · in \d[\d,]* rec/s · out \d[\d,]* rec/s · lag \d[\d,]* · "
                            r"checkpoint (none yet|\d+, \d+ s ago) · restarts 0", line) for line in redraws), redraws
    assert redraws[-1] == ""                       # cleared when the job ended
    lines = [line for line in terminal.replace("\r\x1b[K", "\n").splitlines() if line.strip()
             and not line.startswith("RUNNING slow printing")]
    # no line of Spark's logging (log4j's layout, its announcements), no traceback of a Python worker of Spark's
    # that outlived the JVM
    assert not [line for line in lines if re.match(r"\d\d/\d\d/\d\d \d\d:\d\d:\d\d [A-Z]+ ", line)
                or "log4j" in line or "default log level" in line or "sc.setLogLevel" in line
                or "Traceback" in line], lines
    assert lines[0] == "WARNING: Using incubator modules: jdk.incubator.vector", lines
    assert len([line for line in lines if line.startswith("Spark UI: http://")]) == 1


def test_off_a_terminal_no_progress_line_and_spark_log_lines_when_asked():
    result = run_cli("-D", "pyflink-compat.log-level=INFO", "-D", "pyflink-compat.ui.port=-1",
                     os.path.join(JOBS, "print_job.py"))
    assert result.returncode == 0, result.stderr[-3000:]
    assert "\x1b[K" not in result.stderr and "\r" not in result.stderr
    assert re.search(r"^\d\d/\d\d/\d\d \d\d:\d\d:\d\d INFO SparkContext: Running Spark version ", result.stderr,
                     re.MULTILINE), result.stderr[-3000:]
    assert "Spark UI" not in result.stderr and "SparkUI" not in result.stderr

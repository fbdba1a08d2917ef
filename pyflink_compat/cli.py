"""``pyflink-compat``: run a PyFlink job file on Spark, like ``flink run -py job.py``.

    pyflink-compat run [options] job.py [job args ...]
    pyflink-compat demo

``run`` executes the job file as ``__main__`` with ``sys.argv = [job.py, args...]``
and every ``import pyflink...`` resolving to pyflink_compat. It takes the
options of ``flink run`` that mean something here (see USAGE); ``-D`` settings
and ``-p`` become the starting configuration of every environment the job
creates. ``demo`` starts a throw-away broker, seeds it and runs a small job on it.
"""
import logging
import os
import re
import runpy
import signal
import subprocess
import sys
import tempfile
import time
from typing import Dict, List, Optional

import attrs

USAGE = """usage: pyflink-compat run [options] job.py [args ...]
       pyflink-compat run [options] -pym module [args ...]
       pyflink-compat list [-r | -s | -a]
       pyflink-compat cancel JobID
       pyflink-compat savepoint JobID [targetDirectory]
       pyflink-compat stop [--savepointPath DIR] JobID
       pyflink-compat demo

list: the jobs 'pyflink-compat run' is running on this machine, as 'flink list' shows them
cancel: cancel a running job (its process ends)
savepoint: copy a running job's checkpoint as a savepoint (resume it with run -s PATH); the job goes on
stop: the same, then the job ends

run options (as for 'flink run'):
  -py,  --python FILE              the job file (may also be given as the first free argument)
  -pym, --pyModule MODULE          run this module as the job (find it with -pyfs)
  -pyfs, --pyFiles PATHS           comma-separated .py/.zip/.egg/.whl files or directories: put on the
                                   job's path and on the path of Spark's Python workers (python.files)
  -pyreq, --pyRequirements FILE[#DIR]
                                   pip-install these requirements into a cached directory (from DIR only,
                                   when given) and put it on the same paths (python.requirements)
  -pyarch, --pyArchives ARCHIVE[#DIR],...
                                   extract these archives for the workers, each into a directory named DIR
                                   (default: the archive's name); -pyexec may name a Python inside one
                                   (python.archives)
  -pyexec, --pyExecutable PYTHON   the Python that Spark's Python workers run (python.executable)
  -p,   --parallelism N            default parallelism of the job
  -D    key=value                  configuration, e.g. -D spark.master=spark://host:7077
  -d,   --detached                 return once the job is running; it goes on in the background
  -s,   --fromSavepoint PATH       restore from a savepoint or checkpoint (execution.savepoint.path)
  -n,   --allowNonRestoredState    with -s: skip state that no longer maps to the job
  -sae, --shutdownOnAttachedExit   accepted (a local Spark stops with the job anyway)
"""

DETACHED_SUBMIT_TIMEOUT_S = 300.0

# Options of 'flink run' that have no meaning here, with what to do instead.
_NOT_APPLICABLE = {
    ("-m", "--jobmanager"): "there is no Flink JobManager: choose the Spark master with -D spark.master=URL",
    ("-t", "--target"): "there is no Flink deployment target: choose the Spark master with -D spark.master=URL",
    ("-c", "--class"): "only Python jobs run here (-py / -pym)",
    ("-j", "--jarfile"): "only Python jobs run here (-py / -pym)",
    ("-C", "--classpath"): "no jars are needed: the Kafka connector is built in",
}


class UsageError(Exception):
    pass


@attrs.define
class RunOptions:
    job_file: Optional[str] = None
    module: Optional[str] = None
    job_args: List[str] = attrs.field(factory=list)
    configuration: Dict[str, str] = attrs.field(factory=dict)
    parallelism: Optional[int] = None
    py_files: List[str] = attrs.field(factory=list)
    requirements: Optional[str] = None
    archives: List[str] = attrs.field(factory=list)
    python_executable: Optional[str] = None
    detached: bool = False


def parse_run_args(argv) -> RunOptions:
    """``run``'s arguments: options up to the job file (or -pym module); everything after goes to the job."""
    options = RunOptions()
    i = 0

    def value_of(arg):
        nonlocal i
        i += 1
        if i >= len(argv):
            raise UsageError("%s needs a value" % arg)
        return argv[i]

    while i < len(argv):
        arg = argv[i]
        if options.job_file is not None or options.module is not None:
            break
        if arg in ("-p", "--parallelism"):
            text = value_of(arg)
            try:
                options.parallelism = int(text)
            except ValueError:
                raise UsageError("parallelism must be a number, got %r" % text)
        elif arg.startswith("-D"):
            setting = arg[2:] or value_of("-D")
            key, sep, value = setting.partition("=")
            if not sep or not key:
                raise UsageError("-D needs key=value, got %r" % setting)
            options.configuration[key.strip()] = value
        elif arg in ("-py", "--python"):
            options.job_file = value_of(arg)
        elif arg in ("-pym", "--pyModule"):
            options.module = value_of(arg)
        elif arg in ("-pyfs", "--pyFiles"):
            options.py_files.extend(p for p in value_of(arg).split(",") if p)
        elif arg in ("-pyreq", "--pyRequirements"):
            options.requirements = value_of(arg)
        elif arg in ("-pyarch", "--pyArchives"):
            options.archives.extend(p for p in value_of(arg).split(",") if p)
        elif arg in ("-pyexec", "--pyExecutable"):
            options.python_executable = value_of(arg)
        elif arg in ("-pyclientexec", "--pyClientExecutable"):
            value_of(arg)
            logging.getLogger("pyflink_compat").warning(
                "%s ignored: the job runs in the Python that runs pyflink-compat (%s)", arg, sys.executable)
        elif arg in ("-d", "--detached"):
            options.detached = True
        elif arg in ("-s", "--fromSavepoint"):
            options.configuration["execution.savepoint.path"] = value_of(arg)
        elif arg in ("-n", "--allowNonRestoredState"):
            options.configuration["execution.savepoint.ignore-unclaimed-state"] = "true"
        elif arg in ("-sae", "--shutdownOnAttachedExit"):
            pass
        elif any(arg in names for names in _NOT_APPLICABLE):
            reason = next(text for names, text in _NOT_APPLICABLE.items() if arg in names)
            raise UsageError("option %s is not supported: %s" % (arg, reason))
        elif arg.startswith("-"):
            raise UsageError("unknown option %s" % arg)
        else:
            options.job_file = arg
        i += 1
    if options.job_file is None and options.module is None:
        raise UsageError("no job file given")
    options.job_args = list(argv[i:])
    return options


def run_job(options: RunOptions):
    from pyflink_compat import aliasing, dependency_guard
    from pyflink_compat.runtime import launch, session, worker_python
    if options.job_file is not None and not os.path.isfile(options.job_file):
        raise UsageError("job file %s does not exist" % options.job_file)
    configuration = dict(options.configuration)
    # The job's process imports what -pyfs and -pyreq give too; the workers get them from the configuration
    # (runtime/worker_python.py), like the job's own directory.
    paths = [_checked_path(p) for p in options.py_files]
    if options.requirements:
        try:
            paths.append(worker_python.install_requirements(options.requirements))
        except worker_python.PythonDependencyError as e:
            raise UsageError("-pyreq: %s" % e)
        configuration[worker_python.REQUIREMENTS_KEY] = options.requirements
    for path in reversed([worker_python.path_entry(p) for p in paths]):
        if path not in sys.path:
            sys.path.insert(0, path)
    _add_entries(configuration, worker_python.FILES_KEY, options.py_files)
    for archive in options.archives:
        if not os.path.isfile(archive.partition("#")[0]):
            raise UsageError("-pyarch: %s does not exist" % archive.partition("#")[0])
    _add_entries(configuration, worker_python.ARCHIVES_KEY, options.archives)
    if options.python_executable:
        configuration[worker_python.EXECUTABLE_KEY] = options.python_executable
    launch.cli_configuration.update(configuration)
    launch.cli_parallelism = options.parallelism
    launch.client_output = True
    # The JVM starts while the job file imports and builds its graph; its session uses it if the job
    # asks for the same launch settings (runtime/session.py).
    session.start_jvm_early(configuration)
    aliasing.install()
    dependency_guard.keep_kafka_python_importable()
    if options.module is not None:
        sys.argv = [options.module] + options.job_args
        runpy.run_module(options.module, run_name="__main__", alter_sys=True)
        _wait_for_background_jobs()
        return
    sys.argv = [options.job_file] + options.job_args
    job_dir = os.path.dirname(os.path.abspath(options.job_file))
    # As "python job.py" under PyFlink: the job's own modules beside it import, here and in the workers.
    worker_python.job_directory = job_dir
    if job_dir not in sys.path:
        sys.path.insert(0, job_dir)
    dependency_guard.keep_kafka_python_importable()
    runpy.run_path(options.job_file, run_name="__main__")
    _wait_for_background_jobs()


def _wait_for_background_jobs():
    """Jobs the job file started and left running (execute_async, execute_sql of an INSERT without wait()) go
    on until they end, as on a Flink cluster after ``flink run`` returns."""
    from pyflink_compat.runtime import job
    job.wait_for_background_jobs()


def _checked_path(path: str) -> str:
    full = os.path.abspath(os.path.expanduser(path))
    if not os.path.exists(full):
        raise UsageError("-pyfs: %s does not exist" % path)
    return full


def _add_entries(configuration: Dict[str, str], key: str, added: List[str]):
    if added:
        configuration[key] = ",".join([e for e in configuration.get(key, "").split(",") if e] + list(added))


def run_detached(argv: List[str]) -> int:
    """``-d``: start the job (``argv``: run's arguments without -d) in a background process of its own;
    return once it reports its JobID (written by the job's first execute, see launch.report_submitted)."""
    log_dir = tempfile.mkdtemp(prefix="pyflink-compat-detached-")
    log_path = os.path.join(log_dir, "job.log")
    submission = os.path.join(log_dir, "submitted")
    from pyflink_compat.runtime import launch
    env = dict(os.environ, **{launch.SUBMISSION_FILE_ENV: submission})
    with open(log_path, "ab") as log_file:
        process = subprocess.Popen([sys.executable, "-m", "pyflink_compat", "run"] + argv, stdin=subprocess.DEVNULL,
                                   stdout=log_file, stderr=subprocess.STDOUT, env=env, start_new_session=True)
    deadline = time.monotonic() + DETACHED_SUBMIT_TIMEOUT_S
    while time.monotonic() < deadline:
        if os.path.isfile(submission) and os.path.getsize(submission) > 0:
            with open(submission) as f:
                job_ids = f.read().split()
            print("Job has been submitted with JobID %s" % job_ids[0])
            print("The job runs in process %d; its output goes to %s" % (process.pid, log_path))
            return 0
        if process.poll() is not None:
            with open(log_path, errors="replace") as f:
                tail = f.read()[-3000:]
            sys.stderr.write("pyflink-compat: the job ended (exit code %d) before it was submitted:\n%s\n"
                             % (process.returncode, tail))
            return process.returncode or 1
        time.sleep(0.1)
    process.kill()
    sys.stderr.write("pyflink-compat: the job was not submitted within %.0f s (log: %s)\n"
                     % (DETACHED_SUBMIT_TIMEOUT_S, log_path))
    return 1


def list_jobs(argv: List[str]) -> int:
    """``flink list``: the running jobs of ``pyflink-compat run`` on this machine (none is ever scheduled)."""
    from pyflink_compat.runtime import job_registry
    unknown = [a for a in argv if a not in ("-r", "--running", "-s", "--scheduled", "-a", "--all")]
    if unknown:
        raise UsageError("list: unknown option %s" % unknown[0])
    scheduled_only = any(a in ("-s", "--scheduled") for a in argv) and \
        not any(a in ("-r", "--running", "-a", "--all") for a in argv)
    print("Waiting for response...")
    show_all = any(a in ("-a", "--all") for a in argv)
    lines = job_registry.list_lines(job_registry.running(), job_registry.terminated() if show_all else None)
    print("\n".join(["No scheduled jobs."] if scheduled_only else lines))
    return 0


def cancel_job(argv: List[str]) -> int:
    """``flink cancel <JobID>``: the job's process cancels it and exits."""
    from pyflink_compat.runtime import job_registry
    if len(argv) != 1 or argv[0].startswith("-"):
        raise UsageError("cancel: give the JobID of one running job (see pyflink-compat list)")
    job_id = argv[0]
    print("Cancelling job %s." % job_id)
    try:
        job_registry.cancel(job_id)
    except job_registry.JobNotFound as e:
        sys.stderr.write("pyflink-compat: could not cancel job %s: %s\n" % (job_id, e))
        return 1
    except TimeoutError as e:
        sys.stderr.write("pyflink-compat: %s\n" % e)
        return 1
    print("Cancelled job %s." % job_id)
    return 0


NO_SAVEPOINT_DIRECTORY = ("No savepoint directory configured. You can either specify a directory while "
                          "triggering the savepoint or configure a default via key "
                          "'execution.checkpointing.savepoint-dir'.")


def _savepoint(job_id: str, directory: Optional[str], stop: bool) -> int:
    from pyflink_compat.runtime import job_registry
    directory = directory or os.environ.get("PYFLINK_COMPAT_SAVEPOINT_DIR")
    if not directory:
        sys.stderr.write("pyflink-compat: %s\n" % NO_SAVEPOINT_DIRECTORY)
        return 1
    try:
        path = job_registry.request_savepoint(job_id, directory, stop)
    except job_registry.JobNotFound as e:
        sys.stderr.write("pyflink-compat: %s\n" % e)
        return 1
    except (RuntimeError, TimeoutError) as e:
        sys.stderr.write("pyflink-compat: %s\n" % e)
        return 1
    print("Savepoint completed. Path: file:%s" % path)
    return 0


def savepoint_job(argv: List[str]) -> int:
    """``flink savepoint <JobID> [targetDirectory]``: a savepoint of a running job, which goes on."""
    if not 1 <= len(argv) <= 2 or any(a.startswith("-") for a in argv):
        raise UsageError("savepoint: give the JobID and, optionally, the target directory")
    print("Triggering savepoint for job %s." % argv[0])
    print("Waiting for response...")
    code = _savepoint(argv[0], argv[1] if len(argv) == 2 else None, stop=False)
    if code == 0:
        print("You can resume your program from this savepoint with the run command.")
    return code


def stop_job(argv: List[str]) -> int:
    """``flink stop [--savepointPath DIR] <JobID>``: a final savepoint, then the job ends."""
    directory, rest = None, list(argv)
    while rest and rest[0].startswith("-"):
        option = rest.pop(0)
        if option in ("-p", "--savepointPath") and rest:
            directory = rest.pop(0)
        elif option.startswith("--savepointPath="):
            directory = option.split("=", 1)[1]
        elif option in ("-d", "--drain"):
            raise UsageError("stop --drain is not supported: the job stops without emitting MAX_WATERMARK")
        else:
            raise UsageError("stop: unknown option %s" % option)
    if len(rest) != 1:
        raise UsageError("stop: give the JobID of one running job (see pyflink-compat list)")
    print('Suspending job "%s" with a CANONICAL savepoint.' % rest[0])
    print("Triggering stop-with-savepoint for job %s." % rest[0])
    print("Waiting for response...")
    return _savepoint(rest[0], directory, stop=True)


def _report_job_failure(error: BaseException) -> bool:
    """A failed job, as ``flink run`` shows it: the user's traceback once and the error, not the pages of
    Spark's retried task traces (``PYFLINK_COMPAT_LOG_LEVEL=DEBUG`` keeps Python's full traceback).
    False if ``error`` is not a job failure (Python reports it as usual)."""
    from pyflink_compat.runtime.job import JobExecutionError, user_traceback
    if not isinstance(error, JobExecutionError) or _log_level() == "DEBUG":
        return False
    report = user_traceback(error)
    if report:
        sys.stderr.write(report + "\n\n")
    sys.stderr.write("%s.%s: %s\n" % (type(error).__module__, type(error).__qualname__, error))
    sys.stderr.flush()
    return True


def _name_modules_as_pyflink(error: ImportError):
    """"cannot import name 'X' from 'pyflink.datastream'", as the job wrote it, not from pyflink_compat."""
    message = error.args[0] if error.args and isinstance(error.args[0], str) else None
    if message and "pyflink_compat" in message:
        message = re.sub(r"'pyflink_compat((?:\.\w+)*)' \([^)]*\)", r"'pyflink\1'", message)
        message = message.replace("'pyflink_compat", "'pyflink")
        error.args = (message,) + tuple(error.args[1:])
        error.msg = message


def _log_level() -> str:
    return os.environ.get("PYFLINK_COMPAT_LOG_LEVEL", "WARNING").upper()


class _Terminated(KeyboardInterrupt):
    """SIGTERM, handled as Ctrl-C is: the running job is cancelled and the runner exits."""


def _on_sigterm(signum, frame):
    raise _Terminated()


def _configure_logging():
    """pyflink-compat's own loggers (and kafka-python's, which it runs) get a handler and the level of
    ``PYFLINK_COMPAT_LOG_LEVEL``; the root logger is left to the job, whose ``logging.basicConfig(...)`` then
    works as under PyFlink."""
    level = _log_level()
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    for name in ("pyflink_compat", "kafka"):
        logger = logging.getLogger(name)
        logger.setLevel(level)
        logger.addHandler(handler)
        logger.propagate = False
    if level != "DEBUG":
        # py4j logs a failing foreachBatch function's whole traceback; the job's failure reports it once.
        logging.getLogger("py4j.clientserver").setLevel(logging.CRITICAL)


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    _configure_logging()
    if not argv or argv[0] in ("-h", "--help", "help"):
        print(USAGE)
        return 0 if argv else 2
    command, rest = argv[0], argv[1:]
    try:
        if command == "run":
            options = parse_run_args(rest)
            if options.detached:
                option_args = rest[:len(rest) - len(options.job_args)]
                return run_detached([a for a in option_args if a not in ("-d", "--detached")]
                                    + options.job_args)
            signal.signal(signal.SIGTERM, _on_sigterm)
            try:
                run_job(options)
            except KeyboardInterrupt as interrupt:
                # The job was cancelled on the way out (JobRun.wait); what the user asked for needs no trace.
                terminated = isinstance(interrupt, _Terminated)
                if terminated:
                    from pyflink_compat.runtime import jvm_archive
                    jvm_archive.job_terminated()
                sys.stderr.write("pyflink-compat: the job was cancelled (%s)\n" % ("SIGTERM" if terminated
                                                                                   else "Ctrl-C"))
                return 143 if terminated else 130
            except ImportError as error:
                _name_modules_as_pyflink(error)
                raise
            except Exception as error:           # noqa: BLE001 - reported below, the exit code says it failed
                if not _report_job_failure(error):
                    raise
                return 1
            return 0
        if command == "demo":
            from pyflink_compat.demo import run_demo
            return run_demo()
        if command == "list":
            return list_jobs(rest)
        if command == "cancel":
            return cancel_job(rest)
        if command == "savepoint":
            return savepoint_job(rest)
        if command == "stop":
            return stop_job(rest)
        raise UsageError("unknown command %s" % command)
    except UsageError as e:
        sys.stderr.write("pyflink-compat: %s\n%s" % (e, USAGE))
        return 2

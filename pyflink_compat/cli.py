"""``pyflink-compat``: run a PyFlink job file on Spark, like ``flink run -py job.py``.

    pyflink-compat run [-p N] [-D key=value ...] [-py] job.py [job args ...]
    pyflink-compat demo

``run`` executes the job file as ``__main__`` with ``sys.argv = [job.py, args...]``
and every ``import pyflink...`` resolving to pyflink_compat. ``-D`` settings and
``-p`` become the starting configuration of every environment the job creates.
``demo`` starts a throw-away broker, seeds it and runs a small job on it.
"""
import logging
import os
import runpy
import sys

USAGE = """usage: pyflink-compat run [-p N] [-D key=value ...] [-py] job.py [args ...]
       pyflink-compat demo

run options (as for 'flink run'):
  -py, --python FILE      the job file (may also be given as the first free argument)
  -p,  --parallelism N    default parallelism of the job
  -D key=value            configuration, e.g. -D spark.master=spark://host:7077
"""


class UsageError(Exception):
    pass


def parse_run_args(argv):
    """Split ``run``'s arguments into (job file, job args, configuration, parallelism)."""
    configuration, parallelism, job_file = {}, None, None
    i = 0
    while i < len(argv):
        arg = argv[i]
        if job_file is not None:
            break
        if arg in ("-p", "--parallelism"):
            i += 1
            if i >= len(argv):
                raise UsageError("%s needs a number" % arg)
            try:
                parallelism = int(argv[i])
            except ValueError:
                raise UsageError("parallelism must be a number, got %r" % argv[i])
        elif arg.startswith("-D"):
            setting = arg[2:]
            if not setting:
                i += 1
                if i >= len(argv):
                    raise UsageError("-D needs key=value")
                setting = argv[i]
            key, sep, value = setting.partition("=")
            if not sep or not key:
                raise UsageError("-D needs key=value, got %r" % setting)
            configuration[key.strip()] = value
        elif arg in ("-py", "--python"):
            i += 1
            if i >= len(argv):
                raise UsageError("%s needs a file" % arg)
            job_file = argv[i]
        elif arg.startswith("-"):
            raise UsageError("unknown option %s" % arg)
        else:
            job_file = arg
        i += 1
    if job_file is None:
        raise UsageError("no job file given")
    return job_file, argv[i:], configuration, parallelism


def run_job(job_file, job_args, configuration, parallelism):
    from pyflink_compat import aliasing
    from pyflink_compat.runtime import launch
    if not os.path.isfile(job_file):
        raise UsageError("job file %s does not exist" % job_file)
    launch.cli_configuration.update(configuration)
    launch.cli_parallelism = parallelism
    aliasing.install()
    sys.argv = [job_file] + list(job_args)
    job_dir = os.path.dirname(os.path.abspath(job_file))
    if job_dir not in sys.path:
        sys.path.insert(0, job_dir)
    runpy.run_path(job_file, run_name="__main__")


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    logging.basicConfig(level=os.environ.get("PYFLINK_COMPAT_LOG_LEVEL", "WARNING"),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if not argv or argv[0] in ("-h", "--help", "help"):
        print(USAGE)
        return 0 if argv else 2
    command, rest = argv[0], argv[1:]
    try:
        if command == "run":
            run_job(*parse_run_args(rest))
            return 0
        if command == "demo":
            from pyflink_compat.demo import run_demo
            return run_demo()
        raise UsageError("unknown command %s" % command)
    except UsageError as e:
        sys.stderr.write("pyflink-compat: %s\n%s" % (e, USAGE))
        return 2

"""Settings a launcher (``pyflink-compat run``) hands to the job's environments.

``-D key=value`` and ``-p N`` land here before the job file runs; every
``StreamExecutionEnvironment.get_execution_environment()`` starts from them,
like a Flink job submitted with ``flink run`` starts from the cluster's and the
command line's configuration.
"""
import os
import socket
import sys
from typing import Dict, Optional

cli_configuration: Dict[str, str] = {}
cli_parallelism: Optional[int] = None
# Under ``pyflink-compat run``, jobs print what ``flink run`` prints: "Job has been submitted with JobID ..."
# when one starts, and the execution result when ``execute()`` returns.
client_output = False

# Set by ``pyflink-compat run -d`` for the background process it starts: the job's first execute writes its
# JobID there, and the launcher returns.
SUBMISSION_FILE_ENV = "PYFLINK_COMPAT_SUBMISSION_FILE"


def report_submitted(job_id) -> None:
    if client_output:
        print("Job has been submitted with JobID %s" % job_id, flush=True)
    path = os.environ.get(SUBMISSION_FILE_ENV)
    if not path or os.path.exists(path):
        return
    from pyflink_compat.util.files import write_atomically
    write_atomically(path, "%s\n" % job_id)


_reported_addresses = set()


def report_addresses(ui_url: Optional[str], metrics_port: Optional[int]) -> None:
    """Where to watch the jobs of this process, on standard error, once each: the Spark UI and the metrics
    endpoint of the Prometheus reporter."""
    lines = []
    if ui_url:
        lines.append("Spark UI: %s" % ui_url)
    if metrics_port:
        lines.append("Metrics (Prometheus): http://%s:%d/metrics" % (socket.gethostname(), metrics_port))
    for line in lines:
        if line not in _reported_addresses:
            _reported_addresses.add(line)
            print(line, file=sys.stderr, flush=True)


def report_result(result) -> None:
    """``execute()`` returned: its result as ``flink run`` prints it (it ends with an empty line)."""
    if client_output:
        print(result.to_string(), flush=True)

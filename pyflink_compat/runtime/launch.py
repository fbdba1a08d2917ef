"""Settings a launcher (``pyflink-compat run``) hands to the job's environments.

``-D key=value`` and ``-p N`` land here before the job file runs; every
``StreamExecutionEnvironment.get_execution_environment()`` starts from them,
like a Flink job submitted with ``flink run`` starts from the cluster's and the
command line's configuration.
"""
from typing import Dict, Optional

cli_configuration: Dict[str, str] = {}
cli_parallelism: Optional[int] = None

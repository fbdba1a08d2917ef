"""What the runtime gets of a job: its sinks (the graph hangs off them) and the environment's settings as plain
values. The mirror builds it (``StreamExecutionEnvironment``); the runtime reads nothing else of the mirror."""
from typing import Any, Dict

import attrs


@attrs.frozen
class JobPlan:
    sinks: tuple                         # graph.Node sinks, in the order the job created them
    configuration: Dict[str, Any]        # Flink's keys and pyflink-compat.* keys (options.py)
    parallelism: int                     # the environment's default parallelism
    max_parallelism: int                 # set_max_parallelism, -1 when not set
    runtime_mode: Any                    # RuntimeExecutionMode
    checkpointing: bool                  # enable_checkpointing() was called
    checkpoint_retention: str            # the ExternalizedCheckpointRetention member's name

"""A map that fails on one record (every time), under four restart strategies set by Flink 2.x configuration keys; prints
the line of each failure that says which strategy gave up (its nextRestartTimestamp, a wall-clock time,
masked).

Usage: restart_strategies.py
"""
import re

from pyflink.common import Configuration, Types
from pyflink.datastream import StreamExecutionEnvironment

STRATEGIES = {
    "none": {"restart-strategy.type": "none"},
    "fixed-delay": {"restart-strategy.type": "fixed-delay", "restart-strategy.fixed-delay.attempts": "1",
                    "restart-strategy.fixed-delay.delay": "10 ms"},
    "failure-rate": {"restart-strategy.type": "failure-rate",
                     "restart-strategy.failure-rate.max-failures-per-interval": "1",
                     "restart-strategy.failure-rate.failure-rate-interval": "5 min",
                     "restart-strategy.failure-rate.delay": "20 ms"},
    "exponential-delay": {"restart-strategy.type": "exponential-delay",
                          "restart-strategy.exponential-delay.initial-backoff": "10 ms",
                          "restart-strategy.exponential-delay.max-backoff": "40 ms",
                          "restart-strategy.exponential-delay.backoff-multiplier": "2.0",
                          "restart-strategy.exponential-delay.jitter-factor": "0.0",
                          "restart-strategy.exponential-delay.attempts-before-reset-backoff": "1"},
}


def fail_on_two(x):
    if x == 2:
        raise ValueError("record %d" % x)
    return x


for name, settings in STRATEGIES.items():
    configuration = Configuration()
    for key, value in settings.items():
        configuration.set_string(key, value)
    env = StreamExecutionEnvironment.get_execution_environment(configuration)
    env.set_parallelism(1)
    env.from_collection([1, 2, 3], type_info=Types.INT()) \
        .map(fail_on_two, output_type=Types.INT()) \
        .filter(lambda x: False) \
        .print()
    try:
        env.execute("restart strategy %s" % name)
        print("%s: finished" % name)
    except Exception as e:
        found = re.search(r"Recovery is suppressed by .*", str(e))
        line = found.group(0) if found else "no recovery line: " + str(e).splitlines()[0]
        print("%s: %s" % (name, re.sub(r"nextRestartTimestamp=\d+", "nextRestartTimestamp=...", line)))

"""``pyflink.metrics``: metric groups and metrics for user functions."""
from pyflink_compat.metrics.metricbase import MetricGroup, Metric, Counter, Meter, Distribution

__all__ = ["MetricGroup", "Metric", "Counter", "Meter", "Distribution"]

"""Flink's metric reporters, configured as in Flink: ``metrics.reporter.<name>.factory.class`` (or Flink 1.x's
``metrics.reporter.<name>.class``) and the reporter's options, optionally restricted by ``metrics.reporters``.

The Prometheus reporter serves the running jobs' metrics as Flink's does: ``metrics.reporter.<name>.port``
(default 9249, or a range ``9250-9260``: the first free port), metric names ``flink_<scope>_<groups>_<name>``
(``flink_taskmanager_job_task_operator_numRecordsIn``, ``flink_jobmanager_job_numRestarts``), user variables of
key-value groups as labels, every metric a gauge. The server lives as long as the process that started it (as
Flink's lives with its cluster); a job's metrics are there while it runs.
"""
import hashlib
import logging
import os
import re
import socket
import threading
from typing import Callable, Dict, Optional

log = logging.getLogger("pyflink_compat.runtime")

PROMETHEUS_FACTORY = "org.apache.flink.metrics.prometheus.PrometheusReporterFactory"
PROMETHEUS_CLASS = "org.apache.flink.metrics.prometheus.PrometheusReporter"
DEFAULT_PORT = "9249"

_OPERATOR_SCOPE = "taskmanager_job_task_operator"
_JOB_SCOPE = "jobmanager_job"
_INVALID = re.compile(r"[^a-zA-Z0-9_:]")

_lock = threading.Lock()
_servers: Dict[tuple, int] = {}                  # (reporter name, port option) -> port serving
_runs: Dict[str, Callable[[], tuple]] = {}        # job id -> () -> (job name, operator values, job values)
_registry = None
_warned = set()


def _sanitized(text: str) -> str:
    return _INVALID.sub("_", str(text))


def _configured_reporters(configuration: dict) -> Dict[str, str]:
    """Reporter name -> its factory (or class) name."""
    found = {}
    for key, value in configuration.items():
        match = re.fullmatch(r"metrics\.reporter\.([^.]+)\.(factory\.class|class)", key)
        if match:
            found[match.group(1)] = str(value).strip()
    enabled = configuration.get("metrics.reporters")
    if enabled:
        wanted = {name.strip() for name in str(enabled).split(",") if name.strip()}
        found = {name: factory for name, factory in found.items() if name in wanted}
    return found


def _ports(spec: str):
    spec = str(spec).strip()
    if "-" in spec:
        first, last = (int(part) for part in spec.split("-", 1))
        return range(first, last + 1)
    return [int(spec)]


def start_configured(configuration: dict):
    """Start the reporters the configuration names (once per process); others are reported as unsupported."""
    for name, factory in _configured_reporters(configuration).items():
        if factory in (PROMETHEUS_FACTORY, PROMETHEUS_CLASS):
            _start_prometheus(name, configuration.get("metrics.reporter.%s.port" % name, DEFAULT_PORT))
        elif factory not in _warned:
            _warned.add(factory)
            log.warning("Metric reporter %s (%s) is not supported by pyflink-compat; only the Prometheus reporter "
                        "(%s) is. See the porting guide, section 'metrics'.", name, factory, PROMETHEUS_FACTORY)


def _start_prometheus(name: str, port_spec: str):
    global _registry
    from prometheus_client import CollectorRegistry, start_http_server
    with _lock:
        if (name, str(port_spec)) in _servers:
            return                           # a job before this one started it: it serves every job
        if _registry is None:
            _registry = CollectorRegistry(auto_describe=False)
            _registry.register(_FlinkCollector())
        errors = []
        for port in _ports(port_spec):
            try:
                start_http_server(port, registry=_registry)
            except OSError as e:
                errors.append("%d: %s" % (port, e))
                continue
            _servers[(name, str(port_spec))] = port
            log.info("Started PrometheusReporter HTTP server on port %d.", port)
            return
        log.error("Could not start PrometheusReporter HTTP server on any port in %s (%s); the metrics are not "
                  "reported.", port_spec, "; ".join(errors))


def prometheus_port(name: str = None) -> Optional[int]:
    """The port a Prometheus reporter of this process serves on (the last started, or the last one named)."""
    with _lock:
        ports = [port for (reporter, _spec), port in _servers.items() if name is None or reporter == name]
    return ports[-1] if ports else None


def register(job_id: str, values: Callable[[], tuple]):
    """Report a running job: ``values()`` gives (job name, operator metric values, job metric values)."""
    with _lock:
        _runs[job_id] = values


def unregister(job_id: str):
    with _lock:
        _runs.pop(job_id, None)


_HOST = _sanitized(socket.gethostname())
_TM_ID = _sanitized("%s:%d" % (socket.gethostname(), os.getpid()))


def _hex_id(*parts) -> str:
    return hashlib.md5("\x00".join(str(p) for p in parts).encode()).hexdigest()


class _FlinkCollector:
    """Turns the running jobs' metrics into Prometheus families with Flink's names and labels."""

    def collect(self):
        from prometheus_client.core import GaugeMetricFamily
        with _lock:
            runs = list(_runs.items())
        families = {}

        def family(name: str, original: str, scope: str, labels: list):
            found = families.get(name)
            if found is None:
                found = families[name] = GaugeMetricFamily(name, "%s (scope: %s)" % (original, scope),
                                                           labels=labels)
            return found

        for job_id, values in runs:
            try:
                job_name, operator_values, job_values = values()
            except Exception as e:           # noqa: BLE001 - one job's failure must not hide the others
                log.warning("Metrics of job %s could not be read: %s", job_id, e)
                continue
            job_labels = {"job_id": job_id, "host": _HOST, "job_name": _sanitized(job_name)}
            for name, value in job_values.items():
                family("flink_%s_%s" % (_JOB_SCOPE, _sanitized(name)), name, _JOB_SCOPE,
                       list(job_labels)).add_metric(list(job_labels.values()), float(value))
            for (kind, operator, subtask, groups, name), value in operator_values.items():
                group_names = [_sanitized(group) for group, _value in groups]
                scope = "_".join([_OPERATOR_SCOPE] + group_names)
                task_id = _hex_id(job_id, operator)
                labels = {"job_id": job_id, "task_id": task_id,
                          "task_attempt_id": "%s_%s_%d_0" % (_hex_id(job_id, operator, subtask), task_id, subtask),
                          "host": _HOST, "operator_id": task_id, "operator_name": _sanitized(operator),
                          "task_name": _sanitized(operator), "task_attempt_num": "0",
                          "job_name": _sanitized(job_name), "tm_id": _TM_ID, "subtask_index": str(subtask)}
                for group, variable in groups:
                    if variable is not None:
                        labels[_sanitized(group)] = _sanitized(variable)
                try:
                    number = float(value)
                except (TypeError, ValueError):
                    continue
                family("flink_%s_%s" % (scope, _sanitized(name)), name, scope,
                       list(labels)).add_metric(list(labels.values()), number)
        return list(families.values())

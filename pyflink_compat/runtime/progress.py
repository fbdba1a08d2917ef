"""The one line of ``pyflink-compat run`` on a terminal that shows a running job's progress, refreshed in place:
records read and written per second, records still to read, the last checkpoint (completed micro-batch) and
restarts. Nothing of it is written when standard error is not a terminal (a log file, a pipe, CI)."""
import sys
import threading
import time

from pyflink_compat.metrics.group import COUNTER, GAUGE

REFRESH_S = 1.0
_CLEAR = "\r\x1b[K"


def wanted(stream=None) -> bool:
    stream = stream or sys.stderr
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _sum(values: dict, kind: str, name: str, operator_prefix: str = None) -> float:
    return sum(value for key, value in values.items()
               if key[0] == kind and key[-1] == name and not key[3]
               and (operator_prefix is None or key[1].startswith(operator_prefix)))


_active_lock = threading.Lock()
_active = None


def start_for(job_run):
    """A progress line for ``job_run``, or None when another job of this process shows one (one line for the
    terminal; the first job keeps it)."""
    global _active
    with _active_lock:
        if _active is not None:
            return None
        _active = ProgressLine(job_run)
    return _active.start()


class ProgressLine:
    """Redraws the line every second from the job's metrics until ``stop()``, which clears it."""

    def __init__(self, job_run, stream=None):
        self.job_run = job_run
        self.stream = stream or sys.stderr
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._run, name="pyflink-compat-progress", daemon=True)
        self._previous = None            # (time, records in, records out)
        self._checkpoint_seen = (0, None)

    def start(self) -> "ProgressLine":
        self._thread.start()
        return self

    def stop(self):
        global _active
        self._stopped.set()
        self._thread.join(timeout=5)
        self._write(_CLEAR)
        with _active_lock:
            if _active is self:
                _active = None

    def _run(self):
        while not self._stopped.wait(REFRESH_S):
            try:
                line = self.line(time.monotonic())
            except Exception:            # noqa: BLE001 - a progress line never disturbs the job
                continue
            if line is not None and not self._stopped.is_set():
                self._write(_CLEAR + line)

    def _write(self, text: str):
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):
            pass

    def line(self, now: float):
        job_metrics = self.job_run.metrics
        if job_metrics is None:
            return None
        values = job_metrics.values()
        records_in = _sum(values, COUNTER, "numRecordsIn", "Source: ")
        records_out = _sum(values, COUNTER, "numRecordsSend")
        previous, self._previous = self._previous, (now, records_in, records_out)
        if previous is None or now <= previous[0]:
            rate_in = rate_out = 0.0
        else:
            rate_in = (records_in - previous[1]) / (now - previous[0])
            rate_out = (records_out - previous[2]) / (now - previous[0])
        completed = job_metrics.completed_checkpoints
        if completed != self._checkpoint_seen[0]:
            self._checkpoint_seen = (completed, now)
        checkpoint = ("none yet" if not completed else
                      "%d, %.0f s ago" % (completed, now - self._checkpoint_seen[1]))
        lag = int(_sum(values, GAUGE, "pendingRecords"))
        return ("%s %s · in %s rec/s · out %s rec/s · lag %s · checkpoint %s · restarts %d" % (
            self.job_run.status.name, self.job_run.job_name, _number(rate_in), _number(rate_out), _number(lag),
            checkpoint, self.job_run.restarts))[:_width(self.stream)]


def _number(value: float) -> str:
    return "{:,.0f}".format(value)


def _width(stream) -> int:
    import os
    try:
        return max(os.get_terminal_size(stream.fileno()).columns - 1, 20)
    except (AttributeError, OSError, ValueError):
        return 119

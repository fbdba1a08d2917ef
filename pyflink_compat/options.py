"""Every ``pyflink-compat.*`` configuration key: its type, default and effect, in one place.

A job sets them like Flink's own keys (``-D key=value``, ``env.configure(...)``, ``Configuration``). Values are
parsed here; a value that does not parse fails with a message naming the key. The porting guide's table of them
is generated from this list: ``python -m pyflink_compat.options`` prints it, and a unit test checks that the
guide has it.
"""
import os
from typing import Any, Callable, Dict, List, Optional

import attrs

_TRUE, _FALSE = ("true", "yes", "on", "1"), ("false", "no", "off", "0")
JVM_CLASS_ARCHIVE_ENV = "PYFLINK_COMPAT_JVM_CLASS_ARCHIVE"


def _boolean(text) -> bool:
    value = str(text).strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ValueError("not a boolean (true or false)")


def _positive_int(text) -> int:
    value = int(str(text).strip())
    if value <= 0:
        raise ValueError("must be positive")
    return value


def _text(text) -> Optional[str]:
    value = str(text).strip()
    return value or None


@attrs.frozen
class Option:
    key: str
    parse: Callable[[Any], Any]
    default: Any                 # None: unset (the effect says what then)
    default_text: str            # the default as the guide shows it
    effect: str                  # one line of the guide's table (Markdown)

    def get(self, configuration: Dict[str, Any], default: Any = None):
        """The configured value, parsed; else ``default`` when given, else the option's default."""
        raw = configuration.get(self.key)
        if raw is None or raw == "":
            return self.default if default is None else default
        try:
            return self.parse(raw)
        except ValueError as error:
            raise ValueError("Invalid value %r for %s: %s" % (raw, self.key, error)) from None


#: Which Kafka source batch size applies when the key is not set (see ``max_records_per_batch``).
DEFAULT_MAX_RECORDS_PER_BATCH = 500_000
# A keyed stage holds a whole micro-batch at once in several places (the read task's payloads, Spark's
# grouping, the keyed subtask): smaller batches bound its memory. Measured on the windows benchmark (1M
# events): 500k per batch peaked at 2.4 GiB summed RSS in 20 s, 100k at 2.0 GiB in 23 s, 50k at 2.0 GiB in 31 s.
KEYED_MAX_RECORDS_PER_BATCH = 100_000

MAX_RECORDS_PER_BATCH = Option(
    "pyflink-compat.source.max-records-per-batch", _positive_int, None,
    "`%d`; `%d` for a pipeline with `key_by` (but a SQL group window whose input is summed up a batch at a "
    "time)" % (DEFAULT_MAX_RECORDS_PER_BATCH, KEYED_MAX_RECORDS_PER_BATCH),
    "the most records a Kafka source reads in one micro-batch (a keyed stage holds a whole batch in memory at "
    "once, so its default is smaller)")
TRIGGER_INTERVAL = Option(
    "pyflink-compat.trigger.interval", _text, None,
    "unset: the next micro-batch starts when the previous one ends",
    "a Spark processing-time trigger, e.g. `5 seconds`")
TICK_INTERVAL_MS = Option(
    "pyflink-compat.processing-time.tick-interval-ms", _positive_int, 500, "`500`",
    "how often a quiet Kafka source runs a micro-batch (in milliseconds) so that processing-time timers and "
    "windows fire and idleness is measured while no records come")
DIRECT_KAFKA_SINK = Option(
    "pyflink-compat.sink.direct", _boolean, True, "`true`",
    "Kafka sinks send from the task that read the records; `false` routes records through Spark to a separate "
    "writer (then every sink of a source reads it once, see [differences](#differences))")
SHARED_PASS = Option(
    "pyflink-compat.shared-pass", _boolean, True, "`true`",
    "several sinks of one source are fed by one read of it, each function called once per element; `false` "
    "plans one query per sink, each reading the source (for comparisons)")
RELEASE_PLANNER_WORKERS = Option(
    "pyflink-compat.planner-workers.release", _boolean, True, "`true`",
    "once a job has run 8 s (at once when its bounded Kafka sources read 50,000 records or more) and every query "
    "of it has started its first micro-batch, end the Python workers Spark keeps idle after planning the queries "
    "(about 250 MiB); a later job in the same process gets new ones (a shorter job leaves them to the next, which "
    "then plans faster)")
JVM_CLASS_ARCHIVE = Option(
    "pyflink-compat.jvm.class-archive", _boolean, True, "`true`",
    "the driver JVM starts from a class-data archive in `~/.cache/pyflink-compat/`, recorded by the first "
    "session on the machine, which also runs a small keyed job to load typical classes (that one process takes "
    "15-30 s longer; later ones start 2-3 s faster). Also `PYFLINK_COMPAT_JVM_CLASS_ARCHIVE=false`")
JVM_EARLY_START = Option(
    "pyflink-compat.jvm.early-start", _boolean, True, "`true`",
    "`pyflink-compat run` starts the driver JVM while the job file imports its modules and builds its graph "
    "(about 1 s sooner to the first record). If the job's own code then sets other `spark.*` keys or "
    "environment variables, that JVM is stopped and a new one starts with them (the log names the keys). Only "
    "as a `-D` option")
FORK_SERVER = Option(
    "pyflink-compat.python.fork-server", _boolean, True, "`true`",
    "the Python processes Spark starts one by one next to the driver (a runner per streaming source of a query, "
    "one per keyed operator to prepare its state) are forked from a process that has imported their modules "
    "already, instead of each importing them at every query start; started by a process's second job")

LOG_LEVELS = ("OFF", "FATAL", "ERROR", "WARN", "INFO", "DEBUG", "TRACE", "ALL")


def _log_level(text) -> str:
    level = str(text).strip().upper()
    if level not in LOG_LEVELS:
        raise ValueError("one of %s" % ", ".join(LOG_LEVELS))
    return level


LOG_LEVEL = Option(
    "pyflink-compat.log-level", _log_level, "FATAL", "`FATAL`",
    "the level of Spark's own (log4j2) log lines on standard error, from the driver JVM's start: `INFO` shows what "
    "Spark does, `WARN` its warnings; by default only a failing job's report is shown (Spark's key "
    "`spark.log.level` is used when set)")
UI_PORT = Option(
    "pyflink-compat.ui.port", int, None,
    "Flink's `rest.port` when set, else `4040` (Spark's; the next free port when taken)",
    "the port of the Spark UI, whose address `pyflink-compat run` prints; `0`: any free port; `-1`: no UI")

ALL: List[Option] = [MAX_RECORDS_PER_BATCH, TRIGGER_INTERVAL, TICK_INTERVAL_MS, DIRECT_KAFKA_SINK, SHARED_PASS,
                     RELEASE_PLANNER_WORKERS, JVM_CLASS_ARCHIVE, JVM_EARLY_START, FORK_SERVER, LOG_LEVEL, UI_PORT]


def max_records_per_batch(configuration: Dict[str, Any], keyed: bool) -> int:
    """The most records a Kafka source reads per micro-batch: the user's setting, else a default that is
    smaller for a query with a keyed stage."""
    return MAX_RECORDS_PER_BATCH.get(
        configuration, KEYED_MAX_RECORDS_PER_BATCH if keyed else DEFAULT_MAX_RECORDS_PER_BATCH)


def jvm_class_archive(configuration: Dict[str, Any]) -> bool:
    """The key, else the ``PYFLINK_COMPAT_JVM_CLASS_ARCHIVE`` environment variable, else true."""
    environment = os.environ.get(JVM_CLASS_ARCHIVE_ENV)
    fallback = JVM_CLASS_ARCHIVE.default if environment is None else _boolean(environment)
    raw = configuration.get(JVM_CLASS_ARCHIVE.key)
    return fallback if raw is None or raw == "" else JVM_CLASS_ARCHIVE.get(configuration)


def guide_table() -> str:
    """The porting guide's table of these keys (section running-a-job)."""
    rows = ["| key | default | effect |", "| --- | --- | --- |"]
    rows += ["| `%s` | %s | %s |" % (option.key, option.default_text, option.effect) for option in ALL]
    return "\n".join(rows) + "\n"


if __name__ == "__main__":
    print(guide_table(), end="")

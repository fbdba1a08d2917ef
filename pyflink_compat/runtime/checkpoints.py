"""Where a job's Spark checkpoints live, restoring from one (``-s``), and what is kept when the job ends.

Every Spark micro-batch is a checkpoint: the source offsets it reads (``offsets/N``), written before it runs,
its commit (``commits/N``) once the sink has its output, and the state store's versions. A query started
on a location that holds them resumes exactly after the last committed batch, state included; a batch that
was planned but not committed is run again with the same offsets.

Flink's layout is ``<checkpoint dir>/<job id>/chk-N``; ours is ``<checkpoint dir>/<job id>/`` holding one
Spark checkpoint location per sink (``sink-<uid or id>``) and ``job.json`` (the job's name and the offsets
its bounded sources stop at). That job directory is what ``pyflink-compat run -s`` takes, as Flink's ``-s``
takes a retained checkpoint. Restoring copies it into the new job's directory, so the one given stays as it
was and can be restored again, as a Flink checkpoint can.

- Checkpointing enabled (``enable_checkpointing`` or ``execution.checkpointing.interval``): the directory is
  ``execution.checkpointing.dir`` (or the older ``state.checkpoints.dir``), by default
  ``~/.cache/pyflink-compat/checkpoints/<job name>``. What is kept when the job ends follows
  ``ExternalizedCheckpointRetention`` (Flink's rules, except that a failed job always keeps its checkpoints:
  there is no automatic restart yet, so ``-s`` is how it goes on).
- Checkpointing disabled: a temporary directory, deleted when the job ends, as now; the log says what that
  means for delivery.
"""
import json
import logging
import os
import re
import shutil
import tempfile
from typing import Dict, List, Optional

import attrs

from pyflink_compat.util.durations import duration_ms
from pyflink_compat.util.files import write_atomically

log = logging.getLogger("pyflink_compat")

SAVEPOINT_PATH_KEY = "execution.savepoint.path"
IGNORE_UNCLAIMED_STATE_KEY = "execution.savepoint.ignore-unclaimed-state"
CHECKPOINT_DIR_KEYS = ("execution.checkpointing.dir", "state.checkpoints.dir")
CHECKPOINT_INTERVAL_KEY = "execution.checkpointing.interval"
RETENTION_KEY = "execution.checkpointing.externalized-checkpoint-retention"
JOB_FILE = "job.json"

# Outcomes of a run, for the retention rules.
FINISHED, CANCELED, FAILED = "FINISHED", "CANCELED", "FAILED"


def checkpointing_enabled(job) -> bool:
    if job.checkpointing:
        return True
    interval = job.configuration.get(CHECKPOINT_INTERVAL_KEY)
    return interval is not None and (duration_ms(interval) or 0) > 0


def _local_path(location: str) -> Optional[str]:
    """The local file system path of ``location`` (a path or a file: URI); None for other file systems."""
    if location.startswith("file://"):
        return location[len("file://"):] or "/"
    if location.startswith("file:"):
        return location[len("file:"):]
    if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*://", location):
        return None
    return os.path.abspath(os.path.expanduser(location))


def default_checkpoint_directory(job_name: str) -> str:
    from pyflink_compat.runtime import jvm_archive
    safe_name = re.sub(r"[^A-Za-z0-9._-]+", "_", job_name).strip("_") or "job"
    return os.path.join(jvm_archive.cache_dir(), "checkpoints", safe_name)


def _retention(job) -> str:
    text = job.configuration.get(RETENTION_KEY)
    if text:
        return str(text).strip().upper()
    return job.checkpoint_retention


@attrs.define
class JobCheckpoints:
    """One run's checkpoint directory: the Spark location of each sink's query, and the job's record."""
    directory: str                       # <checkpoint dir>/<job id>, local path
    durable: bool                        # checkpointing enabled: kept by the retention rules, resumable
    retention: str                       # ExternalizedCheckpointRetention name
    restored_from: Optional[str] = None
    record: Dict = attrs.Factory(dict)   # job.json: {"job_name", "sinks": {name: {"stop_offsets": ...}}}

    # A sink's query has its location; a sink behind a union has one query, hence one location, per route
    # from a source (``branch``: the route's index in ``Node.routes()``).

    def sink_location(self, sink, branch: int = 0) -> str:
        return os.path.join(self.directory, sink_directory_name(sink, branch))

    def restored_stop_offsets(self, sink, branch: int = 0) -> Optional[dict]:
        """The stopping offsets the restored run resolved for this sink's source (Flink keeps them in its
        splits, so a restored bounded job stops where the original would have)."""
        entry = self.record.get("sinks", {}).get(sink_directory_name(sink, branch))
        return entry.get("stop_offsets") if entry and self.restored_from else None

    def remember_stop_offsets(self, sink, stop_offsets: Optional[dict], branch: int = 0):
        self.record.setdefault("sinks", {}).setdefault(sink_directory_name(sink, branch), {})["stop_offsets"] = \
            stop_offsets
        self._write_record()

    def last_committed_source_offsets(self, sink, branch: int = 0) -> Optional[List[dict]]:
        """The source end offsets of the sink's last committed micro-batch (None: nothing committed)."""
        return last_committed_offsets(self.sink_location(sink, branch))

    def _write_record(self):
        os.makedirs(self.directory, exist_ok=True)
        write_atomically(os.path.join(self.directory, JOB_FILE), json.dumps(self.record, indent=1, sort_keys=True))

    def discard(self):
        shutil.rmtree(self.directory, ignore_errors=True)

    def copy_to(self, parent: str, job_id: str) -> str:
        """A savepoint: a copy of this directory (taken while no query runs) as
        ``<parent>/savepoint-<first 6 of the JobID>-<12 hex digits>``, which ``-s`` restores as it restores the
        job's own directory. Returns its path."""
        local_parent = _local_path(parent)
        if local_parent is None:
            from pyflink_compat.util.exceptions import UnsupportedFeatureError
            raise UnsupportedFeatureError("Savepoint directory %s (only local paths and file: URIs)" % parent,
                                          "checkpoints")
        os.makedirs(local_parent, exist_ok=True)
        target = os.path.join(local_parent, "savepoint-%s-%s" % (job_id[:6], os.urandom(6).hex()))
        staging = target + ".inprogress"
        shutil.copytree(self.directory, staging)
        os.replace(staging, target)
        return target

    def finish(self, outcome: str):
        """Apply the retention rules when the job ends (a killed process keeps everything)."""
        if not self.durable:
            shutil.rmtree(self.directory, ignore_errors=True)
            return
        keep = (outcome == FAILED or self.retention == "RETAIN_ON_CANCELLATION")
        if keep:
            # At the default log level: it is what a user needs to resume the job.
            log.warning("Checkpoints of this job kept in %s (resume with: pyflink-compat run -s %s ...)",
                        self.directory, self.directory)
        else:
            shutil.rmtree(self.directory, ignore_errors=True)


def sink_directory_name(sink, branch: int = 0) -> str:
    name = "sink-" + re.sub(r"[^A-Za-z0-9._-]+", "_", sink.uid) if sink.uid else "sink-%d" % sink.id
    return name + ("-route-%d" % branch if branch else "")


def last_committed_offsets(location: str) -> Optional[List[dict]]:
    """Read Spark's checkpoint logs: the offsets (one JSON value per source) of the last batch with a commit."""
    commits = os.path.join(location, "commits")
    offsets = os.path.join(location, "offsets")
    if not os.path.isdir(commits):
        return None
    batches = sorted((int(name) for name in os.listdir(commits) if name.isdigit()), reverse=True)
    for batch in batches:
        path = os.path.join(offsets, str(batch))
        if not os.path.isfile(path):
            continue
        with open(path) as f:
            lines = f.read().splitlines()
        # v1, then the batch metadata, then one line per source ("-" for a source without offsets)
        return [json.loads(line) if line != "-" else None for line in lines[2:]]
    return None


def drop_unfinished_log_writes(location: str):
    """Remove the temporary files of log entries Spark was writing when the job was killed (``.<batch>.<uuid>.tmp``
    and their ``.crc``): never an entry Spark reads, but a query with no entry yet (killed while writing its
    first) is started afresh, and Spark refuses to start one in a log directory that is not empty."""
    for log_name in ("offsets", "commits"):
        directory = os.path.join(location, log_name)
        if not os.path.isdir(directory):
            continue
        for name in os.listdir(directory):
            if name.startswith(".") and (name.endswith(".tmp") or name.endswith(".tmp.crc")):
                log.info("Dropping %s, an unfinished write of Spark's %s log", name, log_name)
                os.remove(os.path.join(directory, name))


def plan(job, job_name: str, job_id: str) -> JobCheckpoints:
    """This run's checkpoint directory for ``job`` (a plan.job.JobPlan), restored from
    ``execution.savepoint.path`` when that is set."""
    configuration, sinks = job.configuration, job.sinks
    durable = checkpointing_enabled(job)
    retention = _retention(job)
    if durable:
        root = next((configuration[k] for k in CHECKPOINT_DIR_KEYS if configuration.get(k)), None)
        if root is None:
            root = default_checkpoint_directory(job_name)
            from pyflink_compat.runtime import session
            if not session.spark_master(configuration).startswith("local"):
                log.warning("No execution.checkpointing.dir is set: checkpoints go to %s on the driver, which "
                            "a cluster's executors may not share. Set it to a shared file system.", root)
        local_root = _local_path(str(root))
        if local_root is None:
            from pyflink_compat.util.exceptions import UnsupportedFeatureError
            raise UnsupportedFeatureError("Checkpoint directory %s (only local paths and file: URIs)" % root,
                                          "checkpoints")
        directory = os.path.join(local_root, job_id)
        os.makedirs(directory, exist_ok=True)
    else:
        directory = tempfile.mkdtemp(prefix="pyflink-compat-job-")
    checkpoints = JobCheckpoints(directory=directory, durable=durable, retention=retention,
                                 record={"job_name": job_name, "sinks": {}})
    savepoint = configuration.get(SAVEPOINT_PATH_KEY)
    if savepoint:
        try:
            _restore(checkpoints, str(savepoint), sinks,
                     str(configuration.get(IGNORE_UNCLAIMED_STATE_KEY, "false")).lower() == "true")
        except BaseException:
            shutil.rmtree(directory, ignore_errors=True)
            raise
    checkpoints._write_record()
    if durable:
        log.info("Checkpointing: every micro-batch is a checkpoint in %s%s", directory,
                 " (restored from %s)" % checkpoints.restored_from if checkpoints.restored_from else "")
    else:
        log.info("Checkpointing is disabled: Spark's progress is kept in a temporary directory for this run "
                 "only. After a failure the job can only start again from its starting offsets, so "
                 "AT_LEAST_ONCE output may repeat records; enable checkpointing to resume with -s.")
    return checkpoints


def _restore(checkpoints: JobCheckpoints, savepoint: str, sinks, ignore_unclaimed: bool):
    from pyflink_compat.util.exceptions import JavaStyleError
    source = _local_path(savepoint)
    if source is None or not os.path.isdir(source):
        raise JavaStyleError("java.io.FileNotFoundException",
                             "Cannot find checkpoint or savepoint file/directory '%s' on file system 'file'."
                             % savepoint, "execute")
    record_path = os.path.join(source, JOB_FILE)
    if not os.path.isfile(record_path):
        raise JavaStyleError("java.io.FileNotFoundException",
                             "Cannot find meta data file '%s' in directory '%s'. Please try to load the checkpoint/"
                             "savepoint directly from the metadata file instead of the directory."
                             % (JOB_FILE, savepoint), "execute")
    with open(record_path) as f:
        saved = json.load(f)
    wanted = {sink_directory_name(sink, branch) for sink in sinks for branch in range(len(sink.routes()))}
    stored = {name for name in os.listdir(source)
              if name.startswith("sink-") and os.path.isdir(os.path.join(source, name))}
    unclaimed = sorted(stored - wanted)
    if unclaimed and not ignore_unclaimed:
        raise JavaStyleError(
            "java.lang.IllegalStateException",
            "Failed to rollback to checkpoint/savepoint %s. Cannot map checkpoint/savepoint state for operator "
            "%s to the new program, because the operator is not available in the new program. If you want to "
            "allow to skip this, you can set the --allowNonRestoredState option on the CLI."
            % (savepoint, ", ".join(unclaimed)), "execute")
    for name in sorted(stored & wanted):
        shutil.copytree(os.path.join(source, name), os.path.join(checkpoints.directory, name))
        drop_unfinished_log_writes(os.path.join(checkpoints.directory, name))
    checkpoints.record["sinks"] = {name: entry for name, entry in saved.get("sinks", {}).items() if name in wanted}
    checkpoints.restored_from = savepoint

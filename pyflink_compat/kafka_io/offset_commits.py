"""Committing a Kafka source's offsets to its consumer group after each completed micro-batch.

As in Flink, the commits are for monitoring only (consumer lag, where the job is): a restarted job resumes
from its checkpoint, never from committed offsets, and a failed commit is logged and counted, not fatal.
Flink commits when a checkpoint completes (``commit.offsets.on.checkpoint``, default true with a
``group.id``); every completed micro-batch is a checkpoint here. Without checkpointing, Flink's consumer
commits only with ``enable.auto.commit=true``, periodically; here that is after each micro-batch too.

Commits run on a background thread, so a slow broker never holds up the job; the last one is waited for
(with a deadline) when the job stops.
"""
import concurrent.futures
import logging
from typing import Mapping, Optional

from pyflink_compat.kafka_io import offsets as koffsets

log = logging.getLogger("pyflink_compat.kafka")

FINAL_COMMIT_TIMEOUT_S = 15.0


def _true(value) -> bool:
    return str(value).strip().lower() == "true"


def commits_enabled(spec, checkpointing: bool) -> bool:
    if not spec.group_id:
        return False
    if checkpointing:
        return _true(spec.properties.get("commit.offsets.on.checkpoint", "true"))
    return _true(spec.properties.get("enable.auto.commit", "false"))


class OffsetCommitter:
    """Commits one source's offsets for its group; counts what succeeded and failed."""

    def __init__(self, spec, source_name: str):
        self.spec = spec
        self.source_name = source_name
        self.succeeded = 0
        self.failed = 0
        self.committed = {}                  # (topic, partition) -> offset of the last successful commit
        self._cluster = None
        self._last_requested: Optional[dict] = None
        self._pending = None
        self._executor = concurrent.futures.ThreadPoolExecutor(max_workers=1,
                                                               thread_name_prefix="pyflink-compat-offset-commit")

    def batch_completed(self, end_offsets: Mapping):
        """Commit the end offsets (Spark's JSON form) of a completed micro-batch, once per distinct value."""
        if not end_offsets or end_offsets == self._last_requested:
            return
        self._last_requested = end_offsets
        self._pending = self._executor.submit(self._commit, koffsets.from_json(end_offsets))

    def _commit(self, offsets):
        from pyflink_compat.kafka_io.cluster import Cluster
        try:
            if self._cluster is None:
                self._cluster = Cluster(self.spec.properties)
            self._cluster.commit_offsets(self.spec.group_id, offsets)
            self.committed = dict(offsets)
            self.succeeded += 1
        except Exception as e:               # monitoring only: log, count, go on
            self.failed += 1
            log.warning("Committing offsets of %s for group '%s' failed: %s", self.source_name,
                        self.spec.group_id, e)
            if self._cluster is not None:
                self._cluster.close()
                self._cluster = None

    def close(self):
        """Wait for the last commit (bounded), then report the counts."""
        if self._pending is not None:
            try:
                self._pending.result(timeout=FINAL_COMMIT_TIMEOUT_S)
            except concurrent.futures.TimeoutError:
                log.warning("The last offset commit of %s did not finish within %.0f s", self.source_name,
                            FINAL_COMMIT_TIMEOUT_S)
        self._executor.shutdown(wait=False)
        if self._cluster is not None:
            self._cluster.close()
        log.info("%s: %d offset commit(s) to group '%s' succeeded, %d failed", self.source_name, self.succeeded,
                 self.spec.group_id, self.failed)

"""EXACTLY_ONCE for the Kafka sink: one Kafka transaction per writing task and micro-batch.

Spark re-runs a micro-batch after a crash with the same input, so the same tasks produce the same records.
Each task writes its share of micro-batch B in a transaction of the transactional id ``<prefix>-<task>``,
and in the same transaction commits a *marker*: the offset B + 1 for the consumer group ``<prefix>-<task>``
on partition 0 of the sink's topic (the offset is only a number here; no record is read). Before writing, a
task reads its marker: at B + 1 or beyond, batch B's output is already committed and the re-run writes
nothing. A transaction commits output and marker together or neither, so each record is visible to
``read_committed`` readers exactly once.

- ``init_transactions()`` when a task's producer starts fences an older producer of the same id (a zombie
  task) and aborts the transaction it left open, so nothing blocks ``read_committed`` readers.
- When a job starts, the driver does the same for every id the sink can use (``abort_lingering``), for
  transactions left by tasks that will not run again.
- ``transaction.timeout.ms`` defaults to 1 h as in Flink. A broker whose ``transaction.max.timeout.ms`` is
  lower (Apache Kafka's default is 15 min) refuses it when the job starts, with an error that says so.
- kafka-python's commit and abort have no timeout of their own: each call here has a deadline.

Measured facts this relies on are in ``/work/notes/kafka_transactions_spike.md``.
"""
import logging
import threading
from typing import Callable, Optional

from pyflink_compat.kafka_io import properties as kprops

log = logging.getLogger("pyflink_compat")

DEFAULT_TRANSACTION_TIMEOUT_MS = 3_600_000
# A bound for init/commit/abort and the marker lookup; the broker's own request timeouts come first.
CALL_DEADLINE_S = 60.0


class TransactionError(RuntimeError):
    """A transactional write could not complete (the task fails; Spark retries it or fails the job)."""


def transactional_id(prefix: str, task: int) -> str:
    return "%s-%d" % (prefix, task)


def marker_group(prefix: str, task: int) -> str:
    return "%s-%d" % (prefix, task)


def _with_deadline(what: str, function: Callable, deadline_s: float = CALL_DEADLINE_S, servers: str = ""):
    """Run ``function`` in a helper thread; raise TransactionError if it has not returned in time."""
    outcome = {}

    def run():
        try:
            outcome["value"] = function()
        except BaseException as e:          # noqa: B902 - handed to the caller
            outcome["error"] = e

    thread = threading.Thread(target=run, name="pyflink-compat-txn", daemon=True)
    thread.start()
    thread.join(deadline_s)
    if thread.is_alive():
        raise TransactionError("%s did not finish within %.0f s (Kafka bootstrap servers '%s')"
                               % (what, deadline_s, servers))
    if "error" in outcome:
        raise outcome["error"]
    return outcome.get("value")


def _timeout_refused(error: BaseException) -> bool:
    text = "%s %s" % (type(error).__name__, error)
    return "InvalidTransactionTimeout" in text or "transaction timeout" in text.lower()


def new_transactional_producer(properties, transactional_id_value: str):
    from kafka import KafkaProducer
    config = kprops.producer_config(properties)
    config.pop("enable_idempotence", None)          # transactions need idempotence (kafka-python turns it on)
    config.pop("acks", None)                        # ... and acks=all
    if "linger.ms" not in properties:
        config["linger_ms"] = 5
    if "batch.size" not in properties:
        config["batch_size"] = 256 * 1024
    config.setdefault("bootstrap_timeout_ms", 10000)
    config.setdefault("retry_backoff_ms", 20)       # init_transactions waits a backoff per retry (100 ms default)
    config["transactional_id"] = transactional_id_value
    config["transaction_timeout_ms"] = int(properties.get("transaction.timeout.ms", DEFAULT_TRANSACTION_TIMEOUT_MS))
    return KafkaProducer(**config)


def init_producer(properties, transactional_id_value: str, servers: str):
    """A transactional producer after ``init_transactions()`` (fences zombies, ends their transaction)."""
    from pyflink_compat.kafka_io.clients import start_client
    producer = start_client("transactional producer", properties,
                            lambda props: new_transactional_producer(props, transactional_id_value))
    try:
        _with_deadline("Initializing Kafka transactions for '%s'" % transactional_id_value,
                       producer.init_transactions, servers=servers)
    except BaseException as e:
        producer.close(timeout=5)
        if _timeout_refused(e):
            raise TransactionError(
                "The broker refused transaction.timeout.ms=%s of the Kafka sink: it is larger than the maximum the "
                "broker allows (its transaction.max.timeout.ms; Apache Kafka's default is 900000, 15 min). Set "
                "the sink property transaction.timeout.ms to at most that (Flink's default is 1 h). Cause: %s"
                % (properties.get("transaction.timeout.ms", DEFAULT_TRANSACTION_TIMEOUT_MS), e)) from e
        raise
    return producer


def _new_admin(properties):
    from kafka import KafkaAdminClient
    config = kprops.admin_config(properties)
    config.setdefault("bootstrap_timeout_ms", 10000)
    return KafkaAdminClient(**config)


def committed_batches(properties, group: str, marker_topic: str, servers: str) -> Optional[int]:
    """The last micro-batch id a task committed (its marker offset - 1), or None."""
    from kafka import TopicPartition
    from pyflink_compat.kafka_io.clients import per_worker_client
    admin = per_worker_client("marker-admin", properties, _new_admin)
    answer = _with_deadline("Reading the EXACTLY_ONCE marker of '%s'" % group,
                            lambda: admin.list_group_offsets({group: [TopicPartition(marker_topic, 0)]}),
                            servers=servers)
    offsets = [meta.offset for meta in answer.get(group, {}).values() if meta is not None and meta.offset >= 0]
    return max(offsets) - 1 if offsets else None


class TaskTransaction:
    """The transaction of one task for one micro-batch: ``already_committed()``, ``begin()``, sends on
    ``producer``, ``commit()``; ``abort()`` on failure."""

    def __init__(self, spec, task: int, batch_id: int):
        if spec.topic is None:
            from pyflink_compat.util.exceptions import UnsupportedFeatureError
            raise UnsupportedFeatureError("KafkaSink with a topic selector and DeliveryGuarantee.EXACTLY_ONCE",
                                          "delivery-guarantees", "the sink needs one fixed topic for its markers")
        self.spec = spec
        self.task = task
        self.batch_id = batch_id
        self.id = transactional_id(spec.transactional_id_prefix, task)
        self.group = marker_group(spec.transactional_id_prefix, task)
        self.servers = spec.bootstrap_servers
        # A fresh producer for every task: the same id may have run in another Python worker since, whose
        # producer fenced any producer of it kept here. init_transactions also ends what a crash left open.
        self.producer = init_producer(spec.properties, self.id, self.servers)

    def already_committed(self) -> bool:
        last = committed_batches(self.spec.properties, self.group, self.spec.topic, self.servers)
        if last is not None and last >= self.batch_id:
            log.info("Micro-batch %d of task %d was already committed to Kafka (transactional id %s): not "
                     "written again", self.batch_id, self.task, self.id)
            return True
        return False

    def begin(self):
        self.producer.begin_transaction()

    def commit(self):
        from kafka import TopicPartition
        from kafka.structs import OffsetAndMetadata
        marker = {TopicPartition(self.spec.topic, 0): OffsetAndMetadata(self.batch_id + 1, "", -1)}
        _with_deadline("Adding the EXACTLY_ONCE marker to transaction '%s'" % self.id,
                       lambda: self.producer.send_offsets_to_transaction(marker, self.group), servers=self.servers)
        _with_deadline("Committing Kafka transaction '%s'" % self.id, self.producer.commit_transaction,
                       servers=self.servers)
        # The same marker again, outside the transaction. On Apache Kafka it is already there. Tansu (the test
        # broker) was seen to stop storing a group's transactional offset commits after a kill, and a re-run
        # then wrote its micro-batch again; this keeps the marker right there too, except for a crash in the
        # milliseconds between the two commits.
        try:
            from pyflink_compat.kafka_io.clients import per_worker_client
            admin = per_worker_client("marker-admin", self.spec.properties, _new_admin)
            _with_deadline("Recording the EXACTLY_ONCE marker of '%s'" % self.group,
                           lambda: admin.alter_group_offsets(self.group, marker), servers=self.servers)
        except Exception as e:               # the transactional marker is the one that counts
            log.warning("Recording the EXACTLY_ONCE marker of %s outside its transaction failed: %s", self.group, e)

    def close(self):
        try:
            self.producer.close(timeout=5)
        except Exception as e:               # the transaction is over either way
            log.debug("closing the producer of %s failed: %s", self.id, e)

    def abort(self):
        """Best effort (fenced, broker gone: the next init_transactions of this id ends it anyway)."""
        try:
            _with_deadline("Aborting Kafka transaction '%s'" % self.id, self.producer.abort_transaction,
                           deadline_s=10.0, servers=self.servers)
        except BaseException as e:           # noqa: B902
            log.debug("aborting %s failed: %s", self.id, e)
        self.close()


def abort_lingering(spec, tasks: int):
    """Driver side, before the job's queries start: end any open transaction of the ids ``<prefix>-0`` to
    ``<prefix>-<tasks - 1>``, left by tasks of an earlier run, and check the transaction timeout."""
    for task in range(tasks):
        producer = init_producer(spec.properties, transactional_id(spec.transactional_id_prefix, task),
                                 spec.bootstrap_servers)
        producer.close(timeout=5)

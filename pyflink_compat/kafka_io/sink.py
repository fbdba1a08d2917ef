"""The Kafka sink as a Spark Python streaming (Arrow) writer.

Each Spark task serializes its elements with the sink's schemas and topic
selector and sends them with a kafka-python producer kept for the life of the
Python worker. The task flushes and checks every send before it returns; any
failed send fails the task, hence the micro-batch, so nothing is marked done
that was not acknowledged. That gives ``at-least-once``; ``none`` gets the same
treatment (Flink's writer, too, fails the job on asynchronous send errors,
whatever the guarantee). ``exactly-once`` writes each task's records of a
micro-batch in one Kafka transaction (kafka_io/transactions.py).
"""
import logging
import time
import pyarrow as pa
import pyarrow.compute as pc
from kafka.structs import TopicPartition
from pyspark.sql.datasource import DataSourceStreamArrowWriter, WriterCommitMessage

from pyflink_compat.kafka_io import batch_send
from pyflink_compat.kafka_io import properties as kprops
from pyflink_compat.kafka_io.clients import discard_client, per_worker_client
from pyflink_compat.third_party_patches import arrow_without_pandas
from pyflink_compat.kafka_io.source import SPEC_OPTION, decode_object, reader_index
# the KafkaSource enumerator's rule, also the legacy consumer's (tests and callers use it from here too)
from pyflink_compat.kafka_io.source import java_string_hash, split_owner as assigned_subtask  # noqa: F401

AT_LEAST_ONCE = "at-least-once"
NONE = "none"
EXACTLY_ONCE = "exactly-once"

log = logging.getLogger("pyflink_compat")


TASK_AROUND_OPTION = "task_around"


class SinkCommitMessage(WriterCommitMessage):
    def __init__(self, records_sent: int):
        self.records_sent = records_sent


def _new_producer(properties):
    from kafka import KafkaProducer
    config = kprops.producer_config(properties)
    # Throughput defaults (Kafka 4's linger.ms is 5 too); users' properties win.
    if "linger.ms" not in properties:
        config["linger_ms"] = 5
    if "batch.size" not in properties:
        config["batch_size"] = 256 * 1024
    config.setdefault("bootstrap_timeout_ms", 10000)
    return KafkaProducer(**config)


class KafkaStreamWriter(DataSourceStreamArrowWriter):
    """The Spark sink: each write task sends the rows Spark hands it."""

    def __init__(self, options):
        self.spec = decode_object(options[SPEC_OPTION])
        self.element_type = decode_object(options["element_type"])
        # Called around each task's work, if given: ``around(work)`` returns ``work()`` (the caller's metrics).
        around = options.get(TASK_AROUND_OPTION)
        self.around = decode_object(around) if around else None

    def write(self, iterator):
        arrow_without_pandas()

        def work():
            return send_batches(self.spec, self.element_type, iterator)

        sent = work() if self.around is None else self.around(work)
        return SinkCommitMessage(sent)

    def commit(self, messages, batchId):
        pass

    def abort(self, messages, batchId):
        pass


def send_batches(spec, element_type, batches, task: int = None) -> int:
    """Serialize and send every element of ``batches`` (Arrow (element, event_ts)); flush; return the count.

    Raises if any send failed or was not acknowledged in time, so the calling task, hence the
    micro-batch, fails and is not marked done; with ``spec.log_failures_only`` (the legacy
    producer's ``set_log_failures_only(True)``) failures are logged and the task goes on.

    EXACTLY_ONCE: the records go in one Kafka transaction for this task (``task``, default the Spark
    partition id) and micro-batch, or nowhere when that micro-batch's output was already committed
    (kafka_io/transactions.py).
    """
    writer = BatchWriter(spec, element_type, task)
    try:
        for batch in batches:
            writer.add(batch)
            if writer.already_committed:
                break                     # a re-run of a committed micro-batch: nothing more to compute
        return writer.finish()
    except BaseException:
        writer.abort()
        raise


class BatchWriter:
    """One task's writes to one Kafka sink, batch by batch as they are made: ``add`` sends (the producer works
    while the task goes on), ``finish`` flushes and checks every acknowledgement, ``abort`` gives up (aborts
    the transaction, drops the producer). Nothing is opened before the first batch: a task with nothing to
    write starts no transaction."""

    def __init__(self, spec, element_type, task: int = None):
        self.spec, self.element_type, self.task = spec, element_type, task
        self._sends = None                # _Sends once the first batch came
        self._transaction = None
        self._skip = False                # EXACTLY_ONCE: this micro-batch's output is committed already

    @property
    def already_committed(self) -> bool:
        """EXACTLY_ONCE: this task's output of this micro-batch was committed before; nothing is sent."""
        return self._skip

    def add(self, batch):
        if self._sends is None:
            self._start()
        if not self._skip:
            self._sends.send(batch)

    def _start(self):
        if self.spec.delivery_guarantee == EXACTLY_ONCE:
            from pyflink_compat.kafka_io.transactions import TaskTransaction
            task, batch_id = _task_and_batch(self.task)
            self._transaction = TaskTransaction(self.spec, task, batch_id)
            if self._transaction.already_committed():
                self._skip = True
            else:
                self._transaction.begin()
            producer = self._transaction.producer
        else:
            producer = per_worker_client("producer", self.spec.properties, _new_producer)
        self._sends = _Sends(producer, self.spec, self.element_type)

    def finish(self) -> int:
        """Flush and check; returns the records sent. Raises when any was not acknowledged (unless failures
        are only logged)."""
        if self._sends is None:
            return 0
        if self._transaction is not None:
            if not self._skip:
                self._sends.check()
                self._transaction.commit()
            transaction, self._transaction = self._transaction, None
            transaction.close()
            return 0 if self._skip else self._sends.sent
        if not self._sends.check():
            # A producer whose sends failed or were not confirmed is dropped: whatever state it is in (a reset
            # producer id, batches still queued) must not carry over to the next task of this worker, also
            # when failures are only logged (the legacy producer's set_log_failures_only).
            discard_client("producer", self.spec.properties, self._sends.producer)
        return self._sends.sent

    def abort(self):
        transaction, self._transaction = self._transaction, None
        if transaction is not None:
            if self._skip:
                transaction.close()
            else:
                transaction.abort()
        elif self._sends is not None:
            discard_client("producer", self.spec.properties, self._sends.producer)
        self._sends = None


def _task_and_batch(task):
    from pyspark import TaskContext
    context = TaskContext.get()
    batch_id = context.getLocalProperty("streaming.sql.batchId") if context is not None else None
    if batch_id is None:
        raise RuntimeError("EXACTLY_ONCE writes need the micro-batch id, and this task has none")
    return (context.partitionId() if task is None else task), int(batch_id)


class _Sends:
    """The sends of one task on one producer, and the check that every one was acknowledged."""

    def __init__(self, producer, spec, element_type):
        self.producer, self.spec, self.element_type = producer, spec, element_type
        self.tracker = batch_send.FailureTracker()
        self.sender = batch_send.BatchSender(producer, self.tracker) if batch_send.supports(producer) else None
        self.fixed_partitions = {}        # topic -> this subtask's partition (FlinkFixedPartitioner)
        self.sent = 0
        self.sent_bytes = 0

    def _partition_for(self, topic):
        if not self.spec.fixed_partitioner:
            return None
        if topic not in self.fixed_partitions:
            self.fixed_partitions[topic] = fixed_partition(self.producer.partitions_for(topic),
                                                           reader_index(self.spec.subtask_parallelism))
        return self.fixed_partitions[topic]

    def send(self, batch):
        from pyflink_compat import codec
        spec, producer, sender, tracker = self.spec, self.producer, self.sender, self.tracker
        if tracker.failures and not spec.log_failures_only:
            return                        # the task fails: sending the rest into a failing producer gains nothing
        elements = codec.column(batch, codec.ELEMENT)
        timestamps = None                 # None: the producer stamps each record with its send time
        if spec.write_timestamp:
            event_ts = codec.column(batch, codec.EVENT_TS)
            timestamps = pc.if_else(pc.less(event_ts, pa.scalar(0, pa.int64())), pa.scalar(None, pa.int64()), event_ts)
        python_elements = None

        def python_values():
            nonlocal python_elements
            if python_elements is None:
                python_elements = codec.to_python(elements, self.element_type)
            return python_elements

        values = _serialize(spec.value_serializer, elements, python_values)
        keys = (_serialize(spec.key_serializer, elements, python_values)
                if spec.key_serializer is not None else None)
        if spec.topic_selector is None:
            groups = [(spec.topic, keys, values, timestamps)]
        else:
            groups = []
            for topic, indexes in _group_by_topic(spec.topic_selector, python_values()).items():
                take = pa.array(indexes, pa.int64())
                groups.append((topic, None if keys is None else keys.take(take), values.take(take),
                               None if timestamps is None else timestamps.take(take)))
        for topic, group_keys, group_values, group_timestamps in groups:
            partition = self._partition_for(topic)
            if not spec.log_failures_only:
                _send(producer, sender, tracker, topic, group_keys, group_values, group_timestamps, partition)
                continue
            try:
                _send(producer, sender, tracker, topic, group_keys, group_values, group_timestamps, partition)
            except Exception:             # e.g. a record over max.request.size: find it, send the rest
                _send(producer, None, tracker, topic, group_keys, group_values, group_timestamps, partition,
                      catch=True)
        self.sent += len(values)
        self.sent_bytes += _byte_size(values) + (_byte_size(keys) if keys is not None else 0)

    def _count(self, flush_started: float):
        """The sink's metrics: what this task sent and had acknowledged, what failed, how long the flush took."""
        from pyflink_compat.kafka_io import io_counts
        failed = self.tracker.failures
        io_counts.count_write(self.spec.topic or "", records=max(self.sent - failed, 0), size=self.sent_bytes,
                              failed=failed, flush_ms=(time.monotonic() - flush_started) * 1000.0)

    def check(self) -> bool:
        """Flush, then whether every record was acknowledged: False only when failures are just logged;
        otherwise any failure raises ``SinkWriteError``."""
        from kafka.errors import KafkaTimeoutError
        spec, tracker, sent = self.spec, self.tracker, self.sent
        all_acknowledged = True
        timeout_s = int(spec.properties.get("delivery.timeout.ms", "120000")) / 1000.0
        flush_started = time.monotonic()
        try:
            try:
                self.producer.flush(timeout=timeout_s)
            finally:
                self._count(flush_started)
        except KafkaTimeoutError as e:
            all_acknowledged = False
            if not spec.log_failures_only:
                raise SinkWriteError("Records not acknowledged by Kafka (bootstrap servers '%s') within "
                                     "delivery.timeout.ms (%.0f s): %s" % (spec.bootstrap_servers, timeout_s, e)) from e
            log.error("Error while sending records to Kafka: not acknowledged within %.0f s: %s", timeout_s, e)
        if tracker.failures:
            all_acknowledged = False
            if spec.log_failures_only:
                log.error("Error while sending record to Kafka: %s (%d of %d records of this task failed and were "
                          "dropped; the producer only logs failures)", tracker.first_error, tracker.failures, sent)
            else:
                raise SinkWriteError("%d of %d records could not be written to Kafka %s (bootstrap servers '%s'): "
                                     "%s" % (tracker.failures, sent, _where(tracker.first_partition),
                                             spec.bootstrap_servers, _describe(tracker.first_error)))
        unconfirmed, partition = self.sender.unconfirmed() if self.sender is not None else (0, None)
        if unconfirmed:
            all_acknowledged = False
            # Not acknowledged although flush() returned: the producer split a batch the broker refused as too
            # large and the new batches' outcome cannot be seen from here.
            message = ("%d of %d records have no acknowledgement from Kafka %s (bootstrap servers '%s'): the "
                       "broker refused a record batch as too large; set the sink property batch.size below the "
                       "topic's max.message.bytes" % (unconfirmed, sent, _where(partition), spec.bootstrap_servers))
            if not spec.log_failures_only:
                raise SinkWriteError(message)
            log.error("Error while sending records to Kafka: %s", message)
        return all_acknowledged


class SinkWriteError(RuntimeError):
    """Records of a task were not acknowledged by Kafka: the task fails, so its micro-batch is not done."""


def _where(partition) -> str:
    """"topic 'T' partition P" (without the partition when it is not known)."""
    if partition is None:
        return ""
    if partition.partition < 0:
        return "topic '%s'" % partition.topic
    return "topic '%s' partition %d" % (partition.topic, partition.partition)


def _describe(error) -> str:
    """The broker's (or client's) error as its class and message: ``UnknownProducerIdError: ...``."""
    text = str(error)
    name = type(error).__name__
    return text if text.startswith(name) else "%s: %s" % (name, text)


def fixed_partition(partitions, subtask: int) -> int:
    """Flink's ``FlinkFixedPartitioner``: parallel instance i writes to the i-th partition (by id), modulo."""
    ordered = sorted(partitions)
    return ordered[subtask % len(ordered)]


def _group_by_topic(selector, elements) -> dict:
    """Element indexes per selected topic, in element order."""
    groups = {}
    for i, element in enumerate(elements):
        groups.setdefault(selector.apply(element), []).append(i)
    return groups


def _send(producer, sender, tracker, topic, keys, values, timestamps, partition=None, catch=False):
    """Send Arrow columns of serialized keys (or None), values and timestamps (or None: now)."""
    if sender is not None and hasattr(sender, "send_arrow"):
        sender.send_arrow(topic, keys, values, timestamps, partition)
        return
    key_list = None if keys is None else keys.to_pylist()
    value_list = values.to_pylist()
    timestamp_list = [None] * len(value_list) if timestamps is None else timestamps.to_pylist()
    if sender is not None:
        sender.send(topic, key_list, value_list, timestamp_list, partition)
        return
    # Record by record through the public API (kafka-python without the internals batch_send uses).
    # ``catch``: a record the producer rejects at once counts as failed, the others are still sent.
    send = producer.send
    where = TopicPartition(topic, -1 if partition is None else partition)
    for i, value in enumerate(value_list):
        try:
            future = send(topic, value=value, key=None if key_list is None else key_list[i], partition=partition,
                          timestamp_ms=timestamp_list[i])
        except Exception as e:
            if not catch:
                raise
            tracker.record_failed(e, 1, where)
            continue
        future.add_errback(lambda error: tracker.record_failed(error, 1, where))


def _serialize(schema, elements: pa.Array, python_values) -> pa.Array:
    """A binary column of each element's bytes: the schema's vectorised path when it has one, else per record."""
    vectorised = schema._serialize_arrow(elements)
    if vectorised is not None:
        return vectorised
    return pa.array([_as_bytes(schema.serialize(v)) for v in python_values()], pa.binary())


def _byte_size(array) -> int:
    """Bytes of an Arrow binary array's values (nulls have none)."""
    return (pc.sum(pc.binary_length(array)).as_py() or 0) if len(array) else 0


def _as_bytes(data):
    return data if data is None or isinstance(data, bytes) else bytes(data)

"""The Kafka sink as a Spark Python streaming (Arrow) writer.

Each Spark task serializes its elements with the sink's schemas and topic
selector and sends them with a kafka-python producer kept for the life of the
Python worker. The task flushes and checks every send before it returns; any
failed send fails the task, hence the micro-batch, so nothing is marked done
that was not acknowledged. That gives ``at-least-once``; ``none`` gets the same
treatment (Flink's writer, too, fails the job on asynchronous send errors,
whatever the guarantee). ``exactly-once`` is not available yet (the translation
rejects it).
"""
import pyarrow as pa
from pyspark.sql.datasource import DataSourceStreamArrowWriter, WriterCommitMessage

from pyflink_compat.kafka_io import batch_send
from pyflink_compat.kafka_io import properties as kprops
from pyflink_compat.kafka_io.clients import per_worker_client
from pyflink_compat.kafka_io.source import SPEC_OPTION, decode_object

AT_LEAST_ONCE = "at-least-once"
NONE = "none"
EXACTLY_ONCE = "exactly-once"


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

    def write(self, iterator):
        sent = send_batches(self.spec, self.element_type, iterator)
        return SinkCommitMessage(sent)

    def commit(self, messages, batchId):
        pass

    def abort(self, messages, batchId):
        pass


def send_batches(spec, element_type, batches) -> int:
    """Serialize and send every element of ``batches`` (Arrow (element, event_ts)); flush; return the count.

    Raises if any send failed or was not acknowledged in time, so the calling task, hence the
    micro-batch, fails and is not marked done.
    """
    from kafka.errors import KafkaTimeoutError
    from pyflink_compat.runtime import codec
    producer = per_worker_client("producer", spec.properties, _new_producer)
    tracker = batch_send.FailureTracker()
    sender = batch_send.BatchSender(producer, tracker) if batch_send.supports(producer) else None
    sent = 0
    for batch in batches:
        elements = codec.column(batch, codec.ELEMENT)
        timestamps = [ts if ts is not None and ts >= 0 else None
                      for ts in codec.column(batch, codec.EVENT_TS).to_pylist()]
        python_elements = None

        def python_values():
            nonlocal python_elements
            if python_elements is None:
                python_elements = codec.to_python(elements, element_type)
            return python_elements

        values = _serialize(spec.value_serializer, elements, python_values)
        keys = (_serialize(spec.key_serializer, elements, python_values)
                if spec.key_serializer is not None else None)
        if spec.topic_selector is None:
            _send(producer, sender, tracker, spec.topic, keys, values, timestamps)
        else:
            for topic, indexes in _group_by_topic(spec.topic_selector, python_values()).items():
                _send(producer, sender, tracker, topic, None if keys is None else [keys[i] for i in indexes],
                      [values[i] for i in indexes], [timestamps[i] for i in indexes])
        sent += len(values)
    timeout_s = int(spec.properties.get("delivery.timeout.ms", "120000")) / 1000.0
    try:
        producer.flush(timeout=timeout_s)
    except KafkaTimeoutError as e:
        raise RuntimeError("Records not acknowledged by Kafka (bootstrap servers '%s') within %.0f s: %s"
                           % (spec.bootstrap_servers, timeout_s, e)) from e
    if tracker.failures:
        raise RuntimeError("%d of %d records could not be written to Kafka (bootstrap servers '%s'): %s"
                           % (tracker.failures, sent, spec.bootstrap_servers, tracker.first_error))
    return sent


def _group_by_topic(selector, elements) -> dict:
    """Element indexes per selected topic, in element order."""
    groups = {}
    for i, element in enumerate(elements):
        groups.setdefault(selector.apply(element), []).append(i)
    return groups


def _send(producer, sender, tracker, topic, keys, values, timestamps):
    if sender is not None:
        sender.send(topic, keys, values, timestamps)
        return
    # Record by record through the public API (kafka-python without the internals batch_send uses).
    send = producer.send
    for i, value in enumerate(values):
        future = send(topic, value=value, key=None if keys is None else keys[i], timestamp_ms=timestamps[i])
        future.add_errback(tracker.record_failed)


def _serialize(schema, elements: pa.Array, python_values):
    """Bytes for each element: the schema's vectorised path when it has one, else per record."""
    vectorised = schema._serialize_arrow(elements)
    if vectorised is not None:
        return vectorised.to_pylist()
    return [schema.serialize(v) for v in python_values()]

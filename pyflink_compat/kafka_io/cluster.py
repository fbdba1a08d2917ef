"""Driver-side access to a Kafka cluster: connectivity, metadata and offsets lookups.

Every call has a deadline and fails with a message naming the bootstrap servers
(or the topic), so a misconfigured job fails in seconds instead of hanging.
"""
import logging
import re
import socket
import time
from typing import Dict, Iterable, List, Mapping, Optional, Tuple

from kafka import KafkaAdminClient, TopicPartition
from kafka.admin import OffsetSpec
from kafka.errors import KafkaError

from pyflink_compat.kafka_io import properties as kprops
from pyflink_compat.third_party_patches import forbid_topic_creation
from pyflink_compat.util.exceptions import PythonSideJavaError

log = logging.getLogger("pyflink_compat.kafka")

# How long driver-side lookups may take before the job fails (unreachable broker).
CONNECT_TIMEOUT_S = 10.0

TP = Tuple[str, int]


class KafkaConnectionError(PythonSideJavaError):
    """The bootstrap servers could not be reached or answered with an error."""


class KafkaTopicNotFoundError(PythonSideJavaError):
    """A subscribed topic does not exist."""


class ConnectionFailures(logging.Handler):
    """While open, keeps the last connection error kafka-python logs (it raises only "Unable to bootstrap",
    and logs why: an unsupported SASL mechanism, failed authentication, a TLS error ...)."""

    LOGGERS = ("kafka.net.manager", "kafka.net.connection")

    def __init__(self):
        super().__init__(logging.WARNING)
        self.last = None

    def emit(self, record):
        message = record.getMessage()
        if ("failed" in message or "Connection lost" in message) and "Unable to bootstrap" not in message:
            self.last = message

    def __enter__(self):
        for name in self.LOGGERS:
            logging.getLogger(name).addHandler(self)
        return self

    def __exit__(self, *exc):
        for name in self.LOGGERS:
            logging.getLogger(name).removeHandler(self)

    def explain(self, what: str, bootstrap_servers: str, error: BaseException) -> str:
        """The message for ``error`` raised while ``what`` started, with the cause kafka-python logged."""
        found = re.search(r"(?:failed|Connection lost): (.*)$", self.last or "")
        cause = found.group(1) if found else (self.last or "")
        cause = re.sub(r" \(backoff [0-9.]+ secs\)$", "", cause)
        if re.search(r"Sasl|SASL|Authentication|Authorization|Authenticat", cause):
            return ("%s: Kafka bootstrap servers '%s' refused the client's authentication (%s). Check "
                    "security.protocol, sasl.mechanism and the credentials in the job's Kafka properties."
                    % (what, bootstrap_servers, cause))
        if re.search(r"SSL|TLS|certificate", cause):
            return ("%s: the TLS handshake with Kafka bootstrap servers '%s' failed (%s). Check security.protocol "
                    "and the ssl.* properties." % (what, bootstrap_servers, cause))
        detail = str(error) if str(error).startswith(type(error).__name__) else "%s: %s" % (type(error).__name__, error)
        if cause:
            detail += "; last connection error: %s" % cause
        return "%s: Kafka bootstrap servers '%s' did not answer: %s" % (what, bootstrap_servers, detail)


def _split_servers(bootstrap_servers: str) -> List[Tuple[str, int]]:
    servers = []
    for item in bootstrap_servers.split(","):
        item = item.strip()
        if not item:
            continue
        item = re.sub(r"^[A-Za-z_]+://", "", item)      # PLAINTEXT://host:port
        host, _, port = item.rpartition(":")
        servers.append((host.strip("[]") or "localhost", int(port or 9092)))
    return servers


def check_reachable(bootstrap_servers: str, timeout_s: float = CONNECT_TIMEOUT_S) -> None:
    """Fail fast, naming the servers, when none of them accepts a TCP connection."""
    deadline = time.monotonic() + timeout_s
    last_error = None
    while True:
        for host, port in _split_servers(bootstrap_servers):
            try:
                with socket.create_connection((host, port), timeout=min(2.0, timeout_s)):
                    return
            except OSError as e:
                last_error = e
        if time.monotonic() >= deadline:
            raise KafkaConnectionError(
                "Could not connect to any Kafka bootstrap server of '%s' within %.0f s (%s)"
                % (bootstrap_servers, timeout_s, last_error))
        time.sleep(0.5)


class Cluster:
    """A short-lived admin connection used on the driver while a job is planned and monitored."""

    def __init__(self, properties: Mapping[str, str]):
        self.bootstrap_servers = properties["bootstrap.servers"]
        check_reachable(self.bootstrap_servers)
        config = kprops.admin_config(properties)
        config.setdefault("bootstrap_timeout_ms", int(CONNECT_TIMEOUT_S * 1000))
        config.setdefault("request_timeout_ms", 15000)
        with ConnectionFailures() as failures:
            try:
                self.admin = KafkaAdminClient(**config)
            except KafkaError as e:
                raise KafkaConnectionError(failures.explain("Connecting to Kafka", self.bootstrap_servers, e)) from e
        forbid_topic_creation(self.admin)    # looking at a vanished topic must not re-create it

    def close(self):
        self.admin.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _call(self, what, fn, *args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except KafkaError as e:
            raise KafkaConnectionError("%s failed on Kafka bootstrap servers '%s': %s"
                                       % (what, self.bootstrap_servers, e)) from e

    # -- metadata --------------------------------------------------------------------------

    def list_topics(self) -> List[str]:
        return self._call("Listing topics", self.admin.list_topics)

    def partitions_of(self, topics: Iterable[str]) -> Dict[str, List[int]]:
        """Partition ids of each topic; a missing topic raises KafkaTopicNotFoundError naming it."""
        topics = list(topics)
        if not topics:
            return {}
        described = self._call("Describing topics %s" % topics, self.admin.describe_topics, topics)
        result, missing = {}, []
        for entry in described:
            if entry.get("error_code", 0) != 0 or not entry.get("partitions"):
                missing.append(entry["name"])
            else:
                result[entry["name"]] = sorted(p["partition_index"] for p in entry["partitions"])
        if missing:
            raise KafkaTopicNotFoundError(
                "Kafka topic(s) %s do not exist on bootstrap servers '%s'"
                % (", ".join(sorted(missing)), self.bootstrap_servers))
        return result

    def topics_matching(self, pattern: str) -> List[str]:
        regex = re.compile(pattern)
        return sorted(t for t in self.list_topics() if regex.fullmatch(t))

    # -- offsets ---------------------------------------------------------------------------

    def _list_offsets(self, specs: Dict[TP, object]):
        if not specs:
            return {}
        request = {TopicPartition(t, p): spec for (t, p), spec in specs.items()}
        answer = self._call("Looking up offsets", self.admin.list_partition_offsets, request)
        return {(tp.topic, tp.partition): value for tp, value in answer.items()}

    def earliest_offsets(self, tps: Iterable[TP]) -> Dict[TP, int]:
        return {tp: v.offset for tp, v in self._list_offsets({tp: OffsetSpec.EARLIEST for tp in tps}).items()}

    def latest_offsets(self, tps: Iterable[TP]) -> Dict[TP, int]:
        return {tp: v.offset for tp, v in self._list_offsets({tp: OffsetSpec.LATEST for tp in tps}).items()}

    def offsets_for_timestamp(self, tps: Iterable[TP], timestamp_ms: int) -> Dict[TP, Optional[int]]:
        """First offset whose timestamp is >= timestamp_ms, or None where there is none."""
        found = {}
        for tp, v in self._list_offsets({tp: int(timestamp_ms) for tp in tps}).items():
            # Apache Kafka answers offset -1 when no record is that late; Tansu answers timestamp -1.
            found[tp] = None if (v.offset is None or v.offset < 0 or v.timestamp == -1) else v.offset
        return found

    def commit_offsets(self, group_id: str, offsets: Mapping[TP, int]) -> None:
        """Store ``offsets`` as the group's committed offsets (what monitoring tools show as its position)."""
        from kafka.structs import OffsetAndMetadata
        self._call("Committing offsets of group '%s'" % group_id, self.admin.alter_group_offsets, group_id,
                   {TopicPartition(t, p): OffsetAndMetadata(int(o), "", -1) for (t, p), o in offsets.items()})

    def committed_offsets(self, group_id: str, tps: Iterable[TP]) -> Dict[TP, Optional[int]]:
        tps = list(tps)
        answer = self._call("Fetching committed offsets of group '%s'" % group_id,
                            self.admin.list_group_offsets,
                            {group_id: [TopicPartition(t, p) for t, p in tps]})
        committed = {(tp.topic, tp.partition): meta.offset
                     for tp, meta in answer.get(group_id, {}).items()}
        return {tp: (committed.get(tp) if committed.get(tp, -1) >= 0 else None) for tp in tps}

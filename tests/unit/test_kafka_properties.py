"""Unit tests for pyflink_compat.kafka_io.properties (no broker needed)."""
import contextlib
import logging
import traceback
import uuid

import kafka
import kafka.admin
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pyflink_compat.kafka_io import properties as kp
from pyflink_compat.kafka_io.properties import (
    FLINK_ONLY_KEYS,
    admin_config,
    consumer_config,
    describe,
    parse_jaas_config,
    producer_config,
)

LOGGER = "pyflink_compat.kafka"
PLAIN = "org.apache.kafka.common.security.plain.PlainLoginModule"
SCRAM = "org.apache.kafka.common.security.scram.ScramLoginModule"


@pytest.fixture(autouse=True)
def _fresh_warnings():
    kp._reset_warnings()
    yield
    kp._reset_warnings()


def unique_key(prefix="my.unknown"):
    return "%s.%s" % (prefix, uuid.uuid4().hex[:12])


def jaas(module, username, password, quote='"'):
    return '%s required username=%s%s%s password=%s%s%s;' % (
        module, quote, username, quote, quote, password, quote)


def java_quote(text, quote='"'):
    """Quote ``text`` the way a Java JAAS string literal needs it."""
    out = []
    for ch in text:
        if ch in ("\\", quote):
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        else:
            out.append(ch)
    return quote + "".join(out) + quote


class _Capture(logging.Handler):
    def __init__(self):
        super().__init__(level=logging.DEBUG)
        self.lines = []

    def emit(self, record):
        self.lines.append(self.format(record))


@contextlib.contextmanager
def capture_all_logs():
    """Every record from the library's logger, at DEBUG and up (hypothesis-safe)."""
    handler = _Capture()
    logger = logging.getLogger(LOGGER)
    old_level = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    try:
        yield handler.lines
    finally:
        logger.removeHandler(handler)
        logger.setLevel(old_level)


def error_text(exc):
    """The text of ``exc`` and of every exception chained to it (what a traceback
    prints besides source lines, which here would quote the test's own literals)."""
    parts = []
    seen = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        parts.extend(traceback.format_exception_only(type(exc), exc))
        parts.append(repr(exc))
        parts.append(repr(exc.args))
        exc = exc.__cause__ or exc.__context__
    return "".join(parts)


# ----------------------------------------------------------------- generic conversion


def test_generic_int_bool_str_conversion():
    cfg = consumer_config({
        "bootstrap.servers": "broker:9092",
        "max.poll.records": "42",
        "request.timeout.ms": " 40000 ",
        "session.timeout.ms": "30000",
        "check.crcs": "FALSE",
        "exclude.internal.topics": "True",
        "client.id": " my-client ",
        "client.rack": "rack-1",
        "group.instance.id": "inst-1",
    })
    assert cfg == {
        "bootstrap_servers": ["broker:9092"],
        "max_poll_records": 42,
        "request_timeout_ms": 40000,
        "session_timeout_ms": 30000,
        "check_crcs": False,
        "exclude_internal_topics": True,
        "client_id": "my-client",
        "client_rack": "rack-1",
        "group_instance_id": "inst-1",
    }
    assert type(cfg["max_poll_records"]) is int
    assert type(cfg["check_crcs"]) is bool


def test_bootstrap_servers_split_into_list():
    cfg = producer_config({"bootstrap.servers": " a:1, b:2 ,,c:3 "})
    assert cfg["bootstrap_servers"] == ["a:1", "b:2", "c:3"]


def test_empty_bootstrap_servers_rejected():
    with pytest.raises(ValueError, match="bootstrap.servers"):
        consumer_config({"bootstrap.servers": " , "})


def test_kafka_python_native_names_are_accepted():
    cfg = consumer_config({"ssl.cafile": "/ca.pem", "ssl_certfile": "/c.pem",
                           "sasl-plain-username": "u", "fetch_max_wait_ms": "100"})
    assert cfg == {"ssl_cafile": "/ca.pem", "ssl_certfile": "/c.pem",
                   "sasl_plain_username": "u", "fetch_max_wait_ms": 100}


def test_float_default_accepts_ints_floats_and_infinity():
    assert producer_config({"retries": "2147483647"})["retries"] == 2147483647
    assert consumer_config({"consumer.timeout.ms": "1.5"})["consumer_timeout_ms"] == 1.5
    assert consumer_config({"consumer.timeout.ms": "inf"})["consumer_timeout_ms"] == float("inf")
    with pytest.raises(ValueError, match="consumer.timeout.ms"):
        consumer_config({"consumer.timeout.ms": "nan"})


def test_optional_string_empty_becomes_none():
    assert producer_config({"client.id": ""}) == {"client_id": None}
    assert producer_config({"transactional.id": "  "}) == {"transactional_id": None}


def test_typed_python_values_pass_through():
    cfg = consumer_config({"max.poll.records": 7, "enable.auto.commit": False})
    assert cfg == {"max_poll_records": 7, "enable_auto_commit": False}


@pytest.mark.parametrize("key,value", [
    ("max.poll.records", "ten"),
    ("max.poll.records", "1.5"),
    ("max.poll.records", "1_000"),
    ("check.crcs", "yes"),
    ("request.timeout.ms", ""),
])
def test_conversion_errors_name_key_and_value(key, value):
    with pytest.raises(ValueError) as info:
        consumer_config({key: value})
    assert repr(key) in str(info.value)
    assert repr(value) in str(info.value)
    # No chained exception (int() & co.) rides along.
    assert info.value.__cause__ is None
    assert info.value.__context__ is None


def test_none_value_rejected():
    with pytest.raises(ValueError, match="max.poll.records"):
        consumer_config({"max.poll.records": None})


def test_non_string_key_rejected():
    with pytest.raises(ValueError):
        consumer_config({1: "x"})


def test_object_valued_settings_are_not_settable_from_strings():
    key = "metric.reporters"
    cfg = consumer_config({key: "com.example.Reporter", "kafka_client": "x"})
    assert cfg == {}


def test_every_kwarg_is_known_to_the_client_class():
    props = {
        "bootstrap.servers": "b:1", "group.id": "g", "client.id": "c", "acks": "all",
        "linger.ms": "5", "batch.size": "1", "max.poll.records": "1",
        "isolation.level": "read_committed", "security.protocol": "SSL",
        "ssl.truststore.location": "/ca.pem", "request.timeout.ms": "40000",
        "enable.idempotence": "true", "compression.type": "gzip",
    }
    classes = {consumer_config: kafka.KafkaConsumer, producer_config: kafka.KafkaProducer,
               admin_config: kafka.admin.KafkaAdminClient}
    for fn, cls in classes.items():
        assert set(fn(props)) <= set(cls.DEFAULT_CONFIG)


def test_consumer_kwargs_construct_a_real_consumer():
    cfg = consumer_config({
        "bootstrap.servers": "localhost:1", "group.id": "g", "enable.auto.commit": "false",
        "auto.offset.reset": "earliest", "max.poll.records": "10",
        "isolation.level": "read_committed", "api.version": "2.8.0",
    })
    consumer = kafka.KafkaConsumer(**cfg)
    consumer.close()


# ------------------------------------------------------------------ explicit mappings


@pytest.mark.parametrize("value,expected", [
    ("none", None), ("NONE", None), ("gzip", "gzip"), ("Snappy", "snappy"),
    ("lz4", "lz4"), ("zstd", "zstd"),
])
def test_compression_type(value, expected):
    assert producer_config({"compression.type": value}) == {"compression_type": expected}


def test_compression_type_invalid():
    with pytest.raises(ValueError, match="compression.type.*'brotli'"):
        producer_config({"compression.type": "brotli"})


@pytest.mark.parametrize("value,expected", [
    ("all", "all"), ("ALL", "all"), ("-1", "all"), ("0", 0), ("1", 1), (1, 1), (-1, "all"),
])
def test_acks(value, expected):
    assert producer_config({"acks": value}) == {"acks": expected}


@pytest.mark.parametrize("value", ["2", "some", ""])
def test_acks_invalid(value):
    with pytest.raises(ValueError, match="'acks'"):
        producer_config({"acks": value})


def test_producer_mappings():
    cfg = producer_config({
        "enable.idempotence": "false",
        "max.in.flight.requests.per.connection": "1",
        "transactional.id": "tx-1",
        "linger.ms": "20",
        "batch.size": "65536",
        "delivery.timeout.ms": "130000",
        "max.request.size": "2097152",
        "max.block.ms": "1000",
        "client.id": "p",
    })
    assert cfg == {
        "enable_idempotence": False,
        "max_in_flight_requests_per_connection": 1,
        "transactional_id": "tx-1",
        "linger_ms": 20,
        "batch_size": 65536,
        "delivery_timeout_ms": 130000,
        "max_request_size": 2097152,
        "max_block_ms": 1000,
        "client_id": "p",
    }


def test_consumer_mappings():
    cfg = consumer_config({
        "group.id": "grp",
        "auto.offset.reset": "EARLIEST",
        "enable.auto.commit": "false",
        "auto.commit.interval.ms": "1000",
        "isolation.level": "READ_COMMITTED",
        "fetch.min.bytes": "10",
        "max.partition.fetch.bytes": "100",
        "heartbeat.interval.ms": "1000",
    })
    assert cfg == {
        "group_id": "grp",
        "auto_offset_reset": "earliest",
        "enable_auto_commit": False,
        "auto_commit_interval_ms": 1000,
        "isolation_level": "read_committed",
        "fetch_min_bytes": 10,
        "max_partition_fetch_bytes": 100,
        "heartbeat_interval_ms": 1000,
    }


def test_group_id_can_be_dropped_by_caller():
    assert consumer_config({"group.id": "g"}, ignore_keys=["group.id"]) == {}


@pytest.mark.parametrize("key,value", [
    ("auto.offset.reset", "smallest"),
    ("auto.offset.reset", "by_duration:P1D"),
    ("isolation.level", "serializable"),
    ("security.protocol", "TLS"),
    ("sasl.mechanism", "KERBEROS"),
    ("client.dns.lookup", "default"),
])
def test_enumerated_values_validated(key, value):
    with pytest.raises(ValueError, match=repr(key)):
        consumer_config({key: value})


def test_security_protocol_and_mechanism_normalised():
    cfg = consumer_config({"security.protocol": "sasl_plaintext", "sasl.mechanism": "scram-sha-256"})
    assert cfg == {"security_protocol": "SASL_PLAINTEXT", "sasl_mechanism": "SCRAM-SHA-256"}


def test_auto_offset_reset_none_allowed():
    assert consumer_config({"auto.offset.reset": "none"}) == {"auto_offset_reset": "none"}


def test_buffer_bytes_minus_one_means_os_default():
    cfg = consumer_config({"receive.buffer.bytes": "-1", "send.buffer.bytes": "131072"})
    assert cfg == {"receive_buffer_bytes": None, "send_buffer_bytes": 131072}


def test_api_version_tuple():
    assert admin_config({"api.version": "2.8.0"}) == {"api_version": (2, 8, 0)}
    with pytest.raises(ValueError, match="api.version"):
        admin_config({"api.version": "v2"})


def test_partition_assignment_strategy_java_names():
    from kafka.coordinator.assignors.range import RangePartitionAssignor
    from kafka.coordinator.assignors.roundrobin import RoundRobinPartitionAssignor

    cfg = consumer_config({"partition.assignment.strategy":
                           "org.apache.kafka.clients.consumer.RangeAssignor, RoundRobinAssignor"})
    assert cfg["partition_assignment_strategy"] == (RangePartitionAssignor,
                                                     RoundRobinPartitionAssignor)
    with pytest.raises(ValueError, match="partition.assignment.strategy"):
        consumer_config({"partition.assignment.strategy": "com.example.MyAssignor"})


@pytest.mark.parametrize("value,expected", [("https", True), ("HTTPS", True), ("", False)])
def test_endpoint_identification(value, expected):
    cfg = consumer_config({"ssl.endpoint.identification.algorithm": value})
    assert cfg == {"ssl_check_hostname": expected}


def test_endpoint_identification_invalid():
    with pytest.raises(ValueError, match="ssl.endpoint.identification.algorithm"):
        consumer_config({"ssl.endpoint.identification.algorithm": "ldap"})


@pytest.mark.parametrize("path", ["/etc/ca.pem", "/etc/CA.CRT", "/etc/ca.cer"])
def test_truststore_pem_by_extension(path):
    cfg = consumer_config({"ssl.truststore.location": path, "ssl.truststore.password": "x"})
    assert cfg == {"ssl_cafile": path}


def test_truststore_pem_by_type():
    cfg = producer_config({"ssl.truststore.location": "/etc/ca", "ssl.truststore.type": "pem"})
    assert cfg == {"ssl_cafile": "/etc/ca"}


@pytest.mark.parametrize("props", [
    {"ssl.truststore.location": "/etc/kafka.truststore.jks"},
    {"ssl.truststore.location": "/etc/ts.p12"},
    {"ssl.truststore.location": "/etc/ca.pem", "ssl.truststore.type": "JKS"},
    {"ssl.truststore.location": "/etc/ca", "ssl.truststore.type": "PKCS12"},
])
def test_truststore_jks_or_pkcs12_rejected_clearly(props):
    with pytest.raises(ValueError) as info:
        consumer_config(props)
    text = str(info.value)
    assert "'ssl.truststore.location'" in text
    assert "JKS" in text and "PEM" in text


def test_truststore_without_extension_or_type_asks_for_type():
    with pytest.raises(ValueError, match="ssl.truststore.type=PEM"):
        consumer_config({"ssl.truststore.location": "/etc/ca"})


def test_truststore_type_alone_is_harmless():
    assert consumer_config({"ssl.truststore.type": "JKS"}) == {}


def test_keystore_pem_and_key_password():
    cfg = producer_config({
        "ssl.keystore.location": "/etc/client.pem",
        "ssl.keystore.type": "PEM",
        "ssl.key.password": "kp",
        "ssl.keystore.password": "sp",
    })
    assert cfg == {"ssl_certfile": "/etc/client.pem", "ssl_password": "kp"}


def test_keystore_password_used_when_no_key_password():
    cfg = consumer_config({"ssl.keystore.location": "/etc/client.pem",
                           "ssl.keystore.password": "sp"})
    assert cfg == {"ssl_certfile": "/etc/client.pem", "ssl_password": "sp"}


def test_keystore_jks_rejected():
    with pytest.raises(ValueError, match="ssl.keystore.location.*JKS"):
        consumer_config({"ssl.keystore.location": "/etc/client.keystore.jks"})


@pytest.mark.parametrize("key", ["ssl.keystore.key", "ssl.keystore.certificate.chain",
                                 "ssl.truststore.certificates"])
def test_inline_pem_rejected_without_value(key):
    material = "-----BEGIN PRIVATE KEY-----MIIEsecretmaterial-----END PRIVATE KEY-----"
    with pytest.raises(ValueError) as info:
        consumer_config({key: material})
    assert repr(key) in str(info.value)
    assert "MIIEsecretmaterial" not in error_text(info.value)


def test_conflicting_sources_for_one_kwarg():
    with pytest.raises(ValueError) as info:
        consumer_config({"ssl.truststore.location": "/a.pem", "ssl.cafile": "/b.pem"})
    assert "ssl.truststore.location" in str(info.value) and "ssl.cafile" in str(info.value)
    # Same value twice is fine.
    assert consumer_config({"ssl.truststore.location": "/a.pem", "ssl.cafile": "/a.pem"}) == {
        "ssl_cafile": "/a.pem"}


def test_conflict_error_never_shows_secret_values():
    with pytest.raises(ValueError) as info:
        consumer_config({"sasl.jaas.config": jaas(PLAIN, "u", "pw-one"),
                         "sasl.plain.password": "pw-two"})
    assert "pw-one" not in error_text(info.value)
    assert "pw-two" not in error_text(info.value)


# ----------------------------------------------------------------------------- JAAS


@pytest.mark.parametrize("module", [PLAIN, SCRAM])
@pytest.mark.parametrize("quote", ['"', "'"])
def test_jaas_plain_and_scram(module, quote):
    cfg = consumer_config({"sasl.jaas.config": jaas(module, "alice", "s3cr3t", quote)})
    assert cfg == {"sasl_plain_username": "alice", "sasl_plain_password": "s3cr3t"}


def test_jaas_mixed_quotes_escapes_and_extra_whitespace():
    text = ('  %s   REQUIRED\n   username="al\\"ice"\n password=\'it\\\'s \\\\ "x"\'   '
            'tokenauth=true ;  ' % SCRAM)
    cfg = producer_config({"sasl.jaas.config": text})
    assert cfg["sasl_plain_username"] == 'al"ice'
    assert cfg["sasl_plain_password"] == 'it\'s \\ "x"'


def test_jaas_bare_word_values_comments_and_missing_semicolon():
    text = "/* creds */ %s required // login\n username=bob password=hunter2" % PLAIN
    cfg = consumer_config({"sasl.jaas.config": text})
    assert cfg == {"sasl_plain_username": "bob", "sasl_plain_password": "hunter2"}


def test_jaas_java_escape_sequences():
    entry = parse_jaas_config('%s required username="a\\tb" password="\\101\\n";' % PLAIN)
    assert entry.options == {"username": "a\tb", "password": "A\n"}


def test_jaas_shaded_module_name():
    shaded = "org.apache.flink.kafka.shaded." + PLAIN
    cfg = consumer_config({"sasl.jaas.config": jaas(shaded, "u", "p")})
    assert cfg == {"sasl_plain_username": "u", "sasl_plain_password": "p"}


@pytest.mark.parametrize("module", ["PlainLoginModule", "com.example.PlainLoginModule",
                                    "evil.org.apache.kafka.common.security.plain.PlainLoginModuleX"])
def test_jaas_module_must_be_kafkas_class(module):
    with pytest.raises(ValueError, match="unsupported login module"):
        consumer_config({"sasl.jaas.config": jaas(module, "u", "p")})


def test_parse_jaas_config_fields_and_repr_hides_options():
    entry = parse_jaas_config(jaas(SCRAM, "u", "topsecret"))
    assert entry.login_module == SCRAM
    assert entry.module_name == "ScramLoginModule"
    assert entry.control_flag == "required"
    assert "topsecret" not in repr(entry)


def test_jaas_krb5_service_name_and_warning_without_values():
    text = ('com.sun.security.auth.module.Krb5LoginModule required useKeyTab=true '
            'keyTab="/etc/secret.keytab" principal="svc@REALM" serviceName="kafka-svc";')
    with capture_all_logs() as lines:
        cfg = consumer_config({"sasl.jaas.config": text})
    assert cfg == {"sasl_kerberos_service_name": "kafka-svc"}
    joined = "\n".join(lines)
    assert "keyTab" in joined
    assert "/etc/secret.keytab" not in joined and "svc@REALM" not in joined


@pytest.mark.parametrize("text,fragment", [
    ("", "empty"),
    ("%s" % PLAIN, "control flag"),
    ("%s mandatory username='u' password='p';" % PLAIN, "control flag"),
    ("%s required username 'u';" % PLAIN, "'='"),
    ("%s required username=;" % PLAIN, "option value"),
    ("%s required username='u' password='p" % PLAIN, "unterminated"),
    ("%s required username='u' password='p';%s required;" % (PLAIN, PLAIN), "exactly one"),
    ("%s required username='u';" % PLAIN, "username and a password"),
    ("org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required;",
     "OAuthBearerLoginModule"),
    ("com.example.MyLoginModule required password='p';", "unsupported login module"),
])
def test_jaas_errors(text, fragment):
    with pytest.raises(ValueError) as info:
        consumer_config({"sasl.jaas.config": text})
    assert "sasl.jaas.config" in str(info.value)
    assert fragment in str(info.value)
    assert info.value.__context__ is None


def test_unknown_login_module_name_not_echoed():
    # A malformed value might put the secret where the module name goes.
    with pytest.raises(ValueError) as info:
        consumer_config({"sasl.jaas.config": "Hunter2Password required;"})
    assert "Hunter2Password" not in error_text(info.value)


@settings(max_examples=200, deadline=None)
@given(username=st.text(min_size=1), password=st.text(), quote=st.sampled_from(['"', "'"]))
def test_jaas_quoting_round_trips(username, password, quote):
    text = "%s required username=%s password=%s;" % (
        PLAIN, java_quote(username, quote), java_quote(password, quote))
    cfg = consumer_config({"sasl.jaas.config": text})
    assert cfg == {"sasl_plain_username": username, "sasl_plain_password": password}


# ------------------------------------------------------------------ dropped / unknown


def test_flink_only_keys_dropped_silently(caplog):
    caplog.set_level(logging.DEBUG, logger=LOGGER)
    props = {key: "x" for key in FLINK_ONLY_KEYS}
    props.update({"flink.partition-discovery.interval-millis": "1",
                  "flink.disable-metrics": "true"})
    for fn in (consumer_config, producer_config, admin_config):
        assert fn(props) == {}
    assert caplog.records == []


def test_flink_only_keys_cover_the_documented_set():
    for key in ("partition.discovery.interval.ms", "commit.offsets.on.checkpoint",
                "client.id.prefix", "register.consumer.metrics", "key.deserializer",
                "value.deserializer", "key.serializer", "value.serializer",
                "transaction.timeout.ms"):
        assert key in FLINK_ONLY_KEYS


def test_extra_ignored_keys(caplog):
    caplog.set_level(logging.DEBUG, logger=LOGGER)
    key = unique_key()
    assert consumer_config({key: "v", "max.poll.records": "3"}, ignore_keys={key}) == {
        "max_poll_records": 3}
    assert producer_config({key: "v"}, ignore_keys=key) == {}  # a single string works too
    assert caplog.records == []


def test_ignored_keys_are_invisible_to_sibling_logic():
    cfg = consumer_config({"ssl.keystore.location": "/c.pem", "ssl.key.password": "kp",
                           "ssl.keystore.password": "sp"}, ignore_keys=["ssl.key.password"])
    assert cfg["ssl_password"] == "sp"


def test_unknown_key_warned_once_without_value(caplog):
    caplog.set_level(logging.DEBUG, logger=LOGGER)
    key = unique_key()
    value = "the-value-" + uuid.uuid4().hex
    for _ in range(3):
        assert consumer_config({key: value}) == {}
        assert producer_config({key: value}) == {}
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1
    assert warnings[0].name == LOGGER
    assert key in warnings[0].getMessage()
    assert value not in caplog.text


def test_each_unknown_key_warned_separately(caplog):
    caplog.set_level(logging.WARNING, logger=LOGGER)
    k1, k2 = unique_key(), unique_key()
    consumer_config({k1: "a", k2: "b"})
    consumer_config({k1: "a", k2: "b"})
    messages = [r.getMessage() for r in caplog.records]
    assert len(messages) == 2
    assert any(k1 in m for m in messages) and any(k2 in m for m in messages)


def test_key_for_other_client_warns(caplog):
    caplog.set_level(logging.WARNING, logger=LOGGER)
    assert consumer_config({"acks": "all", "linger.ms": "5"}) == {}
    assert producer_config({"max.poll.records": "5", "isolation.level": "read_committed"}) == {}
    text = caplog.text
    for key in ("acks", "linger.ms", "max.poll.records", "isolation.level"):
        assert repr(key) in text


def test_admin_silent_for_consumer_and_producer_keys(caplog):
    caplog.set_level(logging.WARNING, logger=LOGGER)
    props = {"bootstrap.servers": "b:1", "group.id": "g", "max.poll.records": "5",
             "acks": "all", "enable.auto.commit": "false", "request.timeout.ms": "1000",
             "security.protocol": "SSL", "ssl.truststore.location": "/ca.pem"}
    assert admin_config(props) == {"bootstrap_servers": ["b:1"], "request_timeout_ms": 1000,
                                   "security_protocol": "SSL", "ssl_cafile": "/ca.pem"}
    assert caplog.records == []
    key = unique_key()
    admin_config({key: "x"})
    assert len(caplog.records) == 1 and key in caplog.records[0].getMessage()


def test_admin_still_validates_known_keys():
    with pytest.raises(ValueError, match="request.timeout.ms"):
        admin_config({"request.timeout.ms": "soon"})


# --------------------------------------------------------------------- secrets / describe


def test_describe_masks_secrets():
    cfg = consumer_config({
        "bootstrap.servers": "b:1",
        "sasl.jaas.config": jaas(PLAIN, "alice", "pl41n-pw"),
        "ssl.key.password": "k3y-pw",
    })
    cfg["sasl_oauth_token_provider"] = object()
    cfg["my_secret_thing"] = "s3cret-thing"
    text = describe(cfg)
    for secret in ("pl41n-pw", "k3y-pw", "s3cret-thing", "object at"):
        assert secret not in text
    assert "sasl_plain_password=******" in text
    assert "ssl_password=******" in text
    assert "sasl_oauth_token_provider=******" in text
    assert "sasl_plain_username='alice'" in text
    assert "bootstrap_servers=['b:1']" in text


def test_describe_renders_classes_and_none():
    cfg = consumer_config({"partition.assignment.strategy": "RangeAssignor"})
    cfg["ssl_password"] = None
    assert describe(cfg) == "partition_assignment_strategy=(RangePartitionAssignor), ssl_password=None"


@pytest.mark.parametrize("key", ["sasl.plain.password", "ssl.password", "ssl.key.password",
                                 "ssl.keystore.password"])
def test_secret_conversion_error_omits_value(key):
    # Values that cannot convert: a password given as bytes.
    with pytest.raises(ValueError) as info:
        consumer_config({key: b"byte-secret"})
    assert repr(key) in str(info.value)
    assert "byte-secret" not in error_text(info.value)


_SECRET = st.text(min_size=1).map(lambda t: "SECRET~" + t)


@settings(max_examples=150, deadline=None)
@given(secret=_SECRET, quote=st.sampled_from(['"', "'"]))
def test_random_secrets_never_logged_or_raised(secret, quote):
    unknown_secret_key = "custom.secret.%s" % uuid.uuid4().hex[:8]
    outputs = []
    with capture_all_logs() as lines:
        good = {
            "bootstrap.servers": "b:1",
            "sasl.jaas.config": "%s required username=\"u\" password=%s;" % (
                SCRAM, java_quote(secret, quote)),
            "ssl.key.password": secret,
            unknown_secret_key: secret,
            "com.example.password": secret,
            "krb": "x",
        }
        for fn in (consumer_config, producer_config, admin_config):
            cfg = fn(good)
            assert cfg["sasl_plain_password"] == secret
            outputs.append(describe(cfg))
            outputs.append(repr(parse_jaas_config(good["sasl.jaas.config"])))
        bad_inputs = [
            {"sasl.jaas.config": secret},                                  # garbage JAAS
            {"sasl.jaas.config": "%s required;" % secret},                  # secret as module
            {"sasl.jaas.config": "%s required password=%s" % (PLAIN, java_quote(secret)[:-1])},
            {"sasl.jaas.config": jaas(PLAIN, "u", "p"), "sasl.plain.password": secret},
            {"ssl.keystore.key": secret},
            {"sasl.plain.password": secret.encode("utf-8", "surrogatepass")},
            {"ssl.key.password": secret, "ssl.password": secret + "x"},
        ]
        for props in bad_inputs:
            for fn in (consumer_config, producer_config, admin_config):
                with pytest.raises(ValueError) as info:
                    fn(props)
                outputs.append(error_text(info.value))
    outputs.extend(lines)
    for text in outputs:
        assert "SECRET~" not in text


@settings(max_examples=100, deadline=None)
@given(st.integers(min_value=-(2 ** 63), max_value=2 ** 63 - 1))
def test_int_round_trip(number):
    assert consumer_config({"max.poll.records": str(number)}) == {"max_poll_records": number}


def test_a_stalled_read_of_a_vanished_partition_fails_naming_it():
    from pyflink_compat.kafka_io.cluster import KafkaTopicNotFoundError
    from pyflink_compat.kafka_io.source import KafkaSplit, _fail_if_partition_vanished

    class Metadata:                       # what a consumer's fresh metadata says (a unit check of the decision)
        def __init__(self, topics):
            self.known = topics

        def topics(self):
            return set(self.known)

        def partitions_for_topic(self, topic):
            return self.known.get(topic)

    task = KafkaSplit.__new__(KafkaSplit)
    task.topic, task.partition = "orders", 1
    properties = {"bootstrap.servers": "broker:9092"}
    _fail_if_partition_vanished(Metadata({"orders": {0, 1}}), task, 6000, properties)     # there: the stall stands
    for gone in ({}, {"orders": {0}}):
        with pytest.raises(KafkaTopicNotFoundError, match="Kafka topic 'orders' partition 1 \\(the source had read "
                                                          "up to offset 6000\\) no longer exists on bootstrap "
                                                          "servers 'broker:9092'"):
            _fail_if_partition_vanished(Metadata(gone), task, 6000, properties)


def test_a_read_whose_log_now_ends_before_its_position_fails_under_reset_none_and_ends_otherwise():
    from kafka import TopicPartition
    from pyflink_compat.kafka_io.source import KafkaOffsetOutOfRangeError, KafkaSplit, _log_ends_before

    class Broker:                         # fresh metadata and end offsets of a re-created topic
        def __init__(self, partitions, end):
            self.partitions, self.end = partitions, end

        def topics(self):
            return {"orders"} if self.partitions else set()

        def partitions_for_topic(self, topic):
            return self.partitions

        def end_offsets(self, partitions):
            return {tp: self.end for tp in partitions}

    task = KafkaSplit.__new__(KafkaSplit)
    task.topic, task.partition, task.start, task.end = "orders", 0, 5000, 7000
    tp = TopicPartition("orders", 0)
    none = {"bootstrap.servers": "broker:9092", "auto.offset.reset": "none"}
    assert not _log_ends_before(Broker({0}, 9000), tp, task, 6000, none)          # the records are there
    assert not _log_ends_before(Broker(set(), 0), tp, task, 6000, none)           # gone: the stall check decides
    with pytest.raises(KafkaOffsetOutOfRangeError, match="Kafka topic 'orders' partition 0 no longer holds offset "
                                                         "6000 on bootstrap servers 'broker:9092' \\(its log ends "
                                                         "at offset 100\\).*auto.offset.reset is none"):
        _log_ends_before(Broker({0}, 100), tp, task, 6000, none)
    assert _log_ends_before(Broker({0}, 100), tp, task, 6000, {"bootstrap.servers": "b", "auto.offset.reset": "latest"})

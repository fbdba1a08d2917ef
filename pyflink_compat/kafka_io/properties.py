"""Java-style Kafka client properties -> keyword arguments for kafka-python 3.x.

PyFlink users configure Kafka with the Java client's property names
(``bootstrap.servers``, ``sasl.jaas.config``, ``max.poll.records`` ...). This module
turns such a mapping into kwargs for ``kafka.KafkaConsumer``, ``kafka.KafkaProducer``
and ``kafka.admin.KafkaAdminClient``.

Rules, in order, for each property:

1. Keys that only mean something to Flink or to pyflink-compat (``FLINK_ONLY_KEYS``,
   any ``flink.*`` key, and whatever the caller passes as ``ignore_keys``) are
   dropped silently.
2. A handful of Java keys whose kafka-python name differs are translated
   explicitly (``sasl.jaas.config``, ``ssl.truststore.location``,
   ``ssl.keystore.location``, ``ssl.key.password``,
   ``ssl.endpoint.identification.algorithm`` ...).
3. Otherwise the key with ``.``/``-`` replaced by ``_`` is used if the client
   class's ``DEFAULT_CONFIG`` has that name; the string value is converted to the
   type of kafka-python's default (a few names get a dedicated converter:
   ``acks``, ``compression_type``, ``bootstrap_servers`` ...). Because the rule
   is generic, kafka-python's own names (``ssl.cafile``, ``sasl_plain_username``)
   work too.
4. Any other key is ignored with a warning, logged once per key per process on
   the ``pyflink_compat.kafka`` logger. ``admin_config`` stays silent about keys
   the consumer or the producer understands, since admin clients are usually
   configured from a source's or sink's properties.

Values are never logged. Errors name the key, and show the offending value only
when the key is not secret (see ``spec.is_secret_key``). Errors are raised
outside ``except`` blocks so no chained exception can carry a secret along.
"""
import logging
import math
import re
import threading
from typing import Callable, Dict, Iterable, List, Mapping, Optional, Tuple

import attrs

from pyflink_compat.kafka_io import redaction
from pyflink_compat.kafka_io.spec import is_secret_key

log = logging.getLogger("pyflink_compat.kafka")

__all__ = [
    "FLINK_ONLY_KEYS",
    "FLINK_ONLY_PREFIXES",
    "JaasConfig",
    "admin_config",
    "consumer_config",
    "describe",
    "parse_jaas_config",
    "producer_config",
]

#: Properties that Flink's KafkaSource/KafkaSink (or pyflink-compat) consume
#: themselves; they are never handed to kafka-python.
#: ``transaction.timeout.ms`` is a real producer setting, but the sink handles it
#: separately (Flink's default of 1 h exceeds most brokers' maximum).
FLINK_ONLY_KEYS = frozenset({
    # KafkaSourceOptions
    "partition.discovery.interval.ms",
    "commit.offsets.on.checkpoint",
    "client.id.prefix",
    "register.consumer.metrics",
    # KafkaSink / KafkaSinkBuilder
    "transaction.timeout.ms",
    # Flink always sets byte-array (de)serializers; ours are Python objects.
    "key.deserializer",
    "value.deserializer",
    "key.serializer",
    "value.serializer",
})

#: Key prefixes dropped silently (legacy FlinkKafkaConsumer settings and the like).
FLINK_ONLY_PREFIXES = ("flink.",)

CONSUMER = "consumer"
PRODUCER = "producer"
ADMIN = "admin"

_MASK = "******"

# kafka-python settings that take Python objects (classes, callables, contexts,
# socket option tuples): a property string cannot express them.
_NOT_FROM_STRING = frozenset({
    "kafka_client",
    "selector",
    "partitioner",
    "default_offset_commit_callback",
    "ssl_context",
    "sasl_oauth_token_provider",
    "socket_options",
    "metric_reporters",
    "key_deserializer",
    "value_deserializer",
    "key_serializer",
    "value_serializer",
})

# kwargs that hold secrets whatever is_secret_key says about their name.
_SECRET_KWARGS = frozenset({"sasl_plain_password", "ssl_password", "sasl_oauth_token_provider"})

# Java properties that hold secrets but whose names is_secret_key does not catch.
_EXTRA_SECRET_KEYS = frozenset({"ssl.keystore.key"})

_PEM_SUFFIXES = (".pem", ".crt", ".cer")

_VALID_SECURITY_PROTOCOLS = ("PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL")
_VALID_OFFSET_RESETS = ("earliest", "latest", "none")
_VALID_ISOLATION_LEVELS = ("read_uncommitted", "read_committed")
_VALID_COMPRESSION = ("gzip", "snappy", "lz4", "zstd")
_VALID_DNS_LOOKUPS = ("use_all_dns_ips", "resolve_canonical_bootstrap_servers_only")

_INT_RE = re.compile(r"^[+-]?[0-9]+$")
_DIGITS_RE = re.compile(r"^[0-9]+$")


def _client_defaults() -> Dict[str, Mapping[str, object]]:
    import kafka
    import kafka.admin

    return {
        CONSUMER: kafka.KafkaConsumer.DEFAULT_CONFIG,
        PRODUCER: kafka.KafkaProducer.DEFAULT_CONFIG,
        ADMIN: kafka.admin.KafkaAdminClient.DEFAULT_CONFIG,
    }


_DEFAULTS: Optional[Dict[str, Mapping[str, object]]] = None


def _defaults(kind: str) -> Mapping[str, object]:
    global _DEFAULTS
    if _DEFAULTS is None:
        _DEFAULTS = _client_defaults()
    return _DEFAULTS[kind]


# --------------------------------------------------------------------------- errors


class _Invalid(Exception):
    """Internal: a value did not convert. Carries a description of what was
    expected, never the value itself."""

    def __init__(self, expected: str, show_value: bool = True):
        super().__init__(expected)
        self.expected = expected
        self.show_value = show_value


def _is_secret_property(key: str) -> bool:
    return (is_secret_key(key) or key in _EXTRA_SECRET_KEYS
            or _kwarg_name(key) in _SECRET_KWARGS)


def _error(key: str, value: object, expected: str, show_value: bool = True) -> ValueError:
    text = "Invalid value for Kafka property %r: expected %s" % (key, expected)
    if show_value and not _is_secret_property(key):
        shown = repr(value)
        if len(shown) > 200:
            shown = shown[:200] + "..."
        text += ", got %s" % shown
    return ValueError(text)


# ------------------------------------------------------------------ unknown-key warnings

_warned_keys = set()
_warned_lock = threading.Lock()


def _warn_once(key: str, message: str, *args) -> None:
    with _warned_lock:
        if key in _warned_keys:
            return
        _warned_keys.add(key)
    log.warning(message, *args)


def _reset_warnings() -> None:
    """Forget which keys were warned about (for tests)."""
    with _warned_lock:
        _warned_keys.clear()


# ----------------------------------------------------------------------- converters


def _as_text(value: object) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, bytes):
        raise _Invalid("a string")
    return str(value)


def _to_bool(value: object) -> bool:
    if isinstance(value, bool):
        return value
    text = _as_text(value).strip().lower()
    if text == "true":
        return True
    if text == "false":
        return False
    raise _Invalid("'true' or 'false'")


def _to_int(value: object) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    text = _as_text(value).strip()
    if not _INT_RE.match(text):
        raise _Invalid("an integer")
    return int(text)


def _to_number(value: object):
    """For settings whose kafka-python default is a float (often ``inf``)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        result = value
    else:
        text = _as_text(value).strip()
        if _INT_RE.match(text):
            return int(text)
        try:
            result = float(text)
        except ValueError:
            result = None
        if result is None:
            raise _Invalid("a number")
    if isinstance(result, float) and math.isnan(result):
        raise _Invalid("a number")
    return result


def _to_str(value: object) -> str:
    return _as_text(value).strip()


def _to_optional_str(value: object) -> Optional[str]:
    text = _to_str(value)
    return text or None


def _to_secret_str(value: object) -> str:
    # Secrets are taken verbatim (no trimming): a space may be part of a password.
    return _as_text(value)


def _to_bootstrap_servers(value: object) -> List[str]:
    if isinstance(value, (list, tuple)):
        parts = [_to_str(v) for v in value]
    else:
        parts = _to_str(value).split(",")
    servers = [p.strip() for p in parts if p.strip()]
    if not servers:
        raise _Invalid("a comma-separated list of host:port")
    return servers


def _to_acks(value: object):
    if isinstance(value, int) and not isinstance(value, bool):
        text = str(value)
    else:
        text = _to_str(value).lower()
    if text in ("all", "-1"):
        return "all"
    if text in ("0", "1"):
        return int(text)
    raise _Invalid("one of 'all', '-1', '0', '1'")


def _to_compression(value: object) -> Optional[str]:
    text = _to_str(value).lower()
    if text in ("none", ""):
        return None
    if text in _VALID_COMPRESSION:
        return text
    raise _Invalid("one of 'none', %s" % ", ".join(repr(c) for c in _VALID_COMPRESSION))


def _choice(valid: Tuple[str, ...], normalize: Callable[[str], str]):
    def convert(value: object) -> str:
        text = normalize(_to_str(value))
        if text not in valid:
            raise _Invalid("one of %s" % ", ".join(repr(v) for v in valid))
        return text
    return convert


def _to_sasl_mechanism(value: object) -> str:
    text = _to_str(value).upper()
    try:
        from kafka.net.sasl import SASL_MECHANISMS
        valid = tuple(sorted(SASL_MECHANISMS))
    except ImportError:  # layout of another kafka-python release: let it validate
        return text
    if text not in valid:
        raise _Invalid("one of %s (supported by kafka-python)" % ", ".join(repr(v) for v in valid))
    return text


def _to_buffer_bytes(value: object) -> Optional[int]:
    text = _to_str(value) if not isinstance(value, int) else value
    if text == "":
        return None
    number = _to_int(text)
    # Java: -1 means "use the OS default", which is kafka-python's None.
    return None if number == -1 else number


def _to_api_version(value: object) -> Optional[Tuple[int, ...]]:
    if isinstance(value, tuple):
        return value
    text = _to_str(value)
    if not text:
        return None
    parts = text.split(".")
    if not all(_DIGITS_RE.match(p) for p in parts) or len(parts) > 3:
        raise _Invalid("a broker version such as '2.8.0'")
    return tuple(int(p) for p in parts)


_JAVA_ASSIGNORS = {
    "RangeAssignor": "RangePartitionAssignor",
    "RoundRobinAssignor": "RoundRobinPartitionAssignor",
    "StickyAssignor": "StickyPartitionAssignor",
    "CooperativeStickyAssignor": "CooperativeStickyAssignor",
}


def _to_assignors(value: object) -> tuple:
    from kafka.coordinator.assignors.cooperative_sticky import CooperativeStickyAssignor
    from kafka.coordinator.assignors.range import RangePartitionAssignor
    from kafka.coordinator.assignors.roundrobin import RoundRobinPartitionAssignor
    from kafka.coordinator.assignors.sticky.sticky_assignor import StickyPartitionAssignor

    classes = {c.__name__: c for c in (RangePartitionAssignor, RoundRobinPartitionAssignor,
                                       StickyPartitionAssignor, CooperativeStickyAssignor)}
    result = []
    for name in _to_str(value).split(","):
        simple = name.strip().rsplit(".", 1)[-1]
        if not simple:
            continue
        simple = _JAVA_ASSIGNORS.get(simple, simple)
        if simple not in classes:
            raise _Invalid("a comma-separated list of RangeAssignor, RoundRobinAssignor, "
                           "StickyAssignor, CooperativeStickyAssignor")
        result.append(classes[simple])
    if not result:
        raise _Invalid("at least one partition assignor")
    return tuple(result)


# Converters by kafka-python name, overriding the type of the default.
_CONVERTERS: Dict[str, Callable[[object], object]] = {
    "bootstrap_servers": _to_bootstrap_servers,
    "acks": _to_acks,
    "compression_type": _to_compression,
    "auto_offset_reset": _choice(_VALID_OFFSET_RESETS, str.lower),
    "isolation_level": _choice(_VALID_ISOLATION_LEVELS, str.lower),
    "security_protocol": _choice(_VALID_SECURITY_PROTOCOLS, str.upper),
    "client_dns_lookup": _choice(_VALID_DNS_LOOKUPS, str.lower),
    "sasl_mechanism": _to_sasl_mechanism,
    "receive_buffer_bytes": _to_buffer_bytes,
    "send_buffer_bytes": _to_buffer_bytes,
    "api_version": _to_api_version,
    "partition_assignment_strategy": _to_assignors,
}


def _converter_for(name: str, default: object) -> Optional[Callable[[object], object]]:
    """The converter for kafka-python setting ``name``, or None if no property
    string can express it."""
    if name in _CONVERTERS:
        return _CONVERTERS[name]
    if name in _NOT_FROM_STRING:
        return None
    if name in _SECRET_KWARGS or is_secret_key(name):
        return _to_secret_str
    if isinstance(default, bool):
        return _to_bool
    if isinstance(default, int):
        return _to_int
    if isinstance(default, float):
        return _to_number
    if isinstance(default, str):
        return _to_str
    if default is None:
        # Optional strings: group_id, client_id (producer), transactional_id,
        # ssl_cafile, sasl_plain_username, ...
        return _to_optional_str
    return None  # lists, tuples, objects


def _kwarg_name(key: str) -> str:
    return key.replace(".", "_").replace("-", "_")


# ----------------------------------------------------------------------------- JAAS


@attrs.frozen
class JaasConfig:
    """One parsed JAAS login-module entry. ``options`` is never shown by repr."""

    login_module: str
    control_flag: str
    options: Mapping[str, str] = attrs.field(repr=False)

    @property
    def module_name(self) -> Optional[str]:
        """``PlainLoginModule``, ``ScramLoginModule``, ``OAuthBearerLoginModule`` or
        ``Krb5LoginModule`` if ``login_module`` is one of those, else None.

        Kafka's classes may carry a shading prefix (Flink's SQL connector relocates
        ``org.apache.kafka`` to ``org.apache.flink.kafka.shaded.org.apache.kafka``).
        """
        for qualified in _KNOWN_LOGIN_MODULES:
            if self.login_module == qualified:
                return qualified.rsplit(".", 1)[-1]
            if qualified.startswith("org.apache.kafka.") and \
                    self.login_module.endswith("." + qualified):
                return qualified.rsplit(".", 1)[-1]
        return None


_KNOWN_LOGIN_MODULES = (
    "org.apache.kafka.common.security.plain.PlainLoginModule",
    "org.apache.kafka.common.security.scram.ScramLoginModule",
    "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule",
    "com.sun.security.auth.module.Krb5LoginModule",
    "com.ibm.security.auth.module.Krb5LoginModule",
)


_CONTROL_FLAGS = ("required", "requisite", "sufficient", "optional")
_SIMPLE_ESCAPES = {"a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v"}
_WORD_END = set(" \t\r\n\f\v=;\"'")


class _JaasSyntax(Exception):
    """Internal; the message is a fixed description and never quotes the input."""


def _jaas_tokens(text: str):
    """Yields (kind, text) with kind in 'word', 'string', '=', ';'."""
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c.isspace():
            i += 1
        elif text.startswith("//", i):
            end = text.find("\n", i)
            i = n if end < 0 else end + 1
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            if end < 0:
                raise _JaasSyntax("unterminated comment")
            i = end + 2
        elif c in "=;":
            yield c, c
            i += 1
        elif c in "\"'":
            # Java's StreamTokenizer rules: backslash escapes, a newline ends nothing
            # but is not allowed inside a quoted string.
            quote, i, out = c, i + 1, []
            while True:
                if i >= n or text[i] in "\r\n":
                    raise _JaasSyntax("unterminated quoted string")
                ch = text[i]
                if ch == quote:
                    i += 1
                    break
                if ch == "\\" and i + 1 < n:
                    nxt = text[i + 1]
                    if nxt in _SIMPLE_ESCAPES:
                        out.append(_SIMPLE_ESCAPES[nxt])
                        i += 2
                    elif nxt in "01234567":
                        j = i + 1
                        limit = j + (3 if nxt in "0123" else 2)
                        while j < limit and j < n and text[j] in "01234567":
                            j += 1
                        out.append(chr(int(text[i + 1:j], 8)))
                        i = j
                    else:
                        out.append(nxt)
                        i += 2
                    continue
                out.append(ch)
                i += 1
            yield "string", "".join(out)
        else:
            start = i
            while i < n and text[i] not in _WORD_END and not text.startswith("//", i) \
                    and not text.startswith("/*", i):
                i += 1
            yield "word", text[start:i]


def parse_jaas_config(text: str) -> JaasConfig:
    """Parse a ``sasl.jaas.config`` value such as::

        org.apache.kafka.common.security.plain.PlainLoginModule required
            username="alice" password='s3cret';

    Option values may be double- or single-quoted (with Java escapes) or bare
    words. Exactly one login module is allowed, as in Kafka. Raises ValueError
    whose message never quotes the input.
    """
    failure = None
    try:
        result = _parse_jaas(text)
    except _JaasSyntax as exc:
        failure = str(exc)
    if failure is not None:
        raise ValueError("Invalid value for Kafka property 'sasl.jaas.config': %s" % failure)
    return result


def _parse_jaas(text: str) -> JaasConfig:
    if not isinstance(text, str):
        raise _JaasSyntax("expected a string")
    tokens = list(_jaas_tokens(text))
    if not tokens:
        raise _JaasSyntax("empty login module configuration")
    pos = 0

    def take(kinds, what):
        nonlocal pos
        if pos >= len(tokens) or tokens[pos][0] not in kinds:
            raise _JaasSyntax("expected %s" % what)
        pos += 1
        return tokens[pos - 1][1]

    module = take(("word",), "a login module class name")
    flag = take(("word",), "a control flag (required, requisite, sufficient, optional)").lower()
    if flag not in _CONTROL_FLAGS:
        raise _JaasSyntax("expected a control flag (required, requisite, sufficient, optional)")
    options: Dict[str, str] = {}
    while pos < len(tokens) and tokens[pos][0] != ";":
        name = take(("word",), "an option name or ';'")
        take(("=",), "'=' after an option name")
        options[name] = take(("word", "string"), "an option value")
    if pos < len(tokens):
        pos += 1  # the ';'
    if pos < len(tokens):
        raise _JaasSyntax("exactly one login module must be configured")
    return JaasConfig(module, flag, options)


def _jaas_kwargs(value: object) -> Dict[str, object]:
    jaas = parse_jaas_config(_as_text(value))
    module = jaas.module_name
    if module in ("PlainLoginModule", "ScramLoginModule"):
        username = jaas.options.get("username")
        password = jaas.options.get("password")
        if username is None or password is None:
            raise ValueError("Invalid value for Kafka property 'sasl.jaas.config': %s needs "
                             "both a username and a password option" % module)
        return {"sasl_plain_username": username, "sasl_plain_password": password}
    if module == "Krb5LoginModule":
        out = {}
        if "serviceName" in jaas.options:
            out["sasl_kerberos_service_name"] = jaas.options["serviceName"]
        ignored = sorted(set(jaas.options) & {"principal", "keyTab", "useKeyTab", "useTicketCache",
                                              "storeKey", "ticketCache"})
        if ignored:
            _warn_once("sasl.jaas.config#Krb5LoginModule",
                       "Kafka property 'sasl.jaas.config': Krb5LoginModule options %s are not "
                       "used by kafka-python, which takes credentials from the Kerberos ticket "
                       "cache (kinit) or KRB5_CLIENT_KTNAME", ", ".join(ignored))
        return out
    if module == "OAuthBearerLoginModule":
        raise ValueError("Kafka property 'sasl.jaas.config': OAuthBearerLoginModule is not "
                         "supported; kafka-python needs a sasl_oauth_token_provider object")
    # Do not name the module: a malformed value could put a secret there.
    raise ValueError("Kafka property 'sasl.jaas.config': unsupported login module (supported: "
                     "PlainLoginModule, ScramLoginModule, Krb5LoginModule)")


# ----------------------------------------------------------------- SSL key/trust stores


def _store_file(properties: Mapping[str, object], location_key: str, type_key: str,
                what: str) -> str:
    location = _to_str(properties[location_key])
    store_type = _to_str(properties.get(type_key, "")).upper()
    if store_type == "PEM" or (not store_type and location.lower().endswith(_PEM_SUFFIXES)):
        if not location:
            raise _Invalid("a path to a PEM file")
        return location
    if store_type in ("JKS", "PKCS12") or location.lower().endswith((".jks", ".p12", ".pfx")):
        raise _Invalid(
            "a PEM file: JKS/PKCS12 %ss are not supported by kafka-python; convert it to PEM "
            "(e.g. with keytool/openssl) and set %s=PEM" % (what, type_key))
    if store_type:
        raise _Invalid("a PEM file (%s must be PEM)" % type_key)
    raise _Invalid("a PEM file ending in .pem/.crt/.cer; set %s=PEM if this file is PEM" % type_key)


# --------------------------------------------------------------------- translation

# Java keys with a dedicated translation: key -> function(properties, key, value, kind)
# returning {kwarg: value}. Raise _Invalid / ValueError on bad values.


def _h_truststore(properties, key, value, kind):
    return {"ssl_cafile": _store_file(properties, key, "ssl.truststore.type", "truststore")}


def _h_keystore(properties, key, value, kind):
    return {"ssl_certfile": _store_file(properties, key, "ssl.keystore.type", "keystore")}


def _h_key_password(properties, key, value, kind):
    return {"ssl_password": _to_secret_str(value)}


def _h_keystore_password(properties, key, value, kind):
    # A PEM keystore's key password is ssl.key.password; take the store password
    # only when that is absent.
    if "ssl.key.password" in properties:
        return {}
    return {"ssl_password": _to_secret_str(value)}


def _h_nothing(properties, key, value, kind):
    # Meaningful only together with a store location (handled there), or for
    # JKS stores we reject anyway (store passwords).
    return {}


def _h_endpoint_identification(properties, key, value, kind):
    text = _to_str(value).lower()
    if text == "https":
        return {"ssl_check_hostname": True}
    if text == "":
        return {"ssl_check_hostname": False}
    raise _Invalid("'https' or ''")


def _h_jaas(properties, key, value, kind):
    return _jaas_kwargs(value)


def _h_inline_pem(properties, key, value, kind):
    raise _Invalid("nothing: inline PEM material is not supported by kafka-python; write it "
                   "to a file and set ssl.truststore.location / ssl.keystore.location",
                   show_value=False)


_SPECIAL: Dict[str, Callable] = {
    "sasl.jaas.config": _h_jaas,
    "ssl.truststore.location": _h_truststore,
    "ssl.truststore.type": _h_nothing,
    "ssl.truststore.password": _h_nothing,
    "ssl.keystore.location": _h_keystore,
    "ssl.keystore.type": _h_nothing,
    "ssl.keystore.password": _h_keystore_password,
    "ssl.key.password": _h_key_password,
    "ssl.endpoint.identification.algorithm": _h_endpoint_identification,
    "ssl.truststore.certificates": _h_inline_pem,
    "ssl.keystore.certificate.chain": _h_inline_pem,
    "ssl.keystore.key": _h_inline_pem,
}


def _generic_applies(key: str, kind: str) -> bool:
    name = _kwarg_name(key)
    defaults = _defaults(kind)
    return name in defaults and _converter_for(name, defaults[name]) is not None


def _known_to(key: str, kind: str) -> bool:
    return key in _SPECIAL or _generic_applies(key, kind)


def _is_ignored(key: str, ignore: frozenset) -> bool:
    return key in FLINK_ONLY_KEYS or key in ignore or key.startswith(FLINK_ONLY_PREFIXES)


def _translate(properties: Mapping[str, object], kind: str,
               ignore_keys: Iterable[str]) -> Dict[str, object]:
    if isinstance(ignore_keys, str):
        ignore_keys = (ignore_keys,)
    ignore = frozenset(ignore_keys or ())
    defaults = _defaults(kind)
    for key in properties:
        if not isinstance(key, str):
            raise ValueError("Kafka property names must be strings, got a %s" % type(key).__name__)
    # Handlers look at sibling properties (store types, ssl.key.password): ignored
    # keys must be invisible to them too.
    properties = {k: v for k, v in properties.items() if not _is_ignored(k, ignore)}
    out: Dict[str, object] = {}
    origin: Dict[str, str] = {}
    for key, value in properties.items():
        if value is None:
            raise ValueError("Kafka property %r has no value (None)" % key)

        produced: Optional[Dict[str, object]] = None
        invalid: Optional[_Invalid] = None
        try:
            if key in _SPECIAL:
                produced = _SPECIAL[key](properties, key, value, kind)
            else:
                name = _kwarg_name(key)
                if name in defaults:
                    convert = _converter_for(name, defaults[name])
                    if convert is not None:
                        produced = {name: convert(value)}
        except _Invalid as exc:
            invalid = exc
        if invalid is not None:
            # Raised here, outside the except block: no chained exception.
            raise _error(key, value, invalid.expected, invalid.show_value)

        if produced is None:
            if kind == ADMIN and (_known_to(key, CONSUMER) or _known_to(key, PRODUCER)):
                log.debug("Kafka property %r does not apply to the admin client; ignored", key)
                continue
            _warn_once(key, "Ignoring Kafka property %r: kafka-python's %s client has no "
                            "equivalent setting", key, kind)
            continue

        for name, converted in produced.items():
            if name not in defaults:
                continue  # e.g. a SASL/SSL kwarg some future client lacks
            if name in out and out[name] != converted:
                raise ValueError("Kafka properties %r and %r set %s to different values"
                                 % (origin[name], key, name))
            out[name] = converted
            origin.setdefault(name, key)
    for name, converted in out.items():
        if _is_secret_kwarg(name):
            redaction.register_secret(converted)
    for key, value in properties.items():
        if _is_secret_property(key):
            redaction.register_secret(value)
    return out


def consumer_config(properties: Mapping[str, str], ignore_keys: Iterable[str] = ()) -> dict:
    """kwargs for ``kafka.KafkaConsumer`` from Java-style consumer properties."""
    return _translate(properties, CONSUMER, ignore_keys)


def producer_config(properties: Mapping[str, str], ignore_keys: Iterable[str] = ()) -> dict:
    """kwargs for ``kafka.KafkaProducer`` from Java-style producer properties."""
    return _translate(properties, PRODUCER, ignore_keys)


def admin_config(properties: Mapping[str, str], ignore_keys: Iterable[str] = ()) -> dict:
    """kwargs for ``kafka.admin.KafkaAdminClient``.

    Accepts a source's or a sink's properties: keys that only the consumer or the
    producer understands are dropped without a warning.
    """
    return _translate(properties, ADMIN, ignore_keys)


def _is_secret_kwarg(name: str) -> bool:
    return name in _SECRET_KWARGS or is_secret_key(str(name))


def describe(kwargs: Mapping[str, object]) -> str:
    """A log-safe, sorted ``name=value`` rendering of client kwargs, secrets masked."""
    parts = []
    for name in sorted(kwargs, key=str):
        value = kwargs[name]
        if _is_secret_kwarg(name) and value is not None:
            shown = _MASK
        elif isinstance(value, type):
            shown = value.__name__
        elif isinstance(value, tuple) and value and all(isinstance(v, type) for v in value):
            shown = "(%s)" % ", ".join(v.__name__ for v in value)
        else:
            shown = repr(value)
        parts.append("%s=%s" % (name, shown))
    return ", ".join(parts)

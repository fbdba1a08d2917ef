"""Which property names count as secret (their values are masked in reprs, plans and logs), and the refusal of
inline PEM material, which must not show the material."""
import pytest

from pyflink_compat.kafka_io import properties as kprops
from pyflink_compat.kafka_io.spec import is_secret_key, redacted


@pytest.mark.parametrize("key", ["sasl.jaas.config", "ssl.key.password", "ssl.keystore.password",
                                 "ssl.truststore.password", "ssl.keystore.key", "basic.auth.user.info",
                                 "schema.registry.basic.auth.user.info", "client.secret", "oauth.token",
                                 "sasl.oauthbearer.token.endpoint.url.secret", "Some.Private.Thing"])
def test_secret_bearing_names(key):
    assert is_secret_key(key)
    assert redacted({key: "value-1", "group.id": "g"}) == {key: "******", "group.id": "g"}


@pytest.mark.parametrize("key", ["bootstrap.servers", "group.id", "sasl.mechanism", "security.protocol",
                                 "ssl.truststore.location"])
def test_plain_names(key):
    assert not is_secret_key(key)


def test_inline_pem_material_is_refused_without_showing_it():
    material = "-----BEGIN PRIVATE KEY-----MIIEvQ-very-secret-----END PRIVATE KEY-----"
    with pytest.raises(Exception) as refused:
        kprops.consumer_config({"bootstrap.servers": "b:9092", "ssl.keystore.key": material})
    assert "inline PEM material is not supported" in str(refused.value)
    assert "very-secret" not in str(refused.value) and "very-secret" not in repr(refused.value)

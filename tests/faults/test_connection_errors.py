"""A job that cannot talk to its broker says why: an authentication mismatch is reported as one, never as a
broker that "did not answer", and the credentials appear nowhere in what the job prints."""
import pytest

from fault_env import start_fault_job
from job_processes import kill_job, tail
from kafka_helpers import create_topic, unique_topic

pytestmark = pytest.mark.integration

PASSWORD = "pw-that-must-not-leak-7d1e"
SASL = [("security.protocol", "SASL_PLAINTEXT"), ("sasl.mechanism", "SCRAM-SHA-512"),
        ("sasl.jaas.config", 'org.apache.kafka.common.security.scram.ScramLoginModule required username="alice" '
                             'password="%s";' % PASSWORD)]


def test_a_sasl_client_against_a_broker_without_sasl_fails_saying_authentication(bootstrap, tmp_path):
    # The test broker speaks PLAINTEXT: a client configured for SASL is refused during the handshake.
    topic_in = create_topic(bootstrap, unique_topic("sasl-in"), partitions=2)
    topic_out = create_topic(bootstrap, unique_topic("sasl-out"), partitions=2)
    log_path = str(tmp_path / "job.log")
    process = start_fault_job(bootstrap, bootstrap, topic_in, topic_out, str(tmp_path / "checkpoints"), log_path,
                              "at-least-once", 1, source_properties=SASL)
    try:
        exit_code = process.wait(timeout=120)
    finally:
        if process.poll() is None:
            kill_job(process)
    # What the job printed (the first line is the test's own record of the command, password included).
    log = "\n".join(line for line in tail(log_path, lines=400).splitlines() if not line.startswith("=== "))
    assert exit_code != 0, log
    assert "refused the client's authentication" in log and bootstrap in log, log
    assert "did not answer" not in log, log
    assert PASSWORD not in log

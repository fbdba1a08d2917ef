"""Flink's restart strategies as ``runtime/restarts.py`` resolves and applies them: which failures restart the
job, after what delay, and Flink's text when recovery is suppressed (checked against PyFlink 2.3.0 by the
side-by-side case ``restart-strategies``)."""
import pytest

from pyflink_compat.common import Configuration
from pyflink_compat.common.restart_strategy import RestartStrategies
from pyflink_compat.runtime import restarts



def delays(chosen, failures, start_ms=0, step_ms=10):
    return [chosen.on_failure(start_ms + i * step_ms) for i in range(failures)]


def test_without_checkpointing_no_restart_is_the_default():
    chosen = restarts.from_configuration({}, checkpointing=False)
    assert delays(chosen, 1) == [None]
    assert chosen.suppressed_text() == \
        "org.apache.flink.runtime.JobException: Recovery is suppressed by NoRestartBackoffTimeStrategy"


def test_with_checkpointing_exponential_delay_with_flinks_defaults_is_the_default():
    chosen = restarts.from_configuration({}, checkpointing=True)
    assert isinstance(chosen, restarts.ExponentialDelay)
    assert (chosen.initial_ms, chosen.max_ms, chosen.multiplier, chosen.reset_threshold_ms, chosen.jitter,
            chosen.attempts_before_reset) == (1000, 60_000, 1.5, 3_600_000, 0.1, 2_147_483_647)


@pytest.mark.parametrize("name", ["none", "off", "disable", "NONE"])
def test_none_names(name):
    assert isinstance(restarts.from_configuration({"restart-strategy.type": name}, True), restarts.NoRestart)


def test_fixed_delay_restarts_attempts_times_then_gives_up():
    chosen = restarts.from_configuration({"restart-strategy.type": "fixed-delay",
                                          "restart-strategy.fixed-delay.attempts": "2",
                                          "restart-strategy.fixed-delay.delay": "10 ms"}, False)
    assert delays(chosen, 3) == [10, 10, None]
    assert chosen.description() == "FixedDelayRestartBackoffTimeStrategy(maxNumberRestartAttempts=2, backoffTimeMS=10)"


def test_fixed_delay_defaults_one_attempt_after_one_second():
    chosen = restarts.from_configuration({"restart-strategy.type": "fixeddelay"}, False)
    assert delays(chosen, 2) == [1000, None]


def test_failure_rate_allows_max_restarts_within_the_interval():
    chosen = restarts.from_configuration({"restart-strategy.type": "failure-rate",
                                          "restart-strategy.failure-rate.max-failures-per-interval": "2",
                                          "restart-strategy.failure-rate.failure-rate-interval": "1 s",
                                          "restart-strategy.failure-rate.delay": "10 ms"}, False)
    assert chosen.on_failure(0) == 10
    assert chosen.on_failure(100) == 10
    assert chosen.on_failure(200) is None
    assert chosen.description() == ("FailureRateRestartBackoffTimeStrategy(FailureRateRestartBackoffTimeStrategy("
                                    "failuresIntervalMS=1000,backoffTimeMS=10,maxFailuresPerInterval=2)")


def test_failure_rate_forgets_failures_older_than_the_interval():
    chosen = restarts.from_configuration({"restart-strategy.type": "failurerate",
                                          "restart-strategy.failure-rate.max-failures-per-interval": "1",
                                          "restart-strategy.failure-rate.failure-rate-interval": "1 s"}, False)
    assert chosen.on_failure(0) == 1000
    assert chosen.on_failure(5_000) == 1000
    assert chosen.on_failure(5_500) is None


def test_exponential_delay_grows_to_its_maximum_and_counts_attempts():
    chosen = restarts.ExponentialDelay(100, 1000, 2.0, 60_000, 0.0, 5)
    assert delays(chosen, 6) == [100, 200, 400, 800, 1000, None]
    assert chosen.description() == (
        "ExponentialDelayRestartBackoffTimeStrategy(initialBackoffMS=100, maxBackoffMS=1000, backoffMultiplier=2.0, "
        "resetBackoffThresholdMS=60000, jitterFactor=0.0, attemptsBeforeResetBackoff=5, currentRestartAttempt=6, "
        "nextRestartTimestamp=1050)")


def test_exponential_delay_starts_again_after_a_quiet_threshold():
    chosen = restarts.ExponentialDelay(100, 1000, 2.0, 5_000, 0.0, 2)
    assert chosen.on_failure(0) == 100
    assert chosen.on_failure(10) == 200
    assert chosen.on_failure(10_000) == 100        # quiet for longer than the threshold: back to the start
    assert chosen.on_failure(10_010) == 200
    assert chosen.on_failure(10_020) is None


def test_exponential_delay_jitter_stays_within_its_factor():
    chosen = restarts.ExponentialDelay(1000, 60_000, 1.5, 3_600_000, 0.1, 100)
    first = chosen.on_failure(0)
    assert 900 <= first <= 1100


def test_flink_1_set_restart_strategy_is_what_the_job_applies():
    from pyflink_compat.datastream import StreamExecutionEnvironment
    env = StreamExecutionEnvironment.get_execution_environment(Configuration())
    with pytest.warns(DeprecationWarning):
        env.set_restart_strategy(RestartStrategies.fixed_delay_restart(3, 250))
    configuration = env.get_config()._configuration.to_dict()
    chosen = restarts.from_configuration(configuration, False)
    assert delays(chosen, 4) == [250, 250, 250, None]


def test_an_unknown_type_is_refused():
    with pytest.raises(restarts.RestartConfigurationError, match="Unknown restart strategy sometimes."):
        restarts.from_configuration({"restart-strategy.type": "sometimes"}, False)


def test_an_unparsable_option_is_refused_with_its_key():
    with pytest.raises(restarts.RestartConfigurationError,
                       match="Could not parse value 'soon' for key 'restart-strategy.fixed-delay.delay'."):
        restarts.from_configuration({"restart-strategy.type": "fixed-delay",
                                     "restart-strategy.fixed-delay.delay": "soon"}, False)


def test_dash_d_keys_of_pyflink_compat_run_reach_the_strategy(monkeypatch):
    from pyflink_compat.datastream import StreamExecutionEnvironment
    from pyflink_compat.runtime import launch
    monkeypatch.setattr(launch, "cli_configuration", {"restart-strategy.type": "fixed-delay",
                                                      "restart-strategy.fixed-delay.attempts": "4"})
    env = StreamExecutionEnvironment.get_execution_environment()
    chosen = restarts.from_configuration(env.get_config()._configuration.to_dict(), False)
    assert delays(chosen, 5) == [1000] * 4 + [None]


@pytest.mark.parametrize("key, value", [("restart-strategy.fixed-delay.attempts", "three"),
                                        ("restart-strategy.exponential-delay.backoff-multiplier", "x1.5")])
def test_unparsable_numbers_are_refused_with_their_key(key, value):
    kind = key.split(".")[1]
    with pytest.raises(restarts.RestartConfigurationError,
                       match="Could not parse value '%s' for key '%s'." % (value, key)):
        restarts.from_configuration({"restart-strategy.type": kind, key: value}, False)

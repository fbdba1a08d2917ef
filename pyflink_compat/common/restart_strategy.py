"""Mirror of ``pyflink.common.restart_strategy``.

Restart strategies are not provided (a failure fails the job; porting guide, section unsupported-apis):
every name exists, and creating a restart strategy configuration raises ``UnsupportedFeatureError``.
"""
from pyflink_compat.util.exceptions import unsupported, unsupported_class

__all__ = ['RestartStrategies', 'RestartStrategyConfiguration']

_SECTION = "unsupported-apis"
_REASON = "a failure fails the job"


def _configuration_class(name, getters):
    cls = unsupported_class(name, _SECTION, _REASON)
    for getter in ('get_description',) + getters:
        setattr(cls, getter, unsupported("%s.%s" % (name, getter), _SECTION, _REASON))
    return cls


RestartStrategyConfiguration = _configuration_class("RestartStrategyConfiguration", ())


class RestartStrategies(object):
    """Factories of restart strategy configurations: not provided, each raises UnsupportedFeatureError."""

    NoRestartStrategyConfiguration = _configuration_class(
        "RestartStrategies.NoRestartStrategyConfiguration", ())
    FixedDelayRestartStrategyConfiguration = _configuration_class(
        "RestartStrategies.FixedDelayRestartStrategyConfiguration",
        ('get_restart_attempts', 'get_delay_between_attempts_interval'))
    FailureRateRestartStrategyConfiguration = _configuration_class(
        "RestartStrategies.FailureRateRestartStrategyConfiguration",
        ('get_max_failure_rate', 'get_failure_interval', 'get_delay_between_attempts_interval'))
    FallbackRestartStrategyConfiguration = _configuration_class(
        "RestartStrategies.FallbackRestartStrategyConfiguration", ())

    no_restart = staticmethod(unsupported("RestartStrategies.no_restart", _SECTION, _REASON))
    fall_back_restart = staticmethod(unsupported("RestartStrategies.fall_back_restart", _SECTION, _REASON))
    fixed_delay_restart = staticmethod(unsupported("RestartStrategies.fixed_delay_restart", _SECTION, _REASON))
    failure_rate_restart = staticmethod(unsupported("RestartStrategies.failure_rate_restart", _SECTION, _REASON))
    exponential_delay_restart = staticmethod(unsupported("RestartStrategies.exponential_delay_restart",
                                                         _SECTION, _REASON))

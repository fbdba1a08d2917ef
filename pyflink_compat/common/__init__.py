"""Mirror of ``pyflink.common``: the same ``__all__``.

Names pyflink-compat does not implement exist but raise ``UnsupportedFeatureError``
when constructed (or, for factories such as ``RestartStrategies.fixed_delay_restart``,
when called). ``TimestampAssigner`` is not exported here, as in PyFlink: import
it from ``pyflink_compat.common.watermark_strategy``.
"""
from pyflink_compat.common.configuration import Configuration, ExecutionConfig
from pyflink_compat.common.job_client import CompletableFuture, JobClient, JobStatus
from pyflink_compat.common.job_execution_result import JobExecutionResult, JobID
from pyflink_compat.common.serialization import (ByteArraySchema, DeserializationSchema, Encoder,
                                                 SerializationSchema, SimpleStringSchema)
from pyflink_compat.common.time import Duration, Instant, Time
from pyflink_compat.common.typeinfo import TypeInformation, Types
from pyflink_compat.common.types import Row, RowKind
from pyflink_compat.common.watermark_strategy import AssignerWithPeriodicWatermarksWrapper, WatermarkStrategy
from pyflink_compat.util.exceptions import unsupported, unsupported_class

__all__ = [
    'Configuration', 'ConfigOption', 'ConfigOptions', 'ExecutionConfig', 'TypeInformation', 'TypeSerializer',
    'Types', 'SerializationSchema', 'DeserializationSchema', 'SimpleStringSchema', 'ByteArraySchema', 'Encoder',
    'CompletableFuture', 'InputDependencyConstraint', 'JobClient', 'JobExecutionResult', 'JobID', 'JobStatus',
    'RestartStrategies', 'RestartStrategyConfiguration', 'Row', 'RowKind', 'WatermarkStrategy', 'Duration',
    'Instant', 'Time', 'AssignerWithPeriodicWatermarksWrapper',
]

ConfigOption = unsupported_class("ConfigOption", "unsupported-apis", "use Configuration's string keys")
ConfigOptions = unsupported_class("ConfigOptions", "unsupported-apis", "use Configuration's string keys")
ConfigOptions.key = staticmethod(unsupported("ConfigOptions.key", "unsupported-apis",
                                             "use Configuration's string keys"))
TypeSerializer = unsupported_class("TypeSerializer", "unsupported-apis", "elements are pickled or stored as Arrow")
InputDependencyConstraint = unsupported_class("InputDependencyConstraint")
RestartStrategyConfiguration = unsupported_class("RestartStrategyConfiguration")
RestartStrategies = unsupported_class("RestartStrategies")
for _factory in ('no_restart', 'fall_back_restart', 'fixed_delay_restart', 'failure_rate_restart',
                 'exponential_delay_restart'):
    setattr(RestartStrategies, _factory, staticmethod(unsupported("RestartStrategies." + _factory)))
del _factory

"""Mirror of ``pyflink.common``: the same ``__all__``.

Names pyflink-compat does not implement exist but raise ``UnsupportedFeatureError``
when constructed or called. ``TimestampAssigner`` is not
exported here, as in PyFlink: import it from ``pyflink_compat.common.watermark_strategy``.
"""
from pyflink_compat.common.configuration import Configuration, ExecutionConfig
from pyflink_compat.common.execution_mode import ExecutionMode
from pyflink_compat.common.job_client import CompletableFuture, JobClient, JobStatus
from pyflink_compat.common.job_execution_result import JobExecutionResult, JobID
from pyflink_compat.common.serialization import (ByteArraySchema, DeserializationSchema, Encoder,
                                                 SerializationSchema, SimpleStringSchema)
from pyflink_compat.common.time import Duration, Instant, Time
from pyflink_compat.common.typeinfo import TypeInformation, Types
from pyflink_compat.common.types import Row, RowKind
from pyflink_compat.common.watermark_strategy import AssignerWithPeriodicWatermarksWrapper, WatermarkStrategy
from pyflink_compat.common.config_options import ConfigOption, ConfigOptions
from pyflink_compat.common.input_dependency_constraint import InputDependencyConstraint
from pyflink_compat.common.restart_strategy import RestartStrategies, RestartStrategyConfiguration
from pyflink_compat.common.serializer import TypeSerializer

__all__ = [
    'Configuration', 'ConfigOption', 'ConfigOptions', 'ExecutionConfig', 'TypeInformation', 'TypeSerializer',
    'Types', 'SerializationSchema', 'DeserializationSchema', 'SimpleStringSchema', 'ByteArraySchema', 'Encoder',
    'CompletableFuture', 'InputDependencyConstraint', 'JobClient', 'JobExecutionResult', 'JobID', 'JobStatus',
    'RestartStrategies', 'RestartStrategyConfiguration', 'Row', 'RowKind', 'WatermarkStrategy', 'Duration',
    'Instant', 'Time', 'AssignerWithPeriodicWatermarksWrapper',
    'ExecutionMode',  # Flink 1.x (apache-flink 1.20 exports it; removed in 2.0): porting_guide/README.md#flink-1-names
]



def _install():
    """As PyFlink does for backward compatibility: the row formats' schemas are attributes of the package too
    (not in ``__all__``). Run last, once every name above exists."""
    from pyflink_compat import common
    from pyflink_compat.datastream.formats.avro import AvroRowDeserializationSchema, AvroRowSerializationSchema
    from pyflink_compat.datastream.formats.csv import CsvRowDeserializationSchema, CsvRowSerializationSchema
    from pyflink_compat.datastream.formats.json import JsonRowDeserializationSchema, JsonRowSerializationSchema
    for schema in (JsonRowDeserializationSchema, JsonRowSerializationSchema, CsvRowDeserializationSchema,
                   CsvRowSerializationSchema, AvroRowDeserializationSchema, AvroRowSerializationSchema):
        setattr(common, schema.__name__, schema)


_install()
del _install

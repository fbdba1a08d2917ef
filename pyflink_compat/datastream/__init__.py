"""Mirror of ``pyflink.datastream``: the environment, streams, functions and their settings.

Window assigners, ``AllWindowFunction``/``ProcessAllWindowFunction`` and the
state descriptors are not exported here (as in PyFlink): import them from
``.window``, ``.functions`` and ``.state``.
"""
from pyflink_compat.datastream.checkpoint_config import (CheckpointConfig, ExternalizedCheckpointCleanup,
                                                         ExternalizedCheckpointRetention)
from pyflink_compat.datastream.checkpoint_storage import (CheckpointStorage, CustomCheckpointStorage,
                                                          FileSystemCheckpointStorage,
                                                          JobManagerCheckpointStorage)
from pyflink_compat.datastream.checkpointing_mode import CheckpointingMode
from pyflink_compat.datastream.data_stream import (BroadcastConnectedStream, BroadcastStream, ConnectedStreams,
                                                   DataStream, DataStreamSink, KeyedStream, WindowedStream)
from pyflink_compat.datastream.execution_mode import RuntimeExecutionMode
from pyflink_compat.datastream.functions import (AggregateFunction, AsyncFunction, AsyncRetryPredicate,
                                                 AsyncRetryStrategy, BroadcastProcessFunction, CoFlatMapFunction,
                                                 CoMapFunction, CoProcessFunction, FilterFunction, FlatMapFunction,
                                                 KeyedBroadcastProcessFunction, KeyedCoProcessFunction,
                                                 KeyedProcessFunction, KeySelector, MapFunction, Partitioner,
                                                 ProcessFunction, ProcessWindowFunction, ReduceFunction,
                                                 RuntimeContext, SinkFunction, SourceFunction, WindowFunction)
from pyflink_compat.datastream.output_tag import OutputTag
from pyflink_compat.datastream.slot_sharing_group import MemorySize, SlotSharingGroup
from pyflink_compat.datastream.state_backend import (CustomStateBackend, EmbeddedRocksDBStateBackend, FsStateBackend,
                                                     HashMapStateBackend, MemoryStateBackend, PredefinedOptions,
                                                     RocksDBStateBackend, StateBackend)
from pyflink_compat.datastream.stream_execution_environment import StreamExecutionEnvironment
from pyflink_compat.datastream.time_characteristic import TimeCharacteristic
from pyflink_compat.datastream.time_domain import TimeDomain
from pyflink_compat.datastream.timerservice import TimerService
from pyflink_compat.datastream.window import (CountWindow, GlobalWindow, MergingWindowAssigner, TimeWindow,
                                              Trigger, TriggerResult, Window, WindowAssigner)
from pyflink_compat.datastream.async_data_stream import AsyncDataStream


__all__ = [
    'StreamExecutionEnvironment', 'DataStream', 'KeyedStream', 'WindowedStream', 'ConnectedStreams',
    'BroadcastStream', 'BroadcastConnectedStream', 'AsyncDataStream', 'DataStreamSink', 'MapFunction',
    'CoMapFunction', 'FlatMapFunction', 'CoFlatMapFunction', 'ReduceFunction', 'FilterFunction',
    'ProcessFunction', 'KeyedProcessFunction', 'CoProcessFunction', 'KeyedCoProcessFunction', 'WindowFunction',
    'ProcessWindowFunction', 'AggregateFunction', 'BroadcastProcessFunction', 'KeyedBroadcastProcessFunction',
    'AsyncFunction', 'RuntimeContext', 'TimerService', 'CheckpointingMode', 'CheckpointConfig',
    'ExternalizedCheckpointRetention', 'StateBackend', 'HashMapStateBackend', 'EmbeddedRocksDBStateBackend',
    'CustomStateBackend', 'PredefinedOptions', 'CheckpointStorage', 'JobManagerCheckpointStorage',
    'FileSystemCheckpointStorage', 'CustomCheckpointStorage', 'RuntimeExecutionMode', 'Window', 'TimeWindow',
    'CountWindow', 'GlobalWindow', 'WindowAssigner', 'MergingWindowAssigner', 'TriggerResult', 'Trigger',
    'TimeDomain', 'KeySelector', 'Partitioner', 'SourceFunction', 'SinkFunction', 'SlotSharingGroup',
    'MemorySize', 'OutputTag', 'AsyncRetryPredicate', 'AsyncRetryStrategy',
    # Flink 1.x names (apache-flink 1.20 exports them; removed in 2.0): porting_guide/README.md#flink-1-names
    'TimeCharacteristic', 'ExternalizedCheckpointCleanup', 'MemoryStateBackend', 'FsStateBackend',
    'RocksDBStateBackend',
]

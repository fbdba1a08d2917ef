"""DataStream and DataStreamSink (mirror of ``pyflink.datastream.data_stream``).

Methods only record nodes of the job graph (``runtime.graph``); nothing runs
until ``execute()``. What is not provided yet raises UnsupportedFeatureError
naming the method and the porting-guide section.
"""
from enum import Enum
from typing import Callable, Union

from pyflink_compat.common.typeinfo import Types, TypeInformation
from pyflink_compat.common.watermark_strategy import WatermarkStrategy
from pyflink_compat.datastream.functions import (FilterFunction, FlatMapFunction, MapFunction, ProcessFunction,
                                                 SinkFunction)
from pyflink_compat.datastream.output_tag import OutputTag
from pyflink_compat.runtime import graph
from pyflink_compat.util.exceptions import unsupported

__all__ = ['CloseableIterator', 'DataStream', 'KeyedStream', 'ConnectedStreams', 'WindowedStream',
           'DataStreamSink', 'BroadcastStream', 'BroadcastConnectedStream']


def _as_map(func):
    if isinstance(func, MapFunction):
        return func
    if callable(func):
        return _CallableMap(func)
    raise TypeError("The input must be a MapFunction or a callable function")


class _CallableMap(MapFunction):
    def __init__(self, func):
        self.func = func

    def map(self, value):
        return self.func(value)


class _CallableFlatMap(FlatMapFunction):
    def __init__(self, func):
        self.func = func

    def flat_map(self, value):
        return self.func(value)


class _CallableFilter(FilterFunction):
    def __init__(self, func):
        self.func = func

    def filter(self, value):
        return self.func(value)


class DataStream(object):
    """A stream of elements of one type, the result of a source or a transformation."""

    def __init__(self, j_data_stream):
        # PyFlink wraps a Java DataStream; we wrap a graph node and remember the environment.
        self._node, self._env = j_data_stream

    # -- naming and operator settings (recorded; Spark plans operators itself) ------------------

    def get_name(self) -> str:
        return self._node.name

    def name(self, name: str) -> 'DataStream':
        self._node.name = name
        return self

    def uid(self, uid: str) -> 'DataStream':
        self._node.uid = uid
        return self

    def set_uid_hash(self, uid_hash: str) -> 'DataStream':
        return self

    def set_parallelism(self, parallelism: int) -> 'DataStream':
        self._node.parallelism = parallelism
        return self

    def set_max_parallelism(self, max_parallelism: int) -> 'DataStream':
        return self

    def get_type(self) -> TypeInformation:
        return self._node.output_type

    def get_execution_environment(self):
        return self._env

    def get_execution_config(self):
        return self._env.get_config()

    def force_non_parallel(self) -> 'DataStream':
        self._node.parallelism = 1
        return self

    def set_buffer_timeout(self, timeout_millis: int) -> 'DataStream':
        return self

    def start_new_chain(self) -> 'DataStream':
        return self

    def disable_chaining(self) -> 'DataStream':
        return self

    def slot_sharing_group(self, slot_sharing_group) -> 'DataStream':
        return self

    def set_description(self, description: str) -> 'DataStream':
        self._node.description = description
        return self

    # -- transformations ----------------------------------------------------------------------

    def _then(self, kind, name, function, output_type) -> 'DataStream':
        node = graph.Node(kind=kind, name=name, output_type=output_type, input=self._node, payload=function)
        return DataStream((node, self._env))

    def map(self, func: Union[Callable, MapFunction], output_type: TypeInformation = None) -> 'DataStream':
        function = _as_map(func)
        return self._then(graph.MAP, "Map", function, output_type or Types.PICKLED_BYTE_ARRAY())

    def flat_map(self, func: Union[Callable, FlatMapFunction],
                 output_type: TypeInformation = None) -> 'DataStream':
        if isinstance(func, FlatMapFunction):
            function = func
        elif callable(func):
            function = _CallableFlatMap(func)
        else:
            raise TypeError("The input must be a FlatMapFunction or a callable function")
        return self._then(graph.FLAT_MAP, "FlatMap", function, output_type or Types.PICKLED_BYTE_ARRAY())

    def filter(self, func: Union[Callable, FilterFunction]) -> 'DataStream':
        if isinstance(func, FilterFunction):
            function = func
        elif callable(func):
            function = _CallableFilter(func)
        else:
            raise TypeError("The input must be a FilterFunction or a callable function")
        return self._then(graph.FILTER, "Filter", function, self._node.output_type)

    # Redistribution only changes which parallel instance sees an element; Spark decides that itself.
    def shuffle(self) -> 'DataStream':
        return self

    def rescale(self) -> 'DataStream':
        return self

    def rebalance(self) -> 'DataStream':
        return self

    def forward(self) -> 'DataStream':
        return self

    def process(self, func: ProcessFunction, output_type: TypeInformation = None) -> 'DataStream':
        """Applies ``func`` to every element; it yields any number of outputs, and ``(output_tag, value)``
        pairs for the side outputs asked for with ``get_side_output``."""
        return self._then(graph.PROCESS, "PROCESS", func, output_type or Types.PICKLED_BYTE_ARRAY())

    def assign_timestamps_and_watermarks(self, watermark_strategy: WatermarkStrategy) -> 'DataStream':
        """Timestamps from the strategy's assigner (``extract_timestamp(value, record_timestamp)``, the
        latter Long.MIN_VALUE when the element has none), and watermarks generated from them."""
        node = graph.Node(kind=graph.ASSIGN_TIMESTAMPS, name="Timestamps/Watermarks",
                          output_type=self._node.output_type, input=self._node,
                          payload=watermark_strategy._timestamp_assigner, watermark_strategy=watermark_strategy)
        return DataStream((node, self._env))

    def get_side_output(self, output_tag: OutputTag) -> 'DataStream':
        """The elements this operation emitted as ``(output_tag, value)``, typed as the tag says."""
        self._node.side_output_tags[output_tag.tag_id] = output_tag
        node = graph.Node(kind=graph.SIDE_OUTPUT, name="SideOutput", output_type=output_tag.type_info,
                          input=self._node, payload=output_tag)
        return DataStream((node, self._env))

    key_by = unsupported("DataStream.key_by", "state-and-windows")
    window_all = unsupported("DataStream.window_all", "state-and-windows")
    union = unsupported("DataStream.union", "multi-input-streams")
    connect = unsupported("DataStream.connect", "multi-input-streams")
    project = unsupported("DataStream.project", "unsupported-apis")
    broadcast = unsupported("DataStream.broadcast", "multi-input-streams")
    partition_custom = unsupported("DataStream.partition_custom", "unsupported-apis")
    cache = unsupported("DataStream.cache", "unsupported-apis")

    # -- sinks ----------------------------------------------------------------------------------

    def _sink(self, kind, name, payload) -> 'DataStreamSink':
        node = graph.Node(kind=kind, name=name, output_type=self._node.output_type, input=self._node,
                          payload=payload)
        self._env._add_sink(node)
        return DataStreamSink(node)

    def sink_to(self, sink) -> 'DataStreamSink':
        from pyflink_compat.datastream.connectors.kafka import KafkaSink
        if not isinstance(sink, KafkaSink):
            unsupported("DataStream.sink_to(%s)" % type(sink).__name__, "connectors")()
        return self._sink(graph.KAFKA_SINK, "Sink: Writer", sink._spec)

    def add_sink(self, sink_func: SinkFunction) -> 'DataStreamSink':
        """Write to a legacy ``SinkFunction``: ``FlinkKafkaProducer`` is provided (written by the Kafka
        sink with the legacy semantics); other sink functions are not."""
        from pyflink_compat.datastream.connectors.kafka_legacy import FlinkKafkaProducerBase
        if not isinstance(sink_func, FlinkKafkaProducerBase):
            unsupported("DataStream.add_sink(%s)" % type(sink_func).__name__, "legacy-kafka-api",
                        "only FlinkKafkaProducer is provided")()
        return self._sink(graph.KAFKA_SINK, "Sink: Unnamed", sink_func._to_sink_spec())

    def print(self, sink_identifier: str = None) -> 'DataStreamSink':
        return self._sink(graph.PRINT_SINK, "Print to Std. Out", sink_identifier)

    def execute_and_collect(self, job_execution_name: str = None, limit: int = None):
        from pyflink_compat.runtime import job
        node = graph.Node(kind=graph.COLLECT_SINK, name="Collect", output_type=self._node.output_type,
                          input=self._node, payload=None)
        return job.execute_and_collect(self._env, node, job_execution_name, limit)


class DataStreamSink(object):
    """Returned by sink_to/print: settings are recorded, all methods return self."""

    def __init__(self, j_data_stream_sink):
        self._node = j_data_stream_sink

    def name(self, name: str) -> 'DataStreamSink':
        self._node.name = name
        return self

    def uid(self, uid: str) -> 'DataStreamSink':
        self._node.uid = uid
        return self

    def set_uid_hash(self, uid_hash: str) -> 'DataStreamSink':
        return self

    def set_parallelism(self, parallelism: int) -> 'DataStreamSink':
        self._node.parallelism = parallelism
        return self

    def set_description(self, description: str) -> 'DataStreamSink':
        self._node.description = description
        return self

    def disable_chaining(self) -> 'DataStreamSink':
        return self

    def slot_sharing_group(self, slot_sharing_group) -> 'DataStreamSink':
        return self


class CloseableIterator(object):
    """What ``execute_and_collect()`` returns without a limit: results as they arrive."""

    def __init__(self, j_closeable_iterator, type_info: TypeInformation = None):
        self._results = j_closeable_iterator     # a runtime.job.CollectedResults
        self._type_info = type_info

    def __iter__(self):
        return self

    def __next__(self):
        return self._results.next_element()

    def next(self):
        return self.__next__()

    def close(self):
        self._results.close()

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        self.close()


def _unsupported_stream_class(name, section, methods=()):
    """A stream class that raises UnsupportedFeatureError when constructed, with each of PyFlink's
    ``methods`` present and raising it too (naming ``<name>.<method>``)."""
    from pyflink_compat.util.exceptions import unsupported_class
    cls = unsupported_class(name, section)
    for method in methods:
        setattr(cls, method, unsupported("%s.%s" % (name, method), section))
    return cls


# The methods PyFlink 2.3.0 has on each class (its own and the inherited ones).
_DATA_STREAM_METHODS = (
    'add_sink', 'assign_timestamps_and_watermarks', 'broadcast', 'cache', 'connect', 'disable_chaining',
    'execute_and_collect', 'filter', 'flat_map', 'force_non_parallel', 'forward', 'get_execution_config',
    'get_execution_environment', 'get_name', 'get_side_output', 'get_type', 'key_by', 'map', 'name',
    'partition_custom', 'print', 'process', 'project', 'rebalance', 'rescale', 'set_buffer_timeout',
    'set_description', 'set_max_parallelism', 'set_parallelism', 'set_uid_hash', 'shuffle', 'sink_to',
    'slot_sharing_group', 'start_new_chain', 'uid', 'union', 'window_all')
_KEYED_STREAM_METHODS = _DATA_STREAM_METHODS + (
    'count_window', 'max', 'max_by', 'min', 'min_by', 'reduce', 'sum', 'window')

KeyedStream = _unsupported_stream_class("KeyedStream", "state-and-windows", _KEYED_STREAM_METHODS)


class _AccumulateType(Enum):
    MIN = 1
    MAX = 2
    MIN_BY = 3
    MAX_BY = 4
    SUM = 5


_AccumulateType.__name__ = "AccumulateType"
_AccumulateType.__qualname__ = "KeyedStream.AccumulateType"
KeyedStream.AccumulateType = _AccumulateType

WindowedStream = _unsupported_stream_class("WindowedStream", "state-and-windows", (
    'aggregate', 'allowed_lateness', 'apply', 'get_execution_environment', 'get_input_type', 'process',
    'reduce', 'side_output_late_data', 'trigger'))
AllWindowedStream = _unsupported_stream_class("AllWindowedStream", "state-and-windows", (
    'aggregate', 'allowed_lateness', 'apply', 'get_execution_environment', 'get_input_type', 'process',
    'reduce', 'side_output_late_data', 'trigger'))
ConnectedStreams = _unsupported_stream_class("ConnectedStreams", "multi-input-streams", (
    'flat_map', 'key_by', 'map', 'process'))
BroadcastStream = _unsupported_stream_class("BroadcastStream", "multi-input-streams")
BroadcastConnectedStream = _unsupported_stream_class("BroadcastConnectedStream", "multi-input-streams", (
    'process',))
CachedDataStream = _unsupported_stream_class("CachedDataStream", "unsupported-apis",
                                             _DATA_STREAM_METHODS + ('invalidate',))

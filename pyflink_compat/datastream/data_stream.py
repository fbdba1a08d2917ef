"""DataStream and DataStreamSink (mirror of ``pyflink.datastream.data_stream``).

Methods only record nodes of the job graph (``plan.graph``); nothing runs
until ``execute()``. What is not provided yet raises UnsupportedFeatureError
naming the method and the porting-guide section.
"""
from enum import Enum
from typing import Callable, Union

from pyflink_compat.common.typeinfo import PickledBytesTypeInfo, Types, TypeInformation
from pyflink_compat.common.watermark_strategy import WatermarkStrategy
from pyflink_compat.common.typeinfo import RowTypeInfo
from pyflink_compat.datastream import _keyed_functions as keyed
from pyflink_compat.datastream.functions import (
    AggregateFunction, AllWindowFunction, FilterFunction, FlatMapFunction, InternalIterableAllWindowFunction,
    InternalIterableProcessAllWindowFunction, InternalIterableProcessWindowFunction, InternalIterableWindowFunction,
    InternalSingleValueAllWindowFunction, InternalSingleValueProcessAllWindowFunction,
    InternalSingleValueProcessWindowFunction, InternalSingleValueWindowFunction, KeyedProcessFunction, KeySelector,
    BroadcastProcessFunction, CoFlatMapFunction, CoMapFunction, CoProcessFunction, KeyedBroadcastProcessFunction,
    KeyedCoProcessFunction,
    MapFunction, NullByteKeySelector, PassThroughAllWindowFunction, PassThroughWindowFunction, ProcessAllWindowFunction,
    Partitioner, ProcessFunction, ProcessWindowFunction, ReduceFunction, SinkFunction, WindowFunction)
from pyflink_compat.datastream.state import (AggregatingStateDescriptor, ListStateDescriptor, MapStateDescriptor,
                                             ReducingStateDescriptor)
from pyflink_compat.datastream.window import (CountSlidingWindowAssigner, CountTumblingWindowAssigner, Trigger,
                                              WindowAssigner, WindowOperationDescriptor)
from pyflink_compat.datastream.output_tag import OutputTag
from pyflink_compat.plan import graph
from pyflink_compat.util.exceptions import illegal_argument, no_effect, unsupported

_UPPER_BOUND_MAX_PARALLELISM = 1 << 15


def _slot_sharing_group_name(group) -> str:
    """``slot_sharing_group`` takes a name or a SlotSharingGroup."""
    return group if isinstance(group, str) else group.get_name()

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
        if self._env is not None:
            self._env._created(self._node)

    # -- naming and operator settings (recorded; Spark plans operators itself) ------------------

    def get_name(self) -> str:
        return self._node.name

    def name(self, name: str) -> 'DataStream':
        self._node.name = name
        return self

    def uid(self, uid: str) -> 'DataStream':
        self._node.uid = uid
        return self

    @no_effect("recorded in the plan; checkpoints are kept per sink, see porting guide: checkpoints")
    def set_uid_hash(self, uid_hash: str) -> 'DataStream':
        self._node.uid_hash = uid_hash
        return self

    def set_parallelism(self, parallelism: int) -> 'DataStream':
        self._node.parallelism = parallelism
        return self

    def set_max_parallelism(self, max_parallelism: int) -> 'DataStream':
        """The number of key groups of a keyed operator: which subtask each key goes to depends on it."""
        if max_parallelism <= 0:
            raise illegal_argument("The maximum parallelism must be greater than 0.", "setMaxParallelism")
        if max_parallelism > _UPPER_BOUND_MAX_PARALLELISM:
            raise illegal_argument("Maximum parallelism must be between 1 and %d. Found: %d"
                                   % (_UPPER_BOUND_MAX_PARALLELISM, max_parallelism), "setMaxParallelism")
        self._node.max_parallelism = max_parallelism
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

    @no_effect("recorded in the plan; Spark sends a micro-batch's records when the batch is done")
    def set_buffer_timeout(self, timeout_millis: int) -> 'DataStream':
        self._node.buffer_timeout = timeout_millis
        return self

    def start_new_chain(self) -> 'DataStream':
        self._node.chaining = graph.CHAIN_HEAD
        return self

    def disable_chaining(self) -> 'DataStream':
        self._node.chaining = graph.CHAIN_NEVER
        return self

    @no_effect("Spark has no task slots: it schedules tasks itself")
    def slot_sharing_group(self, slot_sharing_group) -> 'DataStream':
        self._node.slot_sharing_group = _slot_sharing_group_name(slot_sharing_group)
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
    def _partitioned(self, partitioner: str) -> 'DataStream':
        node = graph.Node(kind=graph.PARTITION, name=partitioner, output_type=self._node.output_type,
                          input=self._node, payload=partitioner)
        return DataStream((node, self._env))

    def shuffle(self) -> 'DataStream':
        return self._partitioned("SHUFFLE")

    def rescale(self) -> 'DataStream':
        return self._partitioned("RESCALE")

    def rebalance(self) -> 'DataStream':
        return self._partitioned("REBALANCE")

    def forward(self) -> 'DataStream':
        return self._partitioned("FORWARD")

    def process(self, func: ProcessFunction, output_type: TypeInformation = None) -> 'DataStream':
        """Applies ``func`` to every element; it yields any number of outputs, and ``(output_tag, value)``
        pairs for the side outputs asked for with ``get_side_output``."""
        return self._then(graph.PROCESS, "PROCESS", func, output_type or Types.PICKLED_BYTE_ARRAY())

    def assign_timestamps_and_watermarks(self, watermark_strategy: WatermarkStrategy) -> 'DataStream':
        """Timestamps from the strategy's assigner (``extract_timestamp(value, record_timestamp)``, the
        latter Long.MIN_VALUE when the element has none), and watermarks generated from them."""
        node = graph.Node(kind=graph.ASSIGN_TIMESTAMPS, name="Timestamps/Watermarks",
                          output_type=self._node.output_type, input=self._node,
                          payload=watermark_strategy._timestamp_assigner,
                          watermark_spec=watermark_strategy._j_watermark_strategy)
        if node.payload is not None:       # PyFlink's three operators: extract, generate, remove the timestamp
            node.reserved_ids = (graph.new_id(), graph.new_id())
        return DataStream((node, self._env))

    def get_side_output(self, output_tag: OutputTag) -> 'DataStream':
        """The elements this operation emitted as ``(output_tag, value)``, typed as the tag says."""
        self._node.side_output_tags[output_tag.tag_id] = output_tag
        node = graph.Node(kind=graph.SIDE_OUTPUT, name="SideOutput", output_type=output_tag.type_info,
                          input=self._node, payload=output_tag)
        return DataStream((node, self._env))

    def key_by(self, key_selector: Union[Callable, KeySelector], key_type: TypeInformation = None) -> 'KeyedStream':
        """Partitions the stream by the key ``key_selector`` returns (a KeySelector or a callable)."""
        if not isinstance(key_selector, KeySelector) and not callable(key_selector):
            raise TypeError("Parameter key_selector should be type of KeySelector or a callable function.")
        selection = graph.KeySelection(key_selector, key_type or Types.PICKLED_BYTE_ARRAY())
        node = graph.Node(kind=graph.KEY_BY, name="_stream_key_by_map_operator", output_type=self._node.output_type,
                          input=self._node, payload=selection)
        return KeyedStream((node, self._env), self._node.output_type, self)

    def window_all(self, window_assigner: WindowAssigner) -> 'AllWindowedStream':
        """Windows over the whole (non-keyed) stream."""
        return AllWindowedStream(self, window_assigner)

    def union(self, *streams: 'DataStream') -> 'DataStream':
        """The elements of this stream and of ``streams``, merged (a stream given twice is merged twice)."""
        inputs = [self._node]
        for stream in streams:
            other = stream._node
            if other.output_type != self._node.output_type:
                raise illegal_argument("Cannot union streams of different types: %s and %s"
                                       % (self._node.output_type, other.output_type), "union")
            inputs.append(other)
        node = graph.Node(kind=graph.UNION, name="Union", output_type=self._node.output_type,
                          inputs=tuple(inputs))
        return DataStream((node, self._env))

    def connect(self, ds: Union['DataStream', 'BroadcastStream']) \
            -> Union['ConnectedStreams', 'BroadcastConnectedStream']:
        """A stream whose two inputs one operator processes together (CoMap/CoFlatMap/CoProcess functions);
        with a BroadcastStream, its elements reach every parallel instance (broadcast process functions)."""
        if isinstance(ds, BroadcastStream):
            return BroadcastConnectedStream(self, ds, ds.broadcast_state_descriptors)
        return ConnectedStreams(self, ds)

    def broadcast(self, broadcast_state_descriptor: MapStateDescriptor = None,
                  *other_broadcast_state_descriptors: MapStateDescriptor) -> Union['DataStream', 'BroadcastStream']:
        """With MapStateDescriptors: a BroadcastStream to ``connect`` to, its elements delivered to every
        parallel instance with those broadcast states. Without: every element to every instance of the next
        operation."""
        if broadcast_state_descriptor is None:
            unsupported("DataStream.broadcast() without broadcast state descriptors", "multi-input-streams")()
        descriptors = [broadcast_state_descriptor, *other_broadcast_state_descriptors]
        for descriptor in descriptors:
            if not isinstance(descriptor, MapStateDescriptor):
                raise TypeError("broadcast_state_descriptor must be MapStateDescriptor")
        return BroadcastStream(self._partitioned("BROADCAST"), descriptors)

    def project(self, *field_indexes: int) -> 'DataStream':
        """The tuples' fields at ``field_indexes``, in that order, as a tuple stream (Flink's Projection)."""
        from pyflink_compat.common.typeinfo import TupleTypeInfo
        from pyflink_compat.util.exceptions import JavaStyleError
        input_type = self._node.output_type
        if not isinstance(input_type, TupleTypeInfo):
            raise Exception('Only Tuple DataStreams can be projected.')
        if not field_indexes:
            raise illegal_argument("project() needs to select at least one (1) field.", "project")
        if len(field_indexes) > _MAX_PROJECTED_FIELDS:
            raise illegal_argument("project() may select only up to (%d) fields." % _MAX_PROJECTED_FIELDS,
                                   "project")
        field_types = input_type.get_field_types()
        for index in field_indexes:
            if not 0 <= index < len(field_types):
                raise JavaStyleError("java.lang.IndexOutOfBoundsException",
                                     "Index: %d, Size: %d" % (index, len(field_types)), "project")
        output_type = Types.TUPLE([field_types[index] for index in field_indexes])
        return self._then(graph.PROJECT, "Projection", tuple(field_indexes), output_type)

    def partition_custom(self, partitioner: Union[Callable, Partitioner],
                         key_selector: Union[Callable, KeySelector]) -> 'DataStream':
        """Each element to the parallel instance of the next operation that ``partitioner(key, n)`` picks for
        its key (``key_selector``), n being that operation's parallelism."""
        if not isinstance(partitioner, Partitioner) and not callable(partitioner):
            raise TypeError("Parameter partitioner should be type of Partitioner or a callable function.")
        if not isinstance(key_selector, KeySelector) and not callable(key_selector):
            raise TypeError("Parameter key_selector should be type of KeySelector or a callable function.")
        # PyFlink's operators for it: a Python map adding the partition, the custom partitioning, then the Python
        # map dropping it again (this node); Flink numbers them in that order.
        reserved = (graph.new_id(), graph.new_id())
        node = graph.Node(kind=graph.PARTITION_CUSTOM, name="_keyed_stream_values_operator",
                          output_type=self._node.output_type, input=self._node,
                          payload=graph.CustomPartitioning(partitioner, key_selector), reserved_ids=reserved)
        return DataStream((node, self._env))

    def cache(self) -> 'CachedDataStream':
        """The stream, marked as cached. Flink keeps a cached result only in BATCH mode, between jobs of one
        environment; a later job here computes it again (PyFlink 2.3 does too on its local executor)."""
        graph.new_id()                       # Flink's cache transformation takes an id
        return CachedDataStream((self._node, self._env))

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
        # PyFlink prints Python objects through a str() map it adds before the sink (one more plan node).
        conversion = (graph.new_id(),) if isinstance(self._node.output_type, PickledBytesTypeInfo) else ()
        sink = self._sink(graph.PRINT_SINK, "Print to Std. Out", sink_identifier)
        sink._node.reserved_ids = conversion
        return sink

    def execute_and_collect(self, job_execution_name: str = None, limit: int = None):
        from pyflink_compat.runtime import job
        node = graph.Node(kind=graph.COLLECT_SINK, name="Collect", output_type=self._node.output_type,
                          input=self._node, payload=None)
        self._env._add_sink(node)
        return job.execute_and_collect(self._env._job_plan(self._env._take_sinks()), node,
                                       job_execution_name, limit)


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

    @no_effect("recorded in the plan; checkpoints are kept per sink, see porting guide: checkpoints")
    def set_uid_hash(self, uid_hash: str) -> 'DataStreamSink':
        self._node.uid_hash = uid_hash
        return self

    def set_parallelism(self, parallelism: int) -> 'DataStreamSink':
        self._node.parallelism = parallelism
        return self

    def set_description(self, description: str) -> 'DataStreamSink':
        self._node.description = description
        return self

    def disable_chaining(self) -> 'DataStreamSink':
        self._node.chaining = graph.CHAIN_NEVER
        return self

    @no_effect("Spark has no task slots: it schedules tasks itself")
    def slot_sharing_group(self, slot_sharing_group) -> 'DataStreamSink':
        self._node.slot_sharing_group = _slot_sharing_group_name(slot_sharing_group)
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

class _AccumulateType(Enum):
    MIN = 1
    MAX = 2
    MIN_BY = 3
    MAX_BY = 4
    SUM = 5


_AccumulateType.__name__ = "AccumulateType"
_AccumulateType.__qualname__ = "KeyedStream.AccumulateType"


WINDOW_STATE_NAME = 'window-contents'
_KEYED_PARTITIONING = 'Cannot override partitioning for KeyedStream.'
_MAX_PROJECTED_FIELDS = 24         # Flink's Tuple25 less one


class KeyedStream(DataStream):
    """A stream partitioned by key: state and timers of the operations on it are per key."""

    AccumulateType = _AccumulateType

    def __init__(self, j_keyed_stream, original_data_type_info, origin_stream: DataStream):
        super(KeyedStream, self).__init__(j_keyed_stream)
        self._original_data_type_info = original_data_type_info
        self._origin_stream = origin_stream

    def _keyed(self, name, function, output_type) -> DataStream:
        node = graph.Node(kind=graph.KEYED_PROCESS, name=name, output_type=output_type, input=self._node,
                          payload=function)
        return DataStream((node, self._env))

    def map(self, func: Union[Callable, MapFunction], output_type: TypeInformation = None) -> DataStream:
        if not isinstance(func, MapFunction) and not callable(func):
            raise TypeError("The input must be a MapFunction or a callable function")
        return self._keyed("Map", keyed.KeyedMap(func), output_type or Types.PICKLED_BYTE_ARRAY())

    def flat_map(self, func: Union[Callable, FlatMapFunction], output_type: TypeInformation = None) -> DataStream:
        if not isinstance(func, FlatMapFunction) and not callable(func):
            raise TypeError("The input must be a FlatMapFunction or a callable function")
        return self._keyed("FlatMap", keyed.KeyedFlatMap(func), output_type or Types.PICKLED_BYTE_ARRAY())

    def filter(self, func: Union[Callable, FilterFunction]) -> DataStream:
        if not isinstance(func, FilterFunction) and not callable(func):
            raise TypeError("The input must be a FilterFunction or a callable function")
        return self._keyed("Filter", keyed.KeyedFilter(func), self._original_data_type_info)

    def reduce(self, func: Union[Callable, ReduceFunction]) -> DataStream:
        """A rolling reduce: one output per input element, the key's result so far."""
        if not isinstance(func, ReduceFunction) and not callable(func):
            raise TypeError("The input must be a ReduceFunction or a callable function")
        from pyflink_compat.datastream.execution_mode import RuntimeExecutionMode
        batch_mode = self._env._runtime_mode == RuntimeExecutionMode.BATCH
        return self._keyed("Reduce", keyed.ReduceKeyedProcessFunction(func, self._original_data_type_info, batch_mode),
                           self._original_data_type_info)

    def _accumulate(self, position: Union[int, str], kind: str) -> DataStream:
        if not isinstance(position, int) and not isinstance(position, str):
            raise TypeError("The field position must be of int or str type to locate the value to calculate for "
                            "min, max, min_by, max_by and sum.The given type is: %s" % type(position))
        return self.reduce(keyed.AccumulateReduceFunction(position, kind))

    def sum(self, position_to_sum: Union[int, str] = 0) -> DataStream:
        return self._accumulate(position_to_sum, keyed.SUM)

    def min(self, position_to_min: Union[int, str] = 0) -> DataStream:
        return self._accumulate(position_to_min, keyed.MIN)

    def max(self, position_to_max: Union[int, str] = 0) -> DataStream:
        return self._accumulate(position_to_max, keyed.MAX)

    def min_by(self, position_to_min_by: Union[int, str] = 0) -> DataStream:
        return self._accumulate(position_to_min_by, keyed.MIN_BY)

    def max_by(self, position_to_max_by: Union[int, str] = 0) -> DataStream:
        return self._accumulate(position_to_max_by, keyed.MAX_BY)

    def process(self, func: KeyedProcessFunction, output_type: TypeInformation = None) -> DataStream:
        if not isinstance(func, KeyedProcessFunction):
            raise TypeError("KeyedProcessFunction is required for KeyedStream.")
        return self._keyed("KEYED PROCESS", func, output_type or Types.PICKLED_BYTE_ARRAY())

    def window(self, window_assigner: WindowAssigner) -> 'WindowedStream':
        return WindowedStream(self, window_assigner)

    def count_window(self, size: int, slide: int = 0) -> 'WindowedStream':
        if slide == 0:
            return WindowedStream(self, CountTumblingWindowAssigner(size))
        return WindowedStream(self, CountSlidingWindowAssigner(size, slide))

    def key_by(self, key_selector: Union[Callable, KeySelector], key_type: TypeInformation = None) -> 'KeyedStream':
        return self._origin_stream.key_by(key_selector, key_type)

    def _values(self) -> DataStream:
        """The elements without their key (a keyed identity map, as PyFlink inserts before sinks)."""
        return self.map(lambda x: x, output_type=self._original_data_type_info)

    def print(self, sink_identifier=None):
        return self._values().print()          # PyFlink ignores the identifier here

    def add_sink(self, sink_func: SinkFunction):
        return self._values().add_sink(sink_func)

    def sink_to(self, sink):
        return self._values().sink_to(sink)

    def union(self, *streams) -> DataStream:
        return self._values().union(*streams)

    def execute_and_collect(self, job_execution_name: str = None, limit: int = None):
        return self._values().execute_and_collect(job_execution_name, limit)

    def project(self, *field_indexes) -> DataStream:
        return self._values().project(*field_indexes)

    # Partitioning and operator settings are refused on a keyed stream, with PyFlink's messages.
    def shuffle(self) -> DataStream:
        raise Exception(_KEYED_PARTITIONING)

    def rescale(self) -> DataStream:
        raise Exception(_KEYED_PARTITIONING)

    def rebalance(self) -> DataStream:
        raise Exception(_KEYED_PARTITIONING)

    def forward(self) -> DataStream:
        raise Exception(_KEYED_PARTITIONING)

    def broadcast(self, *args):
        raise Exception(_KEYED_PARTITIONING)

    def partition_custom(self, partitioner, key_selector) -> DataStream:
        raise Exception(_KEYED_PARTITIONING)

    def set_parallelism(self, parallelism: int):
        raise Exception("Set parallelism for KeyedStream is not supported.")

    def name(self, name: str):
        raise Exception("Set name for KeyedStream is not supported.")

    def get_name(self) -> str:
        raise Exception("Get name of KeyedStream is not supported.")

    def uid(self, uid: str):
        raise Exception("Set uid for KeyedStream is not supported.")

    def set_uid_hash(self, uid_hash: str):
        raise Exception("Set uid hash for KeyedStream is not supported.")

    def set_max_parallelism(self, max_parallelism: int):
        raise Exception("Set max parallelism for KeyedStream is not supported.")

    def force_non_parallel(self):
        raise Exception("Set force non-parallel for KeyedStream is not supported.")

    def set_buffer_timeout(self, timeout_millis: int):
        raise Exception("Set buffer timeout for KeyedStream is not supported.")

    def start_new_chain(self) -> DataStream:
        raise Exception("Start new chain for KeyedStream is not supported.")

    def disable_chaining(self) -> DataStream:
        raise Exception("Disable chaining for KeyedStream is not supported.")

    def slot_sharing_group(self, slot_sharing_group) -> DataStream:
        raise Exception("Setting slot sharing group for KeyedStream is not supported.")

    def cache(self):
        raise Exception("Cache for KeyedStream is not supported.")


class _WindowedStreamBase(object):
    """What WindowedStream and AllWindowedStream share: settings, then one window operation."""
    _KIND = "Window"
    _FUNCTION_TYPES = (WindowFunction, ProcessWindowFunction)
    _FUNCTION_TYPE_ERROR = "window_function should be a WindowFunction or ProcessWindowFunction"
    # the Internal*WindowFunction wrappers: single value / iterable, plain / process, and the pass-through
    _SINGLE, _SINGLE_PROCESS, _ITERABLE, _ITERABLE_PROCESS, _PASS_THROUGH = (
        InternalSingleValueWindowFunction, InternalSingleValueProcessWindowFunction, InternalIterableWindowFunction,
        InternalIterableProcessWindowFunction, PassThroughWindowFunction)

    def __init__(self, keyed_stream: KeyedStream, window_assigner: WindowAssigner):
        self._keyed_stream = keyed_stream
        self._window_assigner = window_assigner
        self._allowed_lateness = 0
        self._late_data_output_tag = None
        self._window_trigger = None

    def get_execution_environment(self):
        return self._keyed_stream.get_execution_environment()

    def get_input_type(self):
        return self._keyed_stream._original_data_type_info

    def trigger(self, trigger: Trigger):
        self._window_trigger = trigger
        return self

    def allowed_lateness(self, time_ms: int):
        self._allowed_lateness = time_ms
        return self

    def side_output_late_data(self, output_tag: OutputTag):
        self._late_data_output_tag = output_tag
        return self

    def _single_value(self, window_function):
        plain, process = self._FUNCTION_TYPES
        if window_function is None:
            return self._SINGLE(self._PASS_THROUGH())
        if isinstance(window_function, plain):
            return self._SINGLE(window_function)
        if isinstance(window_function, process):
            return self._SINGLE_PROCESS(window_function)
        raise TypeError(self._FUNCTION_TYPE_ERROR)

    def reduce(self, reduce_function: Union[Callable, ReduceFunction], window_function=None,
               output_type: TypeInformation = None) -> DataStream:
        internal = self._single_value(window_function)
        if window_function is None and output_type is None:
            output_type = self.get_input_type()
        state = ReducingStateDescriptor(WINDOW_STATE_NAME, reduce_function, self.get_input_type())
        return self._result(internal, state, _describe(reduce_function, window_function), output_type)

    def aggregate(self, aggregate_function: AggregateFunction, window_function=None,
                  accumulator_type: TypeInformation = None, output_type: TypeInformation = None) -> DataStream:
        internal = self._single_value(window_function)
        if accumulator_type is None:
            accumulator_type = Types.PICKLED_BYTE_ARRAY()
        elif isinstance(accumulator_type, list):
            accumulator_type = RowTypeInfo(accumulator_type)
        state = AggregatingStateDescriptor(WINDOW_STATE_NAME, aggregate_function, accumulator_type)
        return self._result(internal, state, _describe(aggregate_function, window_function), output_type)

    def apply(self, window_function, output_type: TypeInformation = None) -> DataStream:
        state = ListStateDescriptor(WINDOW_STATE_NAME, self.get_input_type())
        return self._result(self._ITERABLE(window_function), state, type(window_function).__name__, output_type)

    def process(self, process_window_function, output_type: TypeInformation = None) -> DataStream:
        state = ListStateDescriptor(WINDOW_STATE_NAME, self.get_input_type())
        return self._result(self._ITERABLE_PROCESS(process_window_function), state,
                            type(process_window_function).__name__, output_type)

    def _result(self, internal_function, state_descriptor, function_description, output_type) -> DataStream:
        if self._window_trigger is None:
            self._window_trigger = self._window_assigner.get_default_trigger(self.get_execution_environment())
        descriptor = WindowOperationDescriptor(
            self._window_assigner, self._window_trigger, self._allowed_lateness, self._late_data_output_tag,
            state_descriptor, self._window_assigner.get_window_serializer(), internal_function)
        node = graph.Node(kind=graph.WINDOW, name=descriptor.generate_op_name(),
                          output_type=output_type or Types.PICKLED_BYTE_ARRAY(), input=self._keyed_stream._node,
                          payload=descriptor,
                          description=descriptor.generate_op_desc(self._KIND, function_description))
        return DataStream((node, self._keyed_stream._env))


def _describe(function, window_function) -> str:
    text = type(function).__name__
    if window_function is not None:
        text = "%s, %s" % (text, type(window_function).__name__)
    return text


class WindowedStream(_WindowedStreamBase):
    """A keyed stream split into windows by a WindowAssigner; one window operation makes it a DataStream."""


class AllWindowedStream(_WindowedStreamBase):
    """A whole (non-keyed) stream split into windows: a keyed window on one constant key, as in PyFlink."""
    _KIND = "AllWindow"
    _FUNCTION_TYPES = (AllWindowFunction, ProcessAllWindowFunction)
    _FUNCTION_TYPE_ERROR = "window_function should be a AllWindowFunction or ProcessAllWindowFunction"
    _SINGLE, _SINGLE_PROCESS, _ITERABLE, _ITERABLE_PROCESS, _PASS_THROUGH = (
        InternalSingleValueAllWindowFunction, InternalSingleValueProcessAllWindowFunction,
        InternalIterableAllWindowFunction, InternalIterableProcessAllWindowFunction, PassThroughAllWindowFunction)

    def __init__(self, data_stream: DataStream, window_assigner: WindowAssigner):
        super().__init__(data_stream.key_by(NullByteKeySelector()), window_assigner)


def _type_of(output_type) -> TypeInformation:
    """PyFlink's output_type of a two-input operation: None (pickled), a list (a Row of those types) or a type."""
    if output_type is None:
        return Types.PICKLED_BYTE_ARRAY()
    if isinstance(output_type, list):
        return RowTypeInfo(output_type)
    if isinstance(output_type, TypeInformation):
        return output_type
    raise TypeError("output_type must be None, list or TypeInformation")


def _two_input(kind, name, first: DataStream, second: DataStream, payload, output_type) -> DataStream:
    """A two-input operator node, each input behind its port (which input an element came through)."""
    ports = tuple(graph.Node(kind=graph.CO_INPUT, name="Input %d" % side, output_type=stream._node.output_type,
                             input=stream._node, payload=side) for side, stream in ((1, first), (2, second)))
    node = graph.Node(kind=kind, name=name, output_type=_type_of(output_type), payload=payload, inputs=ports)
    return DataStream((node, first._env))


class _CoMapAdapter(object):
    """A CoMapFunction as the co-process function PyFlink runs for it (a None result is dropped)."""

    def __init__(self, co_map_func: CoMapFunction):
        self._func = co_map_func

    def open(self, runtime_context):
        self._func.open(runtime_context)

    def close(self):
        self._func.close()

    def process_element1(self, value, ctx):
        result = self._func.map1(value)
        if result is not None:
            yield result

    def process_element2(self, value, ctx):
        result = self._func.map2(value)
        if result is not None:
            yield result


class _CoFlatMapAdapter(_CoMapAdapter):
    """A CoFlatMapFunction as the co-process function PyFlink runs for it."""

    def process_element1(self, value, ctx):
        result = self._func.flat_map1(value)
        if result:
            yield from result

    def process_element2(self, value, ctx):
        result = self._func.flat_map2(value)
        if result:
            yield from result


class _KeyedCoMapAdapter(_CoMapAdapter, KeyedCoProcessFunction):
    pass


class _KeyedCoFlatMapAdapter(_CoFlatMapAdapter, KeyedCoProcessFunction):
    pass


class _NonKeyedCoMapAdapter(_CoMapAdapter, CoProcessFunction):
    pass


class _NonKeyedCoFlatMapAdapter(_CoFlatMapAdapter, CoProcessFunction):
    pass


class ConnectedStreams(object):
    """Two streams, possibly of different types, processed by one operator: ``map``/``flat_map``/``process``
    call the function's first method for the first stream's elements and its second for the other's. Keyed
    (``key_by(k1, k2)``, or two KeyedStreams connected), both inputs share the key's state and timers."""

    def __init__(self, stream1: DataStream, stream2: DataStream):
        self.stream1 = stream1
        self.stream2 = stream2

    def key_by(self, key_selector1: Union[Callable, KeySelector], key_selector2: Union[Callable, KeySelector],
               key_type: TypeInformation = None) -> 'ConnectedStreams':
        ds1 = self.stream1._origin_stream if isinstance(self.stream1, KeyedStream) else self.stream1
        ds2 = self.stream2._origin_stream if isinstance(self.stream2, KeyedStream) else self.stream2
        return ConnectedStreams(ds1.key_by(key_selector1, key_type), ds2.key_by(key_selector2, key_type))

    def map(self, func: CoMapFunction, output_type: TypeInformation = None) -> DataStream:
        if not isinstance(func, CoMapFunction):
            raise TypeError("The input function must be a CoMapFunction!")
        adapter = _KeyedCoMapAdapter(func) if self._is_keyed_stream() else _NonKeyedCoMapAdapter(func)
        return self.process(adapter, output_type).name("Co-Map")

    def flat_map(self, func: CoFlatMapFunction, output_type: TypeInformation = None) -> DataStream:
        if not isinstance(func, CoFlatMapFunction):
            raise TypeError("The input must be a CoFlatMapFunction!")
        adapter = _KeyedCoFlatMapAdapter(func) if self._is_keyed_stream() else _NonKeyedCoFlatMapAdapter(func)
        return self.process(adapter, output_type).name("Co-Flat Map")

    def process(self, func: Union[CoProcessFunction, KeyedCoProcessFunction],
                output_type: TypeInformation = None) -> DataStream:
        if not isinstance(func, CoProcessFunction) and not isinstance(func, KeyedCoProcessFunction):
            raise TypeError("The input must be a CoProcessFunction or KeyedCoProcessFunction!")
        if self._is_keyed_stream():
            return _two_input(graph.KEYED_CO_PROCESS, "Keyed Co-Process", self.stream1, self.stream2, func,
                              output_type)
        if isinstance(self.stream1, KeyedStream) or isinstance(self.stream2, KeyedStream):
            unsupported("ConnectedStreams of a keyed and a non-keyed stream", "multi-input-streams")()
        return _two_input(graph.CO_PROCESS, "Co-Process", self.stream1, self.stream2, func, output_type)

    def _is_keyed_stream(self):
        return isinstance(self.stream1, KeyedStream) and isinstance(self.stream2, KeyedStream)


class BroadcastStream(object):
    """A stream whose elements reach every parallel instance of the operator it is connected to, with the
    broadcast states its MapStateDescriptors name (``DataStream.broadcast``). Only ``connect`` takes it."""

    def __init__(self, input_stream: DataStream, broadcast_state_descriptors: list):
        self.input_stream = input_stream
        self.broadcast_state_descriptors = broadcast_state_descriptors


class BroadcastConnectedStream(object):
    """A keyed or non-keyed stream connected with a BroadcastStream: ``process`` applies a
    (Keyed)BroadcastProcessFunction, whose broadcast side writes the broadcast state every instance reads."""

    def __init__(self, non_broadcast_stream: DataStream, broadcast_stream: BroadcastStream,
                 broadcast_state_descriptors: list):
        self.non_broadcast_stream = non_broadcast_stream
        self.broadcast_stream = broadcast_stream
        self.broadcast_state_descriptors = broadcast_state_descriptors

    def process(self, func: Union[BroadcastProcessFunction, KeyedBroadcastProcessFunction],
                output_type: TypeInformation = None) -> DataStream:
        if isinstance(func, BroadcastProcessFunction) and self._is_keyed_stream():
            raise TypeError("BroadcastProcessFunction should be applied to non-keyed DataStream")
        if isinstance(func, KeyedBroadcastProcessFunction) and (not self._is_keyed_stream()):
            raise TypeError("KeyedBroadcastProcessFunction should be applied to keyed DataStream")
        spec = graph.BroadcastSpec(func, tuple(self.broadcast_state_descriptors))
        if self._is_keyed_stream():
            return _two_input(graph.KEYED_BROADCAST_PROCESS, "Keyed-Co-Process-Broadcast", self.non_broadcast_stream,
                              self.broadcast_stream.input_stream, spec, output_type)
        return _two_input(graph.BROADCAST_PROCESS, "Co-Process-Broadcast", self.non_broadcast_stream,
                          self.broadcast_stream.input_stream, spec, output_type)

    def _is_keyed_stream(self):
        return isinstance(self.non_broadcast_stream, KeyedStream)


class CachedDataStream(DataStream):
    """What ``cache()`` returns: the stream, with PyFlink's refusals of settings on it."""

    @no_effect("a later job computes the stream again; see porting guide: unsupported-apis")
    def invalidate(self):
        pass

    def set_parallelism(self, parallelism: int):
        raise Exception("Set parallelism for CachedDataStream is not supported.")

    def name(self, name: str):
        raise Exception("Set name for CachedDataStream is not supported.")

    def get_name(self) -> str:
        raise Exception("Get name of CachedDataStream is not supported.")

    def uid(self, uid: str):
        raise Exception("Set uid for CachedDataStream is not supported.")

    def set_uid_hash(self, uid_hash: str):
        raise Exception("Set uid hash for CachedDataStream is not supported.")

    def set_max_parallelism(self, max_parallelism: int):
        raise Exception("Set max parallelism for CachedDataStream is not supported.")

    def force_non_parallel(self):
        raise Exception("Set force non-parallel for CachedDataStream is not supported.")

    def set_buffer_timeout(self, timeout_millis: int):
        raise Exception("Set buffer timeout for CachedDataStream is not supported.")

    def start_new_chain(self) -> DataStream:
        raise Exception("Start new chain for CachedDataStream is not supported.")

    def disable_chaining(self) -> DataStream:
        raise Exception("Disable chaining for CachedDataStream is not supported.")

    def slot_sharing_group(self, slot_sharing_group) -> DataStream:
        raise Exception("Setting slot sharing group for CachedDataStream is not supported.")

"""User-defined function base classes (mirror of ``pyflink.datastream.functions``).

These are the classes users subclass (``MapFunction``, ``KeyedProcessFunction``,
``ProcessWindowFunction``, ...), with PyFlink's abstract methods, plus the
runtime-facing pieces (``RuntimeContext``, window-function adapters). All pure
Python; nothing here talks to a JVM.

pyflink-compat additions: :class:`SimpleRuntimeContext`, a concrete
``RuntimeContext`` the runtime hands to ``Function.open``.
"""
import abc
from abc import ABC, abstractmethod
from enum import Enum
from typing import Any, Callable, Dict, Generic, Iterable, List, Optional, TypeVar

from pyflink_compat.datastream.state import (AggregatingState, AggregatingStateDescriptor,
                                             BroadcastState, ListState, ListStateDescriptor,
                                             MapState, MapStateDescriptor,
                                             ReadOnlyBroadcastState, ReducingState,
                                             ReducingStateDescriptor, ValueState,
                                             ValueStateDescriptor)
from pyflink_compat.datastream.time_domain import TimeDomain
from pyflink_compat.datastream.timerservice import TimerService
from pyflink_compat.metrics.group import OperatorMetricGroup
from pyflink_compat.util.exceptions import unsupported

__all__ = [
    'RuntimeContext',
    'MapFunction',
    'CoMapFunction',
    'FlatMapFunction',
    'CoFlatMapFunction',
    'ReduceFunction',
    'AggregateFunction',
    'KeySelector',
    'FilterFunction',
    'Partitioner',
    'SourceFunction',
    'SinkFunction',
    'ProcessFunction',
    'CoProcessFunction',
    'KeyedProcessFunction',
    'KeyedCoProcessFunction',
    'TimerService',
    'WindowFunction',
    'AllWindowFunction',
    'ProcessWindowFunction',
    'ProcessAllWindowFunction',
    'BaseBroadcastProcessFunction',
    'BroadcastProcessFunction',
    'KeyedBroadcastProcessFunction',
    'AsyncFunction',
    'AsyncFunctionDescriptor',
    'AsyncRetryPredicate',
    'AsyncRetryStrategy',
]

W = TypeVar('W')
W2 = TypeVar('W2')
IN = TypeVar('IN')
IN1 = TypeVar('IN1')
IN2 = TypeVar('IN2')
OUT = TypeVar('OUT')
KEY = TypeVar('KEY')


# ---------------------------------------------------------------------------------------------
# Runtime context
# ---------------------------------------------------------------------------------------------

class KeyedStateStore(ABC):
    """Gives access to keyed (partitioned) state."""

    @abstractmethod
    def get_state(self, state_descriptor: ValueStateDescriptor) -> ValueState:
        pass

    @abstractmethod
    def get_list_state(self, state_descriptor: ListStateDescriptor) -> ListState:
        pass

    @abstractmethod
    def get_map_state(self, state_descriptor: MapStateDescriptor) -> MapState:
        pass

    @abstractmethod
    def get_reducing_state(self, state_descriptor: ReducingStateDescriptor) -> ReducingState:
        pass

    @abstractmethod
    def get_aggregating_state(
            self, state_descriptor: AggregatingStateDescriptor) -> AggregatingState:
        pass


class RuntimeContext(KeyedStateStore):
    """Information about the parallel instance a function runs in, and its state."""

    @abstractmethod
    def get_task_name(self) -> str:
        pass

    @abstractmethod
    def get_number_of_parallel_subtasks(self) -> int:
        pass

    @abstractmethod
    def get_max_number_of_parallel_subtasks(self) -> int:
        pass

    @abstractmethod
    def get_index_of_this_subtask(self) -> int:
        pass

    @abstractmethod
    def get_attempt_number(self) -> int:
        pass

    @abstractmethod
    def get_task_name_with_subtasks(self) -> str:
        pass

    @abstractmethod
    def get_job_parameter(self, key: str, default_value: str):
        pass

    @abstractmethod
    def get_metrics_group(self):
        pass


def _default_max_parallelism(parallelism: int) -> int:
    """Flink's default max parallelism: next power of two of 1.5 x parallelism, in [128, 32768]."""
    wanted = max(1, parallelism + parallelism // 2)
    power = 1
    while power < wanted:
        power <<= 1
    return min(max(power, 128), 32768)


class SimpleRuntimeContext(RuntimeContext):
    """pyflink-compat's RuntimeContext for functions that do not use keyed state.

    ``get_task_name_with_subtasks()`` follows Flink: ``"<task> (<index+1>/<parallelism>)#<attempt>"``.
    The max parallelism defaults to Flink's computed default. The keyed-state getters
    raise UnsupportedFeatureError; a stateful runtime provides its own context.
    """

    def __init__(self, task_name: str, subtask_index: int, parallelism: int,
                 job_parameters: Dict[str, str] = None, max_parallelism: int = None,
                 attempt_number: int = 0, metrics_group=None):
        self._task_name = task_name
        self._subtask_index = subtask_index
        self._parallelism = parallelism
        self._job_parameters = dict(job_parameters or {})
        self._max_parallelism = (max_parallelism if max_parallelism is not None and max_parallelism > 0
                                 else _default_max_parallelism(parallelism))
        self._attempt_number = attempt_number
        self._metrics_group = (metrics_group if metrics_group is not None
                               else OperatorMetricGroup(task_name, subtask_index))

    def get_task_name(self) -> str:
        return self._task_name

    def get_number_of_parallel_subtasks(self) -> int:
        return self._parallelism

    def get_max_number_of_parallel_subtasks(self) -> int:
        return self._max_parallelism

    def get_index_of_this_subtask(self) -> int:
        return self._subtask_index

    def get_attempt_number(self) -> int:
        return self._attempt_number

    def get_task_name_with_subtasks(self) -> str:
        return "%s (%d/%d)#%d" % (self._task_name, self._subtask_index + 1, self._parallelism,
                                  self._attempt_number)

    def get_job_parameter(self, key: str, default_value: str):
        return self._job_parameters.get(key, default_value)

    def get_metrics_group(self):
        return self._metrics_group

    get_state = unsupported("RuntimeContext.get_state", "state-and-windows")
    get_list_state = unsupported("RuntimeContext.get_list_state", "state-and-windows")
    get_map_state = unsupported("RuntimeContext.get_map_state", "state-and-windows")
    get_reducing_state = unsupported("RuntimeContext.get_reducing_state", "state-and-windows")
    get_aggregating_state = unsupported("RuntimeContext.get_aggregating_state",
                                        "state-and-windows")

    def __repr__(self):
        return "SimpleRuntimeContext(%r)" % self.get_task_name_with_subtasks()


# Named as PyFlink's runtime context class, which an error about a missing method names
SimpleRuntimeContext.__name__ = SimpleRuntimeContext.__qualname__ = "StreamingRuntimeContext"


# ---------------------------------------------------------------------------------------------
# Basic functions
# ---------------------------------------------------------------------------------------------

class Function(abc.ABC):
    """Base class of all user-defined functions: ``open`` and ``close`` do nothing by default."""

    def open(self, runtime_context: RuntimeContext):
        pass

    def close(self):
        pass


class MapFunction(Function):
    """One output element per input element."""

    @abstractmethod
    def map(self, value):
        pass


class CoMapFunction(Function):
    """A map over two connected streams: ``map1`` for the first, ``map2`` for the second."""

    @abstractmethod
    def map1(self, value):
        pass

    @abstractmethod
    def map2(self, value):
        pass


class FlatMapFunction(Function):
    """Zero or more outputs per input: ``flat_map`` returns an iterable (or is a generator)."""

    @abstractmethod
    def flat_map(self, value):
        pass


class CoFlatMapFunction(Function):
    """A flat map over two connected streams."""

    @abstractmethod
    def flat_map1(self, value):
        pass

    @abstractmethod
    def flat_map2(self, value):
        pass


class ReduceFunction(Function):
    """Combines two values of the same type into one."""

    @abstractmethod
    def reduce(self, value1, value2):
        pass


class AggregateFunction(Function):
    """Incremental aggregation through an accumulator."""

    @abstractmethod
    def create_accumulator(self):
        pass

    @abstractmethod
    def add(self, value, accumulator):
        pass

    @abstractmethod
    def get_result(self, accumulator):
        pass

    @abstractmethod
    def merge(self, acc_a, acc_b):
        pass


class KeySelector(Function):
    """Extracts a deterministic key from an element."""

    @abstractmethod
    def get_key(self, value):
        pass


class NullByteKeySelector(KeySelector):
    """Gives every element the same key, 0 (keyed operators used for non-keyed streams)."""

    def get_key(self, value):
        return 0


class FilterFunction(Function):
    """Keeps the elements for which ``filter`` returns true."""

    @abstractmethod
    def filter(self, value):
        pass


class Partitioner(Function):
    """Chooses the partition (0 <= p < num_partitions) of a key."""

    @abstractmethod
    def partition(self, key: Any, num_partitions: int) -> int:
        pass


class FunctionWrapper(Function):
    """Wraps a plain callable as a Function."""

    def __init__(self, func):
        self._func = func


class ReduceFunctionWrapper(FunctionWrapper):
    """A callable ``(value1, value2) -> value`` used as a ReduceFunction."""

    def __init__(self, func):
        super(ReduceFunctionWrapper, self).__init__(func)

    def reduce(self, value1, value2):
        return self._func(value1, value2)


class JavaFunctionWrapper(object):
    """Holds a function implemented in Java: a class name or a Java object.

    pyflink-compat has no JVM; the value is only kept (``get_java_function``
    returns it), and operators that would need to run it are unsupported.
    """

    def __init__(self, j_function):
        self._j_function = j_function

    def get_java_function(self):
        return self._j_function


class SourceFunction(JavaFunctionWrapper):
    """A legacy (Java) stream source, given by class name or Java object."""

    def __init__(self, source_func):
        super(SourceFunction, self).__init__(source_func)


class SinkFunction(JavaFunctionWrapper):
    """A legacy (Java) sink, given by class name or Java object."""

    def __init__(self, sink_func):
        super(SinkFunction, self).__init__(sink_func)


# ---------------------------------------------------------------------------------------------
# Process functions
# ---------------------------------------------------------------------------------------------

class ProcessFunction(Function):
    """Processes each element; ``process_element`` yields the outputs."""

    class Context(ABC):
        """What ``process_element`` can query."""

        @abstractmethod
        def timer_service(self) -> TimerService:
            pass

        @abstractmethod
        def timestamp(self) -> int:
            pass

    @abstractmethod
    def process_element(self, value, ctx: 'ProcessFunction.Context'):
        pass


class KeyedProcessFunction(Function):
    """Processes each element of a keyed stream, with timers; both methods yield outputs."""

    class Context(ABC):

        @abstractmethod
        def get_current_key(self):
            pass

        @abstractmethod
        def timer_service(self) -> TimerService:
            pass

        @abstractmethod
        def timestamp(self) -> int:
            pass

    class OnTimerContext(Context):

        @abstractmethod
        def time_domain(self) -> TimeDomain:
            pass

    @abstractmethod
    def process_element(self, value, ctx: 'KeyedProcessFunction.Context'):
        pass

    def on_timer(self, timestamp: int, ctx: 'KeyedProcessFunction.OnTimerContext'):
        pass


class CoProcessFunction(Function):
    """Processes the elements of two connected streams."""

    class Context(ABC):

        @abstractmethod
        def timer_service(self) -> TimerService:
            pass

        @abstractmethod
        def timestamp(self) -> int:
            pass

    @abstractmethod
    def process_element1(self, value, ctx: 'CoProcessFunction.Context'):
        pass

    @abstractmethod
    def process_element2(self, value, ctx: 'CoProcessFunction.Context'):
        pass


class KeyedCoProcessFunction(Function):
    """Processes the elements of two connected keyed streams, with timers."""

    class Context(ABC):

        @abstractmethod
        def get_current_key(self):
            pass

        @abstractmethod
        def timer_service(self) -> TimerService:
            pass

        @abstractmethod
        def timestamp(self) -> int:
            pass

    class OnTimerContext(Context):

        @abstractmethod
        def time_domain(self) -> TimeDomain:
            pass

    @abstractmethod
    def process_element1(self, value, ctx: 'KeyedCoProcessFunction.Context'):
        pass

    @abstractmethod
    def process_element2(self, value, ctx: 'KeyedCoProcessFunction.Context'):
        pass

    def on_timer(self, timestamp: int, ctx: 'KeyedCoProcessFunction.OnTimerContext'):
        pass


# ---------------------------------------------------------------------------------------------
# Async I/O
# ---------------------------------------------------------------------------------------------

class AsyncRetryPredicate(ABC, Generic[OUT]):
    """When to retry an async call: on some results and/or on some exceptions."""

    @abstractmethod
    def result_predicate(self) -> Optional[Callable[[List[OUT]], bool]]:
        pass

    @abstractmethod
    def exception_predicate(self) -> Optional[Callable[[Exception], bool]]:
        pass


class AsyncRetryStrategy(ABC, Generic[OUT]):
    """How often and how long after a failure an async call is retried."""

    @abstractmethod
    def can_retry(self, current_attempts: int) -> bool:
        pass

    @abstractmethod
    def get_backoff_time_millis(self, current_attempts: int) -> int:
        pass

    @abstractmethod
    def get_retry_predicate(self) -> AsyncRetryPredicate[OUT]:
        pass

    @staticmethod
    def no_restart():
        """Never retry."""
        from pyflink_compat.datastream.async_retry_strategies import NO_RETRY_STRATEGY
        return NO_RETRY_STRATEGY

    @staticmethod
    def fixed_delay(max_attempts: int,
                    backoff_time_millis: int,
                    result_predicate: Optional[Callable[[List[OUT]], bool]],
                    exception_predicate: Optional[Callable[[Exception], bool]]):
        """Retry up to ``max_attempts`` times, ``backoff_time_millis`` apart."""
        from pyflink_compat.datastream.async_retry_strategies import FixedDelayRetryStrategy
        return FixedDelayRetryStrategy(max_attempts, backoff_time_millis, result_predicate, exception_predicate)

    @staticmethod
    def exponential_backoff(max_attempts: int,
                            initial_delay: int,
                            max_retry_delay: int,
                            multiplier: float,
                            result_predicate: Optional[Callable[[List[OUT]], bool]],
                            exception_predicate: Optional[Callable[[Exception], bool]]):
        """Retry up to ``max_attempts`` times; the delay starts at ``initial_delay`` and is
        multiplied by ``multiplier`` each time, capped at ``max_retry_delay``."""
        from pyflink_compat.datastream.async_retry_strategies import ExponentialBackoffDelayRetryStrategy
        return ExponentialBackoffDelayRetryStrategy(max_attempts, initial_delay, max_retry_delay, multiplier,
                                                    result_predicate, exception_predicate)


class AsyncFunction(Function, Generic[IN, OUT]):
    """Asynchronous I/O: ``async_invoke`` is a coroutine returning the list of outputs."""

    @abstractmethod
    async def async_invoke(self, value: IN) -> List[OUT]:
        pass

    def timeout(self, value: IN) -> List[OUT]:
        """Called when ``async_invoke`` took too long; raises TimeoutError by default."""
        raise TimeoutError("Async function call has timed out for input: " + str(value))


class AsyncFunctionDescriptor(object):
    """Everything an async operator needs: the function, timeout, capacity, retries, order."""

    class OutputMode(Enum):
        ORDERED = 0
        UNORDERED = 1

    def __init__(self, async_function, timeout, capacity, async_retry_strategy, output_mode):
        self.async_function = async_function
        self.timeout = timeout
        self.capacity = capacity
        self.async_retry_strategy = async_retry_strategy
        self.output_mode = output_mode


# ---------------------------------------------------------------------------------------------
# Window functions
# ---------------------------------------------------------------------------------------------

class WindowFunction(Function, Generic[IN, OUT, KEY, W]):
    """Evaluated over the elements of a keyed window; returns/yields the outputs."""

    @abstractmethod
    def apply(self, key: KEY, window: W, inputs: Iterable[IN]) -> Iterable[OUT]:
        pass


class AllWindowFunction(Function, Generic[IN, OUT, W]):
    """Evaluated over the elements of a non-keyed window."""

    @abstractmethod
    def apply(self, window: W, inputs: Iterable[IN]) -> Iterable[OUT]:
        pass


class ProcessWindowFunction(Function, Generic[IN, OUT, KEY, W]):
    """Evaluated over a keyed window, with a context giving window, time and state."""

    class Context(ABC, Generic[W2]):
        """Window metadata and state."""

        @abstractmethod
        def window(self) -> W2:
            pass

        @abstractmethod
        def current_processing_time(self) -> int:
            pass

        @abstractmethod
        def current_watermark(self) -> int:
            pass

        @abstractmethod
        def window_state(self) -> KeyedStateStore:
            pass

        @abstractmethod
        def global_state(self) -> KeyedStateStore:
            pass

    @abstractmethod
    def process(self,
                key: KEY,
                context: 'ProcessWindowFunction.Context',
                elements: Iterable[IN]) -> Iterable[OUT]:
        pass

    def clear(self, context: 'ProcessWindowFunction.Context') -> None:
        """Called when the window is purged; clears per-window state (nothing by default)."""
        pass


class ProcessAllWindowFunction(Function, Generic[IN, OUT, W]):
    """Evaluated over a non-keyed window, with a context."""

    class Context(ABC, Generic[W2]):

        @abstractmethod
        def window(self) -> W2:
            pass

        @abstractmethod
        def window_state(self) -> KeyedStateStore:
            pass

        @abstractmethod
        def global_state(self) -> KeyedStateStore:
            pass

    @abstractmethod
    def process(self,
                context: 'ProcessAllWindowFunction.Context',
                elements: Iterable[IN]) -> Iterable[OUT]:
        pass

    def clear(self, context: 'ProcessAllWindowFunction.Context') -> None:
        pass


class PassThroughWindowFunction(WindowFunction[IN, IN, KEY, W]):
    """Emits the window's elements unchanged."""

    def apply(self, key: KEY, window: W, inputs: Iterable[IN]) -> Iterable[IN]:
        yield from inputs


class PassThroughAllWindowFunction(AllWindowFunction[IN, IN, W]):
    """Emits the window's elements unchanged."""

    def apply(self, window: W, inputs: Iterable[IN]) -> Iterable[IN]:
        yield from inputs


class InternalWindowFunction(Function, Generic[IN, OUT, KEY, W]):
    """The form in which the window operator calls a user window function."""

    class InternalWindowContext(ABC):

        @abstractmethod
        def current_processing_time(self) -> int:
            pass

        @abstractmethod
        def current_watermark(self) -> int:
            pass

        @abstractmethod
        def window_state(self) -> KeyedStateStore:
            pass

        @abstractmethod
        def global_state(self) -> KeyedStateStore:
            pass

    @abstractmethod
    def process(self, key: KEY, window: W, context: InternalWindowContext,
                input_data: IN) -> Iterable[OUT]:
        pass

    @abstractmethod
    def clear(self, window: W, context: InternalWindowContext):
        pass


class _WrappingWindowFunction(InternalWindowFunction):
    """open/close forward to the wrapped user function."""

    def __init__(self, wrapped_function):
        self._wrapped_function = wrapped_function

    def open(self, runtime_context: RuntimeContext):
        self._wrapped_function.open(runtime_context)

    def close(self):
        self._wrapped_function.close()


class InternalSingleValueWindowFunction(_WrappingWindowFunction):
    """Calls a WindowFunction with a single pre-aggregated value."""

    def __init__(self, wrapped_function: WindowFunction):
        super(InternalSingleValueWindowFunction, self).__init__(wrapped_function)

    def process(self, key, window, context: InternalWindowFunction.InternalWindowContext,
                input_data) -> Iterable:
        return self._wrapped_function.apply(key, window, [input_data])

    def clear(self, window, context: InternalWindowFunction.InternalWindowContext):
        pass


class InternalSingleValueAllWindowFunction(_WrappingWindowFunction):
    """Calls an AllWindowFunction with a single pre-aggregated value."""

    def __init__(self, wrapped_function: AllWindowFunction):
        super(InternalSingleValueAllWindowFunction, self).__init__(wrapped_function)

    def process(self, key: int, window, context: InternalWindowFunction.InternalWindowContext,
                input_data) -> Iterable:
        return self._wrapped_function.apply(window, [input_data])

    def clear(self, window, context: InternalWindowFunction.InternalWindowContext):
        pass


class InternalIterableWindowFunction(_WrappingWindowFunction):
    """Calls a WindowFunction with all the window's elements."""

    def __init__(self, wrapped_function: WindowFunction):
        super(InternalIterableWindowFunction, self).__init__(wrapped_function)

    def process(self, key, window, context: InternalWindowFunction.InternalWindowContext,
                input_data: Iterable) -> Iterable:
        return self._wrapped_function.apply(key, window, input_data)

    def clear(self, window, context: InternalWindowFunction.InternalWindowContext):
        pass


class InternalIterableAllWindowFunction(_WrappingWindowFunction):
    """Calls an AllWindowFunction with all the window's elements."""

    def __init__(self, wrapped_function: AllWindowFunction):
        super(InternalIterableAllWindowFunction, self).__init__(wrapped_function)

    def process(self, key: int, window, context: InternalWindowFunction.InternalWindowContext,
                input_data: Iterable) -> Iterable:
        return self._wrapped_function.apply(window, input_data)

    def clear(self, window, context: InternalWindowFunction.InternalWindowContext):
        pass


class InternalProcessWindowContext(ProcessWindowFunction.Context[W]):
    """The ProcessWindowFunction.Context the adapters pass: a window plus an internal context."""

    def __init__(self):
        self._underlying = None
        self._window = None

    def window(self) -> W:
        return self._window

    def current_processing_time(self) -> int:
        return self._underlying.current_processing_time()

    def current_watermark(self) -> int:
        return self._underlying.current_watermark()

    def window_state(self) -> KeyedStateStore:
        return self._underlying.window_state()

    def global_state(self) -> KeyedStateStore:
        return self._underlying.global_state()


class InternalProcessAllWindowContext(ProcessAllWindowFunction.Context[W]):
    """The ProcessAllWindowFunction.Context the adapters pass."""

    def __init__(self):
        self._underlying = None
        self._window = None

    def window(self) -> W:
        return self._window

    def window_state(self) -> KeyedStateStore:
        return self._underlying.window_state()

    def global_state(self) -> KeyedStateStore:
        return self._underlying.global_state()


class _ProcessWindowAdapter(_WrappingWindowFunction):

    _context_class = InternalProcessWindowContext

    def __init__(self, wrapped_function):
        super(_ProcessWindowAdapter, self).__init__(wrapped_function)
        self._internal_context = self._context_class()

    def _context(self, window, context):
        self._internal_context._window = window
        self._internal_context._underlying = context
        return self._internal_context

    def clear(self, window, context: InternalWindowFunction.InternalWindowContext):
        self._wrapped_function.clear(self._context(window, context))


class InternalSingleValueProcessWindowFunction(_ProcessWindowAdapter):
    """Calls a ProcessWindowFunction with a single pre-aggregated value."""

    def __init__(self, wrapped_function: ProcessWindowFunction):
        super(InternalSingleValueProcessWindowFunction, self).__init__(wrapped_function)

    def process(self, key, window, context: InternalWindowFunction.InternalWindowContext,
                input_data) -> Iterable:
        return self._wrapped_function.process(key, self._context(window, context), [input_data])


class InternalSingleValueProcessAllWindowFunction(_ProcessWindowAdapter):
    """Calls a ProcessAllWindowFunction with a single pre-aggregated value."""

    _context_class = InternalProcessAllWindowContext

    def __init__(self, wrapped_function: ProcessAllWindowFunction):
        super(InternalSingleValueProcessAllWindowFunction, self).__init__(wrapped_function)

    def process(self, key: int, window, context: InternalWindowFunction.InternalWindowContext,
                input_data) -> Iterable:
        return self._wrapped_function.process(self._context(window, context), [input_data])


class InternalIterableProcessWindowFunction(_ProcessWindowAdapter):
    """Calls a ProcessWindowFunction with all the window's elements."""

    def __init__(self, wrapped_function: ProcessWindowFunction):
        super(InternalIterableProcessWindowFunction, self).__init__(wrapped_function)

    def process(self, key, window, context: InternalWindowFunction.InternalWindowContext,
                input_data: Iterable) -> Iterable:
        return self._wrapped_function.process(key, self._context(window, context), input_data)


class InternalIterableProcessAllWindowFunction(_ProcessWindowAdapter):
    """Calls a ProcessAllWindowFunction with all the window's elements."""

    _context_class = InternalProcessAllWindowContext

    def __init__(self, wrapped_function: ProcessAllWindowFunction):
        super(InternalIterableProcessAllWindowFunction, self).__init__(wrapped_function)

    def process(self, key: int, window, context: InternalWindowFunction.InternalWindowContext,
                input_data: Iterable) -> Iterable:
        return self._wrapped_function.process(self._context(window, context), input_data)


# ---------------------------------------------------------------------------------------------
# Broadcast functions
# ---------------------------------------------------------------------------------------------

class BaseBroadcastProcessFunction(Function):
    """What BroadcastProcessFunction and KeyedBroadcastProcessFunction share."""

    class BaseContext(ABC):

        @abstractmethod
        def timestamp(self) -> int:
            pass

        @abstractmethod
        def current_processing_time(self) -> int:
            pass

        @abstractmethod
        def current_watermark(self) -> int:
            pass

    class Context(BaseContext):
        """Context of the broadcast side: read-write broadcast state."""

        @abstractmethod
        def get_broadcast_state(self, state_descriptor: MapStateDescriptor) -> BroadcastState:
            pass

    class ReadOnlyContext(BaseContext):
        """Context of the non-broadcast side: read-only broadcast state."""

        @abstractmethod
        def get_broadcast_state(
                self, state_descriptor: MapStateDescriptor) -> ReadOnlyBroadcastState:
            pass


class BroadcastProcessFunction(BaseBroadcastProcessFunction, Generic[IN1, IN2, OUT]):
    """Applied to a non-keyed stream connected with a broadcast stream."""

    class Context(BaseBroadcastProcessFunction.Context, ABC):
        pass

    class ReadOnlyContext(BaseBroadcastProcessFunction.ReadOnlyContext, ABC):
        pass

    @abstractmethod
    def process_element(self, value: IN1, ctx: ReadOnlyContext):
        pass

    @abstractmethod
    def process_broadcast_element(self, value: IN2, ctx: Context):
        pass


class KeyedBroadcastProcessFunction(BaseBroadcastProcessFunction, Generic[KEY, IN1, IN2, OUT]):
    """Applied to a keyed stream connected with a broadcast stream; has timers."""

    class Context(BaseBroadcastProcessFunction.Context, ABC):
        pass

    class ReadOnlyContext(BaseBroadcastProcessFunction.ReadOnlyContext, ABC):

        @abstractmethod
        def timer_service(self) -> TimerService:
            pass

        @abstractmethod
        def get_current_key(self) -> KEY:
            pass

    class OnTimerContext(ReadOnlyContext, ABC):

        @abstractmethod
        def time_domain(self) -> TimeDomain:
            pass

        @abstractmethod
        def get_current_key(self) -> KEY:
            pass

    @abstractmethod
    def process_element(self, value: IN1, ctx: ReadOnlyContext):
        pass

    @abstractmethod
    def process_broadcast_element(self, value: IN2, ctx: Context):
        pass

    def on_timer(self, timestamp: int, ctx: OnTimerContext):
        pass

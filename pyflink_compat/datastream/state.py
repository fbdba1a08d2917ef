"""State interfaces, descriptors and TTL configuration (mirror of ``pyflink.datastream.state``).

The state interfaces (``ValueState``, ``ListState``, ...) are abstract: the
runtime provides the implementations. Descriptors and ``StateTtlConfig`` are
plain data holders.
"""
from abc import ABC, abstractmethod
from enum import Enum
from typing import Dict, Generic, Iterable, Iterator, List, Tuple, TypeVar

from pyflink_compat.common.time import Duration, Time
from pyflink_compat.common.typeinfo import TypeInformation, Types

__all__ = [
    'ValueStateDescriptor',
    'ValueState',
    'ListStateDescriptor',
    'ListState',
    'MapStateDescriptor',
    'MapState',
    'ReducingStateDescriptor',
    'ReducingState',
    'AggregatingStateDescriptor',
    'AggregatingState',
    'ReadOnlyBroadcastState',
    'BroadcastState',
    'StateTtlConfig',
    'OperatorStateStore',
]

T = TypeVar('T')
K = TypeVar('K')
V = TypeVar('V')
IN = TypeVar('IN')
OUT = TypeVar('OUT')


class OperatorStateStore(ABC):
    """Gives access to operator (non-keyed) state; only broadcast state exists."""

    @abstractmethod
    def get_broadcast_state(self, state_descriptor: 'MapStateDescriptor') -> 'BroadcastState':
        pass


class State(ABC):
    """Interface of every kind of partitioned state."""

    @abstractmethod
    def clear(self) -> None:
        """Removes the value mapped under the current key."""
        pass


class ValueState(State, Generic[T]):
    """Single-value state: ``value()`` is None until ``update()`` is called."""

    @abstractmethod
    def value(self) -> T:
        pass

    @abstractmethod
    def update(self, value: T) -> None:
        pass


class AppendingState(State, Generic[IN, OUT]):
    """State that elements can be added to and whose current result can be read."""

    @abstractmethod
    def get(self) -> OUT:
        pass

    @abstractmethod
    def add(self, value: IN) -> None:
        pass


class MergingState(AppendingState[IN, OUT]):
    """An AppendingState whose instances can be merged (for merging windows)."""


class ReducingState(MergingState[T, T]):
    """State that combines added elements with a reduce function."""


class AggregatingState(MergingState[IN, OUT]):
    """State that pre-aggregates added elements with an AggregateFunction."""


class ListState(MergingState[T, Iterable[T]]):
    """List state: ``get()`` returns the elements, ``add``/``add_all``/``update`` change them."""

    @abstractmethod
    def update(self, values: List[T]) -> None:
        pass

    @abstractmethod
    def add_all(self, values: List[T]) -> None:
        pass

    def __iter__(self) -> Iterator[T]:
        return iter(self.get())


class MapState(State, Generic[K, V]):
    """Key-value state."""

    @abstractmethod
    def get(self, key: K) -> V:
        pass

    @abstractmethod
    def put(self, key: K, value: V) -> None:
        pass

    @abstractmethod
    def put_all(self, dict_value: Dict[K, V]) -> None:
        pass

    @abstractmethod
    def remove(self, key: K) -> None:
        pass

    @abstractmethod
    def contains(self, key: K) -> bool:
        pass

    @abstractmethod
    def items(self) -> Iterable[Tuple[K, V]]:
        pass

    @abstractmethod
    def keys(self) -> Iterable[K]:
        pass

    @abstractmethod
    def values(self) -> Iterable[V]:
        pass

    @abstractmethod
    def is_empty(self) -> bool:
        pass

    def __getitem__(self, key: K) -> V:
        return self.get(key)

    def __contains__(self, key: K) -> bool:
        return self.contains(key)

    def __iter__(self) -> Iterator[K]:
        return iter(self.keys())


class ReadOnlyBroadcastState(State, Generic[K, V]):
    """Read-only view of a BroadcastState (the non-broadcast side sees this)."""

    @abstractmethod
    def get(self, key: K) -> V:
        pass

    @abstractmethod
    def contains(self, key: K) -> bool:
        pass

    @abstractmethod
    def items(self) -> Iterable[Tuple[K, V]]:
        pass

    @abstractmethod
    def keys(self) -> Iterable[K]:
        pass

    @abstractmethod
    def values(self) -> Iterable[V]:
        pass

    @abstractmethod
    def is_empty(self) -> bool:
        pass

    def __getitem__(self, key: K) -> V:
        return self.get(key)

    def __contains__(self, key: K) -> bool:
        return self.contains(key)

    def __iter__(self) -> Iterator[K]:
        return iter(self.keys())


class BroadcastState(ReadOnlyBroadcastState[K, V]):
    """Map-like state of a broadcast stream, identical on every parallel instance."""

    @abstractmethod
    def put(self, key: K, value: V) -> None:
        pass

    @abstractmethod
    def put_all(self, dict_value: Dict[K, V]) -> None:
        pass

    @abstractmethod
    def remove(self, key: K) -> None:
        pass


# ---------------------------------------------------------------------------------------------
# Descriptors
# ---------------------------------------------------------------------------------------------

class StateDescriptor(ABC):
    """Names a piece of partitioned state and gives its type.

    ``name`` and ``type_info`` are public attributes (as in PyFlink);
    ``_ttl_config`` is set by :meth:`enable_time_to_live`.
    """

    def __init__(self, name: str, type_info: TypeInformation):
        self.name = name
        self.type_info = type_info
        self._ttl_config = None

    def get_name(self) -> str:
        return self.name

    def get_type_info(self) -> TypeInformation:
        """pyflink-compat addition: the type information of the whole state value."""
        return self.type_info

    def get_ttl_config(self):
        """pyflink-compat addition: the StateTtlConfig given to enable_time_to_live, or None."""
        return self._ttl_config

    def enable_time_to_live(self, ttl_config: 'StateTtlConfig'):
        """Configures time-to-live for the state (see :class:`StateTtlConfig`)."""
        self._ttl_config = ttl_config

    def __repr__(self):
        return "%s(name=%r, type_info=%r)" % (type(self).__name__, self.name, self.type_info)


class ValueStateDescriptor(StateDescriptor):
    """Descriptor of a :class:`ValueState`."""

    def __init__(self, name: str, value_type_info: TypeInformation):
        super(ValueStateDescriptor, self).__init__(name, value_type_info)


class ListStateDescriptor(StateDescriptor):
    """Descriptor of a :class:`ListState`; ``type_info`` is a list of ``elem_type_info``."""

    def __init__(self, name: str, elem_type_info: TypeInformation):
        super(ListStateDescriptor, self).__init__(name, Types.LIST(elem_type_info))
        self.elem_type_info = elem_type_info


class MapStateDescriptor(StateDescriptor):
    """Descriptor of a :class:`MapState` (and of broadcast state)."""

    def __init__(self, name: str, key_type_info: TypeInformation, value_type_info: TypeInformation):
        super(MapStateDescriptor, self).__init__(name, Types.MAP(key_type_info, value_type_info))
        self.key_type_info = key_type_info
        self.value_type_info = value_type_info


class ReducingStateDescriptor(StateDescriptor):
    """Descriptor of a :class:`ReducingState`; ``reduce_function`` is a ReduceFunction or callable."""

    def __init__(self, name: str, reduce_function, type_info: TypeInformation):
        super(ReducingStateDescriptor, self).__init__(name, type_info)
        from pyflink_compat.datastream.functions import ReduceFunction, ReduceFunctionWrapper
        if isinstance(reduce_function, ReduceFunction):
            self._reduce_function = reduce_function
        elif callable(reduce_function):
            self._reduce_function = ReduceFunctionWrapper(reduce_function)
        else:
            raise TypeError("The input must be a ReduceFunction or a callable function!")

    def get_reduce_function(self):
        return self._reduce_function


class AggregatingStateDescriptor(StateDescriptor):
    """Descriptor of an :class:`AggregatingState`; ``state_type_info`` is the accumulator's type."""

    def __init__(self, name: str, agg_function, state_type_info):
        super(AggregatingStateDescriptor, self).__init__(name, state_type_info)
        from pyflink_compat.datastream.functions import AggregateFunction
        if not isinstance(agg_function, AggregateFunction):
            raise TypeError("The input must be a pyflink.datastream.functions.AggregateFunction!")
        self._agg_function = agg_function

    def get_agg_function(self):
        return self._agg_function


# ---------------------------------------------------------------------------------------------
# TTL
# ---------------------------------------------------------------------------------------------

class StateTtlConfig(object):
    """Time-to-live configuration of a state; build it with :meth:`new_builder`.

    Defaults (as Flink's): update on create and write, never return expired
    values, processing time, background cleanup enabled.
    """

    class UpdateType(Enum):
        """When the last-access timestamp (which prolongs the TTL) is updated."""
        Disabled = 0
        OnCreateAndWrite = 1
        OnReadAndWrite = 2

    class StateVisibility(Enum):
        """Whether an expired value that was not cleaned up yet may be returned."""
        ReturnExpiredIfNotCleanedUp = 0
        NeverReturnExpired = 1

    class TtlTimeCharacteristic(Enum):
        """The time scale TTL is measured in (only processing time exists)."""
        ProcessingTime = 0

    def __init__(self,
                 update_type: 'StateTtlConfig.UpdateType',
                 state_visibility: 'StateTtlConfig.StateVisibility',
                 ttl_time_characteristic: 'StateTtlConfig.TtlTimeCharacteristic',
                 ttl: Time,
                 cleanup_strategies: 'StateTtlConfig.CleanupStrategies'):
        self._update_type = update_type
        self._state_visibility = state_visibility
        self._ttl_time_characteristic = ttl_time_characteristic
        self._ttl = ttl
        self._cleanup_strategies = cleanup_strategies

    @staticmethod
    def new_builder(ttl: Time):
        return StateTtlConfig.Builder(ttl)

    def get_update_type(self) -> 'StateTtlConfig.UpdateType':
        return self._update_type

    def get_state_visibility(self) -> 'StateTtlConfig.StateVisibility':
        return self._state_visibility

    def get_ttl(self) -> Time:
        return self._ttl

    def get_ttl_time_characteristic(self) -> 'StateTtlConfig.TtlTimeCharacteristic':
        return self._ttl_time_characteristic

    def is_enabled(self) -> bool:
        return self._update_type != StateTtlConfig.UpdateType.Disabled

    def get_cleanup_strategies(self) -> 'StateTtlConfig.CleanupStrategies':
        return self._cleanup_strategies

    def __repr__(self):
        return ("StateTtlConfig<update_type=%s, state_visibility=%s, ttl_time_characteristic=%s, "
                "ttl=%s, cleanup_strategies=%s>" % (
                    self._update_type, self._state_visibility, self._ttl_time_characteristic,
                    self._ttl, self._cleanup_strategies))

    class Builder(object):
        """Builder of :class:`StateTtlConfig`; every setter returns the builder."""

        def __init__(self, ttl: Time):
            self._ttl = ttl
            self._update_type = StateTtlConfig.UpdateType.OnCreateAndWrite
            self._state_visibility = StateTtlConfig.StateVisibility.NeverReturnExpired
            self._ttl_time_characteristic = StateTtlConfig.TtlTimeCharacteristic.ProcessingTime
            self._strategies = {}
            self._is_cleanup_in_background = True

        def set_update_type(self, update_type: 'StateTtlConfig.UpdateType') -> 'StateTtlConfig.Builder':
            self._update_type = update_type
            return self

        def update_ttl_on_create_and_write(self) -> 'StateTtlConfig.Builder':
            return self.set_update_type(StateTtlConfig.UpdateType.OnCreateAndWrite)

        def update_ttl_on_read_and_write(self) -> 'StateTtlConfig.Builder':
            return self.set_update_type(StateTtlConfig.UpdateType.OnReadAndWrite)

        def set_state_visibility(
                self, state_visibility: 'StateTtlConfig.StateVisibility') -> 'StateTtlConfig.Builder':
            self._state_visibility = state_visibility
            return self

        def return_expired_if_not_cleaned_up(self) -> 'StateTtlConfig.Builder':
            return self.set_state_visibility(
                StateTtlConfig.StateVisibility.ReturnExpiredIfNotCleanedUp)

        def never_return_expired(self) -> 'StateTtlConfig.Builder':
            return self.set_state_visibility(StateTtlConfig.StateVisibility.NeverReturnExpired)

        def set_ttl_time_characteristic(
                self,
                ttl_time_characteristic: 'StateTtlConfig.TtlTimeCharacteristic') \
                -> 'StateTtlConfig.Builder':
            self._ttl_time_characteristic = ttl_time_characteristic
            return self

        def use_processing_time(self) -> 'StateTtlConfig.Builder':
            return self.set_ttl_time_characteristic(
                StateTtlConfig.TtlTimeCharacteristic.ProcessingTime)

        def cleanup_full_snapshot(self) -> 'StateTtlConfig.Builder':
            strategies = StateTtlConfig.CleanupStrategies
            self._strategies[strategies.Strategies.FULL_STATE_SCAN_SNAPSHOT] = \
                strategies.EMPTY_STRATEGY
            return self

        def cleanup_incrementally(self,
                                  cleanup_size: int,
                                  run_cleanup_for_every_record) -> 'StateTtlConfig.Builder':
            strategies = StateTtlConfig.CleanupStrategies
            self._strategies[strategies.Strategies.INCREMENTAL_CLEANUP] = \
                strategies.IncrementalCleanupStrategy(cleanup_size, run_cleanup_for_every_record)
            return self

        def cleanup_in_rocksdb_compact_filter(
                self,
                query_time_after_num_entries,
                periodic_compaction_time=None) -> 'StateTtlConfig.Builder':
            strategies = StateTtlConfig.CleanupStrategies
            self._strategies[strategies.Strategies.ROCKSDB_COMPACTION_FILTER] = \
                strategies.RocksdbCompactFilterCleanupStrategy(query_time_after_num_entries,
                                                               periodic_compaction_time)
            return self

        def disable_cleanup_in_background(self) -> 'StateTtlConfig.Builder':
            self._is_cleanup_in_background = False
            return self

        def set_ttl(self, ttl: Time) -> 'StateTtlConfig.Builder':
            self._ttl = ttl
            return self

        def build(self) -> 'StateTtlConfig':
            return StateTtlConfig(
                self._update_type,
                self._state_visibility,
                self._ttl_time_characteristic,
                self._ttl,
                StateTtlConfig.CleanupStrategies(dict(self._strategies),
                                                 self._is_cleanup_in_background))

    class CleanupStrategies(object):
        """The TTL cleanup strategies that were configured."""

        class Strategies(Enum):
            """Fixed strategy ordinals."""
            FULL_STATE_SCAN_SNAPSHOT = 0
            INCREMENTAL_CLEANUP = 1
            ROCKSDB_COMPACTION_FILTER = 2

        class CleanupStrategy(ABC):
            """Base of the cleanup strategy configurations."""

        class EmptyCleanupStrategy(CleanupStrategy):
            """A strategy without parameters (used for full-snapshot cleanup)."""

            def __repr__(self):
                return "EmptyCleanupStrategy"

        class IncrementalCleanupStrategy(CleanupStrategy):
            """Incremental cleanup on state access: check ``cleanup_size`` entries each time."""

            def __init__(self, cleanup_size: int, run_cleanup_for_every_record: bool):
                self._cleanup_size = cleanup_size
                self._run_cleanup_for_every_record = run_cleanup_for_every_record

            def get_cleanup_size(self) -> int:
                return self._cleanup_size

            def run_cleanup_for_every_record(self) -> bool:
                return self._run_cleanup_for_every_record

            def __repr__(self):
                return "IncrementalCleanupStrategy(%s, %s)" % (
                    self._cleanup_size, self._run_cleanup_for_every_record)

        class RocksdbCompactFilterCleanupStrategy(CleanupStrategy):
            """Cleanup in RocksDB's compaction filter (default periodic compaction: 30 days)."""

            def __init__(self, query_time_after_num_entries: int, periodic_compaction_time=None):
                self._query_time_after_num_entries = query_time_after_num_entries
                self._periodic_compaction_time = (periodic_compaction_time
                                                  if periodic_compaction_time is not None
                                                  else Duration.of_days(30))

            def get_query_time_after_num_entries(self) -> int:
                return self._query_time_after_num_entries

            def get_periodic_compaction_time(self) -> Duration:
                return self._periodic_compaction_time

            def __repr__(self):
                return "RocksdbCompactFilterCleanupStrategy(%s)" % self._query_time_after_num_entries

        EMPTY_STRATEGY = EmptyCleanupStrategy()

        def __init__(self,
                     strategies: Dict[Strategies, CleanupStrategy],
                     is_cleanup_in_background: bool):
            self._strategies = strategies
            self._is_cleanup_in_background = is_cleanup_in_background

        def is_cleanup_in_background(self) -> bool:
            return self._is_cleanup_in_background

        def in_full_snapshot(self) -> bool:
            return (StateTtlConfig.CleanupStrategies.Strategies.FULL_STATE_SCAN_SNAPSHOT
                    in self._strategies)

        def get_incremental_cleanup_strategy(self) \
                -> 'StateTtlConfig.CleanupStrategies.IncrementalCleanupStrategy':
            strategies = StateTtlConfig.CleanupStrategies
            default = (strategies.IncrementalCleanupStrategy(5, False)
                       if self._is_cleanup_in_background else None)
            return self._strategies.get(strategies.Strategies.INCREMENTAL_CLEANUP, default)

        def get_rocksdb_compact_filter_cleanup_strategy(self) \
                -> 'StateTtlConfig.CleanupStrategies.RocksdbCompactFilterCleanupStrategy':
            strategies = StateTtlConfig.CleanupStrategies
            default = (strategies.RocksdbCompactFilterCleanupStrategy(1000)
                       if self._is_cleanup_in_background else None)
            return self._strategies.get(strategies.Strategies.ROCKSDB_COMPACTION_FILTER, default)

        def __repr__(self):
            return "CleanupStrategies(strategies=%r, is_cleanup_in_background=%s)" % (
                {k.name: v for k, v in self._strategies.items()}, self._is_cleanup_in_background)

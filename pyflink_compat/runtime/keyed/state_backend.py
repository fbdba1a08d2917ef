"""In-memory keyed state of one keyed subtask, with Flink's TTL semantics and byte snapshots.

Layout: one table per state name, ``{(key identity, namespace key): stored value}``.
The namespace is :data:`VOID_NAMESPACE` (None) for plain keyed state and the window
for window state; its key is :func:`namespace_key` (windows as plain tuples, which hash
much faster than the windows' Java-style hash). Stored values are the Python objects themselves (as PyFlink's
state cache hands them out: ``value()`` returns the stored object); with TTL each
value (each list element, each map entry) is stored with its last-access time as
``(value, timestamp)``.

TTL (Flink's semantics; see ``apply_ttl`` for PyFlink's; processing time, measured with the
backend's clock, an injectable
``() -> int`` of epoch milliseconds): a value written at ``t`` is expired once
``t + ttl <= now``. Writes stamp ``now``; with ``OnReadAndWrite`` reads re-stamp
unexpired values. A read that meets an expired value removes it and returns it only
with ``ReturnExpiredIfNotCleanedUp``. With ``cleanup_full_snapshot()`` expired values
are left out of snapshots.

Keys are compared by :func:`pyflink_compat.runtime.keyed.keys.key_identity`.
"""
import pickle
import zlib

from pyspark import cloudpickle

from pyflink_compat.datastream.state import (AggregatingState, AggregatingStateDescriptor,
                                             ListState, ListStateDescriptor, MapState,
                                             MapStateDescriptor, ReducingState,
                                             ReducingStateDescriptor, StateTtlConfig, ValueState,
                                             ValueStateDescriptor)
from pyflink_compat.datastream.window import CountWindow, TimeWindow
from pyflink_compat.runtime.keyed.keys import key_identity

__all__ = ['KeyedStateBackend', 'VOID_NAMESPACE', 'system_clock']

VOID_NAMESPACE = None


def namespace_key(namespace):
    """The dict key of a namespace: TimeWindow -> (start, end), CountWindow -> ('#', id)."""
    t = type(namespace)
    if t is TimeWindow:
        return (namespace.start, namespace.end)
    if t is CountWindow:
        return ('#', namespace.id)
    return namespace

_SNAPSHOT_VERSION = 1


def system_clock() -> int:
    import time
    return int(time.time() * 1000)


class _Ttl(object):
    """The TTL rules of one state (None when the state has no TTL)."""

    __slots__ = ('ttl', 'update_on_read', 'return_expired', 'clock', 'in_full_snapshot')

    def __init__(self, config: StateTtlConfig, clock):
        self.ttl = config.get_ttl().to_milliseconds()
        self.update_on_read = config.get_update_type() == StateTtlConfig.UpdateType.OnReadAndWrite
        self.return_expired = (config.get_state_visibility()
                               == StateTtlConfig.StateVisibility.ReturnExpiredIfNotCleanedUp)
        self.in_full_snapshot = config.get_cleanup_strategies().in_full_snapshot()
        self.clock = clock

    @staticmethod
    def of(descriptor, clock):
        config = descriptor.get_ttl_config() if hasattr(descriptor, 'get_ttl_config') else None
        if config is None or not config.is_enabled():
            return None
        return _Ttl(config, clock)

    def expired(self, stamp, now):
        return stamp + self.ttl <= now


# ---------------------------------------------------------------------------------------------
# State objects (one per state name; scoped to the backend's current key and their namespace)
# ---------------------------------------------------------------------------------------------

class _KvState(object):
    """What every state kind shares: its table, TTL, namespace and ``clear``."""

    kind = None

    def __init__(self, backend: 'KeyedStateBackend', descriptor, table: dict, ttl):
        self._backend = backend
        self._descriptor = descriptor
        self._table = table
        self._ttl = ttl
        self._namespace = VOID_NAMESPACE
        self._ns_key = VOID_NAMESPACE

    def set_current_namespace(self, namespace) -> None:
        self._namespace = namespace
        self._ns_key = namespace_key(namespace)

    def get_current_namespace(self):
        return self._namespace

    def _key(self):
        return (self._backend._current_key_id, self._ns_key)

    def clear(self) -> None:
        self._table.pop(self._key(), None)

    # single-value storage (value, reducing and aggregating state) ----------------------------

    def _read_single(self, key):
        """The stored value under ``key`` after the TTL check (None when absent or expired)."""
        stored = self._table.get(key)
        if stored is None or self._ttl is None:
            return stored
        value, stamp = stored
        now = self._ttl.clock()
        if self._ttl.expired(stamp, now):
            del self._table[key]
            return value if self._ttl.return_expired else None
        if self._ttl.update_on_read:
            self._table[key] = (value, now)
        return value

    def _write_single(self, key, value):
        if value is None:
            self._table.pop(key, None)
        elif self._ttl is None:
            self._table[key] = value
        else:
            self._table[key] = (value, self._ttl.clock())

    def _peek_single(self, key):
        """The unexpired stored value, without TTL side effects (for merging)."""
        stored = self._table.get(key)
        if stored is None or self._ttl is None:
            return stored
        value, stamp = stored
        return None if self._ttl.expired(stamp, self._ttl.clock()) else value

    def merge_namespaces(self, target, sources) -> None:
        """Merges the sources' values into ``target`` and removes the sources.

        With the backend's ``pyflink_merge`` (the default) this is what PyFlink 2.3.0 does:
        its reducing/aggregating states are single-element bags on the Java side, a merge
        concatenates the bags (target first, then the sources in order) and reading takes
        the first element, so the target's value wins, else the first source's, and the
        other values are lost (confirmed with real PyFlink: a session bridging two sessions
        keeps only one of their aggregates). Otherwise Flink's Java semantics: the sources
        are combined in order, then the target with that result.
        """
        key_id = self._backend._current_key_id
        target = namespace_key(target)
        sources = [namespace_key(source) for source in sources]
        if self._backend.pyflink_merge:
            chosen = self._peek_single((key_id, target))
            for source in sources:
                if source is None:
                    continue
                value = self._peek_single((key_id, source))
                self._table.pop((key_id, source), None)
                if chosen is None:
                    chosen = value
            if chosen is not None:
                self._write_single((key_id, target), chosen)
            return
        merged = None
        for source in sources:
            if source is None:
                continue
            value = self._peek_single((key_id, source))
            self._table.pop((key_id, source), None)
            if value is None:
                continue
            merged = value if merged is None else self._merge(merged, value)
        if merged is not None:
            target_value = self._peek_single((key_id, target))
            self._write_single((key_id, target),
                               merged if target_value is None else self._merge(target_value, merged))

    def _merge(self, a, b):
        raise TypeError("state %r cannot be merged" % self._descriptor.name)


class HeapValueState(_KvState, ValueState):
    kind = 'value'

    def value(self):
        return self._read_single(self._key())

    def update(self, value) -> None:
        self._write_single(self._key(), value)


class HeapReducingState(_KvState, ReducingState):
    kind = 'reducing'

    def __init__(self, backend, descriptor, table, ttl):
        super(HeapReducingState, self).__init__(backend, descriptor, table, ttl)
        self._reduce_function = descriptor.get_reduce_function()

    def get(self):
        return self._read_single(self._key())

    def add(self, value) -> None:
        key = self._key()
        current = self._read_single(key)
        self._write_single(key, value if current is None
                           else self._reduce_function.reduce(current, value))

    def _merge(self, a, b):
        return self._reduce_function.reduce(a, b)


class HeapAggregatingState(_KvState, AggregatingState):
    kind = 'aggregating'

    def __init__(self, backend, descriptor, table, ttl):
        super(HeapAggregatingState, self).__init__(backend, descriptor, table, ttl)
        self._agg_function = descriptor.get_agg_function()

    def get(self):
        accumulator = self._read_single(self._key())
        return None if accumulator is None else self._agg_function.get_result(accumulator)

    def add(self, value) -> None:
        key = self._key()
        if value is None:      # as PyFlink: adding None clears the state
            self._table.pop(key, None)
            return
        accumulator = self._read_single(key)
        if accumulator is None:
            accumulator = self._agg_function.create_accumulator()
        self._write_single(key, self._agg_function.add(value, accumulator))

    def get_accumulator(self):
        """pyflink-compat: the accumulator (None when empty), for window functions."""
        return self._read_single(self._key())

    def _merge(self, a, b):
        return self._agg_function.merge(a, b)


class HeapListState(_KvState, ListState):
    kind = 'list'

    def get(self):
        key = self._key()
        stored = self._table.get(key)
        if stored is None:
            return []
        if self._ttl is None:
            return list(stored)
        now = self._ttl.clock()
        ttl = self._ttl
        kept, result = [], []
        for value, stamp in stored:
            if ttl.expired(stamp, now):
                if ttl.return_expired:
                    result.append(value)
            else:
                kept.append((value, now) if ttl.update_on_read else (value, stamp))
                result.append(value)
        if kept:
            self._table[key] = kept
        else:
            del self._table[key]
        return result

    def _stamp(self, values):
        if self._ttl is None:
            return list(values)
        now = self._ttl.clock()
        return [(v, now) for v in values]

    def add(self, value) -> None:
        if value is None:
            raise ValueError("You cannot add null to a ListState.")
        key = self._key()
        item = value if self._ttl is None else (value, self._ttl.clock())
        stored = self._table.get(key)
        if stored is None:
            self._table[key] = [item]
        else:
            stored.append(item)

    def add_all(self, values) -> None:
        values = list(values) if values is not None else []
        if not values:
            return
        key = self._key()
        stored = self._table.get(key)
        if stored is None:
            self._table[key] = self._stamp(values)
        else:
            stored.extend(self._stamp(values))

    def update(self, values) -> None:
        values = list(values) if values is not None else []
        key = self._key()
        if values:
            self._table[key] = self._stamp(values)
        else:
            self._table.pop(key, None)

    def merge_namespaces(self, target, sources) -> None:
        key_id = self._backend._current_key_id
        target = namespace_key(target)
        sources = [namespace_key(source) for source in sources]
        merged = []
        for source in sources:
            if source is None:
                continue
            stored = self._table.pop((key_id, source), None)
            if stored:
                merged.extend(stored)
        if merged:
            target_stored = self._table.get((key_id, target))
            if target_stored is None:
                self._table[(key_id, target)] = merged
            else:
                target_stored.extend(merged)


class HeapMapState(_KvState, MapState):
    kind = 'map'

    def _map(self, create=False):
        key = self._key()
        stored = self._table.get(key)
        if stored is None and create:
            stored = self._table[key] = {}
        return stored

    def _read_entry(self, mapping, map_key):
        """The value of one entry after the TTL check (None when absent or expired)."""
        stored = mapping.get(map_key)
        if stored is None or self._ttl is None:
            return stored
        value, stamp = stored
        now = self._ttl.clock()
        if self._ttl.expired(stamp, now):
            del mapping[map_key]
            if not mapping:
                self._table.pop(self._key(), None)
            return value if self._ttl.return_expired else None
        if self._ttl.update_on_read:
            mapping[map_key] = (value, now)
        return value

    def get(self, key):
        mapping = self._map()
        return None if mapping is None else self._read_entry(mapping, key)

    def put(self, key, value) -> None:
        self._map(True)[key] = value if self._ttl is None else (value, self._ttl.clock())

    def put_all(self, dict_value) -> None:
        mapping = self._map(True)
        if self._ttl is None:
            mapping.update(dict_value)
        else:
            now = self._ttl.clock()
            for k, v in dict_value.items():
                mapping[k] = (v, now)

    def remove(self, key) -> None:
        mapping = self._map()
        if mapping is not None:
            mapping.pop(key, None)
            if not mapping:
                self._table.pop(self._key(), None)

    def contains(self, key) -> bool:
        mapping = self._map()
        if mapping is None or key not in mapping:
            return False
        if self._ttl is None:
            return True
        return self._read_entry(mapping, key) is not None

    def _live_items(self):
        mapping = self._map()
        if mapping is None:
            return []
        if self._ttl is None:
            return list(mapping.items())
        return [(k, v) for k, v in ((k, self._read_entry(mapping, k)) for k in list(mapping))
                if v is not None]

    def items(self):
        return self._live_items()

    def keys(self):
        return [k for k, _ in self._live_items()]

    def values(self):
        return [v for _, v in self._live_items()]

    def is_empty(self) -> bool:
        return not self._live_items()


_STATE_CLASSES = {
    ValueStateDescriptor: HeapValueState,
    ListStateDescriptor: HeapListState,
    MapStateDescriptor: HeapMapState,
    ReducingStateDescriptor: HeapReducingState,
    AggregatingStateDescriptor: HeapAggregatingState,
}


def _state_class(descriptor):
    for cls in type(descriptor).__mro__:
        state_class = _STATE_CLASSES.get(cls)
        if state_class is not None:
            return state_class
    raise TypeError("Unsupported state descriptor: %s" % type(descriptor))


# ---------------------------------------------------------------------------------------------
# The backend
# ---------------------------------------------------------------------------------------------

class KeyedStateBackend(object):
    """All keyed state of one subtask.

    ``set_current_key(key)`` selects the key every state object reads and writes;
    ``get_state(descriptor)`` returns the (one) state object of that descriptor's name;
    ``snapshot()`` / ``restore(data)`` save and load every table as bytes.
    ``clock`` is the processing-time clock TTL uses (``() -> int`` milliseconds).
    ``pyflink_merge`` selects PyFlink's merge of reducing/aggregating state (see
    ``_KvState.merge_namespaces``) over Flink's. ``apply_ttl=False`` ignores the descriptors'
    TTL: what real PyFlink 2.3.0 does as long as its Python worker's state cache holds the
    value (its attempt to disable that cache for TTL states has no effect on the Beam cache),
    e.g. always with a few keys; with Flink's documented TTL semantics by default.
    """

    def __init__(self, clock=None, key_identity_fn=key_identity, pyflink_merge: bool = True,
                 apply_ttl: bool = True):
        self.clock = clock if clock is not None else system_clock
        self.pyflink_merge = pyflink_merge
        self.apply_ttl = apply_ttl
        self._key_identity = key_identity_fn
        self._tables = {}            # state name -> {(key id, namespace): stored}
        self._kinds = {}             # state name -> kind
        self._states = {}            # state name -> state object
        self._current_key = None
        self._current_key_id = None

    # keys ------------------------------------------------------------------------------------

    def set_current_key(self, key) -> None:
        self._current_key = key
        self._current_key_id = self._key_identity(key)

    def set_current_key_with_id(self, key, key_id) -> None:
        """Selects a key whose identity is already known (timers store both)."""
        self._current_key = key
        self._current_key_id = key_id

    def get_current_key(self):
        return self._current_key

    def get_current_key_id(self):
        return self._current_key_id

    def key_identity(self, key):
        return self._key_identity(key)

    # states ----------------------------------------------------------------------------------

    def get_state(self, descriptor):
        """The state object of ``descriptor`` (created on first use; one per name)."""
        name = descriptor.name
        state = self._states.get(name)
        state_class = _state_class(descriptor)
        if state is not None:
            if not isinstance(state, state_class):
                raise ValueError("State %r was registered as %s state, not %s" % (
                    name, state.kind, state_class.kind))
            return state
        kind = self._kinds.get(name)
        if kind is not None and kind != state_class.kind:
            raise ValueError("State %r was registered as %s state, not %s" % (
                name, kind, state_class.kind))
        table = self._tables.setdefault(name, {})
        self._kinds[name] = state_class.kind
        ttl = _Ttl.of(descriptor, lambda: self.clock()) if self.apply_ttl else None
        state = state_class(self, descriptor, table, ttl)
        self._states[name] = state
        return state

    def state_names(self):
        return list(self._tables)

    def is_empty(self) -> bool:
        return not any(self._tables.values())

    def __len__(self):
        return sum(len(t) for t in self._tables.values())

    # snapshots -------------------------------------------------------------------------------

    def snapshot_object(self):
        """Everything as a picklable object (tables without empty entries)."""
        tables = {}
        now = None
        for name, table in self._tables.items():
            if not table:
                continue
            state = self._states.get(name)
            ttl = state._ttl if state is not None else None
            if ttl is not None and ttl.in_full_snapshot:
                if now is None:
                    now = self.clock()
                table = _without_expired(state.kind, table, ttl, now)
            tables[name] = table
        return {'tables': tables, 'kinds': {n: self._kinds[n] for n in tables}}

    def restore_object(self, obj) -> None:
        self._tables.clear()
        self._kinds.clear()
        for name, table in obj['tables'].items():
            self._tables[name] = table
            self._kinds[name] = obj['kinds'][name]
        for name, state in self._states.items():      # states created before restore
            state._table = self._tables.setdefault(name, {})
            # A state that was empty at snapshot time is not in it: keep its kind, or the next snapshot
            # of its (by then non-empty) table would not know it.
            self._kinds.setdefault(name, state.kind)

    def snapshot(self) -> bytes:
        return dumps({'v': _SNAPSHOT_VERSION, 'state': self.snapshot_object()})

    def restore(self, data: bytes) -> None:
        obj = loads(data)
        self.restore_object(obj['state'])


def _without_expired(kind, table, ttl, now):
    result = {}
    for key, stored in table.items():
        if kind == 'list':
            kept = [e for e in stored if not ttl.expired(e[1], now)]
            if kept:
                result[key] = kept
        elif kind == 'map':
            kept = {k: e for k, e in stored.items() if not ttl.expired(e[1], now)}
            if kept:
                result[key] = kept
        elif not ttl.expired(stored[1], now):
            result[key] = stored
    return result


def dumps(obj) -> bytes:
    """Compact bytes of a snapshot object: cloudpickle (protocol 5), zlib-compressed when large."""
    raw = cloudpickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    if len(raw) > 512:
        return b'Z' + zlib.compress(raw, 1)
    return b'P' + raw


def loads(data: bytes):
    if data[:1] == b'Z':
        return pickle.loads(zlib.decompress(data[1:]))
    return pickle.loads(data[1:])

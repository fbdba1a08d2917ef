"""The keyed engine's state backend: state kinds, namespaces, key identity, TTL, snapshots."""
import pytest

from pyflink_compat.common.time import Time
from pyflink_compat.common.typeinfo import Types
from pyflink_compat.datastream.functions import AggregateFunction
from pyflink_compat.datastream.state import (AggregatingStateDescriptor, ListStateDescriptor,
                                             MapStateDescriptor, ReducingStateDescriptor,
                                             StateTtlConfig, ValueStateDescriptor)
from pyflink_compat.runtime.keyed import KeyedStateBackend, key_identity


class Clock(object):
    def __init__(self, now=0):
        self.now = now

    def __call__(self):
        return self.now


class Avg(AggregateFunction):
    def create_accumulator(self):
        return (0, 0)

    def add(self, value, acc):
        return (acc[0] + value, acc[1] + 1)

    def get_result(self, acc):
        return acc[0] / acc[1]

    def merge(self, a, b):
        return (a[0] + b[0], a[1] + b[1])


def test_value_state_is_per_key():
    b = KeyedStateBackend()
    s = b.get_state(ValueStateDescriptor("v", Types.INT()))
    b.set_current_key("a")
    assert s.value() is None
    s.update(1)
    b.set_current_key("b")
    assert s.value() is None
    s.update(2)
    b.set_current_key("a")
    assert s.value() == 1
    s.clear()
    assert s.value() is None
    b.set_current_key("b")
    assert s.value() == 2
    assert b.get_state(ValueStateDescriptor("v", Types.INT())) is s


def test_key_identity_follows_pickled_keys():
    # PyFlink's default key type compares keys by their pickled bytes
    assert key_identity(1) != key_identity(True)
    assert key_identity(1) != key_identity(1.0)
    assert key_identity(0.0) != key_identity(-0.0)
    assert key_identity(("a", 1)) == key_identity(("a", 1))
    assert key_identity(["a", 1]) == key_identity(["a", 1])
    assert key_identity(("a", [1])) == key_identity(("a", [1]))
    b = KeyedStateBackend()
    s = b.get_state(ValueStateDescriptor("v", Types.INT()))
    b.set_current_key(1)
    s.update("int")
    b.set_current_key(True)
    assert s.value() is None
    b.set_current_key([1, 2])
    s.update("list")
    b.set_current_key([1, 2])
    assert s.value() == "list"


def test_list_map_reducing_aggregating():
    b = KeyedStateBackend()
    b.set_current_key("k")
    lst = b.get_state(ListStateDescriptor("l", Types.INT()))
    assert list(lst.get()) == []
    lst.add(1)
    lst.add_all([2, 3])
    assert list(lst.get()) == [1, 2, 3]
    assert list(lst) == [1, 2, 3]
    lst.update([9])
    assert list(lst.get()) == [9]
    lst.update([])
    assert list(lst.get()) == []

    m = b.get_state(MapStateDescriptor("m", Types.STRING(), Types.INT()))
    assert m.is_empty()
    m.put("x", 1)
    m.put_all({"y": 2, "z": 3})
    m.remove("z")
    assert m.get("x") == 1 and m["y"] == 2 and m.get("z") is None
    assert "x" in m and not m.contains("z")
    assert sorted(m.keys()) == ["x", "y"] and sorted(m.values()) == [1, 2]
    assert sorted(m.items()) == [("x", 1), ("y", 2)] and sorted(m) == ["x", "y"]

    r = b.get_state(ReducingStateDescriptor("r", lambda a, c: a + c, Types.INT()))
    assert r.get() is None
    r.add(1)
    r.add(5)
    assert r.get() == 6

    agg = b.get_state(AggregatingStateDescriptor("a", Avg(), Types.PICKLED_BYTE_ARRAY()))
    assert agg.get() is None
    agg.add(1)
    agg.add(2)
    assert agg.get() == 1.5
    agg.add(None)           # as PyFlink: adding None clears
    assert agg.get() is None


def test_state_kind_conflict():
    b = KeyedStateBackend()
    b.get_state(ValueStateDescriptor("s", Types.INT()))
    with pytest.raises(ValueError):
        b.get_state(ListStateDescriptor("s", Types.INT()))


@pytest.mark.parametrize("pyflink_merge", [True, False])
def test_namespaces_and_merge(pyflink_merge):
    b = KeyedStateBackend(pyflink_merge=pyflink_merge)
    b.set_current_key("k")
    lst = b.get_state(ListStateDescriptor("l", Types.INT()))
    r = b.get_state(ReducingStateDescriptor("r", lambda a, c: a * 10 + c, Types.INT()))
    for ns, values in (("w1", [1, 2]), ("w2", [3]), ("w3", [4])):
        lst.set_current_namespace(ns)
        r.set_current_namespace(ns)
        for v in values:
            lst.add(v)
            r.add(v)
    lst.merge_namespaces("w1", ["w2", "w3"])
    r.merge_namespaces("w1", ["w2", "w3"])
    lst.set_current_namespace("w1")
    r.set_current_namespace("w1")
    assert list(lst.get()) == [1, 2, 3, 4]
    if pyflink_merge:
        assert r.get() == 12              # PyFlink: the target's value wins, the others are lost
    else:
        assert r.get() == 12 * 10 + 34    # Flink: sources first (3, 4 -> 34), then the target
    lst.set_current_namespace("w2")
    assert list(lst.get()) == []


def _ttl(update=None, visibility=None, full_snapshot=False):
    builder = StateTtlConfig.new_builder(Time.milliseconds(100))
    if update is not None:
        builder.set_update_type(update)
    if visibility is not None:
        builder.set_state_visibility(visibility)
    if full_snapshot:
        builder.cleanup_full_snapshot()
    return builder.build()


def test_ttl_value_on_create_and_write():
    clock = Clock(1000)
    b = KeyedStateBackend(clock=clock)
    d = ValueStateDescriptor("v", Types.INT())
    d.enable_time_to_live(_ttl())
    s = b.get_state(d)
    b.set_current_key("k")
    s.update(1)
    clock.now = 1099
    assert s.value() == 1          # reading does not prolong (OnCreateAndWrite)
    clock.now = 1100
    assert s.value() is None       # expired at written + ttl
    s.update(2)
    clock.now = 1150
    s.update(3)                    # writing prolongs
    clock.now = 1249
    assert s.value() == 3


def test_ttl_on_read_and_write_and_return_expired():
    clock = Clock(0)
    b = KeyedStateBackend(clock=clock)
    d = ValueStateDescriptor("v", Types.INT())
    d.enable_time_to_live(_ttl(update=StateTtlConfig.UpdateType.OnReadAndWrite))
    s = b.get_state(d)
    b.set_current_key("k")
    s.update(1)
    clock.now = 90
    assert s.value() == 1
    clock.now = 180                # read at 90 prolonged it to 190
    assert s.value() == 1
    clock.now = 280
    assert s.value() is None

    d2 = ValueStateDescriptor("v2", Types.INT())
    d2.enable_time_to_live(_ttl(visibility=StateTtlConfig.StateVisibility.ReturnExpiredIfNotCleanedUp))
    s2 = b.get_state(d2)
    s2.update(7)
    clock.now = 1000
    assert s2.value() == 7         # expired but not cleaned up yet: returned once
    assert s2.value() is None      # the read cleaned it up


def test_ttl_list_and_map_per_element():
    clock = Clock(0)
    b = KeyedStateBackend(clock=clock)
    dl = ListStateDescriptor("l", Types.INT())
    dl.enable_time_to_live(_ttl())
    dm = MapStateDescriptor("m", Types.STRING(), Types.INT())
    dm.enable_time_to_live(_ttl())
    lst, m = b.get_state(dl), b.get_state(dm)
    b.set_current_key("k")
    lst.add(1)
    m.put("a", 1)
    clock.now = 50
    lst.add(2)
    m.put("b", 2)
    clock.now = 120
    assert list(lst.get()) == [2]
    assert m.get("a") is None and m.get("b") == 2
    assert list(m.keys()) == ["b"] and not m.contains("a")
    clock.now = 150
    assert list(lst.get()) == [] and m.is_empty()


def test_ttl_reducing_restarts_after_expiry():
    clock = Clock(0)
    b = KeyedStateBackend(clock=clock)
    d = ReducingStateDescriptor("r", lambda a, c: a + c, Types.INT())
    d.enable_time_to_live(_ttl())
    r = b.get_state(d)
    b.set_current_key("k")
    r.add(1)
    r.add(2)
    clock.now = 100
    r.add(10)
    assert r.get() == 10


def test_snapshot_restore_roundtrip():
    clock = Clock(0)
    b = KeyedStateBackend(clock=clock)
    v = b.get_state(ValueStateDescriptor("v", Types.PICKLED_BYTE_ARRAY()))
    lst = b.get_state(ListStateDescriptor("l", Types.INT()))
    m = b.get_state(MapStateDescriptor("m", Types.STRING(), Types.INT()))
    for key in ("a", ("b", 1), [1, 2]):
        b.set_current_key(key)
        v.update({"key": str(key)})
        lst.add_all([1, 2])
        m.put("x", 3)
    lst.set_current_namespace("window")
    lst.add(42)
    data = b.snapshot()
    assert isinstance(data, bytes)

    b2 = KeyedStateBackend(clock=clock)
    b2.restore(data)
    v2 = b2.get_state(ValueStateDescriptor("v", Types.PICKLED_BYTE_ARRAY()))
    l2 = b2.get_state(ListStateDescriptor("l", Types.INT()))
    m2 = b2.get_state(MapStateDescriptor("m", Types.STRING(), Types.INT()))
    for key in ("a", ("b", 1), [1, 2]):
        b2.set_current_key(key)
        assert v2.value() == {"key": str(key)}
        assert list(l2.get()) == [1, 2]
        assert m2.get("x") == 3
    l2.set_current_namespace("window")
    assert list(l2.get()) == [42]


def test_full_snapshot_cleanup_drops_expired():
    clock = Clock(0)
    b = KeyedStateBackend(clock=clock)
    d = ValueStateDescriptor("v", Types.INT())
    d.enable_time_to_live(_ttl(visibility=StateTtlConfig.StateVisibility.ReturnExpiredIfNotCleanedUp,
                               full_snapshot=True))
    s = b.get_state(d)
    b.set_current_key("k")
    s.update(1)
    clock.now = 500
    b2 = KeyedStateBackend(clock=clock)
    b2.restore(b.snapshot())
    s2 = b2.get_state(d)
    b2.set_current_key("k")
    assert s2.value() is None


def test_a_state_created_before_a_restore_that_lacks_it_can_be_snapshot_after_use():
    """An operator creates its states, then restores a snapshot taken while one of them was empty (so the
    snapshot has no table for it); using that state and snapshotting again must work."""
    empty = KeyedStateBackend(clock=Clock(0))
    empty.get_state(ListStateDescriptor("window-contents", Types.INT()))
    snapshot = empty.snapshot()

    restored = KeyedStateBackend(clock=Clock(0))
    contents = restored.get_state(ListStateDescriptor("window-contents", Types.INT()))
    restored.restore(snapshot)
    restored.set_current_key("a")
    contents.add(7)
    again = KeyedStateBackend(clock=Clock(0))
    again.restore(restored.snapshot())
    again.set_current_key("a")
    assert list(again.get_state(ListStateDescriptor("window-contents", Types.INT())).get()) == [7]

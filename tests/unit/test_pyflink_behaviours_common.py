"""Behaviours PyFlink's own unit tests check of ``pyflink.common`` and pure-Python datastream helpers.

Ported from what flink-python's ``common/tests/test_configuration.py``, ``test_typeinfo.py``,
``test_serialization_schemas.py``, ``datastream/tests/test_slot_sharing_group.py``,
``test_state_ttl_config.py`` and the window assigners of ``test_window.py`` check (no JVM needed). Values
checked against PyFlink 2.3.0.
"""
import pickle
from copy import deepcopy

import pytest

from pyflink_compat.common import Configuration, Time
from pyflink_compat.common.serialization import RowFieldExtractorSchema
from pyflink_compat.common.typeinfo import RowTypeInfo, TupleTypeInfo, Types
from pyflink_compat.datastream.slot_sharing_group import MemorySize, SlotSharingGroup
from pyflink_compat.datastream.state import StateTtlConfig
from pyflink_compat.datastream.window import (EventTimeSessionWindows, SlidingEventTimeWindows, TimeWindow,
                                              TumblingEventTimeWindows)


# -- Configuration ------------------------------------------------------------------------------------

def test_configuration_init_copies():
    conf = Configuration()
    assert conf.to_dict() == {}
    conf.set_string("k1", "v1")
    assert Configuration(conf).to_dict() == {"k1": "v1"}


def test_configuration_typed_getters_and_setters():
    conf = Configuration()
    conf.set_string("str", "v1")
    conf.set_integer("int", 2)
    conf.set_boolean("bool", True)
    conf.set_float("float", 0.5)
    conf.set_bytearray("bytearray", bytearray([1, 2, 3]))
    assert conf.get_string("str", "") == "v1"
    assert conf.get_integer("int", 0) == 2
    assert conf.get_boolean("bool", False) is True
    assert conf.get_float("float", 0) == 0.5
    assert conf.get_bytearray("bytearray", bytearray()) == bytearray([1, 2, 3])
    assert conf.key_set() == {"str", "int", "bool", "float", "bytearray"}


def test_configuration_add_all_to_dict_keeps_typed_values_and_to_dict_prints_them():
    conf = Configuration()
    conf.set_string("k1", "v1")
    conf.set_integer("k2", 1)
    conf.set_float("k3", 1.2)
    conf.set_boolean("k4", True)
    target = {}
    conf.add_all_to_dict(target)
    assert target == {"k1": "v1", "k2": 1, "k3": 1.2, "k4": True}
    assert conf.to_dict() == {"k1": "v1", "k2": "1", "k3": "1.2", "k4": "true"}


def test_configuration_add_all_with_prefix_contains_and_remove():
    conf = Configuration()
    conf.set_string("k1", "v1")
    conf2 = Configuration()
    conf2.add_all(conf)
    conf2.add_all(conf, "conf_")
    assert conf2.get_string("k1", "") == "v1" and conf2.get_string("conf_k1", "") == "v1"
    assert conf2.contains_key("conf_k1") and not conf2.contains_key("k2")
    assert conf2.remove_config("k1") is True
    assert conf2.remove_config("k1") is False
    assert not conf2.contains_key("k1")


def test_configuration_deepcopy_equality_hash_and_str():
    conf = Configuration()
    conf.set_string("k1", "v1")
    copied = deepcopy(conf)
    assert copied == conf
    copied.set_string("k1", "v2")
    assert copied != conf

    conf, conf2 = Configuration(), Configuration()
    conf.set_string("k1", "v1")
    conf.set_integer("k2", 1)
    conf2.set_string("k1", "v1")
    assert conf != conf2 and hash(conf) != hash(conf2)
    conf2.set_integer("k2", 1)
    assert conf == conf2 and hash(conf) == hash(conf2)
    assert str(conf) == "{k1=v1, k2=1}"


@pytest.mark.parametrize("value, expected", [
    (None, []), ("jar1;jar2;jar3", ["jar1", "jar2", "jar3"]), ("[jar1, jar2, jar3]", ["jar1", "jar2", "jar3"]),
    ("- jar1\n- jar2\n- jar3", ["jar1", "jar2", "jar3"])])
def test_configuration_parse_list_value(value, expected):
    assert Configuration.parse_list_value(value) == expected


# -- TypeInformation ---------------------------------------------------------------------------------

def test_row_type_info():
    assert RowTypeInfo([Types.STRING(), Types.STRING()]).get_field_names() == ['f0', 'f1']
    named = RowTypeInfo([Types.STRING(), Types.STRING()], ['a', 'b'])
    assert named.get_field_names() == ['a', 'b']
    assert named == RowTypeInfo([Types.STRING(), Types.STRING()], ['a', 'b'])
    assert named != RowTypeInfo([Types.STRING(), Types.INT()], ['a', 'b'])
    assert str(named) == "RowTypeInfo(a: String, b: String)"
    assert Types.ROW([Types.STRING(), Types.STRING()]) == RowTypeInfo([Types.STRING(), Types.STRING()])
    assert Types.ROW_NAMED(['a', 'b'], [Types.STRING(), Types.STRING()]).get_field_names() == ['a', 'b']
    assert Types.ROW_NAMED(['a', 'b'], [Types.STRING(), Types.INT()]).get_field_types() == \
        [Types.STRING(), Types.INT()]


def test_tuple_type_info():
    assert TupleTypeInfo([Types.STRING(), Types.INT()]) == TupleTypeInfo([Types.STRING(), Types.INT()])
    assert str(TupleTypeInfo([Types.STRING(), Types.INT()])) == "TupleTypeInfo(String, Integer)"
    assert TupleTypeInfo([Types.STRING(), Types.INT()]) != TupleTypeInfo([Types.STRING(), Types.BOOLEAN()])
    assert Types.TUPLE([Types.STRING(), Types.INT()]) == TupleTypeInfo([Types.STRING(), Types.INT()])
    assert Types.TUPLE([Types.STRING(), Types.INT()]).get_field_types() == [Types.STRING(), Types.INT()]


# -- serialization schemas ----------------------------------------------------------------------------

def test_row_field_extractor_schema_refuses_a_negative_index():
    with pytest.raises(ValueError, match="Field index must be non-negative"):
        RowFieldExtractorSchema(-1)
    assert RowFieldExtractorSchema(3) is not None


# -- SlotSharingGroup and MemorySize ---------------------------------------------------------------------

def test_slot_sharing_group_with_specific_resources():
    heap, off_heap, managed = (MemorySize.of_mebi_bytes(100), MemorySize.of_mebi_bytes(200),
                               MemorySize.of_mebi_bytes(300))
    group = SlotSharingGroup.builder('slot_sharing_group').set_cpu_cores(1.0).set_task_heap_memory(heap) \
        .set_task_off_heap_memory(off_heap).set_managed_memory(managed).set_external_resource('gpu', 1.0).build()
    assert group.get_name() == 'slot_sharing_group'
    assert group.get_cpu_cores() == 1.0
    assert group.get_task_heap_memory() == heap
    assert group.get_task_off_heap_memory() == off_heap
    assert group.get_managed_memory() == managed
    assert group.get_external_resources() == {'gpu': 1.0}


def test_slot_sharing_group_with_unknown_resources():
    group = SlotSharingGroup.builder('slot_sharing_group').build()
    assert group.get_name() == 'slot_sharing_group'
    assert group.get_cpu_cores() is None
    assert group.get_task_heap_memory() is None
    assert group.get_task_off_heap_memory() is None
    assert group.get_managed_memory() is None
    assert group.get_external_resources() == {}


def test_slot_sharing_group_illegal_or_incomplete_resources():
    with pytest.raises(Exception):
        SlotSharingGroup.builder("s").set_cpu_cores(1.0).set_task_heap_memory(MemorySize(bytes_size=0)) \
            .set_task_off_heap_memory_mb(10).build()
    with pytest.raises(Exception):
        SlotSharingGroup.builder("s").set_cpu_cores(1.0).set_task_off_heap_memory_mb(10).build()


def test_memory_size_ordering():
    m1, m2, m3 = MemorySize.of_mebi_bytes(100), MemorySize.of_mebi_bytes(100), MemorySize.of_mebi_bytes(200)
    assert m1 == m2
    assert m1 <= m2 and m2 <= m1
    assert m1 <= m3 and not m3 <= m1


# -- StateTtlConfig -------------------------------------------------------------------------------------

def test_ttl_default_rocksdb_compact_filter_cleanup():
    config = StateTtlConfig.new_builder(Time.days(1)).build()
    strategy = config.get_cleanup_strategies().get_rocksdb_compact_filter_cleanup_strategy()
    assert strategy.get_query_time_after_num_entries() == 1000


def test_ttl_explicit_rocksdb_compact_filter_cleanup():
    config = StateTtlConfig.new_builder(Time.days(1)).cleanup_in_rocksdb_compact_filter(17).build()
    strategy = config.get_cleanup_strategies().get_rocksdb_compact_filter_cleanup_strategy()
    assert strategy.get_query_time_after_num_entries() == 17


@pytest.mark.parametrize("explicit", [False, True])
def test_ttl_config_pickle_round_trip(explicit):
    builder = StateTtlConfig.new_builder(Time.days(1))
    if explicit:
        builder.cleanup_in_rocksdb_compact_filter(17)
    restored = pickle.loads(pickle.dumps(builder.build()))
    assert restored.get_ttl() == Time.days(1)
    strategy = restored.get_cleanup_strategies().get_rocksdb_compact_filter_cleanup_strategy()
    assert strategy.get_query_time_after_num_entries() == (17 if explicit else 1000)


def test_ttl_config_defaults():
    config = StateTtlConfig.new_builder(Time.seconds(1)).build()
    assert config.get_update_type() == StateTtlConfig.UpdateType.OnCreateAndWrite
    assert config.get_state_visibility() == StateTtlConfig.StateVisibility.NeverReturnExpired
    assert config.get_ttl_time_characteristic() == StateTtlConfig.TtlTimeCharacteristic.ProcessingTime
    assert config.is_enabled()
    assert config.get_cleanup_strategies().is_cleanup_in_background()
    assert not config.get_cleanup_strategies().in_full_snapshot()


# -- window assigners --------------------------------------------------------------------------------

def test_window_assigner_properties():
    tumbling = TumblingEventTimeWindows.of(Time.seconds(5))
    assert str(tumbling) == "TumblingEventTimeWindows(5000, 0)" and tumbling.is_event_time()
    assert tumbling.assign_windows(None, 7000, None) == [TimeWindow(5000, 10000)]
    assert TumblingEventTimeWindows.of(Time.seconds(5), Time.seconds(1)).assign_windows(None, 7000, None) == \
        [TimeWindow(6000, 11000)]
    sliding = SlidingEventTimeWindows.of(Time.seconds(10), Time.seconds(5))
    assert str(sliding) == "SlidingEventTimeWindows(10000, 5000, 0)"
    assert sliding.assign_windows(None, 7000, None) == [TimeWindow(5000, 15000), TimeWindow(0, 10000)]
    session = EventTimeSessionWindows.with_gap(Time.seconds(5))
    assert str(session) == "EventTimeSessionWindows(5000)"
    assert session.assign_windows(None, 7000, None) == [TimeWindow(7000, 12000)]


@pytest.mark.parametrize("make, message", [
    (lambda: TumblingEventTimeWindows.of(Time.seconds(5), Time.seconds(6)), "abs\\(offset\\) < size"),
    (lambda: SlidingEventTimeWindows.of(Time.seconds(10), Time.seconds(0)), "abs\\(offset\\) < slide and size > 0"),
    (lambda: EventTimeSessionWindows.with_gap(Time.seconds(0)), "0 < size")])
def test_window_assigner_argument_checks(make, message):
    with pytest.raises(Exception, match=message):
        make()

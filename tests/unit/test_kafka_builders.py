"""KafkaSource / KafkaSink / KafkaRecordSerializationSchema builders: Flink's validation and defaults."""
import pickle
import re

import pytest
from py4j.protocol import Py4JJavaError

from pyflink_compat.common.serialization import SimpleStringSchema
from pyflink_compat.datastream.connectors.base import DeliveryGuarantee, Sink, Source, SupportsPreprocessing
from pyflink_compat.datastream.connectors.kafka import (
    KafkaOffsetResetStrategy, KafkaOffsetsInitializer, KafkaRecordSerializationSchema,
    KafkaRecordSerializationSchemaBuilder, KafkaSink, KafkaSinkBuilder, KafkaSource, KafkaSourceBuilder,
    KafkaTopicPartition, KafkaTopicSelector)
from pyflink_compat.kafka_io import spec as kspec
from pyflink_compat.util.exceptions import JavaStyleError

NPE = "java.lang.NullPointerException"
ISE = "java.lang.IllegalStateException"
IAE = "java.lang.IllegalArgumentException"


def raises_java(java_class, message):
    """Context manager: a JavaStyleError (a Py4JJavaError) of that Java class with exactly that message."""

    class _Ctx:
        def __enter__(self):
            self._cm = pytest.raises(Py4JJavaError)
            self.excinfo = self._cm.__enter__()
            return self.excinfo

        def __exit__(self, *exc):
            suppressed = self._cm.__exit__(*exc)
            err = self.excinfo.value
            assert isinstance(err, JavaStyleError)
            assert (err.java_class, err.message) == (java_class, message)
            assert ("%s: %s" % (java_class, message)) in str(err)
            return suppressed

    return _Ctx()


def basic_source_builder():
    return (KafkaSource.builder()
            .set_bootstrap_servers("broker:9092")
            .set_topics("topic")
            .set_value_only_deserializer(SimpleStringSchema()))


def props_of(source):
    return dict(source._spec.properties)


# ---------------------------------------------------------------------------------------------
# KafkaSourceBuilder.build(): validation, in Flink's order
# ---------------------------------------------------------------------------------------------

class TestSourceBuildValidation:

    def test_empty_builder_fails_on_bootstrap_servers_first(self):
        with raises_java(NPE, "Property bootstrap.servers is required but not provided"):
            KafkaSource.builder().build()

    def test_bootstrap_servers_checked_before_everything(self):
        b = (KafkaSource.builder().set_topics("t").set_value_only_deserializer(SimpleStringSchema())
             .set_property("enable.auto.commit", "true")
             .set_starting_offsets(KafkaOffsetsInitializer.committed_offsets()))
        with raises_java(NPE, "Property bootstrap.servers is required but not provided"):
            b.build()

    def test_subscribe_mode_second(self):
        b = KafkaSource.builder().set_bootstrap_servers("b:1")
        with raises_java(NPE, "No subscribe mode is specified, should be one of topics, "
                              "topic pattern and partition set."):
            b.build()

    def test_subscribe_mode_checked_before_deserializer(self):
        b = KafkaSource.builder().set_bootstrap_servers("b:1").set_property("enable.auto.commit", "true")
        with raises_java(NPE, "No subscribe mode is specified, should be one of topics, "
                              "topic pattern and partition set."):
            b.build()

    def test_deserializer_third(self):
        b = KafkaSource.builder().set_bootstrap_servers("b:1").set_topics("t")
        with raises_java(NPE, "Deserialization schema is required but not provided."):
            b.build()

    def test_deserializer_checked_before_group_id(self):
        b = (KafkaSource.builder().set_bootstrap_servers("b:1").set_topics("t")
             .set_property("enable.auto.commit", "true"))
        with raises_java(NPE, "Deserialization schema is required but not provided."):
            b.build()

    @pytest.mark.parametrize("key,value", [
        ("enable.auto.commit", "true"),
        ("enable.auto.commit", "TRUE"),
        ("commit.offsets.on.checkpoint", "true"),
        ("commit.offsets.on.checkpoint", "True"),
    ])
    def test_explicit_offset_commit_needs_group_id(self, key, value):
        with raises_java(ISE, "Property group.id is required when offset commit is enabled"):
            basic_source_builder().set_property(key, value).build()

    @pytest.mark.parametrize("key,value", [
        ("enable.auto.commit", "false"),
        ("commit.offsets.on.checkpoint", "false"),
        ("enable.auto.commit", "yes"),          # Boolean.parseBoolean("yes") is false
    ])
    def test_offset_commit_off_does_not_need_group_id(self, key, value):
        basic_source_builder().set_property(key, value).build()

    def test_offset_commit_with_group_id_is_fine(self):
        src = (basic_source_builder().set_group_id("g").set_property("enable.auto.commit", "true")
               .set_property("commit.offsets.on.checkpoint", "true").build())
        assert props_of(src)["enable.auto.commit"] == "true"
        assert props_of(src)["commit.offsets.on.checkpoint"] == "true"

    def test_group_id_not_required_by_default(self):
        basic_source_builder().build()

    def test_committed_starting_offsets_need_group_id(self):
        b = basic_source_builder().set_starting_offsets(KafkaOffsetsInitializer.committed_offsets())
        with raises_java(ISE, "Property group.id is required when using committed offset for "
                              "offsets initializer"):
            b.build()
        b.set_group_id("g").build()

    @pytest.mark.parametrize("setter", ["set_bounded", "set_unbounded"])
    def test_committed_stopping_offsets_need_group_id(self, setter):
        b = basic_source_builder()
        getattr(b, setter)(KafkaOffsetsInitializer.committed_offsets(KafkaOffsetResetStrategy.LATEST))
        with raises_java(ISE, "Property group.id is required when using committed offset for "
                              "offsets initializer"):
            b.build()

    def test_offsets_with_committed_sentinel_need_group_id(self):
        init = KafkaOffsetsInitializer.offsets({KafkaTopicPartition("topic", 0): -3})
        with raises_java(ISE, "Property group.id is required because partition topic-0 is "
                              "initialized with committed offset"):
            basic_source_builder().set_starting_offsets(init).build()

    def test_offsets_without_sentinel_do_not_need_group_id(self):
        init = KafkaOffsetsInitializer.offsets({KafkaTopicPartition("topic", 0): 5})
        basic_source_builder().set_starting_offsets(init).build()

    def test_offset_commit_check_comes_before_initializer_check(self):
        b = (basic_source_builder().set_property("enable.auto.commit", "true")
             .set_starting_offsets(KafkaOffsetsInitializer.committed_offsets()))
        with raises_java(ISE, "Property group.id is required when offset commit is enabled"):
            b.build()

    def test_starting_initializer_checked_before_stopping(self):
        b = (basic_source_builder()
             .set_starting_offsets(KafkaOffsetsInitializer.offsets({KafkaTopicPartition("a", 1): -3}))
             .set_bounded(KafkaOffsetsInitializer.committed_offsets()))
        with raises_java(ISE, "Property group.id is required because partition a-1 is initialized "
                              "with committed offset"):
            b.build()

    @pytest.mark.parametrize("cls", [
        "org.apache.kafka.common.serialization.ByteArrayDeserializer",
        "org.apache.flink.kafka.shaded.org.apache.kafka.common.serialization.ByteArrayDeserializer",
    ])
    @pytest.mark.parametrize("key", ["key.deserializer", "value.deserializer"])
    def test_byte_array_deserializer_accepted(self, key, cls):
        src = basic_source_builder().set_property(key, cls).build()
        assert props_of(src)[key] == cls

    @pytest.mark.parametrize("key", ["key.deserializer", "value.deserializer"])
    def test_other_kafka_deserializer_rejected(self, key):
        cls = "org.apache.kafka.common.serialization.StringDeserializer"
        with raises_java(IAE, "Deserializer class %s does not deserialize byte[]" % cls):
            basic_source_builder().set_property(key, cls).build()

    def test_unknown_deserializer_class_not_found(self):
        with raises_java(IAE, "Deserializer class com.example.MyDeserializer not found"):
            basic_source_builder().set_property("value.deserializer", "com.example.MyDeserializer").build()

    def test_key_deserializer_checked_before_value(self):
        b = (basic_source_builder().set_property("value.deserializer", "x.V")
             .set_property("key.deserializer", "x.K"))
        with raises_java(IAE, "Deserializer class x.K not found"):
            b.build()

    def test_initializer_checked_before_deserializer_class(self):
        b = (basic_source_builder().set_property("key.deserializer", "x.K")
             .set_starting_offsets(KafkaOffsetsInitializer.committed_offsets()))
        with raises_java(ISE, "Property group.id is required when using committed offset for "
                              "offsets initializer"):
            b.build()

    def test_errors_are_py4j_java_errors(self):
        with pytest.raises(Py4JJavaError) as e:
            KafkaSource.builder().build()
        assert "An error occurred while calling" in str(e.value)


# ---------------------------------------------------------------------------------------------
# subscription: topics / pattern / partitions
# ---------------------------------------------------------------------------------------------

SUBSCRIBE = {
    "topics": (lambda b: b.set_topics("a"), "TopicListSubscriber"),
    "topic pattern": (lambda b: b.set_topic_pattern("a.*"), "TopicPatternSubscriber"),
    "partitions": (lambda b: b.set_partitions({KafkaTopicPartition("a", 0)}), "PartitionSetSubscriber"),
}


class TestSubscription:

    @pytest.mark.parametrize("first", list(SUBSCRIBE))
    @pytest.mark.parametrize("second", list(SUBSCRIBE))
    def test_modes_are_exclusive_at_the_second_setter(self, first, second):
        b = KafkaSource.builder()
        SUBSCRIBE[first][0](b)
        with raises_java(ISE, "Cannot use %s for consumption because a %s is already set for "
                              "consumption." % (second, SUBSCRIBE[first][1])):
            SUBSCRIBE[second][0](b)

    def test_topics_are_varargs_in_order(self):
        src = basic_source_builder().build()
        assert src._spec.subscription == kspec.Subscription(topics=("topic",))
        b = (KafkaSource.builder().set_bootstrap_servers("b:1").set_topics("z", "a", "m")
             .set_value_only_deserializer(SimpleStringSchema()))
        assert b.build()._spec.subscription.topics == ("z", "a", "m")

    def test_set_topics_with_a_list_is_a_type_error(self):
        with pytest.raises(TypeError, match="separate str arguments"):
            KafkaSource.builder().set_topics(["a", "b"])

    def test_pattern_spec(self):
        src = (KafkaSource.builder().set_bootstrap_servers("b:1").set_topic_pattern("orders-.*")
               .set_value_only_deserializer(SimpleStringSchema()).build())
        assert src._spec.subscription == kspec.Subscription(pattern="orders-.*")
        assert src._spec.subscription.mode == "pattern"

    def test_partitions_spec(self):
        parts = {KafkaTopicPartition("a", 0), KafkaTopicPartition("b", 2)}
        src = (KafkaSource.builder().set_bootstrap_servers("b:1").set_partitions(parts)
               .set_value_only_deserializer(SimpleStringSchema()).build())
        assert src._spec.subscription.partitions == frozenset({("a", 0), ("b", 2)})
        assert src._spec.subscription.mode == "partitions"

    def test_set_partitions_rejects_other_elements(self):
        with pytest.raises(TypeError):
            KafkaSource.builder().set_partitions({("a", 0)})


# ---------------------------------------------------------------------------------------------
# defaults filled in by build()
# ---------------------------------------------------------------------------------------------

class TestSourceDefaults:

    @pytest.mark.parametrize("initializer,expected", [
        (KafkaOffsetsInitializer.earliest(), "earliest"),
        (KafkaOffsetsInitializer.latest(), "latest"),
        (KafkaOffsetsInitializer.timestamp(1700000000000), "latest"),
        (KafkaOffsetsInitializer.committed_offsets(), "none"),
        (KafkaOffsetsInitializer.committed_offsets(KafkaOffsetResetStrategy.EARLIEST), "earliest"),
        (KafkaOffsetsInitializer.committed_offsets(KafkaOffsetResetStrategy.LATEST), "latest"),
        (KafkaOffsetsInitializer.offsets({KafkaTopicPartition("t", 0): 1}), "earliest"),
        (KafkaOffsetsInitializer.offsets({KafkaTopicPartition("t", 0): 1}, KafkaOffsetResetStrategy.LATEST),
         "latest"),
        (KafkaOffsetsInitializer.offsets({KafkaTopicPartition("t", 0): 1}, KafkaOffsetResetStrategy.NONE),
         "none"),
    ])
    def test_auto_offset_reset_from_starting_initializer(self, initializer, expected):
        src = basic_source_builder().set_group_id("g").set_starting_offsets(initializer).build()
        assert props_of(src)["auto.offset.reset"] == expected

    def test_auto_offset_reset_default_is_earliest(self):
        assert props_of(basic_source_builder().build())["auto.offset.reset"] == "earliest"

    def test_auto_offset_reset_is_always_overwritten(self):
        src = (basic_source_builder().set_property("auto.offset.reset", "none")
               .set_starting_offsets(KafkaOffsetsInitializer.latest()).build())
        assert props_of(src)["auto.offset.reset"] == "latest"

    def test_without_group_id(self):
        p = props_of(basic_source_builder().build())
        assert "group.id" not in p
        assert p["enable.auto.commit"] == "false"
        assert p["commit.offsets.on.checkpoint"] == "false"
        assert re.fullmatch(r"KafkaSource--?\d+", p["client.id.prefix"])
        assert -2 ** 63 <= int(p["client.id.prefix"][len("KafkaSource-"):]) < 2 ** 63
        assert "partition.discovery.interval.ms" not in p

    def test_with_group_id(self):
        p = props_of(basic_source_builder().set_group_id("my-group").build())
        assert p["group.id"] == "my-group"
        assert p["enable.auto.commit"] == "false"
        assert "commit.offsets.on.checkpoint" not in p      # KafkaSourceOptions default (true) applies
        assert p["client.id.prefix"] == "my-group"

    def test_user_values_kept_when_only_defaults(self):
        p = props_of(basic_source_builder().set_group_id("g").set_client_id_prefix("mine")
                     .set_property("enable.auto.commit", "true")
                     .set_property("partition.discovery.interval.ms", "1000").build())
        assert p["client.id.prefix"] == "mine"
        assert p["enable.auto.commit"] == "true"
        assert p["partition.discovery.interval.ms"] == "1000"

    def test_commit_on_checkpoint_user_value_kept_without_group_id(self):
        p = props_of(basic_source_builder().set_property("commit.offsets.on.checkpoint", "false").build())
        assert p["commit.offsets.on.checkpoint"] == "false"

    def test_client_id_prefix_random_differs_per_builder(self):
        a = props_of(basic_source_builder().build())["client.id.prefix"]
        b = props_of(basic_source_builder().build())["client.id.prefix"]
        assert a != b

    def test_second_build_keeps_filled_values(self):
        b = basic_source_builder()
        first = props_of(b.build())
        assert props_of(b.build())["client.id.prefix"] == first["client.id.prefix"]

    def test_bounded_disables_discovery_even_if_set(self):
        src = (basic_source_builder().set_property("partition.discovery.interval.ms", "10")
               .set_bounded(KafkaOffsetsInitializer.latest()).build())
        assert props_of(src)["partition.discovery.interval.ms"] == "-1"
        assert src._spec.bounded is True
        assert src._spec.partition_discovery_interval_ms == -1
        assert src._spec.stopping_offsets == kspec.OffsetsSpec(kind="latest", reset_strategy="latest")

    def test_unbounded_with_stopping_offsets(self):
        src = basic_source_builder().set_unbounded(KafkaOffsetsInitializer.timestamp(5)).build()
        assert src._spec.bounded is False
        assert src._spec.stopping_offsets == kspec.OffsetsSpec(
            kind="timestamp", reset_strategy="latest", timestamp_ms=5)
        assert "partition.discovery.interval.ms" not in props_of(src)
        assert src._spec.partition_discovery_interval_ms == 300000

    def test_set_unbounded_after_set_bounded_is_unbounded(self):
        src = (basic_source_builder().set_bounded(KafkaOffsetsInitializer.latest())
               .set_unbounded(KafkaOffsetsInitializer.latest()).build())
        assert src._spec.bounded is False

    def test_default_offsets_and_spec(self):
        schema = SimpleStringSchema()
        src = (KafkaSource.builder().set_bootstrap_servers("b:1,c:2").set_topics("t")
               .set_value_only_deserializer(schema).build())
        s = src._spec
        assert isinstance(src, KafkaSource) and isinstance(src, Source)
        assert isinstance(s, kspec.KafkaSourceSpec)
        assert s.starting_offsets == kspec.OffsetsSpec(kind="earliest", reset_strategy="earliest")
        assert s.stopping_offsets is None
        assert s.bounded is False
        assert s.value_deserializer is schema
        assert s.bootstrap_servers == "b:1,c:2"
        assert s.group_id is None

    def test_setters_return_self(self):
        b = KafkaSource.builder()
        init = KafkaOffsetsInitializer.earliest()
        assert b.set_bootstrap_servers("b") is b
        assert b.set_group_id("g") is b
        assert b.set_topics("t") is b
        assert b.set_starting_offsets(init) is b
        assert b.set_unbounded(init) is b
        assert b.set_bounded(init) is b
        assert b.set_value_only_deserializer(SimpleStringSchema()) is b
        assert b.set_client_id_prefix("c") is b
        assert b.set_property("k", "v") is b
        assert b.set_properties({"k2": "v2"}) is b
        assert isinstance(KafkaSource.builder(), KafkaSourceBuilder)

    def test_set_properties_merges(self):
        p = props_of(basic_source_builder().set_property("a", "1")
                     .set_properties({"b": "2", "a": "3"}).set_properties({"c": "4"}).build())
        assert (p["a"], p["b"], p["c"]) == ("3", "2", "4")
        assert p["bootstrap.servers"] == "broker:9092"

    @pytest.mark.parametrize("value", [1, None, True])
    def test_property_values_must_be_str(self, value):
        with pytest.raises(TypeError):
            KafkaSource.builder().set_property("max.poll.records", value)
        b = KafkaSource.builder()
        with pytest.raises(TypeError):
            b.set_properties({"ok": "1", "bad": value})
        assert b._props == {}             # nothing merged when one value is bad

    @pytest.mark.parametrize("setter", ["set_starting_offsets", "set_bounded", "set_unbounded"])
    def test_only_builtin_initializers(self, setter):
        with pytest.raises(TypeError, match="customized offset initializers are not supported in PyFlink"):
            getattr(KafkaSource.builder(), setter)(object())

    def test_value_only_deserializer_must_be_a_schema(self):
        with pytest.raises(TypeError):
            KafkaSource.builder().set_value_only_deserializer(None)

    def test_spec_pickles(self):
        src = basic_source_builder().set_property("sasl.jaas.config", "x").build()
        again = pickle.loads(pickle.dumps(src._spec))
        assert again == src._spec
        assert dict(again.properties) == props_of(src)


# ---------------------------------------------------------------------------------------------
# offsets initializers, KafkaTopicPartition, enums
# ---------------------------------------------------------------------------------------------

class TestOffsetsAndPartitions:

    def test_initializer_specs(self):
        tp = KafkaTopicPartition("t", 3)
        assert KafkaOffsetsInitializer.earliest()._spec == kspec.OffsetsSpec("earliest", "earliest")
        assert KafkaOffsetsInitializer.latest()._spec == kspec.OffsetsSpec("latest", "latest")
        assert KafkaOffsetsInitializer.timestamp(123)._spec == kspec.OffsetsSpec(
            "timestamp", "latest", timestamp_ms=123)
        assert KafkaOffsetsInitializer.committed_offsets()._spec == kspec.OffsetsSpec("committed", "none")
        assert KafkaOffsetsInitializer.committed_offsets(
            KafkaOffsetResetStrategy.EARLIEST)._spec == kspec.OffsetsSpec("committed", "earliest")
        assert KafkaOffsetsInitializer.offsets({tp: 42})._spec == kspec.OffsetsSpec(
            "specific", "earliest", offsets={("t", 3): 42})
        assert KafkaOffsetsInitializer.offsets(
            {tp: 42}, KafkaOffsetResetStrategy.NONE)._spec.reset_strategy == "none"
        assert KafkaOffsetsInitializer.committed_offsets()._spec.uses_committed_offsets
        assert not KafkaOffsetsInitializer.earliest()._spec.uses_committed_offsets

    def test_initializer_argument_types(self):
        with pytest.raises(TypeError):
            KafkaOffsetsInitializer.offsets({("t", 0): 1})
        with pytest.raises(TypeError):
            KafkaOffsetsInitializer.committed_offsets("earliest")
        with pytest.raises(TypeError):
            KafkaOffsetsInitializer.timestamp("yesterday")

    def test_initializer_repr(self):
        assert repr(KafkaOffsetsInitializer.earliest()) == "KafkaOffsetsInitializer.earliest()"
        assert repr(KafkaOffsetsInitializer.timestamp(7)) == "KafkaOffsetsInitializer.timestamp(7)"

    def test_reset_strategy_values(self):
        assert [(s.name, s.value) for s in KafkaOffsetResetStrategy] == [
            ("LATEST", 0), ("EARLIEST", 1), ("NONE", 2)]

    def test_topic_partition_equality_and_hash(self):
        a, b = KafkaTopicPartition("t", 1), KafkaTopicPartition("t", 1)
        assert a == b and not (a != b)
        assert a != KafkaTopicPartition("t", 2)
        assert a != KafkaTopicPartition("u", 1)
        assert a != ("t", 1)
        assert hash(a) == hash(b) == 31 * (31 + 1) + hash("t")
        assert len({a, b, KafkaTopicPartition("t", 2)}) == 2
        assert repr(a) == "KafkaTopicPartition(topic='t', partition=1)"

    def test_delivery_guarantee_values(self):
        assert DeliveryGuarantee.EXACTLY_ONCE.value == (0,)
        assert DeliveryGuarantee.AT_LEAST_ONCE.value == (1,)
        assert DeliveryGuarantee.NONE.value == 2
        assert [g._to_string() for g in DeliveryGuarantee] == ["exactly-once", "at-least-once", "none"]

    def test_delivery_guarantee_same_object_everywhere(self):
        from pyflink_compat.datastream import connectors
        from pyflink_compat.datastream.connectors import kafka
        assert connectors.DeliveryGuarantee is kafka.DeliveryGuarantee is DeliveryGuarantee


# ---------------------------------------------------------------------------------------------
# KafkaRecordSerializationSchemaBuilder
# ---------------------------------------------------------------------------------------------

class UpperTopic(KafkaTopicSelector):
    def apply(self, data):
        return data.upper()


class TestRecordSerializationSchemaBuilder:

    def test_value_serializer_checked_first(self):
        with raises_java(ISE, "No value serializer is configured."):
            KafkaRecordSerializationSchema.builder().build()
        with raises_java(ISE, "No value serializer is configured."):
            KafkaRecordSerializationSchema.builder().set_topic("t").build()

    def test_topic_checked_second(self):
        b = KafkaRecordSerializationSchema.builder().set_value_serialization_schema(SimpleStringSchema())
        with raises_java(ISE, "No topic selector is configured."):
            b.build()

    @pytest.mark.parametrize("first,second", [
        ("topic", "topic"), ("topic", "selector"), ("selector", "topic"), ("selector", "selector")])
    def test_topic_and_selector_exclusive(self, first, second):
        def call(b, which):
            return b.set_topic("t") if which == "topic" else b.set_topic_selector(lambda v: "t")

        b = KafkaRecordSerializationSchema.builder()
        call(b, first)
        with raises_java(ISE, "Topic selector already set."):
            call(b, second)

    def test_serializers_set_twice(self):
        b = (KafkaRecordSerializationSchema.builder().set_key_serialization_schema(SimpleStringSchema())
             .set_value_serialization_schema(SimpleStringSchema()))
        with raises_java(ISE, "Key serializer already set."):
            b.set_key_serialization_schema(SimpleStringSchema())
        with raises_java(ISE, "Value serializer already set."):
            b.set_value_serialization_schema(SimpleStringSchema())

    def test_set_topic_none(self):
        with pytest.raises(JavaStyleError) as e:
            KafkaRecordSerializationSchema.builder().set_topic(None)
        assert e.value.java_class == NPE
        # Java checks "already set" before the null check
        with raises_java(ISE, "Topic selector already set."):
            KafkaRecordSerializationSchema.builder().set_topic("t").set_topic(None)

    @pytest.mark.parametrize("bad", ["topic-name", 42, None])
    def test_topic_selector_type_error(self, bad):
        with pytest.raises(TypeError) as e:
            KafkaRecordSerializationSchema.builder().set_topic_selector(bad)
        assert str(e.value) == "topic_selector must be KafkaTopicSelector or a callable"

    def test_callable_selector_is_wrapped(self):
        b = KafkaRecordSerializationSchema.builder().set_topic_selector(lambda v: "t-" + v)
        sel = b._topic_selector
        assert isinstance(sel, KafkaTopicSelector)
        assert sel.apply("x") == "t-x"

    def test_selector_instance_is_kept(self):
        sel = UpperTopic()
        schema = (KafkaRecordSerializationSchema.builder().set_topic_selector(sel)
                  .set_value_serialization_schema(SimpleStringSchema()).build())
        assert schema._spec.topic_selector is sel
        assert schema._serialize_record("abc") == ("ABC", None, b"abc")

    def test_fixed_topic_record(self):
        schema = (KafkaRecordSerializationSchema.builder().set_topic("out")
                  .set_key_serialization_schema(SimpleStringSchema())
                  .set_value_serialization_schema(SimpleStringSchema()).build())
        assert schema._spec.topic == "out" and schema._spec.topic_selector is None
        assert schema._serialize_record("v") == ("out", b"v", b"v")

    def test_setters_return_self(self):
        b = KafkaRecordSerializationSchema.builder()
        assert isinstance(b, KafkaRecordSerializationSchemaBuilder)
        assert b.set_topic("t") is b
        assert b.set_key_serialization_schema(SimpleStringSchema()) is b
        assert b.set_value_serialization_schema(SimpleStringSchema()) is b
        assert KafkaRecordSerializationSchema.builder().set_topic_selector(UpperTopic()) is not None


# ---------------------------------------------------------------------------------------------
# KafkaSinkBuilder
# ---------------------------------------------------------------------------------------------

def record_serializer(topic="out"):
    return (KafkaRecordSerializationSchema.builder().set_topic(topic)
            .set_value_serialization_schema(SimpleStringSchema()).build())


class TestSinkBuilder:

    def test_bootstrap_servers_first(self):
        with raises_java(NPE, "bootstrapServers"):
            KafkaSink.builder().build()
        with raises_java(NPE, "bootstrapServers"):
            (KafkaSink.builder().set_delivery_guarantee(DeliveryGuarantee.EXACTLY_ONCE)
             .set_record_serializer(record_serializer()).build())

    def test_record_serializer_second(self):
        with raises_java(NPE, "recordSerializer"):
            KafkaSink.builder().set_bootstrap_servers("b:1").build()

    def test_record_serializer_checked_before_exactly_once(self):
        b = KafkaSink.builder().set_bootstrap_servers("b:1").set_delivery_guarantee(
            DeliveryGuarantee.EXACTLY_ONCE)
        with raises_java(NPE, "recordSerializer"):
            b.build()

    def test_exactly_once_needs_prefix(self):
        b = (KafkaSink.builder().set_bootstrap_servers("b:1").set_record_serializer(record_serializer())
             .set_delivery_guarantee(DeliveryGuarantee.EXACTLY_ONCE))
        with raises_java(ISE, "EXACTLY_ONCE delivery guarantee requires a transactionalIdPrefix to be "
                              "set to provide unique transaction names across multiple KafkaSinks "
                              "writing to the same Kafka cluster."):
            b.build()
        sink = b.set_transactional_id_prefix("app-1").build()
        assert sink._spec.delivery_guarantee == "exactly-once"
        assert sink._spec.transactional_id_prefix == "app-1"

    def test_prefix_null(self):
        with raises_java(NPE, "transactionalIdPrefix"):
            KafkaSink.builder().set_transactional_id_prefix(None)

    def test_prefix_too_long_fails_at_set_time(self):
        KafkaSink.builder().set_transactional_id_prefix("x" * 64000)
        with raises_java(ISE, "The configured prefix is too long and the resulting transactionalIdPrefix "
                              "might exceed Kafka's transactionalIdPrefix size."):
            KafkaSink.builder().set_transactional_id_prefix("é" * 32001)     # 64002 UTF-8 bytes

    def test_defaults(self):
        sink = KafkaSink.builder().set_bootstrap_servers("b:1").set_record_serializer(record_serializer()).build()
        s = sink._spec
        assert isinstance(s, kspec.KafkaSinkSpec)
        assert s.delivery_guarantee == "none"
        assert s.transactional_id_prefix is None
        assert dict(s.properties) == {"transaction.timeout.ms": "3600000", "bootstrap.servers": "b:1"}
        assert s.bootstrap_servers == "b:1"
        assert (s.topic, s.topic_selector, s.key_serializer) == ("out", None, None)
        assert isinstance(s.value_serializer, SimpleStringSchema)

    def test_prefix_without_exactly_once_is_stored(self):
        sink = (KafkaSink.builder().set_bootstrap_servers("b:1").set_record_serializer(record_serializer())
                .set_delivery_guarantee(DeliveryGuarantee.AT_LEAST_ONCE)
                .set_transactional_id_prefix("p").build())
        assert sink._spec.transactional_id_prefix == "p"
        assert sink._spec.delivery_guarantee == "at-least-once"

    def test_record_serializer_copied_into_spec(self):
        sel = UpperTopic()
        key, value = SimpleStringSchema(), SimpleStringSchema("latin-1")
        rs = (KafkaRecordSerializationSchema.builder().set_topic_selector(sel)
              .set_key_serialization_schema(key).set_value_serialization_schema(value).build())
        s = KafkaSink.builder().set_bootstrap_servers("b:1").set_record_serializer(rs).build()._spec
        assert s.topic is None
        assert s.topic_selector is sel
        assert s.key_serializer is key and s.value_serializer is value

    def test_set_property_overrides(self):
        sink = (KafkaSink.builder().set_bootstrap_servers("b:1").set_record_serializer(record_serializer())
                .set_property("transaction.timeout.ms", "60000").set_property("acks", "all").build())
        assert sink._spec.properties["transaction.timeout.ms"] == "60000"
        assert sink._spec.properties["acks"] == "all"

    def test_delivery_guarantee_type_error(self):
        with pytest.raises(TypeError, match="delivery_guarantee"):
            KafkaSink.builder().set_delivery_guarantee(None)

    def test_record_serializer_type_error(self):
        with pytest.raises(TypeError):
            KafkaSink.builder().set_record_serializer(SimpleStringSchema())

    def test_sink_shape(self):
        sink = KafkaSink.builder().set_bootstrap_servers("b:1").set_record_serializer(record_serializer()).build()
        assert isinstance(sink, Sink) and isinstance(sink, SupportsPreprocessing)
        assert sink.get_transformer() is None
        assert isinstance(KafkaSink.builder(), KafkaSinkBuilder)

    def test_setters_return_self(self):
        b = KafkaSink.builder()
        assert b.set_bootstrap_servers("b") is b
        assert b.set_delivery_guarantee(DeliveryGuarantee.NONE) is b
        assert b.set_transactional_id_prefix("p") is b
        assert b.set_record_serializer(record_serializer()) is b
        assert b.set_property("k", "v") is b


# ---------------------------------------------------------------------------------------------
# secrets never show up in repr / str / errors
# ---------------------------------------------------------------------------------------------

JAAS = 'org.apache.kafka.common.security.plain.PlainLoginModule required username="u" password="hunter2-jaas";'
KEY_PASSWORD = "hunter2-keypw"
SECRETS = ("hunter2",)


def assert_no_secret(*objects):
    for obj in objects:
        for text in (repr(obj), str(obj)):
            for secret in SECRETS:
                assert secret not in text, text


class TestSecretsRedacted:

    def secret_source_builder(self):
        return (basic_source_builder().set_property("sasl.jaas.config", JAAS)
                .set_properties({"ssl.key.password": KEY_PASSWORD, "security.protocol": "SASL_SSL"}))

    def test_source(self):
        b = self.secret_source_builder()
        src = b.build()
        assert src._spec.properties["sasl.jaas.config"] == JAAS       # the real value is kept
        assert src._spec.properties["ssl.key.password"] == KEY_PASSWORD
        assert_no_secret(b, src, src._spec, src._spec.properties)
        assert "SASL_SSL" in repr(src._spec)                           # non-secrets still visible
        assert "sasl.jaas.config" in repr(src._spec)

    def test_source_errors(self):
        b = (KafkaSource.builder().set_property("sasl.jaas.config", JAAS)
             .set_property("ssl.key.password", KEY_PASSWORD).set_property("enable.auto.commit", "true"))
        for step in (lambda: None, lambda: b.set_bootstrap_servers("b:1"), lambda: b.set_topics("t"),
                     lambda: b.set_value_only_deserializer(SimpleStringSchema())):
            step()
            with pytest.raises(JavaStyleError) as e:
                b.build()
            assert_no_secret(e.value)

    def test_sink(self):
        b = (KafkaSink.builder().set_bootstrap_servers("b:1").set_record_serializer(record_serializer())
             .set_property("sasl.jaas.config", JAAS).set_property("ssl.key.password", KEY_PASSWORD))
        sink = b.build()
        assert sink._spec.properties["sasl.jaas.config"] == JAAS
        assert_no_secret(b, sink, sink._spec, sink._spec.properties)
        b2 = KafkaSink.builder().set_property("sasl.jaas.config", JAAS)
        with pytest.raises(JavaStyleError) as e:
            b2.build()
        assert_no_secret(e.value, b2)

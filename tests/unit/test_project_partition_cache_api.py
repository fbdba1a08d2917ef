"""project, partition_custom and cache as PyFlink 2.3.0 builds them: types, checks and messages (taken from
runs on PyFlink 2.3.0), and the plan nodes the runtime reads."""
import pytest

from pyflink_compat.common import Types
from pyflink_compat.datastream import StreamExecutionEnvironment
from pyflink_compat.datastream.data_stream import CachedDataStream
from pyflink_compat.datastream.functions import Partitioner
from pyflink_compat.plan import graph
from pyflink_compat.util.exceptions import JavaStyleError

TRIPLE = Types.TUPLE([Types.INT(), Types.STRING(), Types.DOUBLE()])


@pytest.fixture
def triples():
    env = StreamExecutionEnvironment.get_execution_environment()
    return env.from_collection([(1, "a", 1.5)], type_info=TRIPLE)


def test_project_keeps_the_chosen_fields_in_order(triples):
    projected = triples.project(2, 0)
    assert repr(projected.get_type()) == "TupleTypeInfo(Double, Integer)"
    assert projected._node.kind == graph.PROJECT and projected._node.payload == (2, 0)
    assert projected._node.name == "Projection"


@pytest.mark.parametrize("indexes, java_class, message", [
    ((), "java.lang.IllegalArgumentException", "project() needs to select at least one (1) field."),
    (tuple(range(26)), "java.lang.IllegalArgumentException", "project() may select only up to (24) fields."),
    ((5,), "java.lang.IndexOutOfBoundsException", "Index: 5, Size: 3"),
])
def test_project_refuses_as_flink_does(triples, indexes, java_class, message):
    with pytest.raises(JavaStyleError) as error:
        triples.project(*indexes)
    assert error.value.java_class == java_class and error.value.message == message


def test_only_tuple_streams_can_be_projected(triples):
    with pytest.raises(Exception, match="^Only Tuple DataStreams can be projected.$"):
        triples.map(lambda x: x).project(0)


class First(Partitioner):
    def partition(self, key, num_partitions):
        return 0


def test_partition_custom_checks_its_arguments(triples):
    with pytest.raises(TypeError, match="^Parameter partitioner should be type of Partitioner or a callable "
                                        "function.$"):
        triples.partition_custom(1, lambda t: t[0])
    with pytest.raises(TypeError, match="^Parameter key_selector should be type of KeySelector or a callable "
                                        "function.$"):
        triples.partition_custom(First(), 1)


def test_partition_custom_is_a_stage_operator_keeping_the_type(triples):
    routed = triples.partition_custom(First(), lambda t: t[0])
    node = routed._node
    assert node.kind == graph.PARTITION_CUSTOM and node.kind in graph.STAGE_OPERATOR_KINDS
    assert node.output_type == TRIPLE and node.name == "_keyed_stream_values_operator"
    assert len(node.reserved_ids) == 2 and max(node.reserved_ids) < node.id


@pytest.mark.parametrize("setting, message", [
    (lambda c: c.set_parallelism(2), "Set parallelism for CachedDataStream is not supported."),
    (lambda c: c.name("x"), "Set name for CachedDataStream is not supported."),
    (lambda c: c.get_name(), "Get name of CachedDataStream is not supported."),
    (lambda c: c.uid("x"), "Set uid for CachedDataStream is not supported."),
    (lambda c: c.set_max_parallelism(4), "Set max parallelism for CachedDataStream is not supported."),
    (lambda c: c.slot_sharing_group("x"), "Setting slot sharing group for CachedDataStream is not supported."),
])
def test_a_cached_stream_refuses_settings_with_pyflinks_messages(triples, setting, message):
    cached = triples.cache()
    assert isinstance(cached, CachedDataStream) and cached._node is triples._node
    with pytest.raises(Exception, match="^%s$" % message.replace("(", r"\(").replace(")", r"\)")):
        setting(cached)
    cached.invalidate()
    assert cached.map(lambda x: x)._node.input is triples._node      # the same stream, computed again

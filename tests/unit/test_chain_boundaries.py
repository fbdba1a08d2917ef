"""Where PyFlink's chains of Python functions end (runtime/chain.chained): elements are converted to their
declared type there and nowhere inside a chain."""
from pyflink_compat.plan import graph
from pyflink_compat.runtime.chain import build_steps, chained


def _node(kind, upstream=None, **fields):
    return graph.Node(kind=kind, name=kind, output_type="declared", input=upstream, **fields)


def _two_maps(**first_fields):
    source = _node(graph.COLLECTION_SOURCE)
    first = _node(graph.MAP, source, payload=object(), **first_fields)
    second = _node(graph.MAP, first, payload=object())
    graph.count_readers([_node(graph.PRINT_SINK, second)])
    return first, second


def test_functions_of_one_parallelism_chain():
    first, second = _two_maps()
    assert chained(first, second, default_parallelism=2)
    steps = build_steps([first, second], 2)
    assert [step.convert_to for step in steps] == [None, None]


def test_another_parallelism_or_a_new_chain_ends_it():
    first, second = _two_maps(parallelism=1)
    assert not chained(first, second, default_parallelism=2)
    first, second = _two_maps(chaining=graph.CHAIN_NEVER)
    assert not chained(first, second, default_parallelism=2)


def test_python_operator_chaining_disabled_ends_every_chain():
    source = _node(graph.COLLECTION_SOURCE)
    first = _node(graph.MAP, source, payload=object())
    second = _node(graph.FILTER, first, payload=object())
    graph.count_readers([_node(graph.PRINT_SINK, second)], python_chaining=False)
    assert not chained(first, second, default_parallelism=2)
    assert [step.convert_to for step in build_steps([first, second], 2)] == ["declared", None]
    graph.count_readers([_node(graph.PRINT_SINK, second)], python_chaining=True)
    assert chained(first, second, default_parallelism=2)


def test_a_function_with_another_reader_ends_its_chain():
    source = _node(graph.COLLECTION_SOURCE)
    first = _node(graph.MAP, source, payload=object())
    second = _node(graph.MAP, first, payload=object())
    graph.count_readers([_node(graph.PRINT_SINK, second), _node(graph.PRINT_SINK, first)])
    assert not chained(first, second, default_parallelism=2)

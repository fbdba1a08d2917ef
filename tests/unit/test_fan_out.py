"""One pass for several sinks of a source (runtime/fan_out.py, translate.route_groups): the tree of functions
each element goes through once, and which sinks share a pass."""
from pyflink_compat.common.typeinfo import Types
from pyflink_compat.datastream import OutputTag, ProcessFunction, StreamExecutionEnvironment
from pyflink_compat.plan import graph
from pyflink_compat.runtime import fan_out, translate


def _outlets(sinks):
    outlets = []
    for index, sink in enumerate(sinks):
        chain = sink.chain()
        outlets.append(fan_out.Outlet(index=index, kind=sink.kind, nodes=tuple(chain[1:-1]),
                                      element_type=chain[-2].output_type, parallelism=1))
    return outlets


def _run(sinks, elements):
    outlets = _outlets(sinks)
    root, ends, _ = fan_out._tree(sinks[0].chain()[0].output_type, outlets)
    outputs = fan_out._evaluate(root, list(elements), [None] * len(elements))
    return [outputs[end.key][0] for end in ends]


class Counting:
    calls = 0


def test_functions_before_the_split_run_once_per_element():
    env = StreamExecutionEnvironment.get_execution_environment()
    Counting.calls = 0

    def shout(s):
        Counting.calls += 1
        return s.upper()

    upper = env.from_collection(["a", "bb"], Types.STRING()).map(shout, Types.STRING())
    first = upper.print()._node
    second = upper.filter(lambda s: len(s) > 1).map(lambda s: s + "!", Types.STRING()).print()._node
    assert _run([first, second], ["a", "bb"]) == [["A", "BB"], ["BB!"]]
    assert Counting.calls == 2


def test_each_branch_gets_its_own_elements():
    env = StreamExecutionEnvironment.get_execution_environment()

    def append(values):
        values.append("x")              # changes its input in place
        return values

    lists = env.from_collection([["a"]]).map(lambda v: v)
    changed = lists.map(append).print()._node
    kept = lists.map(lambda v: list(v)).print()._node
    assert _run([changed, kept], [["a"]]) == [[["a", "x"]], [["a"]]]


class Split(ProcessFunction):
    calls = 0

    def process_element(self, value, ctx):
        Split.calls += 1
        if value % 2:
            yield ODD, value
        else:
            yield value


ODD = OutputTag("odd", Types.INT())


def test_a_process_function_feeds_its_main_and_side_outputs_from_one_call():
    env = StreamExecutionEnvironment.get_execution_environment()
    Split.calls = 0
    processed = env.from_collection([1, 2, 3, 4], Types.INT()).process(Split(), Types.INT())
    main = processed.map(lambda v: v * 10, Types.INT()).print()._node
    side = processed.get_side_output(ODD).print()._node
    assert _run([main, side], [1, 2, 3, 4]) == [[20, 40], [1, 3]]
    assert Split.calls == 4


def test_routes_are_grouped_by_their_source():
    env = StreamExecutionEnvironment.get_execution_environment()
    one = env.from_collection([1], Types.INT())
    two = env.from_collection([2], Types.INT())
    a = one.print()._node
    b = two.print()._node
    c = one.map(lambda v: v).print()._node
    groups = translate.route_groups(translate.job_routes([a, b, c]))
    assert [[route.sink for route in group] for group in groups] == [[a, c], [b]]
    keyed = one.key_by(lambda v: v).reduce(lambda x, y: x).print()._node
    by_sink = {route.sink.id: route for route in translate.job_routes([a, c, keyed])}
    assert not translate._one_pass([by_sink[a.id], by_sink[keyed.id]], {})    # a keyed stage: its own query
    assert translate._one_pass([by_sink[a.id], by_sink[c.id]], {})
    assert translate._one_pass([by_sink[a.id], by_sink[c.id]], {"pyflink-compat.sink.direct": "false"})
    assert [n.kind for n in keyed.chain()][-3:] == [graph.KEY_BY, graph.KEYED_PROCESS, graph.PRINT_SINK]


def test_a_sink_behind_a_union_has_one_route_per_source():
    env = StreamExecutionEnvironment.get_execution_environment()
    one = env.from_collection([1], Types.INT())
    two = env.from_collection([2], Types.INT()).map(lambda v: v + 1, Types.INT())
    merged = one.union(two, one).map(lambda v: v * 10, Types.INT()).print()._node
    routes = translate.job_routes([merged])
    assert [route.branch for route in routes] == [0, 1, 2]
    assert [[n.kind for n in route.chain] for route in routes] == [
        [graph.COLLECTION_SOURCE, graph.MAP, graph.PRINT_SINK],
        [graph.COLLECTION_SOURCE, graph.MAP, graph.MAP, graph.PRINT_SINK],
        [graph.COLLECTION_SOURCE, graph.MAP, graph.PRINT_SINK]]
    # the stream given twice: one pass over its source feeds the sink twice
    assert [len(group) for group in translate.route_groups(routes)] == [2, 1]


def test_routes_meeting_in_a_keyed_operation_form_one_group():
    env = StreamExecutionEnvironment.get_execution_environment()
    one = env.from_collection([1], Types.INT())
    two = env.from_collection([2], Types.INT())
    keyed_before = one.key_by(lambda v: v).reduce(lambda x, y: x + y).union(two).print()._node
    assert [len(group) for group in translate.route_groups(translate.job_routes([keyed_before]))] == [1, 1]
    after = one.union(two).key_by(lambda v: v).reduce(lambda x, y: x + y).print()._node
    assert [len(group) for group in translate.route_groups(translate.job_routes([after]))] == [2]
    between = one.key_by(lambda v: v).reduce(lambda x, y: x + y).union(two).key_by(lambda v: v) \
        .reduce(lambda x, y: x).print()._node
    routes = translate.job_routes([between])           # the second source enters at the second stage
    assert [len(group) for group in translate.route_groups(routes)] == [2]
    assert _head_depths(routes) == [0, 1]
    # two keyed outputs merged and keyed again: two lanes at the first depth, both handing to the last one
    first_sum, second_sum = one.key_by(lambda v: v).reduce(lambda x, y: x + y), two.key_by(lambda v: v).reduce(
        lambda x, y: x)
    both_keyed = first_sum.union(second_sum).key_by(lambda v: v).reduce(lambda x, y: x).print()._node
    routes = translate.job_routes([both_keyed])
    assert [len(group) for group in translate.route_groups(routes)] == [2]
    stages = translate.job_stage_graph(routes)
    last = stages.tails[0].operator
    assert [[op.id for op in stages.at_depth(depth)] for depth in range(stages.depths)] == [
        [first_sum._node.id, second_sum._node.id], [last.id]]
    assert [(handoff.sender.id, handoff.operator.id) for handoff in stages.handoffs] == [
        (first_sum._node.id, last.id), (second_sum._node.id, last.id)]
    # a union of two outputs of one operation read by one sink: one query, the sink reads both ways out of it
    split = one.key_by(lambda v: v).reduce(lambda x, y: x + y)
    both_ways = split.union(split.map(lambda v: v, Types.INT())).print()._node
    routes = translate.job_routes([both_ways])
    assert [len(group) for group in translate.route_groups(routes)] == [2]
    tails = translate.job_stage_graph(routes).tails
    assert [(tail.sink, tail.operator, [node.kind for node in tail.nodes]) for tail in tails] == [
        (both_ways, split._node, []), (both_ways, split._node, [graph.MAP])]


def _head_depths(routes):
    """The depth of the stage each source's read enters."""
    stages = translate.job_stage_graph(routes)
    return [stages.depth[head.operator.id] for head in stages.heads]


def test_sinks_reading_one_keyed_operation_form_one_group_unless_shared_pass_is_off():
    env = StreamExecutionEnvironment.get_execution_environment()
    late = OutputTag("late", Types.INT())
    reduced = env.from_collection([1, 2], Types.INT()).key_by(lambda v: v % 2).reduce(lambda x, y: x + y)
    main = reduced.print()._node
    mapped = reduced.map(lambda v: v * 2, Types.INT()).print()._node
    side = reduced.get_side_output(late).print()._node
    groups = translate.route_groups(translate.job_routes([main, mapped, side]))
    assert [[route.sink for route in group] for group in groups] == [[main, mapped, side]]
    assert all(route.staged for route in groups[0])
    separate = translate.route_groups(translate.job_routes([main, mapped, side], shared=False))
    assert [[route.sink for route in group] for group in separate] == [[main], [mapped], [side]]
    # a second keyed operation after the first: the first still runs once, feeding its sinks and the second
    second = reduced.key_by(lambda v: v).reduce(lambda x, y: x)
    again = second.print()._node
    groups = translate.route_groups(translate.job_routes([main, again, side]))
    assert [[route.sink for route in group] for group in groups] == [[main, again, side]]
    stages = translate.job_stage_graph(groups[0])
    assert [[op.id for op in stages.at_depth(depth)] for depth in range(stages.depths)] == [
        [reduced._node.id], [second._node.id]]
    assert [(tail.sink, tail.stage) for tail in stages.tails] == [
        (main, reduced._node), (again, second._node), (side, reduced._node)]
    assert [len(group) for group in translate.route_groups(translate.job_routes([main, again], shared=False))] == [
        1, 1]
    # two operations after it, each with its sinks, and a union of its output with a later one's: one query
    other = reduced.key_by(lambda v: v + 1).reduce(lambda x, y: y)
    union_sink = other.union(reduced).print()._node
    groups = translate.route_groups(translate.job_routes([again, other.print()._node, union_sink, main]))
    assert [len(group) for group in groups] == [5]
    stages = translate.job_stage_graph(groups[0])
    assert [len(stages.at_depth(depth)) for depth in range(stages.depths)] == [1, 2]


def test_a_two_input_operations_output_merged_with_a_stream_beside_it_runs_in_two_queries():
    from pyflink_compat.datastream.functions import CoMapFunction

    class Both(CoMapFunction):
        def map1(self, value):
            return value

        def map2(self, value):
            return value

    env = StreamExecutionEnvironment.get_execution_environment()
    one, two, three = (env.from_collection([n], Types.INT()) for n in (1, 2, 3))
    mapped = one.connect(two).map(Both(), Types.INT())
    again = mapped.connect(three).map(Both(), Types.INT()).print()._node      # connect after connect: one chain
    routes = translate.job_routes([again])
    assert [len(group) for group in translate.route_groups(routes)] == [3]
    assert _head_depths(routes) == [0, 0, 1]
    # its output merged with a stream beside it: a query for the operation, one for the other stream
    beside = mapped.union(three).print()._node
    assert [len(group) for group in translate.route_groups(translate.job_routes([beside]))] == [2, 1]


def test_the_operators_nothing_reads_are_the_ends_flink_runs():
    env = StreamExecutionEnvironment.get_execution_environment()
    source = env.from_collection([1], Types.INT())
    mapped = source.map(lambda v: v, Types.INT())
    mapped.print()
    dangling_map = mapped.filter(lambda v: True).map(lambda v: v, Types.INT())
    mapped.rebalance()                                   # only a partitioning of a stream print() reads
    keyed = mapped.key_by(lambda v: v)
    only_rebalanced = source.map(lambda v: v + 1, Types.INT())
    only_rebalanced.rebalance()
    env.from_collection([2], Types.INT())                # a source nothing reads: no operator of its own
    ends = env._dangling()
    assert [node.id for node in ends] == [dangling_map._node.id, keyed._node.id, only_rebalanced._node.id]
    env.close()


def test_keyed_operations_reading_one_key_by_form_one_group():
    from pyflink_compat.datastream.window import CountTumblingWindowAssigner
    env = StreamExecutionEnvironment.get_execution_environment()
    source = env.from_collection([1, 2], Types.INT())
    keyed = source.key_by(lambda v: v % 2)
    rolling = keyed.reduce(lambda x, y: x + y).print()._node
    windowed = keyed.window(CountTumblingWindowAssigner.of(2)).reduce(lambda x, y: x).print()._node
    # another key_by of the same stream, a second stage after one of them, another parallelism: queries of
    # their own
    other_key_by = source.key_by(lambda v: v % 3).reduce(lambda x, y: x).print()._node
    two_stages = keyed.reduce(lambda x, y: x).key_by(lambda v: v).reduce(lambda x, y: y).print()._node
    wider = keyed.reduce(lambda x, y: y).set_parallelism(3).print()._node
    sinks = [rolling, windowed, other_key_by, two_stages, wider]
    groups = translate.route_groups(translate.job_routes(sinks))
    assert [[route.sink for route in group] for group in groups] == [[rolling, windowed], [other_key_by],
                                                                     [two_stages], [wider]]
    stages = translate.job_stage_graph(groups[0])
    assert stages.depths == 1 and _head_depths(groups[0]) == [0]
    assert [node.kind for node in stages.siblings] == [graph.KEYED_PROCESS, graph.WINDOW]
    # without the shared pass every sink has its query
    separate = translate.route_groups(translate.job_routes(sinks, shared=False))
    assert [len(group) for group in separate] == [1, 1, 1, 1, 1]


def test_a_union_of_two_keyed_operations_of_one_key_by_keeps_a_query_per_operation():
    env = StreamExecutionEnvironment.get_execution_environment()
    keyed = env.from_collection([1, 2], Types.INT()).key_by(lambda v: v % 2)
    merged = keyed.reduce(lambda x, y: x + y).union(keyed.reduce(lambda x, y: y)).print()._node
    beside = keyed.reduce(lambda x, y: x).print()._node
    groups = translate.route_groups(translate.job_routes([merged, beside]))
    assert [[route.sink for route in group] for group in groups] == [[merged, beside], [merged]]
